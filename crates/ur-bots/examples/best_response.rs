//! Exactly how well any strategy can do against `greedy` on a small race game,
//! and how well the table's perfect play does: value iteration over a solved
//! table's positions where one side maximises (or plays the table's best move)
//! and the other plays `greedy`, its tied moves averaged. A research aid; it
//! holds about 60 bytes per position (3-piece `regency-murray`: 0.5 GB).
//!
//! ```text
//! cargo run --release -p ur-bots --example best_response -- regency-murray 2 murray2.urt [best]
//! ```
//! `best` skips the perfect-play evaluation.

use std::sync::Arc;

use ur_bots::chance::merged_throws;
use ur_bots::{GreedyBot, Oracle};
use ur_rules::{OptionValue, Options, Rules, Side, State, Throw};
use ur_solve::{Indexer, Table, Values};

/// A reference to a finished game the maximising side won, or lost.
const WIN: u32 = u32::MAX;
const LOSS: u32 = u32::MAX - 1;
/// A reference's flag: `greedy` moves in the position referred to.
const GREEDY: u32 = 1 << 31;
/// Stop when no value changes by more than this in a sweep.
const TOLERANCE: f64 = 1e-9;

mod common;

fn main() -> std::process::ExitCode {
    common::exit(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (id, pieces, path, only_best) = match args.as_slice() {
        [id, pieces, path] => (id, pieces, path, false),
        [id, pieces, path, best] if best == "best" => (id, pieces, path, true),
        _ => return Err("usage: best_response RULES PIECES TABLE [best]".into()),
    };
    let pieces: i64 = pieces.parse().map_err(|_| format!("PIECES must be a whole number, not '{pieces}'"))?;
    let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    let rules = Arc::new(Rules::builtin_with(id, &options)?);
    let table = Arc::new(Table::open(path.as_ref())?);
    let oracle = Oracle::new(table, rules.clone(), path.as_ref())?;
    let game = Compiled::new(&rules, oracle.index(), oracle.table());
    eprintln!("{} positions, {} references", game.positions, game.refs.len());
    let start = oracle.index().rank(&State::start(&rules, Side::Light)) as usize;
    for (name, maximise) in [("perfect play (the table's moves)", false), ("best response", true)] {
        if only_best && !maximise {
            continue;
        }
        let (v, sweeps) = game.solve(oracle.table(), maximise);
        let (first, second) = (v[2 * start], v[2 * start + 1]);
        println!(
            "{name}: {:.2}% against greedy (moving first {:.2}%, second {:.2}%), {sweeps} sweeps",
            50.0 * (first + second),
            100.0 * first,
            100.0 * second
        );
    }
    Ok(())
}

/// Every position's successors per mover and throw, generated once.
/// Row `(2 * index + mover) * throws + throw`, mover 0 the maximising side,
/// 1 `greedy`: the maximising side's row holds every move's successor,
/// `greedy`'s only its best-scored moves'.
struct Compiled {
    positions: usize,
    throws: Vec<f64>,
    ends: Vec<u32>,
    refs: Vec<u32>,
    /// Per position and throw: the row entry of the table's best move for the maximising side.
    perfect: Vec<u8>,
}

impl Compiled {
    fn new(rules: &Rules, index: &Indexer, table: &Table) -> Compiled {
        let throws = merged_throws(rules);
        let positions = index.len() as usize;
        let mut c =
            Compiled { positions, throws: throws.iter().map(|t| t.1).collect(), ends: Vec::new(), refs: Vec::new(), perfect: Vec::new() };
        for i in 0..positions {
            let st = index.unrank(rules, i as u64, Side::Light);
            for greedy in [false, true] {
                for (t, _) in &throws {
                    let best = successors(rules, index, table, &st, greedy, t, &mut c.refs);
                    c.ends.push(c.refs.len() as u32);
                    if !greedy {
                        c.perfect.push(best);
                    }
                }
            }
        }
        c
    }

    /// Values `v[2 * index + mover]`: the maximising side's chance to win,
    /// from the table's values to a fixed point; and the sweeps it took.
    fn solve(&self, table: &Table, maximise: bool) -> (Vec<f64>, u32) {
        let mut v: Vec<f64> = (0..self.positions as u64).flat_map(|i| [table.get(i), 1.0 - table.get(i)]).collect();
        for sweep in 1.. {
            let mut change: f64 = 0.0;
            for row in (0..2 * self.positions).rev() {
                let new = self.update(&v, row, maximise);
                change = change.max((new - v[row]).abs());
                v[row] = new;
            }
            if change <= TOLERANCE {
                return (v, sweep);
            }
        }
        unreachable!("the sweeps run until the values settle")
    }

    /// The new value of `v[row]`: its throws' chances times the value of the move made.
    fn update(&self, v: &[f64], row: usize, maximise: bool) -> f64 {
        let nt = self.throws.len();
        let value = |r: u32| match r {
            WIN => 1.0,
            LOSS => 0.0,
            _ => v[2 * (r & !GREEDY) as usize + usize::from(r & GREEDY != 0)],
        };
        let mut total = 0.0;
        for (k, p) in self.throws.iter().enumerate() {
            let r = row * nt + k;
            let lo = if r == 0 { 0 } else { self.ends[r - 1] as usize };
            let refs = &self.refs[lo..self.ends[r] as usize];
            let x = if row % 2 == 1 {
                refs.iter().map(|&s| value(s)).sum::<f64>() / refs.len() as f64
            } else if maximise {
                refs.iter().map(|&s| value(s)).fold(0.0, f64::max)
            } else {
                value(refs[usize::from(self.perfect[row / 2 * nt + k])])
            };
            total += p * x;
        }
        total
    }
}

/// Appends the successors of `st` for one throw (every move's, or only
/// `greedy`'s choices), and returns the entry of the table's best move.
fn successors(rules: &Rules, index: &Indexer, table: &Table, st: &State, greedy: bool, throw: &Throw, out: &mut Vec<u32>) -> u8 {
    let mover = u32::from(greedy) << 31;
    let moves = rules.legal_moves(st, throw);
    if moves.is_empty() {
        let mut passed = *st;
        passed.set_to_move(st.to_move().other());
        out.push(index.rank(&passed) as u32 | (mover ^ GREEDY));
        return 0;
    }
    let scores: Vec<i32> = moves.iter().map(|&m| GreedyBot::score_move(rules, st, throw, m)).collect();
    let top = scores.iter().copied().max().unwrap_or(0);
    let (mut best, mut best_value) = (0, -1.0);
    let chosen = moves.iter().zip(&scores).filter(|&(_, &s)| !greedy || s == top).map(|(&m, _)| m);
    for (k, m) in chosen.enumerate() {
        let mut after = *st;
        let effect = rules.apply_unchecked(&mut after, throw, m);
        let (r, value) = if rules.finish_move(&mut after, &effect).is_some() {
            (if greedy { LOSS } else { WIN }, 1.0)
        } else if after.to_move() == st.to_move() {
            (index.rank(&after) as u32 | mover, table.get(index.rank(&after)))
        } else {
            (index.rank(&after) as u32 | (mover ^ GREEDY), 1.0 - table.get(index.rank(&after)))
        };
        if value > best_value {
            (best, best_value) = (k as u8, value);
        }
        out.push(r);
    }
    best
}
