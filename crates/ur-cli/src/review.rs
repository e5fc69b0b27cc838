//! `ur review`: every decision of a recorded game judged against the best
//! choice, and the luck of every roll (docs/review.md).

use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use serde::Serialize;
use ur_bots::review::{Judge, Review};
use ur_rules::report::race_rules;
use ur_session::records::SavedGame;
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
    #[command(flatten)]
    out: MeasureArgs,
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
        if self.out.json {
            let report = Report {
                rules: rules.id().to_string(),
                options: &rules.options,
                judge: judge.name(),
                exact: judge.exact(),
                table: table.map(|p| p.display().to_string()),
                review: &rev,
            };
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            let record = match session.record() {
                SavedGame::Race(r) if self.boards => Some(r),
                _ => None,
            };
            print!("{}", text_report(&rules, &judge, table.as_deref(), &rev, self.all, record.as_ref())?);
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
