//! Ben's Royal Game of Ur (`bens-ur`, docs/rules/bens-ur.md).
//!
//! Markers run PATH-23 (out along the middle row, round the small block past
//! both Conversion squares, back along the middle row, off past the
//! 4-Squares). They enter blank and turn dotted by ending a move on a
//! Conversion square; a blank marker may not pass the second one. Only
//! markers of the same face capture each other. A zero throw is a jump.
//!
//! Because blank markers never pass position 15 and dotted markers exist only
//! from 13 on, a side's marker at a given position always has one face; so a
//! move is named by its from and to positions alone.
//!
//! The start procedure (§5.7) is played as steps of the same game: light
//! rolls, then dark rolls (the simultaneous throw, in a fixed order of
//! entry); a side that threw a zero then decides its jump. Normal play begins
//! with the side the procedure chose.

mod view;

use std::fmt;
use std::sync::Arc;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub use view::{BensSetup, BensSide, BensSnapshot};

use super::{check_raw, option, outcomes, Common, OptionValues, Piece};
use crate::board::{Board, Cell};
use crate::catalogue::{Family, FamilyRuleSet};
use crate::dice::DiceModel;
use crate::play::{PlayError, Playable, Turn};
use crate::spec::{Options, SpecError};
use crate::Side;

/// The rule-set id.
pub const ID: &str = "bens-ur";
/// Markers per side.
pub const MARKERS: u8 = 7;
/// Path length; position 24 is borne off.
pub const LEN: u8 = 23;
/// The borne-off position.
pub const OFF: u8 = LEN + 1;
/// The second Conversion square: blank markers never go beyond it.
pub const LAST_BLANK: u8 = 15;
const SIDE_NAMES: [&str; 2] = ["Black", "White"];

/// The rule set and its options, for `ur rules`.
pub fn rule_set() -> FamilyRuleSet {
    FamilyRuleSet {
        id: ID,
        family: Family::Bens,
        name: "Ben's Royal Game of Ur",
        source: "Booklet 000, Version 2 (docs/rules/bens-ur.md)",
        summary: "Race 7 markers each along a 23-square out-and-back route (Black is light, White dark); three binary lots, 0 is a jump.\n\
                  Markers enter blank and turn dotted on a Conversion square; a blank marker may not pass the second one.\n\
                  Only markers of the same face capture each other (back home, blank); rosettes protect and hold two; Passages and\n\
                  4-Squares hold one blank and one dotted; 4-Eyes and a zero throw give a free turn. Bear off all seven to win.",
        options: vec![
            option("dice", "Dice: three binary lots (Ben's premise), four, or one d4 (no zero, so no jumps) (O02).", "BIN3", &["BIN3", "BIN4", "D4"]),
            option("rosette_capacity", "Markers a rosette holds (D15).", "2", &["1", "2", "3", "4"]),
            option("rosette_capacity_scope", "Whether rosette_capacity counts all markers on the rosette or each side and face separately (the booklet's literal words; D15).", "total", &["total", "per_side_and_face"]),
            option("bens_small_block_order", "Which side of the small block the route passes first (D14).", "own_first", &["own_first", "opponent_first"]),
            option("start_double_zero", "Start procedure: a double zero is always void, or only when both jumps could reach a common square (D63, D22).", "void_always", &["void_always", "void_if_common_square"]),
            option("start_procedure", "Play the booklet's simultaneous start (5.7), or let the given first player start with every marker at home (engine option).", "simultaneous", &["simultaneous", "none"]),
            option("markers", super::SMALL_VARIANT, "7", &["1", "2", "3", "4", "5", "6", "7"]),
        ],
    }
}

/// A marker's face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Face {
    Blank,
    Dotted,
}

/// What a square does (docs/rules/bens-ur.md#board-and-path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareKind {
    Rosette,
    FourEyes,
    Passage,
    FourSquares,
    Conversion,
    FiveDots,
}

impl SquareKind {
    fn of(board: &Board, cell: Cell) -> SquareKind {
        match board.decoration(cell) {
            'R' => SquareKind::Rosette,
            'E' => SquareKind::FourEyes,
            'P' => SquareKind::Passage,
            'T' => SquareKind::FourSquares,
            'Z' => SquareKind::Conversion,
            _ => SquareKind::FiveDots,
        }
    }
    /// Passage and 4-Squares hold one blank and one dotted marker.
    fn shared_by_faces(self) -> bool {
        matches!(self, SquareKind::Passage | SquareKind::FourSquares)
    }
}

/// A decision. Text: `3->7` (a move of the throw), `jump 0->4` (a zero
/// throw), `exit 23->24` (a dotted marker leaving the 4-Squares on a zero).
/// JSON: `{"kind": "move" | "jump", "from": 3, "to": 7}`, `{"kind": "exit", "from": 23}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum BensAction {
    Move { from: u8, to: u8 },
    Jump { from: u8, to: u8 },
    Exit { from: u8 },
}

impl fmt::Display for BensAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BensAction::Move { from, to } => write!(f, "{from}->{to}"),
            BensAction::Jump { from, to } => write!(f, "jump {from}->{to}"),
            BensAction::Exit { from } => write!(f, "exit {from}->{OFF}"),
        }
    }
}

impl BensAction {
    fn ends(self) -> (u8, u8) {
        match self {
            BensAction::Move { from, to } | BensAction::Jump { from, to } => (from, to),
            BensAction::Exit { from } => (from, OFF),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Marker {
    pos: u8,
    face: Face,
}

impl Piece for Marker {
    fn pos(&self) -> u8 {
        self.pos
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SideState {
    home: u8,
    off: u8,
    /// At most [`MARKERS`], kept inline: searches copy games at every step.
    board: ArrayVec<Marker, { MARKERS as usize }>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StartRule {
    VoidAlways,
    VoidIfCommon,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Config {
    dice: DiceModel,
    rosette_capacity: u8,
    per_side_and_face: bool,
    start_rule: StartRule,
    simultaneous_start: bool,
    /// Markers per side (7; fewer for small variants).
    markers: u8,
    /// `kinds[pos]`: the square type of a position (the same for both sides).
    kinds: [SquareKind; OFF as usize],
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Start procedure: the side throws (light, then dark).
    StartRoll(Side),
    /// Start procedure: the side chooses its jump.
    StartJump(Side),
    Roll(Side),
    Decide(Side),
    Over(Side),
}

/// One step of the game's history.
pub type BensEvent = super::Event<BensAction>;

/// A game of `bens-ur`.
#[derive(Clone, Debug)]
pub struct BensGame {
    /// Shared: a search clones the game at every step.
    cfg: Arc<Config>,
    /// Options, paths, history.
    common: Common<BensAction>,
    sides: [SideState; 2],
    phase: Phase,
    /// The move value of the throw being decided.
    throw: Option<u8>,
    /// The open decisions, computed once when a decision step begins.
    legal: Vec<BensAction>,
    /// The current roll is a free turn.
    free_turn: bool,
    /// Start procedure: the throws of this round and the hidden jump choices.
    start_raws: [Option<u8>; 2],
    start_jumps: [Option<u8>; 2],
}

impl BensGame {
    /// Appends the situation's key (see [`crate::AnyGame::situation_key`]).
    pub(crate) fn situation_key(&self, out: &mut Vec<u8>) {
        use crate::situation_key::{opt_byte, side_byte};
        let (tag, side) = match self.phase {
            Phase::StartRoll(s) => (0, s),
            Phase::StartJump(s) => (1, s),
            Phase::Roll(s) => (2, s),
            Phase::Decide(s) => (3, s),
            Phase::Over(s) => (4, s),
        };
        out.extend([tag, side_byte(side), opt_byte(self.throw), u8::from(self.free_turn)]);
        out.extend(self.start_raws.iter().chain(&self.start_jumps).map(|&v| opt_byte(v)));
        for s in &self.sides {
            let mut markers: ArrayVec<(u8, u8), { MARKERS as usize }> = s.board.iter().map(|m| (m.pos, m.face as u8)).collect();
            markers.sort_unstable();
            out.extend([s.home, s.off, markers.len() as u8]);
            out.extend(markers.iter().flat_map(|&(pos, face)| [pos, face]));
        }
    }

    /// A new game; with the simultaneous start (default) the procedure
    /// chooses the first player and `first` is not used.
    ///
    /// # Errors
    /// An unknown option or value.
    pub fn new(options: &Options, first: Side) -> Result<BensGame, SpecError> {
        let values = OptionValues::read(ID, &rule_set().options, options)?;
        let cfg = config(&values);
        let phase = if cfg.simultaneous_start { Phase::StartRoll(Side::Light) } else { Phase::Roll(first) };
        let side = SideState { home: cfg.markers, off: 0, board: ArrayVec::new() };
        let path = if values.get("bens_small_block_order") == "opponent_first" { "PATH-23-ALT" } else { "PATH-23" };
        Ok(BensGame {
            cfg: Arc::new(cfg),
            common: Common::new(values, path),
            sides: [side.clone(), side],
            phase,
            throw: None,
            legal: Vec::new(),
            free_turn: false,
            start_raws: [None; 2],
            start_jumps: [None; 2],
        })
    }

    fn check_squares(&self) -> Result<(), PlayError> {
        for side in Side::BOTH {
            for m in &self.sides[side.index()].board {
                let cell = self.cell(side, m.pos);
                let occ = self.occupants(cell);
                let fits = match self.kind(m.pos) {
                    SquareKind::Rosette if self.cfg.per_side_and_face => {
                        occ.iter().filter(|(s, o)| *s == side && o.face == m.face).count() <= usize::from(self.cfg.rosette_capacity)
                    }
                    SquareKind::Rosette => occ.len() <= usize::from(self.cfg.rosette_capacity),
                    k if k.shared_by_faces() => occ.iter().filter(|(_, o)| o.face == m.face).count() == 1,
                    _ => occ.len() == 1,
                };
                if !fits {
                    return Err(PlayError::BadPosition(format!(
                        "square {} holds more markers than it takes (the {side} marker at {} is one)",
                        super::square_name(cell),
                        m.pos
                    )));
                }
            }
        }
        Ok(())
    }

    /// Whether the start procedure is on (both sides throw for their first
    /// marker): its rolls hand over the dice without passing a turn.
    pub fn in_start_procedure(&self) -> bool {
        matches!(self.phase, Phase::StartRoll(_) | Phase::StartJump(_))
    }

    /// The markers `side` has anywhere (home or reserve, board, off): always
    /// the full set; for checks.
    pub fn marker_count(&self, side: Side) -> usize {
        let st = &self.sides[side.index()];
        usize::from(st.home + st.off) + st.board.len()
    }

    /// `side`'s markers at home, borne off, and on the path (position and face).
    /// Markers per side under the game's options.
    pub fn pieces_per_side(&self) -> u8 {
        self.cfg.markers
    }

    pub fn markers(&self, side: Side) -> (u8, u8, Vec<(u8, Face)>) {
        let st = &self.sides[side.index()];
        (st.home, st.off, st.board.iter().map(|m| (m.pos, m.face)).collect())
    }

    /// Whether the roll to come is a free turn.
    pub fn free_turn(&self) -> bool {
        self.free_turn
    }

    /// The move value of the throw being decided, if a decision is open.
    pub fn throw(&self) -> Option<u8> {
        self.throw
    }

    /// The cell of a path position (1..=23) of `side`.
    pub fn path_cell(&self, side: Side, pos: u8) -> Option<Cell> {
        (1..=LEN).contains(&pos).then(|| self.cell(side, pos))
    }

    /// The steps played so far. It holds a hidden start jump (D22) as soon
    /// as it is chosen: front ends show the snapshot, not the history, while
    /// the other side chooses.
    pub fn history(&self) -> &[BensEvent] {
        self.common.history()
    }

    /// Forgets the history (a copy for a search, which needs the position only).
    pub(crate) fn forget_history(&mut self) {
        self.common.forget_history();
    }

    fn cell(&self, side: Side, pos: u8) -> Cell {
        self.common.cell(side, pos)
    }

    fn boards(&self) -> [&[Marker]; 2] {
        [&self.sides[0].board, &self.sides[1].board]
    }

    fn kind(&self, pos: u8) -> SquareKind {
        self.cfg.kinds[usize::from(pos)]
    }

    /// Every marker on a cell, with its owner.
    fn occupants(&self, cell: Cell) -> ArrayVec<(Side, Marker), 14> {
        self.common.occupants(self.boards(), cell)
    }

    /// Whether `action`, open to the side to move, takes an opposing marker.
    pub fn captures(&self, action: &BensAction) -> bool {
        let Turn::Decide(side) = self.turn() else { return false };
        let (from, to) = action.ends();
        if to == OFF {
            return false;
        }
        let face = self.sides[side.index()].board.iter().find(|m| m.pos == from).map_or(Face::Blank, |m| m.face);
        matches!(self.landing(side, face, to), Some(Landing::Capture(_)))
    }

    /// Whether a marker of `side` with `face` may end a move on `pos`, and
    /// what it captures there (docs/rules/bens-ur.md#landing-sharing-and-capturing).
    fn landing(&self, side: Side, face: Face, pos: u8) -> Option<Landing> {
        // One pass over the markers, in the order of [`BensGame::occupants`]
        // (no list built: searches call this for every move they try).
        let cell = self.cell(side, pos);
        let (mut all, mut own_face) = (0u8, 0u8);
        let mut same_face: Option<(Side, Marker)> = None;
        for s in Side::BOTH {
            for m in self.sides[s.index()].board.iter().filter(|m| self.cell(s, m.pos) == cell) {
                all += 1;
                if m.face == face {
                    own_face += u8::from(s == side);
                    same_face = same_face.or(Some((s, *m)));
                }
            }
        }
        match self.kind(pos) {
            SquareKind::Rosette => {
                let counted = if self.cfg.per_side_and_face { own_face } else { all };
                (counted < self.cfg.rosette_capacity).then_some(Landing::Free)
            }
            kind => match same_face {
                None if all == 0 || kind.shared_by_faces() => Some(Landing::Free),
                None => None,
                Some((owner, m)) if owner != side => Some(Landing::Capture(m.pos)),
                Some(_) => None,
            },
        }
    }

    /// The legal decisions of `side` for a move value (0 = a zero throw).
    fn moves(&self, side: Side, value: u8) -> Vec<BensAction> {
        let st = &self.sides[side.index()];
        let mut froms: Vec<Marker> = st.board.to_vec();
        if st.home > 0 {
            froms.push(Marker { pos: 0, face: Face::Blank });
        }
        froms.sort_by_key(|m| m.pos);
        froms.dedup_by_key(|m| m.pos);
        let mut out = Vec::new();
        for m in froms {
            if value == 0 {
                out.extend(self.jumps(side, m).into_iter().map(|to| BensAction::Jump { from: m.pos, to }));
                if m.pos == LEN && m.face == Face::Dotted {
                    out.push(BensAction::Exit { from: m.pos });
                }
            } else if self.can_move(side, m, m.pos + value) {
                out.push(BensAction::Move { from: m.pos, to: m.pos + value });
            }
        }
        out
    }

    fn can_move(&self, side: Side, m: Marker, to: u8) -> bool {
        if m.face == Face::Blank && to > LAST_BLANK {
            return false;
        }
        to == OFF || (to < OFF && self.landing(side, m.face, to).is_some())
    }

    /// Jump destinations: up to the first rosette ahead (itself included,
    /// D18), not beyond 15 for a blank marker, never capturing (D17).
    fn jumps(&self, side: Side, m: Marker) -> Vec<u8> {
        let mut limit = (m.pos + 1..=LEN).find(|&p| self.kind(p) == SquareKind::Rosette).unwrap_or(LEN);
        if m.face == Face::Blank {
            limit = limit.min(LAST_BLANK);
        }
        (m.pos + 1..=limit).filter(|&to| self.landing(side, m.face, to) == Some(Landing::Free)).collect()
    }

    /// Moves a marker (capturing and converting as the landing says);
    /// returns whether it captured.
    fn shift(&mut self, side: Side, from: u8, to: u8) -> bool {
        let s = side.index();
        let face = if from == 0 {
            self.sides[s].home -= 1;
            Face::Blank
        } else {
            let i = self.sides[s].board.iter().position(|m| m.pos == from).expect("a legal move has a marker");
            self.sides[s].board.remove(i).face
        };
        if to == OFF {
            self.sides[s].off += 1;
            return false;
        }
        let landing = self.landing(side, face, to);
        let captured = if let Some(Landing::Capture(pos)) = landing {
            let o = side.other().index();
            if let Some(i) = self.sides[o].board.iter().position(|m| m.pos == pos) {
                self.sides[o].board.remove(i);
                self.sides[o].home += 1; // back home, blank (D16)
            }
            true
        } else {
            false
        };
        let face = if self.kind(to) == SquareKind::Conversion { Face::Dotted } else { face };
        self.sides[s].board.push(Marker { pos: to, face });
        self.sides[s].board.sort_by_key(|m| m.pos);
        captured
    }

    fn finish_if_won(&mut self, side: Side) -> bool {
        for s in [side, side.other()] {
            if self.sides[s.index()].off == self.cfg.markers {
                self.phase = Phase::Over(s);
                return true;
            }
        }
        false
    }

    fn play(&mut self, side: Side, action: BensAction) {
        let (from, to) = action.ends();
        let captured = self.shift(side, from, to);
        self.throw = None;
        if self.finish_if_won(side) {
            return;
        }
        let zero_move = !matches!(action, BensAction::Move { .. });
        let eyes = to != OFF && self.kind(to) == SquareKind::FourEyes;
        // One free turn at most per move; a capture loses it (D20).
        self.free_turn = (zero_move || eyes) && !captured;
        self.phase = Phase::Roll(if self.free_turn { side } else { side.other() });
    }

    fn roll_normal(&mut self, side: Side, raw: u8) {
        let moves = self.moves(side, raw);
        if moves.is_empty() {
            self.free_turn = false;
            self.phase = Phase::Roll(side.other());
        } else {
            self.throw = Some(raw);
            self.legal = moves;
            self.phase = Phase::Decide(side);
        }
    }

    // ---- start procedure (docs/rules/bens-ur.md#who-starts-the-simultaneous-start) ----

    fn first_marker(&self, side: Side) -> Marker {
        self.sides[side.index()].board.first().copied().unwrap_or(Marker { pos: 0, face: Face::Blank })
    }

    /// Moves the first marker (from home or the board) without landing rules:
    /// the start procedure compares squares afterwards instead (D21).
    fn start_shift(&mut self, side: Side, to: u8) {
        let st = &mut self.sides[side.index()];
        if st.board.is_empty() {
            st.home -= 1;
        }
        st.board.clear();
        st.board.push(Marker { pos: to, face: Face::Blank });
    }

    fn start_jumps_of(&self, side: Side) -> Vec<u8> {
        self.jumps(side, self.first_marker(side))
    }

    fn begin_start_jump(&mut self, side: Side) {
        let from = self.first_marker(side).pos;
        self.legal = self.start_jumps_of(side).into_iter().map(|to| BensAction::Jump { from, to }).collect();
        self.phase = Phase::StartJump(side);
    }

    fn roll_start(&mut self, side: Side, raw: u8) {
        self.start_raws[side.index()] = Some(raw);
        if side == Side::Light {
            self.phase = Phase::StartRoll(Side::Dark);
            return;
        }
        // The raw outcome is the move value for every dice model of this rule set.
        let values = self.start_raws.map(|r| r.unwrap_or(1));
        let value = |s: Side| values[s.index()];
        let zero = values.map(|v| v == 0);
        match zero {
            [true, true] => {
                let common = self
                    .start_jumps_of(Side::Light)
                    .iter()
                    .any(|&a| self.start_jumps_of(Side::Dark).iter().any(|&b| self.cell(Side::Light, a) == self.cell(Side::Dark, b)));
                if self.cfg.start_rule == StartRule::VoidAlways || common {
                    self.start_raws = [None; 2]; // void: both throw again (D63)
                    self.phase = Phase::StartRoll(Side::Light);
                } else {
                    self.begin_start_jump(Side::Light); // hidden choices (D22)
                }
            }
            [false, false] => {
                for s in Side::BOTH {
                    let to = self.first_marker(s).pos + value(s);
                    self.start_shift(s, to);
                }
                self.compare_start();
            }
            _ => {
                let mover = if zero[0] { Side::Dark } else { Side::Light };
                let to = self.first_marker(mover).pos + value(mover);
                self.start_shift(mover, to);
                self.begin_start_jump(mover.other());
            }
        }
    }

    fn jump_start(&mut self, side: Side, to: u8) {
        let both_zero = self.start_raws.iter().all(|r| r.is_some_and(|r| r == 0));
        if both_zero && side == Side::Light {
            self.start_jumps[0] = Some(to); // hidden until dark has chosen
            self.begin_start_jump(Side::Dark);
            return;
        }
        if both_zero {
            if let Some(light_to) = self.start_jumps[0].take() {
                self.start_shift(Side::Light, light_to);
            }
        }
        self.start_shift(side, to);
        self.compare_start();
    }

    fn compare_start(&mut self) {
        self.start_raws = [None; 2];
        let (l, d) = (self.first_marker(Side::Light).pos, self.first_marker(Side::Dark).pos);
        if l >= 1 && d >= 1 && self.cell(Side::Light, l) == self.cell(Side::Dark, d) {
            let markers = self.cfg.markers;
            for s in &mut self.sides {
                s.board.clear();
                s.home = markers;
            }
            self.phase = Phase::StartRoll(Side::Light);
        } else if l == d {
            self.phase = Phase::StartRoll(Side::Light);
        } else {
            self.phase = Phase::Roll(if l > d { Side::Light } else { Side::Dark });
        }
    }

    fn describe_turn(&self) -> String {
        let name = |s: Side| self.side_name(s);
        match self.phase {
            Phase::StartRoll(s) => format!("start procedure: {} throws", name(s)),
            Phase::StartJump(s) => format!("start procedure: {} chooses a jump for the first marker", name(s)),
            Phase::Roll(s) if self.free_turn => format!("{} to roll (free turn pending)", name(s)),
            Phase::Roll(s) => format!("{} to roll", name(s)),
            Phase::Decide(s) => match self.throw {
                Some(0) => format!("{} to move: zero throw (jump, or exit from 23)", name(s)),
                Some(v) => format!("{} to move {v}", name(s)),
                None => format!("{} to move", name(s)),
            },
            Phase::Over(s) => format!("game over: {} wins", name(s)),
        }
    }
}

/// What landing on a square does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Landing {
    Free,
    /// Captures the opposing marker at this position of the opponent's path.
    Capture(u8),
}

fn config(values: &OptionValues) -> Config {
    let dice = match values.get("dice") {
        "BIN4" => DiceModel::Bin4,
        "D4" => DiceModel::D4,
        _ => DiceModel::Bin3,
    };
    let common: Common<BensAction> =
        Common::new(values.clone(), if values.get("bens_small_block_order") == "opponent_first" { "PATH-23-ALT" } else { "PATH-23" });
    let board = Board::named("standard").expect("the standard board exists");
    Config {
        dice,
        rosette_capacity: values.get("rosette_capacity").parse().unwrap_or(2),
        per_side_and_face: values.get("rosette_capacity_scope") == "per_side_and_face",
        start_rule: if values.get("start_double_zero") == "void_if_common_square" {
            StartRule::VoidIfCommon
        } else {
            StartRule::VoidAlways
        },
        simultaneous_start: values.get("start_procedure") != "none",
        markers: values.get("markers").parse().unwrap_or(MARKERS),
        kinds: std::array::from_fn(|pos| SquareKind::of(&board, common.cell(Side::Light, pos as u8))),
    }
}

impl Playable for BensGame {
    type Action = BensAction;
    type Position = BensSetup;

    fn rule_id(&self) -> &str {
        ID
    }

    /// Black (light, SOUTH) and White (dark, NORTH) (D13).
    fn side_name(&self, side: Side) -> &str {
        SIDE_NAMES[side.index()]
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::StartRoll(s) | Phase::Roll(s) => Turn::Roll(s),
            Phase::StartJump(s) | Phase::Decide(s) => Turn::Decide(s),
            Phase::Over(s) => Turn::Over(Some(s)),
        }
    }

    fn outcomes(&self) -> Vec<(u8, f64)> {
        outcomes(self.cfg.dice)
    }

    fn roll(&mut self, raw: u8) -> Result<(), PlayError> {
        check_raw(self.cfg.dice, raw)?;
        match self.phase {
            Phase::StartRoll(s) => {
                self.common.record(BensEvent::Roll { side: s, raw });
                self.roll_start(s, raw);
            }
            Phase::Roll(s) => {
                self.common.record(BensEvent::Roll { side: s, raw });
                self.roll_normal(s, raw);
            }
            _ => return Err(PlayError::WrongTurn { waits: self.describe_turn() }),
        }
        Ok(())
    }

    fn actions(&self) -> Vec<BensAction> {
        match self.phase {
            Phase::StartJump(_) | Phase::Decide(_) => self.legal.clone(),
            _ => Vec::new(),
        }
    }

    fn apply(&mut self, action: &BensAction) -> Result<(), PlayError> {
        if !matches!(self.phase, Phase::StartJump(_) | Phase::Decide(_)) {
            return Err(PlayError::WrongTurn { waits: self.describe_turn() });
        }
        if !self.legal.contains(action) {
            return Err(PlayError::not_open(action, &self.legal));
        }
        self.apply_unchecked(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &BensAction) {
        debug_assert!(self.legal.contains(action), "{action} is not open");
        let (side, start) = match self.phase {
            Phase::StartJump(s) => (s, true),
            Phase::Decide(s) => (s, false),
            _ => panic!("{action} while the game waits for {}", self.describe_turn()),
        };
        self.legal.clear();
        self.common.record(BensEvent::Act { side, action: *action });
        if start {
            self.jump_start(side, action.ends().1);
        } else {
            self.play(side, *action);
        }
    }

    fn standing(&self, side: Side) -> f64 {
        super::standing(self.winner(), side, self.boards(), [self.sides[0].off, self.sides[1].off], self.cfg.markers, OFF)
    }

    fn position(&self) -> BensSetup {
        self.to_setup()
    }

    fn set_position(&mut self, position: &BensSetup) -> Result<(), PlayError> {
        *self = self.with_position(position)?;
        Ok(())
    }

    fn board_text(&self) -> String {
        self.text()
    }
}
