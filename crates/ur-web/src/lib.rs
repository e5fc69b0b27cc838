//! `ur serve`: the Royal Game of Ur in the browser. An authoritative game
//! server (axum on tokio): the page and its files embedded in the binary, a
//! small HTTP API, and a websocket per player or watcher (docs/serve.md).
//! Every step is stored (SQLite or PostgreSQL) before anyone hears of it.

pub mod accounts;
pub mod client;
pub mod clock;
pub mod conn;
pub mod endings;
pub mod http;
pub mod hub;
pub mod live;
pub mod lobby;
pub mod pg_cluster;
pub mod ratings;
pub mod rematch;
pub mod review_api;
pub mod review_page;
pub mod rules_check;
pub mod solving;
pub mod sql;
pub mod store;
pub mod track;
pub mod ws;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hub::Hub;
use store::Store;

/// Where games are stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Db {
    /// An SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL connection string (`postgres://user@host:port/db`).
    Postgres(String),
}

impl Db {
    /// `postgres://...` or `postgresql://...` is PostgreSQL, anything else an SQLite path.
    pub fn parse(s: &str) -> Db {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Db::Postgres(s.to_string())
        } else {
            Db::Sqlite(PathBuf::from(s))
        }
    }
}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on, `127.0.0.1:8080` by default.
    pub addr: String,
    pub db: Db,
    /// How long a bot waits before each of its steps.
    pub bot_delay: Duration,
    /// How many bot moves are thought out at once: the rest wait, so that
    /// bots never take the cores the players' moves need.
    pub bot_threads: usize,
    /// The table store (solved tables for hints, level 5 and perfect play).
    pub tables: Option<PathBuf>,
    /// How long an online player who dropped has to come back.
    pub reconnect: Duration,
    /// The largest websocket message taken, in bytes.
    pub max_message: usize,
    /// The largest rule-set file taken, in bytes.
    pub max_rules_file: usize,
    /// Open websockets per client address.
    pub max_connections_per_ip: usize,
    /// Connections of any kind (HTTP and websockets) open at once; `None`:
    /// as many as the open-file limit allows ([`conn::connections_for`]).
    pub max_tcp_connections: Option<usize>,
    /// Connections of any kind open at once from one client address.
    pub max_tcp_connections_per_ip: usize,
    /// Time for a request's head to arrive, from the connection's opening
    /// or the end of the previous answer.
    pub header_read_timeout: Duration,
    /// Time a request in flight may go without a byte read or written.
    pub idle_timeout: Duration,
    /// How often the server pings each websocket.
    pub ws_ping: Duration,
    /// A websocket from which no frame arrived for this long is closed.
    pub ws_timeout: Duration,
    /// Origins (`https://host[:port]`) besides the server's own whose pages
    /// may open websockets and send POSTs.
    pub allow_origins: Vec<String>,
    /// Messages per second each websocket may send (a token bucket).
    pub messages_per_second: f64,
    /// How many messages a websocket may send at once before the rate applies.
    pub message_burst: f64,
    /// Games each client address may create per second (bursts of four
    /// times as many, plus ten).
    pub games_per_second: f64,
    /// SQLite: sync every commit to disk (`synchronous = FULL`, safe
    /// against power loss) rather than at checkpoints (`NORMAL`, safe
    /// against a crash of the process).
    pub sync_full: bool,
    /// The most games held in memory. Games nobody is connected to leave
    /// memory to make room (they are loaded again when opened); when none
    /// can, new games are refused with `busy`.
    pub max_live_games: usize,
    /// An online game in which no step was stored for this long expires
    /// (an invite nobody took, a game both players left).
    pub expire_online: Duration,
    /// A bot or hot-seat game in which no step was stored for this long expires.
    pub expire_solo: Duration,
    /// Bytes of rule-set files each client address (IPv6: each /64) may
    /// store per day (UTC).
    pub max_rules_bytes_per_day: usize,
    /// Print nothing but errors.
    pub quiet: bool,
    /// The page is served over HTTPS: session cookies are `Secure`.
    pub https: bool,
    /// The rule sets whose missing tables are solved in the background into
    /// [`Config::tables`] ([`solving`]); empty: none.
    pub solve: Vec<Arc<ur_rules::Rules>>,
}

impl Config {
    pub fn new(addr: impl Into<String>, db: Db) -> Config {
        Config {
            addr: addr.into(),
            db,
            bot_delay: Duration::from_millis(700),
            bot_threads: default_bot_threads(),
            tables: None,
            reconnect: Duration::from_secs(300),
            max_message: 4096,
            max_rules_file: 64 * 1024,
            max_connections_per_ip: 64,
            max_tcp_connections: None,
            max_tcp_connections_per_ip: 256,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            ws_ping: Duration::from_secs(20),
            ws_timeout: Duration::from_secs(45),
            allow_origins: Vec::new(),
            messages_per_second: 20.0,
            message_burst: 40.0,
            games_per_second: 5.0,
            sync_full: true,
            max_live_games: DEFAULT_MAX_LIVE_GAMES,
            expire_online: Duration::from_secs(DEFAULT_EXPIRE_ONLINE_SECS),
            expire_solo: Duration::from_secs(DEFAULT_EXPIRE_SOLO_SECS),
            max_rules_bytes_per_day: DEFAULT_MAX_RULES_BYTES_PER_DAY,
            quiet: false,
            https: false,
            solve: Vec::new(),
        }
    }
}

/// Games held in memory at most: about 50 KiB each (up to 170 KiB with
/// a 64 KiB rule-set file), so at most about 250 to 850 MiB.
pub const DEFAULT_MAX_LIVE_GAMES: usize = 5_000;
/// An online game with no step for 7 days expires: a friend who has not
/// opened the invite in a week will not.
pub const DEFAULT_EXPIRE_ONLINE_SECS: u64 = 7 * 24 * 3600;
/// A bot or hot-seat game with no step for 30 days expires: long enough to
/// come back to a game after a holiday.
pub const DEFAULT_EXPIRE_SOLO_SECS: u64 = 30 * 24 * 3600;
/// Rule-set file bytes stored per client address per day: 64 files of the
/// largest size.
pub const DEFAULT_MAX_RULES_BYTES_PER_DAY: usize = 4 * 1024 * 1024;

/// Bots think on all cores but one (at least one).
pub fn default_bot_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on {addr}: {source}; {hint}")]
    Bind { addr: String, source: std::io::Error, hint: &'static str },
    #[error("{0}")]
    Db(String),
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A server listening, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    gate: Arc<conn::Gate>,
    notifications: Option<tokio::sync::mpsc::UnboundedReceiver<String>>,
}

impl Server {
    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// The caps and timeouts of connections in force.
    pub fn limits(&self) -> &conn::Limits {
        self.gate.limits()
    }

    /// How many games in progress were resumed from the store.
    pub async fn games_in_play(&self) -> usize {
        self.hub.games_in_play().await
    }

    /// The hub, to look at what the server holds (tests, tools).
    pub fn hub(&self) -> Arc<Hub> {
        self.hub.clone()
    }

    /// Serves until the process ends.
    ///
    /// # Errors
    /// The listener fails.
    pub async fn run(mut self) -> Result<(), ServeError> {
        if let Some(mut rx) = self.notifications.take() {
            let hub = self.hub.clone();
            tokio::spawn(async move {
                while let Some(payload) = rx.recv().await {
                    hub.notified(&payload).await;
                }
            });
        }
        let app = http::router(self.hub.clone());
        conn::serve(self.listener, app, self.gate).await?;
        Ok(())
    }
}

/// Opens the database (migrating it), resumes the games in progress and
/// binds the address.
///
/// # Errors
/// An unreachable or damaged database, or an address that cannot be bound.
pub async fn start(config: Config) -> Result<Server, ServeError> {
    let limits = limits(&config)?;
    for origin in &config.allow_origins {
        http::check_origin_flag(origin).map_err(ServeError::Config)?;
    }
    let (store, notifications) = match &config.db {
        Db::Sqlite(path) => (Store::sqlite(path, config.sync_full).map_err(ServeError::Db)?, None),
        Db::Postgres(url) => {
            let (s, rx) =
                Store::postgres(url).await.map_err(|e| ServeError::Db(format!("{e} (is the server running, and is --db right?)")))?;
            (s, Some(rx))
        }
    };
    let listener = tokio::net::TcpListener::bind(&config.addr).await.map_err(|source| {
        let hint = if source.kind() == std::io::ErrorKind::AddrInUse {
            "another program (perhaps another `ur serve`) uses that port: stop it, or choose another with --addr 127.0.0.1:PORT"
        } else {
            "give --addr HOST:PORT with an address of this machine, for example 127.0.0.1:8080"
        };
        ServeError::Bind { addr: config.addr.clone(), source, hint }
    })?;
    let hub = Arc::new(Hub::new(config, store));
    hub.resume_all().await.map_err(|e| ServeError::Db(format!("cannot read the games in progress: {e}")))?;
    tokio::spawn(expire_idle_games(Arc::downgrade(&hub)));
    tokio::spawn(lobby::sweep(Arc::downgrade(&hub)));
    solving::start(hub.solving.clone(), hub.cfg.tables.clone(), hub.cfg.quiet);
    Ok(Server { listener, hub, gate: conn::Gate::new(limits), notifications })
}

/// The connection caps and timeouts of `config`, the total cap checked
/// against (or taken from) the open-file limit.
fn limits(config: &Config) -> Result<conn::Limits, ServeError> {
    let file_limit = conn::open_file_limit();
    let allowed = conn::connections_for(file_limit);
    let max = match config.max_tcp_connections {
        None => allowed,
        Some(n) if n <= allowed => n,
        Some(n) => {
            let limit = file_limit.map_or("none".to_string(), |l| l.to_string());
            return Err(ServeError::Config(format!(
                "--max-tcp-connections {n} is more than the open-file limit ({limit}) allows, {allowed}: \
                 give at most {allowed}, or raise the limit (ulimit -n, or LimitNOFILE= in a systemd unit)"
            )));
        }
    };
    if max == 0 || config.max_tcp_connections_per_ip == 0 {
        return Err(ServeError::Config("--max-tcp-connections and --max-tcp-connections-per-ip must be at least 1".into()));
    }
    for (flag, d) in [("--header-timeout-secs", config.header_read_timeout), ("--idle-timeout-secs", config.idle_timeout)] {
        if d.is_zero() {
            return Err(ServeError::Config(format!("{flag} must be at least 1")));
        }
    }
    if config.ws_ping.is_zero() || config.ws_timeout <= config.ws_ping {
        return Err(ServeError::Config(format!(
            "--ping-secs ({} s) must be less than --ping-timeout-secs ({} s): a socket needs time to answer a ping",
            config.ws_ping.as_secs_f64(),
            config.ws_timeout.as_secs_f64()
        )));
    }
    Ok(conn::Limits {
        max,
        max_per_ip: config.max_tcp_connections_per_ip,
        header_read: config.header_read_timeout,
        idle: config.idle_timeout,
    })
}

/// Expires idle games now and then, while the hub lives.
async fn expire_idle_games(hub: std::sync::Weak<Hub>) {
    let Some(period) = hub.upgrade().map(|h| h.expiry_period()) else { return };
    loop {
        tokio::time::sleep(period).await;
        let Some(hub) = hub.upgrade() else { return };
        if let Err(e) = hub.expire_idle().await {
            eprintln!("ur serve: {e} (tried again in {} s)", period.as_secs_f64());
        }
    }
}

/// Runs the server until it is stopped: opens the database, binds the
/// address, prints the URL and serves.
///
/// # Errors
/// See [`start`].
pub fn serve(config: Config) -> Result<(), ServeError> {
    let file_limit = conn::raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let quiet = config.quiet;
        let db = match &config.db {
            Db::Sqlite(p) => format!("SQLite {}", p.display()),
            Db::Postgres(_) => "PostgreSQL".to_string(),
        };
        let server = start(config).await?;
        let addr = server.local_addr();
        if !quiet {
            let resumed = server.games_in_play().await;
            println!("ur serve: games stored in {db}; {resumed} game(s) in progress resumed");
            let l = server.limits();
            let files = file_limit.map_or("no open-file limit".to_string(), |n| format!("open-file limit {n}"));
            println!("ur serve: at most {} connections at once ({files}; --max-tcp-connections), {} per address", l.max, l.max_per_ip);
            println!("Open http://{addr}/ in a browser (Ctrl-C stops the server).");
        }
        server.run().await
    })
}
