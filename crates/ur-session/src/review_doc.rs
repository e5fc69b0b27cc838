//! A review as a document: what the html report of `ur review --format
//! html` and the browser app's review screen both draw (the same
//! `assets/review.js`). It holds no html, only the game's steps as a judge
//! saw them, light's win chance after each (the chart), each side's totals,
//! and for every inaccuracy or worse the board before it.
//!
//! The document is family-neutral: a judge of any kind fills [`Judged`]
//! entries (values with an optional ± interval) and [`build`] walks the
//! record to add the texts, the turns and the boards. [`from_race_review`]
//! does it for the race's [`Review`], [`from_any_review`] for the rollout
//! judge's [`AnyReview`] of any family. Every JSON name here is read by
//! `crates/ur-web/assets/review.js` (docs/review.md).

use std::collections::BTreeMap;

use serde::Serialize;
use ur_bots::review::{same_action, Judge, NoteKind, Review, SideSummary, Verdict};
use ur_bots::review_any::{AnyNoteKind, AnyReview, Sureness};
use ur_rules::{Action, AnyAction, AnyGame, Options, Playable, Side, Turn};

use crate::records::SavedGame;
use crate::view::{view_of, GameView, Phrase, SideView};
use crate::SessionError;

/// A reviewed game, ready to draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewDoc {
    pub rules: DocRules,
    pub judge: DocJudge,
    /// `[light, dark]`: each side's key and its name in this rule set.
    pub sides: [SideView; 2],
    /// The winner's side key, `draw`, or none for an unfinished game.
    pub winner: Option<String>,
    /// Light's win probability before the first step.
    pub start: f64,
    /// Every step of the record, in order.
    pub steps: Vec<DocStep>,
    /// Light's win probability after each step: one entry per step.
    pub light_win: Vec<f64>,
    /// `[light, dark]`.
    pub totals: [DocTotals; 2],
    /// Each inaccuracy, mistake and blunder with its board, in game order.
    pub errors: Vec<DocError>,
}

/// Which rule set was played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocRules {
    pub id: String,
    pub name: String,
    /// `race`, `bens` or `tower`.
    pub family: String,
    pub options: Options,
}

/// Who judged, and how far to trust it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocJudge {
    /// `table`, `expectimax:D`, or another judge's own name.
    pub name: String,
    /// Exact values (a solved table), not estimates.
    pub exact: bool,
    /// The table's file, when a table judged.
    pub table: Option<String>,
    /// An estimating judge's typical ± half-width of a value, when it states one.
    pub interval: Option<f64>,
    /// The confidence of those intervals (0.95 for 95 %), when stated.
    pub confidence: Option<f64>,
    /// A rollout judge's account of how sure it is: playouts per choice,
    /// mean half-widths, and the verdicts more trials would not change.
    pub sureness: Option<Sureness>,
}

/// One step of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocStep {
    /// The step's place in the record (0 for the first).
    pub index: usize,
    /// Turns counted from 1; a turn is one side's run of steps.
    pub turn: u32,
    /// `light` or `dark`.
    pub side: String,
    #[serde(flatten)]
    pub kind: StepKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepKind {
    /// A roll: the roller's win probability before and after it (best play
    /// assumed), and the difference, its luck.
    /// `interval`: ± half-width of the luck, for an estimating judge that states one.
    /// `words`: `text` as phrases ([`crate::view::Phrase`]).
    Roll { raw: u8, text: String, words: Vec<Phrase>, before: f64, after: f64, luck: f64, interval: Option<f64> },
    /// A choice among two or more actions, judged.
    Decision {
        played: String,
        played_words: Vec<Phrase>,
        played_value: f64,
        best: String,
        best_words: Vec<Phrase>,
        best_value: f64,
        choices: usize,
        loss: f64,
        verdict: Verdict,
        /// ± half-width of the values, for an estimating judge that states one.
        interval: Option<f64>,
        /// ± half-width of the loss (paired over the same dice), when stated.
        loss_interval: Option<f64>,
        /// Whether more trials would hardly change the verdict, when the judge says.
        sure: Option<bool>,
    },
    /// A step the judge said nothing of: a forced move, an unjudged choice.
    Other { played: String, words: Vec<Phrase> },
}

/// One side's totals, as GNU Backgammon reports a player's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DocTotals {
    pub decisions: u32,
    pub best: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Win probability lost by all decisions together.
    pub total_loss: f64,
    /// Mean loss per decision (0 with none).
    pub error_rate: f64,
    pub rolls: u32,
    /// The side's rolls' luck summed.
    pub luck: f64,
    /// 1 for a win, 0 for a loss, ½ for a draw; none while unfinished.
    pub result: Option<f64>,
    /// The result minus the luck that favoured this side over the other
    /// (its luck minus the opponent's): what skill alone earned.
    pub luck_adjusted: Option<f64>,
}

/// An inaccuracy or worse, with what is needed to draw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocError {
    /// Its entry in [`ReviewDoc::steps`].
    pub step: usize,
    /// The game just before the decision: its board, throw and open actions.
    pub view: GameView,
    /// The played and the best choice as indices into `view.actions`.
    pub played: Option<usize>,
    pub best: Option<usize>,
}

/// What a judge said of one step, for any family; keyed by the step's index.
#[derive(Clone, Debug, PartialEq)]
pub enum Judged {
    /// The roller's win probability before and after the roll; `luck` the
    /// judge's own measure of it (else after minus before), `interval` its ±.
    Roll { before: f64, after: f64, luck: Option<f64>, interval: Option<f64> },
    /// The mover's win probability after the played and after the best choice.
    Decision {
        played_value: f64,
        best: AnyAction,
        best_value: f64,
        choices: usize,
        /// ± of the values.
        interval: Option<f64>,
        /// The judge's own loss (paired trials), else best minus played.
        loss: Option<f64>,
        loss_interval: Option<f64>,
        sure: Option<bool>,
    },
}

/// The document of a race game judged by [`ur_bots::review::review`].
///
/// # Errors
/// The record does not replay.
pub fn from_race_review(
    saved: &SavedGame,
    judge: &Judge,
    table: Option<&std::path::Path>,
    review: &Review,
) -> Result<ReviewDoc, SessionError> {
    let judged = review
        .notes
        .iter()
        .map(|n| {
            let j = match n.kind {
                NoteKind::Roll { before, after, .. } => Judged::Roll { before, after, luck: None, interval: None },
                NoteKind::Decision { played_value, best, best_value, choices, .. } => Judged::Decision {
                    played_value,
                    best: AnyAction::Race(best),
                    best_value,
                    choices,
                    interval: None,
                    loss: None,
                    loss_interval: None,
                    sure: None,
                },
            };
            (n.action, j)
        })
        .collect();
    let info = DocJudge {
        name: judge.name(),
        exact: judge.exact(),
        table: table.map(|p| p.display().to_string()),
        interval: None,
        confidence: None,
        sureness: None,
    };
    build(saved, info, &judged)
}

/// The document of a game of any family judged by the rollout judge
/// ([`ur_bots::review_any::review_any`]): its estimates with their 95 %
/// intervals, and the judge's sureness.
///
/// # Errors
/// The record does not replay, or a note's best choice is not an action there.
pub fn from_any_review(saved: &SavedGame, review: &AnyReview) -> Result<ReviewDoc, SessionError> {
    let bests = best_actions(saved, review)?;
    let judged = review
        .notes
        .iter()
        .map(|n| {
            let j = match &n.kind {
                AnyNoteKind::Roll { before, after, luck, .. } => {
                    Judged::Roll { before: before.mean, after: after.mean, luck: Some(luck.mean), interval: Some(luck.half) }
                }
                AnyNoteKind::Decision { played_value, best_value, choices, loss, sure, .. } => Judged::Decision {
                    played_value: played_value.mean,
                    best: bests[&n.step].clone(),
                    best_value: best_value.mean,
                    choices: choices.len(),
                    interval: Some(played_value.half.max(best_value.half)),
                    loss: Some(loss.mean),
                    loss_interval: Some(loss.half),
                    sure: Some(*sure),
                },
            };
            (n.step, j)
        })
        .collect();
    let info = DocJudge {
        name: review.judge.clone(),
        exact: false,
        table: None,
        interval: Some(review.sureness.value_half),
        confidence: Some(0.95),
        sureness: Some(review.sureness.clone()),
    };
    build(saved, info, &judged)
}

/// Each judged decision's best choice as an action, read at its place in the record.
fn best_actions(saved: &SavedGame, review: &AnyReview) -> Result<BTreeMap<usize, AnyAction>, SessionError> {
    let wanted: BTreeMap<usize, &serde_json::Value> = review
        .notes
        .iter()
        .filter_map(|n| match &n.kind {
            AnyNoteKind::Decision { best_json, .. } => Some((n.step, best_json)),
            AnyNoteKind::Roll { .. } => None,
        })
        .collect();
    let bad = |e: &dyn std::fmt::Display| SessionError::Record(e.to_string());
    let mut game = start_game(saved)?;
    let mut out = BTreeMap::new();
    for index in 0..step_count(saved) {
        if let Some(json) = wanted.get(&index) {
            let best = game.action_from_json(json).map_err(|e| SessionError::Record(format!("the best choice at step {index}: {e}")))?;
            out.insert(index, best);
        }
        match step_at(saved, &game, index)? {
            RecStep::Roll(raw) => game.roll(raw).map_err(|e| bad(&e))?,
            RecStep::Act(a) => game.apply(&a).map_err(|e| bad(&e))?,
        }
    }
    match wanted.keys().find(|k| !out.contains_key(k)) {
        Some(k) => Err(SessionError::Record(format!("the review judges step {k}, beyond the record"))),
        None => Ok(out),
    }
}

/// A record's step, ready to play on an [`AnyGame`].
enum RecStep {
    Roll(u8),
    Act(AnyAction),
}

/// Walks the record and makes the document from what the judge said.
///
/// # Errors
/// The record does not replay.
pub fn build(saved: &SavedGame, judge: DocJudge, judged: &BTreeMap<usize, Judged>) -> Result<ReviewDoc, SessionError> {
    let bad = |e: &dyn std::fmt::Display| SessionError::Record(e.to_string());
    let mut game = start_game(saved)?;
    let sides = view_of(&game).sides;
    let mut walk = Walk::default();
    for index in 0..step_count(saved) {
        let step = step_at(saved, &game, index)?;
        let side = mover(&game);
        walk.turn_of(side);
        let before = game.clone();
        match &step {
            RecStep::Roll(raw) => game.roll(*raw).map_err(|e| bad(&e))?,
            RecStep::Act(a) => game.apply(a).map_err(|e| bad(&e))?,
        }
        walk.add(index, side, &before, &game, &step, judged.get(&index));
    }
    let winner = match game.turn() {
        Turn::Over(w) => Some(w.map_or("draw".into(), |s| s.name().to_string())),
        _ => None,
    };
    let totals = totals(&walk.steps, result_of(&game));
    let rules = DocRules {
        id: game.rule_id().to_string(),
        name: ur_rules::narrate::rule_set_name(&game),
        family: serde_json::to_value(game.family()).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
        options: options_of(saved),
    };
    Ok(ReviewDoc {
        rules,
        judge,
        sides,
        winner,
        start: walk.start.unwrap_or(0.5),
        steps: walk.steps,
        light_win: walk.light_win,
        totals,
        errors: walk.errors,
    })
}

/// The document's steps and chart as the record is walked.
#[derive(Default)]
struct Walk {
    steps: Vec<DocStep>,
    light_win: Vec<f64>,
    errors: Vec<DocError>,
    start: Option<f64>,
    turn: u32,
    last: Option<Side>,
}

impl Walk {
    fn turn_of(&mut self, side: Side) {
        if self.last != Some(side) {
            self.turn += 1;
            self.last = Some(side);
        }
    }

    /// One step played from `before` to `after`.
    fn add(&mut self, index: usize, side: Side, before: &AnyGame, after: &AnyGame, step: &RecStep, judged: Option<&Judged>) {
        let for_light = |v: f64| if side == Side::Light { v } else { 1.0 - v };
        let previous = self.light_win.last().copied();
        let (kind, light) = match (step, judged) {
            (RecStep::Roll(raw), Some(&Judged::Roll { before: v0, after: v1, luck, interval })) => {
                self.start.get_or_insert(for_light(v0));
                // A throw that moves nothing has passed the turn: no throw is left to show.
                let (text, words) = view_of(after).throw.filter(|t| t.raw == *raw).map_or_else(
                    || (format!("threw {raw}: no move"), vec![threw(*raw), Phrase::new("throw.no_move")]),
                    |t| (t.text, t.words),
                );
                let luck = luck.unwrap_or(v1 - v0);
                (StepKind::Roll { raw: *raw, text, words, before: v0, after: v1, luck, interval }, Some(for_light(v1)))
            }
            (
                RecStep::Act(played),
                Some(Judged::Decision { played_value, best, best_value, choices, interval, loss, loss_interval, sure }),
            ) => {
                self.start.get_or_insert(for_light(*best_value));
                let view = view_of(before);
                let open = before.actions();
                let find = |a: &AnyAction| open.iter().position(|o| same(o, a));
                let (p, b) = (find(played), find(best));
                let said = |i: Option<usize>, a: &AnyAction| {
                    i.and_then(|i| view.actions.get(i)).map_or_else(|| unlisted(a), |v| (v.text.clone(), v.words.clone()))
                };
                let ((played_text, played_words), (best_text, best_words)) = (said(p, played), said(b, best));
                let loss = loss.unwrap_or(best_value - played_value).max(0.0);
                let verdict = Verdict::of(loss);
                let kind = StepKind::Decision {
                    played: played_text,
                    played_words,
                    played_value: *played_value,
                    best: best_text,
                    best_words,
                    best_value: *best_value,
                    choices: *choices,
                    loss,
                    verdict,
                    interval: *interval,
                    loss_interval: *loss_interval,
                    sure: *sure,
                };
                if verdict >= Verdict::Inaccuracy {
                    self.errors.push(DocError { step: self.steps.len(), view, played: p, best: b });
                }
                (kind, Some(for_light(*played_value)))
            }
            (RecStep::Roll(raw), _) => (StepKind::Other { played: format!("threw {raw}"), words: vec![threw(*raw)] }, None),
            (RecStep::Act(a), _) => {
                let (played, words) = action_said(before, a);
                (StepKind::Other { played, words }, None)
            }
        };
        // A step the judge did not value keeps the chart level; the end is the result.
        let light = result_of(after).map(|r| r[0]).or(light).or(previous).unwrap_or(0.5);
        self.steps.push(DocStep { index, turn: self.turn, side: side.name().to_string(), kind });
        self.light_win.push(light);
    }
}

/// An action as the game's view words it, in English and as phrases.
fn action_said(game: &AnyGame, action: &AnyAction) -> (String, Vec<Phrase>) {
    let open = game.actions();
    open.iter()
        .position(|o| same(o, action))
        .and_then(|i| view_of(game).actions.get(i).map(|v| (v.text.clone(), v.words.clone())))
        .unwrap_or_else(|| unlisted(action))
}

/// An action the view does not list, in its own notation.
fn unlisted(action: &AnyAction) -> (String, Vec<Phrase>) {
    let text = action.to_string();
    (text.clone(), vec![Phrase::new("act.other").with("text", text)])
}

fn threw(raw: u8) -> Phrase {
    Phrase::new("throw.threw").with("n", raw)
}

/// The same action; a race move's piece counts only where both name one.
fn same(a: &AnyAction, b: &AnyAction) -> bool {
    match (a, b) {
        (AnyAction::Race(x), AnyAction::Race(y)) => same_action(*x, *y),
        _ => a == b,
    }
}

fn mover(game: &AnyGame) -> Side {
    match game.turn() {
        Turn::Roll(s) | Turn::Decide(s) => s,
        Turn::Over(_) => Side::Light,
    }
}

/// `[light, dark]` results of a finished game: 1 and 0, or ½ each for a draw.
fn result_of(game: &AnyGame) -> Option<[f64; 2]> {
    match game.turn() {
        Turn::Over(Some(Side::Light)) => Some([1.0, 0.0]),
        Turn::Over(Some(Side::Dark)) => Some([0.0, 1.0]),
        Turn::Over(None) => Some([0.5, 0.5]),
        _ => None,
    }
}

/// Each side's totals from the steps.
fn totals(steps: &[DocStep], result: Option<[f64; 2]>) -> [DocTotals; 2] {
    let mut sums = [SideSummary::default(), SideSummary::default()];
    for s in steps {
        let sum = &mut sums[usize::from(s.side != Side::Light.name())];
        match s.kind {
            StepKind::Roll { luck, .. } => sum.add_roll(luck),
            StepKind::Decision { loss, verdict, .. } => sum.add_decision(loss, verdict),
            StepKind::Other { .. } => {}
        }
    }
    let mut t = sums.map(|s| DocTotals {
        decisions: s.decisions,
        best: s.best,
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
        total_loss: s.total_loss,
        rolls: s.rolls,
        luck: s.luck,
        ..DocTotals::default()
    });
    let luck = [t[0].luck, t[1].luck];
    for (k, side) in t.iter_mut().enumerate() {
        side.error_rate = if side.decisions == 0 { 0.0 } else { side.total_loss / f64::from(side.decisions) };
        side.result = result.map(|r| r[k]);
        side.luck_adjusted = side.result.map(|r| r - (luck[k] - luck[1 - k]));
    }
    t
}

// ---- the record, for either format ----

fn start_game(saved: &SavedGame) -> Result<AnyGame, SessionError> {
    let bad = |e: &dyn std::fmt::Display| SessionError::Record(e.to_string());
    match saved {
        SavedGame::Race(r) => Ok(AnyGame::Race(r.start_game().map_err(|e| bad(&e))?)),
        SavedGame::Family(r) => {
            let mut game = AnyGame::new(&r.rules, &r.options, r.first).map_err(|e| bad(&e))?;
            if let Some(start) = &r.start {
                game.set_position(start).map_err(|e| bad(&e))?;
            }
            Ok(game)
        }
    }
}

fn step_count(saved: &SavedGame) -> usize {
    match saved {
        SavedGame::Race(r) => r.actions.len(),
        SavedGame::Family(r) => r.steps.len(),
    }
}

fn step_at(saved: &SavedGame, game: &AnyGame, index: usize) -> Result<RecStep, SessionError> {
    Ok(match saved {
        SavedGame::Race(r) => match r.actions[index] {
            Action::Roll(raw) => RecStep::Roll(raw),
            a => RecStep::Act(AnyAction::Race(a)),
        },
        SavedGame::Family(r) => match &r.steps[index] {
            ur_rules::any_record::Step::Roll(raw) => RecStep::Roll(*raw),
            ur_rules::any_record::Step::Act(json) => {
                RecStep::Act(game.action_from_json(json).map_err(|e| SessionError::Record(format!("step {index}: {e}")))?)
            }
        },
    })
}

fn options_of(saved: &SavedGame) -> Options {
    match saved {
        SavedGame::Race(r) => r.options.clone(),
        SavedGame::Family(r) => r.options.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(side: Side, kind: StepKind) -> DocStep {
        DocStep { index: 0, turn: 1, side: side.name().into(), kind }
    }

    #[test]
    fn luck_adjusted_result_takes_away_the_luck_one_side_had_over_the_other() {
        let roll = |luck: f64| StepKind::Roll {
            raw: 1,
            text: String::new(),
            words: Vec::new(),
            before: 0.5,
            after: 0.5 + luck,
            luck,
            interval: None,
        };
        let steps = [step(Side::Light, roll(0.25)), step(Side::Dark, roll(-0.125))];
        let t = totals(&steps, Some([1.0, 0.0]));
        assert_eq!(t[0].luck_adjusted, Some(1.0 - 0.375));
        assert_eq!(t[1].luck_adjusted, Some(0.375));
        assert_eq!(totals(&steps, None)[0].luck_adjusted, None);
    }
}
