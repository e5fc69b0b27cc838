//! Anderson acceleration of depth two over Gauss-Seidel sweeps.
//!
//! A sweep `G` maps values `x` to `g = G(x)`; with `f = g - x`, the next
//! iterate is `g - γ1 Δg1 - γ2 Δg2`, where `Δg`, `Δf` are the differences of
//! the last steps and `γ` minimises `|f - γ1 Δf1 - γ2 Δf2|`. It removes most
//! of the slowest modes of the sweeps.
//!
//! The history is kept in `f32`, and the two older steps only at a sample
//! of positions (13 bytes a position instead of 56 in `f64`): it only
//! steers the extrapolation, and the residual certificate is computed on
//! the values themselves. `f` is recorded by the sweep as it
//! writes (new minus old), and `Δg1 = g_k - g_{k-1} = f_k - a_{k-1}`, where
//! `a_{k-1}` is the correction applied after the previous sweep, so neither
//! `x` nor `g` is ever copied.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use crate::huge::HugeArray;
use crate::solve::PairValues;
use crate::work::Work;

pub(crate) struct Anderson {
    /// `f` of the sweep just made, as `f32` bits, written by the sweep.
    step: HugeArray<AtomicU32>,
    /// `f` of the two sweeps before, at every [`SAMPLE`]th position only:
    /// `γ` comes from sums over positions, which a sample of millions
    /// estimates as well as the whole group.
    older: [HugeArray<f32>; 2],
    /// `Δg1`, `Δg2`.
    dg: [HugeArray<f32>; 2],
    /// Consecutive sweeps recorded, at most 3.
    recorded: usize,
    /// The coefficients of the correction applied after the previous sweep.
    last: (f64, f64),
}

/// One position in this many enters the least-squares sums.
const SAMPLE: usize = 8;

impl Anderson {
    /// History for a group of `len` positions.
    pub(crate) fn new(len: usize) -> std::io::Result<Anderson> {
        let sampled = len.div_ceil(SAMPLE);
        Ok(Anderson {
            step: HugeArray::zeroed(len)?,
            older: [HugeArray::zeroed(sampled)?, HugeArray::zeroed(sampled)?],
            dg: [HugeArray::zeroed(len)?, HugeArray::zeroed(len)?],
            recorded: 0,
            last: (0.0, 0.0),
        })
    }

    /// Bytes of history per position.
    pub(crate) const BYTES_PER_POSITION: u64 = 3 * 4 + 2 * 4 / SAMPLE as u64;

    /// The buffer the next sweep records its changes in.
    pub(crate) fn record(&self) -> &[AtomicU32] {
        &self.step
    }

    /// Takes the values of the sweep just recorded and writes the
    /// accelerated iterate there.
    pub(crate) fn after_sweep(&mut self, values: &Work) {
        self.recorded = (self.recorded + 1).min(3);
        let gamma = if self.recorded == 3 { self.coefficients() } else { None };
        let (c1, c2) = gamma.unwrap_or((0.0, 0.0));
        let (p1, p2) = self.last;
        let [dg1, dg2] = &mut self.dg;
        let f = &self.step;
        dg1.par_iter_mut().zip(dg2.par_iter_mut()).zip(f.par_iter()).enumerate().for_each(|(k, ((dg1, dg2), f))| {
            let f = get(f);
            let previous = p1 * f64::from(*dg1) + p2 * f64::from(*dg2);
            let step = f - previous;
            *dg2 = *dg1;
            *dg1 = step as f32;
            if gamma.is_some() {
                let k = k as u64;
                values.set(k, values.value(k) - c1 * step - c2 * f64::from(*dg2));
            }
        });
        self.last = (c1, c2);
        let [f1, f2] = &mut self.older;
        std::mem::swap(f1, f2);
        f1.par_iter_mut().enumerate().for_each(|(k, x)| *x = get(&f[k * SAMPLE]) as f32);
    }

    /// `γ` from the normal equations of the least-squares problem, or none
    /// when they are too ill-conditioned to trust.
    fn coefficients(&self) -> Option<(f64, f64)> {
        let [f1, f2] = &self.older;
        let sums = f1
            .par_iter()
            .zip(f2.par_iter())
            .enumerate()
            .map(|(k, (&f1, &f2))| {
                let (f0, f1, f2) = (get(&self.step[k * SAMPLE]), f64::from(f1), f64::from(f2));
                let (d1, d2) = (f0 - f1, f1 - f2);
                [d1 * d1, d1 * d2, d2 * d2, d1 * f0, d2 * f0]
            })
            .reduce(|| [0.0; 5], |a, b| std::array::from_fn(|k| a[k] + b[k]));
        let [a11, a12, a22, b1, b2] = sums;
        let det = a11 * a22 - a12 * a12;
        (det > 1e-12 * a11 * a22).then(|| ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det))
    }
}

fn get(a: &AtomicU32) -> f64 {
    f64::from(f32::from_bits(a.load(Relaxed)))
}
