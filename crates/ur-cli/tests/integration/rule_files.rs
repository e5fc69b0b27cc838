//! Bad rule-set files on the command line: `ur bench`, `ur play` and
//! `ur arena` refuse every file in `tests/bad-rulesets/` at once (they used
//! to play unfinishable games forever), with a non-zero exit status and the
//! file's expected message (its `# expect:` lines).

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{describe, fails, ur_cmd};

/// Longer than any refusal takes; an unfinishable game would run past it.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `ur` with no input, killing it after [`DEADLINE`].
fn ur_within_deadline(args: &[&str]) -> Output {
    let mut child = ur_cmd(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the ur binary runs");
    let start = Instant::now();
    while child.try_wait().expect("wait for ur").is_none() {
        if start.elapsed() > DEADLINE {
            child.kill().expect("stop ur");
            let out = child.wait_with_output().expect("ur output");
            panic!("still running after {DEADLINE:?}: {}", describe(args, &out));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("ur output")
}

fn bad_file(name: &str) -> (PathBuf, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/bad-rulesets").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expect = text.lines().filter_map(|l| l.strip_prefix("# expect:")).map(|e| e.trim().to_owned()).collect();
    (path, expect)
}

fn refused_at_once(name: &str, command: &[&str]) {
    let (path, expect) = bad_file(name);
    let mut args = command.to_vec();
    args.extend(["--rules-file", path.to_str().expect("a UTF-8 path")]);
    let out = ur_within_deadline(&args);
    let mut needles: Vec<&str> = expect.iter().map(String::as_str).collect();
    needles.push(name);
    fails(&args, &out, &needles);
}

/// The unfinishable games of the report: each used to run forever.
const UNFINISHABLE: [&str; 4] = ["finkel-no-one.toml", "bell-one-square.toml", "sixteen-no-move.toml", "sixteen-even-throws.toml"];

#[test]
fn bench_refuses_unfinishable_rule_sets_at_once() {
    for name in UNFINISHABLE {
        refused_at_once(name, &["bench", "--games", "10"]);
    }
}

#[test]
fn play_refuses_unfinishable_rule_sets_at_once() {
    for name in UNFINISHABLE {
        refused_at_once(name, &["play"]);
        refused_at_once(name, &["play", "--light", "random", "--dark", "random", "--quiet"]);
    }
}

#[test]
fn arena_refuses_an_unfinishable_rule_set_at_once() {
    refused_at_once("finkel-no-one.toml", &["arena", "--bots", "random,greedy", "--games", "10", "--quiet"]);
}

#[test]
fn wrong_types_and_geometry_are_refused_with_every_problem() {
    for name in ["pieces-text.toml", "pieces-decimal.toml", "many-problems.toml", "path-off-board.toml", "path-not-adjacent.toml"] {
        refused_at_once(name, &["bench", "--games", "10"]);
        refused_at_once(name, &["play"]);
    }
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `ur solve --rules-file` names its table after the rule-set id: an id
/// that climbs out of the table store, makes a folder in it or is empty is
/// refused with the rule, and nothing is written.
#[test]
fn solve_refuses_a_rule_set_id_that_is_no_file_name() {
    let work = tempfile::tempdir().unwrap();
    let store = work.path().join("data").join("ur").join("tables");
    for name in ["id-parent-folder.toml", "id-slash.toml", "id-empty.toml"] {
        let (path, expect) = bad_file(name);
        let args = ["solve", "--rules-file", path.to_str().unwrap(), "--pieces", "1", "--quiet", "--no-checkpoint"];
        let out = ur_cmd(&args).env("UR_TABLES", &store).stdin(Stdio::null()).output().expect("the ur binary runs");
        let mut needles: Vec<&str> = expect.iter().map(String::as_str).collect();
        needles.push("use 1 to 64 characters from a-z, 0-9, - and _");
        fails(&args, &out, &needles);
    }
    assert_eq!(files_under(work.path()), Vec::<PathBuf>::new(), "a refused rule set writes nothing");
}
