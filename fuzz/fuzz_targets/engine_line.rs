//! `ur engine`'s request handler (`ur_cli::engine::Engine::handle`), fed
//! the input's lines one by one as the process feeds stdin's.
//!
//! Properties: every reply is a JSON object with a boolean `ok`, an `error`
//! in words when not ok, and the request's `id` echoed; at the end, the
//! game's `record` replays (as `ur replay` reads it) to the position `show`
//! gives.
//!
//! Searches the user sizes (`bestmove` with a deep bot, `hint` and `review`
//! deeper than 2) take as long as asked by design; such a request is sent
//! with a cheap bot or depth 2 instead, so that the fuzzer spends its time
//! on the protocol rather than on searching.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use ur_cli::engine::Engine;
use ur_session::records::{read_game, replay};

/// Lines per input: enough for a game's opening and every command.
const MAX_LINES: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut engine = Engine::default();
    let mut searches = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(MAX_LINES) {
        let line = cheapen(line, &mut searches);
        let reply = engine.handle(&line);
        check_reply(&line, &reply);
    }
    let record = engine.handle(r#"{"cmd":"record"}"#);
    if record["ok"] == true {
        let show = engine.handle(r#"{"cmd":"show"}"#);
        let text = record["record"].to_string();
        let saved = read_game("record.json", &text).unwrap_or_else(|e| panic!("the engine's record does not read: {e}\n{text}"));
        let game = replay("record.json", &saved).unwrap_or_else(|e| panic!("the engine's record does not replay: {e}\n{text}")).game;
        assert_eq!(game.position_json(), show["position"], "the record replays elsewhere than `show`");
    }
});

fn check_reply(line: &str, reply: &Value) {
    let obj = reply.as_object().unwrap_or_else(|| panic!("a reply that is not an object: {reply}"));
    let text = reply.to_string();
    assert!(serde_json::from_str::<Value>(&text).is_ok(), "a reply that is not JSON: {text}");
    assert!(!text.contains('\n'), "a reply on several lines: {text}");
    match obj.get("ok") {
        Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => {
            let error = obj.get("error").and_then(Value::as_str).unwrap_or_default();
            assert!(!error.trim().is_empty(), "a refusal without words: {text}");
        }
        _ => panic!("a reply without a boolean ok: {text}"),
    }
    if let Ok(Value::Object(req)) = serde_json::from_str::<Value>(line) {
        if let Some(id) = req.get("id") {
            assert_eq!(obj.get("id"), Some(id), "the id is not echoed: {line} -> {text}");
        }
    }
}

/// The request, with a costly search made cheap; at most four searches
/// per input.
fn cheapen(line: &str, searches: &mut u32) -> String {
    let Ok(Value::Object(mut req)) = serde_json::from_str::<Value>(line) else { return line.to_owned() };
    let cmd = req.get("cmd").and_then(Value::as_str).unwrap_or_default().to_owned();
    if !matches!(cmd.as_str(), "bestmove" | "hint" | "review") {
        return line.to_owned();
    }
    *searches += 1;
    if *searches > 4 {
        return r#"{"cmd":"show"}"#.to_owned();
    }
    if let Some(d) = req.get("depth").and_then(Value::as_u64).filter(|d| *d > 2) {
        req.insert("depth".into(), json!(d.min(2)));
    }
    if cmd == "review" && req.get("depth").is_none() {
        req.insert("depth".into(), json!(1));
    }
    if cmd == "bestmove" {
        let bot = match req.get("bot") {
            None => "level4",
            Some(Value::String(b)) => b.as_str(),
            Some(_) => return Value::Object(req).to_string(),
        };
        let base = bot.trim_start_matches("generic:").split(':').next().unwrap_or_default();
        let costly = match base {
            "mcts" => true,
            "expectimax" => bot.contains("expectimax:"),
            b => b.starts_with("level") && !matches!(b, "level1" | "level2"),
        };
        if costly {
            req.insert("bot".into(), json!("greedy"));
        }
    }
    Value::Object(req).to_string()
}
