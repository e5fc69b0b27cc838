//! `ur train-eval` and `ur train-selfplay`: small fits that write weights the
//! bots can play with, byte for byte the same from the same arguments.

use std::fs;

mod common;
use common::{path_str, run_fails, run_ok};

#[test]
fn train_eval_writes_the_same_weights_twice_and_they_play() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    for out in [&a, &b] {
        let text =
            run_ok(&["train-eval", "--rules", "finkel", "--pieces", "1,2", "--more", "", "--samples", "300", "--out", path_str(out)]);
        assert!(text.contains("(training set)") && text.contains("weights written to"), "{text}");
    }
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    let report = run_ok(&["arena", "--pieces", "2", "--bots", "expectimax:1,greedy", "--games", "4", "--quiet", "--weights", path_str(&a)]);
    assert!(report.contains("expectimax:1"), "{report}");
    run_fails(&["train-eval", "--rules", "finkel", "--samples", "50", "--out", path_str(&a)], &["--samples of at least 100"]);
}

#[test]
fn train_selfplay_adds_a_model_to_the_built_in_weights_reproducibly() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    for out in [&a, &b] {
        let text =
            run_ok(&["train-selfplay", "--rules", "finkel", "--pieces", "2", "--iterations", "1", "--games", "3", "--out", path_str(out)]);
        assert!(text.contains("(model finkel@2"), "{text}");
    }
    assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
    let weights: serde_json::Value = serde_json::from_str(&fs::read_to_string(&a).unwrap()).unwrap();
    assert!(weights.to_string().contains("finkel@2"), "the model is in the file");
    run_fails(&["train-selfplay", "--base", "/no/such/weights.json", "--out", path_str(&a)], &["cannot read /no/such/weights.json"]);
}
