//! Background solving: the server solves the tables it lacks for the rule
//! sets it is told to ([`crate::Config::solve`]), one at a time, on a thread
//! at the lowest priority, into the table store, with checkpoints so that a
//! restart resumes. Hints and reviews find a table as soon as it is written
//! ([`crate::live::CachedTables`] looks the store up at every use).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use ur_rules::Rules;
use ur_solve::{solve_kept, Encoding, Indexer, Layer, Progress, SolveConfig};

/// Where one rule set's table stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Queued,
    /// Being solved: the share of positions solved so far.
    Solving(f64),
    Ready,
    /// Not solved here, and why.
    Skipped(String),
}

/// The rule sets to solve and where each stands; shared with `GET /api/solving`.
pub struct Solving {
    entries: Mutex<Vec<(Arc<Rules>, Status)>>,
}

impl Solving {
    pub fn new(list: &[Arc<Rules>], store: Option<&Path>) -> Solving {
        let status = |r: &Arc<Rules>| match store {
            Some(dir) if ur_solve::store::find(dir, r).is_some() => Status::Ready,
            Some(_) => Status::Queued,
            None => Status::Skipped("no table store: give --tables DIR".into()),
        };
        Solving { entries: Mutex::new(list.iter().map(|r| (r.clone(), status(r))).collect()) }
    }

    fn set(&self, i: usize, status: Status) {
        if let Some(e) = self.entries.lock().unwrap_or_else(|e| e.into_inner()).get_mut(i) {
            e.1 = status;
        }
    }

    fn rules(&self) -> Vec<Arc<Rules>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|e| e.0.clone()).collect()
    }

    /// Where the table of `rules` stands, when the server was told to solve it.
    pub fn status_of(&self, rules: &Rules) -> Option<Status> {
        let fp = ur_solve::table::fingerprint(rules);
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.iter().find(|e| ur_solve::table::fingerprint(&e.0) == fp).map(|e| e.1.clone())
    }

    /// `GET /api/solving`'s answer (docs/serve.md).
    pub fn json(&self, store: Option<&Path>) -> Value {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let rule_sets: Vec<Value> = entries.iter().map(|(r, s)| entry_json(r, s)).collect();
        let stored = stored_tables(store);
        let mut ids: Vec<&str> = stored.iter().map(|(id, _)| id.as_str()).collect();
        ids.dedup();
        let tables: Vec<Value> = stored.iter().map(|(id, pieces)| json!({"rules": id, "pieces": pieces})).collect();
        json!({"rule_sets": rule_sets, "tables": ids, "stored": tables})
    }
}

fn entry_json(rules: &Rules, status: &Status) -> Value {
    let mut v = json!({"rules": rules.id(), "options": rules.options, "pieces": rules.pieces()});
    match status {
        Status::Queued => v["state"] = json!("queued"),
        Status::Solving(f) => {
            v["state"] = json!("solving");
            v["fraction"] = json!(f);
        }
        Status::Ready => v["state"] = json!("ready"),
        Status::Skipped(why) => {
            v["state"] = json!("skipped");
            v["reason"] = json!(why);
        }
    }
    v
}

/// The rule-set ids and piece counts of the tables in the store (from
/// their file names, `ID-Np-FINGERPRINT.urt`).
fn stored_tables(store: Option<&Path>) -> Vec<(String, u32)> {
    let files = store.map(ur_solve::store::table_files).unwrap_or_default();
    files
        .iter()
        .filter_map(|p| {
            let name = p.file_stem()?.to_str()?;
            let mut parts = name.rsplitn(3, '-');
            let (_fp, pieces, id) = (parts.next()?, parts.next()?, parts.next()?);
            Some((id.to_string(), pieces.strip_suffix('p')?.parse().ok()?))
        })
        .collect()
}

/// Starts the solving thread, when there is anything to solve.
pub fn start(solving: Arc<Solving>, store: Option<PathBuf>, quiet: bool) {
    let Some(store) = store else { return };
    let rules = solving.rules();
    if rules.is_empty() {
        return;
    }
    let spawned = std::thread::Builder::new().name("ur-solve".into()).spawn(move || {
        lowest_priority();
        for (i, r) in rules.iter().enumerate() {
            let status = solve_one(&solving, i, r, &store);
            if !quiet {
                eprintln!("ur serve: table of {} ({} pieces): {}", r.id(), r.pieces(), said(&status));
            }
            solving.set(i, status);
        }
    });
    if let Err(e) = spawned {
        eprintln!("ur serve: cannot start the solving thread: {e}");
    }
}

fn said(status: &Status) -> String {
    match status {
        Status::Ready => "ready".into(),
        Status::Skipped(why) => format!("skipped: {why}"),
        Status::Queued | Status::Solving(_) => "not finished".into(),
    }
}

/// Solves the table of `rules` into `store` unless it is there already.
fn solve_one(solving: &Solving, i: usize, rules: &Rules, store: &Path) -> Status {
    if ur_solve::store::find(store, rules).is_some() {
        return Status::Ready;
    }
    let index = match Indexer::new(rules) {
        Ok(index) => index,
        Err(e) => return Status::Skipped(e.to_string()),
    };
    let encoding = Encoding::U16;
    let plan = ur_solve::plan::plan(rules, &index, true, encoding.width() as u64);
    let layout = match fitting_layout(&plan) {
        Ok(layout) => layout,
        Err(why) => return Status::Skipped(why),
    };
    let out = match ur_solve::store::path_in(store, rules) {
        Ok(out) => out,
        Err(e) => return Status::Skipped(e.to_string()),
    };
    let mut dir = out.clone().into_os_string();
    dir.push(format!(".ckpt-{}", ur_solve::table::fingerprint(rules)));
    let checkpoint = PathBuf::from(dir);
    solving.set(i, Status::Solving(0.0));
    let cfg = SolveConfig { tolerance: 1e-12, threads: 0, checkpoint: Some(checkpoint.clone()), layout, ..SolveConfig::default() };
    let progress = Share { solving, i };
    let written = solve_kept(rules, &index, &cfg, &progress).and_then(|s| s.write_table(&out, rules, &index, encoding, cfg.tolerance));
    match written {
        Ok(()) => {
            let _ = std::fs::remove_dir_all(&checkpoint);
            Status::Ready
        }
        Err(e) => Status::Skipped(format!("the solve failed: {e}")),
    }
}

/// The layout that keeps the solve within three quarters of the memory
/// available now (the rest stays the server's), or why none does.
fn fitting_layout(plan: &ur_solve::Plan) -> Result<Option<ur_solve::Layout>, String> {
    let Some(have) = available_memory() else { return Ok(None) };
    let budget = have / 4 * 3;
    if plan.peak() <= budget {
        return Ok(None);
    }
    plan.layout_under(budget)
        .map(Some)
        .map_err(|need| format!("it needs {:.2} GiB of memory and {:.2} GiB is available to it on this machine", gib(need), gib(budget)))
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Reports the share of positions solved into the entry.
struct Share<'a> {
    solving: &'a Solving,
    i: usize,
}

impl Progress for Share<'_> {
    fn layers_started(&self, _layers: &[Layer], done: u64, total: u64) {
        self.solving.set(self.i, Status::Solving(done as f64 / total.max(1) as f64));
    }
}

/// Puts the calling thread (and the solver's threads it starts, which
/// inherit it) at the lowest priority: players' moves and bots come first.
#[cfg(target_os = "linux")]
fn lowest_priority() {
    // SAFETY: plain system calls on the calling thread, with a valid parameter.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let param = libc::sched_param { sched_priority: 0 };
        libc::sched_setscheduler(tid as libc::pid_t, libc::SCHED_IDLE, &param);
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

#[cfg(not(target_os = "linux"))]
fn lowest_priority() {}
