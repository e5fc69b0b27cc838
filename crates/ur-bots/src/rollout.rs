//! A rollout judge: win probabilities of a game of any family by many
//! playouts, with 95% confidence intervals, for the families that have no
//! table and no calibrated evaluation (Ben's rules, Akalandung, the tower
//! games), and for races too (where a table can check it).
//!
//! Variance is reduced as GNU Backgammon reduces it:
//! - common random numbers: trial `i` of every choice at one decision throws
//!   the same dice stream (one uniform draw per roll, kept apart from the
//!   policy's own randomness), so the choices' differences are measured on
//!   the same luck and their intervals come from paired differences;
//! - a cheap playout policy ([`Policy`]), optionally a stronger one for the
//!   first turns of each playout ([`RolloutConfig::head`]);
//! - truncation with a calibrated evaluation: a playout may stop after some
//!   rolls and score the position's win probability. Races have one, the
//!   learned evaluation. The other families' [`Playable::standing`] is a
//!   progress measure, not a probability, so the judge first calibrates it
//!   ([`Calibration`]): a logistic fit of the roller's result on its
//!   standing over games the playout policy plays against itself.
//!
//! The evaluation's error at the cut is a bias that more trials do not
//! shrink, so a value's stated interval includes it: the sampling interval
//! and an allowance of [`Allowance`] times the share of the trials that were
//! cut, added in quadrature (see [`Estimate::widened`]).
//!
//! Trials run in parallel with rayon; each is seeded from the judge's seed,
//! the position's key and its own index, so results do not depend on the
//! number of threads.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use ur_rules::{sample_outcome, Action, AnyAction, AnyGame, Choice, Game, Phase, PlayError, Playable, Side, Turn};

use crate::expectimax::{Context, GameSearch, Search};
use crate::generic::{after, first_best, worth, GenericSearch};
use crate::mcts::{Budget, MctsBot};
use crate::Bot;

/// Trials per choice by default: a 200-decision game's review takes about a
/// minute on two cores with it (BENCHMARKS.md, "Rollout review").
pub const DEFAULT_TRIALS: u32 = 256;

/// Rolls after which a playout stops and is scored by the evaluation, by
/// default: full playouts of the families beyond the race run to hundreds
/// of steps, and choices' results decorrelate on the way (BENCHMARKS.md).
pub const DEFAULT_TRUNCATE: u32 = 12;

/// Games the policy plays against itself to calibrate the standing.
pub const CALIBRATION_GAMES: u64 = 96;

/// Steps (rolls and decisions) after which a playout is stopped and
/// counted a draw: far beyond any real game; only rules that cannot end
/// reach it.
pub const PLAYOUT_STEP_CAP: u32 = 20_000;

/// The z-value of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// The standard deviation of a truncated value's bias when every trial is
/// cut: the evaluation's error at the cut, averaged over the cut
/// positions, as measured against full playouts of the same policy (the
/// `measure_truncation_error` test in `tests/rollout.rs`, roll positions of
/// `level2` games; BENCHMARKS.md, "Rollout review").
#[derive(Clone, Copy, Debug)]
pub struct Allowance;

impl Allowance {
    /// Races, by the learned evaluation: measured 3.9 pp on Masters, 2.0 on
    /// Finkel, 2.4 on 4-piece Finkel, 1.3 on 3 pieces, 0.6 on 2; the
    /// largest stands for every race set.
    pub const RACE: f64 = 0.04;
    /// The other families, by the calibrated standing: measured about
    /// 12 pp on Akalandung and on guard-d6 (few positions: a rough figure).
    pub const STANDING: f64 = 0.12;
}

/// How a playout decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random.
    Random,
    /// One move ahead: by the learned evaluation on race sets
    /// (`expectimax:1`), by the standing elsewhere (the `greedy` bot).
    Greedy,
    /// Expectiminimax this many rolls deep (the evaluation or the standing at the leaves).
    Expectimax(u32),
    /// Monte Carlo tree search with this many playouts.
    Mcts(u32),
}

impl Policy {
    /// Reads `random`, `greedy`, `expectimax:D`, `mcts:N`.
    pub fn parse(text: &str) -> Option<Policy> {
        let number = |s: &str| s.parse::<u32>().ok().filter(|&n| n > 0);
        match text.split_once(':') {
            None if text == "random" => Some(Policy::Random),
            None if text == "greedy" => Some(Policy::Greedy),
            Some(("expectimax", d)) => number(d).filter(|&d| d <= 6).map(Policy::Expectimax),
            Some(("mcts", n)) => number(n).map(Policy::Mcts),
            _ => None,
        }
    }

    pub fn name(self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Expectimax(d) => format!("expectimax:{d}"),
            Policy::Mcts(n) => format!("mcts:{n}"),
        }
    }
}

/// What a rollout judge does.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutConfig {
    /// Playouts per choice (and per position value).
    pub trials: u32,
    pub seed: u64,
    /// The policy of each playout's decisions up to those after its
    /// `head_turns`-th roll (0: none).
    pub head: Policy,
    pub head_turns: u32,
    /// The policy after them.
    pub tail: Policy,
    /// Stop a playout after this many rolls and score it with the learned
    /// evaluation (races) or the calibrated standing (other families).
    pub truncate: Option<u32>,
}

impl Default for RolloutConfig {
    fn default() -> Self {
        RolloutConfig {
            trials: DEFAULT_TRIALS,
            seed: 0,
            head: Policy::Greedy,
            head_turns: 0,
            tail: Policy::Greedy,
            truncate: Some(DEFAULT_TRUNCATE),
        }
    }
}

impl RolloutConfig {
    /// The default judge with `trials` and `seed`.
    pub fn with(trials: u32, seed: u64) -> RolloutConfig {
        RolloutConfig { trials, seed, ..RolloutConfig::default() }
    }
}

/// A mean with its 95% interval `mean ± half`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    /// Half the interval's width.
    pub half: f64,
}

impl Estimate {
    pub fn low(self) -> f64 {
        self.mean - self.half
    }

    pub fn high(self) -> f64 {
        self.mean + self.half
    }

    /// Whether `x` lies in the interval.
    pub fn contains(self, x: f64) -> bool {
        self.low() <= x && x <= self.high()
    }

    /// The mean and the normal interval of samples. When every sample is the
    /// same, the rule of three (`3/n`) stands in for the missing spread.
    pub fn of(samples: &[f64]) -> Estimate {
        let n = samples.len();
        if n == 0 {
            return Estimate { mean: 0.5, half: 0.5 };
        }
        let nf = n as f64;
        let mean = samples.iter().sum::<f64>() / nf;
        if n == 1 {
            return Estimate { mean, half: 1.0 };
        }
        let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (nf - 1.0);
        let half = if var > 0.0 { Z95 * (var / nf).sqrt() } else { 3.0 / nf };
        Estimate { mean, half }
    }

    /// The estimate of `a[i] - b[i]`, paired trial by trial.
    pub fn paired(a: &[f64], b: &[f64]) -> Estimate {
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        Estimate::of(&d)
    }

    /// The interval widened by a bias of standard deviation `bias_sd`,
    /// added in quadrature to the sampling's.
    #[must_use]
    pub fn widened(self, bias_sd: f64) -> Estimate {
        Estimate { mean: self.mean, half: self.half.hypot(Z95 * bias_sd) }
    }
}

/// Every open choice at a decision with its playouts' results.
#[derive(Clone, Debug)]
pub struct ChoiceTrials {
    pub actions: Vec<AnyAction>,
    /// `results[c][i]`: choice `c`'s trial `i`, the mover's result in `[0, 1]`.
    pub results: Vec<Vec<f64>>,
    /// `cut[c][i]`: whether that trial was cut and scored by the evaluation.
    pub cut: Vec<Vec<bool>>,
    /// The judge's truncation allowance ([`RolloutJudge::allowance`]).
    pub allowance: f64,
}

impl ChoiceTrials {
    /// Each choice's estimate, in the order of [`ChoiceTrials::actions`],
    /// its interval including the truncation's allowance.
    pub fn estimates(&self) -> Vec<Estimate> {
        self.results.iter().zip(&self.cut).map(|(r, cut)| Estimate::of(r).widened(share(cut) * self.allowance)).collect()
    }

    /// The index of the best choice (highest mean; the first among equals).
    pub fn best(&self) -> usize {
        let means: Vec<f64> = self.results.iter().map(|r| Estimate::of(r).mean).collect();
        let mut best = 0;
        for (i, &m) in means.iter().enumerate() {
            if m > means[best] {
                best = i;
            }
        }
        best
    }

    /// How much choice `c` loses against choice `best`, paired trial by trial.
    pub fn loss(&self, best: usize, c: usize) -> Estimate {
        Estimate::paired(&self.results[best], &self.results[c])
    }
}

/// The share of `true` in `flags` (0 for none).
fn share(flags: &[bool]) -> f64 {
    flags.iter().filter(|&&f| f).count() as f64 / flags.len().max(1) as f64
}

/// A judged roll's playouts ([`RolloutJudge::roll`]).
#[derive(Clone, Debug)]
pub struct RollTrials {
    /// The roller's result of each trial from before the roll.
    pub before: Vec<f64>,
    /// The roller's result of each trial from after it, on the same later dice.
    pub after: Vec<f64>,
    /// The shares of those trials that were cut.
    pub before_cut: f64,
    pub after_cut: f64,
    /// The choices of the real decision that follows the roll, if one does.
    pub choices: Option<ChoiceTrials>,
}

/// The rollout judge for one game's rules.
pub struct RolloutJudge {
    config: RolloutConfig,
    /// The race search's context (race sets only).
    ctx: Option<Context>,
    /// The standing as a win probability (other families, when truncating).
    calibration: Option<Calibration>,
}

impl RolloutJudge {
    /// A judge for games with the rules of `game`.
    ///
    /// # Panics
    /// If `config.trials` is 0.
    pub fn new(game: &AnyGame, config: RolloutConfig) -> RolloutJudge {
        assert!(config.trials > 0, "a rollout needs at least one trial");
        let ctx = game.as_race().map(|g| Context::new(g.rules()));
        let mut judge = RolloutJudge { config, ctx, calibration: None };
        if judge.ctx.is_none() && judge.config.truncate.is_some() {
            judge.calibration = Some(Calibration::fit(&judge, game));
        }
        judge
    }

    /// The standard deviation of a value's truncation bias when every trial
    /// is cut ([`Allowance`]; 0 when playouts run to the end).
    pub fn allowance(&self) -> f64 {
        match (self.config.truncate, &self.ctx) {
            (None, _) => 0.0,
            (Some(_), Some(_)) => Allowance::RACE,
            (Some(_), None) => Allowance::STANDING,
        }
    }

    /// The estimate of samples `values` of which `cut` share were cut, its
    /// interval including the truncation's allowance.
    pub fn estimate(&self, values: &[f64], cut: f64) -> Estimate {
        Estimate::of(values).widened(cut * self.allowance())
    }

    /// The standing's calibration, when the judge truncates a family beyond the race.
    pub fn calibration(&self) -> Option<&Calibration> {
        self.calibration.as_ref()
    }

    /// Whether cut playouts are scored by the learned evaluation (races),
    /// not by the calibrated standing.
    pub fn evaluates(&self) -> bool {
        self.ctx.is_some()
    }

    pub fn config(&self) -> &RolloutConfig {
        &self.config
    }

    /// The judge's name for reports: `rollout:N`, with the policies and
    /// truncation when they are not the default.
    pub fn name(&self) -> String {
        let c = &self.config;
        let mut name = format!("rollout:{}", c.trials);
        if c.head_turns > 0 && c.head != c.tail {
            name += &format!(" ({} for {} turns, then {})", c.head.name(), c.head_turns, c.tail.name());
        } else if c.tail != Policy::Greedy {
            name += &format!(" ({})", c.tail.name());
        }
        if let Some(t) = c.truncate {
            let by = if self.evaluates() { "the evaluation" } else { "the calibrated standing" };
            name += &format!(", truncated after {t} rolls by {by}");
        }
        name
    }

    /// Every open choice of a decision played out `trials` times, all
    /// choices on the same dice. `key` tells decisions apart (a step index).
    ///
    /// # Panics
    /// When the game does not wait for a decision.
    pub fn choices(&self, game: &AnyGame, key: u64) -> ChoiceTrials {
        let root = game.without_history();
        let n = u64::from(self.config.trials);
        let starts: Vec<_> = (0..n).map(|i| generators(self.stream(key, i), Start::Plain)).collect();
        self.choices_from(&root, &starts)
    }

    /// The roller's results of playouts before and after rolling `raw` in
    /// `game`, trial by trial on the same dice after the roll and with the
    /// same policy's choices, so that a trial before the roll that throws
    /// `raw` is the same playout as that trial after it: the luck
    /// `after - before` then averages zero over the dice (up to the
    /// sampling), position by position. When a real decision follows the
    /// roll, its choices are played out here too, and each trial after the
    /// roll takes the choice its own policy makes there.
    ///
    /// # Errors
    /// The game refuses the roll.
    pub fn roll(&self, game: &AnyGame, raw: u8, key: u64) -> Result<RollTrials, PlayError> {
        let mut rolled = game.without_history();
        rolled.roll(raw)?;
        let Turn::Roll(side) = game.turn() else { unreachable!("the game took a roll") };
        let (before, before_cut) = self.position(game, side, key, Start::BeforeRoll);
        let (after, after_cut, choices) = match rolled.turn() {
            Turn::Decide(decider) if rolled.actions().len() >= 2 => {
                let trials = u64::from(self.config.trials);
                let picked: Vec<(usize, Generators)> =
                    (0..trials).into_par_iter().map(|i| self.pick(&rolled, generators(self.stream(key, i), Start::AfterRoll))).collect();
                let starts: Vec<Generators> = picked.iter().map(|p| p.1.clone()).collect();
                let choices = self.choices_from(&rolled, &starts);
                let flip = |x: f64| if decider == side { x } else { 1.0 - x };
                let after = picked.iter().enumerate().map(|(i, &(c, _))| flip(choices.results[c][i])).collect();
                let cut: Vec<bool> = picked.iter().enumerate().map(|(i, &(c, _))| choices.cut[c][i]).collect();
                (after, share(&cut), Some(choices))
            }
            _ => {
                let (after, cut) = self.position(&rolled, side, key, Start::AfterRoll);
                (after, cut, None)
            }
        };
        Ok(RollTrials { before, after, before_cut, after_cut, choices })
    }

    /// The choices of `root`, trial `i` of each starting with the generators `starts[i]`.
    fn choices_from(&self, root: &AnyGame, starts: &[Generators]) -> ChoiceTrials {
        let Turn::Decide(me) = root.turn() else { panic!("a rollout of choices needs a decision, not {:?}", root.turn()) };
        let actions = root.actions();
        let children: Vec<AnyGame> = actions.iter().map(|a| after(root, a)).collect();
        let (n, k) = (starts.len(), children.len());
        let flat: Vec<(f64, bool)> = (0..n * k)
            .into_par_iter()
            .map(|j| {
                let (trial, c) = (j / k, j % k);
                self.playout(&children[c], me, starts[trial].clone(), 0)
            })
            .collect();
        let results = (0..k).map(|c| (0..n).map(|i| flat[i * k + c].0).collect()).collect();
        let cut = (0..k).map(|c| (0..n).map(|i| flat[i * k + c].1).collect()).collect();
        ChoiceTrials { actions, results, cut, allowance: self.allowance() }
    }

    /// The choice a trial's policy makes at the decision right after the
    /// judged roll, and the trial's generators after making it.
    fn pick(&self, game: &AnyGame, (dice, mut rng): Generators) -> (usize, Generators) {
        // As in a playout, the head plays the decisions up to its first roll.
        let policy = if self.config.head_turns > 0 { self.config.head } else { self.config.tail };
        let action = self.decide(game, policy, &mut rng);
        (game.actions().iter().position(|a| *a == action).unwrap_or(0), (dice, rng))
    }

    /// `side`'s win probability in the game as it stands.
    pub fn value(&self, game: &AnyGame, side: Side, key: u64) -> Estimate {
        let (values, cut) = self.position(game, side, key, Start::Plain);
        self.estimate(&values, cut)
    }

    /// `side`'s result of each trial from `game` as it stands, and the
    /// share of them cut (for measuring the truncation against full playouts).
    pub fn results(&self, game: &AnyGame, side: Side, key: u64) -> (Vec<f64>, f64) {
        self.position(game, side, key, Start::Plain)
    }

    /// `side`'s result of each trial from `game`, and the share of them cut.
    fn position(&self, game: &AnyGame, side: Side, key: u64, start: Start) -> (Vec<f64>, f64) {
        let root = game.without_history();
        // The roll being judged starts no turn of the playout.
        let turns = if start == Start::BeforeRoll { -1 } else { 0 };
        let trials: Vec<(f64, bool)> = (0..u64::from(self.config.trials))
            .into_par_iter()
            .map(|i| self.playout(&root, side, generators(self.stream(key, i), start), turns))
            .collect();
        let cut: Vec<bool> = trials.iter().map(|t| t.1).collect();
        (trials.into_iter().map(|t| t.0).collect(), share(&cut))
    }

    /// The seed of a trial's dice: the judge's seed, the position's key and
    /// the trial, mixed.
    fn stream(&self, key: u64, trial: u64) -> u64 {
        mix(mix(mix(self.config.seed) ^ key) ^ trial)
    }

    /// One playout to the end (or truncation) with a trial's generators,
    /// `turns` rolls counted already; `me`'s result, and whether it was cut.
    fn playout(&self, from: &AnyGame, me: Side, (mut dice, mut rng): Generators, mut turns: i64) -> (f64, bool) {
        let mut g = from.clone();
        for _ in 0..PLAYOUT_STEP_CAP {
            match g.turn() {
                Turn::Over(_) => return (worth(&g, me), false),
                Turn::Roll(side) => {
                    if let Some(v) = self.truncated(&g, turns.max(0) as u32, side, me) {
                        return (v, true);
                    }
                    let raw = sample_outcome(&g.outcomes(), &mut dice);
                    if let Err(e) = g.roll(raw) {
                        panic!("{}: outcome {raw} refused: {e}", g.rule_id());
                    }
                    turns += 1;
                }
                Turn::Decide(_) => {
                    // The head plays until the playout's `head_turns`-th roll has been decided.
                    let head = self.config.head_turns > 0 && turns <= i64::from(self.config.head_turns);
                    let policy = if head { self.config.head } else { self.config.tail };
                    let action = self.decide(&g, policy, &mut rng);
                    g.apply_unchecked(&action);
                }
            }
        }
        (0.5, false)
    }

    /// The evaluation's value for `me` once a playout has played its rolls.
    fn truncated(&self, g: &AnyGame, turns: u32, to_move: Side, me: Side) -> Option<f64> {
        let limit = self.config.truncate?;
        if turns < limit {
            return None;
        }
        let v = match (g.as_race(), &self.ctx, &self.calibration) {
            (Some(race), Some(ctx), _) if !race.rules().named_pieces() && race.phase() == Phase::Roll => ctx.eval.value(race.state()),
            (None, _, Some(cal)) => cal.value(g, to_move),
            _ => return None,
        };
        Some(if to_move == me { v } else { 1.0 - v })
    }

    /// The policy's decision.
    fn decide(&self, g: &AnyGame, policy: Policy, rng: &mut Xoshiro256PlusPlus) -> AnyAction {
        let mut actions = g.actions();
        if actions.len() == 1 {
            return actions.swap_remove(0);
        }
        match (policy, g.as_race().zip(self.ctx.as_ref())) {
            (Policy::Random, _) => actions.swap_remove(rng.gen_range(0..actions.len())),
            (Policy::Greedy, Some((race, ctx))) => AnyAction::Race(race_decide(ctx, race, 1)),
            (Policy::Expectimax(d), Some((race, ctx))) => AnyAction::Race(race_decide(ctx, race, d)),
            (Policy::Greedy, None) => greedy(g, actions, rng),
            (Policy::Expectimax(d), None) => first_best(&GenericSearch::new(None).action_values(g, d)),
            (Policy::Mcts(n), _) => MctsBot::new(Budget::Playouts(n), rng.gen()).decide(g),
        }
    }
}

/// The standing of the side to roll as a win probability:
/// `1 / (1 + exp(-(a + b (2 s - 1))))` for standing `s`, fitted by logistic
/// regression on the roll turns of games the playout policy plays against
/// itself (deterministic: the games are seeded by the judge's seed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Calibration {
    pub a: f64,
    pub b: f64,
    /// Roll turns fitted.
    pub samples: usize,
}

impl Calibration {
    fn fit(judge: &RolloutJudge, game: &AnyGame) -> Calibration {
        let start = game.without_history();
        let seed = mix(judge.config.seed ^ CALIBRATION_SALT);
        let samples: Vec<(f64, f64)> =
            (0..CALIBRATION_GAMES).into_par_iter().flat_map_iter(|i| judge.self_play(&start, mix(seed ^ i))).collect();
        let (a, b) = logistic(&samples);
        Calibration { a, b, samples: samples.len() }
    }

    /// The win probability of `side` about to roll in `g`.
    pub fn value(&self, g: &AnyGame, side: Side) -> f64 {
        let x = 2.0 * worth(g, side) - 1.0;
        1.0 / (1.0 + (-(self.a + self.b * x)).exp())
    }
}

/// Salt for the calibration games' seeds.
const CALIBRATION_SALT: u64 = 0x6361_6c69_6272;

impl RolloutJudge {
    /// One game of the tail policy against itself: `(2 s - 1, won)` for the
    /// side to roll at each roll turn.
    fn self_play(&self, start: &AnyGame, stream: u64) -> Vec<(f64, f64)> {
        let mut dice = Xoshiro256PlusPlus::seed_from_u64(stream);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(stream ^ POLICY_SALT));
        let mut g = start.clone();
        let mut seen: Vec<(f64, Side)> = Vec::new();
        for _ in 0..PLAYOUT_STEP_CAP {
            match g.turn() {
                Turn::Over(_) => break,
                Turn::Roll(side) => {
                    seen.push((2.0 * worth(&g, side) - 1.0, side));
                    let raw = sample_outcome(&g.outcomes(), &mut dice);
                    if g.roll(raw).is_err() {
                        break;
                    }
                }
                Turn::Decide(_) => {
                    let action = self.decide(&g, self.config.tail, &mut rng);
                    g.apply_unchecked(&action);
                }
            }
        }
        let Turn::Over(winner) = g.turn() else { return Vec::new() };
        seen.into_iter().map(|(x, side)| (x, winner.map_or(0.5, |w| f64::from(u8::from(w == side))))).collect()
    }
}

/// Logistic regression of `y` on `x` (Newton's method): `(a, b)`.
fn logistic(samples: &[(f64, f64)]) -> (f64, f64) {
    let (mut a, mut b) = (0.0f64, 0.0f64);
    for _ in 0..30 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x, y) in samples {
            let p = 1.0 / (1.0 + (-(a + b * x)).exp());
            let w = (p * (1.0 - p)).max(1e-9);
            ga += y - p;
            gb += (y - p) * x;
            haa += w;
            hab += w * x;
            hbb += w * x * x;
        }
        // A little ridge keeps the step finite when the standing separates the results.
        let (haa, hbb) = (haa + 1e-6, hbb + 1e-6);
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        let (da, db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        a += da;
        b += db;
        if da.abs() + db.abs() < 1e-10 {
            break;
        }
    }
    (a, b)
}

/// Where a playout starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Anywhere: every draw of the dice is a roll of the playout.
    Plain,
    /// At the roll being judged: its draw is that roll.
    BeforeRoll,
    /// Just after the roll being judged: its draw is skipped.
    AfterRoll,
}

/// Salt for a trial's policy generator, apart from its dice.
const POLICY_SALT: u64 = 0x706f_6c69_6379;

/// A trial's dice and its policy's generator (ties, random choices).
type Generators = (Xoshiro256PlusPlus, Xoshiro256PlusPlus);

/// A trial's generators from its stream at `start`: just after the judged
/// roll, that roll's draw is skipped.
fn generators(stream: u64, start: Start) -> Generators {
    let mut dice = Xoshiro256PlusPlus::seed_from_u64(stream);
    if start == Start::AfterRoll {
        let _: f64 = dice.gen();
    }
    (dice, Xoshiro256PlusPlus::seed_from_u64(mix(stream ^ POLICY_SALT)))
}

/// The SplitMix64 finaliser: a well-spread 64-bit mix.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Expectiminimax `depth` turns deep with the learned evaluation, as `expectimax:D` plays races.
fn race_decide(ctx: &Context, game: &Game, depth: u32) -> Action {
    if game.rules().named_pieces() {
        return GameSearch { eval: &ctx.eval }.decide(game, depth.min(3));
    }
    let st = game.state();
    let mut search = Search::new(&ctx.rules, &ctx.eval, &ctx.throws);
    match game.phase() {
        Phase::Move => {
            let t = game.throw().expect("a throw is set in the move phase");
            Action::Move(search.best_move(st, &t, game.legal_moves(), depth).0)
        }
        Phase::ExtraRoll => Action::Choose(if search.extra_roll(st, depth - 1, 0.0, 1.0).1 { Choice::Reroll } else { Choice::End }),
        _ => Action::Choose(game.choices()[0]),
    }
}

/// The best standing one move ahead, ties drawn with `rng`.
fn greedy(g: &AnyGame, actions: Vec<AnyAction>, rng: &mut Xoshiro256PlusPlus) -> AnyAction {
    let Turn::Decide(me) = g.turn() else { unreachable!("greedy is asked at a decision") };
    let values: Vec<f64> = actions.iter().map(|a| worth(&after(g, a), me)).collect();
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let top: Vec<usize> = (0..actions.len()).filter(|&i| values[i] >= best - 1e-12).collect();
    let pick = top[rng.gen_range(0..top.len())];
    actions.into_iter().nth(pick).expect("a top index is an action's")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_cover_their_spread() {
        let e = Estimate::of(&[1.0, 0.0, 1.0, 0.0]);
        assert_eq!(e.mean, 0.5);
        assert!((e.half - Z95 * (1.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12, "{e:?}");
        let same = Estimate::of(&[1.0; 100]);
        assert_eq!((same.mean, same.half), (1.0, 0.03));
        let d = Estimate::paired(&[1.0, 1.0, 0.0], &[0.0, 1.0, 0.0]);
        assert!((d.mean - 1.0 / 3.0).abs() < 1e-12 && d.contains(0.0));
    }

    #[test]
    fn policies_read_back_their_names() {
        for p in [Policy::Random, Policy::Greedy, Policy::Expectimax(2), Policy::Mcts(50)] {
            assert_eq!(Policy::parse(&p.name()), Some(p));
        }
        for bad in ["", "expectimax:0", "mcts:x", "perfect", "greedy:2"] {
            assert_eq!(Policy::parse(bad), None, "{bad}");
        }
    }
}
