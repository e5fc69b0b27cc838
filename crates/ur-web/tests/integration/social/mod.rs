//! Helpers of the lobby, accounts and ratings tests: requests with
//! headers (cookies, origins), the lobby socket, and two players who play
//! a game out.
#![allow(dead_code)]

use std::net::SocketAddr;

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use ur_web::client::{over, request, Client, WAIT};

/// An answer: its status, head and JSON body.
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub json: Value,
}

impl Answer {
    /// The `ur_session=...` pair of its Set-Cookie, to send back.
    pub fn cookie(&self) -> String {
        self.set_cookie().split(';').next().unwrap_or_default().trim().to_string()
    }

    /// The whole Set-Cookie header.
    pub fn set_cookie(&self) -> String {
        self.head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().starts_with("set-cookie:").then(|| l["set-cookie:".len()..].trim().to_string()))
            .unwrap_or_default()
    }
}

/// One request with extra headers (`Cookie`, `Origin`...).
pub async fn call(addr: SocketAddr, method: &str, path: &str, body: Option<Value>, headers: &[(&str, &str)]) -> Answer {
    let body = body.map(|b| b.to_string());
    let (status, head, rest) = request(addr, method, path, body.as_deref(), headers).await;
    Answer { status, head, json: serde_json::from_str(&rest).unwrap_or(Value::Null) }
}

/// The JSON of an answer that must be a success.
pub fn ok(a: Answer) -> Value {
    assert_eq!(a.status, 200, "{}", a.json);
    a.json
}

/// Registers `name` (password `password-1`); its session cookie.
pub async fn register(addr: SocketAddr, name: &str) -> String {
    let a = call(addr, "POST", "/api/accounts", Some(json!({"name": name, "password": "password-1"})), &[]).await;
    assert_eq!(a.status, 200, "{}", a.json);
    a.cookie()
}

/// A socket on `/ws/lobby`.
pub struct LobbySocket {
    ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
}

impl LobbySocket {
    pub async fn open(addr: SocketAddr, query: &str) -> LobbySocket {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/lobby{query}")).await.expect("the lobby socket opens");
        LobbySocket { ws }
    }

    pub async fn next(&mut self) -> Value {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await.expect("a lobby message in time") {
                Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).unwrap(),
                Some(Ok(Message::Close(_))) | None => return json!({"t": "closed"}),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return json!({"t": "closed", "error": e.to_string()}),
            }
        }
    }

    /// Reads until a message satisfies `f`.
    pub async fn until(&mut self, f: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await;
            assert_ne!(m["t"], "closed");
            if f(&m) {
                return m;
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Whether the lobby message lists the seek `id`.
pub fn lists_seek(m: &Value, id: &str) -> bool {
    m["seeks"].as_array().is_some_and(|s| s.iter().any(|s| s["id"] == id))
}

/// The two players of a game play it to the end (each takes its last open
/// action); the last view.
pub async fn play_out(a: &mut Client, b: &mut Client) -> Value {
    let mut v = a.last.clone().unwrap();
    let mut seq = v["seq"].as_u64().unwrap();
    while !over(&v) {
        if a.my_turn(&v) {
            a.step(&v).await;
        } else {
            b.step(&v).await;
        }
        loop {
            let va = a.view().await;
            if va["seq"].as_u64().unwrap() > seq {
                v = va;
                break;
            }
        }
        seq = v["seq"].as_u64().unwrap();
        while b.last.as_ref().map(|l| l["seq"].as_u64().unwrap()) != Some(seq) {
            b.view().await;
        }
    }
    v
}

/// Polls until `f` holds of the JSON at `path` (ratings are applied just
/// after a game ends); the JSON.
pub async fn eventually(addr: SocketAddr, path: &str, f: impl Fn(&Value) -> bool) -> Value {
    let start = std::time::Instant::now();
    loop {
        let a = call(addr, "GET", path, None, &[]).await;
        if f(&a.json) {
            return a.json;
        }
        assert!(start.elapsed() < WAIT, "{path} never became as expected: {}", a.json);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
