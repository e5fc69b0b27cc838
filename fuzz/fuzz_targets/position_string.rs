//! Position strings (`ur_rules::position_text`, docs/positions.md), read as
//! `ur eval`, `ur play --from`, the engine's `set` and the browser app's
//! address bar read them: `AnyGame::set_position_string`.
//!
//! The input: a first line `RULES [NAME=VALUE...]` naming a built-in rule
//! set, then the string.
//!
//! Properties: a refusal has words and leaves the game unchanged; a string
//! that reads gives a game whose own string reads back to the same
//! position, turn and open actions, and writes the same string again; the
//! game then plays on legally.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ur_rules::{AnyGame, OptionValue, Options, Playable, Side};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some((header, string)) = text.split_once('\n') else { return };
    let mut words = header.split_whitespace();
    let Some(id) = words.next() else { return };
    let mut options = Options::new();
    for pair in words {
        let Some((k, v)) = pair.split_once('=') else { return };
        options.insert(k.into(), OptionValue::parse(v));
    }
    let Ok(fresh) = AnyGame::new(id, &options, Side::Light) else { return };
    let mut game = fresh.clone();
    if let Err(e) = game.set_position_string(string) {
        assert!(!e.to_string().trim().is_empty(), "a refusal without words for {string:?}");
        assert_eq!(game.position_json(), fresh.position_json(), "a refused string changed the game");
        return;
    }
    let written = game.position_string();
    let mut again = fresh.clone();
    again.set_position_string(&written).unwrap_or_else(|e| panic!("{string:?} reads, but its string {written:?} does not: {e}"));
    assert_eq!(again.position_json(), game.position_json(), "{string:?} -> {written:?} reads elsewhere");
    assert_eq!(again.turn(), game.turn(), "{string:?} -> {written:?}");
    assert_eq!(again.actions(), game.actions(), "{string:?} -> {written:?}");
    assert_eq!(again.position_string(), written, "{string:?}: the string is not written the same twice");
    ur_fuzz::play_random(&mut game, data.len() as u64, 200);
});
