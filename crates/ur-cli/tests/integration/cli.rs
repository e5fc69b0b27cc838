//! End-to-end tests of the `ur` binary: `rules`, `play` (bots and piped human
//! input), `replay`, determinism, user rule-set files and error reporting.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use tempfile::TempDir;
use ur_rules::spec::BUILTIN;

use crate::common;
use common::{ok, path_str, run_fails, run_ok, ur_cmd};

/// Every built-in race rule set, in catalogue order.
fn rule_sets() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

/// The options each rule set offers besides `pieces`.
fn options_of(id: &str) -> &'static [&'static str] {
    match id {
        "v1-simple" => &["dice", "rosette_reroll_optional"],
        "v1-named-birds" => &["dice", "rosette_reroll_optional", "eagle_call_value"],
        "ludens-planet" => &["replay_optional"],
        "regency-murray" => &["murray_small_block_order"],
        "regency-bell" => &["stake", "rosette_fine"],
        _ => &[],
    }
}

/// Runs `ur` with `input` on stdin (through a file, so nothing can block).
fn ur_with_input(dir: &Path, args: &[&str], input: &str) -> Output {
    let path = dir.join("stdin.txt");
    fs::write(&path, input).unwrap();
    let stdin = fs::File::open(&path).unwrap();
    ur_cmd(args).stdin(stdin).output().expect("the ur binary runs")
}

/// The winning side ("light" or "dark") announced in an output, if any:
/// a line like `White (light) wins.`, `Light wins.` or `Result: Dark wins.`.
fn winner(out: &str) -> Option<&'static str> {
    let line = out.lines().find(|l| l.trim_end().ends_with(" wins."))?.to_lowercase();
    let who = line.trim().trim_start_matches("result:").trim().trim_end_matches(" wins.");
    if who == "light" || who.ends_with("(light)") {
        Some("light")
    } else if who == "dark" || who.ends_with("(dark)") {
        Some("dark")
    } else {
        panic!("cannot read the winner from {line:?}")
    }
}

/// Plays greedy (light) against random (dark) quietly, saves the record,
/// checks that the game ended with a winner and that `ur replay` agrees.
/// Returns the record's path.
fn bot_game(dir: &Path, rules: &[&str], seed: u64, name: &str) -> PathBuf {
    let file = dir.join(name);
    let seed = seed.to_string();
    let mut args = vec!["play"];
    args.extend_from_slice(rules);
    args.extend(["--light", "greedy", "--dark", "random", "--seed", &seed, "--quiet", "--save", path_str(&file)]);
    let out = run_ok(&args);
    let won = winner(&out).unwrap_or_else(|| panic!("no winner after ur {}:\n{out}", args.join(" ")));
    assert!(out.lines().count() <= 4, "--quiet prints only the result:\n{out}");
    let replay = run_ok(&["replay", path_str(&file)]);
    assert_eq!(winner(&replay), Some(won), "replay disagrees with play for {rules:?}:\n{replay}");
    assert!(replay.contains("actions replayed"), "{replay}");
    file
}

fn record_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn rules_lists_all_rule_sets() {
    let out = run_ok(&["rules"]);
    for id in rule_sets() {
        assert!(out.lines().any(|l| l.split_whitespace().next() == Some(id)), "{id} missing from:\n{out}");
    }
}

#[test]
fn rules_show_describes_each_rule_set_and_its_options() {
    for id in rule_sets() {
        let out = run_ok(&["rules", "show", id]);
        assert!(out.contains(&format!("({id})")), "{out}");
        for part in ["Pieces:", "Path:", "Dice:", "Rosettes:", "Win:", "Options (--option NAME=VALUE):", "  pieces:"] {
            assert!(out.contains(part), "{id}: no {part:?} in\n{out}");
        }
        for opt in options_of(id) {
            assert!(out.contains(&format!("  {opt}: ")), "{id}: option {opt} not shown:\n{out}");
        }
    }
    let out = run_ok(&["rules", "show", "v1-simple", "--option", "dice=D4"]);
    assert!(out.contains("D4 (raw→squares): 1→1 (1/4)"), "{out}");
    assert!(out.contains("now D4"), "{out}");
    run_fails(&["rules", "show", "nope"], &["unknown rule set 'nope'"]);
    run_fails(&["rules", "show", "finkel", "--option", "colour=red"], &["colour"]);
}

#[test]
fn every_rule_set_plays_to_a_winner_and_replays() {
    let dir = TempDir::new().unwrap();
    for id in rule_sets() {
        for seed in [1, 2] {
            bot_game(dir.path(), &["--rules", id], seed, &format!("{id}-{seed}.json"));
        }
    }
}

#[test]
fn bot_games_with_options_play_and_replay() {
    let dir = TempDir::new().unwrap();
    let cases: &[&[&str]] = &[
        &["--rules", "v1-simple", "--option", "dice=D4"],
        &["--rules", "v1-simple", "--option", "rosette_reroll_optional=true"],
        &["--rules", "v1-named-birds", "--option", "dice=D4"],
        &["--rules", "v1-named-birds", "--option", "rosette_reroll_optional=true", "--option", "eagle_call_value=2"],
        &["--rules", "v1-named-birds", "--pieces", "3"],
        &["--rules", "finkel", "--pieces", "3"],
        &["--rules", "regency-murray", "--pieces", "3", "--option", "murray_small_block_order=own_first"],
        &["--rules", "ludens-planet", "--option", "replay_optional=true"],
        &["--rules", "regency-bell", "--option", "stake=0", "--option", "rosette_fine=5"],
        &["--rules", "masters", "--pieces", "1"],
        &["--rules", "aseb", "--pieces", "15"],
    ];
    for (i, rules) in cases.iter().enumerate() {
        let file = bot_game(dir.path(), rules, 3, &format!("case-{i}.json"));
        let record = record_json(&file);
        // The record keeps every option value given on the command line.
        for pair in rules.windows(2).filter(|w| w[0] == "--option").map(|w| w[1]) {
            let (k, v) = pair.split_once('=').unwrap();
            assert_eq!(record["options"][k].to_string().trim_matches('"'), v, "{rules:?}: {record}");
        }
        if let Some(w) = rules.windows(2).find(|w| w[0] == "--pieces") {
            assert_eq!(record["options"]["pieces"].to_string(), w[1], "{record}");
        }
    }
}

#[test]
fn bell_games_report_the_pot() {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("bell.json");
    let out = run_ok(&[
        "play",
        "-r",
        "regency-bell",
        "--light",
        "random",
        "--dark",
        "random",
        "--seed",
        "9",
        "--quiet",
        "--save",
        path_str(&file),
    ]);
    assert!(out.contains("Pot: light paid") && out.contains("takes the pot"), "{out}");
    let replay = run_ok(&["replay", path_str(&file)]);
    assert!(replay.contains("Pot: light paid"), "{replay}");
}

#[test]
fn the_same_seed_gives_the_same_record() {
    let dir = TempDir::new().unwrap();
    for id in ["finkel", "v1-named-birds", "regency-bell", "walker-cyningstan"] {
        // Each game its own file: --save does not replace one.
        let a = fs::read(bot_game(dir.path(), &["--rules", id], 42, &format!("{id}-a.json"))).unwrap();
        let b = fs::read(bot_game(dir.path(), &["--rules", id], 42, &format!("{id}-b.json"))).unwrap();
        assert_eq!(a, b, "{id}: two games with seed 42 differ");
        let c = fs::read(bot_game(dir.path(), &["--rules", id], 43, &format!("{id}-c.json"))).unwrap();
        assert_ne!(a, c, "{id}: seeds 42 and 43 gave the same game");
    }
    // A roll-off is part of the seeded sequence too.
    let args = ["play", "--light", "random", "--dark", "random", "--first", "rolloff", "--seed", "5"];
    let (x, y) = (run_ok(&args), run_ok(&args));
    assert_eq!(x, y);
    assert!(x.contains("Roll-off:"), "{x}");
}

#[test]
fn first_player_is_recorded() {
    let dir = TempDir::new().unwrap();
    let file = bot_game(dir.path(), &["--rules", "finkel", "--first", "dark"], 4, "dark.json");
    assert_eq!(record_json(&file)["first"], "dark");
}

/// A human (light) against the greedy bot, answering every question with
/// `input`, then many "1" lines.
fn human_game(dir: &Path, rules: &[&str], seed: &str, input: &str, save: &Path) -> String {
    let mut args = vec!["play"];
    args.extend_from_slice(rules);
    args.extend(["--vs", "greedy", "--seed", seed, "--save", path_str(save)]);
    let out = ur_with_input(dir, &args, input);
    ok(&args, &out)
}

#[test]
fn a_human_game_through_stdin_plays_to_the_end() {
    let dir = TempDir::new().unwrap();
    let ones = "1\n".repeat(5000);
    for (id, seed) in [("finkel", "1"), ("v1-named-birds", "2"), ("regency-bell", "3"), ("walker-cyningstan", "4")] {
        let save = dir.path().join(format!("{id}-human.json"));
        let input = format!("help\npath\nboard\n99\nbanana\n{ones}");
        let out = human_game(dir.path(), &["--rules", id], seed, &input, &save);
        // The start shows the human's path with position numbers; help explains the inputs.
        assert!(out.contains("You play") && out.contains("[  5   ]"), "{id}: no path diagram:\n{out}");
        assert!(out.contains("What you can type:") && out.contains("FROM TO"), "{id}: no help:\n{out}");
        assert!(out.contains("there is no line 99"), "{id}:\n{out}");
        assert!(out.contains("'banana' is not understood"), "{id}:\n{out}");
        assert!(out.contains(" or help]> "), "{id}: no prompt:\n{out}");
        let won = winner(&out).unwrap_or_else(|| panic!("{id}: the game did not end:\n{out}"));
        assert!(out.contains("You win!") || out.contains("You lose."), "{out}");
        let replay = run_ok(&["replay", path_str(&save)]);
        assert_eq!(winner(&replay), Some(won), "{id}: {replay}");
    }
}

#[test]
fn bird_games_show_the_birds_names() {
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("birds.json");
    let out = human_game(dir.path(), &["--rules", "v1-named-birds"], "2", &"1\n".repeat(5000), &save);
    for bird in ["Swallow", "Storm-bird", "Raven", "Rooster", "Eagle"] {
        assert!(out.contains(bird), "{bird} never named:\n{out}");
    }
    assert!(out.contains("birds: 1 Swallow"), "no bird list under the board:\n{out}");
    assert!(out.contains("declare Summon"), "{out}");
    // Placements name the square on the placing side's own row: White (light) row 1, Black (dark) row 3.
    let placements: Vec<&str> = out.lines().filter(|l| l.contains(" enters on ")).collect();
    assert!(placements.iter().any(|l| l.starts_with("White")) && placements.iter().any(|l| l.starts_with("Black")), "{out}");
    for line in placements {
        let row = if line.starts_with("White") { "1)" } else { "3)" };
        assert!(line.ends_with(row), "{line}");
    }
}

#[test]
fn human_moves_can_be_typed_as_positions() {
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("typed.json");
    // Finkel, light always has the entering move available at the start: "enter" picks it
    // whenever it is the only entering move; otherwise fall back to "1".
    let input = format!("enter\n{}", "1\n".repeat(3000));
    let out = human_game(dir.path(), &["--rules", "finkel"], "8", &input, &save);
    assert!(out.contains("Light plays enter -> "), "{out}");
    assert!(winner(&out).is_some(), "{out}");
}

#[test]
fn hint_shows_every_choice_with_its_win_chance() {
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("hint.json");
    let input = "hint\n1\n".repeat(6) + "quit\n";
    let out = human_game(dir.path(), &["--rules", "finkel"], "3", &input, &save);
    assert!(out.contains("Your win chance after each choice (net:2 estimates"), "{out}");
    // The second decision of this seed offers two moves; the better is marked best.
    assert!(out.contains("2 (c1) -> 6 (b2)") && out.contains("-2.50 pp"), "{out}");
    assert!(out.lines().filter(|l| l.trim_end().ends_with("%  best")).count() >= 6, "{out}");
    // A game played to the end is summed up.
    let out = human_game(dir.path(), &["--rules", "finkel"], "3", &"1\n".repeat(3000), &dir.path().join("hint-end.json"));
    assert!(out.contains("Your play, judged by a net:2 search: ") && out.contains("The dice's luck: "), "{out}");
    assert!(!out.contains("Play with --save FILE"), "the game was saved: {out}");
}

#[test]
fn quitting_saves_an_unfinished_game_that_replays() {
    let dir = TempDir::new().unwrap();
    for (id, input) in [("finkel", "1\n1\nquit\n"), ("v1-named-birds", "1\nq\n"), ("regency-murray", "1\n1\n")] {
        let save = dir.path().join(format!("{id}-quit.json"));
        let out = human_game(dir.path(), &["--rules", id], "6", input, &save);
        assert!(out.contains("Game left unfinished."), "{id}:\n{out}");
        assert!(winner(&out).is_none(), "{out}");
        let record = record_json(&save);
        assert!(record["winner"].is_null(), "{record}");
        let replay = run_ok(&["replay", path_str(&save)]);
        assert!(replay.contains("Game unfinished"), "{id}:\n{replay}");
    }
}

#[test]
fn human_games_are_deterministic_too() {
    let dir = TempDir::new().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    let input = "1\n".repeat(40) + "quit\n";
    human_game(dir.path(), &["--rules", "masters"], "11", &input, &a);
    human_game(dir.path(), &["--rules", "masters"], "11", &input, &b);
    assert_eq!(fs::read(a).unwrap(), fs::read(b).unwrap());
}

#[test]
fn bad_command_lines_fail_cleanly() {
    let bots = ["--light", "random", "--dark", "random", "--quiet"];
    let cases: &[(&[&str], &[&str])] = &[
        (&["--rules", "nope"], &["unknown rule set 'nope'"]),
        (&["--option", "colour=red"], &["unknown option 'colour'", "finkel"]),
        (&["--rules", "v1-simple", "--option", "dice=D7"], &["option 'dice' cannot be 'D7'", "BIN4 | D4"]),
        (&["--rules", "v1-simple", "--option", "rosette_reroll_optional=maybe"], &["rosette_reroll_optional", "maybe"]),
        (&["--rules", "regency-bell", "--option", "stake=-1"], &["stake", "-1"]),
        (&["--option", "dice"], &["NAME=VALUE"]),
        (&["--pieces", "0"], &["pieces", "1..=15"]),
        (&["--pieces", "16"], &["pieces", "1..=15"]),
        (&["--pieces", "300"], &["300"]),
        (&["--rules", "v1-named-birds", "--pieces", "6"], &["birds"]),
        (&["--first", "sideways"], &["--first", "sideways"]),
        (&["--as", "sideways"], &["--as", "sideways"]),
        (&["--rules-file", "/definitely/not/here.toml"], &["cannot read rule-set file", "here.toml"]),
        (&["--save", "/definitely/not/here/game.json"], &["cannot save", "does not exist"]),
    ];
    for (extra, needles) in cases {
        let mut args = vec!["play"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&bots);
        run_fails(&args, needles);
    }
    run_fails(&["play", "--vs", "wizard"], &["unknown bot 'wizard'"]);
    run_fails(&["play", "--light", "wizard", "--dark", "random"], &["unknown bot 'wizard'"]);
    run_fails(&["play", "--rules", "finkel", "--rules-file", "x.toml"], &["cannot be used with"]);
}

fn finkel_toml() -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/finkel.toml")).unwrap()
}

#[test]
fn malformed_rule_set_files_are_reported() {
    let dir = TempDir::new().unwrap();
    let base = finkel_toml();
    let cases: Vec<(&str, String, &[&str])> = vec![
        ("syntax.toml", base.replace("name = \"Finkel\"", "name = \"Finkel"), &["syntax.toml", "TOML parse error"]),
        ("field.toml", base.replace("pieces = 7", "pieces = 7\ncolour = \"red\""), &["field.toml", "unknown field `colour`"]),
        ("dice.toml", base.replace("dice = \"BIN4\"", "dice = \"BIN9\""), &["dice.toml", "BIN9"]),
        ("path.toml", base.replace("PATH-14", "PATH-99"), &["path.toml", "unknown path 'PATH-99'"]),
        ("kind.toml", base.replace("kind = \"safe\"", "kind = \"sticky\""), &["kind.toml", "sticky"]),
        ("noid.toml", base.replace("id = \"finkel\"", ""), &["noid.toml", "'id'"]),
        ("pieces.toml", base.replace("pieces = 7", "pieces = 99"), &["pieces.toml", "99"]),
        ("empty.toml", String::new(), &["empty.toml"]),
    ];
    for (name, body, needles) in cases {
        assert_ne!(body, base, "{name}: the replacement did not apply");
        let file = dir.path().join(name);
        fs::write(&file, body).unwrap();
        run_fails(&["play", "--rules-file", path_str(&file), "--light", "random", "--dark", "random", "--quiet"], needles);
        run_fails(&["rules", "show", "--file", path_str(&file)], needles);
    }
}

#[test]
fn a_user_rule_set_file_plays_and_replays() {
    let dir = TempDir::new().unwrap();
    let body = finkel_toml()
        .replace("id = \"finkel\"", "id = \"my-finkel\"")
        .replace("name = \"Finkel\"", "name = \"My Finkel\"")
        .replace("pieces = 7", "pieces = 3");
    let rules = dir.path().join("my.toml");
    fs::write(&rules, &body).unwrap();
    let shown = run_ok(&["rules", "show", "--file", path_str(&rules)]);
    assert!(shown.contains("My Finkel (my-finkel)") && shown.contains("Pieces: 3 each"), "{shown}");
    let file = bot_game(dir.path(), &["--rules-file", path_str(&rules)], 5, "mine.json");
    let record = record_json(&file);
    assert_eq!(record["rules"], "my-finkel");
    assert_eq!(record["rules_file"].as_str(), Some(body.as_str()), "the record embeds the file text");
    // The record does not need the file any more.
    fs::remove_file(&rules).unwrap();
    let replay = run_ok(&["replay", path_str(&file)]);
    assert!(replay.contains("my-finkel") && replay.contains("stored in the record"), "{replay}");
    // An option on a user's file works like on a built-in one.
    fs::write(&rules, &body).unwrap();
    bot_game(dir.path(), &["--rules-file", path_str(&rules), "--pieces", "2"], 6, "mine2.json");
}

/// A finished finkel record to corrupt.
fn good_record(dir: &Path) -> (PathBuf, serde_json::Value) {
    let file = bot_game(dir, &["--rules", "finkel"], 12, "good.json");
    let json = record_json(&file);
    (file, json)
}

fn write_json(dir: &Path, name: &str, value: &serde_json::Value) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, serde_json::to_string_pretty(value).unwrap()).unwrap();
    p
}

#[test]
fn corrupt_records_are_reported() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (good, json) = good_record(d);
    let good_text = fs::read_to_string(&good).unwrap();

    let not_json = d.join("not.json");
    fs::write(&not_json, "this is not a game record").unwrap();
    run_fails(&["replay", path_str(&not_json)], &["not.json", "not a valid game record"]);

    let truncated = d.join("truncated.json");
    fs::write(&truncated, &good_text[..good_text.len() / 2]).unwrap();
    run_fails(&["replay", path_str(&truncated)], &["truncated.json", "not a valid game record"]);

    let mut v = json.clone();
    v["version"] = 9.into();
    run_fails(&["replay", path_str(&write_json(d, "version.json", &v))], &["unsupported record version 9"]);

    // An illegal move right after the first throw: nothing stands on 5 yet.
    let mut v = json.clone();
    v["actions"].as_array_mut().unwrap().insert(1, serde_json::json!({ "move": { "from": 5, "to": 9 } }));
    run_fails(&["replay", path_str(&write_json(d, "illegal.json", &v))], &["action 1", "move 5->9", "illegal"]);

    // A throw the dice cannot show, later in the game.
    let mut v = json.clone();
    let actions = v["actions"].as_array_mut().unwrap();
    let k = actions.iter().rposition(|a| a.get("roll").is_some()).unwrap();
    actions[k] = serde_json::json!({ "roll": 9 });
    run_fails(&["replay", path_str(&write_json(d, "roll.json", &v))], &[&format!("action {k}"), "roll 9"]);

    // The last move removed: the recorded winner no longer matches.
    let mut v = json.clone();
    v["actions"].as_array_mut().unwrap().pop();
    run_fails(&["replay", path_str(&write_json(d, "winner.json", &v))], &["won"]);

    let mut v = json.clone();
    v["rules"] = "nope".into();
    run_fails(&["replay", path_str(&write_json(d, "rules.json", &v))], &["unknown rule set 'nope'"]);

    let mut v = json.clone();
    v["options"]["colour"] = "red".into();
    run_fails(&["replay", path_str(&write_json(d, "option.json", &v))], &["colour"]);

    let mut v = json.clone();
    v["rules_file"] = "id = \"x\"\nname = ".into();
    run_fails(&["replay", path_str(&write_json(d, "file.json", &v))], &["TOML parse error"]);

    let mut v = json;
    v["extra"] = 1.into();
    run_fails(&["replay", path_str(&write_json(d, "field.json", &v))], &["unknown field `extra`"]);

    run_fails(&["replay", path_str(&d.join("missing.json"))], &["cannot read", "missing.json"]);
}

/// Every rule set has a page in `docs/rules/`, indexed by its README, whose
/// path diagrams are the ones the engine prints and which names every option.
#[test]
fn rule_set_docs_match_the_engine() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
    let index = fs::read_to_string(docs.join("README.md")).expect("docs/rules/README.md");
    for id in rule_sets() {
        assert!(index.contains(&format!("({id}.md)")), "README.md does not link {id}.md");
        let page = fs::read_to_string(docs.join(format!("{id}.md"))).unwrap_or_else(|e| panic!("docs/rules/{id}.md: {e}"));
        assert!(page.starts_with("# ") && page.contains(&format!("(`{id}`)")), "{id}.md: title");
        let shown = run_ok(&["rules", "show", id]);
        let start = shown.find("Light's path").unwrap();
        let end = shown[start..].find("\nJudgment").or_else(|| shown[start..].find("\nOptions")).unwrap() + start;
        let diagrams = shown[start..end].trim_end();
        assert!(page.contains(diagrams), "{id}.md: the path diagrams differ from `ur rules show {id}`:\n{diagrams}");
        for opt in options_of(id).iter().chain(&["pieces"]) {
            assert!(page.contains(&format!("`{opt}`")), "{id}.md does not document option {opt}");
        }
    }
}

#[test]
fn bench_times_a_bot_and_counts_its_search() {
    let out = run_ok(&["bench", "--rules", "guard-d6", "--bot", "mcts:40", "--games", "1", "--seed", "3"]);
    let searches = out.split("searches: ").nth(1).and_then(|s| s.split_whitespace().next()).and_then(|n| n.parse::<u64>().ok());
    assert!(searches.is_some_and(|n| n > 0), "no search count in:\n{out}");
    run_fails(&["bench", "--rules", "finkel", "--bot", "mcts:0"], &["mcts"]);
}
