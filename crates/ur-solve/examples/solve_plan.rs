//! Prints what a solve will need, group by group, without solving:
//! `cargo run --release -p ur-solve --example solve_plan -- masters 7 [threads]`.

use ur_rules::{OptionValue, Options, Rules};
use ur_solve::Indexer;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = args.get(1).map_or("finkel", String::as_str);
    let pieces: i64 = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(3);
    let threads: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(0);
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    let rules = Rules::builtin_with(id, &opts).expect("known rule set");
    let index = Indexer::new(&rules).expect("solvable");
    let plan = ur_solve::plan::plan_with_threads(&rules, &index, true, 2, threads);
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    println!("{id} {pieces}: {} positions", plan.positions);
    println!(
        "group positions | pairs counts choices consts refs = rows (B/pos) | values compiling, sweeping | history | peak GiB | compile s"
    );
    for g in &plan.groups {
        let n = g.positions.max(1) as f64;
        let r = g.rows;
        let per = |b: u64| b as f64 / n;
        let names: Vec<String> = g.layers.iter().map(|l| format!("({},{})", l.mine, l.theirs)).collect();
        println!(
            "{} {} | {:.1} {:.1} {:.1} {:.1} {:.1} = {:.1} | {:.2} {:.2} GiB | {:.2} GiB | {:.2} | {:.2}",
            names.join("+"),
            g.positions,
            per(r.pairs),
            per(r.counts),
            per(r.choices),
            per(r.consts),
            per(r.refs),
            per(r.total()),
            gib(g.values_compiling),
            gib(g.values_sweeping),
            gib(g.history),
            gib(g.peak()),
            g.compile_seconds
        );
    }
    println!(
        "peak {:.2} GiB (finish {:.2} GiB, least {:.2} GiB); checkpoints {:.2} GiB, table {:.2} GiB; estimated {:.0} s of processor time",
        gib(plan.peak()),
        gib(plan.finish),
        gib(plan.minimum()),
        gib(plan.checkpoint_bytes),
        gib(plan.table_bytes),
        plan.cpu_seconds()
    );
    if let Some(cap) = args.get(4).and_then(|c| c.parse::<f64>().ok()) {
        match plan.layout_under((cap * (1u64 << 30) as f64) as u64) {
            Ok(layout) => println!(
                "under {cap} GiB: peak {:.2} GiB, {:.0} s of processor time, stored {:?}",
                gib(plan.peak_with(&layout)),
                plan.cpu_seconds_with(&layout),
                layout.stored.iter().map(|f| (f * 100.0).round() / 100.0).collect::<Vec<_>>()
            ),
            Err(need) => println!("under {cap} GiB: impossible, needs {:.2} GiB", gib(need)),
        }
    }
}
