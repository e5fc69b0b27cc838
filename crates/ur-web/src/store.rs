//! Where games are kept: SQLite (one process, WAL mode) or PostgreSQL
//! (several processes, live updates by `LISTEN/NOTIFY`). The same schema in
//! both: a row per game and its append-only events, numbered from 1; the
//! primary key (game, seq) serializes a game's actions across processes.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::{mpsc, oneshot};

/// The schema, one migration per version; `schema_version` holds the
/// version a database is at. Append only: never change a shipped step.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        rules_id TEXT,
        rules_file TEXT,
        options TEXT NOT NULL,
        first TEXT NOT NULL,
        mode TEXT NOT NULL,
        light TEXT NOT NULL,
        dark TEXT NOT NULL,
        bot TEXT,
        token_light TEXT,
        token_dark TEXT,
        status TEXT NOT NULL,
        winner TEXT,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    );
    CREATE INDEX games_status ON games (status);
    CREATE TABLE events (
        game TEXT NOT NULL REFERENCES games (id),
        seq BIGINT NOT NULL,
        kind TEXT NOT NULL,
        raw BIGINT,
        action_index BIGINT,
        action TEXT,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game, seq)
    );",
    "ALTER TABLE games ADD COLUMN start TEXT;",
    // Clocks (docs/serve.md): a game's time control, each step's remaining time.
    "ALTER TABLE games ADD COLUMN clock TEXT; ALTER TABLE events ADD COLUMN clock_ms BIGINT;",
    // Lobby, accounts and ratings (crate::lobby, crate::accounts, crate::ratings).
    "ALTER TABLE games ADD COLUMN player_light TEXT;
    ALTER TABLE games ADD COLUMN player_dark TEXT;
    ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN rating_applied BIGINT NOT NULL DEFAULT 0;
    CREATE INDEX games_player_light ON games (player_light);
    CREATE INDEX games_player_dark ON games (player_dark);
    CREATE TABLE accounts (
        name_key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        password TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE sessions (
        hash TEXT PRIMARY KEY,
        name_key TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE TABLE ratings (
        name_key TEXT NOT NULL,
        rules TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        PRIMARY KEY (name_key, rules)
    );
    CREATE TABLE rating_history (
        name_key TEXT NOT NULL,
        rules TEXT NOT NULL,
        game TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (name_key, game)
    );
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL,
        rules TEXT NOT NULL,
        options TEXT NOT NULL,
        clock TEXT,
        rated BIGINT NOT NULL,
        account TEXT,
        created_ms BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        game TEXT,
        seat TEXT
    );",
];

/// Query connections per process: commits in flight at once, which the
/// server syncs to disk together (group commit).
const POOL: usize = 16;

/// The channel PostgreSQL notifications travel on.
pub const CHANNEL: &str = "ur_events";

/// A stored game's fixed facts and its status.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub rules_id: Option<String>,
    pub rules_file: Option<String>,
    /// The options as a JSON object.
    pub options: String,
    pub first: String,
    pub mode: String,
    /// `human` or `bot`.
    pub light: String,
    pub dark: String,
    pub bot: Option<String>,
    /// SHA-256 of each seat's token, hex.
    pub token_light: Option<String>,
    pub token_dark: Option<String>,
    /// `playing`, `over` or `abandoned`.
    pub status: String,
    pub winner: Option<String>,
    pub created_ms: i64,
    /// The position string the game started from, if not the start.
    pub start: Option<String>,
    /// The time control ([`crate::clock::ClockSpec`] as JSON), if any.
    pub clock: Option<String>,
}

/// One step of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    pub seq: i64,
    /// `roll`, `act`, or a step of a side named in `action`: `abandon`,
    /// `resign`, `flag`, `draw_offer`, `draw_decline`, `draw`.
    pub kind: String,
    pub raw: Option<i64>,
    pub action_index: Option<i64>,
    /// The action's JSON (`act`), or the side that left, resigned, ran out of time, offered or answered.
    pub action: Option<String>,
    /// When it was made (ms since the epoch).
    pub at_ms: i64,
    /// The mover's remaining time after it, in a game with a clock.
    pub clock_ms: Option<i64>,
}

impl EventRow {
    /// A step made now.
    pub fn now(seq: i64, kind: &str) -> EventRow {
        EventRow { seq, kind: kind.into(), raw: None, action_index: None, action: None, at_ms: now_ms(), clock_ms: None }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process stored this step first.
    #[error("another step was stored first")]
    Conflict,
    /// The game is no longer being played (it expired): no step is stored.
    #[error("the game has ended")]
    Ended,
    #[error("{0}")]
    Other(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => StoreError::Conflict,
            e => StoreError::Other(e.to_string()),
        }
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) {
            StoreError::Conflict
        } else {
            StoreError::Other(e.to_string())
        }
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// A game's new status with a step.
#[derive(Clone, Debug)]
pub struct StatusChange {
    pub status: String,
    pub winner: Option<String>,
}

/// The database.
#[derive(Clone)]
pub enum Store {
    Sqlite(Sqlite),
    Postgres(Arc<Postgres>),
}

impl Store {
    /// Opens (creating and migrating) the SQLite database at `path`.
    ///
    /// # Errors
    /// The file cannot be opened or migrated.
    pub fn sqlite(path: &Path, sync_full: bool) -> Result<Store, String> {
        Ok(Store::Sqlite(Sqlite::open(path, sync_full)?))
    }

    /// Connects to PostgreSQL and migrates; notifications arrive on the returned receiver.
    ///
    /// # Errors
    /// The server cannot be reached or the schema cannot be migrated.
    pub async fn postgres(url: &str) -> Result<(Store, mpsc::UnboundedReceiver<String>), String> {
        let (pg, rx) = Postgres::connect(url).await?;
        Ok((Store::Postgres(Arc::new(pg)), rx))
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    pub async fn create_game(&self, row: GameRow) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.call(move |c| {
                    c.execute(
                        "INSERT INTO games (id, rules_id, rules_file, options, first, mode, light, dark, bot, token_light, token_dark, status, winner, created_ms, updated_ms, start, clock)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14, ?15, ?16)",
                        rusqlite::params![
                            row.id, row.rules_id, row.rules_file, row.options, row.first, row.mode, row.light, row.dark, row.bot,
                            row.token_light, row.token_dark, row.status, row.winner, row.created_ms, row.start, row.clock
                        ],
                    )
                    .map(drop)
                })
                .await
            }
            Store::Postgres(p) => {
                p.client()
                    .execute(
                        "INSERT INTO games (id, rules_id, rules_file, options, first, mode, light, dark, bot, token_light, token_dark, status, winner, created_ms, updated_ms, start, clock)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16)",
                        &[
                            &row.id, &row.rules_id, &row.rules_file, &row.options, &row.first, &row.mode, &row.light, &row.dark, &row.bot,
                            &row.token_light, &row.token_dark, &row.status, &row.winner, &row.created_ms, &row.start, &row.clock,
                        ],
                    )
                    .await?;
                Ok(())
            }
        }
    }

    /// Appends one step (and the game's new status); fails with
    /// [`StoreError::Conflict`] when that step number is taken.
    pub async fn append(&self, game: &str, ev: EventRow, status: Option<StatusChange>, notify: String) -> Result<(), StoreError> {
        let game = game.to_string();
        let at = ev.at_ms;
        match self {
            Store::Sqlite(s) => {
                let stored = s
                    .call(move |c| {
                        // Only a game still being played takes a step.
                        // Cached statements: parsing them again took a tenth of the server's time under load.
                        let inserted = c
                            .prepare_cached(
                                "INSERT INTO events (game, seq, kind, raw, action_index, action, at_ms, clock_ms)
                             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1 AND status = 'playing')",
                            )?
                            .execute(rusqlite::params![game, ev.seq, ev.kind, ev.raw, ev.action_index, ev.action, at, ev.clock_ms])?;
                        if inserted == 0 {
                            return Ok(false);
                        }
                        match status {
                            Some(st) => c
                                .prepare_cached("UPDATE games SET status = ?2, winner = ?3, updated_ms = ?4 WHERE id = ?1")?
                                .execute(rusqlite::params![game, st.status, st.winner, at]),
                            None => {
                                c.prepare_cached("UPDATE games SET updated_ms = ?2 WHERE id = ?1")?.execute(rusqlite::params![game, at])
                            }
                        }
                        .map(|_| true)
                    })
                    .await?;
                if stored {
                    Ok(())
                } else {
                    Err(StoreError::Ended)
                }
            }
            Store::Postgres(p) => {
                let (st, winner) = match status {
                    Some(s) => (Some(s.status), s.winner),
                    None => (None, None),
                };
                // One statement: the step and the status commit together or
                // not at all, and only while the game is being played (its
                // row locked, so an expiry commits before or after, not between).
                let updated = p
                    .client()
                    .execute(
                        "WITH g AS (SELECT id FROM games WHERE id = $1 AND status = 'playing' FOR UPDATE),
                         ins AS (
                            INSERT INTO events (game, seq, kind, raw, action_index, action, at_ms, clock_ms)
                            SELECT g.id, $2::BIGINT, $3::TEXT, $4::BIGINT, $5::BIGINT, $6::TEXT, $7::BIGINT, $10::BIGINT FROM g RETURNING seq)
                         UPDATE games SET status = COALESCE($8, status), winner = COALESCE($9, winner), updated_ms = $7
                         WHERE id = $1 AND EXISTS (SELECT 1 FROM ins)",
                        &[&game, &ev.seq, &ev.kind, &ev.raw, &ev.action_index, &ev.action, &at, &st, &winner, &ev.clock_ms],
                    )
                    .await?;
                if updated == 0 {
                    return Err(StoreError::Ended);
                }
                // Announced once committed, batched with others (NOTIFY
                // serializes the commits that carry it).
                let _ = p.notifier.send(notify);
                Ok(())
            }
        }
    }

    /// A game's row and its events after step `after`.
    pub async fn load(&self, id: &str, after: i64) -> Result<Option<(GameRow, Vec<EventRow>)>, StoreError> {
        let id = id.to_string();
        match self {
            Store::Sqlite(s) => {
                s.read(move |c| {
                    let row = c.query_row(
                        "SELECT id, rules_id, rules_file, options, first, mode, light, dark, bot, token_light, token_dark, status, winner, created_ms, start, clock
                         FROM games WHERE id = ?1",
                        [&id],
                        |r| {
                            Ok(GameRow {
                                id: r.get(0)?,
                                rules_id: r.get(1)?,
                                rules_file: r.get(2)?,
                                options: r.get(3)?,
                                first: r.get(4)?,
                                mode: r.get(5)?,
                                light: r.get(6)?,
                                dark: r.get(7)?,
                                bot: r.get(8)?,
                                token_light: r.get(9)?,
                                token_dark: r.get(10)?,
                                status: r.get(11)?,
                                winner: r.get(12)?,
                                created_ms: r.get(13)?,
                                start: r.get(14)?,
                                clock: r.get(15)?,
                            })
                        },
                    );
                    let row = match row {
                        Ok(r) => r,
                        Err(rusqlite::Error::QueryReturnedNoRows) => return Ok(None),
                        Err(e) => return Err(e),
                    };
                    let mut stmt = c.prepare_cached(
                        "SELECT seq, kind, raw, action_index, action, at_ms, clock_ms FROM events WHERE game = ?1 AND seq > ?2 ORDER BY seq",
                    )?;
                    let events = stmt
                        .query_map(rusqlite::params![id, after], |r| {
                            Ok(EventRow {
                                seq: r.get(0)?,
                                kind: r.get(1)?,
                                raw: r.get(2)?,
                                action_index: r.get(3)?,
                                action: r.get(4)?,
                                at_ms: r.get(5)?,
                                clock_ms: r.get(6)?,
                            })
                        })?
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Some((row, events)))
                })
                .await
            }
            Store::Postgres(p) => {
                let c = p.client();
                let rows = c
                    .query(
                        "SELECT id, rules_id, rules_file, options, first, mode, light, dark, bot, token_light, token_dark, status, winner, created_ms, start, clock
                         FROM games WHERE id = $1",
                        &[&id],
                    )
                    .await?;
                let Some(r) = rows.first() else { return Ok(None) };
                let row = GameRow {
                    id: r.get(0),
                    rules_id: r.get(1),
                    rules_file: r.get(2),
                    options: r.get(3),
                    first: r.get(4),
                    mode: r.get(5),
                    light: r.get(6),
                    dark: r.get(7),
                    bot: r.get(8),
                    token_light: r.get(9),
                    token_dark: r.get(10),
                    status: r.get(11),
                    winner: r.get(12),
                    created_ms: r.get(13),
                    start: r.get(14),
                    clock: r.get(15),
                };
                let events = c
                    .query(
                        "SELECT seq, kind, raw, action_index, action, at_ms, clock_ms FROM events WHERE game = $1 AND seq > $2 ORDER BY seq",
                        &[&id, &after],
                    )
                    .await?
                    .iter()
                    .map(|r| EventRow {
                        seq: r.get(0),
                        kind: r.get(1),
                        raw: r.get(2),
                        action_index: r.get(3),
                        action: r.get(4),
                        at_ms: r.get(5),
                        clock_ms: r.get(6),
                    })
                    .collect();
                Ok(Some((row, events)))
            }
        }
    }

    /// The ids of the games still being played, the last played first.
    pub async fn in_progress(&self) -> Result<Vec<String>, StoreError> {
        const SQL: &str = "SELECT id FROM games WHERE status = 'playing' ORDER BY updated_ms DESC";
        match self {
            Store::Sqlite(s) => {
                s.read(|c| {
                    let mut stmt = c.prepare(SQL)?;
                    let ids = stmt.query_map([], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
                    Ok(ids)
                })
                .await
            }
            Store::Postgres(p) => {
                let rows = p.client().query(SQL, &[]).await?;
                Ok(rows.iter().map(|r| r.get(0)).collect())
            }
        }
    }

    /// Marks `expired` every game still being played whose last step (or
    /// creation) is older than its cutoff: `online_before` for online
    /// games, `solo_before` for bot and hot-seat games (milliseconds since
    /// the epoch). The ids it expired.
    pub async fn expire_idle(&self, online_before: i64, solo_before: i64) -> Result<Vec<String>, StoreError> {
        const SQL: &str = "UPDATE games SET status = 'expired', updated_ms = CAST($3 AS BIGINT)
             WHERE status = 'playing' AND updated_ms < CASE WHEN mode = 'online' THEN CAST($1 AS BIGINT) ELSE CAST($2 AS BIGINT) END
             RETURNING id";
        let now = now_ms();
        match self {
            Store::Sqlite(s) => {
                s.call(move |c| {
                    // SQLite numbers its parameters ?N.
                    let mut stmt = c.prepare(&SQL.replace('$', "?"))?;
                    let ids = stmt.query_map([online_before, solo_before, now], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
                    Ok(ids)
                })
                .await
            }
            Store::Postgres(p) => {
                let rows = p.client().query(SQL, &[&online_before, &solo_before, &now]).await?;
                Ok(rows.iter().map(|r| r.get(0)).collect())
            }
        }
    }

    /// Tells the other processes something (PostgreSQL only).
    pub async fn notify(&self, payload: String) {
        if let Store::Postgres(p) = self {
            let _ = p.notifier.send(payload);
        }
    }
}

type Reply = Box<dyn FnOnce(Option<String>) + Send>;
/// A write, run inside the transaction (`Some`), or refused (`None`) when
/// the transaction could not begin.
type Job = Box<dyn FnOnce(Option<&rusqlite::Connection>) -> Reply + Send>;
type Read = Box<dyn FnOnce(&rusqlite::Connection) + Send>;

/// SQLite on threads of its own: one writes, one reads, one checkpoints.
/// Writes waiting together are committed in one transaction (group
/// commit); each write's answer is sent after the commit. Reads take no
/// write lock (WAL lets them run beside a writer, of this process or not).
#[derive(Clone)]
pub struct Sqlite {
    tx: std_mpsc::Sender<Job>,
    reads: std_mpsc::Sender<Read>,
    /// Dropped with the last handle: the checkpoint thread then stops.
    _running: Arc<std_mpsc::Sender<()>>,
    _lock: Arc<DbLock>,
}

/// An exclusive lock on `<database>.lock` (which holds the holder's PID),
/// taken before the database is opened and held while the store lives:
/// a second process on the same SQLite file would store steps in games
/// the first one plays.
pub struct DbLock {
    _file: std::fs::File,
}

/// The lock file beside an SQLite database.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl DbLock {
    /// Locks `<db>.lock` for this process and writes its PID there.
    ///
    /// # Errors
    /// Another process holds it (the message names the file and its PID), or the file cannot be written.
    pub fn take(db: &Path) -> Result<DbLock, String> {
        use fs4::fs_std::FileExt;
        use std::io::Write;
        let path = lock_path(db);
        let cannot = |e: std::io::Error| format!("cannot lock {}: {e} (give --db a file in a folder you can write)", path.display());
        // Not written atomically: the lock belongs to this very file, so it is rewritten in place.
        let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(cannot)?;
        if !FileExt::try_lock_exclusive(&file).map_err(cannot)? {
            let holder = std::fs::read_to_string(&path).ok().map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
            let holder = holder.map_or("another process".to_string(), |pid| format!("process {pid}"));
            return Err(format!(
                "the SQLite database {} is in use: {holder} holds its lock {} (another `ur serve`?). Stop that process, \
                 or give --db another file; several processes can share one database only on PostgreSQL (--db postgres://...)",
                db.display(),
                path.display()
            ));
        }
        file.set_len(0).map_err(cannot)?;
        writeln!(file, "{}", std::process::id()).map_err(cannot)?;
        Ok(DbLock { _file: file })
    }
}

impl Sqlite {
    fn open(path: &Path, sync_full: bool) -> Result<Sqlite, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                format!("cannot create the folder {} for the database: {e}; give --db a file in a folder you can write", dir.display())
            })?;
        }
        let lock = DbLock::take(path)?;
        let named = |e: rusqlite::Error| format!("cannot open the SQLite database {}: {e} (give --db another file)", path.display());
        let mut conn = rusqlite::Connection::open(path).map_err(named)?;
        conn.busy_timeout(BUSY).map_err(named)?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(named)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(format!("the SQLite database {} cannot use WAL mode (it is in {mode} mode)", path.display()));
        }
        let sync = if sync_full { "FULL" } else { "NORMAL" };
        conn.execute_batch(&format!("PRAGMA synchronous = {sync}; PRAGMA foreign_keys = ON;")).map_err(named)?;
        migrate_sqlite(&mut conn).map_err(|e| format!("cannot migrate the SQLite database {}: {e}", path.display()))?;
        // Checkpoints (copying the WAL into the database, with its syncs)
        // run on a thread of their own, never in the way of a commit.
        conn.execute_batch("PRAGMA wal_autocheckpoint = 0").map_err(named)?;
        let checkpointer = rusqlite::Connection::open(path).map_err(named)?;
        checkpointer.busy_timeout(BUSY).map_err(named)?;
        let (running, stopped) = std_mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("ur-sqlite-checkpoint".into())
            .spawn(move || {
                while let Err(std_mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(std::time::Duration::from_millis(500)) {
                    if let Err(e) = checkpointer.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                        eprintln!("ur serve: SQLite checkpoint failed (it is tried again): {e}");
                    }
                }
            })
            .map_err(|e| format!("cannot start the checkpoint thread: {e}"))?;
        let reader = rusqlite::Connection::open(path).map_err(named)?;
        reader.busy_timeout(BUSY).map_err(named)?;
        reader.execute_batch("PRAGMA query_only = ON").map_err(named)?;
        let (reads, read_rx) = std_mpsc::channel::<Read>();
        std::thread::Builder::new()
            .name("ur-sqlite-read".into())
            .spawn(move || {
                while let Ok(read) = read_rx.recv() {
                    read(&reader);
                }
            })
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        let (tx, rx) = std_mpsc::channel::<Job>();
        let path: PathBuf = path.into();
        std::thread::Builder::new()
            .name("ur-sqlite".into())
            .spawn(move || run_sqlite(conn, rx, path))
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        Ok(Sqlite { tx, reads, _running: Arc::new(running), _lock: Arc::new(lock) })
    }

    /// A write, committed with the others waiting (see [`run_sqlite`]).
    pub(crate) async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |c| {
            let r = c.map(|c| f(c).map_err(StoreError::from));
            Box::new(move |commit_error: Option<String>| {
                let r = match (commit_error, r) {
                    (Some(e), _) => Err(StoreError::Other(e)),
                    (None, Some(r)) => r,
                    (None, None) => Err(StoreError::Other("the write was not run".into())),
                };
                let _ = tx.send(r);
            })
        });
        self.tx.send(job).map_err(|_| StoreError::Other("the database thread has stopped".into()))?;
        rx.await.map_err(|_| StoreError::Other("the database thread has stopped".into()))?
    }

    /// A read, in a transaction of its own (one snapshot), on the reading connection.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let read: Read = Box::new(move |c| {
            let r = c.unchecked_transaction().and_then(|t| {
                let r = f(&t);
                t.finish().and(r)
            });
            let _ = tx.send(r.map_err(StoreError::from));
        });
        self.reads.send(read).map_err(|_| StoreError::Other("the database thread has stopped".into()))?;
        rx.await.map_err(|_| StoreError::Other("the database thread has stopped".into()))?
    }
}

/// How long SQLite waits for another connection's lock before it gives up.
const BUSY: std::time::Duration = std::time::Duration::from_secs(5);

/// Commits the writes waiting together in one transaction. When the
/// transaction cannot begin (another program holds the write lock past
/// [`BUSY`]), none of them is run: each is answered with the error, and
/// nothing of it is stored.
fn run_sqlite(conn: rusqlite::Connection, rx: std_mpsc::Receiver<Job>, path: PathBuf) {
    while let Ok(first) = rx.recv() {
        let mut jobs = vec![first];
        while jobs.len() < 512 {
            match rx.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        if let Err(e) = conn.prepare_cached("BEGIN IMMEDIATE").and_then(|mut s| s.execute([])) {
            eprintln!("ur serve: cannot write to {}: {e}", path.display());
            let error = format!("the database could not store it: {e}");
            for job in jobs {
                job(None)(Some(error.clone()));
            }
            continue;
        }
        let replies: Vec<Reply> = jobs.into_iter().map(|j| j(Some(&conn))).collect();
        let error = match conn.prepare_cached("COMMIT").and_then(|mut s| s.execute([])) {
            Ok(_) => None,
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                eprintln!("ur serve: cannot write to {}: {e}", path.display());
                Some(format!("the database could not store it: {e}"))
            }
        };
        for reply in replies {
            reply(error.clone());
        }
    }
}

fn migrate_sqlite(conn: &mut rusqlite::Connection) -> Result<(), rusqlite::Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    let version: i64 = tx.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_version", [], |r| r.get(0))?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(step)?;
        tx.execute("DELETE FROM schema_version", [])?;
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [i as i64 + 1])?;
    }
    tx.commit()
}

/// PostgreSQL: [`POOL`] clients used in turn (each pipelines its queries)
/// and one that listens.
pub struct Postgres {
    clients: Vec<Arc<tokio_postgres::Client>>,
    notifier: mpsc::UnboundedSender<String>,
    next: AtomicUsize,
    _listener: tokio_postgres::Client,
    /// For the transactions of crate::sql, each on a connection of its own.
    pub(crate) url: String,
}

impl Postgres {
    async fn connect(url: &str) -> Result<(Postgres, mpsc::UnboundedReceiver<String>), String> {
        let failed = |e: tokio_postgres::Error| {
            let mut why = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                why = format!("{why}: {s}");
                source = s.source();
            }
            format!("cannot connect to the PostgreSQL database: {why}")
        };
        let mut clients = Vec::new();
        for _ in 0..POOL {
            let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.map_err(failed)?;
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    eprintln!("ur serve: the PostgreSQL connection ended: {e}");
                }
            });
            clients.push(Arc::new(client));
        }
        let (mut first, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.map_err(failed)?;
        let migrating = tokio::spawn(conn);
        migrate_postgres(&mut first).await.map_err(|e| format!("cannot migrate the PostgreSQL database: {e}"))?;
        drop(first);
        let _ = migrating.await;
        let (notifier, mut outbox) = mpsc::unbounded_channel::<String>();
        let sender = clients[0].clone();
        tokio::spawn(async move {
            // Notifications waiting together go in one NOTIFY, payloads joined by ';'.
            while let Some(first) = outbox.recv().await {
                let mut payload = first;
                while payload.len() < 7000 {
                    match outbox.try_recv() {
                        Ok(p) => {
                            payload.push(';');
                            payload.push_str(&p);
                        }
                        Err(_) => break,
                    }
                }
                if let Err(e) = sender.execute("SELECT pg_notify('ur_events', $1)", &[&payload]).await {
                    eprintln!("ur serve: cannot notify the other processes: {e}");
                }
            }
        });
        let (listener, mut conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.map_err(failed)?;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut messages = futures_util::stream::poll_fn(move |cx| conn.poll_message(cx));
            use futures_util::StreamExt;
            while let Some(m) = messages.next().await {
                match m {
                    Ok(tokio_postgres::AsyncMessage::Notification(n)) => {
                        for part in n.payload().split(';') {
                            if tx.send(part.to_string()).is_err() {
                                return;
                            }
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        eprintln!("ur serve: the PostgreSQL listening connection failed: {e}; live updates from other processes stop");
                        return;
                    }
                }
            }
        });
        listener.batch_execute(&format!("LISTEN {CHANNEL}")).await.map_err(failed)?;
        Ok((Postgres { clients, notifier, next: AtomicUsize::new(0), _listener: listener, url: url.to_string() }, rx))
    }

    pub(crate) fn client(&self) -> &tokio_postgres::Client {
        &self.clients[self.next.fetch_add(1, Ordering::Relaxed) % self.clients.len()]
    }
}

async fn migrate_postgres(client: &mut tokio_postgres::Client) -> Result<(), tokio_postgres::Error> {
    let tx = client.transaction().await?;
    // One process migrates at a time.
    tx.execute("SELECT pg_advisory_xact_lock(72217021)", &[]).await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)").await?;
    let version: i64 = tx.query_one("SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_version", &[]).await?.get(0);
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.batch_execute(step).await?;
        tx.execute("DELETE FROM schema_version", &[]).await?;
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&(i as i64 + 1)]).await?;
    }
    tx.commit().await
}
