//! `ur tables`, and the table store as the commands use it (see
//! [`ur_solve::store`]): where `ur solve` puts a table when no `--out` is
//! given, and where `ur play`, `ur engine`, `ur eval`, `ur hint` and `ur
//! review` look for one when no `--table` is given.

use std::sync::Arc;

use crate::outln;
use ur_rules::Rules;
use ur_session::tables::TableSource;
pub use ur_solve::store::{dir, ENV};

/// Warns on stderr when the store's table for `rules` cannot be used and
/// is passed over: the caller goes on without one.
pub fn warn_passed_over(tables: &TableSource, rules: &Arc<Rules>) {
    if let Some((path, why)) = tables.passed_over(rules) {
        eprintln!("warning: not using the stored table {}: {why}", path.display());
    }
}

/// `ur tables`: the tables in the store.
#[derive(clap::Args, Debug)]
pub struct TablesCmd {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

impl TablesCmd {
    pub fn run(self) -> anyhow::Result<()> {
        let Some(store) = dir() else { anyhow::bail!("{}", ur_solve::store::StoreError::NoStore) };
        let listed = ur_solve::store::list(&store)?;
        if self.json {
            let tables: Vec<_> = listed.iter().map(json).collect();
            outln!("{}", serde_json::json!({ "store": store, "tables": tables }))?;
            return Ok(());
        }
        outln!("Table store: {} ({} files; set {ENV} to use another folder)", store.display(), listed.len())?;
        for l in &listed {
            let name = l.file.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            match &l.table {
                Ok(t) => outln!(
                    "  {:<24} {:>2} pieces {:>14} positions  {}  {}",
                    t.header.rules_id,
                    t.header.options.get("pieces").map_or_else(String::new, ToString::to_string),
                    t.header.positions,
                    t.header.encoding.name(),
                    name
                )?,
                Err(e) => outln!("  unusable: {e}")?,
            }
        }
        if listed.is_empty() {
            outln!("  (none yet: `ur solve ID` solves a race rule set into the store)")?;
        }
        Ok(())
    }
}

fn json(l: &ur_solve::store::Listed) -> serde_json::Value {
    match &l.table {
        Ok(t) => serde_json::json!({
            "file": l.file, "rules": t.header.rules_id, "options": t.header.options,
            "positions": t.header.positions, "encoding": t.header.encoding.name(), "fingerprint": t.header.fingerprint,
        }),
        Err(e) => serde_json::json!({ "file": l.file, "error": e.to_string() }),
    }
}
