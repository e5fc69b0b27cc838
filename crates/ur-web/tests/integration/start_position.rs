//! Games created from a position string: they start there (the view shows
//! the string), a bad string is refused, and a server that reads the game
//! back from the database after a restart rebuilds it from the same start.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_starts_from_a_position_string_and_is_rebuilt_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Apart::start(config(dir.path())).await.unwrap();
    for (rules, start) in [("finkel", "l:469.1,2d/2"), ("guard-d6", "d:A3l.M2dl,e0.2"), ("ludens-akalandung", "l:13w4t6.1,2")] {
        let addr = server.addr;
        let g = create(addr, json!({"rules": rules, "mode": "hotseat", "position": start})).await;
        let id = g["id"].as_str().unwrap();
        let mut p = Client::join(addr, id, g["token"].as_str()).await;
        let mut v = p.last.clone().unwrap();
        assert_eq!(v["view"]["position_string"], start, "{rules}: {v}");
        for _ in 0..3 {
            p.step(&v).await;
            v = p.view().await;
        }
        // A server started again on the same database builds the game from its rows.
        server.stop().await;
        server = Apart::start(config(dir.path())).await.unwrap();
        let q = Client::join(server.addr, id, None).await;
        let w = q.last.clone().unwrap();
        assert_eq!(w["view"]["position_string"], v["view"]["position_string"], "{rules}");
        assert_eq!(w["view"]["position"], v["view"]["position"], "{rules}");
        replays(&record(server.addr, id).await);
    }
    let (status, body) = http(server.addr, "POST", "/api/games", Some(r#"{"rules":"finkel","mode":"hotseat","position":"l:5,5"}"#)).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("bad_position") && body.contains("not a legal position"), "{body}");
    server.stop().await;
}
