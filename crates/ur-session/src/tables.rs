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

/// Where a session looks for its game's table: none, one table file, or
/// the table store (a damaged table there is passed over: its reason is
/// kept in [`TableSource::passed_over`]).
#[derive(Default)]
pub enum TableSource {
    #[default]
    None,
    File(LoadedTable),
    Store(PathBuf),
}

impl TableSource {
    /// The store's table for `rules`, if any, with its path.
    pub fn path_for(&self, rules: &Rules) -> Option<PathBuf> {
        match self {
            TableSource::None => None,
            TableSource::File(t) => Some(t.path.clone()),
            TableSource::Store(dir) => store::find(dir, rules),
        }
    }

    /// Why the store's table for `rules` is passed over, if it is.
    pub fn passed_over(&self, rules: &Arc<Rules>) -> Option<(PathBuf, String)> {
        match self {
            TableSource::Store(dir) => match stored_oracle(Some(dir), rules) {
                Stored::Unusable(path, why) => Some((path, why)),
                _ => None,
            },
            _ => None,
        }
    }
}

impl crate::session::Tables for TableSource {
    fn oracle(&self, rules: &Arc<Rules>) -> Option<Result<Oracle, String>> {
        match self {
            TableSource::None => None,
            TableSource::File(t) => Some(t.oracle(rules.clone()).map_err(|e| e.to_string())),
            TableSource::Store(dir) => match stored_oracle(Some(dir), rules) {
                Stored::Found(oracle, _) => Some(Ok(oracle)),
                Stored::None | Stored::Unusable(..) => None,
            },
        }
    }
}
