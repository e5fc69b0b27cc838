//! The Bellman operator of one layer group, compiled to a sparse form.
//!
//! Move generation and ranking cost far more than the arithmetic of a
//! Bellman update, and a group needs tens of sweeps. So the solver generates
//! every position's moves once and keeps, per position and throw, the best
//! value of the moves that leave the group (a constant: those layers are
//! solved) and references to the positions inside the group that the other
//! moves reach. A sweep then only reads values. The compiled operator
//! computes exactly what [`Bellman::parts`] computes (the same maxima, the
//! same sums in the same order). A sweep may also record which move was best
//! per throw, and later sweeps read only that one ([`Moves`]).

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;
use ur_rules::{Move, Side, State};

use crate::index::Layer;
use crate::solve::{Bellman, Target, Values};

/// Upper-layer positions per chunk: the unit of parallel work.
const CHUNK: u64 = 1 << 12;
/// A reference's flag: the opponent moves next, so the value is `1 - V`.
const FLIP: u32 = 1 << 31;
/// A throw's count when it allows no move.
const PASS: u8 = u8::MAX;
/// A throw's count flag: a constant precedes its references.
const HAS_CONST: u8 = 1 << 7;

/// What a sweep does.
pub(crate) enum Mode<'a> {
    /// Measures `max |T(v) - v|` and writes nothing (tests check the
    /// solver's residual bound with it).
    #[cfg_attr(not(test), allow(dead_code))]
    Check,
    /// Writes the updated values.
    Write,
    /// Writes them and records each change (new minus old, group-relative)
    /// for acceleration.
    Record(&'a [AtomicU32]),
}

/// Which moves a sweep reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Moves {
    /// Every move of every throw; the best is taken.
    All,
    /// Every move, remembering which one was best: the policy.
    Recording,
    /// Only the move the policy names: one value per throw instead of
    /// every move's. Once the best moves have settled this computes what
    /// a full sweep computes, at a fraction of the memory reads.
    Policy,
}

const ALL: u8 = 0;
const RECORDING: u8 = 1;
const POLICY: u8 = 2;
/// A recorded choice: the constant (a move leaving the group) was best.
const CHOSE_CONST: u8 = u8::MAX;

/// A position of the upper layer and its pass partner (same board, other
/// side to move), group-relative.
#[derive(Clone, Copy)]
struct Pair {
    i: u32,
    j: u32,
}

/// Compiled rows of some position pairs, two rows per pair (`i`'s, `j`'s),
/// read in order by a sweep (a [`Cursor`]), so no offsets are stored.
/// Exactly sized: the rows are built in reused [`Rows`] and copied here.
struct Chunk {
    pairs: Box<[Pair]>,
    counts: Box<[u8]>,
    consts: Box<[f64]>,
    refs: Box<[u32]>,
    /// Per row and throw, the best move of the last recording sweep: the
    /// index of a reference, or [`CHOSE_CONST`]. (Before any, the first
    /// reference, or the constant when there is none: never nothing.)
    choices: Box<[AtomicU8]>,
}

/// A chunk's rows while they are compiled.
#[derive(Default)]
struct Rows {
    pairs: Vec<Pair>,
    /// Per row and throw: its number of references, with [`HAS_CONST`] set
    /// when it has a constant, or [`PASS`].
    counts: Vec<u8>,
    /// The constants, in row and throw order: the best value of the moves
    /// that leave the group.
    consts: Vec<f64>,
    /// Group-relative indices, [`FLIP`] set when the opponent moves next.
    refs: Vec<u32>,
}

impl Rows {
    fn clear(&mut self) {
        self.pairs.clear();
        self.counts.clear();
        self.consts.clear();
        self.refs.clear();
    }

    /// The rows, copied into exactly sized arrays.
    fn to_chunk(&self) -> Chunk {
        Chunk {
            pairs: self.pairs.as_slice().into(),
            counts: self.counts.as_slice().into(),
            consts: self.consts.as_slice().into(),
            refs: self.refs.as_slice().into(),
            choices: self.counts.iter().map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

/// Where a sweep is in a chunk's arrays.
#[derive(Default)]
struct Cursor {
    count: usize,
    konst: usize,
    refs: usize,
}

/// A layer group's compiled operator.
///
/// Sweeps visit the pairs by decreasing index: the index makes squares
/// further along the paths more significant, so positions are mostly
/// updated after the positions their moves lead to. (Ordering by the total
/// progress of both sides instead needs nearly twice the sweeps.)
pub(crate) struct Operator {
    base: u64,
    probs: Vec<f64>,
    /// Chunks of pairs, by decreasing index.
    chunks: Vec<Chunk>,
}

/// Chunks per group compiled to estimate an operator's size.
const SAMPLED_CHUNKS: u64 = 48;

/// Reads one half for every position: a sample compiled to measure its
/// size needs no real values.
struct Half;

impl Values for Half {
    fn get(&self, _: u64) -> f64 {
        0.5
    }
}

/// The bytes a group's operator will take, estimated before it is built by
/// compiling evenly spread chunks of it (every chunk of a small group).
/// Moves per position vary too much between rule sets for a formula.
pub(crate) fn estimated_bytes(b: &Bellman, group: &[Layer]) -> u64 {
    let (upper, base, len) = extent(group);
    let chunks = upper.len.div_ceil(CHUNK);
    let stride = chunks.div_ceil(SAMPLED_CHUNKS);
    let (bytes, positions) = (0..chunks)
        .into_par_iter()
        .filter(|c| c % stride == 0)
        .map_init(Rows::default, |rows, c| {
            let chunk = compile_chunk(b, &upper, chunk_range(&upper, c), (base, len), &Half, rows);
            let positions = chunk.pairs.iter().map(|p| if p.i == p.j { 1 } else { 2 }).sum::<u64>();
            (chunk.bytes(), positions)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (bytes as f64 * len as f64 / positions.max(1) as f64).round() as u64
}

/// A group's upper layer, lowest index and number of positions.
fn extent(group: &[Layer]) -> (Layer, u64, u64) {
    let upper = *group.iter().max_by_key(|l| l.start).expect("a group has a layer");
    let base = group.iter().map(|l| l.start).min().expect("a group has a layer");
    (upper, base, group.iter().map(|l| l.len).sum())
}

/// The upper-layer indices of chunk `c`, chunks counted down from the top.
fn chunk_range(upper: &Layer, c: u64) -> (u64, u64) {
    let top = upper.start + upper.len;
    (top.saturating_sub((c + 1) * CHUNK).max(upper.start), top - c * CHUNK)
}

impl Chunk {
    /// The memory the chunk's rows take.
    fn bytes(&self) -> u64 {
        (std::mem::size_of_val(&*self.pairs) + 2 * self.counts.len() + 8 * self.consts.len() + 4 * self.refs.len()) as u64
    }
}

impl Operator {
    /// Compiles the operator of a group whose lower layers are solved.
    pub(crate) fn build(b: &Bellman, group: &[Layer], values: &[AtomicU64]) -> Operator {
        // Every position of the lower layer is the other side's view of one
        // in the upper layer, so the pairs of the upper layer cover both.
        let (upper, base, len) = extent(group);
        let chunks = (0..upper.len.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(Rows::default, |rows, c| compile_chunk(b, &upper, chunk_range(&upper, c), (base, len), values, rows))
            .collect();
        Operator { base, probs: b.throws.iter().map(|x| x.1).collect(), chunks }
    }

    /// The memory the compiled rows take.
    pub(crate) fn bytes(&self) -> u64 {
        self.chunks.iter().map(Chunk::bytes).sum()
    }

    /// `R` and `q` of the row at the cursor (see `settle_pair` in solve.rs),
    /// reading the moves `M` says (`ALL`, `RECORDING` or `POLICY`).
    #[inline]
    fn parts<const M: u8>(&self, c: &Chunk, at: &mut Cursor, values: &[AtomicU64]) -> (f64, f64) {
        let (mut r, mut q) = (0.0, 0.0);
        for p in &self.probs {
            let k = at.count;
            let n = c.counts[k];
            at.count += 1;
            if n == PASS {
                q += p;
                continue;
            }
            let mut best = f64::NEG_INFINITY;
            if n & HAS_CONST != 0 {
                best = c.consts[at.konst];
                at.konst += 1;
            }
            let end = at.refs + usize::from(n & !HAS_CONST);
            let refs = &c.refs[at.refs..end];
            at.refs = end;
            if M == POLICY {
                if let Some(&e) = refs.get(usize::from(c.choices[k].load(Relaxed))) {
                    best = self.value(values, e);
                }
            } else {
                let mut choice = CHOSE_CONST;
                for (m, &e) in refs.iter().enumerate() {
                    let x = self.value(values, e);
                    if M == RECORDING && x > best {
                        choice = m as u8;
                    }
                    // Not `f64::max`: no NaN handling needed, so one `maxsd`.
                    best = if x > best { x } else { best };
                }
                if M == RECORDING {
                    c.choices[k].store(choice, Relaxed);
                }
            }
            r += p * best;
        }
        (r, q)
    }

    /// The value a reference reads: `V` or `1 - V`.
    #[inline(always)]
    fn value(&self, values: &[AtomicU64], e: u32) -> f64 {
        // Branch-free `1 - v` or `v` (the flag is unpredictable), exact:
        // `-v + 1` rounds once, as `1 - v` does.
        let flip = f64::from(e >> 31);
        let v = Values::get(values, self.base + u64::from(e & !FLIP));
        (1.0 - 2.0 * flip) * v + flip
    }

    /// One Gauss-Seidel sweep, pass partners solved together. Returns the
    /// largest change, or with [`Mode::Check`] `max |T(v) - v|` (of the
    /// policy's operator with [`Moves::Policy`]).
    pub(crate) fn sweep(&self, values: &[AtomicU64], mode: Mode, moves: Moves) -> f64 {
        match moves {
            Moves::All => self.sweep_reading::<ALL>(values, &mode),
            Moves::Recording => self.sweep_reading::<RECORDING>(values, &mode),
            Moves::Policy => self.sweep_reading::<POLICY>(values, &mode),
        }
    }

    fn sweep_reading<const M: u8>(&self, values: &[AtomicU64], mode: &Mode) -> f64 {
        self.chunks
            .par_iter()
            .map(|c| {
                let mut at = Cursor::default();
                c.pairs.iter().map(|&pair| self.update_pair::<M>(c, pair, &mut at, values, mode)).fold(0.0, f64::max)
            })
            .reduce(|| 0.0, f64::max)
    }

    fn update_pair<const M: u8>(&self, c: &Chunk, pair: Pair, at: &mut Cursor, values: &[AtomicU64], mode: &Mode) -> f64 {
        let (i, j) = (self.base + u64::from(pair.i), self.base + u64::from(pair.j));
        let (ri, qi) = self.parts::<M>(c, at, values);
        let (rj, qj) = self.parts::<M>(c, at, values);
        let (di, dj) = crate::solve::settle_pair((i, ri, qi), (j, rj, qj), values, !matches!(mode, Mode::Check));
        if let Mode::Record(steps) = mode {
            steps[pair.i as usize].store((di as f32).to_bits(), Relaxed);
            if i != j {
                steps[pair.j as usize].store((dj as f32).to_bits(), Relaxed);
            }
        }
        di.abs().max(dj.abs())
    }
}

/// Compiles the two rows of every pair whose upper index is in `range`:
/// every position there whose pass partner is not above it.
fn compile_chunk(
    b: &Bellman,
    upper: &Layer,
    range: (u64, u64),
    (base, len): (u64, u64),
    values: &(impl Values + ?Sized),
    chunk: &mut Rows,
) -> Chunk {
    chunk.clear();
    b.index.for_each_desc(b.rules, upper, range, Side::Light, |i, st| {
        let mut flipped = st;
        flipped.set_to_move(Side::Dark);
        let j = b.index.rank(&flipped);
        if j <= i {
            chunk.pairs.push(Pair { i: (i - base) as u32, j: (j - base) as u32 });
            compile_row(b, &st, (base, len), values, chunk);
            compile_row(b, &flipped, (base, len), values, chunk);
        }
    });
    chunk.to_chunk()
}

/// Appends one position's row.
fn compile_row(b: &Bellman, st: &State, (base, len): (u64, u64), values: &(impl Values + ?Sized), chunk: &mut Rows) {
    let in_group = |x: u64| x >= base && x < base + len;
    for (throw, _) in &b.throws {
        let mut dests = b.rules.destinations(st, throw);
        if dests == 0 {
            chunk.counts.push(PASS);
            continue;
        }
        let first = chunk.refs.len();
        let mut best = f64::NEG_INFINITY;
        while dests != 0 {
            let to = dests.trailing_zeros() as u8;
            dests &= dests - 1;
            b.for_each_target(st, throw, Move::new(to - throw.value, to), |target| match target {
                Target::Stay(x) if in_group(x) => chunk.refs.push((x - base) as u32),
                Target::Flip(x) if in_group(x) => chunk.refs.push((x - base) as u32 | FLIP),
                Target::Stay(x) => best = best.max(Values::get(values, x)),
                Target::Flip(x) => best = best.max(1.0 - Values::get(values, x)),
                Target::Won => best = best.max(1.0),
            });
        }
        let n = (chunk.refs.len() - first) as u8;
        debug_assert!(n < HAS_CONST, "a throw has at most 2 x 15 targets");
        if best > f64::NEG_INFINITY {
            chunk.consts.push(best);
            chunk.counts.push(n | HAS_CONST);
        } else {
            chunk.counts.push(n);
        }
    }
}
