//! An interrupted `ur solve` says what it kept and how to go on, and the
//! next run says that it resumes.

use std::io::Read;
use std::process::Stdio;

use crate::common;
use common::{path_str, run_ok, ur_cmd};

#[test]
fn ctrl_c_keeps_the_checkpoint_and_the_rerun_says_it_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.urt");
    let o = path_str(&out);
    let args = ["solve", "finkel", "--pieces", "5", "--out", o, "--threads", "1", "--quiet"];
    let mut child = ur_cmd(&args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Interrupt once the first layers are checkpointed.
    let started = std::time::Instant::now();
    let layers = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir())
            .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
            .filter(|f| f.file_name().to_string_lossy().starts_with("layer-"))
            .count()
    };
    while layers() == 0 {
        assert!(started.elapsed().as_secs() < 300, "no checkpoint in 300 s");
        assert!(child.try_wait().unwrap().is_none(), "the solve ended before it could be interrupted");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    let dirs: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().filter(|e| e.path().is_dir()).collect();
    assert_eq!(dirs.len(), 1, "one checkpoint folder");
    let ckpt = dirs[0].path();
    assert!(err.contains(&format!("interrupted: checkpoint kept in {}; run the same command to resume", ckpt.display())), "{err}");
    let again = run_ok(&args);
    assert!(again.contains(&format!("resuming from the checkpoint of finkel in {}", ckpt.display())), "{again}");
    assert!(out.exists() && !ckpt.exists());
}
