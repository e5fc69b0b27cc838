//! `ur-load`: a load test of `ur serve` on this machine's loopback only,
//! bounded in games and time. It starts `ur serve` itself on a free
//! loopback port, keeps N online games moving at a human pace (each player
//! thinks before each step) and M bot games moving as fast as the server
//! answers, and reports the time from an action to both players' update
//! (p50, p99), the server's CPU and memory (from /proc), and throughput.
//!
//! `cargo build --release -p ur-cli -p ur-web && target/release/ur-load --online 1000 --bots 50 --seconds 60`

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use rand::Rng;
use serde_json::json;
use ur_web::client::{create, http, over, Client};

#[derive(Parser, Debug)]
#[command(name = "ur-load", about = "Load-test `ur serve` on loopback: online games at human pace plus bot games flat out.")]
struct Args {
    /// Concurrent online games (two players each), kept going: a finished game is replaced.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=20_000))]
    online: u64,
    /// Concurrent games against a bot (delay 0), played as fast as the server answers.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(0..=2_000))]
    bots: u64,
    /// How long to measure after all games are started, in seconds.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=600))]
    seconds: u64,
    /// A human player's mean thinking time before each roll or move, in ms (uniform 0.5x to 1.5x).
    #[arg(long, default_value_t = 1500)]
    pace_ms: u64,
    /// The bot level of the bot games.
    #[arg(long, default_value = "2")]
    bot_level: String,
    /// Rule set of every game.
    #[arg(long, default_value = "finkel")]
    rules: String,
    /// The `ur` binary (default: the one beside this program).
    #[arg(long)]
    ur: Option<PathBuf>,
    /// A clock on every online game, `MINUTES+INCREMENT_SECONDS` (`5+3`): the server keeps
    /// its timers running. The default pace fits well within 5+3.
    #[arg(long, value_parser = parse_clock)]
    clock: Option<(i64, i64)>,
    /// SQLite sync mode passed to `ur serve --sync` (full or normal).
    #[arg(long, default_value = "full")]
    sync: String,
    /// Database: an SQLite file (default: a new one in a temporary folder) or postgres://...
    #[arg(long)]
    db: Option<String>,
}

#[derive(Default)]
struct Stats {
    online: Mutex<Vec<u32>>,
    bots: Mutex<Vec<u32>>,
    online_steps: AtomicU64,
    bot_steps: AtomicU64,
    games_done: AtomicU64,
    failures: AtomicU64,
    measuring: AtomicBool,
    stop: AtomicBool,
}

fn pct(v: &mut [u32], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_unstable();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    f64::from(v[i]) / 1000.0
}

/// utime + stime in clock ticks, and VmRSS / VmHWM in KiB.
fn proc_usage(pid: u32) -> (u64, u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = f.get(11).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0) + f.get(12).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status.lines().find(|l| l.starts_with(key)).and_then(|l| l.split_whitespace().nth(1)).and_then(|x| x.parse().ok()).unwrap_or(0)
    };
    (ticks, kb("VmRSS:"), kb("VmHWM:"))
}

async fn online_game(addr: SocketAddr, args: Arc<Args>, stats: Arc<Stats>) {
    let mut req = json!({"rules": args.rules, "mode": "online", "seat": "light"});
    if let Some((initial_s, increment_s)) = args.clock {
        req["clock"] = json!({"initial_s": initial_s, "increment_s": increment_s});
    }
    let g = create(addr, req).await;
    let id = g["id"].as_str().unwrap().to_string();
    let invite = g["invite"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let mut players = [Client::join(addr, &id, g["token"].as_str()).await, Client::join(addr, &id, Some(&invite)).await];
    players.iter_mut().for_each(|p| p.keep_board = false);
    let mut v = players[0].last.clone().unwrap();
    while !over(&v) && !stats.stop.load(Ordering::Relaxed) {
        let think = {
            let mut rng = rand::thread_rng();
            rng.gen_range(args.pace_ms / 2..=args.pace_ms * 3 / 2)
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let i = if players[0].my_turn(&v) { 0 } else { 1 };
        let t = Instant::now();
        players[i].step(&v).await;
        let a = players[i].view().await;
        let b = players[1 - i].view().await;
        let us = t.elapsed().as_micros() as u32;
        assert_eq!(a["seq"], b["seq"]);
        if stats.measuring.load(Ordering::Relaxed) {
            stats.online.lock().unwrap().push(us);
            stats.online_steps.fetch_add(1, Ordering::Relaxed);
        }
        v = a;
    }
    if over(&v) {
        stats.games_done.fetch_add(1, Ordering::Relaxed);
    }
}

async fn bot_game(addr: SocketAddr, args: Arc<Args>, stats: Arc<Stats>) {
    let g = create(addr, json!({"rules": args.rules, "mode": "bot", "bot": args.bot_level, "seat": "light"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut p = Client::join(addr, &id, g["token"].as_str()).await;
    p.keep_board = false;
    let mut v = p.last.clone().unwrap();
    while !over(&v) && !stats.stop.load(Ordering::Relaxed) {
        if p.my_turn(&v) {
            let t = Instant::now();
            p.step(&v).await;
            v = p.view().await;
            if stats.measuring.load(Ordering::Relaxed) {
                stats.bots.lock().unwrap().push(t.elapsed().as_micros() as u32);
            }
        } else {
            v = p.view().await;
        }
        if stats.measuring.load(Ordering::Relaxed) {
            stats.bot_steps.fetch_add(1, Ordering::Relaxed);
        }
    }
    if over(&v) {
        stats.games_done.fetch_add(1, Ordering::Relaxed);
    }
}

/// Keeps one game of a kind going until the stop.
fn keep(kind: &'static str, addr: SocketAddr, args: Arc<Args>, stats: Arc<Stats>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while !stats.stop.load(Ordering::Relaxed) {
            let (a, s) = (args.clone(), stats.clone());
            let r = tokio::spawn(async move {
                if kind == "online" {
                    online_game(addr, a, s).await
                } else {
                    bot_game(addr, a, s).await
                }
            })
            .await;
            if r.is_err() {
                stats.failures.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    })
}

fn main() {
    let args = Arc::new(Args::parse());
    let ur = args.ur.clone().unwrap_or_else(|| std::env::current_exe().unwrap().with_file_name("ur"));
    let tmp = std::env::temp_dir().join(format!("ur-load-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let db = args.db.clone().unwrap_or_else(|| tmp.join("games.sqlite3").to_string_lossy().into_owned());
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = Command::new(&ur)
        .args(["serve", "--addr", &addr.to_string(), "--db", &db, "--bot-delay-ms", "0", "--quiet"])
        .args([
            "--max-connections-per-ip",
            "100000",
            "--max-tcp-connections-per-ip",
            "100000",
            "--messages-per-second",
            "10000",
            "--games-per-second",
            "100000",
            "--sync",
            &args.sync,
            // Serving is measured, not the background solving of tables.
            "--solve",
            "none",
        ])
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e} (build it: cargo build --release -p ur-cli)", ur.display()));
    let pid = server.id();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let stats = Arc::new(Stats::default());
    runtime.block_on(async {
        let t = Instant::now();
        while http_ok(addr).await.is_none() {
            assert!(t.elapsed() < Duration::from_secs(30), "ur serve did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        println!("ur-load: ur serve pid {pid} on {addr}, db {}", if db.starts_with("postgres") { "PostgreSQL" } else { "SQLite" });
        let mut tasks = Vec::new();
        let started = Instant::now();
        for i in 0..args.online.max(args.bots) {
            if i < args.online {
                tasks.push(keep("online", addr, args.clone(), stats.clone()));
            }
            if i < args.bots {
                tasks.push(keep("bot", addr, args.clone(), stats.clone()));
            }
            if i % 50 == 49 {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        // Let every game start and settle before measuring.
        tokio::time::sleep(Duration::from_secs(3)).await;
        println!(
            "ur-load: {} online + {} bot games started in {:.1}s; measuring {}s",
            args.online,
            args.bots,
            started.elapsed().as_secs_f64(),
            args.seconds
        );
        let (t0, _, _) = proc_usage(pid);
        stats.measuring.store(true, Ordering::Relaxed);
        let m0 = Instant::now();
        tokio::time::sleep(Duration::from_secs(args.seconds)).await;
        stats.measuring.store(false, Ordering::Relaxed);
        let wall = m0.elapsed().as_secs_f64();
        let (t1, rss, hwm) = proc_usage(pid);
        stats.stop.store(true, Ordering::Relaxed);
        let tick = 100.0; // USER_HZ on Linux
        let cpu = (t1 - t0) as f64 / tick / wall * 100.0;
        let mut on = stats.online.lock().unwrap().clone();
        let mut bo = stats.bots.lock().unwrap().clone();
        println!();
        println!("| measure | value |");
        println!("|---|---|");
        println!("| online games (human pace {} ms) + bot games | {} + {} |", args.pace_ms, args.online, args.bots);
        println!("| online steps measured | {} ({:.0}/s) |", on.len(), on.len() as f64 / wall);
        println!(
            "| action to both players' update, p50 / p99 / max | {:.1} / {:.1} / {:.1} ms |",
            pct(&mut on, 0.5),
            pct(&mut on, 0.99),
            pct(&mut on, 1.0)
        );
        println!(
            "| bot games: steps (incl. bot's) | {} ({:.0}/s) |",
            stats.bot_steps.load(Ordering::Relaxed),
            stats.bot_steps.load(Ordering::Relaxed) as f64 / wall
        );
        println!("| bot games: action to update, p50 / p99 | {:.1} / {:.1} ms |", pct(&mut bo, 0.5), pct(&mut bo, 0.99));
        println!("| server CPU (100% = one core of 2) | {cpu:.0}% |");
        println!("| server memory RSS / peak | {:.0} / {:.0} MiB |", rss as f64 / 1024.0, hwm as f64 / 1024.0);
        println!(
            "| games finished / failed tasks | {} / {} |",
            stats.games_done.load(Ordering::Relaxed),
            stats.failures.load(Ordering::Relaxed)
        );
        for t in tasks {
            t.abort();
        }
    });
    runtime.shutdown_timeout(Duration::from_secs(2));
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&tmp);
}

async fn http_ok(addr: SocketAddr) -> Option<()> {
    tokio::net::TcpStream::connect(addr).await.ok()?;
    (http(addr, "GET", "/api/rules", None).await.0 == 200).then_some(())
}

/// `5+3`: 5 minutes and 3 s a turn, as (initial_s, increment_s).
fn parse_clock(text: &str) -> Result<(i64, i64), String> {
    let bad = || format!("--clock takes MINUTES+INCREMENT_SECONDS such as 5+3, not '{text}'");
    let (m, i) = text.split_once('+').ok_or_else(bad)?;
    let (m, i): (i64, i64) = (m.trim().parse().map_err(|_| bad())?, i.trim().parse().map_err(|_| bad())?);
    if m < 1 || !(0..=3600).contains(&i) {
        return Err(bad());
    }
    Ok((m * 60, i))
}
