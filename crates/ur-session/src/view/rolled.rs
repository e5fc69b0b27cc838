//! A throw as the dice that made it, for a log: also a throw that allowed
//! no move, which no view shows (the turn has passed by then).

use ur_rules::dice::DiceModel;
use ur_rules::tower::TowerDice;
use ur_rules::AnyGame;

use super::words::shown_move;
use super::{throw_view, ThrowView};

/// The dice model a game throws with.
fn dice_model(game: &AnyGame) -> DiceModel {
    match game {
        AnyGame::Race(g) => g.rules().dice(),
        AnyGame::Bens(g) => match g.snapshot().options.get("dice").map(String::as_str) {
            Some("BIN4") => DiceModel::Bin4,
            Some("D4") => DiceModel::D4,
            _ => DiceModel::Bin3,
        },
        AnyGame::Akalandung(_) => DiceModel::Bin3,
        AnyGame::Tower(g) if g.rules().dice == TowerDice::Pyramids => DiceModel::Bin4,
        AnyGame::Tower(_) => DiceModel::D6,
    }
}

/// The move value of raw outcome `raw` (`value` when the rules said it).
fn value_of(game: &AnyGame, model: DiceModel, raw: u8, value: Option<u8>) -> u8 {
    match (game, value) {
        (_, Some(v)) => v,
        (AnyGame::Tower(_), None) if model == DiceModel::Bin4 && raw == 0 => 5,
        (AnyGame::Tower(_), None) if model == DiceModel::D6 && raw == 6 => 0,
        _ => raw,
    }
}

/// Raw outcome `raw` of `game`'s dice (its move `value` when known): the
/// dice, what they show and the move they give.
pub fn rolled_throw(game: &AnyGame, raw: u8, value: Option<u8>) -> ThrowView {
    let model = dice_model(game);
    let value = value_of(game, model, raw, value);
    throw_view(model, raw, value, shown_move(model, raw, value), Vec::new())
}

/// The open action `index` of `game` as the view words it.
pub fn action_said(game: &AnyGame, index: usize) -> Option<super::ActionView> {
    super::view_of(game).actions.into_iter().nth(index)
}
