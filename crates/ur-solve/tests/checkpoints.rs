//! Checkpoints: a solve that keeps finished layers on disk instead of in
//! memory, and one resumed after an interruption, give the same values as a
//! solve held wholly in memory.

use std::path::PathBuf;

use ur_rules::{OptionValue, Options, Rules};
use ur_solve::{solve, solve_kept, Encoding, Indexer, Layer, Progress, Silent, SolveConfig};

/// Counts the groups loaded from checkpoints.
#[derive(Default)]
struct Resumed(std::sync::atomic::AtomicUsize);
impl Progress for Resumed {
    fn layers_resumed(&self, _layers: &[Layer]) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// 4-piece Finkel, a one-thread configuration (two threads make runs
/// differ in the last bits), and its values solved in memory.
fn finkel4() -> (Rules, Indexer, SolveConfig, ur_solve::Solution) {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(4))].into();
    let rules = Rules::builtin_with("finkel", &opts).unwrap();
    let index = Indexer::new(&rules).unwrap();
    let one_thread = SolveConfig { threads: 1, ..SolveConfig::default() };
    let in_memory = solve(&rules, &index, &one_thread, &Silent).unwrap();
    (rules, index, one_thread, in_memory)
}

#[test]
fn spilled_and_resumed_solves_equal_the_in_memory_solve() {
    // Four pieces: layers large enough (megabytes) that released memory is
    // really returned, so a stray read of a released layer would show.
    let (rules, index, one_thread, in_memory) = finkel4();

    let dir = tempfile::tempdir().unwrap();
    let ckpt: PathBuf = dir.path().join("ckpt");
    let cfg = SolveConfig { checkpoint: Some(ckpt.clone()), ..one_thread };
    let spilled = solve(&rules, &index, &cfg, &Silent).unwrap();
    assert_eq!(bits(&spilled.values), bits(&in_memory.values));

    // An interruption during the last group: its checkpoint is missing.
    std::fs::remove_file(ckpt.join("layer-0-0.f64")).unwrap();
    let resumed_groups = Resumed::default();
    let resumed = solve(&rules, &index, &cfg, &resumed_groups).unwrap();
    assert_eq!(resumed_groups.0.into_inner(), 9, "every group but (0,0) comes from its checkpoint");
    assert_eq!(bits(&resumed.values), bits(&in_memory.values));
}

/// A solve under a memory cap (part of the rows on disk, read in every
/// sweep) that is interrupted resumes from its checkpoints to the same values.
#[test]
fn an_interrupted_capped_solve_resumes_to_the_same_values() {
    let (rules, index, one_thread, in_memory) = finkel4();

    let plan = ur_solve::plan(&rules, &index, true, 2);
    let layout = plan.layout_under((plan.minimum() + plan.peak()) / 2).unwrap();
    assert!(layout.disk() && layout.stored.iter().any(|&f| f < 1.0), "{layout:?}");
    let dir = tempfile::tempdir().unwrap();
    let ckpt: PathBuf = dir.path().join("ckpt");
    let cfg = SolveConfig { checkpoint: Some(ckpt.clone()), layout: Some(layout), ..one_thread };
    solve(&rules, &index, &cfg, &Silent).unwrap();
    // Interrupted during the last two groups.
    for file in ["layer-0-0.f64", "layer-0-1.f64"] {
        std::fs::remove_file(ckpt.join(file)).unwrap();
    }
    let resumed_groups = Resumed::default();
    let resumed = solve(&rules, &index, &cfg, &resumed_groups).unwrap();
    assert_eq!(resumed_groups.0.into_inner(), 8);
    assert_eq!(bits(&resumed.values), bits(&in_memory.values));
}

/// A table written layer by layer from a solve's checkpoints is the table
/// written from every value gathered in memory, byte for byte, in both
/// encodings; the values read back are those of the in-memory solve.
#[test]
fn a_table_written_from_the_checkpoints_equals_one_written_from_memory() {
    let (rules, index, one_thread, in_memory) = finkel4();
    let dir = tempfile::tempdir().unwrap();
    let cfg = SolveConfig { checkpoint: Some(dir.path().join("ckpt")), ..one_thread };
    let kept = solve_kept(&rules, &index, &cfg, &Silent).unwrap();
    for encoding in [Encoding::U16, Encoding::F64] {
        let (streamed, gathered) = (dir.path().join("streamed.urt"), dir.path().join("gathered.urt"));
        kept.write_table(&streamed, &rules, &index, encoding, 1e-12).unwrap();
        ur_solve::table::write_table(&gathered, &rules, &index, &in_memory.values, encoding, in_memory.residual, 1e-12).unwrap();
        assert!(std::fs::read(&streamed).unwrap() == std::fs::read(&gathered).unwrap(), "{encoding:?}");
    }
    for i in (0..index.len()).step_by(997) {
        assert_eq!(kept.value(&index, i).unwrap().to_bits(), in_memory.values[i as usize].to_bits(), "{i}");
    }
    let values = kept.into_solution(&index).unwrap().values;
    assert_eq!(bits(&values), bits(&in_memory.values));
}
