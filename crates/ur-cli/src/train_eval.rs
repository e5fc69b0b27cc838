//! `ur train-eval`: fit the race evaluation to solved tables and write its weights.
//!
//! For each training rule set and piece count: solve the table (or read one
//! given with `--table`), sample positions with their exact values, compute
//! the features, and fit one logistic model to all of them. Positions from
//! separate games measure the held-out error; rule sets left out of the fit
//! (`--check`) measure how the weights carry over. The same arguments and
//! seed reproduce the weights file byte for byte.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;
use ur_bots::eval::{geometry_key, Evaluator, NF};
use ur_bots::expectimax::Search;
use ur_bots::train::{self, Data, Errors, Model, Samples, Specialised};
use ur_cli::outln;
use ur_rules::{OptionValue, Options, Rules};
use ur_solve::{solve, Indexer, Silent, SolveConfig, Table, Values};

/// The rule sets the committed weights were fitted on with `--pieces`: every
/// built-in race rule set the solver supports, except `regency-murray`
/// (whose 4-piece table is too big; it comes with 2 and 3 pieces in `--more`).
const DEFAULT_RULES: &str =
    "finkel,blitz,masters,aseb,regency-british-museum,v1-simple,walker-cyningstan,ludens-planet,regency-conventional,regency-bell";
/// Further training tables beyond `--pieces`.
const DEFAULT_MORE: &str = "finkel:5,regency-murray:2,regency-murray:3";
/// Rule sets (with piece counts) that only measure the fit (none by default).
const DEFAULT_CHECK: &str = "";

#[derive(Args, Debug)]
pub struct TrainEvalCmd {
    /// Rule sets to fit on, comma-separated.
    #[arg(long, default_value = DEFAULT_RULES)]
    rules: String,
    /// Piece counts to solve each rule set with, comma-separated.
    #[arg(long, default_value = "2,3,4")]
    pieces: String,
    /// Further training tables, as ID:PIECES, comma-separated ("" for none).
    #[arg(long, default_value = DEFAULT_MORE)]
    more: String,
    /// Training positions per rule set and piece count (a quarter as many more are held out).
    #[arg(long, default_value_t = 20_000)]
    samples: usize,
    /// Seed for sampling positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
    /// L2 penalty on the weights that scale with 1 / pieces.
    #[arg(long = "l2-n", default_value_t = 1e-4)]
    l2_n: f64,
    /// L2 penalty pulling each rule set's own model towards the generic one.
    #[arg(long, default_value_t = 1e-6)]
    l2_rules: f64,
    /// Rule sets that only measure the fit, as ID:PIECES, comma-separated ("" for none).
    #[arg(long, default_value = DEFAULT_CHECK)]
    check: String,
    /// Solved tables that only measure the fit (repeatable), such as a larger Finkel table.
    #[arg(long = "table", value_name = "FILE")]
    tables: Vec<PathBuf>,
    /// Solver threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Where to write the weights (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// One training table: its positions' features and targets, and held-out positions.
struct Part {
    id: String,
    pieces: u8,
    solved: Solved,
    data: Data,
    held: Samples,
}

/// A solved rule set: rules, index and exact values.
struct Solved {
    rules: Arc<Rules>,
    index: Indexer,
    values: Box<dyn Values>,
}

impl TrainEvalCmd {
    pub fn run(self) -> Result<()> {
        let pieces: Vec<u8> = parse_list(&self.pieces, "--pieces")?;
        let ids: Vec<String> = self.rules.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
        let checks = parse_tables(&self.check, "--check")?;
        let mut configs: Vec<(String, u8)> = ids.iter().flat_map(|id| pieces.iter().map(move |&n| (id.clone(), n))).collect();
        for (id, n) in parse_tables(&self.more, "--more")? {
            if !configs.contains(&(id.clone(), n)) {
                configs.push((id, n));
            }
        }
        if ids.is_empty() || pieces.is_empty() || self.samples < 100 {
            bail!("give at least one rule set and piece count, and --samples of at least 100");
        }
        let held = self.samples / 4;
        let mut parts: Vec<Part> = Vec::new();
        for (id, n) in &configs {
            let (id, n) = (id, *n);
            {
                let solved = self.solve(id, n)?;
                let started = Instant::now();
                let s = train::sample_positions(&solved.rules, &solved.index, &*solved.values, self.samples, mix(self.seed, id, n, 0));
                let h = train::sample_positions(&solved.rules, &solved.index, &*solved.values, held, mix(self.seed, id, n, 1));
                let data = Data::of(&solved.rules, &s);
                eprintln!("  sampled {} + {} positions in {:.1} s", s.len(), h.len(), started.elapsed().as_secs_f64());
                parts.push(Part { id: id.clone(), pieces: n, solved, data, held: h });
            }
        }
        let mut all = Data::default();
        for p in &parts {
            all.extend(&p.data);
        }
        eprintln!("fitting the generic model: {} weights to {} positions", 2 * (NF + 1), all.len());
        let started = Instant::now();
        let generic = train::fit(&all, self.l2, self.l2_n, None);
        // One model per geometry: rule sets that differ only in their piece
        // count (finkel and regency-british-museum) share one.
        let mut geometries: Vec<(String, Vec<String>)> = Vec::new();
        for p in &parts {
            let key = geometry_key(&p.solved.rules);
            match geometries.iter_mut().find(|g| g.0 == key) {
                Some(g) if !g.1.contains(&p.id) => g.1.push(p.id.clone()),
                Some(_) => {}
                None => geometries.push((key, vec![p.id.clone()])),
            }
        }
        let mut specialised = Vec::new();
        for (key, names) in &geometries {
            let mut own = Data::default();
            for p in parts.iter().filter(|p| geometry_key(&p.solved.rules) == *key) {
                own.extend(&p.data);
            }
            let model = train::fit(&own, self.l2_rules, self.l2_rules, Some(&generic));
            let rules = &parts.iter().find(|p| geometry_key(&p.solved.rules) == *key).expect("a part per geometry").solved.rules;
            specialised.push(Specialised { id: names.join("+"), rules: rules.clone(), model });
        }
        eprintln!("  fitted in {:.1} s", started.elapsed().as_secs_f64());
        // Measure with the weights as written (rounded).
        let weights = train::make_weights(&generic, &specialised, serde_json::Value::Null);
        let train_err = train::errors(&generic.rounded(), &all);

        outln!(
            "{:<24} {:>6} {:>9} {:>12} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10}",
            "rules",
            "pieces",
            "positions",
            "model",
            "rmse pp",
            "mae pp",
            "p95 pp",
            "generic",
            "regret d1",
            "regret d2"
        )?;
        outln!(
            "{:<24} {:>6} {:>9} {:>12} {:>9.3} {:>9.3} {:>9.3}",
            "(training set)",
            "",
            train_err.positions,
            "generic",
            train_err.rmse_pp,
            train_err.mae_pp,
            train_err.p95_pp
        )?;
        let held_rows: Vec<serde_json::Value> = parts.iter().map(|p| measure(&p.id, p.pieces, &p.solved, &p.held, &weights)).collect();
        for (id, n) in &checks {
            let solved = self.solve(id, *n)?;
            let h = train::sample_positions(&solved.rules, &solved.index, &*solved.values, held, mix(self.seed, id, *n, 1));
            measure(id, *n, &solved, &h, &weights);
        }
        for path in &self.tables {
            let solved = read_table(path)?;
            let id = solved.rules.id().to_string();
            let n = solved.rules.pieces();
            let h = train::sample_positions(&solved.rules, &solved.index, &*solved.values, held, mix(self.seed, &id, n, 1));
            measure(&id, n, &solved, &h, &weights);
        }
        // Checks (--check, --table) are printed only: the file depends on
        // nothing but the training arguments, so that they reproduce it.
        let training = json!({
            "command": self.command_line(),
            "rules": ids,
            "pieces": pieces,
            "more": self.more,
            "samples_per_table": self.samples,
            "held_out_per_table": held,
            "seed": self.seed,
            "l2": self.l2,
            "l2_inv_pieces": self.l2_n,
            "l2_rules": self.l2_rules,
            "loss": "cross-entropy against exact win probabilities (logistic regression with soft targets), Newton's method",
            "train": train_err,
            "held_out": held_rows,
        });
        let weights = train::make_weights(&generic, &specialised, training);
        crate::files::write_weights(&self.out, &weights)?;
        outln!("weights written to {}", self.out.display())?;
        Ok(())
    }

    fn command_line(&self) -> String {
        format!(
            "ur train-eval --rules {} --pieces {} --more {} --samples {} --seed {} --l2 {} --l2-n {} --l2-rules {}",
            self.rules, self.pieces, self.more, self.samples, self.seed, self.l2, self.l2_n, self.l2_rules
        )
    }

    fn solve(&self, id: &str, pieces: u8) -> Result<Solved> {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(i64::from(pieces)))].into();
        let rules = Arc::new(Rules::builtin_with(id, &opts)?);
        let index = Indexer::new(&rules)?;
        let started = Instant::now();
        eprintln!("solving {id} with {pieces} pieces ({} positions)", index.len());
        let cfg = SolveConfig { threads: self.threads, ..SolveConfig::default() };
        let sol = solve(&rules, &index, &cfg, &Silent)?;
        eprintln!("  solved in {:.1} s", started.elapsed().as_secs_f64());
        Ok(Solved { rules, index, values: Box::new(sol.values) })
    }
}

fn read_table(path: &Path) -> Result<Solved> {
    let table = Table::open(path)?;
    let rules = Rules::builtin_with(&table.header.rules_id, &table.header.options)
        .with_context(|| format!("{}: the table's rules are not built in", path.display()))?;
    table.check_rules(&rules, path)?;
    let index = Indexer::new(&rules)?;
    Ok(Solved { rules: Arc::new(rules), index, values: Box::new(table) })
}

/// Errors and move regrets of the weights on held-out positions, printed and returned.
fn measure(id: &str, n: u8, solved: &Solved, samples: &Samples, weights: &ur_bots::Weights) -> serde_json::Value {
    let data = Data::of(&solved.rules, samples);
    let (b, w, model) = weights.model_for(&solved.rules);
    let e: Errors = train::errors(&Model::fixed(b, w), &data);
    let (b, w) = weights.generic_for(solved.rules.pieces());
    let generic = train::errors(&Model::fixed(b, w), &data);
    let model = match model {
        Some(m) if m.split('+').any(|x| x == id) => "own".to_string(),
        Some(m) => m.to_string(),
        None => "generic".to_string(),
    };
    let ev = Evaluator::with_weights(solved.rules.clone(), weights);
    let throws = ur_bots::chance::merged_throws(&solved.rules);
    let mut regret = [0.0; 2];
    for (d, r) in regret.iter_mut().enumerate() {
        let mut search = Search::new(&solved.rules, &ev, &throws);
        // Depth 2 on a subset: it costs more.
        let subset: Samples = samples.iter().step_by(if d == 0 { 1 } else { 4 }).copied().collect();
        *r = train::move_regret(&solved.rules, &solved.index, &*solved.values, &subset, |st, t, moves| {
            let (m, _) = search.best_move(st, t, moves, d as u32 + 1);
            moves.iter().position(|&x| x == m).expect("the search returns one of the moves")
        })
        .0;
    }
    // A progress line: a failed write is found by the next one the command checks.
    let _ = outln!(
        "{:<24} {:>6} {:>9} {:>12} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>10.4} {:>10.4}",
        id,
        n,
        e.positions,
        model,
        e.rmse_pp,
        e.mae_pp,
        e.p95_pp,
        generic.rmse_pp,
        regret[0],
        regret[1]
    );
    json!({
        "rules": id, "pieces": n, "model": model, "errors": e, "generic_rmse_pp": generic.rmse_pp,
        "regret_pp_depth1": regret[0], "regret_pp_depth2": regret[1],
    })
}

fn parse_tables(text: &str, what: &str) -> Result<Vec<(String, u8)>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|c| {
            let (id, n) = c.split_once(':').with_context(|| format!("{what} wants ID:PIECES, not '{c}'"))?;
            Ok((id.to_string(), n.parse().with_context(|| format!("{what}: bad piece count in '{c}'"))?))
        })
        .collect()
}

fn parse_list(text: &str, what: &str) -> Result<Vec<u8>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u8>().with_context(|| format!("{what}: '{s}' is not a number")))
        .collect()
}

/// A seed for one table's samples, independent of the other tables.
fn mix(seed: u64, id: &str, pieces: u8, stream: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes().chain([pieces, stream as u8]) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
