//! Game records read from JSON text: version 1 (race games,
//! [`ur_rules::GameRecord`]) and version 2 (every family, [`ur_rules::AnyRecord`]).

use serde_json::Value;
use ur_rules::{AnyGame, AnyRecord, Game, GameRecord, RecordError, Side};

/// The record versions this library reads.
pub const VERSIONS: &str = "1 (race games) and 2 (every family)";

/// A saved game: a race game's record (version 1), or a record of any
/// family (version 2). Its JSON is the record's own.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum SavedGame {
    Race(GameRecord),
    Family(AnyRecord),
}

/// Who plays each side of a game, kept in its record (an optional `seats`
/// field, so records without one still read): `human`, or a bot as it was
/// named on the command line, options included (`level3`, `mcts:2000`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    pub light: String,
    pub dark: String,
}

impl Seats {
    /// Who plays `side`.
    pub fn of(&self, side: Side) -> &str {
        match side {
            Side::Light => &self.light,
            Side::Dark => &self.dark,
        }
    }
}

/// A record's JSON with who played it, as `ur play --save` writes it.
#[derive(serde::Serialize)]
struct WithSeats<'a> {
    #[serde(flatten)]
    game: &'a SavedGame,
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<&'a Seats>,
}

/// The record as pretty JSON text, with the seats when given.
///
/// # Errors
/// The record cannot be written as JSON (it always can: its types are plain data).
pub fn game_json(saved: &SavedGame, seats: Option<&Seats>) -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(&WithSeats { game: saved, seats })?;
    text.push('\n');
    Ok(text)
}

/// Why a record cannot be read or replayed.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    #[error("{name} is not a valid game record (not JSON: {why})")]
    NotJson { name: String, why: String },
    #[error("{name} is not a valid game record: {why}")]
    Invalid { name: String, why: String },
    #[error("{name}: unsupported record version {version}; this program reads versions {VERSIONS}")]
    Version { name: String, version: u64 },
    #[error("{name} does not replay: the record says {recorded}, but replaying it gives {actual}")]
    Winner { name: String, recorded: String, actual: String },
    #[error("{name} does not replay: {why}")]
    Replay { name: String, why: String },
}

/// Reads a game record from its JSON text; `name` (a file name, say) is
/// used in errors.
///
/// # Errors
/// The text is not JSON, not a record, or of a version this program does not read.
pub fn read_game(name: &str, text: &str) -> Result<SavedGame, RecordsError> {
    Ok(read_game_with_seats(name, text)?.0)
}

/// As [`read_game`], with who played it when the record says (see [`Seats`]).
///
/// # Errors
/// As [`read_game`], or seats that are not two names.
pub fn read_game_with_seats(name: &str, text: &str) -> Result<(SavedGame, Option<Seats>), RecordsError> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| RecordsError::NotJson { name: name.into(), why: e.to_string() })?;
    let seats = match value.as_object_mut().and_then(|o| o.remove("seats")) {
        Some(seats) => Some(serde_json::from_value(seats).map_err(|e| RecordsError::Invalid {
            name: name.into(),
            why: format!("\"seats\" must name who plays each side, as {{\"light\": \"human\", \"dark\": \"greedy\"}}: {e}"),
        })?),
        None => None,
    };
    Ok((read_value(name, value)?, seats))
}

fn read_value(name: &str, value: Value) -> Result<SavedGame, RecordsError> {
    let invalid = |e: serde_json::Error| RecordsError::Invalid { name: name.into(), why: e.to_string() };
    let version = value.get("version").and_then(Value::as_u64);
    if AnyRecord::detect(&value) {
        if let Some(v) = version.filter(|&v| v != 2) {
            return Err(RecordsError::Version { name: name.into(), version: v });
        }
        return Ok(SavedGame::Family(serde_json::from_value(value).map_err(invalid)?));
    }
    if let Some(v) = version.filter(|&v| v != 1) {
        return Err(RecordsError::Version { name: name.into(), version: v });
    }
    Ok(SavedGame::Race(serde_json::from_value(value).map_err(invalid)?))
}

/// A recorded or replayed end in words: `light won`, `no winner`.
pub fn winner_text(w: Option<Side>) -> String {
    match w {
        Some(side) => format!("{side} won"),
        None => "no winner".into(),
    }
}

/// Replays a race record, every action checked.
///
/// # Errors
/// An illegal action, or an end other than the recorded one.
pub fn replay_race(name: &str, record: &GameRecord) -> Result<Game, RecordsError> {
    record.replay().map_err(|e| match e {
        RecordError::Winner { recorded, actual } => {
            RecordsError::Winner { name: name.into(), recorded: winner_text(recorded), actual: winner_text(actual) }
        }
        RecordError::Version(v) => RecordsError::Version { name: name.into(), version: u64::from(v) },
        other => RecordsError::Replay { name: name.into(), why: other.to_string() },
    })
}

/// Replays a record of any family, every step checked.
///
/// # Errors
/// An illegal step, or an end other than the recorded one.
pub fn replay_any(name: &str, record: &AnyRecord) -> Result<AnyGame, RecordsError> {
    record.replay().map_err(|e| match e {
        ur_rules::AnyRecordError::Version(v) => RecordsError::Version { name: name.into(), version: u64::from(v) },
        other => RecordsError::Replay { name: name.into(), why: other.to_string() },
    })
}

/// A record replayed: the game where it ends, and what the record held.
pub struct Replayed {
    pub game: AnyGame,
    /// Rolls and decisions (a race record counts its actions).
    pub steps: usize,
    /// Whether the rules came from a rule-set file stored in the record.
    pub rules_from_file: bool,
}

/// Replays a saved game of any family, every step checked.
///
/// # Errors
/// As [`replay_race`] and [`replay_any`].
pub fn replay(name: &str, saved: &SavedGame) -> Result<Replayed, RecordsError> {
    Ok(match saved {
        SavedGame::Race(r) => {
            let game = AnyGame::Race(replay_race(name, r)?);
            Replayed { game, steps: r.actions.len(), rules_from_file: r.rules_file.is_some() }
        }
        SavedGame::Family(r) => Replayed { game: replay_any(name, r)?, steps: r.steps.len(), rules_from_file: false },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_named_as_they_are_read() {
        let e = read_game("g.json", r#"{"version":3,"rules":"finkel","actions":[]}"#).err().unwrap().to_string();
        assert!(e.contains("version 3") && e.contains("1 (race games) and 2"), "{e}");
        assert!(matches!(read_game("g.json", "{"), Err(RecordsError::NotJson { .. })));
    }

    #[test]
    fn seats_are_kept_beside_the_record_and_optional() {
        let game = Game::new(std::sync::Arc::new(ur_rules::Rules::builtin("finkel").unwrap()), Side::Light);
        let saved = SavedGame::Race(GameRecord::of(&game, None));
        let seats = Seats { light: "human".into(), dark: "mcts:500".into() };
        let text = game_json(&saved, Some(&seats)).unwrap();
        assert!(text.contains("\"seats\""), "{text}");
        assert_eq!(read_game_with_seats("g.json", &text).unwrap(), (saved.clone(), Some(seats)));
        assert_eq!(read_game("g.json", &text).unwrap(), saved, "every reader takes a record with seats");
        let plain = game_json(&saved, None).unwrap();
        assert_eq!(read_game_with_seats("g.json", &plain).unwrap(), (saved, None));
        let bad = text.replace("\"mcts:500\"", "5");
        assert!(matches!(read_game_with_seats("g.json", &bad), Err(RecordsError::Invalid { .. })));
    }

    #[test]
    fn a_wrong_winner_is_told_in_words() {
        let mut game = Game::new(std::sync::Arc::new(ur_rules::Rules::builtin("finkel").unwrap()), Side::Light);
        game.roll(1).unwrap();
        let mut record = GameRecord::of(&game, None);
        record.winner = Some(Side::Light);
        let e = replay_race("g.json", &record).err().unwrap().to_string();
        assert!(e.contains("says light won") && e.contains("gives no winner") && !e.contains("Some("), "{e}");
    }
}
