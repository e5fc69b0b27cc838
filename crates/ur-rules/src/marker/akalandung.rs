//! The Akalandung variant (`ludens-akalandung`, docs/rules/ludens-akalandung.md): the
//! `ludens-planet` race plus three powers, each an option: the Mighty Twins,
//! the Warrior's Path and the Oracle's Vision.
//!
//! With every power off the game is `ludens-planet` move for move (a
//! differential test checks it against the race engine). Pieces are kept one
//! by one, so a pair of Twins is two pieces with the twin mark on one square.

mod view;

use std::collections::BTreeMap;
use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub use view::{AkalandungSetup, AkalandungSide, AkalandungSnapshot};

use super::{check_raw, option, outcomes, Common, OptionValues, Piece as MarkerPiece};
use crate::board::Cell;
use crate::catalogue::{Family, FamilyRuleSet};
use crate::dice::DiceModel;
use crate::play::{PlayError, Playable, Turn};
use crate::spec::{Options, SpecError};
use crate::Side;

/// The rule-set id.
pub const ID: &str = "ludens-akalandung";
/// Pieces per side.
pub const PIECES: u8 = 7;
/// Path length (PATH-14); 15 is borne off.
pub const LEN: u8 = 14;
/// The borne-off position.
pub const OFF: u8 = LEN + 1;
/// The rosettes: a replay, and no move passes them.
pub const ROSETTES: [u8; 3] = [4, 8, 14];
/// The central rosette: shared, never a capture.
pub const CENTRE: u8 = 8;
/// Where two own pieces meeting become the Mighty Twins.
pub const TWIN_SQUARE: u8 = 5;
/// The two Passage squares, where Twins lose their power (D38).
const POWERLESS: [u8; 2] = [7, 10];
const SPLIT: u8 = 13;
/// Where a piece entering becomes the Warrior.
pub const WARRIOR_START: u8 = 2;
/// The Oracle's squares: pieces on all three hold the Vision.
pub const ORACLE: [u8; 3] = [1, 3, 11];
const SIDE_NAMES: [&str; 2] = ["Light", "Dark"];
const DICE: DiceModel = DiceModel::Bin3;

/// The rule set and its options, for `ur rules`.
pub fn rule_set() -> FamilyRuleSet {
    let on_off = &["true", "false"];
    FamilyRuleSet {
        id: ID,
        family: Family::Bens,
        name: "Ludens Planet, Akalandung variant",
        source: "Booklet 001, variant Akalandung (docs/rules/ludens-akalandung.md)",
        summary: "The ludens-planet race (7 pieces each, three binary lots, the 14-square route, rosettes 4, 8 and 14 give a replay;\n\
                  a move may not pass a rosette; captures send pieces back; the central rosette 8 is shared) plus three powers:\n\
                  the Mighty Twins (two own pieces meeting on 5 move together and capture anything; powerless on 7 and 10, split on 13),\n\
                  the Warrior's Path (a piece entering on 2 wins by reaching 14 on the warrior squares) and the Oracle's Vision\n\
                  (pieces on 1, 3 and 11 sweep the enemy's pieces home and roll again). Bear off all seven, or bring the Warrior home, to win.",
        options: vec![
            option("twins", "The Mighty Twins (9.1).", "true", on_off),
            option("warrior", "The Warrior's Path (9.2).", "true", on_off),
            option("oracle", "The Oracle's Vision (9.3).", "true", on_off),
            option("replay_optional", "The player may decline a replay (rosette or capture) and end his turn (D64).", "false", on_off),
            option(
                "twins_declaration",
                "Twins form automatically, or only when the player declares them: formation moves are then not compulsory (D37).",
                "automatic",
                &["automatic", "optional"],
            ),
            option("warrior_includes_13", "The zig-zag square 13 also keeps a Warrior (D39).", "false", on_off),
            option(
                "warrior_wins_on",
                "A Warrior wins on reaching square 14, or on bearing off from it (D40).",
                "arrive14",
                &["arrive14", "bearoff"],
            ),
            option("pieces", super::SMALL_VARIANT, "7", &["1", "2", "3", "4", "5", "6", "7"]),
        ],
    }
}

/// A decision. Text: `3->7` (a piece), `warrior 2->4` (the Warrior among
/// pieces on one square), `twins 5->8` (a pair of Twins), `pass` (declining
/// an optional Twins formation that is the only move), `reroll`, `end`.
/// JSON: `{"kind": "move", "from": 3, "to": 7, "warrior": false}`,
/// `{"kind": "twins", "from": 5, "to": 8}`, `{"kind": "pass" | "reroll" | "end"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AkalandungAction {
    Move {
        from: u8,
        to: u8,
        #[serde(default)]
        warrior: bool,
    },
    Twins {
        from: u8,
        to: u8,
    },
    Pass,
    Reroll,
    End,
}

impl fmt::Display for AkalandungAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AkalandungAction::Move { from, to, warrior: false } => write!(f, "{from}->{to}"),
            AkalandungAction::Move { from, to, warrior: true } => write!(f, "warrior {from}->{to}"),
            AkalandungAction::Twins { from, to } => write!(f, "twins {from}->{to}"),
            AkalandungAction::Pass => f.write_str("pass"),
            AkalandungAction::Reroll => f.write_str("reroll"),
            AkalandungAction::End => f.write_str("end"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    pos: u8,
    twin: bool,
    warrior: bool,
}

impl MarkerPiece for Piece {
    fn pos(&self) -> u8 {
        self.pos
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SideState {
    reserve: u8,
    off: u8,
    board: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Config {
    twins: bool,
    warrior: bool,
    oracle: bool,
    replay_optional: bool,
    declare_twins: bool,
    warrior_13: bool,
    warrior_on_bearoff: bool,
    /// Pieces per side (7; fewer for small variants).
    pieces: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Roll(Side),
    Decide(Side),
    /// An optional replay: `reroll` or `end`.
    ExtraRoll(Side),
    Over(Side),
}

/// What landing on a square does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Landing {
    Free,
    Capture,
    /// Onto an own lone piece on square 5: the two become Twins.
    Form,
}

/// One step of the game's history.
pub type AkalandungEvent = super::Event<AkalandungAction>;

/// A game of `ludens-akalandung`.
#[derive(Clone, Debug)]
pub struct AkalandungGame {
    cfg: Config,
    /// Options, paths, history.
    common: Common<AkalandungAction>,
    sides: [SideState; 2],
    phase: Phase,
    throw: Option<u8>,
    /// The open decisions, computed once when a decision step begins.
    legal: Vec<AkalandungAction>,
    oracle: Option<Side>,
}

impl AkalandungGame {
    /// Appends the situation's key (see [`crate::AnyGame::situation_key`]).
    pub(crate) fn situation_key(&self, out: &mut Vec<u8>) {
        use crate::situation_key::{opt_byte, side_byte};
        let (tag, side) = match self.phase {
            Phase::Roll(s) => (0, s),
            Phase::Decide(s) => (1, s),
            Phase::ExtraRoll(s) => (2, s),
            Phase::Over(s) => (3, s),
        };
        out.extend([tag, side_byte(side), opt_byte(self.throw), opt_byte(self.oracle.map(side_byte))]);
        for s in &self.sides {
            let mut pieces: Vec<u8> = s.board.iter().map(|p| p.pos << 2 | u8::from(p.twin) << 1 | u8::from(p.warrior)).collect();
            pieces.sort_unstable();
            out.extend([s.reserve, s.off, pieces.len() as u8]);
            out.extend(pieces);
        }
    }

    /// A new game, `first` to roll (the booklet's roll-off, D35, is left to
    /// the caller, as for `ludens-planet`).
    ///
    /// # Errors
    /// An unknown option or value.
    pub fn new(options: &Options, first: Side) -> Result<AkalandungGame, SpecError> {
        let values = OptionValues::read(ID, &rule_set().options, options)?;
        let cfg = config(&values);
        let side = SideState { reserve: cfg.pieces, off: 0, board: Vec::new() };
        Ok(AkalandungGame {
            cfg,
            common: Common::new(values, "PATH-14"),
            sides: [side.clone(), side],
            phase: Phase::Roll(first),
            throw: None,
            legal: Vec::new(),
            oracle: None,
        })
    }

    fn check_squares(&self) -> Result<(), PlayError> {
        let mut cells: BTreeMap<Cell, Vec<(Side, Piece)>> = BTreeMap::new();
        for s in Side::BOTH {
            for p in &self.sides[s.index()].board {
                cells.entry(self.cell(s, p.pos)).or_default().push((s, *p));
            }
        }
        for (cell, occ) in cells {
            let (side, first) = occ[0];
            if first.pos == CENTRE && self.cell(side, CENTRE) == cell {
                continue;
            }
            let one_side = occ.iter().all(|(s, _)| *s == side);
            let twins = occ.iter().filter(|(_, p)| p.twin).count();
            let fits = one_side
                && match occ.len() {
                    1 => twins == 0,
                    2 => twins == 2 || (twins == 0 && (POWERLESS.contains(&first.pos) || first.pos == SPLIT)),
                    _ => false,
                };
            if !fits {
                return Err(PlayError::BadPosition(format!("square {} cannot hold those pieces together", super::square_name(cell))));
            }
        }
        Ok(())
    }

    /// The markers `side` has anywhere (home or reserve, board, off): always
    /// the full set; for checks.
    pub fn marker_count(&self, side: Side) -> usize {
        let st = &self.sides[side.index()];
        usize::from(st.reserve + st.off) + st.board.len()
    }

    /// The steps played so far.
    pub fn history(&self) -> &[AkalandungEvent] {
        self.common.history()
    }

    /// Forgets the history (a copy for a search, which needs the position only).
    pub(crate) fn forget_history(&mut self) {
        self.common.forget_history();
    }

    /// The move value of the throw being decided, if a decision is open.
    pub fn throw(&self) -> Option<u8> {
        self.throw
    }

    /// The cell of a path position (1..=14) of `side`.
    pub fn path_cell(&self, side: Side, pos: u8) -> Option<Cell> {
        (1..=LEN).contains(&pos).then(|| self.cell(side, pos))
    }

    /// `side`'s pieces in reserve, borne off, and on the path (position,
    /// whether it is one of a pair of Twins, whether it is the Warrior).
    /// Pieces per side under the game's options.
    pub fn pieces_per_side(&self) -> u8 {
        self.cfg.pieces
    }

    pub fn pieces(&self, side: Side) -> (u8, u8, Vec<(u8, bool, bool)>) {
        let st = &self.sides[side.index()];
        (st.reserve, st.off, st.board.iter().map(|p| (p.pos, p.twin, p.warrior)).collect())
    }

    /// The side holding the Oracle's Vision.
    pub fn oracle(&self) -> Option<Side> {
        self.oracle
    }

    fn cell(&self, side: Side, pos: u8) -> Cell {
        self.common.cell(side, pos)
    }

    fn boards(&self) -> [&[Piece]; 2] {
        [&self.sides[0].board, &self.sides[1].board]
    }

    fn occupants(&self, cell: Cell) -> ArrayVec<(Side, Piece), 14> {
        self.common.occupants(self.boards(), cell)
    }

    fn passes_rosette(from: u8, to: u8) -> bool {
        ROSETTES.iter().any(|&r| from < r && r < to)
    }

    /// Whether `action`, open to the side to move, sends opposing pieces back.
    pub fn captures(&self, action: &AkalandungAction) -> bool {
        let Turn::Decide(side) = self.turn() else { return false };
        let landing = match *action {
            AkalandungAction::Move { to, .. } if to != OFF => self.landing_single(side, to),
            AkalandungAction::Twins { to, .. } => self.landing_twins(side, to),
            _ => None,
        };
        landing == Some(Landing::Capture)
    }

    /// Landing of a single piece (docs/rules/ludens-planet.md#turn-and-captures and
    /// docs/rules/ludens-akalandung.md#the-mighty-twins-twins).
    fn landing_single(&self, side: Side, to: u8) -> Option<Landing> {
        if to == CENTRE {
            return Some(Landing::Free);
        }
        let occ = self.occupants(self.cell(side, to));
        let own: Vec<Piece> = occ.iter().filter(|(s, _)| *s == side).map(|o| o.1).collect();
        if !own.is_empty() {
            let lone = own.len() == 1 && !own[0].twin && occ.len() == 1;
            return (self.cfg.twins && to == TWIN_SQUARE && lone).then_some(Landing::Form);
        }
        match occ.len() {
            0 => Some(Landing::Free),
            _ if occ.iter().any(|(_, p)| p.twin) => None, // Twins are protected from single pieces
            _ => Some(Landing::Capture),
        }
    }

    /// Landing of a pair of Twins: they capture whatever opposing pieces are
    /// there, except on the central rosette.
    fn landing_twins(&self, side: Side, to: u8) -> Option<Landing> {
        if to == CENTRE {
            return Some(Landing::Free);
        }
        let occ = self.occupants(self.cell(side, to));
        if occ.iter().any(|(s, _)| *s == side) {
            None
        } else if occ.is_empty() {
            Some(Landing::Free)
        } else {
            Some(Landing::Capture)
        }
    }

    /// Every move of `side` for a move value, before the Oracle's filter.
    fn moves(&self, side: Side, v: u8) -> Vec<AkalandungAction> {
        let mut out = Vec::new();
        if v == 0 {
            return out;
        }
        let st = &self.sides[side.index()];
        let mut singles: Vec<(u8, bool)> = st.board.iter().filter(|p| !p.twin).map(|p| (p.pos, p.warrior)).collect();
        if st.reserve > 0 {
            singles.push((0, false));
        }
        singles.sort_unstable();
        singles.dedup();
        for (from, warrior) in singles {
            let to = from + v;
            let ok = to <= OFF && !Self::passes_rosette(from, to) && (to == OFF || self.landing_single(side, to).is_some());
            if ok {
                out.push(AkalandungAction::Move { from, to, warrior });
            }
        }
        let mut pairs: Vec<u8> = st.board.iter().filter(|p| p.twin).map(|p| p.pos).collect();
        pairs.dedup();
        for from in pairs {
            let to = from + v;
            if to <= SPLIT && !Self::passes_rosette(from, to) && self.landing_twins(side, to).is_some() {
                out.push(AkalandungAction::Twins { from, to });
            }
        }
        out.sort_by_key(|a| match a {
            AkalandungAction::Move { from, .. } | AkalandungAction::Twins { from, .. } => *from,
            _ => 0,
        });
        out
    }

    fn is_formation(&self, side: Side, a: &AkalandungAction) -> bool {
        matches!(a, AkalandungAction::Move { to, .. } if *to == TWIN_SQUARE && self.landing_single(side, *to) == Some(Landing::Form))
    }

    /// The open moves: the Oracle's holder must keep his vision pieces while
    /// another move exists (D42); an optional Twins formation may be declined.
    fn legal(&self, side: Side, v: u8) -> Vec<AkalandungAction> {
        let mut moves = self.moves(side, v);
        if self.oracle == Some(side) {
            let keeps = |a: &AkalandungAction| match a {
                AkalandungAction::Move { from, .. } | AkalandungAction::Twins { from, .. } => !ORACLE.contains(from),
                _ => true,
            };
            if moves.iter().any(keeps) {
                moves.retain(keeps);
            }
        }
        if self.cfg.declare_twins && !moves.is_empty() && moves.iter().all(|a| self.is_formation(side, a)) {
            moves.push(AkalandungAction::Pass);
        }
        moves
    }

    fn has_vision(&self, side: Side) -> bool {
        ORACLE.iter().all(|&sq| self.sides[side.index()].board.iter().any(|p| p.pos == sq))
    }

    /// Sends every opposing piece at `cell` back to reserve.
    fn capture_at(&mut self, side: Side, cell: Cell) -> bool {
        let o = side.other();
        let before = self.sides[o.index()].board.len();
        let common = &self.common;
        self.sides[o.index()].board.retain(|p| common.cell(o, p.pos) != cell);
        let taken = before - self.sides[o.index()].board.len();
        self.sides[o.index()].reserve += taken as u8;
        taken > 0
    }

    fn take_single(&mut self, side: Side, from: u8, warrior: bool) {
        let st = &mut self.sides[side.index()];
        if from == 0 {
            st.reserve -= 1;
        } else if let Some(i) = st.board.iter().position(|p| p.pos == from && !p.twin && p.warrior == warrior) {
            st.board.remove(i);
        }
    }

    /// Plays a single piece; returns (captured, won).
    fn move_single(&mut self, side: Side, from: u8, to: u8, warrior: bool) -> (bool, bool) {
        let landing = if to == OFF { None } else { self.landing_single(side, to) };
        self.take_single(side, from, warrior);
        if to == OFF {
            self.sides[side.index()].off += 1;
            return (false, warrior && self.cfg.warrior_on_bearoff);
        }
        let captured = landing == Some(Landing::Capture) && self.capture_at(side, self.cell(side, to));
        let keeps = |sq: u8| sq == WARRIOR_START || [4, 6, 8, 9, 12, 14].contains(&sq) || (sq == 13 && self.cfg.warrior_13);
        let warrior = self.cfg.warrior && ((from == 0 && to == WARRIOR_START) || (warrior && keeps(to)));
        let twin = landing == Some(Landing::Form);
        let st = &mut self.sides[side.index()];
        if twin {
            for p in st.board.iter_mut().filter(|p| p.pos == to) {
                p.twin = true;
                p.warrior = false;
            }
        }
        st.board.push(Piece { pos: to, twin, warrior: warrior && !twin });
        st.board.sort_by_key(|p| p.pos);
        (captured, warrior && !twin && to == LEN && !self.cfg.warrior_on_bearoff)
    }

    /// Plays a pair of Twins; returns whether it captured.
    fn move_twins(&mut self, side: Side, from: u8, to: u8) -> bool {
        let captured = self.landing_twins(side, to) == Some(Landing::Capture) && self.capture_at(side, self.cell(side, to));
        let st = &mut self.sides[side.index()];
        // On 7 and 10 they lose their power; on 13 they split (both: two plain pieces).
        let twin = !(POWERLESS.contains(&to) || to == SPLIT);
        for p in st.board.iter_mut().filter(|p| p.pos == from && p.twin).take(2) {
            *p = Piece { pos: to, twin, warrior: false };
        }
        st.board.sort_by_key(|p| p.pos);
        captured
    }

    fn play(&mut self, side: Side, action: AkalandungAction) {
        self.throw = None;
        let (to, captured, warrior_won) = match action {
            AkalandungAction::Move { from, to, warrior } => {
                let (c, w) = self.move_single(side, from, to, warrior);
                (to, c, w)
            }
            AkalandungAction::Twins { from, to } => (to, self.move_twins(side, from, to), false),
            _ => {
                self.end_turn(side, false);
                return;
            }
        };
        if warrior_won || self.sides[side.index()].off == self.cfg.pieces {
            self.phase = Phase::Over(side);
            return;
        }
        self.update_oracle(side);
        self.end_turn(side, captured || ROSETTES.contains(&to));
    }

    /// Breaks or forms the Oracle's Vision after a move of `side` (9.3).
    fn update_oracle(&mut self, side: Side) {
        if !self.cfg.oracle {
            return;
        }
        let vision = self.has_vision(side);
        if self.oracle == Some(side) && !vision {
            self.oracle = None;
        } else if self.oracle.is_none() && vision {
            self.oracle = Some(side);
            let o = side.other().index();
            let swept = self.sides[o].board.len() as u8;
            self.sides[o].board.clear(); // back to reserve (D41)
            self.sides[o].reserve += swept;
        }
    }

    fn end_turn(&mut self, side: Side, replay: bool) {
        self.phase = if self.oracle == Some(side) {
            Phase::Roll(side)
        } else if replay && self.cfg.replay_optional {
            Phase::ExtraRoll(side)
        } else if replay {
            Phase::Roll(side)
        } else {
            Phase::Roll(side.other())
        };
    }

    fn describe_turn(&self) -> String {
        let name = |s: Side| self.side_name(s);
        let vision = match self.oracle {
            Some(s) => format!(" ({} holds the Oracle's Vision)", name(s)),
            None => String::new(),
        };
        let what = match self.phase {
            Phase::Roll(s) => format!("{} to roll", name(s)),
            Phase::Decide(s) => format!("{} to move {}", name(s), self.throw.unwrap_or(0)),
            Phase::ExtraRoll(s) => format!("{} may replay (reroll) or end", name(s)),
            Phase::Over(s) => format!("game over: {} wins", name(s)),
        };
        what + &vision
    }
}

fn config(values: &OptionValues) -> Config {
    Config {
        twins: values.flag("twins"),
        warrior: values.flag("warrior"),
        oracle: values.flag("oracle"),
        replay_optional: values.flag("replay_optional"),
        declare_twins: values.get("twins_declaration") == "optional",
        warrior_13: values.flag("warrior_includes_13"),
        warrior_on_bearoff: values.get("warrior_wins_on") == "bearoff",
        pieces: values.get("pieces").parse().unwrap_or(PIECES),
    }
}

impl Playable for AkalandungGame {
    type Action = AkalandungAction;
    type Position = AkalandungSetup;

    fn rule_id(&self) -> &str {
        ID
    }

    fn side_name(&self, side: Side) -> &str {
        SIDE_NAMES[side.index()]
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Roll(s) => Turn::Roll(s),
            Phase::Decide(s) | Phase::ExtraRoll(s) => Turn::Decide(s),
            Phase::Over(s) => Turn::Over(Some(s)),
        }
    }

    fn outcomes(&self) -> Vec<(u8, f64)> {
        outcomes(DICE)
    }

    fn roll(&mut self, raw: u8) -> Result<(), PlayError> {
        check_raw(DICE, raw)?;
        let Phase::Roll(side) = self.phase else {
            return Err(PlayError::WrongTurn { waits: self.describe_turn() });
        };
        self.common.record(AkalandungEvent::Roll { side, raw });
        let legal = self.legal(side, raw);
        if legal.is_empty() {
            // No move: the turn passes, except that the Oracle's holder rolls again (D42).
            self.phase = Phase::Roll(if self.oracle == Some(side) { side } else { side.other() });
        } else {
            self.throw = Some(raw);
            self.legal = legal;
            self.phase = Phase::Decide(side);
        }
        Ok(())
    }

    fn actions(&self) -> Vec<AkalandungAction> {
        match self.phase {
            Phase::Decide(_) => self.legal.clone(),
            Phase::ExtraRoll(_) => vec![AkalandungAction::Reroll, AkalandungAction::End],
            _ => Vec::new(),
        }
    }

    fn apply(&mut self, action: &AkalandungAction) -> Result<(), PlayError> {
        if !matches!(self.phase, Phase::Decide(_) | Phase::ExtraRoll(_)) {
            return Err(PlayError::WrongTurn { waits: self.describe_turn() });
        }
        let open = self.actions();
        if !open.contains(action) {
            return Err(PlayError::not_open(action, &open));
        }
        self.apply_unchecked(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &AkalandungAction) {
        debug_assert!(self.actions().contains(action), "{action} is not open");
        let side = match self.phase {
            Phase::Decide(s) | Phase::ExtraRoll(s) => s,
            _ => panic!("{action} while the game waits for {}", self.describe_turn()),
        };
        self.legal.clear();
        self.common.record(AkalandungEvent::Act { side, action: *action });
        match action {
            AkalandungAction::Reroll => self.phase = Phase::Roll(side),
            AkalandungAction::End => self.phase = Phase::Roll(side.other()),
            a => self.play(side, *a),
        }
    }

    fn standing(&self, side: Side) -> f64 {
        super::standing(self.winner(), side, self.boards(), [self.sides[0].off, self.sides[1].off], self.cfg.pieces, OFF)
    }

    fn position(&self) -> AkalandungSetup {
        self.to_setup()
    }

    fn set_position(&mut self, position: &AkalandungSetup) -> Result<(), PlayError> {
        *self = self.with_position(position)?;
        Ok(())
    }

    fn board_text(&self) -> String {
        self.text()
    }
}
