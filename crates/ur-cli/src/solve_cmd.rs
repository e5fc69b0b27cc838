//! `ur solve`: exact win probabilities for every position of a race rule set
//! (small variants of the other families: [`crate::solve_graph`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ur_solve::{solve_kept, Encoding, Indexer, Layer, Layout, Plan, Progress, SolveConfig, SolveError};

use ur_cli::outln;

use crate::rules_arg::RulesArgs;

#[derive(Args, Debug)]
pub struct SolveCmd {
    /// Rule-set id (see `ur rules`); the same as `--rules ID`.
    #[arg(conflicts_with_all = ["rules", "rules_file"])]
    id: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
    /// Where to write the table (default: the table store, `$UR_TABLES` or
    /// `tables` in the user's data folder, where `ur play` and `ur engine` find it).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Value encoding: f64 (exact) or u16 (2 bytes per position, ±0.0008 pp).
    #[arg(long, default_value = "u16")]
    encoding: String,
    /// Stop when max |T(v) - v| is at most this.
    #[arg(long, default_value_t = 1e-12)]
    tolerance: f64,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Do not keep per-layer checkpoints (by default FILE.ckpt-FINGERPRINT/, removed when done).
    #[arg(long)]
    no_checkpoint: bool,
    /// Print no progress display.
    #[arg(long)]
    quiet: bool,
    /// Keep the solve within GIB gibibytes of memory: the solver stores as much of
    /// its compiled operator as fits and keeps the rest in a file beside the
    /// checkpoints, read in every sweep (with --no-checkpoint: generated again in
    /// every sweep); the same table, more time. Or it says how much it needs.
    #[arg(long, value_name = "GIB")]
    memory: Option<f64>,
    /// Print the estimated time, memory and disk of the solve, and stop without solving.
    #[arg(long)]
    plan: bool,
}

impl SolveCmd {
    pub fn run(mut self) -> Result<()> {
        if let Some(id) = self.id.take() {
            self.rules.rules = id;
        }
        if self.rules.family() != ur_rules::Family::Race {
            if self.plan || self.memory.is_some() {
                bail!("--plan and --memory are for race rule sets; a small variant of {} is solved in memory as its situations are found (docs/solver.md)", self.rules.rules);
            }
            let options = self.rules.given_options()?;
            return crate::solve_graph::solve_variant(&self.rules.rules, &options, self.out.as_deref(), self.tolerance, self.quiet);
        }
        let rules = self.rules.load()?.rules;
        let Some(encoding) = Encoding::parse(&self.encoding) else { bail!("--encoding must be f64 or u16, not '{}'", self.encoding) };
        if !(self.tolerance > 0.0 && self.tolerance < 1.0) {
            bail!("--tolerance must be between 0 and 1, for example 1e-12");
        }
        let index = Indexer::new(&rules)?;
        let plan = ur_solve::plan::plan_with_threads(&rules, &index, !self.no_checkpoint, encoding.width() as u64, self.threads);
        let held = ur_solve::plan::resident_bytes();
        let layout = self.memory.map(|cap| layout_under(&rules, &plan, cap, held)).transpose()?;
        let need = plan.peak_with(layout.as_ref().unwrap_or(&plan.full_layout())) + held;
        outln!(
            "{} with {} pieces: {} positions (side to move); memory needed {:.2} GiB; table {:.2} MiB",
            rules.id(),
            rules.pieces(),
            index.len(),
            gib(need),
            index.len() as f64 * encoding.width() as f64 / 1048576.0
        )?;
        print_plan(&plan, layout.as_ref(), self.threads, held)?;
        if self.plan {
            return Ok(());
        }
        check_memory(&rules, &index, need)?;
        let out = match self.out.take() {
            Some(path) => {
                crate::files::check_output(&path, "--out")?;
                path
            }
            None => ur_solve::store::path_for(&rules).context("no --out FILE given, and the table store cannot take the table")?,
        };
        let checkpoint = (!self.no_checkpoint).then(|| {
            let mut dir = out.clone().into_os_string();
            dir.push(format!(".ckpt-{}", ur_solve::table::fingerprint(&rules)));
            PathBuf::from(dir)
        });
        if let Some(dir) = &checkpoint {
            let layers = saved_layers(dir);
            if layers > 0 {
                outln!("resuming from the checkpoint of {} in {}: {layers} layers already solved", rules.id(), dir.display())?;
            }
        }
        watch_signals(checkpoint.clone())?;
        let cfg = SolveConfig {
            tolerance: self.tolerance,
            threads: self.threads,
            checkpoint: checkpoint.clone(),
            layout,
            ..SolveConfig::default()
        };
        let bar = Bar::new(index.len(), self.quiet);
        let started = Instant::now();
        let solution = solve_kept(&rules, &index, &cfg, &bar)?;
        bar.bar.finish_and_clear();
        let secs = started.elapsed().as_secs_f64();
        let written = solution.write_table(&out, &rules, &index, encoding, self.tolerance);
        if let (Err(e), Some(dir)) = (&written, &checkpoint) {
            bail!(
                "{e}\nThe solved layers are kept in the checkpoint folder {dir}: make {out} writable (or free space) and run \
                 the same command again to write the table without solving again, or remove the folder with `rm -r {dir}`.",
                dir = dir.display(),
                out = out.display()
            );
        }
        written?;
        let start = ur_rules::State::start(&rules, ur_rules::Side::Light);
        let p = solution.value(&index, index.rank(&start))?;
        if let Some(dir) = checkpoint {
            let _ = std::fs::remove_dir_all(dir);
        }
        outln!("solved in {secs:.2} s: {} sweeps, residual {:.2e}", solution.sweeps, solution.residual)?;
        outln!("first player wins from the start with probability {:.10}%", 100.0 * p)?;
        outln!("table written to {}", out.display())?;
        Ok(())
    }
}

/// The layers solved and saved in a checkpoint folder.
fn saved_layers(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("layer-")).count()
}

/// On a stop signal, says what the checkpoint keeps and how to go on, then ends.
fn watch_signals(checkpoint: Option<PathBuf>) -> Result<()> {
    crate::signals::on_stop(move |signal| {
        let said = match &checkpoint {
            Some(dir) if saved_layers(dir) > 0 => {
                format!("interrupted: checkpoint kept in {}; run the same command to resume", dir.display())
            }
            Some(_) => "interrupted before the first layers were solved: nothing to keep".into(),
            None => "interrupted: nothing kept (--no-checkpoint); the next run starts over".into(),
        };
        crate::signals::say(&format!("\n{said}"));
        std::process::exit(crate::signals::status(signal));
    })
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// The layout that keeps the solve under `--memory CAP` (GiB), or why none
/// does. The cap is on the whole process: what it holds already (`held`:
/// the program, the index) comes first.
fn layout_under(rules: &ur_rules::Rules, plan: &Plan, cap: f64, held: u64) -> Result<Layout> {
    if !(cap.is_finite() && cap > 0.0) {
        bail!("--memory must be a positive number of GiB, for example --memory 12");
    }
    let room = ((cap * (1u64 << 30) as f64) as u64).saturating_sub(held);
    plan.layout_under(room).map_err(|need| {
        let rest = if plan.disk { "with its whole operator on disk" } else { "generating its whole operator again in every sweep" };
        anyhow::anyhow!(
            "--memory {cap} GiB is too little for {} with {} pieces: even {rest}, the solve needs {:.2} GiB; give --memory {:.0} \
             or more, or fewer pieces",
            rules.id(),
            rules.pieces(),
            gib(need + held),
            gib(need + held).ceil()
        )
    })
}

/// Prints the estimated memory, disk and time of the solve.
fn print_plan(plan: &Plan, layout: Option<&Layout>, threads: usize, held: u64) -> Result<()> {
    let full = plan.full_layout();
    let layout = layout.unwrap_or(&full);
    if let Some(g) = plan.peak_group() {
        let names = layer_names(&g.layers);
        let stored = layout.stored.get(plan.groups.iter().position(|x| x.layers == g.layers).unwrap_or(0)).copied().unwrap_or(1.0);
        outln!(
            "  largest group {names}: {} positions, compiled operator {:.2} GiB ({:.0} bytes a position), {:.0} % of it stored",
            g.positions,
            gib(g.rows.total()),
            g.rows.total() as f64 / g.positions.max(1) as f64,
            100.0 * stored
        )?;
    }
    outln!(
        "  memory: {:.2} GiB at the peak with this layout, {:.2} GiB storing every row, {:.2} GiB at least (--memory); \
         each with the {:.2} GiB this program holds already",
        gib(plan.peak_with(layout) + held),
        gib(plan.peak() + held),
        gib(plan.minimum() + held),
        gib(held)
    )?;
    let rows_on_disk =
        plan.groups.iter().zip(&layout.stored).filter(|(_, &f)| layout.disk() && f < 1.0).map(|(g, &f)| g.rows_on_disk(f)).max();
    match rows_on_disk {
        Some(rows) => outln!(
            "  disk: checkpoints up to {:.2} GiB, compiled rows up to {:.2} GiB (read in every sweep: about {:.0} GiB in all), table {:.2} GiB",
            gib(plan.checkpoint_bytes),
            gib(rows),
            gib(plan.disk_reads(layout)),
            gib(plan.table_bytes)
        )?,
        None => outln!("  disk: checkpoints up to {:.2} GiB, table {:.2} GiB", gib(plan.checkpoint_bytes), gib(plan.table_bytes))?,
    }
    let cores = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    let cpu = plan.cpu_seconds_with(layout);
    outln!(
        "  time: about {} on {cores} thread(s) of an idle machine ({:.0} s of processor time; within a factor of about 1.5)",
        duration(cpu / cores as f64),
        cpu
    )?;
    Ok(())
}

fn duration(secs: f64) -> String {
    match secs {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

/// Refuses a solve that cannot fit in the memory available now.
fn check_memory(rules: &ur_rules::Rules, index: &Indexer, need: u64) -> Result<(), SolveError> {
    let Some(have) = available_memory() else { return Ok(()) };
    if need <= have {
        return Ok(());
    }
    Err(SolveError::TooBig {
        rules: rules.id().into(),
        pieces: rules.pieces(),
        positions: index.len(),
        need_gib: gib(need),
        have_gib: gib(have),
        suggest: rules.pieces().saturating_sub(1).max(1),
    })
}

fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

struct Bar {
    bar: ProgressBar,
}

impl Bar {
    fn new(total: u64, quiet: bool) -> Bar {
        let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(total) };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {percent}% ETA {eta} {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Bar { bar }
    }
}

fn layer_names(layers: &[Layer]) -> String {
    layers.iter().map(|l| format!("({},{})", l.mine, l.theirs)).collect::<Vec<_>>().join("+")
}

impl Progress for Bar {
    fn layers_started(&self, layers: &[Layer], done: u64, _total: u64) {
        self.bar.set_position(done);
        self.bar.set_message(format!("layers {} off", layer_names(layers)));
    }
    fn compiled(&self, layers: &[Layer], bytes: u64) {
        self.bar.set_message(format!("layers {} off: compiled ({:.2} GiB)", layer_names(layers), gib(bytes)));
    }
    fn rows_on_disk(&self, layers: &[Layer], bytes: u64) {
        self.bar.set_message(format!("layers {} off: compiled ({:.2} GiB on disk)", layer_names(layers), gib(bytes)));
    }
    fn sweep(&self, layers: &[Layer], sweep: u32, change: f64) {
        self.bar.set_message(format!("layers {} off: sweep {sweep}, change {change:.1e}", layer_names(layers)));
    }
    fn layers_resumed(&self, layers: &[Layer]) {
        self.bar.set_message(format!("layers {} loaded from checkpoint", layer_names(layers)));
    }
}
