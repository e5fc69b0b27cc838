//! One `ur engine` process plays a whole game of each of the 17 built-in
//! rule sets through the same command shapes (`new`, `show`, `roll`,
//! `bestmove`, `act`, `set`, `record`), setting mid-game positions back
//! with `set` and checking that `show` gives them back unchanged.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{json, Value};

use crate::common;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = common::ur_command().arg("engine").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("ur starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine { child, stdin, stdout }
    }

    fn ask(&mut self, request: &Value) -> Value {
        writeln!(self.stdin, "{request}").unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    /// Asks and asserts the reply is `ok`.
    fn ok(&mut self, request: Value) -> Value {
        let r = self.ask(&request);
        assert_eq!(r["ok"], true, "{request} -> {r}");
        r
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The parts of a `show` reply that a `set` must give back.
fn standing(show: &Value) -> Value {
    json!([show["rules"], show["family"], show["position"], show["phase"], show["to_move"], show["actions"]])
}

#[test]
fn every_rule_set_plays_to_the_end_through_one_protocol() {
    let mut engine = Engine::start();
    let sets = engine.ok(json!({"cmd": "rules"}))["rules"].as_array().unwrap().clone();
    assert_eq!(sets.len(), 17);
    let mut rng = 7u64;
    for set in &sets {
        let id = set["id"].as_str().unwrap();
        let new = engine.ok(json!({"cmd": "new", "rules": id}));
        assert_eq!((new["rules"].as_str(), &new["family"]), (Some(id), &set["family"]), "{new}");
        let (mut steps, mut sets_done, mut last_mover) = (0, 0, Value::Null);
        loop {
            let show = engine.ok(json!({"cmd": "show"}));
            // A turn's start is a position; a roll within a turn (a re-roll, a summon) is not.
            let turn_starts = show["to_move"] != last_mover;
            last_mover = show["to_move"].clone();
            if turn_starts && steps % 7 == 3 && show["phase"] != "over" {
                engine.ok(json!({"cmd": "set", "position": show["position"]}));
                assert_eq!(standing(&engine.ok(json!({"cmd": "show"}))), standing(&show), "{id}: set then show");
                sets_done += 1;
            }
            match show["phase"].as_str().unwrap() {
                "over" => break,
                "roll" => {
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let outcomes = show["outcomes"].as_array().unwrap();
                    let raw = outcomes[(rng >> 33) as usize % outcomes.len()]["raw"].clone();
                    engine.ok(json!({"cmd": "roll", "raw": raw}));
                }
                _ => {
                    let best = engine.ok(json!({"cmd": "bestmove", "bot": "greedy", "seed": steps}));
                    let acted = engine.ok(json!({"cmd": "act", "action": best["action"]}));
                    assert_eq!(acted["text"], best["text"], "{id}");
                }
            }
            steps += 1;
            assert!(steps < 50_000, "{id} did not end");
        }
        assert!(sets_done >= 2, "{id}: only {sets_done} positions set");
        let record = engine.ok(json!({"cmd": "record"}))["record"].clone();
        assert!(record["version"] == 1 || record["version"] == 2, "{id}: {record}");
        let bad = engine.ask(&json!({"cmd": "act", "text": "nonsense"}));
        assert_eq!(bad["ok"], false, "{id}: {bad}");
    }
}
