//! Where output goes: `-o`/`--out` writes keep what is at the path (a
//! device, a FIFO, a symbolic link) and refuse a folder; a standard output
//! that is full or closed is an error or a quiet end, never a panic.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common;
use common::{describe, run_fails, run_ok, text, ur_cmd};

/// A short finished game's record in `dir`.
fn a_record(dir: &Path) -> PathBuf {
    let path = dir.join("g.json");
    run_ok(&["play", "--light", "random", "--dark", "random", "--seed", "3", "--quiet", "--save", path.to_str().unwrap()]);
    path
}

/// A null device of the test's own in `dir` where one can be made (as
/// root), so that a wrong write never replaces `/dev/null`; else `/dev/null`.
fn null_device(dir: &Path) -> PathBuf {
    let node = dir.join("null");
    let made = std::process::Command::new("mknod").arg(&node).args(["c", "1", "3"]).output();
    if made.is_ok_and(|o| o.status.success()) {
        node
    } else {
        PathBuf::from("/dev/null")
    }
}

#[test]
fn out_to_a_device_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let game = a_record(dir.path());
    let null = null_device(dir.path());
    run_ok(&["convert", game.to_str().unwrap(), "-o", null.to_str().unwrap()]);
    assert!(std::fs::metadata(&null).unwrap().file_type().is_char_device(), "{} was replaced", null.display());
}

#[test]
fn out_to_a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let game = a_record(dir.path());
    let fifo = dir.path().join("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let args = ["convert", game.to_str().unwrap(), "-o", fifo.to_str().unwrap()];
    let out = ur_cmd(&args).stdin(Stdio::null()).output().unwrap();
    if !out.status.success() {
        // Let the reader go before failing.
        let _ = std::fs::write(&fifo, "");
        panic!("{}", describe(&args, &out));
    }
    // Checked before waiting for the reader, which waits for ever on a FIFO replaced.
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    let read = reader.join().unwrap();
    assert!(read.contains("Rules") || read.contains("[Ur"), "the game in RGN came through the FIFO: {read}");
}

#[test]
fn out_to_a_symlink_writes_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let game = a_record(dir.path());
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("game.rgn");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.rgn");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    run_ok(&["convert", game.to_str().unwrap(), "-o", link.to_str().unwrap()]);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read_to_string(&target).unwrap();
    assert_ne!(written, "old", "the link's target has the output");
}

#[test]
fn out_to_a_folder_is_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let game = a_record(dir.path());
    let folder = dir.path().join("sub");
    std::fs::create_dir(&folder).unwrap();
    let err = run_fails(&["convert", game.to_str().unwrap(), "-o", folder.to_str().unwrap()], &["is a folder", "sub"]);
    assert!(err.contains("file name"), "{err}");
    assert!(folder.is_dir());
}

/// `ur ARGS` with `input` on stdin and stdout to `/dev/full`.
fn to_full(args: &[&str], input: &str) -> std::process::Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = ur_cmd(args).stdin(Stdio::piped()).stdout(Stdio::from(full)).stderr(Stdio::piped()).spawn().unwrap();
    {
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_full_stdout_is_an_error_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let game = a_record(dir.path());
    let g = game.to_str().unwrap();
    let commands: [(&[&str], &str); 7] = [
        (&["rules"], ""),
        (&["rules", "show", "finkel"], ""),
        (&["replay", g], ""),
        (&["convert", g], ""),
        (&["hint", "--depth", "1", "--rules", "finkel", "--roll", "2"], ""),
        (&["engine"], "{\"cmd\":\"new\",\"rules\":\"finkel\"}\n"),
        (&["play", "--light", "random", "--dark", "random", "--seed", "1"], ""),
    ];
    for (args, input) in commands {
        let out = to_full(args, input);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}", describe(args, &out));
        assert!(!err.contains("panicked"), "{}", describe(args, &out));
        assert!(err.contains("error") && err.contains("standard output"), "{}", describe(args, &out));
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [&["rules"][..], &["rules", "show", "masters"], &["play", "--light", "random", "--dark", "random", "--seed", "1"]] {
        let mut child = ur_cmd(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = text(&out.stderr);
        assert!(!err.contains("panicked") && err.is_empty(), "{}", describe(args, &out));
        assert_ne!(out.status.code(), Some(101), "{}", describe(args, &out));
        assert_ne!(out.status.code(), Some(1), "{}", describe(args, &out));
    }
}
