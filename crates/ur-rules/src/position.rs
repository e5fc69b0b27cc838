//! Positions: an unchecked [`Setup`] and a validated, compact [`State`].

use serde::{Deserialize, Serialize};

use crate::rules::{Rules, MAX_PATH};
use crate::spec::SquareKind;
use crate::Side;

/// One side of an unchecked position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSetup {
    /// Pieces not yet entered (or captured).
    pub reserve: u8,
    /// Pieces borne off.
    pub off: u8,
    /// Path positions (1..=L) of the pieces on the board, one entry per piece.
    #[serde(default)]
    pub path: Vec<u8>,
    /// Named pieces only: the position of each bird by number (0 reserve, L + 1 off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birds: Option<Vec<u8>>,
}

/// An unchecked position, as read from outside. [`Rules::validate`] turns it into a [`State`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub to_move: Side,
    pub light: SideSetup,
    pub dark: SideSetup,
}

/// Why a [`Setup`] is not a legal position.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PositionError {
    #[error("{side}: reserve {reserve} + off {off} + {on_board} on the board = {total}, but the rules give {pieces} pieces")]
    PieceCount { side: Side, reserve: u8, off: u8, on_board: usize, total: usize, pieces: u8 },
    #[error("{side}: path position {pos} is not on the board (use 1..={len}; 0 is the reserve, count it in 'reserve')")]
    OffPath { side: Side, pos: u8, len: u8 },
    #[error("square {square} holds {count} pieces but takes only one")]
    Crowded { square: String, count: u8 },
    #[error("{side}: birds must list {pieces} positions (0 reserve, 1..={len} board, {off} off) agreeing with reserve, off and path")]
    Birds { side: Side, pieces: u8, len: u8, off: u8 },
    #[error("both sides have borne off every piece")]
    BothWon,
}

/// A validated position: pieces per path position for each side, and the side to move.
///
/// Comparable and hashable; copying it is cheap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) to_move: Side,
    pub(crate) reserve: [u8; 2],
    pub(crate) off: [u8; 2],
    /// Bit `pos`: the side has a piece there.
    pub(crate) mask: [u32; 2],
    /// Bit `square`: the side has a piece on this exclusive square.
    pub(crate) occ: [u64; 2],
    /// Bit `pos`: the side may not land on this position of its path.
    pub(crate) block: [u32; 2],
    pub(crate) count: [[u8; 32]; 2],
    /// Named pieces: position of bird `i + 1` (0 reserve, L + 1 off).
    pub(crate) birds: [[u8; 5]; 2],
}

impl State {
    /// The start position: every piece in reserve.
    pub fn start(rules: &Rules, first: Side) -> State {
        let n = rules.pieces();
        let mut st = State::empty(first);
        st.reserve = [n, n];
        st
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn set_to_move(&mut self, side: Side) {
        self.to_move = side;
    }
    pub fn reserve(&self, side: Side) -> u8 {
        self.reserve[side.index()]
    }
    pub fn off(&self, side: Side) -> u8 {
        self.off[side.index()]
    }
    /// Pieces of `side` at path position `pos` (1..=L).
    pub fn count_at(&self, side: Side, pos: u8) -> u8 {
        self.count[side.index()][pos as usize]
    }
    /// Bit set of the side's occupied path positions (bit `pos`).
    pub fn occupied_positions(&self, side: Side) -> u32 {
        self.mask[side.index()]
    }
    /// Path positions of the side's pieces on the board, one entry per piece, ascending.
    pub fn path_positions(&self, side: Side) -> Vec<u8> {
        let s = side.index();
        (1..=MAX_PATH as u8).flat_map(|p| std::iter::repeat_n(p, self.count[s][p as usize] as usize)).collect()
    }
    /// Named pieces: the position of each bird (0 reserve, L + 1 off).
    /// Empty for rules without named pieces.
    pub fn birds(&self, side: Side, rules: &Rules) -> Vec<u8> {
        if !rules.named_pieces() {
            return Vec::new();
        }
        (1..=rules.pieces()).map(|b| self.bird(side, b)).collect()
    }
    /// Named pieces: the position of bird `number` (1..=5; 0 reserve, L + 1
    /// off), without allocating. Meaningless for rules without named pieces
    /// or numbers past their piece count.
    ///
    /// # Panics
    /// `number` outside 1..=5.
    pub fn bird(&self, side: Side, number: u8) -> u8 {
        self.birds[side.index()][usize::from(number) - 1]
    }
    /// The winner, if a side has borne off every piece.
    pub fn winner(&self, rules: &Rules) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| self.off(*s) == rules.pieces())
    }

    /// The unchecked form of this position.
    pub fn to_setup(&self, rules: &Rules) -> Setup {
        let side = |s: Side| SideSetup {
            reserve: self.reserve(s),
            off: self.off(s),
            path: self.path_positions(s),
            birds: rules.named_pieces().then(|| self.birds(s, rules)),
        };
        Setup { to_move: self.to_move, light: side(Side::Light), dark: side(Side::Dark) }
    }

    /// A position with no pieces anywhere, for builders such as a solver's
    /// index; fill it with [`State::add_piece`] and [`State::set_counts`].
    pub fn empty(to_move: Side) -> State {
        State { to_move, reserve: [0, 0], off: [0, 0], mask: [0, 0], occ: [0, 0], block: [0, 0], count: [[0; 32]; 2], birds: [[0; 5]; 2] }
    }

    /// Adds a piece at `pos` (1..=L) without checking that it fits there.
    pub fn add_piece(&mut self, rules: &Rules, side: Side, pos: u8) {
        self.put(rules, side, pos);
    }

    /// Sets a side's reserve and borne-off counts without checks.
    pub fn set_counts(&mut self, side: Side, reserve: u8, off: u8) {
        self.reserve[side.index()] = reserve;
        self.off[side.index()] = off;
    }

    /// Puts a piece on `pos` (1..=L) without any checks.
    pub(crate) fn put(&mut self, rules: &Rules, side: Side, pos: u8) {
        let s = side.index();
        self.count[s][pos as usize & 31] += 1;
        self.mask[s] |= 1 << pos;
        self.occ[s] |= rules.exclusive_bit(side, pos);
        self.block[s] |= rules.own_block(side, pos);
        self.block[1 - s] |= rules.opp_block(side, pos);
    }

    /// Takes a piece from `pos` (1..=L) without any checks.
    pub(crate) fn take(&mut self, rules: &Rules, side: Side, pos: u8) {
        let s = side.index();
        let c = &mut self.count[s][pos as usize & 31];
        *c -= 1;
        if *c == 0 {
            self.mask[s] &= !(1 << pos);
            self.occ[s] &= !rules.exclusive_bit(side, pos);
            self.block[s] &= !rules.own_block(side, pos);
            self.block[1 - s] &= !rules.opp_block(side, pos);
        }
    }
}

impl Rules {
    /// Checks an unchecked position against these rules.
    ///
    /// # Errors
    /// A piece count that does not add up, a position off the path, two
    /// pieces on a one-piece square, or bird positions that disagree.
    pub fn validate(&self, setup: &Setup) -> Result<State, PositionError> {
        let mut st = State::start(self, setup.to_move);
        for (side, ss) in [(Side::Light, &setup.light), (Side::Dark, &setup.dark)] {
            self.place_side(&mut st, side, ss)?;
        }
        let mut per_square = vec![0u8; self.squares().len()];
        for side in Side::BOTH {
            for pos in 1..=self.path_len() {
                per_square[self.square(side, pos) as usize] += st.count_at(side, pos);
            }
        }
        for (sq, &count) in per_square.iter().enumerate() {
            if count > 1 && self.is_exclusive(sq as u8) {
                let square = crate::race::text::cell_name(self, self.squares()[sq]);
                return Err(PositionError::Crowded { square, count });
            }
        }
        if st.winner(self).is_some() && st.off == [self.pieces(); 2] {
            return Err(PositionError::BothWon);
        }
        Ok(st)
    }

    fn place_side(&self, st: &mut State, side: Side, ss: &SideSetup) -> Result<(), PositionError> {
        let (len, pieces) = (self.path_len(), self.pieces());
        let total = usize::from(ss.reserve) + usize::from(ss.off) + ss.path.len();
        if total != usize::from(pieces) {
            return Err(PositionError::PieceCount { side, reserve: ss.reserve, off: ss.off, on_board: ss.path.len(), total, pieces });
        }
        for &pos in &ss.path {
            if pos == 0 || pos > len {
                return Err(PositionError::OffPath { side, pos, len });
            }
            if self.kind(side, pos) != SquareKind::Shared && st.count_at(side, pos) > 0 {
                let square = crate::race::text::cell_name(self, self.cell(side, pos));
                return Err(PositionError::Crowded { square, count: 2 });
            }
            st.put(self, side, pos);
        }
        st.reserve[side.index()] = ss.reserve;
        st.off[side.index()] = ss.off;
        if self.named_pieces() {
            self.place_birds(st, side, ss)?;
        }
        Ok(())
    }

    fn place_birds(&self, st: &mut State, side: Side, ss: &SideSetup) -> Result<(), PositionError> {
        let (len, pieces) = (self.path_len(), self.pieces());
        let err = PositionError::Birds { side, pieces, len, off: len + 1 };
        let birds = match &ss.birds {
            Some(b) => b.clone(),
            // Default: lowest-numbered birds on the board, ascending, then off, then reserve.
            None => {
                let mut b = ss.path.clone();
                b.sort_unstable();
                b.extend(std::iter::repeat_n(len + 1, ss.off as usize));
                b.extend(std::iter::repeat_n(0, ss.reserve as usize));
                b
            }
        };
        if birds.len() != usize::from(pieces) || birds.iter().any(|&p| p > len + 1) {
            return Err(err);
        }
        let mut on_board: Vec<u8> = birds.iter().copied().filter(|&p| p >= 1 && p <= len).collect();
        let mut path = ss.path.clone();
        on_board.sort_unstable();
        path.sort_unstable();
        let off = birds.iter().filter(|&&p| p == len + 1).count();
        if on_board != path || off != usize::from(ss.off) {
            return Err(err);
        }
        st.birds[side.index()][..birds.len()].copy_from_slice(&birds);
        Ok(())
    }
}
