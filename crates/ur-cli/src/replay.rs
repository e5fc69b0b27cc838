//! `ur replay`: check a game record and print where it ends.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use ur_rules::{GameRecord, Phase};

use crate::board_text::render;

#[derive(Args, Debug)]
pub struct ReplayCmd {
    /// The game record (JSON, as written by `ur play --save`).
    file: PathBuf,
}

impl ReplayCmd {
    pub fn run(self) -> Result<()> {
        let text = std::fs::read_to_string(&self.file).with_context(|| format!("cannot read {}", self.file.display()))?;
        let record: GameRecord = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a valid game record", self.file.display()))?;
        let game = record.replay().with_context(|| format!("{} does not replay", self.file.display()))?;
        println!("{} actions replayed under {}.", record.actions.len(), game.rules().id());
        print!("{}", render(game.rules(), game.state()));
        match (game.winner(), game.phase()) {
            (Some(w), _) => println!("Result: {w} wins."),
            (None, Phase::Over) => println!("Result: game over."),
            (None, p) => println!("Game unfinished; {} to act ({p:?}).", game.to_move()),
        }
        Ok(())
    }
}
