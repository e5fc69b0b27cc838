//! Two servers on one PostgreSQL database share a lobby: a seek made on
//! one is seen live on the other and accepted there, and its seeker, on
//! the first, is told the game.
//!
//! It makes a throwaway cluster with Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`). Without them it is skipped, unless
//! `UR_REQUIRE_POSTGRES=1`, when it fails.

use crate::social;

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::json;
use social::{call, lists_seek, ok, register, LobbySocket};
use ur_web::client::Client;
use ur_web::pg_cluster::Cluster;

async fn serve(url: &str) -> SocketAddr {
    let mut cfg = ur_web::Config::new("127.0.0.1:0", ur_web::Db::Postgres(url.to_string()));
    cfg.bot_delay = Duration::ZERO;
    cfg.quiet = true;
    cfg.games_per_second = 1000.0;
    let server = ur_web::start(cfg).await.expect("the server starts");
    let addr = server.local_addr();
    tokio::spawn(server.run());
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_postgres_share_a_lobby() {
    let dir = tempfile::tempdir().unwrap();
    let Some(cluster) = Cluster::start_or_skip(dir.path(), "") else { return };
    let a = serve(&cluster.url()).await;
    let b = serve(&cluster.url()).await;

    let alice = register(a, "alice").await;
    // Bob's account, made on A, signs in on B.
    register(a, "bob").await;
    let bob = call(b, "POST", "/api/session", Some(json!({"name": "bob", "password": "password-1"})), &[]).await.cookie();

    let mut watcher = LobbySocket::open(b, "").await;
    watcher.next().await;
    let seek = ok(call(
        a,
        "POST",
        "/api/seeks",
        Some(json!({"rules": "finkel", "options": {"pieces": "3"}, "rated": true})),
        &[("Cookie", &alice)],
    )
    .await);
    let (id, secret) = (seek["id"].as_str().unwrap(), seek["secret"].as_str().unwrap());
    let mut seeker = LobbySocket::open(a, &format!("?seek={id}&secret={secret}")).await;
    let seen = watcher.until(|m| lists_seek(m, id)).await;
    let listed = seen["seeks"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap().clone();
    assert_eq!(listed["who"], "alice");
    assert_eq!(listed["rated"], true);

    let got = ok(call(b, "POST", &format!("/api/seeks/{id}/accept"), None, &[("Cookie", &bob)]).await);
    let game = got["id"].as_str().unwrap();
    let told = seeker.until(|m| m["t"] == "matched").await;
    assert_eq!(told["id"], game);
    assert_eq!(told["token"], secret);
    watcher.until(|m| m["t"] == "lobby" && !lists_seek(m, id)).await;

    let bobs = Client::join(b, game, got["token"].as_str()).await;
    let alices = Client::join(a, game, Some(secret)).await;
    assert_ne!(bobs.you, alices.you);
    let g = &alices.last.as_ref().unwrap()["game"];
    assert_eq!(g["players"][alices.you.as_str().unwrap()], "alice");
    assert_eq!(g["players"][bobs.you.as_str().unwrap()], "bob");
    assert_eq!(g["rated"], true);
}
