//! The picture of a marker game (`bens-ur`, `ludens-akalandung`), read from
//! its snapshot and paths: the standard board with every decoration, the
//! pieces by face, and the throw.

use std::collections::BTreeMap;

use ur_rules::dice::DiceModel;
use ur_rules::marker::akalandung::{self, AkalandungGame};
use ur_rules::marker::bens::BensGame;
use ur_rules::{Cell, Playable, Side};

use super::words::{shown_move, shows, Notes, Phrase};
use super::{build_board, piece, push, side_key, square_id, standard_board, throw_view, BoardView, PieceView, PositionView, ThrowView};

/// The marker games' board: the standard board with every decoration.
fn marker_board(path_cell: impl Fn(Side, u8) -> Option<Cell>, roles: impl Fn(Cell, &mut Vec<String>)) -> BoardView {
    let board = standard_board();
    let path = |side: Side| (1..).map_while(|p| path_cell(side, p)).collect::<Vec<_>>();
    let rows = board.rows;
    build_board(&board, [path(Side::Light), path(Side::Dark)], true, |c| format!("{}{}", (b'a' + c.col) as char, rows - c.row), roles)
}

fn bens_board(g: &BensGame) -> BoardView {
    let board = standard_board();
    // A rosette protects its markers (docs/rules/bens-ur.md#board-and-path).
    marker_board(
        |s, p| g.path_cell(s, p),
        |cell, marks| {
            if board.is_rosette(cell) {
                push(marks, "safe");
            }
        },
    )
}

fn akalandung_board(g: &AkalandungGame, options: &BTreeMap<String, String>) -> BoardView {
    let on = |name: &str| options.get(name).is_some_and(|v| v == "true");
    let at = |positions: &[u8]| -> Vec<Cell> {
        Side::BOTH.into_iter().flat_map(|s| positions.iter().filter_map(move |&p| g.path_cell(s, p))).collect()
    };
    let rosettes = at(&akalandung::ROSETTES);
    let centre = at(&[akalandung::CENTRE]);
    let twins = if on("twins") { at(&[akalandung::TWIN_SQUARE]) } else { Vec::new() };
    let oracle = if on("oracle") { at(&akalandung::ORACLE) } else { Vec::new() };
    let warrior = if on("warrior") { at(&[akalandung::WARRIOR_START]) } else { Vec::new() };
    marker_board(
        |s, p| g.path_cell(s, p),
        |cell, marks| {
            if rosettes.contains(&cell) {
                push(marks, "stop");
                push(marks, "extra_roll");
            }
            if centre.contains(&cell) {
                push(marks, "safe");
                push(marks, "shared");
            }
            for (cells, mark) in [(&twins, "twins"), (&oracle, "oracle"), (&warrior, "warrior")] {
                if cells.contains(&cell) {
                    push(marks, mark);
                }
            }
        },
    )
}

fn marker_pieces(
    cols: u8,
    cell: impl Fn(Side, u8) -> Option<Cell>,
    side: Side,
    positions: &[u8],
    face: Option<&str>,
    per: u32,
) -> Vec<PieceView> {
    let mut by: BTreeMap<u16, u32> = BTreeMap::new();
    for &p in positions {
        if let Some(c) = cell(side, p) {
            *by.entry(square_id(cols, c)).or_default() += per;
        }
    }
    by.into_iter().map(|(sq, n)| piece(sq, side, n, face.map(str::to_string))).collect()
}

pub(super) fn bens_parts(g: &BensGame) -> (BoardView, PositionView, Option<ThrowView>) {
    let snap = g.snapshot();
    let cols = standard_board().cols;
    let mut pieces = Vec::new();
    let mut reserve = [0; 2];
    let mut off = [0; 2];
    for (side, s) in [(Side::Light, &snap.light), (Side::Dark, &snap.dark)] {
        pieces.extend(marker_pieces(cols, |sd, p| g.path_cell(sd, p), side, &s.blank, Some("blank"), 1));
        pieces.extend(marker_pieces(cols, |sd, p| g.path_cell(sd, p), side, &s.dotted, Some("dotted"), 1));
        reserve[side.index()] = u32::from(s.home.unwrap_or(0));
        off[side.index()] = u32::from(s.off);
    }
    let mut notes = Notes::default();
    if snap.turn.starts_with("start") {
        let text = "Start procedure: both sides throw for their first marker; the one further ahead starts";
        notes.push(text.into(), Phrase::new("note.start_procedure"));
    }
    if snap.free_turn {
        notes.push("This roll is a free turn".into(), Phrase::new("note.free_turn"));
    }
    let dice = match snap.options.get("dice").map(String::as_str) {
        Some("BIN4") => DiceModel::Bin4,
        Some("D4") => DiceModel::D4,
        _ => DiceModel::Bin3,
    };
    // The raw outcome is the move value in every dice model of bens-ur; a
    // start jump is decided after a zero.
    let raw = if snap.turn.starts_with("start-jump") { Some(0) } else { snap.throw };
    let throw = raw.map(|raw| {
        let said = if raw == 0 {
            let (shown, shown_words) = shows(dice, raw);
            let text = format!("{shown}: a zero: jump (or leave from 23 with a dotted marker), then a free turn");
            (text, vec![shown_words, Phrase::new("throw.zero_jump")])
        } else {
            shown_move(dice, raw, raw)
        };
        throw_view(dice, raw, raw, said, Vec::new())
    });
    (bens_board(g), PositionView { pieces, reserve, off, notes: notes.text, note_words: notes.words }, throw)
}

pub(super) fn akalandung_parts(g: &AkalandungGame) -> (BoardView, PositionView, Option<ThrowView>) {
    let snap = g.snapshot();
    let cols = standard_board().cols;
    let cell = |sd: Side, p: u8| g.path_cell(sd, p);
    let mut pieces = Vec::new();
    let mut reserve = [0; 2];
    let mut off = [0; 2];
    for (side, s) in [(Side::Light, &snap.light), (Side::Dark, &snap.dark)] {
        let mut plain = s.path.clone();
        for w in &s.warriors {
            if let Some(i) = plain.iter().position(|p| p == w) {
                plain.remove(i);
            }
        }
        pieces.extend(marker_pieces(cols, cell, side, &plain, None, 1));
        pieces.extend(marker_pieces(cols, cell, side, &s.warriors, Some("warrior"), 1));
        pieces.extend(marker_pieces(cols, cell, side, &s.twins, Some("twins"), 2));
        reserve[side.index()] = u32::from(s.reserve.unwrap_or(0));
        off[side.index()] = u32::from(s.off);
    }
    let mut notes = Notes::default();
    if let Some(holder) = snap.oracle {
        let words = Phrase::new("note.oracle").with("side", side_key(holder));
        notes.push(format!("{} holds the Oracle's Vision", g.side_name(holder)), words);
    }
    let throw = snap.throw.map(|raw| throw_view(DiceModel::Bin3, raw, raw, shown_move(DiceModel::Bin3, raw, raw), Vec::new()));
    let position = PositionView { pieces, reserve, off, notes: notes.text, note_words: notes.words };
    (akalandung_board(g, &snap.options), position, throw)
}
