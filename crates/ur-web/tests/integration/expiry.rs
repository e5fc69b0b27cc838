//! What the server keeps is bounded: idle games expire and are not resumed,
//! games nobody is connected to leave memory for new ones up to a quota,
//! a record read leaves nothing in memory, and each address (IPv6: each
//! /64) stores a bounded number of rule-set file bytes a day.

use crate::common;

use std::net::IpAddr;
use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

fn status_of(dir: &std::path::Path, id: &str) -> String {
    let c = rusqlite::Connection::open(db_path(dir)).unwrap();
    c.busy_timeout(Duration::from_secs(10)).unwrap();
    c.query_row("SELECT status FROM games WHERE id = ?1", [id], |r| r.get(0)).unwrap()
}

fn id_of(g: &Value) -> String {
    g["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_expire_and_are_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let tune = |c: &mut ur_web::Config| {
        c.expire_solo = Duration::from_secs(1);
        c.expire_online = Duration::from_secs(3600);
    };
    let mut cfg = config(dir.path());
    tune(&mut cfg);
    let server = Apart::start(cfg).await.unwrap();
    let mut solo = Vec::new();
    for mode in ["hotseat", "bot", "hotseat"] {
        solo.push(create(server.addr, json!({"rules": "finkel", "mode": mode, "seat": "light"})).await);
    }
    let online = create(server.addr, json!({"rules": "finkel", "mode": "online"})).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    server.stop().await;
    for g in &solo {
        assert_eq!(status_of(dir.path(), &id_of(g)), "expired", "a bot or hot-seat game idle past its time is stored as expired");
    }
    assert_eq!(status_of(dir.path(), &id_of(&online)), "playing", "an online game within its time goes on");
    let mut cfg = config(dir.path());
    tune(&mut cfg);
    let server = Apart::start(cfg).await.unwrap();
    assert_eq!(server.resumed, 1, "only the online game is resumed");
    // An expired game can be watched and downloaded, not played.
    let mut p = Client::join(server.addr, &id_of(&solo[0]), solo[0]["token"].as_str()).await;
    assert_eq!(p.last.as_ref().unwrap()["game"]["status"], "expired");
    p.send(json!({"t": "roll", "seq": 0})).await;
    assert_eq!(p.error().await["code"], "over");
    replays(&record(server.addr, &id_of(&solo[0])).await);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_idle_expires_while_it_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(dir.path());
    cfg.expire_solo = Duration::from_secs(1);
    let server = Apart::start(cfg).await.unwrap();
    let g = create(server.addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let mut p = Client::join(server.addr, &id_of(&g), g["token"].as_str()).await;
    let v = p.view().await;
    assert_eq!(v["game"]["status"], "expired", "{v}");
    assert_eq!(v["seq"], 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_memory_stay_within_the_quota_across_a_restart() {
    const QUOTA: usize = 4;
    let dir = tempfile::tempdir().unwrap();
    let quota = |dir: &std::path::Path| {
        let mut cfg = config(dir);
        cfg.max_live_games = QUOTA;
        cfg
    };
    let server = Apart::start(quota(dir.path())).await.unwrap();
    let mut games = Vec::new();
    for i in 0..12 {
        let mode = ["hotseat", "bot", "online"][i % 3];
        games.push(create(server.addr, json!({"rules": "finkel", "mode": mode, "seat": "light"})).await);
        assert!(server.live_games().await <= QUOTA, "{} games in memory", server.live_games().await);
    }
    // Games with a socket stay; when every game in memory has one, a new game is refused.
    let mut open = Vec::new();
    for g in games.iter().rev().take(QUOTA) {
        open.push(Client::join(server.addr, &id_of(g), g["token"].as_str()).await);
    }
    let (status, body) = http(server.addr, "POST", "/api/games", Some(&json!({"rules": "finkel", "mode": "hotseat"}).to_string())).await;
    assert_eq!(status, 503, "{body}");
    let refusal: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["code"], "busy", "{body}");
    assert!(refusal["message"].as_str().unwrap().contains(&QUOTA.to_string()), "{body}");
    drop(open);
    server.stop().await;

    let server = Apart::start(quota(dir.path())).await.unwrap();
    assert!(server.resumed <= QUOTA, "{} games resumed", server.resumed);
    assert!(server.live_games().await <= QUOTA);
    // A game that was not resumed is loaded when opened, in the room of one nobody is connected to.
    let first = &games[0];
    let p = Client::join(server.addr, &id_of(first), first["token"].as_str()).await;
    assert_eq!(p.last.as_ref().unwrap()["game"]["status"], "playing");
    assert!(server.live_games().await <= QUOTA);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_or_review_read_leaves_nothing_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let server = Apart::start(config(dir.path())).await.unwrap();
    let id = finished_hotseat(server.addr).await;
    let t = Instant::now();
    while server.live_games().await > 0 {
        assert!(t.elapsed() < WAIT, "a finished game stayed in memory");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    replays(&record(server.addr, &id).await);
    let (status, body) = http(server.addr, "GET", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.live_games().await, 0, "a game read for its record or review stayed in memory");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_file_bytes_are_limited_per_address_per_day() {
    let dir = tempfile::tempdir().unwrap();
    let file = include_str!("../../../../rulesets/finkel.toml").replace("id = \"finkel\"", "id = \"my-finkel\"");
    let mut cfg = config(dir.path());
    cfg.max_rules_bytes_per_day = 3 * file.len();
    let server = Apart::start(cfg).await.unwrap();
    let game = json!({"rules_file": file, "mode": "hotseat"}).to_string();
    for _ in 0..3 {
        let (status, body) = http(server.addr, "POST", "/api/games", Some(&game)).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = http(server.addr, "POST", "/api/games", Some(&game)).await;
    assert_eq!(status, 429, "{body}");
    let refusal: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["code"], "quota", "{body}");
    assert!(refusal["message"].as_str().unwrap().contains("rule-set file"), "{body}");
    // Built-in rule sets take no quota.
    create(server.addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    server.stop().await;
}

#[test]
fn an_ipv6_client_is_counted_by_its_64_and_an_ipv4_one_by_its_address() {
    let key = |s: &str| ur_web::hub::client_key(s.parse::<IpAddr>().unwrap());
    assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:ffff:1:2:3"));
    assert_eq!(key("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::".parse::<IpAddr>().unwrap());
    assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
    assert_eq!(key("192.0.2.7"), "192.0.2.7".parse::<IpAddr>().unwrap());
    assert_ne!(key("192.0.2.7"), key("192.0.2.8"));
    assert_eq!(key("::ffff:192.0.2.7"), key("192.0.2.7"), "an IPv4 address mapped into IPv6 is that IPv4 address");
}
