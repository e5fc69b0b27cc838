//! Solved tables through the `ur` binary: `ur solve` writes one, `ur eval`,
//! `ur hint`, `ur play --vs perfect` and `ur engine --table` read it, and
//! missing, foreign or damaged tables are reported without a panic.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use serde_json::Value;

use crate::common;
use common::{describe, engine_run, path_str, run_fails, run_ok, text, ur, ur_cmd};

/// The published probability (in %) that the first player wins Finkel's
/// rules with two pieces under perfect play.
const PUBLISHED: f64 = 51.8578;

/// A folder for this test process's files (under the target directory).
fn work_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ur-tables-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Finkel 2-piece table, solved once per test process by `ur solve`.
fn table() -> &'static str {
    static TABLE: OnceLock<PathBuf> = OnceLock::new();
    let path = TABLE.get_or_init(|| {
        let path = work_dir().join("finkel-2.urt");
        let out = run_ok(&["solve", "finkel", "--pieces", "2", "--out", path_str(&path), "--quiet", "--no-checkpoint"]);
        assert!(out.contains("table written to"), "{out}");
        assert!(path.is_file());
        path
    });
    path_str(path)
}

/// A copy of the table with `edit` applied, under `name`.
fn damaged(name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = fs::read(table()).unwrap();
    edit(&mut bytes);
    let path = work_dir().join(name);
    fs::write(&path, bytes).unwrap();
    path
}

/// The first percentage on the first line containing `needle`.
fn percent_on(out: &str, needle: &str) -> f64 {
    let line = out.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no line with {needle:?} in\n{out}"));
    percent(line)
}

fn percent(line: &str) -> f64 {
    let word = line.split_whitespace().find(|w| w.ends_with('%')).unwrap_or_else(|| panic!("no percentage in {line:?}"));
    word.trim_end_matches('%').parse().unwrap_or_else(|e| panic!("{e}: {line:?}"))
}

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

const START_DARK: &str = r#"{"to_move":"dark","light":{"reserve":2,"off":0,"path":[]},"dark":{"reserve":2,"off":0,"path":[]}}"#;
const LIGHT_WON: &str = r#"{"to_move":"dark","light":{"reserve":0,"off":2,"path":[]},"dark":{"reserve":1,"off":0,"path":[5]}}"#;
/// Light has pieces on 1 and 5; a throw of 3 gives two moves, both to rosettes.
const TWO_MOVES: &str = r#"{"to_move":"light","light":{"reserve":0,"off":0,"path":[1,5]},"dark":{"reserve":1,"off":0,"path":[6]}}"#;

#[test]
fn eval_gives_the_published_start_value() {
    let t = table();
    let out = run_ok(&["eval", "--table", t]);
    let p = percent_on(&out, "(to move)");
    assert!((p - PUBLISHED).abs() <= 0.0015, "{p} is not the published {PUBLISHED}:\n{out}");
    assert!(out.contains("light (to move)") && out.contains("finkel (pieces=2)"), "{out}");
    assert!((percent_on(&out, "dark wins") - (100.0 - PUBLISHED)).abs() <= 0.0015, "{out}");

    // The same with the rules named, as JSON, and with dark to move first.
    let v = json(&run_ok(&["eval", "--table", t, "--rules", "finkel", "--pieces", "2", "--json"]));
    assert!((v["win"].as_f64().unwrap() * 100.0 - PUBLISHED).abs() <= 0.0015, "{v}");
    assert_eq!((v["to_move"].as_str(), v["win"].as_f64()), (Some("light"), v["light_win"].as_f64()));
    // The rule set named without options: the table's options.
    let out = run_ok(&["eval", "--table", t, "--rules", "finkel"]);
    assert!((percent_on(&out, "(to move)") - PUBLISHED).abs() <= 0.0015, "{out}");
    let v = json(&run_ok(&["eval", "--table", t, "--json", START_DARK]));
    assert_eq!(v["to_move"], "dark");
    assert!((v["light_win"].as_f64().unwrap() * 100.0 - (100.0 - PUBLISHED)).abs() <= 0.0015, "{v}");

    // A finished position: 100% for the winner, 0% for the loser.
    let out = run_ok(&["eval", "--table", t, LIGHT_WON]);
    assert!(out.contains("light has borne off every piece"), "{out}");
    assert_eq!(percent_on(&out, "dark (to move)"), 0.0, "{out}");
    assert_eq!(percent_on(&out, "light wins"), 100.0, "{out}");
    let v = json(&run_ok(&["eval", "--table", t, "--json", LIGHT_WON]));
    assert_eq!((v["win"].as_f64(), v["light_win"].as_f64(), v["winner"].as_str()), (Some(0.0), Some(1.0), Some("light")));
}

#[test]
fn hint_lists_the_moves_best_first() {
    let t = table();
    let out = run_ok(&["hint", "--table", t, "--roll", "3", TWO_MOVES]);
    let moves: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(moves.len(), 2, "{out}");
    assert!(out.contains("2 legal moves, best first"), "{out}");
    assert!(moves[0].contains("<- best") && !moves[1].contains("<- best"), "{out}");
    assert!(percent(moves[0]) > percent(moves[1]), "{out}");
    assert!(moves.iter().any(|m| m.contains("1 (d1) -> 4 (a1)")) && moves.iter().any(|m| m.contains("5 (a2) -> 8 (d2)")), "{out}");
    let before = percent_on(&out, "before the throw");
    assert!(before > 0.0 && before < 100.0, "{out}");

    // JSON: the same moves, best first, and the value of the best.
    let v = json(&run_ok(&["hint", "--table", t, "--raw", "3", "--json", TWO_MOVES]));
    let list = v["moves"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{v}");
    assert!(list[0]["win"].as_f64() >= list[1]["win"].as_f64(), "{v}");
    assert_eq!((list[0]["best"].as_bool(), list[1]["best"].as_bool()), (Some(true), Some(false)), "{v}");
    assert_eq!(v["win"], list[0]["win"]);
    assert!((list[0]["win"].as_f64().unwrap() * 100.0 - percent(moves[0])).abs() < 1e-4, "{v}\n{out}");

    // From the start with a 2: one move. With a 0: none, the turn passes.
    let out = run_ok(&["hint", "--table", t, "--roll", "2"]);
    assert!(out.contains("1 legal move") && out.contains("enter -> 2") && out.contains("<- best"), "{out}");
    let out = run_ok(&["hint", "--table", t, "--roll", "0"]);
    assert!(out.contains("no legal move: the turn passes"), "{out}");
    assert!((percent_on(&out, "turn passes") - (100.0 - PUBLISHED)).abs() <= 0.0015, "{out}");
    // A finished position has nothing to move.
    let out = run_ok(&["hint", "--table", t, "--roll", "2", LIGHT_WON]);
    assert!(out.contains("the game is over"), "{out}");

    run_fails(&["hint", "--table", t, "--roll", "9"], &["throws (raw->value)"]);
    run_fails(&["hint", "--table", t, "--raw", "9"], &["--raw 9", "throws (raw->value)"]);
    let out = ur(&["hint", "--table", t]);
    assert!(!out.status.success() && text(&out.stderr).contains("--roll"), "{}", describe(&["hint"], &out));
}

#[test]
fn the_perfect_bot_plays_from_a_table() {
    let t = table();
    let args = ["play", "--light", "perfect", "--dark", "random", "--table", t, "--pieces", "2", "--quiet"];
    let out = run_ok(&args);
    assert!(out.lines().any(|l| l.ends_with(" wins.")), "{out}");
    // Against random play it wins most games (about 74% with two pieces, where luck weighs much).
    let mut wins = 0;
    for seed in 1..=40u64 {
        let side = if seed % 2 == 0 { "light" } else { "dark" };
        let seed = seed.to_string();
        let (light, dark) = if side == "light" { ("perfect", "random") } else { ("random", "perfect") };
        let out = run_ok(&["play", "--light", light, "--dark", dark, "--table", t, "--pieces", "2", "--quiet", "--seed", &seed]);
        let line = out.lines().find(|l| l.ends_with(" wins.")).unwrap_or_else(|| panic!("{out}"));
        wins += usize::from(line.to_lowercase().starts_with(side));
    }
    assert!(wins >= 20, "perfect won only {wins} of 40 against random");
    // The same seed gives the same game.
    let seeded = [&args[..], &["--seed", "9"]].concat();
    assert_eq!(run_ok(&seeded), run_ok(&seeded));
}

/// Runs `ur engine` with `args` on these input lines and returns the replies.
fn engine(args: &[&str], lines: &[&str]) -> (Vec<Value>, Output) {
    engine_run(ur_cmd(&[&["engine"], args].concat()), lines)
}

fn error(r: &Value) -> &str {
    assert_eq!(r["ok"], false, "{r}");
    r["error"].as_str().unwrap_or_else(|| panic!("no message: {r}"))
}

fn ok(r: &Value) -> &Value {
    assert_eq!(r["ok"], true, "{r}");
    r
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn the_engine_evaluates_and_hints() {
    let t = table();
    let (r, out) = engine(
        &["--table", t],
        &[
            r#"{"cmd":"eval"}"#,
            r#"{"cmd":"new","pieces":2}"#,
            r#"{"cmd":"eval","id":1}"#,
            r#"{"cmd":"hint"}"#,
            r#"{"cmd":"hint","roll":2}"#,
            r#"{"cmd":"show"}"#,
            r#"{"cmd":"roll","value":2}"#,
            r#"{"cmd":"eval"}"#,
            r#"{"cmd":"hint"}"#,
            r#"{"cmd":"set","position":{"to_move":"light","light":{"reserve":0,"off":0,"path":[1,5]},"dark":{"reserve":1,"off":0,"path":[6]}}}"#,
            r#"{"cmd":"roll","value":3}"#,
            r#"{"cmd":"hint"}"#,
            r#"{"cmd":"eval"}"#,
            r#"{"cmd":"hint","roll":9}"#,
            r#"{"cmd":"hint","roll":1,"raw":1}"#,
            r#"{"cmd":"hint","to":1}"#,
            r#"{"cmd":"set","position":{"to_move":"dark","light":{"reserve":0,"off":2,"path":[]},"dark":{"reserve":1,"off":0,"path":[5]}}}"#,
            r#"{"cmd":"eval"}"#,
            r#"{"cmd":"hint","roll":2}"#,
            r#"{"cmd":"new"}"#,
            r#"{"cmd":"eval"}"#,
            r#"{"cmd":"hint","roll":2}"#,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(error(&r[0]).contains("no game yet"));
    ok(&r[1]);
    let e = ok(&r[2]);
    assert_eq!((e["id"].as_i64(), e["to_move"].as_str(), e["phase"].as_str()), (Some(1), Some("light"), Some("roll")));
    assert!((num(&e["win"]) * 100.0 - PUBLISHED).abs() <= 0.0015, "{e}");
    assert_eq!(e["win"], e["light_win"]);
    assert!((num(&e["light_win"]) + num(&e["dark_win"]) - 1.0).abs() < 1e-12, "{e}");
    assert!(error(&r[3]).contains(r#""roll""#), "{}", r[3]);
    let h = ok(&r[4]);
    assert_eq!(h["moves"].as_array().unwrap().len(), 1, "{h}");
    assert_eq!(
        (h["moves"][0]["from"].as_u64(), h["moves"][0]["to"].as_u64(), h["moves"][0]["best"].as_bool()),
        (Some(0), Some(2), Some(true))
    );
    assert_eq!(ok(&r[5])["phase"], "roll", "a hint does not change the game");
    ok(&r[6]);
    // In the move phase eval gives the value of the best move for the throw.
    let e = ok(&r[7]);
    assert_eq!(e["phase"], "move");
    assert_eq!(e["win"], h["win"]);
    assert_eq!(ok(&r[8])["moves"], h["moves"]);
    ok(&r[9]);
    ok(&r[10]);
    let h = ok(&r[11]);
    let moves = h["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{h}");
    assert!(num(&moves[0]["win"]) > num(&moves[1]["win"]), "{h}");
    assert_eq!((moves[0]["best"].as_bool(), moves[1]["best"].as_bool()), (Some(true), Some(false)));
    assert!(moves.iter().all(|m| m["rosette"] == true && m["capture"] == false), "{h}");
    assert_eq!((h["raw"].as_u64(), h["value"].as_u64(), h["passed"].as_bool()), (Some(3), Some(3), Some(false)));
    assert_eq!(ok(&r[12])["win"], moves[0]["win"]);
    assert!(error(&r[13]).contains("throws"), "{}", r[13]);
    assert!(error(&r[14]).contains("not both"), "{}", r[14]);
    assert!(error(&r[15]).contains("unknown field"), "{}", r[15]);
    ok(&r[16]);
    let e = ok(&r[17]);
    assert_eq!((e["winner"].as_str(), num(&e["light_win"]), num(&e["dark_win"])), (Some("light"), 1.0, 0.0), "{e}");
    assert!(error(&r[18]).contains("game is over"), "{}", r[18]);
    // A game under other rules (7 pieces): the table does not fit.
    ok(&r[19]);
    for reply in &r[20..22] {
        let e = error(reply);
        assert!(e.contains("pieces=2") && e.contains("pieces=7") && e.contains("ur solve finkel --pieces 7"), "{e}");
    }
    assert_eq!(r.len(), 22);
}

#[test]
fn the_engine_without_a_usable_table() {
    let (r, out) = engine(&[], &[r#"{"cmd":"new","pieces":2}"#, r#"{"cmd":"eval"}"#, r#"{"cmd":"hint","roll":2}"#]);
    assert!(out.status.success());
    ok(&r[0]);
    for reply in &r[1..] {
        assert!(error(reply).contains("ur engine --table FILE"), "{reply}");
    }
    // A missing or damaged table stops the engine at once with a clear message.
    let missing = work_dir().join("missing.urt");
    let (r, out) = engine(&["--table", path_str(&missing)], &[r#"{"cmd":"new"}"#]);
    assert!(r.is_empty() && !out.status.success() && out.status.code() != Some(101));
    assert!(text(&out.stderr).contains("missing.urt") && !text(&out.stderr).contains("panicked"), "{}", text(&out.stderr));
    let bad = damaged("engine-flipped.urt", |b| {
        let n = b.len();
        b[n - 3] ^= 1;
    });
    let (r, out) = engine(&["--table", path_str(&bad)], &[r#"{"cmd":"new"}"#]);
    assert!(r.is_empty() && !out.status.success() && out.status.code() != Some(101));
    assert!(text(&out.stderr).contains("checksum"), "{}", text(&out.stderr));
}

#[test]
fn the_engine_hints_by_search_when_asked_for_a_depth() {
    let (r, out) = engine(
        &[],
        &[
            r#"{"cmd":"new","pieces":2}"#,
            r#"{"cmd":"hint","roll":2}"#,
            r#"{"cmd":"hint","roll":2,"depth":2}"#,
            r#"{"cmd":"hint","roll":2,"depth":7}"#,
            r#"{"cmd":"new","rules":"v1-named-birds","pieces":2}"#,
            r#"{"cmd":"hint","roll":2,"depth":2}"#,
        ],
    );
    assert!(out.status.success());
    assert!(error(&r[1]).contains(r#"or give "depth""#), "{}", r[1]);
    let h = ok(&r[2]);
    assert_eq!((h["judge"].as_str(), h["exact"].as_bool()), (Some("net:1"), Some(false)), "{h}");
    let moves = h["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{h}");
    assert_eq!(moves[0]["best"], true);
    assert!((num(&moves[0]["win"]) - num(&h["win"])).abs() < 1e-12, "{h}");
    assert!(error(&r[3]).contains("1 to 6"));
    assert!(error(&r[5]).contains("named pieces"));
    // With a table, hints say they are exact.
    let (r, _) = engine(&["--table", table()], &[r#"{"cmd":"new","pieces":2}"#, r#"{"cmd":"hint","roll":2}"#]);
    assert_eq!((ok(&r[1])["judge"].as_str(), r[1]["exact"].as_bool()), (Some("table"), Some(true)), "{}", r[1]);
}

#[test]
fn hint_by_search_needs_no_table() {
    let out = run_ok(&["hint", "--depth", "2", "--rules", "regency-conventional", "--roll", "3", "--json"]);
    let h = json(&out);
    assert_eq!((h["judge"].as_str(), h["exact"].as_bool()), (Some("expectimax:2"), Some(false)), "{h}");
    assert_eq!(h["moves"][0]["best"], true, "{h}");
    // Where a network serves the rules, the search judges with it.
    let out = run_ok(&["hint", "--depth", "2", "--rules", "regency-murray", "--roll", "3", "--json"]);
    assert_eq!(json(&out)["judge"].as_str(), Some("net:1"), "{out}");
    let text = run_ok(&["hint", "--depth", "1", "--pieces", "2", "--roll", "3", TWO_MOVES]);
    assert!(text.contains("expectimax:1 estimates") && text.contains("2 legal moves, best first"), "{text}");
    run_fails(&["hint", "--depth", "2", "--table", table(), "--roll", "2"], &["cannot be used with"]);
    run_fails(&["hint", "--depth", "2", "--rules", "v1-named-birds", "--roll", "2"], &["named pieces"]);
    run_fails(&["hint", "--depth", "2", "--rules", "guard-d6", "--roll", "2"], &["race rule sets only", "Tower"]);
    run_fails(&["hint", "--depth", "9", "--roll", "2"], &["1..=6"]);
}

#[test]
fn missing_foreign_and_damaged_tables_are_reported() {
    let t = table();
    // No table, a missing one, a folder.
    run_fails(&["eval"], &["needs --table FILE", "ur solve"]);
    run_fails(&["hint", "--roll", "2"], &["needs --table FILE"]);
    run_fails(&["eval", "--table", "no/such/table.urt"], &["no/such/table.urt", "cannot read"]);
    run_fails(&["eval", "--table", path_str(&work_dir())], &["is a folder"]);
    // A table for other rules.
    run_fails(&["eval", "--table", t, "--pieces", "3"], &["pieces=2", "pieces=3", "ur solve finkel --pieces 3"]);
    run_fails(&["eval", "--table", t, "--rules", "masters"], &["'finkel'", "'masters'", "ur solve masters"]);
    run_fails(&["hint", "--table", t, "--rules", "blitz", "--pieces", "2", "--roll", "2"], &["'blitz'"]);
    run_fails(&["play", "--vs", "perfect", "--table", t], &["pieces=2", "pieces=7"]);
    // The perfect bot without a table; unknown bots.
    run_fails(&["play", "--vs", "perfect", "--pieces", "2"], &["perfect bot needs a table", "--table FILE", "ur solve"]);
    run_fails(&["play", "--light", "perfect", "--dark", "random"], &["perfect bot needs a table", "--table FILE"]);
    run_fails(&["play", "--vs", "wizard"], &["unknown bot 'wizard'", "perfect"]);
    // Damaged tables.
    let size = fs::metadata(t).unwrap().len() as usize;
    let cases: Vec<(PathBuf, &str)> = vec![
        (damaged("flipped.urt", |b| b[size - 100] ^= 0x40), "checksum"),
        (damaged("truncated.urt", |b| b.truncate(size - 1000)), "truncated"),
        (damaged("header.urt", |b| b[20] = b'}'), "header is damaged"),
        (damaged("cut.urt", |b| b.truncate(30)), "header is damaged"),
        (damaged("version.urt", |b| b[8] = 9), "format version 9"),
        (damaged("foreign.urt", |b| *b = b"# notes\nnot a table at all\n".to_vec()), "not a table file"),
        (damaged("empty.urt", Vec::clear), "not a table file"),
    ];
    for (path, needle) in &cases {
        let p = path_str(path);
        run_fails(&["eval", "--table", p], &[needle, p]);
        run_fails(&["hint", "--table", p, "--roll", "1"], &[needle]);
        run_fails(&["play", "--vs", "perfect", "--pieces", "2", "--table", p], &[needle]);
    }
    // Positions that are not positions.
    run_fails(&["eval", "--table", t, "{"], &["bad position"]);
    run_fails(
        &["eval", "--table", t, r#"{"to_move":"light","light":{"reserve":3,"off":0},"dark":{"reserve":2,"off":0}}"#],
        &["illegal position", "pieces"],
    );
}

/// `ur solve` without `--out` puts the table in the table store (`UR_TABLES`),
/// where `ur play` and `ur engine` find it for its rules and no others; a
/// damaged table there is passed over with a warning.
#[test]
fn the_table_store_serves_play_and_the_engine() {
    let store = work_dir().join("store");
    let in_store = |args: &[&str]| {
        let mut cmd = ur_cmd(args);
        cmd.env("UR_TABLES", &store);
        cmd
    };
    let solved = in_store(&["solve", "finkel", "--pieces", "2", "--quiet", "--no-checkpoint"]).output().unwrap();
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let files: Vec<_> = fs::read_dir(&store).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(matches!(files.as_slice(), [f] if f.starts_with("finkel-2p-") && f.ends_with(".urt")), "{files:?}");
    assert!(text(&solved.stdout).contains(&files[0]), "{}", text(&solved.stdout));
    let listed = in_store(&["tables", "--json"]).output().unwrap();
    let listed = json(&text(&listed.stdout));
    assert_eq!(
        (listed["tables"][0]["rules"].as_str(), listed["tables"][0]["positions"].as_u64()),
        (Some("finkel"), Some(12869)),
        "{listed}"
    );
    let play =
        |pieces: &str| in_store(&["play", "--pieces", pieces, "--light", "perfect", "--dark", "random", "--seed", "4"]).output().unwrap();
    let out = play("2");
    assert!(out.status.success() && text(&out.stdout).contains("Solved table:"), "{}", describe(&["play"], &out));
    let out = play("3");
    assert!(!out.status.success() && text(&out.stderr).contains("perfect bot needs a table"), "{}", describe(&["play"], &out));
    let (r, _) =
        engine_run(in_store(&["engine"]), &[r#"{"cmd":"new","pieces":2}"#, r#"{"cmd":"eval"}"#, r#"{"cmd":"new"}"#, r#"{"cmd":"eval"}"#]);
    assert!((num(&ok(&r[1])["win"]) * 100.0 - PUBLISHED).abs() < 0.01, "{}", r[1]);
    assert!(error(&r[3]).contains("ur solve"), "{}", r[3]);
    // A damaged table in the store: a warning, and play goes on without it.
    let path = store.join(&files[0]);
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, bytes).unwrap();
    let out = in_store(&["play", "--pieces", "2", "--light", "level5", "--dark", "random", "--seed", "4", "--quiet"]).output().unwrap();
    assert!(out.status.success(), "{}", describe(&["play"], &out));
    assert!(
        text(&out.stderr).contains("warning: not using the stored table") && text(&out.stderr).contains("checksum"),
        "{}",
        text(&out.stderr)
    );
}

/// `ur solve --rules ID` solves that rule set, like `ur solve ID`; naming two is refused.
#[test]
fn solve_takes_the_rule_set_by_flag_or_by_position() {
    let path = work_dir().join("masters-1.urt");
    let out = run_ok(&["solve", "--rules", "masters", "--pieces", "1", "--out", path_str(&path), "--quiet", "--no-checkpoint"]);
    assert!(out.starts_with("masters with 1 pieces"), "{out}");
    run_ok(&["eval", "--table", path_str(&path), "--rules", "masters", "--pieces", "1"]);
    run_fails(&["solve", "finkel", "--rules", "masters", "--out", path_str(&path)], &["cannot be used with"]);
}

/// `ur train-table` fits a model to a solved table and adds it to a copy of
/// the weights, reproducibly; bad input is refused.
#[test]
fn train_table_adds_a_model_fitted_to_the_table() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ur-bots/weights/race.json");
    let (a, b) = (work_dir().join("w-a.json"), work_dir().join("w-b.json"));
    for out in [&a, &b] {
        let args = ["train-table", "--table", table(), "--base", path_str(&base), "--samples", "2000", "--out", path_str(out)];
        assert!(run_ok(&args).contains("finkel@2"));
    }
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap(), "the same arguments reproduce the file");
    let w = json(&fs::read_to_string(&a).unwrap());
    let models: Vec<&str> = w["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(models.iter().filter(|m| **m == "finkel@2").count(), 1, "{models:?}");
    let fit = &w["training"]["table_fits"].as_array().unwrap().iter().find(|f| f["id"] == "finkel@2").unwrap()["held_out"];
    assert!(fit["rmse_pp"].as_f64().unwrap() < 10.0, "{fit}");
    run_fails(&["train-table", "--table", table(), "--base", table(), "--out", path_str(&a)], &["not a weights file"]);
    run_fails(&["train-table", "--table", path_str(&base), "--base", path_str(&base), "--out", path_str(&a)], &["not a table file"]);
    run_fails(&["train-table", "--table", table(), "--base", path_str(&base), "--samples", "5", "--out", path_str(&a)], &["--samples"]);
}

/// `ur eval` and `ur hint` without `--table` read the store's table for the
/// rules given, as `ur solve ID --pieces N` put it there.
#[test]
fn eval_and_hint_find_the_table_solve_put_in_the_store() {
    let store = work_dir().join("store-eval");
    let in_store = |args: &[&str]| {
        let mut cmd = ur_cmd(args);
        cmd.env("UR_TABLES", &store);
        cmd.output().unwrap()
    };
    let solved = in_store(&["solve", "finkel", "--pieces", "3", "--quiet"]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let out = in_store(&["eval", "--pieces", "3"]);
    assert!(out.status.success() && text(&out.stdout).contains("finkel (pieces=3), table "), "{}", describe(&["eval"], &out));
    let out = in_store(&["hint", "--pieces", "3", "--roll", "2"]);
    assert!(out.status.success() && text(&out.stdout).contains("<- best"), "{}", describe(&["hint"], &out));
    // Other rules: no table, and the error says how to get one.
    let out = in_store(&["eval", "--pieces", "4"]);
    assert!(!out.status.success(), "{}", describe(&["eval"], &out));
    let err = text(&out.stderr);
    assert!(err.contains("no table is solved for these rules") && err.contains("--table FILE") && err.contains("ur solve"), "{err}");
}

/// An output path that cannot be written is refused before any work: a
/// folder, or a folder that does not exist.
#[test]
fn unwritable_outputs_are_refused_at_once() {
    let dir = work_dir();
    let d = path_str(&dir);
    run_fails(&["solve", "finkel", "--pieces", "1", "--quiet", "--out", d], &["--out", "is a folder"]);
    run_fails(&["solve", "finkel", "--pieces", "1", "--quiet", "--out", "/nonexistent/dir/t.urt"], &["/nonexistent/dir", "does not exist"]);
    run_fails(&["arena", "--bots", "random,greedy", "--games", "2", "--quiet", "--save", d], &["--save", "is a folder"]);
}

/// `ur rules show` takes `--rules-file` as every command does, and `--file` still.
#[test]
fn rules_show_takes_a_rules_file() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/finkel.toml");
    for flag in ["--rules-file", "--file"] {
        assert!(run_ok(&["rules", "show", flag, file]).contains("(finkel)"), "{flag}");
    }
}

/// The five-bird game has a network: its declarations and moves get hints
/// and an evaluation from it, which say so; the three-bird game has none.
#[test]
fn named_birds_are_judged_by_their_network() {
    let (r, out) = engine(
        &[],
        &[
            r#"{"cmd":"new","rules":"v1-named-birds"}"#,
            r#"{"cmd":"hint"}"#,
            r#"{"cmd":"eval"}"#,
            r#"{"cmd":"hint","roll":2}"#,
            r#"{"cmd":"new","rules":"v1-named-birds","pieces":3}"#,
            r#"{"cmd":"hint","roll":2,"depth":2}"#,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let h = ok(&r[1]);
    assert_eq!(h["judge"], "net:2", "{h}");
    assert_eq!(
        h["actions"],
        serde_json::json!([{"action": {"choose": "summon"}, "best": true, "text": "summon", "win": h["win"]}]),
        "only summon is open at the start"
    );
    assert_eq!(h["exact"], false);
    let e = ok(&r[2]);
    assert_eq!(e["judge"], "net:2", "{e}");
    assert!((num(&e["light_win"]) + num(&e["dark_win"]) - 1.0).abs() < 1e-12, "{e}");
    assert!(error(&r[3]).contains("leave out"), "{}", r[3]);
    assert!(error(&r[5]).contains("named pieces"), "{}", r[5]);
}

/// `ur solve --memory` keeps the solve under the cap by keeping compiled
/// rows on disk: the table it writes is byte for byte the table of a solve
/// without a cap, `--plan` says how much goes to disk, and a cap too small
/// for any layout is refused with what the solve needs.
#[test]
fn a_solve_under_a_memory_cap_writes_the_same_table() {
    let dir = work_dir();
    let (plain, capped) = (dir.join("finkel-4-plain.urt"), dir.join("finkel-4-capped.urt"));
    let base = ["solve", "finkel", "--pieces", "4", "--threads", "1", "--quiet"];
    run_ok(&[&base[..], &["--out", path_str(&plain)]].concat());
    // A cap halfway between the least the solve needs and every row stored
    // (what the program holds already differs between builds).
    let full = run_ok(&[&base[..], &["--plan"]].concat());
    let line = full.lines().find(|l| l.contains("storing every row")).unwrap_or_else(|| panic!("{full}"));
    let gib: Vec<f64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    let cap = format!("{:.3}", (gib[1] + gib[2]) / 2.0);
    let plan = run_ok(&[&base[..], &["--plan", "--memory", &cap]].concat());
    let stored = plan.lines().find(|l| l.contains("largest group")).unwrap_or_else(|| panic!("{plan}"));
    assert!(!stored.contains("100 % of it stored"), "{plan}");
    assert!(plan.contains("compiled rows up to") && plan.contains("read in every sweep"), "{plan}");
    let out = run_ok(&[&base[..], &["--memory", &cap, "--out", path_str(&capped)]].concat());
    assert!(out.contains("table written to"), "{out}");
    assert!(fs::read(&plain).unwrap() == fs::read(&capped).unwrap(), "the capped table differs");
    run_fails(
        &[&base[..], &["--memory", "0.001", "--out", path_str(&dir.join("never.urt"))]].concat(),
        &["is too little", "give --memory"],
    );
    assert!(!dir.join("never.urt").exists());
}
