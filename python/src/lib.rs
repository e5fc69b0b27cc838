//! The Python extension `ur_engine._ur`: the engine's games, a vectorised
//! environment for learning, and the rule sets (docs/python.md).

mod arena;
mod bot;
mod errors;
mod game;
mod table;
mod vecenv;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use ur_rules::{family_rule_sets, RuleSetFile};

/// Every built-in rule set: `[{"id", "name", "family"}]`, the races first.
#[pyfunction]
fn rules(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let mut out = Vec::new();
    for file in RuleSetFile::all_builtin() {
        out.push(entry(py, &file.id, &file.name, "race")?);
    }
    for set in family_rule_sets() {
        out.push(entry(py, set.id, set.name, family_name(set.family))?);
    }
    Ok(out)
}

/// The family as the package names it: `race`, `marker` or `tower`.
pub(crate) fn family_name(family: ur_rules::Family) -> &'static str {
    match family {
        ur_rules::Family::Race => "race",
        ur_rules::Family::Bens => "marker",
        ur_rules::Family::Tower => "tower",
    }
}

fn entry<'py>(py: Python<'py>, id: &str, name: &str, family: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", id)?;
    d.set_item("name", name)?;
    d.set_item("family", family)?;
    Ok(d)
}

#[pymodule]
fn _ur(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(game::_restore_game, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<bot::Bot>()?;
    m.add_class::<table::Table>()?;
    m.add_function(wrap_pyfunction!(table::solve, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena, m)?)?;
    m.add_class::<vecenv::VecEnv>()?;
    m.add("IllegalActionError", m.py().get_type::<errors::IllegalActionError>())?;
    m.add("RulesError", m.py().get_type::<errors::RulesError>())?;
    m.add("RecordError", m.py().get_type::<errors::RecordError>())?;
    Ok(())
}
