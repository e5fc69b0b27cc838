//! `ur play` full screen: the board stays in place and redraws, keys act
//! at once, and help is one key away (see `?`). Opened when standard input
//! and output are terminals; `--plain` keeps the line mode.
//!
//! The board is drawn from [`ur_session::view::GameView`] (`board.rs`), so
//! nothing here knows a rule set; the game is a [`Session`], its words come
//! from [`ur_rules::narrate`].
//!
//! Here: the app's state and its steps (roll, play, a bot's step, the end);
//! `keys.rs` what each key does, `draw.rs` the screen, `run.rs` the
//! terminal and the loop, `board.rs` and `widgets.rs` the board and dice.

pub mod board;
mod draw;
mod edge;
mod keys;
mod run;
pub mod widgets;

pub use draw::highlight_of;
pub use run::run;

use std::time::Duration;

use anyhow::{anyhow, Result};
use ratatui::backend::Backend;
use ratatui::Terminal;
use ur_bots::review::Judge;
use ur_rules::{narrate, AnyGame, Family, Playable, Side, Turn};
use ur_session::review_text::play_summary;
use ur_session::view::{game_view, GameView};
use ur_session::Session;

use super::{Player, Saving};
use board::Glyphs;

/// How the app looks and behaves, from the command line and the environment.
#[derive(Clone, Debug)]
pub struct Look {
    pub animate: bool,
    pub glyphs: Glyphs,
    pub color: bool,
    /// Where the game is saved after every step.
    pub save: Option<Saving>,
    /// Who plays each side, written with a game saved by the save key.
    pub seats: ur_session::records::Seats,
    /// Lines the move log starts with (the roll-off).
    pub intro: Vec<String>,
}

impl Look {
    /// `--no-animation` or `UR_NO_ANIMATION` turn the roll animation and the
    /// bots' pauses off; `--ascii` or `UR_ASCII` draw in ASCII; `NO_COLOR`
    /// leaves colours out (bold, reverse and underline still mark things).
    pub fn new(no_animation: bool, ascii: bool, save: Option<Saving>, seats: ur_session::records::Seats) -> Look {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        Look {
            animate: !(no_animation || set("UR_NO_ANIMATION")),
            glyphs: if ascii || set("UR_ASCII") { Glyphs::ASCII } else { Glyphs::UNICODE },
            color: !set("NO_COLOR"),
            save,
            seats,
            intro: Vec::new(),
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
    ConfirmNew,
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
    quit: bool,
    /// Ctrl-C: leave at once.
    interrupted: bool,
    thinking: bool,
    rng: u64,
    /// The board turned half round: the top side's player sees their side nearest.
    turned: bool,
    /// A line for the status bar until the next key (the copied position string).
    flash: Option<String>,
    /// New games started with the new-game key.
    restarts: u64,
}

impl App {
    pub fn new(session: Session, players: [Player; 2], judge: Option<Judge>, look: Look) -> App {
        let view = game_view(&session);
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
            quit: false,
            interrupted: false,
            thinking: false,
            rng: 0x9E37_79B9_7F4A_7C15,
            turned: false,
            flash: None,
            restarts: 0,
        };
        app.dice_shape = app.guess_dice();
        app.turned = app.humans() == [Side::Dark];
        app.log = app.look.intro.clone();
        app.log.extend(super::history(&app.session));
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

    /// After every step: the view, the cursor in range, the record saved.
    fn refresh(&mut self) {
        self.view = game_view(&self.session);
        if let Some(t) = &self.view.throw {
            self.dice_shape = (t.kind.clone(), t.dice.len());
        }
        if self.cursor >= self.view.actions.len() {
            self.cursor = 0;
        }
        if let Some(saving) = &self.look.save {
            if let Err(e) = saving.write(&self.session) {
                self.note = Some(format!("Not saved: {e:#}"));
            }
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
        if let Some(saving) = &self.look.save {
            saving.write(&self.session)?;
            let next = if self.session.family() == Family::Race { "ur review" } else { "ur replay" };
            lines.push(format!("Game saved to {} (`{next} {}`).", saving.path.display(), saving.path.display()));
        }
        lines.push("Press q to leave.".into());
        self.ended = Some(lines);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::board::tests::all_ids;
    use super::keys::{next_move, next_piece};
    use super::*;
    use ratatui::backend::TestBackend;
    use ur_session::view::{ActionView, Spot};

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
        let seats = ur_session::records::Seats { light: "random".into(), dark: "random".into() };
        let look = Look { animate: false, glyphs: Glyphs::UNICODE, color: true, save: None, seats, intro: Vec::new() };
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
            words: Vec::new(),
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
        // Beyond the race the rule set's network gives the hint, and says so.
        let mut app = app_for("bens-ur", 10);
        app.overlay = Overlay::Hint(app.hint());
        let text = screen(&app, 80, 24);
        assert!(text.contains("win chance") && text.contains("network's estimates"), "{text}");
    }
}
