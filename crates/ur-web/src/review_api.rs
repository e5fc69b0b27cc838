//! The review over HTTP, for the browser app's review screen
//! (`assets/review.js`): `GET /api/games/{id}/review` for a game of this
//! server that is over, `POST /api/review` for an uploaded record. Both
//! answer a [`ReviewDoc`] as JSON.
//!
//! Race games are judged by the server's table or a search; the other
//! families by the rollout judge, with as many playouts per choice as keep
//! a review to 10 to 15 s ([`rollout_trials`]).
//!
//! A review judges every step, so it runs on a blocking thread, two at a
//! time at most, and takes records of bounded size and length.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tokio::sync::Semaphore;
use ur_bots::rollout::{RolloutConfig, DEFAULT_TRIALS};
use ur_session::records::{read_game, SavedGame};
use ur_session::review_doc::{from_any_review, from_race_review, ReviewDoc};
use ur_session::{NoTables, Session};

use crate::http::refuse;
use crate::hub::Hub;

/// The largest record taken, in bytes (the page checks it too: `MAX_RECORD` in review.js).
pub const MAX_RECORD: usize = 512 * 1024;
/// The most steps a reviewed record may hold: far beyond a real game.
pub const MAX_STEPS: usize = 5_000;
/// Playouts (trials times steps) a rollout review may spend: 10 to 15 s of
/// an optimised build on the loaded 2-core machine, where a step costs
/// 0.1 to 0.2 ms per trial (BENCHMARKS.md, "Rollout review"). Measured at
/// load 7: a Ben's game of 629 steps (101 trials) 10.5 s, a tower game of
/// 158 steps (256 trials) 5.9 s.
pub const TRIAL_STEPS: usize = 64_000;
/// The fewest playouts per choice, however long the game: below it the
/// intervals grow too wide to tell a mistake from a good move.
pub const MIN_TRIALS: u32 = 8;
/// Reviews judged at once; more wait their turn.
static JUDGES: Semaphore = Semaphore::const_new(2);

/// `GET /api/games/{id}/review`: the review of a game that is over.
pub async fn game_review(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    let stored = match hub.stored_record(&id).await {
        Ok(Some(r)) => r,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, "unknown_game", "no game with that id"),
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e),
    };
    if stored.status == "playing" {
        return refuse(StatusCode::CONFLICT, "not_over", "the game is still being played: its review opens when it is over");
    }
    judge(hub, stored.saved).await
}

/// `POST /api/review`: the review of a record sent as the body (JSON, as
/// `GET /api/games/{id}/record` and `ur play --save` write it).
pub async fn upload_review(State(hub): State<Arc<Hub>>, body: axum::body::Bytes) -> Response {
    if body.len() > MAX_RECORD {
        let m = format!("the record is {} bytes; at most {MAX_RECORD} are taken", body.len());
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, "too_large", m);
    }
    let Ok(text) = std::str::from_utf8(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "bad_record", "the record is not UTF-8 text: send the JSON file as it was saved");
    };
    match read_game("the record", text) {
        Ok(saved) => judge(hub, saved).await,
        Err(e) => refuse(StatusCode::BAD_REQUEST, "bad_record", e.to_string()),
    }
}

async fn judge(hub: Arc<Hub>, saved: SavedGame) -> Response {
    let steps = match &saved {
        SavedGame::Race(r) => r.actions.len(),
        SavedGame::Family(r) => r.steps.len(),
    };
    if steps > MAX_STEPS {
        let m = format!("the record holds {steps} steps; a review takes at most {MAX_STEPS}");
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, "too_long", m);
    }
    let Ok(_permit) = JUDGES.acquire().await else {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "busy", "the server is shutting down");
    };
    match tokio::task::spawn_blocking(move || review_doc(&hub, &saved)).await {
        Ok(Ok(doc)) => Json(doc).into_response(),
        Ok(Err(m)) => refuse(StatusCode::UNPROCESSABLE_ENTITY, "no_review", m),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "review", format!("the review failed: {e}")),
    }
}

/// Playouts per choice for a rollout review of a game of `steps` steps:
/// the budget shared out, within [`MIN_TRIALS`] and the judge's default.
pub fn rollout_trials(steps: usize) -> u32 {
    let share = TRIAL_STEPS / steps.max(1);
    u32::try_from(share).unwrap_or(u32::MAX).clamp(MIN_TRIALS, DEFAULT_TRIALS)
}

/// The record replayed and judged: a race by the server's table for its
/// rules if there is one, else by a search; any other family by rollouts
/// (seeded, so the same record always gets the same review).
fn review_doc(hub: &Hub, saved: &SavedGame) -> Result<ReviewDoc, String> {
    let replayed = ur_session::records::replay("the record", saved).map_err(|e| e.to_string())?;
    if let SavedGame::Family(_) = saved {
        let session = Session::resume(saved, &NoTables).map_err(|e| e.to_string())?;
        let config = RolloutConfig::with(rollout_trials(replayed.steps), 0);
        let review = session.review_any(&config, |_| {}).map_err(|e| e.to_string())?;
        return from_any_review(saved, &review).map_err(|e| e.to_string());
    }
    let session = Session::resume(saved, &hub.tables).map_err(|e| e.to_string())?;
    let (review, judge) = session.review(None).map_err(|e| e.to_string())?;
    from_race_review(saved, &judge, None, &review).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_games_get_fewer_trials_within_bounds() {
        assert_eq!(rollout_trials(0), DEFAULT_TRIALS);
        assert_eq!(rollout_trials(50), DEFAULT_TRIALS);
        assert_eq!(rollout_trials(200), DEFAULT_TRIALS);
        assert_eq!(rollout_trials(500), 128);
        assert_eq!(rollout_trials(MAX_STEPS), 12);
        assert_eq!(rollout_trials(100 * MAX_STEPS), MIN_TRIALS);
        assert!(rollout_trials(600) < rollout_trials(300));
    }
}
