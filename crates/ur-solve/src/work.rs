//! The values of the layer group being solved, each beside its complement.
//!
//! A compiled row reads `V` of the positions its moves keep the mover on
//! and `1 - V` of those that hand the move over, about a dozen reads a
//! position in every sweep. Keeping `1 - V` stored next to `V` (written
//! once per update, in the same cache line) makes each read a plain load:
//! a row's reference is the index of the word to read. `1 - V` is rounded
//! once whether it is computed when read or when written, so the values
//! are bit for bit those of computing it on every read.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::huge::HugeArray;
use crate::solve::PairValues;

/// A group's working values: word `2k` holds `V` of position `k`
/// (group-relative), word `2k + 1` holds `1 - V`.
pub(crate) struct Work {
    words: HugeArray<AtomicU64>,
}

/// Bytes a position takes.
pub(crate) const BYTES_PER_POSITION: u64 = 16;

impl Work {
    /// Whether a group of `len` positions can be referenced by `u32`.
    pub(crate) fn check_len(len: u64) -> Result<(), String> {
        if 2 * len > 1 << 32 {
            return Err(format!("a group of {len} positions is too large for 32-bit references"));
        }
        Ok(())
    }

    /// `len` positions, each at one half.
    pub(crate) fn at_half(len: u64) -> std::io::Result<Work> {
        let words = HugeArray::<AtomicU64>::zeroed(2 * len as usize)?;
        words.par_iter().for_each(|w| w.store(0.5f64.to_bits(), Relaxed));
        Ok(Work { words })
    }

    /// The reference of position `k`'s value, or with `complement` of
    /// `1 - V`.
    pub(crate) fn reference(k: u64, complement: bool) -> u32 {
        // The operator checked its group's size first (`check_len`).
        (2 * k + u64::from(complement)) as u32
    }

    /// The word a reference names.
    #[inline(always)]
    pub(crate) fn read(&self, reference: u32) -> f64 {
        f64::from_bits(self.words[reference as usize].load(Relaxed))
    }

    /// Position `k`'s word, for prefetching.
    pub(crate) fn word(&self, k: u64) -> &AtomicU64 {
        &self.words[2 * k as usize]
    }

    pub(crate) fn len(&self) -> u64 {
        self.words.len() as u64 / 2
    }

    /// Sets position `k` to `v`.
    #[inline(always)]
    pub(crate) fn set(&self, k: u64, v: f64) {
        let k = 2 * k as usize;
        self.words[k].store(v.to_bits(), Relaxed);
        self.words[k + 1].store((1.0 - v).to_bits(), Relaxed);
    }

    /// Copies `values` (the group's slice) in.
    #[cfg(test)]
    pub(crate) fn load(&self, values: &[AtomicU64]) {
        values.par_iter().enumerate().for_each(|(k, v)| self.set(k as u64, f64::from_bits(v.load(Relaxed))));
    }

    /// Copies the values out to `values` (the group's slice).
    pub(crate) fn store(&self, values: &[AtomicU64]) {
        values.par_iter().zip(self.words.par_chunks_exact(2)).for_each(|(v, w)| v.store(w[0].load(Relaxed), Relaxed));
    }
}

impl PairValues for Work {
    #[inline(always)]
    fn value(&self, k: u64) -> f64 {
        self.read(Work::reference(k, false))
    }

    #[inline(always)]
    fn complement(&self, k: u64) -> f64 {
        self.read(Work::reference(k, true))
    }

    #[inline(always)]
    fn replace(&self, k: u64, v: f64) -> f64 {
        let old = self.value(k);
        self.set(k, v);
        v - old
    }
}
