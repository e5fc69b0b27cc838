//! The SQLite store under contention: one process per database file, a
//! step or a game that cannot be stored leaves nothing behind, and reads
//! and games already in memory never wait for a writer.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

/// Longer than SQLite's busy timeout (5 s): a write waiting for it fails.
const HOLD: Duration = Duration::from_secs(7);

fn count(dir: &std::path::Path, sql: &str) -> i64 {
    let c = rusqlite::Connection::open(db_path(dir)).unwrap();
    c.busy_timeout(Duration::from_secs(10)).unwrap();
    c.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_sqlite_file_is_refused_naming_the_lock_and_its_holder() {
    let dir = tempfile::tempdir().unwrap();
    let first = Apart::start(config(dir.path())).await.expect("the first server starts");
    let lock = format!("{}.lock", db_path(dir.path()).display());
    let Err(e) = Apart::start(config(dir.path())).await else { panic!("a second server started on the same database") };
    assert!(e.contains(&lock), "the message names the lock file {lock}: {e}");
    assert!(e.contains(&format!("process {}", std::process::id())), "the message names the holder's PID: {e}");
    assert!(e.contains("PostgreSQL"), "the message says how to run several processes: {e}");
    assert_eq!(std::fs::read_to_string(&lock).unwrap().trim(), std::process::id().to_string());
    first.stop().await;
    let again = Apart::start(config(dir.path())).await.expect("once the first has stopped, another starts");
    again.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_cannot_be_stored_is_not_made() {
    let dir = tempfile::tempdir().unwrap();
    let server = Apart::start(config(dir.path())).await.unwrap();
    let g = create(server.addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap();
    let mut p = Client::join(server.addr, id, g["token"].as_str()).await;
    let held = hold_write_lock(&db_path(dir.path()), HOLD);
    p.send(json!({"t": "roll", "seq": 0})).await;
    let e = p.error().await;
    assert_eq!(e["code"], "storage", "{e}");
    tokio::task::spawn_blocking(move || held.join().unwrap()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(dir.path(), "SELECT COUNT(*) FROM events"), 0, "a refused move was stored");
    let fresh = Client::join(server.addr, id, g["token"].as_str()).await;
    assert_eq!(fresh.last.as_ref().unwrap()["seq"], 0, "a refused move was made");
    assert!(p.views.iter().all(|s| *s == 0), "the player was sent a view with the refused move: {:?}", p.views);
    // Once the database is free the same move is taken.
    p.send(json!({"t": "roll", "seq": 0})).await;
    assert_eq!(p.view().await["seq"], 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_cannot_be_stored_leaves_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let server = Apart::start(config(dir.path())).await.unwrap();
    let held = hold_write_lock(&db_path(dir.path()), HOLD);
    let (status, body) = http(server.addr, "POST", "/api/games", Some(&json!({"rules": "finkel", "mode": "hotseat"}).to_string())).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["code"], "storage", "{body}");
    tokio::task::spawn_blocking(move || held.join().unwrap()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count(dir.path(), "SELECT COUNT(*) FROM games"), 0, "a refused game was stored");
    server.stop().await;
    let again = Apart::start(config(dir.path())).await.unwrap();
    assert_eq!(again.resumed, 0);
    again.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_games_in_memory_do_not_wait_for_the_write_lock() {
    let dir = tempfile::tempdir().unwrap();
    let server = Apart::start(config(dir.path())).await.unwrap();
    let addr = server.addr;
    let a = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let b = finished_hotseat(addr).await;
    let c = finished_hotseat(addr).await;
    // The finished games leave memory once their sockets close.
    let t = Instant::now();
    while server.live_games().await > 1 {
        assert!(t.elapsed() < WAIT, "finished games stayed in memory");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let held = hold_write_lock(&db_path(dir.path()), HOLD);
    // A watcher opens game c, which must be read from the database.
    let loading = tokio::spawn(async move { Client::join(addr, &c, None).await.last.unwrap() });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = Instant::now();
    let joined = Client::join(addr, a["id"].as_str().unwrap(), a["token"].as_str()).await;
    let took = t.elapsed();
    assert_eq!(joined.last.as_ref().unwrap()["seq"], 0);
    assert!(took < Duration::from_secs(1), "joining a game in memory took {took:?} while another was loaded");
    let t = Instant::now();
    let (status, body) = http(addr, "GET", &format!("/api/games/{b}/record"), None).await;
    assert_eq!(status, 200, "a record read while another connection writes: {body}");
    assert!(t.elapsed() < Duration::from_secs(1), "the record took {:?}", t.elapsed());
    let watched = loading.await.unwrap();
    assert_eq!(watched["game"]["status"], "over", "{watched}");
    tokio::task::spawn_blocking(move || held.join().unwrap()).await.unwrap();
    server.stop().await;
}
