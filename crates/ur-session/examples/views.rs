//! Prints the starting `GameView` of every built-in rule set as JSON, one
//! object keyed by rule-set id: sample data for the board page
//! (`crates/ur-web/assets/board-preview.html`).
//!
//! `cargo run -p ur-session --example views [ID ...] [--roll] [--steps N]`:
//! only the rule sets named; with `--steps N`, each game after N steps of
//! seeded play (rolls, and each decision the open action of index
//! `step % count`); with `--roll` (or `--steps`), then thrown up to a
//! decision, so the view has dice, pieces and actions.

use serde_json::{Map, Value};
use ur_rules::{family_rule_sets, spec::BUILTIN, Playable, Turn};
use ur_session::view::game_view;
use ur_session::{NewGame, NoTables, Session};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps: usize = args.iter().position(|a| a == "--steps").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok()).unwrap_or(0);
    let roll = steps > 0 || args.iter().any(|a| a == "--roll");
    let wanted: Vec<&String> = args.iter().filter(|a| !a.starts_with("--") && a.parse::<usize>().is_err()).collect();
    let ids = BUILTIN.iter().map(|(id, _)| id.to_string()).chain(family_rule_sets().into_iter().map(|s| s.id.to_string()));
    let mut out = Map::new();
    for id in ids.filter(|id| wanted.is_empty() || wanted.contains(&id)) {
        let mut session = Session::new(&NewGame::builtin(&id), &NoTables).expect("built-in rule sets start");
        session.seed_dice(1);
        for step in 0..steps {
            match session.game().turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => drop(session.roll_dice().expect("a roll turn takes a roll")),
                Turn::Decide(_) => {
                    let open = session.game().actions();
                    session.act(&open[step % open.len()]).expect("open actions are legal");
                }
            }
        }
        if roll {
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
