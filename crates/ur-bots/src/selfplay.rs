//! Fitting the race evaluation of one rule set by self-play, for rule sets
//! too big to solve (`regency-murray` with 7 pieces): fitted value
//! iteration with TD(λ) targets. `ur train-selfplay` drives it; see
//! `docs/bots.md`.
//!
//! Each iteration plays games in which both sides choose by one-move
//! lookahead with the current model (`expectimax:1`), with random moves at
//! a rate that varies by game. At every turn start `s_t` it computes the
//! one-roll expectimax backup `B(s_t)`: over the throws, weighted by their
//! probability, the best move's value under the current model (1 for a
//! move that wins, the model's value of the position after it otherwise,
//! from the mover's side). The target of `s_t` is
//! `(1 - λ) B(s_t) + λ W_t`, where `W_t` is the target of the next turn
//! start seen from `s_t`'s mover (1 if the move won): λ = 0 is fitted value
//! iteration, λ = 1 the game's outcome. After a random move the target is
//! `B(s_t)` alone. Kept positions (a share of the turn starts) are fitted
//! by logistic regression with soft targets ([`crate::train::fit`]), and
//! the next iteration plays with the new model. Deterministic for a seed.

use std::sync::Arc;

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use ur_rules::{Extra, Rules, Side, State, Throw};

use crate::chance::merged_throws;
use crate::eval::{Evaluator, NF};
use crate::expectimax::Search;
use crate::train::{self, Data, Model};

/// Settings of a self-play fit.
#[derive(Clone, Debug, Serialize)]
pub struct SelfPlayConfig {
    /// Rounds of play and refit.
    pub iterations: u32,
    /// Games per iteration.
    pub games: u32,
    /// The share of turn starts kept as training positions.
    pub keep: f64,
    /// The highest random-move rate: game `g` plays random moves at
    /// `explore * (g mod 4) / 3`.
    pub explore: f64,
    /// The TD(λ) mixing of the one-roll backup and the rest of the game.
    pub lambda: f64,
    /// L2 penalty on the weights (towards 0, as the table fit).
    pub l2: f64,
    /// Turns after which a game is cut off (its last target is the backup alone).
    pub max_turns: u32,
    pub seed: u64,
}

/// What one iteration did.
#[derive(Clone, Debug, Serialize)]
pub struct IterationReport {
    pub iteration: u32,
    pub games: u32,
    /// Mean turn starts per game.
    pub mean_turns: f64,
    /// Games cut off at `max_turns`.
    pub cut_off: u32,
    /// Games won by the side that moved first.
    pub first_wins: u32,
    pub positions: usize,
    /// RMS difference between the playing model's values and the targets, pp.
    pub before_rmse_pp: f64,
    /// RMS difference between the refitted model's values and the targets, pp.
    pub after_rmse_pp: f64,
}

/// One turn start of a game.
struct Step {
    st: State,
    /// The one-roll backup.
    backup: f64,
    /// The move was the model's own (not a random one).
    greedy: bool,
    /// How the next turn start relates to this one.
    link: Link,
    keep: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Link {
    /// The move won the game.
    Won,
    /// The same side moves next (an extra roll).
    Same,
    /// The other side moves next.
    Other,
    /// The game was cut off here.
    Cut,
}

/// Fits a model for `rules` by self-play from `start` (a model at the
/// rules' piece count); returns the last model (its `1/N` terms 0) and a
/// report per iteration. `progress` is told of each iteration as it ends.
pub fn self_play_fit(
    rules: &Arc<Rules>,
    start: Model,
    cfg: &SelfPlayConfig,
    mut progress: impl FnMut(&IterationReport),
) -> (Model, Vec<IterationReport>) {
    let mut model = start;
    let mut reports = Vec::new();
    let throws = merged_throws(rules);
    for it in 0..cfg.iterations {
        let (bias, w) = model.at(1.0 / f64::from(rules.pieces()));
        let ev = Evaluator::with_model(rules.clone(), bias, &w);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ u64::from(it).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut data = Data::default();
        let mut before = 0.0;
        let (mut turns, mut cut, mut first_wins) = (0u64, 0u32, 0u32);
        for g in 0..cfg.games {
            let eps = cfg.explore * f64::from(g % 4) / 3.0;
            let (steps, first_won) = play(rules, &ev, &throws, eps, cfg, &mut rng);
            turns += steps.len() as u64;
            cut += u32::from(steps.last().is_some_and(|s| s.link == Link::Cut));
            first_wins += u32::from(first_won);
            let targets = targets(&steps, cfg.lambda);
            for (s, y) in steps.iter().zip(targets) {
                if s.keep {
                    let mut f = [0.0; NF];
                    ev.features(&s.st, &mut f);
                    let v = ev.value(&s.st);
                    before += (v - y) * (v - y);
                    data.x.push(f);
                    // One piece count: the 1/N terms stay 0.
                    data.inv_n.push(0.0);
                    data.y.push(y);
                }
            }
        }
        let n = data.len().max(1) as f64;
        model = train::fit(&data, cfg.l2, cfg.l2, None);
        let after = train::errors(&model, &data);
        let report = IterationReport {
            iteration: it + 1,
            games: cfg.games,
            mean_turns: train::round(turns as f64 / f64::from(cfg.games.max(1)), 0.1),
            cut_off: cut,
            first_wins,
            positions: data.len(),
            before_rmse_pp: train::round(100.0 * (before / n).sqrt(), 1e-4),
            after_rmse_pp: after.rmse_pp,
        };
        progress(&report);
        reports.push(report);
    }
    (model, reports)
}

/// Plays one game with one-move lookahead and random moves at rate `eps`:
/// its turn starts, and whether the side that moved first won.
fn play(rules: &Rules, ev: &Evaluator, throws: &[(Throw, f64)], eps: f64, cfg: &SelfPlayConfig, rng: &mut impl RngCore) -> (Vec<Step>, bool) {
    let mut search = Search::new(rules, ev, throws);
    let first = if rng.gen_bool(0.5) { Side::Light } else { Side::Dark };
    let mut st = State::start(rules, first);
    let mut steps: Vec<Step> = Vec::new();
    loop {
        if steps.len() as u32 >= cfg.max_turns {
            if let Some(last) = steps.last_mut() {
                last.link = Link::Cut;
            }
            return (steps, false);
        }
        let backup = search.chance(&st, 1, 0.0, 1.0);
        let keep = rng.gen_bool(cfg.keep);
        let throw = roll(rules, rng);
        let moves = rules.legal_moves(&st, &throw);
        if moves.is_empty() {
            steps.push(Step { st, backup, greedy: true, link: Link::Other, keep });
            st.set_to_move(st.to_move().other());
            continue;
        }
        let random = moves.len() > 1 && rng.gen_bool(eps);
        let mv = if random { moves[rng.gen_range(0..moves.len())] } else { search.best_move(&st, &throw, &moves, 1).0 };
        let (turn_start, mover) = (st, st.to_move());
        let effect = rules.apply_unchecked(&mut st, &throw, mv);
        let greedy = !random;
        if rules.finish_move(&mut st, &effect).is_some() {
            steps.push(Step { st: turn_start, backup, greedy, link: Link::Won, keep });
            return (steps, mover == first);
        }
        // `finish_move` hands the turn on unless the move earned an extra
        // roll; an optional one is taken when the model prefers it.
        if effect.extra == Extra::Optional {
            let mut other = st;
            other.set_to_move(st.to_move().other());
            if ev.value(&st) < 1.0 - ev.value(&other) {
                st = other;
            }
        }
        let link = if st.to_move() == mover { Link::Same } else { Link::Other };
        steps.push(Step { st: turn_start, backup, greedy, link, keep });
    }
}

/// The TD(λ) targets of a game's turn starts, from each mover's side.
fn targets(steps: &[Step], lambda: f64) -> Vec<f64> {
    let mut out = vec![0.0; steps.len()];
    let mut next = 0.0;
    for (i, s) in steps.iter().enumerate().rev() {
        let rest = match s.link {
            Link::Won => 1.0,
            Link::Same => next,
            Link::Other => 1.0 - next,
            Link::Cut => s.backup,
        };
        let y = if s.greedy { (1.0 - lambda) * s.backup + lambda * rest } else { s.backup };
        out[i] = y;
        next = y;
    }
    out
}

fn roll(rules: &Rules, rng: &mut impl RngCore) -> Throw {
    let raw = rules.dice().sample_bits(rng.next_u64());
    rules.throw(raw).expect("the dice only show outcomes the rules map")
}
