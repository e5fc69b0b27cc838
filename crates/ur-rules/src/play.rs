//! What every rule family offers: the [`Playable`] trait, what a game waits
//! for ([`Turn`]) and why an action is refused ([`PlayError`]).
//!
//! Each family implements the trait in its own module (the race in
//! [`crate::race`], the marker games in [`crate::marker`], the tower games
//! in [`crate::tower`]); [`crate::AnyGame`] holds a game of any of them.

use std::fmt;

use rand::RngCore;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::dice::sample_outcome;
use crate::game::GameError;
use crate::spec::SpecError;
use crate::Side;

/// What a game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The side rolls the dice.
    Roll(Side),
    /// The side makes a decision: a move or a choice.
    Decide(Side),
    /// The game is over, won by the side (none for a drawn or stopped game).
    Over(Option<Side>),
}

/// Why an action, a roll or a position was refused. The game is unchanged.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// Not the time for it: a roll while a decision is open, a decision
    /// while the dice are due, anything once the game is over.
    #[error("not now: the game waits for {waits}")]
    WrongTurn {
        /// What the game waits for, in words (`Black to roll`).
        waits: String,
    },
    /// A decision of the family that is not open now.
    #[error("'{action}' is not open now; open: {}", list(open))]
    NotOpen {
        /// The action, as its text.
        action: String,
        /// The open decisions, as their texts.
        open: Vec<String>,
    },
    /// A raw outcome the dice cannot show.
    #[error("{dice} cannot show {raw}; it shows {}", list(&shows.iter().map(ToString::to_string).collect::<Vec<_>>()))]
    BadRoll { raw: u8, dice: &'static str, shows: Vec<u8> },
    /// An action (or its JSON) of another rule family.
    #[error("'{action}' is not an action of rule set '{rules}'")]
    WrongFamily {
        /// The action as given (its text or JSON).
        action: String,
        rules: String,
    },
    /// Text or JSON that does not read as an action of the rule set.
    #[error("'{input}' is not an action of rule set '{rules}': {why}")]
    BadAction { input: String, rules: String, why: String },
    /// A position that breaks the rules or does not read.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// Options that the rule set does not take.
    #[error(transparent)]
    Options(#[from] SpecError),
    /// The race engine's own refusal.
    #[error(transparent)]
    Race(#[from] GameError),
}

/// `a, b, c`, or `none`.
fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

impl PlayError {
    /// The refusal of `action`, listing the `open` decisions.
    pub fn not_open<A: fmt::Display>(action: &A, open: &[A]) -> PlayError {
        PlayError::NotOpen { action: action.to_string(), open: open.iter().map(ToString::to_string).collect() }
    }
}

/// A game in progress under one rule family.
///
/// # Examples
/// ```
/// use ur_rules::{AnyGame, Options, Playable, SeededDice, Side, Turn};
/// let mut game = AnyGame::new("guard-d6", &Options::new(), Side::Light).unwrap();
/// let mut dice = SeededDice::new(3);
/// while let Turn::Roll(_) = game.turn() {
///     game.roll_with(dice.rng()).unwrap();
/// }
/// let first = game.actions()[0].clone();
/// game.apply(&first).unwrap();
/// assert!(game.board_text().lines().all(|l| l.chars().count() <= 80));
/// ```
pub trait Playable: Clone + Send + Sync {
    /// A decision: a move or a choice. Its `Display` is the text a player
    /// types, and its JSON is what records and the protocol carry.
    type Action: Clone + PartialEq + fmt::Debug + fmt::Display + Serialize + Send + Sync;

    /// A position as read from and written to outside (tests, tools, the
    /// engine's `set`): the side to roll and where every piece is.
    type Position: Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned;

    /// The rule-set id.
    fn rule_id(&self) -> &str;

    /// What the rule set calls a side (`Light`, `Black`, `White`...).
    fn side_name(&self, side: Side) -> &str;

    /// What the game waits for.
    fn turn(&self) -> Turn;

    /// The winner, once the game is over (none while it goes on, or drawn).
    fn winner(&self) -> Option<Side> {
        match self.turn() {
            Turn::Over(w) => w,
            _ => None,
        }
    }

    /// The raw outcomes the next roll can show, each with its probability
    /// (they sum to 1). Meaningful while [`Turn::Roll`].
    fn outcomes(&self) -> Vec<(u8, f64)>;

    /// Sets the next throw by raw outcome.
    ///
    /// # Errors
    /// [`PlayError::WrongTurn`] outside [`Turn::Roll`], [`PlayError::BadRoll`]
    /// for an outcome the dice cannot show.
    fn roll(&mut self, raw: u8) -> Result<(), PlayError>;

    /// Throws the dice with `rng` (drawing from [`Playable::outcomes`]) and
    /// sets the throw; returns the raw outcome.
    ///
    /// # Errors
    /// As [`Playable::roll`].
    fn roll_with(&mut self, rng: &mut dyn RngCore) -> Result<u8, PlayError> {
        let raw = sample_outcome(&self.outcomes(), rng);
        self.roll(raw).map(|()| raw)
    }

    /// Every decision open now; empty unless [`Turn::Decide`], never empty then.
    fn actions(&self) -> Vec<Self::Action>;

    /// Makes a decision.
    ///
    /// # Errors
    /// [`PlayError::WrongTurn`] outside [`Turn::Decide`],
    /// [`PlayError::NotOpen`] for an action not among [`Playable::actions`].
    fn apply(&mut self, action: &Self::Action) -> Result<(), PlayError>;

    /// Makes a decision known to be open, without checking it (searches
    /// that take their actions from [`Playable::actions`]).
    ///
    /// # Panics
    /// May panic, or leave the game in a state the rules do not allow, for
    /// an action that is not open; debug builds check it.
    fn apply_unchecked(&mut self, action: &Self::Action);

    /// A quick heuristic standing of `side` in `[0, 1]` (1 when it has won),
    /// for one-move bots and search leaves of families without a learned
    /// evaluation.
    fn standing(&self, side: Side) -> f64;

    /// The position: the pieces and the side to move. Meaningful at a roll;
    /// a throw being decided is not part of it.
    fn position(&self) -> Self::Position;

    /// Sets up a position, keeping the rules and options; the side to move
    /// rolls next and the history starts afresh.
    ///
    /// # Errors
    /// [`PlayError::BadPosition`] for a position the rules do not allow (the
    /// game is then unchanged).
    fn set_position(&mut self, position: &Self::Position) -> Result<(), PlayError>;

    /// The board as text for a terminal, at most 80 columns wide, with the
    /// family's side names and what the game waits for.
    fn board_text(&self) -> String;
}

/// The standing from each side's progress in `[0, 1]`: one half plus half
/// the lead, 1 or 0 once the game is won. The one formula of the families
/// that race their pieces home.
pub(crate) fn standing_from_progress(winner: Option<Side>, side: Side, progress: impl Fn(Side) -> f64) -> f64 {
    if let Some(w) = winner {
        return if w == side { 1.0 } else { 0.0 };
    }
    (0.5 + (progress(side) - progress(side.other())) / 2.0).clamp(0.0, 1.0)
}
