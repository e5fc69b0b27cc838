//! What front ends report of a game of any family: what a roll and a
//! decision did, the open moves with what each would do, and the race's
//! own details (throw values, extra-roll choices, the betting pot).
//!
//! Front ends (the engine protocol, the terminal game, the web server) see
//! games only as [`AnyGame`]; the race details they show are read here, so
//! nothing outside the rules reaches into the race game.

use std::sync::Arc;

use serde::Serialize;

use crate::any::{AnyAction, AnyGame};
use crate::game::{Action, Choice, Game, Phase};
use crate::movegen::{Move, MoveEffect};
use crate::play::{PlayError, Playable, Turn};
use crate::record::GameRecord;
use crate::rules::Rules;
use crate::Side;

/// A named piece's summon roll: the call, or the placement after a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SummonStage {
    Call,
    Placement,
}

/// What a summon roll did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Summon {
    pub bird: u8,
    pub success: bool,
    pub stage: SummonStage,
}

/// What a roll did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rolled {
    /// Who rolled.
    pub player: Side,
    /// What the dice showed.
    pub raw: u8,
    /// The move value it gave (race rule sets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u8>,
    /// The roll allowed nothing and the turn passed to the other side.
    pub passed: bool,
    /// Named pieces: the bird called or placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summon: Option<Summon>,
}

/// What a decision did.
#[derive(Clone, Debug, PartialEq)]
pub struct Acted {
    /// Who decided.
    pub player: Side,
    /// The decision as played (a race move names its bird where birds are named).
    pub action: AnyAction,
    /// A race move's effects.
    pub effect: Option<MoveEffect>,
}

/// A legal race move with what it would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenMove {
    pub mv: Move,
    pub effect: MoveEffect,
}

/// The race's details of a game at this point.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceView {
    pub phase: Phase,
    /// The throw awaiting a move: raw outcome and value.
    pub throw: Option<(u8, u8)>,
    /// Choices open now (extra roll, declarations).
    pub choices: Vec<Choice>,
    /// The legal moves with what each would do.
    pub moves: Vec<OpenMove>,
    /// What each side has paid into the pot, where there is one.
    pub pot: Option<[u32; 2]>,
}

/// Rolls and reports what the roll did.
///
/// # Errors
/// As [`Playable::roll`]; the game is unchanged.
pub fn roll(game: &mut AnyGame, raw: u8) -> Result<Rolled, PlayError> {
    let Turn::Roll(player) = game.turn() else {
        return Err(refusal(Playable::roll(game, raw), "roll"));
    };
    let AnyGame::Race(race) = game else {
        let starting = matches!(game, AnyGame::Bens(g) if g.in_start_procedure());
        Playable::roll(game, raw)?;
        let passed = !starting && game.turn() == Turn::Roll(player.other());
        return Ok(Rolled { player, raw, value: None, passed, summon: None });
    };
    let stage = summon_stage(race);
    let report = race.roll(raw)?;
    let summon = report.summon.map(|(bird, success)| Summon { bird, success, stage: stage.unwrap_or(SummonStage::Call) });
    Ok(Rolled { player, raw, value: Some(report.throw.value), passed: report.passed, summon })
}

/// The game's own refusal of a step out of turn (games refuse those).
fn refusal(result: Result<(), PlayError>, step: &str) -> PlayError {
    result.err().unwrap_or_else(|| PlayError::WrongTurn { waits: format!("something other than a {step}") })
}

/// A raw outcome thrown with `dice` for the roll `game` waits for: a race
/// set throws its own dice model (as the fast playouts do), any other
/// family draws from the game's outcomes.
pub fn throw(game: &AnyGame, dice: &mut crate::SeededDice) -> u8 {
    use crate::Dice;
    match game {
        AnyGame::Race(g) => dice.throw(g.rules().dice()),
        _ => dice.throw_from(&game.outcomes()),
    }
}

/// Makes a decision and reports what it did.
///
/// # Errors
/// As [`Playable::apply`]; the game is unchanged.
pub fn act(game: &mut AnyGame, action: &AnyAction) -> Result<Acted, PlayError> {
    let player = match game.turn() {
        Turn::Decide(side) => side,
        _ => return Err(refusal(Playable::apply(game, action), "decide")),
    };
    let AnyGame::Race(race) = game else {
        Playable::apply(game, action)?;
        return Ok(Acted { player, action: action.clone(), effect: None });
    };
    match action {
        AnyAction::Race(Action::Move(mv)) => {
            let effect = race.play(*mv)?;
            let played = match race.history().last() {
                Some(&Action::Move(m)) => m,
                _ => *mv,
            };
            Ok(Acted { player, action: AnyAction::Race(Action::Move(played)), effect: Some(effect) })
        }
        other => {
            Playable::apply(game, other)?;
            Ok(Acted { player, action: other.clone(), effect: None })
        }
    }
}

/// Named pieces: which summon roll the next roll is (the history tells).
fn summon_stage(game: &Game) -> Option<SummonStage> {
    match game.history().last() {
        Some(Action::Choose(Choice::Summon)) => Some(SummonStage::Call),
        Some(Action::Roll(_)) if game.rules().named_pieces() => Some(SummonStage::Placement),
        _ => None,
    }
}

/// The race's details, for a race game.
pub fn race_view(game: &AnyGame) -> Option<RaceView> {
    let AnyGame::Race(g) = game else { return None };
    let moves = match g.throw() {
        Some(throw) => g
            .legal_moves()
            .iter()
            .map(|&mv| {
                let mut st = *g.state();
                OpenMove { mv, effect: g.rules().apply_unchecked(&mut st, &throw, mv) }
            })
            .collect(),
        None => Vec::new(),
    };
    Some(RaceView { phase: g.phase(), throw: g.throw().map(|t| (t.raw, t.value)), choices: g.choices(), moves, pot: g.pot_paid() })
}

/// The rules of a race game (custom rule-set files included), for tables and searches.
pub fn race_rules(game: &AnyGame) -> Option<&Arc<Rules>> {
    match game {
        AnyGame::Race(g) => Some(g.rules()),
        _ => None,
    }
}

/// The raw outcome that gives a move value, in a race game.
///
/// # Errors
/// Not a race game, or no throw gives that value.
pub fn raw_for_value(game: &AnyGame, value: u8) -> Result<u8, PlayError> {
    match race_rules(game) {
        Some(rules) => rules.raw_for_value(value).map_err(|e| PlayError::BadAction {
            input: format!("value {value}"),
            rules: rules.id().into(),
            why: format!("{e}; throws (raw->value): {}", throws_text(rules)),
        }),
        None => Err(PlayError::BadAction {
            input: format!("value {value}"),
            rules: game.rule_id().into(),
            why: "its throws have no move values; roll by raw outcome".into(),
        }),
    }
}

/// The throws of race rules as `raw->value` pairs.
pub fn throws_text(rules: &Rules) -> String {
    rules.throws().map(|(t, _)| format!("{}->{}", t.raw, t.value)).collect::<Vec<_>>().join(", ")
}

/// The record of a race game so far (`rules_file`: the text of a custom rule-set file).
pub fn race_record(game: &AnyGame, rules_file: Option<String>) -> Option<GameRecord> {
    match game {
        AnyGame::Race(g) => Some(GameRecord::of(g, rules_file)),
        _ => None,
    }
}

/// A race game replayed from its record, to go on with it.
///
/// # Errors
/// A record that does not replay.
pub fn race_resume(record: &GameRecord) -> Result<AnyGame, crate::RecordError> {
    record.replay().map(AnyGame::Race)
}

/// A new race game under rules made from a file or with options.
pub fn race_game(rules: Arc<Rules>, first: Side) -> AnyGame {
    AnyGame::Race(Game::new(rules, first))
}

/// The shape of a race position in JSON, for error messages.
pub const RACE_POSITION: &str = r#"{"to_move":"light","light":{"reserve":N,"off":N,"path":[P,...]},"dark":{...}}"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Options;

    #[test]
    fn a_race_roll_and_move_report_their_effects() {
        let mut game = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
        let rolled = roll(&mut game, 2).unwrap();
        assert_eq!((rolled.player, rolled.value, rolled.passed), (Side::Light, Some(2), false));
        let view = race_view(&game).unwrap();
        assert_eq!(view.throw, Some((2, 2)));
        let mv = view.moves[0];
        let acted = act(&mut game, &AnyAction::Race(Action::Move(mv.mv))).unwrap();
        assert_eq!(acted.effect, Some(mv.effect));
        assert!(roll(&mut game, 9).is_err());
    }

    #[test]
    fn other_families_report_without_race_details() {
        let mut game = AnyGame::new("guard-d6", &Options::new(), Side::Dark).unwrap();
        let rolled = roll(&mut game, 3).unwrap();
        assert_eq!((rolled.player, rolled.value), (Side::Dark, None));
        assert!(race_view(&game).is_none() && race_rules(&game).is_none());
        assert!(raw_for_value(&game, 2).is_err());
    }

    #[test]
    fn a_roll_with_no_move_passes_but_a_start_throw_does_not() {
        // guard-d6: a 6 counts 0, so nothing moves and the turn passes.
        let mut game = AnyGame::new("guard-d6", &Options::new(), Side::Dark).unwrap();
        let rolled = roll(&mut game, 6).unwrap();
        assert!(rolled.passed && game.turn() == Turn::Roll(Side::Light));
        // bens-ur's start procedure: each side throws in turn, nobody passes.
        let mut game = AnyGame::new("bens-ur", &Options::new(), Side::Light).unwrap();
        let rolled = roll(&mut game, 0).unwrap();
        assert!(!rolled.passed, "{:?}", game.turn());
    }
}
