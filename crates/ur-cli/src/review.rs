//! `ur review`: every decision of a recorded game judged against the best
//! choice, and the luck of every roll (docs/review.md).

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use ur_bots::review::{Judge, Review};
use ur_rules::report::race_rules;
use ur_session::records::SavedGame;
use ur_session::review_doc::from_race_review;
use ur_session::review_text::text_report;
use ur_session::tables::{LoadedTable, TableSource};
use ur_session::Session;

use crate::arena::{progress_bar, MeasureArgs};
use crate::table_store;

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

impl ReviewCmd {
    pub fn run(self) -> Result<()> {
        let format = self.format()?;
        if let Some(path) = &self.output {
            crate::files::check_output(path, "-o")?;
        }
        self.out.install_weights()?;
        let tables = self.tables()?;
        let session = Session::resume(&self.read_record()?, &tables)?;
        let rules = race_rules(session.game()).ok_or_else(|| anyhow!("`ur review` judges race rule sets only"))?.clone();
        crate::table_store::warn_passed_over(&tables, &rules);
        if let (Some(_), Some(Err(why))) = (&self.table, session.table()) {
            bail!("{why}");
        }
        let bar = progress_bar(session.record_len() as u64, self.out.quiet, "actions");
        let (rev, judge) = session.review_with(self.depth, |done| bar.set_position(done as u64))?;
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
            print!("{report}");
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
        if let SavedGame::Family(any) = &saved {
            bail!(
                "{name} is a game of '{}', beyond the race; `ur review` judges race rule sets only (`ur replay` checks any record)",
                any.rules
            );
        }
        ur_session::records::replay(&name, &saved)?;
        Ok(saved)
    }

    /// The table named, else the store's (unless a depth is asked for), else none.
    fn tables(&self) -> Result<TableSource> {
        Ok(match (&self.table, self.depth) {
            (Some(path), _) => TableSource::File(LoadedTable::open(path)?),
            (None, None) => table_store::dir().map_or(TableSource::None, TableSource::Store),
            (None, Some(_)) => TableSource::None,
        })
    }
}
