//! Game records for every rule family.
//!
//! Race games keep the version 1 format of [`crate::GameRecord`]. A game of
//! any other family is recorded as version 2 ([`AnyRecord`]): the rule-set
//! id, its family, the options given, the first player, and every step, a
//! roll by raw outcome (`{"roll":3}`) or a decision in the family's own JSON
//! (`{"act":...}`), plus how the game stood at the end. [`AnyRecorder`]
//! plays a game and records it as it goes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::any::{AnyAction, AnyGame};
use crate::catalogue::{family_of, Family};
use crate::play::{PlayError, Playable, Turn};
use crate::record::Tags;
use crate::spec::{Options, SpecError};
use crate::Side;

/// Format version of [`AnyRecord`].
pub const ANY_RECORD_VERSION: u32 = 2;

/// One step of a game of any family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A roll, as the raw outcome.
    Roll(u8),
    /// A decision, in the family's JSON.
    Act(Value),
}

/// A whole game of any family, enough to replay it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnyRecord {
    pub version: u32,
    /// Rule-set id.
    pub rules: String,
    pub family: Family,
    /// The options given when the game was made (the rule set's defaults for the rest).
    #[serde(default)]
    pub options: Options,
    pub first: Side,
    /// The position the steps start from, in the family's JSON, when the
    /// game was set up rather than started (absent: the rule set's start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Value>,
    /// Rolls and decisions, in order.
    pub steps: Vec<Step>,
    /// Whether the game was over when recorded; checked on replay.
    #[serde(default)]
    pub over: bool,
    /// The winner, as recorded (none for a drawn or unfinished game); checked on replay.
    #[serde(default)]
    pub winner: Option<Side>,
    /// Metadata carried along (absent when there is none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Tags,
}

/// Why a record does not replay.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AnyRecordError {
    #[error("unsupported record version {0} (this program reads version {ANY_RECORD_VERSION} for games beyond the race, 1 for races)")]
    Version(u32),
    #[error(transparent)]
    Rules(#[from] SpecError),
    #[error("the record says '{rules}' is of the {recorded:?} family, but it is of the {actual:?} family")]
    Family { rules: String, recorded: Family, actual: Family },
    #[error("the start position cannot be set up: {0}")]
    Start(Box<PlayError>),
    #[error("step {index} ({step}) is illegal: {error}")]
    Illegal { index: usize, step: String, error: Box<PlayError> },
    #[error("the record says the game ended {recorded}, but replaying it gives {actual}")]
    End { recorded: String, actual: String },
}

fn end_text(over: bool, winner: Option<Side>) -> String {
    match (over, winner) {
        (true, Some(w)) => format!("won by {w}"),
        (true, None) => "drawn".into(),
        (false, _) => "unfinished".into(),
    }
}

impl AnyRecord {
    /// Whether JSON text looks like a record of this format (version 2 with a family).
    pub fn detect(value: &Value) -> bool {
        value.get("family").is_some() || value.get("steps").is_some()
    }

    /// Replays every step and checks how the game ended.
    ///
    /// # Errors
    /// An unknown rule set or option, the first illegal step, or an end that disagrees.
    pub fn replay(&self) -> Result<AnyGame, AnyRecordError> {
        if self.version != ANY_RECORD_VERSION {
            return Err(AnyRecordError::Version(self.version));
        }
        let mut game = AnyGame::new(&self.rules, &self.options, self.first)?;
        if let Some(start) = &self.start {
            game.set_position(start).map_err(|error| AnyRecordError::Start(Box::new(error)))?;
        }
        let actual = family_of(&self.rules).unwrap_or(game.family());
        if actual != self.family {
            return Err(AnyRecordError::Family { rules: self.rules.clone(), recorded: self.family, actual });
        }
        for (index, step) in self.steps.iter().enumerate() {
            let done = match step {
                Step::Roll(raw) => game.roll(*raw),
                Step::Act(json) => game.action_from_json(json).and_then(|a| game.apply(&a)),
            };
            done.map_err(|error| AnyRecordError::Illegal { index, step: step_text(step), error: Box::new(error) })?;
        }
        let (over, winner) = match game.turn() {
            Turn::Over(w) => (true, w),
            _ => (false, None),
        };
        if (over, winner) != (self.over, self.winner) {
            return Err(AnyRecordError::End { recorded: end_text(self.over, self.winner), actual: end_text(over, winner) });
        }
        Ok(game)
    }
}

fn step_text(step: &Step) -> String {
    match step {
        Step::Roll(raw) => format!("roll {raw}"),
        Step::Act(json) => format!("act {json}"),
    }
}

/// A game of any family that records every step.
#[derive(Clone, Debug)]
pub struct AnyRecorder {
    game: AnyGame,
    record: AnyRecord,
}

impl AnyRecorder {
    /// A new game of a built-in rule set with options, `first` to move.
    ///
    /// # Errors
    /// An unknown rule set or a bad option.
    pub fn new(id: &str, options: &Options, first: Side) -> Result<AnyRecorder, SpecError> {
        let game = AnyGame::new(id, options, first)?;
        let record = AnyRecord {
            version: ANY_RECORD_VERSION,
            rules: id.to_owned(),
            family: game.family(),
            options: options.clone(),
            first,
            start: None,
            steps: Vec::new(),
            over: false,
            winner: None,
            tags: Tags::new(),
        };
        Ok(AnyRecorder { game, record })
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Rolls, and records the roll when the game takes it.
    ///
    /// # Errors
    /// As [`Playable::roll`]; nothing is recorded.
    pub fn roll(&mut self, raw: u8) -> Result<(), PlayError> {
        self.game.roll(raw)?;
        self.record.steps.push(Step::Roll(raw));
        Ok(())
    }

    /// Makes a decision, and records it when the game takes it.
    ///
    /// # Errors
    /// As [`Playable::apply`]; nothing is recorded.
    pub fn apply(&mut self, action: &AnyAction) -> Result<(), PlayError> {
        let json = serde_json::to_value(action).expect("actions serialise to JSON");
        self.game.apply(action)?;
        self.record.steps.push(Step::Act(json));
        Ok(())
    }

    /// The record of the game so far.
    pub fn record(&self) -> AnyRecord {
        let mut record = self.record.clone();
        if let Turn::Over(w) = self.game.turn() {
            record.over = true;
            record.winner = w;
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::catalogue::family_rule_sets;

    fn random_recorded(id: &str, seed: u64, max_steps: usize) -> AnyRecorder {
        let mut rec = AnyRecorder::new(id, &Options::new(), Side::Dark).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..max_steps {
            match rec.game().turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    let outcomes = rec.game().outcomes();
                    let raw = outcomes[rng.gen_range(0..outcomes.len())].0;
                    rec.roll(raw).unwrap();
                }
                Turn::Decide(_) => {
                    let actions = rec.game().actions();
                    rec.apply(&actions[rng.gen_range(0..actions.len())]).unwrap();
                }
            }
        }
        rec
    }

    #[test]
    fn records_of_every_family_replay_exactly() {
        let mut ids: Vec<String> = crate::spec::BUILTIN.iter().map(|(id, _)| id.to_string()).collect();
        ids.extend(family_rule_sets().into_iter().map(|r| r.id.to_string()));
        for (i, id) in ids.iter().enumerate() {
            for max in [40, 100_000] {
                let rec = random_recorded(id, i as u64, max).record();
                let text = serde_json::to_string(&rec).unwrap();
                let back: AnyRecord = serde_json::from_str(&text).unwrap();
                assert_eq!(back, rec, "{id}");
                assert!(AnyRecord::detect(&serde_json::from_str(&text).unwrap()));
                let game = back.replay().unwrap_or_else(|e| panic!("{id}: {e}"));
                assert_eq!(game.position_json(), random_recorded(id, i as u64, max).game().position_json(), "{id}");
            }
        }
    }

    #[test]
    fn a_bad_step_or_end_is_reported() {
        let mut rec = random_recorded("finkel", 3, 100_000).record();
        assert!(rec.over);
        rec.winner = rec.winner.map(Side::other);
        assert!(matches!(rec.replay(), Err(AnyRecordError::End { .. })));
        rec.steps.insert(0, Step::Act(serde_json::json!({"choose":"reroll"})));
        let e = rec.replay().unwrap_err();
        assert!(matches!(e, AnyRecordError::Illegal { index: 0, .. }), "{e}");
        rec.version = 9;
        assert_eq!(rec.replay().unwrap_err(), AnyRecordError::Version(9));
    }
}
