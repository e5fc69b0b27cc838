//! Fitting the race evaluation to solved tables: sampling positions with
//! their exact values, a logistic fit, and error measures. `ur train-eval`
//! drives it; see `docs/bots.md`.

use std::sync::Arc;

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use ur_rules::{Extra, Move, Rules, Side, State, Throw};
use ur_solve::{Bellman, Indexer, Values};

use crate::eval::{feature_names, Evaluator, RulesWeights, Weights, FORMAT, NF};
use crate::selfplay::{fit_dense, SelfPlayModel};

/// Targets are rounded to this step, so that a re-solve that differs in the
/// last bits (parallel sweeps) gives the same fit.
const TARGET_STEP: f64 = 1e-7;
/// Weights are written rounded to this step.
const WEIGHT_STEP: f64 = 1e-6;

/// Positions with their exact win probability for the side to move.
pub type Samples = Vec<(State, f64)>;

/// Draws `n` positions of a solved rule set with their exact values: about
/// three quarters from games where both sides play the table's best move
/// except for random moves at a rate that varies by game (0 to 60%), the
/// rest uniformly from the index. Deterministic for a seed.
pub fn sample_positions(rules: &Rules, index: &Indexer, values: &(impl Values + ?Sized), n: usize, seed: u64) -> Samples {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let bellman = Bellman::new(rules, index);
    let value = |st: &State| (values.get(index.rank(st)) / TARGET_STEP).round() * TARGET_STEP;
    let n_play = n - n / 4;
    let mut out: Samples = Vec::with_capacity(n);
    let mut game = 0u32;
    while out.len() < n_play {
        let eps = f64::from(game % 4) * 0.2;
        game += 1;
        let mut st = State::start(rules, if rng.gen_bool(0.5) { Side::Light } else { Side::Dark });
        while out.len() < n_play {
            if rng.gen_bool(0.5) {
                out.push((st, value(&st)));
            }
            let throw = roll(rules, &mut rng);
            let moves = rules.legal_moves(&st, &throw);
            if moves.is_empty() {
                st.set_to_move(st.to_move().other());
                continue;
            }
            let mv = if rng.gen_bool(eps) {
                moves[rng.gen_range(0..moves.len())]
            } else {
                best_by(&moves, |m| bellman.after_move(&st, &throw, m, values))
            };
            let effect = rules.apply_unchecked(&mut st, &throw, mv);
            if rules.finish_move(&mut st, &effect).is_some() {
                break;
            }
            if effect.extra == Extra::Optional {
                let mut other = st;
                other.set_to_move(st.to_move().other());
                let end = if rng.gen_bool(eps) { rng.gen_bool(0.5) } else { 1.0 - value(&other) > value(&st) };
                if end {
                    st = other;
                }
            }
        }
    }
    while out.len() < n {
        let i = rng.gen_range(0..index.len());
        let st = index.unrank(rules, i, Side::Light);
        out.push((st, (values.get(i) / TARGET_STEP).round() * TARGET_STEP));
    }
    out
}

/// Fits one rule set's model at its piece count to positions with exact
/// values (from a table of the full game), with piece-square features when
/// `squares` is set: logistic regression with soft targets, L2 `l2`.
pub fn fit_exact(rules: &Arc<Rules>, samples: &Samples, squares: bool, l2: f64) -> SelfPlayModel {
    let ev = Evaluator::with_model(rules.clone(), 0.0, &[0.0; NF]);
    let rows: Vec<Vec<f64>> = samples.iter().map(|(st, _)| feature_row(&ev, st, squares)).collect();
    let ys: Vec<f64> = samples.iter().map(|s| s.1).collect();
    let beta = fit_dense(&rows, &ys, l2);
    let mut w = [0.0; NF];
    w.copy_from_slice(&beta[1..=NF]);
    SelfPlayModel { bias: beta[0], w, squares: beta[1 + NF..].to_vec() }
}

/// A position's regression row: 1 (the bias), the features, and with
/// `squares` the piece-square features.
pub fn feature_row(ev: &Evaluator, st: &State, squares: bool) -> Vec<f64> {
    let mut f = [0.0; NF];
    ev.features(st, &mut f);
    let mut row = Vec::with_capacity(1 + NF);
    row.push(1.0);
    row.extend_from_slice(&f);
    if squares {
        let mut sq = Vec::new();
        ev.square_features(st, &mut sq);
        row.extend_from_slice(&sq);
    }
    row
}

/// Root-mean-square error of an evaluation against exact values, pp.
pub fn rmse_pp(ev: &Evaluator, samples: &Samples) -> f64 {
    let sum: f64 = samples.iter().map(|(st, y)| (ev.value(st) - y).powi(2)).sum();
    round(100.0 * (sum / samples.len().max(1) as f64).sqrt(), 1e-4)
}

fn roll(rules: &Rules, rng: &mut impl RngCore) -> Throw {
    let raw = rules.dice().sample_bits(rng.next_u64());
    rules.throw(raw).expect("the dice only show outcomes the rules map")
}

/// The first move with the highest score.
fn best_by(moves: &[Move], mut score: impl FnMut(Move) -> f64) -> Move {
    let mut best = (moves[0], f64::NEG_INFINITY);
    for &m in moves {
        let v = score(m);
        if v > best.1 {
            best = (m, v);
        }
    }
    best.0
}

/// Training data: feature vectors, `1 / N` for each (N pieces per side), targets.
#[derive(Clone, Debug, Default)]
pub struct Data {
    pub x: Vec<[f64; NF]>,
    pub inv_n: Vec<f64>,
    pub y: Vec<f64>,
}

impl Data {
    /// The features and exact values of samples of one rule set.
    pub fn of(rules: &Arc<Rules>, samples: &Samples) -> Data {
        let ev = Evaluator::new_unweighted(rules.clone());
        let x = samples
            .iter()
            .map(|(st, _)| {
                let mut f = [0.0; NF];
                ev.features(st, &mut f);
                f
            })
            .collect();
        let inv = 1.0 / f64::from(rules.pieces());
        Data { x, inv_n: vec![inv; samples.len()], y: samples.iter().map(|s| s.1).collect() }
    }

    pub fn extend(&mut self, other: &Data) {
        self.x.extend_from_slice(&other.x);
        self.inv_n.extend_from_slice(&other.inv_n);
        self.y.extend_from_slice(&other.y);
    }

    pub fn len(&self) -> usize {
        self.y.len()
    }

    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }
}

/// A model whose bias and weights depend on the piece count `N` as
/// `a + b / N`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub bias: f64,
    pub w: [f64; NF],
    pub bias_n: f64,
    pub w_n: [f64; NF],
}

impl Model {
    /// The bias and weights for `1 / N`.
    pub fn at(&self, inv_n: f64) -> (f64, [f64; NF]) {
        let mut w = self.w;
        for (o, b) in w.iter_mut().zip(&self.w_n) {
            *o += b * inv_n;
        }
        (self.bias + self.bias_n * inv_n, w)
    }

    /// A model that does not depend on the piece count.
    pub fn fixed(bias: f64, w: [f64; NF]) -> Model {
        Model { bias, w, bias_n: 0.0, w_n: [0.0; NF] }
    }

    /// The model with every number rounded as it is written to a file.
    pub fn rounded(&self) -> Model {
        let r = |v: f64| round(v, WEIGHT_STEP);
        Model { bias: r(self.bias), w: self.w.map(r), bias_n: r(self.bias_n), w_n: self.w_n.map(r) }
    }

    fn to_vec(self) -> Vec<f64> {
        let mut v = vec![self.bias];
        v.extend_from_slice(&self.w);
        v.push(self.bias_n);
        v.extend_from_slice(&self.w_n);
        v
    }

    fn from_slice(v: &[f64]) -> Model {
        let mut m = Model { bias: v[0], w: [0.0; NF], bias_n: v[NF + 1], w_n: [0.0; NF] };
        m.w.copy_from_slice(&v[1..=NF]);
        m.w_n.copy_from_slice(&v[NF + 2..]);
        m
    }
}

/// Logistic regression with soft targets (cross-entropy loss) on the
/// features and the features divided by `N`, by Newton's method. L2
/// penalties `l2 / 2 * |w - w0|^2` and `l2_n / 2 * |w_n - w0_n|^2` hold the
/// weights (not the biases) near a prior model (0 without one).
#[allow(clippy::needless_range_loop)] // index loops read as the algebra
pub fn fit(data: &Data, l2: f64, l2_n: f64, prior: Option<&Model>) -> Model {
    const D: usize = 2 * (NF + 1);
    let n = data.len() as f64;
    let zero = Model { bias: 0.0, w: [0.0; NF], bias_n: 0.0, w_n: [0.0; NF] };
    let centre = prior.copied().unwrap_or(zero).to_vec();
    let mut beta = centre.clone();
    let penalty: Vec<f64> = (0..D)
        .map(|a| {
            if a == 0 || a == NF + 1 {
                0.0
            } else if a <= NF {
                l2
            } else {
                l2_n
            }
        })
        .collect();
    let mut row = [0.0f64; D];
    for _ in 0..100 {
        let mut grad = [0.0f64; D];
        let mut hess = vec![[0.0f64; D]; D];
        for ((xi, &inv), &yi) in data.x.iter().zip(&data.inv_n).zip(&data.y) {
            row[0] = 1.0;
            row[1..=NF].copy_from_slice(xi);
            row[NF + 1] = inv;
            for k in 0..NF {
                row[NF + 2 + k] = xi[k] * inv;
            }
            let z: f64 = row.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let (r, s) = (p - yi, (p * (1.0 - p)).max(1e-12));
            for a in 0..D {
                grad[a] += r * row[a];
                let sa = s * row[a];
                let h = &mut hess[a];
                for b in a..D {
                    h[b] += sa * row[b];
                }
            }
        }
        for a in 0..D {
            grad[a] = grad[a] / n + penalty[a] * (beta[a] - centre[a]);
            for b in a..D {
                hess[a][b] /= n;
                hess[b][a] = hess[a][b];
            }
            // A tiny ridge keeps the system solvable when a feature is constant.
            hess[a][a] += penalty[a] + 1e-10;
        }
        let step = solve_spd(hess, grad);
        let mut size = 0.0f64;
        for a in 0..D {
            beta[a] -= step[a];
            size = size.max(step[a].abs());
        }
        if size < 1e-10 {
            break;
        }
    }
    Model::from_slice(&beta)
}

/// Solves `h x = g` for a symmetric positive definite `h` ([`solve_dense`]).
fn solve_spd<const D: usize>(h: Vec<[f64; D]>, g: [f64; D]) -> [f64; D] {
    let x = solve_dense(h.concat(), g.to_vec(), D);
    x.try_into().expect("a solution has D entries")
}

/// Solves `h x = g` for a symmetric positive definite `h` (`d` by `d`, row-major; Cholesky).
#[allow(clippy::needless_range_loop)]
pub(crate) fn solve_dense(mut h: Vec<f64>, g: Vec<f64>, d: usize) -> Vec<f64> {
    for j in 0..d {
        let mut s = h[j * d + j];
        for k in 0..j {
            s -= h[j * d + k] * h[j * d + k];
        }
        let s = s.max(1e-300).sqrt();
        h[j * d + j] = s;
        for i in j + 1..d {
            let mut t = h[i * d + j];
            for k in 0..j {
                t -= h[i * d + k] * h[j * d + k];
            }
            h[i * d + j] = t / s;
        }
    }
    let mut z = vec![0.0; d];
    for i in 0..d {
        let mut t = g[i];
        for k in 0..i {
            t -= h[i * d + k] * z[k];
        }
        z[i] = t / h[i * d + i];
    }
    let mut out = vec![0.0; d];
    for i in (0..d).rev() {
        let mut t = z[i];
        for k in i + 1..d {
            t -= h[k * d + i] * out[k];
        }
        out[i] = t / h[i * d + i];
    }
    out
}

/// A model specialised to one rule set.
pub struct Specialised {
    pub id: String,
    pub rules: Arc<Rules>,
    pub model: Model,
}

/// Weights as written to a file: rounded, with the training record.
pub fn make_weights(generic: &Model, specialised: &[Specialised], training: serde_json::Value) -> Weights {
    let g = generic.rounded();
    Weights {
        format: FORMAT.into(),
        features: feature_names(),
        bias: g.bias,
        weights: g.w.to_vec(),
        bias_inv_pieces: g.bias_n,
        weights_inv_pieces: g.w_n.to_vec(),
        rules: specialised
            .iter()
            .map(|s| {
                let m = s.model.rounded();
                RulesWeights {
                    id: s.id.clone(),
                    geometry: crate::eval::geometry_key(&s.rules),
                    family: crate::eval::family_key(&s.rules),
                    path_len: s.rules.path_len(),
                    bias: m.bias,
                    weights: m.w.to_vec(),
                    bias_inv_pieces: m.bias_n,
                    weights_inv_pieces: m.w_n.to_vec(),
                    squares: Vec::new(),
                }
            })
            .collect(),
        training,
    }
}

/// Rounds to a multiple of `step`, without negative zero.
pub fn round(v: f64, step: f64) -> f64 {
    let r = (v / step).round() * step;
    // Print a short decimal rather than the nearest binary neighbour's digits.
    let digits = (-step.log10()).round().max(0.0) as usize;
    let r: f64 = format!("{r:.digits$}").parse().expect("a number");
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// How close an evaluation's values are to the exact ones.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Errors {
    pub positions: usize,
    /// Root mean square error, percentage points.
    pub rmse_pp: f64,
    /// Mean absolute error, percentage points.
    pub mae_pp: f64,
    /// 95th percentile of the absolute error, percentage points.
    pub p95_pp: f64,
    /// Mean cross-entropy against the exact values, in nats.
    pub log_loss: f64,
}

/// Errors of a model on data against the exact values.
pub fn errors(model: &Model, data: &Data) -> Errors {
    let (x, y) = (&data.x, &data.y);
    let mut abs: Vec<f64> = Vec::with_capacity(x.len());
    let (mut se, mut ll) = (0.0, 0.0);
    for ((xi, &yi), &inv) in x.iter().zip(y).zip(&data.inv_n) {
        let (bias, w) = model.at(inv);
        let z = bias + xi.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>();
        let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-12, 1.0 - 1e-12);
        let e = p - yi;
        se += e * e;
        abs.push(e.abs());
        ll -= yi * p.ln() + (1.0 - yi) * (1.0 - p).ln();
    }
    let n = x.len().max(1) as f64;
    let mae = abs.iter().sum::<f64>() / n;
    abs.sort_by(f64::total_cmp);
    let p95 = abs.as_slice().get(abs.len() * 19 / 20).copied().unwrap_or(0.0);
    Errors {
        positions: x.len(),
        rmse_pp: round(100.0 * (se / n).sqrt(), 1e-4),
        mae_pp: round(100.0 * mae, 1e-4),
        p95_pp: round(100.0 * p95, 1e-4),
        log_loss: round(ll / n, 1e-6),
    }
}

/// The mean loss of win probability per decision (percentage points) when
/// moves are chosen by `choose` instead of the table, over every throw with
/// at least two legal moves in the sampled positions, weighted by the
/// throw's probability. `choose` returns the index of its move in the list.
pub fn move_regret(
    rules: &Rules,
    index: &Indexer,
    values: &(impl Values + ?Sized),
    samples: &Samples,
    mut choose: impl FnMut(&State, &Throw, &[Move]) -> usize,
) -> (f64, f64) {
    let bellman = Bellman::new(rules, index);
    let throws = crate::chance::merged_throws(rules);
    let (mut loss, mut weight) = (0.0, 0.0);
    for (st, _) in samples {
        for (t, p) in &throws {
            let moves = rules.legal_moves(st, t);
            if moves.len() < 2 {
                continue;
            }
            let vals: Vec<f64> = moves.iter().map(|&m| bellman.after_move(st, t, m, values)).collect();
            let best = vals.iter().copied().fold(f64::MIN, f64::max);
            let pick = choose(st, t, &moves);
            loss += p * (best - vals[pick]);
            weight += p;
        }
    }
    (round(100.0 * loss / weight.max(1e-12), 1e-5), weight)
}
