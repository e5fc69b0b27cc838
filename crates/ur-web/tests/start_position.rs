//! Games created from a position string: they start there (the view shows
//! the string), a bad string is refused, and a server that reads the game
//! back from the database (as after a restart) rebuilds it from the same
//! start.

mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_starts_from_a_position_string_and_is_rebuilt_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    for (rules, start) in [("finkel", "l:469.1,2d/2"), ("guard-d6", "d:A3l.M2dl,e0.2"), ("ludens-akalandung", "l:13w4t6.1,2")] {
        let g = create(addr, json!({"rules": rules, "mode": "hotseat", "position": start})).await;
        let id = g["id"].as_str().unwrap();
        let mut p = Client::join(addr, id, g["token"].as_str()).await;
        let mut v = p.last.clone().unwrap();
        assert_eq!(v["view"]["position_string"], start, "{rules}: {v}");
        for _ in 0..3 {
            p.step(&v).await;
            v = p.view().await;
        }
        // Another server on the same database builds the game from its rows.
        let other = server(dir.path(), fast).await;
        let q = Client::join(other, id, None).await;
        let w = q.last.clone().unwrap();
        assert_eq!(w["view"]["position_string"], v["view"]["position_string"], "{rules}");
        assert_eq!(w["view"]["position"], v["view"]["position"], "{rules}");
        replays(&record(addr, id).await);
    }
    let (status, body) = http(addr, "POST", "/api/games", Some(r#"{"rules":"finkel","mode":"hotseat","position":"l:5,5"}"#)).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("bad_position") && body.contains("not a legal position"), "{body}");
}
