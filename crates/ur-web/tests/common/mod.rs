//! A test server in this process; the clients are `ur_web::client`.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

pub use ur_web::client::*;

/// Starts a server on an ephemeral port with an SQLite database in `dir`.
pub async fn server(dir: &std::path::Path, tune: impl FnOnce(&mut ur_web::Config)) -> SocketAddr {
    let mut cfg = ur_web::Config::new("127.0.0.1:0", ur_web::Db::Sqlite(dir.join("games.sqlite3")));
    cfg.bot_delay = Duration::ZERO;
    cfg.quiet = true;
    tune(&mut cfg);
    let server = ur_web::start(cfg).await.expect("the server starts");
    let addr = server.local_addr();
    tokio::spawn(server.run());
    addr
}

/// No rate limit to speak of: test clients play as fast as the server answers.
pub fn fast(c: &mut ur_web::Config) {
    c.messages_per_second = 10_000.0;
    c.message_burst = 10_000.0;
    c.games_per_second = 1000.0;
}

/// The SQLite database of a test server in `dir`.
pub fn db_path(dir: &std::path::Path) -> std::path::PathBuf {
    dir.join("games.sqlite3")
}

/// A test server's configuration (no bot delay, no rate limit), SQLite in `dir`.
pub fn config(dir: &std::path::Path) -> ur_web::Config {
    let mut cfg = ur_web::Config::new("127.0.0.1:0", ur_web::Db::Sqlite(db_path(dir)));
    cfg.bot_delay = Duration::ZERO;
    cfg.quiet = true;
    fast(&mut cfg);
    cfg
}

/// A server on a runtime of its own, so that a test can stop it (its tasks
/// end, its database closes) and start another on the same database.
pub struct Apart {
    pub addr: SocketAddr,
    /// Games resumed at start.
    pub resumed: usize,
    hub: std::sync::Weak<ur_web::hub::Hub>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Apart {
    /// Starts a server; the error `start` gave, in words.
    pub async fn start(cfg: ur_web::Config) -> Result<Apart, String> {
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            runtime.block_on(async move {
                match ur_web::start(cfg).await {
                    Ok(server) => {
                        let hub = std::sync::Arc::downgrade(&server.hub());
                        let _ = ready_tx.send(Ok((server.local_addr(), server.games_in_play().await, hub)));
                        tokio::select! {
                            _ = server.run() => {}
                            _ = stopped => {}
                        }
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                    }
                }
            });
        });
        let (addr, resumed, hub) = ready_rx.await.unwrap()?;
        Ok(Apart { addr, resumed, hub, stop: Some(stop), thread: Some(thread) })
    }

    /// The games the server holds in memory now.
    pub async fn live_games(&self) -> usize {
        self.hub.upgrade().expect("the server runs").games_in_play().await
    }

    /// Stops the server: every task ends and the hub (with its database) is dropped.
    pub async fn stop(mut self) {
        let _ = self.stop.take().map(|s| s.send(()));
        let thread = self.thread.take().unwrap();
        tokio::task::spawn_blocking(move || thread.join().unwrap()).await.unwrap();
    }
}

/// A hot-seat game of Finkel with 2 pieces, played to the end; its id.
pub async fn finished_hotseat(addr: SocketAddr) -> String {
    let g = create(addr, serde_json::json!({"rules": "finkel", "mode": "hotseat", "options": {"pieces": 2}})).await;
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

/// Holds SQLite's write lock on `db` from another connection for `hold`,
/// as another program writing would; returns once the lock is taken.
pub fn hold_write_lock(db: &std::path::Path, hold: Duration) -> std::thread::JoinHandle<()> {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    conn.execute_batch("BEGIN IMMEDIATE").unwrap();
    std::thread::spawn(move || {
        std::thread::sleep(hold);
        conn.execute_batch("ROLLBACK").unwrap();
    })
}
