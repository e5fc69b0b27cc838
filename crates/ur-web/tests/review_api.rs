//! The review over HTTP: a finished game's, an uploaded record's, and the
//! refusals (a game in play, junk, too large, too long, a family no judge reviews).

mod common;

use common::*;
use serde_json::{json, Value};

/// A hot-seat game of Finkel with 2 pieces, played to the end; its id.
async fn finished_game(addr: std::net::SocketAddr) -> String {
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat", "options": {"pieces": 2}})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut p = Client::join(addr, &id, g["token"].as_str()).await;
    let mut v = p.last.clone().unwrap();
    for _ in 0..5000 {
        if over(&v) {
            break;
        }
        p.step(&v).await;
        v = p.view().await;
    }
    assert!(over(&v));
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_and_its_uploaded_record_get_the_same_review() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let id = finished_game(addr).await;
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, 200, "{body}");
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["rules"]["id"], "finkel");
    assert_eq!(doc["judge"]["name"], "expectimax:3");
    let steps = doc["steps"].as_array().unwrap().len();
    assert!(steps > 10);
    assert_eq!(doc["light_win"].as_array().unwrap().len(), steps);
    assert!(doc["winner"] == "light" || doc["winner"] == "dark");
    let (status, uploaded) = http(addr, "POST", "/api/review", Some(&record(addr, &id).await)).await;
    assert_eq!(status, 200, "{uploaded}");
    assert_eq!(serde_json::from_str::<Value>(&uploaded).unwrap(), doc);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_cannot_be_reviewed_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let refused = |(status, body): (u16, String), want: u16, words: &str| {
        assert_eq!(status, want, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(v["message"].as_str().unwrap().contains(words), "{body}");
    };
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let playing = g["id"].as_str().unwrap();
    refused(http(addr, "GET", &format!("/api/games/{playing}/review"), None).await, 409, "still being played");
    refused(http(addr, "GET", &format!("/api/games/{}/review", "0".repeat(32)), None).await, 404, "no game");
    refused(http(addr, "POST", "/api/review", Some("not json")).await, 400, "not a valid game record");
    refused(http(addr, "POST", "/api/review", Some(r#"{"version":1,"rules":"finkel"}"#)).await, 400, "not a valid game record");
    let big = format!(r#"{{"pad":"{}"}}"#, "x".repeat(600 * 1024));
    refused(http(addr, "POST", "/api/review", Some(&big)).await, 413, "at most 524288 are taken");
    let long = json!({"version": 1, "rules": "finkel", "first": "light", "actions": vec![json!({"roll": 0}); 6000]}).to_string();
    refused(http(addr, "POST", "/api/review", Some(&long)).await, 413, "a review takes at most 5000");
    let tower = json!({"version": 2, "rules": "guard-d6", "family": "tower", "first": "light", "steps": []}).to_string();
    refused(http(addr, "POST", "/api/review", Some(&tower)).await, 422, "guard-d6");
}
