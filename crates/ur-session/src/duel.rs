//! One game between bots, of any rule family: the dice are thrown from a
//! seeded generator and each side's bot decides in turn.

use ur_bots::Bot;
use ur_rules::{AnyGame, Playable, SeededDice, Side, Turn};

/// A cap on the actions of a game that no real game comes near: a game that
/// reaches it is stuck (two bots that never finish), not long.
pub const GENEROUS_CAP: u64 = 100_000;

/// How a game between bots ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelEnd {
    /// The winner; None for a drawn game, or one stopped at the cap.
    pub winner: Option<Side>,
    /// Throws, moves and choices played.
    pub actions: u64,
    /// Stopped at the action cap.
    pub capped: bool,
}

/// Why a game between bots could not go on.
#[derive(Debug, thiserror::Error)]
pub enum DuelError {
    #[error("the dice showed {raw}, which {rules} refused: {why}")]
    Dice { raw: u8, rules: String, why: String },
    #[error("the {bot} bot chose {action}, which the game refused: {why}")]
    Refused { bot: String, action: String, why: String },
    #[error(
        "the game was still going after {0} actions (throws, moves and choices), far more than any real game; the bots may never finish it"
    )]
    Stuck(u64),
}

/// Plays one game between `players` (light's bot first) from `start`, with
/// `dice`, stopping at `max_actions` (reported as `capped`).
///
/// # Errors
/// A bot chose an action the game refused, or the dice an outcome it refused.
pub fn play_game(start: &AnyGame, players: &mut [Box<dyn Bot>; 2], dice: &mut SeededDice, max_actions: u64) -> Result<DuelEnd, DuelError> {
    play_observed(start, players, dice, max_actions, |_, _| {})
}

/// As [`play_game`], with `decided` told of every decision (the game before
/// it and the time it took).
///
/// # Errors
/// As [`play_game`].
pub fn play_observed(
    start: &AnyGame,
    players: &mut [Box<dyn Bot>; 2],
    dice: &mut SeededDice,
    max_actions: u64,
    mut decided: impl FnMut(&AnyGame, std::time::Duration),
) -> Result<DuelEnd, DuelError> {
    let mut game = start.clone();
    let mut actions = 0;
    loop {
        let side = match game.turn() {
            Turn::Over(winner) => return Ok(DuelEnd { winner, actions, capped: false }),
            _ if actions >= max_actions => return Ok(DuelEnd { winner: None, actions, capped: true }),
            Turn::Roll(_) => {
                actions += 1;
                let raw = ur_rules::report::throw(&game, dice);
                game.roll(raw).map_err(|e| DuelError::Dice { raw, rules: game.rule_id().to_string(), why: e.to_string() })?;
                continue;
            }
            Turn::Decide(side) => side,
        };
        actions += 1;
        let bot = &mut players[side.index()];
        let started = std::time::Instant::now();
        let action = bot.decide(&game);
        decided(&game, started.elapsed());
        game.apply(&action).map_err(|e| DuelError::Refused {
            bot: bot.name().to_string(),
            action: action.to_string(),
            why: e.to_string(),
        })?;
    }
}

/// Plays a game to its end under the [`GENEROUS_CAP`]: a game that reaches
/// it is an error, not a hang.
///
/// # Errors
/// As [`play_game`], or [`DuelError::Stuck`].
pub fn play_to_end(
    start: &AnyGame,
    players: &mut [Box<dyn Bot>; 2],
    dice: &mut SeededDice,
    decided: impl FnMut(&AnyGame, std::time::Duration),
) -> Result<DuelEnd, DuelError> {
    let end = play_observed(start, players, dice, GENEROUS_CAP, decided)?;
    if end.capped {
        return Err(DuelError::Stuck(end.actions));
    }
    Ok(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_bots_finish_and_a_tiny_cap_is_reported() {
        let start = AnyGame::new("finkel", &ur_rules::Options::new(), Side::Light).unwrap();
        let bot = |s| ur_bots::make_bot("random", s).unwrap();
        let mut players = [bot(1), bot(2)];
        let end = play_to_end(&start, &mut players, &mut SeededDice::new(3), |_, _| {}).unwrap();
        assert!(end.winner.is_some() && !end.capped && end.actions > 10);
        let capped = play_game(&start, &mut players, &mut SeededDice::new(3), 5).unwrap();
        assert!(capped.capped && capped.winner.is_none() && capped.actions == 5);
    }
}
