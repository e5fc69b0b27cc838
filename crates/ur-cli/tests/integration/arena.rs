//! `ur arena` and `ur regret` through the binary: a round robin finishes and
//! ranks greedy above random, reproduces byte for byte whatever the thread
//! count, resumes from a save file to the same report, refuses bad input and
//! foreign or damaged save files cleanly; regret is zero for `perfect` and
//! positive for `random` against a small solved table.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::common;
use common::{describe, json_of_run as json, path_str, run_fails, run_ok, text, ur};

/// A 2-piece Finkel table, solved once for all tests.
fn table() -> &'static Path {
    static TABLE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = TABLE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("finkel-2.urt");
        run_ok(&["solve", "finkel", "--pieces", "2", "--out", path_str(&path), "--quiet"]);
        (dir, path)
    });
    path
}

#[test]
fn greedy_beats_random_with_intervals_and_elo() {
    let args = ["arena", "--rules", "finkel", "--bots", "random,greedy", "--games", "200", "--seed", "7", "--quiet"];
    let out = run_ok(&args);
    for needle in ["random", "greedy", "Elo", "[", "games/s", "200"] {
        assert!(out.contains(needle), "missing {needle:?}:\n{out}");
    }
    let elo_lines: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("Elo")).skip(1).take(2).collect();
    assert!(elo_lines[0].contains("greedy") && elo_lines[1].contains("random"), "greedy should rank first:\n{out}");

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let r = json(&json_args);
    let pair = &r["pairs"][0];
    assert_eq!((pair["a"].as_str(), pair["b"].as_str()), (Some("random"), Some("greedy")));
    assert_eq!(pair["games"], 200);
    let (a, b, d) = (pair["a_wins"].as_u64().unwrap(), pair["b_wins"].as_u64().unwrap(), pair["draws"].as_u64().unwrap());
    assert_eq!(a + b + d, 200);
    assert!(b > a, "greedy should beat random: {pair}");
    let ci = pair["a_score_ci95"].as_array().unwrap();
    let (lo, hi, score) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap(), pair["a_score"].as_f64().unwrap());
    assert!(lo <= score && score <= hi && hi < 0.5, "random's score {score} in [{lo}, {hi}]");
    let elo = r["elo"].as_array().unwrap();
    assert_eq!(elo[0]["bot"], "greedy");
    assert!(elo[0]["elo"].as_f64().unwrap() > 0.0 && elo[0]["ci95"].as_f64().unwrap() > 0.0, "{elo:?}");
    assert_eq!(elo[1]["bot"], "random");
    assert_eq!(elo[1]["elo"].as_f64(), Some(0.0));
    assert_eq!(r["elo_anchor"], "random");
}

#[test]
fn the_seed_fixes_the_report_whatever_the_thread_count() {
    let run = |threads: &str, seed: &str| {
        let args = [
            "arena",
            "--bots",
            "greedy,random,perfect",
            "--table",
            path_str(table()),
            "--games",
            "40",
            "--seed",
            seed,
            "--threads",
            threads,
            "--json",
            "--quiet",
        ];
        let out = ur(&args);
        assert!(out.status.success(), "{}", describe(&args, &out));
        out.stdout
    };
    let one = run("1", "11");
    assert_eq!(one, run("2", "11"), "--threads 1 and --threads 2 differ");
    assert_eq!(one, run("2", "11"));
    assert_ne!(one, run("2", "12"), "another seed should give other games");
    let r: Value = serde_json::from_slice(&one).unwrap();
    assert_eq!(r["pairs"].as_array().unwrap().len(), 3);
    assert_eq!(r["options"]["pieces"], 2, "the table's options are the default: {r}");
    assert_eq!(r["elo_anchor"], "random");
}

#[test]
fn paired_dice_can_be_turned_off() {
    let base = ["arena", "--bots", "random,greedy", "--games", "20", "--json", "--quiet"];
    let paired: Value = json(&base);
    assert_eq!(paired["paired_dice"], true);
    let mut args = base.to_vec();
    args.push("--no-paired-dice");
    let single: Value = json(&args);
    assert_eq!(single["paired_dice"], false);
}

#[test]
fn an_action_cap_makes_draws() {
    let r = json(&["arena", "--bots", "random,greedy", "--games", "4", "--max-actions", "10", "--json", "--quiet"]);
    assert_eq!(r["draws"], 4);
    let out = run_ok(&["arena", "--bots", "random,greedy", "--games", "4", "--max-actions", "10", "--quiet"]);
    assert!(out.contains("count as draws"), "{out}");
}

#[test]
fn bad_arena_input_is_refused() {
    run_fails(&["arena", "--bots", "random,wizard", "--games", "10"], &["unknown bot 'wizard'"]);
    run_fails(&["arena", "--bots", "random", "--games", "10"], &["at least two bots"]);
    run_fails(&["arena", "--bots", "random,random", "--games", "10"], &["twice"]);
    run_fails(&["arena", "--bots", "random,greedy", "--games", "0"], &["--games"]);
    run_fails(&["arena", "--bots", "random,greedy", "--games", "3"], &["even"]);
    run_fails(&["arena", "--rules", "nonesuch", "--bots", "random,greedy", "--games", "10"], &["nonesuch"]);
    run_fails(&["arena", "--bots", "random,perfect", "--games", "10"], &["--table"]);
    let t = path_str(table());
    run_fails(&["arena", "--bots", "random,perfect", "--games", "10", "--table", t, "--pieces", "3"], &["pieces=2", "pieces=3"]);
    run_fails(&["arena", "--bots", "random,perfect", "--games", "10", "--table", "/nonexistent/t.urt"], &["t.urt"]);
}

#[test]
fn perfect_has_no_regret_and_random_has_some() {
    let t = path_str(table());
    let perfect = json(&["regret", "--bot", "perfect", "--table", t, "--positions", "300", "--json", "--quiet"]);
    assert_eq!(perfect["decisions"], 300);
    assert_eq!(perfect["mean_regret_pp"].as_f64(), Some(0.0), "{perfect}");
    assert_eq!(perfect["perfect_fraction"].as_f64(), Some(1.0), "{perfect}");
    assert_eq!(perfect["options"]["pieces"], 2, "the table's rules are the default");

    for sampler in ["random", "greedy", "self"] {
        let random = json(&[
            "regret",
            "--rules",
            "finkel",
            "--bot",
            "random",
            "--table",
            t,
            "--positions",
            "500",
            "--sampler",
            sampler,
            "--json",
            "--quiet",
        ]);
        let mean = random["mean_regret_pp"].as_f64().unwrap();
        let ci = random["mean_regret_ci95_pp"].as_array().unwrap();
        assert!(mean > 0.1, "random should lose win probability ({sampler}): {random}");
        assert!(ci[0].as_f64().unwrap() > 0.0 && ci[0].as_f64().unwrap() <= mean && mean <= ci[1].as_f64().unwrap(), "{random}");
        assert!(random["perfect_fraction"].as_f64().unwrap() < 1.0);
    }

    let out = run_ok(&["regret", "--bot", "random", "--table", t, "--positions", "200", "--quiet"]);
    for needle in ["mean regret", "pp", "95% CI", "perfect choices", "ms per decision"] {
        assert!(out.contains(needle), "missing {needle:?}:\n{out}");
    }
}

#[test]
fn bad_regret_input_is_refused() {
    let t = path_str(table());
    run_fails(&["regret", "--bot", "random", "--positions", "10"], &["--table"]);
    run_fails(&["regret", "--bot", "wizard", "--table", t, "--positions", "10"], &["unknown bot 'wizard'"]);
    run_fails(&["regret", "--bot", "random", "--table", t, "--positions", "10", "--sampler", "wizard"], &["--sampler"]);
    run_fails(&["regret", "--bot", "random", "--table", t, "--positions", "0"], &["--positions"]);
    run_fails(&["regret", "--bot", "random", "--table", t, "--pieces", "3", "--positions", "10"], &["pieces=2", "pieces=3"]);
    run_fails(&["regret", "--rules", "masters", "--bot", "random", "--table", t, "--positions", "10"], &["masters"]);
    // A bot that cannot play the table's rules is refused before any game, not midway.
    let dir = tempfile::tempdir().unwrap();
    let masters = dir.path().join("masters-2.urt");
    run_ok(&["solve", "masters", "--pieces", "2", "--out", path_str(&masters), "--quiet"]);
    let m = path_str(&masters);
    run_fails(&["regret", "--bot", "net", "--table", m, "--positions", "10"], &["no trained network judges 'masters'"]);
    run_fails(&["regret", "--bot", "random", "--table", m, "--positions", "10", "--sampler", "net"], &["--sampler", "masters"]);
}

#[test]
fn play_takes_a_level() {
    let out = run_ok(&["play", "--level", "1", "--light", "greedy", "--quiet", "--seed", "3"]);
    assert!(out.contains("wins."), "{out}");
    run_fails(&["play", "--level", "6", "--quiet"], &["--level"]);
    run_fails(&["play", "--level", "2", "--vs", "random", "--quiet"], &["--level"]);
}

/// A small, fast arena of three pairs.
const SMALL: [&str; 11] =
    ["arena", "--rules", "finkel", "--pieces", "2", "--bots", "greedy,random,generic:greedy", "--games", "20", "--seed", "3"];

fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

/// The outcomes a save file holds, and how many of them are games played.
fn saved_games(path: &Path) -> (usize, usize) {
    let file: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let outcomes = file["outcomes"].as_array().unwrap();
    (outcomes.len(), outcomes.iter().filter(|o| !o.is_null()).count())
}

#[test]
fn an_arena_saved_and_resumed_reports_as_one_run() {
    let one = run_ok(&with(&SMALL, &["--threads", "1", "--json", "--quiet"]));
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("arena.json");
    let save = path_str(&save);

    let args = with(&SMALL, &["--save", save, "--stop-after", "7", "--threads", "1", "--json", "--quiet"]);
    let out = ur(&args);
    assert!(out.status.success(), "{}", describe(&args, &out));
    assert!(out.stdout.is_empty(), "no report before the end: {}", text(&out.stdout));
    assert!(text(&out.stderr).contains("7 of 60 games are saved"), "{}", text(&out.stderr));
    assert_eq!(saved_games(Path::new(save)), (60, 7));

    run_ok(&with(&SMALL, &["--save", save, "--stop-after", "30", "--threads", "2", "--json", "--quiet"]));
    assert_eq!(saved_games(Path::new(save)), (60, 37));

    let args = with(&SMALL, &["--save", save, "--threads", "2", "--json", "--quiet"]);
    let out = ur(&args);
    assert!(out.status.success(), "{}", describe(&args, &out));
    assert_eq!(text(&out.stdout), one, "a resumed arena should report as one run");
    assert!(text(&out.stderr).contains("37 more from"), "{}", text(&out.stderr));
    assert_eq!(saved_games(Path::new(save)), (60, 60));

    // A finished arena is only reported again.
    let out = ur(&with(&SMALL, &["--save", save, "--json", "--quiet"]));
    assert_eq!(text(&out.stdout), one);
    assert!(text(&out.stderr).contains("already in"), "{}", text(&out.stderr));
}

#[test]
fn a_save_file_from_another_arena_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("arena.json");
    let save = path_str(&save);
    run_ok(&with(&SMALL, &["--save", save, "--stop-after", "2", "--quiet"]));
    let before = std::fs::read(save).unwrap();

    let mut other_seed = SMALL;
    other_seed[10] = "4";
    run_fails(
        &with(&other_seed, &["--save", save, "--quiet"]),
        &["another arena", "seed 3 there, 4 here", "another --save file", "delete it"],
    );
    let mut other_bots = SMALL;
    other_bots[6] = "greedy,random";
    run_fails(&with(&other_bots, &["--save", save, "--quiet"]), &["another arena", "bots"]);
    run_fails(&with(&SMALL, &["--save", save, "--no-paired-dice", "--quiet"]), &["paired_dice"]);
    run_fails(&with(&SMALL, &["--save", save, "--max-actions", "500", "--quiet"]), &["max_actions"]);
    assert_eq!(std::fs::read(save).unwrap(), before, "a refused file is left as it was");
}

#[test]
fn a_damaged_save_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("arena.json");
    let save_str = path_str(&save);
    run_ok(&with(&SMALL, &["--save", save_str, "--stop-after", "5", "--threads", "1", "--quiet"]));
    let good = std::fs::read(&save).unwrap();

    std::fs::write(&save, &good[..good.len() / 2]).unwrap();
    run_fails(&with(&SMALL, &["--save", save_str, "--quiet"]), &["not a usable arena save file", "truncated", "delete it"]);
    std::fs::write(&save, "garbage\n").unwrap();
    run_fails(&with(&SMALL, &["--save", save_str, "--quiet"]), &["not a usable arena save file"]);
    std::fs::write(&save, "{\"a\": 1}\n").unwrap();
    run_fails(&with(&SMALL, &["--save", save_str, "--quiet"]), &["not an arena save file"]);
    let wrong_length = String::from_utf8(good).unwrap().replacen(",null", "", 1);
    std::fs::write(&save, wrong_length).unwrap();
    run_fails(&with(&SMALL, &["--save", save_str, "--quiet"]), &["59 outcomes for an arena of 60 games"]);

    run_fails(&with(&SMALL, &["--stop-after", "3"]), &["--save"]);
    run_fails(&with(&SMALL, &["--save", "/nonexistent/dir/arena.json", "--quiet"]), &["/nonexistent/dir"]);
}

#[test]
fn ctrl_c_keeps_every_game_it_counts() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("a.json");
    let s = path_str(&save);
    // Bots slow enough that the games outlast the first save on a quick machine.
    let args = ["arena", "--bots", "level3,greedy", "--games", "20000", "--threads", "1", "--quiet", "--save", s];
    let mut child = common::ur_cmd(&args).stdin(std::process::Stdio::null()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    // Wait for a save with games in it, then interrupt.
    let started = std::time::Instant::now();
    while !save.exists() || saved_games(&save).1 == 0 {
        assert!(started.elapsed().as_secs() < 300, "no games saved in 300 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    let line = err.lines().find(|l| l.starts_with("interrupted: ")).unwrap_or_else(|| panic!("no message: {err}"));
    let kept: usize = line["interrupted: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert_eq!(line, format!("interrupted: {kept} of 20000 games kept in {s}; run the same command to go on"));
    assert_eq!(saved_games(&save), (20000, kept), "the file holds every game the message counts");
}

#[test]
fn a_small_variant_of_another_family_is_solved_and_judges_regret() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vizier-1.urg");
    let p = path_str(&path);
    let t10_off = ["--option", "no_progress_turns=0", "--option", "repetition_limit=0"];
    fn solve<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["solve", "vizier-4-pyramids", "--option", "tokens_per_player=1", "--quiet"][..], extra].concat()
    }
    run_fails(&solve(&["--out", p]), &["no_progress_turns=0"]);
    assert!(!path.exists());
    run_fails(&solve(&t10_off), &["needs --out FILE"]);
    let out = run_ok(&solve(&[&t10_off[..], &["--out", p]].concat()));
    assert!(out.contains("situations") && out.contains("table written to"), "{out}");

    let regret = |bot: &str| json(&["regret", "--bot", bot, "--table", p, "--positions", "300", "--json", "--quiet"]);
    let random = regret("random");
    assert_eq!(random["rules"], "vizier-4-pyramids", "{random}");
    assert_eq!(random["options"]["tokens_per_player"], 1, "{random}");
    assert!(random["mean_regret_pp"].as_f64().unwrap() > 0.5, "random loses win probability: {random}");
    let greedy = regret("expectimax:2");
    assert!(greedy["mean_regret_pp"].as_f64().unwrap() < random["mean_regret_pp"].as_f64().unwrap(), "{greedy} {random}");

    run_fails(&["regret", "--bot", "random", "--table", p, "--option", "tokens_per_player=2"], &["fixes its options"]);
}
