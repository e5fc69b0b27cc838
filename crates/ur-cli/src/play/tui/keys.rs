//! The keys: what each does on the board and in the windows over it, the
//! cursor's moves between pieces and their moves, and the keys' help text.

use anyhow::Result;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::backend::Backend;
use ratatui::Terminal;
use ur_rules::{Playable, Turn};
use ur_session::view::{ActionView, Spot};

use super::{App, Overlay};

impl App {
    pub(super) fn key<B: Backend>(&mut self, key: KeyEvent, term: &mut Terminal<B>) -> Result<()> {
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
        self.flash = None;
        match &mut self.overlay {
            Overlay::ConfirmNew => {
                self.overlay = Overlay::None;
                if matches!(key.code, KeyCode::Char('y' | 'Y' | 'n')) {
                    self.new_game()?;
                }
                return Ok(());
            }
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
            KeyCode::Char('s') => self.save_now(),
            KeyCode::Char('n') if self.ended.is_some() => self.new_game()?,
            KeyCode::Char('n') => self.overlay = Overlay::ConfirmNew,
            KeyCode::Char('c') => self.copy_position(),
            KeyCode::Char('f') => self.turned = !self.turned,
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

    pub(super) fn hint(&self) -> String {
        let game = self.game();
        match game.turn() {
            Turn::Decide(side) if self.is_human(side) => crate::play::hint_text(self.judge.as_ref(), game, &game.actions()),
            Turn::Roll(_) => "Roll first (Space): a hint judges the moves a throw allows.".into(),
            _ => "Hints are for your own decisions.".into(),
        }
    }

    /// Saves the game now: to its file, or to a new file in the current
    /// folder, which then keeps it after every step.
    fn save_now(&mut self) {
        let saving = match &self.look.save {
            Some(s) => s.clone(),
            None => super::super::Saving {
                path: free_name(self.game().rule_id()),
                seats: self.look.seats.clone(),
                writing: std::sync::Arc::default(),
            },
        };
        match saving.write(&self.session) {
            Ok(()) => {
                self.note = Some(format!("Saved to {} (and after every step from now on).", saving.path.display()));
                self.look.save = Some(saving);
            }
            Err(e) => self.note = Some(format!("Not saved: {e:#}")),
        }
    }

    /// A new game of the same rules and players; a saved game stays in its file.
    fn new_game(&mut self) -> Result<()> {
        self.restarts += 1;
        let seed = self.next_random() ^ self.restarts;
        self.session.restart(seed).map_err(|e| anyhow::anyhow!("no new game: {e}"))?;
        let kept = self.look.save.take();
        self.log = vec!["(a new game)".into()];
        (self.ended, self.summary, self.last_roll) = (None, None, None);
        self.last_move.clear();
        self.cursor = 0;
        self.refresh();
        self.note = Some(match kept {
            Some(s) => format!("A new game: the last one stays in {}; s saves this one.", s.path.display()),
            None => "A new game.".into(),
        });
        Ok(())
    }

    /// Sends the position string to the terminal's clipboard and shows it, to copy by hand.
    fn copy_position(&mut self) {
        let text = self.view.position_string.clone();
        let sent = super::edge::copy_to_clipboard(&text).is_ok();
        self.flash = Some(format!("Position: {text}{}", if sent { " (copied)" } else { "" }));
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

/// The first line after `cursor` (before it, going back), round the list,
/// that `fits`.
fn scan(n: usize, cursor: usize, forward: bool, fits: impl Fn(usize) -> bool) -> Option<usize> {
    let mut k = cursor;
    for _ in 0..n {
        k = if forward { (k + 1) % n } else { (k + n - 1) % n };
        if fits(k) {
            return Some(k);
        }
    }
    None
}

/// The first move of the next (or previous) piece that can move, after `cursor`.
pub fn next_piece(actions: &[ActionView], cursor: usize, forward: bool) -> usize {
    let n = actions.len();
    let here = group(actions, cursor);
    let first_of_other = |k: usize| {
        let g = group(actions, k);
        g != here && (0..n).find(|&i| group(actions, i) == g) == Some(k)
    };
    scan(n, cursor, forward, first_of_other).unwrap_or(cursor)
}

/// The next (or previous) move of the same piece (another destination, or
/// another number of prisoners); the next piece when it has one move only.
pub fn next_move(actions: &[ActionView], cursor: usize, forward: bool) -> usize {
    let here = group(actions, cursor);
    scan(actions.len(), cursor, forward, |k| k != cursor && group(actions, k) == here)
        .unwrap_or_else(|| next_piece(actions, cursor, forward))
}

pub(super) fn keys_text() -> String {
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
        "s            save the game (to --save, or a new file here)",
        "n            a new game (asks first in an unfinished game)",
        "c            copy the position string (shown in the status line)",
        "f            turn the board round",
        "r, R         the rules in plain words (r when it is not your roll)",
        "?            these keys",
        "q            leave (asks first in an unfinished game)",
        "Ctrl-C       leave at once (saves with --save)",
        "",
        "Any key closes this.",
    ]
    .join("\n")
}

/// `ur-RULES-N.json` in the current folder, the first N not taken.
fn free_name(rules: &str) -> std::path::PathBuf {
    let safe: String = rules.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    (1..)
        .map(|n| std::path::PathBuf::from(format!("ur-{safe}-{n}.json")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| std::path::PathBuf::from("ur-game.json"))
}
