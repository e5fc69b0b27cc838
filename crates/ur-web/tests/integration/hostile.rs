//! Hostile input: each refused with a clear error code, the game unchanged,
//! the server still up.

use crate::common;

use std::net::SocketAddr;

use common::*;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The game as the server holds it: its record and a fresh watcher's view.
async fn snapshot(addr: SocketAddr, id: &str) -> (String, Value) {
    let mut w = Client::join(addr, id, None).await;
    let v = w.last.take().unwrap();
    (record(addr, id).await, json!({"seq": v["seq"], "view": v["view"], "status": v["game"]["status"]}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_are_refused_and_leave_the_game_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        c.max_connections_per_ip = 12;
        c.messages_per_second = 5.0;
        c.message_burst = 40.0;
    })
    .await;
    let g = create(addr, json!({"rules": "finkel", "mode": "online", "seat": "light"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let mut light = Client::join(addr, &id, g["token"].as_str()).await;
    let mut dark = Client::join(addr, &id, Some(&invite)).await;
    let mut watcher = Client::join(addr, &id, None).await;
    // Play until light must choose among open actions.
    let mut v = light.last.clone().unwrap();
    for _ in 0..200 {
        if v["view"]["turn"]["side"] == "light" && v["view"]["turn"]["stage"] == "act" {
            break;
        }
        let (mover, other) = if light.my_turn(&v) { (&mut light, &mut dark) } else { (&mut dark, &mut light) };
        mover.step(&v).await;
        v = mover.view().await;
        other.view().await;
    }
    // Let every socket catch up.
    let seq = v["seq"].as_u64().unwrap();
    while light.last.as_ref().unwrap()["seq"] != seq {
        light.view().await;
    }
    while dark.last.as_ref().unwrap()["seq"] != seq {
        dark.view().await;
    }
    assert_eq!(v["view"]["turn"]["stage"], "act");
    let before = snapshot(addr, &id).await;

    let mut refusals = Vec::new();
    light.send_raw(Message::Text("{nope".into())).await;
    refusals.push(("malformed JSON", light.error().await));
    light.send_raw(Message::Text(format!("{{\"t\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(5000)).into())).await;
    refusals.push(("oversized", light.error().await));
    light.send_raw(Message::Binary(vec![1u8, 2, 3].into())).await;
    refusals.push(("binary", light.error().await));
    light.send(json!({"t": "fly", "seq": seq})).await;
    refusals.push(("unknown type", light.error().await));
    light.send(json!({"t": "act", "seq": seq})).await;
    refusals.push(("act without index", light.error().await));
    dark.send(json!({"t": "act", "seq": seq, "index": 0})).await;
    refusals.push(("out of turn", dark.error().await));
    dark.send(json!({"t": "roll", "seq": seq, "value": 4})).await;
    refusals.push(("forged roll out of turn", dark.error().await));
    light.send(json!({"t": "act", "seq": seq, "index": 99})).await;
    refusals.push(("illegal index", light.error().await));
    light.send(json!({"t": "act", "seq": seq, "index": -1})).await;
    refusals.push(("negative index", light.error().await));
    light.send(json!({"t": "act", "seq": seq - 1, "index": 0})).await;
    refusals.push(("stale seq", light.error().await));
    light.send(json!({"t": "roll", "seq": seq, "value": 4})).await;
    refusals.push(("forged roll when a move is due", light.error().await));
    light.send(json!({"t": "hint", "seq": seq})).await;
    refusals.push(("hint in an online game", light.error().await));
    watcher.send(json!({"t": "act", "seq": seq, "index": 0})).await;
    refusals.push(("watcher's action", watcher.error().await));
    let codes: Vec<(&str, &str)> = refusals.iter().map(|(what, e)| (*what, e["code"].as_str().unwrap())).collect();
    assert_eq!(
        codes,
        [
            ("malformed JSON", "bad_message"),
            ("oversized", "too_large"),
            ("binary", "bad_message"),
            ("unknown type", "bad_message"),
            ("act without index", "bad_message"),
            ("out of turn", "not_your_turn"),
            ("forged roll out of turn", "not_your_turn"),
            ("illegal index", "illegal"),
            ("negative index", "bad_message"),
            ("stale seq", "stale"),
            ("forged roll when a move is due", "illegal"),
            ("hint in an online game", "no_hint"),
            ("watcher's action", "watcher"),
        ]
    );
    for (what, e) in &refusals {
        assert!(e["message"].as_str().unwrap().len() > 10, "{what}: {e}");
    }

    // Unknown and guessed game ids, a wrong token.
    for bad_id in ["0123456789abcdef0123456789abcdef", "..%2F..%2Fetc", "x"] {
        let mut c = Client::connect(addr, bad_id, None).await;
        assert_eq!(c.error().await["code"], "unknown_game", "{bad_id}");
        assert_eq!(c.next().await["t"], "closed");
    }
    let mut c = Client::connect(addr, &id, Some("00000000000000000000000000000000")).await;
    assert_eq!(c.error().await["code"], "bad_token");
    let (status, _) = http(addr, "GET", "/api/games/0123456789abcdef0123456789abcdef/record", None).await;
    assert_eq!(status, 404);

    // A flood: refused past the burst, then the socket is closed.
    let mut flood = Client::join(addr, &id, Some(&invite)).await;
    for _ in 0..400 {
        flood.send(json!({"t": "roll", "seq": seq})).await;
    }
    let (mut limited, mut closed) = (0, false);
    for _ in 0..400 {
        let m = flood.next().await;
        if m["t"] == "closed" {
            closed = true;
            break;
        }
        if m["code"] == "rate_limited" {
            limited += 1;
        }
    }
    assert!(limited > 100 && closed, "{limited} rate_limited, closed: {closed}");

    // Too many connections from one address.
    let mut open = Vec::new();
    let refused = loop {
        let mut c = Client::connect(addr, &id, None).await;
        let m = c.next().await;
        if m["t"] == "error" {
            break m;
        }
        open.push(c);
        assert!(open.len() < 20, "no connection cap");
    };
    assert_eq!(refused["code"], "too_many_connections");
    drop(open);

    // Bad game requests.
    let (status, body) = http(addr, "POST", "/api/games", Some("{\"rules\":")).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = http(addr, "POST", "/api/games", Some(&json!({"rules": "nope", "mode": "bot"}).to_string())).await;
    assert_eq!((status, serde_json::from_str::<Value>(&body).unwrap()["code"].clone()), (400, json!("bad_rules")));
    let big = json!({"rules_file": "#".repeat(70_000), "mode": "hotseat"}).to_string();
    let (status, body) = http(addr, "POST", "/api/games", Some(&big)).await;
    assert_eq!(status, 413, "{body}");

    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(snapshot(addr, &id).await, before, "the game is unchanged");

    // The server is up and the game goes on: light's legal move is taken.
    let mut light = Client::join(addr, &id, g["token"].as_str()).await;
    let v = light.last.clone().unwrap();
    light.step(&v).await;
    assert_eq!(light.view().await["seq"], seq + 1);
}
