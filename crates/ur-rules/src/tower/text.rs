//! The tower games as text and JSON: the board for players, the position
//! snapshot for the engine protocol, and compact setups for tests.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::game::{EndReason, TowerGame, TowerPhase};
use super::rules::TowerRules;
use super::stack::{cell, position, square_by_name, square_name, Stacks, Token, MAX_TOKENS, SQUARES};
use crate::board::Cell;
use crate::play::{PlayError, Playable};
use crate::Side;

/// A position written compactly: stacks by square name (A1-A6 light's
/// private squares, B1-B6 dark's, M1-M8 shared) as letters bottom to top:
/// `l`/`d` a plain light/dark token, `L`/`D` a promoted one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TowerSetup {
    /// Side to roll (default light).
    pub to_move: Option<Side>,
    #[serde(default)]
    pub stacks: BTreeMap<String, String>,
    /// Tokens in reserve `[light, dark]`; absent: every token not on the board or eliminated.
    pub reserve: Option<[u8; 2]>,
    /// Tokens removed from the game `[light, dark]`.
    #[serde(default)]
    pub eliminated: [u8; 2],
    /// Turns already played without progress (T10 a).
    #[serde(default)]
    pub quiet: u32,
}

impl TowerGame {
    /// A game from a setup, the side to move about to roll.
    ///
    /// # Errors
    /// Unknown square names or letters, a stack too high, token counts that
    /// do not add up, or a private square controlled by the opponent (T5).
    pub fn from_position(rules: TowerRules, setup: &TowerSetup) -> Result<TowerGame, PlayError> {
        let bad = PlayError::BadPosition;
        let mut stacks = Stacks::default();
        for (name, letters) in &setup.stacks {
            let sq = square_by_name(name).ok_or_else(|| bad(format!("no square '{name}': use A1-A6, B1-B6, M1-M8")))?;
            if letters.chars().count() > MAX_TOKENS {
                return Err(bad(format!("stack on {name} is higher than {MAX_TOKENS}")));
            }
            for c in letters.chars() {
                let t = Token::from_letter(c).ok_or_else(|| bad(format!("'{c}' on {name} is not a token: use l, d, L, D")))?;
                stacks.push(sq, t);
            }
            if let Some(owner) = stacks.controller(sq).filter(|&s| position(s, sq).is_none()) {
                return Err(bad(format!("{owner} cannot control {name}, a private square of its opponent (T5)")));
            }
        }
        let n = u32::from(rules.tokens);
        let mut reserve = [0u8; 2];
        for s in Side::BOTH {
            let placed = stacks.total(s) + u32::from(setup.eliminated[s.index()]);
            let left = n.checked_sub(placed).ok_or_else(|| bad(format!("{s} has more than {n} tokens")))?;
            reserve[s.index()] = match setup.reserve {
                Some(r) if u32::from(r[s.index()]) != left => {
                    return Err(bad(format!("{s}: reserve {} + board + eliminated must make {n}", r[s.index()])))
                }
                _ => left as u8,
            };
        }
        let mut g = TowerGame::from_parts(rules, stacks, reserve, setup.eliminated, setup.to_move.unwrap_or(Side::Light));
        g.quiet = setup.quiet;
        Ok(g)
    }

    /// The position as a compact setup (see [`TowerSetup`]).
    pub fn to_setup(&self) -> TowerSetup {
        let stacks = (0..SQUARES).filter(|&sq| self.stacks.len(sq) > 0).map(|sq| (square_name(sq), self.stacks.letters(sq))).collect();
        TowerSetup {
            to_move: Some(self.to_move),
            stacks,
            reserve: Some([self.reserve[0], self.reserve[1]]),
            eliminated: self.eliminated,
            quiet: self.quiet,
        }
    }

    /// The position snapshot for the engine protocol.
    pub fn snapshot(&self) -> TowerSnapshot {
        let stacks = (0..SQUARES).filter(|&sq| self.stacks.len(sq) > 0).map(|sq| self.stack_view(sq)).collect();
        let (turn, winner) = match self.phase {
            TowerPhase::Roll => ("roll".to_string(), None),
            TowerPhase::Blank => ("choose".into(), None),
            TowerPhase::Move(v) => (format!("move {v}"), None),
            TowerPhase::Over(w) => ("over".into(), w),
        };
        TowerSnapshot {
            rules: self.rules.id.into(),
            to_move: self.to_move,
            turn,
            winner,
            end: self.end_reason(),
            reserve: self.reserve,
            eliminated: self.eliminated,
            prisoners: [self.stacks.prisoners(Side::Light), self.stacks.prisoners(Side::Dark)],
            quiet_turns: self.quiet,
            stacks,
        }
    }

    fn stack_view(&self, sq: usize) -> StackView {
        let tokens = (0..self.stacks.len(sq))
            .map(|i| {
                let t = self.stacks.token(sq, i);
                TokenView { owner: t.owner(), face: if t.promoted() { Face::Promoted } else { Face::Plain } }
            })
            .collect();
        StackView {
            square: square_name(sq),
            cell: cell(sq),
            light_pos: position(Side::Light, sq),
            dark_pos: position(Side::Dark, sq),
            letters: self.stacks.letters(sq),
            tokens,
        }
    }
}

/// A token's face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Plain,
    Promoted,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenView {
    pub owner: Side,
    pub face: Face,
}

/// One non-empty square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackView {
    /// Booklet name: A1-A6 (light), B1-B6 (dark), M1-M8 (shared).
    pub square: String,
    pub cell: Cell,
    /// The square's path position for each side, if on its path.
    pub light_pos: Option<u8>,
    pub dark_pos: Option<u8>,
    /// Tokens bottom to top as letters (`l`, `d`, `L`, `D`).
    pub letters: String,
    /// Tokens bottom to top.
    pub tokens: Vec<TokenView>,
}

impl TowerSnapshot {
    /// The position of the snapshot (the side to move to roll).
    pub fn to_setup(&self) -> TowerSetup {
        TowerSetup {
            to_move: Some(self.to_move),
            stacks: self.stacks.iter().map(|v| (v.square.clone(), v.letters.clone())).collect(),
            reserve: Some(self.reserve),
            eliminated: self.eliminated,
            quiet: self.quiet_turns,
        }
    }
}

/// A tower position for the engine protocol (`position_json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TowerSnapshot {
    pub rules: String,
    pub to_move: Side,
    /// `roll`, `choose` (reroll or move5), `move V`, or `over`.
    pub turn: String,
    pub winner: Option<Side>,
    pub end: Option<EndReason>,
    /// `[light, dark]` tokens in reserve.
    pub reserve: [u8; 2],
    /// `[light, dark]` tokens removed from the game.
    pub eliminated: [u8; 2],
    /// `[light, dark]` tokens held prisoner (beneath an enemy token).
    pub prisoners: [u32; 2],
    pub quiet_turns: u32,
    pub stacks: Vec<StackView>,
}

impl TowerGame {
    /// The board as text within 80 columns: the grid, the stacks, each
    /// side's tokens by its rule set's name, and what the game waits for.
    pub(super) fn text(&self) -> String {
        let r = self.rules();
        let mut out = format!("{} ({})\n", r.name, r.id);
        let [a, b] = r.sides;
        out += &format!("{a} is light, {b} dark; l/d = plain ({}), L/D = promoted ({}).\n", r.faces[0], r.faces[1]);
        self.grid(&mut out);
        out += "Stacks, bottom to top:\n";
        for sq in (0..SQUARES).filter(|&sq| self.stacks.len(sq) > 0) {
            let pos = |s: Side| position(s, sq).map_or("-".to_string(), |p| p.to_string());
            out += &format!(
                "  {:<3} (light {:>2}, dark {:>2}): {}\n",
                square_name(sq),
                pos(Side::Light),
                pos(Side::Dark),
                self.stacks.letters(sq)
            );
        }
        for s in Side::BOTH {
            let (reserve, held, gone) = (self.reserve(s), self.stacks.prisoners(s), self.eliminated(s));
            out += &format!("{}: reserve {reserve}, prisoners {held}, eliminated {gone}\n", self.side_name(s));
        }
        out += &self.waiting();
        if self.phase() == TowerPhase::Roll {
            let n = self.quiet_turns();
            out += &format!("; {n} {} without progress", if n == 1 { "turn" } else { "turns" });
        }
        out.push('\n');
        out
    }

    /// The 3 x 8 grid, each square with its name and top-down stack letters
    /// (the top five; `..` when there are more).
    fn grid(&self, out: &mut String) {
        let mut by_cell: BTreeMap<(u8, u8), usize> = BTreeMap::new();
        for sq in 0..SQUARES {
            let c = cell(sq);
            by_cell.insert((c.row, c.col), sq);
        }
        out.push_str("  ");
        for col in 0..8u8 {
            out.push_str(&format!("{:^9}", char::from(b'a' + col)));
        }
        out.push('\n');
        for row in 0..3u8 {
            let mut line = format!("{} ", 3 - row);
            for col in 0..8u8 {
                match by_cell.get(&(row, col)) {
                    Some(&sq) => {
                        let mut s = self.stacks.letters(sq);
                        if s.len() > 5 {
                            s = format!("..{}", &s[s.len() - 3..]);
                        }
                        line.push_str(&format!("[{:<2}{:>5}]", square_name(sq), s));
                    }
                    None => line.push_str("         "),
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

impl fmt::Display for TowerGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().trim_end())
    }
}
