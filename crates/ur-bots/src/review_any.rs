//! Review of a game of any family by the rollout judge: each real
//! decision's loss against the best choice, each roll's luck, and each
//! side's totals, every number with its 95% interval.
//!
//! It is the race review of [`crate::review`] where no table or evaluation
//! gives win probabilities: the same verdicts and totals, with actions as
//! texts and JSON since they are of any family. Losses are paired
//! differences over the same dice (see [`crate::rollout`]); a roll's luck is
//! the roller's rollout value after the roll minus before it, on the same
//! dice after that roll, so luck averages zero over the dice.

use serde::Serialize;
use serde_json::Value;
use ur_rules::{AnyAction, AnyGame, PlayError, Playable, Side, Turn};

use crate::review::{same_action, SideSummary, Verdict, BLUNDER, INACCURACY, MISTAKE};
use crate::rollout::{ChoiceTrials, Estimate, RolloutJudge};

/// One step of a recorded game of any family.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyStep {
    /// A roll, as the raw outcome.
    Roll(u8),
    /// A decision.
    Act(AnyAction),
}

/// A choice open at a decision with the mover's win probability after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceNote {
    /// The action as a player types it.
    pub action: String,
    /// The action in the family's JSON.
    pub json: Value,
    pub win: Estimate,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnyNoteKind {
    /// A roll and how much it changed the roller's win probability.
    Roll { raw: u8, before: Estimate, after: Estimate, luck: Estimate },
    /// A choice among two or more actions; `choices` best first. `sure`:
    /// the loss's interval lies within one verdict's range (best and good
    /// counted as one; for a best choice, no other may be better by an
    /// inaccuracy), so more trials would hardly change the verdict.
    Decision {
        played: String,
        played_json: Value,
        played_value: Estimate,
        best: String,
        best_json: Value,
        best_value: Estimate,
        choices: Vec<ChoiceNote>,
        loss: Estimate,
        verdict: Verdict,
        sure: bool,
    },
}

/// One judged step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnyNote {
    /// The step's place in the record (0 for the first).
    pub step: usize,
    /// Turns counted from 1; a turn is one side's run of steps.
    pub turn: u32,
    pub side: Side,
    #[serde(flatten)]
    pub kind: AnyNoteKind,
}

/// How sure the judge is, over the whole game: mean half-widths of the 95%
/// intervals, and the verdicts that more trials would not change.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sureness {
    /// Playouts per choice.
    pub trials: u32,
    /// Of a choice's win probability.
    pub value_half: f64,
    /// Of a decision's loss (decisions where the best was not played).
    pub loss_half: f64,
    /// Of a roll's luck.
    pub luck_half: f64,
    pub verdicts: u32,
    pub sure_verdicts: u32,
    /// Playouts stop after this many rolls, when they are cut...
    pub cut_rolls: Option<u32>,
    /// ...and are scored there by `evaluation` (races) or `standing` (the
    /// calibrated standing of the other families).
    pub cut_by: Option<String>,
}

/// A game judged by rollouts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnyReview {
    pub rules: String,
    /// The judge's name (`rollout:N`, and its policies when not the default).
    pub judge: String,
    pub seed: u64,
    pub notes: Vec<AnyNote>,
    /// Light's and dark's totals (each side's luck is the sum of its rolls' means).
    pub sides: [SideSummary; 2],
    pub sureness: Sureness,
    pub winner: Option<Side>,
    pub over: bool,
}

/// Why a game cannot be reviewed.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ReviewAnyError {
    #[error("step {index} ({step}) is illegal: {error}")]
    Illegal { index: usize, step: String, error: Box<PlayError> },
}

/// Judges every roll and every real decision of `steps` played from
/// `start`; `progress` is told how many steps are done after each one.
///
/// # Errors
/// A step the game refuses.
pub fn review_any(
    start: &AnyGame,
    steps: &[AnyStep],
    judge: &RolloutJudge,
    mut progress: impl FnMut(usize),
) -> Result<AnyReview, ReviewAnyError> {
    let mut game = start.without_history();
    let mut notes = Vec::new();
    let (mut turn, mut last_side) = (0, None);
    // The choices of the decision right after a roll, played out on that roll's dice.
    let mut after_roll: Option<ChoiceTrials> = None;
    for (index, step) in steps.iter().enumerate() {
        let side = match game.turn() {
            Turn::Roll(s) | Turn::Decide(s) => s,
            Turn::Over(_) => return Err(illegal(index, step, &game, "the game is over")),
        };
        if last_side != Some(side) {
            turn += 1;
            last_side = Some(side);
        }
        let kind = match step {
            AnyStep::Roll(raw) => {
                let (kind, choices) = judge_roll(judge, &mut game, *raw, index).map_err(|e| wrap(index, step, e))?;
                after_roll = choices;
                Some(kind)
            }
            AnyStep::Act(action) => {
                let kind = judge_decision(judge, &game, action, index, after_roll.take());
                game.apply(action).map_err(|e| wrap(index, step, e))?;
                kind
            }
        };
        if let Some(kind) = kind {
            notes.push(AnyNote { step: index, turn, side, kind });
        }
        progress(index + 1);
    }
    let (over, winner) = match game.turn() {
        Turn::Over(w) => (true, w),
        _ => (false, None),
    };
    let sides = [summary(&notes, Side::Light), summary(&notes, Side::Dark)];
    let mut sureness = sureness(&notes, judge.config().trials);
    sureness.cut_rolls = judge.config().truncate;
    sureness.cut_by = sureness.cut_rolls.map(|_| if judge.evaluates() { "evaluation" } else { "standing" }.to_string());
    Ok(AnyReview { rules: start.rule_id().into(), judge: judge.name(), seed: judge.config().seed, notes, sides, sureness, winner, over })
}

fn illegal(index: usize, step: &AnyStep, game: &AnyGame, why: &str) -> ReviewAnyError {
    let waits = format!("{} ({why})", game.rule_id());
    wrap(index, step, PlayError::WrongTurn { waits })
}

fn wrap(index: usize, step: &AnyStep, error: PlayError) -> ReviewAnyError {
    let step = match step {
        AnyStep::Roll(raw) => format!("roll {raw}"),
        AnyStep::Act(a) => a.to_string(),
    };
    ReviewAnyError::Illegal { index, step, error: Box::new(error) }
}

/// Rolls `raw` in `game` and judges its luck for the roller. When a real
/// decision follows, its choices are played out here on the roll's dice
/// and returned for that decision; each trial's value after the roll is
/// then that of the choice its playout policy makes, as the same trial
/// before the roll makes it ([`RolloutJudge::roll`]).
fn judge_roll(judge: &RolloutJudge, game: &mut AnyGame, raw: u8, index: usize) -> Result<(AnyNoteKind, Option<ChoiceTrials>), PlayError> {
    let trials = judge.roll(game, raw, index as u64)?;
    game.roll(raw)?;
    let (before, after) = (&trials.before, &trials.after);
    let luck = Estimate::paired(after, before);
    let (before, after) = (judge.estimate(before, trials.before_cut), judge.estimate(after, trials.after_cut));
    Ok((AnyNoteKind::Roll { raw, before, after, luck }, trials.choices))
}

/// The note of a decision about to be played: none when fewer than two
/// choices are open.
fn judge_decision(
    judge: &RolloutJudge,
    game: &AnyGame,
    played: &AnyAction,
    index: usize,
    ready: Option<ChoiceTrials>,
) -> Option<AnyNoteKind> {
    if !matches!(game.turn(), Turn::Decide(_)) || game.actions().len() < 2 {
        return None;
    }
    let trials = ready.unwrap_or_else(|| judge.choices(game, index as u64));
    let p = trials.actions.iter().position(|a| same(a, played))?;
    let b = trials.best();
    let values = trials.estimates();
    let loss = if p == b { Estimate { mean: 0.0, half: 0.0 } } else { trials.loss(b, p) };
    let verdict = if p == b { Verdict::Best } else { Verdict::of(loss.mean) };
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&x, &y| values[y].mean.total_cmp(&values[x].mean));
    let note = |i: usize| ChoiceNote { action: trials.actions[i].to_string(), json: json(&trials.actions[i]), win: values[i] };
    Some(AnyNoteKind::Decision {
        played: played.to_string(),
        played_json: json(played),
        played_value: values[p],
        best: trials.actions[b].to_string(),
        best_json: json(&trials.actions[b]),
        best_value: values[b],
        choices: order.into_iter().map(note).collect(),
        loss,
        verdict,
        sure: if p == b { clearly_best(&trials, p) } else { sure(loss) },
    })
}

/// The same action; a race move's piece counts only where both name one.
fn same(a: &AnyAction, b: &AnyAction) -> bool {
    match (a, b) {
        (AnyAction::Race(x), AnyAction::Race(y)) => same_action(*x, *y),
        _ => a == b,
    }
}

fn json(action: &AnyAction) -> Value {
    serde_json::to_value(action).unwrap_or_else(|_| Value::String(action.to_string()))
}

/// The verdict's range, best and good as one.
fn class(loss: f64) -> u8 {
    match loss {
        l if l < INACCURACY => 0,
        l if l < MISTAKE => 1,
        l if l < BLUNDER => 2,
        _ => 3,
    }
}

/// Whether no other choice may be better than choice `p` by an
/// inaccuracy or more: each one's paired interval against it stays below.
fn clearly_best(trials: &ChoiceTrials, p: usize) -> bool {
    (0..trials.actions.len()).filter(|&c| c != p).all(|c| trials.loss(c, p).high() < INACCURACY)
}

/// Whether the whole interval of a loss falls in one verdict's range.
pub fn sure(loss: Estimate) -> bool {
    class(loss.low().max(0.0)) == class(loss.high())
}

fn summary(notes: &[AnyNote], side: Side) -> SideSummary {
    let mut s = SideSummary::default();
    for note in notes.iter().filter(|n| n.side == side) {
        match &note.kind {
            AnyNoteKind::Roll { luck, .. } => s.add_roll(luck.mean),
            AnyNoteKind::Decision { loss, verdict, .. } => s.add_decision(loss.mean, *verdict),
        }
    }
    s
}

fn sureness(notes: &[AnyNote], trials: u32) -> Sureness {
    let mean = |xs: &[f64]| if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 };
    let (mut values, mut losses, mut luck) = (Vec::new(), Vec::new(), Vec::new());
    let (mut verdicts, mut sure_verdicts) = (0, 0);
    for note in notes {
        match &note.kind {
            AnyNoteKind::Roll { luck: l, .. } => luck.push(l.half),
            AnyNoteKind::Decision { choices, loss, verdict, sure, .. } => {
                values.extend(choices.iter().map(|c| c.win.half));
                if *verdict != Verdict::Best {
                    losses.push(loss.half);
                }
                verdicts += 1;
                sure_verdicts += u32::from(*sure);
            }
        }
    }
    Sureness {
        trials,
        value_half: mean(&values),
        loss_half: mean(&losses),
        luck_half: mean(&luck),
        verdicts,
        sure_verdicts,
        ..Sureness::default()
    }
}
