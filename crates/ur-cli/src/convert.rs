//! `ur convert`: a game record between our JSON and RGN, RoyalUr's Royal
//! Game Notation (docs/rgn.md).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use ur_cli::out;
use ur_session::records::{self, SavedGame};
use ur_session::rgn;

/// The two forms of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    Rgn,
    Json,
}

#[derive(Args, Debug)]
#[command(after_help = "\
The input's form is told from its content: a JSON record (or JSON Lines, one record a line) \
starts with '{'; anything else is read as RGN.

An RGN file may hold several games (separated by '---' lines, as RoyalUr writes them): \
--game N converts game N alone; without it, --to json writes JSON Lines (one record per line, \
one line per game) and --to rgn writes every game.

RGN games without a Rules tag are read under --rules (default: Finkel, RoyalUr's default). \
RoyalUr's rule sets: Finkel, Finkel with Two Pieces, Masters, Masters with Four Dice, Blitz, Aseb; \
every other rule set is written with our own Ur tags (docs/rgn.md).")]
pub struct ConvertCmd {
    /// The game file: a JSON record (as `ur play --save` writes) or RGN text.
    input: PathBuf,
    /// Write to this file (atomically) instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    out: Option<PathBuf>,
    /// The form to write [default: the other form].
    #[arg(long, value_enum)]
    to: Option<Form>,
    /// Convert only game N of the file (from 1).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// Rules of RGN games with no Rules tag: a RoyalUr name (`Masters`) or a rule-set id (`masters`).
    #[arg(long, value_name = "RULES")]
    rules: Option<String>,
}

impl ConvertCmd {
    pub fn run(self) -> Result<()> {
        if let Some(out) = &self.out {
            crate::files::check_output(out, "--out")?;
        }
        let name = self.input.display().to_string();
        let bytes = std::fs::read(&self.input).with_context(|| format!("cannot read {name}"))?;
        let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name}: not a game record (not UTF-8 text)"))?;
        let (from, games) = read(&name, &text, self.rules.as_deref(), self.game)?;
        let to = self.to.unwrap_or(match from {
            Form::Rgn => Form::Json,
            Form::Json => Form::Rgn,
        });
        let output = write(&games, to)?;
        match &self.out {
            Some(path) => {
                ur_solve::atomic::write_atomic(path, output.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
            }
            None => {
                out!("{output}")?;
                Ok(())
            }
        }
    }
}

/// The games of a file, and the form they were in.
fn read(name: &str, text: &str, rules: Option<&str>, pick_game: Option<usize>) -> Result<(Form, Vec<SavedGame>)> {
    if !text.trim_start().starts_with('{') {
        let games = rgn::parse_games(text).map_err(|e| anyhow::anyhow!("{name}: not RGN: {e}"))?;
        if games.is_empty() {
            bail!("{name}: no game found (an RGN game has [Tag value] lines and moves such as `1. A@A4 / C@C4`)");
        }
        let count = games.len();
        let records = pick(name, games.into_iter().enumerate().collect(), pick_game)?
            .into_iter()
            .map(|(i, g)| {
                let which = if count > 1 { format!(" game {}", i + 1) } else { String::new() };
                rgn::game_to_record(&g, rules).map_err(|e| anyhow::anyhow!("{name}{which}: {e}"))
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok((Form::Rgn, records));
    }
    let games = match records::read_game(name, text) {
        Ok(one) => vec![one],
        Err(whole) => json_lines(name, text).map_err(|_| whole)?,
    };
    let games = pick(name, games.into_iter().enumerate().collect(), pick_game)?;
    for (i, game) in &games {
        let label = if pick_game.is_none() && games.len() > 1 { format!("{name} record {}", i + 1) } else { name.to_owned() };
        records::replay(&label, game)?;
    }
    Ok((Form::Json, games.into_iter().map(|(_, g)| g).collect()))
}

/// JSON Lines: one record a line.
fn json_lines(name: &str, text: &str) -> Result<Vec<SavedGame>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| records::read_game(&format!("{name} line {}", i + 1), l).map_err(Into::into))
        .collect()
}

/// Game N alone, or every game (each with its index).
fn pick<T>(name: &str, mut games: Vec<(usize, T)>, game: Option<usize>) -> Result<Vec<(usize, T)>> {
    match game {
        None => Ok(games),
        Some(n) if (1..=games.len()).contains(&n) => Ok(vec![games.swap_remove(n - 1)]),
        Some(n) => bail!("--game {n}: {name} holds {} game(s); give a number from 1 to {}", games.len(), games.len()),
    }
}

/// The games in the form asked for; RGN always names the rules, so the text
/// reads back alone.
fn write(games: &[SavedGame], to: Form) -> Result<String> {
    Ok(match (to, games) {
        (Form::Json, [one]) => serde_json::to_string_pretty(one)? + "\n",
        (Form::Json, many) => many.iter().map(|g| serde_json::to_string(g).map(|t| t + "\n")).collect::<Result<String, _>>()?,
        (Form::Rgn, many) => {
            let texts = many.iter().map(|g| rgn::write_game(g, None)).collect::<Result<Vec<_>, _>>()?;
            rgn::format_games(&texts)
        }
    })
}
