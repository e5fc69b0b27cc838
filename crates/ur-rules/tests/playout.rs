//! The fast random playout (`Rules::random_playout`, behind `ur bench`) against the checked
//! `Game` path: the same seeded random bits drive both, the move is picked by the same index
//! rule, and every throw, every move, the number of throws and the winner must agree, for every
//! race rule set without named pieces and every option combination.

use std::sync::Arc;

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::spec::BUILTIN;
use ur_rules::{Choice, Game, Move, Options, Phase, RuleSetFile, Rules, Side, State};

/// A game still running after this many throws is a failure.
const MAX_THROWS: u32 = 1_000_000;

/// One throw of the fast path as `random_playout_seen` reports it.
#[derive(Debug, PartialEq)]
struct Step {
    state: State,
    raw: u8,
    value: u8,
    mv: Option<(u8, u8)>,
}

/// Every combination of option values (every allowed value; a numeric option's default and
/// bounds), each with `pieces` 1..=7.
fn option_combos(id: &str) -> Vec<Options> {
    RuleSetFile::builtin(id).expect("built-in id").option_combinations(7)
}

/// The game the fast path plays from the start with this seed.
fn fast(rules: &Rules, first: Side, seed: u64) -> (Vec<Step>, Side, u32) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut steps = Vec::new();
    let p = rules.random_playout_seen(&State::start(rules, first), &mut rng, |st, throw, mv| {
        assert!(steps.len() < MAX_THROWS as usize, "the fast playout does not end");
        steps.push(Step { state: *st, raw: throw.raw, value: throw.value, mv: mv.map(|m| (m.from, m.to)) });
    });
    assert_eq!(p.throws as usize, steps.len(), "one report per throw");
    (steps, p.winner, p.throws)
}

/// The same game through `Game`: one `u64` per throw from the same generator, the dice read
/// by `DiceModel::sample_bits`, the `k`-th legal move by increasing destination with
/// `k = ((bits >> 32) * count) >> 32`, an optional extra roll taken when bit 20 is set.
fn checked(rules: &Arc<Rules>, first: Side, seed: u64) -> (Vec<Step>, Side, u32) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(Arc::clone(rules), first);
    let mut steps = Vec::new();
    let mut throws = 0;
    let mut bits = 0;
    loop {
        match game.phase() {
            Phase::Over => break,
            Phase::Roll => {
                throws += 1;
                assert!(throws < MAX_THROWS, "the checked game does not end");
                bits = rng.next_u64();
                let state = *game.state();
                let raw = rules.dice().sample_bits(bits);
                let report = game.roll(raw).expect("the dice can show what they drew");
                let step = Step { state, raw, value: report.throw.value, mv: None };
                if report.passed {
                    steps.push(step);
                } else {
                    let mut legal: Vec<Move> = game.legal_moves().to_vec();
                    legal.sort_by_key(|m| m.to);
                    let k = ((bits >> 32) * legal.len() as u64) >> 32;
                    let mv = legal[k as usize];
                    game.play(mv).expect("a listed move is legal");
                    steps.push(Step { mv: Some((mv.from, mv.to)), ..step });
                }
            }
            Phase::ExtraRoll => {
                let choice = if bits & (1 << 20) == 0 { Choice::End } else { Choice::Reroll };
                game.choose(choice).expect("an extra roll may be taken or declined");
            }
            other => panic!("a race game without named pieces never waits for {other:?}"),
        }
    }
    (steps, game.winner().expect("the game is over"), throws)
}

/// Plays `seeds` games each way and compares them throw by throw.
fn agree(id: &str, options: &Options, rules: &Arc<Rules>, seeds: std::ops::Range<u64>) -> usize {
    let mut moves = 0;
    for seed in seeds {
        let first = if seed % 2 == 0 { Side::Light } else { Side::Dark };
        let (fast_steps, fast_winner, fast_throws) = fast(rules, first, seed);
        let (game_steps, game_winner, game_throws) = checked(rules, first, seed);
        for (i, (f, g)) in fast_steps.iter().zip(&game_steps).enumerate() {
            assert_eq!(f, g, "{id} {options:?} seed {seed}: throw {i} differs (fast, then checked)");
        }
        assert_eq!(fast_throws, game_throws, "{id} {options:?} seed {seed}: number of throws");
        assert_eq!(fast_winner, game_winner, "{id} {options:?} seed {seed}: winner");
        moves += fast_steps.iter().filter(|s| s.mv.is_some()).count();
    }
    moves
}

fn race_rule_sets() -> Vec<&'static str> {
    let ids: Vec<&str> = BUILTIN
        .iter()
        .map(|&(id, _)| id)
        .filter(|id| !Rules::builtin_with(id, &Options::new()).expect("compiles").named_pieces())
        .collect();
    assert!(ids.len() >= 11, "race rule sets without named pieces: {ids:?}");
    ids
}

#[test]
fn fast_playouts_agree_with_the_game_on_every_default_rule_set() {
    for id in race_rule_sets() {
        let rules = Arc::new(Rules::builtin_with(id, &Options::new()).expect("compiles"));
        let moves = agree(id, &Options::new(), &rules, 0..2000);
        assert!(moves > 2000 * 10, "{id}: only {moves} moves in 2,000 games");
    }
}

#[test]
fn fast_playouts_agree_with_the_game_on_every_option_combination() {
    let mut combos = 0;
    for id in race_rule_sets() {
        for options in option_combos(id) {
            let rules = Arc::new(Rules::builtin_with(id, &options).unwrap_or_else(|e| panic!("{id} {options:?}: {e}")));
            agree(id, &options, &rules, 1000..1040);
            combos += 1;
        }
    }
    assert!(combos >= 150, "{combos} option combinations");
}
