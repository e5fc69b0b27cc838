//! Reading a request: its command, its fields and their types.

use serde_json::{Map, Value};
use ur_rules::{Action, AnyAction, AnyGame, Choice, Family, Move, OptionValue, Options, Playable};

use super::reply::open_json;

/// A reply body without `ok`/`id`, or a readable error.
pub type Reply = Result<Map<String, Value>, String>;

/// Commands and the request fields each accepts (besides `cmd` and `id`).
const COMMANDS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("new", &["rules", "rules_toml", "options", "pieces", "first"]),
    ("roll", &["value", "raw"]),
    ("act", &["action", "text"]),
    ("play", &["from", "to", "piece"]),
    ("choose", &["choice"]),
    ("bestmove", &["bot", "seed"]),
    ("set", &["position"]),
    ("show", &[]),
    ("record", &[]),
    ("eval", &[]),
    ("hint", &["roll", "raw", "depth"]),
    ("review", &["depth", "trials", "seed"]),
    ("quit", &[]),
];

/// Wraps a reply body with `ok` and the echoed `id`.
pub fn wrap(id: Option<Value>, body: Reply) -> Value {
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
pub struct Req<'a> {
    pub obj: &'a Map<String, Value>,
    pub cmd: &'a str,
}

impl<'a> Req<'a> {
    pub fn parse(obj: &'a Map<String, Value>) -> Result<Req<'a>, String> {
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

    pub fn str(&self, key: &str) -> Result<Option<&'a str>, String> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(format!(r#""{key}" must be a string, not {v}"#)),
        }
    }

    pub fn u8(&self, key: &str) -> Result<Option<u8>, String> {
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

    /// `"depth"`, when given: 1 to 6.
    pub fn depth(&self) -> Result<Option<u32>, String> {
        match self.obj.get("depth") {
            None => Ok(None),
            Some(v) => match v.as_u64().filter(|d| (1..=6).contains(d)) {
                Some(d) => Ok(Some(d as u32)),
                None => Err(format!(r#""depth" must be 1 to 6, not {v}"#)),
            },
        }
    }

    /// A non-negative integer field up to `max`.
    pub fn count(&self, key: &str, max: u64) -> Result<Option<u64>, String> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(v) => {
                v.as_u64().filter(|&n| n <= max).map(Some).ok_or_else(|| format!(r#""{key}" must be an integer 0 to {max}, not {v}"#))
            }
        }
    }

    /// `options` plus the `pieces` shorthand, as rule-set options.
    pub fn options(&self) -> Result<Options, String> {
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

    /// The decision an `act` request names, by `action` (JSON) or `text`.
    pub fn action(&self, game: &AnyGame) -> Result<AnyAction, String> {
        match (self.obj.get("action"), self.str("text")?) {
            (Some(_), Some(_)) => Err(r#"give "action" (JSON) or "text", not both"#.into()),
            (Some(json), None) => game.action_from_json(json).map_err(|e| format!("{e}; open: {}", open_json(game))),
            (None, Some(text)) => game.action_from_text(text).map_err(|e| e.to_string()),
            (None, None) => Err(format!(r#"act needs "action" (one of: {}) or "text""#, open_json(game))),
        }
    }

    /// `play`, the race's short form of a move.
    pub fn play_action(&self, game: &AnyGame) -> Result<AnyAction, String> {
        race_only(self.cmd, game)?;
        let mv = Move { from: self.need_u8("from")?, to: self.need_u8("to")?, piece: self.u8("piece")?.unwrap_or(0) };
        Ok(AnyAction::Race(Action::Move(mv)))
    }

    /// `choose`, the race's short form of a choice.
    pub fn choose_action(&self, game: &AnyGame) -> Result<AnyAction, String> {
        race_only(self.cmd, game)?;
        let name = self.str("choice")?.ok_or(r#"choose needs "choice": "reroll", "end", "move" or "summon""#)?;
        let choice = Choice::parse(name).ok_or_else(|| format!(r#"unknown choice "{name}"; use "reroll", "end", "move" or "summon""#))?;
        Ok(AnyAction::Race(Action::Choose(choice)))
    }
}

/// `play` and `choose` are the race's short forms; `act` serves every family.
fn race_only(cmd: &str, game: &AnyGame) -> Result<(), String> {
    if game.family() == Family::Race {
        return Ok(());
    }
    Err(format!(
        r#"{cmd} is a short form for race rule sets; send decisions of '{}' as {{"cmd":"act","action":A}} (A as listed in "actions") or {{"cmd":"act","text":T}}"#,
        game.rule_id()
    ))
}

fn option_value(name: &str, v: &Value) -> Result<OptionValue, String> {
    match v {
        Value::Bool(b) => Ok(OptionValue::Bool(*b)),
        Value::String(s) => Ok(OptionValue::Text(s.clone())),
        Value::Number(n) if n.is_i64() => Ok(OptionValue::Int(n.as_i64().unwrap_or_default())),
        _ => Err(format!(r#"option "{name}" must be a boolean, an integer or a string, not {v}"#)),
    }
}
