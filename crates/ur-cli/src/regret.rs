//! `ur regret`: a bot's mean loss of win probability per decision, with a
//! solved table as the referee (measured by [`ur_session::regret`]).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use clap::Args;
use ur_session::regret::{Referee, RegretReport, RegretSpec};
use ur_solve::GraphTable;

use crate::arena::{progress_bar, MeasureArgs};
use crate::eval_cmd::{race_only, LoadedTable, TableOracle, TableRulesArgs};
use ur_cli::{out, outln};

#[derive(Args, Debug)]
pub struct RegretCmd {
    #[command(flatten)]
    rules: TableRulesArgs,
    /// The bot to measure (random, greedy, perfect, ...).
    #[arg(long, value_name = "B")]
    bot: String,
    /// How many decisions to measure.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    positions: u64,
    /// A table made by `ur solve` for the rules: the referee.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Seed from which every game's dice and bot seeds are derived.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Who plays the games the positions come from: random, greedy (or any bot
    /// name), or self (the measured bot, whose choices are then played).
    #[arg(long, default_value = "greedy", value_name = "random|greedy|self")]
    sampler: String,
    /// A game longer than this many actions is abandoned.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    max_actions: u64,
    #[command(flatten)]
    out: MeasureArgs,
}

impl RegretCmd {
    fn load(&self) -> Result<Box<dyn Referee>> {
        let Some(path) = &self.table else {
            if let Some(id) = self.rules.builtin_id() {
                race_only(id, "ur regret")?;
            }
            bail!(
                "ur regret needs --table FILE, a table made by `ur solve` to judge the moves (for example `ur solve finkel --pieces 3 --out f3.urt`, \
                 or for a small variant of another family `ur solve bens-ur --option markers=2 --option start_procedure=none --out b2.urg`)"
            );
        };
        if GraphTable::is_graph_file(path) {
            let table = GraphTable::open(path)?;
            self.rules.check_fixed(&table.header().rules)?;
            return Ok(Box::new(table));
        }
        if let Some(id) = self.rules.builtin_id() {
            race_only(id, "ur regret")?;
        }
        let table = LoadedTable::open(path)?;
        let rules = self.rules.load(&table)?;
        Ok(Box::new(table.oracle(Arc::new(rules))?))
    }

    pub fn run(self) -> Result<()> {
        if self.positions == 0 {
            bail!("--positions must be at least 1");
        }
        if self.max_actions == 0 {
            bail!("--max-actions must be at least 1");
        }
        self.out.install_weights()?;
        let oracle = self.load()?;
        let spec = RegretSpec {
            bot: self.bot.clone(),
            sampler: self.sampler.clone(),
            positions: self.positions,
            seed: self.seed,
            max_actions: self.max_actions,
            table: self.table.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
        };
        let bar = progress_bar(self.positions, self.out.quiet, "decisions");
        let report = spec.measure(oracle.as_ref(), |done| bar.set_position(done));
        bar.finish_and_clear();
        let report = report.map_err(|e| match e {
            ur_session::regret::RegretError::Sampler(_) => anyhow::anyhow!("--sampler: {e}"),
            e => e.into(),
        })?;
        if self.out.json {
            outln!("{}", serde_json::to_string_pretty(&report)?)?;
        } else {
            out!("{}", text_report(&report))?;
        }
        Ok(())
    }
}

fn text_report(r: &RegretReport) -> String {
    let self_play = r.self_play();
    let rules = r.rules_ref();
    let source = if self_play { format!("{}'s own games", r.bot) } else { format!("games between two {} bots", r.sampler) };
    let mut out = format!("Regret of {} on {rules}, table {}\n", r.bot, r.table);
    out += &format!(
        "{} decisions with a real choice (two or more legal moves{}) from {} {source}, seed {}\n",
        r.decisions,
        if r.extra_roll_decisions > 0 { format!("; {} of them optional extra rolls", r.extra_roll_decisions) } else { String::new() },
        r.games,
        r.seed
    );
    out += &format!(
        "mean regret {:.4} pp per decision (95% CI {:.4} to {:.4}); worst {:.2} pp\n",
        r.mean_regret_pp, r.mean_regret_ci95_pp[0], r.mean_regret_ci95_pp[1], r.max_regret_pp
    );
    out += &format!("perfect choices {:.2}%\n", 100.0 * r.perfect_fraction);
    let ms = r.ms_per_decision;
    out += &if ms < 0.01 { format!("{ms:.6} ms per decision\n") } else { format!("{ms:.3} ms per decision\n") };
    out
}
