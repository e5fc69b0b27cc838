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

/// Every rule-set id: the races, then the other families.
fn every_id() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = crate::spec::BUILTIN.iter().map(|(id, _)| *id).collect();
    ids.extend(family_rule_sets().iter().map(|s| s.id));
    ids
}

/// Plays a random game, calling `visit` at every step.
fn visit_game(id: &str, seed: u64, mut visit: impl FnMut(&AnyGame)) {
    let mut game = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..2_000 {
        visit(&game);
        match game.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => drop(game.roll_with(&mut rng).unwrap()),
            Turn::Decide(_) => {
                let actions = game.actions();
                game.apply(&actions[rng.gen_range(0..actions.len())]).unwrap();
            }
        }
    }
}

/// Whether the game waits for what a position set up waits for: a roll,
/// or with named birds the declaration; not the start procedure of `bens-ur`.
fn at_turn_start(game: &AnyGame) -> bool {
    match game.as_race() {
        Some(g) if g.rules().named_pieces() => g.phase() == crate::game::Phase::Declare,
        _ => matches!(game.turn(), Turn::Roll(_)) && !game.position_json()["turn"].as_str().is_some_and(|t| t.starts_with("start")),
    }
}

#[test]
fn positions_round_trip_through_json_for_every_rule_set() {
    for id in every_id() {
        let mut checked = 0;
        for seed in 0..4 {
            visit_game(id, seed, |game| {
                if !at_turn_start(game) {
                    return;
                }
                // Both JSON forms read back: the position and the protocol's view.
                for json in [game.position(), game.position_json()] {
                    let text = serde_json::to_string(&json).unwrap();
                    let mut copy = AnyGame::new(id, &Options::new(), Side::Dark).unwrap();
                    copy.set_position(&serde_json::from_str(&text).unwrap()).unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
                    assert_eq!((copy.position(), copy.turn()), (game.position(), game.turn()), "{id}");
                    assert_eq!(copy.board_text(), game.board_text(), "{id}");
                    assert_eq!(copy.actions(), game.actions(), "{id}");
                    for (raw, _) in game.outcomes().into_iter().filter(|_| game.actions().is_empty()) {
                        let (mut a, mut b) = (game.clone(), copy.clone());
                        a.roll(raw).unwrap();
                        b.roll(raw).unwrap();
                        assert_eq!((a.turn(), a.actions()), (b.turn(), b.actions()), "{id} after {raw}");
                    }
                }
                checked += 1;
            });
        }
        assert!(checked > 20, "{id}: {checked}");
    }
}

#[test]
fn a_bad_position_is_refused_and_changes_nothing() {
    for id in every_id() {
        let mut game = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        let before = game.position();
        let err = game.set_position(&serde_json::json!({"to_move": "light", "light": {"off": 99}})).unwrap_err();
        assert!(matches!(err, PlayError::BadPosition(_)), "{id}: {err}");
        assert_eq!(game.position(), before, "{id}");
    }
}

#[test]
fn every_board_fits_80_columns_and_names_the_sides() {
    for id in every_id() {
        for seed in 0..6 {
            visit_game(id, seed, |game| {
                let text = game.board_text();
                for line in text.lines() {
                    assert!(line.chars().count() <= 80, "{id}: {} columns\n{text}", line.chars().count());
                }
                assert!(text.contains(game.side_name(Side::Light)) && text.contains(game.side_name(Side::Dark)), "{id}\n{text}");
            });
        }
    }
}

#[test]
fn side_names_follow_the_booklets() {
    let names = |id: &str| {
        let g = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        [g.side_name(Side::Light).to_owned(), g.side_name(Side::Dark).to_owned()]
    };
    assert_eq!(names("bens-ur"), ["Black", "White"]);
    assert_eq!(names("guard-d6"), ["White", "Black"]);
    assert_eq!(names("ravensburg-1977"), ["Player A", "Player B"]);
    assert_eq!(names("ludens-akalandung"), ["Light", "Dark"]);
}

#[test]
fn an_action_of_another_family_is_refused_naming_the_rule_set() {
    let bens = AnyGame::new("bens-ur", &Options::new(), Side::Light).unwrap();
    let tower = AnyGame::new("guard-d6", &Options::new(), Side::Light).unwrap();
    let race = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
    let akalandung = AnyGame::new("ludens-akalandung", &Options::new(), Side::Light).unwrap();
    let cases = [
        (&bens, serde_json::json!({"kind": "twins", "from": 5, "to": 8})),
        (&bens, serde_json::json!({"move": {"from": 0, "to": 2}})),
        (&race, serde_json::json!({"stack_move": {"from": 0, "to": 5, "carry": 0}})),
        (&tower, serde_json::json!({"kind": "jump", "from": 0, "to": 4})),
        (&akalandung, serde_json::json!({"kind": "exit", "from": 23})),
    ];
    for (game, json) in cases {
        let err = game.action_from_json(&json).unwrap_err();
        assert!(matches!(err, PlayError::WrongFamily { .. }), "{err}");
        assert!(err.to_string().contains(game.rule_id()), "{err}");
    }
    let err = bens.action_from_json(&serde_json::json!(42)).unwrap_err();
    assert!(matches!(err, PlayError::BadAction { .. }), "{err}");
    let mut bens = bens;
    let err = bens.apply(&AnyAction::Race(Action::Roll(1))).unwrap_err();
    assert!(matches!(err, PlayError::WrongFamily { .. }) && err.to_string().contains("bens-ur"), "{err}");
}

#[test]
fn every_family_reads_moves_in_one_grammar() {
    let mut race = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
    race.roll(2).unwrap();
    let open = race.actions()[0].to_string();
    assert_eq!(open, "0->2");
    for text in ["0 2", "0->2", "0-2", " 0 -> 2 "] {
        assert_eq!(race.action_from_text(text).unwrap().to_string(), open, "{text}");
    }
    let mut tower = AnyGame::new("guard-d6", &Options::new(), Side::Light).unwrap();
    tower.roll(3).unwrap();
    for text in ["0 3", "0->3", "0-3"] {
        assert_eq!(tower.action_from_text(text).unwrap().to_string(), "0->3", "{text}");
    }
    let err = tower.action_from_text("0 4").unwrap_err();
    assert!(matches!(&err, PlayError::NotOpen { open, .. } if open == &["0->3"]), "{err}");
    // A Warrior alone on its square moves without the word.
    let warrior = serde_json::json!({"to_move": "light", "light": {"path": [2], "warriors": [2]}});
    let mut game = AnyGame::from_position("ludens-akalandung", &Options::new(), &warrior).unwrap();
    game.roll(2).unwrap();
    for text in ["2 4", "2->4", "warrior 2-4", "Warrior 2->4"] {
        assert_eq!(game.action_from_text(text).unwrap().to_string(), "warrior 2->4", "{text}");
    }
    let mut bens = AnyGame::from_position("bens-ur", &Options::new(), &serde_json::json!({"to_move": "light"})).unwrap();
    bens.roll(0).unwrap();
    assert_eq!(bens.action_from_text("0 4").unwrap().to_string(), "jump 0->4");
    assert_eq!(bens.action_from_text("jump 0-4").unwrap().to_string(), "jump 0->4");
}

/// T10(b) counts only positions reached by a move: passes at the start
/// (four 6s) do not draw the game (D67).
#[test]
fn passes_repeat_no_position() {
    for id in ["ravensburg-1977", "guard-d6"] {
        let mut game = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        for _ in 0..8 {
            game.roll(6).unwrap();
        }
        assert!(matches!(game.turn(), Turn::Roll(Side::Light)), "{id}: {:?}", game.turn());
    }
}

#[test]
fn every_non_race_set_has_a_summary() {
    for set in family_rule_sets() {
        assert!(set.summary.lines().count() >= 3, "{}", set.id);
        assert!(set.summary.lines().all(|l| !l.trim().is_empty()), "{}", set.id);
    }
}
