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

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::huge::HugeArray;
use crate::work::Work;

pub(crate) struct Anderson {
    /// `f` of the sweep just made, as `f32` bits, written by the sweep.
    step: HugeArray<AtomicU32>,
    /// `f` of the two sweeps before, at every [`SAMPLE`]th position only:
    /// `γ` comes from sums over positions, which a sample of millions
    /// estimates as well as the whole group.
    older: [HugeArray<f32>; 2],
    /// `Δg1` and `Δg2`, one in each half (`Δg1` in the second when
    /// `swapped`).
    dg: HugeArray<f32>,
    swapped: bool,
    /// Consecutive sweeps recorded, at most 3.
    recorded: usize,
    /// The coefficients of the correction applied after the previous sweep.
    last: (f64, f64),
}

/// One position in this many enters the least-squares sums.
const SAMPLE: usize = 8;

impl Anderson {
    /// History for a group of `len` positions still sweeping in `f32`:
    /// those sweeps record their steps ([`Anderson::after_single_sweep`]),
    /// and the `Δg` come with the widened values ([`Anderson::widened`]),
    /// so the first `f64` sweep is already the history's second or third.
    pub(crate) fn new(len: usize) -> std::io::Result<Anderson> {
        Ok(Anderson {
            step: HugeArray::zeroed(len)?,
            older: [HugeArray::zeroed(len.div_ceil(SAMPLE))?, HugeArray::zeroed(len.div_ceil(SAMPLE))?],
            dg: HugeArray::zeroed(0)?,
            swapped: false,
            recorded: 0,
            last: (0.0, 0.0),
        })
    }

    /// The values go on in `f64`. The `Δg` go in `spare` if it holds two
    /// finite `f32` a position (memory already held, which the kernel need
    /// not clear again); the last `f32` step, if recorded, is `Δg1` (no
    /// correction was applied before it), and `Δg2` is weighed by zero.
    pub(crate) fn widened(&mut self, spare: Option<HugeArray<f32>>) -> std::io::Result<()> {
        let len = self.step.len();
        self.dg = match spare {
            Some(spare) if spare.len() == 2 * len => spare,
            _ => HugeArray::zeroed(2 * len)?,
        };
        self.swapped = false;
        if self.recorded > 0 {
            let step = &self.step;
            self.dg[..len].par_iter_mut().enumerate().for_each(|(k, d)| *d = f32::from_bits(step[k].load(Relaxed)));
        }
        Ok(())
    }

    /// After an `f32` sweep recorded its steps: keeps their sample. (The
    /// values are not corrected; `f32` sweeps certify nothing.)
    pub(crate) fn after_single_sweep(&mut self) {
        self.recorded = (self.recorded + 1).min(2);
        let step = &self.step;
        self.older[1].par_iter_mut().enumerate().for_each(|(k, x)| *x = f32::from_bits(step[k * SAMPLE].load(Relaxed)));
        self.older.swap(0, 1);
    }

    /// The memory of its differences (two `f32` a position), for the next
    /// group's `f32` values.
    pub(crate) fn into_differences(self) -> HugeArray<f32> {
        self.dg
    }

    /// Bytes of history per position.
    pub(crate) const BYTES_PER_POSITION: u64 = 3 * 4 + 2 * 4 / SAMPLE as u64;

    /// The buffer the next sweep records its changes in.
    pub(crate) fn record(&self) -> &[AtomicU32] {
        &self.step
    }

    /// Takes the values of the sweep just recorded and writes the
    /// accelerated iterate there. Returns a bound on how far it moved any
    /// value.
    ///
    /// One pass over plain slices in blocks, so it vectorises: it reads and
    /// writes every position's words, and as a loop of atomic accesses it
    /// took a third of an accelerated sweep's time.
    pub(crate) fn after_sweep(&mut self, values: &mut Work) -> f64 {
        self.recorded = (self.recorded + 1).min(3);
        let gamma = if self.recorded == 3 { self.coefficients() } else { None };
        let last = self.last;
        // The new `Δg1` overwrites `Δg2`, and the new sample of `f` the
        // oldest; then each pair swaps names.
        let (first, second) = self.dg.split_at_mut(self.step.len());
        let (dg1, dg2) = if self.swapped { (second, first) } else { (first, second) };
        let (v, c) = values.split_mut();
        let blocks = (v.par_chunks_mut(BLOCK).zip(c.par_chunks_mut(BLOCK)))
            .zip(dg1.par_chunks(BLOCK).zip(dg2.par_chunks_mut(BLOCK)))
            .zip(self.step.par_chunks_mut(BLOCK).zip(self.older[1].par_chunks_mut(BLOCK / SAMPLE)));
        let moved = blocks
            .map(|(((v, c), (dg1, dg2)), (f, older))| {
                sample(f, older);
                match gamma {
                    Some(gamma) => correct(Block { v, c, dg1, dg2, f }, last, gamma),
                    None => shift(dg1, dg2, f, last),
                }
            })
            .reduce(|| 0.0, f64::max);
        self.swapped = !self.swapped;
        self.older.swap(0, 1);
        self.last = gamma.unwrap_or((0.0, 0.0));
        // The rounding of `x` itself, relative to values of at most one.
        if moved > 0.0 {
            moved + 4.0 * f64::EPSILON
        } else {
            0.0
        }
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

/// Positions per task of [`Anderson::after_sweep`].
const BLOCK: usize = 1 << 14;
const _: () = assert!(BLOCK.is_multiple_of(SAMPLE), "a block's samples are its own");

/// A block of positions' words in [`Anderson::after_sweep`]: values,
/// complements, `Δg1`, `Δg2` (to be overwritten by the new `Δg1`) and `f`.
struct Block<'a> {
    v: &'a mut [AtomicU64],
    c: &'a mut [AtomicU64],
    dg1: &'a [f32],
    dg2: &'a mut [f32],
    f: &'a mut [AtomicU32],
}

/// `Δg1 = f - a`, where `a = p1 Δg1 + p2 Δg2` is the correction applied
/// after the previous sweep, written over `Δg2`.
#[inline(always)]
fn new_step(f: &mut AtomicU32, dg1: f32, dg2: f32, (p1, p2): (f64, f64)) -> f64 {
    f64::from(f32::from_bits(*f.get_mut())) - (p1 * f64::from(dg1) + p2 * f64::from(dg2))
}

/// Every [`SAMPLE`]th `f` of a block, into `older`.
fn sample(f: &mut [AtomicU32], older: &mut [f32]) {
    for (x, f) in older.iter_mut().zip(f.iter_mut().step_by(SAMPLE)) {
        *x = f32::from_bits(*f.get_mut());
    }
}

/// The history shifted, the values left as the sweep wrote them (moved by
/// nothing).
fn shift(dg1: &[f32], dg2: &mut [f32], f: &mut [AtomicU32], last: (f64, f64)) -> f64 {
    for ((&d1, d2), f) in dg1.iter().zip(dg2.iter_mut()).zip(f.iter_mut()) {
        *d2 = new_step(f, d1, *d2, last) as f32;
    }
    0.0
}

/// The history shifted, and every value moved to `g - γ1 Δg1 - γ2 Δg2`.
/// Returns the largest correction.
fn correct(b: Block, last: (f64, f64), (c1, c2): (f64, f64)) -> f64 {
    let history = b.dg1.iter().zip(b.dg2.iter_mut()).zip(b.f.iter_mut());
    // The largest correction as the bits of an `f32`, whose order is the
    // numbers' when they are not negative: an integer maximum keeps the loop
    // vectorised (a floating one would not be reordered).
    let mut moved = 0u32;
    for ((v, c), ((&d1, d2), f)) in b.v.iter_mut().zip(b.c.iter_mut()).zip(history) {
        let step = new_step(f, d1, *d2, last);
        *d2 = step as f32;
        let a = c1 * step + c2 * f64::from(d1);
        let x = f64::from_bits(*v.get_mut()) - a;
        moved = moved.max((a.abs() as f32).to_bits());
        Work::set_words(v, c, x);
    }
    // Rounding to `f32` may have lost a relative 2^-24.
    f64::from(f32::from_bits(moved)) * (1.0 + f64::from(f32::EPSILON))
}

fn get(a: &AtomicU32) -> f64 {
    f64::from(f32::from_bits(a.load(Relaxed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::PairValues;

    /// Steps recorded by `f32` sweeps carry over the widening, so the
    /// first `f64` sweep is already extrapolated. Each position's error
    /// shrinks by one of two rates a sweep (two modes, which depth two
    /// removes exactly): after two recorded sweeps and one in `f64`, the
    /// values land on the fixed point, where without the carried steps
    /// they would keep the error of three plain sweeps.
    #[test]
    fn steps_recorded_before_widening_extrapolate_the_first_f64_sweep() {
        let len = 4096;
        let fixed = |k: usize| 0.3 + 0.4 * ((k * 37 % 101) as f64 / 101.0);
        let rate = |k: usize| if (k / SAMPLE).is_multiple_of(2) { 0.5 } else { 0.8 };
        let mut x: Vec<f64> = (0..len).map(|k| fixed(k) + 0.1 * (((k * 53 % 97) as f64 / 97.0) - 0.5)).collect();
        let mut history = Anderson::new(len).unwrap();
        let sweep = |x: &mut Vec<f64>, history: &Anderson| {
            for (k, v) in x.iter_mut().enumerate() {
                let next = fixed(k) + rate(k) * (*v - fixed(k));
                history.record()[k].store(((next - *v) as f32).to_bits(), Relaxed);
                *v = next;
            }
        };
        for _ in 0..2 {
            sweep(&mut x, &history);
            history.after_single_sweep();
        }
        let mut work = Work::at_half(len as u64).unwrap();
        history.widened(None).unwrap();
        sweep(&mut x, &history);
        x.iter().enumerate().for_each(|(k, &v)| work.set(k as u64, v));
        let plain = (0..len).map(|k| (x[k] - fixed(k)).abs()).fold(0.0, f64::max);
        history.after_sweep(&mut work);
        let accelerated = (0..len).map(|k| (work.value(k as u64) - fixed(k)).abs()).fold(0.0, f64::max);
        assert!(plain > 1e-3, "{plain}");
        assert!(accelerated < 1e-6, "{accelerated} against {plain} without acceleration");
    }
}
