//! Drawing the app: the title, the board between the sides' lines, the
//! dice, the open decisions, the key and the move log beside the board,
//! the status line and the window over it all (keys, rules, hint, paths,
//! the end).

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use ur_rules::{family_rule_sets, narrate, Playable, Side, Turn};
use ur_session::view::{ActionView, Spot};

use super::board::{self, Highlight};
use super::keys::keys_text;
use super::{widgets, App, Overlay, Player};

impl App {
    /// Each side's path, square by square, and the race's numbered drawing.
    pub(super) fn paths_text(&self) -> String {
        let view = &self.view;
        let name = |id: &u16| view.board.squares.iter().find(|s| s.id == *id).map_or("?", |s| s.name.as_str()).to_string();
        let mut out = String::new();
        for (side, path) in view.sides.iter().zip(&view.board.paths) {
            let squares: Vec<String> = path.iter().map(name).collect();
            out += &format!("{} enters, then runs {}, and bears off.\n", side.name, squares.join(" "));
        }
        if let Turn::Roll(side) | Turn::Decide(side) = self.game().turn() {
            if let Some(drawing) = narrate::path(self.game(), side) {
                out += &format!("\n{}'s path by position:\n{drawing}", self.side_name(side));
            }
        }
        out
    }

    fn rules_text(&self) -> String {
        let game = self.game();
        let mut out = match ur_rules::report::race_rules(game) {
            Some(rules) => ur_session::rules_text::race_rules_text(rules),
            None => family_rule_sets()
                .into_iter()
                .find(|s| s.id == game.rule_id())
                .map(|s| crate::rules_cmd::describe_family_set(&s, self.session.options()))
                .unwrap_or_else(|| format!("{}\n", narrate::rule_set_name(game))),
        };
        out += "\n↑/↓ or j/k scroll, PgUp/PgDn, any other key closes.\n";
        out
    }

    /// The least size the screen needs.
    fn min_size(&self) -> (u16, u16) {
        (72, 20)
    }

    pub fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let (mw, mh) = self.min_size();
        if area.width < mw || area.height < mh {
            let text = format!(
                "The window is {}×{}: the game needs at least {mw}×{mh}. Enlarge it, or press q to leave.",
                area.width, area.height
            );
            f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
            return;
        }
        let shown = if self.turned { super::edge::turned(&self.view) } else { self.view.clone() };
        let view = &shown;
        let glyphs = self.look.glyphs;
        let color = self.look.color;
        let hl = self.view.actions.get(self.cursor).filter(|_| self.human_deciding()).map(highlight_of).unwrap_or_default();
        let left_width = area.width.saturating_sub(30).max(50);
        let inner = board::inner_for(view.board.cols, left_width);
        let mut cells = board::layout(view, glyphs, inner, &hl);
        let (col_labels, row_labels) = super::edge::labels(&self.view, self.turned);
        label_columns(&mut cells, &col_labels);
        let bw = cells.width().max(50);
        // Title.
        let who = |s: Side| match &self.players[s.index()] {
            Player::Human => "you".to_string(),
            Player::Bot(b) => b.name(),
        };
        let dot = if glyphs.ascii { "|" } else { "·" };
        let title = format!(
            " {} {dot} {} {}: {} {dot} {} {}: {}",
            view.rules.name,
            glyphs.piece("light", None),
            view.sides[0].name,
            who(Side::Light),
            glyphs.piece("dark", None),
            view.sides[1].name,
            who(Side::Dark),
        );
        f.render_widget(Paragraph::new(Line::from(title).style(Style::default().add_modifier(Modifier::BOLD))), row(area, 0));
        // Dark's line, the board, light's line.
        let mut y = area.y + 1;
        let side_line = |side: usize| {
            let who = match &self.players[side] {
                Player::Human => "you".to_string(),
                Player::Bot(b) => b.name(),
            };
            widgets::cells_line(&board::side_line(view, side, glyphs, &who, &hl, usize::from(bw)), color)
        };
        let (top, bottom) = if self.turned { (0, 1) } else { (1, 0) };
        f.render_widget(Paragraph::new(side_line(top)), Rect::new(area.x + 1, y, bw, 1));
        y += 1;
        for (r, label) in row_labels.iter().enumerate() {
            let at = Rect::new(area.x, y + 1 + r as u16 * (board::INNER_HEIGHT + 1), 1, 1);
            f.render_widget(Paragraph::new(label.chars().take(1).collect::<String>()), at);
        }
        let lines: Vec<Line> = cells.lines.iter().map(|l| widgets::cells_line(l, color)).collect();
        f.render_widget(Paragraph::new(lines), Rect::new(area.x + 1, y, cells.width(), cells.height()));
        // The last move's squares, tinted (underlined without colour).
        for p in cells.squares.iter().filter(|p| self.last_move.contains(&p.id)) {
            if hl.from_square == Some(p.id) || hl.to_square == Some(p.id) {
                continue;
            }
            let tint = if color { Style::default().bg(Color::Indexed(237)) } else { Style::default().add_modifier(Modifier::UNDERLINED) };
            let rect = Rect::new(area.x + 1 + p.x, y + p.y, cells.inner, board::INNER_HEIGHT).intersection(area);
            f.buffer_mut().set_style(rect, tint);
        }
        y += cells.height();
        f.render_widget(Paragraph::new(side_line(bottom)), Rect::new(area.x + 1, y, bw, 1));
        y += 1;
        // The dice.
        let dice: Vec<Line> = if let Some(faces) = &self.rolling {
            vec![Line::from(format!("{}   rolling…", widgets::dice_text(&self.dice_shape.0, faces, glyphs)))]
        } else if let Some(t) = &view.throw {
            widgets::throw_lines(t, glyphs).into_iter().map(Line::from).collect()
        } else if let Some(last) = &self.last_roll {
            vec![Line::from(format!("Last throw: {last}"))]
        } else {
            vec![Line::from("")]
        };
        let dice_rect = Rect::new(area.x + 1, y, bw, 3);
        f.render_widget(Paragraph::new(dice).wrap(Wrap { trim: true }), dice_rect);
        y += 3;
        // The open decisions.
        let status_y = area.y + area.height - 1;
        let list_rect = Rect::new(area.x, y, bw + 1, status_y.saturating_sub(y));
        f.render_widget(Paragraph::new(self.action_lines(list_rect.height)), list_rect);
        // Beside the board: the key to the glyphs, then the move log.
        let side_x = area.x + bw + 2;
        let side_rect = Rect::new(side_x, area.y + 1, area.width.saturating_sub(bw + 2), area.height.saturating_sub(2));
        self.draw_side(f, side_rect);
        self.draw_hint(f, side_rect);
        // The status line.
        let status = Line::from(vec![
            Span::styled(
                format!(" {} ", self.status(usize::from(area.width).saturating_sub(20))),
                Style::default().add_modifier(Modifier::REVERSED),
            ),
            Span::raw(format!("  ? keys · step {}", self.session.record_len())),
        ]);
        f.render_widget(Paragraph::new(status), row(area, area.height - 1));
        self.draw_overlay(f, area);
    }

    /// A framed panel, in ASCII when the glyphs are.
    fn block<'a>(&self, title: &'a str) -> Block<'a> {
        let block = Block::default().borders(Borders::ALL).title(title);
        if !self.look.glyphs.ascii {
            return block;
        }
        block.border_set(ratatui::symbols::border::Set {
            top_left: "+",
            top_right: "+",
            bottom_left: "+",
            bottom_right: "+",
            vertical_left: "|",
            vertical_right: "|",
            horizontal_top: "-",
            horizontal_bottom: "-",
        })
    }

    fn human_deciding(&self) -> bool {
        matches!(self.game().turn(), Turn::Decide(s) if self.is_human(s))
    }

    fn action_lines(&self, height: u16) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        if let Some(note) = &self.note {
            out.push(Line::from(Span::styled(note.clone(), Style::default().add_modifier(Modifier::BOLD))));
        }
        if !self.human_deciding() {
            return out;
        }
        let actions = &self.view.actions;
        let any_choice = actions.iter().any(|a| a.kind == "choice");
        out.push(Line::from(if any_choice {
            "Choose (number, or Tab and Enter):"
        } else {
            "Your moves (number, or Tab/arrows and Enter):"
        }));
        let room = usize::from(height).saturating_sub(out.len()).max(1);
        let first = self.cursor.saturating_sub(room - 1);
        for (i, a) in actions.iter().enumerate().skip(first).take(room) {
            let text = format!(" {}{} {}", if i == self.cursor { '>' } else { ' ' }, i + 1, a.text);
            let style =
                if i == self.cursor { Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD) } else { Style::default() };
            out.push(Line::from(Span::styled(text, style)));
        }
        out
    }

    fn draw_side(&self, f: &mut Frame, rect: Rect) {
        let glyphs = self.look.glyphs;
        let width = usize::from(rect.width.saturating_sub(2)).max(10);
        let mut key: Vec<String> = Vec::new();
        let mut line = String::new();
        for (ch, words) in board::legend(&self.view, glyphs) {
            let item = format!("{ch} {words}");
            if !line.is_empty() && line.chars().count() + 2 + item.chars().count() > width {
                key.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line += "  ";
            }
            line += &item;
        }
        if !line.is_empty() {
            key.push(line);
        }
        for note in &self.view.position.notes {
            if !note.starts_with("Faces:") {
                key.extend(textwrap::wrap(note, width).into_iter().map(|c| c.into_owned()));
            }
        }
        let key_height = (key.len() as u16 + 2).min(rect.height / 2);
        let key_rect = Rect::new(rect.x, rect.y, rect.width, key_height);
        f.render_widget(Paragraph::new(key.join("\n")).block(self.block(" Key ")), key_rect);
        let log_rect = Rect::new(rect.x, rect.y + key_height, rect.width, rect.height - key_height);
        let room = usize::from(log_rect.height.saturating_sub(2));
        let mut lines: Vec<String> = Vec::new();
        // One column short of the box, so that a full row can only be one the box cut.
        let log_width = width.saturating_sub(1).max(8);
        for entry in &self.log {
            let wrapped = textwrap::wrap(entry, textwrap::Options::new(log_width).subsequent_indent("  "));
            lines.extend(wrapped.into_iter().map(|c| c.into_owned()));
        }
        let start = lines.len().saturating_sub(room);
        f.render_widget(Paragraph::new(lines[start..].join("\n")).block(self.block(" Moves ")), log_rect);
    }

    /// The hint in the place of the key and the move log, so the board stays in view.
    fn draw_hint(&self, f: &mut Frame, side: Rect) {
        let Overlay::Hint(text) = &self.overlay else { return };
        let text = format!("{text}\nAny key closes this.");
        let inner_w = usize::from(side.width.saturating_sub(2)).max(10);
        let wrapped: usize = text.lines().map(|l| textwrap::wrap(l, inner_w).len().max(1)).sum();
        let rect = Rect::new(side.x, side.y, side.width, (wrapped as u16 + 2).min(side.height));
        f.render_widget(Clear, rect);
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }).block(self.block(" Hint ")), rect);
    }

    /// Whose turn and what to do, in at most about `room` characters.
    fn status(&self, room: usize) -> String {
        if let Some(flash) = &self.flash {
            return flash.clone();
        }
        if let Some(lines) = &self.ended {
            return format!("{} Press q to leave.", lines.iter().take(2).cloned().collect::<Vec<_>>().join(" "));
        }
        let text = &self.view.turn.text;
        match self.game().turn() {
            Turn::Over(_) => text.clone(),
            Turn::Roll(s) if self.is_human(s) => format!("{}: your turn, press Space to roll", self.side_name(s)),
            Turn::Decide(s) if self.is_human(s) => {
                let n = self.view.actions.len();
                let long = if self.view.actions.iter().any(|a| a.kind == "choice") {
                    format!("{text}: choose 1-{n}")
                } else {
                    format!("{text}: pick with Tab, Enter plays (1-{n}); h hint")
                };
                if long.chars().count() <= room {
                    long
                } else {
                    format!("{text}: Enter plays (1-{n})")
                }
            }
            Turn::Decide(s) if self.thinking => format!("{} is thinking…", self.side_name(s)),
            Turn::Roll(s) | Turn::Decide(s) => format!("{}'s turn", self.side_name(s)),
        }
    }

    fn draw_overlay(&self, f: &mut Frame, area: Rect) {
        let (title, text, scroll) = match &self.overlay {
            Overlay::None => match &self.ended {
                Some(lines) => (" The end ", lines.join("\n"), 0),
                None => return,
            },
            Overlay::Keys => (" Keys ", keys_text(), 0),
            Overlay::Rules { scroll } => (" Rules ", self.rules_text(), *scroll),
            // The hint sits beside the board ([`App::draw_hint`]).
            Overlay::Hint(_) => return,
            Overlay::Path(text) => (" Paths ", format!("{text}\nAny key closes this."), 0),
            Overlay::ConfirmQuit => {
                let saved = match &self.look.save {
                    Some(s) => {
                        format!("The game is saved to {}; `ur play --resume {}` goes on with it.", s.path.display(), s.path.display())
                    }
                    None => "The game is not saved (play with --save FILE to keep it).".into(),
                };
                (" Leave? ", format!("Leave this unfinished game? y: leave, any other key: go on playing.\n{saved}"), 0)
            }
            Overlay::ConfirmNew => {
                (" New game? ", "Start a new game with the same rules and players? y: a new game, any other key: go on.".into(), 0)
            }
        };
        let w = area.width.saturating_sub(8).min(76);
        let inner_w = usize::from(w.saturating_sub(2)).max(10);
        let wrapped: usize = text.lines().map(|l| textwrap::wrap(l, inner_w).len().max(1)).sum();
        let h = (wrapped as u16 + 2).min(area.height.saturating_sub(2));
        // The end sits under the board, so the final position stays in view.
        let below = area.y + 2 + u16::from(self.view.board.rows) * 3 + 2;
        let top = if self.overlay == Overlay::None && below + h <= area.y + area.height {
            below
        } else {
            area.y + (area.height.saturating_sub(h)) / 2
        };
        let rect = Rect::new(area.x + (area.width - w) / 2, top, w, h);
        f.render_widget(Clear, rect);
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }).scroll((scroll, 0)).block(self.block(title)), rect);
    }
}

/// Writes each column's label into the board's bottom edge, under the column's middle.
fn label_columns(cells: &mut board::BoardCells, labels: &[String]) {
    let w = usize::from(cells.inner);
    let Some(last) = cells.lines.last_mut() else { return };
    for (c, label) in labels.iter().enumerate() {
        let x = c * (w + 1) + 1 + w / 2;
        for (k, ch) in label.chars().enumerate() {
            if let Some(cell) = last.get_mut(x + k) {
                *cell = board::Cell { ch, tone: board::Tone::Plain };
            }
        }
    }
}

fn row(area: Rect, y: u16) -> Rect {
    Rect::new(area.x, area.y + y, area.width, 1)
}

/// The board's highlight for an open action: its from and to spots.
pub fn highlight_of(a: &ActionView) -> Highlight {
    let mut hl = Highlight::default();
    match &a.from {
        Some(Spot::Square { square }) => hl.from_square = Some(*square),
        Some(Spot::Reserve { side }) => hl.from_reserve = Some(side.clone()),
        _ => {}
    }
    match &a.to {
        Some(Spot::Square { square }) => hl.to_square = Some(*square),
        Some(Spot::Off { side }) => hl.to_off = Some(side.clone()),
        _ => {}
    }
    hl
}
