//! Rules of the Royal Game of Ur and its race-family rule sets.
//!
//! This crate does no I/O. It holds board geometry ([`board`]), dice
//! ([`dice`]), rule sets as data ([`spec`]), compiled rules ([`Rules`]),
//! positions ([`Setup`] unchecked, [`State`] validated), move generation
//! and a turn-by-turn [`Game`] with game records.
//! The prisoner games (`ravensburg-1977`, `vizier-4-pyramids`, `guard-d6`)
//! have their own engine in [`tower`], the marker games (`bens-ur`,
//! `ludens-akalandung`) theirs in [`marker`]. Every family implements
//! [`Playable`] ([`play`]); [`AnyGame`] ([`any`]) plays them all, and
//! [`catalogue`] lists the rule sets by family.
//!
//! ```
//! use ur_rules::{Game, Rules, Side, SeededDice};
//! let rules = Rules::builtin("finkel").unwrap();
//! let mut game = Game::new(rules.into(), Side::Light);
//! let mut dice = SeededDice::new(1);
//! game.play_random(&mut dice, 10_000);
//! assert!(game.winner().is_some());
//! ```

pub mod action_space;
pub mod any;
pub mod any_record;
pub mod board;
pub mod catalogue;
pub mod dice;
pub mod effects;
pub mod game;
pub mod marker;
pub mod movegen;
pub mod narrate;
pub mod play;
pub mod playout;
pub mod position;
pub mod position_text;
pub mod race;
pub mod record;
pub mod report;
pub mod rules;
mod situation_key;
pub mod spec;
mod text_input;
pub mod tower;

use serde::{Deserialize, Serialize};

pub use action_space::ActionSpace;
pub use any::{AnyAction, AnyGame};
pub use any_record::{AnyRecord, AnyRecordError, AnyRecorder, Step};
pub use board::{Board, Cell};
pub use catalogue::{family_of, family_rule_sets, Family, FamilyOption, FamilyRuleSet};
pub use dice::{sample_outcome, Dice, DiceModel, Extra, SeededDice, Throw};
pub use game::{Action, Choice, Game, GameError, Phase, RollKind, RollReport, Situation};
pub use movegen::{format_moves, Move, MoveEffect, MoveError, MoveList};
pub use play::{PlayError, Playable, Turn};
pub use playout::Playout;
pub use position::{PositionError, Setup, SideSetup, State};
pub use record::{GameRecord, RecordError};
pub use rules::Rules;
pub use spec::{OptionSpec, OptionValue, Options, RaceSpec, RuleSetFile, SpecError, SquareKind};

/// A player. Light is the SOUTH side (bottom row) and moves first by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Light,
    Dark,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Light, Side::Dark];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::Light => Side::Dark,
            Side::Dark => Side::Light,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Light => "light",
            Side::Dark => "dark",
        }
    }

    /// Reads `light` or `dark`.
    pub fn parse(text: &str) -> Option<Side> {
        match text {
            "light" => Some(Side::Light),
            "dark" => Some(Side::Dark),
            _ => None,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
