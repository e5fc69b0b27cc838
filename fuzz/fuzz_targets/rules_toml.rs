//! The rule-set TOML loader (`--rules-file`, the engine's `rules_toml`, the
//! browser app's uploaded rule set): `RuleSetFile::parse`, then
//! `Rules::from_file` as `ur_session::RulesChoice` does.
//!
//! Properties: a refused file gives an error with words in it; an accepted
//! file compiles with its defaults and with each value of each option (as
//! `parse` promises), starts a game that plays random legal moves, and its
//! game's record (carrying the file's text) reads back and replays to the
//! same position.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use ur_rules::{AnyGame, Game, GameRecord, OptionValue, Options, Playable, RuleSetFile, Rules, Side};
use ur_session::records::{read_game, replay, SavedGame};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let file = match RuleSetFile::parse(text) {
        Ok(f) => f,
        Err(e) => {
            assert!(!e.to_string().trim().is_empty(), "an empty error for {text:?}");
            return;
        }
    };
    let mut variants = vec![Options::new()];
    for opt in &file.options {
        let values: Vec<OptionValue> = if opt.values.is_empty() {
            [opt.min, opt.max].into_iter().flatten().map(OptionValue::Int).collect()
        } else {
            opt.values.keys().map(|k| OptionValue::parse(k)).collect()
        };
        variants.extend(values.into_iter().map(|v| Options::from([(opt.name.clone(), v)])));
    }
    for (i, options) in variants.iter().take(8).enumerate() {
        let rules = Rules::from_file(&file, options).unwrap_or_else(|e| panic!("an accepted file refused with {options:?}: {e}"));
        let first = if i % 2 == 0 { Side::Light } else { Side::Dark };
        let mut game = AnyGame::Race(Game::new(Arc::new(rules), first));
        ur_fuzz::play_random(&mut game, i as u64, 300);
        let AnyGame::Race(race) = &game else { unreachable!() };
        check_record(&GameRecord::of(race, Some(text.to_owned())), &game);
    }
});

/// The game's record, written and read back, replays to where the game is.
fn check_record(record: &GameRecord, game: &AnyGame) {
    let json = serde_json::to_string(record).expect("records serialise");
    let saved = read_game("fuzz.json", &json).unwrap_or_else(|e| panic!("a written record does not read: {e}\n{json}"));
    assert_eq!(saved, SavedGame::Race(record.clone()), "a record reads back different");
    let replayed = replay("fuzz.json", &saved).unwrap_or_else(|e| panic!("a played game's record does not replay: {e}\n{json}"));
    assert_eq!(replayed.game.position_json(), game.position_json());
    assert_eq!(replayed.game.turn(), game.turn());
}
