//! Text boards for the terminal.

use ur_rules::{Cell, Game, Rules, Side, State};

/// The board with pieces: `L`/`D` for light and dark (with a count when
/// several share a square), `*` for an empty rosette, `.` for an empty square.
pub fn render(rules: &Rules, st: &State) -> String {
    let b = &rules.board;
    let mut out = String::from("    ");
    for col in 0..b.cols {
        out += &format!(" {:<3}", (b'a' + col) as char);
    }
    out.push('\n');
    for row in 0..b.rows {
        out += &format!(" {}  ", b.rows - row);
        for col in 0..b.cols {
            let cell = Cell { row, col };
            out += &if rules.has_cell(cell) { format!("[{:^2}]", cell_text(rules, st, cell)) } else { "    ".into() };
        }
        out.push('\n');
    }
    for side in Side::BOTH {
        out += &format!(
            "  {} ({}): {} in reserve, {} borne off{}\n",
            rules.spec.sides[side.index()],
            if side == Side::Light { "L" } else { "D" },
            st.reserve(side),
            st.off(side),
            if st.to_move() == side { "  <- to move" } else { "" }
        );
    }
    out
}

fn cell_text(rules: &Rules, st: &State, cell: Cell) -> String {
    let count = |side: Side| -> u8 {
        (1..=rules.path_len()).filter(|&p| rules.cell(side, p) == cell).map(|p| st.count_at(side, p)).sum()
    };
    let (l, d) = (count(Side::Light), count(Side::Dark));
    let part = |n: u8, c: char| match n {
        0 => String::new(),
        1 => c.to_string(),
        n => format!("{c}{n}"),
    };
    let text = part(l, 'L') + &part(d, 'D');
    if !text.is_empty() {
        text
    } else if rules.board.is_rosette(cell) {
        "*".into()
    } else {
        ".".into()
    }
}

/// The board with each square of a side's path labelled by its position.
pub fn path_diagram(rules: &Rules, side: Side) -> String {
    let b = &rules.board;
    let mut out = String::new();
    for row in 0..b.rows {
        out.push_str("  ");
        for col in 0..b.cols {
            let cell = Cell { row, col };
            let positions: Vec<String> = (1..=rules.path_len())
                .filter(|&p| rules.cell(side, p) == cell)
                .map(|p| p.to_string())
                .collect();
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
    out += "  (* = rosette; a/b = a square visited twice)\n";
    out
}

/// One line describing a move for the player.
pub fn move_text(game: &Game, from: u8, to: u8) -> String {
    let rules = game.rules();
    let off = rules.path_len() + 1;
    let side = game.to_move();
    let src = if from == 0 { "enter".to_string() } else { format!("{from}") };
    let dst = if to == off { "off".to_string() } else { format!("{to}") };
    let mut tags = Vec::new();
    if to < off {
        let opp_there = (1..=rules.path_len())
            .any(|p| rules.cell(side.other(), p) == rules.cell(side, to) && game.state().count_at(side.other(), p) > 0);
        if opp_there && rules.kind(side, to) != ur_rules::SquareKind::Shared {
            tags.push("capture");
        }
        if rules.is_rosette(side, to) {
            tags.push("rosette");
        }
    }
    let tags = if tags.is_empty() { String::new() } else { format!(" ({})", tags.join(", ")) };
    format!("{src} -> {dst}{tags}")
}
