//! Whole games over websockets: against a bot, hot-seat, online with a watcher.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_on_finkel_plays_to_the_end_and_its_record_replays() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let g = create(addr, json!({"rules": "finkel", "mode": "bot", "bot": "2", "seat": "light"})).await;
    assert_eq!(g["seat"], "light");
    let id = g["id"].as_str().unwrap();
    let mut p = Client::join(addr, id, g["token"].as_str()).await;
    assert_eq!(p.you, "light");
    let mut v = p.last.clone().unwrap();
    assert_eq!(v["game"]["seats"]["dark"]["kind"], "bot");
    let mut hints = 0;
    for _ in 0..5000 {
        if over(&v) {
            break;
        }
        if p.my_turn(&v) {
            if v["view"]["turn"]["stage"] == "act" && hints < 3 {
                p.send(json!({"t": "hint", "seq": v["seq"]})).await;
                let h = p.next().await;
                assert_eq!(h["t"], "hint", "{h}");
                assert_eq!(h["judge"], "search");
                hints += 1;
            }
            p.step(&v).await;
        }
        v = p.view().await;
    }
    assert!(over(&v), "the game ended");
    assert_eq!(v["game"]["status"], "over");
    let winner = v["view"]["winner"].as_str().unwrap().to_string();
    assert_eq!(v["game"]["winner"], winner.as_str());
    // The views came one by one, none skipped.
    let first = p.views[0];
    assert!(p.views.iter().enumerate().all(|(i, s)| *s == first + i as u64), "{:?}", p.views);
    match replays(&record(addr, id).await) {
        ur_session::SavedGame::Race(r) => assert_eq!(r.replay().unwrap().winner().map(|s| format!("{s:?}").to_lowercase()), Some(winner)),
        _ => panic!("finkel is a race"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hotseat_game_of_each_family_plays_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    for rules in ["v1-named-birds", "bens-ur", "ravensburg-1977"] {
        let g = create(addr, json!({"rules": rules, "mode": "hotseat"})).await;
        assert_eq!(g["seat"], "both");
        let id = g["id"].as_str().unwrap();
        let mut p = Client::join(addr, id, g["token"].as_str()).await;
        let mut v = p.last.clone().unwrap();
        for _ in 0..20_000 {
            if over(&v) {
                break;
            }
            p.step(&v).await;
            v = p.view().await;
        }
        assert!(over(&v), "{rules}: the game ended");
        replays(&record(addr, id).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_game_by_link_with_a_watcher_who_sees_every_view_and_cannot_act() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let g = create(addr, json!({"rules": "finkel", "mode": "online", "seat": "dark", "options": {"pieces": "3"}})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap();
    let invite_token = invite.split("token=").nth(1).unwrap();
    let mut dark = Client::join(addr, id, g["token"].as_str()).await;
    let mut light = Client::join(addr, id, Some(invite_token)).await;
    let mut watcher = Client::join(addr, id, None).await;
    assert_eq!((dark.you.as_str(), light.you.as_str(), watcher.you.is_null()), (Some("dark"), Some("light"), true));
    // The watcher's roll is refused.
    watcher.send(json!({"t": "roll", "seq": 0})).await;
    assert_eq!(watcher.error().await["code"], "watcher");
    let mut v = light.last.clone().unwrap();
    let mut steps = 0;
    while !over(&v) && steps < 3000 {
        let seq = v["seq"].as_u64().unwrap();
        let (mover, other) = if light.my_turn(&v) { (&mut light, &mut dark) } else { (&mut dark, &mut light) };
        mover.step(&v).await;
        let a = mover.view().await;
        let b = other.view().await;
        assert_eq!(a["seq"], seq + 1);
        assert_eq!(a["view"], b["view"]);
        v = a;
        steps += 1;
    }
    assert!(over(&v));
    // The watcher saw every view, in order.
    while watcher.views.last() != v["seq"].as_u64().as_ref() {
        watcher.view().await;
    }
    assert_eq!(watcher.views, (0..=v["seq"].as_u64().unwrap()).collect::<Vec<_>>());
    assert_eq!(watcher.last.as_ref().unwrap()["view"], v["view"]);
    watcher.send(json!({"t": "act", "seq": v["seq"], "index": 0})).await;
    assert_eq!(watcher.error().await["code"], "watcher");
    replays(&record(addr, id).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_has_until_the_deadline_to_come_back_then_the_game_is_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        fast(c);
        c.reconnect = std::time::Duration::from_millis(1500);
    })
    .await;
    let g = create(addr, json!({"rules": "aseb", "mode": "online", "seat": "light"})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let mut light = Client::join(addr, id, g["token"].as_str()).await;
    let dark = Client::join(addr, id, Some(&invite)).await;
    let v = light.last.clone().unwrap();
    light.step(&v).await;
    assert_eq!(light.view().await["game"]["seats"]["dark"]["connected"], true);
    let presence = |m: &serde_json::Value| m["t"] == "presence";
    // Dark drops: light sees it with a deadline, dark comes back in time.
    drop(dark);
    let mut m = light.next().await;
    while !presence(&m) {
        m = light.next().await;
    }
    assert_eq!(m["seats"]["dark"]["connected"], false);
    let deadline = m["seats"]["dark"]["deadline"].as_i64().expect("a deadline");
    assert!(deadline > ur_web::store::now_ms());
    let dark = Client::join(addr, id, Some(&invite)).await;
    assert_eq!(dark.last.as_ref().unwrap()["game"]["status"], "playing");
    let mut m = light.next().await;
    while !presence(&m) {
        m = light.next().await;
    }
    assert_eq!((m["seats"]["dark"]["connected"].clone(), m["seats"]["dark"]["deadline"].clone()), (json!(true), json!(null)));
    tokio::time::sleep(std::time::Duration::from_millis(2000)).await;
    // Gone past the deadline: abandoned, light wins, and it is stored.
    drop(dark);
    let v = light.view().await;
    assert_eq!((v["game"]["status"].as_str(), v["game"]["winner"].as_str()), (Some("abandoned"), Some("light")));
    let mut w = Client::join(addr, id, None).await;
    assert_eq!(w.last.take().unwrap()["game"]["status"], "abandoned");
    replays(&record(addr, id).await);
}
