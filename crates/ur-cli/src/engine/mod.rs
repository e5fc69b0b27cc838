//! `ur engine`: the line-based JSON engine protocol (see `docs/protocol.md`).
//!
//! One JSON request per line on stdin, one JSON reply per line on stdout.
//! The game lives in a [`ur_session::Session`]; this module only turns
//! requests into its calls ([`Engine::handle`]) and its results into JSON
//! ([`reply`]), so the protocol is testable without a process.

mod reply;
mod request;
#[cfg(test)]
mod tests;

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use serde_json::{json, Map, Value};
use ur_bots::rollout::{RolloutConfig, DEFAULT_TRIALS};
use ur_rules::{Playable, Side, Turn};
use ur_session::tables::{LoadedTable, TableSource};
use ur_session::{NewGame, RulesSource, Session, SessionError};

use request::{Reply, Req};

#[derive(Args, Debug)]
pub struct EngineCmd {
    /// A table made by `ur solve`, for `eval`, `hint`, `perfect` and level 5
    /// (default: each game's table in the table store, if any; see `ur solve`).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
}

impl EngineCmd {
    pub fn run(self) -> Result<()> {
        let tables = match &self.table {
            Some(path) => TableSource::File(LoadedTable::open(path)?),
            None => crate::table_store::dir().map_or(TableSource::None, TableSource::Store),
        };
        let mut engine = Engine::new(tables);
        let mut input = io::stdin().lock();
        let mut out = io::BufWriter::new(io::stdout().lock());
        let mut buf = Vec::new();
        while !engine.quit {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let reply = match std::str::from_utf8(&buf) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => engine.handle_guarded(line),
                Err(_) => request::wrap(None, Err("the line is not valid UTF-8; send UTF-8 JSON text".into())),
            };
            let line = serde_json::to_string(&reply)?;
            writeln!(out, "{line}").and_then(|()| out.flush()).map_err(crate::out::StdoutError)?;
        }
        Ok(())
    }
}

pub(crate) const SEND_NEW: &str = r#"send {"cmd":"new","rules":"finkel"} first"#;

const NO_TABLE: &str = "needs a solved table; `ur solve ID` puts one in the table store, where the engine finds it, or start the engine with `ur engine --table FILE`";

/// The engine's state between requests: one game of any family.
#[derive(Default)]
pub struct Engine {
    session: Option<Session>,
    tables: TableSource,
    /// `quit` was received.
    quit: bool,
}

impl Engine {
    pub fn new(tables: TableSource) -> Engine {
        Engine { tables, ..Engine::default() }
    }

    /// Answers one request line. Never panics on any input.
    pub fn handle(&mut self, line: &str) -> Value {
        match serde_json::from_str::<Value>(line) {
            Err(e) => {
                request::wrap(None, Err(format!(r#"malformed JSON ({e}); send one JSON object per line, for example {{"cmd":"show"}}"#)))
            }
            Ok(Value::Object(obj)) => request::wrap(obj.get("id").cloned(), self.dispatch(&obj)),
            Ok(_) => request::wrap(None, Err(r#"a request must be a JSON object, for example {"cmd":"show"}"#.into())),
        }
    }

    /// As [`Engine::handle`], but a bug in the engine costs the game, not the process.
    fn handle_guarded(&mut self, line: &str) -> Value {
        catch_unwind(AssertUnwindSafe(|| self.handle(line))).unwrap_or_else(|_| {
            self.session = None;
            request::wrap(None, Err(format!("internal error on this request (please report it); the game was discarded, {SEND_NEW}")))
        })
    }

    fn dispatch(&mut self, obj: &Map<String, Value>) -> Reply {
        let req = Req::parse(obj)?;
        match req.cmd {
            "rules" => Ok(reply::catalogue()),
            "new" => self.new_game(&req),
            "quit" => {
                self.quit = true;
                Ok(Map::new())
            }
            _ => self.game_command(&req),
        }
    }

    /// A command on the game in progress.
    fn game_command(&mut self, req: &Req) -> Reply {
        let s = self.session.as_mut().ok_or_else(|| format!("no game yet; {SEND_NEW}"))?;
        match req.cmd {
            "roll" => roll(s, req),
            "act" => {
                let action = req.action(s.game())?;
                act(s, &action)
            }
            "play" => {
                let action = req.play_action(s.game())?;
                act(s, &action)
            }
            "choose" => {
                let action = req.choose_action(s.game())?;
                act(s, &action)
            }
            "set" => {
                let pos = req.obj.get("position").ok_or_else(|| format!(r#"set needs "position", {}"#, reply::position_shape(s.game())))?;
                match pos {
                    Value::String(text) => s.set_text(text),
                    json => s.set(json),
                }
                .map_err(|e| format!(r#"{e}; send "set" with {}"#, reply::position_shape(s.game())))?;
                Ok(reply::show(s))
            }
            "show" => Ok(reply::show(s)),
            "record" => Ok(reply::one("record", json!(s.record()))),
            "bestmove" => bestmove(s, req),
            "eval" if ur_bots::hint::network_judges(s.game()) => {
                let (e, judge) = ur_bots::hint::network_evaluation(s.game()).map_err(|e| e.to_string())?;
                let mut m = json!(e).as_object().cloned().unwrap_or_default();
                m.insert("phase".into(), reply::status(s.game())["phase"].clone());
                reply::estimated_by(&mut m, &judge);
                Ok(m)
            }
            "eval" => {
                let e = s.evaluate().map_err(|e| needs_table("eval", e))?;
                let mut m = json!(e).as_object().cloned().unwrap_or_default();
                m.insert("phase".into(), reply::status(s.game())["phase"].clone());
                Ok(m)
            }
            "hint" => hint(s, req),
            "review" => review(s, req),
            other => Err(format!("cmd \"{other}\" is not implemented")),
        }
    }

    fn new_game(&mut self, req: &Req) -> Reply {
        let rules = match (req.str("rules")?, req.str("rules_toml")?) {
            (Some(_), Some(_)) => return Err(r#"give "rules" (a built-in id) or "rules_toml" (a rule-set file), not both"#.into()),
            (None, Some(t)) => RulesSource::File(t.to_owned()),
            (id, None) => RulesSource::Builtin(id.unwrap_or("finkel").to_owned()),
        };
        let first = match req.str("first")? {
            None => Side::Light,
            Some(s) => Side::parse(s).ok_or_else(|| format!(r#""first" must be "light" or "dark", not "{s}""#))?,
        };
        let new = NewGame { rules, options: req.options()?, first };
        let session = Session::new(&new, &self.tables).map_err(|e| match (&new.rules, e) {
            (RulesSource::File(_), SessionError::Rules(e)) => format!("rules_toml: {e}"),
            (_, e) => reply::new_game_error(e),
        })?;
        if let Some(rules) = ur_rules::report::race_rules(session.game()) {
            crate::table_store::warn_passed_over(&self.tables, rules);
        }
        let mut m = reply::show(&session);
        m.insert("options".into(), reply::options_json(&session));
        m.insert("first".into(), json!(first));
        self.session = Some(session);
        Ok(m)
    }
}

fn roll(s: &mut Session, req: &Req) -> Reply {
    let rolled = match (req.u8("value")?, req.u8("raw")?) {
        (Some(v), None) => s.roll_value(v),
        (None, Some(r)) => s.roll(r),
        (Some(_), Some(_)) => return Err(r#"give "value" or "raw", not both"#.into()),
        (None, None) => {
            return Err(format!(r#"roll needs "raw" (the dice outcome){}; {}"#, reply::value_note(s.game()), reply::next_step(s.game())))
        }
    };
    let rolled = rolled.map_err(|e| refusal(s, e))?;
    Ok(reply::rolled(s, &rolled))
}

fn act(s: &mut Session, action: &ur_rules::AnyAction) -> Reply {
    let acted = s.act(action).map_err(|e| refusal(s, e))?;
    Ok(reply::acted(s, &acted))
}

/// A refusal with what to send instead.
fn refusal(s: &Session, e: SessionError) -> String {
    match s.game().turn() {
        Turn::Over(_) => reply::over(s.game()),
        _ => format!("{e}; {}", reply::next_step(s.game())),
    }
}

fn needs_table(cmd: &str, e: SessionError) -> String {
    match e {
        SessionError::Hint(ur_bots::hint::HintError::NoTable) => format!("{cmd} {NO_TABLE}"),
        SessionError::Table(e) => format!("{cmd} cannot use the table: {e}"),
        e => e.to_string(),
    }
}

/// `bestmove`: what a bot would decide now, in any family; the game is not changed.
fn bestmove(s: &Session, req: &Req) -> Reply {
    let name = req.str("bot")?.unwrap_or("level4");
    let seed = match req.obj.get("seed") {
        None => 0,
        Some(v) => v.as_u64().ok_or_else(|| format!(r#""seed" must be a non-negative integer, not {v}"#))?,
    };
    let best = s.bestmove(name, seed).map_err(|e| match e {
        SessionError::Bot(e @ ur_bots::BotError::NeedsTable) => format!("{e}; start the engine with `ur engine --table FILE`"),
        SessionError::NoDecision(_) if matches!(s.game().turn(), Turn::Over(_)) => reply::over(s.game()),
        SessionError::NoDecision(_) => format!("bestmove needs a decision to make; {}", reply::next_step(s.game())),
        e => e.to_string(),
    })?;
    let mut m = Map::new();
    m.insert("bot".into(), json!(best.bot));
    m.insert("to_move".into(), json!(best.to_move));
    m.insert("action".into(), json!(best.action));
    m.insert("text".into(), json!(best.action.to_string()));
    Ok(m)
}

fn hint(s: &Session, req: &Req) -> Reply {
    if ur_bots::hint::network_judges(s.game()) {
        return network_hint(s, req);
    }
    let depth = req.depth()?;
    let raw = match (req.u8("roll")?, req.u8("raw")?) {
        (Some(_), Some(_)) => return Err(r#"give "roll" (squares to move) or "raw" (the dice outcome), not both"#.into()),
        (Some(v), None) => Some(ur_rules::report::raw_for_value(s.game(), v).map_err(|e| e.to_string())?),
        (None, r) => r,
    };
    let (hint, judge) = s.hint(raw, depth).map_err(|e| match e {
        SessionError::Hint(ur_bots::hint::HintError::NoTable) => format!(r#"hint {NO_TABLE}; or give "depth" (1 to 6) for a search's estimates"#),
        SessionError::Hint(ur_bots::hint::HintError::Over) => reply::over(s.game()),
        SessionError::Hint(ur_bots::hint::HintError::NeedThrow) => {
            r#"hint needs a throw at the start of a turn: give "roll" (or "raw"), for example {"cmd":"hint","roll":2}; the game is not changed"#.into()
        }
        e => needs_table("hint", e),
    })?;
    Ok(reply::hint(&hint, &judge))
}

/// A hint on a game beyond the race: its network's estimate of each open decision.
fn network_hint(s: &Session, req: &Req) -> Reply {
    if ["depth", "roll", "raw"].iter().any(|k| req.obj.contains_key(*k)) {
        return Err(format!(
            r#"a hint on {} judges the decision open now with its network, as deep as level 5 looks: leave out "depth", "roll" and "raw" (roll first with {{"cmd":"roll"}})"#,
            s.game().rule_id()
        ));
    }
    let (values, judge) = ur_bots::hint::network_action_values(s.game()).map_err(|e| match e {
        ur_bots::hint::HintError::Over => reply::over(s.game()),
        ur_bots::hint::HintError::NeedThrow => format!("hint needs a decision to judge; {}", reply::next_step(s.game())),
        e => e.to_string(),
    })?;
    Ok(reply::action_hint(s.game(), &values, &judge))
}

/// Most playouts per choice a `review` request may ask for.
const MAX_TRIALS: u64 = 4096;

/// The game so far judged by the table, or else by a search `depth` turns
/// deep; a game of another family by the rollout judge.
fn review(s: &Session, req: &Req) -> Reply {
    let trials = req.count("trials", MAX_TRIALS)?;
    let seed = req.count("seed", u64::MAX)?;
    if s.family() != ur_rules::Family::Race {
        if req.obj.contains_key("depth") {
            return Err(format!(
                r#""depth" is a race judge's; the rollout judge reviews {}: give "trials" and "seed" instead"#,
                s.game().rule_id()
            ));
        }
        return review_any(s, trials, seed);
    }
    if trials.is_some() || seed.is_some() {
        return Err(r#""trials" and "seed" set the rollout judge, which reviews the families beyond the race; a race game is judged by a table or a search ("depth")"#.into());
    }
    let (rev, judge) = s.review(req.depth()?).map_err(|e| e.to_string())?;
    let mut m = json!(rev).as_object().cloned().unwrap_or_default();
    reply::judged_by(&mut m, &judge);
    Ok(m)
}

/// A game beyond the race judged by rollouts: the shape of `ur review --format json`.
fn review_any(s: &Session, trials: Option<u64>, seed: Option<u64>) -> Reply {
    let trials = trials.map_or(DEFAULT_TRIALS, |n| n as u32);
    if trials == 0 {
        return Err(r#""trials" must be 1 or more: each choice needs at least one playout"#.into());
    }
    let rev = s.review_any(&RolloutConfig::with(trials, seed.unwrap_or(0)), |_| {}).map_err(|e| e.to_string())?;
    let mut m = json!(rev).as_object().cloned().unwrap_or_default();
    m.insert("options".into(), json!(s.options()));
    m.insert("exact".into(), json!(false));
    m.insert("table".into(), Value::Null);
    Ok(m)
}
