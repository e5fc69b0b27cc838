//! `ur replay`: check a game record and print where it ends.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use ur_rules::{AnyRecord, Phase, Playable, Turn};

use ur_rules::race::text::{render, side_label};
use ur_session::records::{self, SavedGame};

#[derive(Args, Debug)]
pub struct ReplayCmd {
    /// The game record (JSON, as written by `ur play --save`).
    file: PathBuf,
}

impl ReplayCmd {
    pub fn run(self) -> Result<()> {
        let name = self.file.display();
        let record = match crate::files::read_game(&self.file)? {
            SavedGame::Race(record) => record,
            SavedGame::Family(record) => return replay_any(&name.to_string(), &record),
        };
        let game = records::replay_race(&name.to_string(), &record)?;
        let rules = game.rules();
        let from = if record.rules_file.is_some() { ", from the rule-set file stored in the record" } else { "" };
        println!("{} actions replayed under {} ({}{from}); every action is legal.", record.actions.len(), rules.id(), rules.spec.name);
        print!("{}", render(rules, game.state()));
        match (game.winner(), game.phase()) {
            (Some(w), _) => println!("Result: {} wins.", side_label(rules, w)),
            (None, Phase::Over) => println!("Result: game over."),
            (None, p) => println!("Game unfinished: {} to play; the game waits for {}.", side_label(rules, game.to_move()), waits_for(p)),
        }
        if let Some(paid) = game.pot_paid() {
            println!("Pot: light paid {}, dark paid {}; total {}.", paid[0], paid[1], paid[0] + paid[1]);
        }
        Ok(())
    }
}

/// A record of a game beyond the race (version 2).
fn replay_any(name: &str, record: &AnyRecord) -> Result<()> {
    let game = records::replay_any(name, record)?;
    println!(
        "{} steps replayed under {} ({} family); every step is legal.",
        record.steps.len(),
        record.rules,
        ur_rules::narrate::family_name(record.family)
    );
    print!("{}", game.board_text());
    match game.turn() {
        Turn::Over(Some(w)) => println!("Result: {} wins.", ur_rules::narrate::side_name(&game, w)),
        Turn::Over(None) => println!("Result: a draw."),
        Turn::Roll(s) => println!("Game unfinished: {} to play; the game waits for a roll.", ur_rules::narrate::side_name(&game, s)),
        Turn::Decide(s) => println!("Game unfinished: {} to play; the game waits for a decision.", ur_rules::narrate::side_name(&game, s)),
    }
    Ok(())
}

fn waits_for(phase: Phase) -> &'static str {
    match phase {
        Phase::Roll => "a roll",
        Phase::Declare => "a declaration (move or summon)",
        Phase::Move => "a move",
        Phase::ExtraRoll => "a choice: roll again or end the turn",
        Phase::Over => "nothing",
    }
}
