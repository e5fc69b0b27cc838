//! Move generation and move application for race rule sets.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::dice::{Extra, Throw};
use crate::position::State;
use crate::rules::Rules;

/// A move of one piece from `from` to `to` on the mover's path
/// (0 = reserve, L + 1 = borne off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    /// Named pieces only: the bird's number (1..=5); 0 otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub piece: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl Move {
    pub const fn new(from: u8, to: u8) -> Move {
        Move { from, to, piece: 0 }
    }
}

/// Room for every legal move of one throw.
pub type MoveList = ArrayVec<Move, 32>;

/// What a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    pub captured: bool,
    pub landed_on_rosette: bool,
    pub borne_off: bool,
    /// The extra roll the move earned (ignoring a win).
    pub extra: Extra,
}

/// Why a move was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MoveError {
    #[error("{from}->{to} is not legal with a throw of {value}; legal moves: {legal}")]
    Illegal { from: u8, to: u8, value: u8, legal: String },
}

/// Formats moves as `0->2 4->6`, for messages.
pub fn format_moves(moves: &[Move]) -> String {
    if moves.is_empty() {
        return "none".into();
    }
    moves.iter().map(|m| format!("{}->{}", m.from, m.to)).collect::<Vec<_>>().join(" ")
}

impl Rules {
    /// The legal moves of the side to move for a throw, sorted by `from`.
    /// Empty when the throw allows no move (the turn then passes).
    ///
    /// # Examples
    /// ```
    /// use ur_rules::{Rules, Side, State, Move};
    /// let rules = Rules::builtin("finkel").unwrap();
    /// let st = State::start(&rules, Side::Light);
    /// let throw = rules.throw(2).unwrap();
    /// assert_eq!(rules.legal_moves(&st, &throw).as_slice(), &[Move::new(0, 2)]);
    /// ```
    pub fn legal_moves(&self, st: &State, throw: &Throw) -> MoveList {
        let mut out = MoveList::new();
        self.legal_moves_into(st, throw, &mut out);
        out
    }

    /// As [`Rules::legal_moves`], into a caller's list (cleared first). Named
    /// pieces on the board are listed per bird; entries are not moves there.
    #[inline]
    pub fn legal_moves_into(&self, st: &State, throw: &Throw, out: &mut MoveList) {
        out.clear();
        let v = throw.value;
        if v == 0 {
            return;
        }
        if self.named_pieces() {
            let s = st.to_move.index();
            for (i, &p) in st.birds[s][..self.pieces() as usize].iter().enumerate() {
                if p >= 1 && p <= self.path_len() && self.can_land(st, p, p + v) {
                    out.push(Move { from: p, to: p + v, piece: i as u8 + 1 });
                }
            }
            return;
        }
        let mut dests = self.destinations(st, throw);
        while dests != 0 {
            let to = dests.trailing_zeros() as u8;
            dests &= dests - 1;
            out.push(Move::new(to - v, to));
        }
    }

    /// The legal destinations (bit `to`) of the side to move for a throw;
    /// each comes from `to - value`. Not for named pieces.
    #[inline(always)]
    pub fn destinations(&self, st: &State, throw: &Throw) -> u32 {
        let (side, v) = (st.to_move, throw.value);
        if v == 0 {
            return 0;
        }
        let s = side.index();
        let entry = u32::from(st.reserve[s] > 0 && throw.enter) << v;
        ((st.mask[s] << v) | entry) & self.landings(st, throw)
    }

    /// The path positions (bit `pos`, the end of the path included) where
    /// the side to move may land a piece with this throw, whichever piece
    /// it moves: [`Rules::destinations`] are the reachable ones.
    #[inline(always)]
    pub fn landings(&self, st: &State, throw: &Throw) -> u32 {
        let side = st.to_move;
        let on_path = (2u32 << (self.path_len() + 1)) - 1;
        on_path & !st.block[side.index()] & !self.stop_block(side, throw.value)
    }

    /// Whether the side to move may move a piece from `from` to `to`, ignoring
    /// whether a piece is at `from`.
    #[inline(always)]
    pub(crate) fn can_land(&self, st: &State, from: u8, to: u8) -> bool {
        let side = st.to_move;
        let off = self.path_len() + 1;
        if to > off || self.stops_between(side, from, to) {
            return false;
        }
        st.block[side.index()] >> to & 1 == 0
    }

    /// Applies a move without checking it, and says what it did. The side to
    /// move is not changed: see [`Rules::finish_move`].
    #[inline(always)]
    pub fn apply_unchecked(&self, st: &mut State, throw: &Throw, mv: Move) -> MoveEffect {
        let side = st.to_move;
        let (s, o) = (side.index(), side.other().index());
        let mut effect = MoveEffect::default();
        if mv.from == 0 {
            st.reserve[s] -= 1;
        } else {
            st.take(self, side, mv.from);
        }
        if mv.piece != 0 {
            st.birds[s][mv.piece as usize - 1] = mv.to;
        }
        if mv.to == self.path_len() + 1 {
            st.off[s] += 1;
            effect.borne_off = true;
        } else {
            if st.occ[o] & self.exclusive_bit(side, mv.to) != 0 {
                self.capture(st, self.square(side, mv.to));
                effect.captured = true;
            }
            st.put(self, side, mv.to);
            effect.landed_on_rosette = self.is_rosette(side, mv.to);
        }
        effect.extra = throw.extra;
        if effect.landed_on_rosette {
            effect.extra = effect.extra.max(self.rosette_extra());
        }
        if effect.captured {
            effect.extra = effect.extra.max(self.capture_extra());
        }
        effect
    }

    /// Sends the opposing piece on an exclusive square back to its reserve.
    fn capture(&self, st: &mut State, sq: u8) {
        let victim = st.to_move.other();
        let v = victim.index();
        let [a, b] = self.positions_on(victim, sq);
        let pos = if a != 0 && st.count[v][a as usize] > 0 { a } else { b };
        st.take(self, victim, pos);
        st.reserve[v] += 1;
        if self.named_pieces() {
            if let Some(bird) = st.birds[v].iter_mut().find(|p| **p == pos) {
                *bird = 0;
            }
        }
    }

    /// Hands the turn on after a move: the mover keeps it on an automatic
    /// extra roll (and on an optional one, until declined); otherwise the
    /// opponent moves. Returns the winner, if the move won.
    #[inline]
    pub fn finish_move(&self, st: &mut State, effect: &MoveEffect) -> Option<crate::Side> {
        if st.off[st.to_move.index()] == self.pieces() {
            return Some(st.to_move);
        }
        if effect.extra == Extra::None {
            st.to_move = st.to_move.other();
        }
        None
    }

    /// Plays a move after checking that it is legal for the throw.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] lists the legal moves.
    pub fn play(&self, st: &mut State, throw: &Throw, mv: Move) -> Result<MoveEffect, MoveError> {
        let legal = self.legal_moves(st, throw);
        let found = legal.iter().find(|m| m.from == mv.from && m.to == mv.to && (mv.piece == 0 || m.piece == mv.piece));
        match found {
            Some(&m) => Ok(self.apply_unchecked(st, throw, m)),
            None => Err(MoveError::Illegal { from: mv.from, to: mv.to, value: throw.value, legal: format_moves(&legal) }),
        }
    }
}
