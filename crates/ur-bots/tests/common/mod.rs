//! What several test files share.

use std::sync::Arc;

use ur_bots::Oracle;
use ur_rules::Rules;

/// A table of `rules`, solved here and written into `dir`.
pub fn oracle(rules: &Arc<Rules>, dir: &std::path::Path) -> Oracle {
    use ur_solve::{solve, Indexer, Silent, SolveConfig};
    let index = Indexer::new(rules).unwrap();
    let sol = solve(rules, &index, &SolveConfig::default(), &Silent).unwrap();
    let path = dir.join("t.urt");
    ur_solve::table::write_table(&path, rules, &index, &sol.values, ur_solve::Encoding::F64, sol.residual, 1e-12).unwrap();
    Oracle::new(Arc::new(ur_solve::Table::open(&path).unwrap()), rules.clone(), &path).unwrap()
}
