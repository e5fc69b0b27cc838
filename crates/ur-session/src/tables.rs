//! Solved tables ready for lookups: a [`LoadedTable`] made an [`Oracle`]
//! under given rules, and the table store's table for a game's rules.

use std::path::PathBuf;
use std::sync::Arc;

use ur_bots::{BotError, Oracle};
use ur_rules::Rules;
pub use ur_solve::store;
pub use ur_solve::LoadedTable;

/// A table that answers for rules.
pub trait TableOracle {
    /// The table ready for lookups under `rules`.
    ///
    /// # Errors
    /// The table was solved for other rules.
    fn oracle(&self, rules: Arc<Rules>) -> Result<Oracle, BotError>;
}

impl TableOracle for LoadedTable {
    fn oracle(&self, rules: Arc<Rules>) -> Result<Oracle, BotError> {
        Oracle::new(self.table.clone(), rules, &self.path)
    }
}

/// What the table store holds for some rules.
pub enum Stored {
    /// No store, or no table for the rules in it.
    None,
    /// A table, ready.
    Found(Oracle, PathBuf),
    /// A table for the rules that cannot be used (damaged, say), and why.
    Unusable(PathBuf, String),
}

/// The table in the store `store` (by default none) solved for `rules`.
pub fn stored_oracle(store: Option<&std::path::Path>, rules: &Arc<Rules>) -> Stored {
    let Some(path) = store.and_then(|s| store::find(s, rules)) else { return Stored::None };
    let opened = LoadedTable::open(&path).map_err(|e| e.to_string()).and_then(|t| t.oracle(rules.clone()).map_err(|e| e.to_string()));
    match opened {
        Ok(oracle) => Stored::Found(oracle, path),
        Err(why) => Stored::Unusable(path, why),
    }
}
