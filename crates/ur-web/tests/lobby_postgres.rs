//! Two servers on one PostgreSQL database share a lobby: a seek made on
//! one is seen live on the other and accepted there, and its seeker, on
//! the first, is told the game.
//!
//! It makes a throwaway cluster with Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`). Without them it is skipped, unless
//! `UR_REQUIRE_POSTGRES=1`, when it fails.

mod social;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::json;
use social::{call, lists_seek, ok, register, LobbySocket};
use ur_web::client::Client;

fn pg_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").exists() && b.join("pg_ctl").exists())
        .collect();
    found.sort();
    found.pop()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A throwaway PostgreSQL cluster, stopped when dropped.
struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    as_postgres: bool,
    port: u16,
}

impl Cluster {
    fn run(&self, tool: &str, args: &[&str]) -> std::process::Output {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        };
        cmd.args(args).stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("{tool} cannot run: {e}"))
    }

    fn start(bin: PathBuf, dir: &Path) -> Cluster {
        let uid = Command::new("id").arg("-u").output().unwrap();
        let root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
        let data = dir.join("data");
        std::fs::create_dir(&data).unwrap();
        if root {
            // PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            let out = Command::new("chown").args(["postgres:", data.to_str().unwrap()]).output().unwrap();
            assert!(out.status.success(), "chown: {}", String::from_utf8_lossy(&out.stderr));
        }
        let c = Cluster { bin, data, as_postgres: root, port: free_port() };
        let out = c.run("initdb", &["-D", c.data.to_str().unwrap(), "-A", "trust", "-U", "postgres", "--no-sync"]);
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        let opts = format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", c.port, dir.display());
        let log = dir.join("log");
        let out = c.run("pg_ctl", &["-D", c.data.to_str().unwrap(), "-o", &opts, "-l", log.to_str().unwrap(), "-w", "start"]);
        assert!(out.status.success(), "pg_ctl start: {}{}", String::from_utf8_lossy(&out.stderr), std::fs::read_to_string(&log).unwrap_or_default());
        c
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.run("pg_ctl", &["-D", self.data.to_str().unwrap(), "-m", "immediate", "stop"]);
    }
}

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
    let Some(bin) = pg_bin() else {
        let why = "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)";
        assert!(std::env::var("UR_REQUIRE_POSTGRES").as_deref() != Ok("1"), "UR_REQUIRE_POSTGRES=1 but {why}");
        eprintln!("skipped: {why}");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cluster = Cluster::start(bin, dir.path());
    let a = serve(&cluster.url()).await;
    let b = serve(&cluster.url()).await;

    let alice = register(a, "alice").await;
    // Bob's account, made on A, signs in on B.
    register(a, "bob").await;
    let bob = call(b, "POST", "/api/session", Some(json!({"name": "bob", "password": "password-1"})), &[]).await.cookie();

    let mut watcher = LobbySocket::open(b, "").await;
    watcher.next().await;
    let seek = ok(call(a, "POST", "/api/seeks", Some(json!({"rules": "finkel", "options": {"pieces": "3"}, "rated": true})), &[("Cookie", &alice)]).await);
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
