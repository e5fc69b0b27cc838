//! `ur train-table`: fit one rule set's race evaluation to a solved table
//! of the full game and add it to a weights file.
//!
//! `ur train-eval` fits models to small tables (2 to 5 pieces) that must
//! extrapolate to the full game; where the full game is solved (7-piece
//! Finkel), a model fitted to its own positions plays better at the leaves
//! of a search. The model is added as `ID@PIECES` (options off their
//! defaults follow in brackets, `ur_bots::eval::model_id`; an earlier one of
//! that name is replaced, every other model copied unchanged), serves piece
//! counts near `PIECES` only, and its settings and held-out error go to
//! `training.table_fits`. The same base, table and arguments reproduce the
//! file byte for byte.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use clap::Args;
use serde_json::json;
use ur_bots::eval::Evaluator;
use ur_bots::train::{fit_exact, rmse_pp, sample_positions};

use crate::eval_cmd::{LoadedTable, TableOracle, TableRulesArgs};
use ur_cli::outln;

#[derive(Args, Debug)]
pub struct TrainTableCmd {
    /// A table made by `ur solve` for the full game: the model is fitted to its exact values.
    #[arg(long, value_name = "FILE")]
    table: PathBuf,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// The weights to add the model to (as written by `ur train-eval`); by
    /// default the built-in ones (`crates/ur-bots/weights/race.json` of this build).
    #[arg(long, value_name = "FILE")]
    base: Option<PathBuf>,
    /// Training positions (a quarter as many more, from other games, are held out).
    #[arg(long, default_value_t = 200_000)]
    samples: usize,
    /// Add piece-square features (pieces on each path position, and the
    /// same weighted by the chance of being hit) to the model.
    #[arg(long)]
    squares: bool,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
    /// Seed for sampling positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

impl TrainTableCmd {
    pub fn run(self) -> Result<()> {
        if self.samples < 100 {
            bail!("--samples must be at least 100");
        }
        let mut weights = crate::files::base_weights(self.base.as_deref())?;
        let table = LoadedTable::open(&self.table)?;
        let oracle = table.oracle(Arc::new(self.rules.load(&table)?))?;
        let rules = oracle.rules().clone();
        let id = ur_bots::eval::model_id(&rules);
        // Measure the base without an earlier model of this name.
        weights.rules.retain(|r| r.id != id);
        let (index, values) = (oracle.index(), &**oracle.table());
        let train = sample_positions(&rules, index, values, self.samples, self.seed);
        let held = sample_positions(&rules, index, values, self.samples / 4, self.seed ^ 0x5eed);
        eprintln!("fitting {id} to {} positions of {}", train.len(), self.table.display());
        let model = fit_exact(&rules, &train, self.squares, self.l2).rounded();
        let before = rmse_pp(&Evaluator::with_weights(rules.clone(), &weights), &held);
        let after = rmse_pp(&model.evaluator(&rules), &held);
        outln!("held-out RMSE over {} positions: {before:.3} pp with the base weights, {after:.3} pp with {id}", held.len())?;

        let record = json!({
            "id": id,
            "rules": rules.id(),
            "options": rules.options,
            "pieces": rules.pieces(),
            "command": self.command_line(),
            "table_positions": index.len(),
            "samples": self.samples,
            "squares": self.squares,
            "l2": self.l2,
            "seed": self.seed,
            "loss": "cross-entropy against the table's exact values (logistic regression with soft targets), Newton's method",
            "held_out": { "positions": held.len(), "base_rmse_pp": before, "rmse_pp": after },
        });
        weights.put_model(&rules, &id, (model.bias, model.w, model.squares), "table_fits", record);
        weights.check().map_err(|e| anyhow::anyhow!("{e}"))?;
        crate::files::write_weights(&self.out, &weights)?;
        outln!("weights written to {} (model {id})", self.out.display())?;
        Ok(())
    }

    fn command_line(&self) -> String {
        format!(
            "ur train-table --table {} --samples {} --l2 {}{} --seed {}",
            self.table.file_name().map_or_else(|| self.table.display().to_string(), |f| f.to_string_lossy().into_owned()),
            self.samples,
            self.l2,
            if self.squares { " --squares" } else { "" },
            self.seed
        )
    }
}
