//! `ur review`: every decision of a recorded game judged against the best
//! choice, and the luck of every roll (docs/review.md).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use ur_bots::review::{review, Judge, Note, NoteKind, Review, SideSummary, Verdict, BLUNDER, INACCURACY, MISTAKE};
use ur_rules::{Action, GameRecord, Rules, Side};

use ur_session::RulesRef;

use crate::arena::{progress_bar, MeasureArgs};
use crate::eval_cmd::{LoadedTable, TableOracle};
use crate::table_store;
use ur_rules::race::text::{move_text, render, side_label};
use ur_session::records::SavedGame;

/// The search depth when no table judges.
const DEFAULT_DEPTH: u32 = 3;

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
        let record = self.read_record()?;
        let rules = Arc::new(record.load_rules()?);
        let (judge, table) = self.judge(&rules)?;
        let bar = progress_bar(record.actions.len() as u64, self.out.quiet, "actions");
        let rev = review(&record, &judge, |done| bar.set_position(done as u64))?;
        bar.finish_and_clear();
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
            let boards = self.boards.then_some(&record);
            print!("{}", text_report(&rules, &judge, table.as_ref(), &rev, self.all, boards)?);
        }
        Ok(())
    }

    /// The record, checked to replay.
    fn read_record(&self) -> Result<GameRecord> {
        let name = self.file.display();
        let record = match crate::files::read_game(&self.file)? {
            SavedGame::Race(record) => record,
            SavedGame::Family(any) => {
                bail!(
                    "{name} is a game of '{}', beyond the race; `ur review` judges race rule sets only (`ur replay` checks any record)",
                    any.rules
                );
            }
        };
        ur_session::records::replay_race(&name.to_string(), &record)?;
        Ok(record)
    }

    /// The table named, else the store's (unless a depth is asked for), else the search.
    fn judge(&self, rules: &Arc<Rules>) -> Result<(Judge, Option<PathBuf>)> {
        if let Some(path) = &self.table {
            let oracle = LoadedTable::open(path)?.oracle(rules.clone())?;
            return Ok((Judge::Table(oracle), Some(path.clone())));
        }
        if self.depth.is_none() {
            if let Some((oracle, path)) = table_store::oracle_for(table_store::dir().as_deref(), rules) {
                return Ok((Judge::Table(oracle), Some(path)));
            }
        }
        Ok((Judge::search(rules, self.depth.unwrap_or(DEFAULT_DEPTH)), None))
    }
}

fn text_report(
    rules: &Rules,
    judge: &Judge,
    table: Option<&PathBuf>,
    rev: &Review,
    all: bool,
    boards: Option<&GameRecord>,
) -> Result<String> {
    let result = match rev.winner {
        Some(w) => format!("{} won", side_label(rules, w)),
        None => "unfinished".into(),
    };
    let mut out = format!("Review of a game of {}: {result}.\n", RulesRef::of(rules));
    out += &match table {
        Some(p) => format!("Judge: the table {} (exact win probabilities).\n", p.display()),
        None => format!("Judge: {} with the learned evaluation (estimates; a table from `ur solve` gives exact values).\n", judge.name()),
    };
    out += &format!(
        "Marks: ?! inaccuracy (loses {} pp or more), ? mistake ({} pp), ?? blunder ({} pp).\n\n",
        pp(INACCURACY),
        pp(MISTAKE),
        pp(BLUNDER)
    );
    let listed = match boards {
        Some(record) => board_notes(record, rev, all)?,
        None => table_notes(rules, rev, all),
    };
    out += if listed.is_empty() { "No inaccuracies: every decision lost less than 1 pp.\n" } else { &listed };
    out += "\n";
    out += &summary(rules, &rev.sides);
    Ok(out)
}

/// The listed notes as table rows under a heading; empty when none is listed.
fn table_notes(rules: &Rules, rev: &Review, all: bool) -> String {
    let lines = note_lines(rules, rev, all);
    if lines.is_empty() {
        return String::new();
    }
    let head = format!(
        "{:>5}  {:<16} {:>4}  {:<10} {:>6}  {:<8} {:>6}  {:>7}\n",
        "turn", "side", "roll", "played", "win %", "best", "win %", "loss"
    );
    head + &lines.concat()
}

/// Each listed decision after the board it was made on, its moves spelled
/// out; empty when none is listed.
fn board_notes(record: &GameRecord, rev: &Review, all: bool) -> Result<String> {
    let mut game = record.start_game()?;
    let mut done = 0;
    let mut out = String::new();
    for note in &rev.notes {
        let NoteKind::Decision { played, played_value, best, best_value, loss, verdict, .. } = note.kind else { continue };
        if !all && verdict < Verdict::Inaccuracy {
            continue;
        }
        for &a in &record.actions[done..note.action] {
            game.apply(a)?;
        }
        done = note.action;
        let rules = game.rules();
        let throw = game.throw().map(|t| format!(", threw {}", t.value)).unwrap_or_default();
        let spell = |a: Action| match a {
            Action::Move(m) => move_text(&game, m),
            other => other.to_string(),
        };
        out += &format!("\nTurn {}, {}{throw}:\n{}", note.turn, side_label(rules, note.side), render(rules, game.state()));
        out += &format!("  played {}{}: {:.1} %\n", spell(played), verdict.mark(), pp(played_value));
        if loss > 0.0 {
            out += &format!("  best   {}: {:.1} %  (lost {:.2} pp)\n", spell(best), pp(best_value), pp(loss));
        }
    }
    Ok(out)
}

/// One line per listed note: decisions of an inaccuracy or worse, or every
/// note with `all`.
fn note_lines(rules: &Rules, rev: &Review, all: bool) -> Vec<String> {
    let mut rolled = [0u8; 2];
    let mut lines = Vec::new();
    for note in &rev.notes {
        let Note { turn, side, ref kind, .. } = *note;
        let who = side_label(rules, side);
        match *kind {
            NoteKind::Roll { raw, before, after, luck } => {
                rolled[side.index()] = raw;
                if all {
                    lines.push(format!(
                        "{turn:>5}  {who:<16} {raw:>4}  luck {:+.2} pp ({:.1} % -> {:.1} %)\n",
                        pp(luck),
                        pp(before),
                        pp(after)
                    ));
                }
            }
            NoteKind::Decision { played, played_value, best, best_value, loss, verdict, .. } => {
                if all || verdict >= Verdict::Inaccuracy {
                    let (played, best) = (format!("{played}{}", verdict.mark()), best.to_string());
                    let roll = rolled[side.index()];
                    lines.push(format!(
                        "{turn:>5}  {who:<16} {roll:>4}  {played:<10} {:>6.1}  {best:<8} {:>6.1}  {:>4.2} pp\n",
                        pp(played_value),
                        pp(best_value),
                        pp(loss)
                    ));
                }
            }
        }
    }
    lines
}

fn summary(rules: &Rules, sides: &[SideSummary; 2]) -> String {
    let row = |name: &str, f: &dyn Fn(&SideSummary) -> String| format!("{name:<24} {:>14} {:>14}\n", f(&sides[0]), f(&sides[1]));
    let share = |n: u32, of: u32| if of == 0 { n.to_string() } else { format!("{n} ({:.0} %)", 100.0 * f64::from(n) / f64::from(of)) };
    let mut out = format!("{:<24} {:>14} {:>14}\n", "", side_label(rules, Side::Light), side_label(rules, Side::Dark));
    out += &row("decisions", &|s| s.decisions.to_string());
    out += &row("best choices", &|s| share(s.best, s.decisions));
    out += &row("inaccuracies ?!", &|s| s.inaccuracies.to_string());
    out += &row("mistakes ?", &|s| s.mistakes.to_string());
    out += &row("blunders ??", &|s| s.blunders.to_string());
    out += &row("mean loss per decision", &|s| format!("{:.3} pp", pp(s.mean_loss())));
    out += &row("total loss", &|s| format!("{:.2} pp", pp(s.total_loss)));
    out += &row("luck of the dice", &|s| format!("{:+.2} pp", pp(s.luck)));
    out
}

/// After a game in the terminal: how each human side played, judged as
/// `ur review` judges, in a few lines.
///
/// # Errors
/// The record does not replay (it always does when made from a game).
pub fn play_summary(rules: &Rules, judge: &Judge, record: &GameRecord, humans: &[Side], saved: bool) -> Result<String> {
    let rev = review(record, judge, |_| {})?;
    let by = match judge {
        Judge::Table(_) => "the solved table".to_string(),
        Judge::Search { .. } => format!("an {} search", judge.name()),
    };
    let mut out = String::new();
    for &side in humans {
        let s = &rev.sides[side.index()];
        let who = if humans.len() == 1 { "Your play".to_string() } else { format!("{}'s play", side_label(rules, side)) };
        out += &format!(
            "{who}, judged by {by}: {}, {} best, {:.2} pp lost per decision; {}, {}, {}. The dice's luck: {:+.1} pp.\n",
            count(s.decisions, "decision", "decisions"),
            s.best,
            pp(s.mean_loss()),
            count(s.inaccuracies, "inaccuracy", "inaccuracies"),
            count(s.mistakes, "mistake", "mistakes"),
            count(s.blunders, "blunder", "blunders"),
            pp(s.luck)
        );
    }
    if !saved {
        out += "(Play with --save FILE, then `ur review FILE` shows every move's verdict.)\n";
    }
    Ok(out)
}

/// `1 blunder`, `2 blunders`.
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A probability in percent (or a difference of two in percentage points).
fn pp(p: f64) -> f64 {
    100.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "blunder", "blunders"), "1 blunder");
        assert_eq!(count(0, "inaccuracy", "inaccuracies"), "0 inaccuracies");
        assert_eq!(count(2, "mistake", "mistakes"), "2 mistakes");
    }
}
