//! The lobby: open seeks (stored, so processes sharing PostgreSQL share
//! them), their acceptance into online games, quick match, and the
//! lobby's live updates over `/ws/lobby`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;
use ur_rules::Options;
use ur_session::NewGame;

use crate::accounts::{name_key, who, Failures};
use crate::http::{new_game, refuse, CreateReq, Seating};
use crate::live::{hash_token, secret, Hub};
use crate::sql::Val;
use crate::store::now_ms;

/// A seek whose seeker's page has not been heard from for this long is
/// gone (its page keeps it alive over `/ws/lobby`).
pub const SEEK_TTL_MS: i64 = 60_000;
/// How often the lobby is swept of stale seeks and sent again.
const SWEEP: Duration = Duration::from_secs(10);

/// What the lobby's sockets are sent.
#[derive(Clone, Debug)]
pub enum Event {
    /// The whole lobby, as its JSON message.
    Lobby(Arc<str>),
    /// A seek was accepted: the game it became, and the seeker's seat.
    Matched { seek: String, game: String, seat: String },
}

/// The lobby's live updates, and the accounts' failed sign-ins.
pub struct Lobby {
    pub tx: broadcast::Sender<Event>,
    pub failures: Failures,
    /// Held from a quick match's search to its seek's storing, so two
    /// asking the same at once pair with each other rather than both wait.
    quick: tokio::sync::Mutex<()>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby { tx: broadcast::channel(64).0, failures: Failures::default(), quick: tokio::sync::Mutex::new(()) }
    }
}

impl Lobby {
    /// The lobby changed here: its sockets, and the other processes, are told.
    pub async fn changed(&self, hub: &Hub) {
        self.send_lobby(hub).await;
        hub.store.notify(format!("l:{}", hub.proc_id)).await;
    }

    async fn send_lobby(&self, hub: &Hub) {
        if self.tx.receiver_count() == 0 {
            return;
        }
        if let Ok(v) = snapshot(hub).await {
            let mut v = v;
            v["t"] = json!("lobby");
            let _ = self.tx.send(Event::Lobby(v.to_string().into()));
        }
    }

    fn matched(&self, hub: &Hub, seek: &str, game: &str, seat: &str) {
        let _ = self.tx.send(Event::Matched { seek: seek.into(), game: game.into(), seat: seat.into() });
        let payload = format!("l:{}:{seek}:{game}:{seat}", hub.proc_id);
        let store = hub.store.clone();
        tokio::spawn(async move { store.notify(payload).await });
    }

    /// Another process changed the lobby (`rest` is empty), or matched a seek.
    pub async fn notified(&self, hub: &Hub, rest: &[&str]) {
        if let [seek, game, seat] = rest {
            let _ = self.tx.send(Event::Matched { seek: seek.to_string(), game: game.to_string(), seat: seat.to_string() });
        }
        self.send_lobby(hub).await;
    }
}

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/lobby", get(lobby))
        .route("/api/seeks", post(create_seek))
        .route("/api/seeks/{id}", axum::routing::delete(cancel_seek))
        .route("/api/seeks/{id}/accept", post(accept_seek))
        .route("/ws/lobby", get(lobby_socket))
        .route("/api/accounts", post(crate::accounts::register))
        .route("/api/accounts/{name}", axum::routing::delete(crate::accounts::delete))
        .route("/api/session", get(crate::accounts::me).post(crate::accounts::login).delete(crate::accounts::logout))
        .route("/api/players/{name}", get(crate::ratings::player))
        .route("/api/leaderboard/{rules}", get(crate::ratings::leaderboard))
}

/// Sweeps stale seeks and sends the lobby again now and then, while the hub lives.
pub async fn sweep(hub: std::sync::Weak<Hub>) {
    loop {
        tokio::time::sleep(SWEEP).await;
        let Some(hub) = hub.upgrade() else { return };
        let stale = hub.store.write("DELETE FROM seeks WHERE seen_ms < ?1 RETURNING id", vec![(now_ms() - SEEK_TTL_MS).into()]).await;
        if stale.is_ok_and(|r| !r.is_empty()) {
            hub.lobby.changed(&hub).await;
        } else {
            hub.lobby.send_lobby(&hub).await;
        }
    }
}

fn seek_json(r: &[Val]) -> Value {
    let parse = |v: &Val| v.text().and_then(|t| serde_json::from_str::<Value>(&t).ok()).unwrap_or(Value::Null);
    json!({
        "id": r[0].text(), "rules": r[1].text(), "options": parse(&r[2]), "clock": parse(&r[3]),
        "rated": r[4].int() != 0, "who": r[5].text(), "created_ms": r[6].int(),
    })
}

/// The open seeks (oldest first) and the online games in play (the last moved first).
async fn snapshot(hub: &Hub) -> Result<Value, String> {
    let seeks = hub
        .store
        .rows(
            "SELECT s.id, s.rules, s.options, s.clock, s.rated, a.name, s.created_ms FROM seeks s
             LEFT JOIN accounts a ON a.name_key = s.account WHERE s.seen_ms >= ?1 AND s.game IS NULL ORDER BY s.created_ms LIMIT 200",
            vec![(now_ms() - SEEK_TTL_MS).into()],
        )
        .await
        .map_err(|e| e.to_string())?;
    let games = hub
        .store
        .rows(
            "SELECT g.id, g.rules_id, a1.name, a2.name, g.rated FROM games g
             LEFT JOIN accounts a1 ON a1.name_key = g.player_light LEFT JOIN accounts a2 ON a2.name_key = g.player_dark
             WHERE g.status = 'playing' AND g.mode = 'online' AND g.rules_id IS NOT NULL AND g.updated_ms > g.created_ms
             ORDER BY g.updated_ms DESC LIMIT 50",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let games: Vec<Value> = games
        .iter()
        .map(|r| json!({"id": r[0].text(), "rules": r[1].text(), "players": {"light": r[2].text(), "dark": r[3].text()}, "rated": r[4].int() != 0, "watch": format!("/#/game/{}", r[0].text().unwrap_or_default())}))
        .collect();
    Ok(json!({"seeks": seeks.iter().map(|r| seek_json(r)).collect::<Vec<_>>(), "games": games}))
}

/// `GET /api/lobby`.
async fn lobby(State(hub): State<Arc<Hub>>) -> Response {
    match snapshot(&hub).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekReq {
    rules: String,
    #[serde(default)]
    options: serde_json::Map<String, Value>,
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    rated: bool,
    /// Quick match: accept an open seek asking the same, else make one.
    #[serde(default)]
    quick: bool,
}

/// A clock as stored and compared: `{"initial_s","increment_s"}` (and
/// `"per_move": true`), or `null`.
fn canonical_clock(clock: Option<&Value>) -> Result<String, String> {
    let Some(c) = clock.filter(|c| !c.is_null()) else { return Ok("null".into()) };
    let bad = || {
        format!(
            "clock must be {{\"initial_s\": S, \"increment_s\": I}} with S 1 to 86400 and I 0 to 600 (and \"per_move\": true for a \
             day per move), not {c}"
        )
    };
    let obj = c.as_object().ok_or_else(bad)?;
    if obj.keys().any(|k| !matches!(k.as_str(), "initial_s" | "increment_s" | "per_move")) {
        return Err(bad());
    }
    let initial = obj.get("initial_s").and_then(Value::as_u64).filter(|s| (1..=86_400).contains(s)).ok_or_else(bad)?;
    let increment = obj.get("increment_s").and_then(Value::as_u64).filter(|s| *s <= 600).ok_or_else(bad)?;
    let per_move = match obj.get("per_move") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(bad)?,
    };
    Ok(if per_move {
        format!(r#"{{"initial_s":{initial},"increment_s":{increment},"per_move":true}}"#)
    } else {
        format!(r#"{{"initial_s":{initial},"increment_s":{increment}}}"#)
    })
}

/// Options with their keys in order, as stored and compared.
fn canonical_options(options: &serde_json::Map<String, Value>) -> String {
    let sorted: std::collections::BTreeMap<&String, &Value> = options.iter().collect();
    serde_json::to_string(&sorted).unwrap_or_else(|_| "{}".into())
}

fn game_request(rules: &str, options: &str, clock: &str) -> Result<CreateReq, String> {
    let mut req = json!({"rules": rules, "mode": "online", "seat": "random"});
    req["options"] = serde_json::from_str(options).map_err(|e| e.to_string())?;
    let clock: Value = serde_json::from_str(clock).map_err(|e| e.to_string())?;
    if !clock.is_null() {
        req["clock"] = clock;
    }
    serde_json::from_value(req).map_err(|e| e.to_string())
}

/// `POST /api/seeks`: makes a seek (`{"id","secret"}`), or with `quick`
/// accepts an open seek asking the same (the game, as `accept` answers).
async fn create_seek(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(r) = crate::http::too_fast(&hub, addr.ip(), "makes seeks") {
        return r;
    }
    let req: SeekReq = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            let m = format!("the request is not a seek: give {{\"rules\", \"options\", \"clock\", \"rated\", \"quick\"}} ({e})");
            return refuse(StatusCode::BAD_REQUEST, "bad_request", m);
        }
    };
    let clock = match canonical_clock(req.clock.as_ref()) {
        Ok(c) => c,
        Err(m) => return refuse(StatusCode::BAD_REQUEST, "bad_clock", m),
    };
    let options = canonical_options(&req.options);
    if let Err(m) = check_rules(&hub, &req.rules, &options, &clock) {
        return refuse(StatusCode::BAD_REQUEST, "bad_rules", m);
    }
    let account = who(&hub, &headers).await;
    if req.rated && account.is_none() {
        return refuse(StatusCode::BAD_REQUEST, "not_signed_in", "a rated seek needs an account: sign in, or leave rated out");
    }
    let _searching = if req.quick { Some(hub.lobby.quick.lock().await) } else { None };
    if req.quick {
        if let Some(r) = quick_match(&hub, addr, account.as_ref().map(|a| a.name.clone()), &req.rules, &options, &clock, req.rated).await {
            return r;
        }
    }
    let (id, secret) = (crate::live::secret(), secret());
    let now = now_ms();
    let stored = hub
        .store
        .write(
            "INSERT INTO seeks (id, secret_hash, rules, options, clock, rated, account, created_ms, seen_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
            vec![
                id.clone().into(),
                hash_token(&secret).into(),
                req.rules.clone().into(),
                options.into(),
                clock.into(),
                i64::from(req.rated).into(),
                account.map(|a| name_key(&a.name)).into(),
                now.into(),
            ],
        )
        .await;
    if let Err(e) = stored {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", format!("the seek could not be stored: {e}"));
    }
    hub.lobby.changed(&hub).await;
    Json(json!({"matched": false, "id": id, "secret": secret, "socket": format!("/ws/lobby?seek={id}&secret={secret}")})).into_response()
}

/// The rule set exists and takes these options, and the clock is one a game takes.
fn check_rules(hub: &Hub, rules: &str, options: &str, clock: &str) -> Result<(), String> {
    game_request(rules, options, clock)?;
    let mut opts = Options::new();
    let map: serde_json::Map<String, Value> = serde_json::from_str(options).map_err(|e| e.to_string())?;
    for (k, v) in map {
        let text = match v {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(format!("option {k} must be a string or a number")),
        };
        opts.insert(k, ur_rules::OptionValue::parse(&text));
    }
    hub.session(&NewGame { rules: ur_session::RulesSource::Builtin(rules.to_string()), options: opts, first: ur_rules::Side::Light })
        .map(drop)
}

/// Accepts the oldest open seek asking the same, if any (not one's own).
#[allow(clippy::too_many_arguments)]
async fn quick_match(
    hub: &Arc<Hub>,
    addr: SocketAddr,
    me: Option<String>,
    rules: &str,
    options: &str,
    clock: &str,
    rated: bool,
) -> Option<Response> {
    let open = hub
        .store
        .rows(
            "SELECT id FROM seeks WHERE rules = ?1 AND options = ?2 AND clock = ?3 AND rated = ?4 AND seen_ms >= ?5 AND game IS NULL
             AND (account IS NULL OR ?6 IS NULL OR account <> ?6) ORDER BY created_ms LIMIT 10",
            vec![
                rules.into(),
                options.into(),
                clock.into(),
                i64::from(rated).into(),
                (now_ms() - SEEK_TTL_MS).into(),
                me.as_deref().map(name_key).into(),
            ],
        )
        .await
        .ok()?;
    for r in open {
        let Some(id) = r[0].text() else { continue };
        match accept(hub, addr, me.clone(), &id).await {
            Err(Gone) => continue,
            Ok(response) => return Some(response),
        }
    }
    None
}

struct Gone;

/// Takes the seek out of the store (one acceptance wins) and starts its game.
async fn accept(hub: &Arc<Hub>, addr: SocketAddr, me: Option<String>, id: &str) -> Result<Response, Gone> {
    if me.is_none() {
        let rated = hub.store.rows("SELECT rated FROM seeks WHERE id = ?1 AND game IS NULL", vec![id.into()]).await;
        if rated.is_ok_and(|r| r.first().is_some_and(|r| r[0].int() != 0)) {
            return Ok(refuse(StatusCode::BAD_REQUEST, "not_signed_in", "this seek is rated: sign in to accept it"));
        }
    }
    let claimed = hub
        .store
        .write(
            "UPDATE seeks SET game = '' WHERE id = ?1 AND seen_ms >= ?2 AND game IS NULL RETURNING secret_hash, rules, options, clock, rated, account",
            vec![id.into(), (now_ms() - SEEK_TTL_MS).into()],
        )
        .await;
    let Some(row) = claimed.ok().and_then(|r| r.into_iter().next()) else { return Err(Gone) };
    let text = |i: usize| row[i].text().unwrap_or_default();
    let rated = row[4].int() != 0;
    let seeker = match row[5].text() {
        Some(key) => hub
            .store
            .rows("SELECT name FROM accounts WHERE name_key = ?1", vec![key.into()])
            .await
            .ok()
            .and_then(|r| r.first().and_then(|r| r[0].text())),
        None => None,
    };
    let answer = async {
        let mut req = game_request(&text(1), &text(2), &text(3)).map_err(|m| refuse(StatusCode::BAD_REQUEST, "bad_rules", m))?;
        req.set_rated(rated && seeker.is_some());
        let seating = Seating { creator: seeker.clone(), other: me.clone(), creator_token_hash: Some(text(0)) };
        new_game(hub, addr.ip(), req, seating).await
    };
    let created = answer.await;
    let c = match created {
        Ok(c) => c,
        Err(r) => {
            let _ = hub.store.write("DELETE FROM seeks WHERE id = ?1", vec![id.into()]).await;
            hub.lobby.changed(hub).await;
            return Ok(r);
        }
    };
    // Kept, with its game, for a seeker's socket that opens only now; it goes when that socket closes.
    let _ = hub
        .store
        .write("UPDATE seeks SET game = ?2, seat = ?3 WHERE id = ?1", vec![id.into(), c.id.clone().into(), c.seat.clone().into()])
        .await;
    hub.lobby.changed(hub).await;
    let mine = if c.seat == "light" { "dark" } else { "light" };
    hub.lobby.matched(hub, id, &c.id, &c.seat);
    let token = c.invite.unwrap_or_default();
    Ok(Json(json!({
        "matched": true,
        "id": c.id,
        "token": token,
        "seat": mine,
        "invite": null,
        "watch": format!("/#/game/{}", c.id),
        "play": format!("/#/game/{}?token={token}", c.id),
    }))
    .into_response())
}

/// `POST /api/seeks/<id>/accept`: the new game for the one who accepts, in `POST /api/games`' shape.
async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let me = who(&hub, &headers).await.map(|a| a.name);
    if let Some(me) = &me {
        let own = hub
            .store
            .rows("SELECT 1 FROM seeks WHERE id = ?1 AND account = ?2 AND game IS NULL", vec![id.clone().into(), name_key(me).into()])
            .await;
        if own.is_ok_and(|r| !r.is_empty()) {
            return refuse(StatusCode::BAD_REQUEST, "own_seek", "this is your own seek: wait for someone to accept it, or cancel it");
        }
    }
    match accept(&hub, addr, me, &id).await {
        Ok(r) => r,
        Err(Gone) => refuse(StatusCode::NOT_FOUND, "unknown_seek", "no open seek with that id: it was accepted, cancelled or has expired"),
    }
}

#[derive(Deserialize)]
struct SecretQuery {
    secret: Option<String>,
}

/// `DELETE /api/seeks/<id>?secret=S` (or `{"secret": S}` as the body): the seeker cancels.
async fn cancel_seek(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<SecretQuery>,
    body: axum::body::Bytes,
) -> Response {
    let from_body = serde_json::from_slice::<Value>(&body).ok().and_then(|v| v.get("secret").and_then(Value::as_str).map(str::to_string));
    let Some(secret) = q.secret.or(from_body) else {
        return refuse(StatusCode::BAD_REQUEST, "bad_request", "give the seek's secret: {\"secret\": S} (POST /api/seeks answered it)");
    };
    match delete_seek(&hub, &id, &secret).await {
        Ok(true) => Json(json!({"cancelled": id})).into_response(),
        Ok(false) => {
            refuse(StatusCode::NOT_FOUND, "unknown_seek", "no open seek with that id and secret: it was accepted, cancelled or has expired")
        }
        Err(e) => refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e),
    }
}

async fn delete_seek(hub: &Hub, id: &str, secret: &str) -> Result<bool, String> {
    let gone = hub
        .store
        .write(
            "DELETE FROM seeks WHERE id = ?1 AND secret_hash = ?2 AND game IS NULL RETURNING id",
            vec![id.into(), hash_token(secret).into()],
        )
        .await
        .map_err(|e| e.to_string())?;
    if !gone.is_empty() {
        hub.lobby.changed(hub).await;
    }
    Ok(!gone.is_empty())
}

#[derive(Deserialize)]
struct SocketQuery {
    seek: Option<String>,
    secret: Option<String>,
}

/// `/ws/lobby[?seek=ID&secret=S]`: the lobby now and at each change; with
/// a seek, the socket keeps it open (it goes when the socket closes) and is
/// told `{"t":"matched"}` with the seeker's game and token when it is accepted.
async fn lobby_socket(ws: WebSocketUpgrade, Query(q): Query<SocketQuery>, State(hub): State<Arc<Hub>>) -> Response {
    ws.max_message_size(4096).on_upgrade(move |socket| async move {
        let held = match (q.seek, q.secret) {
            (Some(id), Some(secret)) => Some((id, secret)),
            _ => None,
        };
        talk(socket, &hub, held.as_ref()).await;
        if let Some((id, secret)) = held {
            let _ = delete_seek(&hub, &id, &secret).await;
            let _ =
                hub.store.write("DELETE FROM seeks WHERE id = ?1 AND secret_hash = ?2", vec![id.into(), hash_token(&secret).into()]).await;
        }
    })
}

/// `{"t":"matched"}` for the seeker holding `held`.
fn matched_text(held: &(String, String), game: &str, seat: &str) -> String {
    let (seek, secret) = held;
    json!({"t": "matched", "seek": seek, "id": game, "token": secret, "seat": seat, "url": format!("/#/game/{game}?token={secret}")})
        .to_string()
}

/// The game of a seek accepted before its seeker's socket opened, if any.
async fn matched_before(hub: &Hub, held: &(String, String)) -> Option<String> {
    let rows = hub
        .store
        .rows("SELECT game, seat FROM seeks WHERE id = ?1 AND secret_hash = ?2", vec![held.0.clone().into(), hash_token(&held.1).into()])
        .await
        .ok()?;
    let r = rows.first()?;
    let (game, seat) = (r[0].text().filter(|g| !g.is_empty())?, r[1].text()?);
    Some(matched_text(held, &game, &seat))
}

async fn talk(mut socket: WebSocket, hub: &Arc<Hub>, held: Option<&(String, String)>) {
    let mut rx = hub.lobby.tx.subscribe();
    if let Ok(mut v) = snapshot(hub).await {
        v["t"] = json!("lobby");
        if socket.send(Message::Text(v.to_string().into())).await.is_err() {
            return;
        }
    }
    // Subscribed first: an acceptance from now on is heard, one before is read here.
    if let Some(text) = match held {
        Some(h) => matched_before(hub, h).await,
        None => None,
    } {
        if socket.send(Message::Text(text.into())).await.is_err() {
            return;
        }
    }
    let mut beat = tokio::time::interval(hub.cfg.ws_ping);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            m = socket.recv() => match m {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => heard = tokio::time::Instant::now(),
            },
            e = rx.recv() => {
                let text = match e {
                    Ok(Event::Lobby(text)) => text.to_string(),
                    Ok(Event::Matched { seek, game, seat }) => match held {
                        Some(h) if h.0 == seek => matched_text(h, &game, &seat),
                        _ => continue,
                    },
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            _ = beat.tick() => {
                if heard.elapsed() > hub.cfg.ws_timeout || socket.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
                if let Some((id, _)) = held {
                    let _ = hub.store.write("UPDATE seeks SET seen_ms = ?2 WHERE id = ?1", vec![id.clone().into(), now_ms().into()]).await;
                }
            }
        }
    }
}
