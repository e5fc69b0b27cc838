//! What a game's stored steps add up to besides its position: the log the
//! page shows (one entry per step, docs/serve.md `log`), how it ended, a
//! standing draw offer and the clocks. Built by the same code live and when
//! a game is replayed from the store, so a reload shows the same.

use serde_json::{json, Value};
use ur_rules::{Playable, Side, Turn};
use ur_session::view::{action_said, rolled_throw, Phrase};
use ur_session::Session;

use crate::clock::{Clock, ClockSpec};
use crate::live::{other, side_key};
use crate::store::EventRow;

/// The steps of a game that are not moves: kind, and the end they make.
const ENDINGS: [(&str, &str); 4] = [("abandon", "abandon"), ("resign", "resign"), ("flag", "time"), ("draw", "draw")];

#[derive(Clone, Debug)]
pub struct Track {
    /// One JSON entry per stored step.
    pub log: Vec<String>,
    /// How the game ended: `play`, `resign`, `time`, `draw`, `abandon`.
    pub end: Option<String>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    pub clock: Option<Clock>,
    /// The mover's time left after each throw and move (the record's
    /// actions, in order), when the game has a clock.
    pub action_clocks: Vec<Option<i64>>,
    /// The turn number of the last entry, and its side.
    turn: u32,
    last: Option<Side>,
}

/// The game's status and winner, changed by a step.
pub struct Outcome<'a> {
    pub status: &'a mut String,
    pub winner: &'a mut Option<String>,
}

fn step_err(ev: &EventRow, e: impl std::fmt::Display) -> String {
    format!("step {}: {e}", ev.seq)
}

impl Track {
    pub fn new(clock: Option<ClockSpec>) -> Track {
        Track { log: Vec::new(), end: None, draw_offer: None, clock: clock.map(Clock::new), action_clocks: Vec::new(), turn: 0, last: None }
    }

    /// Applies one stored step to the session and to this track; sets the
    /// step's `clock_ms`.
    ///
    /// # Errors
    /// A step that does not replay (the message names it).
    pub fn apply(&mut self, session: &mut Session, ev: &mut EventRow, out: Outcome<'_>) -> Result<(), String> {
        let mover = match session.game().turn() {
            Turn::Roll(s) | Turn::Decide(s) => Some(s),
            Turn::Over(_) => None,
        };
        let named = ev.action.as_deref().and_then(Side::parse);
        let entry = match ev.kind.as_str() {
            "roll" | "act" => {
                let mover = mover.ok_or_else(|| step_err(ev, "the game is over"))?;
                let mut entry = if ev.kind == "roll" { roll(session, ev)? } else { act(session, ev)? };
                self.number(mover, true);
                if self.draw_offer == Some(other(mover)) {
                    self.draw_offer = None;
                }
                if let Turn::Over(w) = session.game().turn() {
                    (*out.status, *out.winner) = ("over".into(), Some(w.map_or("draw", side_key).into()));
                    self.end = Some("play".into());
                }
                let next = match session.game().turn() {
                    Turn::Roll(s) | Turn::Decide(s) => Some(s),
                    Turn::Over(_) => None,
                };
                ev.clock_ms = self.clock.as_mut().map(|c| c.step(mover, ev.at_ms, next));
                self.action_clocks.push(ev.clock_ms);
                entry["side"] = json!(side_key(mover));
                entry
            }
            kind => {
                let side = named.ok_or_else(|| step_err(ev, format!("{kind} names no side")))?;
                self.number(side, false);
                self.other_step(ev, side, out)?
            }
        };
        self.push(entry, ev);
        Ok(())
    }

    /// A step that is not a throw or a move: an ending or a draw offer.
    fn other_step(&mut self, ev: &mut EventRow, side: Side, out: Outcome<'_>) -> Result<Value, String> {
        let kind = ev.kind.as_str();
        if let Some((_, end)) = ENDINGS.iter().find(|(k, _)| *k == kind) {
            *out.status = if kind == "abandon" { "abandoned" } else { "over" }.into();
            *out.winner = Some(if kind == "draw" { "draw" } else { side_key(other(side)) }.into());
            self.end = Some((*end).into());
            self.draw_offer = None;
            if let Some(c) = self.clock.as_mut() {
                c.stop(ev.at_ms);
                if kind == "flag" {
                    c.left[side.index()] = 0;
                }
                ev.clock_ms = Some(c.left[side.index()]);
            }
        } else if kind == "draw_offer" {
            self.draw_offer = Some(side);
        } else if kind == "draw_decline" {
            self.draw_offer = None;
        } else {
            return Err(step_err(ev, format!("unknown kind {kind}")));
        }
        let words = vec![Phrase::new(match kind {
            "abandon" => "log.abandon",
            "resign" => "log.resign",
            "flag" => "log.flag",
            "draw" => "log.draw",
            "draw_offer" => "log.draw_offer",
            _ => "log.draw_decline",
        })
        .with("side", side_key(side))];
        Ok(json!({"side": side_key(side), "throw": null, "action": kind, "words": words}))
    }

    /// A new turn begins when another side plays.
    fn number(&mut self, side: Side, plays: bool) {
        if self.turn == 0 || (plays && self.last != Some(side)) {
            self.turn += 1;
        }
        if plays {
            self.last = Some(side);
        }
    }

    fn push(&mut self, mut entry: Value, ev: &EventRow) {
        entry["n"] = json!(self.turn);
        if let Some(ms) = ev.clock_ms {
            entry["clock_ms"] = json!(ms);
        }
        self.log.push(entry.to_string());
    }

    /// The record's tags for the clock and for an end that is not on the
    /// board: `TimeControl` as PGN writes it (`300+3`, or `1/86400` for a
    /// day per move), `UrClocks` (the mover's milliseconds left after each
    /// action, `-` where none was kept) and `Termination`. None when the
    /// clock's steps do not match the record's `actions` one for one.
    pub fn record_tags(&self, actions: usize) -> Vec<(String, String)> {
        let mut tags = Vec::new();
        if let Some(c) = &self.clock {
            let spec = c.spec;
            let control = if spec.per_move { format!("1/{}", spec.initial_s) } else { format!("{}+{}", spec.initial_s, spec.increment_s) };
            tags.push(("TimeControl".to_string(), control));
            if self.action_clocks.len() == actions {
                let left: Vec<String> = self.action_clocks.iter().map(|ms| ms.map_or("-".into(), |ms| ms.to_string())).collect();
                tags.push(("UrClocks".to_string(), left.join(" ")));
            }
        }
        let termination = match self.end.as_deref() {
            Some("resign") => Some("resignation"),
            Some("time") => Some("time forfeit"),
            Some("draw") => Some("draw agreed"),
            Some("abandon") => Some("abandoned"),
            _ => None,
        };
        if let Some(t) = termination {
            tags.push(("Termination".to_string(), t.to_string()));
        }
        tags
    }

    /// `log` entries from `from` on, as a JSON array.
    pub fn log_json(&self, from: usize) -> String {
        format!("[{}]", self.log.get(from..).unwrap_or_default().join(","))
    }
}

fn roll(session: &mut Session, ev: &EventRow) -> Result<Value, String> {
    let raw = ev.raw.and_then(|r| u8::try_from(r).ok()).ok_or_else(|| step_err(ev, "no raw throw"))?;
    let rolled = session.roll(raw).map_err(|e| step_err(ev, e))?;
    let throw = rolled_throw(session.game(), raw, rolled.value);
    let mut entry = json!({
        "throw": throw.value,
        "action": null,
        "words": throw.words,
        "dice": {"kind": throw.kind, "dice": throw.dice},
    });
    if rolled.passed {
        entry["pass"] = json!(true);
    }
    Ok(entry)
}

fn act(session: &mut Session, ev: &EventRow) -> Result<Value, String> {
    let i = ev.action_index.unwrap_or(-1);
    let open = usize::try_from(i).ok().and_then(|i| session.game().actions().get(i).cloned().map(|a| (i, a)));
    let (index, action) = open.ok_or_else(|| step_err(ev, format!("no open action {i}")))?;
    if let Some(stored) = &ev.action {
        let now = serde_json::to_string(&action).unwrap_or_default();
        if &now != stored {
            return Err(step_err(ev, format!("action {i} is now {now}, stored as {stored}")));
        }
    }
    let said = action_said(session.game(), index);
    session.act(&action).map_err(|e| step_err(ev, e))?;
    let words = said.map(|a| a.words).unwrap_or_default();
    Ok(json!({"throw": null, "action": action.to_string(), "words": words}))
}
