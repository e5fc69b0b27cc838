//! `ur regret`: a bot's mean loss of win probability per decision, with a
//! solved table as the referee.
//!
//! Games are played with the sampler bots (or the bot itself) from seeded
//! dice; at every decision with a real choice (a throw with two or more legal
//! moves, or an optional extra roll) the bot is asked what it would do, and
//! its regret is the win probability of the best choice minus that of its
//! choice. The interval treats games as clusters, since the decisions of one
//! game are not independent.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::ProgressBar;
use serde::Serialize;
use ur_bots::review::{same_action, Judge};
use ur_bots::{Bot, Oracle};
use ur_rules::{Action, AnyAction, AnyGame, Dice, Game, Phase, Rules, SeededDice, Side};

use crate::arena::{derive_seed, describe_rules, make_bot, progress_bar, MeasureArgs, Z95};
use crate::eval_cmd::{race_only, LoadedTable, TableRulesArgs};

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

#[derive(Serialize)]
struct Report {
    rules: String,
    options: ur_rules::Options,
    table: String,
    bot: String,
    sampler: String,
    seed: u64,
    /// Decisions measured.
    decisions: u64,
    /// Of which optional extra rolls (the rest are moves).
    extra_roll_decisions: u64,
    games: u64,
    /// Mean regret in percentage points of win probability, with its 95% interval.
    mean_regret_pp: f64,
    mean_regret_ci95_pp: [f64; 2],
    max_regret_pp: f64,
    /// Decisions where the bot chose a best move.
    perfect_fraction: f64,
    ms_per_decision: f64,
}

impl RegretCmd {
    fn load(&self) -> Result<Oracle> {
        let Some(path) = &self.table else {
            bail!(
                "ur regret needs --table FILE, a table made by `ur solve` to judge the moves (for example `ur solve finkel --pieces 3 --out f3.urt`)"
            );
        };
        let table = LoadedTable::open(path)?;
        if let Some(id) = self.rules.builtin_id() {
            race_only(id, "ur regret")?;
        }
        let rules = self.rules.load(&table)?;
        Ok(table.oracle(Arc::new(rules))?)
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
        let rules = oracle.rules().clone();
        let self_play = self.sampler == "self";
        let sampler = if self_play { self.bot.as_str() } else { self.sampler.as_str() };
        make_bot(&self.bot, 0, Some(&oracle))?;
        make_bot(sampler, 0, Some(&oracle)).map_err(|e| anyhow!("--sampler: {e}; or 'self' for the measured bot"))?;

        let bar = progress_bar(self.positions, self.out.quiet, "decisions");
        let mut stats = Stats::default();
        let mut game_no = 0u64;
        let mut barren = 0;
        while stats.decisions < self.positions {
            let before = stats.decisions;
            self.measure_game(&oracle, sampler, game_no, &mut stats, &bar)?;
            game_no += 1;
            barren = if stats.decisions == before { barren + 1 } else { 0 };
            if barren >= 1000 {
                bail!(
                    "1000 games in a row had no decision with two or more legal moves under {}; with so few pieces there is nothing to measure",
                    describe_rules(&rules)
                );
            }
        }
        bar.finish_and_clear();

        let report = stats.report(&self, &rules, sampler, game_no);
        if self.out.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{}", text_report(&report, self_play));
        }
        Ok(())
    }
}

impl RegretCmd {
    /// Plays game `game_no` with the sampler bots, measuring the bot at
    /// every decision with a real choice until the game ends or enough
    /// decisions are measured.
    fn measure_game(&self, oracle: &Oracle, sampler: &str, game_no: u64, stats: &mut Stats, bar: &ProgressBar) -> Result<()> {
        let judge = Judge::Table(oracle.clone());
        let rules = oracle.rules().clone();
        let self_play = self.sampler == "self";
        let seed = |tag: u64| derive_seed(self.seed, &[game_no, tag]);
        let mut dice = SeededDice::new(seed(0));
        let mut measured = make_bot(&self.bot, seed(1), Some(oracle))?;
        let mut players = [make_bot(sampler, seed(2), Some(oracle))?, make_bot(sampler, seed(3), Some(oracle))?];
        let mut any = AnyGame::Race(Game::new(rules.clone(), Side::Light));
        let mut cluster = (0.0, 0u64);
        let mut actions = 0;
        loop {
            let game = any.as_race().expect("regret plays race games");
            if game.phase() == Phase::Over || actions >= self.max_actions || stats.decisions >= self.positions {
                break;
            }
            actions += 1;
            if game.phase() == Phase::Roll {
                any.as_race_mut().expect("a race game").roll(dice.throw(rules.dice()))?;
                continue;
            }
            let side = game.to_move().index();
            let real = match game.phase() {
                Phase::Move => game.legal_moves().len() >= 2,
                Phase::ExtraRoll => true,
                _ => false,
            };
            let action = if real {
                let bot: &mut Box<dyn Bot> = if self_play { &mut players[side] } else { &mut measured };
                let t = Instant::now();
                let chosen = race_action(bot.decide(&any))?;
                stats.think += t.elapsed();
                let r = regret(&judge, game, chosen).with_context(|| format!("the {} bot chose {chosen:?}", self.bot))?;
                stats.add(r, game.phase() == Phase::ExtraRoll);
                cluster.0 += r;
                cluster.1 += 1;
                bar.inc(1);
                if self_play {
                    chosen
                } else {
                    race_action(players[side].decide(&any))?
                }
            } else {
                race_action(players[side].decide(&any))?
            };
            let name = players[side].name();
            any.as_race_mut()
                .expect("a race game")
                .apply(action)
                .with_context(|| format!("the {name} bot chose {action:?}, which the game refused"))?;
        }
        if cluster.1 > 0 {
            stats.clusters.push(cluster);
        }
        Ok(())
    }
}

/// The race action a bot chose in a race game.
fn race_action(action: AnyAction) -> Result<Action> {
    action.as_race().copied().ok_or_else(|| anyhow!("a bot answered a race game with {action}, not a race action"))
}

/// The best value among the choices open in `game` minus the value of `chosen`.
fn regret(judge: &Judge, game: &Game, chosen: Action) -> Result<f64> {
    let values = judge.action_values(game);
    let best = values.first().map(|v| v.1).ok_or_else(|| anyhow!("the table lists no choice in phase {:?}", game.phase()))?;
    let got = values.iter().find(|(a, _)| same_action(*a, chosen)).map(|v| v.1).ok_or_else(|| anyhow!("not a legal choice"))?;
    Ok((best - got).max(0.0))
}

#[derive(Default)]
struct Stats {
    decisions: u64,
    extra_rolls: u64,
    sum: f64,
    max: f64,
    perfect: u64,
    think: Duration,
    /// Per game: the sum of regrets and the number of decisions.
    clusters: Vec<(f64, u64)>,
}

impl Stats {
    fn add(&mut self, r: f64, extra_roll: bool) {
        self.decisions += 1;
        self.extra_rolls += u64::from(extra_roll);
        self.sum += r;
        self.max = self.max.max(r);
        self.perfect += u64::from(r <= 1e-9);
    }

    /// The mean and the half-width of its 95% interval, games as clusters
    /// (the variance of a ratio estimator).
    fn mean_ci(&self) -> (f64, f64) {
        let n = self.decisions as f64;
        let mean = self.sum / n;
        let g = self.clusters.len() as f64;
        if g < 2.0 {
            return (mean, f64::NAN);
        }
        let ss: f64 = self.clusters.iter().map(|&(s, k)| (s - mean * k as f64).powi(2)).sum();
        let var = g / (g - 1.0) * ss / (n * n);
        (mean, Z95 * var.sqrt())
    }

    fn report(&self, cmd: &RegretCmd, rules: &Rules, sampler: &str, games: u64) -> Report {
        let (mean, half) = self.mean_ci();
        let pp = |x: f64| 100.0 * x;
        Report {
            rules: rules.id().to_string(),
            options: rules.options.clone(),
            table: cmd.table.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
            bot: cmd.bot.clone(),
            sampler: if cmd.sampler == "self" { "self".into() } else { sampler.into() },
            seed: cmd.seed,
            decisions: self.decisions,
            extra_roll_decisions: self.extra_rolls,
            games,
            mean_regret_pp: pp(mean),
            mean_regret_ci95_pp: [pp((mean - half).max(0.0)), pp(mean + half)],
            max_regret_pp: pp(self.max),
            perfect_fraction: self.perfect as f64 / self.decisions as f64,
            ms_per_decision: self.think.as_secs_f64() * 1000.0 / self.decisions as f64,
        }
    }
}

fn text_report(r: &Report, self_play: bool) -> String {
    let rules = describe_rules_of(r);
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

fn describe_rules_of(r: &Report) -> String {
    let opts: Vec<String> = r.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if opts.is_empty() {
        r.rules.clone()
    } else {
        format!("{} ({})", r.rules, opts.join(", "))
    }
}
