//! Marker games: the race families whose pieces carry more state than a
//! position (faces, twins, warriors) and whose turns have more steps than
//! roll-and-move: `bens-ur` ([`bens`]) and `ludens-akalandung`
//! ([`akalandung`]). This module holds what they share: option reading,
//! dice checks and the text board.

pub mod akalandung;
pub mod bens;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::board::{Board, Cell};
use crate::dice::DiceModel;
use crate::family::{FamilyOption, PlayError};
use crate::spec::{Options, SpecError};
use crate::Side;

/// One step of a marker game's history: a roll or a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Event<A> {
    Roll { side: Side, raw: u8 },
    Act { side: Side, action: A },
}

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

/// An option of a marker rule set, for [`crate::family::FamilyRuleSet`].
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
        let shown: Vec<String> = model.outcomes().iter().map(|o| o.0.to_string()).collect();
        Err(PlayError(format!("{} cannot show {raw}; it shows {}", model.name(), shown.join(", "))))
    }
}

/// The error for a decision asked outside a decision step.
pub(crate) fn not_deciding(waits: &str) -> PlayError {
    PlayError(format!("no decision is open: the game waits for {waits}"))
}

/// The error for an action that is not open now, listing the open ones.
pub(crate) fn not_open<A: std::fmt::Display>(action: &A, open: &[A]) -> PlayError {
    let list: Vec<String> = open.iter().map(ToString::to_string).collect();
    PlayError(format!("'{action}' is not open now; open: {}", list.join(", ")))
}

/// Draws the standard board, one 9-character box per square: the decoration
/// letter, then what `cell_text` says is on it. Rows are labelled 3 (top,
/// dark's row) to 1 (bottom, light's row), columns a to h, as in the docs.
pub(crate) fn draw_board(out: &mut String, cell_text: impl Fn(Cell) -> String) {
    let board = Board::named("standard").expect("the standard board exists");
    out.push_str("    ");
    for col in 0..board.cols {
        let _ = write!(out, "{:^10}", char::from(b'a' + col));
    }
    out.push('\n');
    for row in 0..board.rows {
        let _ = write!(out, "  {} ", 3 - row);
        for col in 0..board.cols {
            let cell = Cell { row, col };
            match board.decoration(cell) {
                '-' => out.push_str("          "),
                deco => {
                    let _ = write!(out, "[{deco} {:<6}]", cell_text(cell));
                }
            }
        }
        out.push('\n');
    }
}

/// A side's name in a rule set with its own side names.
pub(crate) fn side_name(names: [&'static str; 2], side: Side) -> &'static str {
    names[side.index()]
}
