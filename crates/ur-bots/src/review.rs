//! Game review: every decision of a recorded game judged against the best
//! choice, and every roll's luck, as GNU Backgammon analyses a match.
//!
//! A [`Judge`] gives win probabilities: exact ones from a solved table, or
//! estimates from an expectiminimax search with the learned evaluation. A
//! decision's loss is the best choice's value minus the chosen one's; a
//! roll's luck is the roller's value after the roll (best play assumed)
//! minus its value before, so luck averages zero over the dice.

use std::sync::Arc;

use serde::Serialize;
use ur_rules::{Action, Choice, Game, GameError, GameRecord, Move, Phase, RecordError, Rules, Side, State, Throw};

use crate::expectimax::{Context, GameSearch, LeafValue, Search};
use crate::Oracle;

/// Where a judge's win probabilities come from.
pub enum Judge {
    /// A solved table: exact values.
    Table(Oracle),
    /// Expectiminimax with the learned evaluation, `depth` turns deep.
    Search { ctx: Box<SearchContext>, depth: u32 },
}

/// The search's view of the rules (opaque): its context and what it reads
/// at the leaves (the network where one serves the rules, else the linear
/// evaluation).
pub struct SearchContext(Context, Leaf);

/// A search's leaf evaluation.
pub(crate) enum Leaf {
    Linear(Box<crate::Evaluator>),
    Net(Box<crate::net::RaceNet>),
}

impl LeafValue for Leaf {
    #[inline]
    fn value(&self, st: &State) -> f64 {
        match self {
            Leaf::Linear(e) => e.value(st),
            Leaf::Net(n) => n.value(st),
        }
    }
}

impl SearchContext {
    fn new(rules: &Arc<Rules>) -> SearchContext {
        let ctx = Context::new(rules);
        let leaf = match crate::net::builtin(rules) {
            Some(file) => Leaf::Net(Box::new(crate::net::RaceNet::new(rules, &file))),
            None => Leaf::Linear(Box::new(ctx.eval.clone())),
        };
        SearchContext(ctx, leaf)
    }

    fn search(&self) -> Search<'_, Leaf> {
        Search::new(&self.0.rules, &self.1, &self.0.throws)
    }
}

impl Judge {
    /// A judge that searches `depth` turns (at least 1) with the learned evaluation.
    ///
    /// # Panics
    /// If `depth` is 0.
    pub fn search(rules: &Arc<Rules>, depth: u32) -> Judge {
        assert!(depth >= 1, "a search judge looks at least one turn ahead");
        Judge::Search { ctx: Box::new(SearchContext::new(rules)), depth }
    }

    /// How the values are made, for reports: `table` or `expectimax:D`.
    pub fn name(&self) -> String {
        match self {
            Judge::Table(_) => "table".into(),
            Judge::Search { ctx, depth } => match ctx.1 {
                Leaf::Net(_) => format!("net:{}", depth - 1),
                Leaf::Linear(_) => format!("expectimax:{depth}"),
            },
        }
    }

    /// Whether the values are exact.
    pub fn exact(&self) -> bool {
        matches!(self, Judge::Table(_))
    }

    /// The win probability of `side` at this point of the game.
    pub fn value(&self, game: &Game, side: Side) -> f64 {
        if game.phase() == Phase::Over {
            return match game.winner() {
                Some(w) => f64::from(u8::from(w == side)),
                None => 0.5,
            };
        }
        let v = match self {
            Judge::Table(oracle) => oracle.game_value(game).unwrap_or(0.5),
            Judge::Search { ctx, depth } => search_value(ctx, game, *depth),
        };
        if game.to_move() == side {
            v
        } else {
            1.0 - v
        }
    }

    /// The roller's win probability before a roll and after it, `game`
    /// waiting for the roll and `raw` an outcome the dice can show. Both come
    /// from one search, so that luck averages zero over the dice with
    /// estimates too.
    pub fn roll(&self, game: &Game, raw: u8) -> (f64, f64) {
        let side = game.to_move();
        match self {
            Judge::Table(_) => {
                let mut after = game.clone();
                let _ = after.roll(raw);
                (self.value(game, side), self.value(&after, side))
            }
            Judge::Search { ctx, depth } => search_roll(ctx, game, raw, *depth),
        }
    }

    /// Every legal move for `throw` in `st` with the mover's win probability
    /// after it, best first. `None` for a search on rules with named pieces,
    /// whose turns only [`Game`] models.
    pub fn move_values(&self, st: &State, throw: &Throw) -> Option<Vec<(Move, f64)>> {
        let mut values = match self {
            Judge::Table(oracle) => oracle.move_values(st, throw),
            Judge::Search { ctx, depth } => {
                if ctx.0.rules.named_pieces() {
                    return None;
                }
                let mut search = ctx.search();
                ctx.0.rules.legal_moves(st, throw).iter().map(|&m| (m, search.after(st, throw, m, depth - 1, 0.0, 1.0))).collect()
            }
        };
        values.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(values)
    }

    /// The mover's win probability with `throw` in `st`: after its best
    /// move, or after the turn passes. `None` as for [`Judge::move_values`].
    pub fn throw_value(&self, st: &State, throw: &Throw) -> Option<f64> {
        match self {
            Judge::Table(oracle) => Some(oracle.throw_value(st, throw)),
            Judge::Search { ctx, depth } => {
                let mut search = ctx.search();
                (!ctx.0.rules.named_pieces()).then(|| search.throw_value(st, throw, *depth, 0.0, 1.0))
            }
        }
    }

    /// An optional extra roll in `st`: the mover's win probability if it
    /// rolls again, and if it ends the turn. `None` as for [`Judge::move_values`].
    pub fn extra_roll(&self, st: &State) -> Option<(f64, f64)> {
        match self {
            Judge::Table(oracle) => Some(oracle.extra_roll(st)),
            Judge::Search { ctx, depth } => {
                if ctx.0.rules.named_pieces() {
                    return None;
                }
                let mut search = ctx.search();
                let mut other = *st;
                other.set_to_move(st.to_move().other());
                Some((search.chance(st, depth - 1, 0.0, 1.0), 1.0 - search.chance(&other, depth - 1, 0.0, 1.0)))
            }
        }
    }

    /// Every action open at a decision with the mover's win probability
    /// after it, best first (ties in the order the rules list them).
    pub fn action_values(&self, game: &Game) -> Vec<(Action, f64)> {
        if let Judge::Search { ctx, depth } = self {
            if game.rules().named_pieces() {
                let mut values = GameSearch { eval: &ctx.0.eval }.action_values(game, *depth);
                values.sort_by(|a, b| b.1.total_cmp(&a.1));
                return values;
            }
        }
        let st = game.state();
        match (game.phase(), game.throw()) {
            (Phase::Move, Some(throw)) => {
                let moves = self.move_values(st, &throw).expect("rules without named pieces");
                moves.into_iter().map(|(m, v)| (Action::Move(m), v)).collect()
            }
            (Phase::ExtraRoll, _) => {
                let (reroll, end) = self.extra_roll(st).expect("rules without named pieces");
                let mut values = vec![(Action::Choose(Choice::Reroll), reroll), (Action::Choose(Choice::End), end)];
                values.sort_by(|a, b| b.1.total_cmp(&a.1));
                values
            }
            _ => Vec::new(),
        }
    }
}

/// The mover's value by search; depth is spent as [`crate::ExpectimaxBot`] spends it.
fn search_value(sc: &SearchContext, game: &Game, depth: u32) -> f64 {
    if game.rules().named_pieces() {
        return GameSearch { eval: &sc.0.eval }.value(&game.without_history(), depth, game.to_move());
    }
    let st = game.state();
    let mut search = sc.search();
    match game.phase() {
        Phase::Roll => search.chance(st, depth, 0.0, 1.0),
        Phase::Move => {
            let throw = game.throw().expect("a throw is set in the move phase");
            search.throw_value(st, &throw, depth, 0.0, 1.0)
        }
        Phase::ExtraRoll => search.extra_roll(st, depth - 1, 0.0, 1.0).0,
        Phase::Declare | Phase::Over => sc.1.value(st),
    }
}

fn search_roll(sc: &SearchContext, game: &Game, raw: u8, depth: u32) -> (f64, f64) {
    let me = game.to_move();
    if game.rules().named_pieces() {
        let game = game.without_history();
        let search = GameSearch { eval: &sc.0.eval };
        let mut child = game.clone();
        let _ = child.roll(raw);
        return (search.value(&game, depth, me), search.next(&child, &game, depth, me));
    }
    let st = game.state();
    let mut search = sc.search();
    let before = search.chance(st, depth, 0.0, 1.0);
    let after = match sc.0.rules.throw(raw) {
        Some(t) => search.throw_value(st, &t, depth, 0.0, 1.0),
        None => before,
    };
    (before, after)
}

/// How bad a choice was, by its loss of win probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A best choice.
    Best,
    /// Less than [`INACCURACY`] lost.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// Losses (in win probability) from which a choice is an inaccuracy, a
/// mistake, a blunder: 1, 3 and 8 percentage points.
pub const INACCURACY: f64 = 0.01;
pub const MISTAKE: f64 = 0.03;
pub const BLUNDER: f64 = 0.08;
/// Losses below this are rounding, not a worse choice.
const TIE: f64 = 1e-9;

impl Verdict {
    pub fn of(loss: f64) -> Verdict {
        match loss {
            l if l <= TIE => Verdict::Best,
            l if l < INACCURACY => Verdict::Good,
            l if l < MISTAKE => Verdict::Inaccuracy,
            l if l < BLUNDER => Verdict::Mistake,
            _ => Verdict::Blunder,
        }
    }

    /// The annotation mark: `?!`, `?`, `??`, or nothing.
    pub fn mark(self) -> &'static str {
        match self {
            Verdict::Best | Verdict::Good => "",
            Verdict::Inaccuracy => "?!",
            Verdict::Mistake => "?",
            Verdict::Blunder => "??",
        }
    }
}

/// One judged step of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Note {
    /// The step's place in the record's actions (0 for the first).
    pub action: usize,
    /// Turns counted from 1; a turn is one side's run of steps.
    pub turn: u32,
    pub side: Side,
    #[serde(flatten)]
    pub kind: NoteKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NoteKind {
    /// A roll and how much it changed the roller's win probability.
    Roll { raw: u8, before: f64, after: f64, luck: f64 },
    /// A choice among two or more actions.
    Decision { played: Action, played_value: f64, best: Action, best_value: f64, choices: usize, loss: f64, verdict: Verdict },
}

/// One side's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Decisions with two or more choices.
    pub decisions: u32,
    pub best: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Win probability lost by all decisions together.
    pub total_loss: f64,
    pub rolls: u32,
    /// The rolls' luck summed (positive: the dice helped).
    pub luck: f64,
}

impl SideSummary {
    /// Mean loss per decision (0 with no decision).
    pub fn mean_loss(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.total_loss / f64::from(self.decisions)
        }
    }

    fn add(&mut self, kind: &NoteKind) {
        match *kind {
            NoteKind::Roll { luck, .. } => self.add_roll(luck),
            NoteKind::Decision { loss, verdict, .. } => self.add_decision(loss, verdict),
        }
    }

    /// Counts a roll and its luck.
    pub fn add_roll(&mut self, luck: f64) {
        self.rolls += 1;
        self.luck += luck;
    }

    /// Counts a decision, its loss and its verdict.
    pub fn add_decision(&mut self, loss: f64, verdict: Verdict) {
        self.decisions += 1;
        self.total_loss += loss;
        match verdict {
            Verdict::Best => self.best += 1,
            Verdict::Good => {}
            Verdict::Inaccuracy => self.inaccuracies += 1,
            Verdict::Mistake => self.mistakes += 1,
            Verdict::Blunder => self.blunders += 1,
        }
    }
}

/// A judged game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    pub notes: Vec<Note>,
    /// Light's and dark's totals.
    pub sides: [SideSummary; 2],
    pub winner: Option<Side>,
}

/// Judges every roll and every real decision of a recorded game.
/// `progress` is called with the number of actions done after each one.
///
/// # Errors
/// The record does not replay (unknown rules, an illegal action, a winner
/// that disagrees).
pub fn review(record: &GameRecord, judge: &Judge, mut progress: impl FnMut(usize)) -> Result<Review, RecordError> {
    record.replay()?;
    let mut game = record.start_game()?;
    let mut notes = Vec::new();
    let mut sides = [SideSummary::default(), SideSummary::default()];
    let (mut turn, mut last_side) = (0, None);
    for (index, &action) in record.actions.iter().enumerate() {
        let side = game.to_move();
        if last_side != Some(side) {
            turn += 1;
            last_side = Some(side);
        }
        if let Some(kind) = judge_step(judge, &game, action) {
            sides[side.index()].add(&kind);
            notes.push(Note { action: index, turn, side, kind });
        }
        apply(&mut game, index, action)?;
        progress(index + 1);
    }
    Ok(Review { notes, sides, winner: game.winner() })
}

fn apply(game: &mut Game, index: usize, action: Action) -> Result<(), RecordError> {
    game.apply(action).map_err(|error: GameError| RecordError::Illegal { index, action: action.to_string(), error })
}

/// The note for a step about to be played in `before`: a roll's luck, or a
/// decision's loss; nothing for a forced step.
fn judge_step(judge: &Judge, before: &Game, action: Action) -> Option<NoteKind> {
    if let Action::Roll(raw) = action {
        let (v0, v1) = judge.roll(before, raw);
        return Some(NoteKind::Roll { raw, before: v0, after: v1, luck: v1 - v0 });
    }
    if open_choices(before) < 2 {
        return None;
    }
    let values = judge.action_values(before);
    let &(best, best_value) = values.first()?;
    let played_value = values.iter().find(|(a, _)| same_action(*a, action)).map(|v| v.1)?;
    let loss = (best_value - played_value).max(0.0);
    Some(NoteKind::Decision { played: action, played_value, best, best_value, choices: values.len(), loss, verdict: Verdict::of(loss) })
}

fn open_choices(game: &Game) -> usize {
    match game.phase() {
        Phase::Move => game.legal_moves().len(),
        Phase::Declare | Phase::ExtraRoll => game.choices().len(),
        Phase::Roll | Phase::Over => 0,
    }
}

/// The same action; a move's piece counts only where both name one.
pub fn same_action(a: Action, b: Action) -> bool {
    match (a, b) {
        (Action::Move(x), Action::Move(y)) => x.from == y.from && x.to == y.to && (x.piece == 0 || y.piece == 0 || x.piece == y.piece),
        _ => a == b,
    }
}
