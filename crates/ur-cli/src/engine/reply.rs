//! Replies: the session's typed results as the protocol's JSON.
//!
//! Every reply about a game carries the same status fields in every family
//! ([`status`]); race games add their own details (move values, legal
//! moves with their effects, choices, the pot).

use serde_json::{json, Map, Value};
use ur_bots::hint::Hint;
use ur_bots::review::Judge;
use ur_rules::report::{race_rules, race_view, throws_text, Acted, OpenMove, Rolled, RACE_POSITION};
use ur_rules::{
    family_rule_sets, format_moves, AnyGame, Family, FamilyRuleSet, OptionSpec, OptionValue, Options, Playable, RuleSetFile, Rules,
    SpecError, Turn,
};
use ur_session::{Session, SessionError};

/// A reply of one field.
pub fn one(key: &str, value: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(key.into(), value);
    m
}

/// Fields every reply about a game carries: what happens next.
pub fn status(game: &AnyGame) -> Map<String, Value> {
    let view = race_view(game);
    let (phase, to_move, winner) = match game.turn() {
        Turn::Roll(s) => ("roll", json!(s), Value::Null),
        Turn::Decide(s) => ("decide", json!(s), Value::Null),
        Turn::Over(w) => ("over", Value::Null, json!(w)),
    };
    let mut m = Map::new();
    m.insert("phase".into(), view.as_ref().map_or(json!(phase), |v| json!(v.phase)));
    m.insert("to_move".into(), to_move);
    m.insert("winner".into(), winner);
    let choices: Vec<&str> = view.as_ref().map(|v| v.choices.iter().map(|c| c.name()).collect()).unwrap_or_default();
    m.insert("choices".into(), json!(choices));
    let actions = game.actions();
    m.insert("actions".into(), json!(actions));
    m.insert("actions_text".into(), json!(actions.iter().map(ToString::to_string).collect::<Vec<_>>()));
    if phase == "roll" {
        m.insert("outcomes".into(), outcomes_json(game));
    }
    m
}

/// The dice's outcomes with their probabilities (and move values, for races).
fn outcomes_json(game: &AnyGame) -> Value {
    let rules = race_rules(game);
    let list = game.outcomes().into_iter().map(|(raw, p)| {
        let mut o = json!({"raw": raw, "probability": p});
        if let Some(t) = rules.and_then(|r| r.throw(raw)) {
            o["value"] = json!(t.value);
        }
        o
    });
    Value::Array(list.collect())
}

/// The reply to `show` (and `new`, `set`): the position and what happens next.
pub fn show(s: &Session) -> Map<String, Value> {
    let game = s.game();
    let mut m = status(game);
    m.insert("rules".into(), json!(game.rule_id()));
    m.insert("family".into(), json!(game.family()));
    m.insert("position".into(), game.position_json());
    m.insert("position_string".into(), json!(game.position_string()));
    m.insert("board".into(), json!(game.board_text().trim_end()));
    if let Some(view) = race_view(game) {
        if let Some((raw, value)) = view.throw {
            m.insert("raw".into(), json!(raw));
            m.insert("value".into(), json!(value));
            m.insert("legal".into(), legal_json(&view.moves));
        }
        if let Some([light, dark]) = view.pot {
            m.insert("pot".into(), json!({"light": light, "dark": dark}));
        }
    }
    m
}

/// The options in force: every option of a race rule set, the given ones elsewhere.
pub fn options_json(s: &Session) -> Value {
    match race_rules(s.game()) {
        Some(rules) => json!(rules.options),
        None => json!(s.options()),
    }
}

/// The legal race moves, each with what it would do.
fn legal_json(moves: &[OpenMove]) -> Value {
    Value::Array(moves.iter().map(|m| move_json(m.mv, &m.effect)).collect())
}

fn move_json(mv: ur_rules::Move, e: &ur_rules::MoveEffect) -> Value {
    let mut m = json!({"from": mv.from, "to": mv.to, "capture": e.captured, "rosette": e.landed_on_rosette, "off": e.borne_off});
    if mv.piece != 0 {
        m["piece"] = json!(mv.piece);
    }
    m
}

/// The reply to `roll`.
pub fn rolled(s: &Session, r: &Rolled) -> Map<String, Value> {
    let mut m = status(s.game());
    m.insert("player".into(), json!(r.player));
    m.insert("raw".into(), json!(r.raw));
    if let Some(v) = r.value {
        m.insert("value".into(), json!(v));
        m.insert("legal".into(), race_view(s.game()).map_or(json!([]), |v| legal_json(&v.moves)));
    }
    m.insert("passed".into(), json!(r.passed));
    if let Some(summon) = r.summon {
        m.insert("summon".into(), json!(summon));
    }
    m
}

/// The reply to `act` (and `play`, `choose`).
pub fn acted(s: &Session, a: &Acted) -> Map<String, Value> {
    let mut m = status(s.game());
    m.insert("player".into(), json!(a.player));
    m.insert("action".into(), json!(a.action));
    m.insert("text".into(), json!(a.action.to_string()));
    if let (Some(e), ur_rules::AnyAction::Race(ur_rules::Action::Move(mv))) = (&a.effect, &a.action) {
        m.insert("move".into(), json!(mv));
        m.insert("captured".into(), json!(e.captured));
        m.insert("rosette".into(), json!(e.landed_on_rosette));
        m.insert("off".into(), json!(e.borne_off));
        m.insert("extra".into(), json!(e.extra));
    }
    m
}

/// Who judged a hint or a review.
pub fn judged_by(m: &mut Map<String, Value>, judge: &Judge) {
    m.insert("judge".into(), json!(judge.name()));
    m.insert("exact".into(), json!(judge.exact()));
}

/// Marks a reply as a network's estimate (`net:N`), not exact.
pub fn estimated_by(m: &mut Map<String, Value>, judge: &str) {
    m.insert("judge".into(), json!(judge));
    m.insert("exact".into(), json!(false));
}

/// The reply to `hint` on a game beyond the race: every open action, best
/// first, with the mover's estimated win probability after it.
pub fn action_hint(game: &AnyGame, values: &[(ur_rules::AnyAction, f64)], judge: &str) -> Map<String, Value> {
    let best = values.first().map_or(0.0, |v| v.1);
    let list: Vec<Value> =
        values.iter().map(|(a, w)| json!({"action": a, "text": a.to_string(), "win": w, "best": *w >= best - 1e-12})).collect();
    let mut m = Map::new();
    m.insert("to_move".into(), json!(ur_bots::generic::decider(game)));
    m.insert("actions".into(), Value::Array(list));
    m.insert("win".into(), json!(best));
    estimated_by(&mut m, judge);
    m
}

/// The reply to `hint`.
pub fn hint(hint: &Hint, judge: &Judge) -> Map<String, Value> {
    let mut m = Map::new();
    match hint {
        Hint::Moves { to_move, raw, value, moves, win, .. } => {
            let list = moves.iter().map(|h| {
                let mut v = move_json(h.mv, &h.effect);
                v["win"] = json!(h.win);
                v["best"] = json!(h.best);
                v
            });
            m.insert("to_move".into(), json!(to_move));
            m.insert("raw".into(), json!(raw));
            m.insert("value".into(), json!(value));
            m.insert("moves".into(), Value::Array(list.collect()));
            m.insert("passed".into(), json!(moves.is_empty()));
            m.insert("win".into(), json!(win));
        }
        Hint::Choices { to_move, choices, win } => {
            let best = choices.first().map_or(0.0, |c| c.1);
            let list: Vec<Value> = choices.iter().map(|&(c, p)| json!({"choice": c.name(), "win": p, "best": p >= best - 1e-12})).collect();
            m.insert("to_move".into(), json!(to_move));
            m.insert("choices".into(), Value::Array(list));
            m.insert("win".into(), json!(win));
        }
    }
    judged_by(&mut m, judge);
    m
}

/// The shape of a position, for error messages.
pub fn position_shape(game: &AnyGame) -> String {
    match game.family() {
        Family::Race => format!(r#"a position string such as "l:469.1,2d" (docs/positions.md) or JSON shaped {RACE_POSITION}"#),
        _ => r#"a position string (docs/positions.md) or JSON shaped as "position" in the reply to {"cmd":"show"}"#.into(),
    }
}

/// For `roll` without a number: races also take a move value.
pub fn value_note(game: &AnyGame) -> String {
    match race_rules(game) {
        Some(rules) => format!(r#" or "value" (squares to move; throws raw->value: {})"#, throws_text(rules)),
        None => String::new(),
    }
}

/// The open decisions as JSON text, for error messages.
pub fn open_json(game: &AnyGame) -> String {
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

/// What the client should send next, for error messages.
pub fn next_step(game: &AnyGame) -> String {
    match game.turn() {
        Turn::Roll(_) => match race_rules(game) {
            Some(_) => r#"send {"cmd":"roll","value":V} or {"cmd":"roll","raw":R}"#.into(),
            None => format!(r#"send {{"cmd":"roll","raw":R}} with R one of: {}"#, outcomes_text(game)),
        },
        Turn::Decide(_) => match race_view(game) {
            Some(v) if !v.moves.is_empty() => {
                let moves: Vec<ur_rules::Move> = v.moves.iter().map(|m| m.mv).collect();
                format!(r#"send {{"cmd":"play","from":F,"to":T}} (or {{"cmd":"act","text":"F->T"}}) with one of: {}"#, format_moves(&moves))
            }
            Some(v) => {
                let names: Vec<&str> = v.choices.iter().map(|c| c.name()).collect();
                format!(r#"send {{"cmd":"choose","choice":C}} (or {{"cmd":"act","text":C}}) with C one of: {}"#, names.join(", "))
            }
            None => format!(r#"send {{"cmd":"act","action":A}} with A one of: {}"#, open_json(game)),
        },
        Turn::Over(_) => over(game),
    }
}

/// The game is over: who won, and how to play on.
pub fn over(game: &AnyGame) -> String {
    let won = match game.turn() {
        Turn::Over(Some(w)) => format!(" ({w} won)"),
        Turn::Over(None) => " (drawn)".into(),
        _ => String::new(),
    };
    format!(r#"the game is over{won}; send {{"cmd":"new"}} or {{"cmd":"set"}} to play on"#)
}

/// Why a new game could not be made, with where to look.
pub fn new_game_error(e: SessionError) -> String {
    match e {
        SessionError::Rules(SpecError::UnknownRuleSet(id)) => {
            format!(r#"unknown rule set "{id}"; use one of: {} (or send "rules_toml")"#, all_ids().join(", "))
        }
        e => format!(r#"{e} (send {{"cmd":"rules"}} to list rule sets and options)"#),
    }
}

/// Every built-in rule-set id, of every family.
fn all_ids() -> Vec<String> {
    let races = RuleSetFile::all_builtin().into_iter().map(|f| f.id);
    races.chain(family_rule_sets().into_iter().map(|s| s.id.to_string())).collect()
}

/// The reply to `rules`: every built-in rule set of every family, with its options.
pub fn catalogue() -> Map<String, Value> {
    let races = RuleSetFile::all_builtin().iter().map(rule_set_json).collect::<Vec<_>>();
    let others = family_rule_sets().iter().map(family_set_json).collect::<Vec<_>>();
    one("rules", Value::Array(races.into_iter().chain(others).collect()))
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

fn rule_set_json(file: &RuleSetFile) -> Value {
    let rules = match Rules::from_file(file, &Options::new()) {
        Ok(r) => r,
        Err(e) => return json!({"id": file.id, "name": file.name, "family": Family::Race, "error": e.to_string()}),
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
        "id": file.id, "name": file.name, "family": Family::Race, "summary": rules.spec.summary, "sides": rules.spec.sides,
        "source": rules.spec.source, "pieces": rules.pieces(), "path_length": rules.path_len(), "dice": dice.name(), "throws": throws,
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
