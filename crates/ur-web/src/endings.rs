//! Ending a game by the players' word: resigning, and draws agreed in the
//! families whose rules have draws (the tower games).

use ur_rules::{AnyGame, Playable, Side, Turn};

use crate::live::{other, side_key, Actor, LiveGame, Refusal, Req, State};
use crate::store::EventRow;

/// The side a resign or a draw message speaks for.
fn speaker(game: &LiveGame, st: &State, actor: Actor) -> Result<Side, Refusal> {
    match actor {
        Actor::Seat(s) => Ok(s),
        // Hot-seat: the side to play.
        Actor::Both => match st.session.game().turn() {
            Turn::Roll(s) | Turn::Decide(s) if !game.meta.bots[s.index()] => Ok(s),
            _ => Err(Refusal::new("not_your_turn", "it is the bot's turn: resign or offer a draw on your own turn")),
        },
        Actor::Bot | Actor::Watcher => Err(Refusal::new("watcher", "only a player resigns or offers a draw")),
    }
}

/// The stored step a resign or draw message makes, or why it is refused.
pub(crate) fn step_for(game: &LiveGame, st: &State, actor: Actor, req: Req) -> Result<EventRow, Refusal> {
    let side = speaker(game, st, actor)?;
    let kind = match req {
        Req::Resign { .. } => "resign",
        Req::Draw { offer, .. } => draw_kind(game, st, side, offer)?,
        _ => return Err(Refusal::new("illegal", "not a resign or draw message")),
    };
    let mut ev = EventRow::now(st.seq as i64 + 1, kind);
    ev.action = Some(side_key(side).into());
    Ok(ev)
}

fn draw_kind(game: &LiveGame, st: &State, side: Side, offer: bool) -> Result<&'static str, Refusal> {
    if !matches!(st.session.game(), AnyGame::Tower(_)) {
        let m = "this rule set has no draws: only the tower games (Ravensburg, Finkel's tower game...) can be drawn";
        return Err(Refusal::new("no_draw", m));
    }
    if game.meta.bots.contains(&true) {
        return Err(Refusal::new("no_draw", "the bot does not take draws: play on, or resign"));
    }
    let standing = st.track.draw_offer;
    match (offer, standing) {
        (true, Some(s)) if s == other(side) => Ok("draw"),
        (true, Some(_)) => Err(Refusal::new("illegal", "your draw offer stands already: wait for the answer")),
        (true, None) => Ok("draw_offer"),
        (false, Some(s)) if s == other(side) => Ok("draw_decline"),
        (false, _) => Err(Refusal::new("illegal", "there is no draw offer to decline: send offer true to offer one")),
    }
}
