//! The file of an arena in progress: what fixes the arena's games (rules,
//! bots, seed, ...) and the outcome of every finished game, so that an
//! interrupted arena goes on where it stopped. It is rewritten whole and
//! atomically, so a kill at any moment leaves the last complete save behind.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ur_rules::Options;

use crate::arena::Outcome;

const FORMAT: &str = "ur-arena-save";
const VERSION: u32 = 1;

/// The shortest time between two saves.
const MIN_INTERVAL: Duration = Duration::from_secs(2);

/// Everything that fixes an arena's games: a file resumes only the arena it was made by.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Params {
    pub rules: String,
    pub options: Options,
    /// xxh3-64 of the rule-set file's text, when the rules came from a file.
    pub rules_file: Option<String>,
    /// The table's checksum, when one was given.
    pub table: Option<String>,
    /// xxh3-64 of the weights file's text, when one was given.
    pub weights: Option<String>,
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub paired_dice: bool,
    pub max_actions: u64,
}

/// The hash the parameters keep of a file's contents.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// Why an arena file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ArenaFileError {
    #[error("cannot read the arena file {path}: {why}")]
    Read { path: String, why: String },
    #[error("cannot save the arena in {path}: {why}")]
    Write { path: String, why: String },
    #[error("{path} is not a usable arena save file ({why}); it may be truncated or damaged: delete it to start the arena over, or give another file")]
    Corrupt { path: String, why: String },
    #[error("{0} is not an arena save file (one written by an arena); give another file")]
    Foreign(String),
    #[error("{path} was saved by another arena ({diffs}); give another file, or delete it to start this arena over")]
    OtherArena { path: String, diffs: String },
}

#[derive(Serialize)]
struct FileOut<'a> {
    format: &'a str,
    version: u32,
    arena: &'a Params,
    /// Pair by pair, game by game, as in the report; null for a game not played yet.
    outcomes: &'a [Option<Outcome>],
}

/// Writes the arena file now and then, and at the end.
pub struct Saver {
    path: PathBuf,
    params: Params,
    last: Instant,
    every: Duration,
}

impl Saver {
    /// The saver for `path` and the outcomes already in it (all None for a new
    /// file, which is written at once so that a bad path fails before any game).
    ///
    /// # Errors
    /// An unreadable, corrupt or foreign file, or one made by another arena.
    pub fn open(path: &Path, params: Params, total: usize) -> Result<(Saver, Vec<Option<Outcome>>), ArenaFileError> {
        let mut saver = Saver { path: path.to_owned(), params, last: Instant::now(), every: MIN_INTERVAL };
        let outcomes = match std::fs::read(path) {
            Ok(bytes) => saver.parse(&bytes, total)?,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let fresh = vec![None; total];
                saver.save(&fresh)?;
                fresh
            }
            Err(e) => return Err(ArenaFileError::Read { path: path.display().to_string(), why: e.to_string() }),
        };
        Ok((saver, outcomes))
    }

    /// Saves when the last save is old enough.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn tick(&mut self, outcomes: &[Option<Outcome>]) -> Result<(), ArenaFileError> {
        if self.last.elapsed() >= self.every {
            self.save(outcomes)?;
        }
        Ok(())
    }

    /// Saves now.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save(&mut self, outcomes: &[Option<Outcome>]) -> Result<(), ArenaFileError> {
        let started = Instant::now();
        let file = FileOut { format: FORMAT, version: VERSION, arena: &self.params, outcomes };
        let write = |why: String| ArenaFileError::Write { path: self.path.display().to_string(), why };
        let mut bytes = serde_json::to_vec(&file).map_err(|e| write(e.to_string()))?;
        bytes.push(b'\n');
        ur_solve::atomic::write_atomic(&self.path, &bytes).map_err(|e| write(e.to_string()))?;
        // Huge files are saved less often, so that saving stays a small part of the time.
        self.every = MIN_INTERVAL.max(started.elapsed() * 20);
        self.last = Instant::now();
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn parse(&self, bytes: &[u8], total: usize) -> Result<Vec<Option<Outcome>>, ArenaFileError> {
        let path = self.path.display().to_string();
        let corrupt = |why: String| ArenaFileError::Corrupt { path: path.clone(), why };
        let file: Value = serde_json::from_slice(bytes).map_err(|e| corrupt(format!("not JSON: {e}")))?;
        if file.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(ArenaFileError::Foreign(path));
        }
        if file.get("version").and_then(Value::as_u64) != Some(u64::from(VERSION)) {
            return Err(corrupt(format!("format version {}, this program reads {VERSION}", file["version"])));
        }
        let saved = file.get("arena").cloned().ok_or_else(|| corrupt("no \"arena\"".into()))?;
        let saved: Params = serde_json::from_value(saved).map_err(|e| corrupt(format!("\"arena\": {e}")))?;
        self.check_same_arena(&saved)?;
        let outcomes = file.get("outcomes").cloned().ok_or_else(|| corrupt("no \"outcomes\"".into()))?;
        let outcomes: Vec<Option<Outcome>> = serde_json::from_value(outcomes).map_err(|e| corrupt(format!("\"outcomes\": {e}")))?;
        if outcomes.len() != total {
            return Err(corrupt(format!("{} outcomes for an arena of {total} games", outcomes.len())));
        }
        if outcomes.iter().flatten().any(|o| o.winner.is_some_and(|w| w > 1)) {
            return Err(corrupt("a winner other than 0, 1 or null".into()));
        }
        Ok(outcomes)
    }

    /// Refuses a file made by another arena, naming every parameter that differs.
    fn check_same_arena(&self, saved: &Params) -> Result<(), ArenaFileError> {
        if *saved == self.params {
            return Ok(());
        }
        let (Ok(Value::Object(was)), Ok(Value::Object(now))) = (serde_json::to_value(saved), serde_json::to_value(&self.params)) else {
            unreachable!("parameters serialise as objects");
        };
        let diffs: Vec<String> = now
            .iter()
            .filter(|(k, v)| was.get(*k) != Some(*v))
            .map(|(k, v)| format!("{k} {} there, {v} here", was.get(k).unwrap_or(&Value::Null)))
            .collect();
        Err(ArenaFileError::OtherArena { path: self.path.display().to_string(), diffs: diffs.join("; ") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(seed: u64) -> Params {
        Params {
            rules: "finkel".into(),
            options: Options::new(),
            rules_file: None,
            table: None,
            weights: None,
            bots: vec!["random".into(), "greedy".into()],
            games: 2,
            seed,
            paired_dice: true,
            max_actions: 100,
        }
    }

    #[test]
    fn a_saved_arena_resumes_and_another_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("a.json");
        let (mut saver, outcomes) = Saver::open(&path, params(1), 2).unwrap();
        assert_eq!(outcomes, vec![None, None]);
        let done = vec![Some(Outcome { winner: Some(1), first_won: false, actions: 40, capped: false }), None];
        saver.save(&done).unwrap();
        let (_, back) = Saver::open(&path, params(1), 2).unwrap();
        assert_eq!(back, done);
        let e = Saver::open(&path, params(2), 2).err().unwrap().to_string();
        assert!(e.contains("another arena") && e.contains("seed 1 there, 2 here"), "{e}");
        std::fs::write(&path, "{").unwrap();
        assert!(matches!(Saver::open(&path, params(1), 2), Err(ArenaFileError::Corrupt { .. })));
    }
}
