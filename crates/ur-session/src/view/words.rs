//! The view's words as phrases: a message key and its arguments, so that a
//! front end can say them in its own language (the browser app speaks
//! English and French). Every English text of the view has its phrases
//! beside it, built in the same place so the two cannot drift apart.
//!
//! Keys: `act.*` an action, `fx.*` what a move does besides moving,
//! `throw.*` a throw, `note.*` a note on the position. docs/serve.md lists
//! them with their arguments.

use serde::Serialize;
use serde_json::{Map, Value};
use ur_rules::dice::{DiceModel, Extra};

/// Every phrase key the view uses, with its arguments after a colon (a
/// front end must word each one).
pub const PHRASE_KEYS: &[&str] = &[
    "act.move: from to [from_square] [to_square]",
    "act.bird: bird n from to [from_square] [to_square]",
    "act.jump: from to [from_square] [to_square]",
    "act.exit: from to [from_square]",
    "act.warrior: from to [from_square] [to_square]",
    "act.twins: from to [from_square] [to_square]",
    "act.reroll:",
    "act.end:",
    "act.move5:",
    "act.pass_twins:",
    "act.declare_move:",
    "act.declare_summon: bird n need",
    "act.declare_summon_next:",
    "act.other: text",
    "fx.wins:",
    "fx.captures:",
    "fx.rosette:",
    "fx.rolls_again:",
    "fx.may_roll_again:",
    "fx.backward:",
    "fx.carry: n",
    "fx.converts:",
    "fx.forms_twins:",
    "fx.takes_oracle:",
    "fx.prisoners: n",
    "fx.frees: n",
    "fx.eliminates: n",
    "fx.promotes: face",
    "throw.marked: n",
    "throw.face: n",
    "throw.blank:",
    "throw.move: n",
    "throw.no_move:",
    "throw.threw: n",
    "throw.roll_again:",
    "throw.may_roll_again:",
    "throw.cannot_enter:",
    "throw.zero_jump:",
    "throw.again_or_move5:",
    "throw.passes:",
    "note.pot: light dark",
    "note.next_bird: bird n need",
    "note.start_procedure:",
    "note.free_turn:",
    "note.oracle: side",
    "note.faces: plain promoted",
    "note.prisoners: side held gone",
    "note.quiet: n",
    "note.ended: reason",
];

/// One phrase: what to say, and the values to say it with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phrase {
    pub key: &'static str,
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub args: Map<String, Value>,
}

impl Phrase {
    pub fn new(key: &'static str) -> Self {
        Phrase { key, args: Map::new() }
    }

    /// The phrase with one more argument.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.args.insert(name.into(), value.into());
        self
    }

    /// A move between path positions: `from` 0 is the reserve, `to` past
    /// `last` is off; squares on the board are named.
    pub(super) fn movement(key: &'static str, from: u8, to: u8, last: u8, name: impl Fn(u8) -> String) -> Self {
        let mut p = Phrase::new(key).with("from", from).with("to", to);
        if from > 0 && from <= last {
            p = p.with("from_square", name(from));
        }
        if to <= last {
            p = p.with("to_square", name(to));
        }
        p
    }
}

/// Notes on a position, in English and as phrases, kept in step.
#[derive(Default)]
pub(super) struct Notes {
    pub text: Vec<String>,
    pub words: Vec<Phrase>,
}

impl Notes {
    pub fn push(&mut self, text: String, words: Phrase) {
        self.text.push(text);
        self.words.push(words);
    }
}

/// What the dice show: marked tips of binary dice, or a die's face.
pub(super) fn shows(model: DiceModel, raw: u8) -> (String, Phrase) {
    match model {
        DiceModel::Bin3 | DiceModel::Bin4 => {
            (format!("{raw} marked tip{}", if raw == 1 { "" } else { "s" }), Phrase::new("throw.marked").with("n", raw))
        }
        DiceModel::D4 | DiceModel::D6 => (format!("a {raw}"), Phrase::new("throw.face").with("n", raw)),
    }
}

/// A throw's move: `move N`, or `no move` for a zero.
pub(super) fn moves(value: u8) -> (String, Phrase) {
    if value == 0 {
        ("no move".into(), Phrase::new("throw.no_move"))
    } else {
        (format!("move {value}"), Phrase::new("throw.move").with("n", value))
    }
}

/// What a race throw does besides its move: an extra roll, no entering.
pub(super) fn throw_extras(extra: Extra, enter: bool) -> (String, Vec<Phrase>) {
    let mut parts = Vec::new();
    match extra {
        Extra::Auto => parts.push(("then roll again", "throw.roll_again")),
        Extra::Optional => parts.push(("then may roll again", "throw.may_roll_again")),
        Extra::None => {}
    }
    if !enter {
        parts.push(("cannot enter a piece", "throw.cannot_enter"));
    }
    let text = parts.iter().map(|p| p.0).collect::<Vec<_>>().join(", ");
    (text, parts.into_iter().map(|p| Phrase::new(p.1)).collect())
}

/// `2 marked tips: move 2`: what the dice show and the move it gives.
pub(super) fn shown_move(model: DiceModel, raw: u8, value: u8) -> (String, Vec<Phrase>) {
    let (shown, shown_words) = shows(model, raw);
    let (moved, moved_words) = moves(value);
    (format!("{shown}: {moved}"), vec![shown_words, moved_words])
}
