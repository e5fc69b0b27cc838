//! Exact solutions of race rule sets of the Royal Game of Ur.
//!
//! [`Indexer`] numbers every position (seen from the side to move) without
//! gaps; [`solve`] runs value iteration layer by layer (pieces borne off
//! never decrease) to a certified residual; [`table`] reads and writes
//! solved tables, memory-mapped for direct lookups.
//!
//! ```
//! use ur_rules::{Rules, Side, State};
//! use ur_solve::{solve, Bellman, Indexer, Silent, SolveConfig, Values};
//! let rules = Rules::builtin_with("finkel", &[("pieces".into(), ur_rules::OptionValue::Int(1))].into()).unwrap();
//! let index = Indexer::new(&rules).unwrap();
//! let solution = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
//! let start = State::start(&rules, Side::Light);
//! let p = solution.get(index.rank(&start));
//! assert!(p > 0.5 && p < 0.6);
//! ```

mod anderson;
pub mod atomic;
mod bits;
mod checkpoint;
pub mod graph;
pub mod huge;
pub mod index;
pub mod loaded;
mod masks;
mod operator;
mod patterns;
pub mod plan;
pub mod rgu;
mod slots;
pub mod solve;
mod start;
pub mod store;
pub mod table;
mod work;

pub use graph::{GraphError, GraphHeader, GraphProgress, GraphSettings, GraphTable};
pub use index::{Indexer, Layer};
pub use loaded::{LoadedTable, TableRulesError};
pub use operator::RowBytes;
pub use plan::{plan, GroupPlan, Layout, Plan};
pub use solve::{memory_needed, solve, solve_kept, Bellman, Progress, Silent, Solution, SolveConfig, Solved, Values};
pub use table::{Encoding, Header, Table, TableError};

/// Why a solve cannot run or finish.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SolveError {
    #[error("the solver does not support '{rules}': {why}")]
    Unsupported { rules: String, why: String },
    #[error("'{rules}' with {pieces} pieces has {positions} positions and needs {need_gib:.1} GiB, but only {have_gib:.1} GiB is available; try fewer pieces (--pieces {suggest})")]
    TooBig { rules: String, pieces: u8, positions: u64, need_gib: f64, have_gib: f64, suggest: u8 },
    #[error("{0}")]
    Io(String),
}
