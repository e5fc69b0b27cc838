//! `ur solve` for the marker and tower families: a small variant solved
//! over the graph of its situations ([`ur_solve::graph`]).

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use ur_rules::Options;
use ur_solve::{GraphProgress, GraphSettings, GraphTable};

use ur_cli::outln;

/// Solves `id` under `options` and writes the table to `out`.
pub fn solve_variant(id: &str, options: &Options, out: Option<&Path>, tolerance: f64, quiet: bool) -> Result<()> {
    let Some(out) = out else {
        bail!("ur solve {id} needs --out FILE: tables of small variants are kept where you say (for example --out {id}-small.urg)")
    };
    crate::files::check_output(out, "--out")?;
    let spinner = if quiet { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
    spinner.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("a valid template"));
    let started = Instant::now();
    let settings = GraphSettings { tolerance, ..GraphSettings::default() };
    let table = GraphTable::solve(id, options, &settings, &mut |p| match p {
        GraphProgress::Exploring { found, expanded } => {
            spinner.set_message(format!("exploring: {found} situations found, {expanded} expanded"))
        }
        GraphProgress::Sweep { sweep, change } => {
            spinner.set_message(format!("value iteration: sweep {sweep}, largest change {change:.1e}"))
        }
    });
    spinner.finish_and_clear();
    let table = table?;
    let secs = started.elapsed().as_secs_f64();
    table.save(out)?;
    let h = table.header();
    let bytes = std::fs::metadata(out).map_or(0, |m| m.len());
    outln!("{id} {}: {} situations (rolls and decisions)", options_text(options), h.situations)?;
    outln!("solved in {secs:.2} s: {} sweeps, last change {:.2e}", h.sweeps, h.last_change)?;
    outln!("light, rolling first, wins from the start with probability {:.10}%", 100.0 * h.start_value)?;
    outln!(
        "table written to {} ({:.1} MiB); `ur regret --table {}` measures a bot with it",
        out.display(),
        bytes as f64 / 1048576.0,
        out.display()
    )?;
    Ok(())
}

fn options_text(options: &Options) -> String {
    options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}
