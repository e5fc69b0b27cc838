//! Every bot on every built-in rule set: legal decisions in every decision
//! phase, full games without panics, and determinism from the seed.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_bots::{decide_race, make_bot, make_bot_with_table, play_race, Bot, Oracle};
use ur_rules::{Action, Dice, Game, OptionValue, Options, Phase, RuleSetFile, Rules, SeededDice, Side};

/// Every built-in rule set with its default options, plus the options that
/// open other decision phases (optional extra rolls) or change the dice.
fn all_rules() -> Vec<Arc<Rules>> {
    let mut out: Vec<Arc<Rules>> = RuleSetFile::all_builtin().iter().map(|f| Arc::new(Rules::builtin(&f.id).unwrap())).collect();
    assert!(out.len() >= 12, "{} built-in rule sets", out.len());
    let variants: &[(&str, &str, OptionValue)] = &[
        ("v1-simple", "rosette_reroll_optional", OptionValue::Bool(true)),
        ("v1-named-birds", "rosette_reroll_optional", OptionValue::Bool(true)),
        ("v1-named-birds", "dice", OptionValue::Text("D4".into())),
        ("ludens-planet", "replay_optional", OptionValue::Bool(true)),
        ("regency-murray", "murray_small_block_order", OptionValue::Text("own_first".into())),
    ];
    for (id, k, v) in variants {
        let opts: Options = [(k.to_string(), v.clone())].into();
        out.push(Arc::new(Rules::builtin_with(id, &opts).unwrap()));
    }
    out
}

/// Whether `action` is legal now.
fn legal(game: &Game, action: Action) -> bool {
    match (game.phase(), action) {
        (Phase::Move, Action::Move(m)) => {
            game.legal_moves().iter().any(|l| l.from == m.from && l.to == m.to && (m.piece == 0 || m.piece == l.piece))
        }
        (Phase::Declare | Phase::ExtraRoll, Action::Choose(c)) => game.choices().contains(&c),
        _ => false,
    }
}

/// Plays random games and asks every bot at each decision; the game goes on
/// with a random action. Returns the number of decisions per phase.
fn ask_everywhere(rules: &Arc<Rules>, bots: &mut [Box<dyn Bot>], games: u64, every: usize) -> [usize; 3] {
    let mut seen = [0usize; 3];
    for g in 0..games {
        let first = if g % 2 == 0 { Side::Light } else { Side::Dark };
        let mut game = Game::new(rules.clone(), first);
        let mut dice = SeededDice::new(g + 100);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(g);
        let mut decisions = 0;
        while game.phase() != Phase::Over {
            let phase = game.phase();
            if phase == Phase::Roll {
                game.roll(dice.throw(rules.dice())).unwrap();
                continue;
            }
            let k = match phase {
                Phase::Move => 0,
                Phase::Declare => 1,
                _ => 2,
            };
            // Ask at every `every`-th decision, and always in the rarer phases.
            if k != 0 || decisions % every == 0 {
                seen[k] += 1;
                for bot in bots.iter_mut() {
                    let a = decide_race(&mut **bot, &game);
                    assert!(
                        legal(&game, a),
                        "{} on {}: {a:?} is not legal in {phase:?} (legal {:?}, choices {:?})",
                        bot.name(),
                        rules.id(),
                        game.legal_moves(),
                        game.choices()
                    );
                }
            }
            decisions += 1;
            let action = match phase {
                Phase::Move => Action::Move(game.legal_moves()[rng.gen_range(0..game.legal_moves().len())]),
                _ => {
                    let c = game.choices();
                    Action::Choose(c[rng.gen_range(0..c.len())])
                }
            };
            game.apply(action).unwrap();
        }
    }
    seen
}

const BOTS: &[&str] = &["random", "greedy", "expectimax:1", "expectimax:2", "mcts:40", "level1", "level2", "level3", "level4", "level5"];

#[test]
fn every_bot_makes_legal_decisions_on_every_rule_set() {
    for rules in all_rules() {
        let mut bots: Vec<Box<dyn Bot>> = BOTS.iter().map(|n| make_bot(n, 7).unwrap()).collect();
        let seen = ask_everywhere(&rules, &mut bots, 2, 5);
        assert!(seen[0] > 10, "{}: {seen:?}", rules.id());
        if rules.named_pieces() {
            assert!(seen[1] > 10, "{}: no declarations asked: {seen:?}", rules.id());
        }
        let optional = rules.options.values().any(|v| *v == OptionValue::Bool(true)) || rules.id() == "walker-cyningstan";
        if optional {
            assert!(seen[2] > 0, "{}: no extra-roll choice asked: {seen:?}", rules.id());
        }
    }
}

#[test]
fn deeper_searches_make_legal_decisions() {
    for id in ["finkel", "blitz", "regency-bell", "v1-named-birds", "walker-cyningstan"] {
        let rules = Arc::new(Rules::builtin(id).unwrap());
        let mut bots: Vec<Box<dyn Bot>> = ["expectimax:3", "mcts:300", "expectimax:5ms"].iter().map(|n| make_bot(n, 3).unwrap()).collect();
        ask_everywhere(&rules, &mut bots, 1, 12);
    }
}

/// Plays one game between two bots; returns the winner and the actions.
fn play(rules: &Arc<Rules>, light: &mut dyn Bot, dark: &mut dyn Bot, seed: u64) -> (Side, Vec<Action>) {
    let game = play_race(rules, light, dark, seed, 100_000).unwrap_or_else(|e| panic!("{e}"));
    let winner = game.winner().unwrap_or_else(|| panic!("{}: the game does not end", rules.id()));
    (winner, game.history().to_vec())
}

#[test]
fn bots_play_full_games_on_every_rule_set() {
    let pairs = [("level3", "mcts:30"), ("expectimax:2", "greedy"), ("level1", "level5"), ("random", "level2")];
    for (i, rules) in all_rules().iter().enumerate() {
        let (a, b) = pairs[i % pairs.len()];
        let mut x = make_bot(a, 1).unwrap();
        let mut y = make_bot(b, 2).unwrap();
        play(rules, &mut *x, &mut *y, i as u64);
        play(rules, &mut *y, &mut *x, i as u64 + 50);
    }
}

#[test]
fn bots_are_deterministic_for_a_seed() {
    for id in ["finkel", "v1-named-birds", "regency-murray", "regency-bell"] {
        let rules = Arc::new(Rules::builtin(id).unwrap());
        for name in ["random", "greedy", "mcts:60", "level1", "level2", "expectimax:2"] {
            let game = |seed: u64| {
                let mut a = make_bot(name, seed).unwrap();
                let mut b = make_bot(name, seed + 1).unwrap();
                play(&rules, &mut *a, &mut *b, 9).1
            };
            assert_eq!(game(5), game(5), "{name} on {id}");
        }
    }
}

#[test]
fn level5_plays_from_a_table_only_for_its_rules() {
    use ur_solve::{solve, Indexer, Silent, SolveConfig};
    let opts: Options = [("pieces".to_string(), OptionValue::Int(2))].into();
    let rules = Arc::new(Rules::builtin_with("finkel", &opts).unwrap());
    let index = Indexer::new(&rules).unwrap();
    let sol = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f2.urt");
    ur_solve::table::write_table(&path, &rules, &index, &sol.values, ur_solve::Encoding::F64, sol.residual, 1e-12).unwrap();
    let table = Arc::new(ur_solve::Table::open(&path).unwrap());
    let oracle = Oracle::new(table, rules.clone(), &path).unwrap();
    let mut level5 = make_bot_with_table("level5", 1, Some(&oracle)).unwrap();
    let mut perfect = make_bot_with_table("perfect", 1, Some(&oracle)).unwrap();
    // On the table's rules, level 5 decides as the perfect bot.
    let mut game = Game::new(rules.clone(), Side::Light);
    let mut dice = SeededDice::new(4);
    let mut checked = 0;
    while game.phase() != Phase::Over && checked < 200 {
        if game.phase() == Phase::Roll {
            game.roll(dice.throw(rules.dice())).unwrap();
            continue;
        }
        let a = decide_race(&mut *level5, &game);
        assert_eq!(a, decide_race(&mut *perfect, &game));
        checked += 1;
        game.apply(a).unwrap();
    }
    // On other rules it searches instead, without touching the table.
    let other = Arc::new(Rules::builtin("finkel").unwrap());
    let mut random = make_bot("random", 3).unwrap();
    play(&other, &mut *level5, &mut *random, 1);
}

#[test]
fn the_evaluation_is_a_probability_and_knows_finished_games() {
    use ur_bots::Evaluator;
    for rules in all_rules() {
        let ev = Evaluator::new(rules.clone());
        let mut game = Game::new(rules.clone(), Side::Light);
        let mut dice = SeededDice::new(1);
        let mut n = 0;
        while game.phase() != Phase::Over && n < 3000 {
            n += 1;
            let v = ev.value(game.state());
            assert!((0.0..=1.0).contains(&v) && v.is_finite(), "{}: {v}", rules.id());
            let action = match game.phase() {
                Phase::Roll => Action::Roll(dice.throw(rules.dice())),
                Phase::Move => Action::Move(game.legal_moves()[0]),
                _ => Action::Choose(game.choices()[0]),
            };
            game.apply(action).unwrap();
        }
        if let Some(w) = game.winner() {
            let mut st = *game.state();
            st.set_to_move(w);
            assert_eq!(ev.value(&st), 1.0);
            st.set_to_move(w.other());
            assert_eq!(ev.value(&st), 0.0);
        }
    }
}

#[test]
fn a_model_fitted_at_more_pieces_takes_over_from_an_extrapolated_one() {
    let weights = ur_bots::Weights::builtin();
    let model = |id: &str, pieces: i64| {
        let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
        let rules = Rules::builtin_with(id, &options).unwrap();
        weights.model_for(&rules).2.map(str::to_string)
    };
    // Fitted to the 2- and 3-piece tables: it serves those counts.
    assert_eq!(model("regency-murray", 3).as_deref(), Some("regency-murray"));
    // Beyond them the 7-piece self-play model serves instead.
    for pieces in 4..=7 {
        assert_eq!(model("regency-murray", pieces).as_deref(), Some("regency-murray@7"), "{pieces} pieces");
    }
    // Finkel's table model (2 to 5 pieces) gives way to `finkel@7` past 5.
    assert_eq!(model("finkel", 6).as_deref(), Some("finkel@7"));
}

#[test]
fn a_model_fitted_to_one_full_game_serves_that_rule_set_only() {
    let weights = ur_bots::Weights::builtin();
    let mut served = Vec::new();
    for file in RuleSetFile::all_builtin() {
        let Ok(rules) = Rules::builtin(&file.id) else { continue };
        if let Some(model) = weights.model_for(&rules).2.filter(|m| m.contains('@')) {
            assert_eq!(model.split('@').next(), Some(file.id.as_str()), "{} uses {model}", file.id);
            served.push(model.to_string());
        }
    }
    for id in ["finkel@7", "regency-murray@7", "regency-conventional@7", "ludens-planet@7", "masters@7", "v1-named-birds@3"] {
        assert!(served.iter().any(|m| m == id), "{id} serves its rule set: {served:?}");
    }
}

#[test]
fn murrays_two_routes_round_the_small_block_are_the_same_game() {
    // Going round the small block own side first swaps which side's outer
    // squares (both a rosette, then a plain square) each player uses, square
    // for square: the same game under a relabelling of the board. So the
    // variant shares the default route's model and every bot plays it alike.
    let own_first: Options = [("murray_small_block_order".to_string(), OptionValue::Text("own_first".into()))].into();
    let variant = Arc::new(Rules::builtin_with("regency-murray", &own_first).unwrap());
    let default = Arc::new(Rules::builtin("regency-murray").unwrap());
    assert_ne!(variant.cell(Side::Light, 12), default.cell(Side::Light, 12), "the routes differ on the board");
    let len = default.path_len();
    for (p, q) in (1..=len).flat_map(|p| (1..=len).map(move |q| (p, q))) {
        let meet = |r: &Rules| r.square(Side::Light, p) == r.square(Side::Dark, q);
        assert_eq!(meet(&variant), meet(&default), "light {p} and dark {q}");
        assert_eq!(variant.is_rosette(Side::Light, p), default.is_rosette(Side::Light, p), "position {p}");
    }
    let weights = ur_bots::Weights::builtin();
    assert_eq!(weights.model_for(&variant).2, weights.model_for(&default).2);
    for seed in 1..=2 {
        let game = |rules: &Arc<Rules>| {
            let (mut light, mut dark) = (make_bot("expectimax:1", seed).unwrap(), make_bot("greedy", seed).unwrap());
            play(rules, light.as_mut(), dark.as_mut(), seed)
        };
        assert_eq!(game(&variant), game(&default), "seed {seed}");
    }
}

#[test]
fn the_evaluation_knows_which_named_bird_waits_in_reserve() {
    use ur_bots::Evaluator;
    use ur_rules::{Setup, SideSetup};
    let rules = Arc::new(Rules::builtin("v1-named-birds").unwrap());
    let ev = Evaluator::new(rules.clone());
    let dark = SideSetup { reserve: 1, off: 0, path: vec![5, 6, 7, 9], birds: Some(vec![5, 6, 7, 9, 0]) };
    // Light waits for the Storm-bird (called by a 2: 6/16) or the Rooster (a 4: 1/16).
    let light_waiting_for = |bird: usize| {
        let mut birds = vec![1, 2, 3, 10];
        birds.insert(bird - 1, 0);
        let light = SideSetup { reserve: 1, off: 0, path: vec![1, 2, 3, 10], birds: Some(birds) };
        ev.value(&rules.validate(&Setup { to_move: Side::Light, light, dark: dark.clone() }).unwrap())
    };
    assert!(light_waiting_for(2) > light_waiting_for(4) + 0.01, "{} v {}", light_waiting_for(2), light_waiting_for(4));
}
