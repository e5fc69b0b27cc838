//! Times perfect-move queries on a memory-mapped table:
//! `cargo run --release -p ur-solve --example query_time -- TABLE [queries] [cycle|random|both]`.
//!
//! `cycle` asks about 4,096 random positions over and over, so after the first pass the table
//! entries they reach sit in the cache. `random` asks about a fresh random position (and throw)
//! each time, over the whole table: the positions are drawn and unranked in batches of 4,096
//! outside the timed part, and each is asked about once. `both` (the default) runs `cycle`
//! then `random`.
//!
//! Each line gives the wall time and this thread's CPU time per query: on a shared machine the
//! wall time also counts the time the thread waited for a core, the CPU time does not.

use std::path::Path;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{OptionValue, Options, RuleSetFile, Rules, Side, State, Throw};
use ur_solve::{Bellman, Indexer, Table};

const BATCH: usize = 4096;

/// CPU time used by this thread so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = Path::new(args.get(1).expect("usage: query_time TABLE [queries] [cycle|random|both]"));
    let queries: usize = args.get(2).and_then(|q| q.parse().ok()).unwrap_or(1_000_000);
    let mode = args.get(3).map(String::as_str).unwrap_or("both");
    let table = Table::open(path).expect("a valid table");
    let options: Options = table.header.options.iter().map(|(k, v): (&String, &OptionValue)| (k.clone(), v.clone())).collect();
    let rules = Rules::from_file(&RuleSetFile::builtin(&table.header.rules_id).expect("built in"), &options).expect("rules");
    table.check_rules(&rules, path).expect("matching rules");
    let index = Indexer::new(&rules).expect("index");
    let bellman = Bellman::new(&rules, &index);
    let throws: Vec<Throw> = rules.throws().map(|t| t.0).collect();
    let query = |st: &State, throw: &Throw| bellman.move_values(st, throw, &table).into_iter().map(|m| m.1).fold(0.0, f64::max);
    let report = |name: &str, wall: Duration, cpu: Duration, checksum: f64| {
        let per = |d: Duration| d.as_secs_f64() * 1e9 / queries as f64;
        println!(
            "{name}: {queries} best-move queries in {:.3} s: {:.0} ns per query, {:.0} ns of CPU time (checksum {checksum:.3})",
            wall.as_secs_f64(),
            per(wall),
            per(cpu)
        )
    };

    if mode == "cycle" || mode == "both" {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let positions: Vec<_> = (0..BATCH).map(|_| index.unrank(&rules, rng.gen_range(0..index.len()), Side::Light)).collect();
        let (started, cpu) = (Instant::now(), thread_cpu());
        let mut checksum = 0.0;
        for q in 0..queries {
            checksum += query(&positions[q % positions.len()], &throws[q % throws.len()]);
        }
        report("cycle over 4,096 positions", started.elapsed(), thread_cpu() - cpu, checksum);
    }

    if mode == "random" || mode == "both" {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let (mut wall, mut cpu) = (Duration::ZERO, Duration::ZERO);
        let mut checksum = 0.0;
        let mut done = 0;
        while done < queries {
            let n = BATCH.min(queries - done);
            let batch: Vec<(State, usize)> = (0..n)
                .map(|_| (index.unrank(&rules, rng.gen_range(0..index.len()), Side::Light), rng.gen_range(0..throws.len())))
                .collect();
            let (started, cpu_started) = (Instant::now(), thread_cpu());
            for (st, t) in &batch {
                checksum += query(st, &throws[*t]);
            }
            wall += started.elapsed();
            cpu += thread_cpu() - cpu_started;
            done += n;
        }
        report("random positions over the whole table", wall, cpu, checksum);
    }
}
