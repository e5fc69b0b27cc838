//! Background solving: `GET /api/solving`, and hints and reviews that turn
//! exact when a table is solved while the server runs.

use crate::common;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use ur_rules::{OptionValue, Rules};

/// Finkel with two pieces: solved in well under a second.
fn small() -> Arc<Rules> {
    Arc::new(Rules::builtin_with("finkel", &[("pieces".to_string(), OptionValue::Int(2))].into()).unwrap())
}

async fn status(addr: SocketAddr) -> Value {
    let (code, body) = http(addr, "GET", "/api/solving", None).await;
    assert_eq!(code, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Waits (up to two minutes) until no rule set is queued or being solved; the last status.
async fn settled(addr: SocketAddr) -> Value {
    for _ in 0..1200 {
        let s = status(addr).await;
        let busy = s["rule_sets"].as_array().unwrap().iter().any(|e| e["state"] == "queued" || e["state"] == "solving");
        if !busy {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the background solve did not finish: {}", status(addr).await);
}

async fn solving_server(dir: &Path, tables: &Path, solve: Vec<Arc<Rules>>) -> SocketAddr {
    let tables = tables.to_path_buf();
    server(dir, move |c| {
        fast(c);
        c.tables = Some(tables);
        c.solve = solve;
    })
    .await
}

fn table_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "urt")).count())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_endpoint_tells_ready_and_skipped_rule_sets() {
    let (dir, tables) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Named birds are summoned by declarations the solver does not model.
    let birds = Arc::new(Rules::builtin("v1-named-birds").unwrap());
    let addr = solving_server(dir.path(), tables.path(), vec![small(), birds]).await;
    let s = settled(addr).await;
    let sets = s["rule_sets"].as_array().unwrap();
    assert_eq!(sets.len(), 2, "{s}");
    assert_eq!(sets[0]["rules"], "finkel");
    assert_eq!(sets[0]["options"]["pieces"], 2);
    assert_eq!(sets[0]["state"], "ready", "{s}");
    assert_eq!(sets[1]["rules"], "v1-named-birds");
    assert_eq!(sets[1]["state"], "skipped", "{s}");
    assert!(sets[1]["reason"].as_str().unwrap().contains("does not support"), "{s}");
    assert_eq!(s["tables"], json!(["finkel"]));
    assert_eq!(s["stored"], json!([{"rules": "finkel", "pieces": 2}]), "each table with its piece count");
    assert_eq!(table_files(tables.path()), 1);
    // No checkpoint is left once the table is written.
    let left: Vec<_> = std::fs::read_dir(tables.path()).unwrap().flatten().filter(|e| e.path().is_dir()).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_nothing_to_solve_the_status_is_empty_and_no_table_is_made() {
    let (dir, tables) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let addr = solving_server(dir.path(), tables.path(), Vec::new()).await;
    assert_eq!(status(addr).await, json!({"rule_sets": [], "tables": [], "stored": []}));
    // A game and its hint go on without a table, and none is written.
    let g = create(addr, json!({"rules": "finkel", "options": {"pieces": 2}, "mode": "bot", "seat": "light"})).await;
    let mut p = Client::join(addr, g["id"].as_str().unwrap(), g["token"].as_str()).await;
    assert_eq!(hint_judge(&mut p).await, "search");
    assert_eq!(table_files(tables.path()), 0);
}

/// Plays the player's side to its first decision and asks for a hint there; the hint's judge.
async fn hint_judge(p: &mut Client) -> String {
    let mut v = p.last.clone().unwrap();
    for _ in 0..500 {
        if p.my_turn(&v) && v["view"]["turn"]["stage"] == "act" {
            p.send(json!({"t": "hint", "seq": v["seq"]})).await;
            let h = p.next().await;
            assert_eq!(h["t"], "hint", "{h}");
            return h["judge"].as_str().unwrap().to_string();
        }
        if p.my_turn(&v) {
            p.step(&v).await;
        }
        v = p.view().await;
    }
    panic!("no decision came: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_solved_in_the_background_turns_hints_and_perfect_play_on_without_a_restart() {
    let (dir, dir2, tables) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // The server that plays solves nothing itself here, so that its first hint is surely from before the table.
    let addr = solving_server(dir.path(), tables.path(), Vec::new()).await;
    let new = json!({"rules": "finkel", "options": {"pieces": 2}, "mode": "bot", "seat": "light"});
    let g = create(addr, new.clone()).await;
    let mut p = Client::join(addr, g["id"].as_str().unwrap(), g["token"].as_str()).await;
    assert_eq!(hint_judge(&mut p).await, "search");
    let mut perfect = new.clone();
    perfect["bot"] = json!("perfect");
    let (code, body) = http(addr, "POST", "/api/games", Some(&perfect.to_string())).await;
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("the perfect bot needs a table"), "{body}");
    // Another server on the same table store solves it in the background.
    let solver = solving_server(dir2.path(), tables.path(), vec![small()]).await;
    assert_eq!(settled(solver).await["rule_sets"][0]["state"], "ready");
    // The running game's hints are exact now, and the perfect bot plays.
    assert_eq!(hint_judge(&mut p).await, "table");
    let g2 = create(addr, perfect).await;
    assert!(g2["id"].is_string(), "{g2}");
    assert_eq!(status(addr).await["tables"], json!(["finkel"]));
}
