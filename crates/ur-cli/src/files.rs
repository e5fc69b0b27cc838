//! File output that never leaves a half-written file behind.

use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, Context, Result};

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, flushed and synced, then renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes).and_then(|()| tmp.as_file().sync_all()).context("cannot write the temporary file")?;
    tmp.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes weights as pretty JSON, atomically, creating the directory if needed.
pub fn write_weights(path: &Path, weights: &ur_bots::Weights) -> Result<()> {
    let mut text = serde_json::to_string_pretty(weights)?;
    text.push('\n');
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    write_atomic(path, text.as_bytes())
}

/// Reads a weights file (as written by `ur train-eval`) and checks that it
/// fits the features this build computes.
pub fn read_weights(path: &Path) -> Result<ur_bots::Weights> {
    parse_weights(path, &read_text(path)?)
}

/// The weights in `path`, or the built-in ones when there is no path.
pub fn base_weights(path: Option<&Path>) -> Result<ur_bots::Weights> {
    match path {
        Some(p) => read_weights(p),
        None => Ok(ur_bots::Weights::builtin().clone()),
    }
}

/// Makes the weights in `path` the ones every bot made afterwards uses
/// (`--weights FILE`, to measure a candidate without rebuilding). Returns
/// the file's text.
pub fn install_weights(path: &Path) -> Result<String> {
    let text = read_text(path)?;
    ur_bots::Weights::install(parse_weights(path, &text)?).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(text)
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| anyhow!("{}: not a weights file (not UTF-8 text)", path.display()))
}

fn parse_weights(path: &Path, text: &str) -> Result<ur_bots::Weights> {
    let weights: ur_bots::Weights = serde_json::from_str(text).with_context(|| format!("{}: not a weights file", path.display()))?;
    weights.check().map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(weights)
}

/// A saved game: a race game's record, or the JSON of a record of another
/// family (version 2, read by [`ur_rules::AnyRecord`]).
pub enum SavedGame {
    Race(ur_rules::GameRecord),
    Family(serde_json::Value),
}

/// Reads a game record file written by `ur play --save`.
///
/// # Errors
/// The file cannot be read, is not JSON, or is not a record.
pub fn read_game(path: &Path) -> Result<SavedGame> {
    let name = path.display();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    let value: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{name} is not a valid game record (not JSON)"))?;
    if ur_rules::AnyRecord::detect(&value) {
        return Ok(SavedGame::Family(value));
    }
    Ok(SavedGame::Race(serde_json::from_value(value).with_context(|| format!("{name} is not a valid game record"))?))
}
