//! Abuse of the connections: many idle or slow ones, half-open websockets,
//! floods of control frames, requests from other sites. The server keeps
//! answering, closes what it must, and says why in JSON.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Set in the environment of the child process that runs a server.
const CHILD: &str = "UR_ABUSE_SERVER_DIR";

/// The open-file limit of the server in a child process, as many hosts set.
const CHILD_FILES: u64 = 1024;

/// Not a test: the server of [`idle_and_slow_connections_keep_no_request_out`],
/// run in a child process so that it has its own open-file limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the server of another test, run by it in a child process"]
async fn server_in_a_child_process() {
    let Ok(dir) = std::env::var(CHILD) else { return };
    #[cfg(unix)]
    {
        let (_, hard) = rlimit::Resource::NOFILE.get().unwrap();
        rlimit::Resource::NOFILE.set(CHILD_FILES, hard).unwrap();
    }
    let addr = server(std::path::Path::new(&dir), |_| {}).await;
    println!("listening {addr}");
    std::io::stdout().flush().unwrap();
    // Until the parent closes our standard input (or dies).
    tokio::task::spawn_blocking(|| std::io::stdin().lines().count()).await.unwrap();
}

/// A server in a child process with [`CHILD_FILES`] open files; killed on drop.
struct ChildServer {
    child: Child,
    addr: SocketAddr,
}

impl ChildServer {
    fn start(dir: &std::path::Path) -> ChildServer {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "abuse::server_in_a_child_process", "--ignored", "--nocapture", "--test-threads", "1"])
            .env(CHILD, dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let addr = out
            .lines()
            .map_while(Result::ok)
            .find_map(|l| l.split_once("listening ").map(|(_, a)| a.trim().parse().unwrap()))
            .expect("the child process says where it listens");
        ChildServer { child, addr }
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A connection that sends a request head one line at a time, slowly.
async fn slowloris(from: std::net::IpAddr, addr: SocketAddr) -> Option<TcpStream> {
    let mut s = tokio::time::timeout(Duration::from_secs(2), connect_from(from, addr)).await.ok()?.ok()?;
    s.write_all(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n").await.ok()?;
    Some(s)
}

/// Normal requests, each answered within a second.
async fn answered_within_a_second(addr: SocketAddr, n: usize) {
    for i in 0..n {
        let t = Instant::now();
        let answer = tokio::time::timeout(Duration::from_secs(3), http(addr, "GET", "/api/rules", None)).await;
        let took = t.elapsed();
        let (status, body) = answer.unwrap_or_else(|_| panic!("request {i} had no answer in 3 s"));
        assert_eq!(status, 200, "request {i}: {body}");
        assert!(took < Duration::from_secs(1), "request {i} took {took:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slow_connections_keep_no_request_out() {
    many_files();
    let dir = tempfile::tempdir().unwrap();
    let server = ChildServer::start(dir.path());
    let addr = server.addr;
    // 1,100 connections that send nothing and 200 that send a head slowly,
    // from other addresses than the normal client's (127.0.0.1), 100 an
    // address: more than the server's open files allow.
    let mut idle = Vec::new();
    for i in 0..1100 {
        let from = loopback(2 + (i / 100) as u8);
        if let Ok(Ok(s)) = tokio::time::timeout(Duration::from_secs(2), connect_from(from, addr)).await {
            idle.push(s);
        }
    }
    let mut slow = Vec::new();
    for i in 0..200 {
        if let Some(s) = slowloris(loopback(20 + (i / 100) as u8), addr).await {
            slow.push(s);
        }
    }
    let drip = tokio::spawn(async move {
        for _ in 0..20 {
            for s in &mut slow {
                let _ = s.write_all(b"X-Slow: 1\r\n").await;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        slow
    });
    answered_within_a_second(addr, 20).await;
    // A game and its websocket work too.
    let g = tokio::time::timeout(Duration::from_secs(3), create(addr, json!({"rules": "finkel", "mode": "hotseat"}))).await.unwrap();
    let mut c = tokio::time::timeout(Duration::from_secs(3), Client::join(addr, g["id"].as_str().unwrap(), g["token"].as_str()))
        .await
        .expect("a websocket within 3 s");
    assert_eq!(c.last.take().unwrap()["seq"], 0);
    drop(drip.await.unwrap());
    drop(idle);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_send_nothing_or_too_slowly_are_closed() {
    many_files();
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        c.header_read_timeout = Duration::from_secs(1);
        c.idle_timeout = Duration::from_secs(1);
    })
    .await;
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut player = Client::join(addr, &id, g["token"].as_str()).await;
    let mut silent = Vec::new();
    let mut slow = Vec::new();
    for i in 0..100 {
        silent.push(connect_from(loopback(2 + i / 50), addr).await.unwrap());
        slow.push(slowloris(loopback(4 + i / 50), addr).await.unwrap());
    }
    // A request whose body never comes whole.
    let mut body = connect_from(loopback(6), addr).await.unwrap();
    let head = format!("POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"rul");
    body.write_all(head.as_bytes()).await.unwrap();
    // A keep-alive connection idle after its answer.
    let mut kept = connect_from(loopback(7), addr).await.unwrap();
    let (status, _, _) = exchange(&mut kept, &format!("GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n\r\n")).await;
    assert_eq!(status, 200);
    let dripping = async {
        for _ in 0..40 {
            for s in &mut slow {
                let _ = s.write_all(b"X-Slow: 1\r\n").await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let watch = async {
        let limit = Duration::from_secs(4);
        for (i, s) in silent.iter_mut().enumerate() {
            assert!(closed_within(s, limit).await, "silent connection {i} is still open");
        }
        assert!(closed_within(&mut body, limit).await, "the request with a missing body is still open");
        assert!(closed_within(&mut kept, limit).await, "the idle keep-alive connection is still open");
    };
    tokio::join!(dripping, watch);
    for (i, s) in slow.iter_mut().enumerate() {
        assert!(closed_within(s, Duration::from_millis(100)).await, "slow connection {i} is still open");
    }
    // A websocket is not idle: after the same silence it still plays.
    player.send(json!({"t": "roll", "seq": 0})).await;
    assert_eq!(player.view().await["seq"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_address_has_a_cap_and_its_oldest_idle_connection_makes_room() {
    many_files();
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| c.max_tcp_connections_per_ip = 20).await;
    let from = loopback(5);
    let mut held = Vec::new();
    for _ in 0..30 {
        held.push(connect_from(from, addr).await.unwrap());
    }
    // The ten oldest were closed to make room; the twenty newest are open.
    for (i, s) in held.iter_mut().enumerate() {
        let closed = closed_within(s, Duration::from_millis(if i < 10 { 2000 } else { 100 })).await;
        assert_eq!(closed, i < 10, "connection {i}");
    }
    // A normal request from the same address takes the oldest idle place.
    let mut s = connect_from(from, addr).await.unwrap();
    let (status, _, _) = exchange(&mut s, &format!("GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n\r\n")).await;
    assert_eq!(status, 200);
    assert!(closed_within(&mut held[10], Duration::from_secs(2)).await, "the oldest idle connection made room");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_over_a_full_cap_is_answered_503_in_json_and_closed() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        c.max_tcp_connections = Some(4);
        c.max_tcp_connections_per_ip = 2;
    })
    .await;
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let id = g["id"].as_str().unwrap();
    // Websockets are never idle: two fill address .8's places, two more the rest.
    let mut sockets = Vec::new();
    for n in [8, 8, 9, 10] {
        let mut c = client_from(loopback(n), addr, id, None).await;
        c.view().await;
        sockets.push(c);
    }
    for (from, why) in [(8, "the address's cap"), (11, "the server's cap")] {
        let mut s = connect_from(loopback(from), addr).await.unwrap();
        let (status, _, body) = exchange(&mut s, &format!("GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n\r\n")).await;
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!((status, body["code"].as_str()), (503, Some("too_many_connections")), "{why}: {body}");
        assert!(closed_within(&mut s, Duration::from_secs(1)).await, "{why}: closed at once");
    }
    sockets.pop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut s = connect_from(loopback(11), addr).await.unwrap();
    let (status, _, _) = exchange(&mut s, &format!("GET /api/rules HTTP/1.1\r\nHost: {addr}\r\n\r\n")).await;
    assert_eq!(status, 200, "a closed websocket gives its place back");
}

/// The other player's view of `side`'s seat, once it says it is gone.
async fn until_gone(c: &mut Client, side: &str) -> Value {
    loop {
        let m = c.next().await;
        assert_ne!(m["t"], "closed", "the watching player was closed too");
        let seat = if m["t"] == "presence" {
            m["seats"][side].clone()
        } else if m["t"] == "view" {
            m["game"]["seats"][side].clone()
        } else {
            continue;
        };
        if seat["connected"] == false {
            return seat;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_stops_answering_is_closed_and_its_player_seen_to_leave() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        c.ws_ping = Duration::from_millis(200);
        c.ws_timeout = Duration::from_secs(1);
    })
    .await;
    let g = create(addr, json!({"rules": "finkel", "mode": "online", "seat": "light"})).await;
    let id = g["id"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap();
    let mut light = Client::join(addr, id, g["token"].as_str()).await;
    // Dark's network vanishes at once: its client never reads again.
    let (mut dark, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?token={invite}")).await.unwrap();
    let t = Instant::now();
    let seat = tokio::time::timeout(Duration::from_secs(6), async {
        loop {
            let m = light.next().await;
            let seat = match m["t"].as_str() {
                Some("presence") => &m["seats"]["dark"],
                Some("view") => &m["game"]["seats"]["dark"],
                _ => continue,
            };
            if seat["connected"] == true {
                break;
            }
        }
        until_gone(&mut light, "dark").await
    })
    .await
    .expect("light hears within 6 s that dark is gone");
    assert!(t.elapsed() >= Duration::from_millis(900), "closed after the timeout, not before: {:?}", t.elapsed());
    assert!(seat["deadline"].as_u64().is_some(), "the reconnect deadline started: {seat}");
    // The server closed dark's socket: what it sent is there, then the end.
    let end = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(Ok(m)) = dark.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
    assert!(end.is_ok(), "dark's socket is closed");
    // Light, who answers the pings, is still there.
    light.send(json!({"t": "ping"})).await;
    loop {
        let m = light.next().await;
        if m["t"] == "pong" {
            break;
        }
        assert_ne!(m["t"], "closed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_pings_is_rate_limited_then_closed() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        c.messages_per_second = 5.0;
        c.message_burst = 10.0;
    })
    .await;
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let mut c = Client::join(addr, g["id"].as_str().unwrap(), None).await;
    for _ in 0..400 {
        c.send_raw(Message::Ping(vec![7u8; 8].into())).await;
    }
    let (mut limited, mut closed) = (0, false);
    let read = async {
        for _ in 0..400 {
            let m = c.next().await;
            if m["t"] == "closed" {
                closed = true;
                break;
            }
            if m["code"] == "rate_limited" {
                limited += 1;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
    assert!(limited > 100 && closed, "{limited} rate_limited, closed: {closed}");
}

/// A raw request to `addr` from 127.0.0.1 with `headers` (each `Name: value`).
async fn request(addr: SocketAddr, method: &str, path: &str, headers: &[&str], body: &str) -> (u16, String, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for h in headers {
        text.push_str(h);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    text.push_str(body);
    let (status, head, body) = exchange(&mut s, &text).await;
    (status, head, serde_json::from_str(&body).unwrap_or(Value::String(body)))
}

const WS: [&str; 4] =
    ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_sites_may_not_open_websockets_or_create_games() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), |c| {
        fast(c);
        c.allow_origins = vec!["https://friend.example".into()];
    })
    .await;
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let ws_path = format!("/ws/{}", g["id"].as_str().unwrap());
    let game = json!({"rules": "finkel", "mode": "hotseat"}).to_string();
    let host = format!("Host: {addr}");
    let json_type = "Content-Type: application/json";
    let post = |origin: Option<String>| {
        let (host, game) = (host.clone(), game.clone());
        async move {
            let mut h = vec![host.as_str(), json_type];
            let o = origin.map(|o| format!("Origin: {o}"));
            h.extend(o.as_deref());
            let (status, _, body) = request(addr, "POST", "/api/games", &h, &game).await;
            (status, body["code"].as_str().unwrap_or("").to_string())
        }
    };
    let ws = |origin: &str| {
        let mut h = vec![host.clone(), format!("Origin: {origin}")];
        h.extend(WS.iter().map(|s| s.to_string()));
        let path = ws_path.clone();
        async move {
            let h: Vec<&str> = h.iter().map(String::as_str).collect();
            let mut s = TcpStream::connect(addr).await.unwrap();
            let mut text = format!("GET {path} HTTP/1.1\r\n");
            for line in h {
                text.push_str(line);
                text.push_str("\r\n");
            }
            text.push_str("\r\n");
            let (status, _, body) = exchange(&mut s, &text).await;
            let code = serde_json::from_str::<Value>(&body).ok().and_then(|v| v["code"].as_str().map(str::to_string));
            (status, code.unwrap_or_default())
        }
    };
    let forbidden = (403, "cross_origin".to_string());
    assert_eq!(post(Some("https://evil.example".into())).await, forbidden);
    assert_eq!(post(Some("null".into())).await, forbidden);
    assert_eq!(post(Some(format!("http://127.0.0.1:{}", addr.port() + 1))).await, forbidden, "another port is another origin");
    assert_eq!(post(Some(format!("http://{addr}"))).await.0, 200, "the server's own page");
    assert_eq!(post(Some("https://friend.example".into())).await.0, 200, "an origin given with --allow-origin");
    assert_eq!(post(None).await.0, 200, "no Origin: not a browser");
    assert_eq!(ws("https://evil.example").await, forbidden);
    assert_eq!(ws(&format!("http://{addr}")).await.0, 101);
    assert_eq!(ws("https://friend.example").await.0, 101);
    // A Host that is not a host.
    for bad in ["Host: evil example", "Host: a/b", "Host: x:port", "Host: "] {
        let (status, _, body) = request(addr, "GET", "/api/rules", &[bad], "").await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_host")), "{bad}: {body}");
    }
    let (status, _, body) = request(addr, "GET", "/api/rules", &["Host: [::1]:8080"], "").await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_must_say_they_are_json() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let game = json!({"rules": "finkel", "mode": "hotseat"}).to_string();
    let host = format!("Host: {addr}");
    for ct in [Some("Content-Type: text/plain"), Some("Content-Type: application/x-www-form-urlencoded"), None] {
        let mut h = vec![host.as_str()];
        h.extend(ct);
        let (status, head, body) = request(addr, "POST", "/api/games", &h, &game).await;
        assert_eq!((status, body["code"].as_str()), (415, Some("bad_content_type")), "{ct:?}: {body}");
        assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
        assert!(body["message"].as_str().unwrap().contains("application/json"), "{body}");
    }
    let (status, _, _) = request(addr, "POST", "/api/games", &[&host, "Content-Type: application/json; charset=utf-8"], &game).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_answer_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let addr = server(dir.path(), fast).await;
    let g = create(addr, json!({"rules": "finkel", "mode": "hotseat"})).await;
    let host = format!("Host: {addr}");
    let big = json!({"rules_file": "#".repeat(300_000), "mode": "hotseat"}).to_string();
    let ws_path = format!("/ws/{}", g["id"].as_str().unwrap());
    let cases: [(&str, &str, &str, u16, &str); 5] = [
        ("POST", "/api/games", big.as_str(), 413, "too_large"),
        ("GET", ws_path.as_str(), "", 400, "not_websocket"),
        ("GET", "/api/games", "", 405, "method_not_allowed"),
        ("GET", "/nothing/here", "", 404, "not_found"),
        ("POST", "/api/review", "{}", 415, "bad_content_type"),
    ];
    for (method, path, body, status, code) in cases {
        let headers: Vec<&str> = if path == "/api/review" { vec![&host] } else { vec![&host, "Content-Type: application/json"] };
        let (got, head, answer) = request(addr, method, path, &headers, body).await;
        assert_eq!((got, answer["t"].as_str(), answer["code"].as_str()), (status, Some("error"), Some(code)), "{method} {path}: {answer}");
        assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{method} {path}: {head}");
        assert!(answer["message"].as_str().is_some_and(|m| m.len() > 10), "{method} {path}: {answer}");
    }
    // A rule-set file over its own cap is still too_large in the handler's words.
    let (status, _, answer) = request(
        addr,
        "POST",
        "/api/games",
        &[&host, "Content-Type: application/json"],
        &json!({"rules_file": "#".repeat(70_000), "mode": "hotseat"}).to_string(),
    )
    .await;
    assert_eq!((status, answer["code"].as_str()), (413, Some("too_large")));
    // The websocket still opens for a websocket client.
    let mut ws = Client::join(addr, g["id"].as_str().unwrap(), None).await;
    ws.ws.send(Message::Text(json!({"t": "ping"}).to_string().into())).await.unwrap();
    assert_eq!(ws.next().await["t"], "pong");
}
