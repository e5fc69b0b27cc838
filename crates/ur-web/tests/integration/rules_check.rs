//! `POST /api/rules/check`: a rule-set file is read as a game would read it,
//! no game is made, and each problem comes back on its own.

use crate::common;

use common::*;
use serde_json::{json, Value};
use ur_rules::spec::BUILTIN;

const FINKEL: &str = BUILTIN[0].1;

async fn check(addr: std::net::SocketAddr, text: &str) -> (u16, Value) {
    let req = json!({"rules_file": text}).to_string();
    let (status, body) = http(addr, "POST", "/api/rules/check", Some(&req)).await;
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_file_answers_its_rules_and_start() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let (status, v) = check(addr, &FINKEL.replace("id = \"finkel\"", "id = \"my-finkel\"")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["id"], "my-finkel");
    assert_eq!(v["view"]["rules"]["id"], "my-finkel");
    assert!(v["view"]["board"]["squares"].as_array().is_some_and(|s| s.len() >= 20), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_file_lists_each_problem_and_a_big_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    // Two mistakes: an id that cannot name a file, and no pieces.
    let text: String = FINKEL
        .lines()
        .map(|l| {
            if l.starts_with("id ") {
                "id = \"a/b\""
            } else if l.starts_with("pieces ") {
                "pieces = 0"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (status, v) = check(addr, &text).await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["code"], "bad_rules");
    let problems = v["problems"].as_array().unwrap_or_else(|| panic!("{v}"));
    assert!(problems.len() >= 2, "{v}");
    assert!(problems.iter().any(|p| p.as_str().unwrap().contains("field 'id'")), "{v}");
    assert!(problems.iter().all(|p| !p.as_str().unwrap().starts_with("- ")), "{v}");
    let (status, v) = check(addr, &"#".repeat(70_000)).await;
    assert_eq!(status, 413, "{v}");
    assert_eq!(v["code"], "too_large");
}
