//! Decisions of every family in words, in English or French, worded as the
//! race moves are: the piece, where from, where to, then what it does
//! (`9 (M5) -> 13 (A5): takes 2 prisoners`, `4 -> 5: captures, wins the game`).

use crate::any::{AnyAction, AnyGame};
use crate::effects::{effects, Effect, Lang};
use crate::marker::akalandung::{self, AkalandungAction};
use crate::marker::bens::{self, BensAction};
use crate::play::{Playable, Turn};
use crate::tower::{square, square_name, TowerAction, FINAL};
use crate::Side;

/// A decision of a marker or tower game as a line of the list: its move
/// and its effects (a race decision is worded by `narrate::label`).
pub fn family_label(game: &AnyGame, action: &AnyAction, lang: Lang) -> String {
    let mover = match game.turn() {
        Turn::Decide(s) | Turn::Roll(s) => s,
        Turn::Over(_) => Side::Light,
    };
    let base = match action {
        AnyAction::Bens(a) => bens_words(*a, lang),
        AnyAction::Akalandung(a) => akalandung_words(*a, lang),
        AnyAction::Tower(a) => tower_words(*a, mover, lang),
        AnyAction::Race(_) => action.to_string(),
    };
    with_effects(base, &effects(game, action), lang)
}

/// `base: effect, effect`.
pub fn with_effects(base: String, effects: &[Effect], lang: Lang) -> String {
    if effects.is_empty() {
        return base;
    }
    let said: Vec<String> = effects.iter().map(|e| e.text(lang)).collect();
    format!("{base}{}{}", lang.pick(": ", "\u{a0}: "), said.join(", "))
}

/// A path position: `enter` for the reserve, `off` past the last square.
fn place(pos: u8, last: u8, lang: Lang, name: impl Fn(u8) -> String) -> String {
    if pos == 0 {
        lang.pick("enter", "entrée").into()
    } else if pos > last {
        lang.pick("off", "sortie").into()
    } else {
        let n = name(pos);
        if n.is_empty() {
            pos.to_string()
        } else {
            format!("{pos} ({n})")
        }
    }
}

fn span(from: u8, to: u8, last: u8, lang: Lang, name: impl Fn(u8) -> String) -> String {
    format!("{} -> {}", place(from, last, lang, &name), place(to, last, lang, &name))
}

fn bens_words(a: BensAction, lang: Lang) -> String {
    let plain = |_| String::new();
    match a {
        BensAction::Move { from, to } => span(from, to, bens::LEN, lang, plain),
        BensAction::Jump { from, to } => format!("{} {}", lang.pick("jump", "saut"), span(from, to, bens::LEN, lang, plain)),
        BensAction::Exit { from } => {
            format!("{}{}", lang.pick("leave the board: ", "quitter le plateau\u{a0}: "), span(from, bens::OFF, bens::LEN, lang, plain))
        }
    }
}

fn akalandung_words(a: AkalandungAction, lang: Lang) -> String {
    let last = akalandung::LEN;
    let plain = |_| String::new();
    match a {
        AkalandungAction::Move { from, to, warrior: true } => {
            format!("{}{}", lang.pick("the Warrior: ", "le Guerrier\u{a0}: "), span(from, to, last, lang, plain))
        }
        AkalandungAction::Move { from, to, warrior: false } => span(from, to, last, lang, plain),
        AkalandungAction::Twins { from, to } => {
            format!("{}{}", lang.pick("the Twins: ", "les Jumeaux\u{a0}: "), span(from, to, last, lang, plain))
        }
        AkalandungAction::Pass => lang.pick("do not form the Twins: pass", "ne pas former les Jumeaux\u{a0}: passer").into(),
        AkalandungAction::Reroll => lang.pick("roll again", "relancer").into(),
        AkalandungAction::End => lang.pick("end the turn", "finir le tour").into(),
    }
}

fn tower_words(a: TowerAction, mover: Side, lang: Lang) -> String {
    match a {
        TowerAction::Reroll => lang.pick("throw again", "relancer").into(),
        TowerAction::Move5 => lang.pick("move 5", "avancer de 5").into(),
        TowerAction::Move(m) => {
            let mut s = span(m.from, m.to, FINAL, lang, |p| square_name(square(mover, p)));
            if m.backward() {
                s += lang.pick(", backward", ", en arrière");
            }
            match (m.carry, lang) {
                (0, _) => {}
                (1, _) => s += lang.pick(", carrying 1 prisoner", ", emmène 1 prisonnier"),
                (n, Lang::En) => s += &format!(", carrying {n} prisoners"),
                (n, Lang::Fr) => s += &format!(", emmène {n} prisonniers"),
            }
            s
        }
    }
}
