//! The lobby: seeks made, listed, cancelled and accepted; quick match; the
//! lobby's live updates and the seeker told its game.

use crate::common;
use crate::social;

use serde_json::json;
use social::{call, lists_seek, ok, register, LobbySocket};
use ur_web::client::Client;

const FINKEL: &str = r#"{"rules": "finkel", "options": {"pieces": "3"}}"#;

fn seek_body(extra: serde_json::Value) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(FINKEL).unwrap();
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_listed_accepted_and_its_seeker_told_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let clock = json!({"initial_s": 180, "increment_s": 2});
    let seek = call(addr, "POST", "/api/seeks", Some(seek_body(json!({"clock": clock}))), &[]).await;
    assert_eq!(seek.status, 200, "{}", seek.json);
    let (id, secret) = (seek.json["id"].as_str().unwrap().to_string(), seek.json["secret"].as_str().unwrap().to_string());
    assert_eq!(seek.json["matched"], false);

    let lobby = call(addr, "GET", "/api/lobby", None, &[]).await;
    assert_eq!(lobby.status, 200);
    let listed = lobby.json["seeks"].as_array().unwrap().iter().find(|s| s["id"] == id.as_str()).expect("the seek is listed").clone();
    assert_eq!(listed["rules"], "finkel");
    assert_eq!(listed["clock"], clock);
    assert_eq!(listed["options"], json!({"pieces": "3"}));
    assert_eq!(listed["rated"], false);
    assert!(listed.get("secret").is_none(), "the secret is the seeker's only");

    let mut seeker = LobbySocket::open(addr, &format!("?seek={id}&secret={secret}")).await;
    let first = seeker.next().await;
    assert_eq!(first["t"], "lobby");
    assert!(lists_seek(&first, &id));

    let got = call(addr, "POST", &format!("/api/seeks/{id}/accept"), None, &[]).await;
    assert_eq!(got.status, 200, "{}", got.json);
    let game = got.json["id"].as_str().unwrap().to_string();
    assert!(got.json["play"].as_str().unwrap().starts_with(&format!("/#/game/{game}?token=")));
    let told = seeker.until(|m| m["t"] == "matched").await;
    assert_eq!(told["id"], game.as_str());
    assert_eq!(told["token"], secret.as_str(), "the seeker plays with its seek's secret");
    assert_ne!(told["seat"], got.json["seat"], "the two have the two seats");

    // Both seats open with their tokens.
    let a = Client::join(addr, &game, got.json["token"].as_str()).await;
    let b = Client::join(addr, &game, Some(&secret)).await;
    assert_eq!(a.you, got.json["seat"]);
    assert_eq!(b.you, told["seat"]);
    assert_eq!(a.last.as_ref().unwrap()["game"]["rated"], false);
    assert_eq!(a.last.as_ref().unwrap()["game"]["players"], json!({"light": null, "dark": null}));

    // The seek is gone: accepted once only.
    let again = call(addr, "POST", &format!("/api/seeks/{id}/accept"), None, &[]).await;
    assert_eq!(again.status, 404);
    assert_eq!(again.json["code"], "unknown_seek");
    let lobby = call(addr, "GET", "/api/lobby", None, &[]).await;
    assert!(!lists_seek(&lobby.json, &id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_cancelled_by_its_secret_or_by_closing_its_socket() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let mut watcher = LobbySocket::open(addr, "").await;
    assert_eq!(watcher.next().await["t"], "lobby");

    let seek = ok(call(addr, "POST", "/api/seeks", Some(seek_body(json!({}))), &[]).await);
    let id = seek["id"].as_str().unwrap().to_string();
    watcher.until(|m| lists_seek(m, &id)).await;
    let wrong = call(addr, "DELETE", &format!("/api/seeks/{id}"), Some(json!({"secret": "nope"})), &[]).await;
    assert_eq!(wrong.status, 404);
    let gone = call(addr, "DELETE", &format!("/api/seeks/{id}"), Some(json!({"secret": seek["secret"]})), &[]).await;
    assert_eq!(gone.status, 200, "{}", gone.json);
    watcher.until(|m| m["t"] == "lobby" && !lists_seek(m, &id)).await;

    let seek = ok(call(addr, "POST", "/api/seeks", Some(seek_body(json!({}))), &[]).await);
    let id = seek["id"].as_str().unwrap().to_string();
    let held = LobbySocket::open(addr, &format!("?seek={id}&secret={}", seek["secret"].as_str().unwrap())).await;
    watcher.until(|m| lists_seek(m, &id)).await;
    held.close().await;
    watcher.until(|m| m["t"] == "lobby" && !lists_seek(m, &id)).await;
    let lobby = call(addr, "GET", "/api/lobby", None, &[]).await;
    assert!(!lists_seek(&lobby.json, &id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_pairs_two_players_asking_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let clock = json!({"initial_s": 60, "increment_s": 1});
    // Another rule set or clock is not a match.
    let other = call(addr, "POST", "/api/seeks", Some(json!({"rules": "blitz", "clock": clock, "quick": true})), &[]).await;
    assert_eq!(other.json["matched"], false, "{}", other.json);
    let first = call(addr, "POST", "/api/seeks", Some(seek_body(json!({"clock": clock, "quick": true}))), &[]).await;
    assert_eq!(first.json["matched"], false, "{}", first.json);
    let slower =
        call(addr, "POST", "/api/seeks", Some(seek_body(json!({"clock": {"initial_s": 300, "increment_s": 3}, "quick": true}))), &[]).await;
    assert_eq!(slower.json["matched"], false);

    let id = first.json["id"].as_str().unwrap().to_string();
    let secret = first.json["secret"].as_str().unwrap().to_string();
    let mut seeker = LobbySocket::open(addr, &format!("?seek={id}&secret={secret}")).await;
    seeker.next().await;
    let second = call(addr, "POST", "/api/seeks", Some(seek_body(json!({"clock": clock, "quick": true}))), &[]).await;
    assert_eq!(second.status, 200, "{}", second.json);
    assert_eq!(second.json["matched"], true, "{}", second.json);
    let game = second.json["id"].as_str().unwrap();
    let told = seeker.until(|m| m["t"] == "matched").await;
    assert_eq!(told["id"], game);
    let a = Client::join(addr, game, second.json["token"].as_str()).await;
    let b = Client::join(addr, game, Some(&secret)).await;
    assert!(a.you == "light" || a.you == "dark");
    assert_ne!(a.you, b.you);
    let lobby = call(addr, "GET", "/api/lobby", None, &[]).await;
    assert!(lists_seek(&lobby.json, other.json["id"].as_str().unwrap()));
    assert!(lists_seek(&lobby.json, slower.json["id"].as_str().unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_quick_matches_sent_at_once_pair_with_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let body = seek_body(json!({"clock": {"initial_s": 180, "increment_s": 2}, "quick": true}));
    for round in 0..8 {
        let (a, b) = tokio::join!(
            call(addr, "POST", "/api/seeks", Some(body.clone()), &[]),
            call(addr, "POST", "/api/seeks", Some(body.clone()), &[])
        );
        let matched = [&a, &b].iter().filter(|r| r.json["matched"] == true).count();
        assert_eq!(matched, 1, "round {round}: one waits and the other takes its seek: {} {}", a.json, b.json);
    }
    let lobby = call(addr, "GET", "/api/lobby", None, &[]).await;
    assert_eq!(lobby.json["seeks"], json!([]), "no seek is left waiting: {}", lobby.json);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_seeks_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    for (body, code) in [
        (json!({"rules": "nonesuch"}), "bad_rules"),
        (json!({"rules": "finkel", "options": {"pieces": "99"}}), "bad_rules"),
        (json!({"rules": "finkel", "clock": {"initial_s": 0, "increment_s": 0}}), "bad_clock"),
        (json!({"rules": "finkel", "clock": "fast"}), "bad_clock"),
        (json!({"rules": "finkel", "rated": true}), "not_signed_in"),
        (json!({"rules": "finkel", "colour": "red"}), "bad_request"),
    ] {
        let a = call(addr, "POST", "/api/seeks", Some(body.clone()), &[]).await;
        assert_eq!(a.status, 400, "{body}: {}", a.json);
        assert_eq!(a.json["code"], code, "{body}: {}", a.json);
        assert!(a.json["message"].as_str().unwrap().len() > 20);
    }
    let a = call(addr, "POST", "/api/seeks/nope/accept", None, &[]).await;
    assert_eq!(a.status, 404);
    // A rated seek is accepted by accounts only, and never by its own seeker.
    let cookie = register(addr, "seeker").await;
    let rated = call(addr, "POST", "/api/seeks", Some(json!({"rules": "finkel", "rated": true})), &[("Cookie", &cookie)]).await;
    assert_eq!(rated.status, 200, "{}", rated.json);
    let path = format!("/api/seeks/{}/accept", rated.json["id"].as_str().unwrap());
    assert_eq!(call(addr, "POST", &path, None, &[]).await.json["code"], "not_signed_in");
    assert_eq!(call(addr, "POST", &path, None, &[("Cookie", &cookie)]).await.json["code"], "own_seek");
    // From another site's page: refused.
    let a = call(addr, "POST", "/api/seeks", Some(json!({"rules": "finkel"})), &[("Origin", "https://evil.example")]).await;
    assert_eq!(a.status, 403);
    assert_eq!(a.json["code"], "cross_origin");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_are_rate_limited_like_games() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), |c| c.games_per_second = 1.0).await;
    let mut limited = None;
    for _ in 0..40 {
        let a = call(addr, "POST", "/api/seeks", Some(json!({"rules": "finkel"})), &[]).await;
        if a.status == 429 {
            limited = Some(a);
            break;
        }
    }
    let a = limited.expect("seeks are limited");
    assert_eq!(a.json["code"], "rate_limited");
}
