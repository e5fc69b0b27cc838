//! Times a solve: `cargo run --release -p ur-solve --example solve_time -- finkel 3 [threads] [table-to-write]`.
//! With `SOLVE_MEMORY=GIB` it solves under that cap as `ur solve --memory`
//! does (checkpoints and rows on disk in a temporary folder); with
//! `SOLVE_TRACE` set it prints every sweep and the memory in use. The
//! result line gives the seconds spent compiling operators (from a group's
//! start to its `compiled` report) besides the total.

use std::sync::Mutex;
use std::time::Instant;

use ur_rules::{OptionValue, Options, Rules, Side, State};
use ur_solve::{solve_kept, Indexer, Layer, Progress, SolveConfig};

/// The process's resident memory now, GiB.
fn rss_gib() -> f64 {
    ur_solve::plan::resident_bytes() as f64 / (1u64 << 30) as f64
}
/// With `SOLVE_TRACE` set, prints every sweep's change; always sums the
/// compile seconds: (the current group's start, the sum so far).
struct Trace(bool, Instant, Mutex<(Instant, f64)>);
impl Progress for Trace {
    fn layers_started(&self, _: &[Layer], _: u64, _: u64) {
        self.2.lock().expect("not poisoned").0 = Instant::now();
    }
    fn compiled(&self, layers: &[Layer], bytes: u64) {
        let mut compile = self.2.lock().expect("not poisoned");
        compile.1 += compile.0.elapsed().as_secs_f64();
        if self.0 {
            let len: u64 = layers.iter().map(|l| l.len).sum();
            eprintln!(
                "{:8.2}s compiled {} positions: {:.1} bytes a position in memory; {:.2} GiB resident",
                self.1.elapsed().as_secs_f64(),
                len,
                bytes as f64 / len as f64,
                rss_gib()
            );
        }
    }
    fn sweep(&self, layers: &[Layer], sweep: u32, change: f64) {
        if self.0 {
            let l: Vec<String> = layers.iter().map(|l| format!("{}/{} ({})", l.mine, l.theirs, l.len)).collect();
            eprintln!(
                "{:8.2}s {} sweep {sweep} change {change:.2e}; {:.2} GiB resident",
                self.1.elapsed().as_secs_f64(),
                l.join(" "),
                rss_gib()
            );
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
    let mut cfg = SolveConfig { threads, ..SolveConfig::default() };
    let folder = tempfile::tempdir().expect("a temporary folder");
    if let Some(cap) = std::env::var("SOLVE_MEMORY").ok().and_then(|c| c.parse::<f64>().ok()) {
        let plan = ur_solve::plan::plan_with_threads(&rules, &index, true, 2, threads);
        let held = ur_solve::plan::resident_bytes();
        let layout = plan.layout_under((cap * (1u64 << 30) as f64) as u64 - held).expect("a layout under the cap");
        eprintln!("plan: {:.2} GiB at the peak", (plan.peak_with(&layout) + held) as f64 / (1u64 << 30) as f64);
        cfg.layout = Some(layout);
        cfg.checkpoint = Some(folder.path().join("ckpt"));
    }
    let trace = Trace(std::env::var_os("SOLVE_TRACE").is_some(), started, Mutex::new((started, 0.0)));
    let sol = solve_kept(&rules, &index, &cfg, &trace).expect("solves");
    let p = sol.value(&index, index.rank(&State::start(&rules, Side::Light))).expect("the start value");
    if let Some(out) = args.get(4) {
        sol.write_table(out.as_ref(), &rules, &index, ur_solve::Encoding::U16, cfg.tolerance).expect("table written");
    }
    println!(
        "{id} pieces={pieces} positions={} scheme={} time={:.3}s compile={:.2}s sweeps={} residual={:.2e} start={:.10}%",
        index.len(),
        index.scheme(),
        started.elapsed().as_secs_f64(),
        trace.2.lock().expect("not poisoned").1,
        sol.sweeps,
        sol.residual,
        100.0 * p
    );
}
