//! `ur serve`: the browser app and its game server (docs/serve.md).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;
use ur_web::{Config, Db};

/// Serve the browser app: games against a bot, hot-seat and online by link, stored as they are played.
#[derive(Args, Debug)]
pub struct ServeCmd {
    /// The address to listen on (HOST:PORT); 0.0.0.0:PORT listens on every network of the machine.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    addr: String,
    /// Where games are stored: an SQLite file (created if missing), or a PostgreSQL URL
    /// (postgres://USER@HOST:PORT/DB) shared by several `ur serve` processes.
    /// Default: games.sqlite3 in the user's data folder (~/.local/share/ur on Linux).
    #[arg(long, value_name = "PATH|postgres://...")]
    db: Option<String>,
    /// How long a bot waits before each of its throws and moves, in milliseconds (0: at once).
    #[arg(long, value_name = "MS", default_value_t = 700)]
    bot_delay_ms: u64,
    /// How many bot moves are thought out at once (default: one fewer than the cores, at least one);
    /// more bot games wait their turn, so players' moves keep a core.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    bot_threads: Option<u64>,
    /// The table store: solved tables (made by `ur solve`) for hints, level 5 and perfect play.
    /// Default: $UR_TABLES, or the user's data folder's ur/tables.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// How long an online player who dropped has to come back, in seconds, before the game ends as abandoned.
    #[arg(long, value_name = "SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    reconnect_secs: u64,
    /// The largest websocket message taken, in bytes (larger ones are refused with too_large).
    #[arg(long, value_name = "BYTES", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(64..=65536))]
    max_message_bytes: u64,
    /// Open websockets allowed per client address.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    max_connections_per_ip: u64,
    /// Connections of any kind (HTTP and websockets) open at once. Default: the open-file limit
    /// (raised to its hard limit at start) less 128 kept for the database and files.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_tcp_connections: Option<u64>,
    /// Connections of any kind open at once from one client address (behind a proxy every client
    /// has the proxy's address: raise it there). When a cap is full, the oldest idle connection makes room.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    max_tcp_connections_per_ip: u64,
    /// Seconds for a request's head to arrive (from the connection's opening, or the previous answer's end).
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout_secs: u64,
    /// Seconds a request in flight may go without a byte read or written before its connection is closed.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    idle_timeout_secs: u64,
    /// Seconds between the server's pings on each websocket.
    #[arg(long, value_name = "SECS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600))]
    ping_secs: u64,
    /// A websocket from which nothing (not even the answer to a ping) arrived for this many seconds is closed,
    /// and its player counted as gone. More than --ping-secs.
    #[arg(long, value_name = "SECS", default_value_t = 45, value_parser = clap::value_parser!(u64).range(2..=7200))]
    ping_timeout_secs: u64,
    /// An origin besides the server's own (http(s)://HOST[:PORT], as a browser sends it) whose pages may open
    /// websockets and create games here; repeat for several.
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// The page is served over HTTPS (by a proxy in front that does not send X-Forwarded-Proto): sign-in
    /// cookies are marked Secure.
    #[arg(long)]
    https: bool,
    /// Messages per second each websocket may send (bursts of twice as many are let through).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    messages_per_second: u64,
    /// Games each client address may create per second (bursts of four times as many, plus ten).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    games_per_second: u64,
    /// SQLite only: when a stored move is synced to disk. full: at every commit (safe even against a power cut);
    /// normal: at checkpoints (safe against a crash or kill of `ur serve`, faster; a power cut may lose the last moves).
    #[arg(long, value_name = "full|normal", default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
    /// The most games held in memory (those nobody is connected to leave it for new ones and are
    /// loaded again when opened); when every one has someone connected, new games are refused with busy.
    #[arg(long, value_name = "N", default_value_t = ur_web::DEFAULT_MAX_LIVE_GAMES as u64, value_parser = clap::value_parser!(u64).range(1..))]
    max_live_games: u64,
    /// An online game with no move for this many seconds expires (default 7 days): an invite nobody took.
    #[arg(long, value_name = "SECS", default_value_t = ur_web::DEFAULT_EXPIRE_ONLINE_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    expire_online_secs: u64,
    /// A bot or hot-seat game with no move for this many seconds expires (default 30 days).
    #[arg(long, value_name = "SECS", default_value_t = ur_web::DEFAULT_EXPIRE_SOLO_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    expire_solo_secs: u64,
    /// Bytes of rule-set files each client address (IPv6: each /64) may store per day (UTC).
    #[arg(long, value_name = "BYTES", default_value_t = ur_web::DEFAULT_MAX_RULES_BYTES_PER_DAY as u64)]
    max_rules_bytes_per_day: u64,
    /// The rule sets whose missing tables are solved in the background (at the lowest priority, one at a
    /// time, into the table store, resuming after a restart): rule-set ids separated by commas, each with
    /// options as ID:KEY=VALUE:KEY=VALUE (finkel:pieces=3); one that does not fit the machine's memory is
    /// skipped, saying so. none: solve nothing.
    #[arg(long, value_name = "IDS|none", default_value = "finkel,blitz,masters")]
    solve: String,
    /// Print only errors.
    #[arg(long)]
    quiet: bool,
}

/// `--solve`'s list as rules: `none`, or `ID[:KEY=VALUE...]` separated by commas.
fn solve_list(text: &str) -> Result<Vec<std::sync::Arc<ur_rules::Rules>>> {
    if text.trim() == "none" {
        return Ok(Vec::new());
    }
    text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(solve_item).collect()
}

fn solve_item(item: &str) -> Result<std::sync::Arc<ur_rules::Rules>> {
    let mut parts = item.split(':');
    let id = parts.next().unwrap_or_default();
    let mut options = ur_rules::Options::new();
    for kv in parts {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(anyhow!("--solve {item}: options are KEY=VALUE after the id, as finkel:pieces=3"));
        };
        options.insert(k.to_string(), ur_rules::OptionValue::parse(v));
    }
    let rules = ur_rules::Rules::builtin_with(id, &options)
        .map_err(|e| anyhow!("--solve {item}: {e} (give built-in rule-set ids, see `ur rules`, or none)"))?;
    Ok(std::sync::Arc::new(rules))
}

impl ServeCmd {
    pub fn run(self) -> Result<()> {
        let db = match &self.db {
            Some(s) if s.trim().is_empty() => return Err(anyhow!("--db needs a file path or a postgres:// URL")),
            Some(s) => Db::parse(s),
            None => {
                let data = dirs::data_dir().ok_or_else(|| {
                    anyhow!("no data folder is known for this user: give --db PATH (an SQLite file) or --db postgres://...")
                })?;
                Db::Sqlite(data.join("ur").join("games.sqlite3"))
            }
        };
        let tables = self.tables.clone().or_else(crate::table_store::dir);
        if let Some(dir) = &self.tables {
            if !dir.is_dir() {
                return Err(anyhow!("--tables {}: no such folder (give the folder `ur solve` puts tables in)", dir.display()));
            }
        }
        let mut config = Config::new(self.addr.clone(), db);
        config.bot_delay = Duration::from_millis(self.bot_delay_ms);
        if let Some(n) = self.bot_threads {
            config.bot_threads = n as usize;
        }
        config.tables = tables;
        config.reconnect = Duration::from_secs(self.reconnect_secs);
        config.max_message = self.max_message_bytes as usize;
        config.max_connections_per_ip = self.max_connections_per_ip as usize;
        config.max_tcp_connections = self.max_tcp_connections.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        config.max_tcp_connections_per_ip = usize::try_from(self.max_tcp_connections_per_ip).unwrap_or(usize::MAX);
        config.header_read_timeout = Duration::from_secs(self.header_timeout_secs);
        config.idle_timeout = Duration::from_secs(self.idle_timeout_secs);
        config.ws_ping = Duration::from_secs(self.ping_secs);
        config.ws_timeout = Duration::from_secs(self.ping_timeout_secs);
        config.allow_origins = self.allow_origin.iter().map(|o| o.trim_end_matches('/').to_string()).collect();
        config.https = self.https;
        config.messages_per_second = self.messages_per_second as f64;
        config.message_burst = 2.0 * self.messages_per_second as f64;
        config.games_per_second = self.games_per_second as f64;
        config.sync_full = self.sync == "full";
        config.max_live_games = usize::try_from(self.max_live_games).unwrap_or(usize::MAX);
        config.expire_online = Duration::from_secs(self.expire_online_secs);
        config.expire_solo = Duration::from_secs(self.expire_solo_secs);
        config.max_rules_bytes_per_day = usize::try_from(self.max_rules_bytes_per_day).unwrap_or(usize::MAX);
        config.quiet = self.quiet;
        config.solve = solve_list(&self.solve)?;
        ur_web::serve(config).map_err(|e| anyhow!("ur serve: {e}"))
    }
}
