//! The board as character cells, laid out from a [`GameView`] alone: every
//! square in its grid place with its decoration glyph, the pieces on it,
//! each side's reserve and borne-off pieces on a line beside the board,
//! and the selected move's from and to highlighted. Pure functions, so
//! the layout is tested without a terminal; `widgets.rs` paints it.

use ur_session::view::{GameView, PieceView, SquareView};

/// What a cell means, for its colour and modifiers (`widgets.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Border,
    /// A square's decoration glyph.
    Deco,
    /// The rosette: the decoration most rule sets give a meaning.
    Rosette,
    /// A role glyph (refuge, goal cross, Akalandung's powers).
    Role,
    Light,
    Dark,
    /// Unused squares and quiet text.
    Dim,
    /// The selected move's piece (or reserve).
    Source,
    /// The selected move's destination.
    Target,
}

/// One character cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub ch: char,
    pub tone: Tone,
}

/// The glyphs used: Unicode, or plain ASCII for terminals without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyphs {
    pub ascii: bool,
}

impl Glyphs {
    pub const UNICODE: Glyphs = Glyphs { ascii: false };
    pub const ASCII: Glyphs = Glyphs { ascii: true };

    /// The glyph of a decoration or role mark drawn on a square, if it has one.
    pub fn mark(self, mark: &str) -> Option<char> {
        let (u, a) = match mark {
            "rosette" => ('✿', '*'),
            "eyes" => ('◎', 'e'),
            "five" => ('⁙', 'f'),
            "passage" => ('⁘', 'p'),
            "twelve" => ('⠿', 'g'),
            "conversion" => ('≋', 'z'),
            "cross" => ('✚', '+'),
            "refuge" => ('⌂', 'r'),
            "twins" => ('t', 't'),
            "oracle" => ('o', 'o'),
            "warrior" => ('w', 'w'),
            _ => return None,
        };
        Some(if self.ascii { a } else { u })
    }

    /// A piece of `side` (`light` or `dark`) with `face`: hollow shapes for
    /// light, filled ones for dark, as the page and its review draw them (white
    /// discs with an outline, black discs), so the sides differ by shape as well as colour.
    pub fn piece(self, side: &str, face: Option<&str>) -> char {
        let light = side == "light";
        let (u, a) = match (face, light) {
            (Some("dotted"), true) => ('◌', 'X'),
            (Some("dotted"), false) => ('◉', 'Q'),
            (Some("promoted"), true) => ('◇', 'V'),
            (Some("promoted"), false) => ('◆', 'W'),
            (_, true) => ('○', 'x'),
            (_, false) => ('●', 'o'),
        };
        if self.ascii {
            a
        } else {
            u
        }
    }

    fn border(self, up: bool, down: bool, left: bool, right: bool) -> char {
        if self.ascii {
            return match (up || down, left || right) {
                (true, true) => '+',
                (true, false) => '|',
                (false, true) => '-',
                (false, false) => ' ',
            };
        }
        match (up, down, left, right) {
            (false, false, false, false) => ' ',
            (true, true, false, false) | (true, false, false, false) | (false, true, false, false) => '│',
            (false, false, true, true) | (false, false, true, false) | (false, false, false, true) => '─',
            (false, true, false, true) => '┌',
            (false, true, true, false) => '┐',
            (true, false, false, true) => '└',
            (true, false, true, false) => '┘',
            (true, true, false, true) => '├',
            (true, true, true, false) => '┤',
            (false, true, true, true) => '┬',
            (true, false, true, true) => '┴',
            (true, true, true, true) => '┼',
        }
    }

    fn target_border(self, horizontal: bool) -> char {
        match (self.ascii, horizontal) {
            (true, true) => '=',
            (true, false) => '#',
            (false, true) => '═',
            (false, false) => '║',
        }
    }
}

/// The decorations and roles drawn on squares, in the order a square shows
/// them (its first is the glyph at the square's top left).
pub const DRAWN_MARKS: [&str; 11] =
    ["rosette", "eyes", "five", "passage", "twelve", "conversion", "cross", "refuge", "twins", "oracle", "warrior"];

/// Where a move starts or ends, as the board highlights it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    pub from_square: Option<u16>,
    pub to_square: Option<u16>,
    /// The side key whose reserve the move starts from.
    pub from_reserve: Option<String>,
    /// The side key whose borne-off pile the move goes to.
    pub to_off: Option<String>,
}

/// Where a square was drawn: its interior's top-left cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub id: u16,
    pub x: u16,
    pub y: u16,
}

/// The board drawn: `lines[y][x]`, and where each square is.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardCells {
    pub lines: Vec<Vec<Cell>>,
    pub squares: Vec<Placed>,
    /// Interior width of a square.
    pub inner: u16,
}

impl BoardCells {
    pub fn width(&self) -> u16 {
        self.lines.first().map_or(0, |l| l.len() as u16)
    }

    pub fn height(&self) -> u16 {
        self.lines.len() as u16
    }
}

/// Interior height of a square in lines: its marks, then its pieces.
pub const INNER_HEIGHT: u16 = 2;

/// The widest interior that fits `max_width` columns (5, else 3).
pub fn inner_for(cols: u8, max_width: u16) -> u16 {
    if u16::from(cols) * 6 < max_width {
        5
    } else {
        3
    }
}

/// The board's width in cells with squares `inner` wide.
pub fn board_width(cols: u8, inner: u16) -> u16 {
    u16::from(cols) * (inner + 1) + 1
}

/// Lays out the board of `view`: squares `inner` cells wide, the side
/// lines (dark above, light below) excluded (see [`side_line`]).
pub fn layout(view: &GameView, glyphs: Glyphs, inner: u16, hl: &Highlight) -> BoardCells {
    let b = &view.board;
    let (rows, cols) = (usize::from(b.rows), usize::from(b.cols));
    let w = usize::from(inner);
    let h = usize::from(INNER_HEIGHT);
    let width = usize::from(board_width(b.cols, inner));
    let height = rows * (h + 1) + 1;
    let blank = Cell { ch: ' ', tone: Tone::Plain };
    let mut lines = vec![vec![blank; width]; height];
    let mut present = vec![vec![false; cols]; rows];
    for s in &b.squares {
        present[usize::from(s.row)][usize::from(s.col)] = true;
    }
    let has = |r: isize, c: isize| r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols && present[r as usize][c as usize];
    // Edges: a horizontal edge above row r at column c exists when a square
    // is on either side of it; vertical edges likewise.
    let hedge = |r: isize, c: isize| has(r - 1, c) || has(r, c);
    let vedge = |r: isize, c: isize| has(r, c - 1) || has(r, c);
    for r in 0..=rows {
        for c in 0..=cols {
            let (ri, ci) = (r as isize, c as isize);
            let y = r * (h + 1);
            let x = c * (w + 1);
            let up = vedge(ri - 1, ci);
            let down = vedge(ri, ci);
            let left = hedge(ri, ci - 1);
            let right = hedge(ri, ci);
            lines[y][x] = Cell { ch: glyphs.border(up, down, left, right), tone: Tone::Border };
            if c < cols && hedge(ri, ci) {
                for k in 1..=w {
                    lines[y][x + k] = Cell { ch: glyphs.border(false, false, true, true), tone: Tone::Border };
                }
            }
            if r < rows && vedge(ri, ci) {
                for k in 1..=h {
                    lines[y + k][x] = Cell { ch: glyphs.border(true, true, false, false), tone: Tone::Border };
                }
            }
        }
    }
    let mut squares = Vec::new();
    for s in &b.squares {
        let x = usize::from(s.col) * (w + 1) + 1;
        let y = usize::from(s.row) * (h + 1) + 1;
        squares.push(Placed { id: s.id, x: x as u16, y: y as u16 });
        let on: Vec<&PieceView> = view.position.pieces.iter().filter(|p| p.square == s.id).collect();
        let top = mark_line(s, &on, glyphs, w);
        let bottom = piece_line(&on, glyphs, w);
        for (k, cell) in top.into_iter().enumerate() {
            lines[y][x + k] = cell;
        }
        for (k, cell) in bottom.into_iter().enumerate() {
            lines[y + 1][x + k] = cell;
        }
        let unused = s.marks.iter().any(|m| m == "unused");
        let source = hl.from_square == Some(s.id);
        let target = hl.to_square == Some(s.id);
        for dy in 0..h {
            for dx in 0..w {
                let cell = &mut lines[y + dy][x + dx];
                if source {
                    cell.tone = Tone::Source;
                } else if target {
                    cell.tone = Tone::Target;
                } else if unused && cell.ch == ' ' {
                    cell.ch = if glyphs.ascii { '.' } else { '░' };
                    cell.tone = Tone::Dim;
                }
            }
        }
        if target {
            // A double frame: the destination reads without colour.
            for dx in 0..w {
                lines[y - 1][x + dx] = Cell { ch: glyphs.target_border(true), tone: Tone::Target };
                lines[y + h][x + dx] = Cell { ch: glyphs.target_border(true), tone: Tone::Target };
            }
            for dy in 0..h {
                lines[y + dy][x - 1] = Cell { ch: glyphs.target_border(false), tone: Tone::Target };
                lines[y + dy][x + w] = Cell { ch: glyphs.target_border(false), tone: Tone::Target };
            }
        }
    }
    BoardCells { lines, squares, inner }
}

/// A square's top line: its decoration glyphs from the left, a tower's
/// height at the right.
fn mark_line(s: &SquareView, on: &[&PieceView], glyphs: Glyphs, w: usize) -> Vec<Cell> {
    let mut cells = vec![Cell { ch: ' ', tone: Tone::Plain }; w];
    let mut k = 0;
    for mark in DRAWN_MARKS {
        if !s.marks.iter().any(|m| m == mark) {
            continue;
        }
        let Some(ch) = glyphs.mark(mark) else { continue };
        if k >= w {
            break;
        }
        let tone = match mark {
            "rosette" => Tone::Rosette,
            "cross" | "refuge" | "twins" | "oracle" | "warrior" => Tone::Role,
            _ => Tone::Deco,
        };
        cells[k] = Cell { ch, tone };
        k += 1;
    }
    if let Some(stack) = on.iter().find(|p| p.stack.len() > 1) {
        let text = format!("{}{}", if glyphs.ascii { 'h' } else { '↑' }, stack.stack.len());
        let n = text.chars().count();
        if n <= w.saturating_sub(k) {
            for (i, ch) in text.chars().enumerate() {
                cells[w - n + i] = Cell { ch, tone: Tone::Plain };
            }
        }
    }
    cells
}

fn side_tone(side: &str) -> Tone {
    if side == "light" {
        Tone::Light
    } else {
        Tone::Dark
    }
}

/// The pieces on a square as glyphs: a count after a glyph when more than
/// one stands there, a tower's stack bottom to top (top at the right),
/// Akalandung's twins as one bracketed pair, a named bird's initial.
pub fn piece_cells(on: &[&PieceView], glyphs: Glyphs, w: usize) -> Vec<Cell> {
    let mut out: Vec<Cell> = Vec::new();
    let cell = |ch: char, side: &str| Cell { ch, tone: side_tone(side) };
    for p in on {
        if !p.stack.is_empty() {
            let tokens: Vec<Cell> = p
                .stack
                .iter()
                .zip(p.stack_faces.iter().map(String::as_str).chain(std::iter::repeat("plain")))
                .map(|(side, face)| cell(glyphs.piece(side, Some(face)), side))
                .collect();
            if tokens.len() <= w {
                out.extend(tokens);
            } else {
                out.push(Cell { ch: if glyphs.ascii { '~' } else { '…' }, tone: Tone::Plain });
                out.extend(tokens[tokens.len() - (w - 1)..].iter().copied());
            }
            continue;
        }
        let glyph = glyphs.piece(&p.side, p.face.as_deref());
        match p.face.as_deref() {
            Some("twins") => {
                let pairs = p.count / 2;
                for _ in 0..pairs.max(1) {
                    out.push(Cell { ch: '(', tone: side_tone(&p.side) });
                    out.push(cell(glyph, &p.side));
                    out.push(cell(glyph, &p.side));
                    out.push(Cell { ch: ')', tone: side_tone(&p.side) });
                }
            }
            Some("warrior") => {
                out.push(cell(glyph, &p.side));
                out.push(cell('W', &p.side));
            }
            Some(face) if !matches!(face, "blank" | "dotted" | "plain" | "promoted") => {
                // A named bird: the start of its name after the side's glyph.
                out.push(cell(glyph, &p.side));
                out.extend(face.chars().take(2).map(|ch| cell(ch, &p.side)));
            }
            _ => {
                out.push(cell(glyph, &p.side));
                if p.count > 1 {
                    out.extend(p.count.to_string().chars().map(|c| cell(c, &p.side)));
                }
            }
        }
    }
    out
}

fn piece_line(on: &[&PieceView], glyphs: Glyphs, w: usize) -> Vec<Cell> {
    let mut cells = piece_cells(on, glyphs, w);
    if cells.len() > w {
        // Too many to show: each side's glyph with its total.
        cells.clear();
        for side in ["light", "dark"] {
            let n: u32 = on.iter().filter(|p| p.side == side).map(|p| p.count.max(p.stack.len() as u32)).sum();
            if n > 0 {
                cells.push(Cell { ch: glyphs.piece(side, None), tone: side_tone(side) });
                cells.extend(n.to_string().chars().map(|c| Cell { ch: c, tone: side_tone(side) }));
            }
        }
        cells.truncate(w);
    }
    // Centred.
    let pad = (w - cells.len()) / 2;
    let mut line = vec![Cell { ch: ' ', tone: Tone::Plain }; pad];
    line.extend(cells);
    line.resize(w, Cell { ch: ' ', tone: Tone::Plain });
    line
}

/// A side's line beside the board: its glyph and name, its reserve (a
/// glyph per piece, then the count) and its pieces out of play, with the
/// selected move's reserve or borne-off end highlighted.
pub fn side_line(view: &GameView, side: usize, glyphs: Glyphs, who: &str, hl: &Highlight, width: usize) -> Vec<Cell> {
    let key = view.sides[side].key.as_str();
    let name = &view.sides[side].name;
    let tone = side_tone(key);
    let glyph = glyphs.piece(key, None);
    let mut out = Vec::new();
    let push = |out: &mut Vec<Cell>, s: &str, tone: Tone| out.extend(s.chars().map(|ch| Cell { ch, tone }));
    out.push(Cell { ch: glyph, tone });
    push(&mut out, &format!(" {name}"), tone);
    if !who.is_empty() {
        push(&mut out, &format!(" ({who})"), Tone::Plain);
    }
    push(&mut out, "  ", Tone::Plain);
    let n = view.position.reserve[side];
    let from = hl.from_reserve.as_deref() == Some(key);
    let shown = n.min(7) as usize;
    let mut reserve: Vec<Cell> = "reserve ".chars().map(|ch| Cell { ch, tone: Tone::Plain }).collect();
    reserve.extend(std::iter::repeat_n(Cell { ch: glyph, tone }, shown));
    if shown > 0 {
        reserve.push(Cell { ch: ' ', tone: Tone::Plain });
    }
    reserve.extend(n.to_string().chars().map(|ch| Cell { ch, tone: Tone::Plain }));
    if from {
        reserve.iter_mut().for_each(|c| c.tone = Tone::Source);
    }
    out.extend(reserve);
    push(&mut out, "  ", Tone::Plain);
    let off_word = if view.rules.family == "tower" { "lost" } else { "off" };
    let to = hl.to_off.as_deref() == Some(key);
    let (open, close) = match (to, glyphs.ascii) {
        (false, _) => ("", ""),
        (true, true) => ("=>", "<="),
        (true, false) => ("⇒", "⇐"),
    };
    let off = format!("{open}{off_word} {}{close}", view.position.off[side]);
    push(&mut out, &off, if to { Tone::Target } else { Tone::Plain });
    out.truncate(width);
    out
}

/// The glyphs drawn on this board with what they mean, for the legend.
pub fn legend(view: &GameView, glyphs: Glyphs) -> Vec<(char, String)> {
    let mut out = Vec::new();
    for mark in DRAWN_MARKS {
        if view.board.squares.iter().any(|s| s.marks.iter().any(|m| m == mark)) {
            if let Some(ch) = glyphs.mark(mark) {
                let words = match mark {
                    "twelve" => "twelve dots",
                    "passage" => "four fives",
                    "five" => "five dots",
                    "cross" => "the cross (exit)",
                    "twins" => "Twins' square",
                    "oracle" => "Oracle's square",
                    "warrior" => "Warrior's start",
                    m => m,
                };
                out.push((ch, words.to_string()));
            }
        }
    }
    let faces: Vec<&str> = view.position.pieces.iter().flat_map(|p| p.face.as_deref()).collect();
    let any_face = |f: &str| faces.contains(&f) || view.rules.family == "tower" && f == "promoted";
    if any_face("dotted") {
        out.push((glyphs.piece("light", Some("dotted")), format!("dotted marker ({})", view.sides[0].name)));
        out.push((glyphs.piece("dark", Some("dotted")), format!("dotted marker ({})", view.sides[1].name)));
    }
    if any_face("promoted") {
        out.push((glyphs.piece("light", Some("promoted")), format!("promoted ({})", view.sides[0].name)));
        out.push((glyphs.piece("dark", Some("promoted")), format!("promoted ({})", view.sides[1].name)));
        out.push((if glyphs.ascii { 'h' } else { '↑' }, "height, top at right".into()));
    }
    if faces.contains(&"twins") {
        out.push(('(', "(●●) the Twins, one unit".into()));
    }
    if faces.contains(&"warrior") {
        out.push(('W', "the Warrior".into()));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ur_rules::{family_rule_sets, spec::BUILTIN, Playable, Turn};
    use ur_session::view::game_view;
    use ur_session::{NewGame, NoTables, Session};

    pub(crate) fn all_ids() -> Vec<String> {
        BUILTIN.iter().map(|(id, _)| id.to_string()).chain(family_rule_sets().into_iter().map(|s| s.id.to_string())).collect()
    }

    /// A session of `id` after `steps` seeded steps.
    pub(crate) fn played(id: &str, steps: usize) -> Session {
        let mut s = Session::new(&NewGame::builtin(id), &NoTables).unwrap();
        s.seed_dice(7);
        for step in 0..steps {
            match s.game().turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => drop(s.roll_dice().unwrap()),
                Turn::Decide(_) => {
                    let open = s.game().actions();
                    s.act(&open[step % open.len()]).unwrap();
                }
            }
        }
        s
    }

    #[test]
    fn every_square_is_drawn_once_in_its_place_with_its_decoration() {
        let ids = all_ids();
        assert_eq!(ids.len(), 17);
        for id in &ids {
            for steps in [0, 40] {
                let view = game_view(&played(id, steps));
                for glyphs in [Glyphs::UNICODE, Glyphs::ASCII] {
                    for inner in [3u16, 5] {
                        let cells = layout(&view, glyphs, inner, &Highlight::default());
                        let b = &view.board;
                        assert_eq!(cells.width(), board_width(b.cols, inner), "{id}");
                        assert_eq!(cells.height(), u16::from(b.rows) * 3 + 1, "{id}");
                        // Every square once, in row-major order, at its grid place.
                        let placed: Vec<u16> = cells.squares.iter().map(|p| p.id).collect();
                        let want: Vec<u16> = b.squares.iter().map(|s| s.id).collect();
                        assert_eq!(placed, want, "{id}");
                        let mut seen = std::collections::BTreeSet::new();
                        for (p, s) in cells.squares.iter().zip(&b.squares) {
                            assert!(seen.insert((p.x, p.y)), "{id}: two squares at one place");
                            assert_eq!(p.x, u16::from(s.col) * (inner + 1) + 1, "{id} {}", s.name);
                            assert_eq!(p.y, u16::from(s.row) * 3 + 1, "{id} {}", s.name);
                            // Framed on all four sides.
                            let at = |x: u16, y: u16| cells.lines[usize::from(y)][usize::from(x)];
                            assert_eq!(at(p.x - 1, p.y).tone, Tone::Border, "{id} {}", s.name);
                            assert_eq!(at(p.x + inner, p.y).tone, Tone::Border, "{id} {}", s.name);
                            assert_eq!(at(p.x, p.y - 1).tone, Tone::Border, "{id} {}", s.name);
                            assert_eq!(at(p.x, p.y + 2).tone, Tone::Border, "{id} {}", s.name);
                            // Its decorations from the left, in the drawn order.
                            let drawn: Vec<char> =
                                DRAWN_MARKS.iter().filter(|m| s.marks.iter().any(|x| x == *m)).filter_map(|m| glyphs.mark(m)).collect();
                            for (k, ch) in drawn.iter().enumerate().take(usize::from(inner)) {
                                assert_eq!(at(p.x + k as u16, p.y).ch, *ch, "{id} {}: mark {k}", s.name);
                            }
                            if drawn.is_empty() && !s.marks.iter().any(|m| m == "unused") {
                                assert_eq!(at(p.x, p.y).ch, ' ', "{id} {}", s.name);
                            }
                        }
                        // Cells outside the board stay blank.
                        for r in 0..b.rows {
                            for c in 0..b.cols {
                                if b.squares.iter().any(|s| s.row == r && s.col == c) {
                                    continue;
                                }
                                let (x, y) = (usize::from(c) * usize::from(inner + 1) + 1, usize::from(r) * 3 + 1);
                                assert_eq!(cells.lines[y][x].ch, ' ', "{id}: a missing square is drawn at {r},{c}");
                            }
                        }
                        // Every piece is drawn: the glyphs of each side on the board.
                        if inner == 5 {
                            for side in ["light", "dark"] {
                                let on_board: u32 = view
                                    .position
                                    .pieces
                                    .iter()
                                    .map(|p| {
                                        if p.stack.is_empty() {
                                            u32::from(p.side == side)
                                        } else {
                                            p.stack.iter().filter(|s| *s == side).count() as u32
                                        }
                                    })
                                    .sum();
                                let tone = side_tone(side);
                                let squares_with = cells
                                    .squares
                                    .iter()
                                    .filter(|p| (0..inner).any(|dx| cells.lines[usize::from(p.y + 1)][usize::from(p.x + dx)].tone == tone))
                                    .count() as u32;
                                assert!(squares_with <= on_board && (on_board == 0) == (squares_with == 0), "{id} {side}");
                            }
                        }
                    }
                }
            }
        }
    }

    fn piece(side: &str, count: u32, face: Option<&str>, stack: &[&str], faces: &[&str]) -> PieceView {
        PieceView {
            square: 0,
            side: side.into(),
            count,
            face: face.map(str::to_string),
            stack: stack.iter().map(|s| s.to_string()).collect(),
            stack_faces: faces.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn text(cells: &[Cell]) -> String {
        cells.iter().map(|c| c.ch).collect()
    }

    #[test]
    fn pieces_read_by_shape_count_face_twins_and_stack() {
        let g = Glyphs::UNICODE;
        let shared = [piece("light", 2, None, &[], &[]), piece("dark", 1, None, &[], &[])];
        assert_eq!(text(&piece_line(&shared.iter().collect::<Vec<_>>(), g, 5)), " ○2● ");
        let bens = [piece("light", 1, Some("dotted"), &[], &[]), piece("dark", 1, Some("blank"), &[], &[])];
        assert_eq!(text(&piece_cells(&bens.iter().collect::<Vec<_>>(), g, 5)), "◌●");
        let twins = [piece("dark", 2, Some("twins"), &[], &[])];
        assert_eq!(text(&piece_cells(&twins.iter().collect::<Vec<_>>(), g, 5)), "(●●)");
        let tower = [piece("light", 2, Some("promoted"), &["light", "dark", "light"], &["plain", "plain", "promoted"])];
        assert_eq!(text(&piece_cells(&tower.iter().collect::<Vec<_>>(), g, 5)), "○●◇");
        let tall = [piece("dark", 4, Some("plain"), &["dark"; 7], &["plain"; 7])];
        assert_eq!(text(&piece_cells(&tall.iter().collect::<Vec<_>>(), g, 5)), "…●●●●");
        let bird = [piece("dark", 1, Some("Swallow"), &[], &[])];
        assert_eq!(text(&piece_cells(&bird.iter().collect::<Vec<_>>(), Glyphs::ASCII, 5)), "oSw");
    }

    #[test]
    fn the_selected_move_is_highlighted_on_the_board_and_beside_it() {
        for id in all_ids() {
            let view = game_view(&played(&id, 41));
            for a in &view.actions {
                let hl = super::super::highlight_of(a);
                let cells = layout(&view, Glyphs::UNICODE, 5, &hl);
                if let Some(sq) = hl.to_square {
                    let p = cells.squares.iter().find(|p| p.id == sq).unwrap();
                    assert_eq!(cells.lines[usize::from(p.y - 1)][usize::from(p.x)].ch, '═', "{id}");
                }
                if let Some(sq) = hl.from_square {
                    let p = cells.squares.iter().find(|p| p.id == sq).unwrap();
                    assert_eq!(cells.lines[usize::from(p.y + 1)][usize::from(p.x)].tone, Tone::Source, "{id}");
                }
                for side in 0..2 {
                    let line = side_line(&view, side, Glyphs::UNICODE, "", &hl, 60);
                    let text: String = line.iter().map(|c| c.ch).collect();
                    let key = view.sides[side].key.as_str();
                    assert_eq!(text.contains('⇒'), hl.to_off.as_deref() == Some(key), "{id}: {text}");
                    assert_eq!(line.iter().any(|c| c.tone == Tone::Source), hl.from_reserve.as_deref() == Some(key), "{id}");
                }
            }
        }
    }
}
