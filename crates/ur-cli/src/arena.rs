//! `ur arena`: a round robin between bots, with win rates, confidence
//! intervals and an Elo table.
//!
//! Every game is fixed by the seed, the pair and the game number alone: its
//! dice and its bots' seeds are derived from those three, games run in
//! parallel and their results are collected in game order, so the report is
//! the same for every thread count. With paired dice (the default) games
//! 2k and 2k+1 of a pair throw the same dice sequence with the bots' colours
//! swapped, which cancels much of the luck of the dice.
//!
//! With `--save FILE` the finished games are kept in FILE (see
//! [`crate::arena_save`]) and a rerun of the same arena plays only the others;
//! since every game is fixed by its number, the report is the same as that of
//! an arena run in one go.
//!
//! Games of any rule family are played through [`AnyGame`]: race sets throw
//! their dice as before; the other families draw each roll from the game's
//! outcomes with a seeded generator, so paired games draw the same sequence
//! of random numbers.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use ur_bots::generic::sample_outcome;
use ur_bots::{make_bot_with_table, Bot, Oracle};
use ur_rules::{AnyGame, Dice, Family, Options, Playable, Rules, SeededDice, Side, Turn};

use crate::arena_save::{content_hash, Params, Saver};
use crate::eval_cmd::{rules_with_table, LoadedTable};
use crate::rules_arg::RulesArgs;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

#[derive(Args, Debug)]
pub struct ArenaCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// The bots, comma-separated, at least two (random, greedy, perfect, ...).
    #[arg(long, value_delimiter = ',', required = true, value_name = "A,B[,C...]")]
    bots: Vec<String>,
    /// Games per pair of bots (even: each bot moves first in half of them).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    games: u64,
    /// Worker threads (0 = all cores). The results do not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T")]
    threads: usize,
    /// Seed from which every game's dice and bot seeds are derived (bots with a time
    /// budget, such as expectimax:20ms, also depend on the machine's speed and load).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// A table made by `ur solve` for these rules (needed by `perfect`). When the
    /// rule set is the table's and no --pieces/--option is given, the table's options are used.
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Games 2k and 2k+1 of a pair throw the same dice, colours swapped (the default).
    #[arg(long, overrides_with = "no_paired_dice")]
    paired_dice: bool,
    /// Every game throws its own dice.
    #[arg(long)]
    no_paired_dice: bool,
    /// A game longer than this many actions (throws, moves, choices) is stopped and counted as a draw.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    max_actions: u64,
    #[command(flatten)]
    out: MeasureArgs,
    /// Keep every finished game in FILE (rewritten every few seconds and at the end,
    /// so an interrupted arena loses at most the last few seconds); when FILE exists,
    /// play only the games not in it. The report is the same as that of an arena run
    /// in one go. FILE must come from the same arena (rules, bots, games, seed, ...).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Stop, saving, after N more finished games (needs --save): to split a long
    /// arena into sessions, and for tests.
    #[arg(long, value_name = "N", requires = "save")]
    stop_after: Option<u64>,
}

/// One game's result.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// 0: the pair's first bot won; 1: the second; None: a draw (drawn under the rules, or stopped at the action cap).
    pub winner: Option<usize>,
    /// Whether the winner moved first.
    pub first_won: bool,
    pub actions: u64,
    /// Stopped at the action cap.
    pub capped: bool,
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

/// Mixes 64 bits (splitmix64's finaliser).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed derived from a master seed and a path of numbers only.
pub fn derive_seed(seed: u64, parts: &[u64]) -> u64 {
    parts.iter().fold(mix(seed), |h, &p| mix(h ^ mix(p)))
}

/// Tags that keep the derived seeds of one game apart.
const DICE: u64 = 0;
const BOT_A: u64 = 1;
const BOT_B: u64 = 2;

/// The rules with their options, for reports: `finkel (pieces=7)`.
pub fn describe_rules(rules: &Rules) -> String {
    let opts: Vec<String> = rules.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if opts.is_empty() {
        rules.id().to_string()
    } else {
        format!("{} ({})", rules.id(), opts.join(", "))
    }
}

/// The output options of the commands that measure (`arena`, `regret`,
/// `review`): JSON, progress, candidate weights.
#[derive(Args, Debug)]
pub struct MeasureArgs {
    /// Print the report as one JSON object (timings, where any, go to stderr,
    /// so the report depends only on the inputs).
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Evaluation weights for the bots and searches instead of the built-in
    /// ones (a file written by `ur train-eval`, `ur train-table` or `ur
    /// train-selfplay`), to measure a candidate.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

impl MeasureArgs {
    /// Installs the --weights file, if any; returns its text.
    ///
    /// # Errors
    /// The file cannot be read or is not a weights file for this build.
    pub fn install_weights(&self) -> Result<Option<String>> {
        self.weights.as_deref().map(crate::files::install_weights).transpose()
    }
}

/// A progress bar on stderr, hidden when asked or when stderr is not a terminal.
pub fn progress_bar(total: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {what} ({{per_sec}}, ETA {{eta}})");
    bar.set_style(ProgressStyle::with_template(&template).expect("valid template").progress_chars("=> "));
    bar
}

/// The bot named `name`, with a clear error for unknown names and missing tables.
pub fn make_bot(name: &str, seed: u64, oracle: Option<&Oracle>) -> Result<Box<dyn Bot>> {
    make_bot_with_table(name, seed, oracle).map_err(|e| anyhow!("{e}"))
}

/// What every game of an arena starts from.
pub struct Start {
    /// The game at its start, light to move first.
    pub game: AnyGame,
    /// The rule-set id and options, for reports.
    pub rules: String,
    pub options: Options,
    pub oracle: Option<Oracle>,
    /// The table's checksum, when a table was given.
    pub table_checksum: Option<String>,
}

/// Loads the game for `args`; with a table, checks the table against the rules
/// (taking the table's options when the rule set is the table's and none are given).
fn load_start(args: &RulesArgs, table: Option<&PathBuf>) -> Result<Start> {
    if args.family() != Family::Race {
        if table.is_some() {
            bail!("--table is for race rule sets only (tables are solved by `ur solve`); '{}' is not one", args.rules);
        }
        let game = args.new_game(Side::Light)?;
        return Ok(Start { game, rules: args.rules.clone(), options: args.given_options()?, oracle: None, table_checksum: None });
    }
    let (rules, oracle, table_checksum) = match table {
        None => (Arc::new(args.load()?.rules), None, None),
        Some(path) => {
            let table = LoadedTable::open(path)?;
            let rules = rules_with_table(&table, Some(&args.rules), args.rules_file.as_deref(), args.pieces, &args.options)?;
            let rules = Arc::new(rules);
            let oracle = table.oracle(rules.clone())?;
            (rules, Some(oracle), Some(table.table.header.checksum.clone()))
        }
    };
    Ok(Start {
        game: AnyGame::Race(ur_rules::Game::new(rules.clone(), Side::Light)),
        rules: rules.id().to_string(),
        options: rules.options.clone(),
        oracle,
        table_checksum,
    })
}

/// The raw outcome of the roll `game` waits for: a race set throws its own
/// dice; any other family draws from the game's outcomes with the same generator.
pub fn throw(dice: &mut SeededDice, game: &AnyGame) -> u8 {
    match game.as_race() {
        Some(g) => dice.throw(g.rules().dice()),
        None => sample_outcome(&game.outcomes(), dice.rng()),
    }
}

/// Plays one game between `light` and `dark` from `start`, with `dice`.
/// Returns the winner (None at the action cap or a drawn game), the number
/// of actions, and whether the game was stopped at the cap.
///
/// # Errors
/// A bot chose an action the game refused, or the dice an outcome it refused.
pub fn play_game(
    start: &AnyGame,
    players: &mut [Box<dyn Bot>; 2],
    dice: &mut SeededDice,
    max_actions: u64,
) -> Result<(Option<Side>, u64, bool)> {
    let mut game = start.clone();
    let mut actions = 0;
    loop {
        let side = match game.turn() {
            Turn::Over(winner) => return Ok((winner, actions, false)),
            _ if actions >= max_actions => return Ok((None, actions, true)),
            Turn::Roll(_) => {
                actions += 1;
                let raw = throw(dice, &game);
                game.roll(raw).map_err(|e| anyhow!("the dice showed {raw}, which {} refused: {e}", game.rule_id()))?;
                continue;
            }
            Turn::Decide(side) => side,
        };
        actions += 1;
        let bot = &mut players[side.index()];
        let action = bot.decide(&game);
        game.apply(&action).with_context(|| format!("the {} bot chose {action}, which the game refused", bot.name()))?;
    }
}

#[derive(Serialize)]
struct PairReport {
    a: String,
    b: String,
    games: u64,
    a_wins: u64,
    b_wins: u64,
    /// Games stopped at the action cap.
    draws: u64,
    /// a's score (wins plus half the draws) over the games.
    a_score: f64,
    /// Wilson 95% interval of a's score.
    a_score_ci95: [f64; 2],
    /// Games won by the bot that moved first.
    first_player_wins: u64,
    mean_actions: f64,
}

#[derive(Serialize)]
struct EloEntry {
    bot: String,
    elo: f64,
    /// Half-width of the 95% interval.
    ci95: f64,
}

#[derive(Serialize)]
struct Report {
    rules: String,
    options: ur_rules::Options,
    bots: Vec<String>,
    games_per_pair: u64,
    games: u64,
    seed: u64,
    paired_dice: bool,
    max_actions: u64,
    /// Drawn games (drawn under the rules, or stopped at the action cap), over all pairs.
    draws: u64,
    /// Of which stopped at the action cap.
    capped: u64,
    pairs: Vec<PairReport>,
    elo_anchor: String,
    elo: Vec<EloEntry>,
}

impl ArenaCmd {
    pub fn run(self) -> Result<()> {
        let names = self.bot_names()?;
        self.check_numbers()?;
        let weights = self.install_weights()?;
        let start = load_start(&self.rules, self.table.as_ref())?;
        let oracle = start.oracle.clone();
        // Every bot once, for errors before any game.
        for n in &names {
            make_bot(n, 0, oracle.as_ref())?.check(&start.game).map_err(|e| anyhow!("{e}"))?;
        }
        let paired = !self.no_paired_dice;
        let pairs = pairs_of(names.len());
        let total = pairs.len() * self.games as usize;
        let (mut saver, mut outcomes) = match &self.save {
            Some(path) => Saver::open(path, self.params(&start, &names, paired, weights)?, total).map(|(s, o)| (Some(s), o))?,
            None => (None, vec![None; total]),
        };
        let todo: Vec<Job> = (0..total).filter(|&k| outcomes[k].is_none()).map(|k| self.job(&pairs, k)).collect();
        let resumed = (total - todo.len()) as u64;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(self.threads).build().context("cannot start the worker threads")?;
        let bar = progress_bar(total as u64, self.out.quiet, "games");
        bar.set_position(resumed);
        bar.reset_eta();
        let setup =
            Setup { start: &start.game, names: &names, oracle: oracle.as_ref(), seed: self.seed, paired, max_actions: self.max_actions };
        let started = Instant::now();
        let mut played = 0;
        let result = play_jobs(&pool, &setup, &todo, |k, out| {
            outcomes[k] = Some(out);
            played += 1;
            bar.inc(1);
            if let Some(s) = saver.as_mut() {
                s.tick(&outcomes)?;
            }
            Ok(!matches!(self.stop_after, Some(n) if played >= n))
        });
        bar.finish_and_clear();
        let secs = started.elapsed().as_secs_f64();
        // Whatever happened, the games finished so far are kept; a game's error comes first.
        let saved = saver.as_mut().map_or(Ok(()), |s| s.save(&outcomes));
        result?;
        saved?;
        let speed = speed_line(played, secs, pool.current_num_threads(), resumed, saver.as_ref());
        let Some(results) = outcomes.into_iter().collect::<Option<Vec<Outcome>>>() else {
            // Only --stop-after leaves games unplayed, and it needs --save.
            let path = saver.as_ref().map_or_else(String::new, |s| s.path().display().to_string());
            eprintln!("{speed}");
            eprintln!(
                "stopped as asked by --stop-after: {} of {total} games are saved in {path}; run the same command again to play the rest",
                resumed + played
            );
            return Ok(());
        };
        self.print(&self.report(&start, &names, &pairs, &results, paired), &speed)
    }

    fn print(&self, report: &Report, speed: &str) -> Result<()> {
        if self.out.json {
            println!("{}", serde_json::to_string_pretty(report)?);
            eprintln!("{speed}");
        } else {
            print!("{}", text_report(report));
            println!("{speed}");
        }
        Ok(())
    }

    /// The bots' names, checked.
    fn bot_names(&self) -> Result<Vec<String>> {
        let names: Vec<String> = self.bots.iter().map(|b| b.trim().to_string()).collect();
        if names.iter().any(String::is_empty) {
            bail!("--bots has an empty name; give names separated by commas, for example --bots random,greedy");
        }
        if names.len() < 2 {
            bail!("an arena needs at least two bots, for example --bots random,greedy (got only '{}')", names[0]);
        }
        for (k, n) in names.iter().enumerate() {
            if names[..k].contains(n) {
                bail!("bot '{n}' is listed twice in --bots; each bot plays once per pair");
            }
        }
        Ok(names)
    }

    fn check_numbers(&self) -> Result<()> {
        if self.games == 0 {
            bail!("--games must be at least 2 (games per pair)");
        }
        if self.games % 2 == 1 {
            bail!("--games must be even, so that each bot moves first in half of its games (try {})", self.games + 1);
        }
        if self.max_actions == 0 {
            bail!("--max-actions must be at least 1");
        }
        if self.stop_after == Some(0) {
            bail!("--stop-after must be at least 1");
        }
        Ok(())
    }

    /// Installs the --weights file; returns the hash of its text, for the save file.
    fn install_weights(&self) -> Result<Option<String>> {
        Ok(self.out.install_weights()?.map(|text| content_hash(text.as_bytes())))
    }

    /// What fixes this arena's games, for the save file.
    fn params(&self, start: &Start, names: &[String], paired: bool, weights: Option<String>) -> Result<Params> {
        let rules_file = match &self.rules.rules_file {
            Some(path) => Some(content_hash(&std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?)),
            None => None,
        };
        Ok(Params {
            rules: start.rules.clone(),
            options: start.options.clone(),
            rules_file,
            table: start.table_checksum.clone(),
            weights,
            bots: names.to_vec(),
            games: self.games,
            seed: self.seed,
            paired_dice: paired,
            max_actions: self.max_actions,
        })
    }

    /// The `k`th game of the round robin, in the report's order.
    fn job(&self, pairs: &[(usize, usize)], k: usize) -> Job {
        let n = self.games as usize;
        let (i, j) = pairs[k / n];
        Job { i, j, game: (k % n) as u64, k }
    }

    fn report(&self, start: &Start, names: &[String], pairs: &[(usize, usize)], results: &[Outcome], paired: bool) -> Report {
        let n = self.games;
        let mut reports = Vec::new();
        let mut bt = Vec::new();
        for (p, &(i, j)) in pairs.iter().enumerate() {
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
            rules: start.rules.clone(),
            options: start.options.clone(),
            bots: names.to_vec(),
            games_per_pair: n,
            games: results.len() as u64,
            seed: self.seed,
            paired_dice: paired,
            max_actions: self.max_actions,
            draws: reports.iter().map(|r| r.draws).sum(),
            capped: results.iter().filter(|o| o.capped).count() as u64,
            pairs: reports,
            elo_anchor: names[anchor].clone(),
            elo,
        }
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Every pair of the `k` bots, in the report's order.
fn pairs_of(k: usize) -> Vec<(usize, usize)> {
    (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect()
}

/// What every game of an arena shares.
struct Setup<'a> {
    start: &'a AnyGame,
    names: &'a [String],
    oracle: Option<&'a Oracle>,
    seed: u64,
    paired: bool,
    max_actions: u64,
}

impl Setup<'_> {
    /// Plays one game of the round robin, fixed by the seed, the pair and the game number.
    fn play(&self, job: &Job) -> Result<Outcome> {
        let (i, j, g) = (job.i as u64, job.j as u64, job.game);
        let dice_game = if self.paired { g / 2 } else { g };
        let mut dice = SeededDice::new(derive_seed(self.seed, &[i, j, dice_game, DICE]));
        let a = make_bot(&self.names[job.i], derive_seed(self.seed, &[i, j, g, BOT_A]), self.oracle)?;
        let b = make_bot(&self.names[job.j], derive_seed(self.seed, &[i, j, g, BOT_B]), self.oracle)?;
        // The first bot of the pair plays light (and moves first) in even games.
        let a_light = g % 2 == 0;
        let mut players = if a_light { [a, b] } else { [b, a] };
        let (winner, actions, capped) = play_game(self.start, &mut players, &mut dice, self.max_actions)
            .with_context(|| format!("{} against {}, game {} of the pair", self.names[job.i], self.names[job.j], g + 1))?;
        Ok(Outcome {
            winner: winner.map(|w| usize::from((w == Side::Light) != a_light)),
            first_won: winner == Some(Side::Light),
            actions,
            capped,
        })
    }
}

/// Plays `jobs` on `pool` and hands each finished game to `done` on this
/// thread, in the order they finish, until `done` returns false or fails.
/// Games under way then are finished and dropped.
fn play_jobs(pool: &rayon::ThreadPool, setup: &Setup, jobs: &[Job], mut done: impl FnMut(usize, Outcome) -> Result<bool>) -> Result<()> {
    let stop = &AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                jobs.par_iter().for_each_with(tx, |tx, job| {
                    if !stop.load(Ordering::Relaxed) {
                        // The collector may have stopped listening: nothing to do then.
                        let _ = tx.send((job.k, setup.play(job)));
                    }
                });
            });
        });
        let mut collect = || -> Result<()> {
            for (k, out) in &rx {
                if !done(k, out?)? {
                    break;
                }
            }
            Ok(())
        };
        let result = collect();
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// How fast this run played, and how many games came from the save file.
fn speed_line(played: u64, secs: f64, threads: usize, resumed: u64, saver: Option<&Saver>) -> String {
    let from = saver.map_or_else(String::new, |s| s.path().display().to_string());
    if played == 0 {
        return format!("all {resumed} games were already in {from}");
    }
    let mut line = format!(
        "{played} games in {secs:.2} s: {:.0} games/s on {threads} thread{}",
        played as f64 / secs.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    if resumed > 0 {
        line += &format!(" ({resumed} more from {from})");
    }
    line
}

fn pct(p: f64) -> String {
    format!("{:.1}%", 100.0 * p)
}

fn text_report(r: &Report) -> String {
    let width = r.bots.iter().map(String::len).max().unwrap_or(0);
    let mut out = format!(
        "Arena: {}, {} bots, {} games per pair, seed {}, {}\n",
        describe_rules_parts(&r.rules, &r.options),
        r.bots.len(),
        r.games_per_pair,
        r.seed,
        if r.paired_dice { "paired dice" } else { "independent dice" }
    );
    out += "\nPairs (score = wins + half the draws; 95% Wilson interval):\n";
    for p in &r.pairs {
        out += &format!(
            "  {:>width$} vs {:<width$}  {:>5}-{:<5} draws {:<3}  {} scores {:>6} [{}, {}]   first player won {}, {:.0} actions/game\n",
            p.a,
            p.b,
            p.a_wins,
            p.b_wins,
            p.draws,
            p.a,
            pct(p.a_score),
            pct(p.a_score_ci95[0]),
            pct(p.a_score_ci95[1]),
            pct(p.first_player_wins as f64 / p.games as f64),
            p.mean_actions,
        );
    }
    out += &format!("\nElo (Bradley-Terry maximum likelihood, {} = 0, ± 95%):\n", r.elo_anchor);
    for (rank, e) in r.elo.iter().enumerate() {
        let (elo, pm) = if e.bot == r.elo_anchor {
            ("0".to_string(), "(anchor)".to_string())
        } else {
            (format!("{:+.0}", e.elo), format!("± {:.0}", e.ci95))
        };
        out += &format!("  {:>2}. {:<width$}  {elo:>6}  {pm}\n", rank + 1, e.bot);
    }
    if r.capped > 0 {
        out += &format!("\n{} game(s) reached the {}-action cap and count as draws.\n", r.capped, r.max_actions);
    }
    if r.draws > r.capped {
        out += &format!("\n{} game(s) ended drawn under the rules.\n", r.draws - r.capped);
    }
    out
}

fn describe_rules_parts(id: &str, options: &ur_rules::Options) -> String {
    let opts: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if opts.is_empty() {
        id.to_string()
    } else {
        format!("{id} ({})", opts.join(", "))
    }
}

/// The Wilson score interval (95%) for `successes` out of `n` (successes may be fractional).
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// What two bots scored against each other.
struct PairScore {
    i: usize,
    j: usize,
    /// i's wins plus half the draws.
    score_i: f64,
    games: f64,
}

/// Bradley-Terry ratings by maximum likelihood (minorisation-maximisation),
/// on the Elo scale with `anchor` at 0, each with the half-width of its 95%
/// interval from the Fisher information. One virtual draw per pair keeps the
/// ratings finite when a bot wins or loses every game.
fn fit_elo(k: usize, pairs: &[PairScore], anchor: usize) -> Vec<(f64, f64)> {
    let mut n = vec![vec![0.0; k]; k];
    let mut wins = vec![0.0; k];
    for p in pairs {
        n[p.i][p.j] += p.games + 1.0;
        n[p.j][p.i] += p.games + 1.0;
        wins[p.i] += p.score_i + 0.5;
        wins[p.j] += p.games - p.score_i + 0.5;
    }
    let mut gamma = vec![1.0; k];
    for _ in 0..100_000 {
        let mut next = vec![0.0; k];
        for i in 0..k {
            let denom: f64 = (0..k).filter(|&j| j != i && n[i][j] > 0.0).map(|j| n[i][j] / (gamma[i] + gamma[j])).sum();
            next[i] = if denom > 0.0 { wins[i] / denom } else { gamma[i] };
        }
        // Normalise by the geometric mean to keep the numbers tame.
        let g = (next.iter().map(|x: &f64| x.ln()).sum::<f64>() / k as f64).exp();
        next.iter_mut().for_each(|x| *x /= g);
        let change = next.iter().zip(&gamma).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln() - gamma[anchor].ln()).collect();
    // Fisher information of the log-strengths, without the anchor's row and column.
    let free: Vec<usize> = (0..k).filter(|&i| i != anchor).collect();
    let m = free.len();
    let mut info = vec![vec![0.0; m]; m];
    for (a, &i) in free.iter().enumerate() {
        for j in 0..k {
            if j == i || n[i][j] == 0.0 {
                continue;
            }
            let p = gamma[i] / (gamma[i] + gamma[j]);
            let w = n[i][j] * p * (1.0 - p);
            info[a][a] += w;
            if let Some(b) = free.iter().position(|&f| f == j) {
                info[a][b] -= w;
            }
        }
    }
    let var = invert(info).map(|inv| (0..m).map(|a| inv[a][a]).collect::<Vec<_>>());
    (0..k)
        .map(|i| {
            let ci = match (free.iter().position(|&f| f == i), &var) {
                (None, _) => 0.0,
                (Some(a), Some(v)) => Z95 * scale * v[a].max(0.0).sqrt(),
                (Some(_), None) => f64::INFINITY,
            };
            (scale * theta[i], ci)
        })
        .collect()
}

/// The inverse of a small symmetric positive-definite matrix (Gauss-Jordan), if it has one.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m).map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for c in 0..m {
        let p = (c..m).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for x in 0..m {
            a[c][x] /= d;
            inv[c][x] /= d;
        }
        for r in 0..m {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    for x in 0..m {
                        a[r][x] -= f * a[c][x];
                        inv[r][x] -= f * inv[c][x];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_interval() {
        // 80 of 100: [0.7112, 0.8666].
        let (lo, hi) = wilson(80.0, 100.0);
        assert!((lo - 0.7112).abs() < 1e-3 && (hi - 0.8666).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }

    #[test]
    fn elo_of_two_bots_is_the_logistic_of_the_score() {
        let fit = fit_elo(2, &[PairScore { i: 0, j: 1, score_i: 750.0, games: 1000.0 }], 1);
        let p: f64 = 750.5 / 1001.0;
        let want = 400.0 * (p / (1.0 - p)).log10();
        assert!((fit[0].0 - want).abs() < 1e-6, "{fit:?} {want}");
        assert_eq!(fit[1], (0.0, 0.0));
        assert!(fit[0].1 > 20.0 && fit[0].1 < 30.0, "{fit:?}");
    }

    #[test]
    fn elo_orders_three_bots_and_stays_finite_on_a_sweep() {
        let pairs = [
            PairScore { i: 0, j: 1, score_i: 100.0, games: 100.0 },
            PairScore { i: 0, j: 2, score_i: 100.0, games: 100.0 },
            PairScore { i: 1, j: 2, score_i: 70.0, games: 100.0 },
        ];
        let fit = fit_elo(3, &pairs, 2);
        assert!(fit[0].0 > fit[1].0 && fit[1].0 > 0.0 && fit[0].0.is_finite(), "{fit:?}");
        assert!(fit.iter().all(|f| f.1.is_finite()));
    }

    #[test]
    fn seeds_depend_on_every_part() {
        let s = derive_seed(1, &[0, 1, 2, 0]);
        assert_eq!(s, derive_seed(1, &[0, 1, 2, 0]));
        assert_ne!(s, derive_seed(2, &[0, 1, 2, 0]));
        assert_ne!(s, derive_seed(1, &[1, 0, 2, 0]));
        assert_ne!(s, derive_seed(1, &[0, 1, 2, 1]));
    }
}
