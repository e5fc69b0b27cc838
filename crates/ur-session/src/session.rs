//! A game in progress: the game of any family, its record, its dice, and
//! the table and bots that give hints, best moves and reviews.
//!
//! Every front end drives a game through [`Session`]: the engine protocol
//! turns JSON into these calls and their results back into JSON, the
//! terminal game turns keys into them, the web server messages.

use std::sync::Arc;

use serde_json::Value;
use ur_bots::hint::{self, Evaluation, Hint, HintError};
use ur_bots::review::{Judge, Review};
use ur_bots::review_any::{review_any, AnyReview, AnyStep};
use ur_bots::rollout::{RolloutConfig, RolloutJudge};
use ur_bots::{make_bot_with_table, BotError, Oracle};
use ur_rules::any_record::ANY_RECORD_VERSION;
use ur_rules::report::{self, Acted, Rolled};
use ur_rules::Options;

pub use crate::records::SavedGame;
use ur_rules::{AnyAction, AnyGame, AnyRecord, Family, PlayError, Playable, RuleSetFile, Rules, SeededDice, Side, SpecError, Step, Turn};

/// Where a new game's rules come from.
#[derive(Clone, Debug, PartialEq)]
pub enum RulesSource {
    /// A built-in rule set, by id.
    Builtin(String),
    /// The text of a rule-set file (race rule sets).
    File(String),
}

/// What a new game is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    pub rules: RulesSource,
    pub options: Options,
    pub first: Side,
}

impl NewGame {
    /// A game of a built-in rule set with its default options, light first.
    pub fn builtin(id: &str) -> NewGame {
        NewGame { rules: RulesSource::Builtin(id.into()), options: Options::new(), first: Side::Light }
    }
}

/// Finds the solved table for a game's rules.
pub trait Tables {
    /// The table's oracle for these rules: none when there is no table,
    /// or why the one there is does not fit.
    fn oracle(&self, rules: &Arc<Rules>) -> Option<Result<Oracle, String>>;
}

/// No tables at all.
pub struct NoTables;

impl Tables for NoTables {
    fn oracle(&self, _: &Arc<Rules>) -> Option<Result<Oracle, String>> {
        None
    }
}

/// Why a session refused a request. The game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Rules(#[from] SpecError),
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error(transparent)]
    Hint(#[from] HintError),
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error("the table cannot be used: {0}")]
    Table(String),
    #[error("no decision to make: the game waits for {0}")]
    NoDecision(&'static str),
    #[error("the record does not replay: {0}")]
    Record(String),
}

/// What a bot would decide now.
#[derive(Clone, Debug, PartialEq)]
pub struct BestMove {
    pub bot: String,
    pub to_move: Side,
    pub action: AnyAction,
}

/// A game in progress with its record, dice, table and judges.
#[derive(Clone)]
pub struct Session {
    game: AnyGame,
    options: Options,
    first: Side,
    /// The text of a custom rule-set file, kept for records.
    rules_text: Option<String>,
    /// The steps of a game beyond the race (race games keep their own).
    steps: Vec<Step>,
    /// The position set by [`Session::set`], where the steps start.
    start: Option<Value>,
    /// The table for these rules, or why the one found does not fit.
    oracle: Option<Result<Oracle, String>>,
    dice: SeededDice,
}

/// Steps (rolls and decisions) after which a game loop gives up with an
/// error: far beyond any real game, so only rules that cannot end reach it.
pub const ACTION_CAP: usize = 1_000_000;

/// The search depth of a hint or review when there is no table.
pub const DEFAULT_DEPTH: u32 = 3;

impl Session {
    /// A new game; `tables` is asked for a table solved for its rules.
    ///
    /// # Errors
    /// An unknown rule set, a bad rule-set file or a bad option.
    pub fn new(new: &NewGame, tables: &dyn Tables) -> Result<Session, SessionError> {
        let (game, rules_text) = match &new.rules {
            RulesSource::Builtin(id) => (AnyGame::new(id, &new.options, new.first)?, None),
            RulesSource::File(text) => {
                let file = RuleSetFile::parse(text)?;
                let rules = Arc::new(Rules::from_file(&file, &new.options)?);
                (report::race_game(rules, new.first), Some(text.clone()))
            }
        };
        let oracle = report::race_rules(&game).and_then(|r| tables.oracle(r));
        let dice = SeededDice::new(0);
        Ok(Session { game, options: new.options.clone(), first: new.first, rules_text, steps: Vec::new(), start: None, oracle, dice })
    }

    /// A game replayed from its record, to go on with it (an unfinished game
    /// is resumed where it stopped).
    ///
    /// # Errors
    /// A record that does not replay.
    pub fn resume(saved: &SavedGame, tables: &dyn Tables) -> Result<Session, SessionError> {
        let record = |e: &dyn std::fmt::Display| SessionError::Record(e.to_string());
        let (game, options, first, rules_text, steps, start) = match saved {
            SavedGame::Race(r) => {
                let game = report::race_resume(r).map_err(|e| match e {
                    ur_rules::RecordError::Winner { recorded, actual } => SessionError::Record(format!(
                        "it says {}, but replaying it gives {}",
                        crate::records::winner_text(recorded),
                        crate::records::winner_text(actual)
                    )),
                    e => record(&e),
                })?;
                (game, r.options.clone(), r.first, r.rules_file.clone(), Vec::new(), None)
            }
            SavedGame::Family(r) => {
                let game = r.replay().map_err(|e| record(&e))?;
                (game, r.options.clone(), r.first, None, r.steps.clone(), r.start.clone())
            }
        };
        let oracle = report::race_rules(&game).and_then(|r| tables.oracle(r));
        let dice = SeededDice::new(0);
        Ok(Session { game, options, first, rules_text, steps, start, oracle, dice })
    }

    /// A new race game under rules already built (from a table's header,
    /// say), light first, with the table's oracle if there is one.
    pub fn with_rules(rules: Arc<Rules>, rules_text: Option<String>, oracle: Option<Oracle>) -> Session {
        let options = rules.options.clone();
        let game = report::race_game(rules, Side::Light);
        let oracle = oracle.map(Ok);
        Session { game, options, first: Side::Light, rules_text, steps: Vec::new(), start: None, oracle, dice: SeededDice::new(0) }
    }

    /// Seeds the dice that [`Session::roll_dice`] throws.
    pub fn seed_dice(&mut self, seed: u64) {
        self.dice = SeededDice::new(seed);
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn first(&self) -> Side {
        self.first
    }

    /// Whether a solved table serves this game (or why the one found does not fit).
    pub fn table(&self) -> Option<Result<&Oracle, &str>> {
        self.oracle.as_ref().map(|o| o.as_ref().map_err(String::as_str))
    }

    /// Looks for a table again when the game has none (one may have been
    /// solved since it began); a table found once is kept.
    pub fn find_table(&mut self, tables: &dyn Tables) {
        if self.oracle.is_none() {
            self.oracle = report::race_rules(&self.game).and_then(|r| tables.oracle(r));
        }
    }

    /// Rolls by raw outcome.
    ///
    /// # Errors
    /// Not a roll turn, or an outcome the dice cannot show.
    pub fn roll(&mut self, raw: u8) -> Result<Rolled, SessionError> {
        let rolled = report::roll(&mut self.game, raw)?;
        self.steps.push(Step::Roll(raw));
        Ok(rolled)
    }

    /// Rolls the throw of a move value (race rule sets).
    ///
    /// # Errors
    /// Not a race game, no throw of that value, or not a roll turn.
    pub fn roll_value(&mut self, value: u8) -> Result<Rolled, SessionError> {
        let raw = report::raw_for_value(&self.game, value)?;
        self.roll(raw)
    }

    /// Throws the session's dice.
    ///
    /// # Errors
    /// Not a roll turn.
    pub fn roll_dice(&mut self) -> Result<Rolled, SessionError> {
        let raw = report::throw(&self.game, &mut self.dice);
        self.roll(raw)
    }

    /// Throws the dice with `rng` (a web server's secure generator), drawing
    /// a raw outcome from the game's own outcome weights.
    ///
    /// # Errors
    /// Not a roll turn.
    pub fn roll_from(&mut self, rng: &mut dyn rand::RngCore) -> Result<Rolled, SessionError> {
        let raw = ur_rules::sample_outcome(&self.game.outcomes(), rng);
        self.roll(raw)
    }

    /// Makes a decision.
    ///
    /// # Errors
    /// Not a decision turn, or a decision not open now.
    pub fn act(&mut self, action: &AnyAction) -> Result<Acted, SessionError> {
        let json = serde_json::to_value(action).map_err(|e| PlayError::BadAction {
            input: action.to_string(),
            rules: self.game.rule_id().into(),
            why: format!("it cannot be recorded: {e}"),
        })?;
        let acted = report::act(&mut self.game, action)?;
        self.steps.push(Step::Act(json));
        Ok(acted)
    }

    /// Sets the game to a position (the family's JSON), at the start of a turn.
    ///
    /// # Errors
    /// JSON that is not a position of this rule set, or a position its rules do not allow.
    pub fn set(&mut self, position: &Value) -> Result<(), SessionError> {
        self.game.set_position(position)?;
        self.steps.clear();
        self.start = Some(self.game.position_json());
        Ok(())
    }

    /// Sets the game to a position string (`ur_rules::position_text`), or to
    /// the position's JSON when `text` starts with `{`. A throw in the string
    /// is the record's first step, so the record replays.
    ///
    /// # Errors
    /// A string that does not read, or a position the rules do not allow.
    pub fn set_text(&mut self, text: &str) -> Result<(), SessionError> {
        if text.trim_start().starts_with('{') {
            let json: Value = serde_json::from_str(text).map_err(|e| PlayError::BadPosition(format!("the JSON does not read: {e}")))?;
            return self.set(&json);
        }
        let parsed = ur_rules::position_text::parse(&self.game, text.trim()).map_err(PlayError::from)?;
        self.set(&parsed.position)?;
        if let Some(raw) = parsed.throw {
            self.roll(raw)?;
        }
        Ok(())
    }

    /// The judge for hints and reviews: the table, or a search `depth` turns deep.
    ///
    /// # Errors
    /// A family without a judge, a table that does not fit, or no table and no depth.
    pub fn judge(&self, depth: Option<u32>) -> Result<Judge, SessionError> {
        let oracle = match (&self.oracle, depth) {
            (Some(Err(e)), None) => return Err(SessionError::Table(e.clone())),
            (Some(Ok(o)), _) => Some(o),
            _ => None,
        };
        Ok(hint::judge(&self.game, oracle, depth)?)
    }

    /// The judge's view of the decision now, or of a throw at the start of a turn.
    ///
    /// # Errors
    /// See [`Session::judge`] and [`hint::hint`].
    pub fn hint(&self, raw: Option<u8>, depth: Option<u32>) -> Result<(Hint, Judge), SessionError> {
        let judge = self.judge(depth)?;
        Ok((hint::hint(&judge, &self.game, raw)?, judge))
    }

    /// The table's value of the game now.
    ///
    /// # Errors
    /// No table, or one that does not fit.
    pub fn evaluate(&self) -> Result<Evaluation, SessionError> {
        match &self.oracle {
            Some(Ok(o)) => Ok(hint::evaluate(o, &self.game)?),
            Some(Err(e)) => Err(SessionError::Table(e.clone())),
            None => Err(HintError::NoTable.into()),
        }
    }

    /// What the named bot would decide now; the game is not changed.
    ///
    /// # Errors
    /// An unknown bot, one that cannot play this game, or no decision to make.
    pub fn bestmove(&self, bot: &str, seed: u64) -> Result<BestMove, SessionError> {
        let to_move = match self.game.turn() {
            Turn::Decide(side) => side,
            Turn::Roll(_) => return Err(SessionError::NoDecision("a roll")),
            Turn::Over(_) => return Err(SessionError::NoDecision("nothing: it is over")),
        };
        let oracle = self.oracle.as_ref().and_then(|o| o.as_ref().ok());
        let mut bot = make_bot_with_table(bot, seed, oracle)?;
        bot.check(&self.game)?;
        let action = bot.decide(&self.game);
        Ok(BestMove { bot: bot.name(), to_move, action })
    }

    /// The game so far judged by the table, or else by a search `depth` turns deep.
    ///
    /// # Errors
    /// A family without a judge, or a table that does not fit.
    pub fn review(&self, depth: Option<u32>) -> Result<(Review, Judge), SessionError> {
        self.review_with(depth, |_| {})
    }

    /// As [`Session::review`], telling `progress` how many actions are done.
    ///
    /// # Errors
    /// As [`Session::review`].
    pub fn review_with(&self, depth: Option<u32>, progress: impl FnMut(usize)) -> Result<(Review, Judge), SessionError> {
        let depth = match (&self.oracle, depth) {
            (Some(Ok(_)), None) => None,
            (_, d) => Some(d.unwrap_or(DEFAULT_DEPTH)),
        };
        let judge = self.judge(depth)?;
        let review = hint::review_game(&judge, &self.game, self.rules_text.clone(), progress)?;
        Ok((review, judge))
    }

    /// The game so far judged by rollouts ([`ur_bots::rollout`]): every
    /// family, the race included; the table and search reviews above stay
    /// the race's. `progress` is told how many steps are done.
    ///
    /// # Errors
    /// A record that does not replay, or no trials.
    pub fn review_any(&self, config: &RolloutConfig, progress: impl FnMut(usize)) -> Result<AnyReview, SessionError> {
        if config.trials == 0 {
            return Err(SessionError::Record("a rollout review needs at least one trial per choice".into()));
        }
        let (start, steps) = self.steps()?;
        let judge = RolloutJudge::new(&start, config.clone());
        review_any(&start, &steps, &judge, progress).map_err(|e| SessionError::Record(e.to_string()))
    }

    /// The game's start and every step since, as actions of its family.
    ///
    /// # Errors
    /// A record that does not replay.
    pub fn steps(&self) -> Result<(AnyGame, Vec<AnyStep>), SessionError> {
        let record = |e: &dyn std::fmt::Display| SessionError::Record(e.to_string());
        match self.record() {
            SavedGame::Race(r) => {
                let start = AnyGame::Race(r.start_game().map_err(|e| record(&e))?);
                let steps = r
                    .actions
                    .iter()
                    .map(|&a| match a {
                        ur_rules::Action::Roll(raw) => AnyStep::Roll(raw),
                        a => AnyStep::Act(AnyAction::Race(a)),
                    })
                    .collect();
                Ok((start, steps))
            }
            SavedGame::Family(r) => {
                let mut game = AnyGame::new(&r.rules, &r.options, r.first)?;
                if let Some(position) = &r.start {
                    game.set_position(position)?;
                }
                let start = game.clone();
                let mut steps = Vec::with_capacity(r.steps.len());
                for step in &r.steps {
                    steps.push(match step {
                        Step::Roll(raw) => {
                            game.roll(*raw)?;
                            AnyStep::Roll(*raw)
                        }
                        Step::Act(json) => {
                            let action = game.action_from_json(json)?;
                            game.apply(&action)?;
                            AnyStep::Act(action)
                        }
                    });
                }
                Ok((start, steps))
            }
        }
    }

    /// The number of decisions and rolls in the record (race games count their actions).
    pub fn record_len(&self) -> usize {
        match self.record() {
            SavedGame::Race(r) => r.actions.len(),
            SavedGame::Family(r) => r.steps.len(),
        }
    }

    /// The record of the game so far.
    pub fn record(&self) -> SavedGame {
        if let Some(r) = report::race_record(&self.game, self.rules_text.clone()) {
            return SavedGame::Race(r);
        }
        let (over, winner) = match self.game.turn() {
            Turn::Over(w) => (true, w),
            _ => (false, None),
        };
        SavedGame::Family(AnyRecord {
            version: ANY_RECORD_VERSION,
            rules: self.game.rule_id().into(),
            family: self.game.family(),
            options: self.options.clone(),
            first: self.first,
            start: self.start.clone(),
            steps: self.steps.clone(),
            over,
            winner,
            tags: Vec::new(),
        })
    }

    /// The family of the game.
    pub fn family(&self) -> Family {
        self.game.family()
    }

    /// Starts the game again from its start (the same rules, position and
    /// first player), its table kept, the dice seeded with `seed`.
    ///
    /// # Errors
    /// The record cannot be replayed from its start (it always can).
    pub fn restart(&mut self, seed: u64) -> Result<(), SessionError> {
        let start = match self.record() {
            SavedGame::Race(mut r) => {
                r.actions.clear();
                r.winner = None;
                SavedGame::Race(r)
            }
            SavedGame::Family(mut r) => {
                r.steps.clear();
                (r.over, r.winner) = (false, None);
                SavedGame::Family(r)
            }
        };
        let fresh = Session::resume(&start, &NoTables)?;
        let oracle = self.oracle.take();
        *self = Session { oracle, dice: SeededDice::new(seed), ..fresh };
        Ok(())
    }

    /// Takes the game back to `side`'s last decision before now: the game as
    /// it stood when `side` last had a decision to make (after the throw
    /// that led to it), everything after it undone. The table, the rules
    /// and the dice stay. Returns how many steps were taken back, or none
    /// (the game unchanged) when `side` has made no decision yet.
    pub fn take_back(&mut self, side: Side) -> Option<usize> {
        let record = self.record();
        let len = self.record_len();
        for n in (0..len).rev() {
            let cut = match &record {
                SavedGame::Race(r) => {
                    let mut r = r.clone();
                    r.actions.truncate(n);
                    r.winner = None;
                    SavedGame::Race(r)
                }
                SavedGame::Family(r) => {
                    let mut r = r.clone();
                    r.steps.truncate(n);
                    (r.over, r.winner) = (false, None);
                    SavedGame::Family(r)
                }
            };
            let Ok(back) = Session::resume(&cut, &NoTables) else { continue };
            if back.game.turn() == Turn::Decide(side) {
                let oracle = self.oracle.take();
                let dice = std::mem::replace(&mut self.dice, SeededDice::new(0));
                *self = Session { oracle, dice, ..back };
                return Some(len - n);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::{family_rule_sets, spec::BUILTIN};

    fn all_ids() -> Vec<String> {
        BUILTIN.iter().map(|(id, _)| id.to_string()).chain(family_rule_sets().into_iter().map(|s| s.id.to_string())).collect()
    }

    /// Plays a game with the session's dice and the first open decision.
    fn play_out(s: &mut Session) {
        for _ in 0..100_000 {
            match s.game().turn() {
                Turn::Over(_) => return,
                Turn::Roll(_) => {
                    s.roll_dice().unwrap();
                }
                Turn::Decide(_) => {
                    let a = s.game().actions()[0].clone();
                    s.act(&a).unwrap();
                }
            }
        }
        panic!("{} did not end", s.game().rule_id());
    }

    #[test]
    fn every_rule_set_plays_to_the_end_and_its_record_replays() {
        assert_eq!(all_ids().len(), 17);
        for id in all_ids() {
            let mut s = Session::new(&NewGame::builtin(&id), &NoTables).unwrap();
            s.seed_dice(5);
            play_out(&mut s);
            match s.record() {
                SavedGame::Race(r) => assert_eq!(Turn::Over(r.replay().unwrap().winner()), s.game().turn(), "{id}"),
                SavedGame::Family(r) => assert_eq!(r.replay().unwrap().position_json(), s.game().position_json(), "{id}"),
            }
        }
    }

    #[test]
    fn a_saved_game_resumes_where_it_stopped() {
        for id in ["finkel", "v1-named-birds", "bens-ur", "ludens-akalandung", "ravensburg-1977"] {
            let mut s = Session::new(&NewGame::builtin(id), &NoTables).unwrap();
            s.seed_dice(9);
            for _ in 0..30 {
                match s.game().turn() {
                    Turn::Over(_) => break,
                    Turn::Roll(_) => drop(s.roll_dice().unwrap()),
                    Turn::Decide(_) => drop(s.act(&s.game().actions()[0].clone()).unwrap()),
                }
            }
            let back = Session::resume(&s.record(), &NoTables).unwrap();
            assert_eq!((back.game().turn(), back.game().position_json()), (s.game().turn(), s.game().position_json()), "{id}");
            assert_eq!(back.record(), s.record(), "{id}");
        }
    }

    #[test]
    fn refusals_leave_the_game_unchanged() {
        let mut s = Session::new(&NewGame::builtin("finkel"), &NoTables).unwrap();
        assert!(s.act(&s.game().actions().first().cloned().unwrap_or(AnyAction::Race(ur_rules::Action::Roll(1)))).is_err());
        assert!(s.roll(9).is_err());
        assert!(matches!(s.bestmove("level2", 1), Err(SessionError::NoDecision(_))));
        s.roll_value(2).unwrap();
        assert_eq!(s.bestmove("greedy", 1).unwrap().to_move, Side::Light);
        assert!(matches!(s.evaluate(), Err(SessionError::Hint(HintError::NoTable))));
        let (hint, judge) = s.hint(None, Some(1)).unwrap();
        assert!(matches!(hint, Hint::Moves { value: 2, .. }) && judge.name() == "net:0");
        assert_eq!(s.record().clone(), s.record());
    }

    /// Plays `n` steps of the first open decision with the session's dice.
    fn play_steps(s: &mut Session, n: usize) {
        for _ in 0..n {
            match s.game().turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => drop(s.roll_dice().unwrap()),
                Turn::Decide(_) => drop(s.act(&s.game().actions()[0].clone()).unwrap()),
            }
        }
    }

    #[test]
    fn take_back_returns_to_the_last_decision_of_the_side() {
        for id in all_ids() {
            let mut s = Session::new(&NewGame::builtin(&id), &NoTables).unwrap();
            s.seed_dice(11);
            assert_eq!(s.take_back(Side::Light), None, "{id}: nothing to take back at the start");
            // Remember the game at each of light's decisions.
            let mut at_light: Vec<(usize, Value)> = Vec::new();
            for _ in 0..60 {
                match s.game().turn() {
                    Turn::Over(_) => break,
                    Turn::Roll(_) => drop(s.roll_dice().unwrap()),
                    Turn::Decide(side) => {
                        if side == Side::Light {
                            at_light.push((s.record_len(), s.game().position_json()));
                        }
                        s.act(&s.game().actions()[0].clone()).unwrap();
                    }
                }
            }
            let Some((len, position)) = at_light.last().cloned() else { continue };
            let now = s.record_len();
            assert_eq!(s.take_back(Side::Light), Some(now - len), "{id}");
            assert_eq!((s.game().turn(), s.game().position_json(), s.record_len()), (Turn::Decide(Side::Light), position, len), "{id}");
            // Again: the decision before that one.
            if let Some((len2, position2)) = at_light.iter().rev().nth(1).cloned() {
                assert_eq!(s.take_back(Side::Light), Some(len - len2), "{id}");
                assert_eq!(s.game().position_json(), position2, "{id}");
            }
            // The game goes on from there, and its record replays.
            play_out(&mut s);
            let back = Session::resume(&s.record(), &NoTables).unwrap();
            assert_eq!(back.game().position_json(), s.game().position_json(), "{id}");
        }
    }

    #[test]
    fn a_game_set_to_a_position_records_where_it_started() {
        for id in all_ids() {
            let mut from = Session::new(&NewGame::builtin(&id), &NoTables).unwrap();
            from.seed_dice(3);
            play_steps(&mut from, 25);
            let Turn::Roll(_) = from.game().turn() else { continue };
            let mut s = Session::new(&NewGame::builtin(&id), &NoTables).unwrap();
            s.set(&from.game().position_json()).unwrap();
            s.seed_dice(4);
            play_steps(&mut s, 12);
            let back = Session::resume(&s.record(), &NoTables).unwrap();
            assert_eq!(back.game().position_json(), s.game().position_json(), "{id}");
        }
    }
}
