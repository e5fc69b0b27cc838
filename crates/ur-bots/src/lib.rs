//! Bots for every rule set: one [`Bot`] trait, and the bots that implement it.
//!
//! | name | plays |
//! |------|-------|
//! | `random` | uniformly at random |
//! | `greedy` | a one-move heuristic |
//! | `expectimax:D`, `expectimax:50ms` | expectiminimax over the dice, `D` turns deep (default 2) or deepening within a time budget; the learned evaluation ([`eval`]) at the leaves |
//! | `mcts:N`, `mcts:100ms` | Monte Carlo tree search with chance nodes, `N` playouts (default 2000) or a time budget |
//! | `net`, `net:N`, `net:50ms` | the move the neural network ([`net`]) values most, or expectiminimax `N` rolls deeper with the network at the leaves |
//! | `perfect` | from a table solved by `ur solve` (see [`Oracle`]) |
//! | `noisy:T[:B]` | one-move lookahead choosing by a soft-max of temperature `T` over win probabilities, and a random decision with probability `B` ([`NoisyBot`]) |
//! | `level1` .. `level5` | difficulty levels, weakest to strongest ([`levels`]) |
//!
//! Bots decide in a game of any rule family ([`AnyGame`]). On race sets they
//! use the race fast paths and the learned evaluation; on the other families
//! (Ben's rules, the tower games, ...) the same names play through
//! [`ur_rules::Playable`] alone ([`generic`]): `random` uniformly, `greedy`
//! and the noisy levels one move ahead by the standing, `expectimax` and
//! `level4`/`level5` by expectiminimax on game clones with the standing at
//! the leaves, `mcts` with capped random playouts. `perfect` is race-only.
//! `generic:NAME` ([`make_generic_bot`]) plays race sets through the generic
//! code too.
//!
//! [`review`] judges recorded games with the same values: every decision
//! against the best choice, every roll's luck (`ur review`, `docs/review.md`).
//!
//! `docs/bots.md` describes them, the evaluation and how it was fitted.

pub mod chance;
pub mod eval;
pub mod expectimax;
pub mod generic;
pub mod hint;
pub mod levels;
pub mod mcts;
pub mod net;
pub mod review;
pub mod review_any;
pub mod rollout;
pub mod selfplay;
pub mod simple;
pub mod train;

use std::path::Path;
use std::sync::Arc;

use ur_rules::{Action, AnyAction, AnyGame, Choice, Dice, Game, Move, Options, Phase, RuleSetFile, Rules, SeededDice, Side, State, Throw};
use ur_solve::{Bellman, Indexer, Table, Values};

pub use eval::{Evaluator, Weights};
pub use expectimax::{ExpectimaxBot, Limit};
pub use levels::NoisyBot;
pub use mcts::{Budget, MctsBot};
pub use simple::{GreedyBot, RandomBot};

/// A player that makes the decisions of a game of any rule family: moves,
/// and choices such as an optional extra roll. Dice are thrown outside the bot.
pub trait Bot: Send {
    /// The bot's name as given on the command line (`random`, `greedy`, ...).
    fn name(&self) -> String;

    /// Picks one of the open actions for the side to decide.
    ///
    /// # Panics
    /// When the game is not waiting for a decision ([`ur_rules::Turn::Decide`]),
    /// or for a game the bot cannot play (see [`Bot::check`]).
    fn decide(&mut self, game: &AnyGame) -> AnyAction;

    /// Whether the bot can play this game (`perfect` plays race sets only).
    ///
    /// # Errors
    /// [`BotError::RaceOnly`] for a bot that cannot play the game's family.
    fn check(&self, game: &AnyGame) -> Result<(), BotError> {
        let _ = game;
        Ok(())
    }

    /// The work of the bot's tree searches so far, for bots that keep count.
    fn stats(&self) -> Option<SearchStats> {
        None
    }
}

/// What a tree-searching bot has done so far (node rates for benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Searches run (decisions with more than one choice).
    pub searches: u64,
    /// Playouts (tree iterations).
    pub playouts: u64,
    /// Tree nodes built (decision and chance nodes).
    pub nodes: u64,
}

/// Asks `bot` to decide in a race game (a convenience for race-only tools
/// and tests; it clones the game).
///
/// # Panics
/// As [`Bot::decide`], or if the bot answers with another family's action.
pub fn decide_race(bot: &mut (impl Bot + ?Sized), game: &Game) -> Action {
    let action = bot.decide(&AnyGame::Race(game.clone()));
    *action.as_race().expect("a race game gets a race action")
}

/// Plays a race game between two bots from the usual start, light first,
/// the dice seeded with `seed`, until it ends or `max_actions` actions
/// (rolls, moves, choices) are played; returns the game with its history.
///
/// # Errors
/// The first action the game refuses, with the bot that chose it.
///
/// # Panics
/// As [`decide_race`].
pub fn play_race(
    rules: &Arc<Rules>,
    light: &mut (impl Bot + ?Sized),
    dark: &mut (impl Bot + ?Sized),
    seed: u64,
    max_actions: usize,
) -> Result<Game, String> {
    let mut game = Game::new(rules.clone(), Side::Light);
    let mut dice = SeededDice::new(seed);
    while game.phase() != Phase::Over && game.history().len() < max_actions {
        let (action, who) = match game.phase() {
            Phase::Roll => (Action::Roll(dice.throw(rules.dice())), "the dice".to_string()),
            _ if game.to_move() == Side::Light => (decide_race(light, &game), light.name()),
            _ => (decide_race(dark, &game), dark.name()),
        };
        game.apply(action).map_err(|e| format!("{who} chose {action} on {}: {e}", rules.id()))?;
    }
    Ok(game)
}

/// The bots [`make_bot_with_table`] knows (`expectimax` and `mcts` also
/// take a depth, playouts or a time budget after a colon).
pub const BOT_NAMES: &[&str] =
    &["random", "greedy", "expectimax", "mcts", "net", "noisy", "perfect", "level1", "level2", "level3", "level4", "level5"];

/// Why a bot cannot be made, or a table cannot serve a rule set.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BotError {
    #[error("unknown bot '{0}'; bots: random, greedy, expectimax[:DEPTH|:MSms], mcts[:PLAYOUTS|:MSms], net[:PLIES|:MSms], noisy:TEMPERATURE[:BLUNDER], perfect, level1..level5")]
    Unknown(String),
    #[error("the perfect bot needs a table solved for these rules, and none was given or found in the table store")]
    NeedsTable,
    #[error("{path} was solved for {table}, not for {given}; use a table solved for these rules, or make one with `{solve}`")]
    WrongRules { path: String, table: String, given: String, solve: String },
    #[error("{path} cannot serve '{rules}': {why}")]
    Unsupported { path: String, rules: String, why: String },
    #[error("no trained network judges '{rules}' positions; train one with `ur train-net --rules {rules}` and pass it with `--net FILE`, or use another bot")]
    NoNetwork { rules: String },
    #[error(
        "the {bot} bot plays race rule sets only, and '{rules}' is not one; use random, greedy, expectimax, mcts, noisy or level1..level5"
    )]
    RaceOnly { bot: String, rules: String },
}

/// The old name of [`BotError`].
pub type UnknownBot = BotError;

/// Builds a bot that needs no table from its name, seeding any randomness it uses.
///
/// # Errors
/// An unknown name, or `perfect` (which needs a table: see [`make_bot_with_table`]).
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    make_bot_with_table(name, seed, None)
}

/// Builds a bot from its name; `perfect` plays from `table`, and `level5`
/// does when the table serves the game's rules; the others ignore it.
///
/// # Errors
/// An unknown name, or `perfect` without a table.
pub fn make_bot_with_table(name: &str, seed: u64, table: Option<&Oracle>) -> Result<Box<dyn Bot>, BotError> {
    match name.strip_prefix("generic:") {
        Some(inner) => make_generic_bot(inner, seed),
        None => build_bot(name, seed, table, false),
    }
}

/// Builds a bot that plays every game, race sets included, through the
/// generic code over [`ur_rules::Playable`] (what the families beyond the
/// race get): for tests and for comparing it with the race bots. The name
/// `generic:NAME` given to [`make_bot_with_table`] does the same.
///
/// # Errors
/// An unknown name, or `perfect` (which needs a race table).
pub fn make_generic_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    if name == "perfect" || name.starts_with("generic:") {
        return Err(BotError::Unknown(format!("generic:{name}")));
    }
    build_bot(name, seed, None, true)
}

fn build_bot(name: &str, seed: u64, table: Option<&Oracle>, generic: bool) -> Result<Box<dyn Bot>, BotError> {
    let unknown = || BotError::Unknown(name.into());
    let (base, arg) = match name.split_once(':') {
        Some((b, a)) => (b, Some(a)),
        None => (name, None),
    };
    match (base, arg) {
        ("random", None) => Ok(Box::new(RandomBot::new(seed).generic(generic))),
        ("greedy", None) => Ok(Box::new(GreedyBot::new(seed).generic(generic))),
        ("perfect", None) => match table {
            Some(oracle) => Ok(Box::new(PerfectBot::new(oracle.clone()))),
            None => Err(BotError::NeedsTable),
        },
        ("expectimax", None) => Ok(Box::new(ExpectimaxBot::new(Limit::Depth(2)).generic(generic))),
        ("expectimax", Some(a)) => Ok(Box::new(ExpectimaxBot::new(Limit::parse(a).ok_or_else(unknown)?).generic(generic))),
        ("mcts", None) => Ok(Box::new(MctsBot::new(Budget::Playouts(mcts::DEFAULT_PLAYOUTS), seed).generic(generic))),
        ("mcts", Some(a)) => Ok(Box::new(MctsBot::new(Budget::parse(a).ok_or_else(unknown)?, seed).generic(generic))),
        ("net", a) if !generic => Ok(Box::new(net::NetBot::parse(a).ok_or_else(unknown)?)),
        ("noisy", Some(a)) => {
            let (t, b) = a.split_once(':').unwrap_or((a, "0"));
            let t = t.parse::<f64>().ok().filter(|t| *t > 0.0 && t.is_finite()).ok_or_else(unknown)?;
            let b = b.parse::<f64>().ok().filter(|b| (0.0..=1.0).contains(b)).ok_or_else(unknown)?;
            Ok(Box::new(NoisyBot::new(name.into(), t, b, seed).generic(generic)))
        }
        (b, None) if b.starts_with("level") => {
            let level = b["level".len()..].parse::<u8>().map_err(|_| unknown())?;
            levels::level_bot_with(level, seed, table, generic).ok_or_else(unknown)
        }
        _ => Err(unknown()),
    }
}

/// A solved table checked against the rules it serves: exact win
/// probabilities for positions, moves and choices under those rules.
///
/// Values are the win probability of a side under perfect play by both
/// sides. Finished positions (a side has borne off every piece) are not in
/// tables; they are worth 1 to the winner and 0 to the loser.
#[derive(Clone)]
pub struct Oracle {
    table: Arc<Table>,
    rules: Arc<Rules>,
    index: Arc<Indexer>,
}

impl Oracle {
    /// Checks that `table` (read from `path`, named in errors) was solved for `rules`.
    ///
    /// # Errors
    /// [`BotError::WrongRules`] for a table solved for other rules (or other
    /// options); [`BotError::Unsupported`] for rules no table can describe.
    pub fn new(table: Arc<Table>, rules: Arc<Rules>, path: &Path) -> Result<Oracle, BotError> {
        if table.check_rules(&rules, path).is_err() {
            return Err(wrong_rules(&table, &rules, path));
        }
        let unsupported = |why: String| BotError::Unsupported { path: path.display().to_string(), rules: rules.id().into(), why };
        let index = Indexer::new(&rules).map_err(|e| unsupported(e.to_string()))?;
        if index.len() != table.header.positions {
            let why = format!("the table has {} positions but the rules have {}; solve again", table.header.positions, index.len());
            return Err(unsupported(why));
        }
        Ok(Oracle { table, rules, index: Arc::new(index) })
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    pub fn index(&self) -> &Arc<Indexer> {
        &self.index
    }

    /// The win probability of the side to move at the start of its turn,
    /// before it rolls: 1 or 0 when a side has borne off every piece.
    pub fn value(&self, st: &State) -> f64 {
        match st.winner(&self.rules) {
            Some(w) => f64::from(u8::from(w == st.to_move())),
            None => self.table.get(self.index.rank(st)),
        }
    }

    /// The mover's win probability if its turn ends here and the opponent moves next.
    pub fn end_turn(&self, st: &State) -> f64 {
        let mut other = *st;
        other.set_to_move(st.to_move().other());
        1.0 - self.value(&other)
    }

    /// An optional extra roll for the side to move: its win probability if it
    /// rolls again, and if it ends the turn.
    pub fn extra_roll(&self, st: &State) -> (f64, f64) {
        (self.value(st), self.end_turn(st))
    }

    /// Every legal move for `throw` with the mover's win probability after it
    /// (an optional extra roll it earns taken or declined, whichever is
    /// better), best first; moves of equal value keep the order of
    /// generation. Empty when the throw allows no move, or the game is over.
    pub fn move_values(&self, st: &State, throw: &Throw) -> Vec<(Move, f64)> {
        if st.winner(&self.rules).is_some() {
            return Vec::new();
        }
        let mut moves = Bellman::new(&self.rules, &self.index).move_values(st, throw, &*self.table);
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        moves
    }

    /// The mover's win probability with this throw: after its best move, or
    /// after the turn passes when the throw allows none.
    pub fn throw_value(&self, st: &State, throw: &Throw) -> f64 {
        if let Some(w) = st.winner(&self.rules) {
            return f64::from(u8::from(w == st.to_move()));
        }
        match self.move_values(st, throw).first() {
            Some(&(_, v)) => v,
            None => self.end_turn(st),
        }
    }

    /// The win probability of the side to act in a game, at its current
    /// decision: before the throw at the start of a turn, after the best
    /// move for the current throw, after the better of rerolling and
    /// ending. `None` once the game is over.
    pub fn game_value(&self, game: &Game) -> Option<f64> {
        let st = game.state();
        match game.phase() {
            Phase::Over => None,
            Phase::Roll | Phase::Declare => Some(self.value(st)),
            Phase::Move => Some(match game.throw() {
                Some(t) => self.throw_value(st, &t),
                None => self.value(st),
            }),
            Phase::ExtraRoll => {
                let (reroll, end) = self.extra_roll(st);
                Some(reroll.max(end))
            }
        }
    }
}

/// A readable account of why a table does not fit the rules.
fn wrong_rules(table: &Table, rules: &Rules, path: &Path) -> BotError {
    let h = &table.header;
    let (table_text, given_text) = if h.rules_id != rules.id() {
        (rules_text(&h.rules_id, &h.options), rules_text(rules.id(), &rules.options))
    } else {
        let differ = |a: &Options, b: &Options| -> String {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            let items: Vec<String> = keys
                .into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .map(|k| format!("{k}={}", a.get(k).map_or("(none)".into(), ToString::to_string)))
                .collect();
            items.join(", ")
        };
        let t = differ(&h.options, &rules.options);
        if t.is_empty() {
            (
                format!("'{}' as it was when the table was made (fingerprint {})", h.rules_id, h.fingerprint),
                format!("'{}' as it is now (fingerprint {})", rules.id(), ur_solve::table::fingerprint(rules)),
            )
        } else {
            (format!("'{}' with {t}", h.rules_id), format!("'{}' with {}", rules.id(), differ(&rules.options, &h.options)))
        }
    };
    BotError::WrongRules { path: path.display().to_string(), table: table_text, given: given_text, solve: solve_command(rules) }
}

fn rules_text(id: &str, options: &Options) -> String {
    let items: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if items.is_empty() {
        format!("'{id}'")
    } else {
        format!("'{id}' ({})", items.join(", "))
    }
}

/// The `ur solve` command line for these rules.
fn solve_command(rules: &Rules) -> String {
    let Ok(file) = RuleSetFile::builtin(rules.id()) else {
        return "ur solve --rules-file FILE --out TABLE".into();
    };
    let defaults = file.full_options(&Options::new()).unwrap_or_default();
    let mut cmd = format!("ur solve {}", rules.id());
    for (k, v) in &rules.options {
        if defaults.get(k) == Some(v) && k != "pieces" {
            continue;
        }
        if k == "pieces" {
            cmd += &format!(" --pieces {v}");
        } else {
            cmd += &format!(" --option {k}={v}");
        }
    }
    cmd + " --out TABLE"
}

/// Plays perfectly from a solved table: the move with the highest win
/// probability (the first listed among equals), and an optional extra roll
/// exactly when rolling again is worth at least as much as ending the turn.
pub struct PerfectBot {
    oracle: Oracle,
    /// The address of the last rules checked against the table.
    checked: usize,
}

impl PerfectBot {
    pub fn new(oracle: Oracle) -> Self {
        let checked = Arc::as_ptr(&oracle.rules) as usize;
        PerfectBot { oracle, checked }
    }

    /// Panics with a clear message rather than reading the table out of bounds.
    fn check_rules(&mut self, rules: &Arc<Rules>) {
        let addr = Arc::as_ptr(rules) as usize;
        if addr == self.checked {
            return;
        }
        let fp = ur_solve::table::fingerprint(rules);
        assert!(
            fp == self.oracle.table.header.fingerprint,
            "the perfect bot's table was solved for '{}', but the game is '{}' with other rules",
            self.oracle.table.header.rules_id,
            rules.id()
        );
        self.checked = addr;
    }
}

impl Bot for PerfectBot {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn decide(&mut self, game: &AnyGame) -> AnyAction {
        let Some(game) = game.as_race() else {
            panic!("{}", BotError::RaceOnly { bot: "perfect".into(), rules: ur_rules::Playable::rule_id(game).into() })
        };
        AnyAction::Race(self.decide_race(game))
    }

    fn check(&self, game: &AnyGame) -> Result<(), BotError> {
        match game.as_race() {
            Some(_) => Ok(()),
            None => Err(BotError::RaceOnly { bot: "perfect".into(), rules: ur_rules::Playable::rule_id(game).into() }),
        }
    }
}

impl PerfectBot {
    /// The best decision in a race game.
    ///
    /// # Panics
    /// When the table was solved for other rules.
    pub fn decide_race(&mut self, game: &Game) -> Action {
        self.check_rules(game.rules());
        let st = game.state();
        match game.phase() {
            Phase::Move => {
                let throw = game.throw().expect("a throw is set in the move phase");
                let bellman = Bellman::new(&self.oracle.rules, &self.oracle.index);
                let mut best: Option<(Move, f64)> = None;
                for &m in game.legal_moves() {
                    let v = bellman.after_move(st, &throw, m, &*self.oracle.table);
                    if best.is_none_or(|(_, b)| v > b) {
                        best = Some((m, v));
                    }
                }
                Action::Move(best.expect("legal moves exist in the move phase").0)
            }
            Phase::ExtraRoll => {
                let (reroll, end) = self.oracle.extra_roll(st);
                Action::Choose(if reroll >= end { Choice::Reroll } else { Choice::End })
            }
            Phase::Declare => Action::Choose(game.choices()[0]),
            p => panic!("bot asked to decide in phase {p:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::{OptionValue, SeededDice, Side};
    use ur_solve::{solve, Encoding, Silent, SolveConfig};

    fn rules(id: &str, pieces: i64) -> Arc<Rules> {
        let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
        Arc::new(Rules::builtin_with(id, &opts).unwrap())
    }

    /// A table for `rules`, written to and read back from a temporary file.
    fn table(rules: &Rules, dir: &Path) -> (Arc<Table>, std::path::PathBuf) {
        let index = Indexer::new(rules).unwrap();
        let sol = solve(rules, &index, &SolveConfig::default(), &Silent).unwrap();
        let path = dir.join(format!("{}-{}.urt", rules.id(), rules.pieces()));
        ur_solve::table::write_table(&path, rules, &index, &sol.values, Encoding::F64, sol.residual, 1e-12).unwrap();
        (Arc::new(Table::open(&path).unwrap()), path)
    }

    #[test]
    fn perfect_needs_a_table_and_names_are_checked() {
        assert_eq!(make_bot("perfect", 1).err(), Some(BotError::NeedsTable));
        assert!(!BotError::NeedsTable.to_string().contains("--"), "library errors name no command-line flag");
        let e = make_bot("wizard", 1).err().unwrap();
        assert!(e.to_string().starts_with("unknown bot 'wizard'; bots: random, greedy, expectimax"), "{e}");
        for name in ["random", "greedy", "expectimax:3", "expectimax:20ms", "mcts:500", "mcts:100ms", "level1", "level5"] {
            assert_eq!(make_bot(name, 1).unwrap().name(), name);
        }
        assert_eq!(make_bot("expectimax", 1).unwrap().name(), "expectimax:2");
        assert_eq!(make_bot("mcts", 1).unwrap().name(), "mcts:2000");
        for bad in ["expectimax:0", "expectimax:x", "mcts:0", "level0", "level6", "random:2", "levelx"] {
            assert_eq!(make_bot(bad, 1).err(), Some(BotError::Unknown(bad.into())), "{bad}");
        }
    }

    #[test]
    fn a_table_serves_only_its_own_rules() {
        let dir = tempfile::tempdir().unwrap();
        let (t, path) = table(&rules("finkel", 1), dir.path());
        let e = Oracle::new(t.clone(), rules("finkel", 2), &path).err().unwrap();
        let text = e.to_string();
        assert!(text.contains("'finkel' with pieces=1") && text.contains("'finkel' with pieces=2"), "{text}");
        assert!(text.contains("ur solve finkel --pieces 2 --out TABLE"), "{text}");
        let text = Oracle::new(t.clone(), rules("masters", 1), &path).err().unwrap().to_string();
        assert!(text.contains("'finkel'") && text.contains("'masters'"), "{text}");
        let oracle = Oracle::new(t, rules("finkel", 1), &path).unwrap();
        assert_eq!(make_bot_with_table("perfect", 0, Some(&oracle)).unwrap().name(), "perfect");
    }

    #[test]
    fn perfect_plays_the_best_move_and_beats_random() {
        let dir = tempfile::tempdir().unwrap();
        let r = rules("finkel", 2);
        let (t, path) = table(&r, dir.path());
        let oracle = Oracle::new(t, r.clone(), &path).unwrap();
        let start = State::start(&r, Side::Light);
        assert!((oracle.value(&start) - 0.518578).abs() < 2e-5, "{}", oracle.value(&start));
        let mut perfect = make_bot_with_table("perfect", 0, Some(&oracle)).unwrap();
        let mut random = make_bot("random", 7).unwrap();
        let mut dice = SeededDice::new(3);
        let mut wins = 0;
        let games = 400;
        for g in 0..games {
            let perfect_side = if g % 2 == 0 { Side::Light } else { Side::Dark };
            let mut game = Game::new(r.clone(), Side::Light);
            while game.phase() != Phase::Over {
                if game.phase() == Phase::Roll {
                    game.roll(ur_rules::Dice::throw(&mut dice, r.dice())).unwrap();
                    continue;
                }
                let action = if game.to_move() == perfect_side {
                    let action = decide_race(&mut *perfect, &game);
                    if let (Action::Move(m), Some(t)) = (action, game.throw()) {
                        let best = oracle.move_values(game.state(), &t);
                        assert!(best.iter().all(|&(_, v)| v <= best[0].1));
                        assert_eq!(best.iter().find(|x| x.0 == m).unwrap().1, best[0].1);
                        assert_eq!(oracle.game_value(&game), Some(best[0].1));
                    }
                    action
                } else {
                    decide_race(&mut *random, &game)
                };
                game.apply(action).unwrap();
            }
            wins += usize::from(game.winner() == Some(perfect_side));
        }
        // About 74% with two pieces, where luck weighs much.
        assert!(wins * 100 > games * 65, "perfect won {wins} of {games} against random");
    }

    #[test]
    fn finished_positions_are_worth_one_or_zero() {
        let dir = tempfile::tempdir().unwrap();
        let r = rules("finkel", 1);
        let (t, path) = table(&r, dir.path());
        let oracle = Oracle::new(t, r.clone(), &path).unwrap();
        let setup = |to_move: &str| {
            let side = |off| ur_rules::SideSetup { reserve: 1 - off, off, path: vec![], birds: None };
            ur_rules::Setup { to_move: Side::parse(to_move).unwrap(), light: side(1), dark: side(0) }
        };
        let won = r.validate(&setup("light")).unwrap();
        assert_eq!(oracle.value(&won), 1.0);
        let lost = r.validate(&setup("dark")).unwrap();
        assert_eq!(oracle.value(&lost), 0.0);
        assert_eq!((oracle.end_turn(&lost), oracle.end_turn(&won)), (0.0, 1.0));
        let throw = r.throws().next().unwrap().0;
        assert!(oracle.move_values(&won, &throw).is_empty());
        assert_eq!(oracle.throw_value(&lost, &throw), 0.0);
    }
}
