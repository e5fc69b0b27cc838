//! The run loop: the terminal taken over and given back (on an error, a
//! panic or Ctrl-C too), and the loop of drawing, keys and bots' steps.

use std::io::Stdout;
use std::time::Duration;

use anyhow::{anyhow, Result};
use crossterm::event::{self, Event};
use crossterm::terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use ur_bots::review::Judge;
use ur_rules::{Playable, Turn};
use ur_session::Session;

use super::{App, Look, Outcome, Overlay, Player, Saving};

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
    // SIGINT, SIGTERM or SIGHUP from outside (the terminal's own Ctrl-C is a
    // key here): the game is saved after every step, so the terminal is
    // given back, the player told, and the program ends.
    let save = app.look.save.clone();
    crate::signals::on_stop(move |signal| {
        let _writing = save.as_ref().map(Saving::hold);
        restore();
        if let Some(saving) = &save {
            crate::signals::say(&format!("\n{}", saving.interrupted_line()));
        }
        std::process::exit(crate::signals::status(signal));
    })?;
    let guard = Guard::enter()?;
    let mut term = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let result = event_loop(&mut app, &mut term);
    drop(term);
    drop(guard);
    result?;
    let finished = matches!(app.session.game().turn(), Turn::Over(_));
    if app.interrupted {
        if let Some(saving) = &app.look.save {
            saving.write(&app.session)?;
            crate::signals::say(&saving.interrupted_line());
        }
        ur_cli::out::flush()?;
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
