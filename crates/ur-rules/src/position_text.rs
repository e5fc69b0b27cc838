//! Position strings: a short, typeable form of a position for every rule
//! family, like chess's FEN (the grammar is in `docs/positions.md`).
//!
//! A string holds what the family's position ([`Playable::position`]) holds,
//! the side to move, and the throw being decided when the game waits for a
//! decision after a roll that setting up the position and throwing again
//! would reproduce. It is read under given rules: it names no rule set.
//! Only letters, digits and `- . , : /` appear, so it needs no quoting in a
//! shell or a URL.
//!
//! ```
//! use ur_rules::{AnyGame, Options, Side};
//! let mut game = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
//! game.set_position_string("d:469.1,2d/2").unwrap();
//! assert_eq!(game.position_string(), "d:469.1,2d/2");
//! assert!(game.set_position_string("d:469.1,2d,").is_err());
//! ```

mod marker;
mod race;
mod tower;

use serde_json::Value;

use crate::any::AnyGame;
use crate::play::{PlayError, Playable, Turn};
use crate::Side;

/// The longest string read: far longer than any position needs, short
/// enough that a hostile one costs nothing.
pub const MAX_LEN: usize = 256;

/// Why a position string does not read, and where (`at` counts characters
/// from 1; 0 when the string as a whole is at fault).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("position string '{text}': {}{what}", at_text(*at))]
pub struct PositionTextError {
    /// The string as given (cut short when very long).
    pub text: String,
    pub at: usize,
    pub what: String,
}

fn at_text(at: usize) -> String {
    if at == 0 {
        String::new()
    } else {
        format!("at character {at}: ")
    }
}

impl From<PositionTextError> for PlayError {
    fn from(e: PositionTextError) -> PlayError {
        PlayError::BadPosition(e.to_string())
    }
}

/// A position string read under a game's rules: the family's position as
/// JSON ([`Playable::position`] of [`AnyGame`]) and the throw being decided.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionText {
    pub position: Value,
    /// The raw throw of the side to move, if the string holds one.
    pub throw: Option<u8>,
}

/// Reads `text` as a position under `game`'s rules and options, checking it
/// is legal (and that its throw leads to a decision). Never panics; `game`
/// is not changed.
///
/// # Errors
/// A string that is malformed (saying what and at which character) or a
/// position the rules do not allow.
pub fn parse(game: &AnyGame, text: &str) -> Result<PositionText, PositionTextError> {
    parse_and_set(game, text).map(|(parsed, _)| parsed)
}

/// The position string of `game` (see the module docs).
pub fn write(game: &AnyGame) -> String {
    let mut out = match game {
        AnyGame::Race(g) => race::write(g.rules(), &g.position()),
        AnyGame::Tower(g) => tower::write(&g.position()),
        AnyGame::Bens(g) => marker::write_bens(&g.position()),
        AnyGame::Akalandung(g) => marker::write_akalandung(&g.position()),
    };
    if let Some(raw) = pending_throw(game) {
        out += &format!("/{raw}");
    }
    out
}

/// Parses and sets up a copy of the game there.
fn parse_and_set(game: &AnyGame, text: &str) -> Result<(PositionText, AnyGame), PositionTextError> {
    let mut cur = Cursor::new(text)?;
    let to_move = cur.turn()?;
    let position = match game {
        AnyGame::Race(g) => json(race::parse(g.rules(), to_move, &mut cur)?),
        AnyGame::Tower(g) => json(tower::parse(g.rules().tokens, to_move, &mut cur)?),
        AnyGame::Bens(_) => json(marker::parse_bens(to_move, &mut cur)?),
        AnyGame::Akalandung(_) => json(marker::parse_akalandung(to_move, &mut cur)?),
    };
    let throw = cur.throw()?;
    cur.end()?;
    let mut set = game.clone();
    set.set_position(&position).map_err(|e| cur.whole(format!("not a legal position: {}", plain(&e))))?;
    if let Some(raw) = throw {
        let at = text.find('/').map_or(0, |i| i + 2);
        Playable::roll(&mut set, raw).map_err(|e| cur.err(at, format!("throw {raw}: {}", plain(&e))))?;
        if set.turn() != Turn::Decide(to_move) {
            let side = set.side_name(to_move).to_owned();
            return Err(cur.err(at, format!("throw {raw} leaves {side} no decision (the turn passes): leave out '/{raw}'")));
        }
    }
    Ok((PositionText { position, throw }, set))
}

/// A refusal's words without the `bad position: ` its display starts with.
fn plain(e: &PlayError) -> String {
    match e {
        PlayError::BadPosition(why) => why.clone(),
        e => e.to_string(),
    }
}

fn json<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The raw throw being decided, when setting up the position and throwing
/// it again leads to the same decision (it does not after a choice such as
/// a declaration or an optional extra roll: the string then holds the
/// position at the roll).
fn pending_throw(game: &AnyGame) -> Option<u8> {
    let Turn::Decide(_) = game.turn() else { return None };
    let candidates: Vec<u8> = match game {
        AnyGame::Race(g) => vec![g.throw()?.raw],
        AnyGame::Bens(g) => vec![g.snapshot().throw?],
        AnyGame::Akalandung(g) => vec![g.snapshot().throw?],
        // The tower games keep the throw's value only; every raw outcome
        // that reopens the same decision will do.
        AnyGame::Tower(_) => game.outcomes().iter().map(|o| o.0).collect(),
    };
    let position = game.position();
    let snapshot = game.position_json();
    candidates.into_iter().find(|&raw| {
        let mut again = game.clone();
        again.set_position(&position).is_ok()
            && Playable::roll(&mut again, raw).is_ok()
            && again.turn() == game.turn()
            && again.actions() == game.actions()
            && again.position_json() == snapshot
    })
}

impl AnyGame {
    /// The position as a position string ([`crate::position_text`]).
    pub fn position_string(&self) -> String {
        write(self)
    }

    /// Sets up the position a position string describes, keeping the rules
    /// and options; with a throw in the string, the side to move has thrown
    /// it and decides next.
    ///
    /// # Errors
    /// [`PlayError::BadPosition`] for a string that does not read or a
    /// position the rules do not allow; the game is then unchanged.
    pub fn set_position_string(&mut self, text: &str) -> Result<(), PlayError> {
        let (_, set) = parse_and_set(self, text)?;
        *self = set;
        Ok(())
    }
}

/// A reader over the string's bytes that knows where it is.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
}

/// The characters a position string may hold besides letters and digits.
const PUNCTUATION: &str = "-.,:/";

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Result<Cursor<'a>, PositionTextError> {
        let cur = Cursor { text, bytes: text.as_bytes(), i: 0 };
        if text.is_empty() {
            return Err(cur.err(0, "empty: a position string starts with the side to move, l or d, then ':'".into()));
        }
        if text.chars().count() > MAX_LEN {
            return Err(cur.err(0, format!("longer than {MAX_LEN} characters")));
        }
        if let Some((n, c)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii_alphanumeric() && !PUNCTUATION.contains(*c)) {
            let shown = if c.is_whitespace() || c.is_control() { format!("{:?}", c) } else { format!("'{c}'") };
            return Err(cur.err(n + 1, format!("{shown} is not used in position strings (letters, digits and - . , : / only)")));
        }
        Ok(cur)
    }

    /// An error at character `at` (1-based; 0 for the whole string).
    pub(crate) fn err(&self, at: usize, what: String) -> PositionTextError {
        let text: String = self.text.chars().take(80).collect();
        PositionTextError { text, at, what }
    }

    /// An error at the next character.
    pub(crate) fn here(&self, what: String) -> PositionTextError {
        self.err(self.i + 1, what)
    }

    pub(crate) fn whole(&self, what: String) -> PositionTextError {
        self.err(0, what)
    }

    /// The 1-based index of the next character.
    pub(crate) fn pos(&self) -> usize {
        self.i + 1
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    pub(crate) fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }

    /// Takes `b` if it comes next.
    pub(crate) fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Takes `b`, which must come next (`what` says what it separates).
    pub(crate) fn expect(&mut self, b: u8, what: &str) -> Result<(), PositionTextError> {
        if self.eat(b) {
            return Ok(());
        }
        Err(self.here(format!("expected '{}' {what}, found {}", b as char, self.found())))
    }

    /// The next character in words, for errors.
    pub(crate) fn found(&self) -> String {
        match self.peek() {
            Some(b) => format!("'{}'", b as char),
            None => "the end".into(),
        }
    }

    /// Whether the next character ends a field: `,`, `/` or the end.
    pub(crate) fn at_field_end(&self) -> bool {
        matches!(self.peek(), None | Some(b',' | b'/'))
    }

    /// The side to move: `l` or `d`, then `:`.
    fn turn(&mut self) -> Result<Side, PositionTextError> {
        let side = match self.bump() {
            Some(b'l') => Side::Light,
            Some(b'd') => Side::Dark,
            _ => {
                return Err(self.err(1, "a position string starts with the side to move: l (light) or d (dark)".into()));
            }
        };
        self.expect(b':', "after the side to move")?;
        Ok(side)
    }

    /// A decimal number up to `max`, which must come next.
    pub(crate) fn number(&mut self, max: u32, what: &str) -> Result<u32, PositionTextError> {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return Err(self.here(format!("expected {what} (a number), found {}", self.found())));
        }
        let digits = &self.text[start..self.i];
        match digits.parse::<u32>() {
            Ok(n) if n <= max && !(digits.len() > 1 && digits.starts_with('0')) => Ok(n),
            Ok(n) if n <= max => Err(self.err(start + 1, format!("{what} {digits}: write it without leading zeros"))),
            _ => Err(self.err(start + 1, format!("{what} {digits} is more than {max}"))),
        }
    }

    /// The optional `/N` at the end: the throw being decided.
    fn throw(&mut self) -> Result<Option<u8>, PositionTextError> {
        if !self.eat(b'/') {
            return Ok(None);
        }
        self.number(u32::from(u8::MAX), "the throw after '/'").map(|n| Some(n as u8))
    }

    /// Nothing may follow.
    fn end(&self) -> Result<(), PositionTextError> {
        match self.peek() {
            None => Ok(()),
            Some(b) => Err(self.here(format!("unexpected '{}' where the string should end", b as char))),
        }
    }
}

/// A path position written as one character: 1-9, then a-z for 10-35.
pub(crate) fn digit36(n: u8) -> char {
    char::from_digit(u32::from(n), 36).unwrap_or('?')
}

/// The value of a position character (lower-case letters and digits).
pub(crate) fn value36(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'z' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Optional fields after the sides: `,X...` each at most once, read by `field`.
pub(crate) fn fields(
    cur: &mut Cursor<'_>,
    keys: &str,
    known: &str,
    mut field: impl FnMut(u8, &mut Cursor<'_>) -> Result<(), PositionTextError>,
) -> Result<(), PositionTextError> {
    let mut seen = Vec::new();
    while cur.eat(b',') {
        let at = cur.pos();
        let Some(key) = cur.bump() else {
            return Err(cur.here(format!("expected a field after ',' ({known})")));
        };
        if !keys.bytes().any(|k| k == key) {
            return Err(cur.err(at, format!("'{}' is not a field of this rule set ({known})", key as char)));
        }
        if seen.contains(&key) {
            return Err(cur.err(at, format!("field '{}' given twice", key as char)));
        }
        seen.push(key);
        field(key, cur)?;
        if !cur.at_field_end() {
            return Err(cur.here(format!("unexpected {} after field '{}'", cur.found(), key as char)));
        }
    }
    Ok(())
}
