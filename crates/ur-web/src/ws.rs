//! One websocket: a player's or a watcher's. It reads the client's messages
//! (capped in size and rate), hands rolls and actions to the game, and sends
//! every update of the game.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::response::Response;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use crate::live::{Actor, Hub, Refusal, Req, Update};

/// The largest frame read at all; messages past [`crate::Config::max_message`]
/// but under this are refused with `too_large`, larger ones close the socket.
const HARD_LIMIT: usize = 64 * 1024;

/// Bytes read from a socket at a time. The default (128 KiB) is zeroed on
/// every read: with thousands of sockets of small messages that was the
/// server's largest cost (and 128 KiB of memory a socket).
const READ_BUFFER: usize = 4 * 1024;

pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let token = q.get("token").cloned().filter(|t| !t.is_empty());
    ws.max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| run(socket, hub, id, token, addr.ip()))
}

/// Counts a client address's open sockets while it lives.
struct Slot {
    hub: Arc<Hub>,
    ip: IpAddr,
}

impl Slot {
    fn take(hub: &Arc<Hub>, ip: IpAddr) -> Option<Slot> {
        let mut conns = hub.conns.lock().unwrap_or_else(|e| e.into_inner());
        let n = conns.entry(ip).or_insert(0);
        if *n >= hub.cfg.max_connections_per_ip {
            return None;
        }
        *n += 1;
        Some(Slot { hub: hub.clone(), ip })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut conns = self.hub.conns.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = conns.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                conns.remove(&self.ip);
            }
        }
    }
}

async fn refuse_and_close(mut socket: WebSocket, r: Refusal) {
    let _ = socket.send(Message::Text(r.json().into())).await;
    let _ = socket.send(Message::Close(Some(CloseFrame { code: 1008, reason: r.code.into() }))).await;
    // The closing handshake: drop what the client still sends until its
    // Close. A socket closed with unread data is reset, and a reset makes
    // the client's system discard the refusal before the client reads it.
    let drain = async {
        while let Some(Ok(m)) = socket.recv().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(CLOSING, drain).await;
}

/// How long a refused socket waits for the client's side of the close.
const CLOSING: std::time::Duration = std::time::Duration::from_secs(2);

/// A token bucket.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn run(socket: WebSocket, hub: Arc<Hub>, id: String, token: Option<String>, ip: IpAddr) {
    let Some(_slot) = Slot::take(&hub, ip) else {
        let n = hub.cfg.max_connections_per_ip;
        let r = Refusal::new(
            "too_many_connections",
            format!("this address has {n} connections open already, the most allowed: close some tabs"),
        );
        return refuse_and_close(socket, r).await;
    };
    let game = match hub.game(&id).await {
        Ok(Some(g)) => g,
        Ok(None) => return refuse_and_close(socket, Refusal::new("unknown_game", format!("there is no game {id}: check the link"))).await,
        Err(e) => return refuse_and_close(socket, Refusal::new("storage", format!("the game cannot be loaded: {e}"))).await,
    };
    let actor = match token {
        None => Actor::Watcher,
        Some(t) => match game.meta.actor_for(&t) {
            Some(a) => a,
            None => {
                let r =
                    Refusal::new("bad_token", "that token does not play this game: check the link, or open it without a token to watch");
                return refuse_and_close(socket, r).await;
            }
        },
    };
    let (first, rx, seq) = game.connect(&hub, actor).await;
    talk(socket, &hub, &game, actor, first, rx, seq).await;
    game.disconnect(&hub, actor).await;
}

async fn talk(
    mut socket: WebSocket,
    hub: &Arc<Hub>,
    game: &Arc<crate::live::LiveGame>,
    actor: Actor,
    first: String,
    mut rx: tokio::sync::broadcast::Receiver<Arc<Update>>,
    mut seq: u64,
) {
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let cfg = &hub.cfg;
    let mut bucket = Bucket { tokens: cfg.message_burst, rate: cfg.messages_per_second, burst: cfg.message_burst, at: Instant::now() };
    let mut strikes = 0u32;
    loop {
        let out = tokio::select! {
            msg = socket.recv() => {
                let msg = match msg {
                    Some(Ok(m)) => m,
                    _ => return,
                };
                let text = match msg {
                    Message::Text(t) => Some(t),
                    Message::Binary(_) => None,
                    Message::Close(_) => return,
                    Message::Ping(_) | Message::Pong(_) => continue,
                };
                if !bucket.take() {
                    strikes += 1;
                    if strikes > 200 {
                        let r = Refusal::new("rate_limited", "too many messages: the connection is closed");
                        return refuse_and_close(socket, r).await;
                    }
                    Some(Refusal::new("rate_limited", format!("too many messages: at most {} a second", cfg.messages_per_second)).json())
                } else {
                    strikes = 0;
                    match text {
                        None => Some(Refusal::new("bad_message", "binary messages are not taken: send JSON text").json()),
                        Some(t) if t.len() > cfg.max_message => Some(
                            Refusal::new("too_large", format!("the message is {} bytes; at most {} are taken", t.len(), cfg.max_message)).json(),
                        ),
                        Some(t) => handle(hub, game, actor, t.as_str()).await,
                    }
                }
            }
            u = rx.recv() => match u {
                Ok(u) => {
                    if let Update::View { seq: s, .. } = &*u {
                        if *s <= seq {
                            continue;
                        }
                        seq = *s;
                    }
                    Some(u.text(actor))
                }
                Err(RecvError::Lagged(_)) => {
                    let st = game.state.lock().await;
                    seq = st.seq;
                    Some(game.view_now(hub, &st, actor))
                }
                Err(RecvError::Closed) => return,
            },
        };
        if let Some(text) = out {
            if socket.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
    }
}

/// A client's message; the answer to send back, if any (views go to all).
/// Public for the fuzz target `ws_message`, which calls it without a socket.
pub async fn handle(hub: &Arc<Hub>, game: &Arc<crate::live::LiveGame>, actor: Actor, text: &str) -> Option<String> {
    let bad = |m: &str| Some(Refusal::new("bad_message", m).json());
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return bad("the message is not JSON: send {\"t\":\"roll\",\"seq\":N}, {\"t\":\"act\",\"seq\":N,\"index\":I}, {\"t\":\"hint\",\"seq\":N} or {\"t\":\"ping\"}");
    };
    let seq = v.get("seq").and_then(Value::as_u64);
    let req = match v.get("t").and_then(Value::as_str) {
        Some("ping") => return Some(r#"{"t":"pong"}"#.to_string()),
        Some("roll") => match seq {
            Some(seq) => Req::Roll { seq },
            None => return bad("roll needs seq, the number of the view it answers"),
        },
        Some("act") => match (seq, v.get("index").and_then(Value::as_u64)) {
            (Some(seq), Some(index)) => Req::Act { seq, index: usize::try_from(index).unwrap_or(usize::MAX) },
            _ => return bad("act needs seq (the view's number) and index (an open action's index)"),
        },
        Some("hint") => {
            let Some(seq) = seq else { return bad("hint needs seq, the number of the view it answers") };
            return Some(match game.hint(actor, seq).await {
                Ok(t) => t,
                Err(r) => r.json(),
            });
        }
        Some(t) => return bad(&format!("unknown message type '{t}': roll, act, hint or ping")),
        None => return bad("the message has no type: give \"t\""),
    };
    match game.play(hub, actor, req).await {
        Ok(()) => None,
        Err(r) => Some(r.json()),
    }
}
