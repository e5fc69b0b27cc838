//! The arena: a round robin between bots, with win rates, Wilson intervals
//! and an Elo table.
//!
//! Every game is fixed by the seed, the pair and the game number alone: its
//! dice and its bots' seeds are derived from those three, games run in
//! parallel and their results are collected in game order, so the report is
//! the same for every thread count. With paired dice games 2k and 2k+1 of a
//! pair throw the same dice sequence with the bots' colours swapped, which
//! cancels much of the luck of the dice.
//!
//! With an arena file ([`crate::arena_file`]) the finished games are kept
//! and a rerun of the same arena plays only the others; since every game is
//! fixed by its number, the report is the same as that of an arena run in one go.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ur_bots::{make_bot_with_table, Bot, BotError, Oracle};
use ur_rules::{AnyGame, Family, SeededDice, Side};

use crate::arena_file::{content_hash, ArenaFileError, Params, Saver};
use crate::duel::{play_game, DuelError};
use crate::options::{OptionsError, RulesChoice};
use crate::reference::RulesRef;
use crate::seed::derive_seed;
use crate::stats::{fit_elo, wilson, PairScore};
use crate::tables::{LoadedTable, TableOracle};

/// Tags that keep the derived seeds of one game apart.
const DICE: u64 = 0;
const BOT_A: u64 = 1;
const BOT_B: u64 = 2;

/// Why an arena cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("tables are for race rule sets only (tables are solved by `ur solve`); '{0}' is not one")]
    TableForFamily(String),
    #[error(transparent)]
    Rules(#[from] OptionsError),
    #[error(transparent)]
    Table(#[from] ur_solve::TableError),
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error("{0}")]
    Check(String),
    #[error(transparent)]
    File(#[from] ArenaFileError),
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    #[error("{pair}, game {game} of the pair: {error}")]
    Game { pair: String, game: u64, error: DuelError },
    #[error("{0}")]
    Stopped(String),
}

/// One game's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// 0: the pair's first bot won; 1: the second; None: a draw (drawn under the rules, or stopped at the action cap).
    pub winner: Option<usize>,
    /// Whether the winner moved first.
    pub first_won: bool,
    pub actions: u64,
    /// Stopped at the action cap.
    pub capped: bool,
}

/// What every game of an arena starts from.
pub struct Start {
    /// The game at its start, light to move first.
    pub game: AnyGame,
    /// The rules, for reports.
    pub rules: RulesRef,
    pub oracle: Option<Oracle>,
    /// The table's checksum, when a table was given.
    pub table_checksum: Option<String>,
}

impl Start {
    /// The game `choice` names; with a table, checked against it (taking the
    /// table's options when the rule set is the table's and none are given).
    ///
    /// # Errors
    /// Bad rules, a table for other rules, or a table for a family beyond the race.
    pub fn load(choice: &RulesChoice, table: Option<&Path>) -> Result<Start, ArenaError> {
        if choice.family() != Family::Race {
            let id = choice.id.clone().unwrap_or_default();
            if table.is_some() {
                return Err(ArenaError::TableForFamily(id));
            }
            let game = choice.new_game(Side::Light)?;
            return Ok(Start { game, rules: RulesRef::new(id, choice.given_options()?), oracle: None, table_checksum: None });
        }
        let (rules, oracle, table_checksum) = match table {
            None => (Arc::new(choice.load()?.rules), None, None),
            Some(path) => {
                let table = LoadedTable::open(path)?;
                let rules = Arc::new(choice.for_table(&table)?);
                let oracle = table.oracle(rules.clone())?;
                (rules, Some(oracle), Some(table.table.header.checksum.clone()))
            }
        };
        Ok(Start {
            game: AnyGame::Race(ur_rules::Game::new(rules.clone(), Side::Light)),
            rules: RulesRef::of(&rules),
            oracle,
            table_checksum,
        })
    }
}

/// What fixes an arena's games besides its start.
#[derive(Clone, Debug)]
pub struct ArenaSpec {
    pub bots: Vec<String>,
    /// Games per pair (even).
    pub games: u64,
    pub seed: u64,
    pub paired_dice: bool,
    /// A game longer than this is stopped and counted as a draw.
    pub max_actions: u64,
}

/// How to run an arena.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// The arena file to resume from and save to, with the hashes of the
    /// rule-set file and the weights the games depend on.
    pub save: Option<PathBuf>,
    pub rules_file_hash: Option<String>,
    pub weights_hash: Option<String>,
    /// Stop after this many more finished games (saving them).
    pub stop_after: Option<u64>,
    /// Set (by a Ctrl-C handler, say) to stop: the games finished are kept
    /// and saved, the games under way dropped.
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// What a run did.
pub struct Run {
    /// Every game's outcome, in the report's order; None for a game not played.
    pub outcomes: Vec<Option<Outcome>>,
    /// Games played by this run.
    pub played: u64,
    /// Games that came from the arena file.
    pub resumed: u64,
    pub secs: f64,
    pub threads: usize,
    pub save: Option<PathBuf>,
    /// Stopped by [`RunOptions::interrupt`].
    pub interrupted: bool,
}

impl Run {
    /// Every game's outcome, when every game is played.
    pub fn complete(&self) -> Option<Vec<Outcome>> {
        self.outcomes.iter().copied().collect()
    }
}

/// One game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    i: usize,
    j: usize,
    game: u64,
    /// Its place in the report's order.
    k: usize,
}

/// A round robin between bots from a start.
pub struct Arena<'a> {
    pub start: &'a Start,
    pub spec: ArenaSpec,
    pairs: Vec<(usize, usize)>,
}

impl<'a> Arena<'a> {
    /// The arena, every bot made once and checked against the game.
    ///
    /// # Errors
    /// An unknown bot, a bot that cannot play the game, or one that needs a table.
    pub fn new(start: &'a Start, spec: ArenaSpec) -> Result<Arena<'a>, ArenaError> {
        for n in &spec.bots {
            make_bot_with_table(n, 0, start.oracle.as_ref())?.check(&start.game).map_err(|e| ArenaError::Check(e.to_string()))?;
        }
        let k = spec.bots.len();
        let pairs = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect();
        Ok(Arena { start, spec, pairs })
    }

    /// Games in all.
    pub fn total(&self) -> usize {
        self.pairs.len() * self.spec.games as usize
    }

    /// What fixes this arena's games, for its file.
    pub fn params(&self, rules_file_hash: Option<String>, weights_hash: Option<String>) -> Params {
        Params {
            rules: self.start.rules.id.clone(),
            options: self.start.rules.options.clone(),
            rules_file: rules_file_hash,
            table: self.start.table_checksum.clone(),
            weights: weights_hash,
            bots: self.spec.bots.clone(),
            games: self.spec.games,
            seed: self.spec.seed,
            paired_dice: self.spec.paired_dice,
            max_actions: self.spec.max_actions,
        }
    }

    /// Plays the games not yet in the arena file (all without one), telling
    /// `progress` the number of games finished (first those from the file).
    /// Whatever happens, the games finished are saved; a game's error comes first.
    ///
    /// # Errors
    /// A bad arena file, a game a bot broke, or no threads.
    pub fn run(&self, opts: &RunOptions, mut progress: impl FnMut(u64)) -> Result<Run, ArenaError> {
        let total = self.total();
        let (mut saver, mut outcomes) = match &opts.save {
            Some(path) => {
                let params = self.params(opts.rules_file_hash.clone(), opts.weights_hash.clone());
                Saver::open(path, params, total).map(|(s, o)| (Some(s), o))?
            }
            None => (None, vec![None; total]),
        };
        let todo: Vec<Job> = (0..total).filter(|&k| outcomes[k].is_none()).map(|k| self.job(k)).collect();
        let resumed = (total - todo.len()) as u64;
        progress(resumed);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.threads).build().map_err(|e| ArenaError::Threads(e.to_string()))?;
        let started = Instant::now();
        let mut played = 0;
        let interrupted = || opts.interrupt.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed));
        let result = self.play_jobs(&pool, &todo, &interrupted, |k, out| {
            outcomes[k] = Some(out);
            played += 1;
            progress(resumed + played);
            if let Some(s) = saver.as_mut() {
                s.tick(&outcomes)?;
            }
            Ok(!matches!(opts.stop_after, Some(n) if played >= n))
        });
        let secs = started.elapsed().as_secs_f64();
        let saved = saver.as_mut().map_or(Ok(()), |s| s.save(&outcomes));
        result?;
        saved?;
        let interrupted = interrupted() && outcomes.iter().any(Option::is_none);
        Ok(Run { outcomes, played, resumed, secs, threads: pool.current_num_threads(), save: opts.save.clone(), interrupted })
    }

    /// The `k`th game of the round robin, in the report's order.
    fn job(&self, k: usize) -> Job {
        let n = self.spec.games as usize;
        let (i, j) = self.pairs[k / n];
        Job { i, j, game: (k % n) as u64, k }
    }

    /// Plays one game of the round robin, fixed by the seed, the pair and the game number.
    fn play(&self, job: &Job) -> Result<Outcome, ArenaError> {
        let (i, j, g) = (job.i as u64, job.j as u64, job.game);
        let seed = self.spec.seed;
        let dice_game = if self.spec.paired_dice { g / 2 } else { g };
        let mut dice = SeededDice::new(derive_seed(seed, &[i, j, dice_game, DICE]));
        let names = &self.spec.bots;
        let oracle = self.start.oracle.as_ref();
        let a = make_bot_with_table(&names[job.i], derive_seed(seed, &[i, j, g, BOT_A]), oracle)?;
        let b = make_bot_with_table(&names[job.j], derive_seed(seed, &[i, j, g, BOT_B]), oracle)?;
        // The first bot of the pair plays light (and moves first) in even games.
        let a_light = g % 2 == 0;
        let mut players: [Box<dyn Bot>; 2] = if a_light { [a, b] } else { [b, a] };
        let end = play_game(&self.start.game, &mut players, &mut dice, self.spec.max_actions).map_err(|error| ArenaError::Game {
            pair: format!("{} against {}", names[job.i], names[job.j]),
            game: g + 1,
            error,
        })?;
        Ok(Outcome {
            winner: end.winner.map(|w| usize::from((w == Side::Light) != a_light)),
            first_won: end.winner == Some(Side::Light),
            actions: end.actions,
            capped: end.capped,
        })
    }

    /// Plays `jobs` on `pool` and hands each finished game to `done` on this
    /// thread, in the order they finish, until `done` returns false or fails
    /// or `interrupted` holds. Games under way then are finished and dropped.
    fn play_jobs(
        &self,
        pool: &rayon::ThreadPool,
        jobs: &[Job],
        interrupted: &dyn Fn() -> bool,
        mut done: impl FnMut(usize, Outcome) -> Result<bool, ArenaError>,
    ) -> Result<(), ArenaError> {
        let stop = &AtomicBool::new(false);
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                pool.install(|| {
                    jobs.par_iter().for_each_with(tx, |tx, job| {
                        if !stop.load(Ordering::Relaxed) {
                            // The collector may have stopped listening: nothing to do then.
                            let _ = tx.send((job.k, self.play(job)));
                        }
                    });
                });
            });
            let mut collect = || -> Result<(), ArenaError> {
                while !interrupted() {
                    match rx.recv_timeout(Duration::from_millis(100)) {
                        Ok((k, out)) => {
                            if !done(k, out?)? {
                                break;
                            }
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                }
                Ok(())
            };
            let result = collect();
            stop.store(true, Ordering::Relaxed);
            result
        })
    }

    /// The report of the finished arena.
    pub fn report(&self, results: &[Outcome]) -> Report {
        let n = self.spec.games;
        let names = &self.spec.bots;
        let mut reports = Vec::new();
        let mut bt = Vec::new();
        for (p, &(i, j)) in self.pairs.iter().enumerate() {
            let games = &results[p * n as usize..(p + 1) * n as usize];
            let a_wins = games.iter().filter(|o| o.winner == Some(0)).count() as u64;
            let b_wins = games.iter().filter(|o| o.winner == Some(1)).count() as u64;
            let draws = n - a_wins - b_wins;
            let score = a_wins as f64 + 0.5 * draws as f64;
            let (lo, hi) = wilson(score, n as f64);
            reports.push(PairReport {
                a: names[i].clone(),
                b: names[j].clone(),
                games: n,
                a_wins,
                b_wins,
                draws,
                a_score: score / n as f64,
                a_score_ci95: [lo, hi],
                first_player_wins: games.iter().filter(|o| o.first_won).count() as u64,
                mean_actions: games.iter().map(|o| o.actions as f64).sum::<f64>() / n as f64,
            });
            bt.push(PairScore { i, j, score_i: score, games: n as f64 });
        }
        let anchor = names.iter().position(|b| b == "random").unwrap_or(0);
        let fit = fit_elo(names.len(), &bt, anchor);
        let mut elo: Vec<EloEntry> =
            names.iter().zip(fit).map(|(bot, (elo, ci95))| EloEntry { bot: bot.clone(), elo: round2(elo), ci95: round2(ci95) }).collect();
        elo.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        Report {
            rules: self.start.rules.id.clone(),
            options: self.start.rules.options.clone(),
            bots: names.clone(),
            games_per_pair: n,
            games: results.len() as u64,
            seed: self.spec.seed,
            paired_dice: self.spec.paired_dice,
            max_actions: self.spec.max_actions,
            draws: reports.iter().map(|r| r.draws).sum(),
            capped: results.iter().filter(|o| o.capped).count() as u64,
            pairs: reports,
            elo_anchor: names[anchor].clone(),
            elo,
        }
    }
}

/// The hash an arena file keeps of a file's contents (a rule-set file, weights).
pub fn file_hash(bytes: &[u8]) -> String {
    content_hash(bytes)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Two bots' games against each other.
#[derive(Serialize, Clone, Debug)]
pub struct PairReport {
    pub a: String,
    pub b: String,
    pub games: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    /// Games drawn or stopped at the action cap.
    pub draws: u64,
    /// a's score (wins plus half the draws) over the games.
    pub a_score: f64,
    /// Wilson 95% interval of a's score.
    pub a_score_ci95: [f64; 2],
    /// Games won by the bot that moved first.
    pub first_player_wins: u64,
    pub mean_actions: f64,
}

/// One bot's Elo rating.
#[derive(Serialize, Clone, Debug)]
pub struct EloEntry {
    pub bot: String,
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub ci95: f64,
}

/// An arena's results.
#[derive(Serialize, Clone, Debug)]
pub struct Report {
    pub rules: String,
    pub options: ur_rules::Options,
    pub bots: Vec<String>,
    pub games_per_pair: u64,
    pub games: u64,
    pub seed: u64,
    pub paired_dice: bool,
    pub max_actions: u64,
    /// Drawn games (drawn under the rules, or stopped at the action cap), over all pairs.
    pub draws: u64,
    /// Of which stopped at the action cap.
    pub capped: u64,
    pub pairs: Vec<PairReport>,
    pub elo_anchor: String,
    pub elo: Vec<EloEntry>,
}

impl Report {
    /// The rules the arena was played under.
    pub fn rules_ref(&self) -> RulesRef {
        RulesRef::new(self.rules.clone(), self.options.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(seed: u64) -> ArenaSpec {
        ArenaSpec { bots: vec!["random".into(), "greedy".into()], games: 6, seed, paired_dice: true, max_actions: 100_000 }
    }

    #[test]
    fn a_resumed_arena_reports_as_one_run_in_one_go() {
        let choice = RulesChoice { id: Some("finkel".into()), pieces: Some(2), ..RulesChoice::default() };
        let start = Start::load(&choice, None).unwrap();
        let arena = Arena::new(&start, spec(5)).unwrap();
        let whole = arena.run(&RunOptions { threads: 2, ..RunOptions::default() }, |_| {}).unwrap();
        let d = tempfile::tempdir().unwrap();
        let save = Some(d.path().join("a.json"));
        let first =
            arena.run(&RunOptions { threads: 1, save: save.clone(), stop_after: Some(2), ..RunOptions::default() }, |_| {}).unwrap();
        assert!(first.complete().is_none() && first.played == 2);
        let rest = arena.run(&RunOptions { threads: 2, save, ..RunOptions::default() }, |_| {}).unwrap();
        assert_eq!(rest.resumed, 2);
        assert_eq!(rest.complete(), whole.complete());
        let report = arena.report(&whole.complete().unwrap());
        assert_eq!(report.games, 6);
        assert_eq!(report.rules_ref().to_string(), "finkel (pieces=2)");
    }

    #[test]
    fn an_interrupt_keeps_and_saves_the_games_finished() {
        let choice = RulesChoice { id: Some("finkel".into()), pieces: Some(2), ..RulesChoice::default() };
        let start = Start::load(&choice, None).unwrap();
        let arena = Arena::new(&start, ArenaSpec { games: 400, ..spec(3) }).unwrap();
        let d = tempfile::tempdir().unwrap();
        let save = d.path().join("a.json");
        let flag = Arc::new(AtomicBool::new(false));
        let opts = RunOptions { threads: 2, save: Some(save.clone()), interrupt: Some(flag.clone()), ..RunOptions::default() };
        let run = arena
            .run(&opts, |done| {
                if done >= 5 {
                    flag.store(true, Ordering::Relaxed);
                }
            })
            .unwrap();
        assert!(run.interrupted && run.played >= 5 && run.played < 400, "{}", run.played);
        let file: serde_json::Value = serde_json::from_slice(&std::fs::read(&save).unwrap()).unwrap();
        let kept = file["outcomes"].as_array().unwrap().iter().filter(|o| !o.is_null()).count();
        assert_eq!(kept as u64, run.played, "the file holds every game the run counts");
    }
}
