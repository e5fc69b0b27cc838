//! Measurements of the bots (not tests): speed, matches, regret.
//!
//! ```text
//! cargo run --release -p ur-bots --example measure -- speed finkel expectimax:3 200
//! cargo run --release -p ur-bots --example measure -- match finkel level5 greedy 400
//! cargo run --release -p ur-bots --example measure -- regret /tmp/f4.urt expectimax:3 2000
//! ```

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_bots::{decide_race, make_bot, make_bot_with_table, play_race, Bot, Oracle};
use ur_rules::{Action, AnyGame, Dice, Game, Phase, Rules, SeededDice, Side};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    match a(0) {
        "speed" => speed(&rules(a(1)), a(2), a(3).parse().unwrap_or(200)),
        "match" => {
            let threads = a(5).parse().unwrap_or(2);
            duel(&rules(a(1)), a(2), a(3), a(4).parse().unwrap_or(400), threads, None);
        }
        "match-table" => {
            let (rules, oracle) = table(a(1));
            duel(&rules, a(2), a(3), a(4).parse().unwrap_or(400), 2, Some(&oracle));
        }
        "regret" => regret(a(1), a(2), a(3).parse().unwrap_or(1000)),
        _ => eprintln!(
            "usage: measure speed RULES BOT N | match RULES A B GAMES [THREADS] | match-table TABLE A B GAMES | regret TABLE BOT N"
        ),
    }
}

fn rules(spec: &str) -> Arc<Rules> {
    let (id, pieces) = spec.split_once(':').map_or((spec, None), |(i, n)| (i, Some(n.parse::<i64>().unwrap())));
    let mut opts = ur_rules::Options::new();
    if let Some(n) = pieces {
        opts.insert("pieces".into(), ur_rules::OptionValue::Int(n));
    }
    Arc::new(Rules::builtin_with(id, &opts).unwrap())
}

fn table(path: &str) -> (Arc<Rules>, Oracle) {
    let t = Arc::new(ur_solve::Table::open(Path::new(path)).unwrap());
    let rules = Arc::new(Rules::builtin_with(&t.header.rules_id, &t.header.options).unwrap());
    let o = Oracle::new(t, rules.clone(), Path::new(path)).unwrap();
    (rules, o)
}

/// Time per decision, on positions from games between two level-3 bots.
fn speed(rules: &Arc<Rules>, name: &str, n: usize) {
    let mut bot = make_bot(name, 1).unwrap();
    let mut driver = make_bot("level3", 2).unwrap();
    let mut times = Vec::new();
    let mut seed = 0;
    while times.len() < n {
        seed += 1;
        let mut game = Game::new(rules.clone(), Side::Light);
        let mut dice = SeededDice::new(seed);
        while game.phase() != Phase::Over && times.len() < n {
            if game.phase() == Phase::Roll {
                game.roll(dice.throw(rules.dice())).unwrap();
                continue;
            }
            let many = game.phase() != Phase::Move || game.legal_moves().len() > 1;
            if many {
                let any = AnyGame::Race(game.clone());
                let t = Instant::now();
                bot.decide(&any);
                times.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            game.apply(decide_race(&mut *driver, &game)).unwrap();
        }
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "{name} on {}: {} decisions (2+ options), mean {mean:.3} ms, median {:.3} ms, p95 {:.3} ms, max {:.3} ms",
        rules.id(),
        times.len(),
        times[times.len() / 2],
        times[times.len() * 19 / 20],
        times[times.len() - 1]
    );
}

/// Games between two bots, each side equally often with the same dice.
fn duel(rules: &Arc<Rules>, a: &str, b: &str, games: u64, threads: u64, oracle: Option<&Oracle>) {
    let started = Instant::now();
    let pairs = games / 2;
    let results: Vec<(u64, u64)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let (mut wins, mut played) = (0, 0);
                    for p in (t..pairs).step_by(threads as usize) {
                        for swap in [false, true] {
                            let mut x = make_bot_with_table(a, p * 2 + 1, oracle).unwrap();
                            let mut y = make_bot_with_table(b, p * 2 + 2, oracle).unwrap();
                            let (light, dark): (&mut dyn Bot, &mut dyn Bot) = if swap { (&mut *y, &mut *x) } else { (&mut *x, &mut *y) };
                            let w = play(rules, light, dark, p + 1_000_000);
                            let a_side = if swap { Side::Dark } else { Side::Light };
                            wins += u64::from(w == a_side);
                            played += 1;
                        }
                    }
                    (wins, played)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wins: u64 = results.iter().map(|r| r.0).sum();
    let n: u64 = results.iter().map(|r| r.1).sum();
    let p = wins as f64 / n as f64;
    let ci = 1.96 * (p * (1.0 - p) / n as f64).sqrt();
    println!(
        "{a} vs {b} on {} ({} pieces): {a} wins {wins}/{n} = {:.1}% ± {:.1}% ({:.1} s)",
        rules.id(),
        rules.pieces(),
        100.0 * p,
        100.0 * ci,
        started.elapsed().as_secs_f64()
    );
}

fn play(rules: &Arc<Rules>, light: &mut dyn Bot, dark: &mut dyn Bot, seed: u64) -> Side {
    play_race(rules, light, dark, seed, usize::MAX).unwrap().winner().unwrap()
}

/// Mean loss of win probability per move decision with 2+ legal moves, on
/// positions from games where both sides play the table's move 80% of the
/// time and a random one otherwise.
fn regret(path: &str, name: &str, n: usize) {
    let (rules, oracle) = table(path);
    let mut bot = make_bot(name, 1).unwrap();
    // REGRET_DRIVER=BOT: positions from that bot's self-play instead.
    let mut driver = std::env::var("REGRET_DRIVER").ok().map(|d| make_bot(&d, 5).unwrap());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut loss, mut count, mut time) = (0.0, 0usize, 0.0);
    let mut seed = 0;
    while count < n {
        seed += 1;
        let mut game = Game::new(rules.clone(), Side::Light);
        let mut dice = SeededDice::new(seed);
        while game.phase() != Phase::Over && count < n {
            match game.phase() {
                Phase::Roll => {
                    game.roll(dice.throw(rules.dice())).unwrap();
                }
                Phase::Move => {
                    let t = game.throw().unwrap();
                    let vals = oracle.move_values(game.state(), &t);
                    if vals.len() > 1 {
                        let any = AnyGame::Race(game.clone());
                        let started = Instant::now();
                        let a = *bot.decide(&any).as_race().unwrap();
                        time += started.elapsed().as_secs_f64();
                        let Action::Move(m) = a else { panic!() };
                        let v = vals.iter().find(|x| x.0.from == m.from && x.0.to == m.to).unwrap().1;
                        loss += vals[0].1 - v;
                        count += 1;
                    }
                    if let Some(d) = driver.as_mut() {
                        let a = decide_race(&mut **d, &game);
                        game.apply(a).unwrap();
                        continue;
                    }
                    let m = if rng.gen_bool(0.2) { game.legal_moves()[rng.gen_range(0..game.legal_moves().len())] } else { vals[0].0 };
                    game.play(m).unwrap();
                }
                _ => {
                    let a = decide_race(&mut *bot, &game);
                    game.apply(a).unwrap();
                }
            }
        }
    }
    println!(
        "{name} on {} ({} pieces): mean regret {:.4} pp per move decision over {count} decisions, {:.2} ms per decision",
        rules.id(),
        rules.pieces(),
        100.0 * loss / count as f64,
        1000.0 * time / count as f64
    );
}
