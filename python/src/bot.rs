//! `ur_engine.Bot`: any built-in bot, choosing for a `Game`.

use std::sync::Mutex;

use pyo3::prelude::*;
use ur_rules::{Playable, Turn};

use crate::errors::{illegal, rules_error};
use crate::game::Game;

/// A built-in bot by name (`random`, `greedy`, `expectimax:2`, `mcts:500`, `net:2`, `level1` to `level5`).
#[pyclass(module = "ur_engine._ur")]
pub struct Bot {
    name: String,
    bot: Mutex<Box<dyn ur_bots::Bot>>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (name = "level3", seed = 0))]
    fn new(name: &str, seed: u64) -> PyResult<Bot> {
        let bot = ur_bots::make_bot(name, seed).map_err(|e| rules_error(e.to_string()))?;
        Ok(Bot { name: name.to_string(), bot: Mutex::new(bot) })
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The number of the decision the bot makes in `game` (which must be waiting for one).
    fn choose(&self, py: Python<'_>, game: &Game) -> PyResult<usize> {
        if !matches!(game.game().turn(), Turn::Decide(_)) {
            return Err(illegal("the bot has nothing to choose: the game is not waiting for a decision".into()));
        }
        let mut bot = self.bot.lock().map_err(|_| illegal("the bot failed before".into()))?;
        bot.check(game.game()).map_err(|e| rules_error(e.to_string()))?;
        let (any, bot): (&ur_rules::AnyGame, &mut Box<dyn ur_bots::Bot>) = (game.game(), &mut bot);
        let action = py.detach(|| bot.decide(any));
        Ok(game.space.index(&action))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.name)
    }
}
