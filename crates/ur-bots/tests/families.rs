//! Every bot on every rule set of every family, through [`AnyGame`] only:
//! the race sets and whatever [`family_rule_sets`] lists (so a family merged
//! later is covered with no change here). The race sets are also played by
//! the generic bots (`make_generic_bot`), which is what the other families get.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_bots::generic::sample_outcome;
use ur_bots::{make_bot, make_generic_bot, Bot, BotError};
use ur_rules::{family_rule_sets, AnyAction, AnyGame, Family, Options, Playable, RuleSetFile, Side, Turn};

/// Every rule-set id of every family.
fn all_ids() -> Vec<(String, Family)> {
    let mut ids: Vec<(String, Family)> = RuleSetFile::all_builtin().into_iter().map(|f| (f.id, Family::Race)).collect();
    ids.extend(family_rule_sets().into_iter().map(|r| (r.id.to_string(), r.family)));
    ids
}

fn new_game(id: &str, first: Side) -> AnyGame {
    AnyGame::new(id, &Options::new(), first).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The bots every family plays: for a race set, the generic versions too.
fn bots(family: Family, names: &[&str], seed: u64) -> Vec<Box<dyn Bot>> {
    let mut out: Vec<Box<dyn Bot>> = Vec::new();
    for n in names {
        if family != Family::Race {
            out.push(make_bot(n, seed).unwrap());
        }
        out.push(make_generic_bot(n, seed).unwrap());
    }
    out
}

/// Plays random games and asks every bot at every `every`-th decision
/// whether its answer is open; returns the decisions asked.
fn ask_everywhere(id: &str, bots: &mut [Box<dyn Bot>], games: u64, every: usize, max_steps: usize) -> usize {
    let mut asked = 0;
    for g in 0..games {
        let mut game = new_game(id, if g % 2 == 0 { Side::Light } else { Side::Dark });
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(g);
        let mut decisions = 0;
        for _ in 0..max_steps {
            match game.turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    let raw = sample_outcome(&game.outcomes(), &mut rng);
                    game.roll(raw).unwrap();
                }
                Turn::Decide(_) => {
                    let open = game.actions();
                    if decisions % every == 0 || open.len() > 1 && decisions % every == 1 {
                        asked += 1;
                        for bot in bots.iter_mut() {
                            let a = bot.decide(&game);
                            assert!(open.contains(&a), "{} on {id}: {a} is not open (open: {open:?})", bot.name());
                        }
                    }
                    decisions += 1;
                    let a = open[rng.gen_range(0..open.len())].clone();
                    game.apply(&a).unwrap();
                }
            }
        }
    }
    asked
}

const NAMES: &[&str] =
    &["random", "greedy", "expectimax:1", "expectimax:2", "expectimax:3ms", "mcts:30", "mcts:2ms", "level1", "level2", "level3", "level4"];

#[test]
fn every_bot_decides_legally_on_every_family() {
    for (id, family) in all_ids() {
        let mut bots = bots(family, NAMES, 7);
        let asked = ask_everywhere(&id, &mut bots, 1, 9, 3000);
        assert!(asked > 3, "{id}: only {asked} decisions asked");
    }
}

/// Plays one game; returns the final turn and every step, as text.
fn play(id: &str, light: &mut dyn Bot, dark: &mut dyn Bot, seed: u64, cap: usize) -> (Turn, Vec<String>) {
    let mut game = new_game(id, Side::Light);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut steps = Vec::new();
    for _ in 0..cap {
        match game.turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => {
                let raw = sample_outcome(&game.outcomes(), &mut rng);
                game.roll(raw).unwrap();
                steps.push(format!("roll {raw}"));
            }
            Turn::Decide(side) => {
                let a: AnyAction = if side == Side::Light { light.decide(&game) } else { dark.decide(&game) };
                game.apply(&a).unwrap_or_else(|e| panic!("{side} on {id}: {a} refused: {e}"));
                steps.push(a.to_string());
            }
        }
    }
    (game.turn(), steps)
}

#[test]
fn bots_play_full_games_on_every_family() {
    let pairs = [("level3", "mcts:20"), ("expectimax:2", "greedy"), ("level1", "level4"), ("random", "level2")];
    for (i, (id, family)) in all_ids().into_iter().enumerate() {
        let (a, b) = pairs[i % pairs.len()];
        let make = |n: &str, s: u64| if family == Family::Race { make_generic_bot(n, s) } else { make_bot(n, s) };
        let (mut x, mut y) = (make(a, 1).unwrap(), make(b, 2).unwrap());
        let (end, _) = play(&id, &mut *x, &mut *y, i as u64, 20_000);
        if family == Family::Race {
            assert!(matches!(end, Turn::Over(Some(_))), "{id} ({a} vs {b}): {end:?}");
        }
    }
}

#[test]
fn generic_bots_are_deterministic_for_a_seed() {
    let mut ids: Vec<String> = vec!["finkel".into(), "v1-named-birds".into(), "walker-cyningstan".into()];
    ids.extend(family_rule_sets().into_iter().map(|r| r.id.to_string()));
    for id in &ids {
        for name in ["random", "greedy", "mcts:25", "level1", "expectimax:2"] {
            let make = |s: u64| if family_rule_sets().iter().any(|r| r.id == id) { make_bot(name, s) } else { make_generic_bot(name, s) };
            let game = |seed: u64| {
                let (mut a, mut b) = (make(seed).unwrap(), make(seed + 1).unwrap());
                play(id, &mut *a, &mut *b, 9, 3000).1
            };
            assert_eq!(game(5), game(5), "{name} on {id}");
        }
    }
}

#[test]
fn generic_greedy_beats_random_on_a_race() {
    let mut wins = 0;
    for g in 0..40u64 {
        let (mut greedy, mut random) = (make_generic_bot("greedy", g).unwrap(), make_bot("random", g).unwrap());
        let light_is_greedy = g % 2 == 0;
        let (end, _) = if light_is_greedy {
            play("finkel", &mut *greedy, &mut *random, g, 100_000)
        } else {
            play("finkel", &mut *random, &mut *greedy, g, 100_000)
        };
        let greedy_side = if light_is_greedy { Side::Light } else { Side::Dark };
        wins += u32::from(end == Turn::Over(Some(greedy_side)));
    }
    assert!(wins >= 26, "generic greedy won {wins} of 40 against random");
}

#[test]
fn perfect_is_race_only_and_generic_names_parse() {
    assert!(make_generic_bot("perfect", 1).is_err());
    assert_eq!(make_bot("generic:greedy", 1).unwrap().name(), "greedy");
    assert!(matches!(make_bot("generic:nonsense", 1), Err(BotError::Unknown(_))));
    let game = new_game("finkel", Side::Light);
    assert!(make_bot("greedy", 1).unwrap().check(&game).is_ok());
}
