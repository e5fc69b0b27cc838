//! Table files: a versioned header and one value per indexed position.
//!
//! Layout: `URTABLE\0`, u32 LE format version, u32 LE header length, the
//! header as JSON, zero padding to a multiple of 8 bytes, then the values in
//! index order (f64 LE, or u16 LE holding `round(p * 65535)`).

use std::io::Write;
use std::path::Path;

use memmap2::Mmap;
use serde::{Deserialize, Serialize};
use serde_json::json;
use ur_rules::{Options, RaceSpec, Rules, Side};
use xxhash_rust::xxh3::Xxh3;

use crate::index::Indexer;
use crate::solve::Values;
use crate::SolveError;

pub const MAGIC: &[u8; 8] = b"URTABLE\0";
pub const FORMAT_VERSION: u32 = 1;
/// Index schemes this program reads (see [`crate::index`]).
pub const INDEX_SCHEMES: [&str; 2] = ["bits-v1", "slots-v1"];

/// How values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    F64,
    U16,
}

impl Encoding {
    pub fn width(self) -> usize {
        match self {
            Encoding::F64 => 8,
            Encoding::U16 => 2,
        }
    }

    /// `f64` or `u16`, as [`Encoding::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::F64 => "f64",
            Encoding::U16 => "u16",
        }
    }

    /// Reads `f64` or `u16`.
    pub fn parse(text: &str) -> Option<Encoding> {
        match text {
            "f64" => Some(Encoding::F64),
            "u16" => Some(Encoding::U16),
            _ => None,
        }
    }
}

/// Everything a table says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub rules_id: String,
    /// The full rules the table was solved for.
    pub rules: RaceSpec,
    pub options: Options,
    /// Hash of everything that affects play; see [`fingerprint`].
    pub fingerprint: String,
    pub index_scheme: String,
    pub positions: u64,
    pub encoding: Encoding,
    /// Certified `max |T(v) - v|` of the solve.
    pub residual: f64,
    pub tolerance: f64,
    /// xxh3-64 of the value bytes, hex.
    pub checksum: String,
    /// What a value means.
    pub value: String,
}

/// Why a table cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TableError {
    #[error("{0}: cannot read the table: {1}")]
    Io(String, String),
    #[error("{0} is a folder, not a table file; give a file written by `ur solve`")]
    Folder(String),
    #[error("{0} is not a table file (no URTABLE header); give a file written by `ur solve`")]
    NotATable(String),
    #[error("{0} has table format version {1}; this program reads version {FORMAT_VERSION}; solve again")]
    Version(String, u32),
    #[error("{0}: the header is damaged: {1}")]
    Header(String, String),
    #[error("{path} has {actual} bytes, expected {expected}: it is truncated or damaged (an interrupted copy?); solve again")]
    Truncated { path: String, expected: u64, actual: u64 },
    #[error("{0} is corrupted: its checksum does not match its values; solve again")]
    Checksum(String),
    #[error("{path} was solved for '{table}' ({table_fp}), not for these rules '{given}' ({given_fp}); use a table for '{given}' or solve it with `ur solve {given}`")]
    WrongRules { path: String, table: String, table_fp: String, given: String, given_fp: String },
}

/// A hash of everything about a rule set that affects play and indexing.
pub fn fingerprint(rules: &Rules) -> String {
    let path = |side: Side| (1..=rules.path_len()).map(|p| rules.cell(side, p)).collect::<Vec<_>>();
    let kinds: Vec<_> = (1..=rules.path_len()).map(|p| (rules.kind(Side::Light, p), rules.is_rosette(Side::Light, p))).collect();
    let throws: Vec<_> = rules.throws().collect();
    let canonical = json!({
        "scheme": crate::index::scheme_for(rules),
        "pieces": rules.pieces(),
        "light": path(Side::Light),
        "dark": path(Side::Dark),
        "kinds": kinds,
        "stop": rules.spec.rosettes.stop,
        "throws": throws,
        "capture_extra": rules.capture_extra(),
        "rosette_extra": rules.rosette_extra(),
    });
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(canonical.to_string().as_bytes()))
}

/// Encodes values for a table.
pub fn encode(values: &[f64], encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::F64 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        Encoding::U16 => values.iter().flat_map(|v| ((v.clamp(0.0, 1.0) * 65535.0).round() as u16).to_le_bytes()).collect(),
    }
}

/// Writes a table atomically.
///
/// # Errors
/// The file cannot be written.
pub fn write_table(
    path: &Path,
    rules: &Rules,
    index: &Indexer,
    values: &[f64],
    encoding: Encoding,
    residual: f64,
    tolerance: f64,
) -> Result<(), SolveError> {
    let blocks = |f: &mut dyn FnMut(&[f64]) -> Result<(), SolveError>| values.chunks(1 << 20).try_for_each(f);
    write_table_from(path, rules, index, &blocks, encoding, residual, tolerance)
}

/// Values handed over a block at a time, in index order, as often as asked.
pub type Blocks<'a> = dyn Fn(&mut dyn FnMut(&[f64]) -> Result<(), SolveError>) -> Result<(), SolveError> + 'a;

/// Writes a table atomically from values given block by block: once to
/// compute the checksum the header holds, once to write them, so no more
/// than a block is ever encoded in memory.
///
/// # Errors
/// Reading the values fails, or the file cannot be written.
pub fn write_table_from(
    path: &Path,
    rules: &Rules,
    index: &Indexer,
    blocks: &Blocks,
    encoding: Encoding,
    residual: f64,
    tolerance: f64,
) -> Result<(), SolveError> {
    let mut h = Xxh3::new();
    let mut count = 0u64;
    blocks(&mut |b| {
        h.update(&encode(b, encoding));
        count += b.len() as u64;
        Ok(())
    })?;
    if count != index.len() {
        return Err(SolveError::Io(format!("{} values for a table of {} positions", count, index.len())));
    }
    let header = Header {
        rules_id: rules.id().into(),
        rules: rules.spec.clone(),
        options: rules.options.clone(),
        fingerprint: fingerprint(rules),
        index_scheme: index.scheme().into(),
        positions: index.len(),
        encoding,
        residual,
        tolerance,
        checksum: format!("{:016x}", h.digest()),
        value: "win probability of the side to move, before it rolls".into(),
    };
    let json = serde_json::to_vec(&header).map_err(|e| SolveError::Io(e.to_string()))?;
    let mut head = Vec::with_capacity(json.len() + 24);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&(json.len() as u32).to_le_bytes());
    head.extend_from_slice(&json);
    head.resize(head.len().next_multiple_of(8), 0);
    // A failure to read the values is kept apart from the file's own errors.
    let mut failed = None;
    let written = write_atomic_with(path, |w| {
        w.write_all(&head)?;
        blocks(&mut |b| w.write_all(&encode(b, encoding)).map_err(|e| SolveError::Io(format!("{}: {e}", path.display())))).map_err(|e| {
            let message = e.to_string();
            failed = Some(e);
            std::io::Error::other(message)
        })
    });
    match failed {
        Some(e) => Err(e),
        None => written,
    }
}

/// Writes parts to `path` atomically (see [`crate::atomic`]), creating its
/// folder first.
///
/// # Errors
/// The directory is not writable, or the disk is full.
pub fn write_atomic(path: &Path, parts: &[&[u8]]) -> Result<(), SolveError> {
    write_atomic_with(path, |w| parts.iter().try_for_each(|p| w.write_all(p)))
}

/// As [`write_atomic`], with the bytes written by `write` as it makes them.
///
/// # Errors
/// The directory cannot be created, or a write, sync or rename fails.
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), SolveError> {
    let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", path.display()));
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    crate::atomic::write_atomic_with(path, write).map_err(io)
}

/// A memory-mapped table.
pub struct Table {
    map: Mmap,
    pub header: Header,
    offset: usize,
}

impl Table {
    /// Opens a table and checks its header, size and checksum.
    ///
    /// # Errors
    /// A missing, foreign, truncated or corrupted file.
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| TableError::Io(name.clone(), e.to_string()))?;
        // SAFETY: the map is read-only; a table file is never modified in place
        // (writers replace it by rename), so the bytes cannot change under us.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::Io(name.clone(), e.to_string()))?;
        let (header, offset) = parse_header(&name, &map)?;
        let expected = header
            .positions
            .checked_mul(header.encoding.width() as u64)
            .and_then(|n| n.checked_add(offset as u64))
            .ok_or_else(|| TableError::Header(name.clone(), format!("{} positions is impossibly many", header.positions)))?;
        if map.len() as u64 != expected {
            return Err(TableError::Truncated { path: name, expected, actual: map.len() as u64 });
        }
        let mut h = Xxh3::new();
        h.update(&map[offset..]);
        if format!("{:016x}", h.digest()) != header.checksum {
            return Err(TableError::Checksum(name));
        }
        Ok(Table { map, header, offset })
    }

    /// Checks that the table was solved for these rules.
    ///
    /// # Errors
    /// [`TableError::WrongRules`] when the fingerprints differ.
    pub fn check_rules(&self, rules: &Rules, path: &Path) -> Result<(), TableError> {
        let given_fp = fingerprint(rules);
        if given_fp == self.header.fingerprint {
            return Ok(());
        }
        Err(TableError::WrongRules {
            path: path.display().to_string(),
            table: self.header.rules_id.clone(),
            table_fp: self.header.fingerprint.clone(),
            given: rules.id().into(),
            given_fp,
        })
    }
}

impl Values for Table {
    #[inline]
    fn get(&self, index: u64) -> f64 {
        let i = self.offset + index as usize * self.header.encoding.width();
        match self.header.encoding {
            Encoding::F64 => f64::from_le_bytes(self.map[i..i + 8].try_into().expect("8 bytes")),
            Encoding::U16 => f64::from(u16::from_le_bytes([self.map[i], self.map[i + 1]])) / 65535.0,
        }
    }
}

fn parse_header(name: &str, bytes: &[u8]) -> Result<(Header, usize), TableError> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(TableError::NotATable(name.into()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(TableError::Version(name.into(), version));
    }
    let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let json = bytes.get(16..16 + len).ok_or_else(|| TableError::Header(name.into(), "the header is cut short".into()))?;
    let header: Header = serde_json::from_slice(json).map_err(|e| TableError::Header(name.into(), e.to_string()))?;
    if !INDEX_SCHEMES.contains(&header.index_scheme.as_str()) {
        return Err(TableError::Header(name.into(), format!("unknown index scheme '{}'", header.index_scheme)));
    }
    Ok((header, (16 + len).next_multiple_of(8)))
}
