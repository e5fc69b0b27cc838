//! `ur review --format html`: one file that asks nothing of the network and
//! carries the numbers of `ur review --json`; the formats and `-o`; the
//! same for games beyond the race, judged by rollouts.

use std::path::Path;

use serde_json::Value;

use crate::common;
use common::{json_of_run as json, path_str, run_fails, run_ok};

/// The namespace names of SVG, XHTML and XLink: names inside the code that
/// draws (`createElementNS`), never fetched. Any other `http` is a fault.
const NAMESPACES: [&str; 3] = ["http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml", "http://www.w3.org/1999/xlink"];

fn saved_game(dir: &Path) -> String {
    let path = dir.join("g.json");
    run_ok(&["play", "--quiet", "--save", path_str(&path), "--pieces", "3", "--light", "greedy", "--dark", "random", "--seed", "5"]);
    path_str(&path).to_string()
}

/// The review document embedded in the html file.
fn embedded(html: &str) -> Value {
    let start = html.find(r#"<script type="application/json" id="review-data">"#).expect("the review's data") + 49;
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("the embedded review is JSON")
}

#[test]
fn the_html_file_is_self_contained_and_carries_the_json_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let g = saved_game(dir.path());
    let out = dir.path().join("review.html");
    let o = path_str(&out);
    run_ok(&["review", &g, "--depth", "1", "--format", "html", "-o", o, "--quiet"]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    let mut rest = html.clone();
    for ns in NAMESPACES {
        rest = rest.replace(ns, "");
    }
    assert!(!rest.contains("http://") && !rest.contains("https://"), "a network reference in the html file");
    for fetching in [" src=", "<link rel=\"stylesheet\"", "@import", "url(http", "fetch("] {
        let outside_code = rest.split("<script type=\"module\">").next().unwrap();
        assert!(!outside_code.contains(fetching), "the page head loads something: {fetching}");
    }
    assert!(html.contains("Content-Security-Policy") && html.contains("default-src 'none'"));
    assert!(html.contains("<svg") || html.contains("renderBoard"), "the board code is in the file");

    let r = json(&["review", &g, "--depth", "1", "--json", "--quiet"]);
    assert_eq!(r, json(&["review", &g, "--depth", "1", "--format", "json", "--quiet"]), "--json is --format json");
    let doc = embedded(&html);
    assert_eq!(doc["judge"]["name"], r["judge"]);
    assert_eq!(doc["judge"]["exact"], r["exact"]);
    for k in 0..2 {
        let (t, s) = (&doc["totals"][k], &r["sides"][k]);
        for key in ["decisions", "best", "inaccuracies", "mistakes", "blunders", "rolls", "total_loss", "luck"] {
            assert_eq!(t[key], s[key], "side {k}: {key}");
        }
    }
    let notes = r["notes"].as_array().unwrap();
    let steps = doc["steps"].as_array().unwrap();
    for n in notes {
        let step = &steps[n["action"].as_u64().unwrap() as usize];
        assert_eq!(step["kind"], n["kind"]);
        for key in ["loss", "verdict", "played_value", "best_value", "luck", "raw"] {
            assert_eq!(step[key], n[key], "step {}: {key}", n["action"]);
        }
    }
    let bad = notes.iter().filter(|n| ["inaccuracy", "mistake", "blunder"].contains(&n["verdict"].as_str().unwrap_or(""))).count();
    assert_eq!(doc["errors"].as_array().unwrap().len(), bad);
    assert!(bad > 0, "a random player errs: the test sees boards");
    assert_eq!(doc["light_win"].as_array().unwrap().len(), steps.len());
}

#[test]
fn formats_and_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let g = saved_game(dir.path());
    let printed = run_ok(&["review", &g, "--depth", "1", "--quiet"]);
    assert_eq!(printed, run_ok(&["review", &g, "--depth", "1", "--format", "text", "--quiet"]));
    let out = dir.path().join("r.txt");
    run_ok(&["review", &g, "--depth", "1", "-o", path_str(&out), "--quiet"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), printed);
    let html = run_ok(&["review", &g, "--depth", "1", "--format", "html", "--quiet"]);
    assert!(html.contains("<noscript><pre>Review of a game of finkel"), "the text report where scripts do not run");
    run_fails(&["review", &g, "--json", "--format", "html"], &["--json", "--format html", "only one"]);
    run_fails(&["review", &g, "--format", "pdf"], &["pdf"]);
    run_fails(&["review", &g, "--format", "html", "-o", "/no/such/folder/r.html"], &["-o /no/such/folder/r.html"]);
}

/// A game of `rules` between a greedy and a random bot, saved.
fn family_game(dir: &Path, rules: &str) -> String {
    let path = dir.join(format!("{rules}.json"));
    run_ok(&["play", "--quiet", "--rules", rules, "--save", path_str(&path), "--light", "greedy", "--dark", "random", "--seed", "3"]);
    path_str(&path).to_string()
}

/// The rollout review's JSON and html of `g` agree number for number.
fn rollout_formats_agree(g: &str, extra: &[&str]) {
    let args = |format: &'static str| -> Vec<&str> {
        [&["review", g, "--format", format, "--quiet", "--trials", "12", "--seed", "4"][..], extra].concat()
    };
    let r = json(&args("json"));
    assert!(r["judge"].as_str().unwrap().starts_with("rollout:12"), "{}", r["judge"]);
    assert_eq!(r["exact"], false);
    assert_eq!(r["seed"], 4);
    assert_eq!(r["sureness"]["trials"], 12);
    let doc = embedded(&run_ok(&args("html")));
    assert_eq!(doc["judge"]["name"], r["judge"]);
    assert_eq!(doc["judge"]["exact"], false);
    assert_eq!(doc["judge"]["sureness"], r["sureness"]);
    assert_eq!(doc["judge"]["interval"], r["sureness"]["value_half"]);
    assert_eq!(doc["rules"]["id"], r["rules"]);
    for k in 0..2 {
        let (t, s) = (&doc["totals"][k], &r["sides"][k]);
        for key in ["decisions", "best", "inaccuracies", "mistakes", "blunders", "rolls"] {
            assert_eq!(t[key], s[key], "side {k}: {key}");
        }
        for key in ["total_loss", "luck"] {
            assert!((t[key].as_f64().unwrap() - s[key].as_f64().unwrap()).abs() < 1e-9, "side {k}: {key}");
        }
    }
    let steps = doc["steps"].as_array().unwrap();
    let notes = r["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n["kind"] == "decision"), "the game has choices");
    for n in notes {
        let step = &steps[n["step"].as_u64().unwrap() as usize];
        let at = format!("step {}", n["step"]);
        assert_eq!(step["kind"], n["kind"], "{at}");
        if n["kind"] == "roll" {
            assert_eq!((&step["raw"], &step["luck"], &step["interval"]), (&n["raw"], &n["luck"]["mean"], &n["luck"]["half"]), "{at}");
            assert_eq!((&step["before"], &step["after"]), (&n["before"]["mean"], &n["after"]["mean"]), "{at}");
        } else {
            assert_eq!((&step["loss"], &step["loss_interval"]), (&n["loss"]["mean"], &n["loss"]["half"]), "{at}");
            assert_eq!((&step["played_value"], &step["best_value"]), (&n["played_value"]["mean"], &n["best_value"]["mean"]), "{at}");
            assert_eq!((&step["verdict"], &step["sure"]), (&n["verdict"], &n["sure"]), "{at}");
            assert_eq!(step["choices"].as_u64().unwrap() as usize, n["choices"].as_array().unwrap().len(), "{at}");
        }
    }
    let bad = notes.iter().filter(|n| ["inaccuracy", "mistake", "blunder"].contains(&n["verdict"].as_str().unwrap_or(""))).count();
    assert_eq!(doc["errors"].as_array().unwrap().len(), bad);
    assert_eq!(doc["light_win"].as_array().unwrap().len(), steps.len());
}

#[test]
fn a_tower_game_is_reviewed_by_rollouts_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let g = family_game(dir.path(), "guard-d6");
    rollout_formats_agree(&g, &[]);
    let text = run_ok(&["review", &g, "--trials", "12", "--quiet"]);
    assert!(text.starts_with("Review of a game of guard-d6"), "{text}");
    assert!(text.contains("Judge: rollout:12") && text.contains("95 % intervals") && text.contains("How sure:"), "{text}");
    let html = run_ok(&["review", &g, "--trials", "12", "--format", "html", "--quiet"]);
    assert!(html.contains("<noscript><pre>Review of a game of guard-d6"), "the text report where scripts do not run");
    // The judge's dice are seeded: the same seed, the same review.
    let seeded = |seed: &str| run_ok(&["review", &g, "--trials", "12", "--seed", seed, "--json", "--quiet"]);
    assert_eq!(seeded("9"), seeded("9"));
}

#[test]
fn a_bens_game_and_a_race_game_on_request_are_reviewed_by_rollouts() {
    let dir = tempfile::tempdir().unwrap();
    rollout_formats_agree(&family_game(dir.path(), "bens-ur"), &[]);
    let race = saved_game(dir.path());
    rollout_formats_agree(&race, &["--judge", "rollout"]);
    let text = run_ok(&["review", &race, "--judge", "rollout", "--trials", "12", "--quiet"]);
    assert!(text.contains("Judge: rollout:12, truncated after 12 rolls by the evaluation"), "{text}");
}
