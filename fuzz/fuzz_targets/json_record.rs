//! Game records as `ur replay`, `ur play --resume` and `ur review` read
//! them (`crates/ur-cli/src/files.rs` → `ur_session::records::read_game`):
//! version 1 race records and version 2 records of every family.
//!
//! Properties: a record that replays writes back to JSON that reads back
//! equal and replays to the same position; resumed in a `Session` and played
//! on a few random steps, the session's record replays to where it stands.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ur_rules::{AnyGame, Playable, Turn};
use ur_session::records::{read_game, replay, SavedGame};
use ur_session::session::NoTables;
use ur_session::Session;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(saved) = read_game("fuzz.json", text) else { return };
    let Ok(replayed) = replay("fuzz.json", &saved) else { return };
    let again = write_and_read(&saved);
    let game = replay("again.json", &again).unwrap_or_else(|e| panic!("a record that replayed no longer does: {e}")).game;
    same_place(&game, &replayed.game);

    let mut session = Session::resume(&saved, &NoTables).unwrap_or_else(|e| panic!("a record that replays does not resume: {e}"));
    same_place(session.game(), &replayed.game);
    session.seed_dice(data.len() as u64);
    for _ in 0..40 {
        match session.game().turn() {
            Turn::Over(_) => break,
            Turn::Roll(_) => {
                session.roll_dice().unwrap_or_else(|e| panic!("a roll refused at a roll: {e}"));
            }
            Turn::Decide(_) => {
                let actions = session.game().actions();
                let action = actions[data.len() % actions.len()].clone();
                session.act(&action).unwrap_or_else(|e| panic!("open action {action} refused: {e}"));
            }
        }
    }
    let record = write_and_read(&session.record());
    let resumed = replay("resumed.json", &record).unwrap_or_else(|e| panic!("a resumed game's record does not replay: {e}")).game;
    same_place(&resumed, session.game());
});

/// `saved` written as JSON and read back, which must give it again.
fn write_and_read(saved: &SavedGame) -> SavedGame {
    let json = serde_json::to_string(saved).expect("records serialise");
    let back = read_game("again.json", &json).unwrap_or_else(|e| panic!("a written record does not read: {e}\n{json}"));
    assert_eq!(&back, saved, "a record reads back different from {json}");
    back
}

fn same_place(a: &AnyGame, b: &AnyGame) {
    assert_eq!(a.position_json(), b.position_json());
    assert_eq!(a.turn(), b.turn());
    assert_eq!(a.actions(), b.actions());
}
