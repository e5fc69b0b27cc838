//! Race positions as strings: `l:469.1,2d` is light to move, light's pieces
//! on path positions 4, 6 and 9 with one borne off, dark's on 2 and 13.
//! Named pieces list every bird's position in bird order instead (0 in
//! reserve, L + 1 borne off).

use super::{digit36, value36, Cursor, PositionTextError};
use crate::position::{Setup, SideSetup};
use crate::rules::Rules;
use crate::Side;

pub(super) fn write(rules: &Rules, setup: &Setup) -> String {
    let side = |s: &SideSetup| {
        if let Some(birds) = s.birds.as_ref().filter(|_| rules.named_pieces()) {
            return birds.iter().map(|&b| digit36(b)).collect();
        }
        let mut path = s.path.clone();
        path.sort_unstable();
        let mut out: String = if path.is_empty() { "-".into() } else { path.iter().map(|&p| digit36(p)).collect() };
        if s.off > 0 {
            out += &format!(".{}", s.off);
        }
        out
    };
    format!("{}:{},{}", turn_letter(setup.to_move), side(&setup.light), side(&setup.dark))
}

pub(super) fn turn_letter(side: Side) -> char {
    match side {
        Side::Light => 'l',
        Side::Dark => 'd',
    }
}

pub(super) fn parse(rules: &Rules, to_move: Side, cur: &mut Cursor<'_>) -> Result<Setup, PositionTextError> {
    let light = side(rules, Side::Light, cur)?;
    cur.expect(b',', "between light's pieces and dark's")?;
    let dark = side(rules, Side::Dark, cur)?;
    Ok(Setup { to_move, light, dark })
}

fn side(rules: &Rules, side: Side, cur: &mut Cursor<'_>) -> Result<SideSetup, PositionTextError> {
    if rules.named_pieces() {
        return birds(rules, side, cur);
    }
    let (len, pieces) = (rules.path_len(), rules.pieces());
    let start = cur.pos();
    let mut path = Vec::new();
    if !cur.eat(b'-') {
        while let Some(b) = cur.peek().filter(|&b| b != b'.' && b != b',' && b != b'/') {
            match value36(b) {
                Some(p) if (1..=len).contains(&p) => path.push(p),
                _ => return Err(cur.here(format!("'{}' is not a position on {side}'s path: use 1-{}", b as char, range(len)))),
            }
            cur.bump();
        }
        if path.is_empty() {
            return Err(cur.here(format!("expected {side}'s pieces on the board (path positions 1-{}, or - for none)", range(len))));
        }
    }
    let off = if cur.eat(b'.') { cur.number(u32::from(pieces), &format!("{side}'s pieces borne off"))? as u8 } else { 0 };
    let placed = path.len() + usize::from(off);
    if placed > usize::from(pieces) {
        return Err(cur.err(
            start,
            format!("{side} has {} on the board and {off} borne off, more than the {pieces} pieces of the rules", path.len()),
        ));
    }
    path.sort_unstable();
    Ok(SideSetup { reserve: pieces - placed as u8, off, path, birds: None })
}

/// Named pieces: one character per bird, in bird order.
fn birds(rules: &Rules, side: Side, cur: &mut Cursor<'_>) -> Result<SideSetup, PositionTextError> {
    let (len, pieces) = (rules.path_len(), rules.pieces());
    let start = cur.pos();
    let mut birds = Vec::new();
    while let Some(b) = cur.peek().filter(|&b| b != b',' && b != b'/') {
        match value36(b) {
            Some(p) if p <= len + 1 => birds.push(p),
            _ => {
                return Err(cur.here(format!(
                    "'{}' is not a bird's position: use 0 (reserve), 1-{} (the board) or {} (borne off)",
                    b as char,
                    range(len),
                    digit36(len + 1)
                )))
            }
        }
        cur.bump();
    }
    if birds.len() != usize::from(pieces) {
        let n = birds.len();
        return Err(cur.err(
            start,
            format!("{side} lists {n} birds; the rules have {pieces}, one character each (0 reserve, {} off)", digit36(len + 1)),
        ));
    }
    let mut path: Vec<u8> = birds.iter().copied().filter(|p| (1..=len).contains(p)).collect();
    path.sort_unstable();
    let off = birds.iter().filter(|&&p| p == len + 1).count() as u8;
    let reserve = birds.iter().filter(|&&p| p == 0).count() as u8;
    Ok(SideSetup { reserve, off, path, birds: Some(birds) })
}

/// The last position's character, as `9` or `9, a-e`.
fn range(len: u8) -> String {
    if len <= 9 {
        format!("{len}")
    } else {
        format!("9 and a-{}", digit36(len))
    }
}
