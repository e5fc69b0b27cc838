//! Every rule family behind one game type.
//!
//! [`AnyGame`] holds a game of any family and is itself [`Playable`], so that
//! players, bots, records and the engine protocol work on them all. Its
//! decisions are [`AnyAction`]s, read from text or JSON only by a game
//! ([`AnyGame::action_from_text`], [`AnyGame::action_from_json`]): a move of
//! one family never reads as another's.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::catalogue::{family_of, Family};
use crate::game::{Action, Game};
use crate::marker::akalandung::{self, AkalandungAction, AkalandungGame};
use crate::marker::bens::{self, BensAction, BensGame};
use crate::play::{PlayError, Playable, Turn};
use crate::rules::Rules;
use crate::spec::{Options, SpecError};
use crate::tower::{TowerAction, TowerGame};
use crate::Side;

/// A game of any family.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Race(Game),
    Tower(TowerGame),
    Bens(BensGame),
    Akalandung(AkalandungGame),
}

/// A decision in a game of any family. It writes itself as its family's JSON
/// (untagged); reading one takes the game ([`AnyGame::action_from_json`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnyAction {
    Race(Action),
    Tower(TowerAction),
    Bens(BensAction),
    Akalandung(AkalandungAction),
}

impl AnyAction {
    /// The race action, for the race-only tools.
    pub fn as_race(&self) -> Option<&Action> {
        match self {
            AnyAction::Race(a) => Some(a),
            _ => None,
        }
    }
}

impl fmt::Display for AnyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyAction::Race(a) => a.fmt(f),
            AnyAction::Tower(a) => a.fmt(f),
            AnyAction::Bens(a) => a.fmt(f),
            AnyAction::Akalandung(a) => a.fmt(f),
        }
    }
}

/// Calls `$body` with `$g` bound to the family's game.
macro_rules! each {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            AnyGame::Race($g) => $body,
            AnyGame::Tower($g) => $body,
            AnyGame::Bens($g) => $body,
            AnyGame::Akalandung($g) => $body,
        }
    };
}

impl AnyGame {
    /// A new game of a built-in rule set with options, `first` to move.
    ///
    /// # Errors
    /// An unknown rule set or a bad option.
    pub fn new(id: &str, options: &Options, first: Side) -> Result<AnyGame, SpecError> {
        match family_of(id) {
            Some(Family::Race) | None => {
                let rules = Rules::builtin_with(id, options)?;
                Ok(AnyGame::Race(Game::new(rules.into(), first)))
            }
            Some(Family::Tower) => Ok(AnyGame::Tower(TowerGame::new(id, options, first)?)),
            Some(Family::Bens) if id == bens::ID => Ok(AnyGame::Bens(BensGame::new(options, first)?)),
            Some(Family::Bens) => Ok(AnyGame::Akalandung(AkalandungGame::new(options, first)?)),
        }
    }

    /// A game of a built-in rule set with options from a position in the
    /// family's JSON (see [`AnyGame::set_position`]).
    ///
    /// # Errors
    /// An unknown rule set or a bad option ([`PlayError::Options`]), or a
    /// position that does not read or breaks the rules.
    pub fn from_position(id: &str, options: &Options, position: &Value) -> Result<AnyGame, PlayError> {
        let mut game = AnyGame::new(id, options, Side::Light)?;
        game.set_position(position)?;
        Ok(game)
    }

    pub fn family(&self) -> Family {
        match self {
            AnyGame::Race(_) => Family::Race,
            AnyGame::Tower(_) => Family::Tower,
            AnyGame::Bens(_) | AnyGame::Akalandung(_) => Family::Bens,
        }
    }

    /// A copy for a search: the same position and rules without the record
    /// of how the game got there (histories grow with every step, and
    /// searches copy the game at every step; the tower games keep theirs, as
    /// repetitions end games).
    pub fn without_history(&self) -> AnyGame {
        if let AnyGame::Race(r) = self {
            return AnyGame::Race(r.without_history());
        }
        let mut g = self.clone();
        match &mut g {
            AnyGame::Bens(b) => b.forget_history(),
            AnyGame::Akalandung(a) => a.forget_history(),
            AnyGame::Race(_) | AnyGame::Tower(_) => {}
        }
        g
    }

    /// Pieces (markers, tokens) each side plays with under the game's options.
    pub fn pieces_per_side(&self) -> u8 {
        match self {
            AnyGame::Race(g) => g.rules().pieces(),
            AnyGame::Tower(g) => g.rules().tokens,
            AnyGame::Bens(g) => g.pieces_per_side(),
            AnyGame::Akalandung(g) => g.pieces_per_side(),
        }
    }

    /// Writes into `out` (cleared first) everything the rest of the game
    /// depends on: two games with equal keys go on alike. The history is not
    /// in it, so for the tower games the key is exact only with T10 off
    /// (`no_progress_turns=0`, `repetition_limit=0`). For solvers that walk
    /// every situation of a small variant.
    pub fn situation_key(&self, out: &mut Vec<u8>) {
        out.clear();
        match self {
            AnyGame::Race(g) => crate::situation_key::push_hashed(out, &g.situation()),
            AnyGame::Tower(g) => g.situation_key(out),
            AnyGame::Bens(g) => g.situation_key(out),
            AnyGame::Akalandung(g) => g.situation_key(out),
        }
    }

    /// Whether `action`, open now, takes an opposing piece: sends it back
    /// (the races and marker games) or takes its stack (the tower games).
    pub fn captures(&self, action: &AnyAction) -> bool {
        match (self, action) {
            (AnyGame::Race(g), AnyAction::Race(crate::game::Action::Move(m))) => {
                crate::race::text::move_tags(g, *m).contains(&crate::race::text::MoveTag::Captures)
            }
            (AnyGame::Bens(g), AnyAction::Bens(a)) => g.captures(a),
            (AnyGame::Akalandung(g), AnyAction::Akalandung(a)) => g.captures(a),
            (AnyGame::Tower(g), AnyAction::Tower(a)) => g.captures(a),
            _ => false,
        }
    }

    /// The race game, for the race-only code that needs its speed (tables,
    /// evaluation, the bots' searches).
    pub fn as_race(&self) -> Option<&Game> {
        match self {
            AnyGame::Race(g) => Some(g),
            _ => None,
        }
    }

    /// The race game, mutable (rolls with their reports, records).
    pub fn as_race_mut(&mut self) -> Option<&mut Game> {
        match self {
            AnyGame::Race(g) => Some(g),
            _ => None,
        }
    }

    /// The position as JSON for the engine protocol: the family's position
    /// ([`Playable::position`]) for the race, a fuller view for the others
    /// (the turn, the throw, the options). [`AnyGame::set_position`] reads
    /// it back.
    pub fn position_json(&self) -> Value {
        match self {
            AnyGame::Race(g) => to_json(&g.position()),
            AnyGame::Tower(g) => to_json(&g.snapshot()),
            AnyGame::Bens(g) => to_json(&g.snapshot()),
            AnyGame::Akalandung(g) => to_json(&g.snapshot()),
        }
    }

    /// Reads a decision of this game's family from its JSON form.
    ///
    /// # Errors
    /// [`PlayError::WrongFamily`] for the JSON of another family's action,
    /// [`PlayError::BadAction`] for JSON that is no action at all.
    pub fn action_from_json(&self, value: &Value) -> Result<AnyAction, PlayError> {
        match self {
            AnyGame::Race(_) => self.decode(value).map(AnyAction::Race),
            AnyGame::Tower(_) => self.decode(value).map(AnyAction::Tower),
            AnyGame::Bens(_) => self.decode(value).map(AnyAction::Bens),
            AnyGame::Akalandung(_) => self.decode(value).map(AnyAction::Akalandung),
        }
    }

    fn decode<A: DeserializeOwned>(&self, value: &Value) -> Result<A, PlayError> {
        serde_json::from_value(value.clone()).map_err(|e| {
            let (action, rules) = (value.to_string(), self.rule_id().to_owned());
            if let Some(other) = action_family(value).filter(|&f| f != self.family_tag()) {
                PlayError::WrongFamily { action: format!("{action} (a {other} action)"), rules }
            } else {
                PlayError::BadAction { input: action, rules, why: e.to_string() }
            }
        })
    }

    /// The family's name for [`action_family`].
    fn family_tag(&self) -> &'static str {
        match self {
            AnyGame::Race(_) => "race",
            AnyGame::Tower(_) => "tower",
            AnyGame::Bens(_) => bens::ID,
            AnyGame::Akalandung(_) => akalandung::ID,
        }
    }

    /// The open decision that `text` names: its own text, or the same move
    /// written `FROM TO`, `FROM->TO` or `FROM-TO` for every family, without
    /// a word such as `warrior` or `jump` when only one open move has those
    /// squares. Case and spacing do not matter.
    ///
    /// # Errors
    /// [`PlayError::NotOpen`] listing the open decisions when none reads so,
    /// or [`PlayError::BadAction`] naming the candidates when several do.
    pub fn action_from_text(&self, text: &str) -> Result<AnyAction, PlayError> {
        let actions = self.actions();
        let typed = crate::text_input::words(text);
        let texts: Vec<String> = actions.iter().map(ToString::to_string).collect();
        match crate::text_input::pick(&typed, &texts) {
            Ok(i) => Ok(actions[i].clone()),
            Err(candidates) if candidates.len() > 1 => Err(PlayError::BadAction {
                input: text.trim().to_owned(),
                rules: self.rule_id().to_owned(),
                why: format!("it could be {}", candidates.iter().map(|&i| texts[i].as_str()).collect::<Vec<_>>().join(" or ")),
            }),
            Err(_) => Err(PlayError::NotOpen { action: text.trim().to_owned(), open: texts }),
        }
    }
}

/// Which family an action's JSON looks like, by its shape (for errors).
fn action_family(value: &Value) -> Option<&'static str> {
    let kind = value.get("kind").and_then(Value::as_str);
    if value.get("stack_move").is_some() || matches!(value.as_str(), Some("reroll" | "move5")) {
        Some("tower")
    } else if ["move", "roll", "choose"].iter().any(|k| value.get(k).is_some()) {
        Some("race")
    } else if matches!(kind, Some("jump" | "exit")) {
        Some(bens::ID)
    } else if matches!(kind, Some("twins" | "pass" | "reroll" | "end")) || value.get("warrior").is_some() {
        Some(akalandung::ID)
    } else {
        None
    }
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("positions serialise to JSON")
}

/// Reads a family's position from JSON: its own position format, else the
/// fuller view of [`AnyGame::position_json`] converted by `from_view`.
fn read_position<P: DeserializeOwned, V: DeserializeOwned>(
    json: &Value,
    from_view: impl Fn(V) -> Result<P, PlayError>,
) -> Result<P, PlayError> {
    match serde_json::from_value::<P>(json.clone()) {
        Ok(p) => Ok(p),
        Err(e) => match serde_json::from_value::<V>(json.clone()) {
            Ok(view) => from_view(view),
            Err(_) => Err(PlayError::BadPosition(e.to_string())),
        },
    }
}

impl From<Game> for AnyGame {
    fn from(g: Game) -> AnyGame {
        AnyGame::Race(g)
    }
}

impl Playable for AnyGame {
    type Action = AnyAction;
    /// The family's position ([`Playable::position`] of its game) as JSON.
    type Position = Value;

    fn rule_id(&self) -> &str {
        each!(self, g => g.rule_id())
    }
    fn side_name(&self, side: Side) -> &str {
        each!(self, g => g.side_name(side))
    }
    fn turn(&self) -> Turn {
        each!(self, g => g.turn())
    }
    fn outcomes(&self) -> Vec<(u8, f64)> {
        each!(self, g => g.outcomes())
    }
    fn roll(&mut self, raw: u8) -> Result<(), PlayError> {
        each!(self, g => Playable::roll(g, raw))
    }
    fn actions(&self) -> Vec<AnyAction> {
        match self {
            AnyGame::Race(g) => g.actions().into_iter().map(AnyAction::Race).collect(),
            AnyGame::Tower(g) => g.actions().into_iter().map(AnyAction::Tower).collect(),
            AnyGame::Bens(g) => g.actions().into_iter().map(AnyAction::Bens).collect(),
            AnyGame::Akalandung(g) => g.actions().into_iter().map(AnyAction::Akalandung).collect(),
        }
    }
    fn apply(&mut self, action: &AnyAction) -> Result<(), PlayError> {
        match (self, action) {
            (AnyGame::Race(g), AnyAction::Race(a)) => Playable::apply(g, a),
            (AnyGame::Tower(g), AnyAction::Tower(a)) => g.apply(a),
            (AnyGame::Bens(g), AnyAction::Bens(a)) => g.apply(a),
            (AnyGame::Akalandung(g), AnyAction::Akalandung(a)) => g.apply(a),
            (g, a) => Err(PlayError::WrongFamily { action: a.to_string(), rules: g.rule_id().to_owned() }),
        }
    }
    /// # Panics
    /// On an action of another family.
    fn apply_unchecked(&mut self, action: &AnyAction) {
        match (self, action) {
            (AnyGame::Race(g), AnyAction::Race(a)) => g.apply_unchecked(a),
            (AnyGame::Tower(g), AnyAction::Tower(a)) => g.apply_unchecked(a),
            (AnyGame::Bens(g), AnyAction::Bens(a)) => g.apply_unchecked(a),
            (AnyGame::Akalandung(g), AnyAction::Akalandung(a)) => g.apply_unchecked(a),
            (g, a) => panic!("{a} is not an action of rule set '{}'", g.rule_id()),
        }
    }
    fn standing(&self, side: Side) -> f64 {
        each!(self, g => g.standing(side))
    }
    fn position(&self) -> Value {
        each!(self, g => to_json(&g.position()))
    }
    /// Sets up a position given as JSON, in the family's position format
    /// ([`Playable::position`]) or as [`AnyGame::position_json`] shows it;
    /// the rules and options stay.
    fn set_position(&mut self, json: &Value) -> Result<(), PlayError> {
        match self {
            AnyGame::Race(g) => {
                let p = serde_json::from_value(json.clone()).map_err(|e| PlayError::BadPosition(e.to_string()))?;
                g.set_position(&p)
            }
            AnyGame::Tower(g) => {
                let p = read_position(json, |v: crate::tower::TowerSnapshot| Ok(v.to_setup()))?;
                g.set_position(&p)
            }
            AnyGame::Bens(g) => {
                let p = read_position(json, |v: bens::BensSnapshot| v.to_setup())?;
                g.set_position(&p)
            }
            AnyGame::Akalandung(g) => {
                let p = read_position(json, |v: akalandung::AkalandungSnapshot| v.to_setup())?;
                g.set_position(&p)
            }
        }
    }
    fn board_text(&self) -> String {
        each!(self, g => g.board_text())
    }
}

#[cfg(test)]
mod tests;
