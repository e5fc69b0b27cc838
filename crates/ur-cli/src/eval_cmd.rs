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
use serde_json::{json, Value};
use ur_bots::hint::{Hint, HintError};
use ur_bots::review::Judge;
use ur_cli::outln;
use ur_rules::report::{raw_for_value, RACE_POSITION};
use ur_rules::{Playable, Rules, Turn};
pub use ur_session::tables::{LoadedTable, TableOracle};
use ur_session::{RulesChoice, RulesRef, Session, SessionError};

/// Refuses a rule set beyond the race for a command that needs a solved
/// table (tables are for race sets only).
///
/// # Errors
/// The rule set is of another family.
pub fn race_only(id: &str, cmd: &str) -> Result<()> {
    match ur_rules::family_of(id) {
        Some(f) if f != ur_rules::Family::Race => {
            bail!(
                "{cmd} needs a solved table, and full tables exist for race rule sets only; '{id}' is of the {} family \
                 (`ur play --rules {id}` plays it, `ur review` judges its games, and `ur solve {id} --option ... --out FILE` \
                 solves a small variant that `ur regret --table FILE` measures bots with)",
                ur_rules::narrate::family_name(f)
            )
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

    /// Refuses rules or options given beside a table of a small variant,
    /// which fixes both.
    ///
    /// # Errors
    /// Another rule set, a rule-set file, or options.
    pub fn check_fixed(&self, table_rules: &str) -> Result<()> {
        if self.rules_file.is_some() || self.rules.as_deref().is_some_and(|r| r != table_rules) {
            anyhow::bail!("the table is of {table_rules}; leave out --rules and --rules-file, or give a table of those rules");
        }
        if self.pieces.is_some() || !self.options.is_empty() {
            anyhow::bail!("a table of a small variant fixes its options (`ur solve` chose them); leave out --pieces and --option");
        }
        Ok(())
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
    /// The position: a position string such as `l:469.1,2d` (docs/positions.md; a throw `/N` at its end
    /// is `ur hint`'s throw), or JSON, `{"to_move":"light","light":{"reserve":N,"off":N,"path":[P,...]},"dark":{...}}`
    /// (`-` reads it from stdin, `@FILE` from a file); default: the start position, light to move.
    #[arg(value_name = "POSITION")]
    position: Option<String>,
}

/// What `TableArgs` name, loaded and checked: a game at the position
/// given, with its table, and where the table is.
struct Loaded {
    session: Session,
    table: PathBuf,
    /// The throw a position string ends with (`/N`): the session is at the roll before it.
    throw: Option<u8>,
}

impl TableArgs {
    fn load(&self, cmd: &str) -> Result<Loaded> {
        if let Some(id) = self.rules.builtin_id() {
            race_only(id, &format!("ur {cmd}"))?;
        }
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
        let (session, throw) = self.at_position(Session::with_rules(rules, None, Some(oracle)))?;
        Ok(Loaded { session, table: table.path, throw })
    }

    /// The session set to the position given (by default the start, light
    /// to move), at the roll, with the throw a position string ends with.
    fn at_position(&self, mut session: Session) -> Result<(Session, Option<u8>)> {
        let Some(arg) = &self.position else { return Ok((session, None)) };
        let text = read_arg(arg)?;
        let text = text.trim();
        if !text.starts_with('{') {
            let parsed = ur_rules::position_text::parse(session.game(), text)
                .map_err(|e| anyhow!("{e}; a position is a position string (docs/positions.md) or JSON shaped {RACE_POSITION}"))?;
            session.set(&parsed.position)?;
            return Ok((session, parsed.throw));
        }
        let json: Value = serde_json::from_str(text).map_err(|e| anyhow!("bad position: {e}; a position is shaped {RACE_POSITION}"))?;
        session
            .set(&json)
            .map_err(|e| anyhow!("illegal position under {}: {e}; a position is shaped {RACE_POSITION}", session.game().rule_id()))?;
        Ok((session, None))
    }
}

/// The text of an argument: itself, `-` for stdin, or `@FILE`.
fn read_arg(arg: &str) -> Result<String> {
    Ok(match arg {
        "-" => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).context("cannot read the position from stdin")?;
            s
        }
        a if a.starts_with('@') => {
            std::fs::read_to_string(&a[1..]).with_context(|| format!("cannot read the position file {}", &a[1..]))?
        }
        a => a.to_owned(),
    })
}

fn pct(p: f64) -> String {
    format!("{:.4}%", 100.0 * p)
}

#[derive(Args, Debug)]
pub struct EvalCmd {
    #[command(flatten)]
    args: TableArgs,
}

impl EvalCmd {
    pub fn run(self) -> Result<()> {
        let Loaded { session, table, throw } = self.args.load("eval")?;
        let e = session.evaluate()?;
        // A finished game: the loser is the side to move, with nothing to win.
        let (me, p) = match (e.to_move, e.win, e.winner) {
            (Some(me), Some(p), _) => (me, p),
            (_, _, Some(w)) => (w.other(), 0.0),
            _ => bail!("the table gives no value for this position"),
        };
        if self.args.json {
            let out = json!({
                "rules": session.game().rule_id(), "options": session.options(), "to_move": me, "winner": e.winner,
                "win": p, "light_win": e.light_win, "dark_win": e.dark_win,
            });
            outln!("{out}")?;
            return Ok(());
        }
        outln!("{}, table {}", RulesRef::new(session.game().rule_id(), session.options().clone()), table.display())?;
        if let Some(w) = e.winner {
            outln!("{w} has borne off every piece: the game is over")?;
        }
        outln!("{me} (to move) wins with probability {}", pct(p))?;
        outln!("{} wins with probability {}", me.other(), pct(1.0 - p))?;
        if let Some(raw) = throw {
            outln!("(these are before the throw; `ur hint` judges the moves of throw {raw})")?;
        }
        Ok(())
    }
}

#[derive(Args, Debug)]
pub struct HintCmd {
    #[command(flatten)]
    args: TableArgs,
    /// The throw: squares to move.
    /// Not needed when the position string ends with the throw (`/N`).
    #[arg(long, value_name = "V", conflicts_with = "raw")]
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

impl HintCmd {
    /// The game at the position given and its judge (a table, or a search
    /// with `--depth`), the rules, and where the values come from in words.
    fn judge(&self) -> Result<(Session, Judge, String, Option<u8>)> {
        let Some(depth) = self.depth else {
            let Loaded { session, table, throw } = self.args.load("hint")?;
            let judge = session.judge(None)?;
            return Ok((session, judge, format!("table {}", table.display()), throw));
        };
        if let Some((id, family)) = self.args.rules.builtin_id().and_then(|id| Some((id, ur_rules::family_of(id)?))) {
            if family != ur_rules::Family::Race {
                bail!(
                    "ur hint judges race rule sets only; '{id}' is of the {family:?} family (`ur play` and the engine's bestmove play it)"
                );
            }
        }
        let rules = Arc::new(self.args.rules.load_alone()?);
        let (session, throw) = self.args.at_position(Session::with_rules(rules, None, None))?;
        let judge = session.judge(Some(depth))?;
        Ok((session, judge, format!("expectimax:{depth} estimates"), throw))
    }

    /// The raw outcome `--roll V` or `--raw R` name, else the position string's throw.
    fn raw(&self, session: &Session, throw: Option<u8>) -> Result<u8> {
        let given = match (self.roll, self.raw) {
            (_, Some(r)) => r,
            (Some(v), None) => raw_for_value(session.game(), v).map_err(|e| anyhow!("--roll {v}: {e}"))?,
            (None, None) => {
                return throw.ok_or_else(|| anyhow!("give the throw with --roll V or --raw R, or end the position string with /R"))
            }
        };
        match throw {
            Some(t) if t != given => bail!("the position string's throw is raw {t}, but the throw given is raw {given}: give one"),
            _ => Ok(given),
        }
    }

    pub fn run(self) -> Result<()> {
        let (session, judge, source, throw) = self.judge()?;
        let game = session.game();
        let rules = RulesRef::new(game.rule_id(), session.options().clone());
        let raw = self.raw(&session, throw)?;
        if let Turn::Over(Some(w)) = game.turn() {
            if self.args.json {
                let out = json!({"rules": game.rule_id(), "options": session.options(), "to_move": w.other(), "winner": w,
                    "win": 0.0, "win_before_throw": 0.0, "passed": false, "moves": [], "judge": judge.name(), "exact": judge.exact()});
                outln!("{out}")?;
                return Ok(());
            }
            outln!("{rules}, {source}")?;
            outln!("{w} has borne off every piece: the game is over, there is nothing to move")?;
            outln!("{} (to move) wins with probability {}", w.other(), pct(0.0))?;
            return Ok(());
        }
        let hint = match session.hint(Some(raw), self.depth) {
            Err(SessionError::Hint(e @ HintError::BadThrow { .. })) => bail!("--raw {raw}: {e}"),
            other => other?.0,
        };
        let Hint::Moves { to_move: me, raw, value, moves, win, before } = hint else {
            bail!("a hint for a throw lists moves");
        };
        if self.args.json {
            let list: Vec<_> =
                moves.iter().map(|m| json!({"from": m.mv.from, "to": m.mv.to, "win": m.win, "best": m.best, "text": m.text})).collect();
            let out = json!({
                "rules": game.rule_id(), "options": session.options(), "to_move": me, "winner": null,
                "raw": raw, "value": value, "win_before_throw": before, "win": win,
                "passed": moves.is_empty(), "moves": list,
                "judge": judge.name(), "exact": judge.exact(),
            });
            outln!("{out}")?;
            return Ok(());
        }
        outln!("{rules}, {source}")?;
        outln!("{me} to move, throw {value} (raw {raw}); {me} wins with probability {} before the throw", pct(before))?;
        if moves.is_empty() {
            outln!("no legal move: the turn passes; {me} wins with probability {}", pct(win))?;
            return Ok(());
        }
        match moves.len() {
            1 => outln!("1 legal move ({me}'s win probability after it):")?,
            n => outln!("{n} legal moves, best first ({me}'s win probability after each):")?,
        }
        for m in &moves {
            let mark = if m.best { "   <- best" } else { "" };
            let then = match m.reroll {
                Some(true) => " (then roll again)",
                Some(false) => " (then end the turn)",
                None => "",
            };
            outln!("  {:>9}  {}{then}{mark}", pct(m.win), m.text)?;
        }
        Ok(())
    }
}
