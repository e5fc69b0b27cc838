//! Glicko-2 ratings per rule set (the `skillratings` crate), updated once
//! per rated game between two accounts when it ends; the player pages and
//! leaderboards.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::accounts::name_key;
use crate::http::refuse;
use crate::live::Hub;
use crate::sql::{Step, Val};
use crate::store::now_ms;

/// Games shown per page of a player's archive.
pub const ARCHIVE_PAGE: i64 = 20;

/// A game's status became `over`: its ratings change, once (the store
/// keeps whether they did, so no two processes apply them twice).
pub fn game_over(hub: &Arc<Hub>, game_id: &str) {
    let (hub, id) = (hub.clone(), game_id.to_string());
    tokio::spawn(async move {
        if let Err(e) = apply(&hub, &id).await {
            eprintln!("ur serve: game {id}: the ratings could not be updated: {e}");
        }
    });
}

/// The players' ratings (`[light, dark]` keys) of a rated game that ended, and its outcome for light.
struct Finished {
    rules: String,
    keys: [String; 2],
    outcome: Outcomes,
}

async fn finished(hub: &Hub, id: &str) -> Result<Option<Finished>, String> {
    let rows = hub
        .store
        .rows("SELECT rules_id, player_light, player_dark, rated, rating_applied, status, winner FROM games WHERE id = ?1", vec![id.into()])
        .await
        .map_err(|e| e.to_string())?;
    let Some(r) = rows.first() else { return Ok(None) };
    let (Some(rules), Some(light), Some(dark)) = (r[0].text(), r[1].text(), r[2].text()) else { return Ok(None) };
    if r[3].int() == 0 || r[4].int() != 0 || r[5].text().as_deref() != Some("over") || light == dark {
        return Ok(None);
    }
    let outcome = match r[6].text().as_deref() {
        Some("light") => Outcomes::WIN,
        Some("dark") => Outcomes::LOSS,
        Some("draw") => Outcomes::DRAW,
        _ => return Ok(None),
    };
    Ok(Some(Finished { rules, keys: [light, dark], outcome }))
}

/// A player's rating in a rule set and how many games made it (0: none yet).
async fn current(hub: &Hub, key: &str, rules: &str) -> Result<(Glicko2Rating, i64), String> {
    let rows = hub
        .store
        .rows("SELECT rating, deviation, volatility, games FROM ratings WHERE name_key = ?1 AND rules = ?2", vec![key.into(), rules.into()])
        .await
        .map_err(|e| e.to_string())?;
    Ok(match rows.first() {
        Some(r) => (Glicko2Rating { rating: r[0].real(), deviation: r[1].real(), volatility: r[2].real() }, r[3].int()),
        None => (Glicko2Rating::new(), 0),
    })
}

/// Writes one player's new rating, if nobody changed it since it was read (`games` unchanged).
fn rating_steps(key: &str, rules: &str, game: &str, new: Glicko2Rating, games: i64) -> Vec<Step> {
    let write = if games == 0 {
        Step::new(
            "INSERT INTO ratings (name_key, rules, rating, deviation, volatility, games) VALUES (?1, ?2, ?3, ?4, ?5, 1)",
            vec![key.into(), rules.into(), new.rating.into(), new.deviation.into(), new.volatility.into()],
            Some(1),
        )
    } else {
        Step::new(
            "UPDATE ratings SET rating = ?3, deviation = ?4, volatility = ?5, games = games + 1 WHERE name_key = ?1 AND rules = ?2 AND games = ?6",
            vec![key.into(), rules.into(), new.rating.into(), new.deviation.into(), new.volatility.into(), games.into()],
            Some(1),
        )
    };
    let history = Step::new(
        "INSERT INTO rating_history (name_key, rules, game, at_ms, rating, deviation) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        vec![key.into(), rules.into(), game.into(), now_ms().into(), new.rating.into(), new.deviation.into()],
        Some(1),
    );
    vec![write, history]
}

/// Applies a finished rated game's result, in one transaction with the
/// mark that it was applied; tried again when another game changed one of
/// the ratings meanwhile. Whether it was applied now (not before, and the
/// game is a rated one that ended between two accounts).
///
/// # Errors
/// The store fails.
pub async fn apply(hub: &Hub, id: &str) -> Result<bool, String> {
    for _ in 0..20 {
        let Some(f) = finished(hub, id).await? else { return Ok(false) };
        let (light, light_games) = current(hub, &f.keys[0], &f.rules).await?;
        let (dark, dark_games) = current(hub, &f.keys[1], &f.rules).await?;
        let (new_light, new_dark) = glicko2(&light, &dark, &f.outcome, &Glicko2Config::new());
        let mut steps =
            vec![Step::new("UPDATE games SET rating_applied = 1 WHERE id = ?1 AND rating_applied = 0", vec![id.into()], Some(1))];
        steps.extend(rating_steps(&f.keys[0], &f.rules, id, new_light, light_games));
        steps.extend(rating_steps(&f.keys[1], &f.rules, id, new_dark, dark_games));
        if hub.store.transaction(steps).await.map_err(|e| e.to_string())? {
            return Ok(true);
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Err("the ratings kept changing under it".into())
}

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<i64>,
}

fn storage(e: impl std::fmt::Display) -> Response {
    refuse(StatusCode::SERVICE_UNAVAILABLE, "storage", e.to_string())
}

/// `GET /api/players/<name>[?page=N]`: ratings per rule set, their
/// history, and a page of the archive (the last played first).
pub async fn player(State(hub): State<Arc<Hub>>, Path(name): Path<String>, Query(q): Query<PageQuery>) -> Response {
    let key = name_key(&name);
    let account = match hub.store.rows("SELECT name, created_ms FROM accounts WHERE name_key = ?1", vec![key.clone().into()]).await {
        Ok(r) => r.into_iter().next(),
        Err(e) => return storage(e),
    };
    let Some(account) = account else {
        return refuse(StatusCode::NOT_FOUND, "unknown_player", format!("there is no player '{name}': check the name"));
    };
    let page = q.page.unwrap_or(0).max(0);
    let (ratings, history, archive) = match player_rows(&hub, &key, page).await {
        Ok(r) => r,
        Err(e) => return storage(e),
    };
    Json(json!({
        "name": account[0].text(),
        "since_ms": account[1].int(),
        "ratings": ratings,
        "history": history,
        "archive": archive.0,
        "page": page,
        "more": archive.1,
    }))
    .into_response()
}

type Rows = (Vec<Value>, Vec<Value>, (Vec<Value>, bool));

async fn player_rows(hub: &Hub, key: &str, page: i64) -> Result<Rows, String> {
    let rows = |sql: &'static str, params: Vec<Val>| async move { hub.store.rows(sql, params).await.map_err(|e| e.to_string()) };
    let ratings =
        rows("SELECT rules, rating, deviation, games FROM ratings WHERE name_key = ?1 ORDER BY games DESC, rules", vec![key.into()])
            .await?
            .iter()
            .map(|r| json!({"rules": r[0].text(), "rating": r[1].real().round(), "deviation": r[2].real().round(), "games": r[3].int()}))
            .collect();
    let history = rows(
        "SELECT rules, game, at_ms, rating, deviation FROM rating_history WHERE name_key = ?1 ORDER BY at_ms LIMIT 1000",
        vec![key.into()],
    )
    .await?
    .iter()
    .map(|r| json!({"rules": r[0].text(), "game": r[1].text(), "at_ms": r[2].int(), "rating": r[3].real().round(), "deviation": r[4].real().round()}))
    .collect();
    let games = rows(
        "SELECT g.id, g.rules_id, g.status, g.winner, g.rated, g.created_ms, a1.name, a2.name, g.player_light FROM games g
         LEFT JOIN accounts a1 ON a1.name_key = g.player_light LEFT JOIN accounts a2 ON a2.name_key = g.player_dark
         WHERE g.player_light = ?1 OR g.player_dark = ?1 ORDER BY g.created_ms DESC, g.id LIMIT ?2 OFFSET ?3",
        vec![key.into(), (ARCHIVE_PAGE + 1).into(), (page * ARCHIVE_PAGE).into()],
    )
    .await?;
    let more = games.len() as i64 > ARCHIVE_PAGE;
    let archive = games.iter().take(ARCHIVE_PAGE as usize).map(|r| archive_entry(r, key)).collect();
    Ok((ratings, history, (archive, more)))
}

fn archive_entry(r: &[Val], key: &str) -> Value {
    let side = if r[8].text().as_deref() == Some(key) { "light" } else { "dark" };
    let result = match r[3].text().as_deref() {
        Some("draw") => Some("draw"),
        Some(w) if r[2].text().as_deref() != Some("playing") => Some(if w == side { "win" } else { "loss" }),
        _ => None,
    };
    let id = r[0].text().unwrap_or_default();
    json!({
        "id": id, "rules": r[1].text(), "status": r[2].text(), "winner": r[3].text(), "rated": r[4].int() != 0,
        "created_ms": r[5].int(), "players": {"light": r[6].text(), "dark": r[7].text()}, "side": side, "result": result,
        "review": format!("/#/review/{id}"),
    })
}

fn known_rules(id: &str) -> bool {
    ur_rules::RuleSetFile::all_builtin().iter().any(|f| f.id == id) || ur_rules::family_rule_sets().iter().any(|s| s.id == id)
}

/// `GET /api/leaderboard/<rules id>`: the best rated players of a rule set.
pub async fn leaderboard(State(hub): State<Arc<Hub>>, Path(rules): Path<String>) -> Response {
    if !known_rules(&rules) {
        return refuse(StatusCode::NOT_FOUND, "unknown_rules", format!("no rule set '{rules}': GET /api/rules lists them"));
    }
    let rows = hub
        .store
        .rows(
            "SELECT a.name, r.rating, r.deviation, r.games FROM ratings r JOIN accounts a ON a.name_key = r.name_key
             WHERE r.rules = ?1 ORDER BY r.rating DESC, a.name LIMIT 100",
            vec![rules.clone().into()],
        )
        .await;
    match rows {
        Ok(rows) => {
            let players: Vec<Value> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| json!({"rank": i + 1, "name": r[0].text(), "rating": r[1].real().round(), "deviation": r[2].real().round(), "games": r[3].int()}))
                .collect();
            Json(json!({"rules": rules, "players": players})).into_response()
        }
        Err(e) => storage(e),
    }
}
