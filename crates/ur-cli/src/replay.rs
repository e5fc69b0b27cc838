//! `ur replay`: check a game record and print where it ends.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use ur_cli::{out, outln};
use ur_rules::narrate::{family_name, rule_set_name, standing_line};
use ur_rules::Playable;
use ur_session::records;

#[derive(Args, Debug)]
pub struct ReplayCmd {
    /// The game record (JSON, as written by `ur play --save`).
    file: PathBuf,
}

impl ReplayCmd {
    pub fn run(self) -> Result<()> {
        let name = self.file.display().to_string();
        let saved = crate::files::read_game(&self.file)?;
        let records::Replayed { game, steps, rules_from_file } = records::replay(&name, &saved)?;
        let from = if rules_from_file { ", from the rule-set file stored in the record" } else { "" };
        let what = if matches!(saved, records::SavedGame::Race(_)) { "actions" } else { "steps" };
        outln!(
            "{steps} {what} replayed under {} ({}, {} family{from}); every one is legal.",
            game.rule_id(),
            rule_set_name(&game),
            family_name(game.family())
        )?;
        out!("{}{}", game.board_text(), standing_line(&game))?;
        Ok(())
    }
}
