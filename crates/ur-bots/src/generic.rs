//! Bots for any rule family, through [`Playable`] only.
//!
//! The race sets have fast paths on `State` and a learned evaluation; the
//! other families (Ben's rules, the tower games, ...) are played here from
//! what every family offers: the open actions, the dice outcomes with their
//! probabilities, and a heuristic [`Playable::standing`] in `[0, 1]`.

use std::time::Instant;

use ur_rules::{AnyAction, AnyGame, Playable, Side, Turn};

use crate::net::game::GameNet;

/// The side that decides now.
///
/// # Panics
/// When the game does not wait for a decision.
pub fn decider(game: &AnyGame) -> Side {
    match game.turn() {
        Turn::Decide(side) => side,
        t => panic!("bot asked to decide while the game waits for {t:?}"),
    }
}

/// The open actions.
///
/// # Panics
/// When the game does not wait for a decision.
pub fn open_actions(game: &AnyGame) -> (Side, Vec<AnyAction>) {
    let side = decider(game);
    let actions = game.actions();
    assert!(!actions.is_empty(), "{}: no open action in a decision", game.rule_id());
    (side, actions)
}

/// The worth of a finished or unfinished game to `side`: 1 won, 0 lost,
/// 0.5 drawn, else its standing.
pub fn worth(game: &AnyGame, side: Side) -> f64 {
    match game.turn() {
        Turn::Over(Some(w)) => f64::from(u8::from(w == side)),
        Turn::Over(None) => 0.5,
        _ => game.standing(side).clamp(0.0, 1.0),
    }
}

/// The game after `action` (a legal action).
pub fn after(game: &AnyGame, action: &AnyAction) -> AnyGame {
    let mut child = game.clone();
    if let Err(e) = child.apply(action) {
        panic!("{}: open action {action} refused: {e}", game.rule_id());
    }
    child
}

/// Draws a raw outcome from `outcomes` (probabilities summing to 1): the
/// sampler of `ur-rules`, here for the callers that name it from the bots.
pub use ur_rules::sample_outcome;

/// Every open action with the mover's standing after it (one-move lookahead).
pub fn one_move_values(game: &AnyGame) -> Vec<(AnyAction, f64)> {
    let (me, actions) = open_actions(game);
    actions
        .into_iter()
        .map(|a| {
            let v = worth(&after(game, &a), me);
            (a, v)
        })
        .collect()
}

/// Decisions in a row (without a roll between them) a search follows before
/// it stops and scores the position: bounds families with long decision chains.
const MAX_CHAIN: u32 = 8;

/// Depth-limited expectiminimax on [`AnyGame`] clones. Depth counts rolls as
/// in the race search: depth 1 scores each action by the standing where the
/// next roll is due; each further unit adds one roll and the decisions after it.
/// With a network ([`GenericSearch::with_net`]), positions where a roll is
/// due are judged by it instead of the standing.
pub struct GenericSearch<'a> {
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stopped: bool,
    net: Option<&'a GameNet>,
}

impl<'a> GenericSearch<'a> {
    pub fn new(deadline: Option<Instant>) -> GenericSearch<'a> {
        GenericSearch { nodes: 0, deadline, stopped: false, net: None }
    }

    /// A search that reads `net` where a roll is due.
    pub fn with_net(deadline: Option<Instant>, net: &'a GameNet) -> GenericSearch<'a> {
        GenericSearch { nodes: 0, deadline, stopped: false, net: Some(net) }
    }

    /// The leaf value of `g` to `me`.
    fn leaf(&self, g: &AnyGame, me: Side) -> f64 {
        match (self.net, g.turn()) {
            (Some(net), Turn::Roll(roller)) => {
                let v = net.value(g);
                if roller == me {
                    v
                } else {
                    1.0 - v
                }
            }
            _ => worth(g, me),
        }
    }

    /// The value to the side due to roll in `g` of its roll, searched
    /// `rolls` rolls deep (the one-roll backup with `rolls` = 1).
    pub fn roll_value(&mut self, g: &AnyGame, rolls: u32) -> f64 {
        let Turn::Roll(me) = g.turn() else { panic!("roll_value where no roll is due") };
        self.value(g, rolls, me, 0)
    }

    /// Every open action with its value for the mover, `depth` rolls deep.
    pub fn action_values(&mut self, game: &AnyGame, depth: u32) -> Vec<(AnyAction, f64)> {
        let (me, actions) = open_actions(game);
        // Every node copies the game: copy no history.
        let game = &game.without_history();
        actions
            .into_iter()
            .map(|a| {
                let v = self.value(&after(game, &a), depth.saturating_sub(1), me, 1);
                (a, v)
            })
            .collect()
    }

    /// The value of `g` to `me`: `rolls` more rolls to expand, after `chain`
    /// decisions in a row.
    fn value(&mut self, g: &AnyGame, rolls: u32, me: Side, chain: u32) -> f64 {
        self.nodes += 1;
        if self.nodes & 63 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        if self.stopped {
            return self.leaf(g, me);
        }
        match g.turn() {
            Turn::Over(_) => self.leaf(g, me),
            Turn::Roll(_) if rolls == 0 => self.leaf(g, me),
            Turn::Roll(_) => {
                let mut sum = 0.0;
                for (raw, p) in g.outcomes() {
                    if p <= 0.0 {
                        continue;
                    }
                    let mut child = g.clone();
                    if child.roll(raw).is_err() {
                        continue;
                    }
                    sum += p * self.value(&child, rolls - 1, me, 0);
                }
                sum
            }
            Turn::Decide(side) => {
                if chain >= MAX_CHAIN {
                    return self.leaf(g, me);
                }
                let maximise = side == me;
                let mut best = if maximise { 0.0f64 } else { 1.0f64 };
                for a in g.actions() {
                    let v = self.value(&after(g, &a), rolls, me, chain + 1);
                    best = if maximise { best.max(v) } else { best.min(v) };
                }
                best
            }
        }
    }
}

/// The first best of `values` (ties: the earliest).
pub fn first_best(values: &[(AnyAction, f64)]) -> AnyAction {
    let mut best = &values[0];
    for v in &values[1..] {
        if v.1 > best.1 {
            best = v;
        }
    }
    best.0.clone()
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use ur_rules::{OptionValue, Options};

    use super::*;

    /// Every decision of random one-piece Finkel games, with the side deciding.
    fn decisions() -> Vec<AnyGame> {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(1))].into();
        let mut out = Vec::new();
        for seed in 0..20 {
            let mut g = AnyGame::new("finkel", &opts, Side::Light).unwrap();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            while !matches!(g.turn(), Turn::Over(_)) {
                if matches!(g.turn(), Turn::Roll(_)) {
                    g.roll_with(&mut rng).unwrap();
                } else {
                    out.push(g.clone());
                    let a = g.actions()[rng.gen_range(0..g.actions().len())].clone();
                    g.apply(&a).unwrap();
                }
            }
        }
        out
    }

    #[test]
    fn depth_one_is_the_one_move_standing_and_a_win_is_taken() {
        let mut wins = 0;
        for g in decisions() {
            let me = decider(&g);
            let one = one_move_values(&g);
            let mut search = GenericSearch::new(None);
            assert_eq!(search.action_values(&g, 1), one);
            let deep = search.action_values(&g, 2);
            assert!(deep.iter().all(|v| (0.0..=1.0).contains(&v.1)));
            if let Some(win) = g.actions().into_iter().find(|a| after(&g, a).turn() == Turn::Over(Some(me))) {
                assert_eq!(first_best(&deep), win);
                wins += 1;
            }
        }
        assert!(wins > 5, "{wins} winning moves seen");
    }
}
