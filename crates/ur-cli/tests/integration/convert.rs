//! `ur convert`: RGN to JSON that `ur replay` accepts, and back; several
//! games; bad files refused with a clear error and a failing exit code.

use std::fs;
use std::path::PathBuf;

use tempfile::TempDir;

use crate::common;
use common::{path_str, run_fails, run_ok};

fn peer(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/royalur-java-rgn").join(name)
}

#[test]
fn rgn_becomes_json_that_replays_and_comes_back_the_same() {
    let dir = TempDir::new().unwrap();
    let whole = fs::read_to_string(peer("rgn-masters.txt")).unwrap();
    let first = whole.split("\n\n---\n\n").next().unwrap().to_owned() + "\n";
    let rgn = dir.path().join("g.rgn");
    fs::write(&rgn, &first).unwrap();
    let json = dir.path().join("g.json");
    let out = run_ok(&["convert", path_str(&rgn), "-o", path_str(&json)]);
    assert!(out.is_empty(), "{out}");
    let record: serde_json::Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(record["rules"], "masters");
    assert_eq!(record["winner"], "light");
    let replayed = run_ok(&["replay", path_str(&json)]);
    assert!(replayed.contains("every one is legal"), "{replayed}");
    let back = run_ok(&["convert", path_str(&json)]);
    assert_eq!(back, first);
    let same = run_ok(&["convert", path_str(&json), "--to", "json"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&same).unwrap(), record);
}

#[test]
fn a_file_of_games_gives_json_lines_or_one_game() {
    let file = peer("rgn-finkel-2p.txt");
    let lines = run_ok(&["convert", path_str(&file), "--to", "json", "--rules", "Finkel with Two Pieces"]);
    assert_eq!(lines.lines().count(), 40);
    for line in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["options"]["pieces"], 2, "{line}");
    }
    let one = run_ok(&["convert", path_str(&file), "--game", "32"]);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert!(v["tags"].to_string().contains("out-finkel-2p-31"), "{one}");
    let dir = TempDir::new().unwrap();
    let jsonl = dir.path().join("all.jsonl");
    fs::write(&jsonl, &lines).unwrap();
    let rgn = run_ok(&["convert", path_str(&jsonl), "--to", "rgn"]);
    assert_eq!(rgn.matches("\n---\n").count(), 39);
    run_fails(&["convert", path_str(&file), "--game", "41"], &["--game 41", "40 game"]);
}

#[test]
fn bad_files_are_refused_clearly() {
    let dir = TempDir::new().unwrap();
    let bad = dir.path().join("bad.rgn");
    fs::write(&bad, "[Rules Finkel]\n\n1. A@A4 / C@C9\n").unwrap();
    run_fails(&["convert", path_str(&bad)], &["bad.rgn", "line 3, column 11", "C@C9"]);
    fs::write(&bad, "[Rules Chess]\n\n1. e4\n").unwrap();
    run_fails(&["convert", path_str(&bad)], &["unknown Rules 'Chess'", "Finkel"]);
    let json = dir.path().join("bad.json");
    fs::write(&json, "{\"version\":1,\"rules\":\"finkel\"").unwrap();
    run_fails(&["convert", path_str(&json)], &["bad.json", "not a valid game record"]);
    run_fails(&["convert", path_str(&dir.path().join("missing.rgn"))], &["cannot read"]);
    let empty = dir.path().join("empty.rgn");
    fs::write(&empty, "\n\n").unwrap();
    run_fails(&["convert", path_str(&empty)], &["no game found"]);
}
