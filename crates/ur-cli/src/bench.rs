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
    /// Time the evaluations of race positions instead, on one thread: the
    /// linear evaluation, and the network's encoding and inference (the
    /// built-in network, or the --net file's).
    #[arg(long)]
    eval: bool,
    /// A network written by `ur train-net`, for --eval and the `net` bots.
    #[arg(long, value_name = "FILE")]
    net: Option<std::path::PathBuf>,
}

impl BenchCmd {
    pub fn run(self) -> Result<()> {
        if let Some(path) = &self.net {
            crate::files::install_net(path)?;
        }
        if self.eval {
            return self.bench_eval();
        }
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

impl BenchCmd {
    /// Times the evaluations over the turn starts of random games.
    fn bench_eval(&self) -> Result<()> {
        use ur_bots::expectimax::LeafValue;
        use ur_bots::net::{builtin, RaceNet};
        let rules = std::sync::Arc::new(self.rules.load()?.rules);
        let Some(file) = builtin(&rules) else {
            anyhow::bail!("no network judges '{}' positions; give one with --net FILE (made by `ur train-net`)", rules.id());
        };
        let net = RaceNet::new(&rules, &file);
        let linear = ur_bots::Evaluator::new(rules.clone());
        let positions = random_positions(&rules, self.games.unwrap_or(200_000) as usize, self.seed);
        let mut x = vec![0.0f32; net.encoder.len()];
        let time = |f: &mut dyn FnMut(&ur_rules::State) -> f64| {
            let started = Instant::now();
            let sum: f64 = positions.iter().map(&mut *f).sum();
            (1e9 * started.elapsed().as_secs_f64() / positions.len() as f64, sum)
        };
        let (t_lin, _) = time(&mut |st| linear.value(st));
        let (t_enc, _) = time(&mut |st| {
            net.encoder.encode(st, &mut x);
            f64::from(x[0])
        });
        let encoded: Vec<Vec<f32>> = positions
            .iter()
            .map(|st| {
                net.encoder.encode(st, &mut x);
                x.clone()
            })
            .collect();
        let started = Instant::now();
        let sum: f32 = encoded.iter().map(|x| net.mlp.value(x)).sum();
        let t_mlp = 1e9 * started.elapsed().as_secs_f64() / encoded.len() as f64;
        let (t_net, _) = time(&mut |st| net.value(st));
        outln!(
            "rules: {}  positions: {}  network: {} inputs, {} hidden units  (checksum {sum:.3})",
            rules.id(),
            positions.len(),
            net.mlp.inputs,
            net.mlp.hidden
        )?;
        outln!("linear evaluation: {t_lin:.0} ns  network: {t_net:.0} ns (encoding {t_enc:.0} ns, inference {t_mlp:.0} ns) per position")?;
        Ok(())
    }
}

/// The positions before `n` throws of random games.
fn random_positions(rules: &ur_rules::Rules, n: usize, seed: u64) -> Vec<ur_rules::State> {
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(seed);
    let start = ur_rules::State::start(rules, Side::Light);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        rules.random_playout_seen(&start, &mut rng, |st, _, _| out.push(*st));
    }
    out.truncate(n);
    out
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
