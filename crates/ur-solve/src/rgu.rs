//! Reader for the peer library's `.rgu` solved tables (see `tests/peers/README.md`).
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
//! - `W` bits, the shared squares in board order: the rank of their contents
//!   (empty 0, dark 1, light 2; first square most significant) among all
//!   contents with at most `pieces` pieces of each side;
//! - `S` bits, light's own squares, as for dark;
//! - 3 bits, dark pieces in reserve; 3 bits, light pieces in reserve.
//!
//! Pieces borne off are the rest. For 2-piece Finkel: `S = 6` (path positions
//! 4, 3, 2, 1, 14, 13), `W = 10` (positions 5 to 12), 28 bits in all.

use serde_json::Value;
use ur_rules::{Rules, Side, State};

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

/// The key layout for one rule set, in key order.
struct Layout {
    pieces: u8,
    /// Path positions (the same for both sides) of the squares only one side
    /// visits, least significant bit first.
    safe: Vec<u8>,
    /// Path positions of the shared squares, most significant digit first.
    war: Vec<u8>,
    war_bits: u32,
}

impl Layout {
    fn new(rules: &Rules) -> Result<Layout, RguError> {
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
        // RoyalUr numbers tiles x + width * y, with x across from light's
        // side and y along the board: our column is y.
        let mut light_only = Vec::new();
        let mut war = Vec::new();
        for sq in 0..rules.squares().len() as u8 {
            let (l, d) = (rules.positions_on(Side::Light, sq), rules.positions_on(Side::Dark, sq));
            if l[1] != 0 || d[1] != 0 {
                return unsupported("a path visits a square twice".into());
            }
            if !rules.is_exclusive(sq) {
                return unsupported("a square holds several pieces".into());
            }
            let cell = rules.squares()[sq as usize];
            let order = (cell.col, rules.board.rows - 1 - cell.row);
            match (l[0], d[0]) {
                (0, _) => {}
                (p, 0) => light_only.push((order, p)),
                (p, q) if p == q => war.push((order, p)),
                _ => return unsupported("a shared square is at different path positions for the two sides".into()),
            }
        }
        light_only.sort_unstable();
        war.sort_unstable();
        if war.len() > 8 {
            return unsupported(format!("{} shared squares; this reader decodes at most 8 (one segment)", war.len()));
        }
        let war: Vec<u8> = war.into_iter().map(|(_, p)| p).collect();
        let max = ways(war.len(), pieces, pieces) - 1;
        // RoyalUr-Java's bit count, kept as is: it falls one short when `max` is a power of two.
        let mut war_bits = 1;
        while max > 1 << war_bits {
            war_bits += 1;
        }
        if max >= 1 << war_bits {
            return unsupported("the shared squares do not fit the encoding's bit count".into());
        }
        if 2 * light_only.len() as u32 + war_bits + 6 > 63 {
            return unsupported("the key would not fit 63 bits".into());
        }
        Ok(Layout { pieces, safe: light_only.into_iter().map(|(_, p)| p).collect(), war, war_bits })
    }
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// Fillings of `k` shared squares with at most `l` light and `d` dark pieces.
fn ways(k: usize, l: u8, d: u8) -> u64 {
    let mut total = 0;
    for i in 0..=usize::from(l).min(k) {
        for j in 0..=usize::from(d).min(k - i) {
            total += binomial(k, i) * binomial(k - i, j);
        }
    }
    total
}

/// The position a key stands for (light to move) under `rules`, which must
/// have the table's piece count (see [`RguTable::check_pieces`]).
///
/// # Errors
/// Rules the encoding cannot describe ([`RguError::Rules`]), or a key that
/// is not a position: bits beyond the layout, a shared-square rank out of
/// range, more pieces than the rules give, or both sides finished.
pub fn decode_key(key: u64, rules: &Rules) -> Result<State, RguError> {
    let layout = Layout::new(rules)?;
    let bad = |why: String| Err(RguError::Key { key, why });
    let s = layout.safe.len() as u32;
    let board_bits = 2 * s + layout.war_bits;
    if key >> (board_bits + 6) != 0 {
        return bad(format!("bits above bit {} are set", board_bits + 5));
    }
    let field = |at: u32, bits: u32| (key >> at) & ((1 << bits) - 1);
    let n = layout.pieces;
    let mut st = State::empty(Side::Light);
    let mut on_board = [0u8; 2];
    let mut put = |st: &mut State, side: Side, pos: u8| {
        on_board[side.index()] += 1;
        st.add_piece(rules, side, pos);
    };
    for (i, &pos) in layout.safe.iter().enumerate() {
        if field(i as u32, 1) == 1 {
            put(&mut st, Side::Dark, pos);
        }
        if field(s + layout.war_bits + i as u32, 1) == 1 {
            put(&mut st, Side::Light, pos);
        }
    }
    let mut rank = field(s, layout.war_bits);
    if rank >= ways(layout.war.len(), n, n) {
        return bad(format!("shared-square rank {rank} is out of range"));
    }
    let (mut light, mut dark) = (n, n);
    for (t, &pos) in layout.war.iter().enumerate() {
        let rest = layout.war.len() - t - 1;
        // Contents in rank order: empty, dark, light.
        let options =
            [(None, light, dark), (Some(Side::Dark), light, dark.wrapping_sub(1)), (Some(Side::Light), light.wrapping_sub(1), dark)];
        for (who, l, d) in options {
            if l > n || d > n {
                continue;
            }
            let count = ways(rest, l, d);
            if rank < count {
                if let Some(side) = who {
                    put(&mut st, side, pos);
                }
                (light, dark) = (l, d);
                break;
            }
            rank -= count;
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
