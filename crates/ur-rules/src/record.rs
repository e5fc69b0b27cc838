//! Game records: rule set, options, first player, and every action.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::game::{Action, Game, GameError};
use crate::position::{PositionError, Setup, State};
use crate::rules::Rules;
use crate::spec::{Options, RuleSetFile, SpecError};
use crate::Side;

/// Game metadata: ordered `(key, value)` pairs, such as the tags of an RGN
/// game (`Event`, `Light`, `Dark`...). Kept so an imported game keeps them.
pub type Tags = Vec<(String, String)>;

/// Format version written into every record.
pub const RECORD_VERSION: u32 = 1;

/// A whole game, enough to replay it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub version: u32,
    /// Rule-set id.
    pub rules: String,
    /// Every option value (defaults included).
    #[serde(default)]
    pub options: Options,
    /// The text of a user's rule-set file, when the rules are not built in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_file: Option<String>,
    pub first: Side,
    /// The position the game started from, when not the usual start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Setup>,
    /// Rolls (raw dice outcomes), moves and choices, in order.
    pub actions: Vec<Action>,
    /// The winner, as recorded; checked on replay.
    #[serde(default)]
    pub winner: Option<Side>,
    /// Metadata carried along (absent when there is none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Tags,
}

/// Why a record does not replay.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    #[error("unsupported record version {0} (this program reads version {RECORD_VERSION})")]
    Version(u32),
    #[error(transparent)]
    Rules(#[from] SpecError),
    #[error("the record's start position is not valid: {0}")]
    Start(#[from] PositionError),
    #[error("action {index} ({action}) is illegal: {error}")]
    Illegal { index: usize, action: String, error: GameError },
    #[error("the record says {recorded:?} won, but replaying it gives {actual:?}")]
    Winner { recorded: Option<Side>, actual: Option<Side> },
}

impl GameRecord {
    /// The record of a game so far.
    pub fn of(game: &Game, rules_file: Option<String>) -> GameRecord {
        let start = game.start_state();
        let usual = State::start(game.rules(), game.first());
        GameRecord {
            start: (*start != usual).then(|| start.to_setup(game.rules())),
            version: RECORD_VERSION,
            rules: game.rules().id().to_owned(),
            options: game.rules().options.clone(),
            rules_file,
            first: game.first(),
            actions: game.history().to_vec(),
            winner: game.winner(),
            tags: Tags::new(),
        }
    }

    /// The rules the record was played under.
    ///
    /// # Errors
    /// An unknown rule set or option, or an invalid embedded rule-set file.
    pub fn load_rules(&self) -> Result<Rules, RecordError> {
        if self.version != RECORD_VERSION {
            return Err(RecordError::Version(self.version));
        }
        let file = match &self.rules_file {
            Some(text) => RuleSetFile::parse(text)?,
            None => RuleSetFile::builtin(&self.rules)?,
        };
        Ok(Rules::from_file(&file, &self.options)?)
    }

    /// The game before its first action: the rules, the first player and the
    /// start position of the record.
    ///
    /// # Errors
    /// An unknown rule set or option, an invalid embedded rule-set file, or
    /// an invalid start position.
    pub fn start_game(&self) -> Result<Game, RecordError> {
        let rules = Arc::new(self.load_rules()?);
        Ok(match &self.start {
            None => Game::new(rules, self.first),
            Some(setup) => {
                let mut st = rules.validate(setup)?;
                st.set_to_move(self.first);
                Game::from_state(rules, st)
            }
        })
    }

    /// Replays every action and checks the recorded winner.
    ///
    /// # Errors
    /// The first illegal action, with its index, or a winner that disagrees.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = self.start_game()?;
        for (index, &action) in self.actions.iter().enumerate() {
            game.apply(action).map_err(|error| RecordError::Illegal { index, action: describe(action), error })?;
        }
        if game.winner() != self.winner {
            return Err(RecordError::Winner { recorded: self.winner, actual: game.winner() });
        }
        Ok(game)
    }
}

fn describe(action: Action) -> String {
    match action {
        Action::Roll(raw) => format!("roll {raw}"),
        Action::Move(m) => format!("move {}->{}", m.from, m.to),
        Action::Choose(c) => format!("choose {}", c.name()),
    }
}
