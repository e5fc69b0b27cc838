//! A bare HTTP client and a websocket client of `ur serve`, for the tests
//! and the load tool (`ur-load`). They panic on what a test should fail on.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const WAIT: Duration = Duration::from_secs(20);

/// One HTTP/1.1 request; the status and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = request(addr, method, path, body, &[]).await;
    (status, body)
}

/// One HTTP/1.1 request with extra headers (`Cookie`, `Origin`...); the
/// status, the head and the body (de-chunked).
pub async fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>, headers: &[(&str, &str)]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.expect("an HTTP answer in time").unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    (status, head.to_string(), body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

/// Creates a game; the answer's JSON.
pub async fn create(addr: SocketAddr, req: Value) -> Value {
    let (status, body) = http(addr, "POST", "/api/games", Some(&req.to_string())).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

pub async fn record(addr: SocketAddr, id: &str) -> String {
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    body
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub you: Value,
    pub last: Option<Value>,
    pub views: Vec<u64>,
    /// Fill in the board of views after a change from the last view, as the
    /// page does, so every remembered view is whole (the load tool skips it).
    pub keep_board: bool,
}

impl Client {
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
            None => format!("ws://{addr}/ws/{id}"),
        };
        // A small read buffer: the default 128 KiB is zeroed on every read.
        let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false).await.expect("the websocket opens");
        Client { ws, you: Value::Null, last: None, views: Vec::new(), keep_board: true }
    }

    /// Connects and reads the first view.
    pub async fn join(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let mut c = Client::connect(addr, id, token).await;
        let v = c.view().await;
        c.you = v["game"]["you"].clone();
        c
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.unwrap();
    }

    /// The next JSON message (views are remembered).
    pub async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a message in time");
            match m {
                Some(Ok(Message::Text(t))) => {
                    let mut v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["t"] == "view" {
                        self.fill_board(&mut v);
                        self.views.push(v["seq"].as_u64().unwrap());
                        self.last = Some(v.clone());
                    }
                    return v;
                }
                Some(Ok(Message::Close(_))) | None => return json!({"t": "closed"}),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return json!({"t": "closed", "error": e.to_string()}),
            }
        }
    }

    fn fill_board(&self, v: &mut Value) {
        let Some(last) = self.last.as_ref().filter(|_| self.keep_board) else { return };
        if let Some(view) = v["view"].as_object_mut().filter(|o| !o.contains_key("board")) {
            view.insert("board".into(), last["view"]["board"].clone());
        }
    }

    /// The next view.
    pub async fn view(&mut self) -> Value {
        loop {
            let v = self.next().await;
            if v["t"] == "view" {
                return v;
            }
            assert!(
                v["t"] != "closed" && v["t"] != "error",
                "{v} while waiting for a view after {}",
                self.last.as_ref().map(|l| l.to_string()).unwrap_or_default()
            );
        }
    }

    /// The next error (views and presence in between are remembered).
    pub async fn error(&mut self) -> Value {
        loop {
            let v = self.next().await;
            if v["t"] == "error" {
                return v;
            }
            assert_ne!(v["t"], "closed", "closed while waiting for an error");
        }
    }

    /// Whether this client is to act in view `v`.
    pub fn my_turn(&self, v: &Value) -> bool {
        let side = &v["view"]["turn"]["side"];
        v["game"]["status"] == "playing" && !side.is_null() && (self.you == "both" || self.you == *side)
    }

    /// Rolls or takes the first open action, as view `v` asks.
    pub async fn step(&mut self, v: &Value) {
        let seq = v["seq"].as_u64().unwrap();
        match v["view"]["turn"]["stage"].as_str().unwrap() {
            "roll" => self.send(json!({"t": "roll", "seq": seq})).await,
            "act" => {
                let n = v["view"]["actions"].as_array().unwrap().len();
                let index = v["view"]["actions"][n - 1]["index"].clone();
                self.send(json!({"t": "act", "seq": seq, "index": index})).await
            }
            s => panic!("no step at stage {s}"),
        }
    }
}

pub fn over(v: &Value) -> bool {
    v["game"]["status"] != "playing"
}

/// The record's JSON replays as `ur replay` reads it.
pub fn replays(text: &str) -> ur_session::SavedGame {
    ur_session::records::read_game("served", text).expect("the record reads as ur replay reads it")
}
