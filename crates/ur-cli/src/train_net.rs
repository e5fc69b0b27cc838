//! `ur train-net`: train a race rule set's neural evaluation by self-play
//! (`ur_bots::net::train`) and write the network file the `net` bots read.
//!
//! A checkpoint is written after every iteration (`--checkpoint`, by
//! default the output's name with `.checkpoint`); a run started again with
//! the same arguments resumes from it, and gives the same network as a run
//! that was never stopped. Ctrl-C finishes the iteration under way, keeps
//! the checkpoint and says how to go on.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use ur_bots::net::train::{NetTrainConfig, Subject, Trainer};
use ur_bots::net::NetFile;
use ur_cli::outln;

use crate::rules_arg::RulesArgs;
use crate::signals;

#[derive(Args, Debug)]
pub struct TrainNetCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// Self-play games in all.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Games per iteration (between two rounds of learning).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    games_per_iteration: u32,
    /// Units in the hidden layer (1 to 256).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=256))]
    hidden: u16,
    /// TD(λ): 0 learns the one-roll backup, 1 the game's outcome.
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// The highest random-move rate (games play at 0, 1/3, 2/3 and all of it in turn).
    #[arg(long, default_value_t = 0.2)]
    explore: f64,
    /// Share of turn starts trained on.
    #[arg(long, default_value_t = 0.5)]
    keep: f64,
    /// Adam's step size at the start; it falls linearly to `--final-rate` of itself.
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f32,
    #[arg(long, default_value_t = 0.1)]
    final_rate: f32,
    /// Passes over each iteration's positions.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Turn starts after which a self-play game is cut off (its last target is then the network's own backup).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..))]
    max_turns: u32,
    /// Race rule sets: each side starts a self-play game with 0 to N pieces
    /// already borne off (drawn apart), so the endings are trained on too.
    #[arg(long, default_value_t = 0, value_name = "N")]
    start_off: u8,
    /// The hidden units' slope below zero: 0 for plain rectifiers, a small
    /// share (0.01 to 0.1) for leaky ones, which cannot die.
    #[arg(long, default_value_t = 0.0)]
    leak: f32,
    /// Race rule sets: before self-play, fit the network to N turn starts
    /// valued by the built-in linear evaluation (its one-roll backup), from
    /// games that evaluation plays, so self-play starts from its judgement.
    #[arg(long, default_value_t = 0, value_name = "N")]
    warm_start: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the network (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Where to keep the run's state between iterations (default: FILE.checkpoint).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Print no progress bar.
    #[arg(long)]
    quiet: bool,
}

impl TrainNetCmd {
    fn config(&self) -> Result<NetTrainConfig> {
        for (name, v) in [("--lambda", self.lambda), ("--explore", self.explore), ("--keep", self.keep)] {
            if !(0.0..=1.0).contains(&v) {
                bail!("{name} is {v}; give a number between 0 and 1");
            }
        }
        if self.warm_start > 0 && self.keep == 0.0 {
            bail!("--warm-start fits the network to kept turn starts, and --keep 0 keeps none; give --keep above 0");
        }
        if !(0.0..1.0).contains(&self.leak) {
            bail!("--leak is {}; give 0 (plain rectifiers) or a small share such as 0.05 (below 1)", self.leak);
        }
        if !(self.learning_rate > 0.0 && self.learning_rate < 1.0 && (0.0..=1.0).contains(&self.final_rate)) {
            bail!("--learning-rate is between 0 and 1 (2e-3 by default), --final-rate between 0 and 1");
        }
        Ok(NetTrainConfig {
            games: self.games,
            games_per_iteration: self.games_per_iteration,
            hidden: usize::from(self.hidden),
            lambda: self.lambda,
            explore: self.explore,
            keep: self.keep,
            learning_rate: self.learning_rate,
            final_rate: self.final_rate,
            epochs: self.epochs,
            batch: self.batch as usize,
            max_turns: self.max_turns,
            start_off: self.start_off,
            leak: self.leak,
            warm_start: self.warm_start,
            seed: self.seed,
        })
    }

    fn checkpoint_path(&self) -> PathBuf {
        self.checkpoint.clone().unwrap_or_else(|| {
            let mut name = self.out.as_os_str().to_owned();
            name.push(".checkpoint");
            PathBuf::from(name)
        })
    }

    fn subject(&self) -> Result<Subject> {
        if self.rules.family() != ur_rules::Family::Race {
            let id = self.rules.rules.clone();
            return Ok(Subject::Game { options: self.rules.given_options()?, id });
        }
        let rules = Arc::new(self.rules.load()?.rules);
        if rules.named_pieces() {
            // Named pieces are trained on game clones, with the observation that encodes the birds.
            if self.rules.rules_file.is_some() {
                bail!("'{}' has named pieces, which train from a built-in rule set only; use --rules ID", rules.id());
            }
            return Ok(Subject::Game { options: self.rules.given_options()?, id: self.rules.rules.clone() });
        }
        Ok(Subject::Race(rules))
    }

    pub fn run(self) -> Result<()> {
        let rules = self.subject()?;
        self.rules.new_game(ur_rules::Side::Light)?;
        if (self.start_off > 0 || self.warm_start > 0) && matches!(rules, Subject::Game { .. }) {
            bail!(
                "--start-off and --warm-start are for race rule sets without named pieces; '{}' trains from its start only \
                 and from random weights, so leave them out",
                self.rules.rules
            );
        }
        let cfg = self.config()?;
        crate::files::check_output(&self.out, "--out")?;
        let ckpt = self.checkpoint_path();
        let mut trainer = resume_or_start(&ckpt, &rules, cfg)?;
        let stop = Arc::new(AtomicI32::new(0));
        let flag = stop.clone();
        signals::on_stop(move |sig| {
            if flag.swap(sig, Ordering::SeqCst) != 0 {
                std::process::exit(signals::status(sig));
            }
            signals::say("stopping after this iteration (Ctrl-C again to stop now, losing it)");
        })?;
        let bar = self.bar(&trainer);
        let started = Instant::now();
        while !trainer.done() {
            let r = trainer.step(&rules);
            bar.set_position(r.games_done);
            bar.set_message(format!("rmse {:.2} → {:.2} pp, {:.1} units fire", r.before_rmse_pp, r.after_rmse_pp, r.active_units));
            save_checkpoint(&ckpt, &trainer)?;
            let sig = stop.load(Ordering::SeqCst);
            if sig != 0 && !trainer.done() {
                bar.abandon();
                signals::say(&format!(
                    "stopped after {} of {} games; the run is kept in {}: run the same command again to go on",
                    trainer.games_done,
                    trainer.config.games,
                    ckpt.display()
                ));
                std::process::exit(signals::status(sig));
            }
        }
        bar.finish_and_clear();
        self.write(&rules, &trainer)?;
        let _ = std::fs::remove_file(&ckpt);
        let (last, active) = trainer.reports.last().map_or((0.0, 0.0), |r| (r.after_rmse_pp, r.active_units));
        outln!(
            "network written to {} ({} games, {} inputs, {} hidden units of which {active:.1} fire on an average position, last rmse {last:.3} pp, {:.0} s)",
            self.out.display(),
            trainer.games_done,
            trainer.net.inputs,
            trainer.net.hidden,
            started.elapsed().as_secs_f64()
        )?;
        // Two firing units on an average position is far below what a working network shows (a
        // 2,000-game Finkel run already has six); the dead regency-murray runs had about one.
        if active < 2.0 && trainer.net.leak == 0.0 {
            signals::say(&format!(
                "warning: only {active:.1} of {} hidden units fire on an average position of the last iteration, so the network \
                 values most positions alike (a small rmse then only says the targets sit near its one value); \
                 try --leak 0.05 (leaky rectifiers cannot die) or a lower --learning-rate",
                trainer.net.hidden
            ));
        }
        Ok(())
    }

    fn bar(&self, trainer: &Trainer) -> ProgressBar {
        let bar = if self.quiet { ProgressBar::hidden() } else { ProgressBar::new(trainer.config.games) };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games ETA {eta} {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_position(trainer.games_done);
        bar.enable_steady_tick(Duration::from_millis(500));
        bar
    }

    fn write(&self, rules: &Subject, trainer: &Trainer) -> Result<()> {
        let training = json!({
            "command": self.command_line(),
            "method": "TD(lambda) self-play with the one-roll backup; cross-entropy, Adam",
            "settings": trainer.config,
            "iterations": trainer.reports.len(),
            "last_reports": trainer.reports.iter().rev().take(5).rev().collect::<Vec<_>>(),
        });
        let file = match rules {
            Subject::Race(r) => NetFile::new(r, trainer.net.clone(), training),
            Subject::Game { id, options } => {
                let game = ur_rules::AnyGame::new(id, options, ur_rules::Side::Light)?;
                NetFile::for_game(&game, trainer.net.clone(), training)
            }
        };
        let text = serde_json::to_string(&file)? + "\n";
        ur_solve::atomic::write_atomic(&self.out, text.as_bytes()).with_context(|| format!("cannot write {}", self.out.display()))
    }

    fn command_line(&self) -> String {
        let rules = self.rules.command_args();
        format!(
            "ur train-net {rules} --games {} --games-per-iteration {} --hidden {} --lambda {} --explore {} --keep {} --learning-rate {} --final-rate {} --epochs {} --batch {} --max-turns {}{}{}{} --seed {}",
            self.games, self.games_per_iteration, self.hidden, self.lambda, self.explore, self.keep,
            self.learning_rate, self.final_rate, self.epochs, self.batch, self.max_turns,
            if self.start_off > 0 { format!(" --start-off {}", self.start_off) } else { String::new() },
            if self.leak > 0.0 { format!(" --leak {}", self.leak) } else { String::new() },
            if self.warm_start > 0 { format!(" --warm-start {}", self.warm_start) } else { String::new() },
            self.seed
        )
    }
}

/// The run kept in `path` when it is this run's, else a new one.
fn resume_or_start(path: &Path, rules: &Subject, cfg: NetTrainConfig) -> Result<Trainer> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Trainer::new(rules, cfg)),
        Err(e) => return Err(e).with_context(|| format!("cannot read the checkpoint {}", path.display())),
    };
    let trainer: Trainer = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a training checkpoint; remove it or give another --checkpoint", path.display()))?;
    if trainer.rules != rules.id() || trainer.pieces != rules.pieces() || trainer.options != rules.options() || trainer.config != cfg {
        bail!(
            "{} holds a run with other rules or settings ({} games of '{}'); give the same arguments to resume it, or remove it to start again",
            path.display(),
            trainer.config.games,
            trainer.rules
        );
    }
    signals::say(&format!("resuming from {} ({} of {} games done)", path.display(), trainer.games_done, trainer.config.games));
    Ok(trainer)
}

fn save_checkpoint(path: &Path, trainer: &Trainer) -> Result<()> {
    let text = serde_json::to_string(trainer)?;
    ur_solve::atomic::write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write the checkpoint {}", path.display()))
}
