//! The hub: every game in play in this process, found by id, rebuilt from
//! the store on start or when another process moved it, and what the
//! server holds besides (the store, the tables, per-address counters).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex as StdMutex};

use tokio::sync::{broadcast, Mutex};
use ur_rules::{Options, Playable, Side};
use ur_session::{NewGame, RulesSource, Session};

use crate::clock::ClockSpec;
use crate::live::*;
use crate::store::{now_ms, EventRow, GameRow, Store, StoreError};
use crate::track::{Outcome, Track};
use crate::Config;

/// Everything the server holds: the store, the tables and the games in play.
pub struct Hub {
    pub cfg: Config,
    pub store: Store,
    pub tables: CachedTables,
    pub(crate) games: Mutex<HashMap<String, Arc<LiveGame>>>,
    /// This process's id in notifications.
    pub proc_id: String,
    pub conns: StdMutex<HashMap<IpAddr, usize>>,
    /// Games created per client address (a token bucket each), by [`client_key`].
    pub creations: StdMutex<HashMap<IpAddr, (f64, std::time::Instant)>>,
    /// Rule-set file bytes stored per client address (by [`client_key`]) on a day: (day, bytes).
    pub rule_bytes: StdMutex<HashMap<IpAddr, (i64, usize)>>,
    /// Permits to think out a bot's move ([`Config::bot_threads`] of them).
    pub(crate) bot_gate: tokio::sync::Semaphore,
    /// The lobby's live updates and the accounts' failed sign-ins.
    pub lobby: crate::lobby::Lobby,
    /// The tables being solved in the background.
    pub solving: Arc<crate::solving::Solving>,
}

/// A game replayed from its stored steps.
pub(crate) struct Replayed {
    pub session: Session,
    pub seq: u64,
    pub status: String,
    pub winner: Option<String>,
    pub track: Track,
}

/// The address a client is counted by: an IPv4 address itself (also when
/// mapped into IPv6), an IPv6 address by its /64, the block one subscriber
/// is usually given (so one client cannot pass a per-address limit by
/// changing the low bits).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !u128::from(u64::MAX))),
        v4 => v4,
    }
}

/// Why a game could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// Memory holds the most games allowed, each with someone connected.
    #[error("{0}")]
    Busy(String),
    #[error("the game could not be stored: {0}")]
    Store(#[from] StoreError),
}

/// A game's record as stored, and its status: what `GET /record` and
/// `/review` read (without putting the game in memory).
pub struct StoredRecord {
    pub saved: ur_session::SavedGame,
    pub status: String,
    pub rule_id: String,
}

/// The session's record with the clock and the end the track knows of.
fn tagged_record(session: &Session, track: &Track) -> ur_session::SavedGame {
    let mut saved = session.record();
    let (actions, tags) = match &mut saved {
        ur_session::SavedGame::Race(r) => (r.actions.len(), &mut r.tags),
        ur_session::SavedGame::Family(r) => (r.steps.len(), &mut r.tags),
    };
    tags.extend(track.record_tags(actions));
    saved
}

pub fn new_game_of(row: &GameRow) -> Result<NewGame, String> {
    let rules = match (&row.rules_id, &row.rules_file) {
        (_, Some(text)) => RulesSource::File(text.clone()),
        (Some(id), None) => RulesSource::Builtin(id.clone()),
        (None, None) => return Err("no rules".into()),
    };
    let options: Options = serde_json::from_str(&row.options).map_err(|e| format!("options: {e}"))?;
    let first = Side::parse(&row.first).ok_or("first side")?;
    Ok(NewGame { rules, options, first })
}

/// A game id: 32 hex digits.
fn valid_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The status replayed from the steps, or `expired` when the row says so
/// (an expiry is no step).
pub(crate) fn stored_status(replayed: String, row: &GameRow) -> String {
    if replayed == "playing" && row.status == "expired" {
        row.status.clone()
    } else {
        replayed
    }
}

impl Hub {
    pub fn new(cfg: Config, store: Store) -> Hub {
        let tables = CachedTables::new(cfg.tables.clone());
        let solving = Arc::new(crate::solving::Solving::new(&cfg.solve, cfg.tables.as_deref()));
        let cfg_bot_threads = cfg.bot_threads.max(1);
        Hub {
            cfg,
            store,
            tables,
            games: Mutex::new(HashMap::new()),
            proc_id: secret(),
            conns: StdMutex::new(HashMap::new()),
            creations: StdMutex::new(HashMap::new()),
            rule_bytes: StdMutex::new(HashMap::new()),
            bot_gate: tokio::sync::Semaphore::new(cfg_bot_threads),
            lobby: crate::lobby::Lobby::default(),
            solving,
        }
    }

    /// Whether `ip` may create one more game now (a token bucket per address).
    pub fn may_create(&self, ip: IpAddr) -> bool {
        let (rate, burst) = (self.cfg.games_per_second, 4.0 * self.cfg.games_per_second + 10.0);
        let mut all = self.creations.lock().unwrap_or_else(|e| e.into_inner());
        let now = std::time::Instant::now();
        if all.len() > 100_000 {
            all.retain(|_, (_, at)| now.duration_since(*at).as_secs() < 60);
        }
        let (tokens, at) = all.entry(client_key(ip)).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Starts a new game's session (checking its rules) before it is stored.
    pub fn session(&self, new: &NewGame) -> Result<Session, String> {
        Session::new(new, &self.tables).map_err(|e| e.to_string())
    }

    /// Takes `bytes` of `ip`'s rule-set file quota for today (UTC), or says
    /// why not.
    ///
    /// # Errors
    /// The address stored its day's bytes already.
    pub fn take_rules_quota(&self, ip: IpAddr, bytes: usize) -> Result<(), String> {
        let max = self.cfg.max_rules_bytes_per_day;
        let today = now_ms().div_euclid(86_400_000);
        let mut all = self.rule_bytes.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() > 100_000 {
            all.retain(|_, (day, _)| *day == today);
        }
        let (day, used) = all.entry(client_key(ip)).or_insert((today, 0));
        if *day != today {
            (*day, *used) = (today, 0);
        }
        if *used + bytes > max {
            return Err(format!(
                "this address stored {used} bytes of rule-set files today and may store {max} a day: \
                 play a built-in rule set, or come back tomorrow (the day is UTC's)"
            ));
        }
        *used += bytes;
        Ok(())
    }

    /// Stores a new game and puts it in play, when memory has room for it.
    ///
    /// # Errors
    /// [`CreateError::Busy`] when every game in memory has someone connected
    /// and the quota is reached; [`CreateError::Store`] when it cannot be stored.
    pub async fn create(self: &Arc<Self>, row: GameRow, meta: Meta, session: Session) -> Result<Arc<LiveGame>, CreateError> {
        if !self.make_room(&mut *self.games.lock().await) {
            return Err(CreateError::Busy(self.busy()));
        }
        self.store.create_game(row).await?;
        let track = Track::new(meta.clock);
        let game = self.live(meta, Replayed { session, seq: 0, status: "playing".into(), winner: None, track });
        self.games.lock().await.insert(game.meta.id.clone(), game.clone());
        game.after_change(self, &mut *game.state.lock().await);
        Ok(game)
    }

    fn busy(&self) -> String {
        format!("the server holds the most games it may ({}), each with someone connected: try again later", self.cfg.max_live_games)
    }

    /// Makes room for one more game in memory, dropping the games nobody
    /// holds, the least recently used first: no socket, no bot thinking, no
    /// deadline running holds them (each of those keeps a handle). They are
    /// loaded again from the store when opened. Whether there is room.
    fn make_room(&self, games: &mut HashMap<String, Arc<LiveGame>>) -> bool {
        let max = self.cfg.max_live_games.max(1);
        if games.len() < max {
            return true;
        }
        let mut idle: Vec<(std::time::Instant, String)> = games
            .iter()
            .filter(|(_, g)| Arc::strong_count(g) == 1)
            .filter_map(|(id, g)| g.state.try_lock().ok().map(|st| (st.touched, id.clone())))
            .collect();
        idle.sort_unstable();
        for (_, id) in idle.into_iter().take(games.len() + 1 - max) {
            games.remove(&id);
        }
        games.len() < max
    }

    fn live(&self, meta: Meta, r: Replayed) -> Arc<LiveGame> {
        let (tx, _) = broadcast::channel(256);
        let state = State {
            session: r.session,
            seq: r.seq,
            status: r.status,
            winner: r.winner,
            track: r.track,
            log_sent: 0,
            clock_gen: 0,
            rematch: Default::default(),
            local: [0, 0],
            sockets: 0,
            remote: HashMap::new(),
            deadline: [None, None],
            deadline_gen: [0, 0],
            bot_pending: false,
            touched: std::time::Instant::now(),
        };
        Arc::new(LiveGame { meta, state: Mutex::new(state), tx })
    }

    /// The game with this id, loaded from the store if it is not in play
    /// here. The store is read without the lock over all games: a slow
    /// read holds up no other game.
    pub async fn game(self: &Arc<Self>, id: &str) -> Result<Option<Arc<LiveGame>>, String> {
        if !valid_id(id) {
            return Ok(None);
        }
        if let Some(g) = self.games.lock().await.get(id) {
            return Ok(Some(g.clone()));
        }
        let Some((row, events)) = self.store.load(id, 0).await.map_err(|e| e.to_string())? else { return Ok(None) };
        let loaded = self.rebuild(&row, events)?;
        crate::accounts::load_players(self, &loaded).await;
        let game = {
            let mut games = self.games.lock().await;
            if let Some(g) = games.get(id) {
                // Loaded meanwhile by another request: that one is in play.
                return Ok(Some(g.clone()));
            }
            if !self.make_room(&mut games) {
                return Err(self.busy());
            }
            games.insert(id.to_string(), loaded.clone());
            loaded
        };
        if self.store.is_postgres() {
            // Who is connected to this game on the other processes?
            self.store.notify(format!("q:{id}:{}", self.proc_id)).await;
        }
        game.after_change(self, &mut *game.state.lock().await);
        Ok(Some(game))
    }

    /// A game's record and status, from memory if it is in play here, else
    /// from the store without putting it in memory.
    pub async fn stored_record(&self, id: &str) -> Result<Option<StoredRecord>, String> {
        if !valid_id(id) {
            return Ok(None);
        }
        let live = self.games.lock().await.get(id).cloned();
        if let Some(g) = live {
            let st = g.state.lock().await;
            let rule_id = st.session.game().rule_id().to_string();
            return Ok(Some(StoredRecord { saved: tagged_record(&st.session, &st.track), status: st.status.clone(), rule_id }));
        }
        let Some((row, events)) = self.store.load(id, 0).await.map_err(|e| e.to_string())? else { return Ok(None) };
        let new = new_game_of(&row)?;
        let r = self.replayed(&new, &row, events)?;
        let rule_id = r.session.game().rule_id().to_string();
        Ok(Some(StoredRecord { saved: tagged_record(&r.session, &r.track), status: stored_status(r.status, &row), rule_id }))
    }

    fn rebuild(&self, row: &GameRow, events: Vec<EventRow>) -> Result<Arc<LiveGame>, String> {
        let new = new_game_of(row)?;
        let mut r = self.replayed(&new, row, events)?;
        r.status = stored_status(r.status, row);
        let side = |s: &str| s == "bot";
        let meta = Meta {
            id: row.id.clone(),
            new,
            mode: row.mode.clone(),
            bots: [side(&row.light), side(&row.dark)],
            bot: row.bot.clone(),
            tokens: [row.token_light.clone(), row.token_dark.clone()],
            start: row.start.clone(),
            clock: row.clock.as_deref().and_then(ClockSpec::from_text),
            players: Default::default(),
        };
        Ok(self.live(meta, r))
    }

    pub(crate) fn replayed(&self, new: &NewGame, row: &GameRow, events: Vec<EventRow>) -> Result<Replayed, String> {
        let mut session = self.session(new)?;
        if let Some(text) = &row.start {
            session.set_text(text).map_err(|e| format!("start position: {e}"))?;
        }
        let (mut status, mut winner) = ("playing".to_string(), None);
        let mut track = Track::new(row.clock.as_deref().and_then(ClockSpec::from_text));
        let mut seq = 0;
        for mut ev in events {
            if ev.seq != seq as i64 + 1 {
                return Err(format!("step {} is missing", seq + 1));
            }
            track.apply(&mut session, &mut ev, Outcome { status: &mut status, winner: &mut winner })?;
            seq += 1;
        }
        if let Some(st) = over_status(&session).filter(|_| status == "playing") {
            (status, winner) = (st.status, st.winner);
        }
        Ok(Replayed { session, seq, status, winner, track })
    }

    /// Expires the idle games, then loads the games in progress, the last
    /// played first, as many as memory may hold (the others are loaded
    /// when opened); their bots' turns are scheduled again.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, String> {
        self.expire_idle().await?;
        let ids = self.store.in_progress().await.map_err(|e| e.to_string())?;
        let mut n = 0;
        for id in ids.into_iter().take(self.cfg.max_live_games) {
            match self.game(&id).await {
                Ok(Some(g)) => {
                    n += 1;
                    // One process holds an SQLite database: nobody is connected
                    // after a restart, so each online player has the time to
                    // come back as after a drop.
                    if g.meta.mode == "online" && !self.store.is_postgres() {
                        let mut st = g.state.lock().await;
                        if st.seq > 0 {
                            for seat in 0..2 {
                                g.start_deadline(self, &mut st, seat);
                            }
                        }
                    }
                }
                Ok(None) => {}
                Err(e) => eprintln!("ur serve: game {id} cannot be resumed: {e}"),
            }
        }
        Ok(n)
    }

    /// Marks expired the games in progress with no step for their time
    /// ([`Config::expire_online`], [`Config::expire_solo`]); those in
    /// memory here tell their sockets and leave memory when nobody watches.
    ///
    /// # Errors
    /// The store cannot be written.
    pub async fn expire_idle(self: &Arc<Self>) -> Result<usize, String> {
        let now = now_ms();
        let before = |d: std::time::Duration| now.saturating_sub(i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        let ids = self
            .store
            .expire_idle(before(self.cfg.expire_online), before(self.cfg.expire_solo))
            .await
            .map_err(|e| format!("cannot expire the idle games: {e}"))?;
        for id in &ids {
            self.expired(id).await;
            self.store.notify(format!("x:{id}:{}", self.proc_id)).await;
        }
        Ok(ids.len())
    }

    /// A game expired in the store: the same in memory.
    async fn expired(self: &Arc<Self>, id: &str) {
        let g = self.games.lock().await.get(id).cloned();
        if let Some(g) = g {
            let mut st = g.state.lock().await;
            if st.status == "playing" {
                (st.status, st.winner, st.deadline) = ("expired".into(), None, [None, None]);
                g.tell_status(self, &mut st);
            }
            drop(st);
            self.forget(id).await;
        }
    }

    /// How often idle games are looked for: a quarter of the shorter
    /// expiry time, within 250 ms and 10 minutes.
    pub fn expiry_period(&self) -> std::time::Duration {
        let shorter = self.cfg.expire_online.min(self.cfg.expire_solo);
        (shorter / 4).clamp(std::time::Duration::from_millis(250), std::time::Duration::from_secs(600))
    }

    /// A notification from another process (PostgreSQL).
    pub async fn notified(self: &Arc<Self>, payload: &str) {
        let parts: Vec<&str> = payload.split(':').collect();
        match parts.as_slice() {
            ["e", game, _seq, proc] if *proc != self.proc_id => {
                let g = self.games.lock().await.get(*game).cloned();
                if let Some(g) = g {
                    let mut st = g.state.lock().await;
                    g.catch_up(self, &mut st).await;
                }
            }
            ["x", game, proc] if *proc != self.proc_id => self.expired(game).await,
            ["l", proc, rest @ ..] if *proc != self.proc_id => self.lobby.notified(self, rest).await,
            ["q", game, proc] if *proc != self.proc_id => {
                let g = self.games.lock().await.get(*game).cloned();
                if let Some(g) = g {
                    let st = g.state.lock().await;
                    g.tell_presence(self, &st);
                }
            }
            ["p", game, proc, l, d] if *proc != self.proc_id => {
                let g = self.games.lock().await.get(*game).cloned();
                if let Some(g) = g {
                    let counts = [l.parse().unwrap_or(0), d.parse().unwrap_or(0)];
                    let mut st = g.state.lock().await;
                    let before = [st.connected(0), st.connected(1)];
                    st.remote.insert(proc.to_string(), counts);
                    for (seat, was) in before.into_iter().enumerate() {
                        let now = st.connected(seat);
                        if now && !was {
                            st.deadline[seat] = None;
                            st.deadline_gen[seat] += 1;
                        } else if !now && was {
                            g.start_deadline(self, &mut st, seat);
                        }
                    }
                    g.send(Update::Presence(g.common(self, &st)));
                }
            }
            _ => {}
        }
    }

    /// Drops a game nobody watches that is over from memory (it is loaded
    /// again when asked for). A game busy just now stays: memory is made
    /// when needed ([`Hub::make_room`]).
    pub(crate) async fn forget(&self, id: &str) {
        let mut games = self.games.lock().await;
        let idle = games.get(id).and_then(|g| g.state.try_lock().ok().map(|st| st.sockets == 0 && st.status != "playing"));
        if idle == Some(true) {
            games.remove(id);
        }
    }

    pub async fn games_in_play(&self) -> usize {
        self.games.lock().await.len()
    }
}
