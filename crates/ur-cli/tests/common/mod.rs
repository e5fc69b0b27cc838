//! What every test of the `ur` binary shares.

use std::process::Command;

/// The `ur` binary, with no backtraces and an empty table store (so that
/// tables solved on this machine play no part).
pub fn ur_command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ur"));
    cmd.env("RUST_BACKTRACE", "0").env("UR_TABLES", concat!(env!("CARGO_TARGET_TMPDIR"), "/empty-table-store"));
    cmd
}
