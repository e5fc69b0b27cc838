//! Tower positions as strings: `d:A3l.M2dl.M8L,e0.2,q4` is dark to move,
//! a light token on A3, a stack on M2 (dark at the bottom, light on top), a
//! promoted light token on M8, two dark tokens eliminated and four turns
//! without progress. Stacks are read bottom to top; squares come in the
//! order A1-A6, B1-B6, M1-M8, each once.

use std::collections::BTreeMap;

use super::race::turn_letter;
use super::{fields, Cursor, PositionTextError};
use crate::tower::{square_by_name, Token, TowerSetup};
use crate::Side;

/// Most tokens on one square, as the tower engine stores them.
const MAX_STACK: usize = 30;

pub(super) fn write(setup: &TowerSetup) -> String {
    let mut out = format!("{}:", turn_letter(setup.to_move.unwrap_or(Side::Light)));
    let mut squares: Vec<(usize, &String, &String)> =
        setup.stacks.iter().filter_map(|(name, letters)| Some((square_by_name(name)?, name, letters))).collect();
    squares.sort();
    if squares.is_empty() {
        out.push('-');
    }
    let stacks: Vec<String> = squares.iter().map(|(_, name, letters)| format!("{name}{letters}")).collect();
    out += &stacks.join(".");
    if setup.eliminated != [0, 0] {
        out += &format!(",e{}.{}", setup.eliminated[0], setup.eliminated[1]);
    }
    if setup.quiet > 0 {
        out += &format!(",q{}", setup.quiet);
    }
    out
}

pub(super) fn parse(tokens: u8, to_move: Side, cur: &mut Cursor<'_>) -> Result<TowerSetup, PositionTextError> {
    let start = cur.pos();
    let stacks = if cur.eat(b'-') { BTreeMap::new() } else { stacks(cur)? };
    let mut eliminated = [0u8; 2];
    let mut quiet = 0;
    fields(cur, "eq", "e eliminated light.dark, q turns without progress", |key, cur| {
        if key == b'e' {
            for (i, s) in Side::BOTH.into_iter().enumerate() {
                if i == 1 {
                    cur.expect(b'.', "between light's and dark's eliminated tokens")?;
                }
                eliminated[s.index()] = cur.number(u32::from(tokens), &format!("{s}'s eliminated tokens"))? as u8;
            }
        } else {
            quiet = cur.number(1_000_000, "turns without progress")?;
        }
        Ok(())
    })?;
    let mut reserve = [0u8; 2];
    for s in Side::BOTH {
        let on_board: usize =
            stacks.values().flat_map(|l| l.chars()).filter(|&c| Token::from_letter(c).is_some_and(|t| t.owner() == s)).count();
        let placed = on_board + usize::from(eliminated[s.index()]);
        if placed > usize::from(tokens) {
            let gone = eliminated[s.index()];
            return Err(cur
                .err(start, format!("{s} has {on_board} tokens on the board and {gone} eliminated, more than the {tokens} of the rules")));
        }
        reserve[s.index()] = tokens - placed as u8;
    }
    Ok(TowerSetup { to_move: Some(to_move), stacks, reserve: Some(reserve), eliminated, quiet })
}

/// Stacks `A3l.M2dl`: a square's name, then its tokens bottom to top.
fn stacks(cur: &mut Cursor<'_>) -> Result<BTreeMap<String, String>, PositionTextError> {
    let mut out = BTreeMap::new();
    let mut last = None;
    loop {
        let at = cur.pos();
        let name: String = [cur.bump(), cur.bump()].iter().flatten().map(|&b| b as char).collect();
        let sq = square_by_name(&name).filter(|_| name.len() == 2).ok_or_else(|| {
            cur.err(at, format!("'{name}' is not a square: use A1-A6, B1-B6 or M1-M8, then the tokens (l d L D), or - for an empty board"))
        })?;
        if last.is_some_and(|l| l >= sq) {
            return Err(cur.err(at, format!("square {name} out of order or twice: list the squares A1-A6, B1-B6, M1-M8 in that order")));
        }
        last = Some(sq);
        let mut letters = String::new();
        while let Some(b) = cur.peek().filter(|&b| !matches!(b, b'.' | b',' | b'/')) {
            if Token::from_letter(b as char).is_none() {
                return Err(cur.here(format!("'{}' on {name} is not a token: use l, d (plain) or L, D (promoted)", b as char)));
            }
            letters.push(b as char);
            cur.bump();
        }
        if letters.is_empty() {
            return Err(cur.here(format!("square {name} has no tokens: leave out empty squares")));
        }
        if letters.len() > MAX_STACK {
            return Err(cur.err(at, format!("the stack on {name} holds {} tokens, more than {MAX_STACK}", letters.len())));
        }
        out.insert(name, letters);
        if !cur.eat(b'.') {
            return Ok(out);
        }
    }
}
