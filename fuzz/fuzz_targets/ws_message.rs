//! The browser app's websocket messages (`ur_web::ws::handle`, what a
//! socket's text frame goes to), applied to a game in a hub whose store is
//! an SQLite file, as `ur serve` runs it.
//!
//! The input: an optional first line `MODE RULES [NAME=VALUE...]` (MODE one
//! of `hotseat`, `bot`, `online`, `watch`; default `hotseat finkel`), then
//! one message per line, as the client sends them. In `online` games the
//! lines alternate between light's and dark's sockets; a `bot` game's bot
//! (level 1) answers each step before the next line is sent.
//!
//! Properties: every answer and every update sent to the sockets is a JSON
//! object with a `"t"`; the steps stored replay legally, one per view, to
//! the game in play; and the game's record replays to it too.
//!
//! Rolls come from the operating system as in the server, so an input does
//! not always play the same game.
#![no_main]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tokio::sync::broadcast;
use ur_rules::{OptionValue, Options, Playable, Side, Turn};
use ur_session::records::{read_game, replay};
use ur_session::{NewGame, NoTables, RulesSource, Session};
use ur_web::live::{hash_token, Actor, LiveGame, Meta, Update};
use ur_web::http::game_row;
use ur_web::store::Store;
use ur_web::{hub::Hub, Config, Db};

/// Games played between two emptyings of the database.
const EMPTY_EVERY: u64 = 500;

struct Setup {
    path: PathBuf,
    store: Store,
    cfg: Config,
    cleaner: rusqlite::Connection,
    runs: std::sync::atomic::AtomicU64,
}

/// One SQLite file per fuzzing process, in the temporary folder.
fn setup() -> &'static std::sync::Mutex<Setup> {
    static SETUP: OnceLock<std::sync::Mutex<Setup>> = OnceLock::new();
    SETUP.get_or_init(|| {
        remove_stale_databases();
        let dir = std::env::temp_dir().join(format!("ur-fuzz-ws-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("games.db");
        let store = Store::sqlite(&path, false).expect("the fuzz database opens");
        let mut cfg = Config::new("127.0.0.1:0", Db::Sqlite(path.clone()));
        cfg.bot_delay = Duration::ZERO;
        cfg.quiet = true;
        let cleaner = rusqlite::Connection::open(&path).expect("the fuzz database opens twice");
        cleaner.busy_timeout(Duration::from_secs(5)).expect("busy timeout");
        std::sync::Mutex::new(Setup { path, store, cfg, cleaner, runs: 0.into() })
    })
}

/// Removes the databases of fuzzing processes that have ended (a process
/// cannot remove its own: libFuzzer ends it with `exit`).
fn remove_stale_databases() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix("ur-fuzz-ws-") else { continue };
        if !std::path::Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The game the input's first line asks for, and who sends each message.
struct Game {
    mode: &'static str,
    new: NewGame,
    /// The human's seat in a bot game.
    seat: Side,
}

fn header(line: &str) -> Option<Game> {
    let mut words = line.split_whitespace();
    let mode = match words.next()? {
        "hotseat" => "hotseat",
        "bot" => "bot",
        "online" => "online",
        "watch" => "watch",
        _ => return None,
    };
    let id = words.next()?;
    let mut options = Options::new();
    for pair in words {
        let (k, v) = pair.split_once('=')?;
        options.insert(k.into(), OptionValue::parse(v));
    }
    let seat = if line.len() % 2 == 0 { Side::Light } else { Side::Dark };
    Some(Game { mode, new: NewGame { rules: RulesSource::Builtin(id.into()), options, first: Side::Light }, seat })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines: Vec<&str> = text.lines().collect();
    let game = match lines.first().and_then(|l| header(l)) {
        Some(g) => {
            lines.remove(0);
            g
        }
        None => Game { mode: "hotseat", new: NewGame::builtin("finkel"), seat: Side::Light },
    };
    let setup = setup().lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a runtime");
    runtime.block_on(play(&setup, game, &lines));
    drop(runtime);
    if setup.runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % EMPTY_EVERY == EMPTY_EVERY - 1 {
        setup.cleaner.execute_batch("DELETE FROM events; DELETE FROM games;").unwrap_or_else(|e| panic!("cannot empty {}: {e}", setup.path.display()));
    }
});

async fn play(setup: &Setup, game: Game, lines: &[&str]) {
    let hub = Arc::new(Hub::new(setup.cfg.clone(), setup.store.clone()));
    let Ok(session) = hub.session(&game.new) else { return };
    let live = create(&hub, &game, session).await;
    let mut rx = live.tx.subscribe();
    settle(&live, &mut rx).await;
    for (i, line) in lines.iter().enumerate().take(200) {
        if line.len() > hub.cfg.max_message {
            continue;
        }
        let actor = match game.mode {
            "hotseat" => Actor::Both,
            "bot" => Actor::Seat(game.seat),
            "online" if i % 2 == 0 => Actor::Seat(Side::Light),
            "online" => Actor::Seat(Side::Dark),
            _ => Actor::Watcher,
        };
        let before = live.state.lock().await.seq;
        if let Some(answer) = ur_web::ws::handle(&hub, &live, actor, line).await {
            let v = object_with_t(&answer);
            if v["t"] == "error" {
                assert!(v["code"].is_string() && v["message"].as_str().is_some_and(|m| !m.is_empty()), "a refusal without words: {answer}");
                assert_eq!(live.state.lock().await.seq, before, "a refused message changed the game: {line} -> {answer}");
            }
        }
        if actor == Actor::Watcher {
            assert_eq!(live.state.lock().await.seq, before, "a watcher changed the game: {line}");
        }
        settle(&live, &mut rx).await;
    }
    check_stored(&hub, &live).await;
}

/// Stores the game and puts it in play, as `POST /api/games` does.
async fn create(hub: &Arc<Hub>, game: &Game, session: Session) -> Arc<LiveGame> {
    let token = hash_token("fuzz");
    let bots = match game.mode {
        "bot" => [game.seat == Side::Dark, game.seat == Side::Light],
        _ => [false, false],
    };
    let tokens = match game.mode {
        "hotseat" => [Some(token.clone()), Some(token)],
        "bot" if game.seat == Side::Light => [Some(token), None],
        "bot" => [None, Some(token)],
        _ => [Some(token), Some(hash_token("invite"))],
    };
    let mode = if game.mode == "watch" { "online" } else { game.mode };
    let bot = (mode == "bot").then(|| "level1".to_string());
    let id = ur_web::live::secret();
    let meta = Meta { id, new: clone_new(&game.new), mode: mode.into(), bots, bot, tokens, start: None, clock: None, players: Default::default() };
    let row = game_row(&meta);
    hub.create(row, meta, session).await.unwrap_or_else(|e| panic!("the game cannot be stored: {e}"))
}

fn clone_new(new: &NewGame) -> NewGame {
    NewGame { rules: new.rules.clone(), options: new.options.clone(), first: new.first }
}

/// Reads every update sent so far, and waits for the bot when it is to play.
async fn settle(live: &Arc<LiveGame>, rx: &mut broadcast::Receiver<Arc<Update>>) {
    loop {
        while let Ok(u) = rx.try_recv() {
            for you in [Actor::Both, Actor::Seat(Side::Light), Actor::Watcher] {
                object_with_t(&u.text(you));
            }
        }
        if !bot_to_move(live).await {
            return;
        }
        match tokio::time::timeout(Duration::from_secs(5), rx.recv()).await {
            Ok(Ok(u)) => {
                object_with_t(&u.text(Actor::Both));
            }
            Ok(Err(e)) => panic!("the game's updates stopped: {e}"),
            Err(_) => panic!("the bot did not play within 5 s"),
        }
    }
}

async fn bot_to_move(live: &LiveGame) -> bool {
    let st = live.state.lock().await;
    st.status == "playing"
        && match st.session.game().turn() {
            Turn::Roll(s) | Turn::Decide(s) => live.meta.bots[s.index()],
            Turn::Over(_) => false,
        }
}

fn object_with_t(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("a message that is not JSON ({e}): {text}"));
    assert!(v.get("t").is_some_and(Value::is_string), "a message without \"t\": {text}");
    v
}

/// The stored steps, one per view, replay legally to the game in play, and
/// so does its record.
async fn check_stored(hub: &Arc<Hub>, live: &Arc<LiveGame>) {
    let st = live.state.lock().await;
    let (_, events) = hub.store.load(&live.meta.id, 0).await.expect("the store reads").expect("the game is stored");
    assert_eq!(events.len() as u64, st.seq, "stored steps and views disagree");
    let mut session = Session::new(&live.meta.new, &NoTables).expect("the game's rules start a game");
    for (i, ev) in events.iter().enumerate() {
        assert_eq!(ev.seq, i as i64 + 1, "steps are numbered from 1 without a gap");
        match ev.kind.as_str() {
            "roll" => {
                let raw = ev.raw.and_then(|r| u8::try_from(r).ok()).expect("a roll stores its throw");
                session.roll(raw).unwrap_or_else(|e| panic!("stored step {} does not replay: {e}", ev.seq));
            }
            "act" => {
                let index = ev.action_index.and_then(|i| usize::try_from(i).ok()).expect("an action stores its index");
                let action = session.game().actions().get(index).cloned().unwrap_or_else(|| panic!("stored step {}: no open action {index}", ev.seq));
                assert_eq!(ev.action.as_deref(), Some(serde_json::to_string(&action).expect("actions serialise").as_str()));
                session.act(&action).unwrap_or_else(|e| panic!("stored step {} does not replay: {e}", ev.seq));
            }
            k => panic!("a step of kind {k} from messages alone"),
        }
    }
    let now = st.session.game();
    assert_eq!(session.game().position_json(), now.position_json(), "the stored steps replay elsewhere");
    assert_eq!(session.game().turn(), now.turn());
    let json = serde_json::to_string(&st.session.record()).expect("records serialise");
    let saved = read_game("live.json", &json).unwrap_or_else(|e| panic!("the live game's record does not read: {e}"));
    let replayed = replay("live.json", &saved).unwrap_or_else(|e| panic!("the live game's record does not replay: {e}\n{json}"));
    assert_eq!(replayed.game.position_json(), now.position_json());
    if st.status == "over" {
        assert!(matches!(now.turn(), Turn::Over(_)), "the game is marked over but goes on");
    }
}
