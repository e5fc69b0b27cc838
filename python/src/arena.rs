//! `ur_engine.arena`: a round robin between built-in bots, as `ur arena` plays it.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use ur_session::arena::{Arena, ArenaSpec, RunOptions, Start};
use ur_session::RulesChoice;

use crate::errors::rules_error;
use crate::game::option_pairs;

/// Plays every pair of `bots` `games` times (paired dice by default: games
/// 2k and 2k+1 throw the same dice, colours swapped) and returns the report
/// of `ur arena --json`: each pair's wins, score and its 95% Wilson interval,
/// and an Elo table.
#[pyfunction]
#[pyo3(signature = (bots, rules = "finkel", games = 100, seed = 1, threads = 0, options = None, paired_dice = true, max_actions = 100_000))]
#[allow(clippy::too_many_arguments)]
pub fn arena<'py>(
    py: Python<'py>,
    bots: Vec<String>,
    rules: &str,
    games: u64,
    seed: u64,
    threads: usize,
    options: Option<&Bound<'py, PyDict>>,
    paired_dice: bool,
    max_actions: u64,
) -> PyResult<Bound<'py, PyAny>> {
    if bots.len() < 2 {
        return Err(rules_error("an arena needs at least two bots".into()));
    }
    if games == 0 || games % 2 == 1 {
        return Err(rules_error(format!("games must be even and positive (each bot moves first in half), not {games}")));
    }
    let choice = RulesChoice { id: Some(rules.to_string()), file: None, pieces: None, options: option_pairs(options)? };
    let start = Start::load(&choice, None).map_err(|e| rules_error(e.to_string()))?;
    let spec = ArenaSpec { bots, games, seed, paired_dice, max_actions };
    let arena = Arena::new(&start, spec).map_err(|e| rules_error(e.to_string()))?;
    let opts = RunOptions { threads, ..RunOptions::default() };
    let report = py.detach(|| {
        let run = arena.run(&opts, |_| {})?;
        let outcomes = run.complete().expect("an arena without a save file plays every game");
        Ok::<_, ur_session::arena::ArenaError>(arena.report(&outcomes))
    });
    let report = report.map_err(|e| rules_error(e.to_string()))?;
    let json = serde_json::to_string(&report).map_err(|e| rules_error(e.to_string()))?;
    py.import("json")?.call_method1("loads", (json,))
}
