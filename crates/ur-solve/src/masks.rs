//! Race moves on occupancy masks, for rule sets the `bits-v1` scheme
//! indexes.
//!
//! There every square holds one piece and every path visits a square once,
//! so a position is its two occupancy masks and its borne-off counts: a
//! move clears a bit, sets one and perhaps clears the captured piece's, and
//! the successor's rank comes from the masks. That skips copying a general
//! [`State`] and [`Rules::apply_unchecked`]'s bookkeeping for every target
//! of every position a solve compiles (a third of compiling). The tests
//! check it against the general path on every such rule set.

use ur_rules::{Extra, Move, Rules, Side, State, Throw};

use crate::bits::BitIndex;
use crate::index::{Indexer, MAX_PIECES};
use crate::solve::Target;

const B: usize = MAX_PIECES + 1;

pub(crate) struct MaskMoves<'a> {
    bits: &'a BitIndex,
    /// `start[mine off][theirs off]`: the layer's first index.
    start: [[u64; B]; B],
    /// Per mover: the opponent's path position on the square of the
    /// mover's position `p` (0: the square is the mover's alone).
    opp_on: [[u8; 32]; 2],
    /// Per mover: bit `p` when position `p` is a rosette.
    rosettes: [u32; 2],
    rosette_extra: Extra,
    capture_extra: Extra,
    off_pos: u8,
    pieces: u8,
}

impl<'a> MaskMoves<'a> {
    /// The mask moves of these rules, when `index` uses `bits-v1`.
    pub(crate) fn new(rules: &Rules, index: &'a Indexer) -> Option<MaskMoves<'a>> {
        let bits = index.bits()?;
        let n = index.pieces();
        let mut start = [[0u64; B]; B];
        for (mine, row) in start.iter_mut().enumerate().take(usize::from(n)) {
            for (theirs, s) in row.iter_mut().enumerate().take(usize::from(n)) {
                *s = index.layer(mine as u8, theirs as u8).start;
            }
        }
        let mut opp_on = [[0u8; 32]; 2];
        let mut rosettes = [0u32; 2];
        for side in Side::BOTH {
            for pos in 1..=rules.path_len() {
                opp_on[side.index()][usize::from(pos)] = rules.positions_on(side.other(), rules.square(side, pos))[0];
                rosettes[side.index()] |= u32::from(rules.is_rosette(side, pos)) << pos;
            }
        }
        Some(MaskMoves {
            bits,
            start,
            opp_on,
            rosettes,
            rosette_extra: rules.rosette_extra(),
            capture_extra: rules.capture_extra(),
            off_pos: rules.path_len() + 1,
            pieces: n,
        })
    }

    /// Calls `f` with where a legal move `mv` with `throw` leads, as
    /// [`crate::Bellman::for_each_target`] does on the general path.
    #[inline(always)]
    pub(crate) fn for_each_target(&self, st: &State, throw: &Throw, mv: Move, mut f: impl FnMut(Target)) {
        let me = st.to_move();
        let s = me.index();
        let (mut mine, mut theirs) = (st.occupied_positions(me), st.occupied_positions(me.other()));
        let (mut my_off, their_off) = (st.off(me), st.off(me.other()));
        mine &= !(1u32 << mv.from) | 1;
        let mut extra = throw.extra;
        if mv.to == self.off_pos {
            my_off += 1;
            if my_off == self.pieces {
                return f(Target::Won);
            }
        } else {
            mine |= 1 << mv.to;
            let victim = self.opp_on[s][usize::from(mv.to)];
            if victim != 0 && theirs >> victim & 1 == 1 {
                theirs &= !(1 << victim);
                extra = extra.max(self.capture_extra);
            }
            if self.rosettes[s] >> mv.to & 1 == 1 {
                extra = extra.max(self.rosette_extra);
            }
        }
        let stay = || Target::Stay(self.rank(mine, theirs, my_off, their_off));
        let flip = || Target::Flip(self.rank(theirs, mine, their_off, my_off));
        match extra {
            Extra::Auto => f(stay()),
            Extra::None => f(flip()),
            Extra::Optional => {
                f(stay());
                f(flip());
            }
        }
    }

    /// Whether `side`, landing on its path position `to`, captures a piece
    /// of the opponent, whose path positions are the bits of `theirs`.
    #[inline(always)]
    pub(crate) fn captures(&self, side: Side, to: u8, theirs: u32) -> bool {
        let victim = self.opp_on[side.index()][usize::from(to) & 31];
        victim != 0 && theirs >> victim & 1 == 1
    }

    /// The index of the position with these masks and borne-off counts,
    /// seen from the side whose pieces `mine` holds.
    #[inline(always)]
    fn rank(&self, mine: u32, theirs: u32, my_off: u8, their_off: u8) -> u64 {
        let (m, o) = (self.pieces - my_off, self.pieces - their_off);
        self.start[usize::from(my_off)][usize::from(their_off)] + self.bits.rank_masks(mine, theirs, m, o)
    }
}

#[cfg(test)]
mod tests {
    use ur_rules::{OptionValue, Options};

    use super::*;
    use crate::Bellman;

    fn targets(each: impl FnOnce(&mut dyn FnMut(Target))) -> Vec<Target> {
        let mut out = Vec::new();
        each(&mut |t| out.push(t));
        out
    }

    /// On every built-in rule set `bits-v1` indexes, every legal move of
    /// every 3-piece position leads where the general path says.
    #[test]
    fn mask_moves_agree_with_the_rules() {
        let mut checked = Vec::new();
        for (id, _) in ur_rules::spec::BUILTIN {
            let options: Options = [("pieces".to_string(), OptionValue::Int(3))].into();
            let Ok(rules) = Rules::builtin_with(id, &options) else { continue };
            let Ok(index) = Indexer::new(&rules) else { continue };
            let Some(masks) = MaskMoves::new(&rules, &index) else { continue };
            let b = Bellman::new(&rules, &index);
            for (i, side) in (0..index.len()).flat_map(|i| Side::BOTH.map(|s| (i, s))) {
                let st = index.unrank(&rules, i, side);
                for (throw, _) in &b.throws {
                    for mv in rules.legal_moves(&st, throw) {
                        let fast = targets(|f| masks.for_each_target(&st, throw, mv, f));
                        let general = targets(|f| b.for_each_target_general(&st, throw, mv, f));
                        assert_eq!(fast, general, "{id}: position {i}, {side} to move, throw {throw:?}, move {mv:?}");
                    }
                }
            }
            checked.push(*id);
        }
        assert!(checked.len() >= 8, "only {checked:?} use bits-v1");
    }
}
