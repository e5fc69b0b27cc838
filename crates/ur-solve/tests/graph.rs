//! The small-variant solver against a brute-force expectimax over the game
//! itself, on tiny variants of every family, and against the race solver.
//!
//! The brute force knows nothing of the graph: it recurses through game
//! clones to a fixed number of steps, scoring the unfinished games at the
//! horizon as lost (a lower bound on light's value) or won (an upper
//! bound). Where endless play cannot be forced the bounds close on the true
//! value as the horizon grows, and the solver's value must lie between them.

use std::collections::HashMap;

use ur_rules::{AnyGame, OptionValue, Options, Playable, SeededDice, Side, Turn};
use ur_solve::{GraphSettings, GraphTable, Indexer, Silent, SolveConfig, Values};

fn options(pairs: &[(&str, &str)]) -> Options {
    pairs.iter().map(|(k, v)| (k.to_string(), v.parse::<i64>().map_or(OptionValue::Text(v.to_string()), OptionValue::Int))).collect()
}

const T10_OFF: [(&str, &str); 2] = [("no_progress_turns", "0"), ("repetition_limit", "0")];

/// One tiny variant of every family, with the brute force's horizon in
/// steps (the tower games' tokens can circle for long).
fn tiny_variants() -> Vec<(&'static str, Options, u32)> {
    let tower = |id| (id, options(&[&[("tokens_per_player", "1")][..], &T10_OFF].concat()), 600);
    vec![
        ("finkel", options(&[("pieces", "1")]), 200),
        ("bens-ur", options(&[("markers", "1"), ("start_procedure", "none")]), 250),
        ("ludens-akalandung", options(&[("pieces", "1")]), 250),
        // With one token each, guard-d6 plays as ravensburg-1977 does (no stacks to limit or carry).
        tower("ravensburg-1977"),
        tower("vizier-4-pyramids"),
    ]
}

/// Light's value of a game looking a number of steps ahead, unfinished
/// games at the horizon scored lost and won: a lower and an upper bound.
#[derive(Default)]
struct BruteForce {
    /// By the situation key's 64-bit hash and the steps left.
    memo: HashMap<(u64, u32), (f64, f64)>,
}

impl BruteForce {
    fn bounds(&mut self, game: &AnyGame, depth: u32) -> (f64, f64) {
        if let Turn::Over(w) = game.turn() {
            let v = w.map_or(0.5, |w| f64::from(u8::from(w == Side::Light)));
            return (v, v);
        }
        if depth == 0 {
            return (0.0, 1.0);
        }
        let mut bytes = Vec::new();
        game.situation_key(&mut bytes);
        let key = xxhash_rust::xxh3::xxh3_64(&bytes);
        if let Some(&v) = self.memo.get(&(key, depth)) {
            return v;
        }
        let v = match game.turn() {
            Turn::Roll(_) => game.outcomes().into_iter().fold((0.0, 0.0), |acc, (raw, p)| {
                let mut child = game.clone();
                child.roll(raw).unwrap();
                let (lo, hi) = self.bounds(&child, depth - 1);
                (acc.0 + p * lo, acc.1 + p * hi)
            }),
            Turn::Decide(side) => {
                let children = game.actions().into_iter().map(|a| {
                    let mut child = game.clone();
                    child.apply(&a).unwrap();
                    self.bounds(&child, depth - 1)
                });
                let children: Vec<(f64, f64)> = children.collect();
                let pick =
                    |f: fn(f64, f64) -> f64, init| (children.iter().map(|c| c.0).fold(init, f), children.iter().map(|c| c.1).fold(init, f));
                if side == Side::Light {
                    pick(f64::max, 0.0)
                } else {
                    pick(f64::min, 1.0)
                }
            }
            Turn::Over(_) => unreachable!(),
        };
        self.memo.insert((key, depth), v);
        v
    }
}

/// Situations along a few random games of the variant.
fn sampled_games(id: &str, opts: &Options) -> Vec<AnyGame> {
    let mut out = Vec::new();
    for seed in 0..4 {
        let mut game = AnyGame::new(id, opts, Side::Light).unwrap().without_history();
        let mut dice = SeededDice::new(seed);
        for step in 0..200 {
            if step % 7 == 0 {
                out.push(game.clone());
            }
            match game.turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    game.roll_with(dice.rng()).unwrap();
                }
                Turn::Decide(_) => {
                    let actions = game.actions();
                    let pick = actions[(dice.rng().next_u32() as usize) % actions.len()].clone();
                    game.apply(&pick).unwrap();
                }
            }
        }
    }
    out
}

use rand::RngCore;

/// Checks the solver's values of one variant between the brute force's bounds.
fn agree_with_brute_force(id: &str, opts: &Options, depth: u32) {
    let table = GraphTable::solve(id, opts, &GraphSettings::default(), &mut |_| {}).unwrap();
    let mut brute = BruteForce::default();
    for game in sampled_games(id, opts) {
        let exact = table.light_value(&game).unwrap_or_else(|| panic!("{id}: a reachable situation is missing"));
        let (lo, hi) = brute.bounds(&game, depth);
        assert!(hi - lo < 1e-9, "{id}: the brute force has not closed in {depth} steps: [{lo}, {hi}]");
        assert!(lo - 1e-9 <= exact && exact <= hi + 1e-9, "{id}: solver {exact} outside the brute force's [{lo}, {hi}]");
    }
}

#[test]
fn the_small_variant_solver_agrees_with_brute_force_on_every_family() {
    let variants = tiny_variants();
    // Two threads: the tower games take most of the time.
    std::thread::scope(|s| {
        let (towers, others): (Vec<_>, Vec<_>) = variants.iter().partition(|v| v.2 > 300);
        for half in [towers, others] {
            s.spawn(move || half.into_iter().for_each(|(id, opts, depth)| agree_with_brute_force(id, opts, *depth)));
        }
    });
}

#[test]
fn the_small_variant_solver_gives_the_race_solvers_values() {
    let opts = options(&[("pieces", "2")]);
    let table = GraphTable::solve("finkel", &opts, &GraphSettings::default(), &mut |_| {}).unwrap();
    let rules = ur_rules::Rules::builtin_with("finkel", &opts).unwrap();
    let index = Indexer::new(&rules).unwrap();
    let race = ur_solve::solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
    let mut checked = 0;
    for game in sampled_games("finkel", &opts) {
        let Some(state) = game.as_race().filter(|g| matches!(g.turn(), Turn::Roll(_))).map(|g| *g.state()) else { continue };
        let mover = race.get(index.rank(&state));
        let light = if state.to_move() == Side::Light { mover } else { 1.0 - mover };
        let graph = table.light_value(&game).unwrap();
        assert!((graph - light).abs() < 1e-9, "{state:?}: graph {graph}, race solver {light}");
        checked += 1;
    }
    assert!(checked > 10, "only {checked} positions compared");
}

#[test]
fn a_saved_table_reads_back_alike_and_a_foreign_file_is_refused() {
    let (id, opts, _) = &tiny_variants()[1];
    let table = GraphTable::solve(id, opts, &GraphSettings::default(), &mut |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bens1.urg");
    table.save(&path).unwrap();
    let back = GraphTable::open(&path).unwrap();
    assert_eq!(back.header(), table.header());
    for game in sampled_games(id, opts) {
        assert_eq!(back.light_value(&game), table.light_value(&game));
    }
    let junk = dir.path().join("junk");
    std::fs::write(&junk, b"not a table").unwrap();
    let err = GraphTable::open(&junk).err().unwrap().to_string();
    assert!(err.contains("not a table of a small variant"), "{err}");
    std::fs::write(&junk, &std::fs::read(&path).unwrap()[..100]).unwrap();
    let err = GraphTable::open(&junk).err().unwrap().to_string();
    assert!(err.contains("cut short"), "{err}");
}

#[test]
fn history_rules_and_hidden_choices_are_refused_with_the_fix() {
    let err = GraphTable::solve("guard-d6", &options(&[("tokens_per_player", "1")]), &GraphSettings::default(), &mut |_| {})
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("no_progress_turns=0"), "{err}");
    let err =
        GraphTable::solve("bens-ur", &options(&[("markers", "1")]), &GraphSettings::default(), &mut |_| {}).err().unwrap().to_string();
    assert!(err.contains("start_procedure=none"), "{err}");
}
