//! Per-layer checkpoints, and which layers can leave memory once saved.
//!
//! After each layer group the solver saves its values to
//! `DIR/layer-A-B.f64` (atomic writes), so an interrupted solve resumes
//! from the last finished group. The same files let the solver drop from
//! memory the layers no later group reads, and gather them again at the end.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::index::{Indexer, Layer};
use crate::SolveError;

/// A checkpoint directory.
pub(crate) struct Checkpoints<'a> {
    pub(crate) dir: &'a Path,
}

impl Checkpoints<'_> {
    fn file(&self, l: &Layer) -> PathBuf {
        self.dir.join(format!("layer-{}-{}.f64", l.mine, l.theirs))
    }

    /// Loads a finished group's values; false when it was not saved whole.
    pub(crate) fn load(&self, group: &[Layer], values: &[AtomicU64]) -> Result<bool, SolveError> {
        if !group.iter().all(|l| self.file(l).exists()) {
            return Ok(false);
        }
        for l in group {
            let Some(bytes) = self.read(l)? else { return Ok(false) };
            values[l.range()]
                .par_iter()
                .zip(bytes.par_chunks_exact(8))
                .for_each(|(v, b)| v.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed));
        }
        Ok(true)
    }

    /// Reads a layer's saved values into `out`.
    pub(crate) fn read_into(&self, l: &Layer, out: &mut [f64]) -> Result<(), SolveError> {
        let bytes = self.read(l)?.ok_or_else(|| self.wrong_size(l))?;
        out.par_iter_mut().zip(bytes.par_chunks_exact(8)).for_each(|(v, b)| *v = f64::from_le_bytes(b.try_into().expect("8 bytes")));
        Ok(())
    }

    fn wrong_size(&self, l: &Layer) -> SolveError {
        SolveError::Io(format!(
            "{}: the checkpoint has the wrong size; delete {} and solve again",
            self.file(l).display(),
            self.dir.display()
        ))
    }

    fn open_checked(&self, l: &Layer) -> Result<std::fs::File, SolveError> {
        let path = self.file(l);
        let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", path.display()));
        let file = std::fs::File::open(&path).map_err(io)?;
        if file.metadata().map_err(io)?.len() != l.len * 8 {
            return Err(self.wrong_size(l));
        }
        Ok(file)
    }

    /// The saved value at position `i` of layer `l` (layer-relative).
    pub(crate) fn read_one(&self, l: &Layer, i: u64) -> Result<f64, SolveError> {
        use std::os::unix::fs::FileExt;
        let mut b = [0u8; 8];
        let file = self.open_checked(l)?;
        file.read_exact_at(&mut b, i * 8).map_err(|e| SolveError::Io(format!("{}: {e}", self.file(l).display())))?;
        Ok(f64::from_le_bytes(b))
    }

    /// Calls `f` with a layer's saved values, `block` at a time, in order.
    pub(crate) fn read_blocks(
        &self,
        l: &Layer,
        block: usize,
        f: &mut dyn FnMut(&[f64]) -> Result<(), SolveError>,
    ) -> Result<(), SolveError> {
        use std::io::Read;
        let mut file = std::io::BufReader::new(self.open_checked(l)?);
        let (mut bytes, mut values) = (vec![0u8; block * 8], Vec::with_capacity(block));
        let mut left = l.len as usize;
        while left > 0 {
            let n = left.min(block);
            file.read_exact(&mut bytes[..n * 8]).map_err(|e| SolveError::Io(format!("{}: {e}", self.file(l).display())))?;
            values.clear();
            values.extend(bytes[..n * 8].chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes"))));
            f(&values)?;
            left -= n;
        }
        Ok(())
    }

    fn read(&self, l: &Layer) -> Result<Option<Vec<u8>>, SolveError> {
        let path = self.file(l);
        let bytes = std::fs::read(&path).map_err(|e| SolveError::Io(format!("{}: {e}", path.display())))?;
        Ok((bytes.len() as u64 == l.len * 8).then_some(bytes))
    }

    pub(crate) fn save(&self, group: &[Layer], values: &[AtomicU64]) -> Result<(), SolveError> {
        for l in group {
            crate::table::write_atomic_with(&self.file(l), |w| {
                values[l.range()].chunks(1 << 16).try_for_each(|block| {
                    let bytes: Vec<u8> = block.iter().flat_map(|a| a.load(Relaxed).to_le_bytes()).collect();
                    w.write_all(&bytes)
                })
            })?;
        }
        Ok(())
    }
}

/// For each group (in solving order), the layers that no later group reads
/// once this one is compiled. Compiling a group reads the layers its
/// bear-off moves reach: from `(m, t)`, `(m + 1, t)` when the mover rolls
/// again and `(t, m + 1)` when the turn passes.
pub(crate) fn releases(index: &Indexer, groups: &[Vec<Layer>]) -> Vec<Vec<Layer>> {
    let pieces = index.pieces();
    let mut last_reader = std::collections::HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for l in group.iter().filter(|l| l.mine + 1 < pieces) {
            for (m, t) in [(l.mine + 1, l.theirs), (l.theirs, l.mine + 1)] {
                last_reader.insert((m, t), g);
            }
        }
    }
    let mut out = vec![Vec::new(); groups.len()];
    for l in index.layers() {
        if let Some(&g) = last_reader.get(&(l.mine, l.theirs)) {
            out[g].push(*l);
        }
    }
    out
}
