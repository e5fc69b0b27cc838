//! What every test of the `ur` binary shares: running it and checking that it
//! succeeded, or failed cleanly with a message that names the problem.

// Each test file uses its own share of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `ur` binary, with no backtraces and an empty table store (so that
/// tables solved on this machine play no part).
pub fn ur_command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ur"));
    cmd.env("RUST_BACKTRACE", "0").env("UR_TABLES", concat!(env!("CARGO_TARGET_TMPDIR"), "/empty-table-store"));
    cmd
}

/// `ur` with these arguments.
pub fn ur_cmd(args: &[&str]) -> Command {
    let mut cmd = ur_command();
    cmd.args(args);
    cmd
}

/// Runs `ur` with no input.
pub fn ur(args: &[&str]) -> Output {
    ur_cmd(args).stdin(Stdio::null()).output().expect("the ur binary runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The command and everything it printed, for assertion messages.
pub fn describe(args: &[&str], out: &Output) -> String {
    format!("ur {}\n--- status {:?}\n--- stdout\n{}\n--- stderr\n{}", args.join(" "), out.status, text(&out.stdout), text(&out.stderr))
}

/// Asserts success and returns stdout.
pub fn ok(args: &[&str], out: &Output) -> String {
    assert!(out.status.success(), "expected success: {}", describe(args, out));
    assert!(!text(&out.stderr).contains("panicked"), "{}", describe(args, out));
    text(&out.stdout)
}

/// Asserts a clean failure whose stderr says "error" and mentions every
/// needle; returns stderr.
pub fn fails(args: &[&str], out: &Output, needles: &[&str]) -> String {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "expected failure: {}", describe(args, out));
    assert_ne!(out.status.code(), Some(101), "panic exit status: {}", describe(args, out));
    assert!(!err.contains("panicked"), "panic: {}", describe(args, out));
    assert!(err.contains("error"), "stderr should say error: {}", describe(args, out));
    for n in needles {
        assert!(err.contains(n), "stderr should mention {n:?}: {}", describe(args, out));
    }
    err
}

/// Runs `ur`, asserts success and returns stdout.
pub fn run_ok(args: &[&str]) -> String {
    ok(args, &ur(args))
}

/// Runs `ur`, asserts a clean failure (see [`fails`]) and returns stderr.
pub fn run_fails(args: &[&str], needles: &[&str]) -> String {
    fails(args, &ur(args), needles)
}

/// Runs `ur`, asserts success and reads stdout as one JSON value.
pub fn json_of_run(args: &[&str]) -> serde_json::Value {
    let out = run_ok(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// Runs an `ur engine` command on these input lines (then end of input) and
/// returns its replies, one JSON value a line, and what it printed.
pub fn engine_run(mut cmd: Command, lines: &[&str]) -> (Vec<serde_json::Value>, Output) {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("ur starts");
    let mut stdin = child.stdin.take().unwrap();
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    // A writer thread keeps both pipes moving; the engine may quit before reading everything.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let replies = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    (replies, out)
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("test paths are UTF-8")
}
