//! `ur engine`: the line-based JSON engine protocol (see `docs/protocol.md`).
//!
//! One JSON request per line on stdin, one JSON reply per line on stdout.
//! [`Session::handle`] does all the work, so the protocol is testable
//! without a process; [`EngineCmd::run`] only moves lines.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use serde_json::{json, Map, Value};
use ur_bots::review::{review, Judge};
use ur_bots::{make_bot_with_table, Oracle};
use ur_rules::{
    family_of, family_rule_sets, Action, AnyAction, AnyGame, AnyRecorder, Choice, Family, FamilyRuleSet, Game, GameError, GameRecord, Move,
    OptionSpec, OptionValue, Options, Phase, Playable, RuleSetFile, Rules, Setup, Side, SpecError, State, Throw, Turn,
};

use crate::eval_cmd::LoadedTable;

#[derive(Args, Debug)]
pub struct EngineCmd {
    /// A table made by `ur solve`, for `eval`, `hint`, `perfect` and level 5
    /// (default: each game's table in the table store, if any; see `ur solve`).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
}

impl EngineCmd {
    pub fn run(self) -> Result<()> {
        let table = self.table.as_deref().map(LoadedTable::open).transpose()?;
        let mut input = io::stdin().lock();
        let mut out = io::BufWriter::new(io::stdout().lock());
        let store = if table.is_none() { crate::table_store::dir() } else { None };
        let mut session = Session { store, ..Session::with_table(table) };
        let mut buf = Vec::new();
        while !session.quit {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let reply = match std::str::from_utf8(&buf) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => session.handle_guarded(line),
                Err(_) => reply(None, Err("the line is not valid UTF-8; send UTF-8 JSON text".into())),
            };
            serde_json::to_writer(&mut out, &reply)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
        Ok(())
    }
}

/// A reply body without `ok`/`id`, or a readable error.
type Reply = Result<Map<String, Value>, String>;

/// Commands and the request fields each accepts (besides `cmd` and `id`).
const COMMANDS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("new", &["rules", "rules_toml", "options", "pieces", "first"]),
    ("roll", &["value", "raw"]),
    ("play", &["from", "to", "piece"]),
    ("choose", &["choice"]),
    ("act", &["action", "text"]),
    ("bestmove", &["bot", "seed"]),
    ("set", &["position"]),
    ("show", &[]),
    ("record", &[]),
    ("eval", &[]),
    ("hint", &["roll", "raw", "depth"]),
    ("review", &["depth"]),
    ("quit", &[]),
];

const POSITION: &str = r#"{"to_move":"light","light":{"reserve":N,"off":N,"path":[P,...]},"dark":{...}}"#;

const SEND_NEW: &str = r#"send {"cmd":"new","rules":"finkel"} first"#;

/// The engine's state between requests.
#[derive(Default)]
pub struct Session {
    game: Option<Game>,
    rules: Option<Arc<Rules>>,
    /// The TOML text of a custom rule set, kept for game records.
    rules_text: Option<String>,
    /// `quit` was received.
    quit: bool,
    /// The table given with `--table`.
    table: Option<LoadedTable>,
    /// Without one, the table store where each game's table is looked for.
    store: Option<PathBuf>,
    /// The table checked against the current game's rules, or why it does not fit them.
    oracle: Option<Result<Oracle, String>>,
    /// A game of a family beyond the race (then `game` is `None`).
    any: Option<AnyRecorder>,
}

const NO_TABLE: &str = "needs a solved table; `ur solve ID` puts one in the table store, where the engine finds it, or start the engine with `ur engine --table FILE`";

impl Session {
    /// A session whose `eval` and `hint` use this table.
    pub fn with_table(table: Option<LoadedTable>) -> Session {
        Session { table, ..Session::default() }
    }

    /// Answers one request line. Never panics on any input.
    pub fn handle(&mut self, line: &str) -> Value {
        match serde_json::from_str::<Value>(line) {
            Err(e) => reply(None, Err(format!(r#"malformed JSON ({e}); send one JSON object per line, for example {{"cmd":"show"}}"#))),
            Ok(Value::Object(obj)) => reply(obj.get("id").cloned(), self.dispatch(&obj)),
            Ok(_) => reply(None, Err(r#"a request must be a JSON object, for example {"cmd":"show"}"#.into())),
        }
    }

    /// As [`Session::handle`], but a bug in the engine costs the game, not the process.
    fn handle_guarded(&mut self, line: &str) -> Value {
        catch_unwind(AssertUnwindSafe(|| self.handle(line))).unwrap_or_else(|_| {
            *self = Session { store: self.store.take(), ..Session::with_table(self.table.take()) };
            reply(None, Err(format!("internal error on this request (please report it); the game was discarded, {SEND_NEW}")))
        })
    }

    fn dispatch(&mut self, obj: &Map<String, Value>) -> Reply {
        let req = Req::parse(obj)?;
        if self.any.is_some() {
            match req.cmd {
                "roll" => return self.any_roll(&req),
                "act" => return self.any_act(&req),
                "show" => return Ok(any_show(self.any_game()?)),
                "record" => return Ok(self.any_record()),
                "bestmove" => return self.bestmove(&req),
                "play" | "choose" => {
                    return Err(format!(
                        r#"{} is for race rule sets; send decisions of '{}' as {{"cmd":"act","action":A}} (A as listed in "actions") or {{"cmd":"act","text":T}}"#,
                        req.cmd,
                        self.any_game()?.rule_id()
                    ))
                }
                "set" | "eval" | "hint" | "review" => {
                    return Err(format!(
                        "{} is for race rule sets only (positions and solved tables are race-only); '{}' is not one",
                        req.cmd,
                        self.any_game()?.rule_id()
                    ))
                }
                _ => {}
            }
        }
        match req.cmd {
            "act" => self.race_act(&req),
            "bestmove" => self.bestmove(&req),
            "rules" => Ok(catalogue()),
            "new" => self.new_game(&req),
            "roll" => self.roll(&req),
            "play" => self.play(&req),
            "choose" => self.choose(&req),
            "set" => self.set(&req),
            "show" => Ok(show(self.game()?)),
            "record" => self.record(),
            "eval" => self.eval(),
            "hint" => self.hint(&req),
            "review" => self.review(&req),
            "quit" => {
                self.quit = true;
                Ok(Map::new())
            }
            other => Err(format!("cmd \"{other}\" is not implemented")),
        }
    }

    fn game(&self) -> Result<&Game, String> {
        self.game.as_ref().ok_or_else(|| format!("no game yet; {SEND_NEW}"))
    }

    fn game_mut(&mut self) -> Result<&mut Game, String> {
        self.game.as_mut().ok_or_else(|| format!("no game yet; {SEND_NEW}"))
    }

    fn new_game(&mut self, req: &Req) -> Reply {
        if let (Some(id), None) = (req.str("rules")?, req.str("rules_toml")?) {
            if family_of(id).is_some_and(|f| f != Family::Race) {
                return self.any_new(id, req);
            }
        }
        let (file, text) = match (req.str("rules")?, req.str("rules_toml")?) {
            (Some(_), Some(_)) => return Err(r#"give "rules" (a built-in id) or "rules_toml" (a rule-set file), not both"#.into()),
            (None, Some(t)) => (RuleSetFile::parse(t).map_err(|e| format!("rules_toml: {e}"))?, Some(t.to_owned())),
            (id, None) => (RuleSetFile::builtin(id.unwrap_or("finkel")).map_err(spec_error)?, None),
        };
        let first = match req.str("first")? {
            None => Side::Light,
            Some(s) => Side::parse(s).ok_or_else(|| format!(r#""first" must be "light" or "dark", not "{s}""#))?,
        };
        let rules = Arc::new(Rules::from_file(&file, &req.options()?).map_err(spec_error)?);
        self.game = Some(Game::new(rules.clone(), first));
        self.any = None;
        self.oracle = match &self.table {
            Some(t) => Some(t.oracle(rules.clone()).map_err(|e| e.to_string())),
            None => crate::table_store::oracle_for(self.store.as_deref(), &rules).map(|(o, _)| Ok(o)),
        };
        self.rules = Some(rules.clone());
        self.rules_text = text;
        let mut m = show(self.game()?);
        m.insert("options".into(), json!(rules.options));
        m.insert("first".into(), json!(first));
        Ok(m)
    }

    fn roll(&mut self, req: &Req) -> Reply {
        let game = self.game_mut()?;
        if game.phase() != Phase::Roll {
            return Err(wrong_phase(game, "roll"));
        }
        let raw = roll_raw(game.rules(), req)?;
        let player = game.to_move();
        let stage = summon_stage(game);
        let report = game.roll(raw).map_err(|e| game_error(game, e))?;
        let mut m = status(game);
        m.insert("player".into(), json!(player));
        m.insert("raw".into(), json!(raw));
        m.insert("value".into(), json!(report.throw.value));
        m.insert("legal".into(), legal_json(game));
        m.insert("passed".into(), json!(report.passed));
        if let Some((bird, success)) = report.summon {
            let stage = stage.unwrap_or("call");
            m.insert("summon".into(), json!({"bird": bird, "success": success, "stage": stage}));
        }
        Ok(m)
    }

    fn play(&mut self, req: &Req) -> Reply {
        let mv = Move { from: req.need_u8("from")?, to: req.need_u8("to")?, piece: req.u8("piece")?.unwrap_or(0) };
        self.play_move(mv)
    }

    fn play_move(&mut self, mv: Move) -> Reply {
        let game = self.game_mut()?;
        if game.phase() != Phase::Move {
            return Err(wrong_phase(game, "play"));
        }
        let player = game.to_move();
        let effect = game.play(mv).map_err(|e| game_error(game, e))?;
        let played = match game.history().last() {
            Some(Action::Move(m)) => *m,
            _ => mv,
        };
        let mut m = status(game);
        m.insert("player".into(), json!(player));
        m.insert("move".into(), json!(played));
        m.insert("captured".into(), json!(effect.captured));
        m.insert("rosette".into(), json!(effect.landed_on_rosette));
        m.insert("off".into(), json!(effect.borne_off));
        m.insert("extra".into(), json!(effect.extra));
        Ok(m)
    }

    fn choose(&mut self, req: &Req) -> Reply {
        let name = req.str("choice")?.ok_or(r#"choose needs "choice": "reroll", "end", "move" or "summon""#)?;
        let choice = Choice::parse(name).ok_or_else(|| format!(r#"unknown choice "{name}"; use "reroll", "end", "move" or "summon""#))?;
        self.choose_choice(choice)
    }

    fn choose_choice(&mut self, choice: Choice) -> Reply {
        let game = self.game_mut()?;
        let player = game.to_move();
        game.choose(choice).map_err(|e| game_error(game, e))?;
        let mut m = status(game);
        m.insert("player".into(), json!(player));
        Ok(m)
    }

    fn set(&mut self, req: &Req) -> Reply {
        let rules = self.rules.clone().ok_or_else(|| format!("set needs a rule set; {SEND_NEW}, then set"))?;
        let pos = req.obj.get("position").ok_or_else(|| format!(r#"set needs "position", shaped {POSITION}"#))?;
        let setup: Setup =
            serde_json::from_value(pos.clone()).map_err(|e| format!("bad position: {e}; a position is shaped {POSITION}"))?;
        let state = rules.validate(&setup).map_err(|e| format!("illegal position under {}: {e}", rules.id()))?;
        self.game = Some(Game::from_state(rules, state));
        Ok(show(self.game()?))
    }

    /// `act` in a race game: a move or a choice in the race's JSON or text.
    fn race_act(&mut self, req: &Req) -> Reply {
        let game = self.game()?;
        if matches!(game.phase(), Phase::Roll | Phase::Over) {
            return Err(wrong_phase(game, "act"));
        }
        let any = AnyGame::Race(game.clone());
        let action = act_action(&any, req)?;
        match action.as_race() {
            Some(Action::Move(m)) => self.play_move(*m),
            Some(Action::Choose(c)) => self.choose_choice(*c),
            _ => Err(format!(r#"{action} is not a decision; {}"#, next_step(self.game()?))),
        }
    }

    /// `bestmove`: what a bot would decide now, in any family; the game is not changed.
    fn bestmove(&mut self, req: &Req) -> Reply {
        let name = req.str("bot")?.unwrap_or("level4");
        let seed = match req.obj.get("seed") {
            None => 0,
            Some(v) => v.as_u64().ok_or_else(|| format!(r#""seed" must be a non-negative integer, not {v}"#))?,
        };
        let game: AnyGame = match (&self.any, &self.game) {
            (Some(rec), _) => rec.game().clone(),
            (None, Some(g)) => AnyGame::Race(g.clone()),
            (None, None) => return Err(format!("no game yet; {SEND_NEW}")),
        };
        if !matches!(game.turn(), Turn::Decide(_)) {
            return Err(match game.as_race() {
                Some(g) if g.phase() != Phase::Over => format!("bestmove needs a decision to make; {}", next_step(g)),
                Some(g) => over(g),
                None => format!("bestmove needs a decision to make; {}", any_next_step(&game)),
            });
        }
        let oracle = match &self.oracle {
            Some(Ok(o)) => Some(o),
            _ => None,
        };
        let mut bot = make_bot_with_table(name, seed, oracle).map_err(|e| match e {
            ur_bots::BotError::NeedsTable => format!("{e}; start the engine with `ur engine --table FILE`"),
            e => e.to_string(),
        })?;
        bot.check(&game).map_err(|e| e.to_string())?;
        let action = bot.decide(&game);
        let mut m = Map::new();
        m.insert("bot".into(), json!(bot.name()));
        m.insert("to_move".into(), json!(ur_bots::generic::decider(&game)));
        m.insert("action".into(), json!(action));
        m.insert("text".into(), json!(action.to_string()));
        Ok(m)
    }

    fn any_game(&self) -> Result<&AnyGame, String> {
        self.any.as_ref().map(AnyRecorder::game).ok_or_else(|| format!("no game yet; {SEND_NEW}"))
    }

    fn any_new(&mut self, id: &str, req: &Req) -> Reply {
        let first = match req.str("first")? {
            None => Side::Light,
            Some(s) => Side::parse(s).ok_or_else(|| format!(r#""first" must be "light" or "dark", not "{s}""#))?,
        };
        let options = req.options()?;
        let rec = AnyRecorder::new(id, &options, first).map_err(spec_error)?;
        self.any = Some(rec);
        self.game = None;
        self.rules = None;
        self.rules_text = None;
        self.oracle = None;
        let mut m = any_show(self.any_game()?);
        m.insert("options".into(), json!(options));
        m.insert("first".into(), json!(first));
        Ok(m)
    }

    fn any_roll(&mut self, req: &Req) -> Reply {
        let game = self.any_game()?;
        let Turn::Roll(player) = game.turn() else {
            return Err(format!("cannot roll now; {}", any_next_step(game)));
        };
        let raw = match (req.u8("value")?, req.u8("raw")?) {
            (None, Some(r)) => r,
            (Some(_), _) => return Err(format!(r#""value" is for race rule sets; send "raw", one of: {}"#, outcomes_text(game))),
            (None, None) => return Err(format!(r#"roll needs "raw", one of: {}"#, outcomes_text(game))),
        };
        let rec = self.any.as_mut().ok_or("no game")?;
        rec.roll(raw).map_err(|e| format!("{e}; outcomes (raw): {}", outcomes_text(rec.game())))?;
        let mut m = any_status(rec.game());
        m.insert("player".into(), json!(player));
        m.insert("raw".into(), json!(raw));
        Ok(m)
    }

    fn any_act(&mut self, req: &Req) -> Reply {
        let game = self.any_game()?;
        let Turn::Decide(player) = game.turn() else {
            return Err(format!("cannot act now; {}", any_next_step(game)));
        };
        let action = act_action(game, req)?;
        let rec = self.any.as_mut().ok_or("no game")?;
        rec.apply(&action).map_err(|e| format!("{e}; {}", any_next_step(rec.game())))?;
        let mut m = any_status(rec.game());
        m.insert("player".into(), json!(player));
        m.insert("action".into(), json!(action));
        m.insert("text".into(), json!(action.to_string()));
        Ok(m)
    }

    fn any_record(&self) -> Map<String, Value> {
        let mut m = Map::new();
        if let Some(rec) = &self.any {
            m.insert("record".into(), json!(rec.record()));
        }
        m
    }

    fn record(&self) -> Reply {
        let game = self.game()?;
        let mut m = Map::new();
        m.insert("record".into(), json!(GameRecord::of(game, self.rules_text.clone())));
        Ok(m)
    }

    /// The game so far judged by the table, or else by a search `depth` turns deep.
    fn review(&self, req: &Req) -> Reply {
        let game = self.game()?;
        let judge = match (&self.oracle, depth_field(req)?) {
            (Some(Ok(o)), None) => Judge::Table(o.clone()),
            (_, d) => Judge::search(game.rules(), d.unwrap_or(3)),
        };
        let rev = review(&GameRecord::of(game, self.rules_text.clone()), &judge, |_| {}).map_err(|e| e.to_string())?;
        let mut m = json!(rev).as_object().cloned().unwrap_or_default();
        judged_by(&mut m, &judge);
        Ok(m)
    }

    /// The table for the current game, or why there is none.
    fn oracle(&self, cmd: &str) -> Result<&Oracle, String> {
        self.game()?;
        match &self.oracle {
            None => Err(format!("{cmd} {NO_TABLE}")),
            Some(Err(e)) => Err(format!("{cmd} cannot use the table: {e}")),
            Some(Ok(o)) => Ok(o),
        }
    }

    fn eval(&self) -> Reply {
        let oracle = self.oracle("eval")?;
        let game = self.game()?;
        let mut m = Map::new();
        m.insert("phase".into(), json!(game.phase()));
        match oracle.game_value(game) {
            Some(p) => {
                let me = game.to_move();
                let light = if me == Side::Light { p } else { 1.0 - p };
                m.insert("to_move".into(), json!(me));
                m.insert("win".into(), json!(p));
                m.insert("light_win".into(), json!(light));
                m.insert("dark_win".into(), json!(1.0 - light));
            }
            None => {
                let light_won = game.winner() == Some(Side::Light);
                m.insert("to_move".into(), Value::Null);
                m.insert("win".into(), Value::Null);
                m.insert("light_win".into(), json!(f64::from(u8::from(light_won))));
                m.insert("dark_win".into(), json!(f64::from(u8::from(!light_won))));
            }
        }
        m.insert("winner".into(), json!(game.winner()));
        Ok(m)
    }

    fn hint(&self, req: &Req) -> Reply {
        let game = self.game()?;
        let judge = match depth_field(req)? {
            Some(d) => Judge::search(game.rules(), d),
            None => {
                Judge::Table(self.oracle("hint").map_err(|e| format!(r#"{e}; or give "depth" (1 to 6) for a search's estimates"#))?.clone())
            }
        };
        if game.phase() == Phase::Over {
            return Err(over(game));
        }
        let st = game.state();
        let given = match (req.u8("roll")?, req.u8("raw")?) {
            (Some(_), Some(_)) => return Err(r#"give "roll" (squares to move) or "raw" (the dice outcome), not both"#.into()),
            (Some(v), None) => {
                Some(game.rules().raw_for_value(v).map_err(|e| format!("{e}; throws (raw->value): {}", throws_text(game.rules())))?)
            }
            (None, Some(r)) => Some(r),
            (None, None) => None,
        };
        let throw = match given {
            Some(raw) => game
                .rules()
                .throw(raw)
                .ok_or_else(|| format!("raw outcome {raw} cannot be thrown; throws (raw->value): {}", throws_text(game.rules())))?,
            None => match (game.phase(), game.throw()) {
                (Phase::Move, Some(t)) => t,
                (Phase::ExtraRoll, _) => return extra_roll_hint(&judge, st),
                _ => {
                    return Err(r#"hint needs a throw at the start of a turn: give "roll" (or "raw"), for example {"cmd":"hint","roll":2}; the game is not changed"#.into())
                }
            },
        };
        move_hint(&judge, game.rules(), st, &throw)
    }
}

/// `"depth"`, when given: 1 to 6.
fn depth_field(req: &Req) -> Result<Option<u32>, String> {
    match req.obj.get("depth") {
        None => Ok(None),
        Some(v) => match v.as_u64().filter(|d| (1..=6).contains(d)) {
            Some(d) => Ok(Some(d as u32)),
            None => Err(format!(r#""depth" must be 1 to 6, not {v}"#)),
        },
    }
}

const NAMED_SEARCH: &str = "a search's hint does not model the turns of named pieces; ask {\"cmd\":\"bestmove\"} or {\"cmd\":\"review\"}";

/// Who judged a hint or a review.
fn judged_by(m: &mut Map<String, Value>, judge: &Judge) {
    m.insert("judge".into(), json!(judge.name()));
    m.insert("exact".into(), json!(judge.exact()));
}

/// The moves for a throw with the mover's win probability after each, best first.
fn move_hint(judge: &Judge, rules: &Rules, st: &State, throw: &Throw) -> Reply {
    let moves = judge.move_values(st, throw).ok_or(NAMED_SEARCH)?;
    let best = moves.first().map_or(0.0, |m| m.1);
    let list = moves.iter().map(|&(mv, p)| {
        let mut v = move_json(rules, st, throw, mv);
        v["win"] = json!(p);
        v["best"] = json!(p >= best - 1e-12);
        v
    });
    let mut m = Map::new();
    m.insert("to_move".into(), json!(st.to_move()));
    m.insert("raw".into(), json!(throw.raw));
    m.insert("value".into(), json!(throw.value));
    m.insert("moves".into(), Value::Array(list.collect()));
    m.insert("passed".into(), json!(moves.is_empty()));
    m.insert("win".into(), json!(judge.throw_value(st, throw).ok_or(NAMED_SEARCH)?));
    judged_by(&mut m, judge);
    Ok(m)
}

/// Rolling again or ending the turn, with the mover's win probability after each, best first.
fn extra_roll_hint(judge: &Judge, st: &State) -> Reply {
    let (reroll, end) = judge.extra_roll(st).ok_or(NAMED_SEARCH)?;
    let mut choices = [("reroll", reroll), ("end", end)];
    choices.sort_by(|a, b| b.1.total_cmp(&a.1));
    let list: Vec<Value> = choices.iter().map(|&(c, p)| json!({"choice": c, "win": p, "best": p >= choices[0].1 - 1e-12})).collect();
    let mut m = Map::new();
    m.insert("to_move".into(), json!(st.to_move()));
    m.insert("choices".into(), Value::Array(list));
    m.insert("win".into(), json!(choices[0].1));
    judged_by(&mut m, judge);
    Ok(m)
}

/// Wraps a reply body with `ok` and the echoed `id`.
fn reply(id: Option<Value>, body: Reply) -> Value {
    let mut m = match body {
        Ok(mut m) => {
            m.insert("ok".into(), Value::Bool(true));
            m
        }
        Err(error) => {
            let mut m = Map::new();
            m.insert("ok".into(), Value::Bool(false));
            m.insert("error".into(), Value::String(error));
            m
        }
    };
    if let Some(id) = id {
        m.insert("id".into(), id);
    }
    Value::Object(m)
}

/// A request whose command and field names were checked.
struct Req<'a> {
    obj: &'a Map<String, Value>,
    cmd: &'a str,
}

impl<'a> Req<'a> {
    fn parse(obj: &'a Map<String, Value>) -> Result<Req<'a>, String> {
        let names = COMMANDS.iter().map(|c| c.0).collect::<Vec<_>>().join(", ");
        let cmd = match obj.get("cmd") {
            None => return Err(format!(r#"missing "cmd"; for example {{"cmd":"rules"}}; commands: {names}"#)),
            Some(Value::String(s)) => s.as_str(),
            Some(v) => return Err(format!(r#""cmd" must be a string, not {v}; commands: {names}"#)),
        };
        let (_, fields) = COMMANDS.iter().find(|c| c.0 == cmd).ok_or_else(|| format!(r#"unknown cmd "{cmd}"; commands: {names}"#))?;
        if let Some(k) = obj.keys().find(|k| !["cmd", "id"].contains(&k.as_str()) && !fields.contains(&k.as_str())) {
            let known = if fields.is_empty() { "none".to_owned() } else { fields.join(", ") };
            return Err(format!(r#"unknown field "{k}" for {cmd}; its fields are: {known}"#));
        }
        Ok(Req { obj, cmd })
    }

    fn str(&self, key: &str) -> Result<Option<&'a str>, String> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(format!(r#""{key}" must be a string, not {v}"#)),
        }
    }

    fn u8(&self, key: &str) -> Result<Option<u8>, String> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| format!(r#""{key}" must be an integer 0..=255, not {v}"#)),
        }
    }

    fn need_u8(&self, key: &str) -> Result<u8, String> {
        self.u8(key)?.ok_or_else(|| format!(r#"{} needs "{key}" (an integer); for example {{"cmd":"play","from":0,"to":2}}"#, self.cmd))
    }

    /// `options` plus the `pieces` shorthand, as rule-set options.
    fn options(&self) -> Result<Options, String> {
        let mut out = Options::new();
        match self.obj.get("options") {
            None => {}
            Some(Value::Object(o)) => {
                for (k, v) in o {
                    out.insert(k.clone(), option_value(k, v)?);
                }
            }
            Some(v) => return Err(format!(r#""options" must be an object like {{"dice":"D4"}}, not {v}"#)),
        }
        if let Some(n) = self.u8("pieces")? {
            out.insert("pieces".into(), OptionValue::Int(i64::from(n)));
        }
        Ok(out)
    }
}

fn option_value(name: &str, v: &Value) -> Result<OptionValue, String> {
    match v {
        Value::Bool(b) => Ok(OptionValue::Bool(*b)),
        Value::String(s) => Ok(OptionValue::Text(s.clone())),
        Value::Number(n) if n.is_i64() => Ok(OptionValue::Int(n.as_i64().unwrap_or_default())),
        _ => Err(format!(r#"option "{name}" must be a boolean, an integer or a string, not {v}"#)),
    }
}

fn spec_error(e: SpecError) -> String {
    match e {
        SpecError::UnknownRuleSet(id) => {
            let ids: Vec<String> = RuleSetFile::all_builtin().into_iter().map(|f| f.id).collect();
            format!(r#"unknown rule set "{id}"; use one of: {} (or send "rules_toml")"#, ids.join(", "))
        }
        e => format!(r#"{e} (send {{"cmd":"rules"}} to list rule sets and options)"#),
    }
}

/// The raw dice outcome a `roll` request asks for.
fn roll_raw(rules: &Rules, req: &Req) -> Result<u8, String> {
    match (req.u8("value")?, req.u8("raw")?) {
        (Some(v), None) => rules.raw_for_value(v).map_err(|e| format!("{e}; throws (raw->value): {}", throws_text(rules))),
        (None, Some(r)) => Ok(r),
        (Some(_), Some(_)) => Err(r#"give "value" or "raw", not both"#.into()),
        (None, None) => {
            Err(r#"roll needs "value" (squares to move) or "raw" (the dice outcome), for example {"cmd":"roll","value":2}"#.into())
        }
    }
}

fn throws_text(rules: &Rules) -> String {
    rules.throws().map(|(t, _)| format!("{}->{}", t.raw, t.value)).collect::<Vec<_>>().join(", ")
}

/// Named pieces: which summon roll the next roll is (the history tells).
fn summon_stage(game: &Game) -> Option<&'static str> {
    match game.history().last() {
        Some(Action::Choose(Choice::Summon)) => Some("call"),
        Some(Action::Roll(_)) if game.rules().named_pieces() => Some("placement"),
        _ => None,
    }
}

/// What the client should send next, for error messages.
fn next_step(game: &Game) -> String {
    match game.phase() {
        Phase::Roll => r#"send {"cmd":"roll","value":V} or {"cmd":"roll","raw":R}"#.into(),
        Phase::Move => format!(r#"send {{"cmd":"play","from":F,"to":T}} with one of: {}"#, ur_rules::format_moves(game.legal_moves())),
        Phase::Declare | Phase::ExtraRoll => {
            let names: Vec<&str> = game.choices().iter().map(|c| c.name()).collect();
            format!(r#"send {{"cmd":"choose","choice":C}} with C one of: {}"#, names.join(", "))
        }
        Phase::Over => over(game),
    }
}

fn over(game: &Game) -> String {
    let won = game.winner().map_or(String::new(), |w| format!(" ({w} won)"));
    format!(r#"the game is over{won}; send {{"cmd":"new"}} or {{"cmd":"set"}} to play on"#)
}

fn wrong_phase(game: &Game, action: &str) -> String {
    match game.phase() {
        Phase::Over => over(game),
        _ => format!("cannot {action} now; {}", next_step(game)),
    }
}

fn game_error(game: &Game, e: GameError) -> String {
    match e {
        GameError::Over => over(game),
        GameError::WrongPhase { action, .. } => wrong_phase(game, action),
        GameError::BadRoll { .. } => format!("{e}; throws (raw->value): {}", throws_text(game.rules())),
        GameError::IllegalMove { .. } => format!(r#"{e}; send one of them as {{"cmd":"play","from":F,"to":T}}"#),
        GameError::BadChoice { .. } => e.to_string(),
    }
}

/// Fields every game reply carries: what happens next.
fn status(game: &Game) -> Map<String, Value> {
    let over = game.phase() == Phase::Over;
    let choices: Vec<&str> = game.choices().iter().map(|c| c.name()).collect();
    let mut m = Map::new();
    m.insert("phase".into(), json!(game.phase()));
    m.insert("to_move".into(), if over { Value::Null } else { json!(game.to_move()) });
    m.insert("winner".into(), json!(game.winner()));
    m.insert("choices".into(), json!(choices));
    m
}

/// The reply to `show`: the position and what happens next.
fn show(game: &Game) -> Map<String, Value> {
    let rules = game.rules();
    let mut m = status(game);
    m.insert("rules".into(), json!(rules.id()));
    m.insert("position".into(), json!(game.state().to_setup(rules)));
    if let Some(t) = game.throw() {
        m.insert("raw".into(), json!(t.raw));
        m.insert("value".into(), json!(t.value));
        m.insert("legal".into(), legal_json(game));
    }
    if let Some([light, dark]) = game.pot_paid() {
        m.insert("pot".into(), json!({"light": light, "dark": dark}));
    }
    m
}

/// The legal moves awaiting a choice, each with what it would do.
fn legal_json(game: &Game) -> Value {
    let Some(throw) = game.throw() else { return json!([]) };
    let moves = game.legal_moves().iter().map(|&mv| move_json(game.rules(), game.state(), &throw, mv));
    Value::Array(moves.collect())
}

/// A legal move with what it would do.
fn move_json(rules: &Rules, st: &State, throw: &Throw, mv: Move) -> Value {
    let mut st = *st;
    let effect = rules.apply_unchecked(&mut st, throw, mv);
    let mut m = json!({
        "from": mv.from, "to": mv.to,
        "capture": effect.captured, "rosette": effect.landed_on_rosette, "off": effect.borne_off,
    });
    if mv.piece != 0 {
        m["piece"] = json!(mv.piece);
    }
    m
}

/// The decision an `act` request names, by `action` (JSON) or `text`.
fn act_action(game: &AnyGame, req: &Req) -> Result<AnyAction, String> {
    match (req.obj.get("action"), req.str("text")?) {
        (Some(_), Some(_)) => Err(r#"give "action" (JSON) or "text", not both"#.into()),
        (Some(json), None) => game.action_from_json(json).map_err(|e| format!("{e}; open: {}", open_json(game))),
        (None, Some(text)) => game.action_from_text(text).map_err(|e| e.to_string()),
        (None, None) => Err(format!(r#"act needs "action" (one of: {}) or "text""#, open_json(game))),
    }
}

/// The open decisions as JSON text, for error messages.
fn open_json(game: &AnyGame) -> String {
    let open: Vec<String> = game.actions().iter().map(|a| json!(a).to_string()).collect();
    if open.is_empty() {
        "none now".into()
    } else {
        open.join(", ")
    }
}

fn outcomes_text(game: &AnyGame) -> String {
    game.outcomes().iter().map(|(raw, _)| raw.to_string()).collect::<Vec<_>>().join(", ")
}

/// What the client should send next in a game beyond the race.
fn any_next_step(game: &AnyGame) -> String {
    match game.turn() {
        Turn::Roll(_) => format!(r#"send {{"cmd":"roll","raw":R}} with R one of: {}"#, outcomes_text(game)),
        Turn::Decide(_) => format!(r#"send {{"cmd":"act","action":A}} with A one of: {}"#, open_json(game)),
        Turn::Over(w) => {
            let won = w.map_or(" (drawn)".to_string(), |w| format!(" ({w} won)"));
            format!(r#"the game is over{won}; send {{"cmd":"new"}} to play on"#)
        }
    }
}

/// Fields every reply about a game beyond the race carries.
fn any_status(game: &AnyGame) -> Map<String, Value> {
    let (phase, to_move, winner) = match game.turn() {
        Turn::Roll(s) => ("roll", json!(s), Value::Null),
        Turn::Decide(s) => ("decide", json!(s), Value::Null),
        Turn::Over(w) => ("over", Value::Null, json!(w)),
    };
    let mut m = Map::new();
    m.insert("phase".into(), json!(phase));
    m.insert("to_move".into(), to_move);
    m.insert("winner".into(), winner);
    let actions = game.actions();
    m.insert("actions".into(), json!(actions));
    m.insert("actions_text".into(), json!(actions.iter().map(ToString::to_string).collect::<Vec<_>>()));
    if phase == "roll" {
        let outcomes: Vec<Value> = game.outcomes().iter().map(|(raw, p)| json!({"raw": raw, "probability": p})).collect();
        m.insert("outcomes".into(), Value::Array(outcomes));
    }
    m
}

/// The reply to `show` in a game beyond the race.
fn any_show(game: &AnyGame) -> Map<String, Value> {
    let mut m = any_status(game);
    m.insert("rules".into(), json!(game.rule_id()));
    m.insert("family".into(), json!(game.family()));
    m.insert("position".into(), game.position_json());
    m.insert("board".into(), json!(game.board_text().trim_end()));
    m
}

/// A rule set beyond the race, for `rules`.
fn family_set_json(set: &FamilyRuleSet) -> Value {
    let options: Vec<Value> = set
        .options
        .iter()
        .map(|o| {
            let allowed: Vec<Value> = o.values.iter().map(|v| json!(OptionValue::parse(v))).collect();
            json!({"name": o.name, "description": o.description, "default": OptionValue::parse(o.default), "allowed": allowed})
        })
        .collect();
    json!({"id": set.id, "name": set.name, "family": set.family, "source": set.source, "options": options})
}

/// The reply to `rules`: every built-in race rule set with its options
/// (`rules`, as before), and the rule sets of the other families (`family_rules`).
fn catalogue() -> Map<String, Value> {
    let sets: Vec<Value> = RuleSetFile::all_builtin().iter().map(rule_set_json).collect();
    let others: Vec<Value> = family_rule_sets().iter().map(family_set_json).collect();
    let mut m = Map::new();
    m.insert("rules".into(), Value::Array(sets));
    m.insert("family_rules".into(), Value::Array(others));
    m
}

fn rule_set_json(file: &RuleSetFile) -> Value {
    let rules = match Rules::from_file(file, &Options::new()) {
        Ok(r) => r,
        Err(e) => return json!({"id": file.id, "name": file.name, "error": e.to_string()}),
    };
    let dice = rules.dice();
    let throws: Vec<Value> = rules
        .throws()
        .map(|(t, _)| {
            let p = dice.probability(t.raw);
            json!({"raw": t.raw, "value": t.value, "extra": t.extra, "enter": t.enter, "probability": p})
        })
        .collect();
    let max_pieces = rules.spec.birds.as_ref().map_or(15, |b| b.names.len().min(5));
    let mut options = vec![json!({
        "name": "pieces", "description": "Pieces per side.", "default": rules.pieces(),
        "allowed": {"min": 1, "max": max_pieces},
    })];
    options.extend(file.options.iter().map(option_json));
    json!({
        "id": file.id, "name": file.name, "summary": rules.spec.summary, "sides": rules.spec.sides,
        "pieces": rules.pieces(), "path_length": rules.path_len(), "dice": dice.name(), "throws": throws,
        "named_pieces": rules.named_pieces(), "pot": rules.pot().is_some(), "options": options,
    })
}

fn option_json(o: &OptionSpec) -> Value {
    let allowed = if o.values.is_empty() {
        json!({"min": o.min.unwrap_or(0), "max": o.max.unwrap_or(i64::MAX)})
    } else {
        Value::Array(o.values.keys().map(|k| json!(OptionValue::parse(k))).collect())
    };
    json!({"name": o.name, "description": o.description, "default": o.default, "allowed": allowed})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(s: &mut Session, line: &str) -> Value {
        s.handle(line)
    }

    #[test]
    fn a_short_game_and_errors() {
        let mut s = Session::default();
        assert_eq!(ask(&mut s, r#"{"cmd":"show","id":7}"#)["id"], 7);
        assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["ok"], false);
        let r = ask(&mut s, r#"{"cmd":"new","rules":"finkel"}"#);
        assert_eq!(r["ok"], true, "{r}");
        let r = ask(&mut s, r#"{"cmd":"roll","value":2}"#);
        assert_eq!(r["legal"], json!([{"from":0,"to":2,"capture":false,"rosette":false,"off":false}]));
        let r = ask(&mut s, r#"{"cmd":"roll","value":2}"#);
        assert!(r["error"].as_str().unwrap().contains("play"), "{r}");
        let r = ask(&mut s, r#"{"cmd":"play","from":0,"to":2}"#);
        assert_eq!(r["to_move"], "dark", "{r}");
    }

    #[test]
    fn garbage_never_panics() {
        let mut s = Session::default();
        for line in ["", "{", "[]", "null", r#"{"cmd":1}"#, r#"{"cmd":"play","from":-1,"to":1e9}"#, "\u{0}"] {
            assert_eq!(ask(&mut s, line)["ok"], false, "{line}");
        }
    }

    #[test]
    fn eval_and_hint_at_an_optional_extra_roll() {
        let opts: Options = [("pieces".into(), OptionValue::Int(1)), ("rosette_reroll_optional".into(), OptionValue::Bool(true))].into();
        let rules = Rules::builtin_with("v1-simple", &opts).unwrap();
        let index = ur_solve::Indexer::new(&rules).unwrap();
        let sol = ur_solve::solve(&rules, &index, &ur_solve::SolveConfig::default(), &ur_solve::Silent).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.urt");
        ur_solve::table::write_table(&path, &rules, &index, &sol.values, ur_solve::Encoding::F64, sol.residual, 1e-12).unwrap();
        let mut s = Session::with_table(Some(LoadedTable::open(&path).unwrap()));
        let r = ask(&mut s, r#"{"cmd":"new","rules":"v1-simple","pieces":1,"options":{"rosette_reroll_optional":true}}"#);
        assert_eq!(r["ok"], true, "{r}");
        let start = ask(&mut s, r#"{"cmd":"eval"}"#);
        assert_eq!(start["win"].as_f64(), Some(sol.values[index.rank(&ur_rules::State::start(&rules, Side::Light)) as usize]));
        ask(&mut s, r#"{"cmd":"roll","value":4}"#);
        let moved = ask(&mut s, r#"{"cmd":"hint"}"#);
        let r = ask(&mut s, r#"{"cmd":"play","from":0,"to":4}"#);
        assert_eq!(r["phase"], "extra_roll", "{r}");
        let h = ask(&mut s, r#"{"cmd":"hint"}"#);
        let choices = h["choices"].as_array().unwrap();
        assert_eq!(choices.len(), 2, "{h}");
        assert!(choices[0]["win"].as_f64() >= choices[1]["win"].as_f64() && choices[0]["best"] == true, "{h}");
        assert_eq!(h["win"], choices[0]["win"]);
        assert_eq!(h["win"], moved["win"], "the move's value takes the better of rerolling and ending");
        assert_eq!(ask(&mut s, r#"{"cmd":"eval"}"#)["win"], h["win"]);
        // A throw given: the moves after a reroll, without changing the game.
        let what_if = ask(&mut s, r#"{"cmd":"hint","roll":2}"#);
        assert_eq!(what_if["moves"][0]["from"], 4, "{what_if}");
        assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["phase"], "extra_roll");
    }

    #[test]
    fn named_birds_summon() {
        let mut s = Session::default();
        ask(&mut s, r#"{"cmd":"new","rules":"v1-named-birds"}"#);
        assert_eq!(ask(&mut s, r#"{"cmd":"choose","choice":"summon"}"#)["ok"], true);
        let r = ask(&mut s, r#"{"cmd":"roll","value":1}"#);
        assert_eq!(r["summon"], json!({"bird":1,"success":true,"stage":"call"}), "{r}");
        let r = ask(&mut s, r#"{"cmd":"roll","value":3}"#);
        assert_eq!(r["summon"], json!({"bird":1,"success":true,"stage":"placement"}), "{r}");
        assert_eq!(ask(&mut s, r#"{"cmd":"show"}"#)["position"]["light"]["birds"], json!([3, 0, 0, 0, 0]));
    }

    #[test]
    fn act_and_bestmove_in_a_race_game() {
        let mut s = Session::default();
        ask(&mut s, r#"{"cmd":"new","rules":"finkel"}"#);
        let r = ask(&mut s, r#"{"cmd":"bestmove"}"#);
        assert!(r["error"].as_str().unwrap().contains("roll"), "{r}");
        ask(&mut s, r#"{"cmd":"roll","value":2}"#);
        for bot in ["random", "greedy", "level4", "mcts:20", "generic:expectimax:2"] {
            let r = ask(&mut s, &format!(r#"{{"cmd":"bestmove","bot":"{bot}","seed":3}}"#));
            assert_eq!(r["action"], json!({"move":{"from":0,"to":2}}), "{bot}: {r}");
            assert_eq!(r["text"], "0->2", "{r}");
        }
        let r = ask(&mut s, r#"{"cmd":"bestmove","bot":"perfect"}"#);
        assert!(r["error"].as_str().unwrap().contains("--table"), "{r}");
        let r = ask(&mut s, r#"{"cmd":"act","action":{"move":{"from":0,"to":3}}}"#);
        assert_eq!(r["ok"], false, "{r}");
        let r = ask(&mut s, r#"{"cmd":"act","text":"0->2"}"#);
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(r["to_move"], "dark", "{r}");
        ask(&mut s, r#"{"cmd":"roll","value":4}"#);
        let r = ask(&mut s, r#"{"cmd":"act","action":{"move":{"from":0,"to":4}}}"#);
        assert_eq!(r["rosette"], true, "{r}");
    }

    /// The generic path, exercised on a race set held as a game of any family.
    #[test]
    fn a_game_of_any_family_through_the_protocol() {
        let mut s = Session { any: Some(AnyRecorder::new("finkel", &Options::new(), Side::Light).unwrap()), ..Session::default() };
        let r = ask(&mut s, r#"{"cmd":"show"}"#);
        assert_eq!(r["phase"], "roll", "{r}");
        assert_eq!(r["outcomes"].as_array().unwrap().len(), 5, "{r}");
        assert_eq!(r["position"]["light"]["reserve"], 7, "{r}");
        let r = ask(&mut s, r#"{"cmd":"roll","value":2}"#);
        assert!(r["error"].as_str().unwrap().contains("raw"), "{r}");
        let r = ask(&mut s, r#"{"cmd":"act","text":"0->2"}"#);
        assert!(r["error"].as_str().unwrap().contains("roll"), "{r}");
        let r = ask(&mut s, r#"{"cmd":"roll","raw":2}"#);
        assert_eq!(r["phase"], "decide", "{r}");
        assert_eq!(r["actions"], json!([{"move":{"from":0,"to":2}}]), "{r}");
        assert_eq!(r["actions_text"], json!(["0->2"]), "{r}");
        for cmd in ["play", "set", "eval", "hint"] {
            let r = ask(&mut s, &format!(r#"{{"cmd":"{cmd}"}}"#));
            assert_eq!(r["ok"], false, "{cmd}: {r}");
        }
        let r = ask(&mut s, r#"{"cmd":"bestmove","bot":"generic:level2"}"#);
        let action = r["action"].clone();
        let r = ask(&mut s, &format!(r#"{{"cmd":"act","action":{action}}}"#));
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(r["to_move"], "dark", "{r}");
        let record = ask(&mut s, r#"{"cmd":"record"}"#)["record"].clone();
        assert_eq!(record["version"], 2, "{record}");
        let back: ur_rules::AnyRecord = serde_json::from_value(record).unwrap();
        assert_eq!(back.replay().unwrap().position_json(), s.any.as_ref().unwrap().game().position_json());
        // A bot plays the game out through the protocol.
        let mut rng = 0u64;
        for _ in 0..5000 {
            let r = ask(&mut s, r#"{"cmd":"show"}"#);
            match r["phase"].as_str().unwrap() {
                "over" => break,
                "roll" => {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let outcomes = r["outcomes"].as_array().unwrap();
                    let raw = &outcomes[(rng >> 33) as usize % outcomes.len()]["raw"];
                    assert_eq!(ask(&mut s, &format!(r#"{{"cmd":"roll","raw":{raw}}}"#))["ok"], true);
                }
                _ => {
                    let a = ask(&mut s, r#"{"cmd":"bestmove","bot":"generic:greedy"}"#)["action"].clone();
                    assert_eq!(ask(&mut s, &format!(r#"{{"cmd":"act","action":{a}}}"#))["ok"], true);
                }
            }
        }
        let r = ask(&mut s, r#"{"cmd":"show"}"#);
        assert_eq!(r["phase"], "over", "{r}");
        assert!(r["winner"].is_string(), "{r}");
    }
}
