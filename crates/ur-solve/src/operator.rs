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

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

use rayon::prelude::*;
use ur_rules::{Move, Side, State};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::huge::HugeArray;
use crate::index::Layer;
use crate::patterns::{compile_rows_by_block, BlockMoves};
use crate::solve::{Bellman, Target, Values};
use crate::work::{Precision, Single, Work};

/// Upper-layer positions per chunk: the unit of parallel work.
const CHUNK: u64 = 1 << 12;
/// A throw's count when it allows no move.
pub(crate) const PASS: u8 = u8::MAX;
/// A throw's count flag: a constant precedes its references.
pub(crate) const HAS_CONST: u8 = 1 << 7;

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
    /// Every move, remembering which one was best (the policy), and for
    /// each pair whether every best move beat the others by the margin of
    /// [`Operator::set_record_margin`].
    Recording,
    /// Only the moves the last recording sweep found best, in the pairs
    /// where each beat every other move of its throw by the recording's
    /// margin; every move of the other pairs. While no value has moved by
    /// half that margin since the recording read it, this computes what a
    /// full sweep computes, at a fraction of the memory reads.
    Policy,
}

const ALL: u8 = 0;
const RECORDING: u8 = 1;
const POLICY: u8 = 2;
/// A recorded choice: the constant (a move leaving the group) was best.
const CHOSE_CONST: u8 = u8::MAX;
/// A recorded choice: no move beat every other by the recording's margin
/// (or nothing was recorded yet), so a policy sweep reads every move.
const UNTRUSTED: u8 = u8::MAX - 1;

/// A position of the upper layer and its pass partner (same board, other
/// side to move), group-relative.
#[derive(Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable)]
#[repr(C)]
pub(crate) struct Pair {
    pub(crate) i: u32,
    pub(crate) j: u32,
}

/// Compiled rows of some position pairs, two rows per pair (`i`'s, `j`'s),
/// read in order by a sweep (a [`Cursor`]), so no offsets are stored.
/// Exactly sized: the rows are built in reused [`Rows`] and copied here.
///
/// A chunk that is not stored in memory keeps only its choices there. Its
/// rows wait in a file, read again in every sweep ([`Storage::Disk`]), or
/// it keeps its constants too (they read layers that leave memory once the
/// group is compiled) and every sweep generates its pairs, counts and
/// references again, in the same order ([`Storage::Generated`]). Either
/// way it computes exactly what a stored chunk computes.
struct Chunk {
    /// The upper-layer indices of its pairs.
    range: (u64, u64),
    storage: Storage,
    pairs: Box<[Pair]>,
    counts: Box<[u8]>,
    consts: Box<[f64]>,
    refs: Box<[u32]>,
    /// Per row and throw, the best move of the last recording sweep if it
    /// beat every other by the recording's margin: the index of a
    /// reference, or [`CHOSE_CONST`]; else [`UNTRUSTED`] (also before any).
    choices: Box<[AtomicU8]>,
}

/// How a group's compiled rows are kept.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Keep<'a> {
    /// The rows of this share of the chunks, spread evenly, in memory; the
    /// others generated again in every sweep.
    Share(f64),
    /// Rows in memory up to this many bytes (besides their choices),
    /// counted as the chunks are compiled; the others in a file in this
    /// folder, read in every sweep. `u64::MAX`: every row in memory.
    Budget(u64, &'a Path),
}

/// Where a chunk's rows are.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Storage {
    Memory,
    /// In the operator's spill file at this offset, with these lengths.
    Disk(DiskRows),
    Generated,
}

/// A chunk's rows in the spill file: pairs, constants, references and
/// counts, one after the other in the machine's byte order, so a sweep
/// reads them into an aligned buffer and uses them there, with no second
/// copy.
#[derive(Clone, Copy, Debug, PartialEq)]
struct DiskRows {
    offset: u64,
    pairs: u32,
    counts: u32,
    consts: u32,
    refs: u32,
}

impl DiskRows {
    /// Where the constants, references and counts start, and the end.
    fn parts(&self) -> [usize; 4] {
        let consts = 8 * self.pairs as usize;
        let refs = consts + 8 * self.consts as usize;
        let counts = refs + 4 * self.refs as usize;
        [consts, refs, counts, counts + self.counts as usize]
    }
}

/// Where the rows of a group kept on disk go: an unnamed file (it leaves
/// the disk when the operator is dropped, or the process ends).
struct Spill {
    file: File,
    end: AtomicU64,
    /// The first error reading or writing it; the solve reports it.
    error: Mutex<Option<String>>,
}

impl Spill {
    fn new(dir: &Path) -> std::io::Result<Spill> {
        std::fs::create_dir_all(dir)?;
        Ok(Spill { file: tempfile::tempfile_in(dir)?, end: AtomicU64::new(0), error: Mutex::new(None) })
    }

    fn fail(&self, what: &str, e: std::io::Error) {
        let mut error = self.error.lock().unwrap_or_else(|p| p.into_inner());
        error.get_or_insert_with(|| format!("cannot {what} the compiled rows kept on disk: {e}"));
    }

    /// Appends a chunk's rows; `None` (the error kept) when the write fails.
    fn write(&self, rows: &Rows, buf: &mut Vec<u8>) -> Option<DiskRows> {
        buf.clear();
        buf.extend_from_slice(rows.pairs.as_bytes());
        buf.extend_from_slice(rows.consts.as_bytes());
        buf.extend_from_slice(rows.refs.as_bytes());
        buf.extend_from_slice(&rows.counts);
        let offset = self.end.fetch_add(buf.len() as u64, Relaxed);
        let len = |n: usize| u32::try_from(n).expect("a chunk's rows are far below 4 G entries");
        let at = DiskRows {
            offset,
            pairs: len(rows.pairs.len()),
            counts: len(rows.counts.len()),
            consts: len(rows.consts.len()),
            refs: len(rows.refs.len()),
        };
        match self.file.write_all_at(buf, offset) {
            Ok(()) => {
                start_writeback(&self.file, offset, buf.len());
                Some(at)
            }
            Err(e) => {
                self.fail("write", e);
                None
            }
        }
    }

    /// Reads a chunk's rows into `buf` and views them there; `None` (the
    /// error kept) on failure.
    fn read<'a>(&self, at: &DiskRows, buf: &'a mut Vec<u64>, choices: &'a [AtomicU8]) -> Option<RowsView<'a>> {
        let [consts, refs, counts, end] = at.parts();
        buf.resize(end.div_ceil(8), 0);
        let bytes = &mut buf.as_mut_bytes()[..end];
        if let Err(e) = self.file.read_exact_at(bytes, at.offset) {
            self.fail("read", e);
            return None;
        }
        let bytes = &*bytes;
        let aligned = "the buffer is aligned for every part";
        Some(RowsView {
            pairs: <[Pair]>::ref_from_bytes(&bytes[..consts]).expect(aligned),
            consts: <[f64]>::ref_from_bytes(&bytes[consts..refs]).expect(aligned),
            refs: <[u32]>::ref_from_bytes(&bytes[refs..counts]).expect(aligned),
            counts: &bytes[counts..],
            choices,
        })
    }
}

/// Starts writing a range of the file to disk now, so written rows do not
/// pile up as dirty pages in memory (a memory-capped process could be
/// stopped for them before the kernel writes them back).
fn start_writeback(file: &File, offset: u64, len: usize) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: a plain system call on an open descriptor; it only starts writeback.
        unsafe { libc::sync_file_range(file.as_raw_fd(), offset as i64, len as i64, libc::SYNC_FILE_RANGE_WRITE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset, len);
}

/// The rows a sweep reads: a stored chunk's, one read from disk, or one
/// generated again.
struct RowsView<'a> {
    pairs: &'a [Pair],
    counts: &'a [u8],
    consts: &'a [f64],
    refs: &'a [u32],
    choices: &'a [AtomicU8],
}

/// A chunk's rows while they are compiled.
#[derive(Default)]
pub(crate) struct Rows {
    pub(crate) pairs: Vec<Pair>,
    /// Per row and throw: its number of references, with [`HAS_CONST`] set
    /// when it has a constant, or [`PASS`].
    pub(crate) counts: Vec<u8>,
    /// The constants, in row and throw order: the best value of the moves
    /// that leave the group.
    pub(crate) consts: Vec<f64>,
    /// The words of the group's [`Work`] they read: `V`, or `1 - V` when
    /// the opponent moves next.
    pub(crate) refs: Vec<u32>,
    /// The moves of the pattern block being compiled (`bits-v1`).
    moves: BlockMoves,
}

impl Rows {
    /// The bytes its rows take in memory, besides their choices.
    fn stored_bytes(&self) -> u64 {
        let n = |len: usize, size: usize| (len * size) as u64;
        n(self.pairs.len(), 8) + n(self.counts.len(), 1) + n(self.consts.len(), 8) + n(self.refs.len(), 4)
    }

    /// Appends a throw's part of a row: a pass, or the references `moves`
    /// pushes and the best constant it finds (none if it finds none).
    #[inline(always)]
    pub(crate) fn add_throw(&mut self, pass: bool, moves: impl FnOnce(&mut Rows, &mut f64)) {
        if pass {
            self.counts.push(PASS);
            return;
        }
        let (first, mut best) = (self.refs.len(), f64::NEG_INFINITY);
        moves(self, &mut best);
        let n = (self.refs.len() - first) as u8;
        debug_assert!(n < HAS_CONST, "a throw has at most 2 x 15 targets");
        if best > f64::NEG_INFINITY {
            self.consts.push(best);
            self.counts.push(n | HAS_CONST);
        } else {
            self.counts.push(n);
        }
    }

    fn clear(&mut self) {
        self.pairs.clear();
        self.counts.clear();
        self.consts.clear();
        self.refs.clear();
    }

    /// The rows, copied into exactly sized arrays, or kept as `storage`
    /// says: a generated chunk keeps its constants and choices, one on
    /// disk its choices only.
    fn to_chunk(&self, range: (u64, u64), storage: Storage) -> Chunk {
        let store = storage == Storage::Memory;
        Chunk {
            range,
            storage,
            pairs: if store { self.pairs.as_slice().into() } else { Box::default() },
            counts: if store { self.counts.as_slice().into() } else { Box::default() },
            consts: if matches!(storage, Storage::Disk(_)) { Box::default() } else { self.consts.as_slice().into() },
            refs: if store { self.refs.as_slice().into() } else { Box::default() },
            choices: (0..self.counts.len()).map(|_| AtomicU8::new(UNTRUSTED)).collect(),
        }
    }
}

/// Where a sweep is in a chunk's arrays.
#[derive(Default)]
struct Cursor {
    count: usize,
    konst: usize,
    refs: usize,
    /// In a policy sweep, the throws read in full for want of trust.
    untrusted: u64,
}

/// A layer group's compiled operator.
///
/// Sweeps visit the pairs by decreasing index: the index makes squares
/// further along the paths more significant, so positions are mostly
/// updated after the positions their moves lead to. (Ordering by the total
/// progress of both sides instead needs nearly twice the sweeps.)
pub(crate) struct Operator<'b> {
    base: u64,
    len: u64,
    probs: Vec<f64>,
    /// Chunks of pairs, by decreasing index.
    chunks: Vec<Chunk>,
    /// Generates the rows of chunks that are not stored.
    bellman: &'b Bellman<'b>,
    upper: Layer,
    /// Holds the rows of chunks kept on disk.
    spill: Option<Spill>,
    /// The group's values, which sweeps read and write.
    work: Working,
    /// See [`Operator::take_spare`].
    spare: Option<HugeArray<f32>>,
    /// See [`Operator::set_record_margin`].
    record_margin: f64,
    /// Rows times throws, and those the last policy sweep read in full.
    throws: u64,
    untrusted: AtomicU64,
}

/// A group's working values: `f32` for its first sweeps, then `f64`.
pub(crate) enum Working {
    Single(Work<Single>),
    Double(Work),
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

/// The bytes of compiled rows, by part.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RowBytes {
    /// The pairs of positions (8 bytes a pair).
    pub pairs: u64,
    /// One byte per position and throw: references and flags.
    pub counts: u64,
    /// One byte per position and throw: the recorded best move.
    pub choices: u64,
    /// The `f64` best value of the moves leaving the group.
    pub consts: u64,
    /// The `u32` references to positions inside the group.
    pub refs: u64,
}

impl RowBytes {
    pub fn total(&self) -> u64 {
        self.pairs + self.counts + self.choices + self.consts + self.refs
    }

    fn add(self, o: RowBytes) -> RowBytes {
        RowBytes {
            pairs: self.pairs + o.pairs,
            counts: self.counts + o.counts,
            choices: self.choices + o.choices,
            consts: self.consts + o.consts,
            refs: self.refs + o.refs,
        }
    }

    fn scaled(self, f: f64) -> RowBytes {
        let s = |x: u64| (x as f64 * f).round() as u64;
        RowBytes { pairs: s(self.pairs), counts: s(self.counts), choices: s(self.choices), consts: s(self.consts), refs: s(self.refs) }
    }
}

/// A group's operator, estimated before it is built by compiling evenly
/// spread chunks of it (every chunk of a small group): its bytes by part,
/// and the processor seconds compiling it takes (measured on the sample's
/// threads, so other work on the machine does not count). Moves per
/// position vary too much between rule sets for a formula.
pub(crate) fn estimated_rows(b: &Bellman, group: &[Layer]) -> (RowBytes, f64) {
    let (upper, base, len) = extent(group);
    let chunks = upper.len.div_ceil(CHUNK);
    let stride = chunks.div_ceil(SAMPLED_CHUNKS);
    let (bytes, positions, seconds) = (0..chunks)
        .into_par_iter()
        .filter(|c| c % stride == 0)
        .map_init(Rows::default, |rows, c| {
            let started = thread_cpu_seconds();
            let chunk = compile_chunk(b, &upper, chunk_range(&upper, c), (base, len), &Half, rows, Storage::Memory);
            let positions = chunk.pairs.iter().map(|p| if p.i == p.j { 1 } else { 2 }).sum::<u64>();
            (chunk.bytes(), positions, thread_cpu_seconds() - started)
        })
        .reduce(|| (RowBytes::default(), 0, 0.0), |a, b| (a.0.add(b.0), a.1 + b.1, a.2 + b.2));
    let scale = len as f64 / positions.max(1) as f64;
    (bytes.scaled(scale), seconds * scale)
}

/// Processor time of the calling thread.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write to.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The bytes a group's operator will take (see [`estimated_rows`]).
#[cfg(test)]
pub(crate) fn estimated_bytes(b: &Bellman, group: &[Layer]) -> u64 {
    estimated_rows(b, group).0.total()
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

/// The memory of a group's values, `f64` and `f32`, kept for the next
/// group's when the solve has no memory cap: mapped once with room for the
/// largest group, so each page is cleared by the kernel once in the whole
/// solve, not once a group (on Blitz's largest group, widening took 0.24 s,
/// about a sweep).
pub(crate) struct GroupMemory {
    wide: Option<HugeArray<AtomicU64>>,
    /// The `f32` values' memory, which the acceleration history held last.
    narrow: Option<HugeArray<AtomicU32>>,
    /// Positions fresh memory makes room for.
    room: u64,
}

impl GroupMemory {
    /// Keeping memory with room for `room` positions; 0: keeping none.
    pub(crate) fn new(room: u64) -> GroupMemory {
        GroupMemory { wide: None, narrow: None, room }
    }

    /// Takes a solved group's values' memory, or drops it when keeping none.
    pub(crate) fn keep(&mut self, work: Working) {
        if let (Working::Double(work), true) = (work, self.room > 0) {
            self.wide = Some(work.into_memory());
        }
    }

    /// Takes the memory the `f32` values left, or drops it when keeping none.
    pub(crate) fn keep_narrow(&mut self, words: HugeArray<f32>) {
        if self.room > 0 {
            self.narrow = Some(words.into_u32());
        }
    }
}

impl Working {
    /// Copies the values out to `values` (the group's slice).
    pub(crate) fn store(&self, values: &[AtomicU64]) {
        match self {
            Working::Single(w) => w.store(values),
            Working::Double(w) => w.store(values),
        }
    }
}

impl Chunk {
    /// The memory the chunk's rows take.
    fn bytes(&self) -> RowBytes {
        RowBytes {
            pairs: std::mem::size_of_val(&*self.pairs) as u64,
            counts: self.counts.len() as u64,
            choices: self.choices.len() as u64,
            consts: 8 * self.consts.len() as u64,
            refs: 4 * self.refs.len() as u64,
        }
    }
}

/// Whether chunk `c` is stored when a fraction `stored` of the chunks is:
/// spread evenly, so the generated ones share the work between threads.
fn is_stored(c: u64, stored: f64) -> bool {
    stored >= 1.0 || ((c + 1) as f64 * stored).floor() > (c as f64 * stored).floor()
}

impl<'b> Operator<'b> {
    /// Compiles the operator of a group whose lower layers are solved,
    /// storing every row, and starts it at the group's `values`.
    #[cfg(test)]
    pub(crate) fn build(b: &'b Bellman<'b>, group: &[Layer], values: &[AtomicU64]) -> Operator<'b> {
        let mut op = Self::build_keeping(b, group, values, Keep::Share(1.0)).expect("no file");
        op.work = Working::Double(Work::at_half(op.len).expect("memory"));
        let group = op.group_values(values);
        op.work_mut().load(group);
        op
    }

    /// The group's slice of `values`.
    pub(crate) fn group_values<'v>(&self, values: &'v [AtomicU64]) -> &'v [AtomicU64] {
        &values[self.base as usize..(self.base + self.len) as usize]
    }

    /// The group's values in `f64`, once they are ([`Operator::widen`]).
    ///
    /// # Panics
    /// While they are still in `f32`: the solver widens them before it
    /// accelerates or certifies a group.
    pub(crate) fn work_mut(&mut self) -> &mut Work {
        match &mut self.work {
            Working::Double(w) => w,
            Working::Single(_) => panic!("the group's values are used in f64 before they are widened"),
        }
    }

    /// The group's positions.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Whether the values are still in `f32`.
    pub(crate) fn is_single(&self) -> bool {
        matches!(self.work, Working::Single(_))
    }

    /// Starts position `k` (group-relative) at `v` instead of one half.
    pub(crate) fn set_start(&self, k: u64, v: f64) {
        match &self.work {
            Working::Single(w) => w.set(k, v),
            Working::Double(w) => w.set(k, v),
        }
    }

    /// The index of the group's position 0.
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// Goes on in `f64` (nothing happens if it already does), in the
    /// memory `memory` keeps if it has room.
    ///
    /// # Errors
    /// The `f64` values cannot be allocated.
    pub(crate) fn widen(&mut self, memory: &mut GroupMemory) -> std::io::Result<()> {
        if let Working::Single(narrow) = &self.work {
            let wide = Working::Double(narrow.widen(memory.wide.take(), memory.room)?);
            if let Working::Single(narrow) = std::mem::replace(&mut self.work, wide) {
                self.spare = Some(narrow.into_words());
            }
        }
        Ok(())
    }

    /// The memory of the `f32` values once they are widened (two `f32`
    /// a position), for the acceleration history: memory the kernel
    /// need not clear again.
    pub(crate) fn take_spare(&mut self) -> Option<HugeArray<f32>> {
        self.spare.take()
    }

    /// Drops the rows and hands back the group's values (in whichever
    /// precision they are).
    pub(crate) fn into_work(self) -> Working {
        self.work
    }

    /// [`Operator::build_in`], its values in fresh memory.
    #[cfg(test)]
    pub(crate) fn build_keeping(b: &'b Bellman<'b>, group: &[Layer], values: &[AtomicU64], keep: Keep) -> Result<Operator<'b>, String> {
        Self::build_in(b, group, values, keep, &mut GroupMemory::new(0))
    }

    /// Compiles the operator, keeping its rows as `keep` says, its values
    /// at one half, in the memory `memory` keeps if it has room. Same
    /// results whatever is kept where; more time for what is not in memory.
    ///
    /// # Errors
    /// The rows cannot be written to the file.
    pub(crate) fn build_in(
        b: &'b Bellman<'b>,
        group: &[Layer],
        values: &[AtomicU64],
        keep: Keep,
        memory: &mut GroupMemory,
    ) -> Result<Operator<'b>, String> {
        // Every position of the lower layer is the other side's view of one
        // in the upper layer, so the pairs of the upper layer cover both.
        let (upper, base, len) = extent(group);
        Work::check_len(len)?;
        let spill = match keep {
            Keep::Budget(budget, dir) if budget < u64::MAX => {
                Some(Spill::new(dir).map_err(|e| format!("cannot keep compiled rows in {}: {e}", dir.display()))?)
            }
            _ => None,
        };
        let used = AtomicU64::new(0);
        let chunks: Vec<Chunk> = (0..upper.len.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(
                || (Rows::default(), Vec::new()),
                |(rows, buf), c| {
                    let range = chunk_range(&upper, c);
                    compile_rows(b, &upper, range, (base, len), values, rows);
                    let storage = match (keep, &spill) {
                        (Keep::Share(stored), _) if is_stored(c, stored) => Storage::Memory,
                        (Keep::Share(_), _) => Storage::Generated,
                        (Keep::Budget(budget, _), Some(spill)) => {
                            let bytes = rows.stored_bytes();
                            if used.fetch_add(bytes, Relaxed) + bytes <= budget {
                                Storage::Memory
                            } else {
                                spill.write(rows, buf).map_or(Storage::Generated, Storage::Disk)
                            }
                        }
                        (Keep::Budget(..), None) => Storage::Memory,
                    };
                    rows.to_chunk(range, storage)
                },
            )
            .collect();
        let work = Work::at_half_in(len, memory.narrow.take(), memory.room);
        let work = Working::Single(work.map_err(|e| format!("cannot allocate the group's values: {e}"))?);
        let throws = chunks.iter().map(|c| c.choices.len() as u64).sum::<u64>();
        let probs = b.throws.iter().map(|x| x.1).collect();
        let op = Operator {
            base,
            len,
            probs,
            chunks,
            bellman: b,
            upper,
            spill,
            work,
            spare: None,
            record_margin: f64::INFINITY,
            throws,
            untrusted: AtomicU64::new(0),
        };
        op.error().map_or(Ok(op), Err)
    }

    /// The first error of the file holding the rows kept on disk.
    pub(crate) fn error(&self) -> Option<String> {
        self.spill.as_ref().and_then(|s| s.error.lock().unwrap_or_else(|p| p.into_inner()).clone())
    }

    /// Bytes of rows kept on disk, read again in every sweep.
    pub(crate) fn disk_bytes(&self) -> u64 {
        self.spill.as_ref().map_or(0, |s| s.end.load(Relaxed))
    }

    /// The memory the compiled rows take.
    pub(crate) fn bytes(&self) -> u64 {
        self.chunks.iter().map(|c| c.bytes().total()).sum()
    }

    /// `R` and `q` of the row at the cursor (see `settle_pair` in solve.rs),
    /// reading the moves `M` says (`ALL`, `RECORDING` or `POLICY`).
    #[inline]
    fn parts<const M: u8, P: Precision>(&self, work: &Work<P>, c: &RowsView, at: &mut Cursor, margin: f64) -> (f64, f64) {
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
                let choice = c.choices[k].load(Relaxed);
                if let Some(&e) = refs.get(usize::from(choice)) {
                    best = work.read(e);
                } else if choice == UNTRUSTED {
                    at.untrusted += 1;
                    best = best_of(work, refs, best);
                }
            } else if M == RECORDING {
                let (mut choice, mut second) = (CHOSE_CONST, f64::NEG_INFINITY);
                for (m, &e) in refs.iter().enumerate() {
                    let x = work.read(e);
                    choice = if x > best { m as u8 } else { choice };
                    // Branch-free: the smaller of `x` and the best so far may be the second.
                    let lower = if x > best { best } else { x };
                    second = if lower > second { lower } else { second };
                    best = if x > best { x } else { best };
                }
                let clear = best - second >= margin;
                c.choices[k].store(if clear { choice } else { UNTRUSTED }, Relaxed);
            } else {
                best = best_of(work, refs, best);
            }
            r += p * best;
        }
        (r, q)
    }

    /// One Gauss-Seidel sweep, pass partners solved together. Returns the
    /// largest change, or with [`Mode::Check`] `max |T(v) - v|` (of the
    /// policy's operator with [`Moves::Policy`] when the values moved too far).
    pub(crate) fn sweep(&self, mode: Mode, moves: Moves) -> f64 {
        self.untrusted.store(0, Relaxed);
        match &self.work {
            Working::Single(w) => self.sweep_on(w, &mode, moves),
            Working::Double(w) => self.sweep_on(w, &mode, moves),
        }
    }

    fn sweep_on<P: Precision>(&self, work: &Work<P>, mode: &Mode, moves: Moves) -> f64 {
        match moves {
            Moves::All => self.sweep_reading::<ALL, P>(work, mode),
            Moves::Recording => self.sweep_reading::<RECORDING, P>(work, mode),
            Moves::Policy => self.sweep_reading::<POLICY, P>(work, mode),
        }
    }

    /// The share of the rows' throws that the last sweep, a policy sweep,
    /// read in full because it could not trust their recorded choices.
    pub(crate) fn untrusted_share(&self) -> f64 {
        self.untrusted.load(Relaxed) as f64 / self.throws.max(1) as f64
    }

    /// The margin by which the next recording sweeps require a best move to
    /// beat the others for a policy sweep to follow it without reading them.
    pub(crate) fn set_record_margin(&mut self, margin: f64) {
        self.record_margin = margin;
    }

    fn sweep_reading<const M: u8, P: Precision>(&self, work: &Work<P>, mode: &Mode) -> f64 {
        let margin = self.record_margin;
        self.chunks
            .par_iter()
            .map_init(
                || (Rows::default(), Vec::new()),
                |(rows, buf), c| {
                    let view = match (&c.storage, &self.spill) {
                        (Storage::Memory, _) => {
                            RowsView { pairs: &c.pairs, counts: &c.counts, consts: &c.consts, refs: &c.refs, choices: &c.choices }
                        }
                        (Storage::Disk(at), Some(spill)) => match spill.read(at, buf, &c.choices) {
                            Some(view) => view,
                            // The solve stops with the error; this sweep certifies nothing.
                            None => return f64::INFINITY,
                        },
                        _ => {
                            // The constants were kept: the rows need no values.
                            let extent = (self.base, self.len);
                            compile_rows(self.bellman, &self.upper, c.range, extent, &Half, rows);
                            RowsView { pairs: &rows.pairs, counts: &rows.counts, consts: &c.consts, refs: &rows.refs, choices: &c.choices }
                        }
                    };
                    let mut at = Cursor::default();
                    let ahead = |k: usize| {
                        if let Some(p) = view.pairs.get(k + PREFETCH_PAIRS) {
                            work.words(u64::from(p.j)).iter().for_each(|w| prefetch_write(*w));
                            if let Mode::Record(steps) = mode {
                                prefetch_write(&steps[p.j as usize]);
                            }
                        }
                    };
                    let change = view
                        .pairs
                        .iter()
                        .enumerate()
                        .map(|(k, &pair)| {
                            ahead(k);
                            self.update_pair::<M, P>(work, &view, pair, &mut at, mode, margin)
                        })
                        .fold(0.0, f64::max);
                    if at.untrusted > 0 {
                        self.untrusted.fetch_add(at.untrusted, Relaxed);
                    }
                    change
                },
            )
            .reduce(|| 0.0, f64::max)
    }

    /// Updates a pair, reading its rows' moves as `M` says.
    fn update_pair<const M: u8, P: Precision>(
        &self,
        work: &Work<P>,
        c: &RowsView,
        pair: Pair,
        at: &mut Cursor,
        mode: &Mode,
        margin: f64,
    ) -> f64 {
        let (i, j) = (u64::from(pair.i), u64::from(pair.j));
        let (ri, qi) = self.parts::<M, P>(work, c, at, margin);
        let (rj, qj) = self.parts::<M, P>(work, c, at, margin);
        let (di, dj) = crate::solve::settle_pair((i, ri, qi), (j, rj, qj), work, !matches!(mode, Mode::Check));
        if let Mode::Record(steps) = mode {
            steps[pair.i as usize].store((di as f32).to_bits(), Relaxed);
            if i != j {
                steps[pair.j as usize].store((dj as f32).to_bits(), Relaxed);
            }
        }
        di.abs().max(dj.abs())
    }
}

/// The best of `best` and the values `refs` name.
#[inline(always)]
fn best_of<P: Precision>(work: &Work<P>, refs: &[u32], mut best: f64) -> f64 {
    for &e in refs {
        let x = work.read(e);
        // Not `f64::max`: no NaN handling needed, so one `maxsd`.
        best = if x > best { x } else { best };
    }
    best
}

/// How many pairs ahead a sweep asks for the pass partner's value: the
/// one value of a pair far from the rest of its reads and writes.
const PREFETCH_PAIRS: usize = 32;

/// Asks the processor to bring `x`'s cache line, to be written.
#[inline(always)]
fn prefetch_write<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_ET0 }>(std::ptr::from_ref(x).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Compiles the chunk of pairs whose upper index is in `range`, keeping
/// its rows as `storage` says.
fn compile_chunk(
    b: &Bellman,
    upper: &Layer,
    range: (u64, u64),
    extent: (u64, u64),
    values: &(impl Values + ?Sized),
    rows: &mut Rows,
    storage: Storage,
) -> Chunk {
    compile_rows(b, upper, range, extent, values, rows);
    rows.to_chunk(range, storage)
}

/// Compiles the two rows of every pair whose upper index is in `range`:
/// every position there whose pass partner is not above it.
fn compile_rows(b: &Bellman, upper: &Layer, range: (u64, u64), extent: (u64, u64), values: &(impl Values + ?Sized), chunk: &mut Rows) {
    chunk.clear();
    match b.index.bits().zip(b.masks()) {
        Some(fast) => {
            let mut moves = std::mem::take(&mut chunk.moves);
            compile_rows_by_block(b, fast, upper, range, extent, values, (chunk, &mut moves));
            chunk.moves = moves;
        }
        None => compile_rows_by_position(b, upper, range, extent, values, chunk),
    }
}

/// [`compile_rows`] a position at a time, for every index scheme.
pub(crate) fn compile_rows_by_position(
    b: &Bellman,
    upper: &Layer,
    range: (u64, u64),
    (base, len): (u64, u64),
    values: &(impl Values + ?Sized),
    chunk: &mut Rows,
) {
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
}

/// Appends one position's row.
fn compile_row(b: &Bellman, st: &State, (base, len): (u64, u64), values: &(impl Values + ?Sized), chunk: &mut Rows) {
    let in_group = |x: u64| x >= base && x < base + len;
    for (throw, _) in &b.throws {
        let dests = b.rules.destinations(st, throw);
        chunk.add_throw(dests == 0, |chunk, best| {
            for to in bits_of(dests) {
                b.for_each_target(st, throw, Move::new(to - throw.value, to), |target| match target {
                    Target::Stay(x) if in_group(x) => chunk.refs.push(Work::reference(len, x - base, false)),
                    Target::Flip(x) if in_group(x) => chunk.refs.push(Work::reference(len, x - base, true)),
                    Target::Stay(x) => *best = best.max(Values::get(values, x)),
                    Target::Flip(x) => *best = best.max(1.0 - Values::get(values, x)),
                    Target::Won => *best = best.max(1.0),
                });
            }
        });
    }
}

/// The set bits of a mask, lowest first.
#[inline(always)]
pub(crate) fn bits_of(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            bit
        })
    })
}
