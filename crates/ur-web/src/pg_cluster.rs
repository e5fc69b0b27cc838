//! A throwaway PostgreSQL cluster for the tests and the load tool: made with
//! Debian's `initdb` and `pg_ctl` (`/usr/lib/postgresql/*/bin`) in a folder
//! of the caller's, and stopped when dropped. It panics on what a test
//! should fail on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The newest PostgreSQL server binaries installed, if any.
pub fn pg_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").exists() && b.join("pg_ctl").exists())
        .collect();
    found.sort();
    found.pop()
}

pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    as_postgres: bool,
    pub port: u16,
}

impl Cluster {
    /// A cluster in `dir`, or `None` (said on stderr) where PostgreSQL is
    /// not installed; then `UR_REQUIRE_POSTGRES=1` makes it a failure.
    pub fn start_or_skip(dir: &Path, extra: &str) -> Option<Cluster> {
        let Some(bin) = pg_bin() else {
            let why = "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)";
            assert!(std::env::var("UR_REQUIRE_POSTGRES").as_deref() != Ok("1"), "UR_REQUIRE_POSTGRES=1 but {why}");
            eprintln!("skipped: {why}");
            return None;
        };
        Some(Cluster::start(bin, dir, extra))
    }

    fn run(&self, tool: &str, args: &[&str]) -> Output {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        };
        cmd.args(args).stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("{tool} cannot run: {e}"))
    }

    /// `extra`: more server settings, as `-c name=value` options.
    fn start(bin: PathBuf, dir: &Path, extra: &str) -> Cluster {
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let data = dir.join("data");
        std::fs::create_dir(&data).unwrap();
        if root {
            // PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            let out = Command::new("chown").args(["postgres:", data.to_str().unwrap()]).output().unwrap();
            assert!(out.status.success(), "chown: {}", String::from_utf8_lossy(&out.stderr));
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let c = Cluster { bin, data, as_postgres: root, port };
        let out = c.run("initdb", &["-D", c.data.to_str().unwrap(), "-A", "trust", "-U", "postgres", "--no-sync"]);
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        let opts = format!("-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off {extra}", dir.display());
        let log = dir.join("log");
        let out = c.run("pg_ctl", &["-D", c.data.to_str().unwrap(), "-o", &opts, "-l", log.to_str().unwrap(), "-w", "start"]);
        let said = || format!("{}{}", String::from_utf8_lossy(&out.stderr), std::fs::read_to_string(&log).unwrap_or_default());
        assert!(out.status.success(), "pg_ctl start: {}", said());
        c
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.run("pg_ctl", &["-D", self.data.to_str().unwrap(), "-m", "immediate", "stop"]);
    }
}
