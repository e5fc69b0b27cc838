//! Accounts (optional: nobody needs one to play): registration, sessions
//! in an `ur_session` cookie, and the accounts a game's seats are linked to.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Instant;

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rand::rngs::OsRng;
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;

use crate::http::refuse;
use crate::live::{hash_token, secret, Hub, LiveGame};
use crate::sql::Step;
use crate::store::now_ms;

pub const COOKIE: &str = "ur_session";
/// A session lasts 30 days.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;
/// Failed logins taken per minute: per name, and per client address.
const FAILS_PER_NAME: u32 = 5;
const FAILS_PER_ADDRESS: u32 = 20;

/// The accounts a game's seats are linked to (`[light, dark]`), and
/// whether its creator asked for a rated game.
#[derive(Debug, Default)]
pub struct Players {
    pub names: StdMutex<[Option<String>; 2]>,
    pub rated: std::sync::atomic::AtomicBool,
}

impl Players {
    pub fn get(&self) -> [Option<String>; 2] {
        self.names.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn rated(&self) -> bool {
        self.rated.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn json(&self) -> serde_json::Value {
        let [l, d] = self.get();
        json!({"light": l, "dark": d})
    }
}

/// Failed logins in the current minute, by name and by address.
#[derive(Default)]
pub struct Failures {
    by: StdMutex<HashMap<String, (u32, Instant)>>,
}

impl Failures {
    fn count(&self, key: &str) -> u32 {
        let by = self.by.lock().unwrap_or_else(|e| e.into_inner());
        by.get(key).filter(|(_, at)| at.elapsed().as_secs() < 60).map_or(0, |(n, _)| *n)
    }

    fn add(&self, key: String) {
        let mut by = self.by.lock().unwrap_or_else(|e| e.into_inner());
        if by.len() > 100_000 {
            by.retain(|_, (_, at)| at.elapsed().as_secs() < 60);
        }
        let e = by.entry(key).or_insert((0, Instant::now()));
        if e.1.elapsed().as_secs() >= 60 {
            *e = (0, Instant::now());
        }
        e.0 += 1;
    }
}

/// A signed-in account: its name as registered.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    pub name: String,
}

/// Names compare without case: `Ann` and `ann` are one account.
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// # Errors
/// The name in words, and what a name may be.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if (3..=20).contains(&name.len()) && ok_chars {
        Ok(())
    } else {
        Err(format!("the name '{name}' is not taken: give 3 to 20 characters among letters a-z A-Z, digits, _ and -"))
    }
}

fn check_password(p: &str) -> Result<(), String> {
    let n = p.chars().count();
    if (8..=200).contains(&n) {
        Ok(())
    } else {
        Err(format!("the password has {n} characters: give 8 to 200"))
    }
}

/// Argon2id with the crate's defaults (19 MiB, 2 passes), off the async threads.
async fn hash_password(password: String) -> Result<String, String> {
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        OsRng.fill_bytes(&mut salt);
        Argon2::default().hash_password_with_salt(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

async fn verify_password(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || Argon2::default().verify_password(password.as_bytes(), hash.as_str()).is_ok())
        .await
        .unwrap_or(false)
}

fn cookie_value(headers: &HeaderMap) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == COOKIE && !v.is_empty()).then(|| v.to_string())
    })
}

/// The account signed in on this request, if any.
pub async fn who(hub: &Hub, headers: &HeaderMap) -> Option<Account> {
    let token = cookie_value(headers)?;
    let rows = hub
        .store
        .rows(
            "SELECT a.name FROM sessions s JOIN accounts a ON a.name_key = s.name_key WHERE s.hash = ?1 AND s.expires_ms > ?2",
            vec![hash_token(&token).into(), now_ms().into()],
        )
        .await
        .ok()?;
    rows.first().and_then(|r| r[0].text()).map(|name| Account { name })
}

/// Whether the page was served over HTTPS (directly with `--https`, or
/// behind a proxy that says so).
fn over_https(hub: &Hub, headers: &HeaderMap) -> bool {
    hub.cfg.https || headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).is_some_and(|p| p.eq_ignore_ascii_case("https"))
}

fn cookie(hub: &Hub, headers: &HeaderMap, value: &str, max_age: i64) -> HeaderValue {
    let secure = if over_https(hub, headers) { "; Secure" } else { "" };
    let text = format!("{COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("ur_session=; Max-Age=0"))
}

/// A new session for `name`, stored (hashed), as the answer's cookie.
async fn open_session(hub: &Hub, headers: &HeaderMap, name: &str) -> Response {
    let token = secret();
    let now = now_ms();
    let stored = hub
        .store
        .write(
            "INSERT INTO sessions (hash, name_key, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4)",
            vec![hash_token(&token).into(), name_key(name).into(), now.into(), (now + SESSION_MS).into()],
        )
        .await;
    if let Err(e) = stored {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", format!("the session could not be stored: {e}"));
    }
    let mut r = Json(json!({"name": name})).into_response();
    r.headers_mut().insert(header::SET_COOKIE, cookie(hub, headers, &token, SESSION_MS / 1000));
    r
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

// The refusal is the answer itself, sent as it is: boxing it would gain nothing.
#[allow(clippy::result_large_err)]
fn credentials(body: &[u8]) -> Result<Credentials, Response> {
    serde_json::from_slice(body)
        .map_err(|e| refuse(StatusCode::BAD_REQUEST, "bad_request", format!("give {{\"name\": ..., \"password\": ...}} ({e})")))
}

/// `POST /api/accounts`: registers, and signs in.
pub async fn register(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(r) = crate::http::too_fast(&hub, addr.ip(), "registers accounts") {
        return r;
    }
    let c = match credentials(&body) {
        Ok(c) => c,
        Err(r) => return r,
    };
    if let Err(m) = check_name(&c.name).and_then(|()| check_password(&c.password)) {
        return refuse(StatusCode::BAD_REQUEST, "bad_account", m);
    }
    let hash = match hash_password(c.password).await {
        Ok(h) => h,
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", format!("the password could not be hashed: {e}")),
    };
    let step = Step::new(
        "INSERT INTO accounts (name_key, name, password, created_ms) VALUES (?1, ?2, ?3, ?4)",
        vec![name_key(&c.name).into(), c.name.clone().into(), hash.into(), now_ms().into()],
        Some(1),
    );
    match hub.store.transaction(vec![step]).await {
        Ok(true) => open_session(&hub, &headers, &c.name).await,
        Ok(false) => refuse(StatusCode::CONFLICT, "name_taken", format!("the name '{}' is taken: choose another", c.name)),
        Err(e) => refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", format!("the account could not be stored: {e}")),
    }
}

/// `POST /api/session`: signs in. Failed attempts are limited per name and per address.
pub async fn login(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let c = match credentials(&body) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let (by_name, by_ip) = (format!("n:{}", name_key(&c.name)), format!("a:{}", crate::hub::client_key(addr.ip())));
    let fails = &hub.lobby.failures;
    if fails.count(&by_name) >= FAILS_PER_NAME || fails.count(&by_ip) >= FAILS_PER_ADDRESS {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many failed sign-ins for this name or from this address: wait a minute and try again",
        );
    }
    let rows = hub.store.rows("SELECT name, password FROM accounts WHERE name_key = ?1", vec![name_key(&c.name).into()]).await;
    let row = match rows {
        Ok(r) => r.into_iter().next(),
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e.to_string()),
    };
    let name = match row {
        Some(r) if verify_password(c.password, r[1].text().unwrap_or_default()).await => r[0].text().unwrap_or_default(),
        _ => {
            fails.add(by_name);
            fails.add(by_ip);
            return refuse(StatusCode::UNAUTHORIZED, "bad_login", "wrong name or password: check both (names ignore case)");
        }
    };
    open_session(&hub, &headers, &name).await
}

/// `DELETE /api/session`: signs out (the session is deleted from the store).
pub async fn logout(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Response {
    if let Some(token) = cookie_value(&headers) {
        if let Err(e) = hub.store.write("DELETE FROM sessions WHERE hash = ?1", vec![hash_token(&token).into()]).await {
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e.to_string());
        }
    }
    let mut r = Json(json!({"name": null})).into_response();
    r.headers_mut().insert(header::SET_COOKIE, cookie(&hub, &headers, "", 0));
    r
}

/// `GET /api/session`: who is signed in (`name` null when nobody).
pub async fn me(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Response {
    Json(json!({"name": who(&hub, &headers).await.map(|a| a.name)})).into_response()
}

/// `DELETE /api/accounts/<name>`: the account signed in deletes itself and
/// its personal data; its games stay, their seats no longer linked.
pub async fn delete(State(hub): State<Arc<Hub>>, Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(me) = who(&hub, &headers).await else {
        return refuse(StatusCode::UNAUTHORIZED, "not_signed_in", "sign in as this account to delete it");
    };
    if name_key(&me.name) != name_key(&name) {
        return refuse(StatusCode::FORBIDDEN, "not_yours", format!("you are signed in as {}: an account deletes only itself", me.name));
    }
    let k = name_key(&me.name);
    let steps = [
        "UPDATE games SET player_light = NULL WHERE player_light = ?1",
        "UPDATE games SET player_dark = NULL WHERE player_dark = ?1",
        "DELETE FROM rating_history WHERE name_key = ?1",
        "DELETE FROM ratings WHERE name_key = ?1",
        "DELETE FROM seeks WHERE account = ?1",
        "DELETE FROM sessions WHERE name_key = ?1",
        "DELETE FROM accounts WHERE name_key = ?1",
    ]
    .iter()
    .map(|sql| Step::new(sql, vec![k.clone().into()], None))
    .collect();
    match hub.store.transaction(steps).await {
        Ok(_) => {
            hub.lobby.changed(&hub).await;
            let mut r = Json(json!({"deleted": me.name})).into_response();
            r.headers_mut().insert(header::SET_COOKIE, cookie(&hub, &headers, "", 0));
            r
        }
        Err(e) => refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", format!("the account could not be deleted: {e}")),
    }
}

/// Links the seats of a new game to accounts (by key), and stores whether it is rated.
pub async fn link_new_game(hub: &Hub, game: &LiveGame, names: [Option<String>; 2], rated: bool) -> Result<(), String> {
    let keys = names.clone().map(|n| n.map(|n| name_key(&n)));
    hub.store
        .write(
            "UPDATE games SET player_light = ?2, player_dark = ?3, rated = ?4 WHERE id = ?1",
            vec![game.meta.id.clone().into(), keys[0].clone().into(), keys[1].clone().into(), i64::from(rated).into()],
        )
        .await
        .map_err(|e| e.to_string())?;
    *game.meta.players.names.lock().unwrap_or_else(|e| e.into_inner()) = names;
    game.meta.players.rated.store(rated, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// A seat taken over a websocket by a signed-in player is linked to the
/// account, when the seat has none yet and the other seat is not the same account.
pub async fn link_seat(hub: &Hub, game: &LiveGame, seat: usize, account: &Account) {
    let names = game.meta.players.get();
    if names[seat].is_some() || names[1 - seat].as_deref().map(name_key) == Some(name_key(&account.name)) {
        return;
    }
    let column = if seat == 0 { "player_light" } else { "player_dark" };
    let sql = format!("UPDATE games SET {column} = ?2 WHERE id = ?1 AND {column} IS NULL");
    if hub.store.write(&sql, vec![game.meta.id.clone().into(), name_key(&account.name).into()]).await.is_ok() {
        game.meta.players.names.lock().unwrap_or_else(|e| e.into_inner())[seat] = Some(account.name.clone());
    }
}

/// The accounts of a game loaded from the store, by their names as registered.
pub async fn load_players(hub: &Hub, game: &LiveGame) {
    let sql = "SELECT a1.name, a2.name, g.rated FROM games g
               LEFT JOIN accounts a1 ON a1.name_key = g.player_light
               LEFT JOIN accounts a2 ON a2.name_key = g.player_dark WHERE g.id = ?1";
    if let Ok(rows) = hub.store.rows(sql, vec![game.meta.id.clone().into()]).await {
        if let Some(r) = rows.first() {
            *game.meta.players.names.lock().unwrap_or_else(|e| e.into_inner()) = [r[0].text(), r[1].text()];
            game.meta.players.rated.store(r[2].int() != 0, std::sync::atomic::Ordering::Relaxed);
        }
    }
}
