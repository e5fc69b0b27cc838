//! A fixed policy as a sparse linear system, for cheap sweeps.
//!
//! Once the values of a layer group are close, the best move for each
//! position and throw rarely changes. The solver then records, per position,
//! where each throw's best move leads, and sweeps that linear system (a few
//! memory reads per position instead of move generation and ranking), then
//! certifies the result with a full Bellman sweep (modified policy iteration).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use ur_rules::{Move, Side};

use crate::index::Layer;
use crate::solve::{Bellman, Target, Values};

const KIND: u32 = 3 << 30;
const TARGET: u32 = !KIND;
const CONSTANT: u32 = 0;
const STAY: u32 = 1 << 30;
const FLIP: u32 = 2 << 30;
const PASS: u32 = 3 << 30;

/// Per position of a group: a constant and one reference per throw.
pub(crate) struct Policy {
    base: u64,
    upper: Layer,
    probs: Vec<f64>,
    consts: Vec<f64>,
    refs: Vec<u32>,
    /// Per position of the upper layer: its pass partner, group-relative.
    partner: Vec<u32>,
}

/// Bytes a policy needs per position of a group.
pub(crate) fn bytes_per_position(throws: usize) -> u64 {
    12 + 4 * throws as u64
}

impl Policy {
    /// Records the best move of every position and throw of a group.
    pub(crate) fn build(b: &Bellman, group: &[Layer], upper: Layer, values: &[AtomicU64]) -> Policy {
        let base = group.iter().map(|l| l.start).min().expect("a group has a layer");
        let len: u64 = group.iter().map(|l| l.len).sum();
        let t = b.throws.len();
        let rows: Vec<(f64, Vec<u32>)> = (base..base + len).into_par_iter().map(|i| row(b, i, base, len, values)).collect();
        let mut consts = Vec::with_capacity(rows.len());
        let mut refs = Vec::with_capacity(rows.len() * t);
        for (c, r) in rows {
            consts.push(c);
            refs.extend(r);
        }
        let partner = (upper.start..upper.start + upper.len)
            .into_par_iter()
            .map(|i| {
                let mut st = b.index.unrank(b.rules, i, Side::Light);
                st.set_to_move(Side::Dark);
                (b.index.rank(&st) - base) as u32
            })
            .collect();
        Policy { base, upper, probs: b.throws.iter().map(|x| x.1).collect(), consts, refs, partner }
    }

    /// `R` and `q` of a position under this policy (see `update_pair` in solve.rs).
    #[inline]
    fn parts(&self, k: usize, values: &[AtomicU64]) -> (f64, f64) {
        let t = self.probs.len();
        let (mut r, mut q) = (self.consts[k], 0.0);
        for (e, p) in self.refs[k * t..(k + 1) * t].iter().zip(&self.probs) {
            let v = || Values::get(values, self.base + u64::from(e & TARGET));
            match e & KIND {
                STAY => r += p * v(),
                FLIP => r += p * (1.0 - v()),
                PASS => q += p,
                _ => {}
            }
        }
        (r, q)
    }

    /// One Gauss-Seidel sweep of the linear system, pass partners solved
    /// together. Returns the largest change.
    pub(crate) fn sweep(&self, values: &[AtomicU64]) -> f64 {
        let chunk = 1u64 << 12;
        let upper = self.upper;
        (0..upper.len.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let hi = upper.start + upper.len - c * chunk;
                let lo = hi.saturating_sub(chunk).max(upper.start);
                (lo..hi).rev().map(|i| self.update_pair(i, values)).fold(0.0, f64::max)
            })
            .reduce(|| 0.0, f64::max)
    }

    fn update_pair(&self, i: u64, values: &[AtomicU64]) -> f64 {
        let ki = (i - self.base) as usize;
        let kj = self.partner[(i - self.upper.start) as usize] as usize;
        let j = self.base + kj as u64;
        if j > i {
            return 0.0;
        }
        let store = |k: u64, v: f64| (v - f64::from_bits(values[k as usize].swap(v.to_bits(), Relaxed))).abs();
        let (ri, qi) = self.parts(ki, values);
        if i == j {
            return store(i, (ri + qi) / (1.0 + qi));
        }
        let (rj, qj) = self.parts(kj, values);
        let vi = (ri + qi - qi * rj - qi * qj) / (1.0 - qi * qj);
        store(i, vi).max(store(j, rj + qj * (1.0 - vi)))
    }
}

/// The constant part and the references of one position.
fn row(b: &Bellman, i: u64, base: u64, len: u64, values: &[AtomicU64]) -> (f64, Vec<u32>) {
    let st = b.index.unrank(b.rules, i, Side::Light);
    let in_group = |x: u64| x >= base && x < base + len;
    let mut constant = 0.0;
    let mut refs = Vec::with_capacity(b.throws.len());
    for (throw, p) in &b.throws {
        let mut dests = b.rules.destinations(&st, throw);
        if dests == 0 {
            refs.push(PASS);
            continue;
        }
        let mut best = (f64::NEG_INFINITY, Target::Won);
        while dests != 0 {
            let to = dests.trailing_zeros() as u8;
            dests &= dests - 1;
            let candidate = b.after_move_target(&st, throw, Move::new(to - throw.value, to), values);
            if candidate.0 > best.0 {
                best = candidate;
            }
        }
        refs.push(match best.1 {
            Target::Stay(x) if in_group(x) => STAY | (x - base) as u32,
            Target::Flip(x) if in_group(x) => FLIP | (x - base) as u32,
            _ => {
                constant += p * best.0;
                CONSTANT
            }
        });
    }
    (constant, refs)
}
