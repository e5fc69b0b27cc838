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
use crate::eval::{square_feature_count, Evaluator, NF};
use crate::expectimax::{LeafValue, Search};
use crate::simple::GreedyBot;
use crate::train;

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
    /// Turns the backup of a kept position searches (1: one roll; deeper
    /// backups replace the one-roll backup in the kept positions' own
    /// targets, not in the rest of the game's).
    pub backup_depth: u32,
    /// The share of games in which one side (alternately light and dark)
    /// plays `greedy`'s heuristic instead; its moves, as random ones, get
    /// the backup alone as their target.
    pub greedy_games: f64,
    pub seed: u64,
}

impl SelfPlayConfig {
    pub(crate) fn play_settings(&self) -> PlaySettings {
        PlaySettings { max_turns: self.max_turns, keep: self.keep, backup_depth: self.backup_depth, start_off: 0 }
    }
}

/// How a self-play game is played and which of its positions are kept.
pub(crate) struct PlaySettings {
    pub max_turns: u32,
    pub keep: f64,
    pub backup_depth: u32,
    /// Each side starts with 0 to this many pieces already borne off (drawn
    /// uniformly, each side apart), so the games also cover the endings of
    /// the full game that play seldom reaches with every piece in reserve.
    pub start_off: u8,
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
pub(crate) struct Step {
    pub st: State,
    /// The one-roll backup.
    pub backup: f64,
    /// The backup searched `backup_depth` turns, for kept positions.
    deep: f64,
    /// The move was the model's own (not a random one).
    greedy: bool,
    /// How the next turn start relates to this one.
    pub link: Link,
    pub keep: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Link {
    /// The move won the game.
    Won,
    /// The same side moves next (an extra roll).
    Same,
    /// The other side moves next.
    Other,
    /// The game was cut off here.
    Cut,
}

/// A model fitted by self-play: bias, weights at the rules' piece count,
/// and piece-square weights (empty without them).
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayModel {
    pub bias: f64,
    pub w: [f64; NF],
    pub squares: Vec<f64>,
}

impl SelfPlayModel {
    pub fn evaluator(&self, rules: &Arc<Rules>) -> Evaluator {
        Evaluator::with_model(rules.clone(), self.bias, &self.w).with_squares(self.squares.clone())
    }

    /// The model with every number rounded as it is written to a file.
    pub fn rounded(&self) -> SelfPlayModel {
        let r = |v: f64| train::round(v, 1e-6);
        SelfPlayModel { bias: r(self.bias), w: self.w.map(r), squares: self.squares.iter().map(|&v| r(v)).collect() }
    }
}

/// Fits a model for `rules` by self-play from `bias` and `w` (the model
/// at the rules' piece count), with piece-square features when `squares`
/// is set; returns the last model and a report per iteration. `progress`
/// is told of each iteration as it ends.
pub fn self_play_fit(
    rules: &Arc<Rules>,
    start: (f64, [f64; NF]),
    squares: bool,
    cfg: &SelfPlayConfig,
    mut progress: impl FnMut(&IterationReport),
) -> (SelfPlayModel, Vec<IterationReport>) {
    let ns = if squares { square_feature_count(rules.path_len()) } else { 0 };
    let mut model = SelfPlayModel { bias: start.0, w: start.1, squares: vec![0.0; ns] };
    let mut reports = Vec::new();
    let throws = merged_throws(rules);
    for it in 0..cfg.iterations {
        let ev = model.evaluator(rules);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ u64::from(it).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut rows: Vec<Vec<f64>> = Vec::new();
        let mut ys: Vec<f64> = Vec::new();
        let mut before = 0.0;
        let (mut turns, mut cut, mut first_wins) = (0u64, 0u32, 0u32);
        for g in 0..cfg.games {
            let eps = cfg.explore * f64::from(g % 4) / 3.0;
            // Spread the greedy games evenly over the iteration.
            let share = |k: u32| (f64::from(k) * cfg.greedy_games).floor();
            let greedy = (share(g + 1) > share(g)).then_some(if g % 2 == 0 { Side::Light } else { Side::Dark });
            let (steps, first_won) = play(rules, &ev, &throws, eps, greedy, &cfg.play_settings(), &mut rng);
            turns += steps.len() as u64;
            cut += u32::from(steps.last().is_some_and(|s| s.link == Link::Cut));
            first_wins += u32::from(first_won);
            let targets = targets(&steps, cfg.lambda);
            for (s, y) in steps.iter().zip(targets) {
                if s.keep {
                    let row = crate::train::feature_row(&ev, &s.st, ns > 0);
                    let v = ev.value(&s.st);
                    before += (v - y) * (v - y);
                    rows.push(row);
                    ys.push(y);
                }
            }
        }
        let n = ys.len().max(1) as f64;
        let beta = fit_dense(&rows, &ys, cfg.l2);
        model.bias = beta[0];
        model.w.copy_from_slice(&beta[1..=NF]);
        model.squares = beta[1 + NF..].to_vec();
        let mut after = 0.0;
        for (row, y) in rows.iter().zip(&ys) {
            let z: f64 = row.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            after += (p - y) * (p - y);
        }
        let report = IterationReport {
            iteration: it + 1,
            games: cfg.games,
            mean_turns: train::round(turns as f64 / f64::from(cfg.games.max(1)), 0.1),
            cut_off: cut,
            first_wins,
            positions: ys.len(),
            before_rmse_pp: train::round(100.0 * (before / n).sqrt(), 1e-4),
            after_rmse_pp: train::round(100.0 * (after / n).sqrt(), 1e-4),
        };
        progress(&report);
        reports.push(report);
    }
    (model, reports)
}

/// Logistic regression with soft targets (cross-entropy loss) by Newton's
/// method; the first column is the bias, the L2 penalty `l2 / 2 * |w|^2`
/// holds the other coefficients. Zeros in the rows are skipped (the
/// piece-square features are sparse).
#[allow(clippy::needless_range_loop)] // index loops read as the algebra
pub fn fit_dense(rows: &[Vec<f64>], y: &[f64], l2: f64) -> Vec<f64> {
    let d = rows.first().map_or(1, Vec::len);
    let n = rows.len().max(1) as f64;
    let mut beta = vec![0.0; d];
    let mut nz: Vec<usize> = Vec::with_capacity(d);
    for _ in 0..50 {
        let mut grad = vec![0.0; d];
        let mut hess = vec![0.0; d * d];
        for (row, &yi) in rows.iter().zip(y) {
            nz.clear();
            nz.extend((0..d).filter(|&a| row[a] != 0.0));
            let z: f64 = nz.iter().map(|&a| row[a] * beta[a]).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let (r, s) = (p - yi, (p * (1.0 - p)).max(1e-12));
            for (i, &a) in nz.iter().enumerate() {
                grad[a] += r * row[a];
                let sa = s * row[a];
                let h = &mut hess[a * d..(a + 1) * d];
                for &b in &nz[i..] {
                    h[b] += sa * row[b];
                }
            }
        }
        // Fill the lower triangle (the upper one holds a <= b in nz order, which is ascending).
        for a in 0..d {
            grad[a] = grad[a] / n + if a == 0 { 0.0 } else { l2 * beta[a] };
            for b in a..d {
                let v = hess[a * d + b] / n;
                hess[a * d + b] = v;
                hess[b * d + a] = v;
            }
            hess[a * d + a] += if a == 0 { 0.0 } else { l2 } + 1e-10;
        }
        let step = crate::train::solve_dense(hess, grad, d);
        let mut size = 0.0f64;
        for a in 0..d {
            beta[a] -= step[a];
            size = size.max(step[a].abs());
        }
        if size < 1e-9 {
            break;
        }
    }
    beta
}

/// Plays one game with one-move lookahead and random moves at rate `eps`:
/// its turn starts, and whether the side that moved first won.
pub(crate) fn play<E: LeafValue>(
    rules: &Rules,
    ev: &E,
    throws: &[(Throw, f64)],
    eps: f64,
    greedy_side: Option<Side>,
    cfg: &PlaySettings,
    rng: &mut impl RngCore,
) -> (Vec<Step>, bool) {
    let mut search = Search::new(rules, ev, throws);
    let first = if rng.gen_bool(0.5) { Side::Light } else { Side::Dark };
    let mut st = start(rules, first, cfg.start_off, rng);
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
        let deep = if keep && cfg.backup_depth > 1 { search.chance(&st, cfg.backup_depth, 0.0, 1.0) } else { backup };
        let throw = roll(rules, rng);
        let moves = rules.legal_moves(&st, &throw);
        if moves.is_empty() {
            steps.push(Step { st, backup, deep, greedy: true, link: Link::Other, keep });
            st.set_to_move(st.to_move().other());
            continue;
        }
        let heuristic = greedy_side == Some(st.to_move());
        let random = !heuristic && moves.len() > 1 && rng.gen_bool(eps);
        let mv = if heuristic {
            let scores: Vec<i32> = moves.iter().map(|&m| GreedyBot::score_move(rules, &st, &throw, m)).collect();
            let best = *scores.iter().max().expect("moves exist");
            let top: Vec<usize> = (0..moves.len()).filter(|&i| scores[i] == best).collect();
            moves[top[rng.gen_range(0..top.len())]]
        } else if random {
            moves[rng.gen_range(0..moves.len())]
        } else {
            search.best_move(&st, &throw, &moves, 1).0
        };
        let (turn_start, mover) = (st, st.to_move());
        let effect = rules.apply_unchecked(&mut st, &throw, mv);
        let greedy = !random && !heuristic;
        if rules.finish_move(&mut st, &effect).is_some() {
            steps.push(Step { st: turn_start, backup, deep, greedy, link: Link::Won, keep });
            return (steps, mover == first);
        }
        // `finish_move` hands the turn on unless the move earned an extra
        // roll; an optional one is taken when the model prefers it.
        if effect.extra == Extra::Optional && !heuristic {
            let mut other = st;
            other.set_to_move(st.to_move().other());
            if ev.value(&st) < 1.0 - ev.value(&other) {
                st = other;
            }
        }
        let link = if st.to_move() == mover { Link::Same } else { Link::Other };
        steps.push(Step { st: turn_start, backup, deep, greedy, link, keep });
    }
}

/// The start position, or with up to `start_off` pieces of each side borne
/// off (never all of a side's) and the rest in reserve.
fn start(rules: &Rules, first: Side, start_off: u8, rng: &mut impl RngCore) -> State {
    let n = rules.pieces();
    if start_off == 0 {
        return State::start(rules, first);
    }
    let most = start_off.min(n - 1);
    let mut side = || {
        let off = rng.gen_range(0..=most);
        ur_rules::SideSetup { reserve: n - off, off, path: Vec::new(), birds: None }
    };
    let setup = ur_rules::Setup { to_move: first, light: side(), dark: side() };
    rules.validate(&setup).expect("pieces in reserve and borne off make a position")
}

/// The TD(λ) targets of a game's turn starts, from each mover's side.
pub(crate) fn targets(steps: &[Step], lambda: f64) -> Vec<f64> {
    let mut out = vec![0.0; steps.len()];
    let mut next = 0.0;
    for (i, s) in steps.iter().enumerate().rev() {
        let rest = match s.link {
            Link::Won => 1.0,
            Link::Same => next,
            Link::Other => 1.0 - next,
            Link::Cut => s.backup,
        };
        let mix = |b: f64| if s.greedy { (1.0 - lambda) * b + lambda * rest } else { b };
        out[i] = mix(s.deep);
        next = mix(s.backup);
    }
    out
}

pub(crate) fn roll(rules: &Rules, rng: &mut impl RngCore) -> Throw {
    let raw = rules.dice().sample_bits(rng.next_u64());
    rules.throw(raw).expect("the dice only show outcomes the rules map")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use ur_rules::{OptionValue, Options};

    fn murray(pieces: i64) -> Rules {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
        Rules::builtin_with("regency-murray", &opts).unwrap()
    }

    #[test]
    fn murray_uses_its_self_play_model_near_seven_pieces_only() {
        let w = Weights::builtin();
        assert_eq!(w.model_for(&murray(7)).2, Some("regency-murray@7"));
        assert_eq!(w.squares_for(&murray(7)).len(), square_feature_count(27));
        // The table model (2 and 3 pieces) stays nearer for small games.
        assert_eq!(w.model_for(&murray(3)).2, Some("regency-murray"));
        assert!(w.squares_for(&murray(3)).is_empty());
        assert_eq!(w.model_for(&Rules::builtin("regency-british-museum").unwrap()).2, Some("finkel+regency-british-museum"));
    }

    /// The model fitted to the 7-piece Finkel table (`ur train-table`)
    /// serves Finkel near 7 pieces, and no other built-in rule set.
    #[test]
    fn the_finkel_table_model_serves_finkel_near_seven_pieces_only() {
        let w = Weights::builtin();
        for spec in ur_rules::spec::RuleSetFile::all_builtin() {
            let id = spec.id.as_str();
            let Ok(rules) = Rules::builtin(id) else { continue };
            let model = w.model_for(&rules).2;
            assert_eq!(model == Some("finkel@7"), id == "finkel", "{id} uses {model:?}");
        }
        let finkel = |n: i64| Rules::builtin_with("finkel", &[("pieces".to_string(), OptionValue::Int(n))].into()).unwrap();
        assert_eq!(w.model_for(&finkel(5)).2, Some("finkel+regency-british-museum"));
        assert_eq!(w.model_for(&finkel(8)).2, Some("finkel@7"));
    }

    #[test]
    fn games_may_start_with_pieces_borne_off_but_never_won() {
        let rules = murray(7);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let st = start(&rules, Side::Dark, 9, &mut rng);
            for side in Side::BOTH {
                assert!(st.off(side) <= 6, "a side starts with every piece off");
                assert_eq!(st.reserve(side) + st.off(side), 7);
                seen.insert(st.off(side));
            }
            assert_eq!(st.to_move(), Side::Dark);
        }
        assert_eq!(seen.len(), 7, "0 to 6 pieces off all occur: {seen:?}");
        assert_eq!(start(&rules, Side::Light, 0, &mut rng), State::start(&rules, Side::Light));
    }

    #[test]
    fn the_dense_fit_recovers_a_logistic_model() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let truth = [0.3, -1.2, 0.8, 0.0];
        let rows: Vec<Vec<f64>> = (0..4000)
            .map(|i| {
                // A sparse column, as the piece-square features are.
                let sparse = if i % 3 == 0 { rng.gen::<f64>() } else { 0.0 };
                vec![1.0, rng.gen::<f64>() - 0.5, rng.gen::<f64>(), sparse]
            })
            .collect();
        let y: Vec<f64> = rows.iter().map(|r| 1.0 / (1.0 + (-r.iter().zip(&truth).map(|(a, b)| a * b).sum::<f64>()).exp())).collect();
        let beta = fit_dense(&rows, &y, 0.0);
        for (b, t) in beta.iter().zip(&truth) {
            assert!((b - t).abs() < 1e-6, "{beta:?}");
        }
    }

    #[test]
    fn self_play_is_deterministic_and_its_fit_does_not_raise_the_error() {
        let rules = Arc::new(murray(2));
        let cfg = SelfPlayConfig {
            iterations: 2,
            games: 6,
            keep: 0.5,
            explore: 0.3,
            lambda: 0.9,
            l2: 1e-3,
            max_turns: 2000,
            backup_depth: 1,
            greedy_games: 0.5,
            seed: 7,
        };
        let (b, w) = Weights::builtin().generic_for(2);
        let (a, ra) = self_play_fit(&rules, (b, w), true, &cfg, |_| {});
        let (c, _) = self_play_fit(&rules, (b, w), true, &cfg, |_| {});
        assert_eq!(a, c);
        assert_eq!(ra.len(), 2);
        assert!(ra.iter().all(|r| r.positions > 0 && r.after_rmse_pp <= r.before_rmse_pp + 1e-9));
        assert!(a.squares.iter().all(|v| v.is_finite()) && a.squares.len() == square_feature_count(27));
    }
}
