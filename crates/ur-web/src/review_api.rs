//! The review over HTTP, for the browser app's review screen
//! (`assets/review.js`): `GET /api/games/{id}/review` for a game of this
//! server that is over, `POST /api/review` for an uploaded record. Both
//! answer a [`ReviewDoc`] as JSON.
//!
//! A review judges every step, so it runs on a blocking thread, two at a
//! time at most, and takes records of bounded size and length.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tokio::sync::Semaphore;
use ur_session::records::{read_game, SavedGame};
use ur_session::review_doc::{from_race_review, ReviewDoc};
use ur_session::Session;

use crate::http::refuse;
use crate::hub::Hub;

/// The largest record taken, in bytes (the page checks it too: `MAX_RECORD` in review.js).
pub const MAX_RECORD: usize = 512 * 1024;
/// The most steps a reviewed record may hold: far beyond a real game.
pub const MAX_STEPS: usize = 5_000;
/// Reviews judged at once; more wait their turn.
static JUDGES: Semaphore = Semaphore::const_new(2);

/// `GET /api/games/{id}/review`: the review of a game that is over.
pub async fn game_review(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    let game = match hub.game(&id).await {
        Ok(Some(g)) => g,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, "unknown_game", "no game with that id"),
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e),
    };
    let saved = {
        let st = game.state.lock().await;
        if st.status == "playing" {
            return refuse(StatusCode::CONFLICT, "not_over", "the game is still being played: its review opens when it is over");
        }
        st.session.record()
    };
    judge(hub, saved).await
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

/// The record replayed and judged: by the server's table for its rules if
/// there is one, else by a search.
fn review_doc(hub: &Hub, saved: &SavedGame) -> Result<ReviewDoc, String> {
    ur_session::records::replay("the record", saved).map_err(|e| e.to_string())?;
    let session = Session::resume(saved, &hub.tables).map_err(|e| e.to_string())?;
    let (review, judge) = session.review(None).map_err(|e| e.to_string())?;
    from_race_review(saved, &judge, None, &review).map_err(|e| e.to_string())
}
