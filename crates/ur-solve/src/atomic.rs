//! File output that never leaves a half-written file behind and never
//! replaces what is not a file: the one implementation every writer of the
//! workspace uses (tables, checkpoints, arena files, game records, weights).

use std::fs::Permissions;
use std::io::{Error, ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path`, by what is there:
///
/// - nothing (a new path) or a regular file: atomically, a temporary file in
///   the same folder, flushed and synced, then renamed over the target. A new
///   file gets the mode any new file gets (`0666` less the umask, so `0644`
///   under the usual umask `022`); a replaced file keeps its own mode.
/// - a symbolic link: its target is written as above (the rename is over the
///   target's real path), so the link stays a link.
/// - a device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe): written
///   through, opened and written in place with no rename, as a shell's `>`
///   would.
/// - anything else (a folder, a socket) is refused with an error naming it.
///
/// The folder must exist.
///
/// # Errors
/// The folder is missing or not writable, the disk is full, the rename
/// fails, or `path` is a folder or a socket.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// As [`write_atomic`], with the bytes written by `write` as it makes them.
///
/// # Errors
/// As [`write_atomic`], or an error of `write`.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    match target(path)? {
        Target::Stream => {
            let mut w = std::io::BufWriter::new(std::fs::OpenOptions::new().write(true).open(path)?);
            write(&mut w)?;
            w.flush()
        }
        Target::File { path, mode } => replace(&path, mode, write),
    }
}

/// What a write to a path goes to.
enum Target {
    /// A regular file (new when `mode` is None) at this real path.
    File { path: PathBuf, mode: Option<Permissions> },
    /// A device or a FIFO, written in place.
    Stream,
}

/// Where a write to `path` goes, or why it must not.
fn target(path: &Path) -> std::io::Result<Target> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            if std::fs::symlink_metadata(path).is_ok() {
                let why = format!("{} is a symbolic link to a missing file; remove the link or give another path", path.display());
                return Err(Error::new(ErrorKind::InvalidInput, why));
            }
            return Ok(Target::File { path: path.to_owned(), mode: None });
        }
        Err(e) => return Err(e),
    };
    let kind = meta.file_type();
    if kind.is_file() {
        let is_link = std::fs::symlink_metadata(path)?.file_type().is_symlink();
        let real = if is_link { std::fs::canonicalize(path)? } else { path.to_owned() };
        return Ok(Target::File { path: real, mode: Some(meta.permissions()) });
    }
    if kind.is_dir() {
        let why = format!("{} is a folder, not a file; give a file name", path.display());
        return Err(Error::new(ErrorKind::InvalidInput, why));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_block_device() || kind.is_fifo() {
            return Ok(Target::Stream);
        }
    }
    let why = format!("{} is not a regular file, a device or a FIFO; give a file name", path.display());
    Err(Error::new(ErrorKind::InvalidInput, why))
}

/// Writes a temporary file beside `path` and renames it over `path`.
fn replace(path: &Path, mode: Option<Permissions>, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    let dir = folder_of(path);
    let mut tmp = temp_builder().tempfile_in(dir)?;
    let mut w = std::io::BufWriter::new(tmp.as_file_mut());
    write(&mut w)?;
    w.flush()?;
    drop(w);
    if let Some(mode) = mode {
        tmp.as_file().set_permissions(mode)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Temporary files made as any new file is: `0666` less the umask (the
/// default of `tempfile` is `0600`, which would leave records unreadable to
/// others where every other new file is readable).
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(Permissions::from_mode(0o666));
    }
    builder
}

fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Why a file cannot be written at `path`, found before any work is done:
/// `None` when [`write_atomic`] can write there (a new or existing file in a
/// folder that exists and takes new files, a symbolic link to one, a device
/// or a FIFO).
pub fn check_writable(path: &Path) -> Option<String> {
    if path.as_os_str().is_empty() {
        return Some("the path is empty".into());
    }
    let real = match target(path) {
        Ok(Target::Stream) => return None,
        Ok(Target::File { path, .. }) => path,
        Err(e) => return Some(e.to_string()),
    };
    let dir = folder_of(&real);
    if !dir.is_dir() {
        return Some(format!("the folder {} does not exist", dir.display()));
    }
    match temp_builder().tempfile_in(dir) {
        Ok(_) => None,
        Err(e) => Some(format!("cannot write in the folder {}: {e}", dir.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_whole_files_and_bad_places_are_found_first() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.txt");
        assert_eq!(check_writable(&f), None);
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1, "no temporary file left");
        assert!(check_writable(d.path()).unwrap().contains("is a folder"));
        assert!(check_writable(&d.path().join("no/such/x")).unwrap().contains("does not exist"));
        let e = write_atomic(d.path(), b"x").unwrap_err().to_string();
        assert!(e.contains("is a folder") && e.contains(&d.path().display().to_string()), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_stays_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let d = tempfile::tempdir().unwrap();
        let null = null_device(d.path());
        assert_eq!(check_writable(&null), None);
        write_atomic(&null, b"gone").unwrap();
        assert!(std::fs::metadata(&null).unwrap().file_type().is_char_device());
    }

    /// A null device of the test's own in `dir` where one can be made (as
    /// root), so that a wrong write never touches `/dev/null`; else `/dev/null`.
    #[cfg(unix)]
    pub(crate) fn null_device(dir: &Path) -> PathBuf {
        let node = dir.join("null");
        let made = std::process::Command::new("mknod").arg(&node).args(["c", "1", "3"]).output();
        if made.is_ok_and(|o| o.status.success()) {
            node
        } else {
            PathBuf::from("/dev/null")
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through_and_stays_a_fifo() {
        use std::os::unix::fs::FileTypeExt;
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        assert_eq!(check_writable(&fifo), None);
        write_atomic(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_stays_a_link_and_its_target_is_written() {
        let d = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let real = elsewhere.path().join("real.json");
        std::fs::write(&real, b"old").unwrap();
        let link = d.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(check_writable(&link), None);
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1, "nothing left beside the link");
        let dangling = d.path().join("dangling.json");
        std::os::unix::fs::symlink(d.path().join("missing"), &dangling).unwrap();
        assert!(write_atomic(&dangling, b"x").unwrap_err().to_string().contains("symbolic link to a missing file"));
    }

    #[cfg(unix)]
    #[test]
    fn new_files_get_the_umask_mode_and_replaced_files_keep_theirs() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let new = d.path().join("new.json");
        write_atomic(&new, b"x").unwrap();
        let plain = d.path().join("plain.json");
        std::fs::write(&plain, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&new), mode(&plain), "a new file gets the mode std::fs::write gives");
        std::fs::set_permissions(&plain, Permissions::from_mode(0o640)).unwrap();
        write_atomic(&plain, b"y").unwrap();
        assert_eq!(mode(&plain), 0o640);
    }
}
