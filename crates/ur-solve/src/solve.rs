//! Value iteration, layer by layer, to a certified residual.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use ur_rules::{Extra, Move, Rules, State, Throw};

use crate::anderson::Anderson;
use crate::checkpoint::Checkpoints;
use crate::huge::{HugeArray, Zeroable};
use crate::index::{Indexer, Layer};
use crate::masks::MaskMoves;
use crate::operator::{GroupMemory, Keep, Mode, Moves, Operator};
use crate::plan::Layout;
use crate::SolveError;

/// Win probabilities of the side to move, by index.
pub trait Values: Sync {
    fn get(&self, index: u64) -> f64;
}

impl Values for [AtomicU64] {
    #[inline(always)]
    fn get(&self, index: u64) -> f64 {
        f64::from_bits(self[index as usize].load(Relaxed))
    }
}

impl Values for Vec<f64> {
    #[inline(always)]
    fn get(&self, index: u64) -> f64 {
        self[index as usize]
    }
}

impl Values for HugeArray<f64> {
    #[inline(always)]
    fn get(&self, index: u64) -> f64 {
        self[index as usize]
    }
}

/// The Bellman operator of a rule set: a position's value from its successors'.
pub struct Bellman<'a> {
    pub rules: &'a Rules,
    pub index: &'a Indexer,
    /// Distinct throws with their probabilities.
    pub(crate) throws: Vec<(Throw, f64)>,
    /// The fast path for `bits-v1` rule sets.
    masks: Option<MaskMoves<'a>>,
}

impl<'a> Bellman<'a> {
    pub fn new(rules: &'a Rules, index: &'a Indexer) -> Self {
        let total = f64::from(rules.dice().total_weight());
        let mut throws: Vec<(Throw, f64)> = Vec::new();
        for (t, w) in rules.throws() {
            let key = |x: &Throw| (x.value, x.extra, x.enter);
            match throws.iter_mut().find(|(x, _)| key(x) == key(&t)) {
                Some((_, p)) => *p += f64::from(w) / total,
                None => throws.push((t, f64::from(w) / total)),
            }
        }
        Bellman { rules, index, throws, masks: MaskMoves::new(rules, index) }
    }

    /// The mask moves of a `bits-v1` rule set.
    pub(crate) fn masks(&self) -> Option<&MaskMoves<'a>> {
        self.masks.as_ref()
    }

    /// The win probability of the side to move, before it rolls.
    #[inline]
    pub fn value(&self, st: &State, v: &(impl Values + ?Sized)) -> f64 {
        let (moved, pass) = self.parts(st, v);
        moved + if pass > 0.0 { pass * self.pass_value(st, v) } else { 0.0 }
    }

    /// The value split by whether the throw allows a move: the probability-
    /// weighted best values of throws with a move, and the probability of
    /// throws without one (after which the opponent moves in the same position).
    #[inline]
    pub fn parts(&self, st: &State, v: &(impl Values + ?Sized)) -> (f64, f64) {
        let (mut moved, mut pass) = (0.0, 0.0);
        for (throw, p) in &self.throws {
            let mut dests = self.rules.destinations(st, throw);
            if dests == 0 {
                pass += p;
                continue;
            }
            let mut best = 0.0f64;
            while dests != 0 {
                let to = dests.trailing_zeros() as u8;
                dests &= dests - 1;
                best = best.max(self.after_move(st, throw, Move::new(to - throw.value, to), v));
            }
            moved += p * best;
        }
        (moved, pass)
    }

    /// The mover's win probability after playing `mv` with `throw`.
    #[inline]
    pub fn after_move(&self, st: &State, throw: &Throw, mv: Move, v: &(impl Values + ?Sized)) -> f64 {
        self.after_move_target(st, throw, mv, v).0
    }

    /// As [`Bellman::after_move`], also naming the position the value comes from.
    #[inline]
    pub(crate) fn after_move_target(&self, st: &State, throw: &Throw, mv: Move, v: &(impl Values + ?Sized)) -> (f64, Target) {
        let value = |t: Target| match t {
            Target::Won => 1.0,
            Target::Stay(i) => v.get(i),
            Target::Flip(i) => 1.0 - v.get(i),
        };
        let mut best: Option<(f64, Target)> = None;
        self.for_each_target(st, throw, mv, |t| {
            let x = value(t);
            if best.is_none_or(|(b, _)| x > b) {
                best = Some((x, t));
            }
        });
        best.expect("a move leads somewhere")
    }

    /// Calls `f` with where a move can lead: one position, or two when the
    /// mover may take an optional extra roll (stay) or end the turn (flip).
    /// (A callback, not a returned array: the compiler then keeps the
    /// targets in registers, which made compiling a third faster.)
    #[inline(always)]
    pub(crate) fn for_each_target(&self, st: &State, throw: &Throw, mv: Move, f: impl FnMut(Target)) {
        match &self.masks {
            Some(m) => m.for_each_target(st, throw, mv, f),
            None => self.for_each_target_general(st, throw, mv, f),
        }
    }

    /// [`Bellman::for_each_target`] through the rules' own move application.
    #[inline(always)]
    pub(crate) fn for_each_target_general(&self, st: &State, throw: &Throw, mv: Move, mut f: impl FnMut(Target)) {
        let me = st.to_move();
        let mut next = *st;
        let effect = self.rules.apply_unchecked(&mut next, throw, mv);
        if next.off(me) == self.rules.pieces() {
            return f(Target::Won);
        }
        let stay = |next: &State| Target::Stay(self.index.rank(next));
        let flip = |next: &mut State| {
            next.set_to_move(me.other());
            Target::Flip(self.index.rank(next))
        };
        match effect.extra {
            Extra::Auto => f(stay(&next)),
            Extra::None => f(flip(&mut next)),
            Extra::Optional => {
                f(stay(&next));
                f(flip(&mut next));
            }
        }
    }

    /// The value of handing the turn to the opponent in this position.
    #[inline]
    fn pass_value(&self, st: &State, v: &(impl Values + ?Sized)) -> f64 {
        let mut other = *st;
        other.set_to_move(st.to_move().other());
        1.0 - v.get(self.index.rank(&other))
    }

    /// Every legal move for a throw with the mover's win probability after it.
    pub fn move_values(&self, st: &State, throw: &Throw, v: &(impl Values + ?Sized)) -> Vec<(Move, f64)> {
        self.rules.legal_moves(st, throw).iter().map(|&m| (m, self.after_move(st, throw, m, v))).collect()
    }
}

/// Where a move's value comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Target {
    Won,
    /// `V[i]`: the mover moves again.
    Stay(u64),
    /// `1 - V[i]`: the opponent moves.
    Flip(u64),
}

/// Solver settings.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Stop when `max |T(v) - v|` over a layer pair is at most this.
    pub tolerance: f64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Directory for per-layer checkpoints; a rerun resumes from it.
    pub checkpoint: Option<PathBuf>,
    /// Which share of each group's compiled rows to store (from
    /// [`crate::Plan::layout_under`] for a memory cap); none: all of them.
    /// The values are the same whatever is stored.
    pub layout: Option<crate::plan::Layout>,
    /// Sweep each group on `f32` values until no value changes by more
    /// than 1e-3, then go on in `f64` (the default: those sweeps read half
    /// the bytes); false: `f64` throughout. The fixed point, and so the
    /// table, is the same either way to within the tolerance.
    pub f32_first: bool,
    /// Start each position where both sides still have a piece to enter at
    /// the value of the race with one piece fewer a side, solved before it
    /// (the default: fewer sweeps); false: every position at one half. The
    /// table is the same either way to within the tolerance.
    pub start_from_fewer: bool,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig { tolerance: 1e-12, threads: 0, checkpoint: None, layout: None, f32_first: true, start_from_fewer: true }
    }
}

impl SolveConfig {
    /// Whether the solve keeps to a planned peak (a layout under a cap),
    /// so memory freed between groups goes back to the system at once.
    fn plans_memory(&self) -> bool {
        self.layout.is_some()
    }
}

/// Receives progress reports; every method has an empty default.
pub trait Progress: Sync {
    /// A group of layers solved together starts; `done` positions are solved already.
    fn layers_started(&self, _layers: &[Layer], _done: u64, _total: u64) {}
    /// The group's operator is compiled and takes this many bytes of memory.
    fn compiled(&self, _layers: &[Layer], _bytes: u64) {}
    /// This many bytes of the group's rows wait on disk, read in every sweep.
    fn rows_on_disk(&self, _layers: &[Layer], _bytes: u64) {}
    /// A sweep over the group ended with this largest change.
    fn sweep(&self, _layers: &[Layer], _sweep: u32, _change: f64) {}
    /// The group was loaded from a checkpoint instead of solved.
    fn layers_resumed(&self, _layers: &[Layer]) {}
}

/// Reports nothing.
pub struct Silent;
impl Progress for Silent {}

/// A finished solve.
pub struct Solution {
    pub values: HugeArray<f64>,
    /// The largest certified `max |T(v) - v|` over all layers.
    pub residual: f64,
    /// Sweeps made, over all layers.
    pub sweeps: u64,
}

impl Values for Solution {
    fn get(&self, index: u64) -> f64 {
        self.values[index as usize]
    }
}

/// Bytes of memory a solve needs at its peak: the values of the layers in
/// memory (every layer, or with `spill` only those later groups still read,
/// the others being kept in checkpoint files) plus the compiled operator and
/// acceleration history of the group being solved; at the end, the
/// solution's values and the encoded table (`table_width` bytes a position).
pub fn memory_needed(rules: &Rules, index: &Indexer, spill: bool, table_width: u64) -> u64 {
    crate::plan::plan(rules, index, spill, table_width).peak()
}

/// Solves every position of a race rule set.
///
/// # Errors
/// Memory that cannot be mapped; a checkpoint that cannot be read or written.
pub fn solve(rules: &Rules, index: &Indexer, cfg: &SolveConfig, progress: &dyn Progress) -> Result<Solution, SolveError> {
    solve_kept(rules, index, cfg, progress)?.into_solution(index)
}

/// Solves as [`solve`] does, leaving the values where the solve kept them:
/// with checkpoints, most layers only in their files. [`Solved::write_table`]
/// then writes the table layer by layer, so the end of the solve needs no
/// more memory than its groups did.
///
/// # Errors
/// As [`solve`].
pub fn solve_kept(rules: &Rules, index: &Indexer, cfg: &SolveConfig, progress: &dyn Progress) -> Result<Solved, SolveError> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(cfg.threads).build().map_err(|e| SolveError::Io(e.to_string()))?;
    pool.install(|| solve_in_pool(rules, index, cfg, progress))
}

fn solve_in_pool(rules: &Rules, index: &Indexer, cfg: &SolveConfig, progress: &dyn Progress) -> Result<Solved, SolveError> {
    let mut values = huge::<AtomicU64>(index.len(), "the values")?;
    let checkpoints = cfg.checkpoint.as_deref().map(|dir| Checkpoints { dir });
    let bellman = Bellman::new(rules, index);
    let groups = layer_groups(index);
    let releases = crate::checkpoint::releases(index, &groups);
    let disk = cfg.checkpoint.clone().unwrap_or_else(std::env::temp_dir);
    let (mut residual, mut sweeps, mut done) = (0.0f64, 0u64, 0u64);
    let _kept = (!cfg.plans_memory()).then(crate::huge::keep_freed_memory);
    // Without a cap, the groups' values reuse the mappings of the group before.
    let largest = groups.iter().map(|g| g.iter().map(|l| l.len).sum::<u64>()).max().unwrap_or(0);
    let mut memory = GroupMemory::new(if cfg.plans_memory() { 0 } else { largest });
    // The layers that left memory so far.
    let mut gone: Vec<Layer> = Vec::new();
    for (g, (group, released)) in groups.iter().zip(&releases).enumerate() {
        progress.layers_started(group, done, index.len());
        let resumed = checkpoints.as_ref().map(|c| c.load(group, &values)).transpose()? == Some(true);
        let keep = match &cfg.layout {
            Some(Layout { memory_rows: Some(budget), .. }) => Keep::Budget(budget.get(g).copied().unwrap_or(u64::MAX), &disk),
            Some(l) => Keep::Share(<[f64]>::get(&l.stored, g).copied().unwrap_or(1.0)),
            None => Keep::Share(1.0),
        };
        let op = (!resumed).then(|| compile_group(&bellman, group, &values, keep, &mut memory)).transpose()?;
        if let Some(op) = op.as_ref().filter(|_| cfg.start_from_fewer) {
            let solved = crate::start::Solved { values: &values, released: &gone, checkpoints: checkpoints.as_ref() };
            crate::start::start_from_fewer(op, rules, index, group, &solved)?;
        }
        if checkpoints.is_some() {
            // No later group reads them, and this one is compiled.
            release(&mut values, released);
            gone.extend(released);
        }
        match op {
            None => progress.layers_resumed(group),
            Some(mut op) => {
                progress.compiled(group, op.bytes());
                if op.disk_bytes() > 0 {
                    progress.rows_on_disk(group, op.disk_bytes());
                }
                let (r, s) = solve_group(&mut op, group, cfg, &mut memory, progress)?;
                let group_values = op.group_values(&values);
                // The rows go first: the values are copied out at the group's smallest.
                let work = op.into_work();
                return_freed_memory(cfg);
                work.store(group_values);
                memory.keep(work);
                return_freed_memory(cfg);
                residual = residual.max(r);
                sweeps += u64::from(s);
                if let Some(c) = &checkpoints {
                    c.save(group, &values)?;
                }
            }
        }
        done += group.iter().map(|l| l.len).sum::<u64>();
    }
    let released = if checkpoints.is_some() { releases.into_iter().flatten().collect() } else { Vec::new() };
    Ok(Solved { values, released, checkpoint: cfg.checkpoint.clone(), residual, sweeps })
}

/// Hands freed memory back to the system between groups when the solve
/// plans its memory: the next group's peak is planned without it.
/// Otherwise the allocator keeps it for the next group's rows
/// ([`crate::huge::keep_freed_memory`]).
fn return_freed_memory(cfg: &SolveConfig) {
    if cfg.plans_memory() {
        crate::huge::return_freed_memory();
    }
}

/// A finished solve whose values are where the solve left them: the layers
/// still in memory there, the others in their checkpoint files.
pub struct Solved {
    values: HugeArray<AtomicU64>,
    /// Layers read from the checkpoint folder, not from memory.
    released: Vec<Layer>,
    checkpoint: Option<PathBuf>,
    /// The largest certified `max |T(v) - v|` over all layers.
    pub residual: f64,
    /// Sweeps made, over all layers.
    pub sweeps: u64,
}

/// Positions a table is written in at a time from [`Solved`].
pub(crate) const WRITE_BLOCK: usize = 1 << 20;

impl Solved {
    fn checkpoints(&self) -> Option<Checkpoints<'_>> {
        self.checkpoint.as_deref().map(|dir| Checkpoints { dir })
    }

    /// The value at index `i`.
    ///
    /// # Errors
    /// `i` is past the index, or its checkpoint file cannot be read.
    pub fn value(&self, index: &Indexer, i: u64) -> Result<f64, SolveError> {
        if i >= index.len() {
            return Err(SolveError::Io(format!("no position {i}: the table has {}", index.len())));
        }
        match (self.released.iter().find(|l| l.range().contains(&(i as usize))), self.checkpoints()) {
            (Some(l), Some(c)) => c.read_one(l, i - l.start),
            _ => Ok(Values::get(&*self.values, i)),
        }
    }

    /// Calls `f` with every value, in index order, a block at a time.
    ///
    /// # Errors
    /// A checkpoint cannot be read, or `f` fails.
    pub fn for_each_block(&self, index: &Indexer, f: &mut dyn FnMut(&[f64]) -> Result<(), SolveError>) -> Result<(), SolveError> {
        let mut block = Vec::with_capacity(WRITE_BLOCK);
        for l in index.layers() {
            match (self.released.contains(l), self.checkpoints()) {
                (true, Some(c)) => c.read_blocks(l, WRITE_BLOCK, f)?,
                _ => {
                    for part in self.values[l.range()].chunks(WRITE_BLOCK) {
                        block.clear();
                        block.extend(part.iter().map(|v| f64::from_bits(v.load(Relaxed))));
                        f(&block)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Writes the table atomically, layer by layer.
    ///
    /// # Errors
    /// A checkpoint cannot be read, or the table cannot be written.
    pub fn write_table(
        &self,
        path: &std::path::Path,
        rules: &Rules,
        index: &Indexer,
        encoding: crate::Encoding,
        tolerance: f64,
    ) -> Result<(), SolveError> {
        let blocks = |f: &mut dyn FnMut(&[f64]) -> Result<(), SolveError>| self.for_each_block(index, f);
        crate::table::write_table_from(path, rules, index, &blocks, encoding, self.residual, tolerance)
    }

    /// Every value in memory.
    ///
    /// # Errors
    /// A checkpoint cannot be read.
    pub fn into_solution(self, index: &Indexer) -> Result<Solution, SolveError> {
        let values = match self.checkpoints() {
            Some(c) if !self.released.is_empty() => gather(index, &self.values, &self.released, &c)?,
            _ => self.values.into_f64(),
        };
        Ok(Solution { values, residual: self.residual, sweeps: self.sweeps })
    }
}

fn huge<T: Zeroable>(len: u64, what: &str) -> Result<HugeArray<T>, SolveError> {
    HugeArray::zeroed(len as usize).map_err(|e| SolveError::Io(format!("cannot allocate {what}: {e}")))
}

/// Compiles the group's operator, keeping its rows as `keep` says; its
/// values start at one half.
fn compile_group<'b>(
    b: &'b Bellman<'b>,
    group: &[Layer],
    values: &[AtomicU64],
    keep: Keep,
    memory: &mut GroupMemory,
) -> Result<Operator<'b>, SolveError> {
    Operator::build_in(b, group, values, keep, memory).map_err(SolveError::Io)
}

fn release(values: &mut HugeArray<AtomicU64>, layers: &[Layer]) {
    for l in layers {
        values.release(l.range());
    }
}

/// Every value: the released layers from their checkpoints, the others from memory.
fn gather(index: &Indexer, values: &[AtomicU64], released: &[Layer], c: &Checkpoints) -> Result<HugeArray<f64>, SolveError> {
    let mut out = huge::<f64>(index.len(), "the solution")?;
    for l in index.layers() {
        let range = l.range();
        if released.contains(l) {
            c.read_into(l, &mut out[range])?;
        } else {
            out[range.clone()].par_iter_mut().zip(&values[range]).for_each(|(o, v)| *o = f64::from_bits(v.load(Relaxed)));
        }
    }
    Ok(out)
}

/// Layers that depend on each other: `(a, b)` and `(b, a)`.
pub(crate) fn layer_groups(index: &Indexer) -> Vec<Vec<Layer>> {
    let mut groups: Vec<Vec<Layer>> = Vec::new();
    for &l in index.layers() {
        if l.mine > l.theirs {
            continue;
        }
        let mut g = vec![l];
        if l.mine != l.theirs {
            g.push(index.layer(l.theirs, l.mine));
        }
        groups.push(g);
    }
    groups
}

/// Sweeps the group's operator (Gauss-Seidel, accelerated once the change
/// is small) until a sweep that computes the full operator changes no value
/// by more than `tol`. Returns the certified residual and the sweeps made.
///
/// The first sweeps, until the change is below [`ACCELERATE_BELOW`], run
/// on `f32` values (with `cfg.f32_first`); they never certify a group.
///
/// Then a recording sweep reads every move and notes, per throw, the best
/// one if it beat the others by a margin ([`RECORD_MARGIN`] times the last
/// change). The sweeps after it read only the noted moves, and every move
/// of the other throws ([`Moves::Policy`]), while the margin exceeds twice how far any value
/// may have moved since the recording read it (the `drift`: every sweep's
/// change and every acceleration step, added up). The noted move is then
/// still the unique best, so such a sweep computes what a full sweep
/// computes, bit for bit, as long as its own change stays within what it
/// counted on (`allowance`); and any sweep that does can end the group. Its
/// change bounds `max |T(v) - v|` of the values it leaves (see
/// [`residual_bound`]), so no checking sweep is needed.
fn solve_group(
    op: &mut Operator,
    group: &[Layer],
    cfg: &SolveConfig,
    memory: &mut GroupMemory,
    progress: &dyn Progress,
) -> Result<(f64, u32), SolveError> {
    let (len, tol) = (op.len(), cfg.tolerance);
    let widen = |op: &mut Operator, memory: &mut GroupMemory| {
        op.widen(memory).map_err(|e| SolveError::Io(format!("cannot allocate the group's values: {e}")))?;
        return_freed_memory(cfg);
        Ok(())
    };
    if !cfg.f32_first {
        widen(op, memory)?;
    }
    let mut accel: Option<Anderson> = None;
    let mut sweep = 0;
    let mut moves = Moves::All;
    // How far the values may have moved since the last recording sweep
    // read them, the margin it recorded by, and the change of the sweep before.
    let (mut drift, mut margin, mut last) = (f64::INFINITY, 0.0, f64::INFINITY);
    loop {
        sweep += 1;
        // A policy sweep reads values it changes itself; it counts on
        // changing none by more than the sweep before did, and is exact
        // (a full sweep's values bit for bit) only if that holds.
        let allowance = last;
        if moves == Moves::Policy && 2.0 * (drift + allowance) >= margin {
            moves = Moves::Recording;
        }
        if moves == Moves::Recording {
            margin = RECORD_MARGIN * last;
            op.set_record_margin(margin);
        }
        let change = match &accel {
            Some(a) => op.sweep(Mode::Record(a.record()), moves),
            None => op.sweep(Mode::Write, moves),
        };
        if let Some(e) = op.error() {
            return Err(SolveError::Io(e));
        }
        progress.sweep(group, sweep, change);
        let exact = moves != Moves::Policy || change <= allowance;
        if op.is_single() {
            if let Some(a) = accel.as_mut() {
                a.after_single_sweep();
            }
            // An f32 sweep certifies nothing; the group goes on in f64 before it is accelerated.
            if change < ACCELERATE_BELOW || residual_bound(change) <= tol {
                widen(op, memory)?;
                accelerate_widened(&mut accel, op)?;
                moves = Moves::Recording;
            } else if accel.is_none() && change < RECORD_STEPS_BELOW {
                accel = Some(history(len)?);
            }
        } else if exact && residual_bound(change) <= tol {
            if let Some(a) = accel {
                memory.keep_narrow(a.into_differences());
            }
            return Ok((residual_bound(change), sweep));
        } else if let Some(a) = accel.as_mut() {
            let moved = a.after_sweep(op.work_mut()) + ROUNDING;
            drift = if moves == Moves::Recording { 0.0 } else { drift } + change + moved;
            moves = next_moves(moves, drift, change, op.untrusted_share());
        } else if change < ACCELERATE_BELOW {
            accelerate_widened(&mut accel, op)?;
            moves = Moves::Recording;
        }
        last = change;
    }
}

/// The acceleration's history for a group of `len` positions.
fn history(len: u64) -> Result<Anderson, SolveError> {
    Anderson::new(len as usize).map_err(history_error)
}

/// Hands the acceleration the widened values' spare memory, starting the
/// history first if the `f32` sweeps did not.
fn accelerate_widened(accel: &mut Option<Anderson>, op: &mut Operator) -> Result<(), SolveError> {
    let a = match accel {
        Some(a) => a,
        None => accel.insert(history(op.len())?),
    };
    a.widened(op.take_spare()).map_err(history_error)
}

fn history_error(e: std::io::Error) -> SolveError {
    SolveError::Io(format!("cannot allocate the acceleration history: {e}"))
}

/// What the sweep after an accelerated one reads, given what that one read,
/// how far the values moved since the policy was recorded, the last change,
/// and the share of the throws a policy sweep read in full.
fn next_moves(last: Moves, drift: f64, change: f64, untrusted: f64) -> Moves {
    match last {
        // The policy is recorded before it is followed.
        Moves::All => Moves::Recording,
        // Recording again pays when many pairs are read in full for want of
        // a margin, and a new recording (by a smaller one) would spare more.
        Moves::Policy if untrusted > RECORD_ABOVE && drift > RECORD_DRIFT * change => Moves::Recording,
        _ => Moves::Policy,
    }
}

/// The margin a recording sweep requires of a best move, as a multiple of
/// the change of the sweep before it. The values then move by about that
/// change in all (the changes shrink geometrically), well within half the
/// margin.
const RECORD_MARGIN: f64 = 4.0;

/// The share of untrusted throws above which a policy is recorded anew.
const RECORD_ABOVE: f64 = 0.05;

/// How much further the values must have moved since the recording than
/// in the last sweep before the policy is recorded anew.
const RECORD_DRIFT: f64 = 8.0;

/// What rounding may add to how far one sweep moves a value read as
/// `1 - V` (values are at most one).
const ROUNDING: f64 = 4.0 * f64::EPSILON;

/// A bound on `max |T(v) - v|` after a sweep that changed no value by more
/// than `change`. A pair's update solves its two equations exactly with the
/// values it read, so `T(v)` differs from `v` at a position only through
/// the values it read that changed later in the sweep (or concurrently), by
/// at most `change` each; `T` weighs them by probabilities summing to at
/// most one, and takes maxima, so the difference is at most `change`. The
/// small constant covers the rounding of the pair's update.
fn residual_bound(change: f64) -> f64 {
    change + 8.0 * f64::EPSILON
}

/// The change below which sweeps are accelerated: by then the best moves
/// have settled and the sweeps act as a linear map.
const ACCELERATE_BELOW: f64 = 1e-3;

/// The change below which the `f32` sweeps record their steps, so the
/// acceleration need not wait for as many `f64` sweeps.
const RECORD_STEPS_BELOW: f64 = 1e-2;

/// One uncompiled pass over a layer, highest index first, updating each
/// position together with its pass partner. With `write` false nothing
/// changes and the result is `max |T(v) - v|`. The solver sweeps the
/// compiled [`Operator`] instead; this checks it.
#[cfg(test)]
pub(crate) fn sweep_pairs(b: &Bellman, layer: &Layer, values: &[AtomicU64], write: bool) -> f64 {
    use ur_rules::Side;
    const CHUNK: u64 = 1 << 12;
    let chunks = layer.len.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let hi = layer.start + layer.len - c * CHUNK;
            let lo = hi.saturating_sub(CHUNK).max(layer.start);
            let mut change = 0.0f64;
            b.index.for_each_desc(b.rules, layer, (lo, hi), Side::Light, |i, st| {
                let mut flipped = st;
                flipped.set_to_move(Side::Dark);
                let j = b.index.rank(&flipped);
                if j <= i {
                    let (ri, qi) = b.parts(&st, values);
                    let (rj, qj) = b.parts(&flipped, values);
                    let (di, dj) = settle_pair((i, ri, qi), (j, rj, qj), values, write);
                    change = change.max(di.abs()).max(dj.abs());
                }
            });
            change
        })
        .reduce(|| 0.0, f64::max)
}

/// Solves position `i` and its pass partner `j` (same board, other side to
/// move) exactly against each other: with `V_i = R_i + q_i (1 - V_j)` and
/// `V_j = R_j + q_j (1 - V_i)`, where `R` is the value of throws that allow a
/// move and `q` the chance of a throw that does not. This removes the slow
/// two-cycles of passing back and forth. Returns the signed changes of `i`
/// and `j` (0 for `j` when it is `i`); with `write` false, `T(v) - v` of
/// each, and nothing is stored.
/// (Always inlined: as a call it cost about 8 % of a sweep.)
#[inline(always)]
pub(crate) fn settle_pair(
    (i, ri, qi): (u64, f64, f64),
    (j, rj, qj): (u64, f64, f64),
    values: &(impl PairValues + ?Sized),
    write: bool,
) -> (f64, f64) {
    if !write {
        let change_i = ri + qi * values.complement(j) - values.value(i);
        return if i == j { (change_i, 0.0) } else { (change_i, rj + qj * values.complement(i) - values.value(j)) };
    }
    if i == j {
        return (values.replace(i, (ri + qi) / (1.0 + qi)), 0.0);
    }
    let vi = (ri + qi - qi * rj - qi * qj) / (1.0 - qi * qj);
    (values.replace(i, vi), values.replace(j, rj + qj * (1.0 - vi)))
}

/// Where a pair's update reads and writes its two values.
pub(crate) trait PairValues {
    fn value(&self, k: u64) -> f64;
    /// `1 - V`, rounded once.
    fn complement(&self, k: u64) -> f64;
    /// Sets `k` to `v`; returns `v` minus the old value.
    fn replace(&self, k: u64, v: f64) -> f64;
}

impl PairValues for [AtomicU64] {
    fn value(&self, k: u64) -> f64 {
        Values::get(self, k)
    }

    fn complement(&self, k: u64) -> f64 {
        1.0 - Values::get(self, k)
    }

    fn replace(&self, k: u64, v: f64) -> f64 {
        // A load and a store, not `swap`: only this sweep's owner of the pair
        // writes `k`, and `swap` (a locked exchange) fences the loads after it.
        let old = f64::from_bits(self[k as usize].load(Relaxed));
        self[k as usize].store(v.to_bits(), Relaxed);
        v - old
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use ur_rules::{OptionValue, Options};

    use super::*;

    fn atomics(v: &[f64]) -> Vec<AtomicU64> {
        v.iter().map(|x| AtomicU64::new(x.to_bits())).collect()
    }

    /// The solver's residual bounds the residual a checking sweep measures
    /// on its values, on every group, with one thread and with two.
    #[test]
    fn residual_bound_holds() {
        for (id, pieces) in [("finkel", 3), ("blitz", 3), ("masters", 2), ("aseb", 2), ("regency-bell", 2)] {
            let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
            let rules = Rules::builtin_with(id, &options).unwrap();
            let index = Indexer::new(&rules).unwrap();
            for threads in [1, 2] {
                let cfg = SolveConfig { threads, ..SolveConfig::default() };
                let sol = solve(&rules, &index, &cfg, &Silent).unwrap();
                let values = atomics(&sol.values);
                let b = Bellman::new(&rules, &index);
                let measured = layer_groups(&index)
                    .iter()
                    .map(|g| sweep_pairs(&b, g.iter().max_by_key(|l| l.start).unwrap(), &values, false).abs())
                    .fold(0.0, f64::max);
                assert!(
                    measured <= sol.residual && sol.residual <= cfg.tolerance,
                    "{id} {threads}: measured {measured}, bound {}",
                    sol.residual
                );
            }
        }
    }

    /// The policy is recorded when acceleration starts, followed after, and
    /// recorded anew only when many pairs are read in full and the values
    /// have moved far more since the recording than in the last sweep.
    #[test]
    fn sweeps_record_the_policy_again_when_it_pays() {
        assert_eq!(next_moves(Moves::All, 1e-3, 1e-3, 0.0), Moves::Recording);
        assert_eq!(next_moves(Moves::Recording, 1e-4, 1e-4, 0.5), Moves::Policy);
        assert_eq!(next_moves(Moves::Policy, 1e-4, 1e-6, 0.01), Moves::Policy);
        assert_eq!(next_moves(Moves::Policy, 1e-4, 5e-5, 0.5), Moves::Policy);
        assert_eq!(next_moves(Moves::Policy, 1e-4, 1e-6, 0.5), Moves::Recording);
    }

    /// A policy sweep reads the moves the last recording sweep found best in
    /// the pairs where they beat the others by its margin: on values moved
    /// since by less than half that margin, it computes exactly what a sweep
    /// over every move computes.
    #[test]
    fn policy_sweep_follows_the_recorded_best_moves() {
        for id in ["finkel", "blitz", "masters", "regency-bell"] {
            let options: Options = [("pieces".to_string(), OptionValue::Int(2))].into();
            let rules = Rules::builtin_with(id, &options).unwrap();
            let index = Indexer::new(&rules).unwrap();
            let b = Bellman::new(&rules, &index);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
            let values = atomics(&(0..index.len()).map(|_| rng.gen()).collect::<Vec<f64>>());
            // By drift, the shares of throws read in full, summed over groups.
            let mut untrusted = [0.0; 5];
            for group in layer_groups(&index) {
                for (d, drift) in [0.0, 1e-9, 1e-5, 1e-2, 0.1].into_iter().enumerate() {
                    let mut op = Operator::build(&b, &group, &values);
                    op.set_record_margin(2.0 * drift + 1e-15);
                    let full = op.sweep(Mode::Check, Moves::Recording);
                    assert_eq!(op.sweep(Mode::Check, Moves::Policy), full, "{id}");
                    untrusted[d] += op.untrusted_share();
                    assert_eq!(op.sweep(Mode::Check, Moves::All), full, "{id}");
                    let moved: Vec<f64> = op.group_values(&values).iter().map(|v| f64::from_bits(v.load(Relaxed))).collect();
                    let moved = atomics(&moved.iter().map(|v| v + drift * rng.gen_range(-1.0..=1.0)).collect::<Vec<f64>>());
                    op.work_mut().load(&moved);
                    let full = op.sweep(Mode::Check, Moves::All);
                    assert_eq!(op.sweep(Mode::Check, Moves::Policy), full, "{id} {drift}");
                }
            }
            // A larger margin trusts fewer throws, and the smallest trusts most.
            assert!(untrusted.windows(2).all(|w| w[0] <= w[1]) && untrusted[0] < untrusted[4], "{id} {untrusted:?}");
            assert!(untrusted[0] < 0.1 * layer_groups(&index).len() as f64, "{id} {untrusted:?}");
            let sol = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
            assert!(sol.residual <= 1e-12, "{id}");
        }
    }

    /// One written sweep of the compiled operator stores exactly what the
    /// uncompiled Bellman sweep stores, group after group, from random values.
    #[test]
    fn compiled_operator_equals_bellman_sweep() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        for id in ["finkel", "masters", "blitz", "aseb", "ludens-planet", "walker-cyningstan", "v1-simple", "regency-bell"] {
            let options: Options = [("pieces".to_string(), OptionValue::Int(2))].into();
            let rules = Rules::builtin_with(id, &options).unwrap();
            let index = Indexer::new(&rules).unwrap();
            let b = Bellman::new(&rules, &index);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            let start: Vec<f64> = (0..index.len()).map(|_| rng.gen()).collect();
            let (compiled, plain) = (atomics(&start), atomics(&start));
            pool.install(|| {
                for group in layer_groups(&index) {
                    let upper = *group.iter().max_by_key(|l| l.start).unwrap();
                    let mut op = Operator::build(&b, &group, &compiled);
                    assert_eq!(op.sweep(Mode::Check, Moves::All), sweep_pairs(&b, &upper, &plain, false), "{id} residual");
                    assert_eq!(op.sweep(Mode::Write, Moves::All), sweep_pairs(&b, &upper, &plain, true), "{id} change");
                    let values = op.group_values(&compiled);
                    op.work_mut().store(values);
                }
            });
            let bits = |v: &[AtomicU64]| v.iter().map(|a| a.load(Relaxed)).collect::<Vec<_>>();
            assert_eq!(bits(&compiled), bits(&plain), "{id}");
        }
    }

    /// The operator size estimated from a sample of chunks is close to the
    /// size of the built operator, and exact where every chunk is sampled.
    #[test]
    fn operator_size_estimate_is_close() {
        for (id, pieces) in [("finkel", 4), ("v1-simple", 4), ("masters", 3)] {
            let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
            let rules = Rules::builtin_with(id, &options).unwrap();
            let index = Indexer::new(&rules).unwrap();
            let b = Bellman::new(&rules, &index);
            let values = atomics(&vec![0.5; index.len() as usize]);
            let mut sampled = false;
            for group in layer_groups(&index) {
                let (built, estimate) = (Operator::build(&b, &group, &values).bytes(), crate::operator::estimated_bytes(&b, &group));
                let error = (estimate as f64 / built as f64 - 1.0).abs();
                assert!(error < 0.03, "{id} {pieces} {group:?}: built {built} bytes, estimated {estimate}");
                sampled |= estimate != built;
            }
            assert!(sampled, "{id} {pieces}: some group is large enough to be sampled");
        }
    }
}
