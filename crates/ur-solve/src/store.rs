//! The table store: the folder where the solver puts a table when no other
//! place is asked for, and where players and tools look for one, so that a
//! table is solved once. Tables are found by the fingerprint of the rules
//! they were solved for (part of the file name), never by name alone.

use std::path::{Path, PathBuf};

use ur_rules::Rules;

use crate::loaded::LoadedTable;
use crate::table::fingerprint;
use crate::TableError;

/// The environment variable that names the store folder.
pub const ENV: &str = "UR_TABLES";

/// Why the store cannot serve.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StoreError {
    #[error("no table store: set {ENV} to a folder")]
    NoStore,
    #[error("the table store {0} is not a folder; set {ENV} to a folder")]
    NotAFolder(String),
    #[error("cannot create the table store {path} ({why}); set {ENV} to another folder")]
    Create { path: String, why: String },
    #[error("no table is solved for these rules ({rules}) in the table store {store}; solve one into the store")]
    NotFound { rules: String, store: String },
    #[error("the table store names tables after their rule set, and {0}")]
    BadId(String),
}

/// The store folder: `$UR_TABLES`, else `tables` in the user's data folder
/// for `ur` (`~/.local/share/ur/tables` on Linux). `None` when neither is known.
pub fn dir() -> Option<PathBuf> {
    match std::env::var_os(ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => dirs::data_dir().map(|d| d.join("ur").join("tables")),
    }
}

/// The file name of the table of `rules` in a store. Rule-set ids are
/// checked when a file is read; here again every character but `a-z`,
/// `0-9`, `-` and `_` is written `_`, so no name leaves the store's folder.
pub fn file_name(rules: &Rules) -> String {
    let safe = |c: char| if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_' { c } else { '_' };
    let id: String = rules.id().chars().take(ur_rules::spec::MAX_ID_LEN).map(safe).collect();
    format!("{id}-{}p-{}.urt", rules.pieces(), fingerprint(rules))
}

/// Where the table of `rules` goes in the store [`dir`]; creates the store.
///
/// # Errors
/// No store is known, its folder cannot be made, or the rule-set id is not
/// one a file may be named after.
pub fn path_for(rules: &Rules) -> Result<PathBuf, StoreError> {
    path_in(&dir().ok_or(StoreError::NoStore)?, rules)
}

/// Where the table of `rules` goes in the store `dir`; creates the folder.
///
/// # Errors
/// The folder cannot be made, or the id is not allowed.
pub fn path_in(dir: &Path, rules: &Rules) -> Result<PathBuf, StoreError> {
    ur_rules::spec::check_id(rules.id()).map_err(StoreError::BadId)?;
    std::fs::create_dir_all(dir).map_err(|e| StoreError::Create { path: dir.display().to_string(), why: e.to_string() })?;
    Ok(dir.join(file_name(rules)))
}

/// The table in `store` solved for `rules`, if there is one.
pub fn find(store: &Path, rules: &Rules) -> Option<PathBuf> {
    let suffix = format!("-{}.urt", fingerprint(rules));
    table_files(store).into_iter().find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(&suffix)))
}

/// The table in the store [`dir`] solved for `rules`, opened.
///
/// # Errors
/// No store, no table for the rules there, or a table there that cannot be used.
pub fn open_for(rules: &Rules, describe: &str) -> Result<LoadedTable, StoreLookupError> {
    let store = dir().ok_or(StoreError::NoStore)?;
    let path =
        find(&store, rules).ok_or_else(|| StoreError::NotFound { rules: describe.to_string(), store: store.display().to_string() })?;
    Ok(LoadedTable::open(&path)?)
}

/// Why [`open_for`] found no usable table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StoreLookupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Every `.urt` file of the store, by name (none when there is no store).
pub fn table_files(store: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(store) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(|e| Some(e.ok()?.path())).filter(|p| p.extension().is_some_and(|x| x == "urt")).collect();
    files.sort();
    files
}

/// One file of the store, opened and checked or not.
pub struct Listed {
    pub file: PathBuf,
    pub table: Result<crate::Table, TableError>,
}

/// Every `.urt` file of `store`, by name, opened and checked.
///
/// # Errors
/// `store` exists and is not a folder.
pub fn list(store: &Path) -> Result<Vec<Listed>, StoreError> {
    if store.exists() && !store.is_dir() {
        return Err(StoreError::NotAFolder(store.display().to_string()));
    }
    Ok(table_files(store).into_iter().map(|file| Listed { table: crate::Table::open(&file), file }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_found_by_fingerprint_not_by_name() {
        let d = tempfile::tempdir().unwrap();
        let three = Rules::builtin_with("finkel", &[("pieces".into(), ur_rules::OptionValue::Int(3))].into()).unwrap();
        let two = Rules::builtin_with("finkel", &[("pieces".into(), ur_rules::OptionValue::Int(2))].into()).unwrap();
        std::fs::write(d.path().join(file_name(&three)), b"").unwrap();
        std::fs::write(d.path().join("finkel-2p-0000000000000000.urt"), b"").unwrap();
        assert_eq!(find(d.path(), &three), Some(d.path().join(file_name(&three))));
        assert_eq!(find(d.path(), &two), None);
        assert_eq!(list(d.path()).unwrap().len(), 2);
    }

    #[test]
    fn a_table_is_never_named_outside_the_store() {
        let d = tempfile::tempdir().unwrap();
        let store = d.path().join("store");
        for id in ["../../escaped", "a/b", "", "..", "a\\b", "C:x"] {
            let mut rules = Rules::builtin_with("finkel", &[("pieces".into(), ur_rules::OptionValue::Int(1))].into()).unwrap();
            rules.spec.id = id.to_owned();
            let name = file_name(&rules);
            assert!(!name.contains(['/', '\\', ':']) && !name.starts_with('.'), "{id:?}: {name}");
            assert_eq!(store.join(&name).parent(), Some(store.as_path()), "{id:?}: {name}");
            let e = path_in(&store, &rules).unwrap_err();
            assert!(e.to_string().contains("use 1 to 64 characters from a-z, 0-9, - and _"), "{id:?}: {e}");
        }
        assert!(!store.exists(), "nothing is made for a refused id");
        let finkel = Rules::builtin("finkel").unwrap();
        assert_eq!(path_in(&store, &finkel).unwrap(), store.join(file_name(&finkel)));
    }
}
