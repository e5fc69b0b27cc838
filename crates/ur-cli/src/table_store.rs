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
    table_files(store).into_iter().find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(&suffix)))
}

/// Every `.urt` file of the store, by name (none when there is no store).
fn table_files(store: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(store) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(|e| Some(e.ok()?.path())).filter(|p| p.extension().is_some_and(|x| x == "urt")).collect();
    files.sort();
    files
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

/// `ur tables`: the tables in the store.
#[derive(clap::Args, Debug)]
pub struct TablesCmd {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// One file of the store, read or not.
struct Listed {
    file: PathBuf,
    table: Result<ur_solve::table::Table, String>,
}

impl TablesCmd {
    pub fn run(self) -> anyhow::Result<()> {
        let Some(store) = dir() else { anyhow::bail!("no table store: set {ENV} to a folder") };
        if store.exists() && !store.is_dir() {
            anyhow::bail!("the table store {} is not a folder; set {ENV} to a folder", store.display());
        }
        let listed = list(&store);
        if self.json {
            println!("{}", serde_json::json!({ "store": store, "tables": listed.iter().map(Listed::json).collect::<Vec<_>>() }));
            return Ok(());
        }
        println!("Table store: {} ({} files; set {ENV} to use another folder)", store.display(), listed.len());
        for l in &listed {
            let name = l.file.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            match &l.table {
                Ok(t) => println!(
                    "  {:<24} {:>2} pieces {:>14} positions  {}  {}",
                    t.header.rules_id,
                    t.header.options.get("pieces").map_or_else(String::new, ToString::to_string),
                    t.header.positions,
                    t.header.encoding.name(),
                    name
                ),
                Err(e) => println!("  unusable: {e}"),
            }
        }
        if listed.is_empty() {
            println!("  (none yet: `ur solve ID` solves a race rule set into the store)");
        }
        Ok(())
    }
}

/// Every `.urt` file of the store, by name, opened and checked.
fn list(store: &Path) -> Vec<Listed> {
    table_files(store)
        .into_iter()
        .map(|file| Listed { table: ur_solve::table::Table::open(&file).map_err(|e| e.to_string()), file })
        .collect()
}

impl Listed {
    fn json(&self) -> serde_json::Value {
        match &self.table {
            Ok(t) => serde_json::json!({
                "file": self.file, "rules": t.header.rules_id, "options": t.header.options,
                "positions": t.header.positions, "encoding": t.header.encoding.name(), "fingerprint": t.header.fingerprint,
            }),
            Err(e) => serde_json::json!({ "file": self.file, "error": e }),
        }
    }
}
