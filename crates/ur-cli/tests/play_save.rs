//! `ur play --save` keeps the game: as it goes, on Ctrl-C and when the
//! player quits; `--resume` goes on with it; a bad save path is refused
//! before the game starts.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

use serde_json::Value;

mod common;
use common::{describe, run_fails, run_ok, ur_cmd};

fn record(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The number of steps in a record of either version.
fn steps(r: &Value) -> usize {
    r.get("actions").or_else(|| r.get("steps")).and_then(Value::as_array).map_or(0, Vec::len)
}

#[test]
fn a_quit_game_is_saved_and_resumes_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    for id in ["finkel", "bens-ur", "guard-d6"] {
        let file = dir.path().join(format!("{id}.json"));
        let f = file.to_str().unwrap();
        let args = ["play", "--rules", id, "--light", "human", "--dark", "greedy", "--seed", "4", "--save", f];
        let out = ur_cmd(&args).stdin(Stdio::piped()).spawn().and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"1\n1\n1\nquit\n")?;
            c.wait_with_output()
        });
        let out = out.unwrap();
        assert!(out.status.success(), "{}", describe(&args, &out));
        let saved = record(&file);
        assert!(steps(&saved) >= 2, "{id}: {saved}");
        let resumed = dir.path().join(format!("{id}-end.json"));
        let r = resumed.to_str().unwrap();
        let args = ["play", "--resume", f, "--light", "greedy", "--dark", "level1", "--seed", "5", "--quiet", "--save", r];
        let text = run_ok(&args);
        assert!(text.contains("wins") || text.contains("drawn"), "{id}: {text}");
        let end = record(&resumed);
        assert!(steps(&end) > steps(&saved), "{id}");
        let key = if saved.get("actions").is_some() { "actions" } else { "steps" };
        assert_eq!(
            end[key].as_array().unwrap()[..steps(&saved)],
            saved[key].as_array().unwrap()[..],
            "{id}: the resumed game goes on from the saved one"
        );
        let args = ["play", "--resume", r, "--quiet"];
        run_fails(&args, &["finished"]);
    }
}

#[test]
fn ctrl_c_saves_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    let mut child = ur_cmd(&["play", "--light", "human", "--dark", "greedy", "--seed", "2", "--save", file.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _stdin = child.stdin.take();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    // The prompt ends without a newline: read until its '>'.
    while !seen.ends_with("> ") {
        let mut byte = [0u8];
        assert_eq!(out.read(&mut byte).unwrap(), 1, "the game ended before its prompt:\n{seen}");
        seen.push(byte[0] as char);
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let saved = record(&file);
    assert_eq!(saved["version"], 1, "{saved}");
    assert!(steps(&saved) >= 1, "{saved}");
    let _ = out.fill_buf();
}

#[test]
fn a_save_path_that_cannot_be_written_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    run_fails(&["play", "--light", "greedy", "--dark", "greedy", "--save", d], &["folder"]);
    let missing = dir.path().join("no/such/g.json");
    run_fails(&["play", "--light", "greedy", "--dark", "greedy", "--save", missing.to_str().unwrap()], &["does not exist"]);
}
