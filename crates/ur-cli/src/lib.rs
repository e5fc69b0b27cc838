//! The parts of the `ur` command that other programs call: the engine
//! protocol's request handler (fuzzed in `fuzz/`) and the table store it
//! looks in. The commands themselves live in the `ur` binary (`main.rs`).

pub mod engine;
pub mod table_store;
