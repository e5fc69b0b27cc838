//! The table store: the folder where `ur solve` puts a table when no
//! `--out` is given, and where `ur play` and `ur engine` look for one when
//! no `--table` is given, so that level 5 and `perfect` play from a table
//! solved once. Tables are found by the fingerprint of the rules they were
//! solved for (part of the file name), never by name alone.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ur_bots::Oracle;
use ur_rules::Rules;

use crate::eval_cmd::LoadedTable;

/// The environment variable that names the store folder.
pub const ENV: &str = "UR_TABLES";

/// The store folder: `$UR_TABLES`, else `tables` in the user's data folder
/// for `ur` (`~/.local/share/ur/tables` on Linux). `None` when neither is known.
pub fn dir() -> Option<PathBuf> {
    match std::env::var_os(ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => dirs::data_dir().map(|d| d.join("ur").join("tables")),
    }
}

/// The file name of the table of `rules` in a store.
pub fn file_name(rules: &Rules) -> String {
    format!("{}-{}p-{}.urt", rules.id(), rules.pieces(), ur_solve::table::fingerprint(rules))
}

/// The table in `store` solved for `rules`, if there is one.
pub fn find(store: &Path, rules: &Rules) -> Option<PathBuf> {
    let suffix = format!("-{}.urt", ur_solve::table::fingerprint(rules));
    let mut found: Vec<PathBuf> = std::fs::read_dir(store)
        .ok()?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(&suffix)))
        .collect();
    found.sort();
    found.into_iter().next()
}

/// The store's table for `rules`, ready for lookups. A table there that
/// cannot be used is reported on stderr and passed over: the caller plays on
/// without one.
pub fn oracle_for(store: Option<&Path>, rules: &Arc<Rules>) -> Option<(Oracle, PathBuf)> {
    let path = find(store?, rules)?;
    let opened = LoadedTable::open(&path).and_then(|t| t.oracle(rules.clone()).map_err(anyhow::Error::from));
    match opened {
        Ok(oracle) => Some((oracle, path)),
        Err(e) => {
            eprintln!("warning: not using the stored table {}: {e:#}", path.display());
            None
        }
    }
}
