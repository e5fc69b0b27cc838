//! Compiling `bits-v1` rows a pattern block at a time.
//!
//! The positions of a block share every piece past the start squares and
//! differ only in their start squares (up to a few hundred of them). A move
//! of a piece past the start is legal for all of them or none, and leads,
//! from each, to an index affine in the two sides' start ranks (the index
//! is `offset[pattern] + rank(my start) * w + rank(their start)`). So each
//! such move is generated and ranked once per block, at three probe
//! positions, and each position only evaluates its affine form; the moves
//! from the start squares and from the reserve are generated per position
//! as before. The rows are those [`compile_row`](crate::operator) builds,
//! in the same order (a start move lands before any move past the start
//! with the same throw), which the tests check.

use ur_rules::{Move, Side, State, Throw};

use crate::bits::{BitIndex, Block};
use crate::index::Layer;
use crate::operator::{Pair, Rows, HAS_CONST, PASS};
use crate::solve::{Bellman, Target, Values};
use crate::work::Work;

/// Where a move past the start squares leads from a block's positions:
/// `base + mover * (mover's start rank) + opponent * (opponent's start rank)`.
#[derive(Clone, Copy, Debug)]
struct Lead {
    kind: Kind,
    base: u64,
    mover: u64,
    opponent: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
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
}

/// The leads of a block's moves past the start, per side to move and
/// throw, reused from block to block.
#[derive(Default)]
pub(crate) struct BlockMoves {
    leads: Vec<Lead>,
    /// Per side to move (the block's, then the other) and throw: where its
    /// leads end in `leads`, and whether a piece past the start can move.
    ends: Vec<(usize, bool)>,
}

/// Compiles the two rows of every pair whose upper index is in `range`, as
/// `compile_rows` does, a pattern block at a time.
pub(crate) fn compile_rows_by_block(
    b: &Bellman,
    bits: &BitIndex,
    upper: &Layer,
    range: (u64, u64),
    extent: (u64, u64),
    values: &(impl Values + ?Sized),
    (chunk, moves): (&mut Rows, &mut BlockMoves),
) {
    let (base, _) = extent;
    let budgets = (b.index.pieces() - upper.mine, b.index.pieces() - upper.theirs);
    let local = (range.0 - upper.start, range.1 - upper.start);
    bits.for_each_block_desc(b.rules, local, budgets, Side::Light, |block| {
        moves.build(b, bits, block, upper, extent);
        for r in (block.ranks.0..block.ranks.1).rev() {
            let ((my_rank, my_start), (their_rank, their_start)) = bits.starts(block, r);
            let mut st = block.pattern;
            for (side, mut start) in [(Side::Light, my_start), (Side::Dark, their_start)] {
                while start != 0 {
                    st.add_piece(b.rules, side, start.trailing_zeros() as u8);
                    start &= start - 1;
                }
            }
            st.set_counts(Side::Light, block.budgets.0 - my_start.count_ones() as u8, upper.mine);
            st.set_counts(Side::Dark, block.budgets.1 - their_start.count_ones() as u8, upper.theirs);
            let i = upper.start + block.first + r;
            let mut flipped = st;
            flipped.set_to_move(Side::Dark);
            let j = b.index.rank(&flipped);
            if j <= i {
                chunk.pairs.push(Pair { i: (i - base) as u32, j: (j - base) as u32 });
                moves.row(b, bits, &st, 0, (my_rank, their_rank), extent, values, chunk);
                moves.row(b, bits, &flipped, 1, (their_rank, my_rank), extent, values, chunk);
            }
        }
    });
}

impl BlockMoves {
    /// The leads of the block's moves past the start, for either side to move.
    fn build(&mut self, b: &Bellman, bits: &BitIndex, block: &Block, upper: &Layer, extent: (u64, u64)) {
        self.leads.clear();
        self.ends.clear();
        let start_of = |side: Side| {
            let mut probe = block.pattern;
            probe.add_piece(b.rules, side, 1);
            probe
        };
        for side in Side::BOTH {
            let mut pattern = block.pattern;
            pattern.set_counts(Side::Light, 0, upper.mine);
            pattern.set_counts(Side::Dark, 0, upper.theirs);
            pattern.set_to_move(side);
            let mut mover = start_of(side);
            let mut opponent = start_of(side.other());
            for p in [&mut mover, &mut opponent] {
                p.set_counts(Side::Light, 0, upper.mine);
                p.set_counts(Side::Dark, 0, upper.theirs);
                p.set_to_move(side);
            }
            for (throw, _) in &b.throws {
                let mut dests = b.rules.destinations(&pattern, throw) & !low_mask(bits, throw);
                let movable = dests != 0;
                while dests != 0 {
                    let to = dests.trailing_zeros() as u8;
                    dests &= dests - 1;
                    let mv = Move::new(to - throw.value, to);
                    let [at0, at_mover, at_opponent] = [&pattern, &mover, &opponent].map(|p| targets(b, p, throw, mv));
                    for k in 0..at0.len {
                        self.leads.push(lead(at0.of[k], at_mover.of[k], at_opponent.of[k], extent));
                    }
                }
                self.ends.push((self.leads.len(), movable));
            }
        }
    }

    /// Appends the row of position `st`, whose side to move is the block's
    /// (`view` 0) or the other (`view` 1), with these start ranks (the
    /// mover's, the opponent's).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn row(
        &self,
        b: &Bellman,
        bits: &BitIndex,
        st: &State,
        view: usize,
        ranks: (u64, u64),
        (base, len): (u64, u64),
        values: &(impl Values + ?Sized),
        chunk: &mut Rows,
    ) {
        let in_group = |x: u64| x >= base && x < base + len;
        let throws = b.throws.len();
        for (t, (throw, _)) in b.throws.iter().enumerate() {
            let k = view * throws + t;
            let (end, movable) = self.ends[k];
            let begin = if k == 0 { 0 } else { self.ends[k - 1].0 };
            let mut dests = b.rules.destinations(st, throw) & low_mask(bits, throw);
            if dests == 0 && !movable {
                chunk.counts.push(PASS);
                continue;
            }
            let first = chunk.refs.len();
            let mut best = f64::NEG_INFINITY;
            while dests != 0 {
                let to = dests.trailing_zeros() as u8;
                dests &= dests - 1;
                b.for_each_target(st, throw, Move::new(to - throw.value, to), |target| match target {
                    Target::Stay(x) if in_group(x) => chunk.refs.push(Work::reference(len, x - base, false)),
                    Target::Flip(x) if in_group(x) => chunk.refs.push(Work::reference(len, x - base, true)),
                    Target::Stay(x) => best = best.max(Values::get(values, x)),
                    Target::Flip(x) => best = best.max(1.0 - Values::get(values, x)),
                    Target::Won => best = best.max(1.0),
                });
            }
            for lead in &self.leads[begin..end] {
                match lead.kind {
                    Kind::Word => chunk.refs.push(lead.at(ranks) as u32),
                    Kind::Solved(false) => best = best.max(Values::get(values, lead.at(ranks))),
                    Kind::Solved(true) => best = best.max(1.0 - Values::get(values, lead.at(ranks))),
                    Kind::Won => best = best.max(1.0),
                }
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
}

/// The destinations a move from the reserve or a start square can reach
/// with this throw: path positions up to the last start square plus the
/// throw.
#[inline(always)]
fn low_mask(bits: &BitIndex, throw: &Throw) -> u32 {
    (2u32 << (bits.begin() + throw.value)) - 1
}

/// Up to two targets of one move.
#[derive(Clone, Copy)]
struct Targets {
    of: [Target; 2],
    len: usize,
}

fn targets(b: &Bellman, st: &State, throw: &Throw, mv: Move) -> Targets {
    let mut out = Targets { of: [Target::Won; 2], len: 0 };
    b.for_each_target(st, throw, mv, |t| {
        out.of[out.len] = t;
        out.len += 1;
    });
    out
}

/// The lead of a target seen from the block's probe positions: no start
/// pieces, one mover's piece on the first start square (start rank 1), one
/// opponent's there.
fn lead(at0: Target, at_mover: Target, at_opponent: Target, (base, len): (u64, u64)) -> Lead {
    let index = |t: Target| match t {
        Target::Stay(x) | Target::Flip(x) => x,
        Target::Won => 0,
    };
    let (x0, xm, xo) = (index(at0), index(at_mover), index(at_opponent));
    let (mover, opponent) = (xm.wrapping_sub(x0), xo.wrapping_sub(x0));
    let in_group = x0 >= base && x0 < base + len;
    let (kind, base) = match at0 {
        Target::Won => (Kind::Won, 0),
        Target::Stay(_) if in_group => (Kind::Word, u64::from(Work::reference(len, x0 - base, false))),
        Target::Flip(_) if in_group => (Kind::Word, u64::from(Work::reference(len, x0 - base, true))),
        Target::Stay(_) => (Kind::Solved(false), x0),
        Target::Flip(_) => (Kind::Solved(true), x0),
    };
    Lead { kind, base, mover, opponent }
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
                        compile_rows_by_block(&b, bits, &upper, range, extent, &Distinct, (&mut by_block, &mut moves));
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
