//! A game as a picture: the board's squares with their decorations, the
//! pieces on them, the last throw as the dice that made it, and the open
//! actions as "from here to there". Every front end that draws a board
//! (the browser page, the full-screen terminal) draws it from this, so no
//! front end knows a family's rules.
//!
//! Coordinates are grid cells, row 0 at the top; the light side plays along
//! the bottom row. A square's id is `row * cols + col`. Every JSON name here
//! is part of the web protocol (docs/serve.md): change them only with it.
//!
//! Everything is read from the game itself: a race rule set from its
//! [`ur_rules::Rules`] (a custom rule-set file included), the other
//! families from their games' snapshots and paths.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use ur_rules::dice::{DiceModel, Extra};
use ur_rules::game::{Action, Phase};
use ur_rules::marker::akalandung::{self, AkalandungAction, AkalandungGame};
use ur_rules::marker::bens::{self, BensAction, BensGame};
use ur_rules::race::text::cell_name;
use ur_rules::tower::{self, TowerAction, TowerDice, TowerGame, TowerPhase};
use ur_rules::{narrate, AnyAction, AnyGame, Board, Cell, Game, Playable, Rules, Side, SquareKind, Turn};

use crate::Session;

/// Everything a front end needs to draw a game and offer its actions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    pub rules: RulesView,
    pub board: BoardView,
    /// `[light, dark]`: each side's key and its name in this rule set.
    pub sides: [SideView; 2],
    pub position: PositionView,
    pub turn: TurnView,
    /// The throw that made the current decision, if any.
    pub throw: Option<ThrowView>,
    /// The actions open now; empty when the game waits for a roll or is over.
    pub actions: Vec<ActionView>,
    /// The winner's side key (`light` or `dark`), or `draw`.
    pub winner: Option<String>,
    /// The board as text, for a fallback and for tests.
    pub board_text: String,
    /// The position as a position string (docs/positions.md), to copy and share.
    pub position_string: String,
}

/// Which rule set is played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RulesView {
    pub id: String,
    /// The rule set's name, as its booklet or page gives it.
    pub name: String,
    /// `race`, `bens` or `tower`.
    pub family: String,
}

/// The board itself: fixed for a rule set (and its options).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardView {
    /// Grid size in cells.
    pub rows: u8,
    pub cols: u8,
    /// Every square of the board, each once, in row-major order.
    pub squares: Vec<SquareView>,
    /// Each side's path as square ids, start to end: `[light, dark]`.
    /// Path position `p` (1..=L) is entry `p - 1`; a square a path visits
    /// twice appears twice.
    pub paths: [Vec<u16>; 2],
}

/// One square of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SquareView {
    /// `row * cols + col`: unique within the board; what pieces and actions refer to.
    pub id: u16,
    pub row: u8,
    pub col: u8,
    /// Decorations and roles, from a fixed vocabulary.
    ///
    /// Decorations, drawn on the square (the British Museum board's, as
    /// [`ur_rules::Board::decorations`] gives them; the race rule sets and
    /// the marker games show them all, the tower games none):
    /// `rosette` (R, an 8-petal flower), `eyes` (E, the 4-Eyes square),
    /// `five` (F, five dots), `passage` (P, four groups of five dots),
    /// `twelve` (T, the 4-Squares "gate" of twelve dots), `conversion`
    /// (Z, the zig-zag), `cross` (guard-d6's exit, the booklet's cross).
    ///
    /// Roles, as the rules know them: `start` (position 1 of a side's
    /// path), `goal` (its last position), `unused` (on neither path),
    /// `safe` (an opposing piece there cannot be taken), `shared` (holds
    /// pieces of both sides), `stop` (a move may not pass it), `extra_roll`
    /// (landing there gives another roll), `refuge` (tower games: the
    /// square before the final one), `twins`, `oracle`, `warrior`
    /// (`ludens-akalandung`'s powers, when on).
    pub marks: Vec<String>,
    /// The square's name as the move lists name it (`a1` bottom left;
    /// the tower games' booklet names `A1`, `M3`, ...).
    pub name: String,
}

/// What stands where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionView {
    pub pieces: Vec<PieceView>,
    /// Pieces waiting to enter (reserve, home), `[light, dark]`.
    pub reserve: [u32; 2],
    /// Pieces out of play, `[light, dark]`: borne off in the races and the
    /// marker games, eliminated (removed as prisoners) in the tower games.
    pub off: [u32; 2],
    /// Anything else the position holds, in plain words (a pot, a score).
    pub notes: Vec<String>,
}

/// A piece or a stack on one square. A square may hold several of these
/// (both sides, or faces that differ).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceView {
    pub square: u16,
    /// Owner's side key, `light` or `dark`; in a tower game the owner of the
    /// top token (who controls the stack).
    pub side: String,
    /// How many of this side's pieces stand there (shared squares); in a
    /// tower game, how many tokens of the stack are `side`'s.
    pub count: u32,
    /// A marker's face or a piece's role, if the family has one: `blank` /
    /// `dotted` (bens-ur), `twins` / `warrior` (ludens-akalandung), the
    /// bird's name (named birds), `plain` / `promoted` (the top token of a
    /// tower).
    pub face: Option<String>,
    /// Tower games: the stack from bottom to top, as side keys; empty otherwise.
    pub stack: Vec<String>,
    /// Tower games: the face of each token of `stack`, `plain` or `promoted`.
    pub stack_faces: Vec<String>,
}

/// Whose turn and what they must do.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnView {
    /// `light` or `dark`; none when the game is over.
    pub side: Option<String>,
    /// `roll`, `act` or `over`.
    pub stage: String,
    /// In plain English: "White to roll", "Black wins".
    pub text: String,
}

/// A throw as the dice that made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowView {
    /// The physical dice: `binary` (pyramids or sticks, each 0 or 1), `d4`, `d6`.
    pub kind: String,
    /// One entry per die: for `binary` 0 or 1 (a marked tip; a fixed
    /// arrangement for each count), otherwise the face.
    pub dice: Vec<u8>,
    /// What the dice show: marked tips, or the face.
    pub raw: u8,
    /// What the throw counts for in the rules (squares to move).
    pub value: u8,
    /// In plain English: "3 marked tips: move 5, then roll again".
    pub text: String,
    /// The rule set's throw table, when a throw counts other than what the
    /// dice show (Bell's table, a zero counting 4): every raw outcome with
    /// its value; empty otherwise.
    pub table: Vec<ThrowRow>,
}

/// One row of a throw table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowRow {
    pub raw: u8,
    pub value: u8,
    /// What else the throw does, in words ("roll again", "cannot enter"); may be empty.
    pub text: String,
}

/// One open action.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionView {
    /// Its index in the game's action list: what a client sends back.
    pub index: usize,
    /// `move` (a piece goes from `from` to `to`), or `choice` (re-roll,
    /// prisoners, declarations: asked in words).
    pub kind: String,
    pub from: Option<Spot>,
    pub to: Option<Spot>,
    /// In plain English, as the terminal game lists it.
    pub text: String,
    /// The action as the engine protocol's JSON ([`AnyGame::action_from_json`] reads it back).
    pub json: Value,
}

/// Where a move starts or ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "at")]
pub enum Spot {
    Square {
        square: u16,
    },
    /// The side's reserve (pieces waiting to enter).
    Reserve {
        side: String,
    },
    /// Off the board: borne off.
    Off {
        side: String,
    },
}

/// The session's game as a picture.
pub fn game_view(session: &Session) -> GameView {
    view_of(session.game())
}

/// A game as a picture (what [`game_view`] shows of a session's game).
pub fn view_of(game: &AnyGame) -> GameView {
    let board_text = game.board_text();
    let (turn, winner) = turn_view(game, &board_text);
    let (board, position, throw) = match game {
        AnyGame::Race(g) => (race_board(g.rules()), race_position(g), race_throw(g)),
        AnyGame::Bens(g) => bens_parts(g),
        AnyGame::Akalandung(g) => akalandung_parts(g),
        AnyGame::Tower(g) => (tower_board(g), tower_position(g), tower_throw(g)),
    };
    let mover = match game.turn() {
        Turn::Decide(side) | Turn::Roll(side) => side,
        Turn::Over(_) => Side::Light,
    };
    let actions = game.actions().iter().enumerate().map(|(index, action)| action_view(game, &board, mover, index, action)).collect();
    let family = serde_json::to_value(game.family()).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    GameView {
        rules: RulesView { id: game.rule_id().to_string(), name: narrate::rule_set_name(game), family },
        board,
        sides: [side_view(game, Side::Light), side_view(game, Side::Dark)],
        position,
        turn,
        throw,
        actions,
        winner,
        board_text,
        position_string: game.position_string(),
    }
}

fn side_key(side: Side) -> String {
    side.name().to_string()
}

/// A side's key and name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideView {
    pub key: String,
    pub name: String,
}

fn side_view(game: &AnyGame, side: Side) -> SideView {
    SideView { key: side_key(side), name: game.side_name(side).to_string() }
}

fn turn_view(game: &AnyGame, board_text: &str) -> (TurnView, Option<String>) {
    // The game's own words for what it waits for: the last line of its
    // board text ("Black to move 3", "start procedure: White throws").
    let told = |fallback: String| {
        let line = board_text.lines().rev().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
        // The tower games add their count of quiet turns (a note here).
        let line = line.split("; ").next().unwrap_or_default().to_string();
        let mut chars = line.chars();
        chars.next().map_or(fallback, |c| c.to_uppercase().chain(chars).collect())
    };
    match game.turn() {
        Turn::Roll(side) => {
            let text = told(format!("{} to roll", game.side_name(side)));
            (TurnView { side: Some(side_key(side)), stage: "roll".into(), text }, None)
        }
        Turn::Decide(side) => {
            let text = told(format!("{} to move", game.side_name(side)));
            (TurnView { side: Some(side_key(side)), stage: "act".into(), text }, None)
        }
        Turn::Over(won) => {
            let winner = won.map(side_key).unwrap_or_else(|| "draw".into());
            let text = match won {
                Some(side) => format!("{} wins", game.side_name(side)),
                None => "The game is drawn".into(),
            };
            (TurnView { side: None, stage: "over".into(), text }, Some(winner))
        }
    }
}

// ---- boards ----

fn square_id(cols: u8, cell: Cell) -> u16 {
    u16::from(cell.row) * u16::from(cols) + u16::from(cell.col)
}

/// The marks of a board's decoration letter (docs/rules/bens-ur.md#board-and-path).
fn decoration_marks(board: &Board, cell: Cell, marks: &mut Vec<String>) {
    if board.is_rosette(cell) {
        marks.push("rosette".into());
    }
    let mark = match board.decoration(cell) {
        'E' => "eyes",
        'F' => "five",
        'P' => "passage",
        'T' => "twelve",
        'Z' => "conversion",
        _ => return,
    };
    marks.push(mark.into());
}

fn push(marks: &mut Vec<String>, mark: &str) {
    if !marks.iter().any(|m| m == mark) {
        marks.push(mark.into());
    }
}

/// A board's squares in row-major order: every cell the board has, its
/// decorations (if `decorated`), `start`, `goal` and `unused` from the paths,
/// then the family's roles.
fn build_board(
    board: &Board,
    paths: [Vec<Cell>; 2],
    decorated: bool,
    name: impl Fn(Cell) -> String,
    roles: impl Fn(Cell, &mut Vec<String>),
) -> BoardView {
    let mut squares = Vec::new();
    for row in 0..board.rows {
        for col in 0..board.cols {
            let cell = Cell { row, col };
            if !board.contains(cell) {
                continue;
            }
            let mut marks = Vec::new();
            if decorated {
                decoration_marks(board, cell, &mut marks);
            }
            if paths.iter().any(|p| p.first() == Some(&cell)) {
                push(&mut marks, "start");
            }
            if paths.iter().any(|p| p.last() == Some(&cell)) {
                push(&mut marks, "goal");
            }
            if !paths.iter().any(|p| p.contains(&cell)) {
                push(&mut marks, "unused");
            }
            roles(cell, &mut marks);
            squares.push(SquareView { id: square_id(board.cols, cell), row, col, marks, name: name(cell) });
        }
    }
    let ids = |p: &[Cell]| p.iter().map(|&c| square_id(board.cols, c)).collect();
    BoardView { rows: board.rows, cols: board.cols, squares, paths: [ids(&paths[0]), ids(&paths[1])] }
}

fn standard_board() -> Board {
    Board::named("standard").expect("the standard board exists")
}

/// A race board from its rules alone: geometry, paths, square kinds and rosettes.
fn race_board(rules: &Rules) -> BoardView {
    let len = rules.path_len();
    let path = |side: Side| (1..=len).map(|p| rules.cell(side, p)).collect::<Vec<_>>();
    let spec = &rules.spec;
    build_board(
        &rules.board,
        [path(Side::Light), path(Side::Dark)],
        true,
        |c| cell_name(rules, c),
        |cell, marks| {
            let Ok(sq) = rules.squares().binary_search(&cell) else { return };
            let on_path = Side::BOTH.into_iter().find_map(|s| {
                let p = rules.positions_on(s, sq as u8)[0];
                (p > 0).then_some((s, p))
            });
            if let Some((side, pos)) = on_path {
                match rules.kind(side, pos) {
                    SquareKind::Safe => push(marks, "safe"),
                    SquareKind::Shared => push(marks, "shared"),
                    SquareKind::Plain => {}
                }
            }
            if rules.board.is_rosette(cell) {
                if spec.rosettes.stop {
                    push(marks, "stop");
                }
                if spec.rosettes.extra_roll != Extra::None {
                    push(marks, "extra_roll");
                }
            }
        },
    )
}

/// The marker games' board: the standard board with every decoration.
fn marker_board(path_cell: impl Fn(Side, u8) -> Option<Cell>, roles: impl Fn(Cell, &mut Vec<String>)) -> BoardView {
    let board = standard_board();
    let path = |side: Side| (1..).map_while(|p| path_cell(side, p)).collect::<Vec<_>>();
    let rows = board.rows;
    build_board(&board, [path(Side::Light), path(Side::Dark)], true, |c| format!("{}{}", (b'a' + c.col) as char, rows - c.row), roles)
}

fn bens_board(g: &BensGame) -> BoardView {
    let board = standard_board();
    // A rosette protects its markers (docs/rules/bens-ur.md#board-and-path).
    marker_board(
        |s, p| g.path_cell(s, p),
        |cell, marks| {
            if board.is_rosette(cell) {
                push(marks, "safe");
            }
        },
    )
}

fn akalandung_board(g: &AkalandungGame, options: &BTreeMap<String, String>) -> BoardView {
    let on = |name: &str| options.get(name).is_some_and(|v| v == "true");
    let at = |positions: &[u8]| -> Vec<Cell> {
        Side::BOTH.into_iter().flat_map(|s| positions.iter().filter_map(move |&p| g.path_cell(s, p))).collect()
    };
    let rosettes = at(&akalandung::ROSETTES);
    let centre = at(&[akalandung::CENTRE]);
    let twins = if on("twins") { at(&[akalandung::TWIN_SQUARE]) } else { Vec::new() };
    let oracle = if on("oracle") { at(&akalandung::ORACLE) } else { Vec::new() };
    let warrior = if on("warrior") { at(&[akalandung::WARRIOR_START]) } else { Vec::new() };
    marker_board(
        |s, p| g.path_cell(s, p),
        |cell, marks| {
            if rosettes.contains(&cell) {
                push(marks, "stop");
                push(marks, "extra_roll");
            }
            if centre.contains(&cell) {
                push(marks, "safe");
                push(marks, "shared");
            }
            for (cells, mark) in [(&twins, "twins"), (&oracle, "oracle"), (&warrior, "warrior")] {
                if cells.contains(&cell) {
                    push(marks, mark);
                }
            }
        },
    )
}

fn tower_board(g: &TowerGame) -> BoardView {
    let board = standard_board();
    let path = |side: Side| (1..=tower::FINAL).map(|p| tower::cell(tower::square(side, p))).collect::<Vec<_>>();
    let by_cell: BTreeMap<Cell, usize> = (0..tower::SQUARES).map(|sq| (tower::cell(sq), sq)).collect();
    let guard = g.rules().id == "guard-d6";
    build_board(
        &board,
        [path(Side::Light), path(Side::Dark)],
        false,
        |c| by_cell.get(&c).map_or_else(String::new, |&sq| tower::square_name(sq)),
        |cell, marks| {
            let Some(&sq) = by_cell.get(&cell) else { return };
            let pos = Side::BOTH.into_iter().find_map(|s| tower::position(s, sq));
            match pos {
                Some(p) if (tower::M1..=tower::M8).contains(&p) => push(marks, "shared"),
                Some(tower::REFUGE) => push(marks, "refuge"),
                Some(tower::FINAL) if guard => push(marks, "cross"),
                _ => {}
            }
        },
    )
}

// ---- positions ----

fn piece(square: u16, side: Side, count: u32, face: Option<String>) -> PieceView {
    PieceView { square, side: side_key(side), count, face, stack: Vec::new(), stack_faces: Vec::new() }
}

fn race_position(g: &Game) -> PositionView {
    let rules = g.rules();
    let st = g.state();
    let cols = rules.board.cols;
    let mut pieces = Vec::new();
    for side in Side::BOTH {
        if let Some(birds) = &rules.spec.birds {
            for (i, &pos) in st.birds(side, rules).iter().enumerate() {
                if (1..=rules.path_len()).contains(&pos) {
                    let name = birds.names.get(i).cloned().unwrap_or_else(|| format!("bird {}", i + 1));
                    pieces.push(piece(square_id(cols, rules.cell(side, pos)), side, 1, Some(name)));
                }
            }
            continue;
        }
        let mut per: BTreeMap<u16, u32> = BTreeMap::new();
        for pos in 1..=rules.path_len() {
            let n = u32::from(st.count_at(side, pos));
            if n > 0 {
                *per.entry(square_id(cols, rules.cell(side, pos))).or_default() += n;
            }
        }
        pieces.extend(per.into_iter().map(|(sq, n)| piece(sq, side, n, None)));
    }
    let mut notes = Vec::new();
    if let Some(paid) = g.pot_paid() {
        let name = |s: Side| rules.spec.sides[s.index()].clone();
        notes.push(format!("Pot: {} has paid {}, {} has paid {}", name(Side::Light), paid[0], name(Side::Dark), paid[1]));
    }
    if rules.named_pieces() && matches!(g.phase(), Phase::Declare | Phase::Roll) {
        if let (Some(b), Some(birds)) = (g.next_bird(), &rules.spec.birds) {
            let name = birds.names.get(usize::from(b) - 1).cloned().unwrap_or_default();
            notes.push(format!("Next bird to summon: {name} ({b}), called with a {}", rules.call_value(b)));
        }
    }
    let count = |f: fn(&ur_rules::State, Side) -> u8| [u32::from(f(st, Side::Light)), u32::from(f(st, Side::Dark))];
    PositionView { pieces, reserve: count(ur_rules::State::reserve), off: count(ur_rules::State::off), notes }
}

fn marker_pieces(
    cols: u8,
    cell: impl Fn(Side, u8) -> Option<Cell>,
    side: Side,
    positions: &[u8],
    face: Option<&str>,
    per: u32,
) -> Vec<PieceView> {
    let mut by: BTreeMap<u16, u32> = BTreeMap::new();
    for &p in positions {
        if let Some(c) = cell(side, p) {
            *by.entry(square_id(cols, c)).or_default() += per;
        }
    }
    by.into_iter().map(|(sq, n)| piece(sq, side, n, face.map(str::to_string))).collect()
}

fn bens_parts(g: &BensGame) -> (BoardView, PositionView, Option<ThrowView>) {
    let snap = g.snapshot();
    let cols = standard_board().cols;
    let mut pieces = Vec::new();
    let mut reserve = [0; 2];
    let mut off = [0; 2];
    for (side, s) in [(Side::Light, &snap.light), (Side::Dark, &snap.dark)] {
        pieces.extend(marker_pieces(cols, |sd, p| g.path_cell(sd, p), side, &s.blank, Some("blank"), 1));
        pieces.extend(marker_pieces(cols, |sd, p| g.path_cell(sd, p), side, &s.dotted, Some("dotted"), 1));
        reserve[side.index()] = u32::from(s.home.unwrap_or(0));
        off[side.index()] = u32::from(s.off);
    }
    let mut notes = Vec::new();
    if snap.turn.starts_with("start") {
        notes.push("Start procedure: both sides throw for their first marker; the one further ahead starts".into());
    }
    if snap.free_turn {
        notes.push("This roll is a free turn".into());
    }
    let dice = match snap.options.get("dice").map(String::as_str) {
        Some("BIN4") => DiceModel::Bin4,
        Some("D4") => DiceModel::D4,
        _ => DiceModel::Bin3,
    };
    // The raw outcome is the move value in every dice model of bens-ur; a
    // start jump is decided after a zero.
    let raw = if snap.turn.starts_with("start-jump") { Some(0) } else { snap.throw };
    let throw = raw.map(|raw| {
        let text =
            if raw == 0 { "a zero: jump (or leave from 23 with a dotted marker), then a free turn".into() } else { format!("move {raw}") };
        throw_view(dice, raw, raw, format!("{}: {text}", shows(dice, raw)), Vec::new())
    });
    (bens_board(g), PositionView { pieces, reserve, off, notes }, throw)
}

fn akalandung_parts(g: &AkalandungGame) -> (BoardView, PositionView, Option<ThrowView>) {
    let snap = g.snapshot();
    let cols = standard_board().cols;
    let cell = |sd: Side, p: u8| g.path_cell(sd, p);
    let mut pieces = Vec::new();
    let mut reserve = [0; 2];
    let mut off = [0; 2];
    for (side, s) in [(Side::Light, &snap.light), (Side::Dark, &snap.dark)] {
        let mut plain = s.path.clone();
        for w in &s.warriors {
            if let Some(i) = plain.iter().position(|p| p == w) {
                plain.remove(i);
            }
        }
        pieces.extend(marker_pieces(cols, cell, side, &plain, None, 1));
        pieces.extend(marker_pieces(cols, cell, side, &s.warriors, Some("warrior"), 1));
        pieces.extend(marker_pieces(cols, cell, side, &s.twins, Some("twins"), 2));
        reserve[side.index()] = u32::from(s.reserve.unwrap_or(0));
        off[side.index()] = u32::from(s.off);
    }
    let mut notes = Vec::new();
    if let Some(holder) = snap.oracle {
        notes.push(format!("{} holds the Oracle's Vision", g.side_name(holder)));
    }
    let throw =
        snap.throw.map(|raw| throw_view(DiceModel::Bin3, raw, raw, format!("{}: move {raw}", shows(DiceModel::Bin3, raw)), Vec::new()));
    (akalandung_board(g, &snap.options), PositionView { pieces, reserve, off, notes }, throw)
}

fn tower_position(g: &TowerGame) -> PositionView {
    let cols = standard_board().cols;
    let stacks = g.stacks();
    let face = |promoted: bool| if promoted { "promoted" } else { "plain" }.to_string();
    let mut pieces = Vec::new();
    for sq in 0..tower::SQUARES {
        let Some(top) = stacks.top(sq) else { continue };
        let tokens: Vec<_> = (0..stacks.len(sq)).map(|i| stacks.token(sq, i)).collect();
        let count = tokens.iter().filter(|t| t.owner() == top.owner()).count() as u32;
        pieces.push(PieceView {
            square: square_id(cols, tower::cell(sq)),
            side: side_key(top.owner()),
            count,
            face: Some(face(top.promoted())),
            stack: tokens.iter().map(|t| side_key(t.owner())).collect(),
            stack_faces: tokens.iter().map(|t| face(t.promoted())).collect(),
        });
    }
    let snap = g.snapshot();
    let r = g.rules();
    let mut notes = vec![format!("Faces: {} (plain), {} (promoted)", r.faces[0], r.faces[1])];
    for side in Side::BOTH {
        let (held, gone) = (snap.prisoners[side.index()], g.eliminated(side));
        if held > 0 || gone > 0 {
            notes.push(format!("{}: {held} held prisoner, {gone} eliminated", g.side_name(side)));
        }
    }
    if g.quiet_turns() > 0 {
        notes.push(format!("{} turns without progress", g.quiet_turns()));
    }
    if let Some(end) = g.end_reason() {
        notes.push(format!(
            "Ended by {}",
            serde_json::to_value(end).ok().and_then(|v| v.as_str().map(|s| s.replace('_', " "))).unwrap_or_default()
        ));
    }
    let both = |f: &dyn Fn(Side) -> u8| [u32::from(f(Side::Light)), u32::from(f(Side::Dark))];
    PositionView { pieces, reserve: both(&|s| g.reserve(s)), off: both(&|s| g.eliminated(s)), notes }
}

// ---- throws ----

/// A fixed arrangement of `marked` marked dice among `n` binary dice.
fn binary_dice(n: u8, marked: u8) -> Vec<u8> {
    let four: [[u8; 4]; 5] = [[0, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 1], [1, 1, 0, 1], [1, 1, 1, 1]];
    let three: [[u8; 3]; 4] = [[0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 1]];
    match n {
        4 => four[usize::from(marked.min(4))].to_vec(),
        3 => three[usize::from(marked.min(3))].to_vec(),
        _ => (0..n).map(|i| u8::from(i < marked)).collect(),
    }
}

/// What the raw dice show, in words.
fn shows(model: DiceModel, raw: u8) -> String {
    match model {
        DiceModel::Bin3 | DiceModel::Bin4 => format!("{raw} marked tip{}", if raw == 1 { "" } else { "s" }),
        DiceModel::D4 | DiceModel::D6 => format!("a {raw}"),
    }
}

fn throw_view(model: DiceModel, raw: u8, value: u8, text: String, table: Vec<ThrowRow>) -> ThrowView {
    let (kind, dice) = match model {
        DiceModel::Bin3 => ("binary", binary_dice(3, raw)),
        DiceModel::Bin4 => ("binary", binary_dice(4, raw)),
        DiceModel::D4 => ("d4", vec![raw]),
        DiceModel::D6 => ("d6", vec![raw]),
    };
    ThrowView { kind: kind.into(), dice, raw, value, text, table }
}

fn extra_text(extra: Extra, enter: bool) -> String {
    let mut parts = Vec::new();
    match extra {
        Extra::Auto => parts.push("then roll again"),
        Extra::Optional => parts.push("then may roll again"),
        Extra::None => {}
    }
    if !enter {
        parts.push("cannot enter a piece");
    }
    parts.join(", ")
}

/// The race's throw: the throw awaiting a move, or the last roll when the
/// decision is whether to roll again.
fn race_throw(g: &Game) -> Option<ThrowView> {
    let rules = g.rules();
    let raw = match g.phase() {
        Phase::Move => g.throw().map(|t| t.raw),
        Phase::ExtraRoll => g.history().iter().rev().find_map(|a| match a {
            Action::Roll(raw) => Some(*raw),
            _ => None,
        }),
        _ => None,
    }?;
    let t = rules.throw(raw)?;
    let throws: Vec<_> = rules.throws().map(|(t, _)| t).collect();
    let plain = throws.iter().all(|t| t.value == t.raw && t.extra == Extra::None && t.enter);
    let table = if plain {
        Vec::new()
    } else {
        throws.iter().map(|t| ThrowRow { raw: t.raw, value: t.value, text: extra_text(t.extra, t.enter) }).collect()
    };
    let mut text = format!("{}: ", shows(rules.dice(), raw));
    text += &if t.value == 0 { "no move".to_string() } else { format!("move {}", t.value) };
    let extra = extra_text(t.extra, t.enter);
    if t.value > 0 && !extra.is_empty() {
        text += &format!(", {extra}");
    }
    Some(throw_view(rules.dice(), raw, t.value, text, table))
}

fn tower_throw(g: &TowerGame) -> Option<ThrowView> {
    let pyramids = g.rules().dice == TowerDice::Pyramids;
    let model = if pyramids { DiceModel::Bin4 } else { DiceModel::D6 };
    let table = if pyramids {
        let mut rows: Vec<ThrowRow> = (1..=4).map(|v| ThrowRow { raw: v, value: v, text: String::new() }).collect();
        rows.insert(0, ThrowRow { raw: 0, value: 5, text: "throw again or move 5".into() });
        rows
    } else {
        let mut rows: Vec<ThrowRow> = (1..=5).map(|v| ThrowRow { raw: v, value: v, text: String::new() }).collect();
        rows.push(ThrowRow { raw: 6, value: 0, text: "the turn passes".into() });
        rows
    };
    match g.phase() {
        TowerPhase::Blank => Some(throw_view(model, 0, 0, "all blank: throw again or move 5".into(), table)),
        // A pyramid move of 5 comes only from an all-blank throw.
        TowerPhase::Move(5) if pyramids => Some(throw_view(model, 0, 5, "all blank: move 5".into(), table)),
        TowerPhase::Move(v) => Some(throw_view(model, v, v, format!("{}: move {v}", shows(model, v)), table)),
        TowerPhase::Roll | TowerPhase::Over(_) => None,
    }
}

// ---- actions ----

fn action_view(game: &AnyGame, board: &BoardView, mover: Side, index: usize, action: &AnyAction) -> ActionView {
    let json = serde_json::to_value(action).unwrap_or(Value::Null);
    let at = |pos: u8| board.paths[mover.index()].get(usize::from(pos) - 1).map(|&square| Spot::Square { square });
    let reserve = || Some(Spot::Reserve { side: side_key(mover) });
    let off = || Some(Spot::Off { side: side_key(mover) });
    let name = |pos: u8| {
        board.paths[mover.index()]
            .get(usize::from(pos).wrapping_sub(1))
            .and_then(|id| board.squares.iter().find(|s| s.id == *id))
            .map_or_else(String::new, |s| s.name.clone())
    };
    // A move between path positions (0 = reserve, `last + 1` or more = off).
    let step = |from: u8, to: u8, last: u8| {
        let f = if from == 0 { reserve() } else { at(from) };
        let t = if to > last { off() } else { at(to) };
        (f, t)
    };
    let words = |from: u8, to: u8, last: u8| {
        let f = if from == 0 { "enter".to_string() } else { format!("{from} ({})", name(from)) };
        let t = if to > last { "off".to_string() } else { format!("{to} ({})", name(to)) };
        format!("{f} -> {t}")
    };
    let choice = |text: String| ActionView { index, kind: "choice".into(), from: None, to: None, text, json: json.clone() };
    let mv = |(from, to): (Option<Spot>, Option<Spot>), text: String| ActionView {
        index,
        kind: "move".into(),
        from,
        to,
        text,
        json: json.clone(),
    };
    match (game, action) {
        (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) => mv(step(m.from, m.to, g.rules().path_len()), narrate::label(game, action)),
        (AnyGame::Race(_), AnyAction::Race(Action::Choose(_))) => {
            let text = narrate::label(game, action);
            let mut chars = text.chars();
            choice(chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect()))
        }
        (_, AnyAction::Bens(a)) => {
            let last = bens::LEN;
            match *a {
                BensAction::Move { from, to } => mv(step(from, to, last), words(from, to, last)),
                BensAction::Jump { from, to } => mv(step(from, to, last), format!("jump {}", words(from, to, last))),
                BensAction::Exit { from } => mv(step(from, bens::OFF, last), format!("leave the board: {}", words(from, bens::OFF, last))),
            }
        }
        (_, AnyAction::Akalandung(a)) => {
            let last = akalandung::LEN;
            match *a {
                AkalandungAction::Move { from, to, warrior } => {
                    let text = words(from, to, last);
                    mv(step(from, to, last), if warrior { format!("the Warrior: {text}") } else { text })
                }
                AkalandungAction::Twins { from, to } => mv(step(from, to, last), format!("the Twins: {}", words(from, to, last))),
                AkalandungAction::Pass => choice("Do not form the Twins: pass".into()),
                AkalandungAction::Reroll => choice("Roll again".into()),
                AkalandungAction::End => choice("End the turn".into()),
            }
        }
        (_, AnyAction::Tower(a)) => match *a {
            TowerAction::Move(m) => {
                let mut text = words(m.from, m.to, tower::FINAL);
                if m.backward() {
                    text += " (backward)";
                }
                if m.carry > 0 {
                    text += &format!(", carrying {} prisoner{}", m.carry, if m.carry == 1 { "" } else { "s" });
                }
                mv(step(m.from, m.to, tower::FINAL), text)
            }
            TowerAction::Reroll => choice("Throw again".into()),
            TowerAction::Move5 => choice("Move 5".into()),
        },
        _ => choice(action.to_string()),
    }
}
