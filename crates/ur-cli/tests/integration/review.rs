//! `ur review`: a saved game judged by a table or by search, and bad input.

use std::path::{Path, PathBuf};

use crate::common;
use common::{json_of_run as json, path_str, run_fails, run_ok};

/// Plays a quiet bot game and saves it as `name` in `dir`.
fn saved_game(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut all = vec!["play", "--quiet", "--save", path_str(&path)];
    all.extend_from_slice(args);
    run_ok(&all);
    path
}

#[test]
fn a_table_judges_exactly_and_the_perfect_bot_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("f2.urt");
    run_ok(&["solve", "finkel", "--pieces", "2", "--out", path_str(&table), "--quiet"]);
    let t = path_str(&table);
    let game = saved_game(dir.path(), "g.json", &["--pieces", "2", "--table", t, "--light", "perfect", "--dark", "random", "--seed", "3"]);
    let g = path_str(&game);
    let r = json(&["review", g, "--table", t, "--json"]);
    assert_eq!(r["judge"], "table");
    assert_eq!(r["exact"], true);
    let light = &r["sides"][0];
    assert_eq!(light["total_loss"].as_f64(), Some(0.0), "{light}");
    assert_eq!(light["best"], light["decisions"]);
    let notes = r["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n["kind"] == "roll") && notes.iter().any(|n| n["kind"] == "decision"));
    let text = run_ok(&["review", g, "--table", t, "--all"]);
    assert!(text.contains("Review of a game of finkel (pieces=2)") && text.contains("exact win probabilities"), "{text}");
    assert!(text.contains("luck of the dice") && text.contains("best choices"), "{text}");
    // With boards, every decision follows its position, moves spelled out as in `ur play`.
    let boards = run_ok(&["review", g, "--table", t, "--all", "--boards"]);
    let decisions = r["notes"].as_array().unwrap().iter().filter(|n| n["kind"] == "decision").count();
    assert_eq!(boards.matches("  played ").count(), decisions, "{boards}");
    assert_eq!(boards.matches("<- to move").count(), decisions, "{boards}");
    assert!(boards.contains("  played enter -> "), "{boards}");
}

#[test]
fn without_a_table_a_search_judges() {
    let dir = tempfile::tempdir().unwrap();
    for (rules, judge) in [("finkel", "net:0"), ("v1-named-birds", "expectimax:1")] {
        let game =
            saved_game(dir.path(), &format!("{rules}.json"), &["--rules", rules, "--light", "greedy", "--dark", "random", "--seed", "1"]);
        let r = json(&["review", path_str(&game), "--depth", "1", "--json", "--quiet"]);
        assert_eq!(r["judge"], judge, "{rules}");
        assert_eq!(r["exact"], false);
        let decisions = r["notes"].as_array().unwrap().iter().filter(|n| n["kind"] == "decision").count() as u64;
        let counted = r["sides"][0]["decisions"].as_u64().unwrap() + r["sides"][1]["decisions"].as_u64().unwrap();
        assert_eq!(decisions, counted, "{rules}");
        let text = run_ok(&["review", path_str(&game), "--depth", "1"]);
        assert!(text.contains(&format!("Judge: a {judge} search (estimates")), "{text}");
    }
}

#[test]
fn bad_review_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = saved_game(dir.path(), "g.json", &["--light", "greedy", "--dark", "random", "--seed", "2"]);
    let g = path_str(&game);
    run_fails(&["review", "/no/such/game.json"], &["cannot read /no/such/game.json"]);
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "not json").unwrap();
    run_fails(&["review", path_str(&junk)], &["not a valid game record"]);
    let text = std::fs::read_to_string(&game).unwrap().replacen("\"roll\"", "\"move_nowhere\"", 1);
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, text).unwrap();
    run_fails(&["review", path_str(&broken)], &["not a valid game record"]);
    let table = dir.path().join("f1.urt");
    run_ok(&["solve", "finkel", "--pieces", "1", "--out", path_str(&table), "--quiet"]);
    run_fails(&["review", g, "--table", path_str(&table)], &["solved for 'finkel' with pieces=1", "ur solve finkel --pieces 7"]);
    run_fails(&["review", g, "--table", path_str(&table), "--depth", "2"], &["cannot be used with"]);
    run_fails(&["review", g, "--depth", "0"], &["0 is not in 1..=6"]);
    let tower = saved_game(dir.path(), "t.json", &["--rules", "guard-d6", "--light", "greedy", "--dark", "random", "--seed", "2"]);
    let t = path_str(&tower);
    run_fails(&["review", t, "--judge", "table"], &["'guard-d6'", "no table judges it", "drop --judge table"]);
    run_fails(&["review", t, "--depth", "2"], &["--depth chooses a race judge", "rollout judge reviews this game"]);
    run_fails(&["review", t, "--boards"], &["--boards", "--format html"]);
    run_fails(&["review", t, "--trials", "0"], &["0 is not in 1..=1000000"]);
    run_fails(&["review", g, "--trials", "8"], &["--trials sets the rollout judge", "add --judge rollout"]);
    run_fails(&["review", g, "--judge", "search", "--table", path_str(&table)], &["two judges"]);
}
