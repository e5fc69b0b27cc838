//! `ur bench`: random-play throughput, or a bot's decision and node rates.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use ur_bots::{make_bot, SearchStats};
use ur_rules::{SeededDice, Side};
use ur_session::duel::play_to_end;

use crate::rules_arg::RulesArgs;
use ur_cli::outln;

#[derive(Args, Debug)]
pub struct BenchCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of games [default: 1000000 random-vs-random games, or 4 with --bot].
    #[arg(long)]
    games: Option<u64>,
    /// Time this bot instead, playing itself on one thread: decisions per
    /// second and, for `mcts`, playouts and tree nodes per second.
    #[arg(long, value_name = "BOT")]
    bot: Option<String>,
    /// Seed for the dice and the choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (each plays games/threads games).
    #[arg(long, default_value_t = 1)]
    threads: u64,
}

impl BenchCmd {
    pub fn run(self) -> Result<()> {
        if let Some(bot) = &self.bot {
            return bench_bot(&self.rules, bot, self.games.unwrap_or(4), self.seed);
        }
        let rules = self.rules.load()?.rules;
        let games = self.games.unwrap_or(1_000_000);
        if games == 0 || self.threads == 0 {
            anyhow::bail!("--games and --threads must be at least 1");
        }
        let per_thread = games.div_ceil(self.threads);
        let started = Instant::now();
        let results: Vec<(u64, u64, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads)
                .map(|t| {
                    let rules = &rules;
                    scope.spawn(move || rules.random_games(per_thread, self.seed.wrapping_add(t)))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("bench thread")).collect()
        });
        let secs = started.elapsed().as_secs_f64();
        let (games, light, throws) = results.iter().fold((0, 0, 0), |a, r| (a.0 + r.0, a.1 + r.1, a.2 + r.2));
        outln!("rules: {}  pieces: {}  threads: {}", rules.id(), rules.pieces(), self.threads)?;
        outln!("games: {games}  time: {secs:.3} s  games/s: {:.0}", games as f64 / secs)?;
        outln!(
            "throws/game: {:.1}  throws/s: {:.0}  light (first) wins: {:.2}%",
            throws as f64 / games as f64,
            throws as f64 / secs,
            100.0 * light as f64 / games as f64
        )?;
        Ok(())
    }
}

/// Plays `games` games of `bot` against itself and prints its rates.
fn bench_bot(rules: &RulesArgs, bot: &str, games: u64, seed: u64) -> Result<()> {
    if games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let mut players = [make_bot(bot, seed)?, make_bot(bot, seed.wrapping_add(1))?];
    let mut dice = SeededDice::new(seed);
    let (mut decisions, mut busy) = (0u64, Duration::ZERO);
    for g in 0..games {
        let game = rules.new_game(if g % 2 == 0 { Side::Light } else { Side::Dark })?;
        players[0].check(&game)?;
        play_to_end(&game, &mut players, &mut dice, |_, took| {
            busy += took;
            decisions += 1;
        })
        .with_context(|| format!("{bot} against itself, game {}", g + 1))?;
    }
    let secs = busy.as_secs_f64();
    outln!("rules: {}  bot: {bot}  games: {games}  threads: 1", rules.rules)?;
    outln!("decisions: {decisions}  time deciding: {secs:.3} s  per decision: {:.3} ms", 1e3 * secs / decisions.max(1) as f64)?;
    let stats = players.iter().filter_map(|p| p.stats()).fold(SearchStats::default(), |a, s| SearchStats {
        searches: a.searches + s.searches,
        playouts: a.playouts + s.playouts,
        nodes: a.nodes + s.nodes,
    });
    if stats.searches > 0 {
        outln!(
            "searches: {}  playouts/s: {:.0}  tree nodes/s: {:.0}  nodes per search: {:.0}",
            stats.searches,
            stats.playouts as f64 / secs,
            stats.nodes as f64 / secs,
            stats.nodes as f64 / stats.searches as f64
        )?;
    }
    Ok(())
}
