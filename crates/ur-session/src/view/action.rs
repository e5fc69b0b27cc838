//! The open actions as a front end offers them: where a move goes, its
//! English text and its phrases, built together in one arm per action.

use serde_json::Value;
use ur_rules::effects::{effects, Effect, Lang};
use ur_rules::game::{Action, Choice, Game};
use ur_rules::marker::akalandung::{self, AkalandungAction};
use ur_rules::marker::bens::{self, BensAction};
use ur_rules::race::text::{move_tags, MoveTag};
use ur_rules::tower::{TowerAction, FINAL};
use ur_rules::{narrate, AnyAction, AnyGame, Side};

use super::{side_key, ActionView, BoardView, Phrase, Spot};

/// Where the mover's path positions are and what they are called.
struct Places<'a> {
    board: &'a BoardView,
    mover: Side,
}

impl Places<'_> {
    fn at(&self, pos: u8) -> Option<Spot> {
        self.board.paths[self.mover.index()].get(usize::from(pos).wrapping_sub(1)).map(|&square| Spot::Square { square })
    }

    fn name(&self, pos: u8) -> String {
        self.board.paths[self.mover.index()]
            .get(usize::from(pos).wrapping_sub(1))
            .and_then(|id| self.board.squares.iter().find(|s| s.id == *id))
            .map_or_else(String::new, |s| s.name.clone())
    }

    /// A move between path positions (0 = reserve, past `last` = off).
    fn spots(&self, from: u8, to: u8, last: u8) -> (Option<Spot>, Option<Spot>) {
        let side = side_key(self.mover);
        let f = if from == 0 { Some(Spot::Reserve { side: side.clone() }) } else { self.at(from) };
        let t = if to > last { Some(Spot::Off { side }) } else { self.at(to) };
        (f, t)
    }

    /// `3 (c1) -> 5 (e1)`, `enter -> 2 (b1)`, `13 (h2) -> off`.
    fn words(&self, from: u8, to: u8, last: u8) -> String {
        let f = if from == 0 { "enter".to_string() } else { format!("{from} ({})", self.name(from)) };
        let t = if to > last { "off".to_string() } else { format!("{to} ({})", self.name(to)) };
        format!("{f} -> {t}")
    }

    fn phrase(&self, key: &'static str, from: u8, to: u8, last: u8) -> Phrase {
        Phrase::movement(key, from, to, last, |p| self.name(p))
    }
}

/// One open action as the view shows it.
pub(super) fn action_view(game: &AnyGame, board: &BoardView, mover: Side, index: usize, action: &AnyAction) -> ActionView {
    let places = Places { board, mover };
    let json = serde_json::to_value(action).unwrap_or(Value::Null);
    let said = |kind: &str, (from, to): (Option<Spot>, Option<Spot>), text: String, words: Vec<Phrase>| ActionView {
        index,
        kind: kind.into(),
        from,
        to,
        text,
        words,
        json: json.clone(),
    };
    let choice = |text: &str, key: &'static str| said("choice", (None, None), text.into(), vec![Phrase::new(key)]);
    // What a move of the marker and tower families also does, said as the race's moves say it.
    let effects = family_effects(game, action);
    let step = |key: &'static str, prefix: &str, from: u8, to: u8, last: u8| {
        let mut text = format!("{prefix}{}", places.words(from, to, last));
        let mut words = vec![places.phrase(key, from, to, last)];
        if !effects.is_empty() {
            text += &format!(": {}", effects.iter().map(|e| e.0.as_str()).collect::<Vec<_>>().join(", "));
            words.extend(effects.iter().map(|e| e.1.clone()));
        }
        said("move", places.spots(from, to, last), text, words)
    };
    match (game, action) {
        (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) => {
            let last = g.rules().path_len();
            let mut words = vec![race_piece(g, places.phrase("act.move", m.from, m.to, last), m.piece)];
            words.extend(move_tags(g, *m).into_iter().map(fx_phrase));
            said("move", places.spots(m.from, m.to, last), narrate::label(game, action), words)
        }
        (AnyGame::Race(g), AnyAction::Race(Action::Choose(c))) => {
            let text = capitalized(&narrate::label(game, action));
            said("choice", (None, None), text, vec![race_choice(g, *c)])
        }
        (_, AnyAction::Bens(a)) => match *a {
            BensAction::Move { from, to } => step("act.move", "", from, to, bens::LEN),
            BensAction::Jump { from, to } => step("act.jump", "jump ", from, to, bens::LEN),
            BensAction::Exit { from } => step("act.exit", "leave the board: ", from, bens::OFF, bens::LEN),
        },
        (_, AnyAction::Akalandung(a)) => match *a {
            AkalandungAction::Move { from, to, warrior: true } => step("act.warrior", "the Warrior: ", from, to, akalandung::LEN),
            AkalandungAction::Move { from, to, warrior: false } => step("act.move", "", from, to, akalandung::LEN),
            AkalandungAction::Twins { from, to } => step("act.twins", "the Twins: ", from, to, akalandung::LEN),
            AkalandungAction::Pass => choice("Do not form the Twins: pass", "act.pass_twins"),
            AkalandungAction::Reroll => choice("Roll again", "act.reroll"),
            AkalandungAction::End => choice("End the turn", "act.end"),
        },
        (_, AnyAction::Tower(a)) => match *a {
            TowerAction::Move(m) => step("act.move", "", m.from, m.to, FINAL),
            TowerAction::Reroll => choice("Throw again", "act.reroll"),
            TowerAction::Move5 => choice("Move 5", "act.move5"),
        },
        _ => {
            let text = action.to_string();
            said("choice", (None, None), text.clone(), vec![Phrase::new("act.other").with("text", text)])
        }
    }
}

/// A marker or tower move's effects, in English and as phrases: a backward
/// move, prisoners carried along, then what the move does (a capture, a
/// conversion, prisoners taken or freed, an elimination, a promotion, an
/// extra roll, the win).
fn family_effects(game: &AnyGame, action: &AnyAction) -> Vec<(String, Phrase)> {
    let mut out = Vec::new();
    if matches!(game, AnyGame::Race(_)) {
        return out;
    }
    if let AnyAction::Tower(TowerAction::Move(m)) = action {
        if m.backward() {
            out.push(("backward".to_string(), Phrase::new("fx.backward")));
        }
        if m.carry > 0 {
            let text = format!("carrying {} prisoner{}", m.carry, if m.carry == 1 { "" } else { "s" });
            out.push((text, Phrase::new("fx.carry").with("n", m.carry)));
        }
    }
    let said = effects(game, action);
    // The tower games say a capture as the prisoners it takes; the view names the capture too.
    if game.captures(action) && !said.iter().any(|e| matches!(e, Effect::Captures { .. })) {
        out.push(("captures".to_string(), Phrase::new("fx.captures")));
    }
    out.extend(
        said.iter().map(|e| (if matches!(e, Effect::Captures { .. }) { "captures".into() } else { e.text(Lang::En) }, effect_phrase(e))),
    );
    out
}

/// An effect as a phrase (`fx.*`).
fn effect_phrase(e: &Effect) -> Phrase {
    match e {
        Effect::Captures { .. } => Phrase::new("fx.captures"),
        Effect::Converts => Phrase::new("fx.converts"),
        Effect::FormsTwins => Phrase::new("fx.forms_twins"),
        Effect::TakesOracle => Phrase::new("fx.takes_oracle"),
        Effect::TakesPrisoners { n } => Phrase::new("fx.prisoners").with("n", *n),
        Effect::Frees { n } => Phrase::new("fx.frees").with("n", *n),
        Effect::Eliminates { n } => Phrase::new("fx.eliminates").with("n", *n),
        Effect::Promotes { face } => Phrase::new("fx.promotes").with("face", face.as_str()),
        Effect::Rosette => Phrase::new("fx.rosette"),
        Effect::RollsAgain => Phrase::new("fx.rolls_again"),
        Effect::MayRollAgain => Phrase::new("fx.may_roll_again"),
        Effect::Wins => Phrase::new("fx.wins"),
    }
}

/// A named bird's move names the bird.
fn race_piece(g: &Game, phrase: Phrase, piece: u8) -> Phrase {
    if piece == 0 {
        return phrase;
    }
    Phrase { key: "act.bird", ..phrase }.with("bird", narrate::bird_name(g.rules(), piece)).with("n", piece)
}

fn race_choice(g: &Game, c: Choice) -> Phrase {
    match c {
        Choice::Reroll => Phrase::new("act.reroll"),
        Choice::End => Phrase::new("act.end"),
        Choice::Move => Phrase::new("act.declare_move"),
        Choice::Summon => match g.next_bird() {
            Some(b) => Phrase::new("act.declare_summon")
                .with("bird", narrate::bird_name(g.rules(), b))
                .with("n", b)
                .with("need", g.rules().call_value(b)),
            None => Phrase::new("act.declare_summon_next"),
        },
    }
}

fn fx_phrase(tag: MoveTag) -> Phrase {
    Phrase::new(match tag {
        MoveTag::Wins => "fx.wins",
        MoveTag::Captures => "fx.captures",
        MoveTag::Rosette => "fx.rosette",
        MoveTag::RollsAgain => "fx.rolls_again",
        MoveTag::MayRollAgain => "fx.may_roll_again",
    })
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
