//! Position strings (docs/positions.md) through the `ur` binary: `ur eval`
//! and `ur hint` read them as they read the JSON, `ur play --from` starts
//! there for every family, and the engine's `set` takes them and `show`
//! reports them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;

use serde_json::Value;

use crate::common;
use common::{describe, engine_run, path_str, run_fails, run_ok, text, ur_cmd};

/// The Finkel 2-piece table, solved once per test process.
fn table() -> &'static str {
    static TABLE: OnceLock<PathBuf> = OnceLock::new();
    let path = TABLE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ur-posstr-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("finkel-2.urt");
        run_ok(&["solve", "finkel", "--pieces", "2", "--out", path_str(&path), "--quiet", "--no-checkpoint"]);
        path
    });
    path_str(path)
}

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Light on 1 and 5, dark on 6; a throw of 3 gives light two moves.
const TWO_MOVES_JSON: &str = r#"{"to_move":"light","light":{"reserve":0,"off":0,"path":[1,5]},"dark":{"reserve":1,"off":0,"path":[6]}}"#;
const TWO_MOVES: &str = "l:15,6";

#[test]
fn eval_and_hint_read_a_string_as_they_read_the_json() {
    let t = table();
    let by_json = json(&run_ok(&["eval", "--table", t, "--json", TWO_MOVES_JSON]));
    let by_text = json(&run_ok(&["eval", "--table", t, "--json", TWO_MOVES]));
    assert_eq!(by_json, by_text);
    assert_eq!(json(&run_ok(&["eval", "--table", t, "--json", "d:-,-"]))["to_move"], "dark");

    let by_json = json(&run_ok(&["hint", "--table", t, "--raw", "3", "--json", TWO_MOVES_JSON]));
    let by_text = json(&run_ok(&["hint", "--table", t, "--raw", "3", "--json", TWO_MOVES]));
    assert_eq!(by_json, by_text);
    // The throw may end the string instead of --raw.
    let thrown = json(&run_ok(&["hint", "--table", t, "--json", "l:15,6/3"]));
    assert_eq!(by_json, thrown);
    assert_eq!(thrown["moves"].as_array().map(Vec::len), Some(2), "{thrown}");
    let out = run_ok(&["hint", "--depth", "1", "--rules", "finkel", "--pieces", "2", "l:15,6/3"]);
    assert!(out.contains("2 legal moves"), "{out}");
}

#[test]
fn eval_and_hint_refuse_bad_strings_with_the_reason() {
    let t = table();
    run_fails(&["eval", "--table", t, "l:15,6,"], &["at character 7", "position string"]);
    run_fails(&["eval", "--table", t, "l:123,-"], &["more than the 2 pieces"]);
    run_fails(&["hint", "--table", t, "--raw", "2", "l:15,6/3"], &["raw 3", "raw 2"]);
    run_fails(&["hint", "--table", t, TWO_MOVES], &["--roll", "/R"]);
}

/// `ur play --plain --from` with `input` piped in; returns what it printed.
fn play_from(rules: &str, from: &str, input: &str, save: &Path) -> String {
    let args = [
        "play",
        "--plain",
        "--rules",
        rules,
        "--from",
        from,
        "--light",
        "human",
        "--dark",
        "greedy",
        "--seed",
        "3",
        "--save",
        path_str(save),
    ];
    let mut child = ur_cmd(&args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "{}", describe(&args, &out));
    text(&out.stdout)
}

#[test]
fn play_from_starts_at_the_position_in_every_family() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("finkel", "l:469.1,2d"),
        ("finkel", "l:469.1,2d/2"),
        ("v1-named-birds", "l:03f00,00000"),
        ("guard-d6", "l:A3l.M2dl,e0.2"),
        ("bens-ur", "l:3aG.1,-"),
        ("ludens-akalandung", "l:13w4t6.1,2"),
    ];
    for (k, (rules, from)) in cases.into_iter().enumerate() {
        // A file for each game: --save does not replace one.
        let save = dir.path().join(format!("{rules}-{k}.json"));
        let out = play_from(rules, from, &"1\n".repeat(40), &save);
        assert!(out.contains("Game saved"), "{rules}: {out}");
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
        // The record starts where the string says, with its throw as the first step.
        let mut game = ur_rules::AnyGame::new(rules, &ur_rules::Options::new(), ur_rules::Side::Light).unwrap();
        game.set_position_string(from).unwrap();
        let mut at_roll = game.clone();
        ur_rules::Playable::set_position(&mut at_roll, &ur_rules::Playable::position(&game)).unwrap();
        assert_eq!(record["start"], at_roll.position_json(), "{rules} {from}: {record}");
        let steps = record.get("actions").or_else(|| record.get("steps")).and_then(Value::as_array).cloned().unwrap_or_default();
        assert!(!steps.is_empty(), "{rules}: no steps in {record}");
        if let Some(raw) = from.split('/').nth(1) {
            assert!(steps[0].to_string().contains(raw), "{rules}: first step {}", steps[0]);
        }
        // The record replays from the position.
        run_ok(&["replay", path_str(&save)]);
    }
}

#[test]
fn play_from_refuses_a_bad_string_before_the_game() {
    run_fails(&["play", "--plain", "--rules", "finkel", "--from", "l:9z,-", "--quiet", "--light", "random"], &["--from", "at character 4"]);
    run_fails(&["play", "--plain", "--rules", "guard-d6", "--from", "l:A9l", "--quiet", "--light", "random"], &["not a square"]);
}

/// Runs `ur engine` on these lines and returns the replies.
fn engine(lines: &[&str]) -> Vec<Value> {
    engine_run(ur_cmd(&["engine"]), lines).0
}

#[test]
fn the_engine_sets_a_string_and_shows_it() {
    let r = engine(&[
        r#"{"cmd":"new","rules":"finkel"}"#,
        r#"{"cmd":"set","position":"d:25d.1,8.2"}"#,
        r#"{"cmd":"set","position":{"to_move":"dark","light":{"reserve":3,"off":1,"path":[2,5,13]},"dark":{"reserve":4,"off":2,"path":[8]}}}"#,
        r#"{"cmd":"set","position":"l:469.1,2d/2"}"#,
        r#"{"cmd":"set","position":"l:469.1,2d,"}"#,
        r#"{"cmd":"show"}"#,
        r#"{"cmd":"record"}"#,
        r#"{"cmd":"new","rules":"guard-d6"}"#,
        r#"{"cmd":"set","position":"d:A3l.M2dl,e0.2,q4"}"#,
    ]);
    assert_eq!(r[0]["position_string"], "l:-,-", "{}", r[0]);
    assert_eq!(r[1]["ok"], true, "{}", r[1]);
    assert_eq!(r[1]["position_string"], "d:25d.1,8.2");
    // The string and the JSON set up the same position.
    assert_eq!(r[1]["position"], r[2]["position"]);
    assert_eq!(r[3]["phase"], "move", "{}", r[3]);
    assert_eq!(r[3]["raw"], 2, "{}", r[3]);
    assert_eq!(r[3]["position_string"], "l:469.1,2d/2");
    assert_eq!(r[4]["ok"], false);
    let e = r[4]["error"].as_str().unwrap();
    assert!(e.contains("at character 11"), "{e}");
    // A refused string leaves the game as it was.
    assert_eq!(r[5]["position_string"], "l:469.1,2d/2");
    assert_eq!(r[6]["record"]["actions"][0]["roll"], 2, "{}", r[6]);
    assert_eq!(r[8]["ok"], true, "{}", r[8]);
    assert_eq!(r[8]["position_string"], "d:A3l.M2dl,e0.2,q4");
}
