//! Times a solve: `cargo run --release -p ur-solve --example solve_time -- finkel 3 [threads] [table-to-write]`.

use std::time::Instant;

use ur_rules::{OptionValue, Options, Rules, Side, State};
use ur_solve::{solve, Indexer, Layer, Progress, SolveConfig, Values};

/// With `SOLVE_TRACE` set, prints every sweep's change.
struct Trace(bool, Instant);
impl Progress for Trace {
    fn compiled(&self, layers: &[Layer], bytes: u64) {
        if self.0 {
            let len: u64 = layers.iter().map(|l| l.len).sum();
            eprintln!(
                "{:8.2}s compiled {} positions: {:.1} bytes a position",
                self.1.elapsed().as_secs_f64(),
                len,
                bytes as f64 / len as f64
            );
        }
    }
    fn sweep(&self, layers: &[Layer], sweep: u32, change: f64) {
        if self.0 {
            let l: Vec<String> = layers.iter().map(|l| format!("{}/{} ({})", l.mine, l.theirs, l.len)).collect();
            eprintln!("{:8.2}s {} sweep {sweep} change {change:.2e}", self.1.elapsed().as_secs_f64(), l.join(" "));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = args.get(1).map_or("finkel", String::as_str);
    let pieces: i64 = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(3);
    let threads: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(0);
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    let rules = Rules::builtin_with(id, &opts).expect("known rule set");
    let started = Instant::now();
    let index = Indexer::new(&rules).expect("solvable");
    let cfg = SolveConfig { threads, ..SolveConfig::default() };
    let sol = solve(&rules, &index, &cfg, &Trace(std::env::var_os("SOLVE_TRACE").is_some(), started)).expect("solves");
    let p = sol.get(index.rank(&State::start(&rules, Side::Light)));
    if let Some(out) = args.get(4) {
        let encoding = ur_solve::Encoding::U16;
        ur_solve::table::write_table(out.as_ref(), &rules, &index, &sol.values, encoding, sol.residual, cfg.tolerance)
            .expect("table written");
    }
    println!(
        "{id} pieces={pieces} positions={} scheme={} time={:.3}s sweeps={} residual={:.2e} start={:.10}%",
        index.len(),
        index.scheme(),
        started.elapsed().as_secs_f64(),
        sol.sweeps,
        sol.residual,
        100.0 * p
    );
}
