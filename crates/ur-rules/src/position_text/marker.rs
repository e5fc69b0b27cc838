//! Marker-game positions as strings, one side after the other like the race.
//!
//! `bens-ur`: `l:3aG.1,-,f` is Black (light) to move on a free turn, blank
//! markers on 3 and 10, a dotted marker on 16 (dotted markers are written in
//! upper case: D-N for 13-23), one borne off; White has none out.
//!
//! `ludens-akalandung`: `d:13w4t6.1,2,od` is dark to move, light's single
//! pieces on 1 and 3, a Warrior on 4, Twins on 6, one borne off, dark's
//! piece on 2, dark holding the Oracle's Vision.

use super::race::turn_letter;
use super::{digit36, fields, value36, Cursor, PositionTextError};
use crate::marker::akalandung::{self, AkalandungSetup, AkalandungSide};
use crate::marker::bens::{self, BensSetup, BensSide};
use crate::Side;

pub(super) fn write_bens(setup: &BensSetup) -> String {
    let side = |s: &BensSide| {
        let mut marks: Vec<(u8, char)> = s.blank.iter().map(|&p| (p, digit36(p))).collect();
        marks.extend(s.dotted.iter().map(|&p| (p, digit36(p).to_ascii_uppercase())));
        marks.sort_unstable();
        with_off(marks.into_iter().map(|m| m.1).collect(), s.off)
    };
    let mut out = format!("{}:{},{}", turn_letter(setup.to_move), side(&setup.light), side(&setup.dark));
    if setup.free_turn {
        out += ",f";
    }
    out
}

pub(super) fn write_akalandung(setup: &AkalandungSetup) -> String {
    let side = |s: &AkalandungSide| {
        let mut warriors = s.warriors.clone();
        let mut items: Vec<(u8, u8, String)> = Vec::new();
        for &p in &s.path {
            if let Some(i) = warriors.iter().position(|&w| w == p) {
                warriors.remove(i);
                items.push((p, 1, format!("w{}", digit36(p))));
            } else {
                items.push((p, 0, digit36(p).to_string()));
            }
        }
        items.extend(s.twins.iter().map(|&p| (p, 2, format!("t{}", digit36(p)))));
        items.sort_unstable();
        with_off(items.into_iter().map(|i| i.2).collect(), s.off)
    };
    let mut out = format!("{}:{},{}", turn_letter(setup.to_move), side(&setup.light), side(&setup.dark));
    if let Some(o) = setup.oracle {
        out += &format!(",o{}", turn_letter(o));
    }
    out
}

/// The pieces (or `-`), then `.off` when some are borne off.
fn with_off(pieces: String, off: u8) -> String {
    let mut out = if pieces.is_empty() { "-".to_string() } else { pieces };
    if off > 0 {
        out += &format!(".{off}");
    }
    out
}

pub(super) fn parse_bens(to_move: Side, cur: &mut Cursor<'_>) -> Result<BensSetup, PositionTextError> {
    let mut sides = [BensSide::default(), BensSide::default()];
    for s in Side::BOTH {
        if s == Side::Dark {
            cur.expect(b',', "between light's markers and dark's")?;
        }
        sides[s.index()] = bens_side(s, cur)?;
    }
    let mut free_turn = false;
    fields(cur, "f", "f the roll is a free turn", |_, _| {
        free_turn = true;
        Ok(())
    })?;
    let [light, dark] = sides;
    Ok(BensSetup { to_move, light, dark, free_turn })
}

fn bens_side(side: Side, cur: &mut Cursor<'_>) -> Result<BensSide, PositionTextError> {
    let start = cur.pos();
    let (mut blank, mut dotted) = (Vec::new(), Vec::new());
    if !cur.eat(b'-') {
        while let Some(b) = cur.peek().filter(|&b| !matches!(b, b'.' | b',' | b'/')) {
            match value36(b.to_ascii_lowercase()) {
                Some(p) if b.is_ascii_uppercase() && (13..=bens::LEN).contains(&p) => dotted.push(p),
                Some(p) if !b.is_ascii_uppercase() && (1..=bens::LAST_BLANK).contains(&p) => blank.push(p),
                _ => {
                    let what = "blank markers 1-9, a-e (lower case), dotted D-N (upper case, 13-23)";
                    return Err(cur.here(format!("'{}' is not a marker of {side}: {what}", b as char)));
                }
            }
            cur.bump();
        }
        if blank.is_empty() && dotted.is_empty() {
            return Err(cur.here(format!("expected {side}'s markers on the board, or - for none")));
        }
    }
    let off = off(side, bens::MARKERS, cur)?;
    let home = left(side, bens::MARKERS, blank.len() + dotted.len(), off, start, cur)?;
    blank.sort_unstable();
    dotted.sort_unstable();
    Ok(BensSide { home: Some(home), off, blank, dotted })
}

pub(super) fn parse_akalandung(to_move: Side, cur: &mut Cursor<'_>) -> Result<AkalandungSetup, PositionTextError> {
    let mut sides = [AkalandungSide::default(), AkalandungSide::default()];
    for s in Side::BOTH {
        if s == Side::Dark {
            cur.expect(b',', "between light's pieces and dark's")?;
        }
        sides[s.index()] = akalandung_side(s, cur)?;
    }
    let mut oracle = None;
    fields(cur, "o", "o then l or d: the side holding the Oracle's Vision", |_, cur| {
        oracle = match cur.bump() {
            Some(b'l') => Some(Side::Light),
            Some(b'd') => Some(Side::Dark),
            _ => return Err(cur.err(cur.pos() - 1, "after 'o' write l or d: the side holding the Oracle's Vision".into())),
        };
        Ok(())
    })?;
    let [light, dark] = sides;
    Ok(AkalandungSetup { to_move, light, dark, oracle })
}

fn akalandung_side(side: Side, cur: &mut Cursor<'_>) -> Result<AkalandungSide, PositionTextError> {
    let start = cur.pos();
    let (mut path, mut twins, mut warriors) = (Vec::new(), Vec::new(), Vec::new());
    if !cur.eat(b'-') {
        while let Some(b) = cur.peek().filter(|&b| !matches!(b, b'.' | b',' | b'/')) {
            let kind = if matches!(b, b'w' | b't') { cur.bump() } else { None };
            let p = match cur.peek().and_then(value36) {
                Some(p) if (1..=akalandung::LEN).contains(&p) => p,
                _ => {
                    let what = "positions 1-9, a-e, a Warrior as w and its position, Twins as t and their square";
                    return Err(cur.here(format!("{} is not a piece of {side}: {what}", cur.found())));
                }
            };
            cur.bump();
            match kind {
                Some(b't') => twins.push(p),
                Some(_) => {
                    warriors.push(p);
                    path.push(p);
                }
                None => path.push(p),
            }
        }
        if path.is_empty() && twins.is_empty() {
            return Err(cur.here(format!("expected {side}'s pieces on the board, or - for none")));
        }
    }
    let off = off(side, akalandung::PIECES, cur)?;
    let reserve = left(side, akalandung::PIECES, path.len() + 2 * twins.len(), off, start, cur)?;
    path.sort_unstable();
    twins.sort_unstable();
    warriors.sort_unstable();
    Ok(AkalandungSide { reserve: Some(reserve), off, path, twins, warriors })
}

/// The optional `.N` after a side's pieces: how many are borne off.
fn off(side: Side, pieces: u8, cur: &mut Cursor<'_>) -> Result<u8, PositionTextError> {
    if cur.eat(b'.') {
        Ok(cur.number(u32::from(pieces), &format!("{side}'s pieces borne off"))? as u8)
    } else {
        Ok(0)
    }
}

/// The pieces not on the board nor borne off.
fn left(side: Side, pieces: u8, on_board: usize, off: u8, start: usize, cur: &Cursor<'_>) -> Result<u8, PositionTextError> {
    let placed = on_board + usize::from(off);
    if placed > usize::from(pieces) {
        return Err(
            cur.err(start, format!("{side} has {on_board} on the board and {off} borne off, more than the {pieces} pieces of the rules"))
        );
    }
    Ok(pieces - placed as u8)
}
