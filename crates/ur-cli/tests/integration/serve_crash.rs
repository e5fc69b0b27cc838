//! `ur serve` as a real process: online games in progress survive a SIGKILL.
//! Every acknowledged move is there after a restart on the same database,
//! and both players reconnect and finish.

use std::net::SocketAddr;
use std::path::Path;

use serde_json::{json, Value};
use ur_web::client::{create, over, record, replays, Client};

use crate::serving;
use serving::{free_port, start};

struct Game {
    id: String,
    tokens: [String; 2],
    /// The last acknowledged view: what both players were sent.
    acked: Value,
}

async fn open(addr: SocketAddr, g: &Game) -> [Client; 2] {
    [Client::join(addr, &g.id, Some(&g.tokens[0])).await, Client::join(addr, &g.id, Some(&g.tokens[1])).await]
}

/// Plays `steps` steps (or to the end), each acknowledged by both players.
async fn play(players: &mut [Client; 2], mut v: Value, steps: usize) -> Value {
    for _ in 0..steps {
        if over(&v) {
            break;
        }
        let i = if players[0].my_turn(&v) { 0 } else { 1 };
        players[i].step(&v).await;
        let a = players[i].view().await;
        let b = players[1 - i].view().await;
        assert_eq!(a["view"], b["view"]);
        v = a;
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn online_games_survive_a_sigkill_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let db = db.to_str().unwrap();
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut server = start(addr, db).await;
    let mut games = Vec::new();
    for (k, rules) in ["finkel", "masters", "bens-ur"].iter().enumerate() {
        let g = create(addr, json!({"rules": rules, "mode": "online", "seat": "light"})).await;
        let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
        let mut game =
            Game { id: g["id"].as_str().unwrap().into(), tokens: [g["token"].as_str().unwrap().into(), invite], acked: Value::Null };
        let mut players = open(addr, &game).await;
        let v = players[0].last.clone().unwrap();
        game.acked = play(&mut players, v, 20 + 7 * k).await;
        assert!(!over(&game.acked));
        games.push((game, players));
    }
    // One more step sent to the last game but not waited for: it may or may not be stored.
    let (last, players) = games.last_mut().unwrap();
    let i = if players[0].my_turn(&last.acked) { 0 } else { 1 };
    players[i].step(&last.acked.clone()).await;

    server.kill(); // SIGKILL
    let games: Vec<Game> = games.into_iter().map(|(g, _)| g).collect();
    let mut server = start(addr, db).await;
    let n = games.len();
    for (k, g) in games.iter().enumerate() {
        let mut players = open(addr, g).await;
        let v = players[0].last.clone().unwrap();
        let acked = g.acked["seq"].as_u64().unwrap();
        let seq = v["seq"].as_u64().unwrap();
        if k + 1 == n {
            assert!(seq == acked || seq == acked + 1, "game {k}: at {seq}, acknowledged {acked}");
        } else {
            assert_eq!(seq, acked, "game {k}: every acknowledged move is there, and no other");
        }
        if seq == acked {
            assert_eq!(v["view"], g.acked["view"], "game {k}");
        }
        assert_eq!(v["game"]["status"], "playing");
        assert_eq!(players[1].last.as_ref().unwrap()["view"], v["view"]);
        let end = play(&mut players, v, 100_000).await;
        assert!(over(&end), "game {k} finished");
        assert_eq!(end["game"]["status"], "over");
        replays(&record(addr, &g.id).await);
    }
    server.kill();
    let _ = Path::new(db);
}
