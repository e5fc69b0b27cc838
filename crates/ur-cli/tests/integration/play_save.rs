//! `ur play --save` keeps the game: as it goes, on Ctrl-C and when the
//! player quits; `--resume` goes on with it; a bad save path is refused
//! before the game starts.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

use serde_json::Value;

use crate::common;
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

/// Reads `out` up to and including the `n`th prompt ("Light [1-2, or help]> ").
fn read_prompts(out: &mut impl Read, n: usize) -> String {
    let mut seen = String::new();
    let mut prompts = 0;
    while prompts < n {
        let mut byte = [0u8];
        assert_eq!(out.read(&mut byte).unwrap(), 1, "the game ended before prompt {}:\n{seen}", prompts + 1);
        seen.push(byte[0] as char);
        if seen.ends_with(", or help]> ") {
            prompts += 1;
        }
    }
    seen
}

#[test]
fn the_record_is_written_after_every_decision_and_on_sigterm() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    let mut child = ur_cmd(&["play", "--light", "human", "--dark", "greedy", "--seed", "2", "--save", file.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = child.stdout.take().unwrap();
    read_prompts(&mut out, 1);
    stdin.write_all(b"1\n").unwrap();
    read_prompts(&mut out, 1);
    // Two human decisions in, the game still running: the file holds them.
    let saved = record(&file);
    assert!(steps(&saved) >= 2, "a throw and a decision at least: {saved}");
    stdin.write_all(b"1\n").unwrap();
    read_prompts(&mut out, 1);
    let later = record(&file);
    assert!(steps(&later) > steps(&saved), "the second decision is saved too: {later}");
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(143), "{err}");
    assert!(err.contains("saved") && err.contains("--resume"), "{err}");
    assert_eq!(steps(&record(&file)), steps(&later));
}

/// Runs `ur` with these lines on stdin; asserts success and returns stdout.
fn play_lines(args: &[&str], lines: &str) -> String {
    use std::io::Write;
    let mut child = ur_cmd(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(lines.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", describe(args, &out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The lines that tell the game's steps ("Light throws ...", "Dark plays ...").
fn step_lines(text: &str) -> Vec<String> {
    text.lines().filter(|l| (l.starts_with("Light ") || l.starts_with("Dark ")) && !l.contains("]> ")).map(str::to_string).collect()
}

#[test]
fn a_resumed_game_keeps_its_seats_its_file_and_its_moves_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    let f = file.to_str().unwrap();
    let first = play_lines(&["play", "--as", "dark", "--vs", "level3", "--seed", "4", "--save", f], "1\n1\nquit\n");
    let saved = record(&file);
    assert_eq!(saved["seats"], serde_json::json!({"light": "level3", "dark": "human"}), "{saved}");
    let before = step_lines(&first);
    assert!(before.len() >= 3, "{first}");
    // No seat flags and no --save: the same seats, the same file.
    let again = play_lines(&["play", "--resume", f, "--seed", "5"], "1\nquit\n");
    assert!(again.contains("Light: the level3 bot; Dark: you"), "{again}");
    for line in &before {
        assert!(again.contains(line.as_str()), "the moves so far are shown again; no {line:?} in:\n{again}");
    }
    let resumed = record(&file);
    assert!(steps(&resumed) > steps(&saved), "the moves after the resume are saved in {f}: {resumed}");
    assert_eq!(resumed["seats"], saved["seats"]);
    // A record without seats (an older one) resumes with the defaults.
    let mut old = record(&file);
    old.as_object_mut().unwrap().remove("seats");
    std::fs::write(&file, old.to_string()).unwrap();
    let text = play_lines(&["play", "--resume", f, "--seed", "6"], "quit\n");
    assert!(text.contains("Light: you; Dark: the greedy bot"), "{text}");
}

#[test]
fn save_does_not_replace_a_record_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.json");
    let f = file.to_str().unwrap();
    run_ok(&["play", "--light", "random", "--dark", "random", "--seed", "1", "--quiet", "--save", f]);
    let before = std::fs::read_to_string(&file).unwrap();
    for args in [
        &["play", "--light", "random", "--dark", "greedy", "--seed", "2", "--quiet", "--save", f][..],
        &["play", "--seed", "2", "--save", f],
    ] {
        let err = run_fails(args, &[f, "--force"]);
        assert!(err.contains("already"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "the record is kept");
    }
    run_ok(&["play", "--light", "random", "--dark", "greedy", "--seed", "2", "--quiet", "--save", f, "--force"]);
    assert_ne!(std::fs::read_to_string(&file).unwrap(), before, "--force replaces it");
}

#[test]
fn records_get_the_mode_any_new_file_gets() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    run_ok(&["play", "--light", "random", "--dark", "random", "--seed", "1", "--quiet", "--save", file.to_str().unwrap()]);
    let plain = dir.path().join("plain");
    std::fs::write(&plain, "x").unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), mode(&plain), "under this umask a new file is {:o}", mode(&plain));
}
