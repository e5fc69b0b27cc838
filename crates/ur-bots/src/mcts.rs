//! Monte Carlo tree search with chance nodes.
//!
//! Decision nodes choose children by UCT; chance nodes (the dice) draw a
//! throw with its exact probability. A new decision child is valued by one
//! playout to the end of the game. On rules without named pieces the tree
//! works on [`State`] and playouts are greedy-ish (capture when possible,
//! else land on a rosette that rolls again, else a random move); with named
//! pieces it works on [`Game`] clones with random playouts. Any other rule
//! family is searched on [`AnyGame`] clones through [`Playable`], with
//! greedy playouts (the best one-move standing, ties drawn at random)
//! capped at [`PLAYOUT_CAP`] actions; a capped playout scores the standing.
//! Seeded and deterministic for a given seed (with an iteration budget).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{Action, AnyAction, AnyGame, Choice, Dice, Extra, Game, Move, Phase, Playable, Rules, SeededDice, Side, State, Throw, Turn};

use crate::chance::merged_throws;
use crate::eval::Evaluator;
use crate::generic::{after, open_actions, worth};
use crate::{Bot, SearchStats};

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Playouts.
    Playouts(u32),
    /// Wall-clock time.
    Time(Duration),
}

impl Budget {
    /// Reads `2000` (playouts) or `100ms` / `1s`.
    pub fn parse(text: &str) -> Option<Budget> {
        if let Some(ms) = text.strip_suffix("ms") {
            return ms.parse::<u64>().ok().filter(|&m| m > 0).map(|m| Budget::Time(Duration::from_millis(m)));
        }
        if let Some(s) = text.strip_suffix('s') {
            return s.parse::<f64>().ok().filter(|&s| s > 0.0 && s < 1e6).map(|s| Budget::Time(Duration::from_secs_f64(s)));
        }
        text.parse::<u32>().ok().filter(|&n| n > 0).map(Budget::Playouts)
    }
}

/// The default number of playouts of `mcts`.
pub const DEFAULT_PLAYOUTS: u32 = 2000;
/// The UCT exploration constant when rewards are won games (0 or 1).
const EXPLORE: f64 = 0.8;
/// The UCT exploration constant when rewards are standings: they differ by
/// a few hundredths between moves, so 0.8 would explore almost uniformly
/// (`ravensburg-1977`, `mcts` against `greedy`: 67.5 % with 0.8, 78.5 %
/// with 0.05, 100 games each, random playouts).
const EXPLORE_STANDING: f64 = 0.2;
/// Actions (rolls and decisions) a playout of a non-race family plays at
/// most; a capped playout is scored by the standing. With greedy playouts,
/// `mcts` against `greedy` on `ravensburg-1977` scored 85.2 % with a cap
/// of 4 and 91.5 % with 8 (200 games each); random playouts did best with
/// short caps (about 10).
pub const PLAYOUT_CAP: u32 = 8;

/// Light's reward for a game won by `side`.
fn light_reward(side: Side) -> f64 {
    f64::from(u8::from(side == Side::Light))
}

/// What a simulated game waits for.
enum Kind {
    /// The dice: outcome probabilities.
    Chance,
    /// A decision by `Side` among this many actions.
    Decide(Side, usize),
    /// Over, with light's reward (1 won, 0 lost, 0.5 drawn).
    Over(f64),
}

/// A game the tree search can step through.
trait Sim: Clone {
    fn kind(&self) -> Kind;
    /// Outcome probabilities at a chance node (same order every time).
    fn outcomes(&self) -> &[f64];
    fn apply_outcome(&mut self, i: usize);
    fn apply_action(&mut self, i: usize);
    /// Plays to the end (or a cap); light's reward.
    fn playout(&self, rng: &mut Xoshiro256PlusPlus) -> f64;
    /// The UCT exploration constant for this game's rewards.
    fn explore(&self) -> f64 {
        EXPLORE
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The side to move is about to roll.
    Start,
    /// The side to move picks a move for this throw (index into the throws).
    Throw(usize),
    /// The side to move may roll again or end its turn.
    Extra,
    Over(Side),
}

/// A race game on [`State`].
#[derive(Clone)]
struct FastSim<'a> {
    ctx: &'a FastCtx,
    st: State,
    stage: Stage,
}

struct FastCtx {
    rules: Arc<Rules>,
    eval: Evaluator,
    throws: Vec<(Throw, f64)>,
    probs: Vec<f64>,
    /// Raw outcome to throw, for playouts.
    by_raw: [Throw; 8],
}

impl FastCtx {
    fn new(rules: &Arc<Rules>) -> FastCtx {
        let throws = merged_throws(rules);
        let fallback = rules.throws().next().expect("dice have outcomes").0;
        let by_raw = std::array::from_fn(|raw| rules.throw(raw as u8).unwrap_or(fallback));
        FastCtx {
            probs: throws.iter().map(|t| t.1).collect(),
            throws,
            eval: Evaluator::new_unweighted(rules.clone()),
            rules: rules.clone(),
            by_raw,
        }
    }

    /// The `i`-th legal move (in destination order) for a throw.
    fn nth_move(&self, st: &State, t: &Throw, i: usize) -> Move {
        let mut dests = self.rules.destinations(st, t);
        for _ in 0..i {
            dests &= dests - 1;
        }
        let to = dests.trailing_zeros() as u8;
        Move::new(to - t.value, to)
    }

    /// Greedy-ish playout: capture if possible, else take a rosette that
    /// rolls again, else a random move; extra rolls are always taken.
    fn playout(&self, start: &State, rng: &mut Xoshiro256PlusPlus) -> Side {
        let rules = &*self.rules;
        let dice = rules.dice();
        let mut st = *start;
        for _ in 0..100_000 {
            let bits = rng.next_u64();
            let t = &self.by_raw[dice.sample_bits(bits) as usize];
            let all = rules.destinations(&st, t);
            if all == 0 {
                st.set_to_move(st.to_move().other());
                continue;
            }
            let me = st.to_move();
            let capture = all & self.eval.capture_targets(&st, me.other());
            let rosette = all & self.eval.extra_land(me);
            let mut dests = if capture != 0 {
                capture
            } else if rosette != 0 {
                rosette
            } else {
                all
            };
            let pick = ((bits >> 32) * u64::from(dests.count_ones())) >> 32;
            for _ in 0..pick {
                dests &= dests - 1;
            }
            let to = dests.trailing_zeros() as u8;
            let effect = rules.apply_unchecked(&mut st, t, Move::new(to - t.value, to));
            if let Some(w) = rules.finish_move(&mut st, &effect) {
                return w;
            }
        }
        // Unreachable in practice: call it for the side further ahead.
        let ahead = |s: Side| st.off(s);
        if ahead(Side::Light) >= ahead(Side::Dark) {
            Side::Light
        } else {
            Side::Dark
        }
    }
}

impl Sim for FastSim<'_> {
    fn kind(&self) -> Kind {
        match self.stage {
            Stage::Start => Kind::Chance,
            Stage::Throw(i) => {
                let n = self.ctx.rules.destinations(&self.st, &self.ctx.throws[i].0).count_ones();
                Kind::Decide(self.st.to_move(), n as usize)
            }
            Stage::Extra => Kind::Decide(self.st.to_move(), 2),
            Stage::Over(w) => Kind::Over(light_reward(w)),
        }
    }

    fn outcomes(&self) -> &[f64] {
        &self.ctx.probs
    }

    fn apply_outcome(&mut self, i: usize) {
        let t = &self.ctx.throws[i].0;
        if self.ctx.rules.destinations(&self.st, t) == 0 {
            self.st.set_to_move(self.st.to_move().other());
            self.stage = Stage::Start;
        } else {
            self.stage = Stage::Throw(i);
        }
    }

    fn apply_action(&mut self, i: usize) {
        match self.stage {
            Stage::Throw(ti) => {
                let t = self.ctx.throws[ti].0;
                let mv = self.ctx.nth_move(&self.st, &t, i);
                let rules = &self.ctx.rules;
                let effect = rules.apply_unchecked(&mut self.st, &t, mv);
                self.stage = match rules.finish_move(&mut self.st, &effect) {
                    Some(w) => Stage::Over(w),
                    None if effect.extra == Extra::Optional => Stage::Extra,
                    None => Stage::Start,
                };
            }
            Stage::Extra => {
                if i == 1 {
                    self.st.set_to_move(self.st.to_move().other());
                }
                self.stage = Stage::Start;
            }
            _ => unreachable!("no decision at this stage"),
        }
    }

    fn playout(&self, rng: &mut Xoshiro256PlusPlus) -> f64 {
        match self.stage {
            Stage::Over(w) => light_reward(w),
            Stage::Start | Stage::Extra => light_reward(self.ctx.playout(&self.st, rng)),
            Stage::Throw(_) => unreachable!("playouts start at a turn"),
        }
    }
}

/// Any game, on [`Game`] clones.
#[derive(Clone)]
struct GameSim {
    game: Game,
    probs: Arc<[f64]>,
    raws: Arc<[u8]>,
}

impl GameSim {
    fn actions(&self) -> Vec<Action> {
        match self.game.phase() {
            Phase::Move => self.game.legal_moves().iter().map(|&m| Action::Move(m)).collect(),
            _ => self.game.choices().into_iter().map(Action::Choose).collect(),
        }
    }
}

impl Sim for GameSim {
    fn kind(&self) -> Kind {
        match self.game.phase() {
            Phase::Roll => Kind::Chance,
            Phase::Over => Kind::Over(light_reward(self.game.winner().expect("a finished game has a winner"))),
            Phase::Move => Kind::Decide(self.game.to_move(), self.game.legal_moves().len()),
            Phase::Declare | Phase::ExtraRoll => Kind::Decide(self.game.to_move(), self.game.choices().len()),
        }
    }

    fn outcomes(&self) -> &[f64] {
        &self.probs
    }

    fn apply_outcome(&mut self, i: usize) {
        self.game.roll(self.raws[i]).expect("the rules' outcomes are legal");
    }

    fn apply_action(&mut self, i: usize) {
        let a = self.actions()[i];
        self.game.apply(a).expect("legal actions apply");
    }

    fn playout(&self, rng: &mut Xoshiro256PlusPlus) -> f64 {
        let mut g = self.game.clone();
        let mut dice = SeededDice::new(rng.next_u64());
        loop {
            if let Some(w) = g.play_random(&mut dice, 100_000) {
                return light_reward(w);
            }
            // A game too long for the cap: keep going (games end with probability 1).
            let _ = dice.throw(g.rules().dice());
        }
    }
}

/// A game of any family, on [`AnyGame`] clones.
#[derive(Clone)]
struct AnySim {
    game: AnyGame,
    /// The outcomes of the roll due, when one is.
    outcomes: Vec<(u8, f64)>,
    probs: Vec<f64>,
}

impl AnySim {
    fn new(game: AnyGame) -> AnySim {
        let mut sim = AnySim { game, outcomes: Vec::new(), probs: Vec::new() };
        sim.refresh();
        sim
    }

    /// Reads the outcomes of a roll that is due.
    fn refresh(&mut self) {
        if matches!(self.game.turn(), Turn::Roll(_)) {
            self.outcomes = self.game.outcomes();
            self.probs = self.outcomes.iter().map(|o| o.1).collect();
        } else {
            self.outcomes.clear();
            self.probs.clear();
        }
    }
}

impl Sim for AnySim {
    fn kind(&self) -> Kind {
        match self.game.turn() {
            Turn::Roll(_) => Kind::Chance,
            Turn::Decide(side) => Kind::Decide(side, self.game.actions().len()),
            Turn::Over(_) => Kind::Over(worth(&self.game, Side::Light)),
        }
    }

    fn outcomes(&self) -> &[f64] {
        &self.probs
    }

    fn apply_outcome(&mut self, i: usize) {
        let raw = self.outcomes[i].0;
        if let Err(e) = self.game.roll(raw) {
            panic!("{}: outcome {raw} refused: {e}", self.game.rule_id());
        }
        self.refresh();
    }

    fn apply_action(&mut self, i: usize) {
        let a = self.game.actions().swap_remove(i);
        if let Err(e) = self.game.apply(&a) {
            panic!("{}: open action {a} refused: {e}", self.game.rule_id());
        }
        self.refresh();
    }

    fn explore(&self) -> f64 {
        EXPLORE_STANDING
    }

    /// Greedy play, at most [`PLAYOUT_CAP`] actions; then the standing.
    fn playout(&self, rng: &mut Xoshiro256PlusPlus) -> f64 {
        let mut g = self.game.clone();
        for _ in 0..PLAYOUT_CAP {
            let ok = match g.turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => g.roll_with(rng).is_ok(),
                Turn::Decide(_) => match greedy_pick(&g, rng) {
                    Some(next) => {
                        g = next;
                        true
                    }
                    None => false,
                },
            };
            if !ok {
                break;
            }
        }
        worth(&g, Side::Light)
    }
}

/// The game after a greedy action: the best one-move standing for the
/// mover, ties drawn at random; `None` when no action is open.
fn greedy_pick(g: &AnyGame, rng: &mut Xoshiro256PlusPlus) -> Option<AnyGame> {
    let Turn::Decide(me) = g.turn() else { return None };
    let actions = g.actions();
    // The indices of the best actions; only the last one's game is kept
    // (games are large, and usually one action is best).
    let mut ties: Vec<usize> = Vec::new();
    let mut kept: Option<(usize, AnyGame)> = None;
    let mut best_value = f64::NEG_INFINITY;
    for (k, a) in actions.iter().enumerate() {
        let child = after(g, a);
        let v = worth(&child, me);
        if v > best_value + 1e-12 {
            best_value = v;
            ties.clear();
        }
        if v >= best_value - 1e-12 {
            ties.push(k);
            kept = Some((k, child));
        }
    }
    let n = ties.len();
    (n > 0).then(|| {
        let k = ties[rng.gen_range(0..n)];
        match kept {
            Some((i, child)) if i == k => child,
            _ => after(g, &actions[k]),
        }
    })
}

const NONE: u32 = u32::MAX;

struct Node {
    visits: u32,
    /// Playouts won by light through this node.
    light_wins: f64,
    children: Vec<u32>,
}

/// The search tree, in one arena.
struct Tree {
    nodes: Vec<Node>,
    explore: f64,
}

impl Tree {
    fn add(&mut self) -> u32 {
        self.nodes.push(Node { visits: 0, light_wins: 0.0, children: Vec::new() });
        (self.nodes.len() - 1) as u32
    }

    /// One iteration from the root: select, expand, play out, back up.
    fn iterate<S: Sim>(&mut self, root: &S, rng: &mut Xoshiro256PlusPlus, path: &mut Vec<u32>) {
        let mut sim = root.clone();
        let mut node = 0u32;
        path.clear();
        path.push(node);
        let win = loop {
            match sim.kind() {
                Kind::Over(reward) => break reward,
                Kind::Chance => {
                    let probs = sim.outcomes();
                    let mut x: f64 = rng.gen();
                    let mut i = 0;
                    while i + 1 < probs.len() && x >= probs[i] {
                        x -= probs[i];
                        i += 1;
                    }
                    let n = probs.len();
                    sim.apply_outcome(i);
                    node = self.child(node, i, n);
                    path.push(node);
                }
                Kind::Decide(side, n) => {
                    let idx = node as usize;
                    if self.nodes[idx].children.is_empty() {
                        self.nodes[idx].children = vec![NONE; n];
                    }
                    // Expand the first untried action, or pick by UCT.
                    if let Some(i) = self.nodes[idx].children.iter().position(|&c| c == NONE) {
                        sim.apply_action(i);
                        let c = self.add();
                        self.nodes[idx].children[i] = c;
                        path.push(c);
                        break sim.playout(rng);
                    }
                    let i = self.uct(node, side);
                    sim.apply_action(i);
                    node = self.nodes[idx].children[i];
                    path.push(node);
                }
            }
        };
        for &n in path.iter() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.light_wins += win;
        }
    }

    /// The child for outcome `i` of a chance node with `n` outcomes.
    fn child(&mut self, node: u32, i: usize, n: usize) -> u32 {
        if self.nodes[node as usize].children.is_empty() {
            self.nodes[node as usize].children = vec![NONE; n];
        }
        let c = self.nodes[node as usize].children[i];
        if c != NONE {
            return c;
        }
        let c = self.add();
        self.nodes[node as usize].children[i] = c;
        c
    }

    fn uct(&self, node: u32, side: Side) -> usize {
        let parent = &self.nodes[node as usize];
        let log_n = f64::from(parent.visits.max(1)).ln();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &c) in parent.children.iter().enumerate() {
            let ch = &self.nodes[c as usize];
            let n = f64::from(ch.visits.max(1));
            let q = ch.light_wins / n;
            let q = if side == Side::Light { q } else { 1.0 - q };
            let score = q + self.explore * (log_n / n).sqrt();
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// The root action visited most (the higher mean among equals).
    fn best_root(&self, side: Side) -> usize {
        let root = &self.nodes[0];
        let mut best = (0, 0u32, f64::NEG_INFINITY);
        for (i, &c) in root.children.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let ch = &self.nodes[c as usize];
            let q = ch.light_wins / f64::from(ch.visits.max(1));
            let q = if side == Side::Light { q } else { 1.0 - q };
            if ch.visits > best.1 || (ch.visits == best.1 && q > best.2) {
                best = (i, ch.visits, q);
            }
        }
        best.0
    }
}

/// Runs a search from `root` (a decision) and returns the chosen action
/// index; adds its playouts and tree nodes to `stats`.
fn search<S: Sim>(root: &S, side: Side, budget: Budget, rng: &mut Xoshiro256PlusPlus, stats: &mut SearchStats) -> usize {
    let mut tree = Tree { nodes: Vec::new(), explore: root.explore() };
    tree.add();
    let mut path = Vec::new();
    let started = Instant::now();
    let mut i = 0u32;
    loop {
        match budget {
            Budget::Playouts(n) if i >= n => break,
            Budget::Time(t) if i & 31 == 0 && i > 0 && started.elapsed() >= t => break,
            _ => {}
        }
        tree.iterate(root, rng, &mut path);
        i += 1;
    }
    stats.searches += 1;
    stats.playouts += u64::from(i);
    stats.nodes += tree.nodes.len() as u64;
    tree.best_root(side)
}

/// Monte Carlo tree search with chance nodes.
pub struct MctsBot {
    name: String,
    budget: Budget,
    rng: Xoshiro256PlusPlus,
    ctx: Option<FastCtx>,
    generic: bool,
    stats: SearchStats,
}

impl MctsBot {
    pub fn new(budget: Budget, seed: u64) -> MctsBot {
        let name = match budget {
            Budget::Playouts(n) => format!("mcts:{n}"),
            Budget::Time(t) => format!("mcts:{}ms", t.as_millis()),
        };
        MctsBot { name, budget, rng: Xoshiro256PlusPlus::seed_from_u64(seed), ctx: None, generic: false, stats: SearchStats::default() }
    }

    /// Plays race sets through the generic code too (tests, comparisons).
    pub fn generic(mut self, on: bool) -> Self {
        self.generic = on;
        self
    }
}

impl Bot for MctsBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        if let Some(g) = game.as_race().filter(|_| !self.generic) {
            return AnyAction::Race(self.decide_race(g));
        }
        let (side, actions) = open_actions(game);
        if actions.len() == 1 {
            return actions[0].clone();
        }
        let sim = AnySim::new(game.without_history());
        let i = search(&sim, side, self.budget, &mut self.rng, &mut self.stats);
        actions[i].clone()
    }

    fn stats(&self) -> Option<SearchStats> {
        Some(self.stats)
    }
}

impl MctsBot {
    /// The search's decision in a race game.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        let side = game.to_move();
        let actions: Vec<Action> = match game.phase() {
            Phase::Move => game.legal_moves().iter().map(|&m| Action::Move(m)).collect(),
            Phase::Declare | Phase::ExtraRoll => game.choices().into_iter().map(Action::Choose).collect(),
            p => panic!("bot asked to decide in phase {p:?}"),
        };
        if actions.len() == 1 {
            return actions[0];
        }
        if game.rules().named_pieces() {
            let rules = game.rules();
            let total = f64::from(rules.dice().total_weight());
            let sim = GameSim {
                game: game.clone(),
                probs: rules.throws().map(|(_, w)| f64::from(w) / total).collect(),
                raws: rules.throws().map(|(t, _)| t.raw).collect(),
            };
            let i = search(&sim, side, self.budget, &mut self.rng, &mut self.stats);
            return sim.actions()[i];
        }
        if !self.ctx.as_ref().is_some_and(|c| Arc::ptr_eq(&c.rules, game.rules())) {
            self.ctx = Some(FastCtx::new(game.rules()));
        }
        let ctx = self.ctx.as_ref().expect("just set");
        let stage = match game.phase() {
            Phase::Move => {
                let t = game.throw().expect("a throw is set in the move phase");
                let i = ctx.throws.iter().position(|(x, _)| (x.value, x.extra, x.enter) == (t.value, t.extra, t.enter));
                Stage::Throw(i.expect("every throw has a merged entry"))
            }
            _ => Stage::Extra,
        };
        let sim = FastSim { ctx, st: *game.state(), stage };
        let i = search(&sim, side, self.budget, &mut self.rng, &mut self.stats);
        match stage {
            Stage::Throw(ti) => Action::Move(ctx.nth_move(game.state(), &ctx.throws[ti].0, i)),
            _ => Action::Choose(if i == 0 { Choice::Reroll } else { Choice::End }),
        }
    }
}
