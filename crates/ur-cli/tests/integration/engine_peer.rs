//! Differential test through the protocol: every turn of the peer library's
//! games (tests/peers/README.md), replayed through one `ur engine` process,
//! gives the peer's player, legal moves and winner.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::Stdio;

use serde_json::{json, Value};

use crate::common;
#[path = "../../../ur-rules/tests/support/peers.rs"]
mod peers;
use peers::{peer_games, PeerGame};

/// Every request line of a game: `new`, then per turn `roll` and any `play`.
fn requests(game: &PeerGame) -> String {
    let mut out = json!({"cmd": "new", "rules": game.rules, "first": "light"}).to_string() + "\n";
    for t in &game.turns {
        out += &format!("{{\"cmd\":\"roll\",\"value\":{}}}\n", t.roll);
        if let Some([from, to]) = t.mv {
            out += &format!("{{\"cmd\":\"play\",\"from\":{from},\"to\":{to}}}\n");
        }
    }
    out
}

fn next(replies: &mut impl Iterator<Item = std::io::Result<String>>, at: &str) -> Value {
    let line = replies.next().unwrap_or_else(|| panic!("{at}: the engine stopped")).unwrap();
    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{at}: {e}: {line}"));
    assert_eq!(v["ok"], true, "{at}: {v}");
    v
}

fn sorted_pairs(legal: &Value) -> Vec<[u8; 2]> {
    let mut pairs: Vec<[u8; 2]> = legal
        .as_array()
        .expect("legal is a list")
        .iter()
        .map(|m| [m["from"].as_u64().unwrap() as u8, m["to"].as_u64().unwrap() as u8])
        .collect();
    pairs.sort_unstable();
    pairs
}

#[test]
fn every_peer_turn_matches_through_the_engine() {
    let games = peer_games();
    assert_eq!(games.len(), 600);
    let mut child = common::ur_command().arg("engine").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("ur starts");
    let input: Vec<String> = games.iter().map(requests).collect();
    let stdin = child.stdin.take().unwrap();
    // A writer thread keeps both pipes moving: the replies outgrow a pipe buffer.
    let writer = std::thread::spawn(move || {
        let mut w = BufWriter::new(stdin);
        for game in input {
            w.write_all(game.as_bytes()).unwrap();
        }
        w.write_all(b"{\"cmd\":\"quit\"}\n").unwrap();
    });
    let mut replies = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut turns = 0;
    for (gi, pg) in games.iter().enumerate() {
        next(&mut replies, &format!("game {gi}: new"));
        let mut last = Value::Null;
        for (ti, t) in pg.turns.iter().enumerate() {
            let at = format!("game {gi} ({}) turn {ti}", pg.rules);
            let roll = next(&mut replies, &at);
            assert_eq!(roll["player"], t.player.name(), "{at}: player");
            assert_eq!(sorted_pairs(&roll["legal"]), t.legal, "{at}: legal moves");
            last = if t.mv.is_some() { next(&mut replies, &at) } else { roll };
            turns += 1;
        }
        assert_eq!(last["winner"], pg.winner.name(), "game {gi}: winner");
    }
    next(&mut replies, "quit");
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert!(turns > 90_000, "{turns} turns replayed");
}
