//! Error messages say a thing once, in the player's words: square names as
//! on the board, winners as sides, and a fix that applies.

use crate::common;
use common::{engine_run, run_fails, ur_command};

#[test]
fn an_unknown_rule_set_is_named_once() {
    let commands: [&[&str]; 5] = [
        &["rules", "show", "nope"],
        &["solve", "nope", "--out", "/tmp/never-written.urt"],
        &["eval", "--rules", "nope"],
        &["hint", "--rules", "nope", "--depth", "1", "--roll", "2"],
        &["arena", "--rules", "nope", "--bots", "random,greedy", "--games", "2"],
    ];
    for args in commands {
        let err = run_fails(args, &["unknown rule set 'nope'"]);
        assert_eq!(err.matches("unknown rule set").count(), 1, "said twice: {err}");
    }
}

#[test]
fn a_record_with_a_false_winner_is_told_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.json");
    let f = file.to_str().unwrap();
    let mut child = common::ur_cmd(&["play", "--light", "human", "--dark", "greedy", "--seed", "3", "--save", f])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"1\nquit\n").unwrap();
    }
    assert!(child.wait().unwrap().success());
    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    record["winner"] = "dark".into();
    std::fs::write(&file, record.to_string()).unwrap();
    let err = run_fails(&["play", "--resume", f], &["dark won", "no winner"]);
    assert!(!err.contains("Some(") && !err.contains("None"), "{err}");
}

#[test]
fn a_crowded_square_is_named_as_on_the_board() {
    // Two light pieces on path position 5 (Finkel's b1... whichever square: named, not [row, col]).
    let from = r#"{"to_move":"light","light":{"reserve":5,"off":0,"path":[5,5]},"dark":{"reserve":7,"off":0,"path":[]}}"#;
    let err = run_fails(&["play", "--light", "random", "--dark", "random", "--from", from, "--quiet"], &["holds 2 pieces"]);
    assert!(!err.contains('['), "{err}");
    assert!(err.contains("square d2") || err.contains("square a2") || err.contains("square "), "{err}");
    let square = err.split("square ").nth(1).unwrap().split(' ').next().unwrap();
    assert!(square.len() == 2 && square.as_bytes()[0].is_ascii_lowercase() && square.as_bytes()[1].is_ascii_digit(), "{err}");
}

#[test]
fn the_engine_s_set_error_does_not_ask_for_a_roll() {
    let (replies, _) = engine_run(
        {
            let mut c = ur_command();
            c.arg("engine");
            c
        },
        &[r#"{"cmd":"new","rules":"finkel"}"#, r#"{"cmd":"set","position":{"to_move":"light"}}"#],
    );
    let error = replies[1]["error"].as_str().unwrap_or_else(|| panic!("{:?}", replies[1]));
    assert!(!error.contains(r#""cmd":"roll""#), "a bad position is not fixed by rolling: {error}");
}

#[test]
fn eval_of_a_tower_game_suggests_only_a_small_variant() {
    // Full tables are for race sets; a tower game's small variant can be solved.
    for args in [
        &["eval", "--rules", "guard-d6"][..],
        &["hint", "--rules", "guard-d6", "--roll", "2"],
        &["regret", "--bot", "greedy", "--rules", "guard-d6"],
    ] {
        let err = run_fails(args, &["guard-d6", "race rule sets only"]);
        assert!(!err.contains("ur solve guard-d6 --out") && err.contains("small variant"), "{err}");
    }
    // The family in words, not a Rust name.
    let err = run_fails(&["eval", "--rules", "bens-ur"], &["bens-ur"]);
    assert!(!err.contains("Bens family"), "{err}");
}
