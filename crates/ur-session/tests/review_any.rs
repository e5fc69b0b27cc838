//! A session's rollout review, for every family, and its text report.

use ur_bots::review_any::AnyNoteKind;
use ur_bots::rollout::RolloutConfig;
use ur_rules::{Playable, Side, Turn};
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
        let text = any_text_report(&start, &rev, true);
        assert!(text.starts_with(&format!("Review of a game of {id}: unfinished.")), "{text}");
        assert!(text.contains("Judge: rollout:8") && text.contains("95 % intervals"), "{text}");
        for side in [Side::Light, Side::Dark] {
            assert!(text.contains(start.side_name(side)), "{id}: {text}");
        }
        assert!(text.contains("luck of the dice"), "{text}");
        // Only the listed notes without `all`.
        assert!(any_text_report(&start, &rev, false).len() <= text.len());
    }
}

#[test]
fn no_trials_is_refused_with_the_reason() {
    let s = played("bens-ur", 10);
    let e = s.review_any(&RolloutConfig::with(0, 1), |_| {}).unwrap_err();
    assert!(matches!(e, SessionError::Record(_)) && e.to_string().contains("at least one trial"), "{e}");
}
