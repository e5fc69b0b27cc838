//! `ur play` full screen: the board stays in place and redraws, keys act
//! at once, and help is one key away (see `?`). Opened when standard input
//! and output are terminals; `--plain` keeps the line mode.
//!
//! The board is drawn from [`ur_session::view::GameView`] (`board.rs`), so
//! nothing here knows a rule set; the game is a [`Session`], its words come
//! from [`ur_rules::narrate`].

pub mod board;
pub mod widgets;

use std::io::Stdout;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, Result};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::{Frame, Terminal};
use ur_bots::review::Judge;
use ur_rules::{family_rule_sets, narrate, AnyGame, Family, Playable, Side, Turn};
use ur_session::review_text::play_summary;
use ur_session::view::{game_view, ActionView, GameView, Spot};
use ur_session::{SavedGame, Session};

use super::Player;
use board::{Glyphs, Highlight};

/// How the app looks and behaves, from the command line and the environment.
#[derive(Clone, Debug)]
pub struct Look {
    pub animate: bool,
    pub glyphs: Glyphs,
    pub color: bool,
    pub save: Option<PathBuf>,
}

impl Look {
    /// `--no-animation` or `UR_NO_ANIMATION` turn the roll animation and the
    /// bots' pauses off; `--ascii` or `UR_ASCII` draw in ASCII; `NO_COLOR`
    /// leaves colours out (bold, reverse and underline still mark things).
    pub fn new(no_animation: bool, ascii: bool, save: Option<PathBuf>) -> Look {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        Look {
            animate: !(no_animation || set("UR_NO_ANIMATION")),
            glyphs: if ascii || set("UR_ASCII") { Glyphs::ASCII } else { Glyphs::UNICODE },
            color: !set("NO_COLOR"),
            save,
        }
    }
}

/// What the game ended as, for the caller to report after the screen is gone.
pub struct Outcome {
    pub session: Session,
    /// The game reached its end (not left).
    pub finished: bool,
    /// The one-line summary of the human's play, shown at the end.
    pub summary: Option<String>,
}

/// A window over the app: help, rules, a hint, a question.
#[derive(Clone, Debug, PartialEq)]
enum Overlay {
    None,
    Keys,
    Rules { scroll: u16 },
    Hint(String),
    Path(String),
    ConfirmQuit,
}

/// The app: the game, who plays it, and what the screen shows.
pub struct App {
    session: Session,
    players: [Player; 2],
    judge: Option<Judge>,
    look: Look,
    view: GameView,
    log: Vec<String>,
    cursor: usize,
    overlay: Overlay,
    /// What the last roll showed, in words (kept when the turn passed).
    last_roll: Option<String>,
    /// The squares the last move left and reached, tinted until the next move.
    last_move: Vec<u16>,
    /// The kind and number of dice, from the last throw seen.
    dice_shape: (String, usize),
    /// Dice drawn while they roll.
    rolling: Option<Vec<u8>>,
    /// Something to tell the player once (a refused key, a take-back).
    note: Option<String>,
    /// The end: the result, the summary and where it was saved.
    ended: Option<Vec<String>>,
    summary: Option<String>,
    latest: Arc<Mutex<SavedGame>>,
    quit: bool,
    /// Ctrl-C: leave at once.
    interrupted: bool,
    thinking: bool,
    rng: u64,
}

impl App {
    pub fn new(session: Session, players: [Player; 2], judge: Option<Judge>, look: Look) -> App {
        let view = game_view(&session);
        let latest = Arc::new(Mutex::new(session.record()));
        let dice_shape = view.throw.as_ref().map_or(("binary".into(), 4), |t| (t.kind.clone(), t.dice.len()));
        let mut app = App {
            session,
            players,
            judge,
            look,
            view,
            log: Vec::new(),
            cursor: 0,
            overlay: Overlay::None,
            last_roll: None,
            last_move: Vec::new(),
            dice_shape,
            rolling: None,
            note: None,
            ended: None,
            summary: None,
            latest,
            quit: false,
            interrupted: false,
            thinking: false,
            rng: 0x9E37_79B9_7F4A_7C15,
        };
        app.dice_shape = app.guess_dice();
        let done = app.session.record_len();
        if done > 0 {
            app.log.push(format!("(the game goes on after {done} steps)"));
        }
        app.refresh();
        app
    }

    fn humans(&self) -> Vec<Side> {
        Side::BOTH.into_iter().filter(|s| matches!(self.players[s.index()], Player::Human)).collect()
    }

    fn is_human(&self, side: Side) -> bool {
        matches!(self.players[side.index()], Player::Human)
    }

    fn game(&self) -> &AnyGame {
        self.session.game()
    }

    /// The dice this game throws, for the animation before the first throw.
    fn guess_dice(&self) -> (String, usize) {
        if let Some(t) = &self.view.throw {
            return (t.kind.clone(), t.dice.len());
        }
        match self.game() {
            AnyGame::Race(g) => match g.rules().dice() {
                ur_rules::dice::DiceModel::Bin3 => ("binary".into(), 3),
                ur_rules::dice::DiceModel::Bin4 => ("binary".into(), 4),
                ur_rules::dice::DiceModel::D4 => ("d4".into(), 1),
                ur_rules::dice::DiceModel::D6 => ("d6".into(), 1),
            },
            AnyGame::Tower(_) if self.view.position.notes.iter().any(|n| n.contains("vizier")) => ("binary".into(), 4),
            AnyGame::Tower(_) => ("d6".into(), 1),
            _ => ("binary".into(), 3),
        }
    }

    /// After every step: the view, the cursor in range, the record for Ctrl-C.
    fn refresh(&mut self) {
        self.view = game_view(&self.session);
        if let Some(t) = &self.view.throw {
            self.dice_shape = (t.kind.clone(), t.dice.len());
        }
        if self.cursor >= self.view.actions.len() {
            self.cursor = 0;
        }
        if let Ok(mut latest) = self.latest.lock() {
            *latest = self.session.record();
        }
    }

    fn side_name(&self, side: Side) -> String {
        narrate::side_name(self.game(), side)
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    // ---- steps ----

    fn roll<B: Backend>(&mut self, term: &mut Terminal<B>) -> Result<()> {
        if self.look.animate {
            for _ in 0..6 {
                let (kind, n) = self.dice_shape.clone();
                let faces = (0..n)
                    .map(|_| {
                        let r = self.next_random();
                        match kind.as_str() {
                            "binary" => (r % 2) as u8,
                            "d4" => (r % 4) as u8 + 1,
                            _ => (r % 6) as u8 + 1,
                        }
                    })
                    .collect();
                self.rolling = Some(faces);
                term.draw(|f| self.draw(f))?;
                std::thread::sleep(Duration::from_millis(60));
            }
            self.rolling = None;
        }
        let rolled = self.session.roll_dice().map_err(|e| anyhow!("the dice were refused: {e}"))?;
        let line = narrate::roll_line(self.session.game(), &rolled);
        self.last_roll = Some(line.clone());
        self.log.push(line);
        self.cursor = 0;
        self.refresh();
        Ok(())
    }

    fn play(&mut self, index: usize) -> Result<()> {
        let actions = self.game().actions();
        let Some(action) = actions.get(index).cloned() else { return Ok(()) };
        let Turn::Decide(side) = self.game().turn() else { return Ok(()) };
        let line = format!("{} {}", self.side_name(side), narrate::action_line(self.game(), &action));
        if let Some(a) = self.view.actions.get(index).filter(|a| a.kind == "move") {
            let hl = highlight_of(a);
            self.last_move = hl.from_square.into_iter().chain(hl.to_square).collect();
        }
        self.session.act(&action).map_err(|e| anyhow!("{action} was refused: {e}"))?;
        self.log.push(line);
        self.cursor = 0;
        self.refresh();
        Ok(())
    }

    /// A bot's step (a roll or a decision), if it is a bot's turn.
    fn bot_step<B: Backend>(&mut self, term: &mut Terminal<B>) -> Result<()> {
        match self.game().turn() {
            Turn::Roll(side) if !self.is_human(side) => self.roll(term),
            Turn::Decide(side) if !self.is_human(side) => {
                self.thinking = true;
                term.draw(|f| self.draw(f))?;
                let game = self.game().clone();
                let Player::Bot(bot) = &mut self.players[side.index()] else { return Ok(()) };
                let action = bot.decide(&game);
                self.thinking = false;
                let index = game.actions().iter().position(|a| *a == action).ok_or_else(|| anyhow!("the bot chose {action}, not open"))?;
                self.play(index)
            }
            _ => Ok(()),
        }
    }

    fn bots_turn(&self) -> bool {
        match self.game().turn() {
            Turn::Roll(side) | Turn::Decide(side) => !self.is_human(side),
            Turn::Over(_) => false,
        }
    }

    /// The end: the result, the human's play in one line, the save.
    fn finish<B: Backend>(&mut self, term: &mut Terminal<B>) -> Result<()> {
        let Turn::Over(winner) = self.game().turn() else { return Ok(()) };
        let humans = self.humans();
        let mut lines = Vec::new();
        lines.push(match winner {
            Some(w) => format!("{} wins.", self.side_name(w)),
            None => "The game is drawn.".into(),
        });
        if let ([h], Some(w)) = (&humans[..], winner) {
            lines.push(if *h == w { "You win!".into() } else { "You lose.".into() });
        }
        for note in &self.view.position.notes {
            if note.starts_with("Pot") {
                lines.push(note.clone());
            }
        }
        if let Some(judge) = &self.judge {
            if !humans.is_empty() && self.session.family() == Family::Race {
                self.note = Some("Reviewing your play…".into());
                term.draw(|f| self.draw(f))?;
                self.summary = play_summary(&self.session, judge, &humans, self.look.save.is_some())?;
                self.note = None;
            }
        }
        if let Some(s) = &self.summary {
            lines.extend(s.lines().map(str::to_string));
        }
        if let Some(path) = &self.look.save {
            super::save(path, &self.session)?;
            let next = if self.session.family() == Family::Race { "ur review" } else { "ur replay" };
            lines.push(format!("Game saved to {} (`{next} {}`).", path.display(), path.display()));
        }
        lines.push("Press q to leave.".into());
        self.ended = Some(lines);
        Ok(())
    }

    // ---- keys ----

    fn key<B: Backend>(&mut self, key: KeyEvent, term: &mut Terminal<B>) -> Result<()> {
        if key.kind != KeyEventKind::Press {
            return Ok(());
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char('c')) {
            self.interrupted = true;
            self.quit = true;
            return Ok(());
        }
        // Debug builds only: a crash on demand, for the test that the
        // terminal comes back after a panic.
        if cfg!(debug_assertions) && key.code == KeyCode::Char('!') && std::env::var_os("UR_TUI_TEST_PANIC").is_some() {
            panic!("a crash asked for by UR_TUI_TEST_PANIC");
        }
        self.note = None;
        match &mut self.overlay {
            Overlay::ConfirmQuit => {
                match key.code {
                    KeyCode::Char('y' | 'Y' | 'q') => self.quit = true,
                    _ => self.overlay = Overlay::None,
                }
                return Ok(());
            }
            Overlay::Rules { scroll } => {
                match key.code {
                    KeyCode::Down | KeyCode::Char('j') => *scroll = scroll.saturating_add(1),
                    KeyCode::Up | KeyCode::Char('k') => *scroll = scroll.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') => *scroll = scroll.saturating_add(10),
                    KeyCode::PageUp => *scroll = scroll.saturating_sub(10),
                    KeyCode::Home => *scroll = 0,
                    _ => self.overlay = Overlay::None,
                }
                return Ok(());
            }
            Overlay::Keys | Overlay::Hint(_) | Overlay::Path(_) => {
                self.overlay = Overlay::None;
                return Ok(());
            }
            Overlay::None => {}
        }
        let turn = self.game().turn();
        let human_turn = match turn {
            Turn::Roll(s) | Turn::Decide(s) => self.is_human(s),
            Turn::Over(_) => false,
        };
        let n = self.view.actions.len();
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc if self.ended.is_some() => self.quit = true,
            KeyCode::Char('q') => self.overlay = Overlay::ConfirmQuit,
            KeyCode::Char(' ') | KeyCode::Char('r') if human_turn && matches!(turn, Turn::Roll(_)) => self.roll(term)?,
            KeyCode::Char(' ') if human_turn => self.note = Some("Choose first: Enter plays the highlighted line.".into()),
            KeyCode::Char('r' | 'R') => self.overlay = Overlay::Rules { scroll: 0 },
            KeyCode::Char('?') => self.overlay = Overlay::Keys,
            KeyCode::Char('h') => self.overlay = Overlay::Hint(self.hint()),
            KeyCode::Char('u') => self.take_back(),
            KeyCode::Char('p') => self.overlay = Overlay::Path(self.paths_text()),
            KeyCode::Tab | KeyCode::Right if human_turn && n > 0 => self.cursor = next_piece(&self.view.actions, self.cursor, true),
            KeyCode::BackTab | KeyCode::Left if human_turn && n > 0 => self.cursor = next_piece(&self.view.actions, self.cursor, false),
            KeyCode::Down if human_turn && n > 0 => self.cursor = next_move(&self.view.actions, self.cursor, true),
            KeyCode::Up if human_turn && n > 0 => self.cursor = next_move(&self.view.actions, self.cursor, false),
            KeyCode::Enter if human_turn && n > 0 => self.play(self.cursor)?,
            KeyCode::Enter if human_turn => self.roll(term)?,
            KeyCode::Char(c @ '1'..='9') if human_turn && n > 0 => {
                let k = c as usize - '1' as usize;
                if k < n {
                    self.play(k)?;
                } else {
                    self.note = Some(format!("There is no line {}: choose 1 to {n}.", k + 1));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn hint(&self) -> String {
        let game = self.game();
        match game.turn() {
            Turn::Decide(side) if self.is_human(side) => super::hint_text(self.judge.as_ref(), game, &game.actions()),
            Turn::Roll(_) => "Roll first (Space): a hint judges the moves a throw allows.".into(),
            _ => "Hints are for your own decisions.".into(),
        }
    }

    fn take_back(&mut self) {
        let humans = self.humans();
        if humans.len() != 1 {
            self.note = Some("Take-back is for a game against a bot.".into());
            return;
        }
        if self.ended.is_some() {
            self.note = Some("The game is over.".into());
            return;
        }
        match self.session.take_back(humans[0]) {
            Some(n) => {
                self.log.push(format!("(took back {n} step{})", if n == 1 { "" } else { "s" }));
                self.note = Some("Taken back to your last decision.".into());
                self.last_roll = None;
                self.last_move.clear();
                self.cursor = 0;
                self.refresh();
            }
            None => self.note = Some("Nothing to take back yet.".into()),
        }
    }

    /// Each side's path, square by square, and the race's numbered drawing.
    fn paths_text(&self) -> String {
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

    // ---- drawing ----

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
        let view = &self.view;
        let glyphs = self.look.glyphs;
        let color = self.look.color;
        let hl = self.view.actions.get(self.cursor).filter(|_| self.human_deciding()).map(highlight_of).unwrap_or_default();
        let left_width = area.width.saturating_sub(30).max(50);
        let inner = board::inner_for(view.board.cols, left_width);
        let cells = board::layout(view, glyphs, inner, &hl);
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
        f.render_widget(Paragraph::new(side_line(1)), Rect::new(area.x + 1, y, bw, 1));
        y += 1;
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
        f.render_widget(Paragraph::new(side_line(0)), Rect::new(area.x + 1, y, bw, 1));
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
        for entry in &self.log {
            let wrapped = textwrap::wrap(entry, textwrap::Options::new(width).subsequent_indent("  "));
            lines.extend(wrapped.into_iter().map(|c| c.into_owned()));
        }
        let start = lines.len().saturating_sub(room);
        f.render_widget(Paragraph::new(lines[start..].join("\n")).block(self.block(" Moves ")), log_rect);
    }

    /// Whose turn and what to do, in at most about `room` characters.
    fn status(&self, room: usize) -> String {
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
            Overlay::Hint(text) => (" Hint ", format!("{text}\nAny key closes this."), 0),
            Overlay::Path(text) => (" Paths ", format!("{text}\nAny key closes this."), 0),
            Overlay::ConfirmQuit => {
                let saved = match &self.look.save {
                    Some(p) => format!("The game is saved to {}; `ur play --resume {}` goes on with it.", p.display(), p.display()),
                    None => "The game is not saved (play with --save FILE to keep it).".into(),
                };
                (" Leave? ", format!("Leave this unfinished game? y: leave, any other key: go on playing.\n{saved}"), 0)
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

/// What the cursor moves between: a piece (its move's start), or a choice of its own.
fn group(actions: &[ActionView], i: usize) -> (Option<Spot>, usize) {
    let a = &actions[i];
    if a.kind == "move" {
        (a.from.clone(), usize::MAX)
    } else {
        (None, i)
    }
}

/// The first move of the next (or previous) piece that can move, after `cursor`.
pub fn next_piece(actions: &[ActionView], cursor: usize, forward: bool) -> usize {
    let n = actions.len();
    let here = group(actions, cursor);
    let mut k = cursor;
    for _ in 0..n {
        k = if forward { (k + 1) % n } else { (k + n - 1) % n };
        let g = group(actions, k);
        if g != here && (0..n).find(|&i| group(actions, i) == g) == Some(k) {
            return k;
        }
    }
    cursor
}

/// The next (or previous) move of the same piece (another destination, or
/// another number of prisoners); the next piece when it has one move only.
pub fn next_move(actions: &[ActionView], cursor: usize, forward: bool) -> usize {
    let n = actions.len();
    let here = group(actions, cursor);
    let mut k = cursor;
    for _ in 0..n {
        k = if forward { (k + 1) % n } else { (k + n - 1) % n };
        if k != cursor && group(actions, k) == here {
            return k;
        }
    }
    next_piece(actions, cursor, forward)
}

fn row(area: Rect, y: u16) -> Rect {
    Rect::new(area.x, area.y + y, area.width, 1)
}

fn keys_text() -> String {
    [
        "Space or r   roll the dice (on your turn)",
        "Tab, ←/→     move the cursor between the pieces that can move;",
        "             the piece is reversed, its destination framed ═",
        "↑/↓          the same piece's other moves (or the next piece)",
        "Enter        play the highlighted move",
        "1-9          play (or choose) the line with that number",
        "h            hint: each move with your win chance",
        "u            take back to your last decision (against a bot)",
        "p            each side's path",
        "r, R         the rules in plain words (r when it is not your roll)",
        "?            these keys",
        "q            leave (asks first in an unfinished game)",
        "Ctrl-C       leave at once (saves with --save)",
        "",
        "Any key closes this.",
    ]
    .join("\n")
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

/// Restores the terminal: raw mode off, the normal screen back, the cursor shown.
fn restore() {
    let _ = disable_raw_mode();
    let _ = crossterm::execute!(std::io::stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
}

/// The terminal in the app's mode for as long as it lives; dropped (even by
/// an error or a panic's unwinding), it gives the terminal back.
struct Guard;

impl Guard {
    fn enter() -> Result<Guard> {
        enable_raw_mode()?;
        let guard = Guard;
        crossterm::execute!(std::io::stdout(), EnterAlternateScreen, crossterm::cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Runs the app until the game ends and the player leaves, or the player quits.
pub fn run(session: Session, players: [Player; 2], judge: Option<Judge>, look: Look) -> Result<Outcome> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    let mut app = App::new(session, players, judge, look);
    // A SIGINT from outside the terminal (the terminal's own Ctrl-C is a key here).
    let latest = app.latest.clone();
    let save = app.look.save.clone();
    let _ = ctrlc::set_handler(move || {
        restore();
        if let (Some(path), Ok(record)) = (&save, latest.lock()) {
            if let Ok(text) = serde_json::to_string_pretty(&*record) {
                let _ = ur_solve::atomic::write_atomic(path, text.as_bytes());
                eprintln!("\nInterrupted: the game so far is saved to {}.", path.display());
            }
        }
        std::process::exit(130);
    });
    let guard = Guard::enter()?;
    let mut term = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let result = event_loop(&mut app, &mut term);
    drop(term);
    drop(guard);
    result?;
    let finished = matches!(app.session.game().turn(), Turn::Over(_));
    if app.interrupted {
        if let Some(path) = &app.look.save {
            super::save(path, &app.session)?;
            eprintln!("Interrupted: the game so far is saved to {}; go on with `ur play --resume {}`.", path.display(), path.display());
        }
        std::process::exit(130);
    }
    Ok(Outcome { session: app.session, finished, summary: app.summary })
}

fn event_loop(app: &mut App, term: &mut Terminal<CrosstermBackend<Stdout>>) -> Result<()> {
    for _ in 0..ur_session::ACTION_CAP {
        term.draw(|f| app.draw(f))?;
        if app.quit {
            return Ok(());
        }
        if matches!(app.game().turn(), Turn::Over(_)) && app.ended.is_none() {
            app.finish(term)?;
            continue;
        }
        let auto = app.bots_turn() && app.overlay == Overlay::None;
        let wait = if auto { Duration::from_millis(if app.look.animate { 350 } else { 0 }) } else { Duration::from_millis(500) };
        if event::poll(wait)? {
            match event::read()? {
                Event::Key(key) => app.key(key, term)?,
                Event::Resize(..) => term.autoresize()?,
                _ => {}
            }
        } else if auto {
            app.bot_step(term)?;
        }
    }
    Err(anyhow!("the game did not end within {} steps", ur_session::ACTION_CAP))
}

#[cfg(test)]
mod tests {
    use super::board::tests::all_ids;
    use super::*;
    use ratatui::backend::TestBackend;

    fn screen(app: &App, w: u16, h: u16) -> String {
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| app.draw(f)).unwrap();
        let buf = term.backend().buffer().clone();
        let mut out = String::new();
        for y in 0..h {
            let mut line = String::new();
            for x in 0..w {
                line += buf[(x, y)].symbol();
            }
            out += line.trim_end();
            out.push('\n');
        }
        out
    }

    /// An app of `id` after `steps` seeded steps played through it (so
    /// its log has them), then thrown up to a decision; the human plays
    /// the side to decide.
    fn app_for(id: &str, steps: usize) -> App {
        let mut s = Session::new(&ur_session::NewGame::builtin(id), &ur_session::NoTables).unwrap();
        s.seed_dice(7);
        let judge = s.judge(Some(1)).ok();
        let bots = || [0, 1].map(|i| Player::Bot(ur_bots::make_bot("random", i).unwrap()));
        let look = Look { animate: false, glyphs: Glyphs::UNICODE, color: true, save: None };
        let mut app = App::new(s, bots(), judge, look);
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        for step in 0..steps + 20 {
            match app.game().turn() {
                Turn::Over(_) => break,
                Turn::Roll(_) => app.roll(&mut term).unwrap(),
                Turn::Decide(_) if step >= steps => break,
                Turn::Decide(_) => app.play(step % app.view.actions.len()).unwrap(),
            }
        }
        let side = match app.game().turn() {
            Turn::Decide(side) | Turn::Roll(side) => side,
            Turn::Over(_) => Side::Light,
        };
        app.players[side.index()] = Player::Human;
        app
    }

    /// Screen captures of every rule set's board, mid-game at a decision,
    /// kept under `tests/tui/artefacts/` to be looked at.
    #[test]
    fn screens_of_every_rule_set_fit_80_by_24_and_are_kept() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tui/artefacts");
        std::fs::create_dir_all(&dir).unwrap();
        for id in all_ids() {
            let app = app_for(&id, 24);
            let text = screen(&app, 80, 24);
            assert!(text.contains(&app.view.rules.name), "{id}:\n{text}");
            assert!(!text.contains("the game needs"), "{id}:\n{text}");
            for s in &app.view.board.squares {
                for mark in board::DRAWN_MARKS {
                    if s.marks.iter().any(|m| m == mark) {
                        let ch = Glyphs::UNICODE.mark(mark).unwrap();
                        assert!(text.contains(ch), "{id}: no {mark} glyph {ch}:\n{text}");
                    }
                }
            }
            std::fs::write(dir.join(format!("{id}.txt")), &text).unwrap();
        }
        // And one in ASCII, for terminals without the glyphs.
        let mut app = app_for("finkel", 24);
        app.look.glyphs = Glyphs::ASCII;
        let text = screen(&app, 80, 24);
        assert!(text.chars().all(|c| c.is_ascii() || c == '·'), "{text}");
        std::fs::write(dir.join("finkel-ascii.txt"), &text).unwrap();
    }

    #[test]
    fn the_cursor_goes_from_piece_to_piece_and_through_a_piece_s_moves() {
        let mv = |from: u16, to: u16| ActionView {
            index: 0,
            kind: "move".into(),
            from: Some(Spot::Square { square: from }),
            to: Some(Spot::Square { square: to }),
            text: String::new(),
            json: serde_json::Value::Null,
        };
        let choice = ActionView { kind: "choice".into(), from: None, to: None, ..mv(0, 0) };
        let actions = [mv(1, 2), mv(1, 3), mv(4, 5), choice.clone(), choice];
        assert_eq!(next_piece(&actions, 0, true), 2);
        assert_eq!(next_piece(&actions, 1, true), 2);
        assert_eq!(next_piece(&actions, 2, true), 3);
        assert_eq!(next_piece(&actions, 3, true), 4);
        assert_eq!(next_piece(&actions, 4, true), 0);
        assert_eq!(next_piece(&actions, 0, false), 4);
        assert_eq!(next_piece(&actions, 2, false), 0);
        assert_eq!(next_move(&actions, 0, true), 1);
        assert_eq!(next_move(&actions, 1, true), 0);
        assert_eq!(next_move(&actions, 2, true), 3);
    }

    #[test]
    fn a_small_window_is_told_so() {
        let app = app_for("finkel", 3);
        let text = screen(&app, 50, 15);
        assert!(text.contains("the game needs at least") && text.contains("72×20"), "{text}");
    }

    #[test]
    fn overlays_show_keys_rules_and_hints() {
        let mut app = app_for("finkel", 10);
        app.overlay = Overlay::Keys;
        assert!(screen(&app, 80, 24).contains("take back"));
        app.overlay = Overlay::Rules { scroll: 0 };
        assert!(screen(&app, 80, 24).contains(" Rules "));
        app.overlay = Overlay::Hint(app.hint());
        let text = screen(&app, 80, 24);
        assert!(text.contains("win chance"), "{text}");
        let mut app = app_for("bens-ur", 10);
        app.overlay = Overlay::Hint(app.hint());
        assert!(screen(&app, 80, 24).contains("No hint"), "{}", screen(&app, 80, 24));
    }
}
