//! Data-driven rule tests for the marker games: `tests/rules/bens/<id>.toml`
//! holds cases derived from RULESETS.md §5 (`bens-ur`) and §9
//! (`ludens-akalandung`), one or more per rule clause, DECISION and OPEN item.
//! Games are played through `AnyGame` (the `Playable` interface); positions
//! are checked against the game's JSON snapshot (`position_json`). All
//! failing cases are reported together.
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
//! A second test checks that every DECISION and OPEN item of the two sections
//! is named by some case's clause.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use ur_rules::marker::akalandung::{AkalandungGame, AkalandungSetup};
use ur_rules::marker::bens::{BensGame, BensSetup};
use ur_rules::{AnyGame, OptionValue, Options, Playable, Side};

/// Items of RULESETS.md each file must name in some case's clause.
fn required_tags(id: &str) -> &'static [&'static str] {
    match id {
        "bens-ur" => &["D01", "D13", "D14", "D15", "D16", "D17", "D18", "D19", "D20", "D21", "D22", "D63", "O02", "§1.3"],
        "ludens-akalandung" => &["D01", "D34", "D35", "D36", "D37", "D38", "D39", "D40", "D41", "D42", "D64"],
        _ => &[],
    }
}

const RULE_SETS: [&str; 2] = ["bens-ur", "ludens-akalandung"];

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/rules/bens")
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Step {
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

#[derive(Default)]
struct Case {
    options: Options,
    options_error: bool,
    position: Option<toml::Value>,
    position_error: bool,
    first: Option<Side>,
    path_cells: Option<[Vec<[u8; 2]>; 2]>,
    steps: Vec<Step>,
}

fn parse_case(mut t: toml::Table) -> Result<Case, String> {
    fn take<T: for<'de> Deserialize<'de>>(t: &mut toml::Table, k: &str) -> Result<Option<T>, String> {
        t.remove(k).map(|v| T::deserialize(v).map_err(|e| format!("key '{k}': {e}"))).transpose()
    }
    let _clause: String = take(&mut t, "clause")?.ok_or("missing 'clause'")?;
    let options: toml::Table = take(&mut t, "options")?.unwrap_or_default();
    let options = options
        .iter()
        .map(|(k, v)| {
            let text = match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), OptionValue::parse(&text))
        })
        .collect();
    let cells: Option<toml::Table> = take(&mut t, "path_cells")?;
    let path_cells = match cells {
        None => None,
        Some(c) => {
            let side = |k: &str| -> Result<Vec<[u8; 2]>, String> {
                let v = c.get(k).cloned().ok_or(format!("path_cells needs '{k}'"))?;
                Vec::<[u8; 2]>::deserialize(v).map_err(|e| format!("path_cells.{k}: {e}"))
            };
            Some([side("light")?, side("dark")?])
        }
    };
    let mut case = Case {
        options,
        options_error: take(&mut t, "options_error")?.unwrap_or(false),
        position: t.remove("position"),
        position_error: take(&mut t, "position_error")?.unwrap_or(false),
        first: take(&mut t, "first")?,
        path_cells,
        steps: Vec::new(),
    };
    let later: Vec<Step> = take(&mut t, "steps")?.unwrap_or_default();
    if !t.is_empty() {
        case.steps.push(Step::deserialize(toml::Value::Table(t)).map_err(|e| format!("case keys: {e}"))?);
    }
    case.steps.extend(later);
    Ok(case)
}

fn json_of(v: &toml::Value) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// Builds the case's game; `Ok(None)` when a refusal was expected and happened.
fn build(id: &str, case: &Case) -> Result<Option<AnyGame>, String> {
    let made = match &case.position {
        None => AnyGame::new(id, &case.options, case.first.unwrap_or(Side::Light)).map_err(|e| e.to_string()),
        Some(p) => {
            let p = json_of(p)?;
            let built = match id {
                "bens-ur" => serde_json::from_value::<BensSetup>(p)
                    .map_err(|e| format!("bad position: {e}"))
                    .and_then(|s| BensGame::from_position(&case.options, &s).map(AnyGame::Bens).map_err(|e| e.to_string())),
                _ => serde_json::from_value::<AkalandungSetup>(p)
                    .map_err(|e| format!("bad position: {e}"))
                    .and_then(|s| AkalandungGame::from_position(&case.options, &s).map(AnyGame::Akalandung).map_err(|e| e.to_string())),
            };
            if case.position_error {
                return match built {
                    Ok(_) => Err("the position was accepted, expected refused".into()),
                    Err(_) => Ok(None),
                };
            }
            built
        }
    };
    match (made, case.options_error) {
        (Ok(_), true) => Err(format!("options {:?} were accepted, expected refused", case.options)),
        (Err(_), true) => Ok(None),
        (Err(e), false) => Err(format!("game refused: {e}")),
        (Ok(g), false) => Ok(Some(g)),
    }
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

fn run_step(game: &mut AnyGame, step: &Step, at: &str, errs: &mut Vec<String>) -> Result<(), String> {
    if let Some(raw) = step.raw {
        match (game.roll(raw), step.roll_error) {
            (Ok(()), true) => errs.push(format!("{at}: roll {raw} was accepted, expected refused")),
            (Err(e), false) => return Err(format!("{at}: roll {raw} refused: {e}")),
            _ => {}
        }
    }
    let open = open_texts(game);
    if let Some(want) = &step.legal {
        let (mut w, mut g) = (want.clone(), open.clone());
        w.sort();
        g.sort();
        if w != g {
            errs.push(format!("{at}: open actions are {g:?}, expected {w:?}"));
        }
    }
    for m in step.must.iter().flatten() {
        if !open.contains(m) {
            errs.push(format!("{at}: '{m}' must be open; open: {open:?}"));
        }
    }
    for m in step.must_not.iter().flatten() {
        if open.contains(m) {
            errs.push(format!("{at}: '{m}' must not be open; open: {open:?}"));
        }
    }
    if let Some(p) = &step.play {
        let action = game.action_from_text(p).map_err(|e| format!("{at}: play '{p}': {e}"))?;
        game.apply(&action).map_err(|e| format!("{at}: play '{p}' refused: {e}"))?;
    }
    if let Some(after) = &step.after {
        let mut diffs = Vec::new();
        differences("", &json_of(after)?, &game.position_json(), &mut diffs);
        errs.extend(diffs.into_iter().map(|d| format!("{at}: after: {d}")));
    }
    for t in step.text.iter().flatten() {
        let board = game.board_text();
        if !board.contains(t.as_str()) {
            errs.push(format!("{at}: board text lacks '{t}':\n{board}"));
        }
    }
    Ok(())
}

/// Applies each `must_not` action as JSON built from the open actions' family
/// and checks it is refused with the game unchanged.
fn check_refusals(game: &AnyGame, step: &Step, at: &str, errs: &mut Vec<String>) {
    for m in step.must_not.iter().flatten() {
        let Some(action) = parse_text(game, m) else { continue };
        let before = game.position_json();
        let mut probe = game.clone();
        if probe.apply(&action).is_ok() || probe.position_json() != before {
            errs.push(format!("{at}: '{m}' was accepted or changed the game"));
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

fn run_case(id: &str, case: &Case) -> Result<Vec<String>, String> {
    let mut errs = Vec::new();
    let Some(mut game) = build(id, case)? else { return Ok(errs) };
    if let Some(cells) = &case.path_cells {
        let AnyGame::Bens(g) = &game else { return Err("path_cells is for bens-ur".into()) };
        for (side, want) in Side::BOTH.into_iter().zip(cells) {
            let got: Vec<[u8; 2]> = (1..=23).filter_map(|p| g.path_cell(side, p)).map(Into::into).collect();
            if &got != want {
                errs.push(format!("{side} path cells are {got:?}, expected {want:?}"));
            }
        }
    }
    for (i, step) in case.steps.iter().enumerate() {
        let at = format!("step {}", i + 1);
        if step.raw.is_some() && !step.roll_error {
            // Refusals are checked on the position the throw leads to.
            let mut rolled = game.clone();
            if rolled.roll(step.raw.unwrap_or(0)).is_ok() {
                check_refusals(&rolled, step, &at, &mut errs);
            }
        }
        run_step(&mut game, step, &at, &mut errs)?;
    }
    Ok(errs)
}

fn load(path: &Path) -> Result<Vec<toml::Table>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("not valid TOML: {e}"))?;
    let cases = table.remove("case").ok_or("no [[case]] tables")?;
    if let Some(k) = table.keys().next() {
        return Err(format!("unknown top-level key '{k}' (only [[case]] tables)"));
    }
    Vec::<toml::Table>::deserialize(cases).map_err(|e| format!("[[case]]: {e}"))
}

#[test]
fn every_marker_rule_case_holds() {
    let mut failures = Vec::new();
    let mut total = 0;
    for id in RULE_SETS {
        let name = format!("{id}.toml");
        let tables = match load(&cases_dir().join(&name)) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (i, t) in tables.into_iter().enumerate() {
            total += 1;
            let label = t.get("clause").and_then(|c| c.as_str()).unwrap_or("(no clause)").to_owned();
            let head = format!("{name} case #{} [{label}]", i + 1);
            match parse_case(t).and_then(|c| run_case(id, &c)) {
                Ok(errs) => failures.extend(errs.into_iter().map(|e| format!("{head}: {e}"))),
                Err(e) => failures.push(format!("{head}: {e}")),
            }
        }
    }
    assert!(total > 0, "no cases found in {}", cases_dir().display());
    assert!(failures.is_empty(), "{} of {total} marker rule cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_decision_and_open_item_is_named_by_a_case() {
    let mut problems = Vec::new();
    for id in RULE_SETS {
        let tables = match load(&cases_dir().join(format!("{id}.toml"))) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{id}.toml: {e}"));
                continue;
            }
        };
        let clauses: Vec<String> = tables.iter().filter_map(|t| t.get("clause").and_then(|c| c.as_str()).map(str::to_owned)).collect();
        let missing: Vec<&str> = required_tags(id)
            .iter()
            .copied()
            .filter(|tag| {
                !clauses
                    .iter()
                    .any(|c| c.match_indices(tag).any(|(at, _)| !c[at + tag.len()..].starts_with(|ch: char| ch.is_ascii_digit())))
            })
            .collect();
        if !missing.is_empty() {
            problems.push(format!("{id}.toml: no case names {}", missing.join(", ")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
