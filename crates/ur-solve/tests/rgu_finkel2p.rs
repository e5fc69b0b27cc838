//! Our 2-piece Finkel solution against the peer's solved table
//! (`tests/peers/royalur-java-finkel2p.rgu`, RoyalUr-Java).
//!
//! The peer's table holds only positions with light to move. Besides every
//! position our index holds, it holds the positions light has already won
//! (value 100 %); those are skipped and counted.

use std::collections::HashSet;

use ur_rules::{OptionValue, Options, Rules, Side, State};
use ur_solve::rgu::{decode_key, light_win_probability, KeyLayout, RguError, RguTable};
use ur_solve::{solve, Indexer, Silent, SolveConfig, Values};

const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/peers/royalur-java-finkel2p.rgu");

/// Values are `round(p * 65535)`: half a step (0.00076 pp) for the rounding, plus 0.01 of a step
/// (1.5e-7) for the peer's own convergence. The largest difference measured is 0.502 steps
/// (0.000766 pp); 12,862 of the 12,869 positions round to the peer's value exactly.
const TOLERANCE: f64 = 0.51 / 65535.0;

fn finkel2() -> Rules {
    let opts: Options = [("pieces".to_string(), OptionValue::Int(2))].into();
    Rules::builtin_with("finkel", &opts).unwrap()
}

fn table_bytes() -> Vec<u8> {
    std::fs::read(TABLE).unwrap()
}

#[test]
fn every_peer_entry_matches_our_solution() {
    let rules = finkel2();
    let table = RguTable::parse(&table_bytes()).unwrap();
    table.check_pieces(&rules).unwrap();
    assert_eq!(table.metadata["value_type"], "percent16");
    assert_eq!(table.metadata["game_settings"]["paths"], "bell");
    assert_eq!(table.len(), 12_990, "entry count in the header");

    let index = Indexer::new(&rules).unwrap();
    let solution = solve(&rules, &index, &SolveConfig::default(), &Silent).unwrap();

    // The start position: both sides' 2 pieces in reserve, nothing else.
    assert_eq!(decode_key(0x480_0000, &rules).unwrap(), State::start(&rules, Side::Light));
    assert_eq!(table.get(0x480_0000), Some(33_985)); // 51.857 %

    let mut seen = HashSet::new();
    let (mut compared, mut light_won, mut exact) = (0u64, 0u64, 0u64);
    let mut max_diff = (0.0f64, 0u64);
    let layout = KeyLayout::new(&rules).unwrap();
    for (key, v) in table.entries() {
        let st = layout.decode(key, &rules).unwrap_or_else(|e| panic!("{e}"));
        rules.validate(&st.to_setup(&rules)).unwrap_or_else(|e| panic!("key {key:#x}: {e}"));
        assert!(seen.insert(st), "key {key:#x} repeats a position");
        let peer = light_win_probability(v);
        if let Some(winner) = st.winner(&rules) {
            // The peer never stores positions dark has won.
            assert_eq!(winner, Side::Light, "key {key:#x}");
            assert_eq!(v, 65535, "key {key:#x}: light has won");
            light_won += 1;
            continue;
        }
        let mover = solution.get(index.rank(&st));
        let ours = if st.to_move() == Side::Light { mover } else { 1.0 - mover };
        let diff = (peer - ours).abs();
        assert!(diff <= TOLERANCE, "key {key:#x} {:?}: peer {peer} ours {ours}", st.to_setup(&rules));
        if diff > max_diff.0 {
            max_diff = (diff, key);
        }
        exact += u64::from((ours * 65535.0).round() as u16 == v);
        compared += 1;
    }
    println!(
        "compared {compared}, skipped {light_won} won by light, {exact} equal after rounding; max |diff| {:.6} pp ({:.3} steps) at key {:#x}",
        max_diff.0 * 100.0,
        max_diff.0 * 65535.0,
        max_diff.1
    );
    assert_eq!(compared + light_won, table.len());
    // Every position light can be to move in, once: our index counts each position once per side to move.
    assert_eq!(compared, index.len());
}

#[test]
fn corrupted_or_truncated_tables_give_errors() {
    let bytes = table_bytes();
    let meta_end = 8 + u32::from_be_bytes(bytes[4..8].try_into().unwrap()) as usize;
    let keys_at = meta_end + 8;

    // Every cut inside the header and the first keys, then a sample of the rest.
    let cuts = (0..keys_at + 64).chain((keys_at + 64..bytes.len()).step_by(97)).chain([bytes.len() - 1]);
    for cut in cuts {
        assert!(RguTable::parse(&bytes[..cut]).is_err(), "cut at {cut} parsed");
    }

    let corrupt = |at: usize, value: u8| {
        let mut b = bytes.clone();
        b[at] = value;
        RguTable::parse(&b)
    };
    assert_eq!(corrupt(0, b'X').err(), Some(RguError::NotRgu));
    assert_eq!(corrupt(3, 1).err(), Some(RguError::Version(1)));
    assert!(matches!(corrupt(4, 0xff).err(), Some(RguError::Truncated { .. })), "huge metadata length");
    assert!(matches!(corrupt(8, b'[').err(), Some(RguError::Metadata(_))), "broken JSON");
    assert!(matches!(corrupt(meta_end, 0xff).err(), Some(RguError::Truncated { .. })), "huge map count");
    assert!(matches!(corrupt(meta_end + 4, 0xff).err(), Some(RguError::Truncated { .. })), "huge entry count");
    assert!(matches!(corrupt(meta_end + 7, 0xbd).err(), Some(RguError::TrailingBytes(6))), "one entry fewer");
    assert!(matches!(corrupt(keys_at + 3, 0xff).err(), Some(RguError::Unsorted { map: 0, entry: 1 })), "keys out of order");
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(RguTable::parse(&longer).err(), Some(RguError::TrailingBytes(1)));
    let mut float = bytes.clone();
    let at = bytes.windows(9).position(|w| w == b"percent16").unwrap();
    float[at..at + 9].copy_from_slice(b"float3200");
    assert!(matches!(RguTable::parse(&float).err(), Some(RguError::ValueType(t)) if t == "float3200"));
}

#[test]
fn decode_key_rejects_non_positions_without_panicking() {
    let rules = finkel2();
    let layout = KeyLayout::new(&rules).unwrap();
    let mut ok = 0u32;
    for key in (0..1u64 << 29).step_by(1009).chain([u64::MAX, 1 << 28, 1 << 40]) {
        if layout.decode(key, &rules).is_ok() {
            ok += 1;
        }
    }
    assert!(ok > 0);
    // Both sides borne off; 3 light pieces in reserve; a shared-square rank past the last.
    let bad = |key: u64| matches!(decode_key(key, &rules), Err(RguError::Key { .. }));
    assert!(bad(0));
    assert!(bad(3 << 25));
    assert!(bad(885 << 6));
    // Three light pieces on its own squares with 2 pieces.
    assert!(bad(0b111 << 16));
    // A rule set the encoding cannot describe: a square holds several pieces.
    let v1_simple = Rules::builtin("v1-simple").unwrap();
    assert!(matches!(decode_key(0, &v1_simple), Err(RguError::Rules { .. })));
}
