//! Statistics of measurements: Wilson intervals and the Elo fit.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (95%) for `successes` out of `n` (successes may be fractional).
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// What two bots scored against each other.
pub struct PairScore {
    pub i: usize,
    pub j: usize,
    /// i's wins plus half the draws.
    pub score_i: f64,
    pub games: f64,
}

/// Bradley-Terry ratings by maximum likelihood (minorisation-maximisation),
/// on the Elo scale with `anchor` at 0, each with the half-width of its 95%
/// interval from the Fisher information. One virtual draw per pair keeps the
/// ratings finite when a bot wins or loses every game.
pub fn fit_elo(k: usize, pairs: &[PairScore], anchor: usize) -> Vec<(f64, f64)> {
    let mut n = vec![vec![0.0; k]; k];
    let mut wins = vec![0.0; k];
    for p in pairs {
        n[p.i][p.j] += p.games + 1.0;
        n[p.j][p.i] += p.games + 1.0;
        wins[p.i] += p.score_i + 0.5;
        wins[p.j] += p.games - p.score_i + 0.5;
    }
    let mut gamma = vec![1.0; k];
    for _ in 0..100_000 {
        let mut next = vec![0.0; k];
        for i in 0..k {
            let denom: f64 = (0..k).filter(|&j| j != i && n[i][j] > 0.0).map(|j| n[i][j] / (gamma[i] + gamma[j])).sum();
            next[i] = if denom > 0.0 { wins[i] / denom } else { gamma[i] };
        }
        // Normalise by the geometric mean to keep the numbers tame.
        let g = (next.iter().map(|x: &f64| x.ln()).sum::<f64>() / k as f64).exp();
        next.iter_mut().for_each(|x| *x /= g);
        let change = next.iter().zip(&gamma).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln() - gamma[anchor].ln()).collect();
    // Fisher information of the log-strengths, without the anchor's row and column.
    let free: Vec<usize> = (0..k).filter(|&i| i != anchor).collect();
    let m = free.len();
    let mut info = vec![vec![0.0; m]; m];
    for (a, &i) in free.iter().enumerate() {
        for j in 0..k {
            if j == i || n[i][j] == 0.0 {
                continue;
            }
            let p = gamma[i] / (gamma[i] + gamma[j]);
            let w = n[i][j] * p * (1.0 - p);
            info[a][a] += w;
            if let Some(b) = free.iter().position(|&f| f == j) {
                info[a][b] -= w;
            }
        }
    }
    let var = invert(info).map(|inv| (0..m).map(|a| inv[a][a]).collect::<Vec<_>>());
    (0..k)
        .map(|i| {
            let ci = match (free.iter().position(|&f| f == i), &var) {
                (None, _) => 0.0,
                (Some(a), Some(v)) => Z95 * scale * v[a].max(0.0).sqrt(),
                (Some(_), None) => f64::INFINITY,
            };
            (scale * theta[i], ci)
        })
        .collect()
}

/// The inverse of a small symmetric positive-definite matrix (Gauss-Jordan), if it has one.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m).map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for c in 0..m {
        let p = (c..m).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for x in 0..m {
            a[c][x] /= d;
            inv[c][x] /= d;
        }
        for r in 0..m {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    for x in 0..m {
                        a[r][x] -= f * a[c][x];
                        inv[r][x] -= f * inv[c][x];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_interval() {
        // 80 of 100: [0.7112, 0.8666].
        let (lo, hi) = wilson(80.0, 100.0);
        assert!((lo - 0.7112).abs() < 1e-3 && (hi - 0.8666).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }

    #[test]
    fn elo_of_two_bots_is_the_logistic_of_the_score() {
        let fit = fit_elo(2, &[PairScore { i: 0, j: 1, score_i: 750.0, games: 1000.0 }], 1);
        let p: f64 = 750.5 / 1001.0;
        let want = 400.0 * (p / (1.0 - p)).log10();
        assert!((fit[0].0 - want).abs() < 1e-6, "{fit:?} {want}");
        assert_eq!(fit[1], (0.0, 0.0));
        assert!(fit[0].1 > 20.0 && fit[0].1 < 30.0, "{fit:?}");
    }

    #[test]
    fn elo_orders_three_bots_and_stays_finite_on_a_sweep() {
        let pairs = [
            PairScore { i: 0, j: 1, score_i: 100.0, games: 100.0 },
            PairScore { i: 0, j: 2, score_i: 100.0, games: 100.0 },
            PairScore { i: 1, j: 2, score_i: 70.0, games: 100.0 },
        ];
        let fit = fit_elo(3, &pairs, 2);
        assert!(fit[0].0 > fit[1].0 && fit[1].0 > 0.0 && fit[0].0.is_finite(), "{fit:?}");
        assert!(fit.iter().all(|f| f.1.is_finite()));
    }
}
