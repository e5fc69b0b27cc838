//! `ur eval` and `ur hint`: exact win probabilities from a table made by
//! `ur solve` (`ur hint --depth D`: a search's estimates instead).
//!
//! Without `--table`, the table store's table for the rules given (by
//! default Finkel) is read.
//!
//! The rules come from the table's header (its rule-set id and options) unless
//! `--rules`, `--rules-file`, `--pieces` or `--option` name them (options not
//! given are the table's when the rule set is the table's); named rules must
//! be the ones the table was solved for.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::json;
use ur_bots::review::Judge;
use ur_bots::Oracle;
use ur_rules::{Extra, Game, Phase, Rules, Setup, Side, State, Throw};
pub use ur_session::tables::{LoadedTable, TableOracle};
use ur_session::{RulesChoice, RulesRef};

use ur_rules::race::text::move_text;

/// Refuses a rule set beyond the race for a command that needs a solved
/// table (tables are for race sets only).
///
/// # Errors
/// The rule set is of another family.
pub fn race_only(id: &str, cmd: &str) -> Result<()> {
    match ur_rules::family_of(id) {
        Some(f) if f != ur_rules::Family::Race => {
            bail!("{cmd} needs a solved table, and tables exist for race rule sets only; '{id}' is of the {f:?} family")
        }
        _ => Ok(()),
    }
}

/// The rules of a command that reads a table: the table's own unless given.
#[derive(Args, Debug)]
pub struct TableRulesArgs {
    /// Rule-set id (default: the rules the table was solved for, whose options are
    /// also the default when the rule set is the table's).
    #[arg(long, short = 'r')]
    rules: Option<String>,
    /// Load the rule set from a TOML file (a table for a rule set that is not built in needs it).
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    rules_file: Option<PathBuf>,
    /// Number of pieces per side (the same as `--option pieces=N`).
    #[arg(long)]
    pieces: Option<u8>,
    /// A rule-set option, NAME=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
    options: Vec<String>,
}

impl TableRulesArgs {
    /// The rule-set id given, unless the rules come from a file.
    pub fn builtin_id(&self) -> Option<&str> {
        self.rules.as_deref().filter(|_| self.rules_file.is_none())
    }

    /// The rules asked for, for the library.
    pub fn choice(&self) -> RulesChoice {
        RulesChoice { id: self.rules.clone(), file: self.rules_file.clone(), pieces: self.pieces, options: self.options.clone() }
    }

    /// The rules for `table`: see [`RulesChoice::for_table`].
    ///
    /// # Errors
    /// As [`RulesChoice::for_table`].
    pub fn load(&self, table: &LoadedTable) -> Result<Rules> {
        Ok(self.choice().for_table(table)?)
    }

    /// The rules when there is no table: as given, by default Finkel.
    ///
    /// # Errors
    /// An unknown rule set, a bad option or an unreadable rule-set file.
    pub fn load_alone(&self) -> Result<Rules> {
        let mut choice = self.choice();
        choice.id.get_or_insert_with(|| "finkel".into());
        Ok(choice.load()?.rules)
    }
}

/// The table, the rules and the position `eval` and `hint` work on.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// A table written by `ur solve` (default: the table store's table for the
    /// rules given, by default Finkel; see `ur tables`).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
    /// The position as JSON, `{"to_move":"light","light":{"reserve":N,"off":N,"path":[P,...]},"dark":{...}}`
    /// (`-` reads it from stdin, `@FILE` from a file); default: the start position, light to move.
    #[arg(value_name = "POSITION")]
    position: Option<String>,
}

/// What `TableArgs` name, loaded and checked.
struct Loaded {
    table: LoadedTable,
    oracle: Oracle,
    state: State,
}

impl TableArgs {
    fn load(&self, cmd: &str) -> Result<Loaded> {
        let (table, rules) = match &self.table {
            Some(path) => {
                let table = LoadedTable::open(path)?;
                let rules = Arc::new(self.rules.load(&table)?);
                (table, rules)
            }
            None => {
                // The store's table for the rules given (by default Finkel).
                let rules = Arc::new(self.rules.load_alone()?);
                let table = ur_solve::store::open_for(&rules, &RulesRef::of(&rules).to_string()).with_context(|| {
                    format!(
                        "ur {cmd} needs --table FILE, or a table solved into the store for these rules (for example by `ur solve finkel --pieces 2`)"
                    )
                })?;
                (table, rules)
            }
        };
        let oracle = table.oracle(rules.clone())?;
        let state = self.state(&rules)?;
        Ok(Loaded { table, oracle, state })
    }

    /// The position given, or the start with light to move.
    fn state(&self, rules: &Rules) -> Result<State> {
        match &self.position {
            None => Ok(State::start(rules, Side::Light)),
            Some(text) => parse_position(rules, text),
        }
    }
}

/// Reads a position: JSON text, `-` for stdin, or `@FILE`.
fn parse_position(rules: &Rules, arg: &str) -> Result<State> {
    let text = match arg {
        "-" => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).context("cannot read the position from stdin")?;
            s
        }
        a if a.starts_with('@') => {
            std::fs::read_to_string(&a[1..]).with_context(|| format!("cannot read the position file {}", &a[1..]))?
        }
        a => a.to_owned(),
    };
    const SHAPE: &str = r#"{"to_move":"light","light":{"reserve":N,"off":N,"path":[P,...]},"dark":{...}}"#;
    let setup: Setup = serde_json::from_str(&text).map_err(|e| anyhow!("bad position: {e}; a position is shaped {SHAPE}"))?;
    rules.validate(&setup).map_err(|e| anyhow!("illegal position under {}: {e}", rules.id()))
}

fn pct(p: f64) -> String {
    format!("{:.4}%", 100.0 * p)
}

/// The win probability of light, from that of `side`.
fn light(side: Side, p: f64) -> f64 {
    if side == Side::Light {
        p
    } else {
        1.0 - p
    }
}

#[derive(Args, Debug)]
pub struct EvalCmd {
    #[command(flatten)]
    args: TableArgs,
}

impl EvalCmd {
    pub fn run(self) -> Result<()> {
        let Loaded { table, oracle, state } = self.args.load("eval")?;
        let rules = oracle.rules();
        let me = state.to_move();
        let p = oracle.value(&state);
        let winner = state.winner(rules);
        if self.args.json {
            let out = json!({
                "rules": rules.id(), "options": rules.options, "to_move": me, "winner": winner,
                "win": p, "light_win": light(me, p), "dark_win": 1.0 - light(me, p),
            });
            println!("{out}");
            return Ok(());
        }
        println!("{}, table {}", RulesRef::of(rules), table.path.display());
        if let Some(w) = winner {
            println!("{w} has borne off every piece: the game is over");
        }
        println!("{me} (to move) wins with probability {}", pct(p));
        println!("{} wins with probability {}", me.other(), pct(1.0 - p));
        Ok(())
    }
}

#[derive(Args, Debug)]
pub struct HintCmd {
    #[command(flatten)]
    args: TableArgs,
    /// The throw: squares to move.
    #[arg(long, value_name = "V", conflicts_with = "raw", required_unless_present = "raw")]
    roll: Option<u8>,
    /// The throw as the raw dice outcome (marked tips, or the face of a d4/d6).
    #[arg(long, value_name = "R")]
    raw: Option<u8>,
    /// Estimate by an expectiminimax search this many turns deep with the
    /// learned evaluation instead of reading a table (the rules are then
    /// --rules and its options, by default Finkel).
    #[arg(long, value_name = "D", conflicts_with = "table", value_parser = clap::value_parser!(u32).range(1..=6))]
    depth: Option<u32>,
}

/// The throw `--roll V` or `--raw R` name.
fn throw_for(rules: &Rules, value: Option<u8>, raw: Option<u8>) -> Result<Throw> {
    let throws = || rules.throws().map(|(t, _)| format!("{}->{}", t.raw, t.value)).collect::<Vec<_>>().join(", ");
    let raw = match (value, raw) {
        (_, Some(r)) => r,
        (Some(v), None) => rules.raw_for_value(v).map_err(|e| anyhow!("--roll {v}: {e}; throws (raw->value): {}", throws()))?,
        (None, None) => bail!("give the throw with --roll V or --raw R"),
    };
    rules.throw(raw).ok_or_else(|| anyhow!("--raw {raw} cannot be thrown under {}; throws (raw->value): {}", rules.id(), throws()))
}

impl HintCmd {
    /// The judge (a table, or a search with `--depth`), the rules, the
    /// position, and where the values come from in words.
    fn judge(&self) -> Result<(Judge, Arc<Rules>, State, String)> {
        let Some(depth) = self.depth else {
            let Loaded { table, oracle, state } = self.args.load("hint")?;
            let rules = oracle.rules().clone();
            return Ok((Judge::Table(oracle), rules, state, format!("table {}", table.path.display())));
        };
        if let Some((id, family)) = self.args.rules.builtin_id().and_then(|id| Some((id, ur_rules::family_of(id)?))) {
            if family != ur_rules::Family::Race {
                bail!(
                    "ur hint judges race rule sets only; '{id}' is of the {family:?} family (`ur play` and the engine's bestmove play it)"
                );
            }
        }
        let rules = Arc::new(self.args.rules.load_alone()?);
        if rules.named_pieces() {
            bail!("ur hint --depth does not model the turns of named pieces; `ur play` (type hint) and the engine's bestmove do");
        }
        let state = self.args.state(&rules)?;
        Ok((Judge::search(&rules, depth), rules, state, format!("expectimax:{depth} estimates")))
    }

    pub fn run(self) -> Result<()> {
        let (judge, rules, state, source) = self.judge()?;
        let throw = throw_for(&rules, self.roll, self.raw)?;
        let me = state.to_move();
        let before = judge.value(&Game::from_state(rules.clone(), state), me);
        let winner = state.winner(&rules);
        let named = || anyhow!("named pieces");
        let moves = if winner.is_some() { Vec::new() } else { judge.move_values(&state, &throw).ok_or_else(named)? };
        let best = moves.first().map(|m| m.1);
        let win = if winner.is_some() { before } else { judge.throw_value(&state, &throw).ok_or_else(named)? };
        let is_best = |v: f64| best.is_some_and(|b| v >= b - 1e-12);
        // A game in the move phase, for the moves' descriptions.
        let mut game = Game::from_state(rules.clone(), state);
        if game.phase() == Phase::Roll {
            game.roll(throw.raw).map_err(|e| anyhow!("{e}"))?;
        }
        let extra_note = |mv| {
            let mut next = state;
            let effect = rules.apply_unchecked(&mut next, &throw, mv);
            if effect.extra != Extra::Optional || next.winner(&rules).is_some() {
                return "";
            }
            match judge.extra_roll(&next) {
                Some((reroll, end)) if reroll >= end => " (then roll again)",
                Some(_) => " (then end the turn)",
                None => "",
            }
        };
        if self.args.json {
            let list: Vec<_> = moves
                .iter()
                .map(|&(m, v)| json!({"from": m.from, "to": m.to, "win": v, "best": is_best(v), "text": move_text(&game, m)}))
                .collect();
            let out = json!({
                "rules": rules.id(), "options": rules.options, "to_move": me, "winner": winner,
                "raw": throw.raw, "value": throw.value, "win_before_throw": before, "win": win,
                "passed": winner.is_none() && moves.is_empty(), "moves": list,
                "judge": judge.name(), "exact": judge.exact(),
            });
            println!("{out}");
            return Ok(());
        }
        println!("{}, {source}", RulesRef::of(&rules));
        if let Some(w) = winner {
            println!("{w} has borne off every piece: the game is over, there is nothing to move");
            println!("{me} (to move) wins with probability {}", pct(before));
            return Ok(());
        }
        println!("{me} to move, throw {} (raw {}); {me} wins with probability {} before the throw", throw.value, throw.raw, pct(before));
        if moves.is_empty() {
            println!("no legal move: the turn passes; {me} wins with probability {}", pct(win));
            return Ok(());
        }
        match moves.len() {
            1 => println!("1 legal move ({me}'s win probability after it):"),
            n => println!("{n} legal moves, best first ({me}'s win probability after each):"),
        }
        for &(m, v) in &moves {
            let mark = if is_best(v) { "   <- best" } else { "" };
            println!("  {:>9}  {}{}{mark}", pct(v), move_text(&game, m), extra_note(m));
        }
        Ok(())
    }
}
