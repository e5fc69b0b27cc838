//! Times perfect-move queries on a memory-mapped table:
//! `cargo run --release -p ur-solve --example query_time -- TABLE [queries]`.

use std::path::Path;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{OptionValue, Options, RuleSetFile, Rules, Side};
use ur_solve::{Bellman, Indexer, Table};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = Path::new(args.get(1).expect("usage: query_time TABLE [queries]"));
    let queries: usize = args.get(2).and_then(|q| q.parse().ok()).unwrap_or(1_000_000);
    let table = Table::open(path).expect("a valid table");
    let options: Options = table.header.options.iter().map(|(k, v): (&String, &OptionValue)| (k.clone(), v.clone())).collect();
    let rules = Rules::from_file(&RuleSetFile::builtin(&table.header.rules_id).expect("built in"), &options).expect("rules");
    table.check_rules(&rules, path).expect("matching rules");
    let index = Indexer::new(&rules).expect("index");
    let bellman = Bellman::new(&rules, &index);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let throws: Vec<_> = rules.throws().map(|t| t.0).collect();
    let positions: Vec<_> = (0..4096).map(|_| index.unrank(&rules, rng.gen_range(0..index.len()), Side::Light)).collect();
    let started = Instant::now();
    let mut checksum = 0.0;
    for q in 0..queries {
        let st = &positions[q % positions.len()];
        let throw = &throws[q % throws.len()];
        let best = bellman.move_values(st, throw, &table).into_iter().map(|m| m.1).fold(0.0, f64::max);
        checksum += best;
    }
    let secs = started.elapsed().as_secs_f64();
    println!("{queries} best-move queries in {secs:.3} s: {:.0} ns per query (checksum {checksum:.3})", secs * 1e9 / queries as f64);
}
