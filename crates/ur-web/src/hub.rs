//! The hub: every game in play in this process, found by id, rebuilt from
//! the store on start or when another process moved it, and what the
//! server holds besides (the store, the tables, per-address counters).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex as StdMutex};

use tokio::sync::{broadcast, Mutex};
use ur_rules::{Options, Playable, Side};
use ur_session::{NewGame, RulesSource, Session};

use crate::live::*;
use crate::store::{EventRow, GameRow, Store, StoreError};
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
    /// Games created per client address (a token bucket each).
    pub creations: StdMutex<HashMap<IpAddr, (f64, std::time::Instant)>>,
    /// Permits to think out a bot's move ([`Config::bot_threads`] of them).
    pub(crate) bot_gate: tokio::sync::Semaphore,
}

/// Replays one stored step into a session; `abandon` steps set the status.
pub(crate) fn replay(session: &mut Session, ev: &EventRow, status: &mut String, winner: &mut Option<String>) -> Result<(), String> {
    match ev.kind.as_str() {
        "roll" => {
            let raw = ev.raw.and_then(|r| u8::try_from(r).ok()).ok_or_else(|| format!("step {}: no raw throw", ev.seq))?;
            session.roll(raw).map_err(|e| format!("step {}: {e}", ev.seq))?;
        }
        "act" => {
            let i = ev.action_index.unwrap_or(-1);
            let open = usize::try_from(i).ok().and_then(|i| session.game().actions().get(i).cloned());
            let action = open.ok_or_else(|| format!("step {}: no open action {i}", ev.seq))?;
            if let Some(stored) = &ev.action {
                let now = serde_json::to_string(&action).unwrap_or_default();
                if &now != stored {
                    return Err(format!("step {}: action {i} is now {now}, stored as {stored}", ev.seq));
                }
            }
            session.act(&action).map_err(|e| format!("step {}: {e}", ev.seq))?;
        }
        "abandon" => {
            *status = "abandoned".into();
            let left = ev.action.as_deref().and_then(Side::parse);
            *winner = left.map(|s| side_key(other(s)).to_string());
        }
        k => return Err(format!("step {}: unknown kind {k}", ev.seq)),
    }
    Ok(())
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

impl Hub {
    pub fn new(cfg: Config, store: Store) -> Hub {
        let tables = CachedTables::new(cfg.tables.clone());
        let cfg_bot_threads = cfg.bot_threads.max(1);
        Hub {
            cfg,
            store,
            tables,
            games: Mutex::new(HashMap::new()),
            proc_id: secret(),
            conns: StdMutex::new(HashMap::new()),
            creations: StdMutex::new(HashMap::new()),
            bot_gate: tokio::sync::Semaphore::new(cfg_bot_threads),
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
        let (tokens, at) = all.entry(ip).or_insert((burst, now));
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

    /// Stores a new game and puts it in play.
    pub async fn create(self: &Arc<Self>, row: GameRow, meta: Meta, session: Session) -> Result<Arc<LiveGame>, StoreError> {
        self.store.create_game(row).await?;
        let game = self.live(meta, session, 0, "playing".into(), None);
        self.games.lock().await.insert(game.meta.id.clone(), game.clone());
        game.after_change(self, &mut *game.state.lock().await);
        Ok(game)
    }

    fn live(&self, meta: Meta, session: Session, seq: u64, status: String, winner: Option<String>) -> Arc<LiveGame> {
        let (tx, _) = broadcast::channel(256);
        let state = State {
            session,
            seq,
            status,
            winner,
            local: [0, 0],
            sockets: 0,
            remote: HashMap::new(),
            deadline: [None, None],
            deadline_gen: [0, 0],
            bot_pending: false,
        };
        Arc::new(LiveGame { meta, state: Mutex::new(state), tx })
    }

    /// The game with this id, loaded from the store if it is not in play here.
    pub async fn game(self: &Arc<Self>, id: &str) -> Result<Option<Arc<LiveGame>>, String> {
        if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        let mut games = self.games.lock().await;
        if let Some(g) = games.get(id) {
            return Ok(Some(g.clone()));
        }
        let Some((row, events)) = self.store.load(id, 0).await.map_err(|e| e.to_string())? else { return Ok(None) };
        let game = self.rebuild(&row, &events)?;
        games.insert(id.to_string(), game.clone());
        drop(games);
        if self.store.is_postgres() {
            // Who is connected to this game on the other processes?
            self.store.notify(format!("q:{id}:{}", self.proc_id)).await;
        }
        game.after_change(self, &mut *game.state.lock().await);
        Ok(Some(game))
    }

    fn rebuild(&self, row: &GameRow, events: &[EventRow]) -> Result<Arc<LiveGame>, String> {
        let new = new_game_of(row)?;
        let (session, seq, status, winner) = self.replayed(&new, row.start.as_deref(), events)?;
        let side = |s: &str| s == "bot";
        let meta = Meta {
            id: row.id.clone(),
            new,
            mode: row.mode.clone(),
            bots: [side(&row.light), side(&row.dark)],
            bot: row.bot.clone(),
            tokens: [row.token_light.clone(), row.token_dark.clone()],
            start: row.start.clone(),
        };
        Ok(self.live(meta, session, seq, status, winner))
    }

    pub(crate) fn replayed(
        &self,
        new: &NewGame,
        start: Option<&str>,
        events: &[EventRow],
    ) -> Result<(Session, u64, String, Option<String>), String> {
        let mut session = self.session(new)?;
        if let Some(text) = start {
            session.set_text(text).map_err(|e| format!("start position: {e}"))?;
        }
        let (mut status, mut winner) = ("playing".to_string(), None);
        let mut seq = 0;
        for ev in events {
            if ev.seq != seq as i64 + 1 {
                return Err(format!("step {} is missing", seq + 1));
            }
            replay(&mut session, ev, &mut status, &mut winner)?;
            seq += 1;
        }
        if let Some(st) = over_status(&session) {
            (status, winner) = (st.status, st.winner);
        }
        Ok((session, seq, status, winner))
    }

    /// Loads every game in progress (their bots' turns are scheduled again).
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, String> {
        let ids = self.store.in_progress().await.map_err(|e| e.to_string())?;
        let mut n = 0;
        for id in ids {
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

    pub(crate) async fn forget(&self, id: &str) {
        let mut games = self.games.lock().await;
        if let Some(g) = games.get(id) {
            let st = g.state.lock().await;
            if st.sockets == 0 && st.status != "playing" {
                drop(st);
                games.remove(id);
            }
        }
    }

    pub async fn games_in_play(&self) -> usize {
        self.games.lock().await.len()
    }
}

pub fn client_key(ip: IpAddr) -> IpAddr {
    ip
}
