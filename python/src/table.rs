//! `ur_engine.solve` and `ur_engine.Table`: exact win probabilities of the
//! race rule sets, from tables made by the engine's solver.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use ur_bots::net::RaceEncoder;
use ur_bots::Oracle;
use ur_rules::{Rules, Side, State};
use ur_session::tables::{LoadedTable, TableOracle};
use ur_session::RulesChoice;
use ur_solve::{Encoding, Indexer, Silent, SolveConfig};

use crate::errors::{illegal, rules_error};
use crate::game::{option_pairs, Game};

/// A solved race rule set: the exact win probability of every position.
#[pyclass(module = "ur_engine._ur")]
pub struct Table {
    pub(crate) oracle: Oracle,
    path: PathBuf,
    encoder: RaceEncoder,
    /// The fingerprint of the table's rules, for [`Table::fits`].
    fingerprint: String,
}

impl Table {
    fn open_for(path: PathBuf, rules: Arc<Rules>) -> PyResult<Table> {
        let loaded = LoadedTable::open(&path).map_err(|e| rules_error(e.to_string()))?;
        let oracle = loaded.oracle(rules.clone()).map_err(|e| rules_error(e.to_string()))?;
        let fingerprint = ur_solve::table::fingerprint(&rules);
        Ok(Table { oracle, path, encoder: RaceEncoder::new(rules), fingerprint })
    }

    /// The exact value of a race game at its current decision (see `value`).
    pub(crate) fn game_value(&self, game: &ur_rules::AnyGame) -> Option<f64> {
        self.oracle.game_value(game.as_race().filter(|g| self.fits(g.rules()))?)
    }

    /// Whether `rules` are those the table was solved for: the rule set, its options and pieces.
    fn fits(&self, rules: &Rules) -> bool {
        ur_solve::table::fingerprint(rules) == self.fingerprint
    }

    /// The state an observation shows, the side to move as light.
    fn state_of(&self, x: &[f32]) -> State {
        let rules = self.oracle.rules();
        let counts = self.encoder.decode_counts(x, Side::Light);
        let mut st = State::empty(Side::Light);
        for side in Side::BOTH {
            let c = &counts[side.index()];
            for (pos, &n) in c.iter().enumerate().take(c.len() - 1).skip(1) {
                for _ in 0..n {
                    st.add_piece(rules, side, pos as u8);
                }
            }
            st.set_counts(side, c[0], c[c.len() - 1]);
        }
        st
    }
}

fn rules_of(rules: &str, pieces: Option<u8>, options: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Rules> {
    let choice = RulesChoice { id: Some(rules.to_string()), file: None, pieces, options: option_pairs(options)? };
    let loaded = choice.load().map_err(|e| rules_error(e.to_string()))?;
    Ok(loaded.rules)
}

/// Solves a race rule set (or finds it solved in the table store, or at
/// `path`) and returns its table. Without `path` the table goes to the
/// table store that `ur solve` uses, so it is solved once.
#[pyfunction]
#[pyo3(signature = (rules = "finkel", pieces = None, options = None, path = None, threads = 0))]
pub fn solve(
    py: Python<'_>,
    rules: &str,
    pieces: Option<u8>,
    options: Option<&Bound<'_, pyo3::types::PyDict>>,
    path: Option<PathBuf>,
    threads: usize,
) -> PyResult<Table> {
    let rules = Arc::new(rules_of(rules, pieces, options)?);
    let path = match path {
        Some(p) => p,
        None => ur_solve::store::path_for(&rules).map_err(|e| rules_error(format!("{e}; give path=")))?,
    };
    if path.is_file() {
        if let Ok(table) = Table::open_for(path.clone(), rules.clone()) {
            return Ok(table);
        }
    }
    let index = Indexer::new(&rules).map_err(|e| rules_error(e.to_string()))?;
    let cfg = SolveConfig { threads, ..SolveConfig::default() };
    let (r, out) = (rules.clone(), path.clone());
    py.detach(move || {
        let solution = ur_solve::solve(&r, &index, &cfg, &Silent)?;
        ur_solve::table::write_table(&out, &r, &index, &solution.values, Encoding::F64, solution.residual, cfg.tolerance)
    })
    .map_err(|e| rules_error(e.to_string()))?;
    Table::open_for(path, rules)
}

#[pymethods]
impl Table {
    /// A table written by `ur solve` or `solve()`, for `rules` (its own by default).
    #[staticmethod]
    #[pyo3(signature = (path, rules = None, pieces = None, options = None))]
    fn open(path: PathBuf, rules: Option<&str>, pieces: Option<u8>, options: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Table> {
        let rules = match rules {
            Some(id) => rules_of(id, pieces, options)?,
            None => {
                let loaded = LoadedTable::open(&path).map_err(|e| rules_error(e.to_string()))?;
                loaded.header_rules().map_err(|e| rules_error(e.to_string()))?
            }
        };
        Table::open_for(path, Arc::new(rules))
    }

    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    #[getter]
    fn rules(&self) -> String {
        self.oracle.rules().id().to_string()
    }

    #[getter]
    fn pieces(&self) -> u8 {
        self.oracle.rules().pieces()
    }

    /// The exact win probability of the seat to play in `game`: before the
    /// throw at a roll, after the best move for the throw being decided, or
    /// after the better of rerolling and ending. None once the game is over.
    fn value(&self, game: &Game) -> PyResult<Option<f64>> {
        if game.game().as_race().is_none_or(|g| !self.fits(g.rules())) {
            return Err(illegal(format!(
                "the table is of {} with {} pieces; this game is of {} under other rules or pieces",
                self.rules(),
                self.pieces(),
                ur_rules::Playable::rule_id(game.game())
            )));
        }
        Ok(self.game_value(game.game()))
    }

    /// The exact win probability of the side to move, before its throw, of
    /// each observation in a batch (`(n, observation_size)` float32, as
    /// `Game.observation()` and `VecEnv` give them).
    fn values<'py>(&self, py: Python<'py>, observations: PyReadonlyArray2<'py, f32>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let obs = observations.as_array();
        let width = self.encoder.len() + ur_bots::net::observe::TURN_BLOCK;
        if obs.ncols() != width {
            return Err(illegal(format!("observations of {} values; this table's rules have {width}", obs.ncols())));
        }
        let mut out = Vec::with_capacity(obs.nrows());
        for row in obs.rows() {
            let x: Vec<f32> = row.iter().copied().collect();
            let st = self.state_of(&x[..self.encoder.len()]);
            out.push(match st.winner(self.oracle.rules()) {
                Some(w) => f64::from(u8::from(w == Side::Light)),
                None => self.oracle.value(&st),
            });
        }
        Ok(PyArray1::from_vec(py, out))
    }

    pub(crate) fn __repr__(&self) -> String {
        format!("Table(rules={:?}, pieces={}, path={:?})", self.rules(), self.pieces(), self.path.display().to_string())
    }
}
