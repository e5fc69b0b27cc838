//! RGN, RoyalUr's game notation (`ur_session::rgn`, docs/rgn.md), as `ur
//! convert` reads it: the syntax (`parse_games`) and the games' meaning
//! (`read_games`, replaying each under its rules).
//!
//! Properties: a refusal has words; every game that parses, written back
//! with `format_game`, parses to the same tags, actions and end; every game
//! that reads as a record replays, and written back with `write_game` reads
//! to an equal record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ur_session::records::replay;
use ur_session::rgn::{format_game, parse_games, read_games, write_game, RgnGame};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let games = match parse_games(text) {
        Ok(g) => g,
        Err(e) => {
            assert!(!e.to_string().trim().is_empty(), "a refusal without words");
            return;
        }
    };
    for game in &games {
        let written = format_game(game);
        let back = parse_games(&written).unwrap_or_else(|e| panic!("a parsed game, written back, does not parse: {e}\n{written}"));
        assert_eq!(back.len(), 1, "one game written back reads as {} games:\n{written}", back.len());
        assert_eq!(placeless(&back[0]), placeless(game), "a game written back parses differently:\n{written}");
    }
    let Ok(records) = read_games(text, Some("finkel")) else { return };
    for saved in &records {
        replay("rgn", saved).unwrap_or_else(|e| panic!("a record read from RGN does not replay: {e}"));
        let written = write_game(saved, Some("finkel")).unwrap_or_else(|e| panic!("a record read from RGN does not write: {e}"));
        let back = read_games(&written, Some("finkel")).unwrap_or_else(|e| panic!("written RGN does not read: {e}\n{written}"));
        assert_eq!(back.as_slice(), std::slice::from_ref(saved), "written RGN reads as another record:\n{written}");
    }
});

/// The game without where it was read (lines and columns).
fn placeless(game: &RgnGame) -> RgnGame {
    let mut g = game.clone();
    g.line = 0;
    g.tags.iter_mut().for_each(|t| t.line = 0);
    g.items.iter_mut().for_each(|i| (i.line, i.column) = (0, 0));
    g
}
