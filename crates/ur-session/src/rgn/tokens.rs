//! Actions as RGN tokens: how an open action is written (squares, path
//! positions, names or JSON) and which open actions a token names.

use serde_json::Value;
use ur_rules::{Action, AnyAction, AnyGame, Playable, Side, Turn};

use super::tags::Numbers;

/// A square in RGN coordinates: the column letter counts the board's rows
/// from light's side (`A` light's, `B` the middle, `C` dark's), the number
/// its columns from 1.
fn cell_name(rows: u8, cell: ur_rules::Cell) -> String {
    let letter = char::from(b'A' + (rows - 1).saturating_sub(cell.row).min(25));
    format!("{letter}{}", u32::from(cell.col) + 1)
}

fn side_letter(rows: u8, side: Side) -> char {
    match side {
        Side::Light => 'A',
        Side::Dark => char::from(b'A' + (rows - 1).min(25)),
    }
}

/// A race move in squares: `A@A4`, `B2B5`, `A7A+`.
fn square_token(game: &ur_rules::Game, m: ur_rules::Move) -> String {
    let rules = game.rules();
    let side = game.to_move();
    let rows = rules.board.rows;
    let end = |pos: u8, mark: char| {
        if pos == 0 || pos > rules.path_len() {
            format!("{}{mark}", side_letter(rows, side))
        } else {
            cell_name(rows, rules.cell(side, pos))
        }
    };
    format!("{}{}", end(m.from, '@'), end(m.to, '+'))
}

/// A race move by path positions (`5-7`, with `b2` for a named bird).
pub(super) fn position_token(m: ur_rules::Move) -> String {
    let bird = if m.piece == 0 { String::new() } else { format!("b{}", m.piece) };
    format!("{}-{}{bird}", m.from, m.to)
}

/// The usual text of an open action: squares for a race move, the choice's
/// name, the family's text without spaces for the other families.
pub(super) fn primary_token(game: &AnyGame, action: &AnyAction) -> String {
    match (game, action) {
        (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) => square_token(g, *m),
        (_, AnyAction::Race(Action::Choose(c))) => c.name().to_owned(),
        _ => action.to_string().split_whitespace().collect(),
    }
}

pub(super) fn json_token(action: &AnyAction) -> String {
    serde_json::to_string(action).expect("actions serialise")
}

/// The open actions a token names, and whether it claims a capture (`x`).
pub(super) fn matches(game: &AnyGame, token: &str) -> (Vec<AnyAction>, bool) {
    let open = game.actions();
    if token.starts_with('{') {
        let Ok(value) = serde_json::from_str::<Value>(token) else { return (Vec::new(), false) };
        let found = open.into_iter().filter(|a| serde_json::to_value(a).ok().as_ref() == Some(&value)).collect();
        return (found, false);
    }
    let named = |t: &str| -> Vec<AnyAction> {
        open.iter()
            .filter(|a| primary_token(game, a) == t || matches!(a, AnyAction::Race(Action::Move(m)) if position_token(*m) == t))
            .cloned()
            .collect()
    };
    let found = named(token);
    if found.is_empty() && matches!(game, AnyGame::Race(_)) {
        if let Some(body) = token.strip_suffix('x') {
            return (named(body), true);
        }
    }
    (found, false)
}

/// The raw outcomes after which `token` names exactly one action of the
/// side that rolled.
pub(super) fn inferred_rolls(game: &AnyGame, token: &str) -> Vec<u8> {
    let Turn::Roll(side) = game.turn() else { return Vec::new() };
    game.outcomes()
        .into_iter()
        .filter(|&(raw, _)| {
            let mut g = game.clone();
            g.roll(raw).is_ok() && g.turn() == Turn::Decide(side) && matches(&g, token).0.len() == 1
        })
        .map(|(raw, _)| raw)
        .collect()
}

pub(super) fn raw_of(game: &AnyGame, n: u32, numbers: Numbers) -> Result<u8, String> {
    let n = u8::try_from(n).map_err(|_| format!("no roll shows {n}"))?;
    match (numbers, game) {
        (Numbers::Value, AnyGame::Race(g)) => g.rules().raw_for_value(n),
        _ => Ok(n),
    }
}

pub(super) fn number_of(game: &AnyGame, raw: u8, numbers: Numbers) -> u32 {
    match (numbers, game) {
        (Numbers::Value, AnyGame::Race(g)) => u32::from(g.rules().throw(raw).map_or(raw, |t| t.value)),
        _ => u32::from(raw),
    }
}

pub(super) fn acting_side(game: &AnyGame) -> Option<Side> {
    match game.turn() {
        Turn::Roll(s) | Turn::Decide(s) => Some(s),
        Turn::Over(_) => None,
    }
}

/// What an action did that RGN marks: a capture, a landing on a rosette.
#[derive(Clone, Copy, Default)]
pub(super) struct Marks {
    pub(super) capture: bool,
    pub(super) rosette: bool,
}

/// Plays an action, with the marks RGN gives it.
pub(super) fn play(game: &mut AnyGame, action: &AnyAction) -> Result<Marks, String> {
    if let (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) = (&mut *game, action) {
        let rules = g.rules().clone();
        let side = g.to_move();
        let effect = g.play(*m).map_err(|e| e.to_string())?;
        let rosette = m.to >= 1 && m.to <= rules.path_len() && rules.board.is_rosette(rules.cell(side, m.to));
        return Ok(Marks { capture: effect.captured, rosette });
    }
    game.apply(action).map_err(|e| e.to_string())?;
    Ok(Marks::default())
}
