//! `ur review --format html`: one file that asks nothing of the network and
//! carries the numbers of `ur review --json`; the formats and `-o`.

use std::path::Path;

use serde_json::Value;

mod common;
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
