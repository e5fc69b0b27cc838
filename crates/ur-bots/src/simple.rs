//! The simple bots: uniformly random, and a one-move heuristic.
//!
//! On race sets the heuristic knows the race (captures, rosettes); on other
//! families it maximises [`ur_rules::Playable::standing`] one move ahead.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{Action, AnyAction, AnyGame, Choice, Game, Move, Phase};

use crate::generic::{one_move_values, open_actions};
use crate::Bot;

/// Plays uniformly at random among the legal decisions.
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
    generic: bool,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: Xoshiro256PlusPlus::seed_from_u64(seed), generic: false }
    }

    /// Plays race sets through the generic code too (tests, comparisons).
    pub fn generic(mut self, on: bool) -> Self {
        self.generic = on;
        self
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        if let Some(g) = game.as_race().filter(|_| !self.generic) {
            return AnyAction::Race(self.decide_race(g));
        }
        let (_, actions) = open_actions(game);
        actions[self.rng.gen_range(0..actions.len())].clone()
    }
}

impl RandomBot {
    /// A uniformly random decision in a race game.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        match game.phase() {
            Phase::Move => {
                let legal = game.legal_moves();
                Action::Move(legal[self.rng.gen_range(0..legal.len())])
            }
            Phase::Declare | Phase::ExtraRoll => {
                let c = game.choices();
                Action::Choose(c[self.rng.gen_range(0..c.len())])
            }
            p => panic!("bot asked to decide in phase {p:?}"),
        }
    }
}

/// A one-move heuristic: win, capture, reach a rosette, bear off, enter, then
/// advance the piece furthest behind; always takes extra rolls; ties broken at random.
pub struct GreedyBot {
    rng: Xoshiro256PlusPlus,
    generic: bool,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot { rng: Xoshiro256PlusPlus::seed_from_u64(seed), generic: false }
    }

    /// Plays race sets through the generic code too (tests, comparisons).
    pub fn generic(mut self, on: bool) -> Self {
        self.generic = on;
        self
    }

    fn score(game: &Game, mv: Move) -> i32 {
        let throw = game.throw().expect("a throw is set in the move phase");
        Self::score_move(game.rules(), game.state(), &throw, mv)
    }

    /// The heuristic's score of a move (higher is better; the bot plays a
    /// best one, ties broken at random).
    pub fn score_move(rules: &ur_rules::Rules, st: &ur_rules::State, throw: &ur_rules::Throw, mv: Move) -> i32 {
        let mut st = *st;
        let me = st.to_move();
        let len = i32::from(rules.path_len());
        let effect = rules.apply_unchecked(&mut st, throw, mv);
        let mut score = 0;
        if st.off(me) == rules.pieces() {
            score += 10_000;
        }
        if effect.captured {
            score += 1_000 + 10 * i32::from(mv.to);
        }
        if effect.extra != ur_rules::Extra::None {
            score += 500;
        }
        if effect.borne_off {
            score += 300;
        }
        // Leaving a safe square and stepping into reach of the opponent are penalised.
        if mv.from > 0 && rules.is_rosette(me, mv.from) {
            score -= 200;
        }
        score + (len - i32::from(mv.from)) // prefer the piece furthest behind
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        if let Some(g) = game.as_race().filter(|_| !self.generic) {
            return AnyAction::Race(self.decide_race(g));
        }
        // One move ahead by standing; ties broken at random.
        let values = one_move_values(game);
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<&AnyAction> = values.iter().filter(|v| v.1 >= best - 1e-12).map(|v| &v.0).collect();
        top[self.rng.gen_range(0..top.len())].clone()
    }
}

impl GreedyBot {
    /// The heuristic decision in a race game.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        match game.phase() {
            Phase::Move => {
                let legal = game.legal_moves();
                let best = legal.iter().map(|&m| Self::score(game, m)).max().expect("legal moves exist");
                let top: Vec<Move> = legal.iter().copied().filter(|&m| Self::score(game, m) == best).collect();
                Action::Move(top[self.rng.gen_range(0..top.len())])
            }
            Phase::ExtraRoll => Action::Choose(Choice::Reroll),
            Phase::Declare => {
                let c = game.choices();
                // Summon while the reserve is large; otherwise move.
                let prefer = if game.state().reserve(game.to_move()) * 2 > game.rules().pieces() { Choice::Summon } else { Choice::Move };
                Action::Choose(if c.contains(&prefer) { prefer } else { c[0] })
            }
            p => panic!("bot asked to decide in phase {p:?}"),
        }
    }
}
