//! What the tests that run `ur serve` as a process share: a free port, and
//! a server started and waited for, killed when dropped.
#![allow(dead_code)] // each test uses its own part

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ur_web::client::http;

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A running `ur serve`, killed when dropped.
pub struct Serve(Child);

impl Serve {
    /// The process id.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }

    /// SIGKILL, as a crash.
    pub fn kill(&mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `ur serve` and waits until it answers.
pub async fn start(addr: SocketAddr, db: &str) -> Serve {
    let child = Command::new(env!("CARGO_BIN_EXE_ur"))
        .args([
            "serve",
            "--addr",
            &addr.to_string(),
            "--db",
            db,
            "--bot-delay-ms",
            "0",
            "--messages-per-second",
            "1000",
            "--games-per-second",
            "1000",
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("ur serve starts");
    let child = Serve(child);
    let t = Instant::now();
    loop {
        if tokio::net::TcpStream::connect(addr).await.is_ok() && http(addr, "GET", "/api/rules", None).await.0 == 200 {
            return child;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "ur serve did not answer");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
