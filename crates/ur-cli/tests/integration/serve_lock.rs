//! Two `ur serve` on one SQLite file: the second stops at once, naming the
//! lock file and the process that holds it, and the first goes on.

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ur_web::client::http;

use crate::serving;
use serving::{free_port, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_ur_serve_on_the_same_sqlite_file_exits_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let first = start(addr, db.to_str().unwrap()).await;
    let mut second = Command::new(env!("CARGO_BIN_EXE_ur"))
        .args(["serve", "--addr", &format!("127.0.0.1:{}", free_port()), "--db", db.to_str().unwrap(), "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = second.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(30) {
            let _ = second.kill();
            panic!("the second ur serve on the same database kept running");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(second.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(!status.success(), "the second ur serve exited with success: {stderr}");
    let lock = format!("{}.lock", db.display());
    assert!(stderr.contains(&lock), "the message names the lock file {lock}: {stderr}");
    assert!(stderr.contains(&format!("process {}", first.pid())), "the message names the first server's PID: {stderr}");
    assert_eq!(http(addr, "GET", "/api/rules", None).await.0, 200, "the first server goes on");
}
