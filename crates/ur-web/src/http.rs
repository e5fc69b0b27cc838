//! The HTTP side: the page and its files, the rule sets, creating games and
//! downloading their records.

use std::sync::Arc;

use axum::body::Body;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use include_dir::{include_dir, Dir};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use rand::rngs::OsRng;
use rand::RngCore;
use serde::Deserialize;
use serde_json::{json, Value};
use ur_rules::{family_rule_sets, OptionValue, Options, Playable, RuleSetFile, Rules, Side};
use ur_session::view::game_view;
use ur_session::{NewGame, RulesSource, Session};

use crate::hub::CreateError;
use crate::live::{hash_token, secret, side_key, Hub, Meta};
use crate::store::{now_ms, GameRow};

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

pub fn router(hub: Arc<Hub>) -> Router {
    let body_limit = hub.cfg.max_rules_file * 2 + 16 * 1024;
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/api/rules", get(rules_list))
        .route("/api/rules/{id}", get(rules_one))
        .route("/api/rules/check", post(crate::rules_check::check))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(setup))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/review", get(crate::review_api::game_review))
        .route("/api/review", post(crate::review_api::upload_review).layer(DefaultBodyLimit::max(2 * crate::review_api::MAX_RECORD)))
        .route("/ws/{id}", get(crate::ws::upgrade))
        .merge(crate::lobby::routes())
        .route("/api/solving", get(solving_status))
        .fallback(|| async { refuse(StatusCode::NOT_FOUND, "not_found", "no such address: the API is under /api/ (docs/serve.md)") })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(Arc::new(hub.cfg.allow_origins.clone()), screen))
        .layer(axum::middleware::map_response(guarded))
        .with_state(hub)
}

/// Refuses a request whose `Host` is not a host name or address, and what a
/// page of another site could make its visitors send: websockets and POSTs
/// from another origin (unless `--allow-origin` lists it), POSTs that are
/// not JSON (a form or `text/plain` needs no permission from the server).
async fn screen(State(allowed): State<Arc<Vec<String>>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()).or_else(|| req.uri().authority().map(|a| a.as_str())) else {
        return refuse(StatusCode::BAD_REQUEST, "bad_host", "the request has no Host header: give the server's host and port");
    };
    if !sane_authority(host) {
        return refuse(StatusCode::BAD_REQUEST, "bad_host", "the Host header is not a host name or address with an optional port");
    }
    let changes = req.method() != Method::GET && req.method() != Method::HEAD;
    if changes || req.uri().path().starts_with("/ws/") {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("").trim_end_matches('/');
            let listed = allowed.iter().any(|a| a.eq_ignore_ascii_case(origin));
            if !listed && !same_origin(origin, host) {
                let m = format!(
                    "a page of {origin} may not use this server (it is {host}): open the game from the server's own address, \
                     or start the server with --allow-origin {origin}"
                );
                return refuse(StatusCode::FORBIDDEN, "cross_origin", m);
            }
        }
    }
    if changes && !is_json(headers) {
        let given = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("none");
        let m = format!("send the body as JSON with Content-Type: application/json (not {given})");
        return refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type", m);
    }
    next.run(req).await
}

fn is_json(headers: &HeaderMap) -> bool {
    let Some(ct) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    ct.split(';').next().is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// A host name, an IPv4 address or a bracketed IPv6 address, with an
/// optional port: `example.org`, `127.0.0.1:8080`, `[::1]:8080`.
fn sane_authority(a: &str) -> bool {
    split_authority(a).is_some()
}

/// An authority's host (lowercase as given) and port.
fn split_authority(a: &str) -> Option<(&str, Option<u16>)> {
    if a.is_empty() || a.len() > 255 {
        return None;
    }
    let (host, port) = if let Some(rest) = a.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        ip.parse::<std::net::Ipv6Addr>().ok()?;
        (&a[..ip.len() + 2], if after.is_empty() { None } else { Some(after.strip_prefix(':')?) })
    } else {
        let (host, port) = match a.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (a, None),
        };
        let name_chars = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_';
        if host.is_empty() || !host.chars().all(name_chars) {
            return None;
        }
        (host, port)
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
    };
    Some((host, port))
}

/// Whether `origin` (`scheme://host[:port]`) names the server `host` (the
/// Host header) answers as: the same host and port, the port defaulting to
/// the scheme's.
fn same_origin(origin: &str, host: &str) -> bool {
    let Some((scheme, authority)) = origin.split_once("://") else { return false };
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return false,
    };
    match (split_authority(authority), split_authority(host)) {
        (Some((oh, op)), Some((hh, hp))) => oh.eq_ignore_ascii_case(hh) && op.unwrap_or(default) == hp.unwrap_or(default),
        _ => false,
    }
}

/// Checks an `--allow-origin` value: `http(s)://host[:port]`, nothing after.
///
/// # Errors
/// The value in words, and what to give.
pub fn check_origin_flag(origin: &str) -> Result<(), String> {
    let ok = origin
        .split_once("://")
        .is_some_and(|(scheme, authority)| matches!(scheme, "http" | "https") && sane_authority(authority.trim_end_matches('/')));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--allow-origin {origin}: give an origin as a browser sends it, http(s)://HOST[:PORT], for example https://example.org"
        ))
    }
}

/// What every response may load and who may frame it. The page's scripts
/// and connections are its own only, so injected markup cannot run a
/// script or send a player's token away. Inline styles stay allowed: the
/// board draws its own `<style>` into its SVG.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async fn guarded(response: Response) -> Response {
    let mut response = as_json_error(response).await;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    // Share links carry a player's token (after `#`, which is never sent, but keep every address private).
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// Every error answer is a refusal in JSON: the framework's own (a body over
/// the size taken, a wrong method, a request it cannot read) are put in
/// those words here.
async fn as_json_error(response: Response) -> Response {
    let status = response.status();
    let json = response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (code, words) = match status {
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => ("bad_request", "the request cannot be read"),
        StatusCode::NOT_FOUND => ("not_found", "no such address"),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "this address does not take that method"),
        StatusCode::PAYLOAD_TOO_LARGE => ("too_large", "the request body is larger than this address takes"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ("bad_content_type", "send the body as JSON with Content-Type: application/json"),
        StatusCode::TOO_MANY_REQUESTS => ("rate_limited", "too many requests"),
        s if s.is_server_error() => ("internal", "the server failed to answer"),
        _ => ("refused", "the request is refused"),
    };
    let text = axum::body::to_bytes(response.into_body(), 4096).await.unwrap_or_default();
    let detail = String::from_utf8_lossy(&text);
    let message = if detail.trim().is_empty() { words.to_string() } else { format!("{words} ({})", detail.trim()) };
    refuse(status, code, message)
}

/// A refusal over HTTP: `{"t":"error","code","message"}` with a status.
pub fn refuse(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    (status, Json(json!({"t": "error", "code": code, "message": message.into()}))).into_response()
}

/// The refusal of a creation (a game, a seek, an account) over the
/// address's rate, which all creations share; `None` when it may go on.
pub fn too_fast(hub: &Hub, ip: IpAddr, what: &str) -> Option<Response> {
    let m = format!("this address {what} too fast: at most {} a second, wait a moment", hub.cfg.games_per_second);
    (!hub.may_create(ip)).then(|| refuse(StatusCode::TOO_MANY_REQUESTS, "rate_limited", m))
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn file(path: &str) -> Response {
    match ASSETS.get_file(path) {
        Some(f) => {
            ([(header::CONTENT_TYPE, content_type(path)), (header::CACHE_CONTROL, "no-cache")], Body::from(f.contents())).into_response()
        }
        None => refuse(StatusCode::NOT_FOUND, "not_found", format!("no file {path}")),
    }
}

async fn index() -> Response {
    if ASSETS.get_file("index.html").is_none() {
        let page = "<!doctype html><meta charset=utf-8><title>ur serve</title><p>This build of <code>ur serve</code> has no page \
                    (crates/ur-web/assets/index.html): the API and websockets work (docs/serve.md).";
        return ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response();
    }
    file("index.html")
}

async fn asset(Path(path): Path<String>) -> Response {
    if path.split('/').any(|p| p == ".." || p.is_empty()) {
        return refuse(StatusCode::NOT_FOUND, "not_found", "no such file");
    }
    file(&path)
}

/// Every built-in rule set: race sets first, then the other families.
fn catalogue() -> Vec<Value> {
    let mut out = Vec::new();
    for f in RuleSetFile::all_builtin() {
        if let Ok(rules) = Rules::from_file(&f, &Options::new()) {
            out.push(json!({"id": f.id, "name": f.name, "family": "race", "summary": rules.spec.summary}));
        }
    }
    for s in family_rule_sets() {
        out.push(json!({"id": s.id, "name": s.name, "family": family_key(s.family), "summary": s.summary}));
    }
    out
}

fn family_key(f: ur_rules::Family) -> String {
    serde_json::to_value(f).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

async fn rules_list() -> Response {
    Json(catalogue()).into_response()
}

async fn rules_one(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    let Some(mut entry) = catalogue().into_iter().find(|e| e["id"] == id.as_str()) else {
        return refuse(StatusCode::NOT_FOUND, "unknown_rules", format!("no rule set '{id}': GET /api/rules lists them"));
    };
    let options: Value = match RuleSetFile::all_builtin().into_iter().find(|f| f.id == id) {
        Some(f) => serde_json::to_value(&f.options).unwrap_or(Value::Null),
        None => family_rule_sets()
            .into_iter()
            .find(|s| s.id == id)
            .map(|s| {
                s.options
                    .iter()
                    .map(|o| json!({"name": o.name, "description": o.description, "default": o.default, "values": o.values}))
                    .collect()
            })
            .unwrap_or(Value::Null),
    };
    entry["options"] = options;
    entry["teach"] = ur_session::teach::teaching(&id).unwrap_or(Value::Null);
    match hub.session(&NewGame::builtin(&id)) {
        Ok(s) => entry["view"] = serde_json::to_value(game_view(&s)).unwrap_or(Value::Null),
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "rules", e),
    }
    Json(entry).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateReq {
    rules: Option<String>,
    rules_file: Option<String>,
    #[serde(default)]
    options: serde_json::Map<String, Value>,
    mode: String,
    bot: Option<Value>,
    seat: Option<String>,
    first: Option<String>,
    /// A position string to start from (docs/positions.md); its side moves first.
    position: Option<String>,
    /// An online game's time control (`crate::clock::ClockSpec`).
    clock: Option<Value>,
    /// Ratings change when the game ends, if both seats are held by accounts.
    #[serde(default)]
    rated: bool,
}

impl CreateReq {
    pub fn set_rated(&mut self, rated: bool) {
        self.rated = rated;
    }
}

/// Who a new game is for besides what its request says: the accounts of
/// the creator's seat and of the other, and the creator's token decided
/// in advance (a seek's secret, hashed).
#[derive(Default)]
pub struct Seating {
    pub creator: Option<String>,
    pub other: Option<String>,
    pub creator_token_hash: Option<String>,
}

/// A game created: its id, the creator's seat (`light`, `dark` or
/// `both`), the creator's token (unless decided in advance) and the
/// invitee's (online games).
pub struct Created {
    pub id: String,
    pub seat: String,
    pub token: Option<String>,
    pub invite: Option<String>,
}

async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if let Some(r) = too_fast(&hub, addr.ip(), "creates games") {
        return r;
    }
    let req: CreateReq = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, "bad_request", format!("the request is not a game to create: {e}")),
    };
    let online = req.mode == "online";
    let creator = crate::accounts::who(&hub, &headers).await.map(|a| a.name);
    let created = match new_game(&hub, addr.ip(), req, Seating { creator, ..Seating::default() }).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Created { id, seat, token, invite } = created;
    let token = token.unwrap_or_default();
    let invite = invite.filter(|_| online).map(|i| format!("/#/game/{id}?token={i}"));
    Json(json!({
        "id": id,
        "token": token,
        "seat": seat,
        "invite": invite,
        "watch": format!("/#/game/{id}"),
        "play": format!("/#/game/{id}?token={token}"),
    }))
    .into_response()
}

/// Creates a game: what `POST /api/games` and a seek's acceptance share.
///
/// # Errors
/// The refusal to answer, in words.
pub async fn new_game(hub: &Arc<Hub>, ip: std::net::IpAddr, req: CreateReq, seating: Seating) -> Result<Created, Response> {
    let bad = |m: String| refuse(StatusCode::BAD_REQUEST, "bad_request", m);
    if req.rated && seating.creator.is_none() {
        return Err(refuse(StatusCode::BAD_REQUEST, "not_signed_in", "a rated game needs an account: sign in, or leave rated out"));
    }
    if req.rated && req.mode != "online" {
        return Err(bad("only online games are rated: give mode online, or leave rated out".into()));
    }
    let rules = match (&req.rules, &req.rules_file) {
        (Some(id), None) => RulesSource::Builtin(id.clone()),
        (None, Some(text)) if text.len() > hub.cfg.max_rules_file => {
            return Err(refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("the rule-set file is {} bytes; at most {} are taken", text.len(), hub.cfg.max_rules_file),
            ))
        }
        (None, Some(text)) => RulesSource::File(text.clone()),
        _ => return Err(bad("give either rules (a rule-set id) or rules_file (the text of a rule-set file)".into())),
    };
    let mut options = Options::new();
    for (k, v) in &req.options {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(bad(format!("option {k} must be a string or a number"))),
        };
        options.insert(k.clone(), OptionValue::parse(&text));
    }
    let first = match req.first.as_deref() {
        None => Side::Light,
        Some(s) => match Side::parse(s) {
            Some(s) => s,
            None => return Err(bad(format!("first must be light or dark, not '{s}'"))),
        },
    };
    let new = NewGame { rules, options, first };
    let mut session = match hub.session(&new) {
        Ok(s) => s,
        Err(e) => return Err(refuse(StatusCode::BAD_REQUEST, "bad_rules", e)),
    };
    if let Some(text) = &req.position {
        if let Err(e) = session.set_text(text) {
            return Err(refuse(StatusCode::BAD_REQUEST, "bad_position", e.to_string()));
        }
    }
    // The start as a position string, which replays the same everywhere.
    let start = req.position.as_ref().map(|_| session.game().position_string());
    let seat = match req.seat.as_deref().unwrap_or("random") {
        "random" => {
            if OsRng.next_u32() & 1 == 0 {
                Side::Light
            } else {
                Side::Dark
            }
        }
        s => match Side::parse(s) {
            Some(s) => s,
            None => return Err(bad(format!("seat must be light, dark or random, not '{s}'"))),
        },
    };
    let token = seating.creator_token_hash.is_none().then(secret);
    let creator_hash = seating.creator_token_hash.clone().unwrap_or_else(|| hash_token(token.as_deref().unwrap_or_default()));
    let invite = secret();
    let mut tokens: [Option<String>; 2] = [None, None];
    let mut bots = [false, false];
    let mut bot = None;
    let you: String;
    match req.mode.as_str() {
        "bot" => {
            let name = bot_name(req.bot.as_ref()).map_err(bad)?;
            if let Err(m) = check_bot(&session, &name) {
                return Err(refuse(StatusCode::BAD_REQUEST, "bad_bot", m));
            }
            bot = Some(name);
            tokens[seat.index()] = Some(creator_hash);
            bots[1 - seat.index()] = true;
            you = side_key(seat).into();
        }
        "hotseat" => {
            tokens = [Some(creator_hash.clone()), Some(creator_hash)];
            you = "both".into();
        }
        "online" => {
            tokens[seat.index()] = Some(creator_hash);
            tokens[1 - seat.index()] = Some(hash_token(&invite));
            you = side_key(seat).into();
        }
        m => return Err(bad(format!("mode must be bot, hotseat or online, not '{m}'"))),
    }
    let clock = match crate::clock::ClockSpec::parse(req.clock.as_ref()) {
        Ok(Some(_)) if req.mode != "online" => {
            return Err(refuse(StatusCode::BAD_REQUEST, "bad_clock", "a clock is for online games: leave clock out, or give mode online"));
        }
        Ok(c) => c,
        Err(m) => return Err(refuse(StatusCode::BAD_REQUEST, "bad_clock", m)),
    };
    let id = secret();
    let meta = Meta { id: id.clone(), new, mode: req.mode.clone(), bots, bot, tokens, start, clock, players: Default::default() };
    let row = game_row(&meta);
    if let Some(text) = &row.rules_file {
        if let Err(m) = hub.take_rules_quota(ip, text.len()) {
            return Err(refuse(StatusCode::TOO_MANY_REQUESTS, "quota", m));
        }
    }
    let game = match hub.create(row, meta, session).await {
        Ok(g) => g,
        Err(CreateError::Busy(m)) => return Err(refuse(StatusCode::SERVICE_UNAVAILABLE, "busy", m)),
        Err(e) => return Err(refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e.to_string())),
    };
    let mut names: [Option<String>; 2] = [None, None];
    if you != "both" {
        names[seat.index()] = seating.creator.clone();
        names[1 - seat.index()] = seating.other.clone().filter(|_| req.mode == "online");
    }
    if names.iter().any(Option::is_some) || req.rated {
        if let Err(e) = crate::accounts::link_new_game(hub, &game, names, req.rated).await {
            return Err(refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e));
        }
    }
    Ok(Created { id, seat: you, token, invite: (req.mode == "online").then_some(invite) })
}

/// The stored row of a game just created, from what the hub keeps of it.
pub fn game_row(meta: &Meta) -> GameRow {
    let (rules_id, rules_file) = match &meta.new.rules {
        RulesSource::Builtin(id) => (Some(id.clone()), None),
        RulesSource::File(text) => (None, Some(text.clone())),
    };
    let kind = |b: bool| if b { "bot" } else { "human" }.to_string();
    GameRow {
        id: meta.id.clone(),
        rules_id,
        rules_file,
        options: serde_json::to_string(&meta.new.options).unwrap_or_else(|_| "{}".into()),
        first: side_key(meta.new.first).into(),
        mode: meta.mode.clone(),
        light: kind(meta.bots[0]),
        dark: kind(meta.bots[1]),
        bot: meta.bot.clone(),
        token_light: meta.tokens[0].clone(),
        token_dark: meta.tokens[1].clone(),
        status: "playing".into(),
        winner: None,
        created_ms: now_ms(),
        start: meta.start.clone(),
        clock: meta.clock.map(crate::clock::ClockSpec::to_text),
    }
}

/// `GET /api/solving`: where the background solving of each rule set stands.
async fn solving_status(State(hub): State<Arc<Hub>>) -> Json<Value> {
    Json(hub.solving.json(hub.cfg.tables.as_deref()))
}

/// `"3"`, `3`, `"level3"` or `"perfect"` as a bot name.
fn bot_name(v: Option<&Value>) -> Result<String, String> {
    let text = match v {
        None => "3".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(v) => return Err(format!("bot must be a level 1 to 5 or perfect, not {v}")),
    };
    let level = text.strip_prefix("level").unwrap_or(&text);
    match level {
        "1" | "2" | "3" | "4" | "5" => Ok(format!("level{level}")),
        "perfect" => Ok("perfect".into()),
        _ => Err(format!("bot must be a level 1 to 5 or perfect, not '{text}'")),
    }
}

fn check_bot(session: &Session, name: &str) -> Result<(), String> {
    let table = session.table().and_then(Result::ok);
    if name == "perfect" && table.is_none() {
        return Err(format!(
            "the perfect bot needs a table solved for these rules ({}), and the server has none: choose a level 1 to 5",
            session.game().rule_id()
        ));
    }
    let bot = ur_bots::make_bot_with_table(name, 1, table).map_err(|e| e.to_string())?;
    bot.check(session.game()).map_err(|e| e.to_string())
}

#[derive(Deserialize)]
struct RecordQuery {
    format: Option<String>,
}

/// A game's record, as JSON (the default) or as RGN (`?format=rgn`); a
/// clocked game's record carries each step's clock (`UrClocks`).
async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>, Query(q): Query<RecordQuery>) -> Response {
    let rgn = match q.format.as_deref() {
        None | Some("json") => false,
        Some("rgn") => true,
        Some(other) => return refuse(StatusCode::BAD_REQUEST, "bad_format", format!("format must be json or rgn, not '{other}'")),
    };
    let stored = match hub.stored_record(&id).await {
        Ok(Some(r)) => r,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, "unknown_game", "no game with that id"),
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e),
    };
    let stem = format!("ur-{}-{}", stored.rule_id, id.get(..8).unwrap_or(&id));
    let (text, kind, ext) = if rgn {
        match ur_session::rgn::write_game(&stored.saved, None) {
            Ok(t) => (t, "text/plain; charset=utf-8", "rgn"),
            Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "rgn", e.to_string()),
        }
    } else {
        (serde_json::to_string_pretty(&stored.saved).unwrap_or_default(), "application/json", "json")
    };
    let name = attachment(&format!("{stem}.{ext}"));
    ([(header::CONTENT_TYPE, kind.to_string()), (header::CONTENT_DISPOSITION, name)], text).into_response()
}

#[derive(Deserialize)]
struct SetupQuery {
    token: Option<String>,
}

/// What a game was created with, for the invitation page to show before
/// the invitee takes the seat: the rules and options, the start (as a
/// view to draw), who moves first, and the seat `token` opens. Reading it
/// joins nobody.
async fn setup(State(hub): State<Arc<Hub>>, Path(id): Path<String>, Query(q): Query<SetupQuery>) -> Response {
    let game = match hub.game(&id).await {
        Ok(Some(g)) => g,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, "unknown_game", "no game with that id"),
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e),
    };
    let meta = &game.meta;
    let mut start = match hub.session(&meta.new) {
        Ok(s) => s,
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "rules", e),
    };
    if let Some(Err(e)) = meta.start.as_deref().map(|text| start.set_text(text)) {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, "bad_position", e.to_string());
    }
    let view = game_view(&start);
    let common = game.common(&hub, &*game.state.lock().await);
    let you = q.token.as_deref().and_then(|t| meta.actor_for(t)).map_or(Value::Null, |a| a.you());
    Json(json!({
        "id": meta.id,
        "mode": meta.mode,
        "status": common.status,
        "custom": matches!(meta.new.rules, RulesSource::File(_)),
        "options": meta.new.options,
        "first": view.turn.side,
        "start": meta.start,
        "you": you,
        "seats": common.seats,
        "view": view,
    }))
    .into_response()
}

/// Every byte but RFC 5987's `attr-char`s is percent-encoded in `filename*`.
const NOT_ATTR_CHAR: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'#')
    .remove(b'$')
    .remove(b'&')
    .remove(b'+')
    .remove(b'-')
    .remove(b'.')
    .remove(b'^')
    .remove(b'_')
    .remove(b'`')
    .remove(b'|')
    .remove(b'~');

/// A `Content-Disposition` for a download (RFC 6266): the name in UTF-8 as
/// `filename*`, and a plain ASCII `filename` for clients that read no
/// other. Whatever the name holds, the header is printable ASCII.
fn attachment(name: &str) -> String {
    let plain: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    format!("attachment; filename=\"{plain}\"; filename*=UTF-8''{}", utf8_percent_encode(name, NOT_ATTR_CHAR))
}

#[cfg(test)]
mod tests {
    use super::{attachment, ASSETS};

    /// A name no rule-set id can hold any more (an older game's) still
    /// gives a header HTTP can carry, with the name kept in `filename*`.
    #[test]
    fn a_download_header_is_printable_ascii_whatever_the_name() {
        for (name, plain, encoded) in [
            ("ur-finkel-0123abcd.json", "ur-finkel-0123abcd.json", "ur-finkel-0123abcd.json"),
            ("ur-a\"b-1.json", "ur-a_b-1.json", "ur-a%22b-1.json"),
            ("ur-a\r\n\u{7f}b.json", "ur-a___b.json", "ur-a%0D%0A%7Fb.json"),
            ("ur-caf\u{e9} x;.json", "ur-caf__x_.json", "ur-caf%C3%A9%20x%3B.json"),
        ] {
            let header = attachment(name);
            assert_eq!(header, format!("attachment; filename=\"{plain}\"; filename*=UTF-8''{encoded}"));
            assert!(axum::http::HeaderValue::from_str(&header).is_ok(), "{header}");
        }
    }

    /// The page words every phrase the views send, in English and French.
    #[test]
    fn the_page_words_every_phrase_in_both_languages() {
        let i18n = ASSETS.get_file("i18n.js").and_then(|f| f.contents_utf8()).expect("i18n.js is embedded");
        let (en, fr) = i18n.split_once("\n  fr: {").expect("i18n.js has an fr table");
        for entry in ur_session::view::PHRASE_KEYS {
            let key = format!("'say.{}'", entry.split(':').next().unwrap_or_default());
            assert!(en.contains(&key), "i18n.js has no English {key}");
            assert!(fr.contains(&key), "i18n.js has no French {key}");
        }
    }
}
