//! Position strings on every rule set: random games stopped at random
//! points write a string that reads back to the same position, throw and
//! open decisions; hostile strings are refused with a message, never a panic.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::position_text::{self, PositionTextError};
use ur_rules::{AnyGame, Options, Playable, Side, Turn};

/// Every built-in rule set: the 12 races, then the tower and marker games.
fn all_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = ur_rules::spec::BUILTIN.iter().map(|(id, _)| *id).collect();
    ids.extend(ur_rules::family_rule_sets().iter().map(|r| r.id));
    ids
}

fn new_game(id: &str) -> AnyGame {
    AnyGame::new(id, &Options::new(), Side::Light).expect("built-in rule set")
}

/// A game of `id` after up to `steps` random steps (rolls and decisions).
fn random_game(id: &str, seed: u64, steps: usize) -> AnyGame {
    let mut game = new_game(id);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..steps {
        match game.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => {
                game.roll_with(&mut rng).expect("a drawn roll is legal");
            }
            Turn::Decide(_) => {
                let actions = game.actions();
                let a = actions[rng.gen_range(0..actions.len())].clone();
                game.apply(&a).expect("an open action is legal");
            }
        }
    }
    game
}

fn check_round_trip(id: &str, game: &AnyGame) -> Result<(), TestCaseError> {
    let text = game.position_string();
    prop_assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || "-.,:/".contains(c)), "{id}: {text}");
    let parsed = position_text::parse(game, &text).map_err(|e| TestCaseError::fail(format!("{id}: {text}: {e}")))?;
    prop_assert_eq!(&parsed.position, &game.position(), "{}: {}", id, text);
    let mut set = new_game(id);
    set.set_position_string(&text).map_err(|e| TestCaseError::fail(format!("{id}: {text}: {e}")))?;
    prop_assert_eq!(set.position(), game.position(), "{}: {}", id, text);
    prop_assert_eq!(set.position_string(), text.clone(), "{}", id);
    if parsed.throw.is_some() {
        // The decision after the throw is the game's own.
        prop_assert_eq!(set.turn(), game.turn(), "{}: {}", id, text);
        prop_assert_eq!(set.actions(), game.actions(), "{}: {}", id, text);
    } else {
        let mut at_roll = new_game(id);
        at_roll.set_position(&game.position()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(set.turn(), at_roll.turn(), "{}: {}", id, text);
        prop_assert_eq!(set.actions(), at_roll.actions(), "{}: {}", id, text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_rule_set_round_trips(seed in any::<u64>(), steps in 0usize..400) {
        for id in all_ids() {
            check_round_trip(id, &random_game(id, seed, steps))?;
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(text in ".{0,80}", index in 0usize..17) {
        let id = all_ids()[index];
        let mut game = new_game(id);
        if game.set_position_string(&text).is_err() {
            prop_assert_eq!(game.position(), new_game(id).position());
        }
    }

    #[test]
    fn near_miss_strings_never_panic(text in "[ld][:]?[0-9a-zA-Z.,:/-]{0,40}", index in 0usize..17) {
        let id = all_ids()[index];
        let _ = position_text::parse(&new_game(id), &text);
    }

    /// Cutting a valid string short or adding to it never panics and gives
    /// either a legal position or a message.
    #[test]
    fn mangled_strings_never_panic(seed in any::<u64>(), cut in 0usize..40, extra in "[0-9a-z.,/-]{0,3}", index in 0usize..17) {
        let id = all_ids()[index];
        let text = random_game(id, seed, 120).position_string();
        let short: String = text.chars().take(cut).collect();
        let _ = position_text::parse(&new_game(id), &short);
        let _ = position_text::parse(&new_game(id), &format!("{text}{extra}"));
    }
}

fn refused(id: &str, text: &str) -> PositionTextError {
    match position_text::parse(&new_game(id), text) {
        Ok(p) => panic!("{id}: '{text}' read as {p:?}"),
        Err(e) => e,
    }
}

#[test]
fn hostile_strings_are_refused_with_where_and_what() {
    let cases: &[(&str, &str, usize, &str)] = &[
        ("finkel", "", 0, "empty"),
        ("finkel", "x:-,-", 1, "side to move"),
        ("finkel", "l", 2, "expected ':'"),
        ("finkel", "l:-", 4, "expected ','"),
        ("finkel", "l:469.1,", 9, "dark's pieces"),
        ("finkel", "l:46f,-", 5, "not a position on light's path"),
        ("finkel", "l:12345678,-", 3, "more than the 7 pieces"),
        ("finkel", "l:-.8,-", 5, "more than 7"),
        ("finkel", "l:-,-/", 7, "the throw"),
        ("finkel", "l:-,- ", 6, "not used in position strings"),
        ("finkel", "l:-,-*", 6, "not used"),
        ("finkel", "l:5,5", 0, "not a legal position"),
        ("finkel", "l:-,-/9", 7, "throw 9"),
        ("finkel", "l:-,-/0", 7, "no decision"),
        ("finkel", "l:-.07,-", 5, "leading zeros"),
        ("finkel", "l:-,-,q1", 6, "where the string should end"),
        ("v1-named-birds", "l:0000,00000", 3, "lists 4 birds"),
        ("guard-d6", "l:A7l", 3, "not a square"),
        ("guard-d6", "l:M2lx", 6, "not a token"),
        ("guard-d6", "l:M2l.A1d", 7, "out of order"),
        ("guard-d6", "l:M2l.M2d", 7, "out of order"),
        ("guard-d6", "l:-,e11.0", 6, "more than 10"),
        ("guard-d6", "l:-,e1.0,e1.0", 10, "twice"),
        ("guard-d6", "l:-,z1", 5, "not a field"),
        ("guard-d6", "l:M1llllllllll.M2l", 3, "more than the 10"),
        ("bens-ur", "l:Z,-", 3, "not a marker"),
        ("bens-ur", "l:-,-,f,f", 9, "twice"),
        ("ludens-akalandung", "l:w,-", 4, "not a piece"),
        ("ludens-akalandung", "l:-,-,ox", 8, "l or d"),
    ];
    for &(id, text, at, words) in cases {
        let e = refused(id, text);
        assert!(e.to_string().contains(words), "{id} '{text}': {e}");
        assert_eq!(e.at, at, "{id} '{text}': {e}");
    }
    let long = format!("l:{}", "1".repeat(300));
    assert!(refused("finkel", &long).to_string().contains("longer than"));
}

#[test]
fn examples_of_every_family_read_as_documented() {
    // The examples of docs/positions.md.
    let cases = [
        ("finkel", "l:469.1,2d"),
        ("finkel", "d:469.1,2d/2"),
        ("finkel", "l:-,-"),
        ("finkel", "d:25d.1,8.2"),
        ("regency-murray", "l:3cn,-"),
        ("v1-named-birds", "l:03f00,00000"),
        ("guard-d6", "d:A3l.M2dl,e0.2,q4"),
        ("guard-d6", "l:M8L/3"),
        ("ravensburg-1977", "l:-"),
        ("bens-ur", "l:-,-"),
        ("bens-ur", "l:3aG.1,-,f"),
        ("ludens-akalandung", "l:-,-"),
        ("ludens-akalandung", "d:13w4t6.1,2"),
    ];
    for (id, text) in cases {
        let mut game = new_game(id);
        game.set_position_string(text).unwrap_or_else(|e| panic!("{id} '{text}': {e}"));
        assert_eq!(game.position_string(), text, "{id}");
    }
    let mut game = new_game("finkel");
    game.set_position_string("d:469.1,2d/2").unwrap();
    assert_eq!(game.turn(), Turn::Decide(Side::Dark));
    let light = &game.position()["light"];
    assert_eq!((light["reserve"].as_u64(), light["off"].as_u64()), (Some(3), Some(1)));
}

#[test]
fn the_start_of_every_rule_set_is_short() {
    for id in all_ids() {
        let text = new_game(id).position_string();
        assert!(text.len() <= 16, "{id}: {text}");
    }
}

/// A game waiting for a move after a throw writes the throw in every family
/// whose throws lead straight to a move.
#[test]
fn strings_carry_the_throw_being_decided() {
    for id in ["finkel", "masters", "aseb", "regency-bell", "guard-d6", "vizier-4-pyramids", "bens-ur", "ludens-akalandung"] {
        let mut with_throw = 0;
        for seed in 0..40 {
            let game = random_game(id, seed, 1 + 2 * seed as usize);
            let text = game.position_string();
            if matches!(game.turn(), Turn::Decide(_)) && text.contains('/') {
                with_throw += 1;
                let mut set = new_game(id);
                set.set_position_string(&text).unwrap();
                assert_eq!(set.actions(), game.actions(), "{id}: {text}");
            }
        }
        assert!(with_throw > 0, "{id}: no string with a throw");
    }
}
