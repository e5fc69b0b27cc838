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
