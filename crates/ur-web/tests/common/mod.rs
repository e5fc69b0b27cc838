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
