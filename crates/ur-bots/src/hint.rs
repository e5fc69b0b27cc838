//! Hints, evaluations and reviews of a game of any family, for front ends.
//!
//! A [`Judge`] values race positions (a solved table, or a search with the
//! learned evaluation). The other families are judged by their neural
//! network where one is trained ([`network_action_values`],
//! [`network_evaluation`]); elsewhere asking says so and why, rather than
//! guessing.

use serde::Serialize;
use ur_rules::race::text::move_text;
use ur_rules::report::{race_rules, race_view};
use ur_rules::{AnyAction, AnyGame, Choice, Extra, Game, Move, MoveEffect, Playable, Side, Turn};

use crate::generic::GenericSearch;
use crate::net::game::GameNet;
use crate::net::observe::Observer;
use crate::review::{review, same_action, Judge, Review};
use crate::Oracle;

/// Why there is no hint, evaluation or review.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    #[error(
        "'{rules}' has no judge: win probabilities come from solved tables and the learned evaluation (race rule sets) or a trained network, and none is trained for it yet"
    )]
    NoJudge { rules: String },
    #[error("no table is solved for these rules; solve one into the table store, or ask for a search's estimates with a depth")]
    NoTable,
    #[error("the table does not fit these rules: {0}")]
    TableMismatch(String),
    #[error("the game is over")]
    Over,
    #[error("a hint needs a throw at the start of a turn: give the roll to judge")]
    NeedThrow,
    #[error("raw outcome {raw} cannot be thrown; throws (raw->value): {throws}")]
    BadThrow { raw: u8, throws: String },
    #[error("a search's hint does not model the turns of named pieces; ask for the best move or a review instead")]
    NamedPieces,
    #[error("the game cannot be reviewed: {0}")]
    Record(String),
}

/// A move open for a throw, with the mover's win probability after it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveHint {
    pub mv: Move,
    pub effect: MoveEffect,
    pub win: f64,
    pub best: bool,
    /// The move in words.
    pub text: String,
    /// When the move earns an optional extra roll: whether rolling again
    /// is the better choice.
    pub reroll: Option<bool>,
}

/// What a judge says of the decision at hand.
#[derive(Clone, Debug, PartialEq)]
pub enum Hint {
    /// The moves for a throw, best first (none: the throw passes);
    /// `before` is the mover's win probability before the throw.
    Moves { to_move: Side, raw: u8, value: u8, moves: Vec<MoveHint>, win: f64, before: f64 },
    /// Rolling again or ending the turn, best first.
    Choices { to_move: Side, choices: Vec<(Choice, f64)>, win: f64 },
}

/// A solved table's value of the game now.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// The side to move (none when the game is over).
    pub to_move: Option<Side>,
    /// The mover's win probability (none when the game is over).
    pub win: Option<f64>,
    pub light_win: f64,
    pub dark_win: f64,
    pub winner: Option<Side>,
}

/// The judge for a game: the table when there is one and no `depth` is
/// asked, else a search `depth` turns deep.
///
/// # Errors
/// A family without a judge, or no table and no depth.
pub fn judge(game: &AnyGame, oracle: Option<&Oracle>, depth: Option<u32>) -> Result<Judge, HintError> {
    let rules = race_rules(game).ok_or_else(|| HintError::NoJudge { rules: game.rule_id().into() })?;
    match (oracle, depth) {
        (_, Some(d)) => Ok(Judge::search(rules, d.max(1))),
        (Some(o), None) => Ok(Judge::Table(o.clone())),
        (None, None) => Err(HintError::NoTable),
    }
}

/// The judge's view of the decision now, or of a throw given by raw outcome
/// at the start of a turn. The game is not changed.
///
/// # Errors
/// The game is over, no throw is set and none is given, or a bad throw.
pub fn hint(judge: &Judge, game: &AnyGame, raw: Option<u8>) -> Result<Hint, HintError> {
    let view = race_view(game).ok_or_else(|| HintError::NoJudge { rules: game.rule_id().into() })?;
    let rules = race_rules(game).ok_or(HintError::NoJudge { rules: game.rule_id().into() })?;
    let to_move = match game.turn() {
        Turn::Over(_) => return Err(HintError::Over),
        Turn::Roll(s) | Turn::Decide(s) => s,
    };
    let st = game.as_race().map(|g| g.state()).ok_or(HintError::NoJudge { rules: game.rule_id().into() })?;
    let throw = match (raw, view.throw) {
        (Some(raw), _) => rules.throw(raw).ok_or_else(|| HintError::BadThrow { raw, throws: ur_rules::report::throws_text(rules) })?,
        (None, Some((raw, _))) => rules.throw(raw).ok_or(HintError::NeedThrow)?,
        (None, None) if view.phase == ur_rules::Phase::ExtraRoll => return choices_hint(judge, st, to_move),
        (None, None) => return Err(HintError::NeedThrow),
    };
    let moves = judge.move_values(st, &throw).ok_or(HintError::NamedPieces)?;
    let best = moves.first().map_or(0.0, |m| m.1);
    let mut thrown = Game::from_state(rules.clone(), *st);
    if thrown.phase() == ur_rules::Phase::Roll {
        thrown.roll(throw.raw).map_err(|_| HintError::BadThrow { raw: throw.raw, throws: ur_rules::report::throws_text(rules) })?;
    }
    let moves = moves
        .into_iter()
        .map(|(mv, win)| {
            let mut after = *st;
            let effect = rules.apply_unchecked(&mut after, &throw, mv);
            let optional = effect.extra == Extra::Optional && after.winner(rules).is_none();
            let reroll = if optional { judge.extra_roll(&after).map(|(again, end)| again >= end) } else { None };
            MoveHint { mv, effect, win, best: win >= best - 1e-12, text: move_text(&thrown, mv), reroll }
        })
        .collect();
    let win = judge.throw_value(st, &throw).ok_or(HintError::NamedPieces)?;
    let before = judge.value(&Game::from_state(rules.clone(), *st), to_move);
    Ok(Hint::Moves { to_move, raw: throw.raw, value: throw.value, moves, win, before })
}

fn choices_hint(judge: &Judge, st: &ur_rules::State, to_move: Side) -> Result<Hint, HintError> {
    let (reroll, end) = judge.extra_roll(st).ok_or(HintError::NamedPieces)?;
    let mut choices = vec![(Choice::Reroll, reroll), (Choice::End, end)];
    choices.sort_by(|a, b| b.1.total_cmp(&a.1));
    let win = choices[0].1;
    Ok(Hint::Choices { to_move, choices, win })
}

/// Whether a game network judges `game`: a family beyond the race, or a
/// race with named pieces where a network is trained (the race judges do
/// not see which bird is next).
pub fn network_judges(game: &AnyGame) -> bool {
    game.as_race().is_none_or(|r| r.rules().named_pieces() && crate::net::for_game(game).is_some())
}

/// The network of a game beyond the race, ready to judge it, and its judge's name (`net:N`, level 5's plies).
fn game_network(game: &AnyGame) -> Result<(GameNet, u32), HintError> {
    let file = crate::net::for_game(game)
        .filter(|_| game.as_race().is_none_or(|r| r.rules().named_pieces()))
        .ok_or_else(|| HintError::NoJudge { rules: game.rule_id().into() })?;
    let net = GameNet { observer: Observer::for_game(game), mlp: file.net.clone() };
    Ok((net, crate::levels::level5_game_net_plies(game.rule_id())))
}

/// Every open decision of a game beyond the race with the mover's win
/// probability after it, best first, as its network estimates them: a
/// search as many rolls deep as level 5's, the network at the leaves. The
/// judge's name (`net:N`) comes with them.
///
/// # Errors
/// A race game, a rule set without a network, or no decision open.
pub fn network_action_values(game: &AnyGame) -> Result<(Vec<(AnyAction, f64)>, String), HintError> {
    let (net, plies) = game_network(game)?;
    match game.turn() {
        Turn::Over(_) => return Err(HintError::Over),
        Turn::Roll(_) => return Err(HintError::NeedThrow),
        Turn::Decide(_) => {}
    }
    let mut values = GenericSearch::with_net(None, &net).action_values(game, plies);
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok((values, format!("net:{plies}")))
}

/// A network's estimate of a game beyond the race now, and its judge's
/// name: the value of the roll due, or of the best decision open.
///
/// # Errors
/// A race game or a rule set without a network.
pub fn network_evaluation(game: &AnyGame) -> Result<(Evaluation, String), HintError> {
    let (net, plies) = game_network(game)?;
    let (to_move, win) = match game.turn() {
        Turn::Over(winner) => {
            let light = winner.map_or(0.5, |w| f64::from(u8::from(w == Side::Light)));
            return Ok((Evaluation { to_move: None, win: None, light_win: light, dark_win: 1.0 - light, winner }, format!("net:{plies}")));
        }
        Turn::Roll(side) => (side, GenericSearch::with_net(None, &net).roll_value(&game.without_history(), plies.max(1))),
        Turn::Decide(side) => (side, network_action_values(game)?.0.first().map_or(0.5, |v| v.1)),
    };
    let light = if to_move == Side::Light { win } else { 1.0 - win };
    Ok((
        Evaluation { to_move: Some(to_move), win: Some(win), light_win: light, dark_win: 1.0 - light, winner: None },
        format!("net:{plies}"),
    ))
}

/// Every open decision with the mover's win probability after it, best first.
///
/// # Errors
/// A family without a judge.
pub fn action_values(judge: &Judge, game: &AnyGame) -> Result<Vec<(AnyAction, f64)>, HintError> {
    let race = game.as_race().ok_or_else(|| HintError::NoJudge { rules: game.rule_id().into() })?;
    let values = judge.action_values(race);
    let open = game.actions();
    Ok(values
        .into_iter()
        .filter_map(|(a, v)| open.iter().find(|o| matches!(o, AnyAction::Race(x) if same_action(*x, a))).map(|o| (o.clone(), v)))
        .collect())
}

/// The table's value of the game now.
///
/// # Errors
/// A family without tables.
pub fn evaluate(oracle: &Oracle, game: &AnyGame) -> Result<Evaluation, HintError> {
    let race = game.as_race().ok_or_else(|| HintError::NoJudge { rules: game.rule_id().into() })?;
    let winner = race.winner();
    Ok(match oracle.game_value(race) {
        Some(p) => {
            let me = race.to_move();
            let light = if me == Side::Light { p } else { 1.0 - p };
            Evaluation { to_move: Some(me), win: Some(p), light_win: light, dark_win: 1.0 - light, winner }
        }
        None => {
            let light = f64::from(u8::from(winner == Some(Side::Light)));
            Evaluation { to_move: None, win: None, light_win: light, dark_win: 1.0 - light, winner }
        }
    })
}

/// Every decision and roll of the game so far, judged; `progress` is told
/// how many actions are done.
///
/// # Errors
/// A family without a judge, or a record that does not replay.
pub fn review_game(judge: &Judge, game: &AnyGame, rules_file: Option<String>, progress: impl FnMut(usize)) -> Result<Review, HintError> {
    let record = ur_rules::report::race_record(game, rules_file).ok_or_else(|| HintError::NoJudge { rules: game.rule_id().into() })?;
    review(&record, judge, progress).map_err(|e| HintError::Record(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::Options;

    #[test]
    fn a_search_hints_a_race_and_refuses_other_families() {
        let mut game = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
        let j = judge(&game, None, Some(1)).unwrap();
        let Hint::Moves { moves, value, .. } = hint(&j, &game, Some(2)).unwrap() else { panic!("moves") };
        assert_eq!(value, 2);
        assert!(moves[0].best && !moves.is_empty());
        assert_eq!(hint(&j, &game, None), Err(HintError::NeedThrow));
        game.roll(2).unwrap();
        assert_eq!(action_values(&j, &game).unwrap().len(), game.actions().len());
        assert_eq!(judge(&game, None, None).err(), Some(HintError::NoTable));
        let tower = AnyGame::new("guard-d6", &Options::new(), Side::Light).unwrap();
        assert!(matches!(judge(&tower, None, Some(2)), Err(HintError::NoJudge { .. })));
    }
}
