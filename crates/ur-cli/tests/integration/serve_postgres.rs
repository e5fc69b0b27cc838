//! Two `ur serve` processes on one PostgreSQL database, one player on each,
//! play a game to the end: each step reaches the other process by
//! LISTEN/NOTIFY, and a step sent to both at once is stored once.
//!
//! It makes a throwaway cluster with Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`). Without them it is skipped, unless
//! `UR_REQUIRE_POSTGRES=1`, when it fails.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use ur_web::client::{create, http, over, record, replays, Client};
use ur_web::pg_cluster::Cluster;

use crate::serving;
use serving::{free_port, start as serve, Serve};

/// A throwaway cluster and two `ur serve` processes on it (`None`: no PostgreSQL here).
async fn two_servers(dir: &std::path::Path) -> Option<(Cluster, SocketAddr, SocketAddr, [Serve; 2])> {
    let cluster = Cluster::start_or_skip(dir, "")?;
    let a: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let b: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let servers = [serve(a, &cluster.url()).await, serve(b, &cluster.url()).await];
    Some((cluster, a, b, servers))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_postgres_database_play_a_game_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let Some((cluster, a, b, _servers)) = two_servers(dir.path()).await else { return };

    let g = create(a, json!({"rules": "finkel", "mode": "online", "seat": "light", "options": {"pieces": "4"}})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap();
    let mut light = Client::join(a, id, g["token"].as_str()).await;
    let mut dark = Client::join(b, id, Some(invite)).await;
    let mut watcher = Client::join(b, id, None).await;
    // Each sees the other connected, across processes.
    let t = Instant::now();
    loop {
        let m = light.next().await;
        if m["t"] == "presence" && m["seats"]["dark"]["connected"] == true {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "light never saw dark connect");
    }
    let t = Instant::now();
    while dark.last.as_ref().unwrap()["game"]["seats"]["light"]["connected"] != true {
        let m = dark.next().await;
        if m["t"] == "presence" && m["seats"]["light"]["connected"] == true {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "dark never saw light connected");
    }
    let mut v = light.last.clone().unwrap();
    let mut players = [light, dark];
    let mut steps = 0;
    while !over(&v) {
        let i = if players[0].my_turn(&v) { 0 } else { 1 };
        players[i].step(&v).await;
        let x = players[i].view().await;
        let y = players[1 - i].view().await;
        assert_eq!((x["seq"].clone(), &x["view"]), (y["seq"].clone(), &y["view"]), "both processes show the same game");
        v = x;
        steps += 1;
        assert!(steps < 5000);
    }
    assert_eq!(v["game"]["status"], "over");
    while watcher.views.last() != v["seq"].as_u64().as_ref() {
        watcher.view().await;
    }
    assert_eq!(watcher.views, (0..=v["seq"].as_u64().unwrap()).collect::<Vec<_>>());
    let (ra, rb) = (record(a, id).await, record(b, id).await);
    assert_eq!(ra, rb);
    replays(&ra);

    // One hot-seat token on both processes, both rolling view 0 at once: one roll is stored.
    let g = create(b, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap();
    let mut p = Client::join(a, id, g["token"].as_str()).await;
    let mut q = Client::join(b, id, g["token"].as_str()).await;
    p.send(json!({"t": "roll", "seq": 0})).await;
    q.send(json!({"t": "roll", "seq": 0})).await;
    let (mut views, mut stale) = (0, 0);
    for c in [&mut p, &mut q] {
        while let Ok(m) = tokio::time::timeout(Duration::from_millis(1500), c.next()).await {
            match m["t"].as_str() {
                Some("view") => {
                    assert_eq!(m["seq"], 1, "{m}");
                    views += 1;
                }
                Some("error") => {
                    assert_eq!(m["code"], "stale", "{m}");
                    stale += 1;
                }
                _ => {}
            }
        }
    }
    assert_eq!((views, stale), (2, 1), "both see the one roll stored; the other is refused as stale");
    let (_, body) = http(a, "GET", &format!("/api/games/{id}/record"), None).await;
    let rec: Value = serde_json::from_str(&body).unwrap();
    assert!(body.len() > 10, "{rec}");
    drop(cluster);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clocked_game_on_two_processes_flags_once() {
    let dir = tempfile::tempdir().unwrap();
    let Some((cluster, a, b, _servers)) = two_servers(dir.path()).await else { return };
    let clock = json!({"initial_s": 2, "increment_s": 1});
    let g = create(a, json!({"rules": "finkel", "mode": "online", "seat": "light", "clock": clock})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap();
    let mut light = Client::join(a, id, g["token"].as_str()).await;
    let mut dark = Client::join(b, id, Some(invite)).await;
    // Light throws on one process; the clocks run on both; nobody plays on.
    light.send(json!({"t": "roll", "seq": 0})).await;
    let mut ends = Vec::new();
    for c in [&mut light, &mut dark] {
        let mut log: Vec<Value> = Vec::new();
        let v = loop {
            let v = c.view().await;
            let from = v["log_from"].as_u64().unwrap() as usize;
            log.truncate(from);
            log.extend(v["log"].as_array().unwrap().iter().cloned());
            if over(&v) {
                break v;
            }
        };
        assert_eq!(v["game"]["end"], "time", "{}", v["game"]);
        let flags = log.iter().filter(|e| e["action"] == "flag").count();
        assert_eq!(flags, 1, "one flag is stored: {log:?}");
        ends.push((v["seq"].clone(), v["game"]["winner"].clone()));
    }
    assert_eq!(ends[0], ends[1], "both processes agree");
    drop(cluster);
}
