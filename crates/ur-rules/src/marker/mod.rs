//! Marker games: the race families whose pieces carry more state than a
//! position (faces, twins, warriors) and whose turns have more steps than
//! roll-and-move: `bens-ur` ([`bens`]) and `ludens-akalandung`
//! ([`akalandung`]). This module holds what they share: option reading,
//! each side's path, the history, dice checks, the pieces on a square,
//! setup counts, the standing and the text board.

pub mod akalandung;
pub mod bens;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::board::{named_path, Board, Cell};
use crate::catalogue::FamilyOption;
use crate::dice::DiceModel;
use crate::play::{standing_from_progress, PlayError};
use crate::spec::{Options, SpecError};
use crate::Side;

/// The longest marker path plus its two ends (home 0 and off): `bens-ur`'s 23 squares.
const MAX_POSITIONS: usize = 25;

/// A piece of a marker game: at least a path position.
pub(crate) trait Piece: Copy {
    fn pos(&self) -> u8;
}

/// What every marker game keeps besides its pieces: its options, each
/// side's path and the history of its steps.
#[derive(Clone, Debug)]
pub(crate) struct Common<A> {
    /// Shared: games are cloned for every step of a search.
    pub(crate) options: Arc<OptionValues>,
    /// `path[side][pos]`: the cell of a position (index 0 unused). Shared.
    path: Arc<[[Cell; MAX_POSITIONS]; 2]>,
    history: Vec<Event<A>>,
}

impl<A> Common<A> {
    /// The options and the paths of a named path (light's; dark's is its mirror image).
    pub(crate) fn new(options: OptionValues, path_name: &str) -> Common<A> {
        let light = named_path(path_name).unwrap_or_default();
        let board = Board::named("standard").expect("the standard board exists");
        let mut path = [[Cell { row: 1, col: 0 }; MAX_POSITIONS]; 2];
        for (i, &c) in light.iter().enumerate().take(MAX_POSITIONS - 1) {
            path[0][i + 1] = c;
            path[1][i + 1] = board.mirror(c);
        }
        Common { options: Arc::new(options), path: Arc::new(path), history: Vec::new() }
    }

    /// The cell of a side's path position.
    pub(crate) fn cell(&self, side: Side, pos: u8) -> Cell {
        self.path[side.index()][usize::from(pos)]
    }

    /// Every piece on a cell, with its owner, light's first.
    pub(crate) fn occupants<P: Piece>(&self, boards: [&[P]; 2], cell: Cell) -> ArrayVec<(Side, P), 14> {
        Side::BOTH
            .into_iter()
            .flat_map(|s| boards[s.index()].iter().filter(move |p| self.cell(s, p.pos()) == cell).map(move |p| (s, *p)))
            .collect()
    }

    /// The same options and paths, no history: for a game set up afresh.
    pub(crate) fn fresh(&self) -> Common<A> {
        Common { options: self.options.clone(), path: self.path.clone(), history: Vec::new() }
    }

    pub(crate) fn history(&self) -> &[Event<A>] {
        &self.history
    }

    pub(crate) fn record(&mut self, event: Event<A>) {
        self.history.push(event);
    }

    /// Forgets the history (a copy for a search, or a new position).
    pub(crate) fn forget_history(&mut self) {
        self.history = Vec::new();
    }
}

/// The standing of a side from the path positions of its pieces on the
/// board and those borne off (at `off`), out of `pieces` per side.
pub(crate) fn standing<P: Piece>(winner: Option<Side>, side: Side, boards: [&[P]; 2], borne_off: [u8; 2], pieces: u8, off: u8) -> f64 {
    standing_from_progress(winner, side, |s| {
        let on: u32 = boards[s.index()].iter().map(|p| u32::from(p.pos())).sum();
        f64::from(on + u32::from(borne_off[s.index()]) * u32::from(off)) / f64::from(u32::from(pieces) * u32::from(off))
    })
}

/// The pieces a side has at home (or in reserve) in a setup: as given, or
/// those not placed elsewhere; checked to make the full set.
///
/// # Errors
/// The counts do not add up to `pieces`.
pub(crate) fn home_count(side: Side, given: Option<u8>, off: u8, on_board: usize, pieces: u8, home_word: &str) -> Result<u8, PlayError> {
    let placed = usize::from(off) + on_board;
    let home = given.unwrap_or_else(|| pieces.saturating_sub(u8::try_from(placed).unwrap_or(u8::MAX)));
    if usize::from(home) + placed != usize::from(pieces) {
        return Err(PlayError::BadPosition(format!("{side}: {home_word} {home} + off {off} + {on_board} on the board is not {pieces}")));
    }
    Ok(home)
}

/// The side to move named by a snapshot's turn (`roll light`, `decide dark`...).
pub(crate) fn side_of_turn(turn: &str) -> Result<Side, PlayError> {
    turn.split_whitespace()
        .last()
        .and_then(Side::parse)
        .ok_or_else(|| PlayError::BadPosition(format!("turn '{turn}' names no side (light or dark)")))
}

/// One step of a marker game's history: a roll or a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Event<A> {
    Roll { side: Side, raw: u8 },
    Act { side: Side, action: A },
}

/// The description of a piece-count option that the booklets do not have.
pub(crate) const SMALL_VARIANT: &str =
    "Pieces per side. Not in the booklet: an engine option for small variants that can be solved exactly (`ur solve`).";

/// Option values by name, every option present (given or default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OptionValues(BTreeMap<&'static str, String>);

impl OptionValues {
    /// Checks `given` against a rule set's options and fills in defaults.
    ///
    /// # Errors
    /// [`SpecError::UnknownOption`] or [`SpecError::BadOptionValue`], naming
    /// the known options or the allowed values.
    pub(crate) fn read(id: &str, specs: &[FamilyOption], given: &Options) -> Result<Self, SpecError> {
        let mut values: BTreeMap<&'static str, String> = specs.iter().map(|o| (o.name, o.default.to_owned())).collect();
        for (name, value) in given {
            let Some(spec) = specs.iter().find(|o| o.name == name) else {
                let known = specs.iter().map(|o| o.name).collect::<Vec<_>>().join(", ");
                return Err(SpecError::UnknownOption { rules: id.into(), option: name.clone(), known });
            };
            let text = value.to_string();
            if !spec.values.contains(&text.as_str()) {
                return Err(SpecError::BadOptionValue { option: name.clone(), value: text, allowed: spec.values.join(" | ") });
            }
            values.insert(spec.name, text);
        }
        Ok(OptionValues(values))
    }

    /// The value of an option (empty for an option the rule set lacks).
    pub(crate) fn get(&self, name: &str) -> &str {
        self.0.get(name).map_or("", String::as_str)
    }

    pub(crate) fn flag(&self, name: &str) -> bool {
        self.get(name) == "true"
    }

    /// Every option with its value, for records and the position snapshot.
    pub(crate) fn to_map(&self) -> BTreeMap<String, String> {
        self.0.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
    }
}

/// An option of a marker rule set, for [`crate::catalogue::FamilyRuleSet`].
pub(crate) fn option(name: &'static str, description: &'static str, default: &'static str, values: &[&'static str]) -> FamilyOption {
    FamilyOption { name, description, default, values: values.to_vec() }
}

/// The raw outcomes of a dice model with their probabilities.
pub(crate) fn outcomes(model: DiceModel) -> Vec<(u8, f64)> {
    model.outcomes().iter().map(|&(raw, _)| (raw, model.probability(raw))).collect()
}

/// Refuses a raw outcome the dice cannot show.
///
/// # Errors
/// The outcome is not one of the model's.
pub(crate) fn check_raw(model: DiceModel, raw: u8) -> Result<(), PlayError> {
    if model.outcomes().iter().any(|o| o.0 == raw) {
        Ok(())
    } else {
        Err(PlayError::BadRoll { raw, dice: model.name(), shows: model.outcomes().iter().map(|o| o.0).collect() })
    }
}

/// A square of the standard board as its labels name it: column `a` to `h`,
/// row 1 (light's, bottom) to 3 (dark's, top), `c1`.
pub(crate) fn square_name(cell: Cell) -> String {
    format!("{}{}", char::from(b'a' + cell.col), 3 - cell.row)
}

/// Draws the standard board, one box per square: the decoration letter,
/// then what `cell_text` says is on it. Rows are labelled 3 (top, dark's
/// row) to 1 (bottom, light's row), columns a to h, as in the docs. Boxes
/// are as wide as the longest text (at least 4): 68 columns for texts of 4,
/// 76 for 5.
pub(crate) fn draw_board(out: &mut String, cell_text: impl Fn(Cell) -> String) {
    let board = Board::named("standard").expect("the standard board exists");
    let cells: Vec<Vec<Option<String>>> = (0..board.rows)
        .map(|row| (0..board.cols).map(|col| (board.decoration(Cell { row, col }) != '-').then(|| cell_text(Cell { row, col }))).collect())
        .collect();
    let width = cells.iter().flatten().flatten().map(|t| t.chars().count()).max().unwrap_or(0).max(4);
    let mut header = String::from("  ");
    for col in 0..board.cols {
        let _ = write!(header, "{:^w$}", char::from(b'a' + col), w = width + 4);
    }
    out.push_str(header.trim_end());
    out.push('\n');
    for (row, texts) in cells.iter().enumerate() {
        let mut line = format!("{} ", 3 - row);
        for (col, text) in texts.iter().enumerate() {
            match text {
                None => line.push_str(&" ".repeat(width + 4)),
                Some(t) => {
                    let deco = board.decoration(Cell { row: row as u8, col: col as u8 });
                    let _ = write!(line, "[{deco} {t:<width$}]");
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// Pieces on a square as text: each group of alike pieces as its letters,
/// with a count when there are several (`Bo2W*`).
pub(crate) fn groups_text(letters: impl IntoIterator<Item = String>) -> String {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for l in letters {
        match groups.iter_mut().find(|g| g.0 == l) {
            Some(g) => g.1 += 1,
            None => groups.push((l, 1)),
        }
    }
    groups.into_iter().map(|(l, n)| if n > 1 { format!("{l}{n}") } else { l }).collect()
}
