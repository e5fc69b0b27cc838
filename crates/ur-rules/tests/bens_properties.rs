//! Properties of the marker games (`bens-ur`, `ludens-akalandung`), played
//! through `AnyGame` with random legal actions under every option
//! combination: markers are conserved, every generated action is accepted,
//! actions that were not generated are refused with the game unchanged, and
//! games end. Akalandung with every power off is checked move for move
//! against the race engine's `ludens-planet`.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;
use ur_rules::marker::akalandung::AkalandungAction;
use ur_rules::marker::bens::BensAction;
use ur_rules::{AnyAction, AnyGame, Game, OptionValue, Options, Playable, Rules, Side, Turn};

/// A game that has not ended after this many steps is a failure.
const MAX_STEPS: usize = 20_000;
/// Random games per option combination in the cheap tier.
const GAMES: u64 = 1000;

fn opts(pairs: &[(&str, &str)]) -> Options {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), OptionValue::parse(v))).collect()
}

fn bens_combos() -> Vec<Options> {
    let mut out = Vec::new();
    for dice in ["BIN3", "BIN4", "D4"] {
        for scope in ["total", "per_side_and_face"] {
            for order in ["own_first", "opponent_first"] {
                for start in ["void_always", "void_if_common_square"] {
                    out.push(opts(&[
                        ("dice", dice),
                        ("rosette_capacity_scope", scope),
                        ("bens_small_block_order", order),
                        ("start_double_zero", start),
                    ]));
                }
            }
        }
    }
    out.push(opts(&[("rosette_capacity", "1"), ("start_procedure", "none")]));
    out.push(opts(&[("rosette_capacity", "4")]));
    out
}

fn akalandung_combos() -> Vec<Options> {
    let mut out = Vec::new();
    for bits in 0..8u8 {
        let flag = |b: u8| if bits >> b & 1 == 1 { "true" } else { "false" };
        out.push(opts(&[("twins", flag(0)), ("warrior", flag(1)), ("oracle", flag(2))]));
    }
    out.push(opts(&[("replay_optional", "true"), ("twins_declaration", "optional")]));
    out.push(opts(&[("warrior_includes_13", "true"), ("warrior_wins_on", "bearoff")]));
    out
}

fn count(v: &Value, key: &str) -> usize {
    v[key].as_array().map_or(0, Vec::len)
}

fn num(v: &Value, key: &str) -> usize {
    v[key].as_u64().unwrap_or(0) as usize
}

/// Markers of a side in a snapshot, wherever they are.
fn snapshot_markers(game: &AnyGame, side: &str) -> usize {
    let p = game.position_json();
    let s = &p[side];
    match game {
        AnyGame::Bens(_) => num(s, "home") + num(s, "off") + count(s, "blank") + count(s, "dotted"),
        _ => num(s, "reserve") + num(s, "off") + count(s, "path") + 2 * count(s, "twins"),
    }
}

/// Actions of the game's family that are probably not open now.
fn candidates(game: &AnyGame, rng: &mut Xoshiro256PlusPlus) -> Vec<AnyAction> {
    let from = rng.gen_range(0..24u8);
    let to = from + rng.gen_range(0..5u8);
    match game {
        AnyGame::Bens(_) => vec![
            AnyAction::Bens(BensAction::Move { from, to }),
            AnyAction::Bens(BensAction::Jump { from, to }),
            AnyAction::Bens(BensAction::Exit { from }),
        ],
        _ => vec![
            AnyAction::Akalandung(AkalandungAction::Move { from, to, warrior: rng.gen() }),
            AnyAction::Akalandung(AkalandungAction::Twins { from, to }),
            AnyAction::Akalandung(AkalandungAction::Pass),
            AnyAction::Akalandung(AkalandungAction::Reroll),
        ],
    }
}

fn sample_roll(game: &AnyGame, rng: &mut Xoshiro256PlusPlus) -> u8 {
    let outcomes = game.outcomes();
    let mut x = rng.gen::<f64>();
    outcomes
        .iter()
        .find(|o| {
            x -= o.1;
            x < 0.0
        })
        .unwrap_or(&outcomes[0])
        .0
}

fn markers(game: &AnyGame, side: Side) -> usize {
    match game {
        AnyGame::Bens(g) => g.marker_count(side),
        AnyGame::Akalandung(g) => g.marker_count(side),
        AnyGame::Race(_) | AnyGame::Tower(_) => 0,
    }
}

/// Plays one random game, checking at every step that markers are conserved
/// and the chosen action is accepted; with `full`, also that every generated
/// action is accepted, round-trips through JSON and text, that the snapshot
/// agrees, and that actions not generated are refused with the game unchanged.
fn check_game(id: &str, options: &Options, seed: u64, full: bool) -> Result<Side, String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let first = if rng.gen() { Side::Light } else { Side::Dark };
    let mut game = AnyGame::new(id, options, first).map_err(|e| e.to_string())?;
    let at = |step: usize| format!("{id} {options:?} seed {seed} step {step}");
    for step in 0..MAX_STEPS {
        for side in Side::BOTH {
            if markers(&game, side) != 7 {
                return Err(format!("{}: {side} has {} markers\n{}", at(step), markers(&game, side), game.position_json()));
            }
        }
        if full && ["light", "dark"].iter().any(|s| snapshot_markers(&game, s) != 7) {
            return Err(format!("{}: the snapshot loses markers\n{}", at(step), game.position_json()));
        }
        match game.turn() {
            Turn::Over(Some(w)) => return Ok(w),
            Turn::Over(None) => return Err(format!("{}: game over without a winner", at(step))),
            Turn::Roll(_) if !full => {
                let raw = sample_roll(&game, &mut rng);
                game.roll(raw).map_err(|e| format!("{}: roll {raw} refused: {e}", at(step)))?;
            }
            Turn::Decide(_) if !full => {
                let actions = game.actions();
                if actions.is_empty() {
                    return Err(format!("{}: no action open in a decision\n{game:?}", at(step)));
                }
                let a = actions[rng.gen_range(0..actions.len())].clone();
                game.apply(&a).map_err(|e| format!("{}: {a} refused: {e}", at(step)))?;
            }
            Turn::Roll(_) => {
                if !game.actions().is_empty() {
                    return Err(format!("{}: actions open while waiting for a roll", at(step)));
                }
                let before = game.position_json();
                if game.apply(&candidates(&game, &mut rng)[0]).is_ok() || game.position_json() != before {
                    return Err(format!("{}: an action was accepted while waiting for a roll", at(step)));
                }
                let raw = sample_roll(&game, &mut rng);
                game.roll(raw).map_err(|e| format!("{}: roll {raw} refused: {e}", at(step)))?;
            }
            Turn::Decide(_) => {
                let actions = game.actions();
                if actions.is_empty() {
                    return Err(format!("{}: no action open in a decision\n{game:?}", at(step)));
                }
                if game.roll(1).is_ok() {
                    return Err(format!("{}: a roll was accepted during a decision", at(step)));
                }
                for a in &actions {
                    let mut probe = game.clone();
                    probe.apply(a).map_err(|e| format!("{}: generated {a} refused: {e}", at(step)))?;
                    let json = serde_json::to_value(a).map_err(|e| e.to_string())?;
                    if game.action_from_json(&json).ok().as_ref() != Some(a) || game.action_from_text(&a.to_string()).is_err() {
                        return Err(format!("{}: {a} does not round-trip through JSON and text", at(step)));
                    }
                }
                for c in candidates(&game, &mut rng).into_iter().filter(|c| !actions.contains(c)) {
                    let before = game.position_json();
                    let mut probe = game.clone();
                    if probe.apply(&c).is_ok() || probe.position_json() != before || probe.actions() != actions {
                        return Err(format!("{}: non-generated {c} was accepted or changed the game", at(step)));
                    }
                }
                let a = actions[rng.gen_range(0..actions.len())].clone();
                game.apply(&a).map_err(|e| format!("{}: {a} refused: {e}", at(step)))?;
            }
        }
    }
    Err(format!("{}: the game did not end", at(MAX_STEPS)))
}

fn run_many(id: &str, combos: &[Options], games: u64, full: bool) {
    let mut failures = Vec::new();
    let mut wins = [0u32; 2];
    for (ci, o) in combos.iter().enumerate() {
        for g in 0..games {
            match check_game(id, o, (ci as u64) << 32 | g, full) {
                Ok(w) => wins[w.index()] += 1,
                Err(e) => failures.push(e),
            }
            if failures.len() > 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(wins[0] > 0 && wins[1] > 0, "{id}: one side never won: {wins:?}");
}

#[test]
fn bens_random_games_conserve_markers_and_end() {
    run_many("bens-ur", &bens_combos(), GAMES, false);
}

#[test]
fn akalandung_random_games_conserve_markers_and_end() {
    run_many("ludens-akalandung", &akalandung_combos(), GAMES, false);
}

#[test]
fn bens_random_games_accept_exactly_the_generated_actions() {
    run_many("bens-ur", &bens_combos(), 4, true);
}

#[test]
fn akalandung_random_games_accept_exactly_the_generated_actions() {
    run_many("ludens-akalandung", &akalandung_combos(), 15, true);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn any_seed_plays_a_bens_game_to_the_end(seed in any::<u64>(), combo in 0..26usize) {
        let combos = bens_combos();
        let r = check_game("bens-ur", &combos[combo % combos.len()], seed, true);
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    #[test]
    fn any_seed_plays_an_akalandung_game_to_the_end(seed in any::<u64>(), combo in 0..10usize) {
        let combos = akalandung_combos();
        let r = check_game("ludens-akalandung", &combos[combo % combos.len()], seed, true);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

/// The race engine's position in the snapshot format of Akalandung.
fn race_side(game: &Game, side: Side) -> (u8, u8, Vec<u8>) {
    let st = game.state();
    (st.reserve(side), st.off(side), st.path_positions(side))
}

fn marker_side(game: &AnyGame, side: &str) -> (u8, u8, Vec<u8>) {
    let p = game.position_json();
    let s = &p[side];
    let mut path: Vec<u8> = s["path"].as_array().into_iter().flatten().filter_map(Value::as_u64).map(|v| v as u8).collect();
    path.sort_unstable();
    (num(s, "reserve") as u8, num(s, "off") as u8, path)
}

fn differential(replay_optional: &str, seed: u64) -> Result<(), String> {
    let o = opts(&[("twins", "false"), ("warrior", "false"), ("oracle", "false"), ("replay_optional", replay_optional)]);
    let race_opts = opts(&[("replay_optional", replay_optional)]);
    let rules = Rules::builtin_with("ludens-planet", &race_opts).map_err(|e| e.to_string())?;
    let mut race = Game::new(rules.into(), Side::Light);
    let mut ours = AnyGame::new("ludens-akalandung", &o, Side::Light).map_err(|e| e.to_string())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for step in 0..MAX_STEPS {
        let at = format!("seed {seed} step {step}");
        if Playable::turn(&race) != ours.turn() {
            return Err(format!("{at}: race waits for {:?}, Akalandung for {:?}", Playable::turn(&race), ours.turn()));
        }
        for (side, name) in [(Side::Light, "light"), (Side::Dark, "dark")] {
            if race_side(&race, side) != marker_side(&ours, name) {
                return Err(format!("{at}: {name} differs: race {:?}, Akalandung {:?}", race_side(&race, side), marker_side(&ours, name)));
            }
        }
        match ours.turn() {
            Turn::Over(_) => return Ok(()),
            Turn::Roll(_) => {
                let raw = sample_roll(&ours, &mut rng);
                Playable::roll(&mut race, raw).map_err(|e| e.to_string())?;
                ours.roll(raw).map_err(|e| e.to_string())?;
            }
            Turn::Decide(_) => {
                let race_actions: Vec<String> = Playable::actions(&race).iter().map(ToString::to_string).collect();
                let our_actions: Vec<String> = ours.actions().iter().map(ToString::to_string).collect();
                if race_actions != our_actions {
                    return Err(format!("{at}: race offers {race_actions:?}, Akalandung {our_actions:?}"));
                }
                let i = rng.gen_range(0..race_actions.len());
                let (ra, oa) = (Playable::actions(&race)[i], ours.actions()[i].clone());
                Playable::apply(&mut race, &ra).map_err(|e| e.to_string())?;
                ours.apply(&oa).map_err(|e| e.to_string())?;
            }
        }
    }
    Err(format!("seed {seed}: no end"))
}

#[test]
fn akalandung_without_powers_is_ludens_planet_move_for_move() {
    let failures: Vec<String> =
        (0..200u64).flat_map(|seed| ["false", "true"].map(|r| differential(r, seed))).filter_map(Result::err).take(5).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
