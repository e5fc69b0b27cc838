//! The general index scheme (`slots-v1`): any race board, shared squares
//! with piece counts and paths that visit a square twice included.
//!
//! The board is cut into *slots*, one per physical square, each with a small
//! alphabet of *contents* (empty, one of my pieces at a path position, one of
//! the opponent's, or piece counts on a shared square). Within a layer a
//! position is ranked by its slot contents with a mixed-radix count that
//! respects the piece budgets, so every index is a valid position.

use ur_rules::{Rules, Side, State};

use crate::index::MAX_PIECES;

const B: usize = MAX_PIECES + 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Content {
    me_pos: u8,
    opp_pos: u8,
    me_n: u8,
    opp_n: u8,
}

#[derive(Clone, Debug)]
struct Slot {
    /// My path positions on this square (0 = none).
    me: [u8; 2],
    opp: [u8; 2],
    shared: bool,
    contents: Vec<Content>,
    /// Offset of this slot's contents in `prefix`.
    base: usize,
}

/// What [`Indexer::rank`] needs of a slot, packed for speed.
#[derive(Clone, Copy, Debug, Default)]
struct FastSlot {
    /// Path positions to test (31, never occupied, for none).
    me: [u8; 2],
    opp: [u8; 2],
    shared: bool,
    /// Shared squares: number of opposing counts (n + 1, or 1 when the opponent cannot be here).
    opp_range: u8,
    base: u16,
    /// Exclusive squares: content by occupancy bits `me0 | me1 << 1 | opp0 << 2 | opp1 << 3`.
    lut: [u8; 16],
}

/// Ranks and unranks positions within a layer, slot by slot.
#[derive(Clone, Debug)]
pub(crate) struct SlotIndex {
    fast: Vec<FastSlot>,
    slots: Vec<Slot>,
    /// Pieces used by each content, by global content number `base + c`.
    me_n: Vec<u8>,
    opp_n: Vec<u8>,
    /// `prefix[((base + c) * B + m) * B + o]`: fillings of this slot and the
    /// ones after it that put a smaller content here, with budgets `m`, `o`.
    prefix: Vec<u64>,
    /// `ways[k][m][o]`: fillings of slots `k..` with at most `m` of my pieces
    /// and `o` of the opponent's.
    ways: Vec<[[u64; B]; B]>,
}

impl SlotIndex {
    pub(crate) fn new(rules: &Rules) -> SlotIndex {
        let n = rules.pieces();
        let mut slots = build_slots(rules);
        let mut prefix = Vec::new();
        let mut ways = vec![[[0u64; B]; B]; slots.len() + 1];
        ways[slots.len()] = [[1; B]; B];
        for k in (0..slots.len()).rev() {
            let slot = &mut slots[k];
            slot.base = prefix.len() / (B * B);
            let mut block = vec![0u64; slot.contents.len() * B * B];
            for m in 0..B {
                for o in 0..B {
                    let mut acc = 0u64;
                    for (c, content) in slot.contents.iter().enumerate() {
                        block[(c * B + m) * B + o] = acc;
                        if usize::from(content.me_n) <= m && usize::from(content.opp_n) <= o {
                            acc += ways[k + 1][m - usize::from(content.me_n)][o - usize::from(content.opp_n)];
                        }
                    }
                    ways[k][m][o] = acc;
                }
            }
            prefix.extend(block);
        }
        let fast = slots.iter().map(|s| fast_slot(s, n)).collect();
        let mut me_n = vec![0; prefix.len() / (B * B)];
        let mut opp_n = me_n.clone();
        for slot in &slots {
            for (c, content) in slot.contents.iter().enumerate() {
                me_n[slot.base + c] = content.me_n;
                opp_n[slot.base + c] = content.opp_n;
            }
        }
        SlotIndex { fast, slots, me_n, opp_n, prefix, ways }
    }

    /// Positions with at most `m` of my pieces and `o` of the opponent's on the board.
    pub(crate) fn layer_len(&self, m: u8, o: u8) -> u64 {
        self.ways[0][usize::from(m)][usize::from(o)]
    }

    #[inline]
    pub(crate) fn rank(&self, st: &State, m: u8, o: u8) -> u64 {
        let me = st.to_move();
        let opp = me.other();
        let (mut m, mut o) = (usize::from(m), usize::from(o));
        let (mine, theirs) = (st.occupied_positions(me), st.occupied_positions(opp));
        let mut idx = 0;
        for slot in &self.fast {
            let g = usize::from(slot.base) + fast_content(slot, st, me, opp, mine, theirs);
            idx += self.prefix[(g * B + m) * B + o];
            m -= usize::from(self.me_n[g]);
            o -= usize::from(self.opp_n[g]);
        }
        idx
    }

    /// Places the pieces of the position ranked `r`; returns the pieces left (mine, theirs).
    pub(crate) fn unrank(&self, rules: &Rules, mut r: u64, m: u8, o: u8, st: &mut State) -> (u8, u8) {
        let (me, opp) = (st.to_move(), st.to_move().other());
        let (mut m, mut o) = (usize::from(m), usize::from(o));
        for slot in &self.slots {
            let row = |c: usize| self.prefix[((slot.base + c) * B + m) * B + o];
            let c = (0..slot.contents.len()).rev().find(|&c| row(c) <= r).expect("content 0 starts at 0");
            r -= row(c);
            let content = slot.contents[c];
            for _ in 0..content.me_n {
                st.add_piece(rules, me, content.me_pos);
            }
            for _ in 0..content.opp_n {
                st.add_piece(rules, opp, content.opp_pos);
            }
            m -= usize::from(content.me_n);
            o -= usize::from(content.opp_n);
        }
        (m as u8, o as u8)
    }
}

#[inline(always)]
fn fast_content(slot: &FastSlot, st: &State, me: Side, opp: Side, mine: u32, theirs: u32) -> usize {
    if slot.shared {
        let cm = usize::from(st.count_at(me, slot.me[0] & 31)) * usize::from(slot.me[0] != 31);
        let co = usize::from(st.count_at(opp, slot.opp[0] & 31)) * usize::from(slot.opp[0] != 31);
        return cm * usize::from(slot.opp_range) + co;
    }
    let bit = |mask: u32, pos: u8| (mask >> pos) as usize & 1;
    let key = bit(mine, slot.me[0]) | bit(mine, slot.me[1]) << 1 | bit(theirs, slot.opp[0]) << 2 | bit(theirs, slot.opp[1]) << 3;
    usize::from(slot.lut[key])
}

fn fast_slot(slot: &Slot, n: u8) -> FastSlot {
    let pos = |p: u8| if p == 0 { 31 } else { p };
    let mut f = FastSlot {
        me: slot.me.map(pos),
        opp: slot.opp.map(pos),
        shared: slot.shared,
        opp_range: if slot.opp[0] != 0 { n + 1 } else { 1 },
        base: u16::try_from(slot.base).expect("fewer than 65536 contents"),
        lut: [0; 16],
    };
    if !slot.shared {
        for key in 1..16usize {
            let target = match key.trailing_zeros() {
                0 => Content { me_pos: slot.me[0], opp_pos: 0, me_n: 1, opp_n: 0 },
                1 => Content { me_pos: slot.me[1], opp_pos: 0, me_n: 1, opp_n: 0 },
                2 => Content { me_pos: 0, opp_pos: slot.opp[0], me_n: 0, opp_n: 1 },
                _ => Content { me_pos: 0, opp_pos: slot.opp[1], me_n: 0, opp_n: 1 },
            };
            f.lut[key] = slot.contents.iter().position(|c| *c == target).unwrap_or(0) as u8;
        }
    }
    f
}

/// One slot per square, from the light side's point of view (the dark side's
/// view is the mirror image, so the same slots serve both). Squares near the
/// end of the paths come first, so that advancing a piece raises the index.
fn build_slots(rules: &Rules) -> Vec<Slot> {
    let n = rules.pieces();
    let mut slots: Vec<Slot> = (0..rules.squares().len() as u8)
        .map(|sq| {
            let me = rules.positions_on(Side::Light, sq);
            let opp = rules.positions_on(Side::Dark, sq);
            let shared = !rules.is_exclusive(sq);
            Slot { me, opp, shared, contents: contents(me, opp, shared, n), base: 0 }
        })
        .collect();
    slots.sort_by_key(|s| std::cmp::Reverse(s.me.iter().chain(&s.opp).copied().max()));
    slots
}

fn contents(me: [u8; 2], opp: [u8; 2], shared: bool, n: u8) -> Vec<Content> {
    let none = Content { me_pos: 0, opp_pos: 0, me_n: 0, opp_n: 0 };
    if shared {
        let max_me = if me[0] != 0 { n } else { 0 };
        let max_opp = if opp[0] != 0 { n } else { 0 };
        return (0..=max_me)
            .flat_map(|cm| (0..=max_opp).map(move |co| Content { me_pos: me[0], opp_pos: opp[0], me_n: cm, opp_n: co }))
            .collect();
    }
    let mut c = vec![none];
    c.extend(me.iter().filter(|&&p| p != 0).map(|&p| Content { me_pos: p, me_n: 1, ..none }));
    c.extend(opp.iter().filter(|&&p| p != 0).map(|&p| Content { opp_pos: p, opp_n: 1, ..none }));
    c
}
