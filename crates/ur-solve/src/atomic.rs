//! File output that never leaves a half-written file behind: the one
//! implementation every writer of the workspace uses (tables, checkpoints,
//! arena files, game records, weights).

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// folder, flushed and synced, then renamed over the target. The folder must
/// exist.
///
/// # Errors
/// The folder is missing or not writable, the disk is full, or the rename fails
/// (for example, `path` is a folder).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// As [`write_atomic`], with the bytes written by `write` as it makes them.
///
/// # Errors
/// As [`write_atomic`], or an error of `write`.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    let mut w = std::io::BufWriter::new(tmp.as_file_mut());
    write(&mut w)?;
    w.flush()?;
    drop(w);
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Why a file cannot be written at `path`, found before any work is done:
/// `None` when `path` names a file (new or existing) in a folder that exists
/// and takes new files.
pub fn check_writable(path: &Path) -> Option<String> {
    if path.as_os_str().is_empty() {
        return Some("the path is empty".into());
    }
    if path.is_dir() {
        return Some(format!("{} is a folder; give a file name", path.display()));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Some(format!("the folder {} does not exist", dir.display()));
    }
    match tempfile::NamedTempFile::new_in(dir) {
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
        assert!(write_atomic(d.path(), b"x").is_err());
    }
}
