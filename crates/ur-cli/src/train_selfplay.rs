//! `ur train-selfplay`: fit the race evaluation of one rule set by
//! self-play (for rule sets too big to solve) and add it to a weights file.
//!
//! Reads the weights written by `ur train-eval` (`--base`), starts from the
//! model they give the rules, plays and refits (`ur_bots::selfplay`), and
//! writes the base weights with the new model added as `ID@PIECES` (options
//! off their defaults follow in brackets; an earlier model of that name is
//! replaced; the other models are copied unchanged). The settings and the
//! per-iteration record go to `training.self_play`. The same base,
//! arguments and seed reproduce the file byte for byte.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use serde_json::json;
use ur_bots::selfplay::{self_play_fit, SelfPlayConfig};

use crate::rules_arg::RulesArgs;
use ur_cli::outln;

#[derive(Args, Debug)]
pub struct TrainSelfPlayCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// The weights to add the model to (as written by `ur train-eval`); by
    /// default the built-in ones (`crates/ur-bots/weights/race.json` of this build).
    #[arg(long, value_name = "FILE")]
    base: Option<PathBuf>,
    /// Rounds of self-play and refit (at least 1).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    iterations: u32,
    /// Games per round (at least 1).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Share of turn starts kept as training positions.
    #[arg(long, default_value_t = 0.1)]
    keep: f64,
    /// The highest random-move rate (games play at 0, 1/3, 2/3 and all of it in turn).
    #[arg(long, default_value_t = 0.15)]
    explore: f64,
    /// TD(λ): 0 fits the one-roll backup, 1 the game's outcome.
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
    /// Turns after which a game is cut off.
    #[arg(long, default_value_t = 20_000)]
    max_turns: u32,
    /// Add piece-square features (pieces on each path position, and the
    /// same weighted by the chance of being hit) to the model.
    #[arg(long)]
    squares: bool,
    /// Turns the backup of a kept position searches (1: one roll).
    #[arg(long, default_value_t = 1)]
    backup_depth: u32,
    /// Share of games in which one side plays `greedy`'s heuristic.
    #[arg(long, default_value_t = 0.0)]
    greedy_games: f64,
    /// Seed for the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

impl TrainSelfPlayCmd {
    pub fn run(self) -> Result<()> {
        let mut weights = crate::files::base_weights(self.base.as_deref())?;
        let rules = Arc::new(self.rules.load()?.rules);
        if rules.named_pieces() {
            bail!("self-play fits rule sets without named pieces only");
        }
        if !(0.0..=1.0).contains(&self.keep)
            || !(0.0..=1.0).contains(&self.explore)
            || !(0.0..=1.0).contains(&self.lambda)
            || !(0.0..=1.0).contains(&self.greedy_games)
        {
            bail!("--keep, --explore, --lambda and --greedy-games are between 0 and 1");
        }
        let pieces = rules.pieces();
        let id = ur_bots::eval::model_id(&rules);
        // Start from what the base gives the rules, without an earlier self-play model of this name.
        weights.rules.retain(|r| r.id != id);
        let (b, w, from) = weights.model_for(&rules);
        let from = from.unwrap_or("generic").to_string();
        let cfg = SelfPlayConfig {
            iterations: self.iterations,
            games: self.games,
            keep: self.keep,
            explore: self.explore,
            lambda: self.lambda,
            l2: self.l2,
            max_turns: self.max_turns,
            backup_depth: self.backup_depth,
            greedy_games: self.greedy_games,
            seed: self.seed,
        };
        eprintln!("self-play on {id} from the {from} model: {} rounds of {} games", cfg.iterations, cfg.games);
        outln!(
            "{:>5} {:>9} {:>8} {:>11} {:>9} {:>12} {:>11}",
            "round",
            "positions",
            "turns",
            "first wins",
            "cut off",
            "before rmse",
            "after rmse"
        )?;
        let started = Instant::now();
        let (model, reports) = self_play_fit(&rules, (b, w), self.squares, &cfg, |r| {
            // A progress line: a failed write is found by the next one the command checks.
            let _ = outln!(
                "{:>5} {:>9} {:>8.1} {:>10.1}% {:>9} {:>12.3} {:>11.3}   ({:.0} s)",
                r.iteration,
                r.positions,
                r.mean_turns,
                100.0 * f64::from(r.first_wins) / f64::from(r.games.max(1)),
                r.cut_off,
                r.before_rmse_pp,
                r.after_rmse_pp,
                started.elapsed().as_secs_f64()
            );
        });
        let m = model.rounded();
        let record = json!({
            "id": id,
            "rules": rules.id(),
            "options": rules.options,
            "pieces": pieces,
            "command": self.command_line(),
            "start": from,
            "settings": cfg,
            "squares": self.squares,
            "loss": "cross-entropy against TD(lambda) targets from self-play (logistic regression with soft targets), Newton's method",
            "rounds": reports,
        });
        weights.put_model(&rules, &id, (m.bias, m.w, m.squares), "self_play", record);
        weights.check().map_err(|e| anyhow::anyhow!("{e}"))?;
        crate::files::write_weights(&self.out, &weights)?;
        outln!("weights written to {} (model {id}, {:.0} s)", self.out.display(), started.elapsed().as_secs_f64())?;
        Ok(())
    }

    fn command_line(&self) -> String {
        let rules = self.rules.command_args();
        format!(
            "ur train-selfplay {rules} --iterations {} --games {} --keep {} --explore {} --lambda {} --l2 {} --max-turns {} --backup-depth {} --greedy-games {}{} --seed {}",
            self.iterations, self.games, self.keep, self.explore, self.lambda, self.l2,
            self.max_turns,
            self.backup_depth,
            self.greedy_games,
            if self.squares { " --squares" } else { "" },
            self.seed
        )
    }
}
