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

use std::net::IpAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Raises this process's open-file limit to its hard limit: the tests that
/// hold many connections have both ends of each in this process.
pub fn many_files() {
    ur_web::conn::raise_open_file_limit();
}

/// `127.0.0.n`: Linux routes all of 127.0.0.0/8 to the loopback, so a test
/// can speak from many client addresses.
pub fn loopback(n: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, n])
}

/// A TCP connection to `addr` from the client address `from`.
pub async fn connect_from(from: IpAddr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// Writes `request` and reads one answer: its status, head and body (the
/// body as long as its Content-Length says). The server may answer before
/// it has read the whole request (a body over its cap): the writing stops
/// then, and the answer is read all the same.
pub async fn exchange(stream: &mut TcpStream, request: &str) -> (u16, String, String) {
    let (mut reader, mut writer) = stream.split();
    let write = async {
        let _ = writer.write_all(request.as_bytes()).await;
    };
    let read = async {
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let text = String::from_utf8_lossy(&got).to_string();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|n| n.trim().parse::<usize>().unwrap()))
                    .unwrap_or(0);
                if body.len() >= length {
                    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
                    return (status, head.to_string(), body[..length].to_string());
                }
            }
            let n = reader.read(&mut buf).await.unwrap_or(0);
            assert!(n > 0, "the connection closed before a whole answer: {}", String::from_utf8_lossy(&got));
            got.extend_from_slice(&buf[..n]);
        }
    };
    let both = async {
        tokio::pin!(write, read);
        let mut written = false;
        loop {
            tokio::select! {
                answer = &mut read => return answer,
                () = &mut write, if !written => written = true,
            }
        }
    };
    tokio::time::timeout(WAIT, both).await.expect("an answer in time")
}

/// Whether the server closes `stream` within `within` (what it sends
/// before is skipped).
pub async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let wait = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    };
    tokio::time::timeout(within, wait).await.is_ok()
}

/// A websocket client of game `id` speaking from the client address `from`.
pub async fn client_from(from: IpAddr, addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
    let url = match token {
        Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
        None => format!("ws://{addr}/ws/{id}"),
    };
    let stream = connect_from(from, addr).await.expect("a connection");
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (ws, _) = tokio_tungstenite::client_async(url, stream).await.expect("the websocket opens");
    Client { ws, you: serde_json::Value::Null, last: None, views: Vec::new(), keep_board: true }
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
