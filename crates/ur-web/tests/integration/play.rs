//! The server-built log (passes included), resigning, draws, rematches and clocks.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// Appends a view's log part to `log` (`log_from` on), as the page does.
fn take_log(log: &mut Vec<Value>, v: &Value) {
    let from = v["log_from"].as_u64().unwrap_or(0) as usize;
    assert!(from <= log.len(), "log_from {from} past the {} entries held", log.len());
    log.truncate(from);
    log.extend(v["log"].as_array().expect("every view carries log").iter().cloned());
}

fn token_of(link: &str) -> &str {
    link.split("token=").nth(1).unwrap()
}

/// An online game's two players (light, dark).
async fn online(addr: std::net::SocketAddr, req: Value) -> (String, Client, Client, Value) {
    let g = create(addr, req).await;
    let id = g["id"].as_str().unwrap().to_string();
    let me = Client::join(addr, &id, g["token"].as_str()).await;
    let them = Client::join(addr, &id, Some(token_of(g["invite"].as_str().unwrap()))).await;
    let (light, dark) = if me.you == "light" { (me, them) } else { (them, me) };
    (id, light, dark, g)
}

/// The next view whose game satisfies `done`.
async fn view_until(c: &mut Client, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = c.view().await;
        if done(&v) {
            return v;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_comes_whole_on_the_first_view_then_in_increments_with_every_pass() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let mut passes = 0;
    for _ in 0..20 {
        let g = create(addr, json!({"rules": "finkel", "mode": "hotseat", "options": {"pieces": 3}})).await;
        let id = g["id"].as_str().unwrap().to_string();
        let mut p = Client::join(addr, &id, g["token"].as_str()).await;
        let mut v = p.last.clone().unwrap();
        assert_eq!(v["log"], json!([]), "a new game's log is empty");
        let mut log = Vec::new();
        take_log(&mut log, &v);
        for _ in 0..5000 {
            if over(&v) {
                break;
            }
            p.step(&v).await;
            v = p.view().await;
            take_log(&mut log, &v);
            assert_eq!(log.len() as u64, v["seq"].as_u64().unwrap(), "one entry per stored step");
        }
        assert!(over(&v));
        // A late watcher (or a reload) gets the whole log at once.
        let w = Client::join(addr, &id, None).await;
        let first = w.last.clone().unwrap();
        assert_eq!(first["log"].as_array().unwrap(), &log);
        let mut last_n = 0;
        let mut last_side = Value::Null;
        for e in &log {
            let n = e["n"].as_u64().unwrap();
            assert!(n == last_n || (n == last_n + 1 && e["side"] != last_side), "turns are numbered in order: {e}");
            (last_n, last_side) = (n, e["side"].clone());
            match (e["throw"].is_null(), e["action"].is_null()) {
                (false, true) => {
                    assert!(e["words"][0]["key"].as_str().unwrap().starts_with("throw."), "{e}");
                    assert!(e["dice"]["dice"].is_array(), "{e}");
                    if e["pass"] == true {
                        passes += 1;
                        // A zero, or a throw every move of which is blocked.
                        if e["throw"] == 0 {
                            assert_eq!(e["words"][1]["key"], "throw.no_move", "{e}");
                        }
                    }
                }
                (true, false) => assert!(e["words"][0]["key"].as_str().unwrap().starts_with("act."), "a move is worded as the move: {e}"),
                _ => panic!("an entry is a throw or an action: {e}"),
            }
        }
        assert_eq!(log[0]["n"], 1);
        if passes > 0 {
            break;
        }
    }
    assert!(passes > 0, "a pass was logged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_resigns_an_online_game_and_a_bot_game() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let (id, mut light, mut dark, _) = online(addr, json!({"rules": "finkel", "mode": "online", "seat": "light"})).await;
    dark.send(json!({"t": "resign"})).await;
    assert_eq!(dark.error().await["code"], "bad_message");
    dark.send(json!({"t": "resign", "seq": 0})).await;
    let v = view_until(&mut light, over).await;
    assert_eq!(
        (v["game"]["status"].as_str(), v["game"]["winner"].as_str(), v["game"]["end"].as_str()),
        (Some("over"), Some("light"), Some("resign"))
    );
    let last = v["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["action"].as_str(), last["side"].as_str(), last["words"][0]["key"].as_str()),
        (Some("resign"), Some("dark"), Some("log.resign"))
    );
    light.send(json!({"t": "resign", "seq": v["seq"]})).await;
    assert_eq!(light.error().await["code"], "over");
    // The record is the game as played; the resignation is stored.
    let again = Client::join(addr, &id, None).await;
    assert_eq!(again.last.as_ref().unwrap()["game"]["end"], "resign");

    let g = create(addr, json!({"rules": "finkel", "mode": "bot", "seat": "dark"})).await;
    let mut p = Client::join(addr, g["id"].as_str().unwrap(), g["token"].as_str()).await;
    let mut v = p.last.clone().unwrap();
    // The bot plays on meanwhile: a resign on a view it passed is stale, and is sent again.
    p.send(json!({"t": "resign", "seq": v["seq"]})).await;
    while !over(&v) {
        let m = p.next().await;
        match m["t"].as_str() {
            Some("view") => {
                v = m;
                p.send(json!({"t": "resign", "seq": v["seq"]})).await;
            }
            Some("error") => assert!(m["code"] == "stale" || m["code"] == "over", "{m}"),
            Some("closed") => panic!("closed"),
            _ => {}
        }
    }
    assert_eq!((v["game"]["winner"].as_str(), v["game"]["end"].as_str()), (Some("light"), Some("resign")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_is_offered_declined_then_agreed_in_a_tower_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let (_, mut light, mut dark, _) = online(addr, json!({"rules": "ravensburg-1977", "mode": "online", "seat": "light"})).await;
    light.send(json!({"t": "draw", "offer": true, "seq": 0})).await;
    let v = view_until(&mut dark, |v| v["seq"] == 1).await;
    assert_eq!(v["game"]["draw_offer"], "light");
    dark.send(json!({"t": "draw", "offer": false, "seq": 1})).await;
    let v = view_until(&mut light, |v| v["seq"] == 2).await;
    assert_eq!(v["game"]["draw_offer"], Value::Null);
    light.send(json!({"t": "draw", "offer": false, "seq": 2})).await;
    assert_eq!(light.error().await["code"], "illegal", "no offer to decline");
    dark.send(json!({"t": "draw", "offer": true, "seq": 2})).await;
    view_until(&mut light, |v| v["seq"] == 3).await;
    light.send(json!({"t": "draw", "offer": true, "seq": 3})).await;
    let v = view_until(&mut dark, over).await;
    assert_eq!((v["game"]["winner"].as_str(), v["game"]["end"].as_str()), (Some("draw"), Some("draw")));
    let keys: Vec<&str> = v["log"].as_array().unwrap().iter().map(|e| e["words"][0]["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["log.draw"]);

    let (_, mut light, _, _) = online(addr, json!({"rules": "finkel", "mode": "online", "seat": "light"})).await;
    light.send(json!({"t": "draw", "offer": true, "seq": 0})).await;
    let e = light.error().await;
    assert_eq!(e["code"], "no_draw", "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_begins_with_sides_swapped_when_both_accept() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let clock = json!({"initial_s": 300, "increment_s": 3});
    let (_, mut light, mut dark, _) = online(addr, json!({"rules": "finkel", "mode": "online", "seat": "light", "clock": clock})).await;
    light.send(json!({"t": "rematch", "accept": true})).await;
    assert_eq!(light.error().await["code"], "no_rematch", "not while the game is played");
    light.send(json!({"t": "resign", "seq": 0})).await;
    view_until(&mut dark, over).await;
    light.send(json!({"t": "rematch", "accept": true})).await;
    let v = view_until(&mut dark, |v| !v["game"]["rematch"].is_null()).await;
    assert_eq!(v["game"]["rematch"], json!({"offered": ["light"], "game": null}));
    dark.send(json!({"t": "rematch", "accept": true})).await;
    let mut told = Vec::new();
    for c in [&mut light, &mut dark] {
        loop {
            let m = c.next().await;
            assert_ne!(m["t"], "closed");
            if m["t"] == "rematch" {
                told.push(m);
                break;
            }
        }
    }
    assert_eq!(told[0]["id"], told[1]["id"]);
    assert_eq!((told[0]["seat"].as_str(), told[1]["seat"].as_str()), (Some("dark"), Some("light")), "sides swapped");
    let id = told[0]["id"].as_str().unwrap();
    assert_eq!(told[0]["url"], format!("/#/game/{id}?token={}", told[0]["token"].as_str().unwrap()));
    let was_light = Client::join(addr, id, told[0]["token"].as_str()).await;
    let was_dark = Client::join(addr, id, told[1]["token"].as_str()).await;
    assert_eq!((was_light.you.as_str(), was_dark.you.as_str()), (Some("dark"), Some("light")));
    let g = &was_light.last.as_ref().unwrap()["game"];
    assert_eq!((g["clock"]["initial_s"].as_i64(), g["clock"]["increment_s"].as_i64()), (Some(300), Some(3)), "the clock is kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_is_refused_with_its_fix_outside_online_games_or_out_of_range() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    for (req, says) in [
        (json!({"rules": "finkel", "mode": "bot", "clock": {"initial_s": 60}}), "online games"),
        (json!({"rules": "finkel", "mode": "online", "clock": {"initial_s": 0}}), "from 1"),
        (json!({"rules": "finkel", "mode": "online", "clock": {"initial_s": 60, "increment_s": -1}}), "from 0"),
        (json!({"rules": "finkel", "mode": "online", "clock": "5+3"}), "object"),
    ] {
        let (status, body) = http(addr, "POST", "/api/games", Some(&req.to_string())).await;
        assert_eq!(status, 400, "{body}");
        let e: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(e["code"], "bad_clock", "{body}");
        assert!(e["message"].as_str().unwrap().contains(says), "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_for_the_side_to_play_and_flags_while_both_sockets_are_closed() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let clock = json!({"initial_s": 1, "increment_s": 0});
    let (id, mut light, mut dark, _) = online(addr, json!({"rules": "finkel", "mode": "online", "seat": "light", "clock": clock})).await;
    let v = light.last.clone().unwrap();
    assert_eq!(v["game"]["clock"]["running"], Value::Null, "the clocks start with the first step");
    assert_eq!(v["game"]["clock"]["light_ms"], 1000);
    light.send(json!({"t": "roll", "seq": 0})).await;
    let v = view_until(&mut dark, |v| v["seq"] == 1).await;
    assert!(v["game"]["clock"]["running"].is_string(), "{}", v["game"]);
    assert!(v["log"][0]["clock_ms"].is_i64(), "each step keeps its clock: {}", v["log"]);
    drop((light, dark));
    // Nobody is connected: the server alone sees the time run out.
    let mut status = String::new();
    for _ in 0..400 {
        let (_, body) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
        status = serde_json::from_str::<Value>(&body).unwrap()["status"].as_str().unwrap().to_string();
        if status != "playing" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(status, "over");
    let w = Client::join(addr, &id, None).await;
    let g = &w.last.as_ref().unwrap()["game"];
    assert_eq!(g["end"], "time");
    let flagged = w.last.as_ref().unwrap()["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((flagged["action"].as_str(), flagged["clock_ms"].as_i64()), (Some("flag"), Some(0)));
    let loser = flagged["side"].as_str().unwrap();
    assert_eq!(g["clock"][format!("{loser}_ms").as_str()], 0);
    assert_ne!(g["winner"].as_str(), Some(loser));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_ran_out_while_the_server_was_down_flags_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = |dir: &std::path::Path| {
        let mut c = ur_web::Config::new("127.0.0.1:0", ur_web::Db::Sqlite(dir.join("games.sqlite3")));
        c.quiet = true;
        c
    };
    let server = Apart::start(cfg(dir.path())).await.unwrap();
    let clock = json!({"initial_s": 600, "increment_s": 5});
    let (id, mut light, _dark, _) =
        online(server.addr, json!({"rules": "finkel", "mode": "online", "seat": "light", "clock": clock})).await;
    light.send(json!({"t": "roll", "seq": 0})).await;
    view_until(&mut light, |v| v["seq"] == 1).await;
    drop((light, _dark));
    server.stop().await;
    // Ten minutes and more pass while the server is down.
    let db = rusqlite::Connection::open(dir.path().join("games.sqlite3")).unwrap();
    let moved = db.execute("UPDATE events SET at_ms = at_ms - 900000 WHERE game = ?1", [&id]).unwrap();
    assert_eq!(moved, 1);
    drop(db);
    let server = Apart::start(cfg(dir.path())).await.unwrap();
    let mut w = Client::join(server.addr, &id, None).await;
    let v = if over(w.last.as_ref().unwrap()) { w.last.clone().unwrap() } else { view_until(&mut w, over).await };
    assert_eq!((v["game"]["status"].as_str(), v["game"]["end"].as_str()), (Some("over"), Some("time")));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_keeps_each_steps_clock_and_rgn_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let clock = json!({"initial_s": 60, "increment_s": 1});
    let (id, mut light, mut dark, _) = online(addr, json!({"rules": "finkel", "mode": "online", "seat": "light", "clock": clock})).await;
    let mut v = light.last.clone().unwrap();
    for _ in 0..12 {
        let (mover, watcher) = if light.my_turn(&v) { (&mut light, &mut dark) } else { (&mut dark, &mut light) };
        mover.step(&v).await;
        let seq = v["seq"].as_u64().unwrap();
        v = view_until(watcher, |w| w["seq"].as_u64() > Some(seq)).await;
        mover.last = Some(view_until(mover, |w| w["seq"] == v["seq"]).await);
    }
    dark.send(json!({"t": "resign", "seq": v["seq"]})).await;
    view_until(&mut light, over).await;

    let saved: Value = serde_json::from_str(&record(addr, &id).await).unwrap();
    let tags: std::collections::HashMap<String, String> =
        serde_json::from_value::<Vec<(String, String)>>(saved["tags"].clone()).unwrap().into_iter().collect();
    assert_eq!(tags.get("TimeControl").map(String::as_str), Some("60+1"), "{}", saved["tags"]);
    assert_eq!(tags.get("Termination").map(String::as_str), Some("resignation"));
    let clocks: Vec<i64> = tags["UrClocks"].split(' ').map(|ms| ms.parse().unwrap()).collect();
    assert_eq!(clocks.len(), saved["actions"].as_array().unwrap().len(), "one clock per action");
    assert!(clocks.iter().all(|ms| (50_000..=66_000).contains(ms)), "{clocks:?}");

    let (status, rgn) = http(addr, "GET", &format!("/api/games/{id}/record?format=rgn"), None).await;
    assert_eq!(status, 200, "{rgn}");
    assert!(rgn.contains("[TimeControl \"60+1\"]") && rgn.contains(&format!("[UrClocks \"{}\"]", tags["UrClocks"])), "{rgn}");
    let back = ur_session::rgn::read_games(&rgn, None).unwrap();
    assert_eq!(serde_json::to_value(&back[0]).unwrap()["tags"], saved["tags"], "the RGN reads back to the same record");
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}/record?format=pgn"), None).await;
    assert_eq!((status, body.contains("json or rgn")), (400, true), "{body}");
}
