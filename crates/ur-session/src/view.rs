//! A game as a picture: the board's squares with their decorations, the
//! pieces on them, the last throw as the dice that made it, and the open
//! actions as "from here to there". Every front end that draws a board
//! (the browser page, the full-screen terminal) draws it from this, so no
//! front end knows a family's rules.
//!
//! Coordinates are grid cells, row 0 at the top; the light side plays along
//! the bottom row. Every JSON name here is part of the web protocol
//! (docs/serve.md): change them only with it.

use serde::Serialize;
use serde_json::Value;
use ur_rules::{Playable, Turn};

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
}

/// Which rule set is played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RulesView {
    pub id: String,
    pub name: String,
    /// `race`, `bens` or `tower`.
    pub family: String,
}

/// The board itself: fixed for a rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardView {
    /// Grid size in cells.
    pub rows: u8,
    pub cols: u8,
    pub squares: Vec<SquareView>,
    /// Each side's path as square ids, start to end: `[light, dark]`.
    pub paths: [Vec<u16>; 2],
}

/// One square of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SquareView {
    /// Unique within the board; what pieces and actions refer to.
    pub id: u16,
    pub row: u8,
    pub col: u8,
    /// Decorations and roles, from a fixed vocabulary: `rosette`, `eyes`,
    /// `dots`, `five`, `twelve`, `conversion`, `passage`, `start`, `goal`, ...
    pub marks: Vec<String>,
    /// The square's name in the rule set's move text (`a4`, `12`, ...).
    pub name: String,
}

/// What stands where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionView {
    pub pieces: Vec<PieceView>,
    /// Pieces waiting to enter, `[light, dark]`.
    pub reserve: [u32; 2],
    /// Pieces borne off (home), `[light, dark]`.
    pub off: [u32; 2],
    /// Anything else the position holds, in plain words (a pot, a score).
    pub notes: Vec<String>,
}

/// A piece or a stack on one square.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceView {
    pub square: u16,
    /// Owner's side key, `light` or `dark`.
    pub side: String,
    /// How many of this side's pieces stand there (shared squares).
    pub count: u32,
    /// A marker's face or a piece's role, if the family has one.
    pub face: Option<String>,
    /// Tower games: the stack from bottom to top, as side keys.
    pub stack: Vec<String>,
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
    /// `binary` (pyramids or sticks, each 0 or 1), `d4`, `d6`, `table`.
    pub kind: String,
    /// One entry per die: for `binary` 0 or 1 (a marked tip), otherwise the face.
    pub dice: Vec<u8>,
    /// What the throw counts for in the rules.
    pub value: u8,
    /// In plain English: "rolled 3".
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
    /// The action as the engine protocol's JSON.
    pub json: Value,
}

/// Where a move starts or ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "at")]
pub enum Spot {
    Square { square: u16 },
    Reserve,
    Off,
}

/// The session's game as a picture.
pub fn game_view(session: &Session) -> GameView {
    let game = session.game();
    let (turn, winner) = turn_view(game);
    let actions = game
        .actions()
        .iter()
        .enumerate()
        .map(|(index, action)| ActionView {
            index,
            kind: "choice".into(),
            from: None,
            to: None,
            text: action.to_string(),
            json: serde_json::to_value(action).unwrap_or(Value::Null),
        })
        .collect();
    GameView {
        rules: RulesView { id: game.rule_id().to_string(), name: game.rule_id().to_string(), family: family_key(session) },
        board: BoardView { rows: 0, cols: 0, squares: Vec::new(), paths: [Vec::new(), Vec::new()] },
        sides: [side_view(game, ur_rules::Side::Light), side_view(game, ur_rules::Side::Dark)],
        position: PositionView { pieces: Vec::new(), reserve: [0, 0], off: [0, 0], notes: Vec::new() },
        turn,
        throw: None,
        actions,
        winner,
        board_text: game.board_text(),
    }
}

fn family_key(session: &Session) -> String {
    serde_json::to_value(session.family()).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn side_key(side: ur_rules::Side) -> String {
    match side {
        ur_rules::Side::Light => "light".into(),
        ur_rules::Side::Dark => "dark".into(),
    }
}

/// A side's key and name.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideView {
    pub key: String,
    pub name: String,
}

fn side_view(game: &ur_rules::AnyGame, side: ur_rules::Side) -> SideView {
    SideView { key: side_key(side), name: game.side_name(side).to_string() }
}

fn turn_view(game: &ur_rules::AnyGame) -> (TurnView, Option<String>) {
    match game.turn() {
        Turn::Roll(side) => {
            (TurnView { side: Some(side_key(side)), stage: "roll".into(), text: format!("{} to roll", game.side_name(side)) }, None)
        }
        Turn::Decide(side) => {
            (TurnView { side: Some(side_key(side)), stage: "act".into(), text: format!("{} to move", game.side_name(side)) }, None)
        }
        Turn::Over(won) => {
            let winner = won.map(side_key).unwrap_or_else(|| "draw".into());
            (TurnView { side: None, stage: "over".into(), text: "The game is over".into() }, Some(winner))
        }
    }
}
