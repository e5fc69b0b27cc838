//! The review document (what the html report and the browser's review
//! screen draw) against the review it is made from: the same totals, one
//! chart point per step, each error's board the position before it, and,
//! with a table, the accounts closing exactly.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use ur_bots::review::{review, Judge, NoteKind, Verdict};
use ur_bots::Oracle;
use ur_rules::{AnyAction, AnyGame, Game, GameRecord, OptionValue, Options, Playable, Rules, SeededDice, Side};
use ur_session::records::SavedGame;
use ur_session::review_doc::{build, from_race_review, DocJudge, Judged, ReviewDoc, StepKind};
use ur_session::view::view_of;
use ur_solve::{solve, Encoding, Indexer, Silent, SolveConfig, Table};

fn rules(id: &str, pieces: i64) -> Arc<Rules> {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Arc::new(Rules::builtin_with(id, &opts).unwrap())
}

/// A random game, played to its end (or `max` actions), as a record.
fn random_game(rules: &Arc<Rules>, seed: u64, max: usize) -> GameRecord {
    let mut game = Game::new(rules.clone(), Side::Light);
    game.play_random(&mut SeededDice::new(seed), max);
    GameRecord::of(&game, None)
}

fn oracle(rules: &Arc<Rules>, dir: &Path) -> Oracle {
    let index = Indexer::new(rules).unwrap();
    let sol = solve(rules, &index, &SolveConfig::default(), &Silent).unwrap();
    let path = dir.join("t.urt");
    ur_solve::table::write_table(&path, rules, &index, &sol.values, Encoding::F64, sol.residual, 1e-12).unwrap();
    Oracle::new(Arc::new(Table::open(&path).unwrap()), rules.clone(), &path).unwrap()
}

fn doc_of(record: &GameRecord, judge: &Judge) -> ReviewDoc {
    let rev = review(record, judge, |_| {}).unwrap();
    let doc = from_race_review(&SavedGame::Race(record.clone()), judge, None, &rev).unwrap();
    check_against(record, &doc, &rev);
    doc
}

/// Everything the document promises about the review it came from.
fn check_against(record: &GameRecord, doc: &ReviewDoc, rev: &ur_bots::review::Review) {
    assert_eq!(doc.steps.len(), record.actions.len(), "one step per action");
    assert_eq!(doc.light_win.len(), doc.steps.len(), "one chart point per step");
    assert!(doc.light_win.iter().chain([&doc.start]).all(|p| (0.0..=1.0).contains(p)));
    for (k, (t, s)) in doc.totals.iter().zip(&rev.sides).enumerate() {
        assert_eq!(
            (t.decisions, t.best, t.inaccuracies, t.mistakes, t.blunders, t.rolls),
            (s.decisions, s.best, s.inaccuracies, s.mistakes, s.blunders, s.rolls),
            "side {k}"
        );
        assert_eq!(t.total_loss, s.total_loss, "side {k}: the same sum in the same order");
        assert_eq!(t.luck, s.luck, "side {k}");
        assert_eq!(t.error_rate, s.mean_loss(), "side {k}");
    }
    // Every note is a step of the same kind and numbers.
    for note in &rev.notes {
        let step = &doc.steps[note.action];
        assert_eq!((step.index, step.turn, step.side.as_str()), (note.action, note.turn, note.side.name()));
        match (&note.kind, &step.kind) {
            (NoteKind::Roll { raw, luck, .. }, StepKind::Roll { raw: r, luck: l, .. }) => assert_eq!((raw, luck), (r, l)),
            (NoteKind::Decision { loss, verdict, played_value, .. }, StepKind::Decision { loss: l, verdict: v, played_value: p, .. }) => {
                assert_eq!((loss, verdict, played_value), (l, v, p))
            }
            (a, b) => panic!("note {a:?} became {b:?}"),
        }
    }
    // Each error: a decision of an inaccuracy or worse, on the board before it.
    let bad = rev.notes.iter().filter(|n| matches!(n.kind, NoteKind::Decision { verdict, .. } if verdict >= Verdict::Inaccuracy)).count();
    assert_eq!(doc.errors.len(), bad);
    for e in &doc.errors {
        let step = &doc.steps[e.step];
        let mut before = record.start_game().unwrap();
        for &a in &record.actions[..step.index] {
            before.apply(a).unwrap();
        }
        let before = AnyGame::Race(before);
        assert_eq!(e.view, view_of(&before), "the board before step {}", step.index);
        let StepKind::Decision { played, best, .. } = &step.kind else { panic!("an error is a decision") };
        let (p, b) = (e.played.unwrap(), e.best.unwrap());
        assert_ne!(p, b, "a loss means another choice was better");
        assert_eq!((&e.view.actions[p].text, &e.view.actions[b].text), (played, best));
        assert!(matches!(&before.actions()[p], AnyAction::Race(a) if ur_bots::review::same_action(*a, record.actions[step.index])));
    }
}

#[test]
fn a_table_review_closes_its_accounts_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let r = rules("finkel", 2);
    let judge = Judge::Table(oracle(&r, dir.path()));
    let mut errors = 0;
    for seed in 0..12 {
        let record = random_game(&r, seed, 10_000);
        let doc = doc_of(&record, &judge);
        let [light, dark] = &doc.totals;
        let won = doc.winner.as_deref() == Some("light");
        assert_eq!(*doc.light_win.last().unwrap(), f64::from(u8::from(won)), "the chart ends at the result");
        // Result − net luck = start − own losses + the opponent's.
        let adjusted = doc.start - light.total_loss + dark.total_loss;
        assert!((light.luck_adjusted.unwrap() - adjusted).abs() < 1e-9, "seed {seed}: {light:?} {adjusted}");
        assert!((light.luck_adjusted.unwrap() + dark.luck_adjusted.unwrap() - 1.0).abs() < 1e-9);
        errors += doc.errors.len();
    }
    assert!(errors > 0, "random play makes errors for the test to check");
}

#[test]
fn an_unfinished_game_has_no_result() {
    let r = rules("finkel", 3);
    let record = random_game(&r, 7, 25);
    let doc = doc_of(&record, &Judge::search(&r, 1));
    assert_eq!(doc.winner, None);
    assert_eq!(doc.totals[0].result, None);
    assert_eq!(doc.totals[1].luck_adjusted, None);
    assert_eq!(doc.judge.name, "net:0");
    assert!(!doc.judge.exact);
}

#[test]
fn another_judge_fills_the_same_document_with_intervals() {
    // A judge of its own (as a rollout review would be): values with a ± interval.
    let r = rules("finkel", 2);
    let record = random_game(&r, 3, 10_000);
    let mut game = record.start_game().unwrap();
    let mut judged = BTreeMap::new();
    for (i, &a) in record.actions.iter().enumerate() {
        if matches!(a, ur_rules::Action::Roll(_)) {
            judged.insert(i, Judged::Roll { before: 0.5, after: 0.6, luck: None, interval: Some(0.02) });
        } else if game.legal_moves().len() > 1 {
            let best = *game.legal_moves().iter().find(|m| ur_rules::Action::Move(**m) != a).unwrap();
            let best = AnyAction::Race(ur_rules::Action::Move(best));
            let (loss, loss_interval, sure) = (None, Some(0.01), Some(true));
            judged.insert(
                i,
                Judged::Decision { played_value: 0.4, best, best_value: 0.5, choices: 2, interval: Some(0.02), loss, loss_interval, sure },
            );
        }
        game.apply(a).unwrap();
    }
    let judge =
        DocJudge { name: "rollout:1000".into(), exact: false, table: None, interval: Some(0.02), confidence: Some(0.95), sureness: None };
    let doc = build(&SavedGame::Race(record.clone()), judge, &judged).unwrap();
    let decisions = judged.values().filter(|j| matches!(j, Judged::Decision { .. })).count();
    assert_eq!(doc.errors.len(), decisions, "every 10 pp loss is a blunder");
    assert!(doc.steps.iter().all(|s| match &s.kind {
        StepKind::Decision { verdict, interval, .. } => *verdict == Verdict::Blunder && *interval == Some(0.02),
        _ => true,
    }));
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["judge"]["confidence"], 0.95);
    assert_eq!(json["steps"][0]["kind"], "roll");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Any game, finished or cut short, on rule sets with and without
    /// extra-roll choices: the document agrees with the review.
    #[test]
    fn the_document_agrees_with_the_review(seed in 0u64..10_000, max in 5usize..400, id in prop::sample::select(vec!["finkel", "masters", "blitz", "regency-bell"])) {
        let r = rules(id, 2);
        let record = random_game(&r, seed, max);
        doc_of(&record, &Judge::search(&r, 1));
    }
}
