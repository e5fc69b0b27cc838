//! Solves a small race game exactly by value iteration over every situation
//! reachable from the start, named pieces included (which `ur solve` does
//! not model), then plays perfect play from that solution against bots on
//! paired dice. A research aid: every situation is kept in a hash map, so it
//! serves small games only (`v1-named-birds` with 2 or 3 birds).
//!
//! ```text
//! cargo run --release -p ur-bots --example small_solve -- v1-named-birds 2 greedy,expectimax:2 2000
//! ```
//! Arguments: rules, pieces, opponents (comma-separated bot names, or `-` for none), games
//! per opponent, and then optionally:
//! - `fit=OUT.json` (or `fit-squares=OUT.json`, with piece-square features): fit the race
//!   evaluation to the exact values of turn starts sampled from games (perfect play with
//!   random decisions at rates from 0 to 60 %), add it as `ID@PIECES` to
//!   `crates/ur-bots/weights/race.json` and write the result to OUT.json;
//! - `regret=N`: instead of duels, each bot's mean regret over the first N decisions with a
//!   real choice (declarations included) of games between two `greedy` bots, seed 1, as
//!   `ur regret` measures it on race tables;
//! - `net=FILE`: use this network file ahead of the built-in ones (`ur train-net --out`).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_bots::eval::{Evaluator, Weights};
use ur_bots::generic::sample_outcome;
use ur_bots::make_bot;
use ur_bots::train::{fit_exact, rmse_pp, Samples};
use ur_rules::{AnyAction, AnyGame, Game, OptionValue, Options, Phase, Playable, Rules, Side, Turn};
use xxhash_rust::xxh3::Xxh3;

mod common;

fn main() -> std::process::ExitCode {
    common::exit(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: small_solve RULES PIECES BOT[,BOT...] GAMES [fit=OUT.json | fit-squares=OUT.json] [regret=N] [net=FILE]";
    let [id, pieces, bots, games, extra @ ..] = args.as_slice() else { return Err(usage.into()) };
    let (mut fit, mut regret_decisions) = (None, None);
    for arg in extra {
        match arg.split_once('=') {
            Some(("fit", out)) => fit = Some((out, false)),
            Some(("fit-squares", out)) => fit = Some((out, true)),
            Some(("regret", n)) => {
                regret_decisions = Some(n.parse::<u64>().map_err(|_| format!("regret=N takes a whole number, not '{n}'"))?)
            }
            Some(("net", file)) => {
                let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
                ur_bots::net::install(ur_bots::net::NetFile::parse(&text).map_err(|e| format!("{file}: {e}"))?);
            }
            _ => return Err(format!("'{arg}' is not an option here; {usage}").into()),
        }
    }
    let pieces: i64 = pieces.parse().map_err(|_| format!("PIECES must be a whole number, not '{pieces}'"))?;
    let games: u64 = games.parse().map_err(|_| format!("GAMES must be a whole number, not '{games}'"))?;
    let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    let rules = Arc::new(Rules::builtin_with(id, &options)?);
    // Read and checked before the solve, which can take many minutes.
    let fit = fit.map(|(out, squares)| Ok::<_, String>((base_weights()?, writable(out)?, squares))).transpose()?;
    let solved = Solved::new(&rules);
    let start = solved.value(&AnyGame::Race(Game::new(rules.clone(), Side::Light)));
    println!("{id} with {pieces} pieces: {} situations; the first player wins with {:.4} %", solved.kinds.len(), 100.0 * start);
    if let Some((weights, out, squares)) = fit {
        fit_model(&solved, &rules, weights, out, squares)?;
    }
    for name in bots.split(',').filter(|n| !n.is_empty() && *n != "-") {
        if let Some(n) = regret_decisions {
            let (mean, half_width, best) = regret(&solved, &rules, name, n)?;
            println!(
                "{name}: mean regret {:.4} pp ± {:.4} per decision, best choice {:.2} % ({n} decisions)",
                100.0 * mean,
                100.0 * half_width,
                100.0 * best
            );
            continue;
        }
        let (score, half_width) = duel(&solved, &rules, name, games)?;
        println!("perfect v {name}: {:.1} % ± {:.1} ({games} games, paired dice)", 100.0 * score, 100.0 * half_width);
    }
    Ok(())
}

/// What a situation waits for.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Roll,
    Decide(Side),
    Over(f64),
}

/// Every situation reachable from the start, with light's exact win
/// probability. Situations are known by a 128-bit hash (a collision among
/// 10^8 of them has odds of about 10^-23) and their successors are kept in
/// one flat array, so that 3-bird games fit in memory.
struct Solved {
    ids: HashMap<u128, u32>,
    kinds: Vec<Kind>,
    /// Successors of situation `i`: `first[i]` and on, `count[i]` of them.
    first: Vec<u32>,
    count: Vec<u8>,
    edges: Vec<u32>,
    /// The dice outcomes' probabilities, the same at every roll.
    probs: Vec<f64>,
    light: Vec<f64>,
}

impl Solved {
    fn new(rules: &Arc<Rules>) -> Solved {
        let mut s = Solved {
            ids: HashMap::new(),
            kinds: Vec::new(),
            first: Vec::new(),
            count: Vec::new(),
            edges: Vec::new(),
            probs: Vec::new(),
            light: Vec::new(),
        };
        let mut stack: Vec<(AnyGame, u32)> = Vec::new();
        for first in Side::BOTH {
            let g = AnyGame::Race(Game::new(rules.clone(), first));
            let (id, _) = s.id(&g);
            stack.push((g, id));
        }
        let mut deepest = 0;
        while let Some((g, id)) = stack.pop() {
            s.expand(&g, id, &mut stack);
            deepest = deepest.max(stack.len());
        }
        eprintln!("explored: {} situations, {} edges, at most {deepest} waiting", s.kinds.len(), s.edges.len());
        s.iterate();
        s
    }

    /// The situation's id, and whether it is new.
    fn id(&mut self, g: &AnyGame) -> (u32, bool) {
        let next = self.kinds.len() as u32;
        let id = *self.ids.entry(key(g)).or_insert(next);
        if id == next {
            self.kinds.push(Kind::Over(0.5));
            self.first.push(0);
            self.count.push(0);
            self.light.push(0.5);
            if next > 0 && next.is_multiple_of(10_000_000) {
                eprintln!("{next} situations");
            }
        }
        (id, id == next)
    }

    /// Records the situation's kind and successors, and stacks the new ones.
    fn expand(&mut self, g: &AnyGame, id: u32, stack: &mut Vec<(AnyGame, u32)>) {
        let kind = match g.turn() {
            Turn::Over(w) => Kind::Over(if w == Some(Side::Light) { 1.0 } else { 0.0 }),
            Turn::Roll(_) => Kind::Roll,
            Turn::Decide(side) => Kind::Decide(side),
        };
        let children: Vec<AnyGame> = match kind {
            Kind::Over(_) => Vec::new(),
            Kind::Roll => {
                let outcomes = g.outcomes();
                if self.probs.is_empty() {
                    self.probs = outcomes.iter().map(|o| o.1).collect();
                }
                assert_eq!(self.probs, outcomes.iter().map(|o| o.1).collect::<Vec<_>>(), "the same dice at every roll");
                outcomes
                    .iter()
                    .map(|&(raw, _)| {
                        let mut c = g.without_history();
                        c.roll(raw).expect("an outcome of the dice");
                        c
                    })
                    .collect()
            }
            Kind::Decide(_) => g.actions().iter().map(|a| after(g, a)).collect(),
        };
        let i = id as usize;
        (self.kinds[i], self.first[i], self.count[i]) = (kind, self.edges.len() as u32, children.len() as u8);
        for c in children {
            let (cid, fresh) = self.id(&c);
            self.edges.push(cid);
            if fresh {
                stack.push((c, cid));
            }
        }
    }

    fn successors(&self, i: usize) -> &[u32] {
        let f = self.first[i] as usize;
        &self.edges[f..f + usize::from(self.count[i])]
    }

    /// Gauss-Seidel sweeps until no value changes by more than 1e-13.
    fn iterate(&mut self) {
        for (v, k) in self.light.iter_mut().zip(&self.kinds) {
            if let Kind::Over(x) = k {
                *v = *x;
            }
        }
        loop {
            let mut change = 0.0f64;
            for i in (0..self.kinds.len()).rev() {
                let cs = self.successors(i);
                let v = match self.kinds[i] {
                    Kind::Over(x) => x,
                    Kind::Roll => cs.iter().zip(&self.probs).map(|(&c, p)| p * self.light[c as usize]).sum(),
                    Kind::Decide(side) => {
                        let vs = cs.iter().map(|&c| self.light[c as usize]);
                        if side == Side::Light {
                            vs.fold(0.0, f64::max)
                        } else {
                            vs.fold(1.0, f64::min)
                        }
                    }
                };
                change = change.max((v - self.light[i]).abs());
                self.light[i] = v;
            }
            if change <= 1e-13 {
                return;
            }
        }
    }

    /// Light's win probability in `game`.
    fn value(&self, game: &AnyGame) -> f64 {
        self.light[self.ids[&key(game)] as usize]
    }
}

fn key(g: &AnyGame) -> u128 {
    let mut h = Xxh3::new();
    g.as_race().expect("a race game").situation().hash(&mut h);
    h.digest128()
}

fn after(g: &AnyGame, a: &AnyAction) -> AnyGame {
    let mut c = g.without_history();
    c.apply(a).expect("an open action");
    c
}

/// Plays the action that leads to the best situation for the mover.
struct Perfect<'a>(&'a Solved);

impl Perfect<'_> {
    /// Every open action with the mover's win probability after it.
    fn values(&self, g: &AnyGame) -> Vec<(AnyAction, f64)> {
        let Turn::Decide(side) = g.turn() else { panic!("no decision") };
        let light = |a: &AnyAction| self.0.value(&after(g, a));
        g.actions()
            .into_iter()
            .map(|a| {
                let v = light(&a);
                (a, if side == Side::Light { v } else { 1.0 - v })
            })
            .collect()
    }

    /// The mover's win probability lost by `chosen` against the best action.
    fn regret(&self, g: &AnyGame, chosen: &AnyAction) -> f64 {
        let values = self.values(g);
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let got = values.iter().find(|(a, _)| a == chosen).expect("the bot chose an open action").1;
        (best - got).max(0.0)
    }

    fn decide(&self, g: &AnyGame) -> AnyAction {
        let values = self.values(g);
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        values.into_iter().find(|v| v.1 == best).expect("a best action").0
    }
}

/// Perfect play's score against the bot and the half-width of its 95%
/// interval: each dice sequence is played once from each side.
fn duel(solved: &Solved, rules: &Arc<Rules>, name: &str, games: u64) -> Result<(f64, f64), Box<dyn std::error::Error>> {
    let perfect = Perfect(solved);
    let mut wins = Vec::new();
    for k in 0..games {
        let perfect_side = if k % 2 == 0 { Side::Light } else { Side::Dark };
        let mut bot = make_bot(name, k / 2)?;
        let mut dice = Xoshiro256PlusPlus::seed_from_u64(k / 2);
        let mut g = AnyGame::Race(Game::new(rules.clone(), Side::Light));
        let winner = loop {
            match g.turn() {
                Turn::Over(w) => break w,
                Turn::Roll(_) => {
                    let raw = sample_outcome(&g.outcomes(), &mut dice);
                    g.roll(raw)?;
                }
                Turn::Decide(side) => {
                    let a = if side == perfect_side { perfect.decide(&g) } else { bot.decide(&g) };
                    g.apply(&a)?;
                }
            }
        };
        wins.push(f64::from(u8::from(winner == Some(perfect_side))));
    }
    let n = wins.len() as f64;
    let mean = wins.iter().sum::<f64>() / n;
    Ok((mean, 1.96 * (mean * (1.0 - mean) / n).sqrt()))
}

/// The bot's regret against perfect play at the first `n` decisions with a
/// real choice of games between two `greedy` bots (seed 1): the mean, the
/// half-width of its 95% interval with games as clusters, and the share of
/// best choices.
fn regret(solved: &Solved, rules: &Arc<Rules>, name: &str, n: u64) -> Result<(f64, f64, f64), Box<dyn std::error::Error>> {
    let perfect = Perfect(solved);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut clusters: Vec<(f64, u64)> = Vec::new();
    let (mut decisions, mut best) = (0u64, 0u64);
    for k in 0u64.. {
        let mut bot = make_bot(name, k)?;
        let mut sampler = make_bot("greedy", k)?;
        let mut g = AnyGame::Race(Game::new(rules.clone(), if k % 2 == 0 { Side::Light } else { Side::Dark }));
        clusters.push((0.0, 0));
        while decisions < n {
            match g.turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    let raw = sample_outcome(&g.outcomes(), &mut rng);
                    g.roll(raw)?;
                }
                Turn::Decide(_) => {
                    if g.actions().len() > 1 {
                        let r = perfect.regret(&g, &bot.decide(&g));
                        let c = clusters.last_mut().expect("pushed above");
                        (c.0, c.1) = (c.0 + r, c.1 + 1);
                        decisions += 1;
                        best += u64::from(r == 0.0);
                    }
                    g = after(&g, &sampler.decide(&g));
                }
            }
        }
        if decisions >= n {
            break;
        }
    }
    let mean = clusters.iter().map(|c| c.0).sum::<f64>() / decisions as f64;
    // The cluster-robust variance of a ratio estimator (games as clusters).
    let m = clusters.len() as f64;
    let var =
        clusters.iter().map(|&(s, c)| (s - mean * c as f64).powi(2)).sum::<f64>() * m / (m - 1.0).max(1.0) / (decisions as f64).powi(2);
    Ok((mean, 1.96 * var.sqrt(), best as f64 / decisions as f64))
}

/// Turn starts (before the declaration) of games where both sides play
/// perfectly except for random decisions at a rate that varies by game,
/// with the exact value for the side to move. Deterministic for a seed.
fn sample_turn_starts(solved: &Solved, rules: &Arc<Rules>, n: usize, seed: u64) -> Samples {
    let perfect = Perfect(solved);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Samples::new();
    for game in 0u32.. {
        let eps = f64::from(game % 4) * 0.2;
        let mut g = AnyGame::Race(Game::new(rules.clone(), if rng.gen_bool(0.5) { Side::Light } else { Side::Dark }));
        loop {
            match g.turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => {
                    let raw = sample_outcome(&g.outcomes(), &mut rng);
                    g.roll(raw).expect("an outcome of the dice");
                }
                Turn::Decide(side) => {
                    let race = g.as_race().expect("a race game");
                    if race.phase() == Phase::Declare && rng.gen_bool(0.5) {
                        let light = solved.value(&g);
                        out.push((*race.state(), if side == Side::Light { light } else { 1.0 - light }));
                        if out.len() == n {
                            return out;
                        }
                    }
                    let actions = g.actions();
                    let a = if rng.gen_bool(eps) { actions[rng.gen_range(0..actions.len())].clone() } else { perfect.decide(&g) };
                    g = after(&g, &a);
                }
            }
        }
    }
    unreachable!("the loop returns once it has n positions")
}

/// The source tree's weights file as it is now (as `ur train-table`'s
/// default base), so fits chain without rebuilding.
fn base_weights() -> Result<Weights, String> {
    let base = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/race.json");
    let text = std::fs::read_to_string(base).map_err(|e| format!("cannot read {base}: {e}"))?;
    let weights: Weights = serde_json::from_str(&text).map_err(|e| format!("{base}: not a weights file: {e}"))?;
    weights.check().map(|()| weights).map_err(|e| format!("{base}: {e}"))
}

/// `out`, if its folder exists.
fn writable(out: &str) -> Result<&str, String> {
    let dir = std::path::Path::new(out).parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if dir.is_dir() {
        Ok(out)
    } else {
        Err(format!("cannot write {out}: no folder {}", dir.display()))
    }
}

/// Fits `ID@PIECES` to sampled exact values (a quarter as many more held out) and
/// writes the weights file of the source tree with it added.
fn fit_model(
    solved: &Solved,
    rules: &Arc<Rules>,
    mut weights: Weights,
    out: &str,
    squares: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    const SAMPLES: usize = 200_000;
    const L2: f64 = 1e-4;
    let train = sample_turn_starts(solved, rules, SAMPLES, 1);
    let held = sample_turn_starts(solved, rules, SAMPLES / 4, 2);
    let model = fit_exact(rules, &train, squares, L2).rounded();
    let id = ur_bots::eval::model_id(rules);
    weights.rules.retain(|r| r.id != id);
    let before = rmse_pp(&Evaluator::with_weights(rules.clone(), &weights), &held);
    let after = rmse_pp(&model.evaluator(rules), &held);
    println!("held-out RMSE over {} turn starts: {before:.3} pp with the committed weights, {after:.3} pp with {id}", held.len());
    let record = serde_json::json!({
        "id": id,
        "rules": rules.id(),
        "options": rules.options,
        "pieces": rules.pieces(),
        "command": format!(
            "cargo run --release -p ur-bots --example small_solve -- {} {} - 0 {}=OUT.json",
            rules.id(),
            rules.pieces(),
            if squares { "fit-squares" } else { "fit" }
        ),
        "table_positions": solved.kinds.len(),
        "samples": SAMPLES,
        "squares": squares,
        "l2": L2,
        "seed": 1,
        "loss": "cross-entropy against the exact values of turn starts (logistic regression with soft targets), Newton's method",
        "held_out": { "positions": held.len(), "base_rmse_pp": before, "rmse_pp": after },
    });
    weights.put_model(rules, &id, (model.bias, model.w, model.squares), "table_fits", record);
    weights.check()?;
    let tmp = format!("{out}.tmp");
    let written = std::fs::write(&tmp, serde_json::to_string_pretty(&weights)? + "\n").and_then(|()| std::fs::rename(&tmp, out));
    written.map_err(|e| format!("cannot write {out}: {e}"))?;
    println!("weights written to {out} (model {id})");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::State;
    use ur_solve::{solve, Indexer, Silent, SolveConfig, Values};

    fn small(id: &str, pieces: i64) -> Arc<Rules> {
        let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
        Arc::new(Rules::builtin_with(id, &options).unwrap())
    }

    fn start_value(rules: &Arc<Rules>) -> f64 {
        Solved::new(rules).value(&AnyGame::Race(Game::new(rules.clone(), Side::Light)))
    }

    /// Two independent routes to the same numbers: `Game`'s turn phases,
    /// visited situation by situation, and `ur solve`'s operator over ranked
    /// positions built on the rules' move generation.
    #[test]
    fn the_exhaustive_solve_agrees_with_the_solver() {
        for (id, pieces) in [("v1-simple", 2), ("finkel", 2), ("ludens-planet", 2), ("regency-murray", 1), ("masters", 2)] {
            let rules = small(id, pieces);
            let index = Indexer::new(&rules).unwrap();
            let solution = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();
            let solver = solution.get(index.rank(&State::start(&rules, Side::Light)));
            let exhaustive = start_value(&rules);
            assert!((solver - exhaustive).abs() < 1e-9, "{id} with {pieces}: solver {solver}, exhaustive {exhaustive}");
        }
    }

    /// The 2-bird named game, as BENCHMARKS.md reports it.
    #[test]
    fn the_two_bird_game_is_won_by_the_first_player_51_7164_percent() {
        let value = start_value(&small("v1-named-birds", 2));
        assert!((100.0 * value - 51.7164).abs() < 5e-5, "{}", 100.0 * value);
    }
}
