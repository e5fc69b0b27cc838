//! `ur review`: every decision of a recorded game judged against the best
//! choice, and the luck of every roll (docs/review.md). Race games are
//! judged by a table or a search; every family (and a race on request) by
//! the rollout judge, whose values carry 95 % intervals.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use ur_bots::review::{Judge, Review, SideSummary};
use ur_bots::review_any::{AnyNote, AnyReview, Sureness};
use ur_bots::rollout::{RolloutConfig, DEFAULT_TRIALS};
use ur_rules::report::race_rules;
use ur_rules::Side;
use ur_session::records::SavedGame;
use ur_session::review_doc::{from_any_review, from_race_review};
use ur_session::review_text::{any_text_report, text_report};
use ur_session::tables::{LoadedTable, TableSource};
use ur_session::{NoTables, Session};

use crate::arena::{progress_bar, MeasureArgs};
use crate::table_store;
use ur_cli::out;

#[derive(Args, Debug)]
pub struct ReviewCmd {
    /// The game record (JSON, as written by `ur play --save`).
    file: PathBuf,
    /// A table made by `ur solve` for the game's rules: exact values. Without
    /// it the table store's table for the rules judges, if there is one.
    #[arg(long, value_name = "FILE", conflicts_with = "depth")]
    table: Option<PathBuf>,
    /// Judge by an expectiminimax search this many turns deep with the learned
    /// evaluation, even when a table is stored (without a table: 3).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=6))]
    depth: Option<u32>,
    /// Who judges: `table` (exact), `search`, or `rollout` (many playouts
    /// from each choice, with 95 % intervals). Race games: the table if
    /// there is one, else the search; the other families: rollout, the
    /// only judge they have.
    #[arg(long, value_enum)]
    judge: Option<JudgeKind>,
    /// The rollout judge's playouts per choice (more: narrower intervals, longer review).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    trials: Option<u32>,
    /// The seed of the rollout judge's dice: the same seed, the same review.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// List every decision and roll, not only the inaccuracies and worse.
    #[arg(long)]
    all: bool,
    /// Show the board before each listed decision, with the moves spelled out.
    #[arg(long)]
    boards: bool,
    /// The report's form: text, one JSON object (as --json), or one
    /// self-contained html page with the win-chance chart and the boards.
    /// Text unless --json is given.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the report to FILE (atomically) instead of printing it.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    out: MeasureArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Html,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum JudgeKind {
    Table,
    Search,
    Rollout,
}

#[derive(Serialize)]
struct Report<'a> {
    rules: String,
    options: &'a ur_rules::Options,
    /// `table` or `expectimax:D`.
    judge: String,
    exact: bool,
    table: Option<String>,
    #[serde(flatten)]
    review: &'a Review,
}

/// The JSON report of a rollout review: the race report's top fields, then
/// the review with every value's 95 % interval (`mean`, `half`).
#[derive(Serialize)]
struct AnyReport<'a> {
    rules: &'a str,
    options: &'a ur_rules::Options,
    /// `rollout:N` and what it does beyond the default.
    judge: &'a str,
    exact: bool,
    table: Option<String>,
    seed: u64,
    sureness: &'a Sureness,
    winner: Option<Side>,
    over: bool,
    sides: &'a [SideSummary; 2],
    notes: &'a [AnyNote],
}

impl ReviewCmd {
    pub fn run(self) -> Result<()> {
        let format = self.format()?;
        if let Some(path) = &self.output {
            crate::files::check_output(path, "-o")?;
        }
        let saved = self.read_record()?;
        let rollout = self.by_rollout(&saved)?;
        self.out.install_weights()?;
        if rollout {
            self.run_rollout(&saved, format)
        } else {
            self.run_race(saved, format)
        }
    }

    /// Whether the rollout judge reviews this game; flags that do not fit its judge are refused.
    fn by_rollout(&self, saved: &SavedGame) -> Result<bool> {
        let race_flags = match (&self.table, self.depth) {
            (Some(_), _) => Some("--table"),
            (None, Some(_)) => Some("--depth"),
            (None, None) => None,
        };
        let rollout_flag = match (self.trials, self.seed) {
            (Some(_), _) => Some("--trials"),
            (None, Some(_)) => Some("--seed"),
            (None, None) => None,
        };
        let rollout = match (saved, self.judge) {
            (SavedGame::Family(any), Some(j @ (JudgeKind::Table | JudgeKind::Search))) => {
                let name = j.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
                bail!(
                    "{} is a game of '{}', beyond the race: no {name} judges it; drop --judge {name} (the rollout judge reviews it)",
                    self.file.display(),
                    any.rules
                )
            }
            (SavedGame::Family(_), _) | (_, Some(JudgeKind::Rollout)) => true,
            (SavedGame::Race(_), _) => false,
        };
        match (rollout, race_flags, rollout_flag) {
            (true, Some(flag), _) => bail!(
                "{flag} chooses a race judge (a table or a search), but the rollout judge reviews this game: drop {flag}, or give --judge table or --judge search on a race game"
            ),
            (false, _, Some(flag)) => bail!(
                "{flag} sets the rollout judge, but this race game is judged by a table or a search: add --judge rollout to judge it by rollouts"
            ),
            _ => {}
        }
        if rollout && self.boards && !matches!(self.format, Some(Format::Html)) {
            bail!("--boards draws race boards in the text report; for the boards of any family ask for the html report (--format html)");
        }
        if self.judge == Some(JudgeKind::Table) && self.depth.is_some() {
            bail!("--judge table and --depth D ask for two judges: a depth is the search's (--judge search --depth D)");
        }
        if self.judge == Some(JudgeKind::Search) && self.table.is_some() {
            bail!("--judge search and --table ask for two judges: drop one of them");
        }
        Ok(rollout)
    }

    /// A game judged by rollouts, any family.
    fn run_rollout(&self, saved: &SavedGame, format: Format) -> Result<()> {
        let session = Session::resume(saved, &NoTables)?;
        let config = RolloutConfig::with(self.trials.unwrap_or(DEFAULT_TRIALS), self.seed.unwrap_or(0));
        let bar = progress_bar(session.record_len() as u64, self.out.quiet, "steps");
        let rev = session.review_any(&config, |done| bar.set_position(done as u64))?;
        bar.finish_and_clear();
        let (start, _) = session.steps()?;
        let report = match format {
            Format::Text => any_text_report(&start, session.options(), &rev, self.all),
            Format::Json => serde_json::to_string_pretty(&any_report(&rev, session.options()))? + "\n",
            Format::Html => {
                let doc = from_any_review(saved, &rev)?;
                ur_web::review_page::review_html(&doc, Some(&any_text_report(&start, session.options(), &rev, false)))
            }
        };
        self.write(&report)
    }

    /// A race game judged by a table or a search.
    fn run_race(&self, saved: SavedGame, format: Format) -> Result<()> {
        let tables = self.tables()?;
        let session = Session::resume(&saved, &tables)?;
        let rules = race_rules(session.game()).ok_or_else(|| anyhow!("a table or a search judges race rule sets only"))?.clone();
        crate::table_store::warn_passed_over(&tables, &rules);
        match (session.table(), self.judge) {
            (Some(Err(why)), _) if self.table.is_some() || self.judge == Some(JudgeKind::Table) => bail!("{why}"),
            (None | Some(Err(_)), Some(JudgeKind::Table)) => bail!(
                "no table is stored for the rules of {} ({}): give one with --table FILE, make one with `ur solve`, or drop --judge table",
                self.file.display(),
                rules.id()
            ),
            _ => {}
        }
        let depth = match self.judge {
            Some(JudgeKind::Search) => Some(self.depth.unwrap_or(ur_session::DEFAULT_DEPTH)),
            _ => self.depth,
        };
        let bar = progress_bar(session.record_len() as u64, self.out.quiet, "actions");
        let (rev, judge) = session.review_with(depth, |done| bar.set_position(done as u64))?;
        bar.finish_and_clear();
        let table = match judge {
            Judge::Table(_) => tables.path_for(&rules),
            Judge::Search { .. } => None,
        };
        let text = |boards: bool| {
            let record = match session.record() {
                SavedGame::Race(r) if boards => Some(r),
                _ => None,
            };
            text_report(&rules, &judge, table.as_deref(), &rev, self.all, record.as_ref())
        };
        let report = match format {
            Format::Json => {
                let report = Report {
                    rules: rules.id().to_string(),
                    options: &rules.options,
                    judge: judge.name(),
                    exact: judge.exact(),
                    table: table.as_ref().map(|p| p.display().to_string()),
                    review: &rev,
                };
                serde_json::to_string_pretty(&report)? + "\n"
            }
            Format::Text => text(self.boards)?,
            Format::Html => {
                let doc = from_race_review(&session.record(), &judge, table.as_deref(), &rev)?;
                ur_web::review_page::review_html(&doc, Some(&text(false)?))
            }
        };
        self.write(&report)
    }

    /// `--format`, or json for `--json`.
    fn format(&self) -> Result<Format> {
        match (self.out.json, self.format) {
            (false, f) => Ok(f.unwrap_or(Format::Text)),
            (true, None | Some(Format::Json)) => Ok(Format::Json),
            (true, Some(f)) => {
                let name = f.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
                bail!("--json asks for the JSON report and --format {name} for another: give only one of them")
            }
        }
    }

    /// The report printed, or written to the -o file in one piece.
    fn write(&self, report: &str) -> Result<()> {
        let Some(path) = &self.output else {
            out!("{report}")?;
            return Ok(());
        };
        ur_solve::atomic::write_atomic(path, report.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        // A report is for sharing: readable by others, as a file a shell writes (not the temp file's 0600).
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))
                .with_context(|| format!("cannot make {} readable", path.display()))?;
        }
        if !self.out.quiet {
            eprintln!("Wrote the review to {}", path.display());
        }
        Ok(())
    }

    /// The record, checked to replay.
    fn read_record(&self) -> Result<SavedGame> {
        let name = self.file.display().to_string();
        let saved = crate::files::read_game(&self.file)?;
        ur_session::records::replay(&name, &saved)?;
        Ok(saved)
    }

    /// The table named, else the store's (unless a search is asked for), else none.
    fn tables(&self) -> Result<TableSource> {
        let search = self.depth.is_some() || self.judge == Some(JudgeKind::Search);
        Ok(match (&self.table, search) {
            (Some(path), _) => TableSource::File(LoadedTable::open(path)?),
            (None, false) => table_store::dir().map_or(TableSource::None, TableSource::Store),
            (None, true) => TableSource::None,
        })
    }
}

fn any_report<'a>(rev: &'a AnyReview, options: &'a ur_rules::Options) -> AnyReport<'a> {
    AnyReport {
        rules: &rev.rules,
        options,
        judge: &rev.judge,
        exact: false,
        table: None,
        seed: rev.seed,
        sureness: &rev.sureness,
        winner: rev.winner,
        over: rev.over,
        sides: &rev.sides,
        notes: &rev.notes,
    }
}
