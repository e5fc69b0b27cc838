//! Networks for the families beyond the race: the value of the side due to
//! roll, read from the family's observation ([`super::observe`]), trained
//! by TD(λ) self-play on game clones as the race network is on positions.
//!
//! A game is searched through [`ur_rules::Playable`] ([`GenericSearch`]):
//! the one-roll backup of a turn start is, over the dice outcomes, the best
//! chain of decisions up to the next roll, judged by the network there. A
//! drawn game (the tower games' T10 rules) is worth one half.

use rand::{Rng, RngCore};
use ur_rules::{AnyGame, Options, Playable, Side, Turn};

use super::mlp::Mlp;
use super::observe::Observer;
use super::MAX_INPUTS;
use crate::generic::{first_best, GenericSearch};

/// A network judging one rule set's games where a roll is due.
#[derive(Clone, Debug)]
pub struct GameNet {
    pub observer: Observer,
    pub mlp: Mlp,
}

impl GameNet {
    /// The win probability (a draw counting half) of the side due to roll.
    pub fn value(&self, g: &AnyGame) -> f64 {
        let mut buf = [0.0f32; MAX_INPUTS];
        let x = &mut buf[..self.observer.len()];
        self.observer.encode(g, x);
        f64::from(self.mlp.value(x))
    }
}

/// A new game of `id` for training, the first roller drawn.
pub fn new_game(id: &str, options: &Options, rng: &mut impl RngCore) -> AnyGame {
    let first = if rng.gen_bool(0.5) { Side::Light } else { Side::Dark };
    AnyGame::new(id, options, first).expect("the rule set and options were checked")
}

/// One turn start of a self-play game.
struct Start {
    x: Vec<f32>,
    roller: Side,
    backup: f64,
    /// The decisions until the next turn start were the network's own.
    greedy: bool,
}

/// Plays one self-play game from `game` and returns the kept turn starts
/// with their TD(λ) targets, and how many turn starts it had.
pub(crate) fn play(
    net: &GameNet,
    mut game: AnyGame,
    eps: f64,
    lambda: f64,
    (keep, max_turns): (f64, u32),
    rng: &mut impl RngCore,
) -> (Vec<(Vec<f32>, f32)>, usize) {
    let mut starts: Vec<Start> = Vec::new();
    let outcome = loop {
        match game.turn() {
            Turn::Over(w) => break Some(w),
            _ if starts.len() as u32 >= max_turns => break None,
            Turn::Roll(roller) => {
                let mut x = vec![0.0; net.observer.len()];
                net.observer.encode(&game, &mut x);
                let backup = GenericSearch::with_net(None, net).roll_value(&game.without_history(), 1);
                starts.push(Start { x, roller, backup, greedy: true });
                game.roll_with(rng).expect("a roll is due");
            }
            Turn::Decide(_) => {
                let actions = game.actions();
                let action = if actions.len() > 1 && rng.gen_bool(eps) {
                    if let Some(s) = starts.last_mut() {
                        s.greedy = false;
                    }
                    actions[rng.gen_range(0..actions.len())].clone()
                } else if actions.len() == 1 {
                    actions[0].clone()
                } else {
                    first_best(&GenericSearch::with_net(None, net).action_values(&game, 1))
                };
                game.apply(&action).expect("an open action applies");
            }
        }
    };
    let turns = starts.len();
    let mut out = Vec::new();
    let mut next: Option<(f64, Side)> = None;
    for s in starts.iter().rev() {
        let rest = match (next, outcome) {
            (Some((w, side)), _) => Some(if side == s.roller { w } else { 1.0 - w }),
            (None, Some(Some(winner))) => Some(f64::from(u8::from(winner == s.roller))),
            (None, Some(None)) => Some(0.5),
            (None, None) => None,
        };
        let target = match rest {
            Some(r) if s.greedy => (1.0 - lambda) * s.backup + lambda * r,
            _ => s.backup,
        };
        next = Some((target, s.roller));
        if rng.gen_bool(keep) {
            out.push((s.x.clone(), target as f32));
        }
    }
    out.reverse();
    (out, turns)
}

/// The deepest decision a search finishes within `budget` (one roll deep at least).
pub fn decide_within(net: &GameNet, game: &AnyGame, budget: std::time::Duration) -> ur_rules::AnyAction {
    let deadline = std::time::Instant::now() + budget;
    let mut best = decide(net, game, 1);
    for depth in 2..=crate::expectimax::MAX_DEPTH {
        let mut search = GenericSearch::with_net(Some(deadline), net);
        let values = search.action_values(game, depth);
        if search.stopped {
            break;
        }
        best = first_best(&values);
    }
    best
}

/// The decision of a network search `depth` rolls deep (1: the best chain of
/// decisions up to the next roll).
pub fn decide(net: &GameNet, game: &AnyGame, depth: u32) -> ur_rules::AnyAction {
    let actions = game.actions();
    if actions.len() == 1 {
        return actions[0].clone();
    }
    first_best(&GenericSearch::with_net(None, net).action_values(game, depth))
}
