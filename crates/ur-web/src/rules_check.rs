//! `POST /api/rules/check`: reads a rule-set file as `POST /api/games` would
//! and says whether it plays, without making a game. The page checks a file
//! as soon as it is chosen, lists its problems one by one, and shows the
//! file's own rules page from the answer.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use ur_rules::{Options, RuleSetFile};
use ur_session::view::game_view;
use ur_session::{NewGame, RulesSource};

use crate::http::refuse;
use crate::hub::Hub;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckReq {
    rules_file: String,
}

/// `{"rules_file": text}` → `{"ok": true, "id", "name", "family", "summary", "options", "view"}`,
/// or a `bad_rules` error whose `problems` lists each problem on its own.
pub async fn check(State(hub): State<Arc<Hub>>, body: axum::body::Bytes) -> Response {
    let req: CheckReq = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, "bad_request", format!("send {{\"rules_file\": \"<the file's text>\"}}: {e}")),
    };
    let max = hub.cfg.max_rules_file;
    if req.rules_file.len() > max {
        let m = format!("the rule-set file is {} bytes; at most {max} are taken", req.rules_file.len());
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, "too_large", m);
    }
    let new = NewGame { rules: RulesSource::File(req.rules_file.clone()), options: Options::new(), first: ur_rules::Side::Light };
    let session = match hub.session(&new) {
        Ok(s) => s,
        Err(e) => return bad_rules(&e),
    };
    let view = serde_json::to_value(game_view(&session)).unwrap_or(Value::Null);
    let file = RuleSetFile::parse(&req.rules_file).ok();
    let options = file.as_ref().map(|f| serde_json::to_value(&f.options).unwrap_or(Value::Null)).unwrap_or(Value::Null);
    let (id, name) = (view["rules"]["id"].clone(), view["rules"]["name"].clone());
    Json(json!({"ok": true, "id": id, "name": name, "family": "race", "summary": "", "options": options, "view": view})).into_response()
}

/// The error with its problems as a list: the message's lines, without
/// its "N problems:" heading and the items' dashes.
fn bad_rules(message: &str) -> Response {
    let lines: Vec<&str> = message.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let listed = lines.len() > 1 && lines[0].ends_with(':');
    let problems: Vec<&str> = lines.iter().skip(usize::from(listed)).map(|l| l.trim_start_matches("- ")).collect();
    let body = json!({"t": "error", "code": "bad_rules", "message": message, "problems": problems});
    (StatusCode::BAD_REQUEST, Json(body)).into_response()
}
