//! Depth-limited expectiminimax over the dice, with the learned evaluation
//! at the leaves.
//!
//! Values are win probabilities of the side to move, so a child where the
//! opponent moves is worth `1 - v` (an extra roll keeps the same side and
//! the same sign). Depth counts turns: `expectimax:1` scores each move by the
//! evaluation of the position it leads to; every further unit of depth adds
//! one roll of the dice and the reply to it. Chance nodes use Star1 pruning
//! (values lie in [0, 1]) and decision nodes alpha-beta, with moves ordered
//! by their static value. A time budget (`expectimax:50ms`) deepens
//! iteratively and keeps the deepest finished answer.
//!
//! Rule sets with named pieces (`v1-named-birds`) have declarations, call
//! rolls and placement rolls that only [`Game`] models; there the search
//! runs on `Game` clones, without pruning.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use ur_rules::{Action, AnyAction, AnyGame, Choice, Extra, Game, Move, Phase, Rules, Side, State, Throw};

use crate::chance::merged_throws;
use crate::eval::Evaluator;
use crate::generic::{first_best, open_actions, GenericSearch};
use crate::Bot;

/// How far a search looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Turns to search (at least 1).
    Depth(u32),
    /// Deepen until the budget is spent.
    Time(Duration),
}

impl Limit {
    /// Reads `3` (a depth) or `50ms` / `2s` (a time budget).
    pub fn parse(text: &str) -> Option<Limit> {
        if let Some(ms) = text.strip_suffix("ms") {
            return ms.parse::<u64>().ok().filter(|&m| m > 0).map(|m| Limit::Time(Duration::from_millis(m)));
        }
        if let Some(s) = text.strip_suffix('s') {
            return s.parse::<f64>().ok().filter(|&s| s > 0.0 && s < 1e6).map(|s| Limit::Time(Duration::from_secs_f64(s)));
        }
        text.parse::<u32>().ok().filter(|&d| (1..=MAX_DEPTH).contains(&d)).map(Limit::Depth)
    }
}

/// The deepest search a depth or a budget asks for.
pub const MAX_DEPTH: u32 = 12;

/// The rules a bot last played, with what it derived from them.
pub(crate) struct Context {
    pub rules: Arc<Rules>,
    pub eval: Evaluator,
    pub throws: Vec<(Throw, f64)>,
}

impl Context {
    pub fn new(rules: &Arc<Rules>) -> Context {
        Context { rules: rules.clone(), eval: Evaluator::new(rules.clone()), throws: merged_throws(rules) }
    }

    /// The cached context for `rules`, rebuilt when the rules change.
    pub fn for_rules<'a>(slot: &'a mut Option<Context>, rules: &Arc<Rules>) -> &'a Context {
        if !slot.as_ref().is_some_and(|c| Arc::ptr_eq(&c.rules, rules)) {
            *slot = Some(Context::new(rules));
        }
        slot.as_ref().expect("just set")
    }
}

/// What a search reads at its leaves: the win probability of the side to
/// move at the start of its turn (the learned linear evaluation, or a network).
pub trait LeafValue: Sync {
    fn value(&self, st: &State) -> f64;
}

impl LeafValue for Evaluator {
    fn value(&self, st: &State) -> f64 {
        Evaluator::value(self, st)
    }
}

/// The expectiminimax search on [`State`] (rules without named pieces).
pub struct Search<'a, E: LeafValue + ?Sized = Evaluator> {
    rules: &'a Rules,
    eval: &'a E,
    throws: &'a [(Throw, f64)],
    /// Positions evaluated or expanded.
    pub nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl<'a, E: LeafValue + ?Sized> Search<'a, E> {
    pub fn new(rules: &'a Rules, eval: &'a E, throws: &'a [(Throw, f64)]) -> Search<'a, E> {
        Search { rules, eval, throws, nodes: 0, deadline: None, stopped: false }
    }

    /// The value of the side to move before it rolls, searching `depth` turns.
    /// Exact within `(alpha, beta)`; outside it, a bound on the same side.
    pub fn chance(&mut self, st: &State, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        if depth == 0 || self.stopped {
            return self.eval.value(st);
        }
        if self.nodes & 255 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        let (mut sum, mut rest) = (0.0, 1.0);
        for &(t, p) in self.throws {
            rest -= p;
            let lo = ((alpha - sum - rest) / p).max(0.0);
            let hi = ((beta - sum) / p).min(1.0);
            sum += p * self.throw_value(st, &t, depth, lo, hi);
            if sum + rest <= alpha {
                return sum + rest.max(0.0);
            }
            if sum >= beta {
                return sum;
            }
        }
        sum
    }

    /// The mover's value with a throw: its best move, or the turn passing.
    pub(crate) fn throw_value(&mut self, st: &State, t: &Throw, depth: u32, alpha: f64, beta: f64) -> f64 {
        let mut dests = self.rules.destinations(st, t);
        if dests == 0 {
            let mut other = *st;
            other.set_to_move(st.to_move().other());
            return 1.0 - self.chance(&other, depth - 1, 1.0 - beta, 1.0 - alpha);
        }
        let mut moves: ArrayVec<(Move, f64), 32> = ArrayVec::new();
        while dests != 0 {
            let to = dests.trailing_zeros() as u8;
            dests &= dests - 1;
            moves.push((Move::new(to - t.value, to), 0.0));
        }
        if depth > 1 && moves.len() > 1 {
            for m in &mut moves {
                m.1 = self.after(st, t, m.0, 0, 0.0, 1.0);
            }
            moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        let (mut best, mut a) = (0.0f64, alpha);
        for &(m, _) in &moves {
            let v = self.after(st, t, m, depth - 1, a, beta);
            if v > best {
                best = v;
                if best >= beta {
                    return best;
                }
                a = a.max(best);
            }
        }
        best
    }

    /// The mover's value after playing `mv`, searching `depth` more turns.
    pub fn after(&mut self, st: &State, t: &Throw, mv: Move, depth: u32, alpha: f64, beta: f64) -> f64 {
        let mut next = *st;
        let effect = self.rules.apply_unchecked(&mut next, t, mv);
        if self.rules.finish_move(&mut next, &effect).is_some() {
            return 1.0;
        }
        match effect.extra {
            Extra::None => 1.0 - self.chance(&next, depth, 1.0 - beta, 1.0 - alpha),
            Extra::Auto => self.chance(&next, depth, alpha, beta),
            Extra::Optional => self.extra_roll(&next, depth, alpha, beta).0,
        }
    }

    /// An optional extra roll for the side to move: the better of rolling
    /// again and ending the turn, and whether rolling is at least as good.
    pub fn extra_roll(&mut self, st: &State, depth: u32, alpha: f64, beta: f64) -> (f64, bool) {
        let reroll = self.chance(st, depth, alpha, beta);
        if reroll >= beta {
            return (reroll, true);
        }
        let mut other = *st;
        other.set_to_move(st.to_move().other());
        let end = 1.0 - self.chance(&other, depth, 1.0 - beta, 1.0 - alpha.max(reroll));
        (reroll.max(end), reroll >= end)
    }

    /// The best of `moves` for throw `t`, searching `depth` turns in all
    /// (the move itself is the first): the move and its value.
    pub fn best_move(&mut self, st: &State, t: &Throw, moves: &[Move], depth: u32) -> (Move, f64) {
        let mut order: Vec<(Move, f64)> = moves.iter().map(|&m| (m, 0.0)).collect();
        if depth > 1 && order.len() > 1 {
            for m in &mut order {
                m.1 = self.after(st, t, m.0, 0, 0.0, 1.0);
            }
            order.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        self.root_values(st, t, &order, depth)[0]
    }

    /// The moves searched in `order` with their values, best first: the
    /// first best is exact, the others may be upper bounds (alpha-beta
    /// against the best so far). Among equal values the earlier in `order` wins.
    /// A search stopped by the deadline keeps the moves it finished.
    fn root_values(&mut self, st: &State, t: &Throw, order: &[(Move, f64)], depth: u32) -> Vec<(Move, f64)> {
        let mut best = 0.0f64;
        let mut out: Vec<(Move, f64)> = Vec::with_capacity(order.len());
        for &(m, _) in order {
            let v = self.after(st, t, m, depth - 1, best, 1.0);
            if self.stopped {
                break;
            }
            best = best.max(v);
            out.push((m, v));
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

/// Picks a move (or an extra-roll choice) by expectiminimax.
pub struct ExpectimaxBot {
    name: String,
    limit: Limit,
    ctx: Option<Context>,
    /// Nodes searched by the last decision.
    pub last_nodes: u64,
    /// Depth finished by the last decision.
    pub last_depth: u32,
    pub(crate) generic: bool,
}

impl ExpectimaxBot {
    pub fn new(limit: Limit) -> ExpectimaxBot {
        let name = match limit {
            Limit::Depth(d) => format!("expectimax:{d}"),
            Limit::Time(t) => format!("expectimax:{}ms", t.as_millis()),
        };
        ExpectimaxBot::named(name, limit)
    }

    /// A bot reporting another name (the difficulty levels).
    pub fn named(name: String, limit: Limit) -> ExpectimaxBot {
        ExpectimaxBot { name, limit, ctx: None, last_nodes: 0, last_depth: 0, generic: false }
    }

    /// Plays race sets through the generic code too (tests, comparisons).
    pub fn generic(mut self, on: bool) -> Self {
        self.generic = on;
        self
    }

    fn decide_fast(&mut self, game: &Game) -> Action {
        let ctx = Context::for_rules(&mut self.ctx, game.rules());
        let mut search = Search::new(&ctx.rules, &ctx.eval, &ctx.throws);
        let (action, depth) = search.decide(game, self.limit);
        self.last_nodes = search.nodes;
        self.last_depth = depth;
        action
    }
}

impl<E: LeafValue + ?Sized> Search<'_, E> {
    /// The decision in a race game (without named pieces) searched to
    /// `limit`, deepening one turn at a time, and the depth finished.
    pub fn decide(&mut self, game: &Game, limit: Limit) -> (Action, u32) {
        let search = self;
        let st = *game.state();
        // Deepen one turn at a time: the shallower searches order the moves.
        let (max_depth, deadline) = match limit {
            Limit::Depth(d) => (d, None),
            Limit::Time(t) => (MAX_DEPTH, Some(Instant::now() + t)),
        };
        let depths: Vec<u32> = (1..=max_depth).collect();
        let mut clock = Clock { started: Instant::now(), last: Duration::ZERO, deadline };
        let mut depth_done = 0;
        let action = match game.phase() {
            Phase::Move => {
                let t = game.throw().expect("a throw is set in the move phase");
                let legal = game.legal_moves();
                let mut best = legal[0];
                if legal.len() > 1 {
                    let mut order: Vec<(Move, f64)> = legal.iter().map(|&m| (m, 0.0)).collect();
                    for &depth in &depths {
                        search.deadline = deadline.filter(|_| depth > 1);
                        let values = search.root_values(&st, &t, &order, depth);
                        if search.stopped {
                            // The moves finished at this depth were searched
                            // best-first: a better one among them is exact.
                            if let Some(v) = values.first() {
                                best = v.0;
                            }
                            break;
                        }
                        best = values[0].0;
                        order = values;
                        depth_done = depth;
                        if !clock.deepen() {
                            break;
                        }
                    }
                }
                Action::Move(best)
            }
            Phase::ExtraRoll => {
                let mut reroll = true;
                for &depth in &depths {
                    search.deadline = deadline.filter(|_| depth > 1);
                    let (_, r) = search.extra_roll(&st, depth - 1, 0.0, 1.0);
                    if search.stopped {
                        break;
                    }
                    reroll = r;
                    depth_done = depth;
                    if !clock.deepen() {
                        break;
                    }
                }
                Action::Choose(if reroll { Choice::Reroll } else { Choice::End })
            }
            p => panic!("bot asked to decide in phase {p:?}"),
        };
        (action, depth_done)
    }
}

/// When to stop deepening within a time budget.
struct Clock {
    started: Instant,
    /// Time spent when the previous iteration finished.
    last: Duration,
    deadline: Option<Instant>,
}

impl Clock {
    /// Called after each finished iteration: whether the next one is likely
    /// to finish in time (it is cut off at the deadline in any case).
    fn deepen(&mut self) -> bool {
        let Some(deadline) = self.deadline else { return true };
        let now = Instant::now();
        let spent = now - self.started;
        let this = spent - self.last;
        let before = self.last;
        self.last = spent;
        // The next iteration costs about as many times this one as this one cost all before it.
        let growth = if before.is_zero() { 30.0 } else { (this.as_secs_f64() / before.as_secs_f64()).clamp(4.0, 200.0) };
        now + this.mul_f64(growth * 0.5) < deadline
    }
}

impl Bot for ExpectimaxBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        match game.as_race().filter(|_| !self.generic) {
            Some(g) => AnyAction::Race(self.decide_race(g)),
            None => self.decide_generic(game),
        }
    }
}

impl ExpectimaxBot {
    /// Expectiminimax over [`ur_rules::Playable`] for the families beyond
    /// the race, the standing at the leaves; the same depth and time-budget
    /// semantics as the race search (depth counts rolls).
    pub fn decide_generic(&mut self, game: &AnyGame) -> AnyAction {
        let (_, actions) = open_actions(game);
        if actions.len() == 1 {
            self.last_nodes = 0;
            self.last_depth = 0;
            return actions[0].clone();
        }
        // A depth is searched at once (no move ordering to gain from
        // shallower searches); a time budget deepens one roll at a time.
        let (depths, deadline) = match self.limit {
            Limit::Depth(d) => (d..=d, None),
            Limit::Time(t) => (1..=MAX_DEPTH, Some(Instant::now() + t)),
        };
        let mut clock = Clock { started: Instant::now(), last: Duration::ZERO, deadline };
        let mut best = actions[0].clone();
        let mut nodes = 0;
        self.last_depth = 0;
        for depth in depths {
            let mut search = GenericSearch::new(deadline.filter(|_| depth > 1));
            let values = search.action_values(game, depth);
            nodes += search.nodes;
            if search.stopped {
                break;
            }
            best = first_best(&values);
            self.last_depth = depth;
            if !clock.deepen() {
                break;
            }
        }
        self.last_nodes = nodes;
        best
    }

    /// The search's decision in a race game.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        if game.rules().named_pieces() {
            let depth = match self.limit {
                Limit::Depth(d) => d.min(3),
                Limit::Time(_) => 2,
            };
            let ctx = Context::for_rules(&mut self.ctx, game.rules());
            return GameSearch { eval: &ctx.eval }.decide(game, depth);
        }
        self.decide_fast(game)
    }
}

/// Expectiminimax on [`Game`] clones, for rules the fast search cannot
/// model. Depth counts turns as above; turns start at `Declare`.
pub(crate) struct GameSearch<'a> {
    pub eval: &'a Evaluator,
}

impl GameSearch<'_> {
    pub fn decide(&self, game: &Game, depth: u32) -> Action {
        let values = self.action_values(game, depth);
        let mut best = values[0];
        for &v in &values[1..] {
            if v.1 > best.1 {
                best = v;
            }
        }
        best.0
    }

    /// Every action open now with the mover's win probability after it,
    /// searching `depth` turns (the current one included).
    pub fn action_values(&self, game: &Game, depth: u32) -> Vec<(Action, f64)> {
        let game = &game.without_history();
        let me = game.to_move();
        let actions: Vec<Action> = match game.phase() {
            Phase::Move => game.legal_moves().iter().map(|&m| Action::Move(m)).collect(),
            Phase::Declare | Phase::ExtraRoll => game.choices().into_iter().map(Action::Choose).collect(),
            p => panic!("bot asked to decide in phase {p:?}"),
        };
        if actions.len() == 1 {
            return vec![(actions[0], 0.5)];
        }
        actions
            .into_iter()
            .map(|a| {
                let mut child = game.clone();
                child.apply(a).expect("legal actions apply");
                (a, self.next(&child, game, depth, me))
            })
            .collect()
    }

    /// The win probability of `me`, searching `depth` turns including the
    /// current one (a turn that starts with `depth` 0 is evaluated).
    pub(crate) fn value(&self, g: &Game, depth: u32, me: Side) -> f64 {
        match g.phase() {
            Phase::Over => f64::from(u8::from(g.winner() == Some(me))),
            Phase::Declare if depth == 0 => {
                let v = self.eval.value(g.state());
                if g.to_move() == me {
                    v
                } else {
                    1.0 - v
                }
            }
            Phase::Roll => {
                let rules = g.rules();
                let total = f64::from(rules.dice().total_weight());
                let mut sum = 0.0;
                for (t, w) in rules.throws() {
                    let mut child = g.clone();
                    child.roll(t.raw).expect("the rules' throws are legal");
                    sum += f64::from(w) / total * self.next(&child, g, depth, me);
                }
                sum
            }
            Phase::Move | Phase::Declare | Phase::ExtraRoll => {
                let actions: Vec<Action> = if g.phase() == Phase::Move {
                    g.legal_moves().iter().map(|&m| Action::Move(m)).collect()
                } else {
                    g.choices().into_iter().map(Action::Choose).collect()
                };
                let maximise = g.to_move() == me;
                let mut best = if maximise { 0.0f64 } else { 1.0f64 };
                for a in actions {
                    let mut child = g.clone();
                    child.apply(a).expect("legal actions apply");
                    let v = self.next(&child, g, depth, me);
                    best = if maximise { best.max(v) } else { best.min(v) };
                }
                best
            }
        }
    }

    /// A child's value: a new turn (a declaration after anything but a
    /// declaration) uses up one unit of depth.
    pub(crate) fn next(&self, child: &Game, parent: &Game, depth: u32, me: Side) -> f64 {
        let new_turn = child.phase() == Phase::Declare && parent.phase() != Phase::Declare;
        self.value(child, if new_turn { depth.saturating_sub(1) } else { depth }, me)
    }
}
