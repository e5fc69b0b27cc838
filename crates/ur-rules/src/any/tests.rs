//! The families through [`AnyGame`]: every rule set plays to the end, and
//! actions and positions read back.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::catalogue::family_rule_sets;
use crate::spec::OptionValue;

/// Plays random legal actions through [`Playable`] only, sampling rolls
/// from [`Playable::outcomes`]; returns the turn the game stopped at.
pub(crate) fn random_game(game: &mut AnyGame, seed: u64, max_steps: usize) -> Turn {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..max_steps {
        match game.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => {
                let outcomes = game.outcomes();
                assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
                game.roll_with(&mut rng).unwrap();
            }
            Turn::Decide(_) => {
                let actions = game.actions();
                assert!(!actions.is_empty());
                let a = actions[rng.gen_range(0..actions.len())].clone();
                game.apply(&a).unwrap();
            }
        }
    }
    game.turn()
}

/// A copy without history is the same position: the same turn, actions,
/// standing and position, and it plays on to the same end.
#[test]
fn a_copy_without_history_is_the_same_position() {
    let races = crate::spec::BUILTIN.iter().map(|(id, _)| *id);
    for id in family_rule_sets().iter().map(|s| s.id).chain(races) {
        let mut game = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        random_game(&mut game, 3, 40);
        let mut copy = game.without_history();
        assert_eq!((copy.turn(), copy.actions()), (game.turn(), game.actions()), "{id}");
        assert_eq!(copy.standing(Side::Light), game.standing(Side::Light), "{id}");
        assert_eq!(copy.position_json(), game.position_json(), "{id}");
        assert!(copy.as_race().is_none_or(|g| g.history().is_empty() && !game.as_race().unwrap().history().is_empty()), "{id}");
        assert_eq!(random_game(&mut copy, 5, 200_000), random_game(&mut game, 5, 200_000), "{id}");
    }
}

#[test]
fn every_race_set_plays_to_the_end_through_playable() {
    for (id, _) in crate::spec::BUILTIN {
        let mut game = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        assert!(matches!(random_game(&mut game, 7, 200_000), Turn::Over(Some(_))), "{id}");
    }
}

#[test]
fn tower_sets_play_through_any_game() {
    for set in family_rule_sets().iter().filter(|r| r.family == Family::Tower) {
        let mut game = AnyGame::new(set.id, &Options::new(), Side::Dark).unwrap();
        assert_eq!((game.family(), game.turn()), (Family::Tower, Turn::Roll(Side::Dark)));
        assert!(game.board_text().contains("M1"));
        assert_eq!(game.position_json()["rules"], set.id);
        assert!(matches!(random_game(&mut game, 11, 200_000), Turn::Over(_)), "{}", set.id);
        for o in &set.options {
            assert!(o.values.iter().any(|v| v.contains(o.default) || v.starts_with("integer")), "{}: {}", set.id, o.name);
        }
    }
}

#[test]
fn tower_options_and_actions_are_checked() {
    let mut bad = Options::new();
    bad.insert("pieces".into(), OptionValue::Int(7));
    let err = AnyGame::new("guard-d6", &bad, Side::Light).unwrap_err();
    assert!(matches!(err, SpecError::UnknownOption { .. }) && err.to_string().contains("max_stack"), "{err}");
    bad.clear();
    bad.insert("max_stack_counts".into(), OptionValue::Text("some".into()));
    let err = AnyGame::new("guard-d6", &bad, Side::Light).unwrap_err();
    assert!(matches!(err, SpecError::BadOptionValue { .. }) && err.to_string().contains("excluding_prisoners"), "{err}");
    let mut game = AnyGame::new("vizier-4-pyramids", &Options::new(), Side::Light).unwrap();
    game.roll(0).unwrap();
    let a = game.action_from_json(&serde_json::json!("move5")).unwrap();
    assert_eq!(game.action_from_text("move5").unwrap(), a);
    game.apply(&a).unwrap();
    let enter = game.action_from_json(&serde_json::json!({"stack_move": {"from": 0, "to": 5, "carry": 0}})).unwrap();
    assert_eq!(enter.to_string(), "0->5");
    assert!(game.apply(&AnyAction::Race(Action::Roll(3))).is_err());
    game.apply(&enter).unwrap();
    assert_eq!(game.turn(), Turn::Roll(Side::Dark));
}

#[test]
fn actions_round_trip_through_json() {
    let mut game = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
    game.roll(2).unwrap();
    for a in game.actions() {
        let back = game.action_from_json(&serde_json::to_value(&a).unwrap()).unwrap();
        assert_eq!(back, a);
    }
}

#[test]
fn every_marker_set_plays_to_the_end_through_playable() {
    for set in family_rule_sets().into_iter().filter(|r| r.family == Family::Bens) {
        assert_eq!(family_of(set.id), Some(Family::Bens));
        for seed in 0..20 {
            let mut game = AnyGame::new(set.id, &Options::new(), Side::Dark).unwrap();
            assert_eq!(game.family(), Family::Bens);
            assert!(game.as_race().is_none() && !game.board_text().is_empty());
            assert!(matches!(random_game(&mut game, seed, 200_000), Turn::Over(Some(_))), "{}", set.id);
        }
    }
}

#[test]
fn marker_sets_refuse_unknown_options_and_values() {
    use crate::spec::{OptionValue, SpecError};
    for set in family_rule_sets().into_iter().filter(|r| r.family == Family::Bens) {
        let mut o = Options::new();
        o.insert("colour".into(), OptionValue::Text("red".into()));
        assert!(matches!(AnyGame::new(set.id, &o, Side::Light), Err(SpecError::UnknownOption { .. })), "{}", set.id);
        for opt in &set.options {
            assert!(opt.values.contains(&opt.default), "{}: {}", set.id, opt.name);
            let mut o = Options::new();
            o.insert(opt.name.into(), OptionValue::Text("nonsense".into()));
            let e = AnyGame::new(set.id, &o, Side::Light).unwrap_err();
            assert!(matches!(e, SpecError::BadOptionValue { .. }) && e.to_string().contains(opt.values[0]), "{e}");
        }
    }
}

#[test]
fn marker_actions_are_read_by_family() {
    let mut game = AnyGame::new("bens-ur", &Options::new(), Side::Light).unwrap();
    game.roll(0).unwrap();
    game.roll(2).unwrap();
    let jump = game.action_from_json(&serde_json::json!({"kind": "jump", "from": 0, "to": 4})).unwrap();
    assert_eq!(jump.to_string(), "jump 0->4");
    assert!(game.apply(&jump).is_ok());
    assert!(game.action_from_json(&serde_json::json!({"move": {"from": 0, "to": 2}})).is_err());
    let race = AnyAction::Race(Action::Roll(1));
    assert!(game.apply(&race).is_err());
}
