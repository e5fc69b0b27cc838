//! RGN (Royal Game Notation), RoyalUr's PGN-like text for games: read and
//! written here for every rule set (docs/rgn.md).
//!
//! Two layers, both pure text functions with no I/O:
//! - syntax: [`parse_games`] reads tags and move text into [`RgnGame`]s (it
//!   never panics, whatever the input), [`format_game`] writes one back
//!   with RoyalUr's line wrapping;
//! - meaning: [`read_games`] replays each game under its rules into a
//!   [`SavedGame`], [`write_game`] turns a record into RGN text.
//!
//! RoyalUr's own rule sets (`Rules` tag: `Finkel`, `Masters`, `Blitz`,
//! `Aseb`...) are written exactly as RoyalUr-Java writes them; ours carry
//! `Ur...` tags and, where RGN cannot state a step, a token of our own.
//!
//! The files: `syntax` (tags and move text), `tags` (the rules a game's
//! tags name: RoyalUr's presets and our own tags), `tokens` (how an action
//! is written and which open action a token names) and `meaning` (reading
//! games into records and writing records as games).

use std::fmt;

mod meaning;
mod syntax;
mod tags;
mod tokens;

pub use meaning::{game_to_record, read_games, record_to_game, write_game};
pub use syntax::{format_game, format_games, parse_games, ItemKind, RgnGame, RgnItem, RgnTag};
pub use tags::{preset_names, MASTERS_FOUR_DICE};

/// A roll and its moves on one line, wrapped before this many characters
/// (RoyalUr-Java's default turn line length).
pub const LINE_WIDTH: usize = 60;

/// Tags we read into the record's fields rather than keep as metadata.
pub const OWN_TAGS: [&str; 7] = ["Rules", "UrRules", "UrOptions", "UrRulesFile", "UrFirst", "UrStart", "UrRecord"];

/// An error with the place in the text it concerns (line and column from 1;
/// 0 when it concerns no place, as when writing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgnError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for RgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.message),
            (line, 0) => write!(f, "line {line}: {}", self.message),
            (line, column) => write!(f, "line {line}, column {column}: {}", self.message),
        }
    }
}

impl std::error::Error for RgnError {}

fn err(line: usize, column: usize, message: impl Into<String>) -> RgnError {
    RgnError { line, column, message: message.into() }
}
