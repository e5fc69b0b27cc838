//! `ur engine` through a real process: every command, the set/show round
//! trip, and errors that are reported without stopping the engine.

use std::process::ExitStatus;

use serde_json::{json, Value};

use crate::common;

/// Runs `ur engine` on these input lines (then EOF) and returns the replies.
fn engine(lines: &[&str]) -> (Vec<Value>, ExitStatus) {
    let (replies, out) = common::engine_run(common::ur_cmd(&["engine"]), lines);
    (replies, out.status)
}

/// Asserts a reply is an error with a message, and returns the message.
fn error(r: &Value) -> &str {
    assert_eq!(r["ok"], false, "{r}");
    let e = r["error"].as_str().unwrap_or_else(|| panic!("no message: {r}"));
    assert!(e.len() > 10, "{r}");
    e
}

fn ok(r: &Value) -> &Value {
    assert_eq!(r["ok"], true, "{r}");
    r
}

#[test]
fn rules_lists_every_rule_set_with_options() {
    let (r, status) = engine(&[r#"{"cmd":"rules"}"#]);
    assert!(status.success());
    let sets = ok(&r[0])["rules"].as_array().unwrap();
    assert_eq!(sets.len(), 17, "one list for every family");
    for family in ["race", "bens", "tower"] {
        assert!(sets.iter().any(|s| s["family"] == family), "{family}");
    }
    let finkel = &sets[0];
    assert_eq!(finkel["id"], "finkel");
    assert_eq!((finkel["pieces"].clone(), finkel["path_length"].clone(), finkel["dice"].clone()), (json!(7), json!(14), json!("BIN4")));
    assert!(finkel["name"].is_string() && finkel["summary"].is_string());
    let birds = sets.iter().find(|s| s["id"] == "v1-named-birds").unwrap();
    let dice = birds["options"].as_array().unwrap().iter().find(|o| o["name"] == "dice").unwrap();
    assert_eq!(dice["default"], "BIN4");
    assert_eq!(dice["allowed"], json!(["BIN4", "D4"]));
    assert!(dice["description"].is_string());
    let bell = sets.iter().find(|s| s["id"] == "regency-bell").unwrap();
    let stake = bell["options"].as_array().unwrap().iter().find(|o| o["name"] == "stake").unwrap();
    assert_eq!(stake["allowed"], json!({"min": 0, "max": 1_000_000}));
}

#[test]
fn new_roll_play_show_record() {
    let (r, status) = engine(&[
        r#"{"cmd":"new","rules":"finkel"}"#,
        r#"{"cmd":"roll","value":2}"#,
        r#"{"cmd":"show"}"#,
        r#"{"cmd":"play","from":0,"to":2}"#,
        r#"{"cmd":"roll","raw":0}"#,
        r#"{"cmd":"record"}"#,
        r#"{"cmd":"quit"}"#,
    ]);
    assert!(status.success());
    assert_eq!(r.len(), 7);
    assert_eq!(ok(&r[0])["rules"], "finkel");
    assert_eq!(r[0]["options"], json!({"pieces": 7}));
    assert_eq!((r[0]["phase"].clone(), r[0]["to_move"].clone(), r[0]["winner"].clone()), (json!("roll"), json!("light"), Value::Null));
    assert_eq!(r[0]["position"]["light"], json!({"reserve": 7, "off": 0, "path": []}));
    let roll = ok(&r[1]);
    assert_eq!((roll["player"].clone(), roll["raw"].clone(), roll["value"].clone()), (json!("light"), json!(2), json!(2)));
    assert_eq!(roll["legal"], json!([{"from": 0, "to": 2, "capture": false, "rosette": false, "off": false}]));
    assert_eq!((roll["phase"].clone(), roll["to_move"].clone()), (json!("move"), json!("light")));
    assert_eq!(ok(&r[2])["legal"], roll["legal"]);
    assert_eq!(r[2]["phase"], "move");
    let play = ok(&r[3]);
    assert_eq!((play["to_move"].clone(), play["phase"].clone(), play["captured"].clone()), (json!("dark"), json!("roll"), json!(false)));
    assert_eq!((play["winner"].clone(), play["choices"].clone()), (Value::Null, json!([])));
    let pass = ok(&r[4]);
    assert_eq!((pass["player"].clone(), pass["legal"].clone(), pass["to_move"].clone()), (json!("dark"), json!([]), json!("light")));
    let record = &ok(&r[5])["record"];
    assert_eq!(record["rules"], "finkel");
    assert_eq!(record["first"], "light");
    assert_eq!(record["actions"], json!([{"roll": 2}, {"move": {"from": 0, "to": 2}}, {"roll": 0}]));
    ok(&r[6]);
}

#[test]
fn options_pieces_and_first() {
    let (r, _) = engine(&[
        r#"{"cmd":"new","rules":"v1-simple","options":{"dice":"D4"},"pieces":3,"first":"dark"}"#,
        r#"{"cmd":"new","rules":"regency-bell","options":{"stake":5,"pieces":2}}"#,
    ]);
    assert_eq!(ok(&r[0])["options"]["dice"], "D4");
    assert_eq!(r[0]["to_move"], "dark");
    assert_eq!(r[0]["position"]["dark"]["reserve"], 3);
    assert_eq!(ok(&r[1])["pot"], json!({"light": 5, "dark": 5}));
    assert_eq!(r[1]["position"]["light"]["reserve"], 2);
}

#[test]
fn capture_rosette_and_winning_move_flags() {
    let (r, _) = engine(&[
        r#"{"cmd":"new","rules":"finkel"}"#,
        r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":5,"off":1,"path":[5]},"dark":{"reserve":6,"off":0,"path":[6]}}}"#,
        r#"{"cmd":"roll","value":1}"#,
        r#"{"cmd":"play","from":5,"to":6}"#,
        r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":0,"off":6,"path":[14]},"dark":{"reserve":7,"off":0,"path":[]}}}"#,
        r#"{"cmd":"roll","value":1}"#,
        r#"{"cmd":"play","from":14,"to":15}"#,
        r#"{"cmd":"roll","value":1}"#,
    ]);
    let legal = &ok(&r[2])["legal"];
    assert_eq!(legal[0], json!({"from": 0, "to": 1, "capture": false, "rosette": false, "off": false}));
    assert_eq!(legal[1], json!({"from": 5, "to": 6, "capture": true, "rosette": false, "off": false}));
    assert_eq!(ok(&r[3])["captured"], true);
    assert_eq!(ok(&r[5])["legal"], json!([{"from": 14, "to": 15, "capture": false, "rosette": false, "off": true}]));
    let win = ok(&r[6]);
    assert_eq!((win["winner"].clone(), win["phase"].clone(), win["to_move"].clone()), (json!("light"), json!("over"), Value::Null));
    assert!(error(&r[7]).contains("over"));
}

#[test]
fn optional_extra_roll_choices() {
    let (r, _) = engine(&[
        r#"{"cmd":"new","rules":"walker-cyningstan"}"#,
        r#"{"cmd":"roll","value":4}"#,
        r#"{"cmd":"play","from":0,"to":4}"#,
        r#"{"cmd":"choose","choice":"summon"}"#,
        r#"{"cmd":"choose","choice":"reroll"}"#,
        r#"{"cmd":"roll","value":4}"#,
        r#"{"cmd":"play","from":4,"to":8}"#,
        r#"{"cmd":"choose","choice":"end"}"#,
    ]);
    let p = ok(&r[2]);
    assert_eq!(
        (p["phase"].clone(), p["choices"].clone(), p["to_move"].clone()),
        (json!("extra_roll"), json!(["reroll", "end"]), json!("light"))
    );
    assert!(error(&r[3]).contains("reroll"));
    assert_eq!((ok(&r[4])["phase"].clone(), r[4]["to_move"].clone()), (json!("roll"), json!("light")));
    assert_eq!(ok(&r[6])["phase"], "extra_roll");
    assert_eq!((ok(&r[7])["phase"].clone(), r[7]["to_move"].clone()), (json!("roll"), json!("dark")));
}

#[test]
fn named_birds_declare_summon_and_move() {
    let (r, _) = engine(&[
        r#"{"cmd":"new","rules":"v1-named-birds"}"#,
        r#"{"cmd":"roll","value":1}"#,
        r#"{"cmd":"choose","choice":"summon"}"#,
        r#"{"cmd":"roll","value":1}"#,
        r#"{"cmd":"roll","value":2}"#,
        r#"{"cmd":"choose","choice":"summon"}"#,
        r#"{"cmd":"roll","value":3}"#,
        r#"{"cmd":"choose","choice":"move"}"#,
        r#"{"cmd":"roll","value":2}"#,
        r#"{"cmd":"play","from":2,"to":4,"piece":1}"#,
    ]);
    assert_eq!((ok(&r[0])["phase"].clone(), r[0]["choices"].clone()), (json!("declare"), json!(["summon"])));
    assert!(error(&r[1]).contains("choose"));
    assert_eq!(ok(&r[3])["summon"], json!({"bird": 1, "success": true, "stage": "call"}));
    assert_eq!(ok(&r[4])["summon"], json!({"bird": 1, "success": true, "stage": "placement"}));
    assert_eq!(r[4]["to_move"], "dark");
    assert_eq!(ok(&r[6])["summon"], json!({"bird": 1, "success": false, "stage": "call"}));
    assert_eq!(r[6]["to_move"], "light");
    let legal = &ok(&r[8])["legal"];
    assert_eq!(legal, &json!([{"from": 2, "to": 4, "piece": 1, "capture": false, "rosette": true, "off": false}]));
    assert_eq!(ok(&r[9])["move"], json!({"from": 2, "to": 4, "piece": 1}));
}

#[test]
fn set_show_round_trip() {
    let cases = [
        ("finkel", json!({"to_move":"dark","light":{"reserve":3,"off":1,"path":[2,5,13]},"dark":{"reserve":4,"off":2,"path":[8]}})),
        ("aseb", json!({"to_move":"light","light":{"reserve":0,"off":0,"path":[1,6,7,9,16]},"dark":{"reserve":5,"off":0,"path":[]}})),
        (
            "v1-named-birds",
            json!({"to_move":"light","light":{"reserve":2,"off":1,"path":[3,8],"birds":[8,15,3,0,0]},"dark":{"reserve":5,"off":0,"path":[],"birds":[0,0,0,0,0]}}),
        ),
        ("regency-bell", json!({"to_move":"light","light":{"reserve":7,"off":0,"path":[]},"dark":{"reserve":6,"off":0,"path":[14]}})),
    ];
    for (rules, pos) in cases {
        let new = format!(r#"{{"cmd":"new","rules":"{rules}"}}"#);
        let set = json!({"cmd": "set", "position": pos}).to_string();
        let (r, _) = engine(&[&new, &set, r#"{"cmd":"show"}"#]);
        assert_eq!(ok(&r[1])["position"], pos, "{rules}: set reply");
        assert_eq!(ok(&r[2])["position"], pos, "{rules}: show");
        assert_eq!(r[2]["to_move"], pos["to_move"], "{rules}");
    }
}

#[test]
fn custom_rules_toml_and_ambiguous_value() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/finkel.toml");
    let text = std::fs::read_to_string(path).unwrap().replacen("id = \"finkel\"", "id = \"my-finkel\"", 1).replacen(
        "dice = \"BIN4\"",
        "dice = \"BIN4\"\nthrows = [{ raw = 0, value = 4 }]",
        1,
    );
    let new = json!({"cmd": "new", "rules_toml": text}).to_string();
    let (r, _) = engine(&[&new, r#"{"cmd":"roll","value":4}"#, r#"{"cmd":"roll","raw":0}"#, r#"{"cmd":"record"}"#]);
    assert_eq!(ok(&r[0])["rules"], "my-finkel");
    assert!(error(&r[1]).contains("raw"));
    assert_eq!((ok(&r[2])["value"].clone(), r[2]["legal"][0]["to"].clone()), (json!(4), json!(4)));
    assert!(ok(&r[3])["record"]["rules_file"].as_str().unwrap().contains("my-finkel"));
}

#[test]
fn bad_requests_are_reported_and_the_engine_keeps_serving() {
    let bad = [
        ("{\"cmd\":", "JSON"),
        ("[1,2]", "object"),
        (r#"{"nocmd":1}"#, "cmd"),
        (r#"{"cmd":"dance"}"#, "dance"),
        (r#"{"cmd":"show"}"#, "new"),
        (r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":7,"off":0},"dark":{"reserve":7,"off":0}}}"#, "new"),
        (r#"{"cmd":"new","rules":"chess"}"#, "chess"),
        (r#"{"cmd":"new","rules":"finkel","options":{"colour":"red"}}"#, "colour"),
        (r#"{"cmd":"new","rules":"v1-simple","options":{"dice":"D8"}}"#, "D8"),
        (r#"{"cmd":"new","rules":"finkel","first":"blue"}"#, "first"),
        (r#"{"cmd":"new","rules":"finkel","rules_toml":"x"}"#, "not both"),
        (r#"{"cmd":"new","rules_toml":"id = 3"}"#, "rules_toml"),
    ];
    let setup = [r#"{"cmd":"new","rules":"finkel"}"#, r#"{"cmd":"roll","value":2}"#];
    let bad_in_game = [
        (r#"{"cmd":"roll","value":2}"#, "play"),
        (r#"{"cmd":"play","from":3,"to":5}"#, "0->2"),
        (r#"{"cmd":"play","from":"0","to":2}"#, "from"),
        (r#"{"cmd":"play","from":0}"#, "to"),
        (r#"{"cmd":"play","from":0,"to":2,"speed":9}"#, "speed"),
        (r#"{"cmd":"choose","choice":"end"}"#, "choice"),
        (r#"{"cmd":"choose","choice":"dance"}"#, "dance"),
        (r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":7,"off":0,"path":[]}}}"#, "dark"),
        (
            r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":6,"off":0,"path":[20]},"dark":{"reserve":7,"off":0,"path":[]}}}"#,
            "20",
        ),
        (
            r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":6,"off":0,"path":[]},"dark":{"reserve":7,"off":0,"path":[]}}}"#,
            "7 pieces",
        ),
        (
            r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":6,"off":0,"path":[8]},"dark":{"reserve":6,"off":0,"path":[8]}}}"#,
            "holds 2",
        ),
    ];
    let mut lines: Vec<&str> = bad.iter().map(|b| b.0).collect();
    lines.extend(setup);
    lines.extend(bad_in_game.iter().map(|b| b.0));
    lines.extend([r#"{"cmd":"play","from":0,"to":2}"#, r#"{"cmd":"roll","value":9}"#, r#"{"cmd":"roll","raw":9}"#]);
    let (r, status) = engine(&lines);
    assert!(status.success());
    assert_eq!(r.len(), lines.len(), "one reply per line");
    let expected = bad.iter().chain(bad_in_game.iter());
    let replies = r[..bad.len()].iter().chain(&r[bad.len() + 2..bad.len() + 2 + bad_in_game.len()]);
    for (reply, (line, word)) in replies.zip(expected) {
        let e = error(reply);
        assert!(e.contains(word), "{line}: '{e}' should mention '{word}'");
    }
    ok(&r[bad.len()]);
    ok(&r[bad.len() + 1]);
    assert_eq!(ok(&r[r.len() - 3])["to_move"], "dark", "still serving after errors");
    assert!(error(&r[r.len() - 2]).contains("9"));
    assert!(error(&r[r.len() - 1]).contains("9"));
}

#[test]
fn ids_are_echoed_on_success_and_error() {
    let (r, _) = engine(&[
        r#"{"cmd":"rules","id":1}"#,
        r#"{"cmd":"show","id":"abc"}"#,
        r#"{"cmd":"dance","id":{"n":[1]}}"#,
        r#"{"cmd":"quit","id":null}"#,
    ]);
    assert_eq!(ok(&r[0])["id"], 1);
    assert_eq!(r[1]["id"], "abc");
    assert_eq!(r[2]["id"], json!({"n": [1]}));
    assert!(ok(&r[3]).as_object().unwrap().contains_key("id"));
}

#[test]
fn blank_lines_get_no_reply_and_eof_exits_zero() {
    let (r, status) = engine(&["", "   ", r#"{"cmd":"new"}"#, "", r#"{"cmd":"show"}"#]);
    assert!(status.success());
    assert_eq!(r.len(), 2);
    assert_eq!(ok(&r[0])["rules"], "finkel");
    let (r, status) = engine(&[]);
    assert!(status.success());
    assert!(r.is_empty());
}

#[test]
fn quit_replies_and_exits_zero_ignoring_the_rest() {
    let (r, status) = engine(&[r#"{"cmd":"quit"}"#, r#"{"cmd":"rules"}"#]);
    assert!(status.success());
    assert_eq!(r, vec![json!({"ok": true})]);
}

#[test]
fn review_judges_the_game_so_far() {
    let (r, status) = engine(&[
        r#"{"cmd":"review"}"#,
        r#"{"cmd":"new","rules":"finkel","pieces":2}"#,
        r#"{"cmd":"roll","value":2}"#,
        r#"{"cmd":"play","from":0,"to":2}"#,
        r#"{"cmd":"roll","value":2}"#,
        r#"{"cmd":"play","from":0,"to":2}"#,
        r#"{"cmd":"roll","value":1}"#,
        r#"{"cmd":"play","from":0,"to":1}"#,
        r#"{"cmd":"review","depth":2}"#,
        r#"{"cmd":"review","depth":0}"#,
        r#"{"cmd":"review","trials":8}"#,
        r#"{"cmd":"new","rules":"guard-d6"}"#,
        r#"{"cmd":"roll","raw":3}"#,
        r#"{"cmd":"review","trials":8,"seed":1}"#,
    ]);
    assert!(status.success());
    assert!(error(&r[0]).contains("new"));
    let rev = ok(&r[8]);
    // Finkel has a network: the search reads it at the leaves.
    assert_eq!(rev["judge"], "net:1");
    assert_eq!(rev["exact"], false);
    let notes = rev["notes"].as_array().unwrap();
    assert_eq!(notes.iter().filter(|n| n["kind"] == "roll").count(), 3, "{rev}");
    // Light's second throw offered 2->3 or 0->1: the one decision judged.
    let decisions: Vec<&Value> = notes.iter().filter(|n| n["kind"] == "decision").collect();
    assert_eq!(decisions.len(), 1, "{rev}");
    assert_eq!(decisions[0]["played"], json!({"move": {"from": 0, "to": 1}}));
    assert_eq!(decisions[0]["choices"], 2);
    assert_eq!(rev["sides"][0]["decisions"], 1);
    assert!(error(&r[9]).contains("depth"));
    assert!(error(&r[10]).contains("rollout judge"), "trials are the rollout judge's: {}", r[10]);
    // A tower game: the rollout judge, with its sureness, in `ur review --format json`'s shape.
    let rev = ok(&r[13]);
    assert!(rev["judge"].as_str().unwrap().starts_with("rollout:8"), "{rev}");
    assert_eq!((rev["exact"].clone(), rev["table"].clone(), rev["seed"].clone()), (json!(false), Value::Null, json!(1)), "{rev}");
    assert_eq!(rev["sureness"]["trials"], 8, "{rev}");
    let notes = rev["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "one roll so far: {rev}");
    assert_eq!((notes[0]["kind"].clone(), notes[0]["raw"].clone()), (json!("roll"), json!(3)), "{rev}");
    assert!(notes[0]["luck"]["half"].is_number() && notes[0]["before"]["mean"].is_number(), "{rev}");
}
