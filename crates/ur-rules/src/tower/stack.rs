//! Squares and stacks of the tower games (docs/rules/README.md#tower-model T1,
//! docs/rules/ravensburg-1977.md#d29).
//!
//! The 20 squares are numbered for speed: 0-5 are light's private squares
//! A1-A6, 6-11 dark's B1-B6 and 12-19 the shared middle strip M1-M8. Each side
//! runs PATH-14: positions 1-4 are its A1-A4 (B1-B4), 5-12 the strip, 13 and 14
//! its goal squares A5, A6 (B5, B6).
//!
//! A stack is a `u64` of 2-bit tokens, bottom token in the low bits, plus a
//! height: the whole board is a few hundred bytes and clones without allocating.

use crate::board::{named_path, Board, Cell};
use crate::Side;

/// Number of physical squares.
pub const SQUARES: usize = 20;
/// Path length: the final goal square is position 14.
pub const FINAL: u8 = 14;
/// The refuge square next to the final square.
pub const REFUGE: u8 = 13;
/// First square of the shared strip (M1); promoted tokens never go below it.
pub const M1: u8 = 5;
/// Last square of the shared strip (M8).
pub const M8: u8 = 12;
/// Most tokens a game may have in all (2 bits each in a `u64`).
pub const MAX_TOKENS: usize = 30;

/// One token: its owner and its face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token(pub(crate) u8);

impl Token {
    pub const fn new(owner: Side, promoted: bool) -> Token {
        Token(owner as u8 | ((promoted as u8) << 1))
    }
    pub const fn owner(self) -> Side {
        if self.0 & 1 == 0 {
            Side::Light
        } else {
            Side::Dark
        }
    }
    pub const fn promoted(self) -> bool {
        self.0 & 2 != 0
    }
    /// The token's two bits, as stored in a stack.
    pub const fn bits(self) -> u64 {
        self.0 as u64
    }
    pub const fn promote(self) -> Token {
        Token(self.0 | 2)
    }
    /// The letter used in setups: `l`/`d` plain, `L`/`D` promoted.
    pub const fn letter(self) -> char {
        match self.0 {
            0 => 'l',
            1 => 'd',
            2 => 'L',
            _ => 'D',
        }
    }
    pub fn from_letter(c: char) -> Option<Token> {
        match c {
            'l' => Some(Token(0)),
            'd' => Some(Token(1)),
            'L' => Some(Token(2)),
            'D' => Some(Token(3)),
            _ => None,
        }
    }
}

/// The physical square of `side`'s path position `pos` (1..=14).
#[inline]
pub const fn square(side: Side, pos: u8) -> usize {
    let own = side as usize * 6;
    match pos {
        1..=4 => own + pos as usize - 1,
        5..=12 => 12 + pos as usize - 5,
        _ => own + pos as usize - 9,
    }
}

/// `side`'s path position of a square, if the square is on its path.
pub const fn position(side: Side, sq: usize) -> Option<u8> {
    let own = side as usize * 6;
    if sq >= 12 && sq < SQUARES {
        Some((sq - 12 + 5) as u8)
    } else if sq >= own && sq < own + 4 {
        Some((sq - own + 1) as u8)
    } else if sq >= own + 4 && sq < own + 6 {
        Some((sq - own + 9) as u8)
    } else {
        None
    }
}

/// Whether a path position is on the shared strip.
#[inline]
pub const fn shared(pos: u8) -> bool {
    pos >= M1 && pos <= M8
}

/// The booklet name of a square: A1-A6 (light), B1-B6 (dark), M1-M8.
pub fn square_name(sq: usize) -> String {
    match sq {
        0..=5 => format!("A{}", sq + 1),
        6..=11 => format!("B{}", sq - 5),
        _ => format!("M{}", sq - 11),
    }
}

/// The square with a booklet name.
pub fn square_by_name(name: &str) -> Option<usize> {
    let (letter, num) = name.split_at(1.min(name.len()));
    let n: usize = num.parse().ok()?;
    match (letter, n) {
        ("A", 1..=6) => Some(n - 1),
        ("B", 1..=6) => Some(n + 5),
        ("M", 1..=8) => Some(n + 11),
        _ => None,
    }
}

/// The grid cell of a square (§1.1; light = SOUTH, D28).
pub fn cell(sq: usize) -> Cell {
    let path = named_path("PATH-14").unwrap_or_default();
    let (side, pos) = match position(Side::Light, sq) {
        Some(p) => (Side::Light, p),
        None => (Side::Dark, position(Side::Dark, sq).unwrap_or(1)),
    };
    let c = path.get(usize::from(pos) - 1).copied().unwrap_or(Cell { row: 1, col: 0 });
    match (side, Board::named("standard")) {
        (Side::Dark, Some(b)) => b.mirror(c),
        _ => c,
    }
}

/// Every square's stack, bottom to top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stacks {
    bits: [u64; SQUARES],
    len: [u8; SQUARES],
    /// [`Stacks::digest`], kept up to date by every change: the repetition
    /// rule needs it at every turn, and searches at every step.
    digest: u64,
}

/// A square's share of [`Stacks::digest`]; an empty square's is 0.
#[inline]
fn share(sq: usize, bits: u64, len: u8) -> u64 {
    let (salt, empty) = SALTS[sq];
    mix(mix(bits ^ salt) ^ u64::from(len)) ^ empty
}

/// Per square: a constant that makes equal stacks on different squares
/// hash apart, and the hash term of an empty stack there.
const SALTS: [(u64, u64); SQUARES] = {
    let mut t = [(0, 0); SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let salt = (sq as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        t[sq] = (salt, mix(mix(salt)));
        sq += 1;
    }
    t
};

/// Bit mask of the owner bits of the lowest `n` tokens.
#[inline]
const fn owner_mask(n: u8) -> u64 {
    let all = 0x5555_5555_5555_5555u64;
    if n >= 32 {
        all
    } else {
        all & ((1u64 << (2 * n)) - 1)
    }
}

impl Stacks {
    #[inline]
    pub fn len(&self, sq: usize) -> u8 {
        self.len[sq]
    }

    #[inline]
    pub fn token(&self, sq: usize, i: u8) -> Token {
        Token(((self.bits[sq] >> (2 * i)) & 3) as u8)
    }

    #[inline]
    pub fn top(&self, sq: usize) -> Option<Token> {
        match self.len[sq] {
            0 => None,
            h => Some(self.token(sq, h - 1)),
        }
    }

    /// Who controls a square (T2): the owner of its top token.
    #[inline]
    pub fn controller(&self, sq: usize) -> Option<Side> {
        self.top(sq).map(Token::owner)
    }

    /// Tokens of `side` on a square.
    #[inline]
    pub fn count(&self, sq: usize, side: Side) -> u8 {
        let dark = (self.bits[sq] & owner_mask(self.len[sq])).count_ones() as u8;
        match side {
            Side::Dark => dark,
            Side::Light => self.len[sq] - dark,
        }
    }

    /// The load of the top token (T3): enemy tokens directly beneath it, down
    /// to the first token of its owner or the bottom.
    pub fn load(&self, sq: usize) -> u8 {
        let Some(top) = self.top(sq) else { return 0 };
        let mut n = 0;
        let mut i = self.len[sq] - 1;
        while i > 0 && self.token(sq, i - 1).owner() != top.owner() {
            n += 1;
            i -= 1;
        }
        n
    }

    /// Tokens that lie beneath no enemy token: the top run of one owner.
    pub fn free_run(&self, sq: usize) -> u8 {
        let Some(top) = self.top(sq) else { return 0 };
        let mut n = 1;
        while n < self.len[sq] && self.token(sq, self.len[sq] - 1 - n).owner() == top.owner() {
            n += 1;
        }
        n
    }

    /// Puts a token on top.
    pub fn push(&mut self, sq: usize, t: Token) {
        self.change(sq, |bits, len| {
            *bits |= u64::from(t.0) << (2 * *len);
            *len += 1;
        });
    }

    /// Lifts the top `n` tokens as a unit (bits, bottom of the unit lowest).
    pub fn take(&mut self, sq: usize, n: u8) -> (u64, u8) {
        let keep = self.len[sq] - n;
        let unit = self.bits[sq] >> (2 * keep);
        self.change(sq, |bits, len| {
            *bits &= if keep == 0 { 0 } else { (1u64 << (2 * keep)) - 1 };
            *len = keep;
        });
        (unit, n)
    }

    /// Puts a unit lifted by [`Stacks::take`] on top, order preserved.
    pub fn put(&mut self, sq: usize, (unit, n): (u64, u8)) {
        self.change(sq, |bits, len| {
            *bits |= unit << (2 * *len);
            *len += n;
        });
    }

    /// Turns the top token to its promoted face.
    pub fn promote_top(&mut self, sq: usize) {
        if self.len[sq] > 0 {
            self.change(sq, |bits, len| *bits |= 2u64 << (2 * (*len - 1)));
        }
    }

    /// Changes one stack, keeping the digest up to date.
    #[inline]
    fn change(&mut self, sq: usize, edit: impl FnOnce(&mut u64, &mut u8)) {
        let before = share(sq, self.bits[sq], self.len[sq]);
        edit(&mut self.bits[sq], &mut self.len[sq]);
        self.digest ^= before ^ share(sq, self.bits[sq], self.len[sq]);
    }

    /// Tokens of `side` that lie beneath at least one enemy token (prisoners).
    pub fn prisoners(&self, side: Side) -> u32 {
        (0..SQUARES).map(|sq| u32::from(self.count(sq, side)) - self.free_of(sq, side)).sum()
    }

    /// Tokens of `side` on a square that are not prisoners.
    fn free_of(&self, sq: usize, side: Side) -> u32 {
        match self.controller(sq) {
            Some(s) if s == side => u32::from(self.free_run(sq)),
            _ => 0,
        }
    }

    /// Per side (by [`Side::index`]): its free tokens (not prisoners), and
    /// how many of those are promoted. One pass: search leaves need both.
    pub fn free_tokens(&self) -> [(u32, u32); 2] {
        let mut out = [(0, 0); 2];
        for sq in 0..SQUARES {
            let Some(top) = self.top(sq) else { continue };
            let run = self.free_run(sq);
            let (free, promoted) = &mut out[top.owner().index()];
            *free += u32::from(run);
            *promoted += (0..run).filter(|&i| self.token(sq, self.len[sq] - 1 - i).promoted()).count() as u32;
        }
        out
    }

    /// Whether `side` controls any square.
    pub fn controls_any(&self, side: Side) -> bool {
        (0..SQUARES).any(|sq| self.controller(sq) == Some(side))
    }

    /// Tokens on the board of `side`.
    pub fn total(&self, side: Side) -> u32 {
        (0..SQUARES).map(|sq| u32::from(self.count(sq, side))).sum()
    }

    /// A 64-bit digest of every stack (for repetition counts).
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The stack as letters, bottom to top (see [`Token::letter`]).
    pub fn letters(&self, sq: usize) -> String {
        (0..self.len[sq]).map(|i| self.token(sq, i).letter()).collect()
    }
}

/// SplitMix64 finaliser.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_positions_agree() {
        for side in Side::BOTH {
            for pos in 1..=FINAL {
                assert_eq!(position(side, square(side, pos)), Some(pos));
            }
        }
        assert_eq!(square(Side::Light, 7), square(Side::Dark, 7));
        assert_ne!(square(Side::Light, 13), square(Side::Dark, 13));
        assert_eq!(position(Side::Light, square(Side::Dark, 2)), None);
        for sq in 0..SQUARES {
            assert_eq!(square_by_name(&square_name(sq)), Some(sq));
        }
    }

    #[test]
    fn cells_follow_path_14() {
        assert_eq!(cell(square(Side::Light, 1)), Cell { row: 2, col: 3 });
        assert_eq!(cell(square(Side::Dark, 14)), Cell { row: 0, col: 6 });
        assert_eq!(cell(square(Side::Light, 12)), Cell { row: 1, col: 7 });
    }

    /// The digest kept up to date by each change depends on the stacks only,
    /// not on how they came about.
    #[test]
    fn the_digest_follows_the_stacks() {
        let (a, b) = (Token::new(Side::Light, false), Token::new(Side::Dark, false));
        let mut moved = Stacks::default();
        moved.push(3, a);
        moved.push(3, b);
        let unit = moved.take(3, 1);
        moved.put(5, unit);
        moved.promote_top(5);
        let mut direct = Stacks::default();
        direct.push(3, a);
        direct.push(5, b.promote());
        assert_eq!(moved, direct);
        assert_eq!(moved.digest(), direct.digest());
        let mut back = direct;
        let unit = back.take(5, 1);
        back.take(3, 1);
        assert_eq!((back.digest(), back), (Stacks::default().digest(), Stacks::default()));
        assert_ne!(direct.digest(), Stacks::default().digest());
        let mut other = Stacks::default();
        other.push(5, a);
        other.put(3, unit);
        assert_ne!(other.digest(), direct.digest(), "the same tokens on other squares");
    }

    #[test]
    fn load_stops_at_the_first_own_token() {
        let mut s = Stacks::default();
        let (a, b) = (Token::new(Side::Light, false), Token::new(Side::Dark, false));
        for t in [b, a, b, b, a] {
            s.push(0, t);
        }
        assert_eq!(s.load(0), 2);
        assert_eq!(s.free_run(0), 1);
        assert_eq!(s.count(0, Side::Dark), 3);
        let unit = s.take(0, 3);
        assert_eq!(s.letters(0), "dl");
        s.put(1, unit);
        assert_eq!(s.letters(1), "ddl");
        assert_eq!(s.prisoners(Side::Dark), 3);
    }
}
