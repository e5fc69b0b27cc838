//! `ludens-akalandung` from and to outside: positions to set up
//! ([`AkalandungSetup`]), the snapshot for the engine protocol
//! ([`AkalandungSnapshot`]) and the board as text.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{AkalandungGame, Phase, Piece, SideState, ID, LEN, POWERLESS, SIDE_NAMES, SPLIT, TWIN_SQUARE};
use crate::marker::{draw_board, home_count, side_of_turn};
use crate::play::{PlayError, Playable};
use crate::spec::Options;
use crate::Side;

/// One side of a position as read from outside: single pieces by position
/// (`warriors` says which of them are Warriors), Twins by the square of each
/// pair. `reserve` defaults to the pieces not placed elsewhere.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AkalandungSide {
    #[serde(default)]
    pub reserve: Option<u8>,
    #[serde(default)]
    pub off: u8,
    #[serde(default)]
    pub path: Vec<u8>,
    #[serde(default)]
    pub twins: Vec<u8>,
    #[serde(default)]
    pub warriors: Vec<u8>,
}

/// A position as read from outside, `to_move` to roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AkalandungSetup {
    pub to_move: Side,
    #[serde(default)]
    pub light: AkalandungSide,
    #[serde(default)]
    pub dark: AkalandungSide,
    /// The side holding the Oracle's Vision, if any.
    #[serde(default)]
    pub oracle: Option<Side>,
}

/// The position as the engine protocol shows it (`position_json`): the
/// setup format plus the rule set, its side names and options, the turn
/// (`roll light`, `decide dark`, `extra-roll light`, `over light`) and the
/// throw being decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AkalandungSnapshot {
    pub rules: String,
    pub sides: BTreeMap<String, String>,
    pub options: BTreeMap<String, String>,
    pub turn: String,
    pub throw: Option<u8>,
    pub oracle: Option<Side>,
    pub light: AkalandungSide,
    pub dark: AkalandungSide,
}

impl AkalandungSnapshot {
    /// The position of the snapshot, the side named by its turn to roll.
    ///
    /// # Errors
    /// A turn that names no side.
    pub fn to_setup(&self) -> Result<AkalandungSetup, PlayError> {
        Ok(AkalandungSetup { to_move: side_of_turn(&self.turn)?, light: self.light.clone(), dark: self.dark.clone(), oracle: self.oracle })
    }
}

impl AkalandungGame {
    /// A game from a position, `to_move` to roll.
    ///
    /// # Errors
    /// Bad options, or a position that breaks the rules (the message says how).
    pub fn from_position(options: &Options, setup: &AkalandungSetup) -> Result<AkalandungGame, PlayError> {
        AkalandungGame::new(options, setup.to_move)?.with_position(setup)
    }

    /// A game with these rules and options at a position.
    pub(super) fn with_position(&self, setup: &AkalandungSetup) -> Result<AkalandungGame, PlayError> {
        let mut g = AkalandungGame {
            cfg: self.cfg.clone(),
            common: self.common.fresh(),
            sides: [
                side_from_setup(Side::Light, &setup.light, self.cfg.pieces)?,
                side_from_setup(Side::Dark, &setup.dark, self.cfg.pieces)?,
            ],
            phase: Phase::Roll(setup.to_move),
            throw: None,
            legal: Vec::new(),
            oracle: None,
        };
        g.check_squares()?;
        if let Some(h) = setup.oracle {
            if !g.has_vision(h) {
                return Err(PlayError::BadPosition(format!("{h} holds the Oracle's Vision but has no pieces on all of 1, 3 and 11")));
            }
            g.oracle = Some(h);
        }
        for s in Side::BOTH {
            if g.sides[s.index()].off == g.cfg.pieces {
                g.phase = Phase::Over(s);
            }
        }
        Ok(g)
    }

    fn side_view(&self, side: Side) -> AkalandungSide {
        let st = &self.sides[side.index()];
        // Pieces are sorted by position, so the two halves of a pair are adjacent.
        let twins = st.board.iter().filter(|p| p.twin).map(|p| p.pos).step_by(2).collect();
        AkalandungSide {
            reserve: Some(st.reserve),
            off: st.off,
            path: st.board.iter().filter(|p| !p.twin).map(|p| p.pos).collect(),
            twins,
            warriors: st.board.iter().filter(|p| p.warrior).map(|p| p.pos).collect(),
        }
    }

    /// The position (see [`AkalandungSetup`]); the side to move is the side
    /// to roll or deciding.
    pub fn to_setup(&self) -> AkalandungSetup {
        let to_move = match self.phase {
            Phase::Roll(s) | Phase::Decide(s) | Phase::ExtraRoll(s) | Phase::Over(s) => s,
        };
        AkalandungSetup { to_move, light: self.side_view(Side::Light), dark: self.side_view(Side::Dark), oracle: self.oracle }
    }

    /// The position snapshot for the engine protocol.
    pub fn snapshot(&self) -> AkalandungSnapshot {
        let turn = match self.phase {
            Phase::Roll(s) => format!("roll {s}"),
            Phase::Decide(s) => format!("decide {s}"),
            Phase::ExtraRoll(s) => format!("extra-roll {s}"),
            Phase::Over(s) => format!("over {s}"),
        };
        AkalandungSnapshot {
            rules: ID.into(),
            sides: BTreeMap::from([("light".into(), SIDE_NAMES[0].into()), ("dark".into(), SIDE_NAMES[1].into())]),
            options: self.common.options.to_map(),
            turn,
            throw: self.throw,
            oracle: self.oracle,
            light: self.side_view(Side::Light),
            dark: self.side_view(Side::Dark),
        }
    }

    /// The board as text, within 80 columns.
    pub(super) fn text(&self) -> String {
        let mut out = String::new();
        draw_board(&mut out, |cell| {
            let occ = self.occupants(cell);
            let mut pieces: Vec<_> = occ.iter().collect();
            pieces.sort_by_key(|(s, p)| (*s, p.twin, p.warrior));
            let each: String = pieces
                .iter()
                .map(|(s, p)| {
                    let who = if *s == Side::Light { 'L' } else { 'D' };
                    let mark = if p.twin {
                        "2"
                    } else if p.warrior {
                        "w"
                    } else {
                        ""
                    };
                    format!("{who}{mark}")
                })
                .collect();
            if each.len() <= 5 {
                return each;
            }
            // A crowded central rosette: counts only.
            let count = |side: Side| occ.iter().filter(|(s, _)| *s == side).count();
            [('L', count(Side::Light)), ('D', count(Side::Dark))].iter().filter(|(_, n)| *n > 0).map(|(c, n)| format!("{c}{n}")).collect()
        });
        for side in Side::BOTH {
            let v = self.side_view(side);
            let list =
                |ps: &[u8]| if ps.is_empty() { "none".to_string() } else { ps.iter().map(u8::to_string).collect::<Vec<_>>().join(" ") };
            let mut line = format!("{}: reserve {}, off {}, pieces {}", self.side_name(side), v.reserve.unwrap_or(0), v.off, list(&v.path));
            if !v.twins.is_empty() {
                line += &format!(", twins {}", list(&v.twins));
            }
            if !v.warriors.is_empty() {
                line += &format!(", warrior {}", list(&v.warriors));
            }
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("L, D = a Light, Dark piece; L2L2 = a pair of Twins; Lw = a Warrior; L3 = three.\n");
        out.push_str(&self.describe_turn());
        out.push('\n');
        out
    }
}

fn side_from_setup(side: Side, s: &AkalandungSide, pieces: u8) -> Result<SideState, PlayError> {
    let bad = |what: String| Err(PlayError::BadPosition(format!("{side}: {what}")));
    let mut board: Vec<Piece> = s.path.iter().map(|&pos| Piece { pos, twin: false, warrior: false }).collect();
    for &pos in &s.twins {
        board.extend([Piece { pos, twin: true, warrior: false }; 2]);
    }
    for &w in &s.warriors {
        match board.iter_mut().find(|p| p.pos == w && !p.twin && !p.warrior) {
            Some(p) => p.warrior = true,
            None => return bad(format!("warrior at {w} is not a single piece listed in 'path'")),
        }
    }
    if let Some(p) = board.iter().find(|p| !(1..=LEN).contains(&p.pos)) {
        return bad(format!("position {} is not on the board (1..={LEN})", p.pos));
    }
    // Twins form on 5 and break up on 7, 10 and 13; a Warrior lives on 2 and the squares that keep it.
    if let Some(&t) = s.twins.iter().find(|t| !(TWIN_SQUARE..SPLIT).contains(*t) || POWERLESS.contains(*t)) {
        return bad(format!("Twins cannot stand on {t} (only on 5, 6, 8, 9, 11 or 12)"));
    }
    if let Some(&w) = s.warriors.iter().find(|w| ![2, 4, 6, 8, 9, 12, 13, 14].contains(*w)) {
        return bad(format!("a Warrior cannot stand on {w} (only on 2, 4, 6, 8, 9, 12, 14, or 13 with warrior_includes_13)"));
    }
    board.sort_by_key(|p| p.pos);
    let reserve = home_count(side, s.reserve, s.off, board.len(), pieces, "reserve")?;
    Ok(SideState { reserve, off: s.off, board })
}

impl fmt::Display for AkalandungGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().trim_end())
    }
}
