//! Whether `f32` working values could give the `u16` table of `f64` ones:
//! solves each race rule set in `f64`, rounds every value once to the
//! nearest `f32` (the best any `f32` solver could hold) and counts the
//! positions whose `u16` entry then differs, and how far the start value
//! moves. `cargo run --release -p ur-solve --example f32_values -- 3`.

use ur_rules::{OptionValue, Options, Rules, Side, State};
use ur_solve::{solve, table, Encoding, Indexer, Silent, SolveConfig};

fn main() {
    let pieces: i64 = std::env::args().nth(1).and_then(|p| p.parse().ok()).unwrap_or(3);
    println!("rule set | positions | u16 entries that differ | start value change (pp)");
    for (id, _) in ur_rules::spec::BUILTIN {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
        let Ok(rules) = Rules::builtin_with(id, &opts) else { continue };
        let Ok(index) = Indexer::new(&rules) else { continue };
        let sol = solve(&rules, &index, &SolveConfig::default(), &Silent).expect("solves");
        let rounded: Vec<f64> = sol.values.iter().map(|&v| f64::from(v as f32)).collect();
        let (exact, single) = (table::encode(&sol.values, Encoding::U16), table::encode(&rounded, Encoding::U16));
        let differ = exact.chunks_exact(2).zip(single.chunks_exact(2)).filter(|(a, b)| a != b).count();
        let start = index.rank(&State::start(&rules, Side::Light)) as usize;
        let moved = 100.0 * (rounded[start] - sol.values[start]).abs();
        println!("{id} | {} | {differ} | {moved:.1e}", index.len());
    }
}
