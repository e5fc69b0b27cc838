//! Training a race network by self-play: TD(λ) with the one-roll backup,
//! as the linear self-play fit ([`crate::selfplay`]) does, with the network
//! in place of the linear model and stochastic gradient steps (Adam) in
//! place of the exact fit.
//!
//! Each iteration plays `games_per_iteration` games in parallel with the
//! current network choosing by one-move lookahead (random moves at a rate
//! that varies by game), computes the TD(λ) target of every kept turn start,
//! and takes `epochs` passes of minibatch steps over them. A game is a pure
//! function of the network and its seed (derived from the run's seed, the
//! iteration and the game's number), and a minibatch's gradient is summed
//! over fixed chunks in a fixed order, so a run is the same for a seed
//! whatever the number of threads.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ur_rules::{AnyGame, Options, Rules};

use super::encode::RaceEncoder;
use super::game::{new_game, play as game_play, GameNet};
use super::mlp::{Adam, Mlp};
use super::observe::Observer;
use super::RaceNet;
use crate::chance::merged_throws;
use crate::eval::Evaluator;
use crate::selfplay::{play, targets, Link, PlaySettings};

/// Settings of a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetTrainConfig {
    /// Games in all.
    pub games: u64,
    pub games_per_iteration: u32,
    pub hidden: usize,
    /// The TD(λ) mixing of the one-roll backup and the rest of the game.
    pub lambda: f64,
    /// The highest random-move rate: game `g` plays random moves at
    /// `explore * (g mod 4) / 3`.
    pub explore: f64,
    /// The share of turn starts trained on.
    pub keep: f64,
    pub learning_rate: f32,
    /// The learning rate falls linearly to this share of itself by the last game.
    pub final_rate: f32,
    pub epochs: u32,
    pub batch: usize,
    pub max_turns: u32,
    /// Race rule sets: each side starts a game with 0 to this many pieces
    /// already borne off (0: every game from the start position).
    #[serde(default)]
    pub start_off: u8,
    /// The hidden units' slope below zero (0: plain rectifiers).
    #[serde(default)]
    pub leak: f32,
    /// Race rule sets: before self-play, fit the network to this many turn
    /// starts valued by the built-in linear evaluation's one-roll backup,
    /// from games it plays itself (0: start from random weights).
    #[serde(default)]
    pub warm_start: usize,
    pub seed: u64,
}

impl Default for NetTrainConfig {
    fn default() -> Self {
        NetTrainConfig {
            games: 100_000,
            games_per_iteration: 1000,
            hidden: 64,
            lambda: 0.7,
            explore: 0.2,
            keep: 0.5,
            learning_rate: 2e-3,
            final_rate: 0.1,
            epochs: 1,
            batch: 128,
            max_turns: 2000,
            start_off: 0,
            leak: 0.0,
            warm_start: 0,
            seed: 1,
        }
    }
}

/// What one iteration did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetReport {
    pub iteration: u32,
    pub games_done: u64,
    pub positions: usize,
    /// RMS difference between the playing network and the targets, pp.
    pub before_rmse_pp: f64,
    /// The same after the iteration's steps.
    pub after_rmse_pp: f64,
    /// Mean turn starts per game.
    pub mean_turns: f64,
    /// Hidden units that fire on an average one of the iteration's
    /// positions after its steps: few means the network has collapsed
    /// towards one value for every position, whatever its error says.
    #[serde(default)]
    pub active_units: f64,
}

/// What a run trains for: a race rule set's positions, or the games of a
/// rule set of another family (with its options).
pub enum Subject {
    Race(Arc<Rules>),
    Game { id: String, options: Options },
}

impl Subject {
    /// The subject for a rule set of any family.
    ///
    /// # Errors
    /// An unknown rule set or a bad option.
    pub fn new(id: &str, options: &Options) -> Result<Subject, ur_rules::SpecError> {
        Ok(match AnyGame::new(id, options, ur_rules::Side::Light)? {
            AnyGame::Race(g) if !g.rules().named_pieces() => Subject::Race(g.rules().clone()),
            _ => Subject::Game { id: id.to_string(), options: options.clone() },
        })
    }

    pub fn id(&self) -> &str {
        match self {
            Subject::Race(r) => r.id(),
            Subject::Game { id, .. } => id,
        }
    }

    /// The pieces per side of a race rule set (0 for the other families).
    pub fn pieces(&self) -> u8 {
        match self {
            Subject::Race(r) => r.pieces(),
            Subject::Game { .. } => 0,
        }
    }

    /// The options of a rule set beyond the race (none for a race).
    pub fn options(&self) -> Options {
        match self {
            Subject::Race(_) => Options::new(),
            Subject::Game { options, .. } => options.clone(),
        }
    }

    pub fn inputs(&self) -> usize {
        match self {
            Subject::Race(r) => RaceEncoder::new(r.clone()).len(),
            Subject::Game { id, options } => {
                let game = AnyGame::new(id, options, ur_rules::Side::Light).expect("checked when made");
                Observer::for_game(&game).len()
            }
        }
    }
}

/// A run in progress: everything a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trainer {
    pub rules: String,
    pub pieces: u8,
    /// The options of a rule set beyond the race (empty for a race).
    #[serde(default)]
    pub options: Options,
    pub config: NetTrainConfig,
    pub net: Mlp,
    pub adam: Adam,
    pub games_done: u64,
    pub reports: Vec<NetReport>,
}

/// Positions (inputs, target) kept from one game, and its turn starts.
type GameSamples = (Vec<(Vec<f32>, f32)>, usize);

/// Gradients are summed over chunks of this many positions, in order.
const CHUNK: usize = 32;

impl Trainer {
    pub fn new(subject: &Subject, config: NetTrainConfig) -> Trainer {
        let net = Mlp::new(subject.inputs(), config.hidden, config.seed).with_leak(config.leak);
        let adam = Adam::new(net.params.len());
        Trainer {
            rules: subject.id().to_string(),
            pieces: subject.pieces(),
            options: subject.options(),
            config,
            net,
            adam,
            games_done: 0,
            reports: Vec::new(),
        }
    }

    pub fn done(&self) -> bool {
        self.games_done >= self.config.games
    }

    /// Plays and learns from one iteration of games.
    pub fn step(&mut self, subject: &Subject) -> NetReport {
        let cfg = self.config.clone();
        let cfg = &cfg;
        let iteration = self.reports.len() as u32;
        let n_games = u64::from(cfg.games_per_iteration).min(cfg.games - self.games_done);
        if let (Subject::Race(rules), true) = (subject, self.reports.is_empty() && cfg.warm_start > 0) {
            self.warm_start(rules);
        }
        let games = match subject {
            Subject::Race(rules) => self.race_games(rules, iteration, n_games),
            Subject::Game { id, options } => self.other_games(id, options, iteration, n_games),
        };
        self.learn(games, iteration, n_games)
    }

    /// Self-play games of a rule set beyond the race.
    fn other_games(&self, id: &str, options: &Options, iteration: u32, n_games: u64) -> Vec<GameSamples> {
        let cfg = &self.config;
        let start = AnyGame::new(id, options, ur_rules::Side::Light).expect("checked when made");
        let net = GameNet { observer: Observer::for_game(&start), mlp: self.net.clone() };
        (0..n_games)
            .into_par_iter()
            .map(|g| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(cfg.seed, iteration, g));
                let eps = cfg.explore * (g % 4) as f64 / 3.0;
                let game = new_game(id, options, &mut rng);
                game_play(&net, game, eps, cfg.lambda, (cfg.keep, cfg.max_turns), &mut rng)
            })
            .collect()
    }

    /// Self-play games of a race rule set.
    fn race_games(&self, rules: &Arc<Rules>, iteration: u32, n_games: u64) -> Vec<GameSamples> {
        let cfg = &self.config;
        let encoder = RaceEncoder::new(rules.clone());
        let player = RaceNet::from_parts(encoder.clone(), self.net.clone());
        let throws = merged_throws(rules);
        let settings = PlaySettings { max_turns: cfg.max_turns, keep: cfg.keep, backup_depth: 1, start_off: cfg.start_off };
        (0..n_games)
            .into_par_iter()
            .map(|g| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(cfg.seed, iteration, g));
                let eps = cfg.explore * (g % 4) as f64 / 3.0;
                let (steps, _) = play(rules, &player, &throws, eps, None, &settings, &mut rng);
                let ys = targets(&steps, cfg.lambda);
                let kept = steps
                    .iter()
                    .zip(ys)
                    .filter(|(s, _)| s.keep && s.link != Link::Cut)
                    .map(|(s, y)| (encoded(&encoder, &s.st), y as f32))
                    .collect();
                (kept, steps.len())
            })
            .collect()
    }

    /// Fits the fresh network to the linear evaluation's one-roll backups
    /// over `warm_start` turn starts of games that evaluation plays, so
    /// self-play starts from its judgement rather than from one value for
    /// every position, which long games of heavy luck hardly leave.
    fn warm_start(&mut self, rules: &Arc<Rules>) {
        let cfg = self.config.clone();
        let linear = Evaluator::new(rules.clone());
        let encoder = RaceEncoder::new(rules.clone());
        let throws = merged_throws(rules);
        let settings = PlaySettings { max_turns: cfg.max_turns, keep: cfg.keep, backup_depth: 1, start_off: cfg.start_off };
        let mut samples: Vec<(Vec<f32>, f32)> = Vec::with_capacity(cfg.warm_start);
        let mut first = 0u64;
        while samples.len() < cfg.warm_start {
            let batch: Vec<Vec<(Vec<f32>, f32)>> = (first..first + 64)
                .into_par_iter()
                .map(|g| {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(cfg.seed ^ WARM_SEED, 0, g));
                    let eps = cfg.explore * (g % 4) as f64 / 3.0;
                    let (steps, _) = play(rules, &linear, &throws, eps, None, &settings, &mut rng);
                    steps.iter().filter(|s| s.keep).map(|s| (encoded(&encoder, &s.st), s.backup as f32)).collect()
                })
                .collect();
            let before = samples.len();
            samples.extend(batch.into_iter().flatten());
            if samples.len() == before {
                break; // nothing kept (`keep` 0): the loop would never fill
            }
            first += 64;
        }
        samples.truncate(cfg.warm_start);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ WARM_SEED);
        self.fit(&samples, WARM_EPOCHS, cfg.learning_rate, &mut rng);
    }

    /// `epochs` shuffled passes of minibatch steps over `samples`.
    fn fit(&mut self, samples: &[(Vec<f32>, f32)], epochs: u32, lr: f32, rng: &mut Xoshiro256PlusPlus) {
        let mut order: Vec<usize> = (0..samples.len()).collect();
        for _ in 0..epochs {
            order.shuffle(rng);
            for batch in order.chunks(self.config.batch.max(1)) {
                self.minibatch(samples, batch, lr);
            }
        }
    }

    /// Learns from one iteration's games.
    fn learn(&mut self, games: Vec<GameSamples>, iteration: u32, n_games: u64) -> NetReport {
        let cfg = self.config.clone();
        let cfg = &cfg;
        let turns: usize = games.iter().map(|g| g.1).sum();
        let samples: Vec<(Vec<f32>, f32)> = games.into_iter().flat_map(|g| g.0).collect();
        let before = rmse(&self.net, &samples);
        let progress = self.games_done as f32 / cfg.games.max(1) as f32;
        let lr = cfg.learning_rate * (1.0 - progress * (1.0 - cfg.final_rate));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(cfg.seed ^ 0x5eed, iteration, u64::MAX));
        self.fit(&samples, cfg.epochs, lr, &mut rng);
        self.games_done += n_games;
        let report = NetReport {
            iteration: iteration + 1,
            games_done: self.games_done,
            positions: samples.len(),
            before_rmse_pp: before,
            after_rmse_pp: rmse(&self.net, &samples),
            mean_turns: turns as f64 / n_games.max(1) as f64,
            active_units: self.net.mean_active_units(samples.iter().map(|s| s.0.as_slice())),
        };
        self.reports.push(report.clone());
        report
    }

    fn minibatch(&mut self, samples: &[(Vec<f32>, f32)], batch: &[usize], lr: f32) {
        let net = &self.net;
        let parts: Vec<Vec<f32>> = batch
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = vec![0.0f32; net.params.len()];
                for &i in chunk {
                    net.add_gradient(&samples[i].0, samples[i].1, &mut g);
                }
                g
            })
            .collect();
        let mut grad = vec![0.0f32; self.net.params.len()];
        for part in parts {
            for (a, b) in grad.iter_mut().zip(part) {
                *a += b;
            }
        }
        let scale = 1.0 / batch.len() as f32;
        grad.iter_mut().for_each(|g| *g *= scale);
        self.adam.step(&mut self.net.params, &grad, lr);
    }
}

/// Passes over the warm start's positions.
const WARM_EPOCHS: u32 = 4;
/// Mixed into the run's seed for the warm start's games and order.
const WARM_SEED: u64 = 0x77a2_3d5f_0c1b_9e48;

fn encoded(encoder: &RaceEncoder, st: &ur_rules::State) -> Vec<f32> {
    let mut x = vec![0.0; encoder.len()];
    encoder.encode(st, &mut x);
    x
}

/// A game's seed: the run's seed, the iteration and the game's number mixed.
fn game_seed(seed: u64, iteration: u32, game: u64) -> u64 {
    let mut z = seed ^ u64::from(iteration).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ game.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// RMS difference between the network's values and the targets, pp.
fn rmse(net: &Mlp, samples: &[(Vec<f32>, f32)]) -> f64 {
    // Summed in order, so the figure does not depend on the threads.
    let squares: Vec<f64> = samples.par_iter().map(|(x, y)| f64::from(net.value(x) - y).powi(2)).collect();
    let sum: f64 = squares.iter().sum();
    let rms = 100.0 * (sum / samples.len().max(1) as f64).sqrt();
    (rms * 1e4).round() / 1e4
}

#[cfg(test)]
mod tests {
    use ur_rules::{OptionValue, Options};

    use super::*;

    fn finkel(pieces: i64) -> Arc<Rules> {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
        Arc::new(Rules::builtin_with("finkel", &opts).unwrap())
    }

    fn run(threads: usize) -> Trainer {
        let rules = finkel(2);
        let cfg = NetTrainConfig { games: 60, games_per_iteration: 20, hidden: 8, ..NetTrainConfig::default() };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let subject = Subject::Race(rules.clone());
            let mut t = Trainer::new(&subject, cfg);
            while !t.done() {
                t.step(&subject);
            }
            t
        })
    }

    #[test]
    fn training_is_deterministic_for_a_seed_whatever_the_threads() {
        let a = run(1);
        assert_eq!(a.games_done, 60);
        assert_eq!(a.reports.len(), 3);
        assert!(a.reports.iter().all(|r| r.positions > 0 && r.after_rmse_pp.is_finite()));
        assert_eq!(a, run(1));
        assert_eq!(a, run(2));
    }

    #[test]
    fn a_warm_start_fits_the_linear_evaluation_first_and_is_deterministic() {
        let rules = finkel(2);
        let subject = Subject::Race(rules.clone());
        let cfg = NetTrainConfig {
            games: 20,
            games_per_iteration: 20,
            hidden: 8,
            learning_rate: 1e-2,
            warm_start: 4000,
            ..NetTrainConfig::default()
        };
        let run = |cfg: &NetTrainConfig| {
            let mut t = Trainer::new(&subject, cfg.clone());
            t.step(&subject);
            t
        };
        let (warm, cold) = (run(&cfg), run(&NetTrainConfig { warm_start: 0, ..cfg.clone() }));
        assert_eq!(warm, run(&cfg));
        // Fitted to the linear judgement, the network's values lie near it on positions of play.
        let linear = Evaluator::new(rules.clone());
        let encoder = RaceEncoder::new(rules.clone());
        let settings = PlaySettings { max_turns: 200, keep: 1.0, backup_depth: 1, start_off: 0 };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let (steps, _) = play(&rules, &linear, &merged_throws(&rules), 0.3, None, &settings, &mut rng);
        let off = |t: &Trainer| {
            let d: f64 = steps.iter().map(|s| (f64::from(t.net.value(&encoded(&encoder, &s.st))) - linear.value(&s.st)).powi(2)).sum();
            (d / steps.len() as f64).sqrt()
        };
        assert!(off(&warm) < 0.06 && off(&warm) < off(&cold) / 2.0, "warm {} cold {}", off(&warm), off(&cold));
    }

    #[test]
    fn every_family_beyond_the_race_trains_deterministically() {
        for id in ["bens-ur", "ludens-akalandung", "guard-d6"] {
            let subject = Subject::new(id, &Options::new()).unwrap();
            assert!(matches!(subject, Subject::Game { .. }));
            let cfg = NetTrainConfig { games: 8, games_per_iteration: 4, hidden: 8, ..NetTrainConfig::default() };
            let run = || {
                let mut t = Trainer::new(&subject, cfg.clone());
                while !t.done() {
                    t.step(&subject);
                }
                t
            };
            let a = run();
            assert!(a.reports.iter().all(|r| r.positions > 0 && r.after_rmse_pp.is_finite()), "{id}");
            assert_eq!(a, run(), "{id}");
        }
    }

    #[test]
    fn a_checkpointed_run_resumes_to_the_same_network() {
        let rules = finkel(2);
        let cfg = NetTrainConfig { games: 40, games_per_iteration: 20, hidden: 8, ..NetTrainConfig::default() };
        let subject = Subject::Race(rules);
        let mut whole = Trainer::new(&subject, cfg.clone());
        whole.step(&subject);
        let saved = serde_json::to_string(&whole).unwrap();
        whole.step(&subject);
        let mut resumed: Trainer = serde_json::from_str(&saved).unwrap();
        resumed.step(&subject);
        assert_eq!(whole, resumed);
    }
}
