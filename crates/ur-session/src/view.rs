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
//! families from their games' snapshots and paths. Each family's board,
//! pieces and throw are built in its own file (`view/race.rs`,
//! `view/marker.rs`, `view/tower.rs`); what they share is here.

use serde::Serialize;
use serde_json::Value;
use ur_rules::dice::DiceModel;
use ur_rules::{narrate, AnyGame, Board, Cell, Playable, Side, Turn};

use crate::Session;

mod action;
mod marker;
mod race;
mod rolled;
mod tower;
mod words;

pub use rolled::{action_said, rolled_throw};
pub use words::{Phrase, PHRASE_KEYS};

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
    /// Whether hints exist: a solved table or search for the race, a trained network beyond it.
    pub hints: bool,
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
    /// `notes` as phrases, one each.
    pub note_words: Vec<Phrase>,
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
    /// `text` as phrases: what the dice show, then what the throw does.
    pub words: Vec<Phrase>,
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
    /// `text` as phrases.
    pub words: Vec<Phrase>,
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
    /// The action as phrases: the action, then what it also does.
    pub words: Vec<Phrase>,
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
        AnyGame::Race(g) => race::race_parts(g),
        AnyGame::Bens(g) => marker::bens_parts(g),
        AnyGame::Akalandung(g) => marker::akalandung_parts(g),
        AnyGame::Tower(g) => tower::tower_parts(g),
    };
    let mover = match game.turn() {
        Turn::Decide(side) | Turn::Roll(side) => side,
        Turn::Over(_) => Side::Light,
    };
    let actions =
        game.actions().iter().enumerate().map(|(index, action)| action::action_view(game, &board, mover, index, action)).collect();
    let family = serde_json::to_value(game.family()).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    GameView {
        rules: RulesView {
            id: game.rule_id().to_string(),
            name: narrate::rule_set_name(game),
            family,
            hints: game.as_race().is_some() || ur_bots::net::for_game(game).is_some(),
        },
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
    /// The colour its pieces are drawn in, `light` or `dark`: the key's,
    /// unless the side is named for the other colour (Ben's light side is
    /// Black).
    pub tone: String,
}

fn side_view(game: &AnyGame, side: Side) -> SideView {
    let name = game.side_name(side).to_string();
    let tone = match name.to_ascii_lowercase().as_str() {
        "black" => "dark".to_string(),
        "white" => "light".to_string(),
        _ => side_key(side),
    };
    SideView { key: side_key(side), name, tone }
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

// ---- what the families share: squares, boards, pieces, throws ----

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

fn piece(square: u16, side: Side, count: u32, face: Option<String>) -> PieceView {
    PieceView { square, side: side_key(side), count, face, stack: Vec::new(), stack_faces: Vec::new() }
}

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

fn throw_view(model: DiceModel, raw: u8, value: u8, said: (String, Vec<Phrase>), table: Vec<ThrowRow>) -> ThrowView {
    let (text, words) = said;
    let (kind, dice) = match model {
        DiceModel::Bin3 => ("binary", binary_dice(3, raw)),
        DiceModel::Bin4 => ("binary", binary_dice(4, raw)),
        DiceModel::D4 => ("d4", vec![raw]),
        DiceModel::D6 => ("d6", vec![raw]),
    };
    ThrowView { kind: kind.into(), dice, raw, value, text, words, table }
}
