//! Prints the starting `GameView` of every built-in rule set as JSON, one
//! object keyed by rule-set id: sample data for the board page
//! (`crates/ur-web/assets/board-preview.html`).
//!
//! `cargo run -p ur-session --example views [ID ...] [--roll]`: only the
//! rule sets named; with `--roll`, each game after its first throws up to a
//! decision (seeded dice), so the view has dice and actions.

use serde_json::{Map, Value};
use ur_rules::{family_rule_sets, spec::BUILTIN, Playable, Turn};
use ur_session::view::game_view;
use ur_session::{NewGame, NoTables, Session};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let roll = args.iter().any(|a| a == "--roll");
    let wanted: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let ids = BUILTIN.iter().map(|(id, _)| id.to_string()).chain(family_rule_sets().into_iter().map(|s| s.id.to_string()));
    let mut out = Map::new();
    for id in ids.filter(|id| wanted.is_empty() || wanted.contains(&id)) {
        let mut session = Session::new(&NewGame::builtin(&id), &NoTables).expect("built-in rule sets start");
        if roll {
            session.seed_dice(1);
            for _ in 0..50 {
                if !matches!(session.game().turn(), Turn::Roll(_)) {
                    break;
                }
                session.roll_dice().expect("a roll turn takes a roll");
            }
        }
        out.insert(id, serde_json::to_value(game_view(&session)).expect("views serialise"));
    }
    println!("{}", serde_json::to_string_pretty(&Value::Object(out)).expect("JSON prints"));
}
