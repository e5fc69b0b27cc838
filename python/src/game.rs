//! `ur_engine.Game`: one game of any rule set, with its record and seeded dice.

use std::collections::BTreeMap;

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use ur_bots::net::observe::Observer;
use ur_rules::{ActionSpace, AnyAction, AnyGame, Playable, Side, Turn};
use ur_session::records::{game_json, read_game};
use ur_session::{NewGame, NoTables, RulesSource, SavedGame, Session};

use crate::errors::{illegal, record_error, rules_error, session_error};

/// A game of any rule set: its record, its seeded dice, its observation and
/// its fixed action numbering.
#[pyclass(module = "ur_engine._ur")]
#[derive(Clone)]
pub struct Game {
    pub(crate) session: Session,
    pub(crate) rng: Xoshiro256PlusPlus,
    pub(crate) observer: Observer,
    pub(crate) space: ActionSpace,
}

/// What pickling keeps: the record and the dice's state.
#[derive(Serialize, Deserialize)]
struct Saved {
    record: serde_json::Value,
    rng: Xoshiro256PlusPlus,
}

/// `{"name": value}` from Python to the engine's `name=value` options.
pub(crate) fn option_pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<String>> {
    let Some(options) = options else { return Ok(Vec::new()) };
    let mut pairs = Vec::new();
    for (k, v) in options.iter() {
        let value = if let Ok(b) = v.extract::<bool>() { b.to_string() } else { v.str()?.to_string() };
        pairs.push(format!("{}={value}", k.str()?));
    }
    Ok(pairs)
}

pub(crate) fn side_arg(first: &str) -> PyResult<Side> {
    Side::parse(first).ok_or_else(|| rules_error(format!("first must be 'light' or 'dark', not '{first}'")))
}

impl Game {
    pub(crate) fn from_session(session: Session, seed: u64) -> Game {
        let observer = Observer::for_game(session.game());
        let space = ActionSpace::of(session.game());
        Game { session, rng: Xoshiro256PlusPlus::seed_from_u64(seed), observer, space }
    }

    pub(crate) fn start(rules: RulesSource, options: &[String], first: Side, seed: u64) -> PyResult<Game> {
        let options = ur_session::parse_options(options).map_err(|e| rules_error(e.to_string()))?;
        let new = NewGame { rules, options, first };
        let session = Session::new(&new, &NoTables).map_err(session_error)?;
        Ok(Game::from_session(session, seed))
    }

    pub(crate) fn game(&self) -> &AnyGame {
        self.session.game()
    }

    fn open(&self) -> Vec<AnyAction> {
        match self.game().turn() {
            Turn::Decide(_) => self.game().actions(),
            _ => Vec::new(),
        }
    }

    fn legal_ids(&self) -> Vec<usize> {
        let mut ids: Vec<usize> = self.open().iter().map(|a| self.space.index(a)).collect();
        ids.sort_unstable();
        ids
    }

    fn saved_record(&self) -> PyResult<String> {
        game_json(&self.session.record(), None).map_err(|e| record_error(e.to_string()))
    }

    fn from_record_text(text: &str, seed: u64) -> PyResult<Game> {
        let saved = read_game("the record", text).map_err(|e| record_error(e.to_string()))?;
        Game::resume(&saved, seed)
    }

    fn resume(saved: &SavedGame, seed: u64) -> PyResult<Game> {
        let session = Session::resume(saved, &NoTables).map_err(|e| record_error(e.to_string()))?;
        Ok(Game::from_session(session, seed))
    }

    /// The state pickling keeps.
    pub(crate) fn state(&self) -> PyResult<String> {
        let record = serde_json::from_str(&self.saved_record()?).map_err(|e| record_error(e.to_string()))?;
        serde_json::to_string(&Saved { record, rng: self.rng.clone() }).map_err(|e| record_error(e.to_string()))
    }

    pub(crate) fn from_state(state: &str) -> PyResult<Game> {
        let saved: Saved = serde_json::from_str(state).map_err(|e| record_error(format!("not a pickled game: {e}")))?;
        let mut game = Game::from_record_text(&saved.record.to_string(), 0)?;
        game.rng = saved.rng;
        Ok(game)
    }

    /// The returns of a finished game, by seat.
    pub(crate) fn returns_of(game: &AnyGame) -> [f64; 2] {
        match game.turn() {
            Turn::Over(Some(w)) => {
                let mut r = [-1.0; 2];
                r[w.index()] = 1.0;
                r
            }
            _ => [0.0; 2],
        }
    }
}

#[pymethods]
impl Game {
    /// A new game of a built-in rule set (`ur_engine.rules()` lists them).
    #[new]
    #[pyo3(signature = (rules = "finkel", options = None, seed = 0, first = "light"))]
    fn new(rules: &str, options: Option<&Bound<'_, PyDict>>, seed: u64, first: &str) -> PyResult<Game> {
        Game::start(RulesSource::Builtin(rules.to_string()), &option_pairs(options)?, side_arg(first)?, seed)
    }

    /// A new game under the rules of a rule-set file (the format of `rulesets/*.toml`).
    #[staticmethod]
    #[pyo3(signature = (path, options = None, seed = 0, first = "light"))]
    fn from_rules_file(path: std::path::PathBuf, options: Option<&Bound<'_, PyDict>>, seed: u64, first: &str) -> PyResult<Game> {
        let text =
            std::fs::read_to_string(&path).map_err(|e| rules_error(format!("cannot read the rule-set file {}: {e}", path.display())))?;
        Game::start(RulesSource::File(text), &option_pairs(options)?, side_arg(first)?, seed)
    }

    /// A game set up at a position string (docs/positions.md) or a position in JSON.
    #[staticmethod]
    #[pyo3(signature = (text, rules = "finkel", options = None, seed = 0))]
    fn from_position_string(text: &str, rules: &str, options: Option<&Bound<'_, PyDict>>, seed: u64) -> PyResult<Game> {
        let mut game = Game::new(rules, options, seed, "light")?;
        game.session.set_text(text).map_err(session_error)?;
        Ok(game)
    }

    /// A game replayed from its record (JSON, as `record_json` writes it).
    #[staticmethod]
    #[pyo3(signature = (text, seed = 0))]
    fn from_record_json(text: &str, seed: u64) -> PyResult<Game> {
        Game::from_record_text(text, seed)
    }

    /// A game replayed from RGN text (the first game in it).
    #[staticmethod]
    #[pyo3(signature = (text, seed = 0))]
    fn from_rgn(text: &str, seed: u64) -> PyResult<Game> {
        let games = ur_session::rgn::read_games(text, None).map_err(|e| record_error(e.to_string()))?;
        let first = games.first().ok_or_else(|| record_error("the RGN text holds no game".into()))?;
        Game::resume(first, seed)
    }

    /// The rule-set id.
    #[getter]
    fn rules(&self) -> String {
        self.game().rule_id().to_string()
    }

    /// The rule set's family: `race`, `bens` (marker games) or `tower`.
    #[getter]
    fn family(&self) -> String {
        crate::family_name(self.game().family()).to_string()
    }

    /// The options given when the game was made, as text.
    #[getter]
    fn options(&self) -> BTreeMap<String, String> {
        self.session.options().iter().map(|(k, v)| (k.clone(), v.to_string())).collect()
    }

    /// How many action numbers the rule set has (`action_mask()`'s length).
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.len()
    }

    /// The length of `observation()`.
    #[getter]
    fn observation_size(&self) -> usize {
        self.observer.len()
    }

    /// The open decisions' numbers, in increasing order (empty at a chance node or the end).
    fn legal_actions(&self) -> Vec<usize> {
        self.legal_ids()
    }

    /// The text a player types for the open decision `action` (`4->8`, `reroll`).
    fn action_to_string(&self, action: usize) -> PyResult<String> {
        self.space.find(&self.open(), action).map(|a| a.to_string()).ok_or_else(|| self.not_open(action))
    }

    /// 1 for each open decision's number, 0 elsewhere (`num_actions` long).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.space.len()];
        for i in self.legal_ids() {
            mask[i] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Makes the open decision numbered `action`; at a chance node, takes the raw throw `action`.
    fn apply(&mut self, action: usize) -> PyResult<()> {
        if self.is_chance_node() {
            let raw = u8::try_from(action).map_err(|_| self.not_open(action))?;
            if !self.game().outcomes().iter().any(|&(r, p)| r == raw && p > 0.0) {
                return Err(illegal(format!(
                    "the dice cannot show {action} here; chance_outcomes() lists what they can: {:?}",
                    self.game().outcomes().iter().map(|o| o.0).collect::<Vec<_>>()
                )));
            }
            self.session.roll(raw).map_err(session_error)?;
            return Ok(());
        }
        let chosen = self.space.find(&self.open(), action).ok_or_else(|| self.not_open(action))?;
        self.session.act(&chosen).map_err(session_error)?;
        Ok(())
    }

    /// Throws the dice (seeded by the game's seed) and returns the raw outcome.
    fn roll(&mut self) -> PyResult<u8> {
        if !self.is_chance_node() {
            return Err(illegal(format!("no roll now: {}", self.waits_for())));
        }
        Ok(self.session.roll_from(&mut self.rng).map_err(session_error)?.raw)
    }

    /// `[(raw_throw, probability)]` at a chance node (they sum to 1); empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(u8, f64)> {
        if self.is_chance_node() {
            self.game().outcomes()
        } else {
            Vec::new()
        }
    }

    /// Plays a copy of the game to its end with random decisions and the
    /// game's dice, in Rust, and returns the winner's seat (None for a draw):
    /// a rollout for Monte Carlo searches. The game itself is unchanged but
    /// for its dice, which move on.
    fn rollout(&mut self, py: Python<'_>) -> Option<usize> {
        let mut game = self.game().clone();
        let rng = &mut self.rng;
        py.detach(|| {
            for _ in 0..ur_session::ACTION_CAP {
                match game.turn() {
                    Turn::Over(w) => return w.map(Side::index),
                    Turn::Roll(_) => {
                        game.roll_with(rng).expect("a roll at a roll");
                    }
                    Turn::Decide(_) => {
                        let open = game.actions();
                        game.apply_unchecked(&open[rand::Rng::gen_range(rng, 0..open.len())]);
                    }
                }
            }
            None
        })
    }

    /// Whether the dice are to be thrown.
    fn is_chance_node(&self) -> bool {
        matches!(self.game().turn(), Turn::Roll(_))
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        matches!(self.game().turn(), Turn::Over(_))
    }

    /// The seat whose turn it is, to roll or to decide: 0 light, 1 dark; -1 once the game is over.
    fn current_player(&self) -> i32 {
        match self.game().turn() {
            Turn::Roll(s) | Turn::Decide(s) => s.index() as i32,
            Turn::Over(_) => -1,
        }
    }

    /// The winner's seat (0 light, 1 dark), or None while the game goes on or when it is drawn.
    fn winner(&self) -> Option<usize> {
        self.game().winner().map(Side::index)
    }

    /// `[light, dark]`: 1 to the winner and -1 to the loser, 0 to both before the end or in a draw.
    fn returns(&self) -> Vec<f64> {
        Game::returns_of(self.game()).to_vec()
    }

    /// The features the bots' network reads, from the point of view of the seat to play (`float32`).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0.0; self.observer.len()];
        self.observer.encode(self.game(), &mut out);
        PyArray1::from_vec(py, out)
    }

    /// The position as a position string (docs/positions.md), with the throw when one is being decided.
    fn position_string(&self) -> String {
        ur_rules::position_text::write(self.game())
    }

    /// The game's record as JSON (the format `ur play --save` writes).
    fn record_json(&self) -> PyResult<String> {
        self.saved_record()
    }

    /// The game's record as RGN text.
    fn record_rgn(&self) -> PyResult<String> {
        ur_session::rgn::write_game(&self.session.record(), None).map_err(|e| record_error(e.to_string()))
    }

    /// The board as text.
    fn board(&self) -> String {
        self.game().board_text()
    }

    /// An independent copy: the same position, record and dice.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("ur_engine._ur")?.getattr("_restore_game")?;
        Ok((restore, PyTuple::new(py, [self.state()?])?))
    }

    fn __repr__(&self) -> String {
        format!("Game(rules={:?}, {})", self.game().rule_id(), self.waits_for())
    }
}

impl Game {
    fn waits_for(&self) -> String {
        match self.game().turn() {
            Turn::Roll(s) => format!("{s} to roll"),
            Turn::Decide(s) => format!("{s} to decide"),
            Turn::Over(Some(w)) => format!("won by {w}"),
            Turn::Over(None) => "drawn".into(),
        }
    }

    fn not_open(&self, action: usize) -> PyErr {
        let open = self.legal_ids();
        if open.is_empty() {
            return illegal(format!("action {action} is not open: {}", self.waits_for()));
        }
        illegal(format!("action {action} is not open here; legal_actions() gives {open:?}"))
    }
}

/// Unpickles a game.
#[pyfunction]
pub fn _restore_game(state: &str) -> PyResult<Game> {
    Game::from_state(state)
}
