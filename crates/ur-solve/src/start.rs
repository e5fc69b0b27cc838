//! Where a group's sweeps start: from the race with one piece fewer a side.
//!
//! A position of layer `(a, b)` where both sides still have a piece to
//! enter is, but for those two pieces, a position of layer `(a + 1, b + 1)`,
//! solved before it. That value is a close guess (the start of Finkel is
//! worth 51.62 % with 3 pieces and 51.54 % with 7), so those positions start
//! there instead of at one half, and the group needs fewer sweeps. The
//! others start at one half. Only the start changes, not the fixed point.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use ur_rules::{Rules, Side, State};

use crate::checkpoint::Checkpoints;
use crate::index::{Indexer, Layer};
use crate::operator::Operator;
use crate::SolveError;

/// Where the solved layers are: in memory, or in their checkpoint files
/// once they left it.
pub(crate) struct Solved<'a> {
    pub(crate) values: &'a [AtomicU64],
    pub(crate) released: &'a [Layer],
    pub(crate) checkpoints: Option<&'a Checkpoints<'a>>,
}

/// Positions read from a checkpoint file at a time.
const BLOCK: usize = 1 << 20;

/// Positions a thread takes at a time.
const CHUNK: u64 = 1 << 12;

/// Starts every position of the group where both sides have a piece to
/// enter at the value of the same race with one piece fewer a side.
///
/// # Errors
/// A checkpoint file cannot be read.
pub(crate) fn start_from_fewer(op: &Operator, rules: &Rules, index: &Indexer, group: &[Layer], solved: &Solved) -> Result<(), SolveError> {
    for l in group.iter().filter(|l| l.mine.max(l.theirs) + 1 < index.pieces()) {
        let from = index.layer(l.mine + 1, l.theirs + 1);
        match solved.checkpoints.filter(|_| solved.released.contains(&from)) {
            Some(c) => {
                let mut lo = from.start;
                c.read_blocks(&from, BLOCK, &mut |block| {
                    let hi = lo + block.len() as u64;
                    start_range(op, rules, index, &from, (lo, hi), |j| block[(j - lo) as usize]);
                    lo += block.len() as u64;
                    Ok(())
                })?;
            }
            None => {
                let all = (from.start, from.start + from.len);
                start_range(op, rules, index, &from, all, |j| f64::from_bits(solved.values[j as usize].load(Relaxed)));
            }
        }
    }
    Ok(())
}

/// Starts, for each position `j` of `from` in `lo..hi`, the same position
/// with one more piece to enter a side at `value(j)`.
fn start_range(op: &Operator, rules: &Rules, index: &Indexer, from: &Layer, (lo, hi): (u64, u64), value: impl Fn(u64) -> f64 + Sync) {
    (0..(hi - lo).div_ceil(CHUNK)).into_par_iter().for_each(|c| {
        let a = lo + c * CHUNK;
        index.for_each_desc(rules, from, (a, hi.min(a + CHUNK)), Side::Light, |j, st| {
            op.set_start(index.rank(&with_one_more_each(&st)) - op.base(), value(j));
        });
    });
}

/// The same position with one more piece to enter a side, and one fewer
/// borne off.
fn with_one_more_each(st: &State) -> State {
    let mut more = *st;
    for side in [Side::Light, Side::Dark] {
        more.set_counts(side, st.reserve(side) + 1, st.off(side) - 1);
    }
    more
}

#[cfg(test)]
mod tests {
    use ur_rules::{OptionValue, Options};

    use super::*;
    use crate::operator::Keep;
    use crate::{solve, Bellman, Silent, SolveConfig};

    /// Every position of Finkel 3's largest group where both sides have a
    /// piece to enter starts at the solved value of the race with one piece
    /// fewer a side; every other at one half.
    #[test]
    fn positions_start_from_the_race_with_one_piece_fewer_a_side() {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(3))].into();
        let rules = Rules::builtin_with("finkel", &opts).unwrap();
        let index = Indexer::new(&rules).unwrap();
        let solution = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
        let values: Vec<AtomicU64> = solution.values.iter().map(|v| AtomicU64::new(v.to_bits())).collect();
        let bellman = Bellman::new(&rules, &index);
        let group = [index.layer(0, 0)];
        let op = Operator::build_keeping(&bellman, &group, &values, Keep::Share(1.0)).unwrap();
        start_from_fewer(&op, &rules, &index, &group, &Solved { values: &values, released: &[], checkpoints: None }).unwrap();
        let starts: Vec<AtomicU64> = (0..group[0].len).map(|_| AtomicU64::new(0)).collect();
        op.into_work().store(&starts);
        let mut from_fewer = 0;
        for (k, start) in starts.iter().enumerate() {
            let st = index.unrank(&rules, group[0].start + k as u64, Side::Light);
            let start = f64::from_bits(start.load(Relaxed));
            if st.reserve(Side::Light) > 0 && st.reserve(Side::Dark) > 0 {
                let mut fewer = st;
                for side in [Side::Light, Side::Dark] {
                    fewer.set_counts(side, st.reserve(side) - 1, 1);
                }
                assert_eq!(with_one_more_each(&fewer), st);
                // The group starts in `f32`.
                assert_eq!(start, f64::from(solution.values[index.rank(&fewer) as usize] as f32), "{k}");
                from_fewer += 1;
            } else {
                assert_eq!(start, 0.5, "{k}");
            }
        }
        assert_eq!(from_fewer, index.layer(1, 1).len);
    }
}
