//! Solutions against published values and state counts.

use ur_rules::{OptionValue, Options, Rules, Side, State};
use ur_solve::{solve, Indexer, Silent, SolveConfig, Values};

fn rules(id: &str, pieces: i64) -> Rules {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Rules::builtin_with(id, &opts).unwrap()
}

fn start_value(id: &str, pieces: i64) -> f64 {
    let r = rules(id, pieces);
    let index = Indexer::new(&r).unwrap();
    let sol = solve(&r, &index, &SolveConfig::default(), &Silent).unwrap();
    assert!(sol.residual <= 1e-12, "residual {}", sol.residual);
    sol.get(index.rank(&State::start(&r, Side::Light)))
}

#[test]
fn finkel_two_pieces_matches_published_value() {
    let p = start_value("finkel", 2) * 100.0;
    assert!((p - 51.8578).abs() < 0.0015, "{p}");
}

#[test]
fn state_counts_match_published_counts_less_finished_positions() {
    // Published counts include the positions where one side has finished.
    assert_eq!(Indexer::new(&rules("finkel", 7)).unwrap().len(), 137_892_016 - 21_919);
    assert_eq!(Indexer::new(&rules("blitz", 5)).unwrap().len(), 41_254_034 - 10_253);
    assert_eq!(Indexer::new(&rules("masters", 7)).unwrap().len(), 500_981_472 - 51_479);
}
