//! `ur arena`: a round robin between bots, with win rates, confidence
//! intervals and an Elo table. The arena itself is [`ur_session::arena`];
//! this module reads the arguments, shows the progress and prints the report.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ur_session::arena::{file_hash, Arena, ArenaError, ArenaSpec, Report, Run, RunOptions, Start};

use crate::rules_arg::RulesArgs;
use ur_cli::{out, outln};

#[derive(Args, Debug)]
pub struct ArenaCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// The bots, comma-separated, at least two (random, greedy, perfect, ...).
    #[arg(long, value_delimiter = ',', required = true, value_name = "A,B[,C...]")]
    bots: Vec<String>,
    /// Games per pair of bots (even: each bot moves first in half of them).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    games: u64,
    /// Worker threads (0 = all cores). The results do not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Seed from which every game's dice and bot seeds are derived (bots with a time
    /// budget, such as expectimax:20ms, also depend on the machine's speed and load).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// A table made by `ur solve` for these rules (needed by `perfect`). When the
    /// rule set is the table's and no --pieces/--option is given, the table's options are used.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Games 2k and 2k+1 of a pair throw the same dice, colours swapped (the default).
    #[arg(long, overrides_with = "no_paired_dice")]
    paired_dice: bool,
    /// Every game throws its own dice.
    #[arg(long)]
    no_paired_dice: bool,
    /// A game longer than this many actions (throws, moves, choices) is stopped and counted as a draw.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    max_actions: u64,
    #[command(flatten)]
    out: MeasureArgs,
    /// Keep every finished game in FILE (rewritten every few seconds and at the end,
    /// so an interrupted arena loses at most the last few seconds); when FILE exists,
    /// play only the games not in it. The report is the same as that of an arena run
    /// in one go. FILE must come from the same arena (rules, bots, games, seed, ...).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Stop, saving, after N more finished games (needs --save): to split a long
    /// arena into sessions, and for tests.
    #[arg(long, value_name = "N", requires = "save")]
    stop_after: Option<u64>,
}

/// The output options of the commands that measure (`arena`, `regret`,
/// `review`): JSON, progress, candidate weights.
#[derive(Args, Debug)]
pub struct MeasureArgs {
    /// Print the report as one JSON object (timings, where any, go to stderr,
    /// so the report depends only on the inputs).
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Evaluation weights for the bots and searches instead of the built-in
    /// ones (a file written by `ur train-eval`, `ur train-table` or `ur
    /// train-selfplay`), to measure a candidate.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// A network written by `ur train-net`, for the `net` bots on the rules
    /// it was trained for, instead of a built-in one (repeat for several rule sets).
    #[arg(long, value_name = "FILE")]
    pub net: Vec<PathBuf>,
}

impl MeasureArgs {
    /// Installs the --weights file, if any, and the --net files; returns
    /// the weights file's text.
    ///
    /// # Errors
    /// A file cannot be read or is not a weights or network file for this build.
    pub fn install_weights(&self) -> Result<Option<String>> {
        for path in &self.net {
            crate::files::install_net(path)?;
        }
        self.weights.as_deref().map(crate::files::install_weights).transpose()
    }
}

/// A progress bar on stderr, hidden when asked or when stderr is not a terminal.
pub fn progress_bar(total: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {what} ({{per_sec}}, ETA {{eta}})");
    bar.set_style(ProgressStyle::with_template(&template).expect("valid template").progress_chars("=> "));
    bar
}

impl ArenaCmd {
    pub fn run(self) -> Result<()> {
        let names = self.bot_names()?;
        self.check_numbers()?;
        if let Some(path) = &self.save {
            crate::files::check_output(path, "--save")?;
        }
        let weights_hash = self.out.install_weights()?.map(|text| file_hash(text.as_bytes()));
        let rules_file_hash = match &self.rules.rules_file {
            Some(path) => Some(file_hash(&std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?)),
            None => None,
        };
        let start = Start::load(&self.rules.choice(), self.table.as_deref()).map_err(|e| match e {
            ArenaError::TableForFamily(_) => anyhow!("--table: {e}"),
            e => e.into(),
        })?;
        let spec =
            ArenaSpec { bots: names, games: self.games, seed: self.seed, paired_dice: !self.no_paired_dice, max_actions: self.max_actions };
        let arena = Arena::new(&start, spec).map_err(|e| match e {
            ArenaError::Bot(ur_bots::BotError::NeedsTable) => {
                anyhow!("{e}; give --table FILE, made by `ur solve` (for example `ur solve finkel --pieces 2 --out f2.urt`)")
            }
            e => e.into(),
        })?;
        let total = arena.total() as u64;
        let interrupt = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicI32::new(0));
        watch_signals(interrupt.clone(), signal.clone())?;
        let opts = RunOptions {
            threads: self.threads,
            save: self.save.clone(),
            rules_file_hash,
            weights_hash,
            stop_after: self.stop_after,
            interrupt: Some(interrupt),
        };
        let bar = progress_bar(total, self.out.quiet, "games");
        let mut first = true;
        let run = arena.run(&opts, |done| {
            bar.set_position(done);
            if std::mem::take(&mut first) {
                bar.reset_eta();
            }
        });
        bar.finish_and_clear();
        let run = run.map_err(|e| match e {
            ArenaError::File(_) => anyhow!(e).context("--save: give another --save file, or delete it to start this arena over"),
            e => e.into(),
        })?;
        let speed = speed_line(&run);
        if run.interrupted {
            let kept = run.outcomes.iter().filter(|o| o.is_some()).count();
            let said = match &run.save {
                Some(path) => format!("{kept} of {total} games kept in {}; run the same command to go on", path.display()),
                None => format!("{kept} of {total} games played, none kept (--save FILE keeps them)"),
            };
            crate::signals::say(&format!("{speed}\ninterrupted: {said}"));
            std::process::exit(crate::signals::status(signal.load(Ordering::Relaxed)));
        }
        let Some(results) = run.complete() else {
            // Only --stop-after leaves games unplayed, and it needs --save.
            let path = run.save.as_ref().map_or_else(String::new, |p| p.display().to_string());
            eprintln!("{speed}");
            eprintln!(
                "stopped as asked by --stop-after: {} of {total} games are saved in {path}; run the same command again to play the rest",
                run.resumed + run.played
            );
            return Ok(());
        };
        self.print(&arena.report(&results), &speed)
    }

    fn print(&self, report: &Report, speed: &str) -> Result<()> {
        if self.out.json {
            outln!("{}", serde_json::to_string_pretty(report)?)?;
            eprintln!("{speed}");
        } else {
            out!("{}", text_report(report))?;
            outln!("{speed}")?;
        }
        Ok(())
    }

    /// The bots' names, checked.
    fn bot_names(&self) -> Result<Vec<String>> {
        let names: Vec<String> = self.bots.iter().map(|b| b.trim().to_string()).collect();
        if names.iter().any(String::is_empty) {
            bail!("--bots has an empty name; give names separated by commas, for example --bots random,greedy");
        }
        if names.len() < 2 {
            bail!("an arena needs at least two bots, for example --bots random,greedy (got only '{}')", names[0]);
        }
        for (k, n) in names.iter().enumerate() {
            if names[..k].contains(n) {
                bail!("bot '{n}' is listed twice in --bots; each bot plays once per pair");
            }
        }
        Ok(names)
    }

    fn check_numbers(&self) -> Result<()> {
        if self.games == 0 {
            bail!("--games must be at least 2 (games per pair)");
        }
        if self.games % 2 == 1 {
            bail!("--games must be even, so that each bot moves first in half of its games (try {})", self.games + 1);
        }
        if self.max_actions == 0 {
            bail!("--max-actions must be at least 1");
        }
        if self.stop_after == Some(0) {
            bail!("--stop-after must be at least 1");
        }
        Ok(())
    }
}

/// How fast this run played, and how many games came from the save file.
/// The first stop signal asks the arena to stop (it saves the games
/// finished and says so); a second one ends the program at once.
fn watch_signals(interrupt: Arc<AtomicBool>, signal: Arc<AtomicI32>) -> Result<()> {
    crate::signals::on_stop(move |s| {
        if interrupt.swap(true, Ordering::Relaxed) {
            std::process::exit(crate::signals::status(s));
        }
        signal.store(s, Ordering::Relaxed);
    })
}

fn speed_line(run: &Run) -> String {
    let (played, secs, threads, resumed) = (run.played, run.secs, run.threads, run.resumed);
    let from = run.save.as_ref().map_or_else(String::new, |p| p.display().to_string());
    if played == 0 {
        return format!("all {resumed} games were already in {from}");
    }
    let mut line = format!(
        "{played} games in {secs:.2} s: {:.0} games/s on {threads} thread{}",
        played as f64 / secs.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    if resumed > 0 {
        line += &format!(" ({resumed} more from {from})");
    }
    line
}

fn pct(p: f64) -> String {
    format!("{:.1}%", 100.0 * p)
}

fn text_report(r: &Report) -> String {
    let width = r.bots.iter().map(String::len).max().unwrap_or(0);
    let mut out = format!(
        "Arena: {}, {} bots, {} games per pair, seed {}, {}\n",
        r.rules_ref(),
        r.bots.len(),
        r.games_per_pair,
        r.seed,
        if r.paired_dice { "paired dice" } else { "independent dice" }
    );
    out += "\nPairs (score = wins + half the draws; 95% Wilson interval):\n";
    for p in &r.pairs {
        out += &format!(
            "  {:>width$} vs {:<width$}  {:>5}-{:<5} draws {:<3}  {} scores {:>6} [{}, {}]   first player won {}, {:.0} actions/game\n",
            p.a,
            p.b,
            p.a_wins,
            p.b_wins,
            p.draws,
            p.a,
            pct(p.a_score),
            pct(p.a_score_ci95[0]),
            pct(p.a_score_ci95[1]),
            pct(p.first_player_wins as f64 / p.games as f64),
            p.mean_actions,
        );
    }
    out += &format!("\nElo (Bradley-Terry maximum likelihood, {} = 0, ± 95%):\n", r.elo_anchor);
    for (rank, e) in r.elo.iter().enumerate() {
        let (elo, pm) = if e.bot == r.elo_anchor {
            ("0".to_string(), "(anchor)".to_string())
        } else {
            (format!("{:+.0}", e.elo), format!("± {:.0}", e.ci95))
        };
        out += &format!("  {:>2}. {:<width$}  {elo:>6}  {pm}\n", rank + 1, e.bot);
    }
    if r.capped > 0 {
        out += &format!("\n{} game(s) reached the {}-action cap and count as draws.\n", r.capped, r.max_actions);
    }
    if r.draws > r.capped {
        out += &format!("\n{} game(s) ended drawn under the rules.\n", r.draws - r.capped);
    }
    out
}
