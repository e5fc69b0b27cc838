//! The protocol without a process: requests in, replies out.

use serde_json::{json, Value};
use ur_rules::{OptionValue, Options, Rules, Side};

use super::*;

fn ask(s: &mut Engine, line: &str) -> Value {
    s.handle(line)
}

#[test]
fn a_short_game_and_errors() {
    let mut s = Engine::default();
    assert_eq!(ask(&mut s, r#"{"cmd":"show","id":7}"#)["id"], 7);
    assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["ok"], false);
    let r = ask(&mut s, r#"{"cmd":"new","rules":"finkel"}"#);
    assert_eq!(r["ok"], true, "{r}");
    let r = ask(&mut s, r#"{"cmd":"roll","value":2}"#);
    assert_eq!(r["legal"], json!([{"from":0,"to":2,"capture":false,"rosette":false,"off":false}]));
    let r = ask(&mut s, r#"{"cmd":"roll","value":2}"#);
    assert!(r["error"].as_str().unwrap().contains("play"), "{r}");
    let r = ask(&mut s, r#"{"cmd":"play","from":0,"to":2}"#);
    assert_eq!(r["to_move"], "dark", "{r}");
}

#[test]
fn garbage_never_panics() {
    let mut s = Engine::default();
    for line in ["", "{", "[]", "null", r#"{"cmd":1}"#, r#"{"cmd":"play","from":-1,"to":1e9}"#, "\u{0}"] {
        assert_eq!(ask(&mut s, line)["ok"], false, "{line}");
    }
}

#[test]
fn eval_and_hint_at_an_optional_extra_roll() {
    let opts: Options = [("pieces".into(), OptionValue::Int(1)), ("rosette_reroll_optional".into(), OptionValue::Bool(true))].into();
    let rules = Rules::builtin_with("v1-simple", &opts).unwrap();
    let index = ur_solve::Indexer::new(&rules).unwrap();
    let sol = ur_solve::solve(&rules, &index, &ur_solve::SolveConfig::default(), &ur_solve::Silent).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.urt");
    ur_solve::table::write_table(&path, &rules, &index, &sol.values, ur_solve::Encoding::F64, sol.residual, 1e-12).unwrap();
    let mut s = Engine::new(TableSource::File(LoadedTable::open(&path).unwrap()));
    let r = ask(&mut s, r#"{"cmd":"new","rules":"v1-simple","pieces":1,"options":{"rosette_reroll_optional":true}}"#);
    assert_eq!(r["ok"], true, "{r}");
    let start = ask(&mut s, r#"{"cmd":"eval"}"#);
    assert_eq!(start["win"].as_f64(), Some(sol.values[index.rank(&ur_rules::State::start(&rules, Side::Light)) as usize]));
    ask(&mut s, r#"{"cmd":"roll","value":4}"#);
    let moved = ask(&mut s, r#"{"cmd":"hint"}"#);
    let r = ask(&mut s, r#"{"cmd":"play","from":0,"to":4}"#);
    assert_eq!(r["phase"], "extra_roll", "{r}");
    let h = ask(&mut s, r#"{"cmd":"hint"}"#);
    let choices = h["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 2, "{h}");
    assert!(choices[0]["win"].as_f64() >= choices[1]["win"].as_f64() && choices[0]["best"] == true, "{h}");
    assert_eq!(h["win"], choices[0]["win"]);
    assert_eq!(h["win"], moved["win"], "the move's value takes the better of rerolling and ending");
    assert_eq!(ask(&mut s, r#"{"cmd":"eval"}"#)["win"], h["win"]);
    // A throw given: the moves after a reroll, without changing the game.
    let what_if = ask(&mut s, r#"{"cmd":"hint","roll":2}"#);
    assert_eq!(what_if["moves"][0]["from"], 4, "{what_if}");
    assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["phase"], "extra_roll");
}

#[test]
fn named_birds_summon() {
    let mut s = Engine::default();
    ask(&mut s, r#"{"cmd":"new","rules":"v1-named-birds"}"#);
    assert_eq!(ask(&mut s, r#"{"cmd":"choose","choice":"summon"}"#)["ok"], true);
    let r = ask(&mut s, r#"{"cmd":"roll","value":1}"#);
    assert_eq!(r["summon"], json!({"bird":1,"success":true,"stage":"call"}), "{r}");
    let r = ask(&mut s, r#"{"cmd":"roll","value":3}"#);
    assert_eq!(r["summon"], json!({"bird":1,"success":true,"stage":"placement"}), "{r}");
    assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["position"]["light"]["birds"], json!([3, 0, 0, 0, 0]));
}

#[test]
fn act_and_bestmove_in_a_race_game() {
    let mut s = Engine::default();
    ask(&mut s, r#"{"cmd":"new","rules":"finkel"}"#);
    let r = ask(&mut s, r#"{"cmd":"bestmove"}"#);
    assert!(r["error"].as_str().unwrap().contains("roll"), "{r}");
    ask(&mut s, r#"{"cmd":"roll","value":2}"#);
    for bot in ["random", "greedy", "level4", "mcts:20", "generic:expectimax:2"] {
        let r = ask(&mut s, &format!(r#"{{"cmd":"bestmove","bot":"{bot}","seed":3}}"#));
        assert_eq!(r["action"], json!({"move":{"from":0,"to":2}}), "{bot}: {r}");
        assert_eq!(r["text"], "0->2", "{r}");
    }
    let r = ask(&mut s, r#"{"cmd":"bestmove","bot":"perfect"}"#);
    assert!(r["error"].as_str().unwrap().contains("--table"), "{r}");
    let r = ask(&mut s, r#"{"cmd":"act","action":{"move":{"from":0,"to":3}}}"#);
    assert_eq!(r["ok"], false, "{r}");
    let r = ask(&mut s, r#"{"cmd":"act","text":"0->2"}"#);
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["to_move"], "dark", "{r}");
    ask(&mut s, r#"{"cmd":"roll","value":4}"#);
    let r = ask(&mut s, r#"{"cmd":"act","action":{"move":{"from":0,"to":4}}}"#);
    assert_eq!(r["rosette"], true, "{r}");
}

/// The same command shapes play a game of another family to the end.
#[test]
fn a_tower_game_through_the_same_commands() {
    let mut s = Engine::default();
    let r = ask(&mut s, r#"{"cmd":"new","rules":"guard-d6"}"#);
    assert_eq!((r["family"].clone(), r["phase"].clone()), (json!("tower"), json!("roll")), "{r}");
    assert_eq!(r["outcomes"].as_array().unwrap().len(), 6, "{r}");
    let r = ask(&mut s, r#"{"cmd":"roll","value":2}"#);
    assert!(r["error"].as_str().unwrap().contains("raw"), "{r}");
    let r = ask(&mut s, r#"{"cmd":"play","from":0,"to":2}"#);
    assert!(r["error"].as_str().unwrap().contains("act"), "{r}");
    // The network judges guard-d6: an estimate at the roll, and no hint before the throw.
    let r = ask(&mut s, r#"{"cmd":"eval"}"#);
    assert_eq!((r["judge"].clone(), r["exact"].clone(), r["phase"].clone()), (json!("net:2"), json!(false), json!("roll")), "{r}");
    assert!((0.0..=1.0).contains(&r["win"].as_f64().unwrap()), "{r}");
    assert!(ask(&mut s, r#"{"cmd":"hint"}"#)["error"].as_str().unwrap().contains("decision"), "a hint before the throw");
    let mut hinted = false;
    let mut rng = 0u64;
    for _ in 0..20_000 {
        let r = ask(&mut s, r#"{"cmd":"show"}"#);
        match r["phase"].as_str().unwrap() {
            "over" => break,
            "roll" => {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let outcomes = r["outcomes"].as_array().unwrap();
                let raw = &outcomes[(rng >> 33) as usize % outcomes.len()]["raw"];
                assert_eq!(ask(&mut s, &format!(r#"{{"cmd":"roll","raw":{raw}}}"#))["ok"], true);
            }
            _ => {
                if !hinted {
                    let h = ask(&mut s, r#"{"cmd":"hint"}"#);
                    let actions = h["actions"].as_array().unwrap_or_else(|| panic!("{h}"));
                    let open = ask(&mut s, r#"{"cmd":"show"}"#)["actions"].as_array().map_or(0, Vec::len);
                    assert!(!actions.is_empty() && actions.len() == open, "one estimate per open action: {h}");
                    assert!(actions.windows(2).all(|w| w[0]["win"].as_f64() >= w[1]["win"].as_f64()) && actions[0]["best"] == true, "{h}");
                    assert_eq!((h["judge"].clone(), h["exact"].clone()), (json!("net:2"), json!(false)), "{h}");
                    let e = ask(&mut s, r#"{"cmd":"eval"}"#);
                    assert_eq!(e["win"], h["win"], "the value of a decision is its best choice's");
                    hinted = true;
                }
                let a = ask(&mut s, r#"{"cmd":"bestmove","bot":"greedy"}"#)["action"].clone();
                assert_eq!(ask(&mut s, &format!(r#"{{"cmd":"act","action":{a}}}"#))["ok"], true);
            }
        }
    }
    assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["phase"], "over");
    // The rollout judge reviews it, in the shape of `ur review --format json`.
    let r = ask(&mut s, r#"{"cmd":"review","trials":4,"seed":3}"#);
    assert_eq!(
        (r["ok"].clone(), r["rules"].clone(), r["exact"].clone(), r["seed"].clone()),
        (json!(true), json!("guard-d6"), json!(false), json!(3)),
        "{r}"
    );
    assert!(r["judge"].as_str().unwrap().starts_with("rollout:4"), "{r}");
    assert_eq!((r["over"].clone(), r["sureness"]["trials"].clone()), (json!(true), json!(4)), "{r}");
    let notes = r["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n["kind"] == "decision" && n["loss"]["half"].is_number()), "{r}");
    assert_eq!(r["sides"].as_array().unwrap().len(), 2);
    for (bad, says) in [
        (r#"{"cmd":"review","depth":2}"#, "trials"),
        (r#"{"cmd":"review","trials":0}"#, "1 or more"),
        (r#"{"cmd":"review","trials":-1}"#, "0 to 4096"),
    ] {
        let e = ask(&mut s, bad);
        assert!(e["error"].as_str().unwrap().contains(says), "{bad}: {e}");
    }
    let record = ask(&mut s, r#"{"cmd":"record"}"#)["record"].clone();
    let back: ur_rules::AnyRecord = serde_json::from_value(record).unwrap();
    assert_eq!(back.replay().unwrap().position_json(), ask(&mut s, r#"{"cmd":"show"}"#)["position"]);
}

/// A game beyond the race without a trained network (a small variant) says there is no judge, and why.
#[test]
fn no_network_no_hint_and_the_reason() {
    let mut s = Engine::default();
    ask(&mut s, r#"{"cmd":"new","rules":"ravensburg-1977","options":{"tokens_per_player":2}}"#);
    for cmd in ["eval", "hint"] {
        let r = ask(&mut s, &format!(r#"{{"cmd":"{cmd}"}}"#));
        assert!(r["error"].as_str().unwrap().contains("no judge"), "{cmd}: {r}");
    }
}
