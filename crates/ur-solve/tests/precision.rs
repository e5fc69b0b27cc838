//! Where the sweeps start does not change the table: the first sweeps of
//! each group run on `f32` values, the rest on `f64`, and positions start
//! from the race with one piece fewer a side; the table is the one of a
//! solve in `f64` throughout from one half.

use ur_rules::{OptionValue, Options, Rules, Side, State};
use ur_solve::{solve, table, Encoding, Indexer, Silent, SolveConfig};

fn rules(id: &str, pieces: i64) -> Rules {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Rules::builtin_with(id, &opts).unwrap()
}

#[test]
fn f32_first_sweeps_from_the_smaller_race_give_the_f64_table_on_every_three_piece_race_set() {
    let ids: Vec<&str> = ur_rules::spec::BUILTIN.iter().map(|(id, _)| *id).filter(|id| Indexer::new(&rules(id, 3)).is_ok()).collect();
    assert!(ids.len() >= 11, "{ids:?}");
    for id in ids {
        let rules = rules(id, 3);
        let index = Indexer::new(&rules).unwrap();
        let plain = SolveConfig { f32_first: false, start_from_fewer: false, ..SolveConfig::default() };
        let wide = solve(&rules, &index, &plain, &Silent).unwrap();
        let mixed = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
        let (a, b) = (table::encode(&wide.values, Encoding::U16), table::encode(&mixed.values, Encoding::U16));
        let differ = a.chunks_exact(2).zip(b.chunks_exact(2)).filter(|(x, y)| x != y).count();
        let far = wide.values.iter().zip(mixed.values.iter()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert_eq!(differ, 0, "{id}: {differ} u16 entries differ; values at most {far:.1e} apart");
        assert!(far <= 1e-10, "{id}: values {far:.1e} apart");
        let start = index.rank(&State::start(&rules, Side::Light)) as usize;
        assert!((wide.values[start] - mixed.values[start]).abs() <= 1e-12, "{id}: start values differ");
        println!("{id}: {} positions, values at most {far:.1e} apart, sweeps {} and {}", index.len(), wide.sweeps, mixed.sweeps);
    }
}
