//! A perfect index of race positions, seen from the side to move.
//!
//! Positions are grouped in *layers* by pieces borne off `(mine, theirs)`;
//! within a layer each scheme numbers positions without gaps, so every index
//! is a valid position. Two schemes exist: `bits-v1` ([`crate::bits`]), fast,
//! for boards whose squares hold one piece and whose paths visit a square
//! once; and `slots-v1` ([`crate::slots`]) for everything else.

use ur_rules::{Rules, Side, State};

use crate::bits::{self, BitIndex};
use crate::slots::SlotIndex;
use crate::SolveError;

/// Most pieces per side the index supports.
pub const MAX_PIECES: usize = 15;
const B: usize = MAX_PIECES + 1;

#[derive(Clone, Debug)]
enum Scheme {
    Bits(Box<BitIndex>),
    Slots(Box<SlotIndex>),
}

/// Ranks and unranks positions of one rule set.
#[derive(Clone, Debug)]
pub struct Indexer {
    pieces: u8,
    scheme: Scheme,
    /// Layers `(mine off, theirs off)` in solving order, with their first index.
    layers: Vec<Layer>,
    layer_of: [[usize; B]; B],
    total: u64,
}

/// Positions with the same pieces borne off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Pieces borne off by the side to move.
    pub mine: u8,
    /// Pieces borne off by the opponent.
    pub theirs: u8,
    pub start: u64,
    pub len: u64,
}

impl Layer {
    /// The layer's indices, for slicing the values.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// The name of the scheme [`Indexer::new`] uses for these rules.
pub fn scheme_for(rules: &Rules) -> &'static str {
    if bits::applies(rules) {
        "bits-v1"
    } else {
        "slots-v1"
    }
}

impl Indexer {
    /// Builds the index for a rule set.
    ///
    /// # Errors
    /// Rules the index cannot describe: named pieces, asymmetric paths, a
    /// shared square visited twice, or more than [`MAX_PIECES`] pieces.
    pub fn new(rules: &Rules) -> Result<Indexer, SolveError> {
        check_supported(rules)?;
        let scheme = if bits::applies(rules) {
            Scheme::Bits(Box::new(BitIndex::new(rules)))
        } else {
            Scheme::Slots(Box::new(SlotIndex::new(rules)))
        };
        let mut idx = Indexer { pieces: rules.pieces(), scheme, layers: Vec::new(), layer_of: [[usize::MAX; B]; B], total: 0 };
        idx.build_layers();
        Ok(idx)
    }

    /// The `bits-v1` scheme, when the index uses it.
    pub(crate) fn bits(&self) -> Option<&BitIndex> {
        match &self.scheme {
            Scheme::Bits(b) => Some(b),
            Scheme::Slots(_) => None,
        }
    }

    /// `bits-v1` or `slots-v1`.
    pub fn scheme(&self) -> &'static str {
        match self.scheme {
            Scheme::Bits(_) => "bits-v1",
            Scheme::Slots(_) => "slots-v1",
        }
    }

    fn layer_len(&self, m: u8, o: u8) -> u64 {
        match &self.scheme {
            Scheme::Bits(b) => b.layer_len(m, o),
            Scheme::Slots(s) => s.layer_len(m, o),
        }
    }

    fn build_layers(&mut self) {
        let n = self.pieces;
        let mut start = 0u64;
        // A layer and its mirror are adjacent: the solver sweeps them together.
        for sum in (0..=2 * (n - 1)).rev() {
            for low in 0..=sum / 2 {
                let high = sum - low;
                if high >= n {
                    continue;
                }
                let pair = if low == high { vec![(low, high)] } else { vec![(low, high), (high, low)] };
                for (mine, theirs) in pair {
                    let len = self.layer_len(n - mine, n - theirs);
                    self.layer_of[usize::from(mine)][usize::from(theirs)] = self.layers.len();
                    self.layers.push(Layer { mine, theirs, start, len });
                    start += len;
                }
            }
        }
        self.total = start;
    }

    /// Number of indexed positions (the side to move has not won, nor has the opponent).
    pub fn len(&self) -> u64 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    pub fn pieces(&self) -> u8 {
        self.pieces
    }

    /// Every layer, in solving order (most pieces borne off first).
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The layer of positions with these pieces borne off.
    pub fn layer(&self, mine: u8, theirs: u8) -> Layer {
        self.layers[self.layer_of[usize::from(mine)][usize::from(theirs)]]
    }

    /// The index of a position, seen from its side to move.
    ///
    /// # Panics
    /// If either side has borne off every piece (such positions are not indexed).
    #[inline]
    pub fn rank(&self, st: &State) -> u64 {
        let me = st.to_move();
        let (a, b) = (st.off(me), st.off(me.other()));
        let start = self.layers[self.layer_of[usize::from(a)][usize::from(b)]].start;
        let (m, o) = (self.pieces - a, self.pieces - b);
        start
            + match &self.scheme {
                Scheme::Bits(x) => x.rank(st, m, o),
                Scheme::Slots(x) => x.rank(st, m, o),
            }
    }

    /// The position at an index, with `to_move` as the side to move.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn unrank(&self, rules: &Rules, index: u64, to_move: Side) -> State {
        let layer = self.layers[self.layers.partition_point(|l| l.start + l.len <= index)];
        let (m, o) = (self.pieces - layer.mine, self.pieces - layer.theirs);
        let mut st = State::empty(to_move);
        let r = index - layer.start;
        let (left_me, left_opp) = match &self.scheme {
            Scheme::Bits(x) => x.unrank(rules, r, m, o, &mut st),
            Scheme::Slots(x) => x.unrank(rules, r, m, o, &mut st),
        };
        st.set_counts(to_move, left_me, layer.mine);
        st.set_counts(to_move.other(), left_opp, layer.theirs);
        st
    }
}

impl Indexer {
    /// Calls `f` with every index in `lo..hi` (all in `layer`), highest
    /// first, and its position with `to_move` to move; faster than
    /// [`Indexer::unrank`] on each.
    pub fn for_each_desc(&self, rules: &Rules, layer: &Layer, (lo, hi): (u64, u64), to_move: Side, mut f: impl FnMut(u64, State)) {
        let (m, o) = (self.pieces - layer.mine, self.pieces - layer.theirs);
        let Scheme::Bits(bits) = &self.scheme else {
            (lo..hi).rev().for_each(|i| f(i, self.unrank(rules, i, to_move)));
            return;
        };
        let (mine, theirs) = (layer.mine, layer.theirs);
        bits.for_each_desc(rules, (lo - layer.start, hi - layer.start), (m, o), to_move, |r, mut st| {
            st.set_counts(to_move, st.reserve(to_move), mine);
            st.set_counts(to_move.other(), st.reserve(to_move.other()), theirs);
            f(layer.start + r, st);
        });
    }
}

fn check_supported(rules: &Rules) -> Result<(), SolveError> {
    let unsupported = |why: String| Err(SolveError::Unsupported { rules: rules.id().into(), why });
    if rules.named_pieces() {
        return unsupported("named pieces are summoned by declarations the solver does not model".into());
    }
    if usize::from(rules.pieces()) > MAX_PIECES {
        return unsupported(format!("at most {MAX_PIECES} pieces per side"));
    }
    for pos in 1..=rules.path_len() {
        let (l, d) = (rules.cell(Side::Light, pos), rules.cell(Side::Dark, pos));
        if rules.board.mirror(l) != d || rules.kind(Side::Light, pos) != rules.kind(Side::Dark, pos) {
            return unsupported("the dark path must mirror the light path".into());
        }
    }
    for sq in 0..rules.squares().len() as u8 {
        let two = |s: Side| rules.positions_on(s, sq)[1] != 0;
        if !rules.is_exclusive(sq) && (two(Side::Light) || two(Side::Dark)) {
            return unsupported("a shared square on a path twice".into());
        }
    }
    Ok(())
}
