//! The race boards as text for the terminal.
//!
//! Squares are named like a chess board: columns `a`, `b`, ... from the left,
//! rows `1`, `2`, ... from the bottom (light's outer row is row 1, dark's is
//! the top row). [`render`] and [`path_diagram`] print the same labels, so a
//! path position can be found on the board.

use crate::board::Cell;
use crate::dice::Extra;
use crate::game::{Game, Phase};
use crate::movegen::Move;
use crate::position::State;
use crate::rules::Rules;
use crate::Side;

/// The name of a cell as printed around the boards: column letter, row number (`a1` bottom left).
pub fn cell_name(rules: &Rules, cell: Cell) -> String {
    format!("{}{}", (b'a' + cell.col) as char, rules.board.rows - cell.row)
}

/// The name of a side's path position: its cell (`d1`), `reserve` for 0 and `off` for L + 1.
pub fn position_name(rules: &Rules, side: Side, pos: u8) -> String {
    match pos {
        0 => "reserve".into(),
        p if p > rules.path_len() => "off".into(),
        p => cell_name(rules, rules.cell(side, p)),
    }
}

/// The letter used on the board for a side's pieces.
pub fn side_letter(side: Side) -> char {
    match side {
        Side::Light => 'L',
        Side::Dark => 'D',
    }
}

/// A side as players see it: its rule set's name and the engine's side,
/// `White (light)`, or just `Light` when the names agree.
pub fn side_label(rules: &Rules, side: Side) -> String {
    let name = &rules.spec.sides[side.index()];
    if name.eq_ignore_ascii_case(side.name()) {
        name.clone()
    } else {
        format!("{name} ({side})")
    }
}

/// The board with pieces: `L`/`D` for light and dark (with a count when
/// several share a square; with named birds, the birds' numbers instead),
/// `*` for an empty rosette, `.` for an empty square. Then each side's
/// reserve and borne-off pieces, and with named birds where each bird is.
pub fn render(rules: &Rules, st: &State) -> String {
    let b = &rules.board;
    let texts: Vec<Vec<Option<String>>> = (0..b.rows)
        .map(|row| {
            (0..b.cols)
                .map(|col| {
                    let cell = Cell { row, col };
                    rules.has_cell(cell).then(|| cell_text(rules, st, cell))
                })
                .collect()
        })
        .collect();
    let width = texts.iter().flatten().flatten().map(String::len).max().unwrap_or(0).max(2);
    let mut out = String::from("    ");
    for col in 0..b.cols {
        out += &format!(" {:^width$} ", (b'a' + col) as char);
    }
    out.push('\n');
    for (row, cells) in texts.iter().enumerate() {
        out += &format!(" {}  ", usize::from(b.rows) - row);
        for text in cells {
            out += &match text {
                Some(t) => format!("[{t:^width$}]"),
                None => " ".repeat(width + 2),
            };
        }
        out.push('\n');
    }
    for side in Side::BOTH {
        out += &format!(
            "  {} ({}): {} in reserve, {} borne off{}\n",
            rules.spec.sides[side.index()],
            side_letter(side),
            st.reserve(side),
            st.off(side),
            if st.to_move() == side { "  <- to move" } else { "" }
        );
        if let Some(birds) = &rules.spec.birds {
            let list: Vec<String> = st
                .birds(side, rules)
                .iter()
                .enumerate()
                .map(|(i, &pos)| {
                    let place = match pos {
                        0 => "in reserve".to_string(),
                        p if p > rules.path_len() => "borne off".to_string(),
                        p => format!("on {p} ({})", cell_name(rules, rules.cell(side, p))),
                    };
                    format!("{} {} {place}", i + 1, birds.names[i])
                })
                .collect();
            out += &wrap("      birds: ", &list, 80);
        }
    }
    trim_lines(&out)
}

/// What the symbols of [`render`] mean, for the start of a game.
pub fn board_key(rules: &Rules) -> String {
    let [l, d] = [Side::Light, Side::Dark].map(|s| rules.spec.sides[s.index()].clone());
    if rules.named_pieces() {
        format!(
            "Board key: L = {l} (light), D = {d} (dark), followed by the birds' numbers (L13 = light's birds 1 and 3); \
             * = empty rosette, . = empty square.\n"
        )
    } else {
        format!(
            "Board key: L = a {l} (light) piece, D = a {d} (dark) piece, L2 = two light pieces; \
             * = empty rosette, . = empty square.\n"
        )
    }
}

fn cell_text(rules: &Rules, st: &State, cell: Cell) -> String {
    let positions = |side: Side| (1..=rules.path_len()).filter(move |&p| rules.cell(side, p) == cell);
    let mut text = String::new();
    for side in Side::BOTH {
        if rules.named_pieces() {
            let here: Vec<u8> = positions(side).collect();
            let birds: String = st
                .birds(side, rules)
                .iter()
                .enumerate()
                .filter(|(_, p)| here.contains(p))
                .map(|(i, _)| char::from(b'1' + i as u8))
                .collect();
            if !birds.is_empty() {
                text.push(side_letter(side));
                text += &birds;
            }
        } else {
            match positions(side).map(|p| st.count_at(side, p)).sum::<u8>() {
                0 => {}
                1 => text.push(side_letter(side)),
                n => text += &format!("{}{n}", side_letter(side)),
            }
        }
    }
    if !text.is_empty() {
        text
    } else if rules.board.is_rosette(cell) {
        "*".into()
    } else {
        ".".into()
    }
}

/// The board with each square of a side's path labelled by its position,
/// with the same column letters and row numbers as [`render`].
pub fn path_diagram(rules: &Rules, side: Side) -> String {
    let b = &rules.board;
    let mut out = String::from("    ");
    for col in 0..b.cols {
        out += &format!("{:^8}", (b'a' + col) as char);
    }
    out.push('\n');
    for row in 0..b.rows {
        out += &format!("  {} ", b.rows - row);
        for col in 0..b.cols {
            let cell = Cell { row, col };
            let positions: Vec<String> = (1..=rules.path_len()).filter(|&p| rules.cell(side, p) == cell).map(|p| p.to_string()).collect();
            let mark = if b.is_rosette(cell) { "*" } else { "" };
            out += &if !rules.has_cell(cell) {
                "        ".into()
            } else if positions.is_empty() {
                format!("[{:^6}]", format!("--{mark}"))
            } else {
                format!("[{:^6}]", positions.join("/") + mark)
            };
        }
        out.push('\n');
    }
    out += "  (* = rosette; a/b = a square visited twice; -- = not on this path)\n";
    trim_lines(&out)
}

/// What the game waits for, in one line with the rule set's side names:
/// `Light to roll`, `Dark to move 3`, `Light: reroll or end`, `Dark wins`.
pub fn turn_line(game: &Game) -> String {
    let name = |s: Side| game.rules().spec.sides[s.index()].clone();
    let side = name(game.to_move());
    match game.phase() {
        Phase::Roll => format!("{side} to roll\n"),
        Phase::Declare => format!("{side}: declare move or summon\n"),
        Phase::Move => format!("{side} to move {}\n", game.throw().map_or(0, |t| t.value)),
        Phase::ExtraRoll => format!("{side}: reroll or end\n"),
        Phase::Over => match game.winner() {
            Some(w) => format!("Game over: {} wins\n", name(w)),
            None => "Game over\n".into(),
        },
    }
}

/// `items` after `lead`, separated by commas, in lines of at most `width`
/// columns (continued under the first item).
fn wrap(lead: &str, items: &[String], width: usize) -> String {
    let indent = " ".repeat(lead.len());
    let mut out = String::new();
    let mut line = lead.to_string();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() { format!("{item},") } else { item.clone() };
        if line.len() > lead.len() && line.len() + 1 + piece.len() > width {
            out += line.trim_end();
            out.push('\n');
            line = indent.clone();
        } else if line.len() > lead.len() {
            line.push(' ');
        }
        line += &piece;
    }
    out += &line;
    out.push('\n');
    out
}

/// Drops trailing spaces from every line.
fn trim_lines(text: &str) -> String {
    text.lines().map(|l| l.trim_end().to_string() + "\n").collect()
}

/// One line describing a move of the side to move, for the player:
/// `enter -> 3 (b1)`, `5 (a2) -> 9 (e2): captures, rolls again`, `14 (g1) -> off`.
pub fn move_text(game: &Game, mv: Move) -> String {
    let rules = game.rules();
    let side = game.to_move();
    let off = rules.path_len() + 1;
    let src = if mv.from == 0 { "enter".to_string() } else { format!("{} ({})", mv.from, position_name(rules, side, mv.from)) };
    let dst = if mv.to >= off { "off".to_string() } else { format!("{} ({})", mv.to, position_name(rules, side, mv.to)) };
    let tags: Vec<&str> = move_tags(game, mv).into_iter().map(MoveTag::text).collect();
    let tags = if tags.is_empty() { String::new() } else { format!(": {}", tags.join(", ")) };
    format!("{src} -> {dst}{tags}")
}

/// What a race move does besides moving, as its label names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTag {
    Wins,
    Captures,
    Rosette,
    RollsAgain,
    MayRollAgain,
}

impl MoveTag {
    /// The tag in English.
    pub fn text(self) -> &'static str {
        match self {
            MoveTag::Wins => "wins the game",
            MoveTag::Captures => "captures",
            MoveTag::Rosette => "rosette",
            MoveTag::RollsAgain => "rolls again",
            MoveTag::MayRollAgain => "may roll again",
        }
    }
}

/// The tags of a move with the game's current throw, in label order (a
/// winning move says only that it wins).
pub fn move_tags(game: &Game, mv: Move) -> Vec<MoveTag> {
    let rules = game.rules();
    let side = game.to_move();
    let Some(throw) = game.throw() else { return Vec::new() };
    let mut st = *game.state();
    let effect = rules.apply_unchecked(&mut st, &throw, mv);
    if st.off(side) == rules.pieces() {
        return vec![MoveTag::Wins];
    }
    let mut tags = Vec::new();
    if effect.captured {
        tags.push(MoveTag::Captures);
    }
    if effect.landed_on_rosette {
        tags.push(MoveTag::Rosette);
    }
    match effect.extra {
        Extra::Auto => tags.push(MoveTag::RollsAgain),
        Extra::Optional => tags.push(MoveTag::MayRollAgain),
        Extra::None => {}
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_from_the_bottom_left() {
        let rules = Rules::builtin("finkel").unwrap();
        assert_eq!(cell_name(&rules, Cell { row: 2, col: 0 }), "a1");
        assert_eq!(cell_name(&rules, Cell { row: 0, col: 7 }), "h3");
        assert_eq!(position_name(&rules, Side::Light, 1), "d1");
        assert_eq!(position_name(&rules, Side::Dark, 1), "d3");
        assert_eq!(position_name(&rules, Side::Dark, 0), "reserve");
        assert_eq!(position_name(&rules, Side::Dark, 15), "off");
    }

    #[test]
    fn boards_have_no_trailing_spaces_and_list_birds() {
        let rules = Rules::builtin("v1-named-birds").unwrap();
        let st = State::start(&rules, Side::Light);
        let text = render(&rules, &st);
        assert!(text.lines().all(|l| l == l.trim_end()), "{text}");
        assert!(text.contains("birds: 1 Swallow in reserve"), "{text}");
        let diagram = path_diagram(&Rules::builtin("regency-murray").unwrap(), Side::Light);
        assert!(diagram.contains("[4/24* ]") && diagram.contains("[ 1/27 ]"), "{diagram}");
    }
}
