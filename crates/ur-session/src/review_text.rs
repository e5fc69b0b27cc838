//! A review in words: the decisions a judge marked, with the boards they
//! were made on, and each side's totals; and the few lines a terminal game
//! prints of the human's play when it ends.

use ur_bots::review::{review, Judge, Note, NoteKind, Review, SideSummary, Verdict, BLUNDER, INACCURACY, MISTAKE};
use ur_bots::review_any::{AnyNoteKind, AnyReview};
use ur_bots::rollout::Estimate;
use ur_rules::race::text::{move_text, render, side_label};
use ur_rules::{Action, AnyGame, GameRecord, Options, Playable, Rules, Side};

use ur_rules::report::race_rules;

use crate::{RulesRef, SavedGame, Session, SessionError};

/// The text report of a review: heading, judge, the listed notes (with
/// boards when `boards` holds the record) and the totals.
///
/// # Errors
/// The record does not replay (it always does once reviewed).
pub fn text_report(
    rules: &Rules,
    judge: &Judge,
    table: Option<&std::path::Path>,
    rev: &Review,
    all: bool,
    boards: Option<&GameRecord>,
) -> Result<String, SessionError> {
    let result = match rev.winner {
        Some(w) => format!("{} won", side_label(rules, w)),
        None => "unfinished".into(),
    };
    let mut out = format!("Review of a game of {}: {result}.\n", RulesRef::of(rules));
    out += &match table {
        Some(p) => format!("Judge: the table {} (exact win probabilities).\n", p.display()),
        None => format!("Judge: a {} search (estimates; a table from `ur solve` gives exact values).\n", judge.name()),
    };
    out += &format!(
        "Marks: ?! inaccuracy (loses {} pp or more), ? mistake ({} pp), ?? blunder ({} pp).\n\n",
        pp(INACCURACY),
        pp(MISTAKE),
        pp(BLUNDER)
    );
    let listed = match boards {
        Some(record) => board_notes(record, rev, all)?,
        None => table_notes(rules, rev, all),
    };
    out += if listed.is_empty() { "No inaccuracies: every decision lost less than 1 pp.\n" } else { &listed };
    out += "\n";
    out += &summary(rules, &rev.sides);
    Ok(out)
}

/// The listed notes as table rows under a heading; empty when none is listed.
fn table_notes(rules: &Rules, rev: &Review, all: bool) -> String {
    let lines = note_lines(rules, rev, all);
    if lines.is_empty() {
        return String::new();
    }
    let head = format!(
        "{:>5}  {:<16} {:>4}  {:<10} {:>6}  {:<8} {:>6}  {:>7}\n",
        "turn", "side", "roll", "played", "win %", "best", "win %", "loss"
    );
    head + &lines.concat()
}

/// Each listed decision after the board it was made on, its moves spelled
/// out; empty when none is listed.
fn board_notes(record: &GameRecord, rev: &Review, all: bool) -> Result<String, SessionError> {
    let replay = |e: &dyn std::fmt::Display| SessionError::Record(e.to_string());
    let mut game = record.start_game().map_err(|e| replay(&e))?;
    let mut done = 0;
    let mut out = String::new();
    for note in &rev.notes {
        let NoteKind::Decision { played, played_value, best, best_value, loss, verdict, .. } = note.kind else { continue };
        if !all && verdict < Verdict::Inaccuracy {
            continue;
        }
        for &a in &record.actions[done..note.action] {
            game.apply(a).map_err(|e| replay(&e))?;
        }
        done = note.action;
        let rules = game.rules();
        let throw = game.throw().map(|t| format!(", threw {}", t.value)).unwrap_or_default();
        let spell = |a: Action| match a {
            Action::Move(m) => move_text(&game, m),
            other => other.to_string(),
        };
        out += &format!("\nTurn {}, {}{throw}:\n{}", note.turn, side_label(rules, note.side), render(rules, game.state()));
        out += &format!("  played {}{}: {:.1} %\n", spell(played), verdict.mark(), pp(played_value));
        if loss > 0.0 {
            out += &format!("  best   {}: {:.1} %  (lost {:.2} pp)\n", spell(best), pp(best_value), pp(loss));
        }
    }
    Ok(out)
}

/// One line per listed note: decisions of an inaccuracy or worse, or every
/// note with `all`.
fn note_lines(rules: &Rules, rev: &Review, all: bool) -> Vec<String> {
    let mut rolled = [0u8; 2];
    let mut lines = Vec::new();
    for note in &rev.notes {
        let Note { turn, side, ref kind, .. } = *note;
        let who = side_label(rules, side);
        match *kind {
            NoteKind::Roll { raw, before, after, luck } => {
                rolled[side.index()] = raw;
                if all {
                    lines.push(format!(
                        "{turn:>5}  {who:<16} {raw:>4}  luck {:+.2} pp ({:.1} % -> {:.1} %)\n",
                        pp(luck),
                        pp(before),
                        pp(after)
                    ));
                }
            }
            NoteKind::Decision { played, played_value, best, best_value, loss, verdict, .. } => {
                if all || verdict >= Verdict::Inaccuracy {
                    let (played, best) = (format!("{played}{}", verdict.mark()), best.to_string());
                    let roll = rolled[side.index()];
                    lines.push(format!(
                        "{turn:>5}  {who:<16} {roll:>4}  {played:<10} {:>6.1}  {best:<8} {:>6.1}  {:>4.2} pp\n",
                        pp(played_value),
                        pp(best_value),
                        pp(loss)
                    ));
                }
            }
        }
    }
    lines
}

fn summary(rules: &Rules, sides: &[SideSummary; 2]) -> String {
    totals_table([&side_label(rules, Side::Light), &side_label(rules, Side::Dark)], sides)
}

/// After a race game in the terminal: how each human side played, judged
/// as a review judges, in a few lines (none for other families).
///
/// # Errors
/// The record does not replay (it always does when made from a game).
pub fn play_summary(session: &Session, judge: &Judge, humans: &[Side], saved: bool) -> Result<Option<String>, SessionError> {
    let (Some(rules), SavedGame::Race(record)) = (race_rules(session.game()), session.record()) else { return Ok(None) };
    let rev = review(&record, judge, |_| {}).map_err(|e| SessionError::Record(e.to_string()))?;
    let by = match judge {
        Judge::Table(_) => "the solved table".to_string(),
        Judge::Search { .. } => format!("a {} search", judge.name()),
    };
    let mut out = String::new();
    for &side in humans {
        let s = &rev.sides[side.index()];
        let who = if humans.len() == 1 { "Your play".to_string() } else { format!("{}'s play", side_label(rules, side)) };
        out += &format!(
            "{who}, judged by {by}: {}, {} best, {:.2} pp lost per decision; {}, {}, {}. The dice's luck: {:+.1} pp.\n",
            count(s.decisions, "decision", "decisions"),
            s.best,
            pp(s.mean_loss()),
            count(s.inaccuracies, "inaccuracy", "inaccuracies"),
            count(s.mistakes, "mistake", "mistakes"),
            count(s.blunders, "blunder", "blunders"),
            pp(s.luck)
        );
    }
    if !saved {
        out += "(Play with --save FILE, then `ur review FILE` shows every move's verdict.)\n";
    }
    Ok(Some(out))
}

/// The text report of a rollout review of a game of any family: heading,
/// the judge and how sure it is, the listed decisions (inaccuracies and
/// worse, or every note with `all`) with their intervals, and the totals.
/// `game` is the game reviewed (for its side names), `options` its rule
/// set's options as given (named in the heading, as the race report does).
pub fn any_text_report(game: &AnyGame, options: &Options, rev: &AnyReview, all: bool) -> String {
    let result = match (rev.over, rev.winner) {
        (true, Some(w)) => format!("{} won", game.side_name(w)),
        (true, None) => "drawn".into(),
        (false, _) => "unfinished".into(),
    };
    let sure = &rev.sureness;
    let mut out = format!("Review of a game of {}: {result}.\n", RulesRef::new(rev.rules.clone(), options.clone()));
    out += &format!(
        "Judge: {} (win probabilities from {} playouts per choice, every choice on the same dice; estimates with 95 % intervals).\n",
        rev.judge, sure.trials
    );
    out += &format!(
        "How sure: choices' win probabilities within ±{:.1} pp, losses within ±{:.1} pp, luck within ±{:.1} pp on average; {} of {} verdicts would not change with more trials.\n",
        pp(sure.value_half),
        pp(sure.loss_half),
        pp(sure.luck_half),
        sure.sure_verdicts,
        sure.verdicts
    );
    out += &format!(
        "Marks: ?! inaccuracy (loses {} pp or more), ? mistake ({} pp), ?? blunder ({} pp); ~ the interval spans a mark's bound.\n\n",
        pp(INACCURACY),
        pp(MISTAKE),
        pp(BLUNDER)
    );
    let lines = any_note_lines(game, rev, all);
    if lines.is_empty() {
        out += "No inaccuracies: every decision lost less than 1 pp.\n";
    } else {
        out += &format!(
            "{:>5}  {:<10} {:>4}  {:<24} {:>12}  {:<24} {:>12}  {:>14}\n",
            "turn", "side", "roll", "played", "win %", "best", "win %", "loss pp"
        );
        out += &lines.concat();
    }
    out += "\n";
    out + &any_summary(game, &rev.sides)
}

/// `52.1 ±3.0`: an estimate in percent with its interval's half-width.
fn est(e: Estimate) -> String {
    format!("{:.1} ±{:.1}", pp(e.mean), pp(e.half))
}

fn any_note_lines(game: &AnyGame, rev: &AnyReview, all: bool) -> Vec<String> {
    let mut rolled = [0u8; 2];
    let mut lines = Vec::new();
    for note in &rev.notes {
        let who = game.side_name(note.side);
        let turn = note.turn;
        match &note.kind {
            AnyNoteKind::Roll { raw, before, after, luck } => {
                rolled[note.side.index()] = *raw;
                if all {
                    lines.push(format!(
                        "{turn:>5}  {who:<10} {raw:>4}  luck {:+.1} ±{:.1} pp ({} % -> {} %)\n",
                        pp(luck.mean),
                        pp(luck.half),
                        est(*before),
                        est(*after)
                    ));
                }
            }
            AnyNoteKind::Decision { played, played_value, best, best_value, loss, verdict, sure, .. } => {
                if all || *verdict >= Verdict::Inaccuracy {
                    let mark = format!("{}{}", verdict.mark(), if *sure { "" } else { "~" });
                    let played = format!("{played}{mark}");
                    let roll = rolled[note.side.index()];
                    lines.push(format!(
                        "{turn:>5}  {who:<10} {roll:>4}  {played:<24} {:>12}  {best:<24} {:>12}  {:>14}\n",
                        est(*played_value),
                        est(*best_value),
                        format!("{:.2} ±{:.2}", pp(loss.mean), pp(loss.half))
                    ));
                }
            }
        }
    }
    lines
}

fn any_summary(game: &AnyGame, sides: &[SideSummary; 2]) -> String {
    totals_table([game.side_name(Side::Light), game.side_name(Side::Dark)], sides)
}

/// Both sides' totals as a table headed by their names.
fn totals_table(names: [&str; 2], sides: &[SideSummary; 2]) -> String {
    let row = |name: &str, f: &dyn Fn(&SideSummary) -> String| format!("{name:<24} {:>14} {:>14}\n", f(&sides[0]), f(&sides[1]));
    let share = |n: u32, of: u32| if of == 0 { n.to_string() } else { format!("{n} ({:.0} %)", 100.0 * f64::from(n) / f64::from(of)) };
    let mut out = format!("{:<24} {:>14} {:>14}\n", "", names[0], names[1]);
    out += &row("decisions", &|s| s.decisions.to_string());
    out += &row("best choices", &|s| share(s.best, s.decisions));
    out += &row("inaccuracies ?!", &|s| s.inaccuracies.to_string());
    out += &row("mistakes ?", &|s| s.mistakes.to_string());
    out += &row("blunders ??", &|s| s.blunders.to_string());
    out += &row("mean loss per decision", &|s| format!("{:.3} pp", pp(s.mean_loss())));
    out += &row("total loss", &|s| format!("{:.2} pp", pp(s.total_loss)));
    out += &row("luck of the dice", &|s| format!("{:+.2} pp", pp(s.luck)));
    out
}

/// `1 blunder`, `2 blunders`.
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A probability in percent (or a difference of two in percentage points).
fn pp(p: f64) -> f64 {
    100.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "blunder", "blunders"), "1 blunder");
        assert_eq!(count(0, "inaccuracy", "inaccuracies"), "0 inaccuracies");
        assert_eq!(count(2, "mistake", "mistakes"), "2 mistakes");
    }

    #[test]
    fn the_rollout_report_names_the_options() {
        use ur_bots::review_any::Sureness;
        let options: Options = [("pieces".to_string(), ur_rules::OptionValue::Int(3))].into();
        let game = AnyGame::new("finkel", &options, Side::Light).unwrap();
        let rev = AnyReview {
            rules: "finkel".into(),
            judge: "rollout:8".into(),
            seed: 0,
            notes: Vec::new(),
            sides: Default::default(),
            sureness: Sureness { trials: 8, ..Sureness::default() },
            winner: None,
            over: false,
        };
        let text = any_text_report(&game, &options, &rev, false);
        assert!(text.starts_with("Review of a game of finkel (pieces=3): unfinished.\n"), "{text}");
        let plain = any_text_report(&game, &Options::new(), &rev, false);
        assert!(plain.starts_with("Review of a game of finkel: unfinished.\n"), "{plain}");
    }
}
