//! `ur bench`: random-play throughput.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::{Game, SeededDice, Side, State};

use crate::rules_arg::RulesArgs;

#[derive(Args, Debug)]
pub struct BenchCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// Number of random-vs-random games.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Seed for the dice and the choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (each plays games/threads games).
    #[arg(long, default_value_t = 1)]
    threads: u64,
}

impl BenchCmd {
    pub fn run(self) -> Result<()> {
        let rules = self.rules.load()?.rules;
        if self.games == 0 || self.threads == 0 {
            anyhow::bail!("--games and --threads must be at least 1");
        }
        let per_thread = self.games.div_ceil(self.threads);
        let started = Instant::now();
        let results: Vec<(u64, u64, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads)
                .map(|t| {
                    let rules = &rules;
                    scope.spawn(move || play_many(rules, per_thread, self.seed.wrapping_add(t)))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("bench thread")).collect()
        });
        let secs = started.elapsed().as_secs_f64();
        let (games, light, throws) = results.iter().fold((0, 0, 0), |a, r| (a.0 + r.0, a.1 + r.1, a.2 + r.2));
        println!("rules: {}  pieces: {}  threads: {}", rules.id(), rules.pieces(), self.threads);
        println!("games: {games}  time: {secs:.3} s  games/s: {:.0}", games as f64 / secs);
        println!(
            "throws/game: {:.1}  throws/s: {:.0}  light (first) wins: {:.2}%",
            throws as f64 / games as f64,
            throws as f64 / secs,
            100.0 * light as f64 / games as f64
        );
        Ok(())
    }
}

/// Plays `n` random games; returns (games, light wins, throws).
fn play_many(rules: &ur_rules::Rules, n: u64, seed: u64) -> (u64, u64, u64) {
    let start = State::start(rules, Side::Light);
    let (mut light, mut throws) = (0, 0);
    if rules.named_pieces() {
        let rules = std::sync::Arc::new(rules.clone());
        let mut dice = SeededDice::new(seed);
        for _ in 0..n {
            let mut g = Game::new(rules.clone(), Side::Light);
            light += u64::from(g.play_random(&mut dice, usize::MAX) == Some(Side::Light));
            throws += g.history().iter().filter(|a| matches!(a, ur_rules::Action::Roll(_))).count() as u64;
        }
        return (n, light, throws);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..n {
        let p = rules.random_playout(&start, &mut rng);
        light += u64::from(p.winner == Side::Light);
        throws += u64::from(p.throws);
    }
    (n, light, throws)
}
