//! RGN's meaning: a game's tags and tokens replayed under its rules into a
//! record ([`read_games`]), and a record's steps written as tokens
//! ([`write_game`]).

use ur_rules::{Action, AnyAction, AnyGame, GameRecord, Playable, Side, Step, Turn};

use super::tags::{default_record, header_from_tags, header_tags, Numbers};
use super::tokens::{acting_side, inferred_rolls, json_token, matches, number_of, play, position_token, primary_token, raw_of};
use super::{err, format_game, parse_games, ItemKind, RgnError, RgnGame, RgnItem, RgnTag, OWN_TAGS};
use crate::records::SavedGame;

// ---- reading ----

/// One step of a replay, as records keep it.
enum Played {
    Roll(u8),
    Act(AnyAction),
}

/// The game before its first step, and the record of it.
fn start_game(saved: &SavedGame) -> Result<AnyGame, String> {
    match saved {
        SavedGame::Race(r) => {
            let header = GameRecord { actions: Vec::new(), winner: None, ..r.clone() };
            header.start_game().map(AnyGame::Race).map_err(|e| e.to_string())
        }
        SavedGame::Family(r) => {
            let mut game = AnyGame::new(&r.rules, &r.options, r.first).map_err(|e| e.to_string())?;
            if let Some(start) = &r.start {
                game.set_position(start).map_err(|e| format!("the start position: {e}"))?;
            }
            Ok(game)
        }
    }
}

/// Replays a game's actions under the rules its tags give (`default`, a
/// RoyalUr rule-set name such as `Masters` or one of our ids, for a game
/// without a `Rules` or `UrRules` tag; Finkel when none is given).
///
/// # Errors
/// Tags that do not say valid rules, or the first action that does not
/// read or is not legal, with its line and column.
pub fn game_to_record(game: &RgnGame, default: Option<&str>) -> Result<SavedGame, RgnError> {
    let (mut saved, numbers) = header_from_tags(&game.tags, default).map_err(|mut e| {
        if e.line == 0 {
            e.line = game.line;
        }
        e
    })?;
    let mut g = start_game(&saved).map_err(|e| err(game.line, 0, format!("the game cannot start: {e}")))?;
    let assumed = !game.tags.iter().any(|t| t.key == "Rules" || t.key == "UrRules");
    let mut played = Vec::new();
    for item in &game.items {
        read_item(&mut g, item, numbers, &mut played).map_err(|mut m| {
            if assumed {
                m.push_str(&format!(" (the game names no rules and was read as {})", default.unwrap_or("Finkel")));
            }
            err(item.line, item.column, m)
        })?;
    }
    if game.finished && !matches!(g.turn(), Turn::Over(_)) {
        let (line, column) = game.items.last().map_or((game.line, 0), |i| (i.line, i.column));
        return Err(err(line, column, "the game is marked finished (#) but is not over after its last action"));
    }
    let over = g.turn();
    match &mut saved {
        SavedGame::Race(r) => {
            r.actions = played
                .into_iter()
                .filter_map(|p| match p {
                    Played::Roll(raw) => Some(Action::Roll(raw)),
                    Played::Act(a) => a.as_race().copied(),
                })
                .collect();
            r.winner = g.winner();
        }
        SavedGame::Family(r) => {
            r.steps = played
                .into_iter()
                .map(|p| match p {
                    Played::Roll(raw) => Step::Roll(raw),
                    Played::Act(a) => Step::Act(serde_json::to_value(&a).expect("actions serialise")),
                })
                .collect();
            (r.over, r.winner) = match over {
                Turn::Over(w) => (true, w),
                _ => (false, None),
            };
        }
    }
    Ok(saved)
}

fn read_item(g: &mut AnyGame, item: &RgnItem, numbers: Numbers, played: &mut Vec<Played>) -> Result<(), String> {
    let Some(side) = acting_side(g) else {
        return Err("the game is already over here; nothing may follow its last move".into());
    };
    if side != item.side {
        let marker = if side == Side::Light { "a turn number such as `12.`" } else { "`/`" };
        return Err(format!("it is {side}'s turn here, but this action is marked as {}'s (put it after {marker})", item.side));
    }
    match &item.kind {
        ItemKind::Roll(n) => {
            let raw = raw_of(g, *n, numbers)?;
            g.roll(raw).map_err(|e| format!("the roll {n}: {e}"))?;
            played.push(Played::Roll(raw));
            Ok(())
        }
        ItemKind::Act { roll, text, rosette } => {
            if let Some(n) = roll {
                let raw = raw_of(g, *n, numbers)?;
                g.roll(raw).map_err(|e| format!("the roll {n}: {e}"))?;
                played.push(Played::Roll(raw));
            } else if let Turn::Roll(_) = g.turn() {
                let raw = match inferred_rolls(g, text).as_slice() {
                    [raw] => *raw,
                    [] => return Err(format!("no roll makes '{text}' a legal move of {side} here")),
                    many => {
                        let rolls: Vec<String> = many.iter().map(|r| number_of(g, *r, numbers).to_string()).collect();
                        return Err(format!(
                            "'{text}' could follow a roll of {}: write the roll before it, as {}:{text}",
                            rolls.join(" or "),
                            rolls[0]
                        ));
                    }
                };
                g.roll(raw).map_err(|e| e.to_string())?;
                played.push(Played::Roll(raw));
            }
            let (found, claims_capture) = matches(g, text);
            let action = match found.as_slice() {
                [one] => one.clone(),
                [] => {
                    let open: Vec<String> = g.actions().iter().map(|a| primary_token(g, a)).collect();
                    let open = if open.is_empty() { "none (the game waits for a roll)".to_owned() } else { open.join(", ") };
                    return Err(format!("'{text}' is not a legal action here; legal: {open}"));
                }
                _ => return Err(format!("'{text}' names more than one legal action here; write it by path positions (FROM-TO)")),
            };
            let marks = play(g, &action)?;
            if claims_capture && !marks.capture {
                return Err(format!("'{text}' is marked as a capture (x), but it captures nothing"));
            }
            if *rosette && !marks.rosette {
                return Err(format!("'{text}' is marked as landing on a rosette (*), but it does not"));
            }
            played.push(Played::Act(action));
            Ok(())
        }
    }
}

/// Reads every game of an RGN text into records (see [`game_to_record`]).
///
/// # Errors
/// The first game that does not read, named by its number (from 1).
pub fn read_games(text: &str, default: Option<&str>) -> Result<Vec<SavedGame>, RgnError> {
    let games = parse_games(text)?;
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            game_to_record(g, default).map_err(|mut e| {
                if games.len() > 1 {
                    e.message = format!("game {}: {}", i + 1, e.message);
                }
                e
            })
        })
        .collect()
}

// ---- writing ----

/// The steps of a record as actions of its game.
fn record_steps(saved: &SavedGame, game: &AnyGame) -> Result<Vec<Played>, String> {
    match saved {
        SavedGame::Race(r) => Ok(r
            .actions
            .iter()
            .map(|a| match a {
                Action::Roll(raw) => Played::Roll(*raw),
                other => Played::Act(AnyAction::Race(*other)),
            })
            .collect()),
        SavedGame::Family(r) => r
            .steps
            .iter()
            .map(|s| match s {
                Step::Roll(raw) => Ok(Played::Roll(*raw)),
                Step::Act(json) => game.action_from_json(json).map(Played::Act).map_err(|e| e.to_string()),
            })
            .collect(),
    }
}

/// The token that names `action` alone among the open actions.
fn token_for(game: &AnyGame, action: &AnyAction) -> String {
    let mut forms = vec![primary_token(game, action)];
    if let AnyAction::Race(Action::Move(m)) = action {
        forms.push(position_token(*m));
    }
    forms.push(json_token(action));
    let alone = |t: &String| matches!(matches(game, t).0.as_slice(), [one] if one == action);
    forms.iter().find(|t| alone(t)).cloned().unwrap_or_else(|| json_token(action))
}

/// A record as an RGN game: its steps replayed into tokens.
///
/// # Errors
/// A record that does not replay.
pub fn record_to_game(saved: &SavedGame, default: Option<&str>) -> Result<RgnGame, RgnError> {
    let fail = |index: usize, m: String| err(0, 0, format!("the record does not replay at step {}: {m}", index + 1));
    crate::records::replay("the record", saved).map_err(|e| err(0, 0, e.to_string()))?;
    let mut g = start_game(saved).map_err(|m| err(0, 0, format!("the record cannot start: {m}")))?;
    let steps = record_steps(saved, &g).map_err(|m| err(0, 0, format!("the record does not read: {m}")))?;
    let (header, numbers) = header_tags(saved);
    let mut items = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let side = acting_side(&g).ok_or_else(|| fail(i, "the game is over before this step".into()))?;
        match &steps[i] {
            Played::Roll(raw) => {
                let before = g.clone();
                g.roll(*raw).map_err(|e| fail(i, e.to_string()))?;
                let paired = match steps.get(i + 1) {
                    Some(Played::Act(next)) if g.turn() == Turn::Decide(side) => Some(next),
                    _ => None,
                };
                let Some(action) = paired else {
                    items.push(item(side, ItemKind::Roll(number_of(&g, *raw, numbers))));
                    i += 1;
                    continue;
                };
                let token = token_for(&g, action);
                let roll = (inferred_rolls(&before, &token) != [*raw]).then(|| number_of(&g, *raw, numbers));
                items.push(act_item(&mut g, side, action, token, roll).map_err(|m| fail(i + 1, m))?);
                i += 2;
            }
            Played::Act(action) => {
                let token = token_for(&g, action);
                items.push(act_item(&mut g, side, action, token, None).map_err(|m| fail(i, m))?);
                i += 1;
            }
        }
    }
    let kept = match saved {
        SavedGame::Race(r) => &r.tags,
        SavedGame::Family(r) => &r.tags,
    };
    // A game without moves keeps its rules tags: with neither, nothing would be written.
    let own_only =
        !items.is_empty() && kept.is_empty() && default.and_then(|d| default_record(d).ok()).is_some_and(|d| header_tags(&d).0 == header);
    let mut tags: Vec<RgnTag> = Vec::new();
    if !own_only {
        tags.extend(header.into_iter().map(|(key, value)| RgnTag { key, value, line: 0 }));
    }
    tags.extend(kept.iter().filter(|(k, _)| !OWN_TAGS.contains(&k.as_str())).map(|(key, value)| RgnTag {
        key: key.clone(),
        value: value.clone(),
        line: 0,
    }));
    Ok(RgnGame { tags, items, finished: matches!(g.turn(), Turn::Over(_)), line: 0 })
}

fn item(side: Side, kind: ItemKind) -> RgnItem {
    RgnItem { side, kind, line: 0, column: 0 }
}

fn act_item(g: &mut AnyGame, side: Side, action: &AnyAction, mut token: String, roll: Option<u32>) -> Result<RgnItem, String> {
    let squares = matches!(action, AnyAction::Race(Action::Move(_))) && token == primary_token(g, action);
    let marks = play(g, action)?;
    if squares && marks.capture {
        token.push('x');
    }
    Ok(item(side, ItemKind::Act { roll, text: token, rosette: squares && marks.rosette }))
}

/// A record as RGN text. `default` is the rule set a reader will assume
/// for a game without rules tags (as for [`game_to_record`]): a record
/// with no metadata under those rules is written without tags, as RoyalUr
/// writes such games; otherwise the rules are always named.
///
/// # Errors
/// A record that does not replay.
pub fn write_game(saved: &SavedGame, default: Option<&str>) -> Result<String, RgnError> {
    Ok(format_game(&record_to_game(saved, default)?))
}
