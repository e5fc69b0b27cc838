//! What a decision does besides moving a piece, for every family, and the
//! two languages a game is told in.
//!
//! The effects are found by playing the decision on a copy and comparing
//! the positions before and after, so every family's rules speak for
//! themselves: a piece sent home, a marker converted, prisoners taken or
//! eliminated, a token promoted, an extra roll, the win.

use serde::Serialize;
use serde_json::Value;

use crate::any::{AnyAction, AnyGame};
use crate::game::Action;
use crate::play::{Playable, Turn};
use crate::race::text::{move_tags, MoveTag};
use crate::tower::{square, TowerAction, TowerGame};
use crate::Side;

/// The language a game is told in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Fr,
}

impl Lang {
    /// `en` or `fr` (also `english`, `français`...); `None` for another language.
    pub fn parse(text: &str) -> Option<Lang> {
        match text.trim().to_lowercase().get(..2)? {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            _ => None,
        }
    }

    /// The English or the French of a text.
    pub fn pick<'a>(self, en: &'a str, fr: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Fr => fr,
        }
    }
}

/// One thing a decision does besides moving.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Effect {
    /// Opposing pieces sent back to their owner's reserve.
    Captures {
        n: u8,
    },
    /// A blank marker turned dotted (`bens-ur`).
    Converts,
    /// The Twins formed (`ludens-akalandung`).
    FormsTwins,
    /// The Oracle's Vision taken (`ludens-akalandung`).
    TakesOracle,
    /// Enemy tokens made prisoners under the mover (the tower games).
    TakesPrisoners {
        n: u32,
    },
    /// Prisoners set free (left on the middle strip, or own tokens freed by a capture).
    Frees {
        n: u32,
    },
    /// Enemy tokens removed from the game.
    Eliminates {
        n: u8,
    },
    /// A token turned to its promoted face (`face`: the rule set's name of it).
    Promotes {
        face: String,
    },
    Rosette,
    RollsAgain,
    MayRollAgain,
    Wins,
}

impl Effect {
    /// The effect in words, as a race move's tags say theirs.
    pub fn text(&self, lang: Lang) -> String {
        let plural = |n: u32, one: &str, many: &str| if n == 1 { one.to_string() } else { many.replace('N', &n.to_string()) };
        match (self, lang) {
            (Effect::Captures { n: 1 }, _) => lang.pick("captures", "prend").into(),
            (Effect::Captures { n }, Lang::En) => format!("captures {n}"),
            (Effect::Captures { n }, Lang::Fr) => format!("prend {n} pions"),
            (Effect::Converts, _) => lang.pick("converts the marker to dotted", "le marqueur devient pointé").into(),
            (Effect::FormsTwins, _) => lang.pick("forms the Twins", "forme les Jumeaux").into(),
            (Effect::TakesOracle, _) => lang.pick("takes the Oracle's Vision", "prend la Vision de l'Oracle").into(),
            (Effect::TakesPrisoners { n }, Lang::En) => plural(*n, "takes 1 prisoner", "takes N prisoners"),
            (Effect::TakesPrisoners { n }, Lang::Fr) => plural(*n, "fait 1 prisonnier", "fait N prisonniers"),
            (Effect::Frees { n }, Lang::En) => plural(*n, "frees 1 prisoner", "frees N prisoners"),
            (Effect::Frees { n }, Lang::Fr) => plural(*n, "libère 1 prisonnier", "libère N prisonniers"),
            (Effect::Eliminates { n }, Lang::En) => plural(u32::from(*n), "eliminates 1 token", "eliminates N tokens"),
            (Effect::Eliminates { n }, Lang::Fr) => plural(u32::from(*n), "élimine 1 pion", "élimine N pions"),
            (Effect::Promotes { face }, Lang::En) => format!("promoted ({face})"),
            (Effect::Promotes { face }, Lang::Fr) => format!("promu ({})", face_fr(face)),
            (Effect::Rosette, _) => "rosette".into(),
            (Effect::RollsAgain, _) => lang.pick("rolls again", "rejoue").into(),
            (Effect::MayRollAgain, _) => lang.pick("may roll again", "peut rejouer").into(),
            (Effect::Wins, _) => lang.pick("wins the game", "gagne la partie").into(),
        }
    }
}

/// The French of a tower rule set's face name.
pub fn face_fr(face: &str) -> &str {
    match face {
        "red" => "rouge",
        "blue" => "bleu",
        "black" => "noir",
        "white" => "blanc",
        "vizier" => "vizir",
        "pawn" => "pion",
        "guard" => "garde",
        "blank" => "vierge",
        other => other,
    }
}

/// What `action`, open in `game`, does besides moving. Empty for an action
/// that is not open.
pub fn effects(game: &AnyGame, action: &AnyAction) -> Vec<Effect> {
    if let (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) = (game, action) {
        return move_tags(g, *m).into_iter().map(race_effect).collect();
    }
    let Turn::Decide(mover) = game.turn() else { return Vec::new() };
    let mut after = game.clone();
    if after.apply(action).is_err() {
        return Vec::new();
    }
    let (a, b) = (game.position_json(), after.position_json());
    let mut out = match game {
        AnyGame::Bens(_) => marker_effects(&a, &b, mover, game.captures(action)),
        AnyGame::Akalandung(_) => akalandung_effects(&a, &b, mover, game.captures(action)),
        AnyGame::Tower(t) => tower_effects(&a, &b, mover, t.rules().faces[1], tower_taken(t, action)),
        AnyGame::Race(_) => Vec::new(),
    };
    out.extend(turn_effects(game, &after, mover));
    out
}

fn race_effect(tag: MoveTag) -> Effect {
    match tag {
        MoveTag::Wins => Effect::Wins,
        MoveTag::Captures => Effect::Captures { n: 1 },
        MoveTag::Rosette => Effect::Rosette,
        MoveTag::RollsAgain => Effect::RollsAgain,
        MoveTag::MayRollAgain => Effect::MayRollAgain,
    }
}

/// An extra roll, or the win, from the turn after the decision.
fn turn_effects(before: &AnyGame, after: &AnyGame, mover: Side) -> Vec<Effect> {
    match after.turn() {
        Turn::Over(Some(w)) if w == mover => vec![Effect::Wins],
        Turn::Roll(s) if s == mover => vec![Effect::RollsAgain],
        // A decision of the same side that is not the same decision: a reroll offered.
        Turn::Decide(s) if s == mover && after.actions().iter().any(is_reroll) && !before.actions().iter().any(is_reroll) => {
            vec![Effect::MayRollAgain]
        }
        _ => Vec::new(),
    }
}

fn is_reroll(a: &AnyAction) -> bool {
    a.to_string() == "reroll"
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::Light => "light",
        Side::Dark => "dark",
    }
}

/// The length of a list field of one side of a snapshot.
fn count(snap: &Value, side: Side, field: &str) -> usize {
    snap[side_key(side)][field].as_array().map_or(0, Vec::len)
}

fn number(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

fn fewer(before: usize, after: usize) -> u8 {
    u8::try_from(before.saturating_sub(after)).unwrap_or(u8::MAX)
}

/// `bens-ur`: a capture (`captured`: the game says the move takes), a blank marker turned dotted.
fn marker_effects(a: &Value, b: &Value, mover: Side, captured: bool) -> Vec<Effect> {
    let mut out = Vec::new();
    let foe = mover.other();
    let on_board = |s: &Value| count(s, foe, "blank") + count(s, foe, "dotted");
    if captured {
        out.push(Effect::Captures { n: fewer(on_board(a), on_board(b)).max(1) });
    }
    // Borne-off markers are dotted: a conversion adds to dotted-or-off.
    let dotted = |s: &Value| count(s, mover, "dotted") as u64 + number(&s[side_key(mover)]["off"]);
    if dotted(b) > dotted(a) {
        out.push(Effect::Converts);
    }
    out
}

/// `ludens-akalandung`: a capture (`captured`: the game says the move takes;
/// the Oracle's sweep is said as taking the Vision), the Twins formed, the Oracle taken.
fn akalandung_effects(a: &Value, b: &Value, mover: Side, captured: bool) -> Vec<Effect> {
    let mut out = Vec::new();
    let foe = mover.other();
    let on_board = |s: &Value| count(s, foe, "path") + 2 * count(s, foe, "twins");
    if captured {
        out.push(Effect::Captures { n: fewer(on_board(a), on_board(b)).max(1) });
    }
    if count(b, mover, "twins") > count(a, mover, "twins") {
        out.push(Effect::FormsTwins);
    }
    let key = Value::from(side_key(mover));
    if b["oracle"] == key && a["oracle"] != key {
        out.push(Effect::TakesOracle);
    }
    out
}

/// The enemy tokens a tower move lands on: the free run of an enemy stack.
fn tower_taken(game: &TowerGame, action: &AnyAction) -> u64 {
    match action {
        AnyAction::Tower(TowerAction::Move(m)) if game.captures(&TowerAction::Move(*m)) => {
            u64::from(game.stacks().free_run(square(game.to_move(), m.to)))
        }
        _ => 0,
    }
}

/// The tower games: prisoners taken and freed, tokens eliminated, a promotion.
/// `taken`: the enemy tokens landed on (one move may take some and leave others).
fn tower_effects(a: &Value, b: &Value, mover: Side, promoted_face: &str, taken: u64) -> Vec<Effect> {
    let mut out = Vec::new();
    let (me, foe) = (mover.index(), mover.other().index());
    let held = |s: &Value, i: usize| number(&s["prisoners"][i]);
    let gone = |s: &Value, i: usize| number(&s["eliminated"][i]);
    let eliminated = gone(b, foe).saturating_sub(gone(a, foe));
    if taken > 0 {
        out.push(Effect::TakesPrisoners { n: u32::try_from(taken).unwrap_or(u32::MAX) });
    }
    // Enemy prisoners that are neither held nor eliminated any more went free; so did own tokens freed by a capture.
    let left = (held(a, foe) + taken).saturating_sub(eliminated).saturating_sub(held(b, foe));
    let freed = left + held(a, me).saturating_sub(held(b, me));
    if freed > 0 {
        out.push(Effect::Frees { n: u32::try_from(freed).unwrap_or(u32::MAX) });
    }
    if eliminated > 0 {
        out.push(Effect::Eliminates { n: u8::try_from(eliminated).unwrap_or(u8::MAX) });
    }
    let promoted = |s: &Value| {
        let stacks = s["stacks"].as_array().cloned().unwrap_or_default();
        stacks
            .iter()
            .flat_map(|st| st["tokens"].as_array().cloned().unwrap_or_default())
            .filter(|t| t["owner"] == side_key(mover) && t["face"] == "promoted")
            .count()
    };
    if promoted(b) > promoted(a) {
        out.push(Effect::Promotes { face: promoted_face.to_string() });
    }
    out
}
