//! The `ur` commands on every rule family: every set of `family_rule_sets()`
//! (so families merged later are covered with no change here), plus the
//! generic code paths exercised on race sets (version-2 records, generic bots).

use std::io::Write;
use std::process::Stdio;

use serde_json::{json, Value};
use ur_rules::{family_rule_sets, AnyRecorder, Options, Playable, Side, Turn};

use crate::common;
use common::{path_str as p, run_fails as fails, run_ok as ok};

/// Requests to `ur engine`, one reply each.
fn engine(requests: &[String]) -> Vec<Value> {
    let mut child = common::ur_command().arg("engine").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("ur engine starts");
    let mut stdin = child.stdin.take().unwrap();
    for r in requests {
        writeln!(stdin, "{r}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn every_family_set_is_listed_shown_played_replayed_and_served() {
    let dir = tempfile::tempdir().unwrap();
    let listing = ok(&["rules"]);
    let catalogue = &engine(&[r#"{"cmd":"rules"}"#.into()])[0]["rules"];
    for set in family_rule_sets() {
        let id = set.id;
        assert!(listing.lines().any(|l| l.split_whitespace().next() == Some(id)), "{id} not in\n{listing}");
        assert!(catalogue.as_array().unwrap().iter().any(|r| r["id"] == id && r["family"].is_string()), "{id}");
        let shown = ok(&["rules", "show", id]);
        assert!(shown.contains(&format!("({id})")) && shown.contains(set.source), "{shown}");
        for o in &set.options {
            assert!(shown.contains(&format!("  {}: ", o.name)), "{id}: option {} not shown:\n{shown}", o.name);
        }
        let file = dir.path().join(format!("{id}.json"));
        let out = ok(&["play", "--rules", id, "--light", "level1", "--dark", "greedy", "--seed", "3", "--quiet", "--save", p(&file)]);
        assert!(out.contains("wins") || out.contains("drawn"), "{id}: {out}");
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(record["version"], 2, "{id}");
        assert!(ok(&["replay", p(&file)]).contains("every one is legal"), "{id}");
        let report = ok(&["arena", "--rules", id, "--bots", "random,greedy,level2", "--games", "2", "--quiet", "--json"]);
        let again = ok(&["arena", "--rules", id, "--bots", "random,greedy,level2", "--games", "2", "--quiet", "--json", "--threads", "1"]);
        assert_eq!(report, again, "{id}: the seed fixes the report whatever the thread count");
        let report: Value = serde_json::from_str(&report).unwrap();
        assert_eq!(report["games"], 6, "{id}: {report}");
        fails(&["play", "--rules", id, "--light", "perfect", "--dark", "greedy", "--quiet"], &["perfect"]);
        let r = engine(&[format!(r#"{{"cmd":"new","rules":"{id}"}}"#), r#"{"cmd":"show"}"#.into()]);
        assert_eq!(r[0]["ok"], true, "{id}: {}", r[0]);
        assert_eq!(r[1]["family"], json!(set.family), "{id}: {}", r[1]);
    }
}

#[test]
fn a_version_2_record_replays_and_a_broken_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut rec = AnyRecorder::new("masters", &Options::new(), Side::Dark).unwrap();
    let mut k = 0usize;
    while !matches!(rec.game().turn(), Turn::Over(_)) {
        k += 1;
        match rec.game().turn() {
            Turn::Roll(_) => {
                let o = rec.game().outcomes();
                rec.roll(o[k % o.len()].0).unwrap();
            }
            _ => {
                let a = rec.game().actions();
                rec.apply(&a[k % a.len()]).unwrap();
            }
        }
    }
    let file = dir.path().join("g.json");
    let mut record = serde_json::to_value(rec.record()).unwrap();
    std::fs::write(&file, record.to_string()).unwrap();
    let out = ok(&["replay", p(&file)]);
    assert!(out.contains("every one is legal") && out.contains("wins"), "{out}");
    record["steps"][1] = json!({"act": {"move": {"from": 9, "to": 12}}});
    std::fs::write(&file, record.to_string()).unwrap();
    fails(&["replay", p(&file)], &["does not replay", "step 1"]);
    record["version"] = json!(7);
    std::fs::write(&file, record.to_string()).unwrap();
    fails(&["replay", p(&file)], &["version 7"]);
}

#[test]
fn generic_bots_play_in_the_arena_and_against_the_race_bots() {
    let out = ok(&[
        "arena",
        "--rules",
        "finkel",
        "--pieces",
        "3",
        "--bots",
        "generic:greedy,generic:mcts:20,greedy",
        "--games",
        "4",
        "--quiet",
        "--json",
    ]);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["games"], 12, "{report}");
    fails(&["arena", "--bots", "generic:perfect,random", "--games", "2"], &["unknown bot"]);
}
