//! The Akalandung variant (`ludens-akalandung`, docs/rules/ludens-akalandung.md): the
//! `ludens-planet` race plus three powers, each an option: the Mighty Twins,
//! the Warrior's Path and the Oracle's Vision.
//!
//! With every power off the game is `ludens-planet` move for move (a
//! differential test checks it against the race engine). Pieces are kept one
//! by one, so a pair of Twins is two pieces with the twin mark on one square.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::{check_raw, draw_board, not_deciding, not_open, option, outcomes, side_name, OptionValues};
use crate::board::{named_path, Board, Cell};
use crate::dice::DiceModel;
use crate::family::{Family, FamilyRuleSet, PlayError, Playable, Turn};
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
const ROSETTES: [u8; 3] = [4, 8, 14];
/// The central rosette: shared, never a capture.
const CENTRE: u8 = 8;
const TWIN_SQUARE: u8 = 5;
/// The two Passage squares, where Twins lose their power (D38).
const POWERLESS: [u8; 2] = [7, 10];
const SPLIT: u8 = 13;
const WARRIOR_START: u8 = 2;
const ORACLE: [u8; 3] = [1, 3, 11];
const SIDE_NAMES: [&str; 2] = ["Light", "Dark"];
const DICE: DiceModel = DiceModel::Bin3;

/// The rule set and its options, for `ur rules`.
pub fn rule_set() -> FamilyRuleSet {
    let on_off = &["true", "false"];
    FamilyRuleSet {
        id: ID,
        family: Family::Bens,
        name: "Ludens Planet, Akalandung variant",
        source: "Booklet 001, variant Akalandung (RULESETS.md section 9)",
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
        ],
    }
}

/// A decision. Text: `3->7` (a piece), `warrior 2->4` (the Warrior among
/// pieces on one square), `twins 5->8` (a pair of Twins), `pass` (declining
/// an optional Twins formation that is the only move), `reroll`, `end`.
/// JSON: `{"kind": "move", "from": 3, "to": 7, "warrior": false}`,
/// `{"kind": "twins", "from": 5, "to": 8}`, `{"kind": "pass" | "reroll" | "end"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    pos: u8,
    twin: bool,
    warrior: bool,
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
    path: [[Cell; OFF as usize]; 2],
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
    /// Shared: games are cloned for every step of a search.
    options: Arc<OptionValues>,
    sides: [SideState; 2],
    phase: Phase,
    throw: Option<u8>,
    /// The open decisions, computed once when a decision step begins.
    legal: Vec<AkalandungAction>,
    oracle: Option<Side>,
    history: Vec<AkalandungEvent>,
}

impl AkalandungGame {
    /// A new game, `first` to roll (the booklet's roll-off, D35, is left to
    /// the caller, as for `ludens-planet`).
    ///
    /// # Errors
    /// An unknown option or value.
    pub fn new(options: &Options, first: Side) -> Result<AkalandungGame, SpecError> {
        let values = OptionValues::read(ID, &rule_set().options, options)?;
        let side = SideState { reserve: PIECES, off: 0, board: Vec::new() };
        Ok(AkalandungGame {
            cfg: config(&values),
            options: Arc::new(values),
            sides: [side.clone(), side],
            phase: Phase::Roll(first),
            throw: None,
            legal: Vec::new(),
            oracle: None,
            history: Vec::new(),
        })
    }

    /// A game from a position.
    ///
    /// # Errors
    /// Bad options, or a position that breaks the rules (the message says how).
    pub fn from_setup(options: &Options, setup: &AkalandungSetup) -> Result<AkalandungGame, PlayError> {
        let mut g = AkalandungGame::new(options, setup.to_move).map_err(|e| PlayError(e.to_string()))?;
        for (side, s) in [(Side::Light, &setup.light), (Side::Dark, &setup.dark)] {
            g.sides[side.index()] = side_from_setup(side, s)?;
        }
        g.check_squares()?;
        if let Some(h) = setup.oracle {
            if !g.has_vision(h) {
                return Err(PlayError(format!("{h} holds the Oracle's Vision but has no pieces on all of 1, 3 and 11")));
            }
            g.oracle = Some(h);
        }
        for s in Side::BOTH {
            if g.sides[s.index()].off == PIECES {
                g.phase = Phase::Over(s);
            }
        }
        Ok(g)
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
                return Err(PlayError(format!("square [{}, {}] cannot hold those pieces together", cell.row, cell.col)));
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
        &self.history
    }

    /// Forgets the history (a copy for a search, which needs the position only).
    pub(crate) fn forget_history(&mut self) {
        self.history = Vec::new();
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Side> {
        match self.phase {
            Phase::Over(w) => Some(w),
            _ => None,
        }
    }

    /// The side holding the Oracle's Vision.
    pub fn oracle(&self) -> Option<Side> {
        self.oracle
    }

    fn cell(&self, side: Side, pos: u8) -> Cell {
        self.cfg.path[side.index()][usize::from(pos)]
    }

    fn occupants(&self, cell: Cell) -> ArrayVec<(Side, Piece), 14> {
        Side::BOTH
            .into_iter()
            .flat_map(|s| self.sides[s.index()].board.iter().filter(move |p| self.cell(s, p.pos) == cell).map(move |p| (s, *p)))
            .collect()
    }

    fn passes_rosette(from: u8, to: u8) -> bool {
        ROSETTES.iter().any(|&r| from < r && r < to)
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
        let path = self.cfg.path[o.index()];
        self.sides[o.index()].board.retain(|p| path[usize::from(p.pos)] != cell);
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
        if warrior_won || self.sides[side.index()].off == PIECES {
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
        let name = |s: Side| side_name(SIDE_NAMES, s);
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

    /// The position snapshot for the engine protocol: the setup format plus
    /// the turn (`roll light`, `decide dark`, `extra-roll light`, `over light`).
    pub fn snapshot(&self) -> serde_json::Value {
        let turn = match self.phase {
            Phase::Roll(s) => format!("roll {s}"),
            Phase::Decide(s) => format!("decide {s}"),
            Phase::ExtraRoll(s) => format!("extra-roll {s}"),
            Phase::Over(s) => format!("over {s}"),
        };
        serde_json::json!({
            "rules": ID,
            "sides": { "light": SIDE_NAMES[0], "dark": SIDE_NAMES[1] },
            "options": self.options.to_map(),
            "turn": turn,
            "throw": self.throw,
            "oracle": self.oracle,
            "light": self.side_view(Side::Light),
            "dark": self.side_view(Side::Dark),
        })
    }
}

fn config(values: &OptionValues) -> Config {
    let light = named_path("PATH-14").unwrap_or_default();
    let board = Board::named("standard").expect("the standard board exists");
    let mut path = [[Cell { row: 1, col: 0 }; OFF as usize]; 2];
    for (i, &c) in light.iter().enumerate().take(usize::from(LEN)) {
        path[0][i + 1] = c;
        path[1][i + 1] = board.mirror(c);
    }
    Config {
        twins: values.flag("twins"),
        warrior: values.flag("warrior"),
        oracle: values.flag("oracle"),
        replay_optional: values.flag("replay_optional"),
        declare_twins: values.get("twins_declaration") == "optional",
        warrior_13: values.flag("warrior_includes_13"),
        warrior_on_bearoff: values.get("warrior_wins_on") == "bearoff",
        path,
    }
}

fn side_from_setup(side: Side, s: &AkalandungSide) -> Result<SideState, PlayError> {
    let bad = |what: String| Err(PlayError(format!("{side}: {what}")));
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
    let placed = usize::from(s.off) + board.len();
    let reserve = s.reserve.unwrap_or_else(|| PIECES.saturating_sub(u8::try_from(placed).unwrap_or(u8::MAX)));
    if usize::from(reserve) + placed != usize::from(PIECES) {
        return bad(format!("reserve {reserve} + off {} + {} on the board is not {PIECES}", s.off, board.len()));
    }
    Ok(SideState { reserve, off: s.off, board })
}

impl fmt::Display for AkalandungGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        draw_board(&mut out, |cell| {
            let occ = self.occupants(cell);
            occ.iter()
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
                .collect::<Vec<_>>()
                .join("")
        });
        for side in Side::BOTH {
            let v = self.side_view(side);
            out.push_str(&format!(
                "{} ({side}): reserve {}, off {}, pieces {:?}, twins {:?}, warriors {:?}\n",
                side_name(SIDE_NAMES, side),
                v.reserve.unwrap_or(0),
                v.off,
                v.path,
                v.twins,
                v.warriors
            ));
        }
        out.push_str("(L/D = light/dark piece; L2 = one of a pair of Twins; Lw = a Warrior)\n");
        out.push_str(&self.describe_turn());
        f.write_str(&out)
    }
}

impl Playable for AkalandungGame {
    type Action = AkalandungAction;

    fn rule_id(&self) -> &str {
        ID
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
            return Err(PlayError(format!("not a time to roll: {}", self.describe_turn())));
        };
        self.history.push(AkalandungEvent::Roll { side, raw });
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
        let side = match self.phase {
            Phase::Decide(s) | Phase::ExtraRoll(s) => s,
            _ => return Err(not_deciding(&self.describe_turn())),
        };
        let open = self.actions();
        if !open.contains(action) {
            return Err(not_open(action, &open));
        }
        self.legal.clear();
        self.history.push(AkalandungEvent::Act { side, action: *action });
        match action {
            AkalandungAction::Reroll => self.phase = Phase::Roll(side),
            AkalandungAction::End => self.phase = Phase::Roll(side.other()),
            a => self.play(side, *a),
        }
        Ok(())
    }

    fn standing(&self, side: Side) -> f64 {
        if let Some(w) = self.winner() {
            return if w == side { 1.0 } else { 0.0 };
        }
        let progress = |s: Side| {
            let st = &self.sides[s.index()];
            let on: u32 = st.board.iter().map(|p| u32::from(p.pos)).sum();
            f64::from(on + u32::from(st.off) * u32::from(OFF)) / f64::from(u32::from(PIECES) * u32::from(OFF))
        };
        (0.5 + (progress(side) - progress(side.other())) / 2.0).clamp(0.0, 1.0)
    }
}
