//! The review over HTTP: a finished game's, an uploaded record's, and the
//! refusals (a game in play, junk, too large, too long, an illegal record),
//! and a tower game judged by the rollout judge.

use crate::common;

use common::*;
use serde_json::{json, Value};
use ur_rules::Playable;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_and_its_uploaded_record_get_the_same_review() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let id = finished_hotseat(addr).await;
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}/review"), None).await;
    assert_eq!(status, 200, "{body}");
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["rules"]["id"], "finkel");
    assert_eq!(doc["judge"]["name"], "net:2");
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
    let tower = json!({"version": 2, "rules": "guard-d6", "family": "tower", "first": "light", "steps": [{"roll": 99}]}).to_string();
    refused(http(addr, "POST", "/api/review", Some(&tower)).await, 422, "99");
}

/// A game of `id` played to its end by two greedy bots, as its record's JSON.
fn bot_game(id: &str, seed: u64) -> String {
    let mut s = ur_session::Session::new(&ur_session::NewGame::builtin(id), &ur_session::NoTables).unwrap();
    s.seed_dice(seed);
    for _ in 0..5000 {
        match s.game().turn() {
            ur_rules::Turn::Over(_) => break,
            ur_rules::Turn::Roll(_) => {
                s.roll_dice().unwrap();
            }
            ur_rules::Turn::Decide(_) => {
                let best = s.bestmove("greedy", seed).unwrap();
                s.act(&best.action).unwrap();
            }
        }
    }
    assert!(matches!(s.game().turn(), ur_rules::Turn::Over(_)), "{id}: the bots finish");
    serde_json::to_string(&s.record()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tower_game_is_reviewed_by_the_rollout_judge() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let record = bot_game("guard-d6", 4);
    let steps = serde_json::from_str::<Value>(&record).unwrap()["steps"].as_array().unwrap().len();
    let (status, body) = http(addr, "POST", "/api/review", Some(&record)).await;
    assert_eq!(status, 200, "{body}");
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["rules"]["family"], "tower");
    let judge = &doc["judge"];
    let trials = ur_web::review_api::rollout_trials(steps);
    assert!(judge["name"].as_str().unwrap().starts_with(&format!("rollout:{trials}")), "{judge}");
    assert_eq!(judge["exact"], false);
    assert_eq!(judge["confidence"], 0.95);
    assert_eq!(judge["sureness"]["trials"], trials);
    assert!(judge["interval"].as_f64().unwrap() > 0.0, "{judge}");
    let all = doc["steps"].as_array().unwrap();
    assert_eq!(all.len(), steps);
    assert!(doc["winner"] == "light" || doc["winner"] == "dark");
    let decisions: Vec<&Value> = all.iter().filter(|s| s["kind"] == "decision").collect();
    assert!(!decisions.is_empty(), "a tower game has choices");
    for d in decisions {
        assert!(d["interval"].as_f64().unwrap() > 0.0 && d["loss_interval"].is_number() && d["sure"].is_boolean(), "{d}");
    }
    assert!(all.iter().filter(|s| s["kind"] == "roll").all(|r| r["interval"].is_number()));
    let (_, again) = http(addr, "POST", "/api/review", Some(&record)).await;
    assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), doc, "a seeded judge: the same review twice");
}
