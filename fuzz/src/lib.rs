//! What the fuzz targets share: random play that checks the game's own
//! promises at every step, and the list of built-in rule sets.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use ur_rules::{AnyGame, Playable, Turn};

/// Every built-in rule-set id, races first, then the other families.
pub fn rule_set_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = ur_rules::spec::BUILTIN.iter().map(|(id, _)| *id).collect();
    ids.extend(ur_rules::family_rule_sets().into_iter().map(|r| r.id));
    ids
}

/// Plays up to `steps` random rolls and decisions from `seed`, checking at
/// each one that the game offers what its turn says (a decision always has
/// an open action; no action otherwise) and accepts every open action.
///
/// # Panics
/// When the game breaks one of those promises: that is what the fuzzer looks for.
pub fn play_random(game: &mut AnyGame, seed: u64, steps: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..steps {
        let actions = game.actions();
        match game.turn() {
            Turn::Over(_) => {
                assert!(actions.is_empty(), "a finished game offers actions: {actions:?}");
                return;
            }
            Turn::Roll(_) => {
                assert!(actions.is_empty(), "a game waiting for the dice offers actions: {actions:?}");
                let total: f64 = game.outcomes().iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-9, "the outcomes' probabilities sum to {total}");
                game.roll_with(&mut rng).expect("a roll is taken when the game waits for one");
            }
            Turn::Decide(_) => {
                assert!(!actions.is_empty(), "a decision without an open action:\n{}", game.board_text());
                let action = actions[rng.gen_range(0..actions.len())].clone();
                let json = serde_json::to_value(&action).expect("actions serialise");
                assert_eq!(game.action_from_json(&json).ok().as_ref(), Some(&action), "an action's JSON reads back: {json}");
                game.apply(&action).unwrap_or_else(|e| panic!("open action {action} refused: {e}"));
            }
        }
    }
}
