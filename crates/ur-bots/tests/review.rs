//! Game review: losses and luck against a solved table, and by search on
//! rule sets with no table.

use std::sync::Arc;

use ur_bots::review::{review, Judge, NoteKind, Verdict};
use ur_bots::{make_bot, make_bot_with_table, play_race, Bot};
use ur_rules::{Action, GameRecord, OptionValue, Options, Phase, RecordError, Rules, Side};

mod common;
use common::oracle;

fn rules(id: &str, pieces: i64) -> Arc<Rules> {
    rules_with(id, pieces, &[])
}

fn rules_with(id: &str, pieces: i64, more: &[(&str, &str)]) -> Arc<Rules> {
    let mut opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    opts.extend(more.iter().map(|(k, v)| (k.to_string(), OptionValue::parse(v))));
    Arc::new(Rules::builtin_with(id, &opts).unwrap())
}

/// A finished game between two bots, as a record.
fn record(rules: &Arc<Rules>, light: &mut dyn Bot, dark: &mut dyn Bot, seed: u64) -> GameRecord {
    GameRecord::of(&play_race(rules, light, dark, seed, usize::MAX).unwrap(), None)
}

#[test]
fn against_the_table_perfect_play_loses_nothing_and_the_values_add_up() {
    // Every built-in rule set a table can be solved for, at 2 pieces, and
    // the options that make extra rolls a choice.
    let mut all: Vec<Arc<Rules>> = race_ids().into_iter().filter(|id| id != "v1-named-birds").map(|id| rules(&id, 2)).collect();
    all.push(rules("finkel", 3));
    all.push(rules_with("v1-simple", 2, &[("rosette_reroll_optional", "true")]));
    all.push(rules_with("ludens-planet", 2, &[("replay_optional", "true")]));
    let choices: u32 = all.iter().map(the_values_add_up).sum();
    assert!(choices > 0, "some extra-roll choices were judged");
}

/// Every built-in race rule set.
fn race_ids() -> Vec<String> {
    let ids: Vec<String> = ur_rules::RuleSetFile::all_builtin().iter().map(|f| f.id.clone()).collect();
    assert!(ids.len() >= 12, "{ids:?}");
    ids
}

/// Checks one rule set; returns the extra-roll choices judged.
fn the_values_add_up(r: &Arc<Rules>) -> u32 {
    let dir = tempfile::tempdir().unwrap();
    let oracle = oracle(r, dir.path());
    let start = oracle.value(&ur_rules::State::start(r, Side::Light));
    let (mut choices, mut random_loss) = (0, 0.0);
    let judge = Judge::Table(oracle.clone());
    for seed in 1..=4 {
        let mut perfect = make_bot_with_table("perfect", seed, Some(&oracle)).unwrap();
        let mut random = make_bot("random", seed).unwrap();
        let rec = record(r, &mut *perfect, &mut *random, seed);
        let mut calls = 0;
        let rev = review(&rec, &judge, |done| calls = done).unwrap();
        assert_eq!(calls, rec.actions.len());
        let [light, dark] = &rev.sides;
        assert_eq!(light.total_loss, 0.0, "the perfect bot loses nothing (seed {seed})");
        assert_eq!(light.best, light.decisions);
        random_loss += dark.total_loss;
        // Light's win probability moves only with luck and losses, so they
        // account for the whole way from the start value to the result.
        let end = f64::from(u8::from(rev.winner == Some(Side::Light)));
        let account = start + light.luck - dark.luck - light.total_loss + dark.total_loss;
        assert!((account - end).abs() < 1e-9, "seed {seed}: {account} != {end}");
        for note in &rev.notes {
            if let NoteKind::Decision { played, played_value, best_value, loss, verdict, .. } = note.kind {
                assert!((best_value - played_value - loss).abs() < 1e-12 && loss >= 0.0);
                assert_eq!(verdict, Verdict::of(loss));
                choices += u32::from(matches!(played, Action::Choose(_)));
            }
        }
    }
    assert!(random_loss > 0.0, "{}: random errs", r.id());
    choices
}

#[test]
fn a_search_judges_every_real_decision_on_rule_sets_without_tables() {
    let mut all: Vec<Arc<Rules>> = race_ids().iter().map(|id| rules(id, 2)).collect();
    all.push(rules_with("v1-named-birds", 3, &[("dice", "D4"), ("rosette_reroll_optional", "true")]));
    for r in &all {
        let (r, id) = (r.clone(), r.id().to_string());
        let mut greedy = make_bot("greedy", 1).unwrap();
        let mut random = make_bot("random", 2).unwrap();
        let rec = record(&r, &mut *greedy, &mut *random, 3);
        let rev = review(&rec, &Judge::search(&r, 1), |_| {}).unwrap();
        let mut game = rec.start_game().unwrap();
        let mut real = 0;
        for &a in &rec.actions {
            let open = match game.phase() {
                Phase::Move => game.legal_moves().len(),
                Phase::Declare | Phase::ExtraRoll => game.choices().len(),
                _ => 0,
            };
            real += u32::from(open >= 2);
            game.apply(a).unwrap();
        }
        assert_eq!(rev.sides[0].decisions + rev.sides[1].decisions, real, "{id}");
        for note in &rev.notes {
            match note.kind {
                NoteKind::Roll { before, after, luck, .. } => {
                    assert!((0.0..=1.0).contains(&before) && (0.0..=1.0).contains(&after), "{id}: {note:?}");
                    assert!((after - before - luck).abs() < 1e-12);
                }
                NoteKind::Decision { played_value, best_value, loss, choices, .. } => {
                    assert!(choices >= 2 && loss >= 0.0 && best_value >= played_value, "{id}: {note:?}");
                }
            }
        }
    }
}

#[test]
fn a_record_that_does_not_replay_is_refused() {
    let r = rules("finkel", 2);
    let mut a = make_bot("greedy", 1).unwrap();
    let mut b = make_bot("random", 2).unwrap();
    let mut rec = record(&r, &mut *a, &mut *b, 5);
    rec.actions.insert(0, Action::Choose(ur_rules::Choice::Reroll));
    let err = review(&rec, &Judge::search(&r, 1), |_| {}).unwrap_err();
    assert!(matches!(err, RecordError::Illegal { index: 0, .. }), "{err}");
}

#[test]
fn luck_averages_zero_over_the_dice() {
    let dir = tempfile::tempdir().unwrap();
    let finkel = rules("finkel", 2);
    let mut judges = vec![(finkel.clone(), Judge::Table(oracle(&finkel, dir.path())))];
    let mut all: Vec<Arc<Rules>> = race_ids().iter().map(|id| rules(id, 2)).collect();
    all.push(rules_with("v1-named-birds", 2, &[("dice", "D4"), ("rosette_reroll_optional", "true")]));
    for r in all {
        judges.push((r.clone(), Judge::search(&r, 2)));
    }
    for (r, judge) in &judges {
        let mut a = make_bot("greedy", 1).unwrap();
        let mut b = make_bot("random", 2).unwrap();
        let rec = record(r, &mut *a, &mut *b, 7);
        let mut game = rec.start_game().unwrap();
        let total = f64::from(r.dice().total_weight());
        for &action in &rec.actions {
            if let Action::Roll(raw) = action {
                let before = judge.roll(&game, raw).0;
                let expected: f64 = r.throws().map(|(t, w)| f64::from(w) / total * judge.roll(&game, t.raw).1).sum();
                assert!((expected - before).abs() < 1e-9, "{} {}: {expected} != {before}", r.id(), judge.name());
            }
            game.apply(action).unwrap();
        }
    }
}
