//! A session's rollout review, for every family, and its text report.

use ur_bots::review_any::AnyNoteKind;
use ur_bots::rollout::RolloutConfig;
use ur_rules::{Playable, Side, Turn};
use ur_session::review_doc::{from_any_review, StepKind};
use ur_session::review_text::any_text_report;
use ur_session::{NewGame, NoTables, Session, SessionError};

/// A session of `id` played `steps` steps with the first open decision.
fn played(id: &str, steps: usize) -> Session {
    let mut s = Session::new(&NewGame::builtin(id), &NoTables).unwrap();
    s.seed_dice(6);
    for _ in 0..steps {
        match s.game().turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => drop(s.roll_dice().unwrap()),
            Turn::Decide(_) => drop(s.act(&s.game().actions()[0].clone()).unwrap()),
        }
    }
    s
}

#[test]
fn every_family_is_reviewed_and_reported() {
    for id in ["finkel", "bens-ur", "ludens-akalandung", "vizier-4-pyramids"] {
        let s = played(id, 60);
        let (start, steps) = s.steps().unwrap();
        assert_eq!(steps.len(), s.record_len(), "{id}");
        let mut done = 0;
        let rev = s.review_any(&RolloutConfig::with(8, 1), |d| done = d).unwrap();
        assert_eq!(done, s.record_len(), "{id}");
        assert!(rev.notes.iter().any(|n| matches!(n.kind, AnyNoteKind::Roll { .. })), "{id}");
        let text = any_text_report(&start, s.options(), &rev, true);
        assert!(text.starts_with(&format!("Review of a game of {id}: unfinished.")), "{text}");
        assert!(text.contains("Judge: rollout:8") && text.contains("95 % intervals"), "{text}");
        for side in [Side::Light, Side::Dark] {
            assert!(text.contains(start.side_name(side)), "{id}: {text}");
        }
        assert!(text.contains("luck of the dice"), "{text}");
        // Only the listed notes without `all`.
        assert!(any_text_report(&start, s.options(), &rev, false).len() <= text.len());
    }
}

#[test]
fn no_trials_is_refused_with_the_reason() {
    let s = played("bens-ur", 10);
    let e = s.review_any(&RolloutConfig::with(0, 1), |_| {}).unwrap_err();
    assert!(matches!(e, SessionError::Record(_)) && e.to_string().contains("at least one trial"), "{e}");
}

#[test]
fn the_rollout_review_fills_the_review_document_with_its_intervals() {
    for id in ["bens-ur", "vizier-4-pyramids"] {
        let s = played(id, 80);
        let rev = s.review_any(&RolloutConfig::with(8, 2), |_| {}).unwrap();
        let doc = from_any_review(&s.record(), &rev).unwrap();
        assert_eq!(doc.steps.len(), s.record_len(), "{id}");
        assert_eq!(doc.light_win.len(), s.record_len(), "{id}");
        assert_eq!(doc.judge.name, rev.judge);
        assert!(!doc.judge.exact && doc.judge.confidence == Some(0.95));
        assert_eq!(doc.judge.sureness.as_ref(), Some(&rev.sureness));
        let mut decisions = 0;
        for n in &rev.notes {
            match (&n.kind, &doc.steps[n.step].kind) {
                (AnyNoteKind::Roll { raw, luck, .. }, StepKind::Roll { raw: r, luck: l, interval, .. }) => {
                    assert_eq!((raw, luck.mean, Some(luck.half)), (r, *l, *interval), "{id} step {}", n.step);
                }
                (
                    AnyNoteKind::Decision { loss, verdict, sure, played_value, .. },
                    StepKind::Decision { loss: l, verdict: v, sure: s, loss_interval, played_value: p, interval, .. },
                ) => {
                    decisions += 1;
                    assert_eq!(
                        (loss.mean.max(0.0), verdict, Some(*sure), Some(loss.half)),
                        (*l, v, *s, *loss_interval),
                        "{id} step {}",
                        n.step
                    );
                    assert_eq!(played_value.mean, *p);
                    assert!(interval.unwrap() >= played_value.half);
                }
                (note, step) => panic!("{id} step {}: {note:?} drawn as {step:?}", n.step),
            }
        }
        assert!(decisions > 0, "{id}: the test sees decisions");
        for k in 0..2 {
            assert_eq!(doc.totals[k].decisions, rev.sides[k].decisions, "{id}");
            assert_eq!(doc.totals[k].blunders, rev.sides[k].blunders, "{id}");
            assert!((doc.totals[k].luck - rev.sides[k].luck).abs() < 1e-12, "{id}");
        }
        let bad = rev
            .notes
            .iter()
            .filter(|n| matches!(n.kind, AnyNoteKind::Decision { verdict, .. } if verdict >= ur_bots::review::Verdict::Inaccuracy))
            .count();
        assert_eq!(doc.errors.len(), bad, "{id}");
    }
}
