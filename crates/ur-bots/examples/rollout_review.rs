//! The rollout review's benchmark (BENCHMARKS.md, "Rollout review"): plays
//! a game of any rule set between two bots, then reviews it by rollouts
//! and prints the time, the game's size and how sure the judge was.
//!
//! ```text
//! cargo run --release -p ur-bots --example rollout_review -- bens-ur
//! cargo run --release -p ur-bots --example rollout_review -- guard-d6 --trials 128 --tail random --head greedy:1
//! ```
//!
//! Flags: `--trials N`, `--seed S` (the judge's), `--game-seed G`,
//! `--bots LIGHT,DARK` (default `level3,level3`), `--head POLICY:TURNS`,
//! `--tail POLICY`, `--truncate ROLLS` (0: play to the end), `--threads N`.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_bots::make_bot;
use ur_bots::review_any::{review_any, AnyNoteKind, AnyStep};
use ur_bots::rollout::{Policy, RolloutConfig, RolloutJudge};
use ur_rules::{AnyGame, Options, Playable, Side, Turn};

fn main() {
    if let Err(e) = run() {
        eprintln!("rollout_review: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = args.first().filter(|a| !a.starts_with("--")).ok_or("give a rule-set id first, e.g. bens-ur")?;
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str);
    let num = |name: &str, default: u64| -> Result<u64, String> {
        flag(name).map_or(Ok(default), |v| v.parse().map_err(|_| format!("{name} takes a whole number, not '{v}'")))
    };
    let policy = |text: &str| Policy::parse(text).ok_or(format!("unknown policy '{text}'; use random, greedy, expectimax:D or mcts:N"));
    let mut config = RolloutConfig::with(num("--trials", u64::from(ur_bots::rollout::DEFAULT_TRIALS))? as u32, num("--seed", 1)?);
    if let Some(tail) = flag("--tail") {
        config.tail = policy(tail)?;
    }
    if let Some(head) = flag("--head") {
        let (p, turns) = head.rsplit_once(':').ok_or("--head takes POLICY:TURNS, e.g. expectimax:2:1")?;
        config.head = policy(p)?;
        config.head_turns = turns.parse().map_err(|_| format!("--head: '{turns}' is not a number of turns"))?;
    }
    if let Some(t) = flag("--truncate") {
        let t: u32 = t.parse().map_err(|_| format!("--truncate takes a number of rolls (0: none), not '{t}'"))?;
        config.truncate = (t > 0).then_some(t);
    }
    if let Some(n) = flag("--threads") {
        let n = n.parse().map_err(|_| format!("--threads takes a number, not '{n}'"))?;
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().map_err(|e| e.to_string())?;
    }
    let bots = flag("--bots").unwrap_or("level3,level3");
    let (light, dark) = bots.split_once(',').ok_or("--bots takes LIGHT,DARK")?;
    let (start, steps) = play(rules, light, dark, num("--game-seed", 7)?)?;
    let decisions = count_decisions(&start, &steps);
    let rolls = steps.iter().filter(|s| matches!(s, AnyStep::Roll(_))).count();
    let t0 = Instant::now();
    let judge = RolloutJudge::new(&start, config);
    if let Some(c) = judge.calibration() {
        println!("  calibration: a {:.3}, b {:.3} from {} roll turns ({:.1} s)", c.a, c.b, c.samples, t0.elapsed().as_secs_f64());
    }
    let rev = review_any(&start, &steps, &judge, |_| {}).map_err(|e| e.to_string())?;
    let secs = t0.elapsed().as_secs_f64();
    let s = &rev.sureness;
    println!(
        "{rules}: {} steps, {rolls} rolls, {decisions} decisions with a choice; {} in {secs:.1} s on {} threads ({:.0} ms per decision)",
        steps.len(),
        rev.judge,
        rayon::current_num_threads(),
        1000.0 * secs / decisions.max(1) as f64
    );
    println!(
        "  95% half-widths: choice value ±{:.1} pp, loss ±{:.1} pp, luck ±{:.1} pp; sure verdicts {}/{}",
        100.0 * s.value_half,
        100.0 * s.loss_half,
        100.0 * s.luck_half,
        s.sure_verdicts,
        s.verdicts
    );
    for side in [Side::Light, Side::Dark] {
        let t = &rev.sides[side.index()];
        println!(
            "  {:<8} decisions {:>3}, best {:>3}, ?! {:>2}, ? {:>2}, ?? {:>2}, loss {:>6.2} pp, luck {:+6.2} pp",
            start.side_name(side),
            t.decisions,
            t.best,
            t.inaccuracies,
            t.mistakes,
            t.blunders,
            100.0 * t.total_loss,
            100.0 * t.luck
        );
    }
    let losses: usize = rev.notes.iter().filter(|n| matches!(n.kind, AnyNoteKind::Decision { .. })).count();
    println!("  winner {:?}, over {}, decision notes {losses}", rev.winner, rev.over);
    Ok(())
}

/// A game between two bots, with its steps.
fn play(rules: &str, light: &str, dark: &str, seed: u64) -> Result<(AnyGame, Vec<AnyStep>), String> {
    let start = AnyGame::new(rules, &Options::new(), Side::Light).map_err(|e| e.to_string())?;
    let mut bots = [make_bot(light, seed).map_err(|e| e.to_string())?, make_bot(dark, seed + 1).map_err(|e| e.to_string())?];
    let mut dice = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut game, mut steps) = (start.clone(), Vec::new());
    while steps.len() < 100_000 {
        let step = match game.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => AnyStep::Roll(game.roll_with(&mut dice).map_err(|e| e.to_string())?),
            Turn::Decide(side) => {
                let action = bots[side.index()].decide(&game);
                game.apply(&action).map_err(|e| e.to_string())?;
                AnyStep::Act(action)
            }
        };
        steps.push(step);
    }
    Ok((start, steps))
}

/// Decisions with two or more choices.
fn count_decisions(start: &AnyGame, steps: &[AnyStep]) -> usize {
    let mut game = start.clone();
    let mut n = 0;
    for step in steps {
        match step {
            AnyStep::Roll(raw) => game.roll(*raw).expect("the game's own roll"),
            AnyStep::Act(a) => {
                n += usize::from(game.actions().len() >= 2);
                game.apply(a).expect("the game's own action");
            }
        }
    }
    n
}
