//! What a solve will take before it runs: memory at each layer group's
//! peak, disk for checkpoints and the table, and an estimate of the time.

use ur_rules::Rules;

use crate::anderson::Anderson;
use crate::index::{Indexer, Layer};
use crate::operator::{estimated_rows, RowBytes};
use crate::solve::{layer_groups, Bellman};

/// One layer group's needs.
#[derive(Clone, Debug)]
pub struct GroupPlan {
    pub layers: Vec<Layer>,
    pub positions: u64,
    /// The compiled operator, every row stored.
    pub rows: RowBytes,
    /// Values in memory while the operator is compiled (the layers its
    /// bear-off moves read, and every layer not yet released; the group's
    /// own start once it is compiled).
    pub values_compiling: u64,
    /// Values in memory while the group is swept: the group's own as its
    /// working values, and their complements.
    pub values_sweeping: u64,
    /// The acceleration history.
    pub history: u64,
    /// Processor seconds to compile the operator, measured on a sample.
    pub compile_seconds: f64,
}

/// Which fraction of each group's operator rows is stored in memory; the
/// rest waits in a file and is read in every sweep (`memory_rows`), or is
/// generated again in every sweep (same values, more time).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Per group, the share of the rows stored in memory (spread evenly
    /// over the group when the rest is generated again).
    pub stored: Vec<f64>,
    /// With the rest on disk: per group, the bytes of rows (their pairs,
    /// counts, constants and references) held in memory at most, counted
    /// as they are compiled, so the cap holds whatever the estimate's
    /// error; the others wait in a file in the checkpoint folder (the
    /// system's temporary folder without one). `None`: they are generated
    /// again in every sweep.
    pub memory_rows: Option<Vec<u64>>,
}

impl Layout {
    /// Whether rows not in memory wait on disk.
    pub fn disk(&self) -> bool {
        self.memory_rows.is_some()
    }
}

/// Estimated sweeps of a large group, for the cost of rows generated again
/// in every sweep (Finkel's and Masters' largest groups take 30 to 60).
const SWEEPS_OF_A_GROUP: f64 = 45.0;

/// Share of a cap the estimate may fill: the sampled operator size is
/// within 3 % of the built one.
const CAP_MARGIN: f64 = 0.96;

impl GroupPlan {
    /// Bytes in memory while compiling.
    pub fn compiling(&self) -> u64 {
        self.values_compiling + self.rows.total()
    }

    /// Bytes in memory while sweeping.
    pub fn sweeping(&self) -> u64 {
        self.values_sweeping + self.rows.total() + self.history
    }

    /// The group's peak.
    pub fn peak(&self) -> u64 {
        self.peak_storing(1.0, false)
    }

    /// Rows kept in memory whatever is stored: the recorded choices, and
    /// the constants unless the rest of the rows is on `disk`.
    pub fn rows_minimum(&self, disk: bool) -> u64 {
        self.rows.choices + if disk { 0 } else { self.rows.consts }
    }

    fn rows_storing(&self, stored: f64, disk: bool) -> u64 {
        let min = self.rows_minimum(disk);
        min + ((self.rows.total() - min) as f64 * stored).round() as u64
    }

    /// Bytes of rows on disk, read in every sweep, when a fraction `stored`
    /// is in memory.
    pub fn rows_on_disk(&self, stored: f64) -> u64 {
        self.rows.total() - self.rows_storing(stored, true)
    }

    /// The group's peak when a fraction `stored` of its rows is stored.
    pub fn peak_storing(&self, stored: f64, disk: bool) -> u64 {
        self.rows_storing(stored, disk) + self.values_compiling.max(self.values_sweeping + self.history)
    }

    /// The largest fraction of rows that can be stored under `cap` bytes,
    /// or none when the group does not fit even storing none.
    fn stored_under(&self, cap: u64, disk: bool) -> Option<f64> {
        let fixed = self.peak_storing(0.0, disk);
        let room = cap.checked_sub(fixed)?;
        let variable = self.rows.total() - self.rows_minimum(disk);
        Some(if variable == 0 { 1.0 } else { (room as f64 / variable as f64).min(1.0) })
    }
}

/// A solve's estimated needs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub positions: u64,
    pub groups: Vec<GroupPlan>,
    /// Bytes in memory at the end: every value, and the encoded table.
    pub finish: u64,
    /// Bytes of checkpoint files at most (every layer's `f64` values).
    pub checkpoint_bytes: u64,
    /// Bytes of the table file.
    pub table_bytes: u64,
    /// Whether layouts under a cap keep rows on disk (a checkpoint folder
    /// is kept) rather than generate them again.
    pub disk: bool,
}

/// A solve takes about this many times the processor time of compiling its
/// operators: 8.4 on Blitz, 10.9 on Finkel, about 14.5 on Masters (7
/// December, once rows were compiled a pattern block at a time; compiling
/// got faster over the sessions and the sweeps less so).
const SOLVE_PER_COMPILE: f64 = 11.0;

impl Plan {
    /// Peak bytes in memory over the whole solve, every row stored.
    pub fn peak(&self) -> u64 {
        self.peak_with(&self.full_layout())
    }

    /// The group with the highest peak.
    pub fn peak_group(&self) -> Option<&GroupPlan> {
        self.groups.iter().max_by_key(|g| g.peak())
    }

    /// Estimated processor seconds for the whole solve, every row stored
    /// (within a factor of about 1.5: sweeps per group vary with the rules).
    pub fn cpu_seconds(&self) -> f64 {
        self.cpu_seconds_with(&self.full_layout())
    }

    /// Estimated processor seconds with a layout: rows generated again
    /// cost about one compilation per sweep (rows read from disk cost the
    /// disk's time instead, see [`Plan::disk_reads`]).
    pub fn cpu_seconds_with(&self, layout: &Layout) -> f64 {
        let again = |f: f64| if layout.disk() { 0.0 } else { (1.0 - f) * SWEEPS_OF_A_GROUP };
        self.groups.iter().zip(&layout.stored).map(|(g, &f)| g.compile_seconds * (SOLVE_PER_COMPILE + again(f))).sum()
    }

    /// Estimated bytes read from disk over the whole solve with a layout.
    pub fn disk_reads(&self, layout: &Layout) -> u64 {
        if !layout.disk() {
            return 0;
        }
        let per_sweep = |g: &GroupPlan, f: f64| if f < 1.0 { g.rows_on_disk(f) } else { 0 };
        self.groups.iter().zip(&layout.stored).map(|(g, &f)| (per_sweep(g, f) as f64 * SWEEPS_OF_A_GROUP) as u64).sum()
    }

    /// The layout storing these shares of each group's rows in memory, the
    /// rest on disk when the plan keeps checkpoints; `None` when the shares
    /// do not match the groups.
    pub fn layout_storing(&self, stored: Vec<f64>) -> Option<Layout> {
        if stored.len() != self.groups.len() {
            return None;
        }
        let budget = |g: &GroupPlan, f: f64| {
            if f >= 1.0 {
                u64::MAX
            } else {
                ((g.rows.total() - g.rows_minimum(true)) as f64 * f) as u64
            }
        };
        let memory_rows = self.disk.then(|| self.groups.iter().zip(&stored).map(|(g, &f)| budget(g, f)).collect());
        Some(Layout { stored, memory_rows })
    }

    /// Every row of every group stored: the fastest layout.
    pub fn full_layout(&self) -> Layout {
        Layout { stored: vec![1.0; self.groups.len()], memory_rows: None }
    }

    /// Peak bytes in memory with a layout.
    pub fn peak_with(&self, layout: &Layout) -> u64 {
        self.groups.iter().zip(&layout.stored).map(|(g, &f)| g.peak_storing(f, layout.disk())).fold(self.finish, u64::max)
    }

    /// The least memory a solve can run in: no rows stored.
    pub fn minimum(&self) -> u64 {
        self.layout_storing(vec![0.0; self.groups.len()]).map_or(self.finish, |l| self.peak_with(&l))
    }

    /// The fastest layout whose estimated peak stays within `cap` bytes
    /// (with a margin for the estimate's error), or, as the error, the
    /// least memory a solve needs.
    pub fn layout_under(&self, cap: u64) -> Result<Layout, u64> {
        let cap = (cap as f64 * CAP_MARGIN) as u64;
        if self.finish > cap {
            return Err((self.minimum() as f64 / CAP_MARGIN) as u64);
        }
        let stored: Option<Vec<f64>> = self.groups.iter().map(|g| g.stored_under(cap, self.disk)).collect();
        stored.and_then(|stored| self.layout_storing(stored)).ok_or_else(|| (self.minimum() as f64 / CAP_MARGIN) as u64)
    }
}

/// Estimates a solve's needs. With `spill`, finished layers no later group
/// reads wait in checkpoint files instead of memory; `table_width` is the
/// table's bytes a position. Runs on the current rayon pool (its threads
/// set the time estimate).
pub fn plan(rules: &Rules, index: &Indexer, spill: bool, table_width: u64) -> Plan {
    let bellman = Bellman::new(rules, index);
    let groups = layer_groups(index);
    let releases = crate::checkpoint::releases(index, &groups);
    let mut resident = 0u64;
    let mut out = Vec::new();
    for (group, released) in groups.iter().zip(&releases) {
        let positions: u64 = group.iter().map(|l| l.len).sum();
        resident += positions;
        let (rows, compile_seconds) = estimated_rows(&bellman, group);
        let values_compiling = (resident - positions) * 8;
        if spill {
            resident -= released.iter().map(|l| l.len).sum::<u64>();
        }
        out.push(GroupPlan {
            layers: group.clone(),
            positions,
            rows,
            values_compiling,
            values_sweeping: (resident - positions) * 8 + positions * crate::work::BYTES_PER_POSITION,
            history: positions * Anderson::BYTES_PER_POSITION,
            compile_seconds,
        });
    }
    // The table is written a block at a time (`Solved::write_table`): at
    // the end only the values still in memory count.
    let finish = if spill { resident } else { index.len() } * 8 + (8 + table_width) * crate::solve::WRITE_BLOCK as u64;
    Plan {
        positions: index.len(),
        groups: out,
        finish,
        checkpoint_bytes: if spill { index.len() * 8 } else { 0 },
        table_bytes: index.len() * table_width,
        disk: spill,
    }
}

/// The memory this process holds now (its resident set), which a solve's
/// estimate does not count: the program, the index's tables, what the
/// plan's sample left with the allocator. A cap on a whole process leaves
/// this out first. 0 where it cannot be read.
pub fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok());
    kib.unwrap_or(0) * 1024
}

/// Runs [`plan`] on a pool of `threads` threads (0 = all cores).
pub fn plan_with_threads(rules: &Rules, index: &Indexer, spill: bool, table_width: u64, threads: usize) -> Plan {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| plan(rules, index, spill, table_width)),
        Err(_) => plan(rules, index, spill, table_width),
    }
}
