//! Writes a solved table's sampled positions as CSV rows, for fitting other
//! model forms outside the engine (see `fit_rows.py` beside this file):
//! the exact value, the 38 features, the piece-square features, then per
//! side (to move first) the pieces on each path position, in reserve and off.
//!
//! `cargo run --release -p ur-bots --example dump_rows -- regency-murray 3 murray3.urt 150000 m3.csv`

use std::io::Write;
use std::sync::Arc;

use ur_bots::eval::{Evaluator, NF};
use ur_bots::train::{feature_row, sample_positions};
use ur_rules::{OptionValue, Options, Rules, State};

mod common;

fn main() -> std::process::ExitCode {
    common::exit(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, id, pieces, path, n, out] = args.as_slice() else {
        return Err("usage: dump_rows RULES PIECES TABLE POSITIONS OUT.csv".into());
    };
    let number = |what: &str, v: &str| v.parse::<usize>().map_err(|_| format!("{what} must be a whole number, not '{v}'"));
    let pieces = number("PIECES", pieces)? as i64;
    let n = number("POSITIONS", n)?;
    let options: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    let rules = Arc::new(Rules::builtin_with(id, &options)?);
    let table = Arc::new(ur_solve::table::Table::open(path.as_ref())?);
    let oracle = ur_bots::Oracle::new(table, rules.clone(), path.as_ref())?;
    let samples = sample_positions(&rules, oracle.index(), &**oracle.table(), n, 7);
    let ev = Evaluator::with_model(rules.clone(), 0.0, &[0.0; NF]);
    // Written beside OUT and renamed over it at the end: never a half-written file.
    let partial = format!("{out}.partial");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&partial)?);
    for (st, y) in &samples {
        let row = feature_row(&ev, st, true).into_iter().skip(1);
        let cols: Vec<String> = std::iter::once(*y).chain(row).chain(board(&rules, st)).map(|x| x.to_string()).collect();
        writeln!(file, "{}", cols.join(","))?;
    }
    file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&partial, out)?;
    Ok(())
}

/// Pieces per path position, then in reserve and off, for the side to move and its opponent.
fn board(rules: &Rules, st: &State) -> Vec<f64> {
    let me = st.to_move();
    let mut raw = Vec::new();
    for side in [me, me.other()] {
        raw.extend((1..=rules.path_len()).map(|p| f64::from(st.count_at(side, p))));
        raw.extend([f64::from(st.reserve(side)), f64::from(st.off(side))]);
    }
    raw
}
