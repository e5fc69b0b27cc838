//! `ur train-eval` and `ur train-selfplay`: small fits that write weights the
//! bots can play with, byte for byte the same from the same arguments.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common;
use common::{path_str, run_fails, run_ok};

/// Runs `ur ARGS --out FILE` twice into `dir`, checks that stdout mentions
/// `needle` and that both files are the same; returns the first file.
fn written_twice(dir: &Path, args: &[&str], needle: &str) -> PathBuf {
    let outs = [dir.join("a.json"), dir.join("b.json")];
    for out in &outs {
        let mut all = args.to_vec();
        all.extend(["--out", path_str(out)]);
        let text = run_ok(&all);
        assert!(text.contains(needle), "{text}");
    }
    assert_eq!(fs::read(&outs[0]).unwrap(), fs::read(&outs[1]).unwrap(), "the same arguments write the same file");
    outs[0].clone()
}

#[test]
fn train_eval_writes_the_same_weights_twice_and_they_play() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["train-eval", "--rules", "finkel", "--pieces", "1,2", "--more", "", "--samples", "300"];
    let a = written_twice(dir.path(), &args, "(training set)");
    let report = run_ok(&["arena", "--pieces", "2", "--bots", "expectimax:1,greedy", "--games", "4", "--quiet", "--weights", path_str(&a)]);
    assert!(report.contains("expectimax:1"), "{report}");
    run_fails(&["train-eval", "--rules", "finkel", "--samples", "50", "--out", path_str(&a)], &["--samples of at least 100"]);
}

#[test]
fn train_selfplay_adds_a_model_to_the_built_in_weights_reproducibly() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["train-selfplay", "--rules", "finkel", "--pieces", "2", "--iterations", "1", "--games", "3"];
    let a = written_twice(dir.path(), &args, "(model finkel@2");
    let weights: serde_json::Value = serde_json::from_str(&fs::read_to_string(&a).unwrap()).unwrap();
    assert!(weights.to_string().contains("finkel@2"), "the model is in the file");
    run_fails(&["train-selfplay", "--base", "/no/such/weights.json", "--out", path_str(&a)], &["cannot read /no/such/weights.json"]);
}

#[test]
fn train_net_writes_the_same_network_twice_and_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let args =
        ["train-net", "--rules", "finkel", "--pieces", "2", "--games", "40", "--games-per-iteration", "20", "--hidden", "8", "--quiet"];
    let a = written_twice(dir.path(), &args, "network written to");
    let off = dir.path().join("off.json");
    run_ok(&[&args[..], &["--start-off", "1", "--out", path_str(&off)]].concat());
    let file: serde_json::Value = serde_json::from_str(&fs::read_to_string(&off).unwrap()).unwrap();
    assert!(file["training"].to_string().contains("--start-off 1"), "{}", file["training"]);
    let report = run_ok(&["arena", "--pieces", "2", "--bots", "net:1,greedy", "--games", "4", "--quiet", "--net", path_str(&a)]);
    assert!(report.contains("net:1"), "{report}");
    // Its checkpoint went with the finished run; a file that is no checkpoint is not overwritten.
    assert!(!dir.path().join("a.json.checkpoint").exists());
    let bad = dir.path().join("c.json.checkpoint");
    fs::write(&bad, "not json").unwrap();
    let out = dir.path().join("c.json");
    let mut all = args.to_vec();
    all.extend(["--out", path_str(&out)]);
    run_fails(&all, &["is not a training checkpoint; remove it"]);
    assert_eq!(fs::read_to_string(&bad).unwrap(), "not json");
    run_fails(&["train-net", "--lambda", "2", "--out", path_str(&dir.path().join("d.json"))], &["--lambda is 2"]);
    run_fails(&["train-net", "--leak", "1", "--out", path_str(&dir.path().join("d.json"))], &["--leak is 1"]);
    run_fails(&["train-net", "--max-turns", "0", "--out", path_str(&dir.path().join("e.json"))], &["--max-turns"]);
}

/// Named birds train on game clones, and a short cap on a game's turns is kept in the network's record.
#[test]
fn train_net_trains_named_birds_with_a_turn_cap() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("birds.json");
    let args = ["train-net", "--rules", "v1-named-birds", "--pieces", "2", "--games", "20", "--games-per-iteration", "10"];
    let text = run_ok(&[&args[..], &["--hidden", "8", "--max-turns", "30", "--quiet", "--out", path_str(&out)]].concat());
    assert!(text.contains("network written to") && text.contains("fire on an average position"), "{text}");
    run_fails(
        &[&args[..], &["--start-off", "1", "--out", path_str(&out)]].concat(),
        &["--start-off and --warm-start are for race rule sets"],
    );
    let file: serde_json::Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (file["rules"].as_str(), file["pieces"].as_u64(), file["encoder"].as_str()),
        (Some("v1-named-birds"), Some(2), Some("observe-v1"))
    );
    assert!(file["training"].to_string().contains("--max-turns 30"), "{}", file["training"]);
}
