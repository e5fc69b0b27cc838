//! Games in play: each game's session behind a lock, its seats, who is
//! connected, and the updates sent to every socket watching it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use rand::rngs::OsRng;
use rand::RngCore;
use serde::Serialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, Mutex};
use ur_bots::hint::Hint;
use ur_rules::{Action, AnyAction, Playable, Rules, Side, Turn};
use ur_session::tables::{LoadedTable, TableOracle};
use ur_session::view::{game_view, ActionView, GameView, PositionView, RulesView, SideView, ThrowView, TurnView};
use ur_session::{NewGame, Session, Tables, DEFAULT_DEPTH};

use crate::clock::ClockSpec;
pub use crate::hub::Hub;
use crate::store::{now_ms, EventRow, StatusChange, StoreError};
use crate::track::{Outcome, Track};

/// A refusal sent to a client as `{"t":"error","code","message"}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    pub fn json(&self) -> String {
        json!({"t": "error", "code": self.code, "message": self.message}).to_string()
    }
}

/// Who a connection or task acts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Seat(Side),
    /// The hot-seat token: both sides.
    Both,
    Watcher,
    Bot,
}

impl Actor {
    pub fn you(self) -> Value {
        match self {
            Actor::Seat(s) => json!(side_key(s)),
            Actor::Both => json!("both"),
            _ => Value::Null,
        }
    }

    fn seats(self) -> [bool; 2] {
        match self {
            Actor::Seat(Side::Light) => [true, false],
            Actor::Seat(Side::Dark) => [false, true],
            Actor::Both => [true, true],
            _ => [false, false],
        }
    }
}

pub fn side_key(side: Side) -> &'static str {
    match side {
        Side::Light => "light",
        Side::Dark => "dark",
    }
}

pub fn other(side: Side) -> Side {
    match side {
        Side::Light => Side::Dark,
        Side::Dark => Side::Light,
    }
}

pub fn hash_token(token: &str) -> String {
    let d = Sha256::digest(token.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// 128 random bits from the operating system's secure generator, as hex.
pub fn secret() -> String {
    let mut b = [0u8; 16];
    OsRng.fill_bytes(&mut b);
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// The tables in the store, each opened once.
pub struct CachedTables {
    dir: Option<PathBuf>,
    opened: StdMutex<HashMap<PathBuf, Result<LoadedTable, String>>>,
}

impl CachedTables {
    pub fn new(dir: Option<PathBuf>) -> CachedTables {
        CachedTables { dir, opened: StdMutex::new(HashMap::new()) }
    }
}

impl Tables for CachedTables {
    fn oracle(&self, rules: &Arc<Rules>) -> Option<Result<ur_bots::Oracle, String>> {
        let path = ur_solve::store::find(self.dir.as_deref()?, rules)?;
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        let table = opened.entry(path.clone()).or_insert_with(|| LoadedTable::open(&path).map_err(|e| e.to_string()));
        match table {
            Ok(t) => Some(t.oracle(rules.clone()).map_err(|e| e.to_string())),
            // A damaged table is passed over, as `ur play` does.
            Err(_) => None,
        }
    }
}

/// What every socket of a game is sent; each adds who it is. A `View`
/// after a change carries [`changed_view`]: a socket has the board from
/// its first view.
#[derive(Debug)]
pub enum Update {
    View {
        seq: u64,
        view: Arc<str>,
        common: Arc<Common>,
        log: Arc<LogPart>,
    },
    Presence(Arc<Common>),
    /// The game's status changed without a step (it expired, a rematch was
    /// offered): a view at the same `seq`, which every socket is sent.
    Status {
        seq: u64,
        view: Arc<str>,
        common: Arc<Common>,
        log: Arc<LogPart>,
    },
    /// A rematch began: each seat's socket is sent its own seat and token in it.
    Rematch(Arc<crate::rematch::Started>),
}

/// Log entries sent with a view: from entry `from` on (a JSON array).
#[derive(Debug)]
pub struct LogPart {
    pub from: usize,
    pub entries: String,
}

/// The game's facts shared by every socket: `Game` in docs/serve.md, less `you`.
#[derive(Clone, Debug, Serialize)]
pub struct Common {
    pub id: String,
    pub mode: String,
    pub status: String,
    pub winner: Option<String>,
    pub bot: Option<String>,
    pub seats: SeatsJson,
    /// How it ended: `play`, `resign`, `time`, `draw` (also `abandon`, `expired`).
    pub end: Option<String>,
    /// [`crate::clock::Clock::json`] as of the update.
    pub clock: Option<Value>,
    pub draw_offer: Option<&'static str>,
    pub rematch: Option<Value>,
    /// `{"light": account or null, "dark": ...}`.
    pub players: Value,
    pub rated: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatsJson {
    pub light: SeatJson,
    pub dark: SeatJson,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatJson {
    pub kind: &'static str,
    pub connected: bool,
    pub deadline: Option<i64>,
}

impl Update {
    /// The message for a socket of `you` (a rematch is told only to its seats, by [`crate::rematch::Started::text`]).
    pub fn text(&self, you: Actor) -> String {
        match self {
            Update::View { seq, view, common, log } | Update::Status { seq, view, common, log } => view_text(*seq, view, common, you, log),
            Update::Presence(common) => json!({"t": "presence", "seats": common.seats}).to_string(),
            Update::Rematch(_) => String::new(),
        }
    }
}

pub fn view_text(seq: u64, view: &str, common: &Common, you: Actor, log: &LogPart) -> String {
    let mut game = serde_json::to_value(common).unwrap_or(Value::Null);
    game["you"] = you.you();
    let (from, entries) = (log.from, &log.entries);
    format!(r#"{{"t":"view","seq":{seq},"view":{view},"game":{game},"log_from":{from},"log":{entries}}}"#)
}

/// A view's JSON without `board`, which never changes in a game: the first view on a socket has it ([`LiveGame::view_now`]), the
/// views after each change do not. The board was two thirds of every view.
pub fn changed_view(view: &GameView) -> String {
    #[derive(Serialize)]
    struct Changed<'a> {
        rules: &'a RulesView,
        sides: &'a [SideView; 2],
        position: &'a PositionView,
        turn: &'a TurnView,
        throw: &'a Option<ThrowView>,
        actions: &'a [ActionView],
        winner: &'a Option<String>,
        board_text: &'a str,
        position_string: &'a str,
    }
    let v = view;
    let changed = Changed {
        rules: &v.rules,
        sides: &v.sides,
        position: &v.position,
        turn: &v.turn,
        throw: &v.throw,
        actions: &v.actions,
        winner: &v.winner,
        board_text: &v.board_text,
        position_string: &v.position_string,
    };
    serde_json::to_string(&changed).unwrap_or_default()
}

/// A game's fixed facts.
pub struct Meta {
    pub id: String,
    pub new: NewGame,
    pub mode: String,
    /// Whether each seat (`[light, dark]`) is a bot.
    pub bots: [bool; 2],
    pub bot: Option<String>,
    pub tokens: [Option<String>; 2],
    /// The position string the game started from, if not the start.
    pub start: Option<String>,
    /// The time control of an online game.
    pub clock: Option<ClockSpec>,
    /// The accounts its seats are linked to, and whether it is rated.
    pub players: crate::accounts::Players,
}

impl Meta {
    /// The seat a token opens, if any.
    pub fn actor_for(&self, token: &str) -> Option<Actor> {
        let h = hash_token(token);
        let [l, d] = [self.tokens[0].as_deref() == Some(h.as_str()), self.tokens[1].as_deref() == Some(h.as_str())];
        match (l, d) {
            (true, true) => Some(Actor::Both),
            (true, false) => Some(Actor::Seat(Side::Light)),
            (false, true) => Some(Actor::Seat(Side::Dark)),
            _ => None,
        }
    }
}

pub struct State {
    pub session: Session,
    pub seq: u64,
    /// `playing`, `over`, `abandoned` or `expired`.
    pub status: String,
    pub winner: Option<String>,
    /// The log, the end, a draw offer and the clocks.
    pub track: Track,
    /// Log entries sent to the sockets so far.
    pub(crate) log_sent: usize,
    /// Counts the clock timers armed: only the last one flags.
    pub(crate) clock_gen: u64,
    pub(crate) rematch: crate::rematch::Rematch,
    /// Sockets on this process per seat.
    pub(crate) local: [u32; 2],
    /// Sockets on this process, watchers included.
    pub(crate) sockets: u32,
    /// Sockets on other processes per seat, by process.
    pub(crate) remote: HashMap<String, [u32; 2]>,
    pub(crate) deadline: [Option<i64>; 2],
    pub(crate) deadline_gen: [u64; 2],
    pub(crate) bot_pending: bool,
    /// When a step was last made or a socket opened: the games least
    /// recently used leave memory first.
    pub(crate) touched: std::time::Instant,
}

impl State {
    pub(crate) fn connected(&self, seat: usize) -> bool {
        self.local[seat] > 0 || self.remote.values().any(|c| c[seat] > 0)
    }
}

pub struct LiveGame {
    pub meta: Meta,
    pub state: Mutex<State>,
    pub tx: broadcast::Sender<Arc<Update>>,
}

/// A request to change the game.
#[derive(Clone, Copy, Debug)]
pub enum Req {
    Roll {
        seq: u64,
    },
    Act {
        seq: u64,
        index: usize,
    },
    Resign {
        seq: u64,
    },
    /// Offer a draw, or answer the other side's offer (accept with `true`).
    Draw {
        seq: u64,
        offer: bool,
    },
}

pub(crate) fn over_status(session: &Session) -> Option<StatusChange> {
    match session.game().turn() {
        Turn::Over(w) => Some(StatusChange { status: "over".into(), winner: Some(w.map_or("draw", side_key).to_string()) }),
        _ => None,
    }
}

/// Runs a blocking computation (a bot's move, a hint) without stalling the
/// other tasks when the runtime has other threads.
pub(crate) fn blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    }
}

impl LiveGame {
    pub fn common(&self, hub: &Hub, st: &State) -> Arc<Common> {
        let seat = |i: usize| {
            let bot = self.meta.bots[i];
            SeatJson {
                kind: if bot { "bot" } else { "human" },
                connected: bot || st.connected(i),
                deadline: st.deadline[i].filter(|_| hub.cfg.reconnect > Duration::ZERO),
            }
        };
        let end = st.track.end.clone().or_else(|| (st.status == "expired").then(|| st.status.clone()));
        Arc::new(Common {
            id: self.meta.id.clone(),
            mode: self.meta.mode.clone(),
            status: st.status.clone(),
            winner: st.winner.clone(),
            bot: self.meta.bot.clone(),
            seats: SeatsJson { light: seat(0), dark: seat(1) },
            end,
            clock: st.track.clock.map(|c| c.json(now_ms())),
            draw_offer: st.track.draw_offer.map(side_key),
            rematch: st.rematch.json(),
            players: self.meta.players.json(),
            rated: self.meta.players.rated(),
        })
    }

    pub(crate) fn send(&self, u: Update) {
        let _ = self.tx.send(Arc::new(u));
    }

    /// The whole view message for a socket now (board included): its first,
    /// or after it fell behind.
    pub fn view_now(&self, hub: &Hub, st: &State, you: Actor) -> String {
        let whole = serde_json::to_string(&game_view(&st.session)).unwrap_or_default();
        let log = LogPart { from: 0, entries: st.track.log_json(0) };
        view_text(st.seq, &whole, &self.common(hub, st), you, &log)
    }

    /// The log entries not sent yet (all of them after a reload).
    fn new_entries(st: &mut State) -> Arc<LogPart> {
        let from = st.log_sent.min(st.track.log.len());
        st.log_sent = st.track.log.len();
        Arc::new(LogPart { from, entries: st.track.log_json(from) })
    }

    /// After a step: the new view to every socket, the bot's turn and the clock.
    pub(crate) fn after_change(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State) {
        let view: Arc<str> = changed_view(&game_view(&st.session)).into();
        let log = Self::new_entries(st);
        self.send(Update::View { seq: st.seq, view, common: self.common(hub, st), log });
        self.schedule_bot(hub, st);
        self.arm_clock(hub, st);
    }

    /// The status changed without a step: every socket is told.
    pub(crate) fn tell_status(&self, hub: &Hub, st: &mut State) {
        let view: Arc<str> = changed_view(&game_view(&st.session)).into();
        let log = Self::new_entries(st);
        self.send(Update::Status { seq: st.seq, view, common: self.common(hub, st), log });
    }

    fn bot_to_move(&self, st: &State) -> bool {
        if st.status != "playing" {
            return false;
        }
        match st.session.game().turn() {
            Turn::Roll(s) | Turn::Decide(s) => self.meta.bots[s.index()],
            Turn::Over(_) => false,
        }
    }

    fn schedule_bot(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State) {
        if st.bot_pending || !self.bot_to_move(st) {
            return;
        }
        st.bot_pending = true;
        let (game, hub) = (self.clone(), hub.clone());
        tokio::spawn(async move {
            tokio::time::sleep(hub.cfg.bot_delay).await;
            // A move to think out waits for a permit first, without the game's
            // lock, so that a queue of bots holds up no player's message.
            let choosing = matches!(game.state.lock().await.session.game().turn(), Turn::Decide(_));
            let _permit = if choosing { hub.bot_gate.acquire().await.ok() } else { None };
            let mut st = game.state.lock().await;
            st.bot_pending = false;
            if !game.bot_to_move(&st) {
                return;
            }
            let seq = st.seq;
            let req = match st.session.game().turn() {
                Turn::Roll(_) => Req::Roll { seq },
                _ => {
                    let name = game.meta.bot.clone().unwrap_or_else(|| "level3".into());
                    let seed = OsRng.next_u64();
                    let chosen = blocking(|| st.session.bestmove(&name, seed));
                    let index = match chosen {
                        Ok(b) => st.session.game().actions().iter().position(|a| *a == b.action),
                        Err(e) => {
                            eprintln!("ur serve: game {}: the bot cannot move: {e}", game.meta.id);
                            None
                        }
                    };
                    Req::Act { seq, index: index.unwrap_or(0) }
                }
            };
            if let Err(r) = game.apply(&hub, &mut st, Actor::Bot, req).await {
                if r.code != "stale" {
                    eprintln!("ur serve: game {}: the bot's step was refused: {}", game.meta.id, r.message);
                }
                game.schedule_bot(&hub, &mut st);
            }
        });
    }

    /// A client's (or the bot's) roll or action, checked, stored, then sent to all.
    pub async fn play(self: &Arc<Self>, hub: &Arc<Hub>, actor: Actor, req: Req) -> Result<(), Refusal> {
        let mut st = self.state.lock().await;
        self.apply(hub, &mut st, actor, req).await
    }

    async fn apply(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State, actor: Actor, req: Req) -> Result<(), Refusal> {
        if actor == Actor::Watcher {
            return Err(Refusal::new(
                "watcher",
                "you are watching this game: only its players act (open the link with your token to play)",
            ));
        }
        let seq = match req {
            Req::Roll { seq } | Req::Act { seq, .. } | Req::Resign { seq } | Req::Draw { seq, .. } => seq,
        };
        if st.status != "playing" {
            return Err(Refusal::new("over", format!("the game is {}: nothing more can be played", st.status)));
        }
        if seq != st.seq {
            return Err(Refusal::new("stale", format!("that was for view {seq}; the game is at view {}: act on the latest view", st.seq)));
        }
        if let Req::Resign { .. } | Req::Draw { .. } = req {
            let ev = crate::endings::step_for(self, st, actor, req)?;
            return self.commit(hub, st, ev).await;
        }
        let (side, deciding) = match st.session.game().turn() {
            Turn::Roll(s) => (s, false),
            Turn::Decide(s) => (s, true),
            Turn::Over(_) => return Err(Refusal::new("over", "the game is over")),
        };
        let mine = match actor {
            Actor::Bot => self.meta.bots[side.index()],
            Actor::Both => !self.meta.bots[side.index()],
            Actor::Seat(s) => s == side,
            Actor::Watcher => false,
        };
        if !mine {
            let name = st.session.game().side_name(side).to_string();
            return Err(Refusal::new("not_your_turn", format!("it is {name}'s ({}) turn, not yours", side_key(side))));
        }
        if self.flagged(st, side) {
            self.flag(hub, st).await?;
            return Err(Refusal::new("over", "your time ran out: the game is lost on time"));
        }
        let mut ev = EventRow::now(seq as i64 + 1, "roll");
        match (req, deciding) {
            (Req::Roll { .. }, true) => {
                return Err(Refusal::new(
                    "illegal",
                    "the dice are thrown: choose one of the open actions (send act with its index), not a roll",
                ))
            }
            (Req::Act { .. }, false) => return Err(Refusal::new("illegal", "throw the dice first (send roll): no action is open yet")),
            (Req::Act { index, .. }, true) => {
                let n = st.session.game().actions().len();
                let Some(action) = st.session.game().actions().get(index).cloned() else {
                    return Err(Refusal::new(
                        "illegal",
                        format!("there is no open action {index}: the open actions are 0 to {}", n.saturating_sub(1)),
                    ));
                };
                ev.kind = "act".into();
                ev.action_index = Some(index as i64);
                ev.action = Some(serde_json::to_string(&action).unwrap_or_default());
            }
            _ => ev.raw = Some(i64::from(ur_rules::sample_outcome(&st.session.game().outcomes(), &mut OsRng))),
        }
        self.commit(hub, st, ev).await
    }

    /// Whether `side`'s time has run out.
    fn flagged(&self, st: &State, side: Side) -> bool {
        st.track.clock.is_some_and(|c| c.running.is_some_and(|(s, _)| s == side) && c.left_at(side, now_ms()) <= 0)
    }

    /// The running side's time ran out: the game is lost on time.
    async fn flag(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State) -> Result<(), Refusal> {
        let Some((side, _)) = st.track.clock.and_then(|c| c.running) else { return Ok(()) };
        let mut ev = EventRow::now(st.seq as i64 + 1, "flag");
        ev.action = Some(side_key(side).into());
        self.commit(hub, st, ev).await
    }

    /// Arms the running clock's timer: when it runs out, the side flags,
    /// whether or not anyone is connected. Stored as a step like any other,
    /// so of several processes only one flags.
    fn arm_clock(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State) {
        st.clock_gen += 1;
        let Some((_, at)) = st.track.clock.and_then(|c| c.flag_at()).filter(|_| st.status == "playing") else { return };
        let gen = st.clock_gen;
        let (game, hub) = (self.clone(), hub.clone());
        tokio::spawn(async move {
            let wait = u64::try_from(at - now_ms()).unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            let mut st = game.state.lock().await;
            if st.clock_gen != gen || st.status != "playing" {
                return;
            }
            let Some((side, _)) = st.track.clock.and_then(|c| c.running) else { return };
            if !game.flagged(&st, side) {
                // Woken early: wait again.
                return game.arm_clock(&hub, &mut st);
            }
            if let Err(r) = game.flag(&hub, &mut st).await {
                if r.code != "stale" && r.code != "over" {
                    eprintln!("ur serve: game {}: cannot record the flag fall: {}", game.meta.id, r.message);
                }
            }
        });
    }

    /// Applies a step to the session and the track, stores it, then tells
    /// everyone. When it cannot be stored the game is rebuilt from the store.
    pub(crate) async fn commit(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State, mut ev: EventRow) -> Result<(), Refusal> {
        let (mut status, mut winner) = (st.status.clone(), st.winner.clone());
        let out = Outcome { status: &mut status, winner: &mut winner };
        if let Err(e) = st.track.apply(&mut st.session, &mut ev, out) {
            self.reload(hub, st).await;
            return Err(Refusal::new("illegal", e));
        }
        let change = (status != st.status).then(|| StatusChange { status: status.clone(), winner: winner.clone() });
        let notify = format!("e:{}:{}:{}", self.meta.id, ev.seq, hub.proc_id);
        let new_seq = ev.seq as u64;
        match hub.store.append(&self.meta.id, ev, change, notify).await {
            Ok(()) => {
                st.seq = new_seq;
                st.touched = std::time::Instant::now();
                (st.status, st.winner) = (status, winner);
                if st.status == "over" {
                    crate::ratings::game_over(hub, &self.meta.id);
                }
                self.after_change(hub, st);
                Ok(())
            }
            Err(e) => {
                self.reload(hub, st).await;
                if matches!(e, StoreError::Conflict) {
                    Err(Refusal::new("stale", "another move was made first: act on the latest view"))
                } else if matches!(e, StoreError::Ended) {
                    Err(Refusal::new("over", format!("the game is {}: nothing more can be played", st.status)))
                } else {
                    eprintln!("ur serve: game {}: {e}", self.meta.id);
                    Err(Refusal::new("storage", format!("the move could not be stored, so it was not made: {e}")))
                }
            }
        }
    }

    /// Rebuilds the session from the store (after a failed write).
    async fn reload(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State) {
        match hub.store.load(&self.meta.id, 0).await {
            Ok(Some((row, events))) => match hub.replayed(&self.meta.new, &row, events) {
                Ok(r) => {
                    let status = crate::hub::stored_status(r.status, &row);
                    (st.session, st.seq, st.status, st.winner, st.track) = (r.session, r.seq, status, r.winner, r.track);
                    st.log_sent = 0;
                    self.after_change(hub, st);
                }
                Err(e) => eprintln!("ur serve: game {} does not replay: {e}", self.meta.id),
            },
            Ok(None) => {}
            Err(e) => eprintln!("ur serve: game {} cannot be reloaded: {e}", self.meta.id),
        }
    }

    /// Applies the steps other processes stored (PostgreSQL).
    pub(crate) async fn catch_up(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State) {
        let events = match hub.store.load(&self.meta.id, st.seq as i64).await {
            Ok(Some((_, events))) => events,
            Ok(None) => return,
            Err(e) => {
                eprintln!("ur serve: game {}: cannot load new steps: {e}", self.meta.id);
                return;
            }
        };
        if events.is_empty() {
            return;
        }
        for mut ev in events {
            if ev.seq != st.seq as i64 + 1 {
                break;
            }
            let (mut status, mut winner) = (st.status.clone(), st.winner.clone());
            let out = Outcome { status: &mut status, winner: &mut winner };
            if let Err(e) = st.track.apply(&mut st.session, &mut ev, out) {
                eprintln!("ur serve: game {}: {e}; reloading", self.meta.id);
                self.reload(hub, st).await;
                return;
            }
            (st.status, st.winner) = (status, winner);
            st.seq += 1;
        }
        self.after_change(hub, st);
    }

    /// The hint for the player's decision now (bot games only).
    pub async fn hint(&self, hub: &Hub, actor: Actor, seq: u64) -> Result<String, Refusal> {
        if self.meta.mode != "bot" {
            return Err(Refusal::new("no_hint", "hints are for games against a bot"));
        }
        if actor == Actor::Watcher {
            return Err(Refusal::new("watcher", "you are watching this game: only its player asks for hints"));
        }
        let mut st = self.state.lock().await;
        if seq != st.seq {
            return Err(Refusal::new("stale", format!("that was for view {seq}; the game is at view {}", st.seq)));
        }
        match st.session.game().turn() {
            Turn::Decide(s) if !self.meta.bots[s.index()] => {}
            _ => return Err(Refusal::new("no_hint", "a hint is for your decision after a throw")),
        }
        if ur_bots::hint::network_judges(st.session.game()) {
            let game = st.session.game().clone();
            let (values, judge) =
                blocking(|| ur_bots::hint::network_action_values(&game)).map_err(|e| Refusal::new("no_hint", e.to_string()))?;
            let actions = game.actions();
            let best = values.first().map_or(0.0, |v| v.1);
            let moves: Vec<Value> = values
                .iter()
                .filter_map(|(a, w)| actions.iter().position(|x| x == a).map(|i| json!({"index": i, "win": w, "best": *w >= best - 1e-12})))
                .collect();
            return Ok(json!({"t": "hint", "seq": st.seq, "judge": judge, "moves": moves}).to_string());
        }
        // A table solved since the game began (in the background, say) serves from now on.
        st.session.find_table(&hub.tables);
        let table = matches!(st.session.table(), Some(Ok(_)));
        let result = blocking(|| if table { st.session.hint(None, None) } else { st.session.hint(None, Some(DEFAULT_DEPTH)) });
        let (hint, _judge) = result.map_err(|e| Refusal::new("no_hint", e.to_string()))?;
        let actions = st.session.game().actions();
        let index_of = |a: AnyAction| actions.iter().position(|x| *x == a);
        let moves: Vec<Value> = match hint {
            Hint::Moves { moves, .. } => moves
                .iter()
                .filter_map(|m| index_of(AnyAction::Race(Action::Move(m.mv))).map(|i| json!({"index": i, "win": m.win, "best": m.best})))
                .collect(),
            Hint::Choices { choices, .. } => choices
                .iter()
                .enumerate()
                .filter_map(|(k, (c, w))| {
                    index_of(AnyAction::Race(Action::Choose(*c))).map(|i| json!({"index": i, "win": w, "best": k == 0}))
                })
                .collect(),
        };
        let judge = if table { "table" } else { "search" };
        Ok(json!({"t": "hint", "seq": st.seq, "judge": judge, "moves": moves}).to_string())
    }

    /// A socket of `actor` opened: the current view and presence for it.
    pub async fn connect(self: &Arc<Self>, hub: &Arc<Hub>, actor: Actor) -> (String, broadcast::Receiver<Arc<Update>>, u64) {
        let rx = self.tx.subscribe();
        let mut st = self.state.lock().await;
        st.sockets += 1;
        st.touched = std::time::Instant::now();
        let seats = actor.seats();
        let mut changed = false;
        for (i, on) in seats.iter().enumerate() {
            if *on {
                if !st.connected(i) {
                    changed = true;
                }
                st.local[i] += 1;
                if st.deadline[i].is_some() {
                    st.deadline[i] = None;
                    st.deadline_gen[i] += 1;
                    changed = true;
                }
            }
        }
        if changed {
            self.send(Update::Presence(self.common(hub, &st)));
            self.tell_presence(hub, &st);
        }
        (self.view_now(hub, &st, actor), rx, st.seq)
    }

    /// A socket of `actor` closed: when it was a seat's last, the seat's deadline starts.
    pub async fn disconnect(self: &Arc<Self>, hub: &Arc<Hub>, actor: Actor) {
        let mut st = self.state.lock().await;
        st.sockets = st.sockets.saturating_sub(1);
        if st.sockets == 0 && st.status != "playing" {
            // A finished game nobody watches leaves memory; it is loaded again when asked for.
            drop(st);
            hub.forget(&self.meta.id).await;
            return;
        }
        let mut changed = false;
        for (i, on) in actor.seats().iter().enumerate() {
            if *on {
                st.local[i] = st.local[i].saturating_sub(1);
                if !st.connected(i) {
                    changed = true;
                    self.start_deadline(hub, &mut st, i);
                }
            }
        }
        if changed {
            self.send(Update::Presence(self.common(hub, &st)));
            self.tell_presence(hub, &st);
        }
    }

    pub(crate) fn tell_presence(&self, hub: &Arc<Hub>, st: &State) {
        if hub.store.is_postgres() {
            let payload = format!("p:{}:{}:{}:{}", self.meta.id, hub.proc_id, st.local[0], st.local[1]);
            let hub = hub.clone();
            tokio::spawn(async move { hub.store.notify(payload).await });
        }
    }

    /// An online player dropped: after the deadline the game ends as abandoned.
    pub(crate) fn start_deadline(self: &Arc<Self>, hub: &Arc<Hub>, st: &mut State, seat: usize) {
        if self.meta.mode != "online" || st.status != "playing" || self.meta.bots[seat] {
            return;
        }
        let wait = hub.cfg.reconnect;
        st.deadline[seat] = Some(now_ms() + wait.as_millis() as i64);
        st.deadline_gen[seat] += 1;
        let gen = st.deadline_gen[seat];
        let (game, hub) = (self.clone(), hub.clone());
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let mut st = game.state.lock().await;
            if st.deadline_gen[seat] != gen || st.connected(seat) || st.status != "playing" {
                return;
            }
            let side = if seat == 0 { Side::Light } else { Side::Dark };
            st.deadline = [None, None];
            let mut ev = EventRow::now(st.seq as i64 + 1, "abandon");
            ev.action = Some(side_key(side).into());
            if let Err(r) = game.commit(&hub, &mut st, ev).await {
                eprintln!("ur serve: game {}: cannot record the abandonment: {}", game.meta.id, r.message);
            }
        });
    }
}
