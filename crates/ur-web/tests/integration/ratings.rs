//! Ratings: a rated game between two accounts changes both Glicko-2
//! ratings once when it ends; the player page and the leaderboard show it.

use crate::common;
use crate::social;

use std::time::Duration;

use serde_json::{json, Value};
use social::{call, eventually, ok, play_out, register, LobbySocket};
use ur_web::client::Client;

/// Alice's rated seek accepted by Bob, played to the end; the game's id and last view.
async fn rated_game(addr: std::net::SocketAddr, alice: &str, bob: &str) -> (String, Value) {
    let seek = ok(call(
        addr,
        "POST",
        "/api/seeks",
        Some(json!({"rules": "finkel", "options": {"pieces": "3"}, "rated": true})),
        &[("Cookie", alice)],
    )
    .await);
    let (id, secret) = (seek["id"].as_str().unwrap(), seek["secret"].as_str().unwrap());
    let mut lobby = LobbySocket::open(addr, &format!("?seek={id}&secret={secret}")).await;
    lobby.next().await;
    let got = ok(call(addr, "POST", &format!("/api/seeks/{id}/accept"), None, &[("Cookie", bob)]).await);
    let game = got["id"].as_str().unwrap().to_string();
    lobby.until(|m| m["t"] == "matched").await;
    let mut b = Client::join(addr, &game, got["token"].as_str()).await;
    let mut a = Client::join(addr, &game, Some(secret)).await;
    let g = &a.last.as_ref().unwrap()["game"];
    assert_eq!(g["rated"], true);
    let alice_side = a.you.as_str().unwrap().to_string();
    let bob_side = b.you.as_str().unwrap().to_string();
    assert_eq!(g["players"][&alice_side], "alice");
    assert_eq!(g["players"][&bob_side], "bob");
    let last = play_out(&mut a, &mut b).await;
    assert_eq!(last["game"]["status"], "over");
    (game, last)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_changes_both_ratings_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = ur_web::Config::new("127.0.0.1:0", ur_web::Db::Sqlite(dir.path().join("games.sqlite3")));
    cfg.bot_delay = Duration::ZERO;
    cfg.quiet = true;
    common::fast(&mut cfg);
    let server = ur_web::start(cfg).await.unwrap();
    let (addr, hub) = (server.local_addr(), server.hub());
    tokio::spawn(server.run());
    let alice = register(addr, "alice").await;
    let bob = register(addr, "bob").await;
    let (game, last) = rated_game(addr, &alice, &bob).await;
    let winner = last["game"]["winner"].as_str().unwrap().to_string();
    let players = &last["game"]["players"];
    let (won, lost) = if players[&winner] == "alice" { ("alice", "bob") } else { ("bob", "alice") };

    let rated = |p: &Value| p["ratings"].as_array().is_some_and(|r| r.iter().any(|r| r["rules"] == "finkel"));
    let w = eventually(addr, &format!("/api/players/{won}"), rated).await;
    let l = eventually(addr, &format!("/api/players/{lost}"), rated).await;
    assert_eq!(w["ratings"][0]["games"], 1);
    assert_eq!(l["ratings"][0]["games"], 1);
    assert!(w["ratings"][0]["rating"].as_f64().unwrap() > 1500.0, "{w}");
    assert!(l["ratings"][0]["rating"].as_f64().unwrap() < 1500.0, "{l}");
    assert!(w["ratings"][0]["deviation"].as_f64().unwrap() < 350.0);
    assert_eq!(w["history"].as_array().unwrap().len(), 1);
    assert_eq!(w["history"][0]["game"], game.as_str());
    assert_eq!(w["archive"][0]["id"], game.as_str());
    assert_eq!(w["archive"][0]["result"], "win");
    assert_eq!(l["archive"][0]["result"], "loss");
    assert_eq!(l["archive"][0]["review"], format!("/#/review/{game}"));

    // Applied once: asking again changes nothing.
    assert!(!ur_web::ratings::apply(&hub, &game).await.unwrap());
    ur_web::ratings::game_over(&hub, &game);
    let again = ok(call(addr, "GET", &format!("/api/players/{won}"), None, &[]).await);
    assert_eq!(again["ratings"], w["ratings"]);

    let board = ok(call(addr, "GET", "/api/leaderboard/finkel", None, &[]).await);
    let names: Vec<&str> = board["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, [won, lost]);
    assert_eq!(board["players"][0]["rank"], 1);
    let empty = ok(call(addr, "GET", "/api/leaderboard/blitz", None, &[]).await);
    assert_eq!(empty["players"], json!([]));
    let unknown = call(addr, "GET", "/api/leaderboard/nonesuch", None, &[]).await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json["code"], "unknown_rules");
    let nobody = call(addr, "GET", "/api/players/nobody", None, &[]).await;
    assert_eq!(nobody.status, 404);
    assert_eq!(nobody.json["code"], "unknown_player");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unrated_game_or_one_without_two_accounts_changes_no_rating() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let alice = register(addr, "alice").await;
    // Alice plays an anonymous player in an unrated game created while signed in.
    let g = ok(call(
        addr,
        "POST",
        "/api/games",
        Some(json!({"rules": "finkel", "options": {"pieces": "3"}, "mode": "online", "seat": "light"})),
        &[("Cookie", &alice)],
    )
    .await);
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap();
    let mut a = Client::join(addr, id, g["token"].as_str()).await;
    let mut b = Client::join(addr, id, Some(invite)).await;
    assert_eq!(a.last.as_ref().unwrap()["game"]["players"], json!({"light": "alice", "dark": null}));
    play_out(&mut a, &mut b).await;
    let p = ok(call(addr, "GET", "/api/players/alice", None, &[]).await);
    assert_eq!(p["ratings"], json!([]));
    assert_eq!(p["archive"][0]["id"], id);
    assert_eq!(p["archive"][0]["rated"], false);
    // Rated needs an account, and an online game.
    let a = call(addr, "POST", "/api/games", Some(json!({"rules": "finkel", "mode": "online", "rated": true})), &[]).await;
    assert_eq!(a.json["code"], "not_signed_in");
    let a = call(addr, "POST", "/api/games", Some(json!({"rules": "finkel", "mode": "bot", "rated": true})), &[("Cookie", &alice)]).await;
    assert_eq!(a.json["code"], "bad_request");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_archive_is_paged() {
    let dir = tempfile::tempdir().unwrap();
    let addr = common::server(dir.path(), common::fast).await;
    let alice = register(addr, "alice").await;
    for _ in 0..23 {
        ok(call(addr, "POST", "/api/games", Some(json!({"rules": "finkel", "mode": "online"})), &[("Cookie", &alice)]).await);
    }
    let first = ok(call(addr, "GET", "/api/players/alice", None, &[]).await);
    assert_eq!(first["archive"].as_array().unwrap().len(), 20);
    assert_eq!(first["more"], true);
    let second = ok(call(addr, "GET", "/api/players/alice?page=1", None, &[]).await);
    assert_eq!(second["archive"].as_array().unwrap().len(), 3);
    assert_eq!(second["more"], false);
}
