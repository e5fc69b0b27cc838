//! The board's edge: coordinates beside and under the squares, the board
//! turned round for a player of the top side, and the position string sent
//! to the terminal's clipboard.

use std::io::Write;

use base64::Engine;
use ur_session::view::GameView;

/// The view with its board turned half round (rows and columns reversed):
/// what the player sitting at the other side sees. Square ids stay, so
/// pieces, moves and highlights need no change.
pub fn turned(view: &GameView) -> GameView {
    let mut v = view.clone();
    let (rows, cols) = (v.board.rows, v.board.cols);
    for s in &mut v.board.squares {
        s.row = rows - 1 - s.row;
        s.col = cols - 1 - s.col;
    }
    v
}

/// The labels of the columns (left to right) and rows (top to bottom) of
/// `view`'s board as drawn (turned round or not), from the squares' names when they are letter-and-number
/// coordinates (`a3`), else letters and numbers counted from the bottom left.
pub fn labels(view: &GameView, turned: bool) -> (Vec<String>, Vec<String>) {
    let b = &view.board;
    let split = |name: &str| {
        let k = name.find(|c: char| c.is_ascii_digit())?;
        let (l, n) = name.split_at(k);
        (!l.is_empty() && l.chars().all(|c| c.is_ascii_lowercase()) && n.chars().all(|c| c.is_ascii_digit()))
            .then(|| (l.to_string(), n.to_string()))
    };
    let agreed = |parts: Vec<Option<String>>| {
        let first = parts.first().cloned().flatten()?;
        parts.iter().all(|p| p.as_deref() == Some(first.as_str())).then_some(first)
    };
    let col = |c: u8| {
        let names = b.squares.iter().filter(|s| s.col == c).map(|s| split(&s.name).map(|x| x.0)).collect();
        agreed(names).unwrap_or_else(|| char::from(b'a' + c % 26).to_string())
    };
    let row = |r: u8| {
        let names = b.squares.iter().filter(|s| s.row == r).map(|s| split(&s.name).map(|x| x.1)).collect();
        agreed(names).unwrap_or_else(|| (b.rows - r).to_string())
    };
    let mut cols: Vec<String> = (0..b.cols).map(col).collect();
    let mut rows: Vec<String> = (0..b.rows).map(row).collect();
    if turned {
        cols.reverse();
        rows.reverse();
    }
    (cols, rows)
}

/// Sends `text` to the terminal's clipboard (OSC 52; terminals that do not
/// take it ignore it).
pub fn copy_to_clipboard(text: &str) -> std::io::Result<()> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = std::io::stdout();
    write!(out, "\x1b]52;c;{encoded}\x07")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_session::view::game_view;
    use ur_session::{NewGame, NoTables, Session};

    #[test]
    fn finkel_s_coordinates_come_from_its_square_names_and_turn_with_the_board() {
        let s = Session::new(&NewGame::builtin("finkel"), &NoTables).unwrap();
        let v = game_view(&s);
        let (cols, rows) = labels(&v, false);
        assert_eq!(cols.join(""), "abcdefgh");
        assert_eq!(rows.join(""), "321");
        let t = turned(&v);
        let (cols, rows) = labels(&v, true);
        assert_eq!(cols.join(""), "hgfedcba");
        assert_eq!(rows.join(""), "123");
        let a3 = |v: &GameView| v.board.squares.iter().find(|s| s.name == "a3").map(|s| (s.row, s.col)).unwrap();
        assert_eq!(a3(&v), (0, 0));
        assert_eq!(a3(&t), (2, 7));
    }
}
