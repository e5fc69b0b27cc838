//! Properties of the tower games over many seeded random games per rule set:
//! every token is always in exactly one place, generated actions are accepted
//! and others refused with the game unchanged, and games end (T10 included).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::tower::{EndReason, TowerAction, TowerGame, TowerMove, TowerRules, TowerSetup, TOWER_IDS};
use ur_rules::{OptionValue, Options, Playable, Side, Turn};

/// Steps after which a game counts as endless (T10 ends real ones far sooner).
const MAX_STEPS: usize = 200_000;

fn sample_roll(game: &TowerGame, rng: &mut Xoshiro256PlusPlus) -> u8 {
    let outcomes = game.outcomes();
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    assert!((total - 1.0).abs() < 1e-12, "outcomes sum to {total}");
    ur_rules::sample_outcome(&outcomes, rng)
}

/// An action the game did not generate, if one is easy to find.
fn stranger(actions: &[TowerAction], rng: &mut Xoshiro256PlusPlus) -> Option<TowerAction> {
    (0..8)
        .map(|_| match rng.gen_range(0..10) {
            0 => TowerAction::Reroll,
            1 => TowerAction::Move5,
            _ => TowerAction::Move(TowerMove { from: rng.gen_range(0..16), to: rng.gen_range(0..16), carry: rng.gen_range(0..3) }),
        })
        .find(|a| !actions.contains(a))
}

/// Plays one random game, checking the invariants at every step; returns it.
fn play_checked(mut game: TowerGame, seed: u64, deep_checks: bool) -> Result<TowerGame, TestCaseError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..MAX_STEPS {
        prop_assert!(game.pieces_accounted(), "a token is lost or doubled:\n{game}");
        match game.turn() {
            Turn::Over(_) => return Ok(game),
            Turn::Roll(_) => {
                prop_assert!(game.actions().is_empty());
                let raw = sample_roll(&game, &mut rng);
                game.roll(raw).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            Turn::Decide(_) => {
                let actions = game.actions();
                prop_assert!(!actions.is_empty(), "no action while deciding:\n{game}");
                if deep_checks {
                    check_acceptance(&game, &actions, &mut rng)?;
                }
                let a = actions[rng.gen_range(0..actions.len())];
                game.apply(&a).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
        }
    }
    Err(TestCaseError::fail(format!("no end after {MAX_STEPS} steps:\n{game}")))
}

/// Every generated action is accepted; a stranger is refused, the game unchanged.
fn check_acceptance(game: &TowerGame, actions: &[TowerAction], rng: &mut Xoshiro256PlusPlus) -> Result<(), TestCaseError> {
    for a in actions {
        let mut g = game.clone();
        prop_assert!(g.apply(a).is_ok(), "{a} refused:\n{game}");
        prop_assert!(g.pieces_accounted());
    }
    if let Some(bad) = stranger(actions, rng) {
        let mut g = game.clone();
        prop_assert!(g.apply(&bad).is_err(), "{bad} accepted:\n{game}");
        prop_assert_eq!(g.snapshot(), game.snapshot());
    }
    let mut g = game.clone();
    prop_assert!(g.roll(1).is_err(), "a roll accepted while deciding");
    prop_assert_eq!(g.snapshot(), game.snapshot());
    Ok(())
}

fn runner(cases: u32) -> TestRunner {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

fn random_games(id: &str, options: &Options, cases: u32, deep: u32) {
    let rules = TowerRules::new(id, options).unwrap();
    let mut ends = [0u32; 4];
    let ends_cell = std::cell::RefCell::new(&mut ends);
    runner(cases)
        .run(&(any::<u64>(), any::<bool>()), |(seed, dark_first)| {
            let first = if dark_first { Side::Dark } else { Side::Light };
            let g = play_checked(TowerGame::with_rules(rules, first), seed, seed % u64::from(cases / deep.max(1)).max(1) == 0)?;
            let why = g.end_reason().ok_or_else(|| TestCaseError::fail("over without a reason"))?;
            ends_cell.borrow_mut()[why as usize] += 1;
            Ok(())
        })
        .unwrap();
    // Most games end by capture; the rest stop under T10.
    eprintln!("{id} {options:?}: ends by capture, expulsion, no progress, repetition: {ends:?}");
    assert!(ends[0] + ends[1] > 0, "{id}: no game was won: {ends:?}");
}

#[test]
fn ravensburg_random_games() {
    random_games("ravensburg-1977", &Options::new(), 1500, 30);
}

#[test]
fn vizier_random_games() {
    random_games("vizier-4-pyramids", &Options::new(), 1500, 30);
}

#[test]
fn guard_random_games() {
    random_games("guard-d6", &Options::new(), 1500, 30);
}

#[test]
fn options_random_games() {
    let opt = |pairs: &[(&str, &str)]| -> Options { pairs.iter().map(|(k, v)| (k.to_string(), OptionValue::parse(v))).collect() };
    let variants = [
        ("ravensburg-1977", opt(&[("optional_drop_prisoners", "false"), ("stalemate_result", "adjudicate")])),
        ("ravensburg-1977", opt(&[("loaded_promoted_backward", "true"), ("repetition_limit", "0")])),
        ("vizier-4-pyramids", opt(&[("goal_cap_scope", "combined"), ("adjudicate_when_no_free_tokens", "false")])),
        ("vizier-4-pyramids", opt(&[("all_blank_without_5", "pass"), ("tokens_per_player", "4"), ("optional_drop_prisoners", "true")])),
        ("guard-d6", opt(&[("max_stack_counts", "own"), ("max_stack", "3")])),
        ("guard-d6", opt(&[("max_stack_counts", "excluding_prisoners"), ("no_progress_turns", "50")])),
    ];
    for (id, o) in &variants {
        random_games(id, o, 150, 10);
    }
}

/// A game of two lone promoted tokens, light's on M1 and dark's on M8.
fn duel(id: &str, options: &[(&str, &str)]) -> TowerGame {
    let options: Options = options.iter().map(|(k, v)| (k.to_string(), OptionValue::parse(v))).collect();
    let rules = TowerRules::new(id, &options).unwrap();
    let n = rules.tokens;
    let setup = TowerSetup {
        stacks: [("M1".to_string(), "L".to_string()), ("M8".to_string(), "D".to_string())].into_iter().collect(),
        eliminated: [n - 1, n - 1],
        ..TowerSetup::default()
    };
    TowerGame::from_position(rules, &setup).unwrap()
}

/// Plays moves by their text, each after a throw of 1.
fn shuttle(game: &mut TowerGame, moves: &[&str]) {
    for m in moves {
        game.roll(1).unwrap();
        let a = game.actions().into_iter().find(|a| a.to_string() == *m).unwrap_or_else(|| panic!("{m} not legal:\n{game}"));
        game.apply(&a).unwrap();
    }
}

/// T10 (b): shuttling back and forth repeats the position a third time: a draw.
#[test]
fn shuttling_ends_by_repetition() {
    for id in TOWER_IDS {
        let mut g = duel(id, &[]);
        let cycle = ["5->6", "12->11 back", "6->5 back", "11->12"];
        shuttle(&mut g, &cycle);
        assert_eq!(g.turn(), Turn::Roll(Side::Light), "{id}: two occurrences are not enough");
        shuttle(&mut g, &cycle);
        assert_eq!((g.turn(), g.end_reason()), (Turn::Over(None), Some(EndReason::Repetition)), "{id}");
    }
}

/// T10 (a): with repetition off, turns without progress end the game.
#[test]
fn shuttling_ends_without_progress() {
    for id in TOWER_IDS {
        let mut g = duel(id, &[("repetition_limit", "0"), ("no_progress_turns", "12")]);
        let cycle = ["5->6", "12->11 back", "6->5 back", "11->12"];
        for _ in 0..2 {
            shuttle(&mut g, &cycle);
        }
        shuttle(&mut g, &cycle[..3]);
        assert_eq!(g.turn(), Turn::Roll(Side::Dark), "{id}");
        shuttle(&mut g, &cycle[3..]);
        assert_eq!((g.turn(), g.end_reason()), (Turn::Over(None), Some(EndReason::NoProgress)), "{id}");
    }
}

/// Random play from the duel always ends, by capture or by T10.
#[test]
fn duels_end() {
    for id in TOWER_IDS {
        for seed in 0..40 {
            let g = play_checked(duel(id, &[]), seed, true).unwrap();
            assert!(g.end_reason().is_some(), "{id}: {g}");
        }
    }
}

#[test]
fn json_and_text_round_trip() {
    for id in TOWER_IDS {
        let mut game = TowerGame::new(id, &Options::new(), Side::Light).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..400 {
            match game.turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    let raw = sample_roll(&game, &mut rng);
                    game.roll(raw).unwrap();
                }
                Turn::Decide(_) => {
                    let actions = game.actions();
                    for a in &actions {
                        let back: TowerAction = serde_json::from_str(&serde_json::to_string(a).unwrap()).unwrap();
                        assert_eq!(&back, a);
                        let any = ur_rules::AnyGame::Tower(game.clone()).action_from_json(&serde_json::to_value(a).unwrap()).unwrap();
                        assert_eq!(any, ur_rules::AnyAction::Tower(*a));
                    }
                    let a = actions[rng.gen_range(0..actions.len())];
                    game.apply(&a).unwrap();
                }
            }
            let again = TowerGame::from_position(*game.rules(), &game.to_setup()).unwrap();
            assert_eq!(again.to_setup(), game.to_setup());
        }
    }
}
