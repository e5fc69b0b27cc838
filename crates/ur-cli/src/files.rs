//! Files the commands read and write: weights and game records.

use std::path::Path;

use anyhow::{anyhow, Context, Result};
use ur_session::records::{SavedGame, Seats};

/// Writes weights as pretty JSON, atomically, creating the directory if needed.
pub fn write_weights(path: &Path, weights: &ur_bots::Weights) -> Result<()> {
    let mut text = serde_json::to_string_pretty(weights)?;
    text.push('\n');
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    ur_solve::atomic::write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
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

/// Makes the network in `path` the one the `net` bots use on the rules it
/// was trained for (`--net FILE`).
pub fn install_net(path: &Path) -> Result<()> {
    let text = read_text(path)?;
    let file = ur_bots::net::NetFile::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    ur_bots::net::install(file);
    Ok(())
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

/// Reads a game record file written by `ur play --save`.
///
/// # Errors
/// The file cannot be read, is not JSON, or is not a record.
pub fn read_game(path: &Path) -> Result<SavedGame> {
    Ok(read_game_with_seats(path)?.0)
}

/// As [`read_game`], with who played the game when the record says.
///
/// # Errors
/// As [`read_game`].
pub fn read_game_with_seats(path: &Path) -> Result<(SavedGame, Option<Seats>)> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    Ok(ur_session::records::read_game_with_seats(&name, &text)?)
}

/// Refuses an output path that cannot be written (a folder, a missing
/// folder, an unwritable place) before any work starts; `flag` names the option.
pub fn check_output(path: &Path, flag: &str) -> Result<()> {
    match ur_solve::atomic::check_writable(path) {
        None => Ok(()),
        Some(why) => anyhow::bail!("{flag} {}: {why}", path.display()),
    }
}
