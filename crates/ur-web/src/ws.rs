//! One websocket: a player's or a watcher's. It reads the client's messages
//! (capped in size and rate), hands rolls and actions to the game, and sends
//! every update of the game.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Sleep;

use crate::conn::ConnRef;
use crate::live::{Actor, Hub, Refusal, Req, Update};

/// The largest frame read at all; messages past [`crate::Config::max_message`]
/// but under this are refused with `too_large`, larger ones close the socket.
const HARD_LIMIT: usize = 64 * 1024;

/// Bytes read from a socket at a time. The default (128 KiB) is zeroed on
/// every read: with thousands of sockets of small messages that was the
/// server's largest cost (and 128 KiB of memory a socket).
const READ_BUFFER: usize = 4 * 1024;

pub async fn upgrade(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    conn: Option<Extension<ConnRef>>,
    headers: axum::http::HeaderMap,
    State(hub): State<Arc<Hub>>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => {
            let m = format!("/ws/<id> takes websockets only ({}): open it with a websocket client", e.body_text());
            return crate::http::refuse(e.status(), "not_websocket", m);
        }
    };
    let token = q.get("token").cloned().filter(|t| !t.is_empty());
    // A seat taken while signed in is linked to the account.
    let account = if token.is_some() { crate::accounts::who(&hub, &headers).await } else { None };
    // The socket holds its connection's place under the caps while it lives.
    let held = conn.map(|Extension(ConnRef(c))| c.busy());
    ws.max_message_size(HARD_LIMIT).max_frame_size(HARD_LIMIT).read_buffer_size(READ_BUFFER).on_upgrade(move |socket| async move {
        run(socket, hub, id, token, account, crate::hub::client_key(addr.ip())).await;
        drop(held);
    })
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
    fn take(&mut self, now: Instant) -> bool {
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

async fn run(socket: WebSocket, hub: Arc<Hub>, id: String, token: Option<String>, account: Option<crate::accounts::Account>, ip: IpAddr) {
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
    let actor = match &token {
        None => Actor::Watcher,
        Some(t) => match game.meta.actor_for(t) {
            Some(a) => a,
            None => {
                let r =
                    Refusal::new("bad_token", "that token does not play this game: check the link, or open it without a token to watch");
                return refuse_and_close(socket, r).await;
            }
        },
    };
    if let (Actor::Seat(side), Some(account), "online") = (actor, &account, game.meta.mode.as_str()) {
        crate::accounts::link_seat(&hub, &game, side.index(), account).await;
    }
    let (first, rx, seq) = game.connect(&hub, actor).await;
    talk(socket, &hub, &game, (actor, token.as_deref()), first, rx, seq).await;
    game.disconnect(&hub, actor).await;
}

/// The server's pings: one every [`crate::Config::ws_ping`]; a socket from
/// which no frame arrived for [`crate::Config::ws_timeout`] is closed, so a
/// player whose network vanished is seen to leave.
struct Keepalive {
    every: Duration,
    timeout: Duration,
    /// When the client's last frame arrived.
    heard: Instant,
    next_ping: Instant,
    /// Fires at the next ping or at the timeout, whichever is first; re-armed
    /// only when it fires, so a message costs no timer.
    timer: std::pin::Pin<Box<Sleep>>,
}

enum Due {
    Ping,
    Dead,
    Nothing,
}

impl Keepalive {
    fn new(every: Duration, timeout: Duration) -> Keepalive {
        let now = Instant::now();
        let next_ping = now + every;
        Keepalive { every, timeout, heard: now, next_ping, timer: Box::pin(tokio::time::sleep_until(next_ping.into())) }
    }

    fn deadline(&self) -> Instant {
        self.heard + self.timeout
    }

    /// What is due now that the timer fired; re-arms it.
    fn fired(&mut self) -> Due {
        let now = Instant::now();
        if now >= self.deadline() {
            return Due::Dead;
        }
        let due = if now >= self.next_ping {
            self.next_ping = now + self.every;
            Due::Ping
        } else {
            Due::Nothing
        };
        let at = self.next_ping.min(self.deadline());
        self.timer.as_mut().reset(at.into());
        due
    }

    /// The timer fired while a send waited; whether the client is dead.
    /// (No ping can be sent then: the next one is sent after the send.)
    fn fired_in_send(&mut self) -> bool {
        if Instant::now() >= self.deadline() {
            return true;
        }
        let at = self.deadline();
        self.timer.as_mut().reset(at.into());
        false
    }
}

/// Sends one message, giving up when the client has sent nothing for the
/// timeout (a client that stops reading blocks the send); whether it went.
async fn send(socket: &mut WebSocket, message: Message, keep: &mut Keepalive) -> bool {
    let send = socket.send(message);
    tokio::pin!(send);
    loop {
        tokio::select! {
            r = &mut send => return r.is_ok(),
            () = keep.timer.as_mut() => {
                if keep.fired_in_send() {
                    return false;
                }
            }
        }
    }
}

async fn talk(
    mut socket: WebSocket,
    hub: &Arc<Hub>,
    game: &Arc<crate::live::LiveGame>,
    (actor, token): (Actor, Option<&str>),
    first: String,
    mut rx: tokio::sync::broadcast::Receiver<Arc<Update>>,
    mut seq: u64,
) {
    let cfg = &hub.cfg;
    let mut keep = Keepalive::new(cfg.ws_ping, cfg.ws_timeout);
    if !send(&mut socket, Message::Text(first.into()), &mut keep).await {
        return;
    }
    let mut bucket = Bucket { tokens: cfg.message_burst, rate: cfg.messages_per_second, burst: cfg.message_burst, at: Instant::now() };
    let mut strikes = 0u32;
    loop {
        let out = tokio::select! {
            msg = socket.recv() => {
                let msg = match msg {
                    Some(Ok(m)) => m,
                    _ => return,
                };
                if matches!(msg, Message::Close(_)) {
                    return;
                }
                let now = Instant::now();
                keep.heard = now;
                // Every frame counts under the rate, pings and pongs too.
                if !bucket.take(now) {
                    strikes += 1;
                    if strikes > 200 {
                        let r = Refusal::new("rate_limited", "too many messages: the connection is closed");
                        return refuse_and_close(socket, r).await;
                    }
                    Some(Refusal::new("rate_limited", format!("too many messages: at most {} a second", cfg.messages_per_second)).json())
                } else {
                    strikes = 0;
                    match msg {
                        Message::Ping(_) | Message::Pong(_) | Message::Close(_) => continue,
                        Message::Binary(_) => Some(Refusal::new("bad_message", "binary messages are not taken: send JSON text").json()),
                        Message::Text(t) if t.len() > cfg.max_message => Some(
                            Refusal::new("too_large", format!("the message is {} bytes; at most {} are taken", t.len(), cfg.max_message)).json(),
                        ),
                        Message::Text(t) => match rematch_accept(t.as_str()) {
                            Some(accept) => match game.rematch(hub, actor, token, accept).await {
                                Ok(answer) => answer,
                                Err(r) => Some(r.json()),
                            },
                            None => handle(hub, game, actor, t.as_str()).await,
                        },
                    }
                }
            }
            u = rx.recv() => match u {
                Ok(u) => {
                    if let Update::Rematch(started) = &*u {
                        match (actor, token) {
                            (Actor::Seat(side), Some(token)) => Some(started.text(side, token)),
                            _ => None,
                        }
                    } else {
                    if let Update::View { seq: s, .. } = &*u {
                        if *s <= seq {
                            continue;
                        }
                        seq = *s;
                    }
                    Some(u.text(actor))
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    let st = game.state.lock().await;
                    seq = st.seq;
                    Some(game.view_now(hub, &st, actor))
                }
                Err(RecvError::Closed) => return,
            },
            () = keep.timer.as_mut() => match keep.fired() {
                Due::Dead => return,
                Due::Ping => {
                    if !send(&mut socket, Message::Ping(Default::default()), &mut keep).await {
                        return;
                    }
                    continue;
                }
                Due::Nothing => continue,
            },
        };
        if let Some(text) = out {
            if !send(&mut socket, Message::Text(text.into()), &mut keep).await {
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
        Some("resign") => match seq {
            Some(seq) => Req::Resign { seq },
            None => return bad("resign needs seq, the number of the view it answers"),
        },
        Some("draw") => match (seq, v.get("offer").and_then(Value::as_bool)) {
            (Some(seq), Some(offer)) => Req::Draw { seq, offer },
            _ => return bad("draw needs seq (the view's number) and offer (true to offer or accept, false to decline)"),
        },
        Some("rematch") => return bad("rematch needs accept, true or false"),
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
            return Some(match game.hint(hub, actor, seq).await {
                Ok(t) => t,
                Err(r) => r.json(),
            });
        }
        Some(t) => return bad(&format!("unknown message type '{t}': roll, act, hint, resign, draw, rematch or ping")),
        None => return bad("the message has no type: give \"t\""),
    };
    match game.play(hub, actor, req).await {
        Ok(()) => None,
        Err(r) => Some(r.json()),
    }
}

/// `{"t":"rematch","accept":B}`: B.
fn rematch_accept(text: &str) -> Option<bool> {
    let v = serde_json::from_str::<Value>(text).ok()?;
    (v.get("t")?.as_str()? == "rematch").then(|| v.get("accept").and_then(Value::as_bool)).flatten()
}
