//! Reader and writer for the peer library's `.rgu` solved tables (see `tests/peers/README.md`).
//!
//! The format is RoyalUr-Java's lookup table, version 0, all integers
//! big-endian: `RGU`, a u8 version, a u32 metadata length, the metadata as
//! JSON, a u32 map count `m`, `m` u32 entry counts, every map's keys (u32,
//! strictly ascending), then every map's values. Map `i` holds the keys whose
//! upper 32 bits are `i`. Values are `percent16`: `v` stands for a light win
//! percentage of `v * 100 / 65535`, light to move, before it rolls.
//!
//! Keys follow RoyalUr-Java's `SimpleGameStateEncoding`, which only encodes
//! positions with light to move. From the least significant bit, with `S`
//! squares only light visits (as many only dark visits) and `W` bits of
//! shared squares:
//!
//! - `S` bits, dark's own squares: bit `i` set when dark has a piece on the
//!   `i`-th of them in board order (by column);
//! - `W` bits, the shared squares in board order, cut into segments of at
//!   most 8 (12 squares make two of 6), the first segment most significant:
//!   each segment's rank of its contents (empty 0, dark 1, light 2; first
//!   square most significant) among all contents with at most `pieces`
//!   pieces of each side;
//! - `S` bits, light's own squares, as for dark;
//! - 3 bits, dark pieces in reserve; 3 bits, light pieces in reserve.
//!
//! Pieces borne off are the rest. For 2-piece Finkel: `S = 6` (path positions
//! 4, 3, 2, 1, 14, 13), `W = 10` (positions 5 to 12), 28 bits in all. For
//! Blitz (the Masters path, 5 pieces): `S = 4`, `W = 2 x 10`, 34 bits, so
//! four maps.

use std::io::Write;

use rayon::slice::ParallelSliceMut;
use serde_json::Value;
use ur_rules::{Rules, Side, State};

use crate::Indexer;

/// The first bytes of every table.
pub const MAGIC: &[u8; 3] = b"RGU";
/// The only format version this reader knows.
pub const VERSION: u8 = 0;

/// Why a table or a key cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RguError {
    #[error("not an RGU table (it does not start with \"RGU\")")]
    NotRgu,
    #[error("RGU format version {0} is not supported; this reader knows version {VERSION}")]
    Version(u8),
    #[error("the table is truncated: {what} needs {need} bytes at offset {at}, but the file has {len}")]
    Truncated { what: &'static str, at: u64, need: u64, len: u64 },
    #[error("the table has {0} bytes after its last value")]
    TrailingBytes(u64),
    #[error("the table's metadata is not a JSON object: {0}")]
    Metadata(String),
    #[error("value type '{0}' is not supported; this reader knows percent16")]
    ValueType(String),
    #[error("map {map} has its keys out of order at entry {entry}")]
    Unsorted { map: u32, entry: u32 },
    #[error("the table is for {table} pieces a side, but the rules have {rules}")]
    Pieces { table: String, rules: u8 },
    #[error("'{rules}' cannot be decoded with the simple encoding: {why}")]
    Rules { rules: String, why: String },
    #[error("key {key:#x} is not a position: {why}")]
    Key { key: u64, why: String },
}

struct Map {
    keys: Vec<u32>,
    values: Vec<u16>,
}

/// A parsed `.rgu` table.
pub struct RguTable {
    pub metadata: Value,
    maps: Vec<Map>,
}

impl RguTable {
    /// Parses a whole table file.
    ///
    /// # Errors
    /// A foreign, truncated or padded file, an unknown version or value type,
    /// metadata that is not a JSON object, or keys out of order.
    pub fn parse(bytes: &[u8]) -> Result<RguTable, RguError> {
        let mut r = Reader { bytes, at: 0 };
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(RguError::NotRgu);
        }
        r.take(MAGIC.len() as u64, "the magic")?;
        let version = r.take(1, "the version")?[0];
        if version != VERSION {
            return Err(RguError::Version(version));
        }
        let meta_len = r.u32("the metadata length")?;
        let meta = r.take(u64::from(meta_len), "the metadata")?;
        let metadata: Value = serde_json::from_slice(meta).map_err(|e| RguError::Metadata(e.to_string()))?;
        if !metadata.is_object() {
            return Err(RguError::Metadata("it is not an object".into()));
        }
        match metadata.get("value_type") {
            None => {}
            Some(Value::String(s)) if s == "percent16" => {}
            Some(other) => return Err(RguError::ValueType(other.as_str().map_or_else(|| other.to_string(), str::to_string))),
        }
        let map_count = r.u32("the map count")?;
        let counts_bytes = r.take(4 * u64::from(map_count), "the entry counts")?;
        let counts: Vec<u32> = counts_bytes.chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]])).collect();
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        // Check the whole size before allocating anything the header asks for.
        let body = total.saturating_mul(6);
        let rest = (bytes.len() - r.at) as u64;
        if rest < body {
            return Err(RguError::Truncated { what: "the keys and values", at: r.at as u64, need: body, len: bytes.len() as u64 });
        }
        if rest > body {
            return Err(RguError::TrailingBytes(rest - body));
        }
        let mut maps = Vec::with_capacity(counts.len());
        for (m, &n) in counts.iter().enumerate() {
            let raw = r.take(4 * u64::from(n), "the keys")?;
            let keys: Vec<u32> = raw.chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]])).collect();
            if let Some(i) = keys.windows(2).position(|w| w[0] >= w[1]) {
                return Err(RguError::Unsorted { map: m as u32, entry: i as u32 + 1 });
            }
            maps.push(Map { keys, values: Vec::new() });
        }
        for map in &mut maps {
            let raw = r.take(2 * map.keys.len() as u64, "the values")?;
            map.values = raw.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        }
        Ok(RguTable { metadata, maps })
    }

    /// Number of entries over all maps.
    pub fn len(&self) -> u64 {
        self.maps.iter().map(|m| m.keys.len() as u64).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every entry as `(key, value)`, in key order; a key's upper 32 bits are its map.
    pub fn entries(&self) -> impl Iterator<Item = (u64, u16)> + '_ {
        self.maps.iter().enumerate().flat_map(|(m, map)| {
            let upper = (m as u64) << 32;
            map.keys.iter().zip(&map.values).map(move |(&k, &v)| (upper | u64::from(k), v))
        })
    }

    /// The value stored for a key.
    pub fn get(&self, key: u64) -> Option<u16> {
        let map = self.maps.get(usize::try_from(key >> 32).ok()?)?;
        let i = map.keys.binary_search(&(key as u32)).ok()?;
        Some(map.values[i])
    }

    /// Pieces per side, from `game_settings.start_pieces` in the metadata.
    pub fn start_pieces(&self) -> Option<u8> {
        self.metadata.pointer("/game_settings/start_pieces")?.as_u64()?.try_into().ok()
    }

    /// Checks that the table's piece count is the rules'.
    ///
    /// # Errors
    /// [`RguError::Pieces`] when they differ or the metadata does not say.
    pub fn check_pieces(&self, rules: &Rules) -> Result<(), RguError> {
        match self.start_pieces() {
            Some(n) if n == rules.pieces() => Ok(()),
            other => Err(RguError::Pieces {
                table: other.map_or_else(|| "an unknown number of".into(), |n| n.to_string()),
                rules: rules.pieces(),
            }),
        }
    }
}

/// Light's win probability for a stored value (`v / 65535`).
pub fn light_win_probability(value: u16) -> f64 {
    f64::from(value) / 65535.0
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64, what: &'static str) -> Result<&'a [u8], RguError> {
        let rest = (self.bytes.len() - self.at) as u64;
        if n > rest {
            return Err(RguError::Truncated { what, at: self.at as u64, need: n, len: self.bytes.len() as u64 });
        }
        let s = &self.bytes[self.at..self.at + n as usize];
        self.at += n as usize;
        Ok(s)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, RguError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The key layout of one rule set, in key order: build it once to encode or
/// decode many keys.
pub struct KeyLayout {
    pieces: u8,
    /// Path positions (the same for both sides) of the squares only one side
    /// visits, least significant bit first.
    safe: Vec<u8>,
    /// The shared squares in board order: light's and dark's path position on
    /// each (they differ where the paths cross over, as on the Masters path).
    war: Vec<[u8; 2]>,
    /// Shared squares per segment; each segment is ranked on its own.
    seg_len: usize,
    seg_bits: u32,
    /// A segment's fillings in rank order, 2 bits a square (empty 0, dark 1,
    /// light 2), first square most significant.
    fillings: Vec<u16>,
    /// The rank of each filling, by its value; `u16::MAX` for none.
    rank: Vec<u16>,
}

impl KeyLayout {
    /// The layout of RoyalUr-Java's `SimpleGameStateEncoding` for these rules.
    ///
    /// # Errors
    /// [`RguError::Rules`] for rules the encoding cannot describe.
    pub fn new(rules: &Rules) -> Result<KeyLayout, RguError> {
        let unsupported = |why: String| Err(RguError::Rules { rules: rules.id().into(), why });
        let pieces = rules.pieces();
        if rules.named_pieces() {
            return unsupported("named pieces are not encoded".into());
        }
        if pieces == 0 || pieces > 7 {
            return unsupported(format!("{pieces} pieces a side; the encoding holds 1 to 7"));
        }
        for pos in 1..=rules.path_len() {
            if rules.board.mirror(rules.cell(Side::Light, pos)) != rules.cell(Side::Dark, pos) {
                return unsupported("the dark path must mirror the light path".into());
            }
        }
        let (safe, war) = match split_squares(rules) {
            Ok(split) => split,
            Err(why) => return unsupported(why),
        };
        if war.is_empty() {
            return unsupported("no shared squares".into());
        }
        let seg_len = segment_len(war.len());
        if war.len() % seg_len != 0 {
            return unsupported(format!("{} shared squares do not cut into equal segments", war.len()));
        }
        let (fillings, rank) = fillings(seg_len, pieces);
        let max = fillings.len() as u64 - 1;
        // RoyalUr-Java's bit count, kept as is: it falls one short when `max` is a power of two.
        let mut seg_bits = 1;
        while max > 1 << seg_bits {
            seg_bits += 1;
        }
        if max >= 1 << seg_bits {
            return unsupported("the shared squares do not fit the encoding's bit count".into());
        }
        let layout = KeyLayout { pieces, safe, war, seg_len, seg_bits, fillings, rank };
        if layout.key_bits() > 63 {
            return unsupported("the key would not fit 63 bits".into());
        }
        Ok(layout)
    }

    fn segments(&self) -> usize {
        self.war.len() / self.seg_len
    }

    fn board_bits(&self) -> u32 {
        2 * self.safe.len() as u32 + self.segments() as u32 * self.seg_bits
    }

    /// Bits in a key: the board, then 3 bits for each side's reserve.
    pub fn key_bits(&self) -> u32 {
        self.board_bits() + 6
    }

    /// Maps in a table: RoyalUr-Java keeps one per value of the key's bits
    /// above the lowest 32, even an empty one (Blitz's fourth).
    pub fn map_count(&self) -> u32 {
        1 << self.key_bits().saturating_sub(32)
    }

    /// The lowest bit of segment `j`'s rank; the first segment is the most significant.
    fn seg_shift(&self, j: usize) -> u32 {
        self.safe.len() as u32 + (self.segments() - 1 - j) as u32 * self.seg_bits
    }

    /// The key of a position with light to move: the inverse of [`KeyLayout::decode`].
    /// Positions with dark to move have no key; mirror them first.
    pub fn encode(&self, st: &State) -> u64 {
        debug_assert_eq!(st.to_move(), Side::Light, "keys are for positions with light to move");
        let on = |side: Side, pos: u8| st.count_at(side, pos) > 0;
        let board_bits = self.board_bits();
        let light_safe_at = board_bits - self.safe.len() as u32;
        let mut key = u64::from(st.reserve(Side::Dark)) << board_bits | u64::from(st.reserve(Side::Light)) << (board_bits + 3);
        for (i, &pos) in self.safe.iter().enumerate() {
            key |= u64::from(on(Side::Dark, pos)) << i;
            key |= u64::from(on(Side::Light, pos)) << (light_safe_at + i as u32);
        }
        for (j, seg) in self.war.chunks(self.seg_len).enumerate() {
            let raw = seg.iter().fold(0, |raw, &[l, d]| raw << 2 | if on(Side::Light, l) { 2 } else { usize::from(on(Side::Dark, d)) });
            debug_assert_ne!(self.rank[raw], u16::MAX, "more pieces on the shared squares than the rules give");
            key |= u64::from(self.rank[raw]) << self.seg_shift(j);
        }
        key
    }

    /// The position a key stands for (light to move) under `rules`, the rules
    /// this layout was built for.
    ///
    /// # Errors
    /// [`RguError::Key`] for a key that is not a position: bits beyond the
    /// layout, a shared-square rank out of range, more pieces than the rules
    /// give, or both sides finished.
    pub fn decode(&self, key: u64, rules: &Rules) -> Result<State, RguError> {
        let bad = |why: String| Err(RguError::Key { key, why });
        let board_bits = self.board_bits();
        if key >> (board_bits + 6) != 0 {
            return bad(format!("bits above bit {} are set", board_bits + 5));
        }
        let field = |at: u32, bits: u32| (key >> at) & ((1 << bits) - 1);
        let light_safe_at = board_bits - self.safe.len() as u32;
        let n = self.pieces;
        let mut st = State::empty(Side::Light);
        let mut on_board = [0u8; 2];
        let mut put = |st: &mut State, side: Side, pos: u8| {
            on_board[side.index()] += 1;
            st.add_piece(rules, side, pos);
        };
        for (i, &pos) in self.safe.iter().enumerate() {
            if field(i as u32, 1) == 1 {
                put(&mut st, Side::Dark, pos);
            }
            if field(light_safe_at + i as u32, 1) == 1 {
                put(&mut st, Side::Light, pos);
            }
        }
        for (j, seg) in self.war.chunks(self.seg_len).enumerate() {
            let rank = field(self.seg_shift(j), self.seg_bits);
            let Some(&raw) = self.fillings.get(rank as usize) else {
                return bad(format!("shared-square rank {rank} is out of range"));
            };
            for (t, &[l, d]) in seg.iter().enumerate() {
                match (raw >> (2 * (seg.len() - 1 - t))) & 3 {
                    1 => put(&mut st, Side::Dark, d),
                    2 => put(&mut st, Side::Light, l),
                    _ => {}
                }
            }
        }
        let reserve = [field(board_bits + 3, 3) as u8, field(board_bits, 3) as u8];
        for side in Side::BOTH {
            let (r, b) = (reserve[side.index()], on_board[side.index()]);
            let Some(off) = n.checked_sub(r).and_then(|x| x.checked_sub(b)) else {
                return bad(format!("{side} has {r} in reserve and {b} on the board, but only {n} pieces"));
            };
            st.set_counts(side, r, off);
        }
        if st.off(Side::Light) == n && st.off(Side::Dark) == n {
            return bad("both sides have borne off every piece".into());
        }
        Ok(st)
    }
}

/// The path positions of the squares only light visits, and of the shared
/// squares (light's, dark's), each in RoyalUr's board order.
fn split_squares(rules: &Rules) -> Result<(Vec<u8>, Vec<[u8; 2]>), String> {
    let mut light_only = Vec::new();
    let mut war = Vec::new();
    for sq in 0..rules.squares().len() as u8 {
        let (l, d) = (rules.positions_on(Side::Light, sq), rules.positions_on(Side::Dark, sq));
        if l[1] != 0 || d[1] != 0 {
            return Err("a path visits a square twice".into());
        }
        if !rules.is_exclusive(sq) {
            return Err("a square holds several pieces".into());
        }
        // RoyalUr numbers tiles x + width * y, with x across from light's
        // side and y along the board: our column is y.
        let cell = rules.squares()[sq as usize];
        let order = (cell.col, rules.board.rows - 1 - cell.row);
        match (l[0], d[0]) {
            (0, _) => {}
            (p, 0) => light_only.push((order, p)),
            (p, q) => war.push((order, [p, q])),
        }
    }
    light_only.sort_unstable();
    war.sort_unstable();
    Ok((light_only.into_iter().map(|(_, p)| p).collect(), war.into_iter().map(|(_, w)| w).collect()))
}

/// Shared squares per segment, as RoyalUr-Java's
/// `estimateGoodWarTileCompressionTileCount` picks them: the fewest segments
/// of at most 8 squares, split evenly (8 squares: one; 12: two of 6).
fn segment_len(war: usize) -> usize {
    war.div_ceil(war.div_ceil(8))
}

/// The fillings of a `len`-square segment with at most `pieces` of each
/// side, in rank order, and the rank of each filling. With the first square
/// the most significant base-4 digit, numeric order is RoyalUr-Java's rank
/// order (a depth-first walk: empty, dark, light).
fn fillings(len: usize, pieces: u8) -> (Vec<u16>, Vec<u16>) {
    let count = |raw: u32, digit: u32| (0..len).filter(|i| (raw >> (2 * i)) & 3 == digit).count();
    let fits = |raw: u32| count(raw, 3) == 0 && count(raw, 1) <= usize::from(pieces) && count(raw, 2) <= usize::from(pieces);
    let fillings: Vec<u16> = (0..1u32 << (2 * len)).filter(|&raw| fits(raw)).map(|raw| raw as u16).collect();
    let mut rank = vec![u16::MAX; 1 << (2 * len)];
    for (i, &raw) in fillings.iter().enumerate() {
        rank[usize::from(raw)] = i as u16;
    }
    (fillings, rank)
}

/// The position a key stands for (light to move) under `rules`, which must
/// have the table's piece count (see [`RguTable::check_pieces`]). Builds the
/// layout each call: for many keys, use [`KeyLayout::decode`].
///
/// # Errors
/// Rules the encoding cannot describe ([`RguError::Rules`]), or a key that
/// is not a position (see [`KeyLayout::decode`]).
pub fn decode_key(key: u64, rules: &Rules) -> Result<State, RguError> {
    KeyLayout::new(rules)?.decode(key, rules)
}

/// Every key a RoyalUr-Java table for these rules holds, ascending: each
/// position of our index with light to move, and the positions light has
/// already won, which the table keeps (at 100 %) and our index leaves out.
///
/// # Errors
/// [`RguError::Rules`] for rules the encoding cannot describe.
pub fn table_keys(rules: &Rules, index: &Indexer) -> Result<Vec<u64>, RguError> {
    let layout = KeyLayout::new(rules)?;
    let mut keys = Vec::with_capacity(index.len() as usize);
    for layer in index.layers() {
        let all = (layer.start, layer.start + layer.len);
        index.for_each_desc(rules, layer, all, Side::Light, |_, st| keys.push(layout.encode(&st)));
    }
    keys.extend(light_won(rules).map(|st| layout.encode(&st)));
    keys.par_sort_unstable();
    Ok(keys)
}

/// The positions light has won, light to move: dark's pieces on any squares
/// of its path (each square holds one piece), the rest in reserve or off,
/// but not all off.
fn light_won(rules: &Rules) -> impl Iterator<Item = State> + '_ {
    let (n, len) = (rules.pieces(), rules.path_len());
    let masks = (0..1u32 << len).filter(move |mask| mask.count_ones() <= u32::from(n));
    masks.flat_map(move |mask| {
        let board = mask.count_ones() as u8;
        (0..=n - board).filter(move |&off| off < n).map(move |off| {
            let mut st = State::empty(Side::Light);
            for pos in (1..=len).filter(|p| (mask >> (p - 1)) & 1 == 1) {
                st.add_piece(rules, Side::Dark, pos);
            }
            st.set_counts(Side::Light, 0, n);
            st.set_counts(Side::Dark, n - board - off, off);
            st
        })
    })
}

/// Writes a table that [`RguTable::parse`] reads back: `keys` strictly
/// ascending, `values[i]` the value of `keys[i]`, in `maps` maps (see
/// [`KeyLayout::map_count`]). The metadata is written compact, as
/// RoyalUr-Java writes it: readers match on strings such as `"start_pieces":7`.
///
/// # Errors
/// Keys out of order or past the last map, not one value per key, or a write error.
pub fn write(out: &mut dyn Write, metadata: &Value, maps: u32, keys: &[u64], values: &[u16]) -> std::io::Result<()> {
    let invalid = |why: &str| Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_string()));
    if values.len() != keys.len() {
        return invalid("a table needs one value per key");
    }
    if keys.windows(2).any(|w| w[0] >= w[1]) {
        return invalid("a table's keys must be strictly ascending");
    }
    if keys.last().is_some_and(|&k| k >> 32 >= u64::from(maps)) {
        return invalid("a key is past the table's last map");
    }
    let meta = serde_json::to_vec(metadata)?;
    out.write_all(MAGIC)?;
    out.write_all(&[VERSION])?;
    out.write_all(&(meta.len() as u32).to_be_bytes())?;
    out.write_all(&meta)?;
    out.write_all(&maps.to_be_bytes())?;
    // Keys are sorted, so each map's keys are one run.
    let starts: Vec<usize> = (0..=u64::from(maps)).map(|m| keys.partition_point(|&k| k >> 32 < m)).collect();
    for run in starts.windows(2) {
        out.write_all(&((run[1] - run[0]) as u32).to_be_bytes())?;
    }
    write_buffered(out, keys.iter().map(|&k| (k as u32).to_be_bytes()))?;
    write_buffered(out, values.iter().map(|v| v.to_be_bytes()))
}

/// Writes small items a megabyte at a time rather than one call each.
fn write_buffered<const N: usize>(out: &mut dyn Write, items: impl Iterator<Item = [u8; N]>) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 20);
    for item in items {
        buf.extend_from_slice(&item);
        if buf.len() >= 1 << 20 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::{OptionValue, Options};

    /// RoyalUr-Java's own 2-piece Finkel table.
    const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/peers/royalur-java-finkel2p.rgu");

    fn rules(id: &str, pieces: i64) -> Rules {
        Rules::builtin_with(id, &Options::from([("pieces".to_string(), OptionValue::Int(pieces))])).unwrap()
    }

    fn written(rules: &Rules, metadata: &Value) -> (Vec<u64>, RguTable) {
        let keys = table_keys(rules, &Indexer::new(rules).unwrap()).unwrap();
        let maps = KeyLayout::new(rules).unwrap().map_count();
        let mut bytes = Vec::new();
        write(&mut bytes, metadata, maps, &keys, &vec![32768; keys.len()]).unwrap();
        (keys, RguTable::parse(&bytes).unwrap())
    }

    #[test]
    fn written_finkel2p_table_has_the_peer_tables_keys() {
        let rules = rules("finkel", 2);
        let metadata = serde_json::json!({"value_type": "percent16", "game_settings": {"paths": "bell", "start_pieces": 2}});
        let (keys, ours) = written(&rules, &metadata);
        let peer = RguTable::parse(&std::fs::read(PEER).unwrap()).unwrap();
        assert_eq!(ours.metadata, metadata);
        ours.check_pieces(&rules).unwrap();
        assert_eq!(ours.maps.len(), peer.maps.len());
        assert!(ours.entries().map(|(k, _)| k).eq(peer.entries().map(|(k, _)| k)), "the peer's keys, in its order");
        assert!(ours.entries().all(|(_, v)| v == 32768));
        let layout = KeyLayout::new(&rules).unwrap();
        assert!(keys.iter().all(|&k| layout.encode(&layout.decode(k, &rules).unwrap()) == k));
    }

    /// Blitz's Masters path: 12 shared squares in two segments, some at
    /// different path positions for the two sides.
    #[test]
    fn blitz_keys_are_two_segments_and_round_trip() {
        let full = KeyLayout::new(&Rules::builtin("blitz").unwrap()).unwrap();
        assert_eq!((full.war.len(), full.seg_len, full.seg_bits, full.key_bits(), full.map_count()), (12, 6, 10, 34, 4));
        let rules = rules("blitz", 2);
        let (keys, table) = written(&rules, &serde_json::json!({}));
        let index_len = Indexer::new(&rules).unwrap().len();
        assert_eq!(table.len(), index_len + light_won(&rules).count() as u64);
        let layout = KeyLayout::new(&rules).unwrap();
        for &k in &keys {
            let st = layout.decode(k, &rules).unwrap();
            rules.validate(&st.to_setup(&rules)).unwrap();
            assert_eq!(layout.encode(&st), k);
        }
    }

    #[test]
    fn write_refuses_keys_it_cannot_store() {
        let write_keys = |maps, keys: &[u64]| write(&mut Vec::new(), &serde_json::json!({}), maps, keys, &vec![0; keys.len()]);
        assert!(write_keys(1, &[1, 2]).is_ok());
        assert!(write_keys(1, &[2, 1]).is_err(), "out of order");
        assert!(write_keys(1, &[1, 1]).is_err(), "repeated");
        assert!(write_keys(1, &[1 << 32]).is_err(), "past the last map");
        assert!(write(&mut Vec::new(), &serde_json::json!({}), 1, &[1], &[]).is_err(), "no value");
    }
}
