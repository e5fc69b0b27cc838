//! The parts of the `ur` command that other programs call: the engine
//! protocol's request handler (fuzzed in `fuzz/`) and the table store it
//! looks in, and standard output that reports its errors (`out`). The
//! commands themselves live in the `ur` binary (`main.rs`).

pub mod engine;
pub mod out;
pub mod table_store;
