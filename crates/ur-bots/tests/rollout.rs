//! The rollout judge against a solved table (its intervals, which include
//! the truncation's allowance, should hold the exact values about 95% of
//! the time), its reviews of the families beyond the race, and its
//! determinism.

use std::sync::Arc;

use ur_bots::review::{review, Judge, NoteKind, Verdict, BLUNDER, INACCURACY, MISTAKE};
use ur_bots::review_any::{review_any, AnyNoteKind, AnyReview, AnyStep};
use ur_bots::rollout::{Estimate, RolloutConfig, RolloutJudge};
use ur_bots::{make_bot, play_race};
use ur_rules::{Action, AnyAction, AnyGame, Game, GameRecord, OptionValue, Options, Playable, Rules, Side, Turn};

mod common;
use common::oracle;

fn rules(id: &str, pieces: i64) -> Arc<Rules> {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Arc::new(Rules::builtin_with(id, &opts).unwrap())
}

/// A race game's start and steps.
fn race_steps(game: &Game) -> (AnyGame, Vec<AnyStep>, GameRecord) {
    let record = GameRecord::of(game, None);
    let start = AnyGame::Race(record.start_game().unwrap());
    let steps = record
        .actions
        .iter()
        .map(|&a| match a {
            Action::Roll(raw) => AnyStep::Roll(raw),
            a => AnyStep::Act(AnyAction::Race(a)),
        })
        .collect();
    (start, steps, record)
}

/// The verdict's range, best and good as one.
fn class(loss: f64) -> u8 {
    u8::from(loss >= INACCURACY) + u8::from(loss >= MISTAKE) + u8::from(loss >= BLUNDER)
}

#[derive(Default, Debug)]
struct Tally {
    values: (u32, u32),
    losses: (u32, u32),
    verdicts: (u32, u32),
    unsure: u32,
}

fn count(pair: &mut (u32, u32), ok: bool) {
    pair.0 += u32::from(ok);
    pair.1 += 1;
}

/// Checks one rollout review against the table's, decision by decision.
fn compare(table: &Judge, start: &AnyGame, steps: &[AnyStep], rev: &AnyReview, t: &mut Tally) {
    let mut game = start.as_race().unwrap().clone();
    let mut notes = rev.notes.iter().peekable();
    for (index, step) in steps.iter().enumerate() {
        let note = notes.next_if(|n| n.step == index);
        match (step, note.map(|n| &n.kind)) {
            (AnyStep::Roll(raw), Some(AnyNoteKind::Roll { before, .. })) => {
                let (exact, _) = table.roll(&game, *raw);
                count(&mut t.values, before.contains(exact));
            }
            (AnyStep::Act(_), Some(AnyNoteKind::Decision { choices, best, played, loss, verdict, sure, .. })) => {
                let exact = table.action_values(&game);
                let value_of = |text: &str| exact.iter().find(|(a, _)| a.to_string() == *text).map(|x| x.1).unwrap();
                for c in choices {
                    count(&mut t.values, c.win.contains(value_of(&c.action)));
                }
                let exact_loss = value_of(best) - value_of(played);
                if best != played {
                    count(&mut t.losses, loss.contains(exact_loss));
                }
                let table_loss = exact[0].1 - value_of(played);
                if *sure {
                    count(&mut t.verdicts, class(loss.mean) == class(table_loss) || *verdict == Verdict::Best && class(table_loss) == 0);
                } else {
                    t.unsure += 1;
                }
            }
            (_, None) => {}
            (s, Some(k)) => panic!("step {index} {s:?} got note {k:?}"),
        }
        let action = match step {
            AnyStep::Roll(raw) => Action::Roll(*raw),
            AnyStep::Act(a) => *a.as_race().unwrap(),
        };
        game.apply(action).unwrap();
    }
    assert!(notes.next().is_none(), "every note belongs to a step");
}

/// The rollout reviews of `games` games of 2-piece Finkel (a weak player,
/// soft-max noise and 30% random decisions, against level 3) compared
/// with the table's, under `config` with each game's seed.
fn against_the_table(config: &RolloutConfig, games: u64) -> Tally {
    let r = rules("finkel", 2);
    let dir = tempfile::tempdir().unwrap();
    let table = Judge::Table(oracle(&r, dir.path()));
    let mut tally = Tally::default();
    for seed in 1..=games {
        let mut light = make_bot("noisy:0.02:0.3", seed).unwrap();
        let mut dark = make_bot("level3", seed + 100).unwrap();
        let game = play_race(&r, &mut *light, &mut *dark, seed, usize::MAX).unwrap();
        let (start, steps, record) = race_steps(&game);
        let judge = RolloutJudge::new(&start, RolloutConfig { seed, ..config.clone() });
        let rev = review_any(&start, &steps, &judge, |_| {}).unwrap();
        assert_eq!(rev.winner, game.winner());
        let exact = review(&record, &table, |_| {}).unwrap();
        let exact_decisions = exact.notes.iter().filter(|n| matches!(n.kind, NoteKind::Decision { .. })).count();
        let our_decisions = rev.notes.iter().filter(|n| matches!(n.kind, AnyNoteKind::Decision { .. })).count();
        assert_eq!(our_decisions, exact_decisions, "the same decisions are judged (seed {seed})");
        compare(&table, &start, &steps, &rev, &mut tally);
    }
    eprintln!("{}: {tally:?}", config.truncate.map_or("played to the end".into(), |t| format!("truncated after {t} rolls")));
    assert!(tally.values.1 > 100 && tally.losses.1 > 10, "{tally:?}");
    tally
}

fn share((ok, n): (u32, u32)) -> f64 {
    f64::from(ok) / f64::from(n.max(1))
}

/// The chance of `ok` or fewer successes in `n` trials of chance `p`.
fn binomial_cdf(ok: u32, n: u32, p: f64) -> f64 {
    // Each term in logarithms: (1 - p)^n alone underflows for large n.
    let (mut ln_term, mut sum) = (f64::from(n) * (1.0 - p).ln(), 0.0);
    for k in 0..=ok.min(n) {
        sum += ln_term.exp();
        ln_term += (f64::from(n - k) / f64::from(k + 1) * p / (1.0 - p)).ln();
    }
    sum
}

/// Fails when `ok` of `n` intervals holding the exact value is too few for
/// a coverage of 90% or more (a chance under 1 in 1000 of so few).
fn covers_90((ok, n): (u32, u32), what: &str, tally: &Tally) {
    let chance = binomial_cdf(ok, n, 0.9);
    assert!(chance >= 1e-3, "{what}: {ok} of {n} inside their interval, too few for 90% coverage (chance {chance:.1e}): {tally:?}");
}

#[test]
fn the_binomial_check_tells_a_low_coverage() {
    assert!((binomial_cdf(3, 3, 0.5) - 1.0).abs() < 1e-12);
    assert!((binomial_cdf(1, 3, 0.5) - 0.5).abs() < 1e-12);
    assert!(binomial_cdf(165, 200, 0.9) < 1e-2 && binomial_cdf(175, 200, 0.9) > 0.05);
    assert!(binomial_cdf(590, 660, 0.9) > 0.3 && binomial_cdf(560, 660, 0.9) < 1e-3, "no underflow at large n");
}

#[test]
fn on_a_solved_race_the_intervals_hold_the_exact_values() {
    // The default judge: playouts cut after 12 rolls and scored by the
    // learned evaluation, the values' intervals widened by the truncation's
    // allowance. Without it, 84% of values were inside.
    let tally = against_the_table(&RolloutConfig::with(256, 0), 8);
    assert!(tally.values.1 >= 400 && tally.losses.1 >= 30, "a meaningful sample: {tally:?}");
    covers_90(tally.values, "values", &tally);
    covers_90(tally.losses, "losses", &tally);
    assert!(share(tally.verdicts) >= 0.9, "sure verdicts agreeing with the table's: {tally:?}");
}

#[test]
fn played_to_the_end_the_intervals_hold_the_exact_values() {
    // Untruncated, the values are the policy's (one move ahead by the
    // learned evaluation), close to perfect play's here; no allowance.
    let tally = against_the_table(&RolloutConfig { truncate: None, ..RolloutConfig::with(256, 0) }, 4);
    covers_90(tally.values, "values", &tally);
    covers_90(tally.losses, "losses", &tally);
    assert!(share(tally.verdicts) >= 0.9, "sure verdicts agreeing with the table's: {tally:?}");
}

/// A game of a built-in rule set between two bots, capped at `max_steps`.
fn bot_game(id: &str, light: &str, dark: &str, seed: u64, max_steps: usize) -> (AnyGame, Vec<AnyStep>, AnyGame) {
    use rand::SeedableRng;
    let start = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
    let mut bots = [make_bot(light, seed).unwrap(), make_bot(dark, seed + 1).unwrap()];
    let mut dice = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut game, mut steps) = (start.clone(), Vec::new());
    while steps.len() < max_steps {
        let step = match game.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => AnyStep::Roll(game.roll_with(&mut dice).unwrap()),
            Turn::Decide(side) => {
                let a = bots[side.index()].decide(&game);
                game.apply(&a).unwrap();
                AnyStep::Act(a)
            }
        };
        steps.push(step);
    }
    (start, steps, game)
}

#[test]
fn games_beyond_the_race_get_sane_reviews() {
    for id in ["bens-ur", "ludens-akalandung", "guard-d6"] {
        let (start, steps, end) = bot_game(id, "greedy", "random", 5, 400);
        let judge = RolloutJudge::new(&start, RolloutConfig::with(24, 3));
        let mut done = 0;
        let rev = review_any(&start, &steps, &judge, |d| done = d).unwrap();
        assert_eq!(done, steps.len(), "{id}");
        assert_eq!((rev.over, rev.winner), (matches!(end.turn(), Turn::Over(_)), end.winner()), "{id}");
        assert!(rev.judge.starts_with("rollout:24"), "{}", rev.judge);
        let rolls = steps.iter().filter(|s| matches!(s, AnyStep::Roll(_))).count() as u32;
        assert_eq!(rev.sides[0].rolls + rev.sides[1].rolls, rolls, "{id}: every roll judged");
        for s in &rev.sides {
            assert!(s.decisions > 0, "{id}: {s:?}");
            assert!(s.best + s.inaccuracies + s.mistakes + s.blunders <= s.decisions, "{id}: {s:?}");
            assert!(s.total_loss >= 0.0 && s.total_loss <= f64::from(s.decisions), "{id}: {s:?}");
            assert!(s.luck.is_finite() && s.luck.abs() <= f64::from(s.rolls), "{id}: {s:?}");
        }
        for note in &rev.notes {
            match &note.kind {
                AnyNoteKind::Roll { before, after, luck, .. } => {
                    assert!((0.0..=1.0).contains(&before.mean) && (0.0..=1.0).contains(&after.mean), "{id}: {note:?}");
                    assert!((luck.mean - (after.mean - before.mean)).abs() < 1e-9, "{id}: {note:?}");
                }
                AnyNoteKind::Decision { choices, loss, best_value, played_value, .. } => {
                    assert!(choices.len() >= 2 && choices.windows(2).all(|w| w[0].win.mean >= w[1].win.mean), "{id}: {note:?}");
                    assert!((loss.mean - (best_value.mean - played_value.mean)).abs() < 1e-9 && loss.mean >= 0.0, "{id}: {note:?}");
                    assert!(choices.iter().all(|c| c.win.half > 0.0 && !c.action.is_empty()), "{id}: {note:?}");
                }
            }
        }
        // The random side loses more per decision than the greedy one.
        let [greedy, random] = &rev.sides;
        assert!(random.mean_loss() > greedy.mean_loss(), "{id}: greedy {greedy:?}, random {random:?}");
        let json = serde_json::to_value(&rev).unwrap();
        assert!(json["notes"].as_array().is_some_and(|n| !n.is_empty()), "{id}");
    }
}

#[test]
fn a_seed_gives_the_same_review_on_any_number_of_threads() {
    let (start, steps, _) = bot_game("ravensburg-1977", "greedy", "level3", 9, 120);
    let run = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let judge = RolloutJudge::new(&start, RolloutConfig::with(12, seed));
        pool.install(|| review_any(&start, &steps, &judge, |_| {}).unwrap())
    };
    let one = run(1, 4);
    assert_eq!(one, run(2, 4));
    assert_eq!(one, run(3, 4));
    assert_ne!(one, run(2, 5), "another seed throws other dice");
}

#[test]
fn a_step_that_does_not_replay_is_named() {
    let start = AnyGame::new("bens-ur", &Options::new(), Side::Light).unwrap();
    let judge = RolloutJudge::new(&start, RolloutConfig::with(2, 0));
    let e = review_any(&start, &[AnyStep::Roll(99)], &judge, |_| {}).unwrap_err();
    assert!(e.to_string().starts_with("step 0 (roll 99) is illegal"), "{e}");
}

/// A measurement, not a check (`cargo test -p ur-bots --test rollout -- --ignored --nocapture`):
/// a stronger policy for the playouts' first rolls against the cheap one throughout.
#[test]
#[ignore]
fn measure_head_policies_against_the_table() {
    use ur_bots::rollout::Policy;
    for (head, turns) in [(Policy::Greedy, 0), (Policy::Expectimax(2), 1), (Policy::Expectimax(2), 2)] {
        let config = RolloutConfig { head, head_turns: turns, truncate: None, ..RolloutConfig::with(400, 0) };
        let t0 = std::time::Instant::now();
        let tally = against_the_table(&config, 3);
        eprintln!("head {} for {turns} rolls: {:.1} s, {tally:?}", head.name(), t0.elapsed().as_secs_f64());
    }
}

/// Every `every`-th position about to roll in a bot game of `id`, with its step index.
fn roll_positions(id: &str, seed: u64, every: usize) -> Vec<(AnyGame, usize)> {
    let (start, steps, _) = bot_game(id, "level2", "level2", seed, 100_000);
    let mut game = start;
    let mut out = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        match step {
            AnyStep::Roll(raw) => {
                if k % every == 0 {
                    out.push((game.clone(), k));
                }
                game.roll(*raw).unwrap();
            }
            AnyStep::Act(a) => game.apply(a).unwrap(),
        }
    }
    out
}

const FAMILIES: [&str; 4] = ["ludens-akalandung", "bens-ur", "guard-d6", "ravensburg-1977"];

#[test]
fn luck_averages_zero_over_the_dice_position_by_position() {
    // Each roll's luck, weighted by the roll's probability, sums to about
    // zero at every position: the value before a roll is the mean of the
    // values after each roll. The margin, twice the widest luck interval,
    // is about five standard errors of that sum.
    for id in FAMILIES {
        let start = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        let judge = RolloutJudge::new(&start, RolloutConfig::with(96, 2));
        for (game, _) in roll_positions(id, 11, 9) {
            let (mut expected, mut widest) = (0.0, 0.0f64);
            for (raw, p) in game.outcomes() {
                let rev = review_any(&game, &[AnyStep::Roll(raw)], &judge, |_| {}).unwrap();
                let AnyNoteKind::Roll { luck, .. } = &rev.notes[0].kind else { panic!("{id}: a roll's note is a roll's") };
                expected += p * luck.mean;
                widest = widest.max(luck.half);
            }
            assert!(
                expected.abs() <= 2.0 * widest + 1e-9,
                "{id}: luck averages {expected:+.4} over the dice, widest interval ±{widest:.4}\n{}",
                game.board_text()
            );
        }
    }
}

#[test]
fn a_trial_before_a_roll_is_that_trial_after_the_roll_it_throws() {
    // Trial by trial, the playout from before a roll throws some outcome
    // and then goes on exactly as the same trial after that outcome: the
    // same later dice and the same choices of the policy.
    for id in FAMILIES {
        let start = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        let judge = RolloutJudge::new(&start, RolloutConfig::with(24, 3));
        for (game, key) in roll_positions(id, 12, 13) {
            let rolls: Vec<_> = game.outcomes().into_iter().map(|(raw, _)| judge.roll(&game, raw, key as u64).unwrap()).collect();
            let before = &rolls[0].before;
            for (i, b) in before.iter().enumerate() {
                assert!(rolls.iter().all(|r| r.before[i] == *b), "{id}: the value before a roll does not depend on the roll");
                let afters: Vec<f64> = rolls.iter().map(|r| r.after[i]).collect();
                assert!(afters.iter().any(|a| (a - b).abs() < 1e-12), "{id} step {key} trial {i}: before {b}, after each roll {afters:?}");
            }
        }
    }
}

#[test]
fn each_side_s_luck_averages_zero_over_games() {
    // Over several games, each side's mean luck per roll lies within four
    // standard errors of zero (the spread is that of the rolls' luck).
    for id in ["ludens-akalandung", "bens-ur", "guard-d6"] {
        let mut luck = [Vec::new(), Vec::new()];
        let mut seed = 0;
        while luck.iter().any(|l| l.len() < 400) {
            seed += 1;
            let (start, steps, _) = bot_game(id, "greedy", "greedy", 40 + seed, 100_000);
            let judge = RolloutJudge::new(&start, RolloutConfig::with(8, seed));
            let rev = review_any(&start, &steps, &judge, |_| {}).unwrap();
            for note in &rev.notes {
                if let AnyNoteKind::Roll { luck: l, .. } = &note.kind {
                    luck[note.side.index()].push(l.mean);
                }
            }
        }
        eprintln!("{id}: {} games", seed);
        for side in &luck {
            let e = Estimate::of(side);
            let se = e.half / 1.96;
            assert!(e.mean.abs() <= 4.0 * se, "{id}: mean luck per roll {:+.5} ± {se:.5} over {} rolls", e.mean, side.len());
        }
    }
}

/// A measurement, not a check (`cargo test -p ur-bots --test rollout -- --ignored --nocapture
/// measure_truncation`): the standard deviation of the truncated values' bias against full
/// playouts of the same policy on the same dice, per share of trials cut, at roll positions of
/// `level2` games: the source of [`ur_bots::rollout::Allowance`]'s figures.
#[test]
#[ignore]
fn measure_truncation_error() {
    use ur_bots::rollout::RolloutJudge as J;
    for (id, trials, every, games) in
        [("finkel", 128, 4, 4), ("masters", 128, 4, 3), ("ludens-akalandung", 32, 20, 1), ("guard-d6", 32, 15, 1)]
    {
        let start = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        let cut = J::new(&start, RolloutConfig::with(trials, 1));
        let full = J::new(&start, RolloutConfig { truncate: None, ..RolloutConfig::with(trials, 1) });
        let (mut sq, mut noise, mut shares) = (Vec::new(), Vec::new(), Vec::new());
        for seed in 1..=games {
            for (game, key) in roll_positions(id, seed, every) {
                let Turn::Roll(side) = game.turn() else { continue };
                let (t, share) = cut.results(&game, side, key as u64);
                let (f, _) = full.results(&game, side, key as u64);
                let d = Estimate::paired(&f, &t);
                sq.push(d.mean * d.mean);
                noise.push((d.half / 1.96).powi(2));
                shares.push(share * share);
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        // Method of moments: the mean square difference less its sampling part.
        let bias = (mean(&sq) - mean(&noise)).max(0.0);
        eprintln!(
            "{id}: {} positions, bias sd {:.2} pp, per share cut {:.2} pp",
            sq.len(),
            100.0 * bias.sqrt(),
            100.0 * (bias / mean(&shares)).sqrt()
        );
    }
}
