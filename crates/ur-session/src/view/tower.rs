//! The picture of a tower game, read from its stacks and rules: the board
//! with its shared squares, refuge and cross, the stacks and the throw.

use std::collections::BTreeMap;

use ur_rules::dice::DiceModel;
use ur_rules::tower::{self, TowerDice, TowerGame, TowerPhase};
use ur_rules::{Cell, Playable, Side};

use super::words::{shown_move, Notes, Phrase};
use super::{build_board, push, side_key, square_id, standard_board, throw_view, BoardView, PieceView, PositionView, ThrowRow, ThrowView};

/// A tower game's board, position and throw.
pub(super) fn tower_parts(g: &TowerGame) -> (BoardView, PositionView, Option<ThrowView>) {
    (tower_board(g), tower_position(g), tower_throw(g))
}

fn tower_board(g: &TowerGame) -> BoardView {
    let board = standard_board();
    let path = |side: Side| (1..=tower::FINAL).map(|p| tower::cell(tower::square(side, p))).collect::<Vec<_>>();
    let by_cell: BTreeMap<Cell, usize> = (0..tower::SQUARES).map(|sq| (tower::cell(sq), sq)).collect();
    let guard = g.rules().id == "guard-d6";
    build_board(
        &board,
        [path(Side::Light), path(Side::Dark)],
        false,
        |c| by_cell.get(&c).map_or_else(String::new, |&sq| tower::square_name(sq)),
        |cell, marks| {
            let Some(&sq) = by_cell.get(&cell) else { return };
            let pos = Side::BOTH.into_iter().find_map(|s| tower::position(s, sq));
            match pos {
                Some(p) if (tower::M1..=tower::M8).contains(&p) => push(marks, "shared"),
                Some(tower::REFUGE) => push(marks, "refuge"),
                Some(tower::FINAL) if guard => push(marks, "cross"),
                _ => {}
            }
        },
    )
}

fn tower_position(g: &TowerGame) -> PositionView {
    let cols = standard_board().cols;
    let stacks = g.stacks();
    let face = |promoted: bool| if promoted { "promoted" } else { "plain" }.to_string();
    let mut pieces = Vec::new();
    for sq in 0..tower::SQUARES {
        let Some(top) = stacks.top(sq) else { continue };
        let tokens: Vec<_> = (0..stacks.len(sq)).map(|i| stacks.token(sq, i)).collect();
        let count = tokens.iter().filter(|t| t.owner() == top.owner()).count() as u32;
        pieces.push(PieceView {
            square: square_id(cols, tower::cell(sq)),
            side: side_key(top.owner()),
            count,
            face: Some(face(top.promoted())),
            stack: tokens.iter().map(|t| side_key(t.owner())).collect(),
            stack_faces: tokens.iter().map(|t| face(t.promoted())).collect(),
        });
    }
    let snap = g.snapshot();
    let r = g.rules();
    let mut notes = Notes::default();
    notes.push(
        format!("Faces: {} (plain), {} (promoted)", r.faces[0], r.faces[1]),
        Phrase::new("note.faces").with("plain", r.faces[0]).with("promoted", r.faces[1]),
    );
    for side in Side::BOTH {
        let (held, gone) = (snap.prisoners[side.index()], g.eliminated(side));
        if held > 0 || gone > 0 {
            let words = Phrase::new("note.prisoners").with("side", side_key(side)).with("held", held).with("gone", gone);
            notes.push(format!("{}: {held} held prisoner, {gone} eliminated", g.side_name(side)), words);
        }
    }
    if g.quiet_turns() > 0 {
        let n = g.quiet_turns();
        let turns = if n == 1 { "turn" } else { "turns" };
        notes.push(format!("{n} {turns} without progress"), Phrase::new("note.quiet").with("n", n));
    }
    if let Some(end) = g.end_reason() {
        let reason = serde_json::to_value(end).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        notes.push(format!("Ended by {}", reason.replace('_', " ")), Phrase::new("note.ended").with("reason", reason));
    }
    let both = |f: &dyn Fn(Side) -> u8| [u32::from(f(Side::Light)), u32::from(f(Side::Dark))];
    PositionView { pieces, reserve: both(&|s| g.reserve(s)), off: both(&|s| g.eliminated(s)), notes: notes.text, note_words: notes.words }
}

fn tower_throw(g: &TowerGame) -> Option<ThrowView> {
    let pyramids = g.rules().dice == TowerDice::Pyramids;
    let model = if pyramids { DiceModel::Bin4 } else { DiceModel::D6 };
    let table = if pyramids {
        let mut rows: Vec<ThrowRow> = (1..=4).map(plain_row).collect();
        rows.insert(0, ThrowRow { raw: 0, value: 5, text: "throw again or move 5".into(), words: vec![again_or_5()] });
        rows
    } else {
        let mut rows: Vec<ThrowRow> = (1..=5).map(plain_row).collect();
        rows.push(ThrowRow { raw: 6, value: 0, text: "the turn passes".into(), words: vec![Phrase::new("throw.passes")] });
        rows
    };
    let blank = || Phrase::new("throw.blank");
    match g.phase() {
        TowerPhase::Blank => Some(throw_view(model, 0, 0, ("all blank: throw again or move 5".into(), vec![blank(), again_or_5()]), table)),
        // A pyramid move of 5 comes only from an all-blank throw.
        TowerPhase::Move(5) if pyramids => {
            Some(throw_view(model, 0, 5, ("all blank: move 5".into(), vec![blank(), Phrase::new("throw.move").with("n", 5)]), table))
        }
        TowerPhase::Move(v) => Some(throw_view(model, v, v, shown_move(model, v, v), table)),
        TowerPhase::Roll | TowerPhase::Over(_) => None,
    }
}

fn plain_row(v: u8) -> ThrowRow {
    ThrowRow { raw: v, value: v, text: String::new(), words: Vec::new() }
}

fn again_or_5() -> Phrase {
    Phrase::new("throw.again_or_move5")
}
