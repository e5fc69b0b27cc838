//! The marker family (`bens-ur`, `ludens-akalandung`):
//! `tests/cases/marker/<rule-set id>.cases.toml` holds cases derived from
//! docs/rules/bens-ur.md and docs/rules/ludens-akalandung.md, one or more per
//! rule clause, DECISION and OPEN item. Games are played through `AnyGame`
//! (the `Playable` interface); positions are checked against the game's JSON
//! snapshot (`position_json`).
//!
//! Case format (keys of one `[[case]]` table; everything but `clause` is optional):
//!
//! * `clause`: the rule the case checks, e.g. `"D17 jump to any available square"`.
//! * `options`: rule-set options, e.g. `{ dice = "BIN4" }`; `options_error = true`:
//!   the options must be refused (nothing else is checked).
//! * `position`: the game's setup (`bens-ur`: `{ to_move, light = { home, off,
//!   blank = [..], dotted = [..] }, dark = {..} }`; `ludens-akalandung`:
//!   `{ to_move, light = { reserve, off, path = [..], twins = [..], warriors =
//!   [..] }, dark = {..}, oracle = "light" }`); `home`/`reserve` default to the
//!   markers not placed. Without it the game starts from the beginning, `first`
//!   (default light) to move. `position_error = true`: the setup must be refused.
//! * `path_cells = { light = [[r, c], ...], dark = [...] }`: the cell of every
//!   path position (`bens-ur`).
//! * `steps = [ {...}, ... ]`: steps in order; the case's own step keys form a
//!   first step played before `steps`.
//!
//! Step keys, applied in this order:
//!
//! * `raw = k`: the roll (`roll_error = true`: it must be refused).
//! * `legal = ["3->7", "jump 0->4", ...]`: the exact set of open actions (by
//!   their text); `must`, `must_not`: actions that must / must not be open
//!   (a `must_not` action is also applied and must be refused, the game unchanged).
//! * `play = "3->7"`: an open action, by its text.
//! * `after = {...}`: a subset of the JSON snapshot after the step (arrays are
//!   compared as multisets), e.g. `{ turn = "roll dark", free_turn = true,
//!   light = { dotted = [13] } }`. `turn` is `roll S`, `decide S`, `over S`
//!   (S won), `start-roll S`, `start-jump S`, `extra-roll S`. TOML has no
//!   null: write `"__null__"` for it (e.g. `oracle = "__null__"`).
//! * `text = ["..."]`: strings the board text must contain.
//!
//! Coverage: each file has at least 10 cases, and every DECISION and OPEN item
//! of the two sections is named by some case's clause.

use serde::Deserialize;
use serde_json::Value;
use ur_rules::marker::akalandung::{AkalandungGame, AkalandungSetup};
use ur_rules::marker::bens::{BensGame, BensSetup};
use ur_rules::{AnyGame, Options, Playable, Side};

use crate::runner::{self, open_problems, roll_problem, Family, PathCells};

pub struct Marker;

/// The case keys of a marker case (besides the runner's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerCase {
    position: Option<toml::Value>,
    first: Option<Side>,
    path_cells: Option<PathCells>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Step {
    raw: Option<u8>,
    #[serde(default)]
    roll_error: bool,
    legal: Option<Vec<String>>,
    must: Option<Vec<String>>,
    must_not: Option<Vec<String>>,
    play: Option<String>,
    after: Option<toml::Value>,
    text: Option<Vec<String>>,
}

impl Family for Marker {
    const FOLDER: &'static str = "marker";
    const CASE_KEYS: &'static [&'static str] = &["position", "first", "path_cells"];
    const RULE_SETS: &'static [&'static str] = &["bens-ur", "ludens-akalandung"];
    const MIN_CASES: usize = 10;

    type Case = MarkerCase;
    type Step = Step;
    /// The rule-set id and its options, once `AnyGame` accepted them.
    type Rules = (String, Options);
    type Game = AnyGame;

    fn required_tags(id: &str) -> Vec<&'static str> {
        match id {
            "bens-ur" => vec!["D01", "D13", "D14", "D15", "D16", "D17", "D18", "D19", "D20", "D21", "D22", "D63", "O02", "§1.3"],
            "ludens-akalandung" => vec!["D01", "D34", "D35", "D36", "D37", "D38", "D39", "D40", "D41", "D42", "D64"],
            _ => vec![],
        }
    }

    fn rules(id: &str, options: &Options) -> Result<(String, Options), String> {
        AnyGame::new(id, options, Side::Light).map_err(|e| e.to_string())?;
        Ok((id.to_owned(), options.clone()))
    }

    fn game((id, options): &(String, Options), case: &MarkerCase) -> Result<AnyGame, String> {
        let Some(p) = &case.position else {
            return AnyGame::new(id, options, case.first.unwrap_or(Side::Light)).map_err(|e| e.to_string());
        };
        let p = json_of(p)?;
        match id.as_str() {
            "bens-ur" => {
                let s: BensSetup = serde_json::from_value(p).map_err(|e| format!("bad position: {e}"))?;
                BensGame::from_position(options, &s).map(AnyGame::Bens).map_err(|e| e.to_string())
            }
            "ludens-akalandung" => {
                let s: AkalandungSetup = serde_json::from_value(p).map_err(|e| format!("bad position: {e}"))?;
                AkalandungGame::from_position(options, &s).map(AnyGame::Akalandung).map_err(|e| e.to_string())
            }
            other => Err(format!("no setup format for '{other}'")),
        }
    }

    fn check_start(_: &(String, Options), game: &AnyGame, case: &MarkerCase, errs: &mut Vec<String>) -> Result<(), String> {
        if let Some(cells) = &case.path_cells {
            let AnyGame::Bens(g) = game else { return Err("path_cells is for bens-ur".into()) };
            cells.problems(|side| (1..=23).filter_map(|p| g.path_cell(side, p)).map(Into::into).collect(), errs);
        }
        Ok(())
    }

    fn step(_: &(String, Options), game: &mut AnyGame, step: &Step, errs: &mut Vec<String>) -> Result<(), String> {
        if let Some(raw) = step.raw.filter(|_| !step.roll_error) {
            // Refusals are checked on the position the throw leads to.
            let mut rolled = game.clone();
            if rolled.roll(raw).is_ok() {
                check_refusals(&rolled, step, errs);
            }
        }
        run_step(game, step, errs)
    }
}

runner::family_tests!(Marker, every_marker_case_holds, every_decision_and_open_item_is_named_by_a_case);

fn json_of(v: &toml::Value) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// Where `got` differs from the subset `want` (arrays as multisets).
fn differences(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), _) => {
            for (k, wv) in w {
                differences(&format!("{path}.{k}"), wv, got.get(k).unwrap_or(&Value::Null), out);
            }
        }
        (Value::Array(w), Value::Array(g)) => {
            let key = |v: &Value| v.to_string();
            let (mut w, mut g): (Vec<String>, Vec<String>) = (w.iter().map(key).collect(), g.iter().map(key).collect());
            w.sort();
            g.sort();
            if w != g {
                out.push(format!("{path} is [{}], expected [{}]", g.join(", "), w.join(", ")));
            }
        }
        (Value::String(w), Value::Null) if w == "__null__" => {}
        _ if want == got => {}
        _ => out.push(format!("{path} is {got}, expected {want}")),
    }
}

fn open_texts(game: &AnyGame) -> Vec<String> {
    game.actions().iter().map(ToString::to_string).collect()
}

fn run_step(game: &mut AnyGame, step: &Step, errs: &mut Vec<String>) -> Result<(), String> {
    if let Some(raw) = step.raw {
        if let Err(e) = roll_problem(raw, game.roll(raw), step.roll_error) {
            if step.roll_error {
                errs.push(e);
            } else {
                return Err(e);
            }
        }
    }
    let open = open_texts(game);
    let list = |v: &Option<Vec<String>>| v.clone().unwrap_or_default();
    errs.extend(open_problems(&open, step.legal.as_deref(), &list(&step.must), &list(&step.must_not)));
    if let Some(p) = &step.play {
        let action = game.action_from_text(p).map_err(|e| format!("play '{p}': {e}"))?;
        game.apply(&action).map_err(|e| format!("play '{p}' refused: {e}"))?;
    }
    if let Some(after) = &step.after {
        let mut diffs = Vec::new();
        differences("", &json_of(after)?, &game.position_json(), &mut diffs);
        errs.extend(diffs.into_iter().map(|d| format!("after: {d}")));
    }
    for t in step.text.iter().flatten() {
        let board = game.board_text();
        if !board.contains(t.as_str()) {
            errs.push(format!("board text lacks '{t}':\n{board}"));
        }
    }
    Ok(())
}

/// Applies each `must_not` action as JSON built from the open actions' family
/// and checks it is refused with the game unchanged.
fn check_refusals(game: &AnyGame, step: &Step, errs: &mut Vec<String>) {
    for m in step.must_not.iter().flatten() {
        let Some(action) = parse_text(game, m) else { continue };
        let before = game.position_json();
        let mut probe = game.clone();
        if probe.apply(&action).is_ok() || probe.position_json() != before {
            errs.push(format!("'{m}' was accepted or changed the game"));
        }
    }
}

/// Reads an action's text without requiring it to be open.
fn parse_text(game: &AnyGame, text: &str) -> Option<ur_rules::AnyAction> {
    let (kind, rest) = match text.split_once(' ') {
        Some((k, r)) if !k.contains("->") => (k, r),
        _ => ("move", text),
    };
    let (from, to) = rest.split_once("->").map_or((None, None), |(a, b)| (a.parse::<u8>().ok(), b.parse::<u8>().ok()));
    let mut json = serde_json::json!({ "kind": kind });
    if kind == "warrior" {
        json = serde_json::json!({ "kind": "move", "warrior": true });
    }
    if let (Some(f), Some(t)) = (from, to) {
        json["from"] = f.into();
        json["to"] = t.into();
    }
    game.action_from_json(&json).ok()
}
