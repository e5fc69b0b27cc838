//! The values of the layer group being solved, and their complements.
//!
//! A compiled row reads `V` of the positions its moves keep the mover on
//! and `1 - V` of those that hand the move over, about a dozen reads a
//! position in every sweep. Keeping `1 - V` stored as well as `V` (both
//! written on every update) makes each read a plain load: a row's
//! reference is the index of the word to read. `1 - V` is rounded once
//! whether it is computed when read or when written, so the values are bit
//! for bit those of computing it on every read.
//!
//! The complements are a second array, not interleaved with the values:
//! most moves hand the move over, so most reads are of `1 - V`, and a
//! cache line of complements alone serves twice as many neighbouring
//! positions (sweeps 8 % faster on Blitz and 15 % on Finkel than with
//! `V` and `1 - V` side by side).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::huge::{HugeArray, Zeroable};
use crate::solve::PairValues;

/// How a working value is stored.
pub(crate) trait Precision: Sync + Send + 'static {
    type Word: Zeroable + Sync + Send;
    fn load(w: &Self::Word) -> f64;
    fn store(w: &Self::Word, v: f64);
}

/// `f64`: the values a group is certified on.
pub(crate) struct Double;

/// `f32`: half the bytes a read, for the first sweeps of a group, while
/// the values are still far (1e-3 and more) from the fixed point. A
/// sweep reads a dozen scattered values a position, so its misses are
/// the lines of these words: sweeps before acceleration on Blitz went
/// about a quarter faster. The group goes on in `f64` ([`Work::widen`])
/// before it is accelerated: only where the iteration starts differs,
/// not the fixed point it converges to.
pub(crate) struct Single;

impl Precision for Double {
    type Word = AtomicU64;
    #[inline(always)]
    fn load(w: &AtomicU64) -> f64 {
        f64::from_bits(w.load(Relaxed))
    }
    #[inline(always)]
    fn store(w: &AtomicU64, v: f64) {
        w.store(v.to_bits(), Relaxed);
    }
}

impl Precision for Single {
    type Word = AtomicU32;
    #[inline(always)]
    fn load(w: &AtomicU32) -> f64 {
        f64::from(f32::from_bits(w.load(Relaxed)))
    }
    #[inline(always)]
    fn store(w: &AtomicU32, v: f64) {
        #[allow(clippy::cast_possible_truncation)]
        w.store((v as f32).to_bits(), Relaxed);
    }
}

/// A group's working values: of `len` positions, word `k` holds `V` of
/// position `k` (group-relative), word `len + k` holds `1 - V`.
pub(crate) struct Work<P: Precision = Double> {
    words: HugeArray<P::Word>,
    precision: PhantomData<P>,
}

/// Bytes a position takes in `f64`, the larger.
pub(crate) const BYTES_PER_POSITION: u64 = 16;

/// Checks and builds references, whatever the precision.
impl Work {
    /// Whether a group of `len` positions can be referenced by `u32`.
    pub(crate) fn check_len(len: u64) -> Result<(), String> {
        if 2 * len > 1 << 32 {
            return Err(format!("a group of {len} positions is too large for 32-bit references"));
        }
        Ok(())
    }

    /// The reference of position `k`'s value, or with `complement` of
    /// `1 - V`, in a group of `len` positions.
    pub(crate) fn reference(len: u64, k: u64, complement: bool) -> u32 {
        // The operator checked its group's size first (`check_len`).
        (k + u64::from(complement) * len) as u32
    }

    /// Copies `values` (the group's slice) in.
    #[cfg(test)]
    pub(crate) fn load(&self, values: &[AtomicU64]) {
        values.par_iter().enumerate().for_each(|(k, v)| self.set(k as u64, f64::from_bits(v.load(Relaxed))));
    }
}

/// A pass that writes every position (the accelerated iterate) on plain
/// words, which the compiler can vectorise.
impl Work {
    /// The values and the complements, position `k` at `k` in both.
    pub(crate) fn split_mut(&mut self) -> (&mut [AtomicU64], &mut [AtomicU64]) {
        let len = self.len() as usize;
        self.words.split_at_mut(len)
    }

    /// [`Work::set`] on a position's two words from [`Work::split_mut`].
    #[inline(always)]
    pub(crate) fn set_words(value: &mut AtomicU64, complement: &mut AtomicU64, v: f64) {
        *value.get_mut() = v.to_bits();
        *complement.get_mut() = (1.0 - v).to_bits();
    }
}

impl Work<Single> {
    /// The same values in `f64`, each complement computed anew in `f64`
    /// (as every later update writes it).
    ///
    /// They go in `memory` if it has room (every word is written here), or
    /// else in fresh memory with room for `room` positions.
    pub(crate) fn widen(&self, memory: Option<HugeArray<AtomicU64>>, room: u64) -> std::io::Result<Work> {
        let words = HugeArray::reused_or_zeroed(memory, 2 * self.len() as usize, 2 * room as usize)?;
        let wide = Work { words, precision: PhantomData };
        (0..self.len()).into_par_iter().for_each(|k| wide.set(k, self.value(k)));
        Ok(wide)
    }

    /// Its memory, as two `f32` a position, every one finite.
    pub(crate) fn into_words(self) -> HugeArray<f32> {
        self.words.into_f32()
    }
}

impl Work {
    /// Its memory, for the next group's values ([`Work::widen`]).
    pub(crate) fn into_memory(self) -> HugeArray<AtomicU64> {
        self.words
    }
}

impl<P: Precision> Work<P> {
    /// `len` positions, each at one half.
    #[cfg(test)]
    pub(crate) fn at_half(len: u64) -> std::io::Result<Work<P>> {
        Self::at_half_in(len, None, 0)
    }

    /// [`Work::at_half`] in `memory` if it has room, or else in fresh
    /// memory with room for `room` positions.
    pub(crate) fn at_half_in(len: u64, memory: Option<HugeArray<P::Word>>, room: u64) -> std::io::Result<Work<P>> {
        let words = HugeArray::reused_or_zeroed(memory, 2 * len as usize, 2 * room as usize)?;
        words.par_iter().for_each(|w| P::store(w, 0.5));
        Ok(Work { words, precision: PhantomData })
    }

    /// The word a reference names.
    #[inline(always)]
    pub(crate) fn read(&self, reference: u32) -> f64 {
        P::load(&self.words[reference as usize])
    }

    /// Position `k`'s two words, for prefetching.
    pub(crate) fn words(&self, k: u64) -> [&P::Word; 2] {
        [false, true].map(|c| &self.words[Work::reference(self.len(), k, c) as usize])
    }

    pub(crate) fn len(&self) -> u64 {
        self.words.len() as u64 / 2
    }

    /// Sets position `k` to `v`.
    #[inline(always)]
    pub(crate) fn set(&self, k: u64, v: f64) {
        P::store(&self.words[k as usize], v);
        P::store(&self.words[Work::reference(self.len(), k, true) as usize], 1.0 - v);
    }

    /// Copies the values out to `values` (the group's slice).
    pub(crate) fn store(&self, values: &[AtomicU64]) {
        values.par_iter().zip(self.words.par_iter()).for_each(|(v, w)| v.store(P::load(w).to_bits(), Relaxed));
    }
}

impl<P: Precision> PairValues for Work<P> {
    #[inline(always)]
    fn value(&self, k: u64) -> f64 {
        self.read(Work::reference(self.len(), k, false))
    }

    #[inline(always)]
    fn complement(&self, k: u64) -> f64 {
        self.read(Work::reference(self.len(), k, true))
    }

    #[inline(always)]
    fn replace(&self, k: u64, v: f64) -> f64 {
        let old = self.value(k);
        self.set(k, v);
        v - old
    }
}
