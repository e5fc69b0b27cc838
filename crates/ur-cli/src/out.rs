//! Standard output that reports its errors: `println!` panics when standard
//! output is full or closed, so every command prints with [`out!`] and
//! [`outln!`], which return a [`StdoutError`]; `main` ends quietly on a
//! closed pipe and with a message and status 1 on any other failure.

use std::fmt;
use std::io::Write;

/// Standard output could not be written.
#[derive(Debug)]
pub struct StdoutError(pub std::io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

impl StdoutError {
    /// The reader went away (`ur rules | head -1`): nothing to tell anyone.
    pub fn is_broken_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes formatted text to standard output.
///
/// # Errors
/// Standard output is full, closed or otherwise unwritable.
pub fn write_fmt(args: fmt::Arguments<'_>) -> Result<(), StdoutError> {
    std::io::stdout().lock().write_fmt(args).map_err(StdoutError)
}

/// Writes bytes to standard output and flushes them.
///
/// # Errors
/// As [`write_fmt`].
pub fn write_all_flushed(bytes: &[u8]) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).map_err(StdoutError)
}

/// Flushes what standard output holds.
///
/// # Errors
/// As [`write_fmt`].
pub fn flush() -> Result<(), StdoutError> {
    std::io::stdout().flush().map_err(StdoutError)
}

/// `print!` that returns `Result<(), StdoutError>`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_fmt(format_args!($($arg)*))
    };
}

/// `println!` that returns `Result<(), StdoutError>`.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write_fmt(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_fmt(format_args!("{}\n", format_args!($($arg)*)))
    };
}
