//! `bens-ur` from and to outside: positions to set up ([`BensSetup`]), the
//! snapshot for the engine protocol ([`BensSnapshot`]) and the board as text.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{BensGame, Face, Marker, Phase, SideState, ID, LAST_BLANK, LEN, SIDE_NAMES};
use crate::marker::{draw_board, groups_text, home_count, side_of_turn};
use crate::play::{PlayError, Playable};
use crate::spec::Options;
use crate::Side;

/// One side of a position: markers at home (always blank), borne off, and the
/// positions of the blank and dotted markers on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BensSide {
    #[serde(default)]
    pub home: Option<u8>,
    #[serde(default)]
    pub off: u8,
    #[serde(default)]
    pub blank: Vec<u8>,
    #[serde(default)]
    pub dotted: Vec<u8>,
}

/// A position of normal play, as read from outside (tests, tools, the
/// engine's `set`), `to_move` to roll. `home` defaults to the markers not
/// placed elsewhere.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BensSetup {
    pub to_move: Side,
    #[serde(default)]
    pub light: BensSide,
    #[serde(default)]
    pub dark: BensSide,
    /// The roll is a free turn (4-Eyes or a zero throw); it changes nothing
    /// but how the turn is described.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_turn: bool,
}

/// The position as the engine protocol shows it (`position_json`): the
/// setup format plus the rule set, its side names and options, the turn
/// and the throw being decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BensSnapshot {
    pub rules: String,
    /// The booklet's names of light (SOUTH) and dark (NORTH) (D13).
    pub sides: BTreeMap<String, String>,
    pub options: BTreeMap<String, String>,
    /// `roll light`, `decide dark`, `start-roll light`, `start-jump dark`, `over light`.
    pub turn: String,
    pub free_turn: bool,
    pub throw: Option<u8>,
    pub light: BensSide,
    pub dark: BensSide,
}

impl BensSnapshot {
    /// The position of the snapshot, the side named by its turn to roll.
    ///
    /// # Errors
    /// A turn that names no side.
    pub fn to_setup(&self) -> Result<BensSetup, PlayError> {
        Ok(BensSetup { to_move: side_of_turn(&self.turn)?, light: self.light.clone(), dark: self.dark.clone(), free_turn: self.free_turn })
    }
}

impl BensGame {
    /// A game of normal play from a position, `to_move` to roll.
    ///
    /// # Errors
    /// Bad options, or a position that breaks the rules (the message says how).
    pub fn from_position(options: &Options, setup: &BensSetup) -> Result<BensGame, PlayError> {
        BensGame::new(options, setup.to_move)?.with_position(setup)
    }

    /// A game with these rules and options at a position.
    pub(super) fn with_position(&self, setup: &BensSetup) -> Result<BensGame, PlayError> {
        let side = |s: &BensSide, side: Side| side_from_setup(side, s, self.cfg.markers);
        let mut g = BensGame {
            cfg: self.cfg.clone(),
            common: self.common.fresh(),
            sides: [side(&setup.light, Side::Light)?, side(&setup.dark, Side::Dark)?],
            phase: Phase::Roll(setup.to_move),
            throw: None,
            legal: Vec::new(),
            free_turn: setup.free_turn,
            start_raws: [None; 2],
            start_jumps: [None; 2],
        };
        g.check_squares()?;
        g.finish_if_won(setup.to_move);
        Ok(g)
    }

    fn side_view(&self, side: Side) -> BensSide {
        let st = &self.sides[side.index()];
        let at = |f: Face| st.board.iter().filter(|m| m.face == f).map(|m| m.pos).collect();
        BensSide { home: Some(st.home), off: st.off, blank: at(Face::Blank), dotted: at(Face::Dotted) }
    }

    /// The position (see [`BensSetup`]); the side to move is the side to roll
    /// or deciding.
    pub fn to_setup(&self) -> BensSetup {
        let to_move = match self.phase {
            Phase::StartRoll(s) | Phase::StartJump(s) | Phase::Roll(s) | Phase::Decide(s) | Phase::Over(s) => s,
        };
        BensSetup { to_move, light: self.side_view(Side::Light), dark: self.side_view(Side::Dark), free_turn: self.free_turn }
    }

    /// The position snapshot for the engine protocol.
    pub fn snapshot(&self) -> BensSnapshot {
        let turn = match self.phase {
            Phase::StartRoll(s) => format!("start-roll {s}"),
            Phase::StartJump(s) => format!("start-jump {s}"),
            Phase::Roll(s) => format!("roll {s}"),
            Phase::Decide(s) => format!("decide {s}"),
            Phase::Over(s) => format!("over {s}"),
        };
        BensSnapshot {
            rules: ID.into(),
            sides: BTreeMap::from([("light".into(), SIDE_NAMES[0].into()), ("dark".into(), SIDE_NAMES[1].into())]),
            options: self.common.options.to_map(),
            turn,
            free_turn: self.free_turn,
            throw: self.throw,
            light: self.side_view(Side::Light),
            dark: self.side_view(Side::Dark),
        }
    }

    /// The board as text, within 80 columns.
    pub(super) fn text(&self) -> String {
        let mut out = String::new();
        draw_board(&mut out, |cell| {
            groups_text(self.occupants(cell).iter().map(|(s, m)| {
                let who = if *s == Side::Light { 'B' } else { 'W' };
                let face = if m.face == Face::Blank { 'o' } else { '*' };
                format!("{who}{face}")
            }))
        });
        for side in Side::BOTH {
            let st = &self.sides[side.index()];
            let markers: Vec<String> =
                st.board.iter().map(|m| format!("{}{}", m.pos, if m.face == Face::Blank { "o" } else { "*" })).collect();
            out.push_str(&format!(
                "{} ({side}): home {}, off {}, on the board {}\n",
                self.side_name(side),
                st.home,
                st.off,
                if markers.is_empty() { "none".into() } else { markers.join(" ") }
            ));
        }
        out.push_str("Bo, B* = a Black blank, dotted marker; Wo, W* = White's; Bo2 = two of them.\n");
        out.push_str("Squares: R rosette, E 4-Eyes, P Passage, T 4-Squares, Z Conversion, F five dots.\n");
        out.push_str(&self.describe_turn());
        out.push('\n');
        out
    }
}

fn side_from_setup(side: Side, s: &BensSide, markers: u8) -> Result<SideState, PlayError> {
    let bad = |what: String| Err(PlayError::BadPosition(format!("{side}: {what}")));
    let mut board: Vec<Marker> = s.blank.iter().map(|&pos| Marker { pos, face: Face::Blank }).collect();
    board.extend(s.dotted.iter().map(|&pos| Marker { pos, face: Face::Dotted }));
    board.sort_by_key(|m| m.pos);
    for m in &board {
        match m.face {
            Face::Blank if !(1..=LAST_BLANK).contains(&m.pos) || m.pos == 13 || m.pos == LAST_BLANK => {
                return bad(format!("a blank marker cannot stand at {} (blank: 1..=14 except 13)", m.pos))
            }
            Face::Dotted if !(13..=LEN).contains(&m.pos) => {
                return bad(format!("a dotted marker cannot stand at {} (dotted: 13..=23)", m.pos))
            }
            _ => {}
        }
    }
    if board.len() > usize::from(markers) {
        return bad(format!("{} markers on the board, more than {markers}", board.len()));
    }
    let home = home_count(side, s.home, s.off, board.len(), markers, "home")?;
    Ok(SideState { home, off: s.off, board: board.into_iter().collect() })
}

impl fmt::Display for BensGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().trim_end())
    }
}
