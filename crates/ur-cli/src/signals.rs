//! The signals that stop a command: Ctrl-C's SIGINT, SIGTERM, and the
//! SIGHUP of a closed terminal. A command that has something to keep (a
//! game, an arena's games, a solve's checkpoint) watches them with
//! [`on_stop`] to keep it and say so before it exits.

use anyhow::{Context, Result};

/// Runs `handler` with the signal's number, on a thread of its own, each
/// time SIGINT, SIGTERM or SIGHUP arrives (on Windows: Ctrl-C, as SIGINT).
/// Those signals no longer stop the program: `handler` exits when it should,
/// with [`status`].
///
/// # Errors
/// The signals cannot be watched.
pub fn on_stop(mut handler: impl FnMut(i32) + Send + 'static) -> Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]).context("cannot watch for Ctrl-C")?;
        std::thread::spawn(move || {
            for signal in signals.forever() {
                handler(signal);
            }
        });
    }
    #[cfg(not(unix))]
    ctrlc::set_handler(move || handler(2)).context("cannot watch for Ctrl-C")?;
    Ok(())
}

/// The exit status of a program stopped by `signal`, as a shell reports one
/// killed by it (130 for Ctrl-C).
pub fn status(signal: i32) -> i32 {
    128 + signal
}

/// Writes a line to standard error, ignoring a closed one (after SIGHUP the
/// terminal may be gone, and `eprintln!` would panic).
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
