//! Memory layouts: a solve that stores only part of each group's compiled
//! rows in memory (generating the rest again in every sweep, or reading it
//! from a file) gives exactly the values of one that stores them all, and a
//! memory cap chooses such a layout.

use ur_rules::{OptionValue, Options, Rules};
use ur_solve::{plan, solve, Indexer, Layout, Silent, SolveConfig};

fn rules(id: &str, pieces: i64) -> Rules {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Rules::builtin_with(id, &opts).unwrap()
}

/// Every race rule set the solver supports.
fn race_sets() -> Vec<&'static str> {
    let ids: Vec<&str> = ur_rules::spec::BUILTIN.iter().map(|(id, _)| *id).filter(|id| Indexer::new(&rules(id, 3)).is_ok()).collect();
    assert!(ids.len() >= 11, "{ids:?}");
    ids
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn storing_part_of_the_rows_gives_the_same_values_on_every_race_set() {
    // Two pieces: with no rows stored every sweep compiles its group again.
    for id in race_sets() {
        let rules = rules(id, 2);
        let index = Indexer::new(&rules).unwrap();
        let groups = plan(&rules, &index, false, 2).groups.len();
        // One thread: with two, stale reads make runs differ in the last bits.
        let all = SolveConfig { threads: 1, ..SolveConfig::default() };
        let full = solve(&rules, &index, &all, &Silent).unwrap();
        // No rows stored makes every sweep compile again: one set suffices.
        let shares: &[f64] = if id == "finkel" { &[0.0, 0.5] } else { &[0.5] };
        for &stored in shares {
            let cfg = SolveConfig { layout: Some(Layout { stored: vec![stored; groups], memory_rows: None }), ..all.clone() };
            let part = solve(&rules, &index, &cfg, &Silent).unwrap();
            assert_eq!(bits(&part.values), bits(&full.values), "{id}, {stored} of the rows stored");
            assert_eq!((part.residual, part.sweeps), (full.residual, full.sweeps), "{id}");
        }
    }
}

#[test]
fn rows_kept_on_disk_give_the_same_values_on_every_race_set() {
    for id in race_sets() {
        let rules = rules(id, 2);
        let index = Indexer::new(&rules).unwrap();
        let plan = plan(&rules, &index, true, 2);
        let all = SolveConfig { threads: 1, ..SolveConfig::default() };
        let full = solve(&rules, &index, &all, &Silent).unwrap();
        let dir = tempfile::tempdir().unwrap();
        for stored in [0.0, 0.5] {
            let layout = plan.layout_storing(vec![stored; plan.groups.len()]).unwrap();
            assert!(layout.disk(), "{id}");
            let cfg = SolveConfig { layout: Some(layout), checkpoint: Some(dir.path().join(format!("ckpt-{stored}"))), ..all.clone() };
            let part = solve(&rules, &index, &cfg, &Silent).unwrap();
            assert_eq!(bits(&part.values), bits(&full.values), "{id}, {stored} of the rows in memory, the rest on disk");
            assert_eq!((part.residual, part.sweeps), (full.residual, full.sweeps), "{id}");
        }
        // The rows' file is unnamed: nothing of it is left beside the checkpoints.
        for entry in std::fs::read_dir(dir.path().join("ckpt-0")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(name.starts_with("layer-") && name.ends_with(".f64"), "{id}: {name} left behind");
        }
    }
}

#[test]
fn a_capped_layout_keeps_rows_on_disk_when_checkpoints_are_kept() {
    let rules = rules("finkel", 5);
    let index = Indexer::new(&rules).unwrap();
    let (kept, none) = (plan(&rules, &index, true, 2), plan(&rules, &index, false, 2));
    let least = kept.minimum();
    assert!(least < none.minimum(), "on disk the constants leave memory too: {least} against {}", none.minimum());
    let layout = kept.layout_under(least + (kept.peak() - least) / 4).unwrap();
    assert!(layout.disk() && layout.stored.iter().any(|&f| f < 1.0), "{layout:?}");
    assert_eq!(kept.cpu_seconds_with(&layout), kept.cpu_seconds(), "reading rows costs the disk's time, not the processor's");
    assert!(kept.disk_reads(&layout) > 0);
    assert!(!none.layout_under((none.minimum() + none.peak()) / 2).unwrap().disk());
}

#[test]
fn a_memory_cap_chooses_a_layout_under_it_or_says_what_is_needed() {
    let rules = rules("finkel", 5);
    let index = Indexer::new(&rules).unwrap();
    // Without a checkpoint folder the rows not stored are generated again.
    let plan = plan(&rules, &index, false, 2);
    let (least, most) = (plan.minimum(), plan.peak());
    assert!(least < most * 2 / 3, "storing no rows saves a third at least: {least} against {most}");
    let cap = (least + most) / 2;
    let layout = plan.layout_under(cap).unwrap();
    assert!(plan.peak_with(&layout) <= cap, "{} over {cap}", plan.peak_with(&layout));
    assert!(layout.stored.iter().any(|&f| f < 1.0) && layout.stored.iter().any(|&f| f > 0.0), "{layout:?}");
    assert!(plan.cpu_seconds_with(&layout) > plan.cpu_seconds());
    assert_eq!(plan.layout_under(most * 2).unwrap(), plan.full_layout());
    let need = plan.layout_under(least / 2).unwrap_err();
    assert!(need >= least, "{need} < {least}");
}
