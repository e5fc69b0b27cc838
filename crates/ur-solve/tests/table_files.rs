//! Table files: round trips in both encodings, rules checks, and damaged,
//! foreign or half-written files reported as errors, never as panics.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ur_rules::{OptionValue, Options, Rules};
use ur_solve::table::{write_atomic, write_table, MAGIC};
use ur_solve::{solve, Encoding, Indexer, Silent, SolveConfig, SolveError, Table, TableError, Values};

fn rules(id: &str, pieces: i64) -> Rules {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(pieces))].into();
    Rules::builtin_with(id, &opts).unwrap()
}

/// Solves `id` with `pieces` and writes a table in `dir`; returns its path and the exact values.
fn solved(dir: &Path, id: &str, pieces: i64, encoding: Encoding) -> (PathBuf, Vec<f64>) {
    let r = rules(id, pieces);
    let index = Indexer::new(&r).unwrap();
    let sol = solve(&r, &index, &SolveConfig::default(), &Silent).unwrap();
    let path = dir.join(format!("{id}-{pieces}-{encoding:?}.urt"));
    write_table(&path, &r, &index, &sol.values, encoding, sol.residual, 1e-12).unwrap();
    (path, sol.values.to_vec())
}

/// Opens a table; any panic fails the test with the file named.
fn open(path: &Path) -> Result<Table, TableError> {
    std::panic::catch_unwind(|| Table::open(path)).unwrap_or_else(|_| panic!("Table::open panicked on {}", path.display()))
}

fn open_err(path: &Path) -> TableError {
    match open(path) {
        Ok(_) => panic!("{} opened, but it should not", path.display()),
        Err(e) => e,
    }
}

/// The byte offset where a table's values start.
fn values_offset(bytes: &[u8]) -> usize {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    (16 + len).next_multiple_of(8)
}

/// A copy of a good table with `edit` applied to its bytes.
fn damaged(dir: &Path, good: &Path, name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = fs::read(good).unwrap();
    edit(&mut bytes);
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

/// Replaces the JSON header with `edit(header)` (re-padding the values' start).
fn with_header(bytes: &mut Vec<u8>, edit: impl FnOnce(&mut serde_json::Value)) {
    let start = values_offset(bytes);
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[16..16 + len]).unwrap();
    edit(&mut header);
    let json = serde_json::to_vec(&header).unwrap();
    let mut out = bytes[..12].to_vec();
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out.resize(out.len().next_multiple_of(8), 0);
    out.extend_from_slice(&bytes[start..]);
    *bytes = out;
}

#[test]
fn values_round_trip_in_both_encodings() {
    let dir = tempfile::tempdir().unwrap();
    for pieces in [1, 2] {
        for encoding in [Encoding::F64, Encoding::U16] {
            let (path, values) = solved(dir.path(), "finkel", pieces, encoding);
            let table = open(&path).unwrap();
            let r = rules("finkel", pieces);
            table.check_rules(&r, &path).unwrap();
            let h = &table.header;
            assert_eq!((h.rules_id.as_str(), h.encoding, h.positions), ("finkel", encoding, values.len() as u64));
            assert_eq!(h.options["pieces"], OptionValue::Int(pieces));
            assert_eq!(h.fingerprint, ur_solve::table::fingerprint(&r));
            assert!(h.residual <= 1e-12 && h.tolerance == 1e-12, "{h:?}");
            let size = fs::metadata(&path).unwrap().len();
            assert_eq!(size, values_offset(&fs::read(&path).unwrap()) as u64 + values.len() as u64 * encoding.width() as u64);
            for (i, &v) in values.iter().enumerate() {
                let got = table.get(i as u64);
                match encoding {
                    Encoding::F64 => assert_eq!(got.to_bits(), v.to_bits(), "index {i}"),
                    Encoding::U16 => assert!((got - v).abs() <= 1.0 / 65535.0, "index {i}: {got} vs {v}"),
                }
            }
        }
    }
}

#[test]
fn a_table_is_refused_for_other_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = solved(dir.path(), "finkel", 2, Encoding::U16);
    let table = open(&path).unwrap();
    for other in [rules("finkel", 1), rules("finkel", 3), rules("masters", 2), rules("blitz", 2)] {
        let e = table.check_rules(&other, &path).unwrap_err();
        let TableError::WrongRules { table: t, given, table_fp, given_fp, .. } = &e else { panic!("{e:?}") };
        assert_eq!((t.as_str(), given.as_str()), ("finkel", other.id()));
        assert_ne!(table_fp, given_fp);
        let text = e.to_string();
        assert!(text.contains(&path.display().to_string()) && text.contains("ur solve"), "{text}");
    }
}

#[test]
fn damaged_files_give_the_right_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (good, _) = solved(d, "finkel", 2, Encoding::U16);
    let size = fs::metadata(&good).unwrap().len() as usize;
    let name = good.display().to_string();
    assert!(open(&good).is_ok());

    // Truncated: the values cut short, or one byte too many.
    let p = damaged(d, &good, "half.urt", |b| b.truncate(size / 2));
    assert!(
        matches!(open_err(&p), TableError::Truncated { expected, actual, .. } if expected == size as u64 && actual == (size / 2) as u64)
    );
    assert!(open_err(&p).to_string().contains("truncated"));
    let p = damaged(d, &good, "short.urt", |b| b.truncate(size - 1));
    assert!(matches!(open_err(&p), TableError::Truncated { .. }));
    let p = damaged(d, &good, "long.urt", |b| b.push(0));
    assert!(matches!(open_err(&p), TableError::Truncated { .. }));
    // Cut inside the header.
    let p = damaged(d, &good, "cut-header.urt", |b| b.truncate(40));
    assert!(matches!(open_err(&p), TableError::Header(..)), "{:?}", open_err(&p));
    let p = damaged(d, &good, "cut-magic.urt", |b| b.truncate(12));
    assert!(matches!(open_err(&p), TableError::NotATable(_)));

    // A flipped bit in the values.
    for at in [0, size / 3, size - 1] {
        let p = damaged(d, &good, "flipped.urt", |b| {
            let at = at.max(values_offset(b));
            b[at] ^= 0x10;
        });
        assert_eq!(open_err(&p), TableError::Checksum(p.display().to_string()));
    }

    // A damaged header: broken JSON, a wrong length, a missing or unknown field,
    // another index scheme, another format version.
    let p = damaged(d, &good, "bad-json.urt", |b| b[16] = b'#');
    assert!(matches!(open_err(&p), TableError::Header(..)));
    let p = damaged(d, &good, "bad-len.urt", |b| b[12..16].copy_from_slice(&u32::MAX.to_le_bytes()));
    assert!(matches!(open_err(&p), TableError::Header(..)));
    let p = damaged(d, &good, "short-len.urt", |b| b[12..16].copy_from_slice(&10u32.to_le_bytes()));
    assert!(matches!(open_err(&p), TableError::Header(..)));
    let p = damaged(d, &good, "no-field.urt", |b| with_header(b, |h| drop(h.as_object_mut().unwrap().remove("checksum"))));
    assert!(matches!(open_err(&p), TableError::Header(..)));
    let p = damaged(d, &good, "extra-field.urt", |b| with_header(b, |h| h["surprise"] = 1.into()));
    assert!(matches!(open_err(&p), TableError::Header(..)));
    let p = damaged(d, &good, "scheme.urt", |b| with_header(b, |h| h["index_scheme"] = "slots-v0".into()));
    assert!(open_err(&p).to_string().contains("index scheme"), "{}", open_err(&p));
    let p = damaged(d, &good, "encoding.urt", |b| with_header(b, |h| h["encoding"] = "f32".into()));
    assert!(matches!(open_err(&p), TableError::Header(..)));
    let p = damaged(d, &good, "positions.urt", |b| with_header(b, |h| h["positions"] = 12.into()));
    assert!(matches!(open_err(&p), TableError::Truncated { .. }));
    let p = damaged(d, &good, "checksum.urt", |b| with_header(b, |h| h["checksum"] = "0000000000000000".into()));
    assert!(matches!(open_err(&p), TableError::Checksum(_)));
    let p = damaged(d, &good, "version.urt", |b| b[8..12].copy_from_slice(&2u32.to_le_bytes()));
    assert_eq!(open_err(&p), TableError::Version(p.display().to_string(), 2));

    // Not a table at all, an empty file, a directory, a missing file.
    let p = d.join("notes.txt");
    fs::write(&p, "these are not the values you are looking for\n").unwrap();
    assert_eq!(open_err(&p), TableError::NotATable(p.display().to_string()));
    let p = damaged(d, &good, "bad-magic.urt", |b| b[0] = b'X');
    assert!(matches!(open_err(&p), TableError::NotATable(_)));
    let p = d.join("empty.urt");
    fs::write(&p, b"").unwrap();
    let e = open_err(&p);
    assert!(matches!(e, TableError::NotATable(_) | TableError::Io(..)), "{e:?}");
    let e = open_err(d);
    assert!(matches!(e, TableError::Io(..) | TableError::NotATable(_)), "{e:?}");
    let e = open_err(&d.join("missing.urt"));
    assert!(matches!(e, TableError::Io(..)) && e.to_string().contains("missing.urt"), "{e}");

    // Every message names the file and says what to do, or what is wrong.
    assert!(TableError::Checksum(name.clone()).to_string().contains("solve again"));
    assert!(TableError::NotATable(name).to_string().contains("ur solve"));
}

/// A header whose position count is so large that `positions * width` overflows.
#[test]
fn overflowing_position_counts_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (good, _) = solved(d, "finkel", 1, Encoding::F64);
    let p = damaged(d, &good, "huge-positions.urt", |b| with_header(b, |h| h["positions"] = u64::MAX.into()));
    assert!(matches!(open_err(&p), TableError::Truncated { .. } | TableError::Header(..)), "{:?}", open_err(&p));
}

#[test]
fn large_position_counts_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (good, _) = solved(d, "finkel", 1, Encoding::F64);
    let p = damaged(d, &good, "big-positions.urt", |b| with_header(b, |h| h["positions"] = (u64::MAX / 16).into()));
    assert!(matches!(open_err(&p), TableError::Truncated { .. }), "{:?}", open_err(&p));
}

/// Names in `dir` other than `keep`.
fn strays(dir: &Path, keep: &[&str]) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect()
}

#[test]
fn writes_are_atomic_and_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A table written into a fresh folder: only the table is there, complete.
    let (path, _) = solved(&d.join("sub"), "finkel", 1, Encoding::U16);
    assert!(open(&path).is_ok());
    assert_eq!(strays(&d.join("sub"), &["finkel-1-U16.urt"]), Vec::<String>::new());

    // A write that fails at the last step (the target is a folder that is not
    // empty): an error, the target untouched, no temporary file left.
    let target = d.join("occupied");
    fs::create_dir(&target).unwrap();
    fs::write(target.join("inside"), b"x").unwrap();
    let e = write_atomic(&target, &[b"URTABLE\0", &[0; 64]]).unwrap_err();
    assert!(matches!(&e, SolveError::Io(m) if m.contains("occupied")), "{e:?}");
    assert!(target.is_dir() && target.join("inside").exists());
    assert_eq!(strays(d, &["sub", "occupied"]), Vec::<String>::new());

    // Overwriting while a reader watches: the reader sees the target absent or
    // complete (all of one version), never partly written. The writer keeps
    // going (whole rounds of the four versions) until the reader has read the
    // target whole a few times, so the reads checked above really happened.
    let target = d.join("watched.bin");
    let big = 4 << 20;
    let versions: Vec<Vec<u8>> = (1u8..=4).map(|k| vec![k; big]).collect();
    let done = AtomicBool::new(false);
    let seen = AtomicUsize::new(0);
    let mut rounds = 0;
    std::thread::scope(|s| {
        s.spawn(|| {
            while rounds < 3 || seen.load(Ordering::SeqCst) < 3 {
                for v in &versions {
                    write_atomic(&target, &[&v[..big / 2], &v[big / 2..]]).unwrap();
                }
                rounds += 1;
            }
            done.store(true, Ordering::SeqCst);
        });
        while !done.load(Ordering::SeqCst) {
            match fs::read(&target) {
                Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::NotFound),
                Ok(bytes) => {
                    assert_eq!(bytes.len(), big, "a partly written file under the final name");
                    assert!(bytes.iter().all(|&b| b == bytes[0]), "a mix of two writes");
                    seen.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
    });
    assert!(rounds >= 3, "{rounds} rounds of writes");
    assert!(seen.load(Ordering::SeqCst) >= 3, "the reader read the target whole only {} times", seen.load(Ordering::SeqCst));
    assert_eq!(fs::read(&target).unwrap(), versions[3]);
    assert_eq!(strays(d, &["sub", "occupied", "watched.bin"]), Vec::<String>::new());

    // The bytes on disk start with the magic number.
    assert_eq!(&fs::read(&path).unwrap()[..8], MAGIC);
}
