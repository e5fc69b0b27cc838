//! The tower family (`ravensburg-1977`, `vizier-4-pyramids`, `guard-d6`):
//! `tests/cases/tower/<rule-set id>.cases.toml` holds cases derived from
//! docs/rules/README.md#tower-model and the rule set's page, one or more per rule
//! clause, DECISION and OPEN item.
//!
//! Case format (keys of one `[[case]]` table; everything but `clause` is optional):
//!
//! * `clause`: the rule the case checks, e.g. `"T3 / D62 only the top token moves"`.
//! * `options`: rule-set options, e.g. `{ optional_drop_prisoners = false }`.
//! * `options_error = true`: the options must be refused; nothing else is checked.
//! * `path_cells = { light = [[r, c], ...], dark = [...] }`: the cell of every
//!   path position 1..=14, per side (§1.3, D29).
//! * `outcomes = [[raw, "p"], ...]`: the dice's raw outcomes with exact probabilities.
//! * `rolloff = [light raw, dark raw]`, `first = "light" | "dark" | "tie"`.
//! * `position = { to_move, stacks = { M3 = "dL", ... }, reserve = [l, d],
//!   eliminated = [l, d], quiet = n }`: the start of the case (default: the
//!   start of a game, light to roll). Squares: A1-A6 light's private squares
//!   (A5 refuge, A6 final), B1-B6 dark's, M1-M8 the shared strip; stacks are
//!   letters bottom to top: `l`/`d` plain light/dark, `L`/`D` promoted.
//!   `reserve` defaults to the tokens not on the board or eliminated.
//! * `position_error = true`: the position must be refused.
//! * `steps = [ {...}, ... ]`: steps in order; the case's own step keys form a
//!   first step played before `steps`.
//!
//! Step keys, applied in this order:
//!
//! * `raw = k`: the throw (`roll_error = true`: it must be refused).
//! * `legal = ["7->10 +1", ...]`: exactly the open actions (their text);
//!   `must`, `must_not`: actions that must / must not be open.
//! * `passed = true`: the throw allowed nothing and the turn passed.
//! * `play = "7->10"` (or `"reroll"`, `"move5"`; `play_error = true`: refused,
//!   the game unchanged).
//! * `after = { stacks, reserve, eliminated, turn = "roll light" | "decide dark"
//!   | "over light" | "over draw", end = "capture" | "expulsion" |
//!   "no_progress" | "repetition", quiet = n }`: the state after the step;
//!   `stacks` is the exact set of non-empty squares.
//!
//! Coverage: each file has at least 15 cases and names every DECISION/OPEN
//! item of its section, and the files together name every §1.6 item (T1-T10).

use std::collections::BTreeMap;

use serde::Deserialize;
use ur_rules::tower::{cell, square, TowerGame, TowerRules, TowerSetup, TOWER_IDS};
use ur_rules::{Cell, Options, Playable, Turn};

use crate::runner::{self, open_problems, roll_problem, Family, PathCells};

pub struct Tower;

/// The case keys of a tower case (besides the runner's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TowerCase {
    path_cells: Option<PathCells>,
    outcomes: Option<Vec<(u8, String)>>,
    rolloff: Option<[u8; 2]>,
    first: Option<String>,
    position: Option<TowerSetup>,
}

impl Family for Tower {
    const FOLDER: &'static str = "tower";
    const CASE_KEYS: &'static [&'static str] = &["path_cells", "outcomes", "rolloff", "first", "position"];
    const RULE_SETS: &'static [&'static str] = &TOWER_IDS;
    const MIN_CASES: usize = 15;
    /// The §1.6 items.
    const SHARED_TAGS: &'static [&'static str] = &["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10"];

    type Case = TowerCase;
    type Step = Step;
    type Rules = TowerRules;
    type Game = TowerGame;

    fn required_tags(id: &str) -> Vec<&'static str> {
        match id {
            "ravensburg-1977" => vec!["D28", "D29", "D30", "D31", "D32", "D33", "D62", "O03", "O04"],
            "vizier-4-pyramids" => vec!["D33", "D43", "D44", "D45", "D46", "D47", "D48", "D62", "D65", "O04"],
            "guard-d6" => vec!["D33", "D56", "D57", "D58", "D59", "D60", "D61", "D62", "O04"],
            _ => vec![],
        }
    }

    fn rules(id: &str, options: &Options) -> Result<TowerRules, String> {
        TowerRules::new(id, options).map_err(|e| e.to_string())
    }

    fn game(rules: &TowerRules, case: &TowerCase) -> Result<TowerGame, String> {
        TowerGame::from_position(*rules, &case.position.clone().unwrap_or_default()).map_err(|e| e.to_string())
    }

    fn check_start(rules: &TowerRules, game: &TowerGame, case: &TowerCase, errs: &mut Vec<String>) -> Result<(), String> {
        if let Some(pc) = &case.path_cells {
            pc.problems(|side| (1..=14).map(|p| <[u8; 2]>::from(cell(square(side, p)))).collect(), errs);
        }
        if let Some(want) = &case.outcomes {
            let got = game.outcomes();
            let ok = got.len() == want.len()
                && want.iter().zip(&got).all(|((r, p), (gr, gp))| r == gr && fraction(p).is_some_and(|p| (p - gp).abs() < 1e-12));
            if !ok {
                return Err(format!("outcomes: expected {want:?}, got {got:?}"));
            }
        }
        if let (Some([l, d]), Some(first)) = (case.rolloff, &case.first) {
            let got = rules.rolloff(l, d).map_or("tie".to_string(), |s| s.to_string());
            if got != *first {
                return Err(format!("roll-off {l} vs {d}: expected {first}, got {got}"));
            }
        }
        Ok(())
    }

    fn step(_: &TowerRules, game: &mut TowerGame, step: &Step, _: &mut Vec<String>) -> Result<(), String> {
        run_step(game, step)
    }
}

runner::family_tests!(Tower, every_tower_case_holds, every_item_is_named_by_a_case);

#[test]
fn cells_are_cells() {
    // The runner reads cells as [row, col]; make sure the conversion agrees.
    assert_eq!(<[u8; 2]>::from(Cell { row: 2, col: 3 }), [2, 3]);
}

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct After {
    stacks: Option<BTreeMap<String, String>>,
    reserve: Option<[u8; 2]>,
    eliminated: Option<[u8; 2]>,
    turn: Option<String>,
    end: Option<String>,
    quiet: Option<u32>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct Step {
    raw: Option<u8>,
    #[serde(default)]
    roll_error: bool,
    legal: Option<Vec<String>>,
    #[serde(default)]
    must: Vec<String>,
    #[serde(default)]
    must_not: Vec<String>,
    passed: Option<bool>,
    play: Option<String>,
    #[serde(default)]
    play_error: bool,
    after: Option<After>,
}

fn fraction(text: &str) -> Option<f64> {
    let (n, d) = text.split_once('/')?;
    Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?)
}

fn turn_text(t: Turn) -> String {
    match t {
        Turn::Roll(s) => format!("roll {s}"),
        Turn::Decide(s) => format!("decide {s}"),
        Turn::Over(Some(s)) => format!("over {s}"),
        Turn::Over(None) => "over draw".into(),
    }
}

fn open_texts(g: &TowerGame) -> Vec<String> {
    g.actions().iter().map(ToString::to_string).collect()
}

/// Runs one step; returns the first failure.
fn run_step(g: &mut TowerGame, st: &Step) -> Result<(), String> {
    if let Some(raw) = st.raw {
        let before = g.snapshot();
        roll_problem(raw, g.roll(raw), st.roll_error)?;
        if st.roll_error && g.snapshot() != before {
            return Err("a refused roll changed the game".into());
        }
    }
    let open = open_texts(g);
    if let Some(problem) = open_problems(&open, st.legal.as_deref(), &st.must, &st.must_not).into_iter().next() {
        return Err(format!("{problem}\n{g}"));
    }
    if let Some(p) = st.passed {
        let passed = !matches!(g.turn(), Turn::Decide(_));
        if passed != p {
            return Err(format!("passed: expected {p}, got {passed} ({:?})", g.turn()));
        }
    }
    if let Some(text) = &st.play {
        play(g, text, st.play_error)?;
    }
    match &st.after {
        Some(a) => check_after(g, a),
        None => Ok(()),
    }
}

fn play(g: &mut TowerGame, text: &str, must_fail: bool) -> Result<(), String> {
    let found = g.actions().into_iter().find(|a| a.to_string() == text);
    match (found, must_fail) {
        (Some(a), false) => g.apply(&a).map_err(|e| format!("{text} refused: {e}")),
        (None, false) => Err(format!("{text} is not open; open: {:?}\n{g}", open_texts(g))),
        (Some(_), true) => Err(format!("{text} is open, should be refused")),
        (None, true) => Ok(()),
    }
}

fn check_after(g: &TowerGame, a: &After) -> Result<(), String> {
    let s = g.to_setup();
    let mut errs = Vec::new();
    if let Some(want) = &a.stacks {
        if *want != s.stacks {
            errs.push(format!("stacks: expected {want:?}, got {:?}", s.stacks));
        }
    }
    if let Some(r) = a.reserve.filter(|r| Some(*r) != s.reserve) {
        errs.push(format!("reserve: expected {r:?}, got {:?}", s.reserve));
    }
    if let Some(e) = a.eliminated.filter(|e| *e != s.eliminated) {
        errs.push(format!("eliminated: expected {e:?}, got {:?}", s.eliminated));
    }
    if let Some(t) = a.turn.as_ref().filter(|t| **t != turn_text(g.turn())) {
        errs.push(format!("turn: expected {t}, got {}", turn_text(g.turn())));
    }
    let end = g.end_reason().map(|e| serde_json::to_value(e).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default());
    if let Some(e) = a.end.as_ref().filter(|e| Some(*e) != end.as_ref()) {
        errs.push(format!("end: expected {e}, got {end:?}"));
    }
    if let Some(q) = a.quiet.filter(|q| *q != g.quiet_turns()) {
        errs.push(format!("quiet turns: expected {q}, got {}", g.quiet_turns()));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{g}", errs.join("; ")))
    }
}
