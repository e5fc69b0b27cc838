//! Inputs the fuzz targets `json_record` and `rgn` (fuzz/, docs/fuzzing.md)
//! found, kept in `tests/fuzz-regressions/TARGET/`: each must now give the
//! clean error, or the round trip, named here.

use std::path::PathBuf;

use ur_session::records::{read_game, replay};
use ur_session::rgn::{format_game, parse_games, read_games, write_game};

fn input(name: &str) -> String {
    let target = if name.ends_with(".rgn") { "rgn" } else { "json_record" };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fuzz-regressions").join(target).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The error reading and replaying the input gives.
fn refusal(name: &str) -> String {
    let text = input(name);
    let saved = match read_game(name, &text) {
        Ok(s) => s,
        Err(e) => return e.to_string(),
    };
    match replay(name, &saved) {
        Ok(_) => panic!("{name} replays; it must be refused"),
        Err(e) => e.to_string(),
    }
}

/// A field an action does not have (here with a number JSON cannot write
/// back the same) was ignored, so the record replayed but did not read
/// back equal; a misspelt `carry` would have been taken as 0.
#[test]
fn an_unknown_field_in_an_action_is_refused_by_name() {
    let e = refusal("tower-move-unknown-field.json");
    assert!(e.contains("step 1") && e.contains("unknown field ``"), "{e}");
}

#[test]
fn misspelt_action_fields_are_refused_in_every_family() {
    let cases = [
        (r#"{"version":1,"rules":"finkel","first":"light","actions":[{"roll":2},{"move":{"from":0,"to":2,"peice":1}}]}"#, "peice"),
        (
            r#"{"version":2,"rules":"ravensburg-1977","family":"tower","first":"light","steps":[{"roll":4},{"act":{"stack_move":{"from":0,"to":4,"cary":0}}}]}"#,
            "cary",
        ),
        (
            r#"{"version":2,"rules":"bens-ur","family":"bens","first":"light","steps":[{"roll":1},{"act":{"kind":"move","from":0,"to":1,"x":1}}]}"#,
            "`x`",
        ),
        (
            r#"{"version":2,"rules":"ludens-akalandung","family":"bens","first":"light","steps":[{"roll":1},{"act":{"kind":"move","from":0,"to":1,"warior":true}}]}"#,
            "warior",
        ),
    ];
    for (text, field) in cases {
        let e = match read_game("g.json", text) {
            Err(e) => e.to_string(),
            Ok(saved) => replay("g.json", &saved).err().map(|e| e.to_string()).unwrap_or_default(),
        };
        assert!(e.contains("unknown field") && e.contains(field), "{text}: {e}");
    }
}

/// An action token starting with `[` was taken as a move; written back it
/// could start a line and read as a tag.
#[test]
fn an_rgn_action_that_looks_like_a_tag_is_refused() {
    let text = input("action-starting-a-tag.rgn");
    let e = parse_games(&text).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("line 1") && e.contains("is not an action") && e.contains("[Key Value]"), "{e}");
    for token in ["[Rules", "---"] {
        let e = parse_games(&format!("1. {token}")).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("is not an action"), "{token}: {e}");
    }
}

/// A game with no moves under the default rules was written as nothing,
/// which reads back as no game at all.
#[test]
fn an_rgn_game_without_moves_writes_back_as_a_game() {
    let text = input("empty-game-writes-nothing.rgn");
    let records = read_games(&text, Some("finkel")).unwrap();
    assert_eq!(records.len(), 1);
    let written = write_game(&records[0], Some("finkel")).unwrap();
    assert!(written.contains("[Rules"), "{written:?}");
    assert_eq!(read_games(&written, Some("finkel")).unwrap(), records);
    let games = parse_games(&written).unwrap();
    assert_eq!(parse_games(&format_game(&games[0])).unwrap().len(), 1);
}
