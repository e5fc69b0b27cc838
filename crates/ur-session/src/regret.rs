//! Regret: a bot's mean loss of win probability per decision, with a solved
//! table as the referee.
//!
//! Games are played by sampler bots (or the bot itself) from seeded dice; at
//! every decision with a real choice (a throw with two or more legal moves,
//! or an optional extra roll) the bot is asked what it would do, and its
//! regret is the win probability of the best choice minus that of its
//! choice. The interval treats games as clusters, since the decisions of one
//! game are not independent.

use std::time::{Duration, Instant};

use serde::Serialize;
use ur_bots::hint::action_values;
use ur_bots::review::Judge;
use ur_bots::{make_bot_with_table, Bot, BotError, Oracle};
use ur_rules::{Action, AnyAction, AnyGame, Playable, SeededDice, Side, Turn};
use ur_solve::GraphTable;

use crate::reference::RulesRef;
use crate::seed::derive_seed;
use crate::stats::Z95;

/// What to measure.
#[derive(Clone, Debug)]
pub struct RegretSpec {
    /// The bot measured.
    pub bot: String,
    /// Who plays the games: a bot name, or `self` for the measured bot.
    pub sampler: String,
    /// Decisions to measure.
    pub positions: u64,
    pub seed: u64,
    /// A game longer than this many actions is abandoned.
    pub max_actions: u64,
    /// The table's name, for the report.
    pub table: String,
}

/// Why a measurement failed.
#[derive(Debug, thiserror::Error)]
pub enum RegretError {
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error("the sampler: {0}; or 'self' for the measured bot")]
    Sampler(BotError),
    #[error("{0}")]
    Game(String),
    #[error("1000 games in a row had no decision with two or more legal moves under {0}; with so few pieces there is nothing to measure")]
    Barren(RulesRef),
}

/// A measurement's results.
#[derive(Serialize, Clone, Debug)]
pub struct RegretReport {
    pub rules: String,
    pub options: ur_rules::Options,
    pub table: String,
    pub bot: String,
    pub sampler: String,
    pub seed: u64,
    /// Decisions measured.
    pub decisions: u64,
    /// Of which optional extra rolls (the rest are moves).
    pub extra_roll_decisions: u64,
    pub games: u64,
    /// Mean regret in percentage points of win probability, with its 95% interval.
    pub mean_regret_pp: f64,
    pub mean_regret_ci95_pp: [f64; 2],
    pub max_regret_pp: f64,
    /// Decisions where the bot chose a best move.
    pub perfect_fraction: f64,
    pub ms_per_decision: f64,
}

impl RegretReport {
    pub fn rules_ref(&self) -> RulesRef {
        RulesRef::new(self.rules.clone(), self.options.clone())
    }

    /// Whether the measured bot played its own games.
    pub fn self_play(&self) -> bool {
        self.sampler == "self"
    }
}

impl RegretSpec {
    fn self_play(&self) -> bool {
        self.sampler == "self"
    }

    fn sampler_name(&self) -> &str {
        if self.self_play() {
            &self.bot
        } else {
            &self.sampler
        }
    }

    /// Measures the bot against `referee`, telling `progress` of each measured decision.
    ///
    /// # Errors
    /// An unknown bot or sampler, a bot's illegal choice, or rules with nothing to measure.
    pub fn measure(&self, referee: &dyn Referee, mut progress: impl FnMut(u64)) -> Result<RegretReport, RegretError> {
        let game = referee.new_game();
        referee.bot(&self.bot, 0)?.check(&game)?;
        referee.bot(self.sampler_name(), 0).and_then(|b| b.check(&game)).map_err(RegretError::Sampler)?;
        let mut stats = Stats::default();
        let mut game_no = 0u64;
        let mut barren = 0;
        while stats.decisions < self.positions {
            let before = stats.decisions;
            self.measure_game(referee, game_no, &mut stats, &mut progress)?;
            game_no += 1;
            barren = if stats.decisions == before { barren + 1 } else { 0 };
            if barren >= 1000 {
                return Err(RegretError::Barren(referee.rules()));
            }
        }
        Ok(stats.report(self, referee.rules(), game_no))
    }

    /// Plays game `game_no` with the sampler bots, measuring the bot at
    /// every decision with a real choice until the game ends or enough
    /// decisions are measured.
    fn measure_game(
        &self,
        referee: &dyn Referee,
        game_no: u64,
        stats: &mut Stats,
        progress: &mut impl FnMut(u64),
    ) -> Result<(), RegretError> {
        let seed = |tag: u64| derive_seed(self.seed, &[game_no, tag]);
        let mut dice = SeededDice::new(seed(0));
        let sampler = self.sampler_name();
        let mut measured = referee.bot(&self.bot, seed(1))?;
        let mut players = [referee.bot(sampler, seed(2))?, referee.bot(sampler, seed(3))?];
        let mut game = referee.new_game();
        let mut cluster = (0.0, 0u64);
        let mut actions = 0;
        let refused = |e: &dyn std::fmt::Display| RegretError::Game(e.to_string());
        loop {
            let side = match game.turn() {
                _ if actions >= self.max_actions || stats.decisions >= self.positions => break,
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    actions += 1;
                    game.roll(ur_rules::report::throw(&game, &mut dice)).map_err(|e| refused(&e))?;
                    continue;
                }
                Turn::Decide(side) => side.index(),
            };
            actions += 1;
            let action = if game.actions().len() >= 2 {
                let bot: &mut Box<dyn Bot> = if self.self_play() { &mut players[side] } else { &mut measured };
                let t = Instant::now();
                let chosen = bot.decide(&game);
                stats.think += t.elapsed();
                let r =
                    regret(referee, &game, &chosen).map_err(|e| RegretError::Game(format!("the {} bot chose {chosen}: {e}", self.bot)))?;
                stats.add(r, matches!(chosen, AnyAction::Race(Action::Choose(_))));
                cluster.0 += r;
                cluster.1 += 1;
                progress(stats.decisions);
                if self.self_play() {
                    chosen
                } else {
                    players[side].decide(&game)
                }
            } else {
                players[side].decide(&game)
            };
            let name = players[side].name().to_string();
            game.apply(&action).map_err(|e| RegretError::Game(format!("the {name} bot chose {action}, which the game refused: {e}")))?;
        }
        if cluster.1 > 0 {
            stats.clusters.push(cluster);
        }
        Ok(())
    }
}

/// What judges the decisions: exact values for every situation of the rules.
pub trait Referee {
    /// The rules and options judged.
    fn rules(&self) -> RulesRef;
    /// A new game of them, light to move.
    fn new_game(&self) -> AnyGame;
    /// A bot by name, given the referee's table where it plays from one.
    ///
    /// # Errors
    /// An unknown bot name.
    fn bot(&self, name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError>;
    /// Every open choice with the decider's exact chance to win after it, best first.
    ///
    /// # Errors
    /// A situation the referee does not know.
    fn action_values(&self, game: &AnyGame) -> Result<Vec<(AnyAction, f64)>, String>;
}

/// A solved race table.
impl Referee for Oracle {
    fn rules(&self) -> RulesRef {
        RulesRef::of(Oracle::rules(self))
    }

    fn new_game(&self) -> AnyGame {
        ur_rules::report::race_game(Oracle::rules(self).clone(), Side::Light)
    }

    fn bot(&self, name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
        make_bot_with_table(name, seed, Some(self))
    }

    fn action_values(&self, game: &AnyGame) -> Result<Vec<(AnyAction, f64)>, String> {
        action_values(&Judge::Table(self.clone()), game).map_err(|e| e.to_string())
    }
}

/// A solved small variant of any family.
impl Referee for GraphTable {
    fn rules(&self) -> RulesRef {
        RulesRef::new(self.header().rules.clone(), self.header().options.clone())
    }

    fn new_game(&self) -> AnyGame {
        GraphTable::new_game(self).expect("the table's rules were checked when it was opened")
    }

    fn bot(&self, name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
        make_bot_with_table(name, seed, None)
    }

    fn action_values(&self, game: &AnyGame) -> Result<Vec<(AnyAction, f64)>, String> {
        GraphTable::action_values(self, game).ok_or_else(|| "a situation the table does not hold (a table of other options?)".into())
    }
}

/// The best value among the choices open in `game` minus the value of `chosen`.
fn regret(referee: &dyn Referee, game: &AnyGame, chosen: &AnyAction) -> Result<f64, String> {
    let values = referee.action_values(game)?;
    let best = values.first().map(|v| v.1).ok_or("the table lists no choice here")?;
    let got = values.iter().find(|(a, _)| a == chosen).map(|v| v.1).ok_or("not a legal choice")?;
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

    fn report(&self, spec: &RegretSpec, rules: RulesRef, games: u64) -> RegretReport {
        let (mean, half) = self.mean_ci();
        let pp = |x: f64| 100.0 * x;
        RegretReport {
            rules: rules.id,
            options: rules.options,
            table: spec.table.clone(),
            bot: spec.bot.clone(),
            sampler: spec.sampler.clone(),
            seed: spec.seed,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clustered_interval_is_wider_than_none_and_centred() {
        let mut s = Stats::default();
        for r in &[0.0, 0.02, 0.01, 0.03] {
            s.add(*r, false);
            s.clusters.push((*r, 1));
        }
        let (mean, half) = s.mean_ci();
        assert!((mean - 0.015).abs() < 1e-12 && half > 0.0, "{mean} {half}");
    }
}
