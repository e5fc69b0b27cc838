//! A table file opened for use, and the rules it was solved for.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ur_rules::{RuleSetFile, Rules};

use crate::{Table, TableError};

/// A table file, opened and checked (header, size, checksum), with its path.
#[derive(Clone)]
pub struct LoadedTable {
    pub table: Arc<Table>,
    pub path: PathBuf,
}

/// Why the rules of a table cannot be rebuilt.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TableRulesError {
    #[error("{path} was solved for '{id}', which is not a built-in rule set; give its rule-set file")]
    NotBuiltIn { path: String, id: String },
    #[error("{path}: the options in the table do not fit '{id}': {why}")]
    Options { path: String, id: String, why: String },
}

impl LoadedTable {
    /// Opens a table written by the solver.
    ///
    /// # Errors
    /// A missing, foreign, truncated or corrupted file, or a folder.
    pub fn open(path: &Path) -> Result<LoadedTable, TableError> {
        if path.is_dir() {
            return Err(TableError::Folder(path.display().to_string()));
        }
        let table = Table::open(path)?;
        Ok(LoadedTable { table: Arc::new(table), path: path.to_owned() })
    }

    /// The rules named in the table's header: a built-in rule set with the
    /// table's options.
    ///
    /// # Errors
    /// The table was solved for a rule set that is not built in, or its
    /// options no longer fit it.
    pub fn header_rules(&self) -> Result<Rules, TableRulesError> {
        let h = &self.table.header;
        let path = self.path.display().to_string();
        let file =
            RuleSetFile::builtin(&h.rules_id).map_err(|_| TableRulesError::NotBuiltIn { path: path.clone(), id: h.rules_id.clone() })?;
        Rules::from_file(&file, &h.options).map_err(|e| TableRulesError::Options { path, id: h.rules_id.clone(), why: e.to_string() })
    }

    /// The rules given for this table: `rules` (compiled from `file`) as
    /// they are, except that when they are the table's rule set and no option
    /// was given (`options_given` false), the table's options apply.
    pub fn given_rules(&self, file: &RuleSetFile, rules: Rules, options_given: bool) -> Rules {
        let header = &self.table.header;
        if rules.id() == header.rules_id && !options_given {
            Rules::from_file(file, &header.options).unwrap_or(rules)
        } else {
            rules
        }
    }
}
