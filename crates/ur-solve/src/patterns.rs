//! Compiling `bits-v1` rows a pattern block at a time.
//!
//! The positions of a block share every piece past the start squares and
//! differ only in their start squares (up to a few hundred of them). The index
//! is `offset[pattern] + rank(mover's start) * w + rank(opponent's start)`,
//! so wherever a move leads, its index is affine in the two sides' start
//! ranks after the move, with coefficients that depend on the pattern
//! alone. Each block therefore generates and ranks each move once, at a
//! probe position with empty start squares (a *lead*), and each position
//! only tests which moves it has (bit operations on its start squares) and
//! evaluates their leads. The rows are those `compile_rows_by_position`
//! builds, in the same order (a move from the reserve or a start square
//! lands before any move of a piece past the start with the same throw),
//! which the tests check.

use ur_rules::{Extra, Move, Side, State, Throw};

use crate::bits::{BitIndex, Block, Start};
use crate::index::Layer;
use crate::masks::MaskMoves;
use crate::operator::{bits_of, Pair, Rows};
use crate::solve::{Bellman, Target, Values};
use crate::work::Work;

/// Where a move leads from a block's positions: `base + mover * (mover's
/// start rank after the move) + opponent * (opponent's start rank)`.
#[derive(Clone, Copy, Debug, Default)]
struct Lead {
    kind: Kind,
    base: u64,
    mover: u64,
    opponent: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Kind {
    #[default]
    Won,
    /// A word of the group's values (its reference, so `base` is one too).
    Word,
    /// A solved position's value, or with `true` its complement.
    Solved(bool),
}

impl Lead {
    #[inline(always)]
    fn at(&self, (mover, opponent): (u64, u64)) -> u64 {
        self.base + self.mover * mover + self.opponent * opponent
    }

    /// The lead of a target seen from a probe with empty start squares,
    /// with these coefficients when the mover keeps the move (`stay`) and
    /// when it hands it over (`flip`).
    fn of(target: Target, stay: (u64, u64), flip: (u64, u64), (base, len): (u64, u64)) -> Lead {
        let in_group = |x: u64| x >= base && x < base + len;
        let ((mover, opponent), kind, at) = match target {
            Target::Won => ((0, 0), Kind::Won, 0),
            Target::Stay(x) if in_group(x) => (stay, Kind::Word, u64::from(Work::reference(len, x - base, false))),
            Target::Flip(x) if in_group(x) => (flip, Kind::Word, u64::from(Work::reference(len, x - base, true))),
            Target::Stay(x) => (stay, Kind::Solved(false), x),
            Target::Flip(x) => (flip, Kind::Solved(true), x),
        };
        Lead { kind, base: at, mover, opponent }
    }
}

/// A block's moves for one side to move and one throw.
#[derive(Clone, Copy, Default)]
struct ThrowMoves {
    /// Where the leads of the moves of pieces past the start are in `leads`.
    past: (usize, usize),
    /// Whether a piece past the start can move.
    movable: bool,
    /// Where a piece from the reserve or a start square may land, its own
    /// start pieces aside.
    landings: u32,
}

/// The leads of a block's moves, for either side to move, reused from
/// block to block.
#[derive(Default)]
pub(crate) struct BlockMoves {
    leads: Vec<Lead>,
    /// Per side to move (the block's, then the other) and throw.
    throws: Vec<ThrowMoves>,
    /// Per side to move, throw and start square `from` (0: the reserve):
    /// where the leads of the move from there are in `leads`.
    starts: Vec<(usize, usize)>,
    /// Where the pass partner of each position is: `mover` weighs the
    /// block side's start rank, `opponent` the other's.
    partner: Lead,
}

/// Compiles the two rows of every pair whose upper index is in `range`, as
/// `compile_rows_by_position` does, a pattern block at a time.
pub(crate) fn compile_rows_by_block(
    b: &Bellman,
    (bits, masks): (&BitIndex, &MaskMoves),
    upper: &Layer,
    range: (u64, u64),
    extent: (u64, u64),
    values: &(impl Values + ?Sized),
    (chunk, moves): (&mut Rows, &mut BlockMoves),
) {
    let base = extent.0;
    let budgets = (b.index.pieces() - upper.mine, b.index.pieces() - upper.theirs);
    let local = (range.0 - upper.start, range.1 - upper.start);
    bits.for_each_block_desc(b.rules, local, budgets, Side::Light, |block| {
        moves.build(b, (bits, masks), block, upper, extent);
        for (r, (mine, theirs)) in bits.starts_desc(block) {
            let i = upper.start + block.first + r;
            let j = moves.partner.at((mine.0, theirs.0));
            if j <= i {
                chunk.pairs.push(Pair { i: (i - base) as u32, j: (j - base) as u32 });
                let reserves = (block.budgets.0 - mine.1.count_ones() as u8, block.budgets.1 - theirs.1.count_ones() as u8);
                moves.row(b, bits, 0, (mine, theirs, reserves.0), values, chunk);
                moves.row(b, bits, 1, (theirs, mine, reserves.1), values, chunk);
            }
        }
    });
}

/// A block seen by one side to move, while its leads are built.
struct View<'s> {
    side: Side,
    /// The block's pattern, this side to move, nothing in reserve.
    at: State,
    /// Pieces of the mover and of the opponent off the pattern.
    budgets: (u8, u8),
    /// The references of the block's own positions: the mover's first
    /// (kept on a start square), the opponent's complement (handed over).
    stay: u64,
    flip: u64,
    extent: (u64, u64),
    fast: (&'s BitIndex, &'s MaskMoves<'s>),
}

impl View<'_> {
    fn weight(&self, k: u8) -> u64 {
        self.fast.0.start_weight(k)
    }

    /// The coefficients of a move's leads, by whether the mover keeps the
    /// move or hands it over, when it captures or not and moves a piece
    /// from off the pattern onto it or not.
    fn coefficients(&self, to: u8, onto_pattern: bool) -> ((u64, u64), (u64, u64)) {
        let (m, o) = self.budgets;
        let captured = u8::from(self.fast.1.captures(self.side, to, self.at.occupied_positions(self.side.other())));
        ((self.weight(o + captured), 1), (1, self.weight(m - u8::from(onto_pattern))))
    }
}

impl BlockMoves {
    /// The leads of the block's moves, for either side to move.
    fn build(&mut self, b: &Bellman, fast: (&BitIndex, &MaskMoves), block: &Block, upper: &Layer, extent: (u64, u64)) {
        self.leads.clear();
        self.throws.clear();
        self.starts.clear();
        let mut pattern = block.pattern;
        pattern.set_counts(Side::Light, 0, upper.mine);
        pattern.set_counts(Side::Dark, 0, upper.theirs);
        let as_moved_by = |side: Side| {
            let mut at = pattern;
            at.set_to_move(side);
            at
        };
        let own = Side::BOTH.map(|side| b.index.rank(&as_moved_by(side)));
        self.partner = Lead { kind: Kind::Word, base: own[1], mover: 1, opponent: fast.0.start_weight(block.budgets.0) };
        for (k, side) in Side::BOTH.into_iter().enumerate() {
            let view = View {
                side,
                at: as_moved_by(side),
                budgets: if k == 0 { block.budgets } else { (block.budgets.1, block.budgets.0) },
                stay: reference(own[k], false, extent),
                flip: reference(own[1 - k], true, extent),
                extent,
                fast,
            };
            for (throw, _) in &b.throws {
                self.add_throw(b, &view, throw);
            }
        }
    }

    /// The leads of one throw's moves: from the reserve and each start
    /// square, then those of pieces past the start.
    fn add_throw(&mut self, b: &Bellman, view: &View, throw: &Throw) {
        let landings = b.rules.landings(&view.at, throw);
        for from in 0..=view.fast.0.begin() {
            let first = self.leads.len();
            let to = from + throw.value;
            if view.budgets.0 > 0 && throw.value > 0 && landings >> to & 1 == 1 && (from > 0 || throw.enter) {
                self.add_start_move(b, view, throw, (from, to));
            }
            self.starts.push((first, self.leads.len()));
        }
        let first = self.leads.len();
        let dests = b.rules.destinations(&view.at, throw) & !low_mask(view.fast.0, throw);
        for to in bits_of(dests) {
            let (stay, flip) = view.coefficients(to, false);
            b.for_each_target(&view.at, throw, Move::new(to - throw.value, to), |t| self.leads.push(Lead::of(t, stay, flip, view.extent)));
        }
        self.throws.push(ThrowMoves { past: (first, self.leads.len()), movable: dests != 0, landings });
    }

    /// The leads of a move from the reserve (`from` 0) or a start square.
    fn add_start_move(&mut self, b: &Bellman, view: &View, throw: &Throw, (from, to): (u8, u8)) {
        let (m, o) = view.budgets;
        if to <= view.fast.0.begin() {
            // Onto a start square: the same pattern, so the block's own positions.
            let stay = Lead { kind: Kind::Word, base: view.stay, mover: view.weight(o), opponent: 1 };
            let flip = Lead { kind: Kind::Word, base: view.flip, mover: 1, opponent: view.weight(m) };
            let rosette = if b.rules.is_rosette(view.side, to) { b.rules.rosette_extra() } else { Extra::None };
            match throw.extra.max(rosette) {
                Extra::Auto => self.leads.push(stay),
                Extra::None => self.leads.push(flip),
                Extra::Optional => self.leads.extend([stay, flip]),
            }
            return;
        }
        let mut probe = view.at;
        if from == 0 {
            probe.set_counts(view.side, 1, probe.off(view.side));
        } else {
            probe.add_piece(b.rules, view.side, from);
        }
        let (stay, flip) = view.coefficients(to, true);
        b.for_each_target(&probe, throw, Move::new(from, to), |t| self.leads.push(Lead::of(t, stay, flip, view.extent)));
    }

    /// Appends the row of a block position, its side to move the block's
    /// (`view` 0) or the other (`view` 1), given the mover's and the
    /// opponent's start ranks and squares and the mover's reserve.
    #[inline]
    fn row(
        &self,
        b: &Bellman,
        bits: &BitIndex,
        view: usize,
        ((rank, start), (their_rank, _), reserve): (Start, Start, u8),
        values: &(impl Values + ?Sized),
        chunk: &mut Rows,
    ) {
        let froms = usize::from(bits.begin()) + 1;
        for (t, (throw, _)) in b.throws.iter().enumerate() {
            let k = view * b.throws.len() + t;
            let moves = &self.throws[k];
            let v = throw.value;
            let dests = if v == 0 {
                0
            } else {
                let entry = u32::from(reserve > 0 && throw.enter) << v;
                ((start << v) | entry) & moves.landings & !start & low_mask(bits, throw)
            };
            chunk.add_throw(dests == 0 && !moves.movable, |chunk, best| {
                for to in bits_of(dests) {
                    let from = to - v;
                    let landed = if to <= bits.begin() { 1 << to } else { 0 };
                    let after = (bits.start_rank(start & !(1 << from) | landed), their_rank);
                    let (lo, hi) = self.starts[k * froms + usize::from(from)];
                    for lead in &self.leads[lo..hi] {
                        emit(lead, after, values, chunk, best);
                    }
                }
                for lead in &self.leads[moves.past.0..moves.past.1] {
                    emit(lead, (rank, their_rank), values, chunk, best);
                }
            });
        }
    }
}

/// Adds a lead's target to the row: a reference, or the best constant.
#[inline(always)]
fn emit(lead: &Lead, ranks: (u64, u64), values: &(impl Values + ?Sized), chunk: &mut Rows, best: &mut f64) {
    match lead.kind {
        Kind::Word => chunk.refs.push(lead.at(ranks) as u32),
        Kind::Solved(false) => *best = best.max(Values::get(values, lead.at(ranks))),
        Kind::Solved(true) => *best = best.max(1.0 - Values::get(values, lead.at(ranks))),
        Kind::Won => *best = best.max(1.0),
    }
}

/// The reference of a position of the group (its index), or of its complement.
fn reference(index: u64, complement: bool, (base, len): (u64, u64)) -> u64 {
    u64::from(Work::reference(len, index - base, complement))
}

/// The destinations a move from the reserve or a start square can reach
/// with this throw: path positions up to the last start square plus the
/// throw.
#[inline(always)]
fn low_mask(bits: &BitIndex, throw: &Throw) -> u32 {
    (2u32 << (bits.begin() + throw.value)) - 1
}

#[cfg(test)]
mod tests {
    use ur_rules::{OptionValue, Options, Rules};

    use super::*;
    use crate::index::Indexer;
    use crate::operator::compile_rows_by_position;
    use crate::solve::layer_groups;

    /// Made-up solved values, different at every index, so a constant read
    /// from the wrong position shows.
    struct Distinct;
    impl Values for Distinct {
        fn get(&self, index: u64) -> f64 {
            (index % 1009) as f64 / 1009.0
        }
    }

    /// On every built-in rule set `bits-v1` indexes at 3 pieces, and on
    /// Blitz and Masters at 4 (start squares fuller, blocks larger), every chunk of every group compiles a block at a time to the rows
    /// a position at a time gives: the same pairs, counts, constants and
    /// references, in the same order.
    #[test]
    fn rows_by_block_are_rows_by_position() {
        let mut checked = Vec::new();
        for (id, _) in ur_rules::spec::BUILTIN {
            for pieces in [3, 4].into_iter().filter(|&n| n == 3 || ["blitz", "masters"].contains(id)) {
                let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
                let Ok(rules) = Rules::builtin_with(id, &options) else { continue };
                let Ok(index) = Indexer::new(&rules) else { continue };
                let Some(bits) = index.bits() else { continue };
                let b = Bellman::new(&rules, &index);
                for group in layer_groups(&index) {
                    let upper = *group.iter().max_by_key(|l| l.start).unwrap();
                    let extent = (group.iter().map(|l| l.start).min().unwrap(), group.iter().map(|l| l.len).sum());
                    let step = 1 + upper.len / 7;
                    for lo in (upper.start..upper.start + upper.len).step_by(step as usize) {
                        let range = (lo, (lo + step).min(upper.start + upper.len));
                        let (mut by_block, mut by_position, mut moves) = (Rows::default(), Rows::default(), BlockMoves::default());
                        compile_rows_by_block(
                            &b,
                            (bits, b.masks().unwrap()),
                            &upper,
                            range,
                            extent,
                            &Distinct,
                            (&mut by_block, &mut moves),
                        );
                        compile_rows_by_position(&b, &upper, range, extent, &Distinct, &mut by_position);
                        let what = format!("{id} at {pieces} pieces, layer {upper:?}, ranks {range:?}");
                        assert_eq!(
                            by_block.pairs.iter().map(|p| (p.i, p.j)).collect::<Vec<_>>(),
                            by_position.pairs.iter().map(|p| (p.i, p.j)).collect::<Vec<_>>(),
                            "{what}"
                        );
                        assert_eq!(by_block.counts, by_position.counts, "{what}");
                        assert_eq!(by_block.refs, by_position.refs, "{what}");
                        let bits_of = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                        assert_eq!(bits_of(&by_block.consts), bits_of(&by_position.consts), "{what}");
                    }
                }
                checked.push(*id);
            }
        }
        assert!(checked.len() >= 10, "only {checked:?} use bits-v1");
    }
}
