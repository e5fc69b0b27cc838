//! The fast index scheme (`bits-v1`) for boards where every square holds at
//! most one piece, no path visits a square twice, and each path begins with
//! private squares (every community rule set and most booklet ones).
//!
//! A position is cut in two. The *pattern* is the content of every square
//! past the private start squares, read as a mixed-radix number (a shared
//! square is a base-3 digit: empty, mine, theirs; a private one base 2), with
//! squares further along the paths more significant; it comes from two table
//! look-ups on the occupancy bits. The *start* is my and their private start
//! squares, each ranked among subsets by size then value. Within a layer,
//! `index = offset[pattern] + rank(my start) * starts(their budget) + rank(their start)`.

use ur_rules::{Rules, Side, State};

use crate::index::MAX_PIECES;

const B: usize = MAX_PIECES + 1;

#[derive(Clone, Debug)]
pub(crate) struct BitIndex {
    /// Path positions `1..=begin` are private to each side.
    begin: u8,
    begin_mask: u32,
    /// Pattern value of my pieces past the start, by `mask >> (begin + 1)`.
    pm: Vec<u32>,
    /// The same for the opponent's pieces (on the opponent's path).
    po: Vec<u32>,
    /// Per pattern: my and their occupancy bits past the start.
    pat_me: Vec<u32>,
    pat_opp: Vec<u32>,
    /// Start subsets ranked by size then value, and back.
    rb: Vec<u32>,
    rb_inv: Vec<u32>,
    /// `cb[k]`: start subsets with at most `k` pieces.
    cb: [u64; B],
    /// `off[(m * stride + o) * patterns + pattern]`: positions before this pattern in a layer with budgets `m`, `o`.
    off: Vec<u64>,
    /// Pieces per side plus one: the number of budgets.
    stride: usize,
}

/// The positions of a layer that share a pattern: they differ only in their
/// start squares, so a move of a piece past them leads, from each, to an
/// index affine in the two sides' start ranks.
pub(crate) struct Block {
    /// The pattern's pieces alone, the side to move set, nothing in reserve.
    pub(crate) pattern: State,
    /// The layer rank of the block's first position.
    pub(crate) first: u64,
    /// The block ranks to visit, `lo..hi`, from the top.
    pub(crate) ranks: (u64, u64),
    /// Opponent start subsets: block rank `r` is `mine * w + theirs`.
    pub(crate) w: u64,
    /// Pieces of the mover and the opponent not on the pattern's squares.
    pub(crate) budgets: (u8, u8),
}

/// A side's start squares in a block: their start rank and their
/// occupancy bits (bit `pos` for path position `pos`).
pub(crate) type Start = (u64, u32);

/// Whether the rules fit this scheme.
pub(crate) fn applies(rules: &Rules) -> bool {
    let exclusive = (0..rules.squares().len() as u8).all(|sq| rules.is_exclusive(sq));
    let once = (0..rules.squares().len() as u8).all(|sq| Side::BOTH.iter().all(|&s| rules.positions_on(s, sq)[1] == 0));
    let begin = private_start(rules);
    exclusive && once && begin >= 1 && rules.path_len() - begin <= 16
}

/// How many leading path positions only their own side visits.
fn private_start(rules: &Rules) -> u8 {
    (1..=rules.path_len()).take_while(|&p| rules.positions_on(Side::Dark, rules.square(Side::Light, p)) == [0, 0]).count() as u8
}

/// A square past the start: my and their path position on it (0 = none).
#[derive(Clone, Copy, Debug)]
struct Digit {
    me: u8,
    opp: u8,
}

impl Digit {
    fn radix(self) -> u32 {
        1 + u32::from(self.me != 0) + u32::from(self.opp != 0)
    }
    /// The digit value of an opposing piece here.
    fn opp_value(self) -> u32 {
        1 + u32::from(self.me != 0)
    }
}

impl BitIndex {
    pub(crate) fn new(rules: &Rules) -> BitIndex {
        let n = usize::from(rules.pieces());
        let begin = private_start(rules);
        let hs = begin + 1;
        let hi_bits = rules.path_len() - begin;
        let digits = build_digits(rules, begin);
        // Place values: the first digit is the most significant.
        let mut place = vec![1u32; digits.len()];
        for i in (0..digits.len().saturating_sub(1)).rev() {
            place[i] = place[i + 1] * digits[i + 1].radix();
        }
        let patterns = digits.first().map_or(1, |d| place[0] * d.radix()) as usize;
        let digit_of = |side: Side, pos: u8| {
            digits
                .iter()
                .position(|d| if side == Side::Light { d.me == pos } else { d.opp == pos })
                .expect("every position past the start is a digit")
        };
        let table = |side: Side| -> Vec<u32> {
            let value: Vec<u32> = (0..hi_bits)
                .map(|k| {
                    let i = digit_of(side, hs + k);
                    place[i] * if side == Side::Light { 1 } else { digits[i].opp_value() }
                })
                .collect();
            (0..1u32 << hi_bits).map(|bits| (0..hi_bits).filter(|&k| bits >> k & 1 == 1).map(|k| value[k as usize]).sum()).collect()
        };
        let (pm, po) = (table(Side::Light), table(Side::Dark));
        let (mut pat_me, mut pat_opp) = (vec![0u32; patterns], vec![0u32; patterns]);
        for (pat, (me, opp)) in pat_me.iter_mut().zip(pat_opp.iter_mut()).enumerate() {
            for (i, d) in digits.iter().enumerate() {
                let v = pat as u32 / place[i] % d.radix();
                if v == 1 && d.me != 0 {
                    *me |= 1 << (d.me - hs);
                } else if v != 0 {
                    *opp |= 1 << (d.opp - hs);
                }
            }
        }
        let mut starts: Vec<u32> = (0..1u32 << begin).collect();
        starts.sort_by_key(|&s| (s.count_ones(), s));
        let mut rb = vec![0u32; starts.len()];
        for (r, &s) in starts.iter().enumerate() {
            rb[s as usize] = r as u32;
        }
        let mut cb = [0u64; B];
        for (k, c) in cb.iter_mut().enumerate() {
            *c = starts.iter().filter(|s| s.count_ones() as usize <= k).count() as u64;
        }
        let mut idx = BitIndex {
            begin,
            begin_mask: (1 << begin) - 1,
            pm,
            po,
            pat_me,
            pat_opp,
            rb,
            rb_inv: starts,
            cb,
            off: Vec::new(),
            stride: n + 1,
        };
        idx.off = vec![0; (n + 1) * (n + 1) * patterns];
        for m in 0..=n {
            for o in 0..=n {
                let base = (m * idx.stride + o) * patterns;
                let mut acc = 0;
                for pat in 0..patterns {
                    idx.off[base + pat] = acc;
                    acc += idx.count(pat, m as u8, o as u8);
                }
            }
        }
        idx
    }

    fn patterns(&self) -> usize {
        self.pat_me.len()
    }

    /// Positions with this pattern in a layer with budgets `m`, `o`.
    fn count(&self, pat: usize, m: u8, o: u8) -> u64 {
        let (mu, ou) = (self.pat_me[pat].count_ones() as u8, self.pat_opp[pat].count_ones() as u8);
        if mu > m || ou > o {
            return 0;
        }
        self.cb[usize::from(m - mu)] * self.cb[usize::from(o - ou)]
    }

    pub(crate) fn layer_len(&self, m: u8, o: u8) -> u64 {
        let last = self.patterns() - 1;
        self.offsets(m, o)[last] + self.count(last, m, o)
    }

    fn offsets(&self, m: u8, o: u8) -> &[u64] {
        let base = (usize::from(m) * self.stride + usize::from(o)) * self.patterns();
        &self.off[base..base + self.patterns()]
    }

    #[inline(always)]
    pub(crate) fn rank(&self, st: &State, m: u8, o: u8) -> u64 {
        let me = st.to_move();
        self.rank_masks(st.occupied_positions(me), st.occupied_positions(me.other()), m, o)
    }

    /// The layer rank of the position whose mover's and opponent's path
    /// positions are the bits of `mm` and `om`, with budgets `m` and `o`.
    #[inline(always)]
    pub(crate) fn rank_masks(&self, mm: u32, om: u32, m: u8, o: u8) -> u64 {
        let hs = self.begin + 1;
        let (mh, oh) = ((mm >> hs) as usize, (om >> hs) as usize);
        let pat = (self.pm[mh] + self.po[oh]) as usize;
        let o_left = usize::from(o) - oh.count_ones() as usize;
        let off = self.off[(usize::from(m) * self.stride + usize::from(o)) * self.patterns() + pat];
        off + u64::from(self.rb[(mm >> 1 & self.begin_mask) as usize]) * self.cb[o_left]
            + u64::from(self.rb[(om >> 1 & self.begin_mask) as usize])
    }

    /// Places the pieces of the position ranked `r`; returns the pieces left (mine, theirs).
    pub(crate) fn unrank(&self, rules: &Rules, r: u64, m: u8, o: u8, st: &mut State) -> (u8, u8) {
        let offsets = self.offsets(m, o);
        let pat = offsets.partition_point(|&x| x <= r) - 1;
        let (placed_me, placed_opp) = self.place(rules, pat, r - offsets[pat], o, st);
        (m - placed_me, o - placed_opp)
    }

    /// Calls `f` with every layer rank in `lo..hi`, highest first, and its
    /// position (`to_move` to move), without searching for each pattern.
    pub(crate) fn for_each_desc(
        &self,
        rules: &Rules,
        (lo, hi): (u64, u64),
        (m, o): (u8, u8),
        to_move: Side,
        mut f: impl FnMut(u64, State),
    ) {
        for (pat, block, top) in self.blocks_desc((lo, hi), (m, o)) {
            for r in (lo.max(block)..top).rev() {
                let mut st = State::empty(to_move);
                let (placed_me, placed_opp) = self.place(rules, pat, r - block, o, &mut st);
                st.set_counts(to_move, m - placed_me, 0);
                st.set_counts(to_move.other(), o - placed_opp, 0);
                f(r, st);
            }
        }
    }

    /// The patterns whose blocks meet layer ranks `lo..hi`, highest first,
    /// with each block's first rank and the end of its ranks below `hi`.
    fn blocks_desc(&self, (lo, hi): (u64, u64), (m, o): (u8, u8)) -> impl Iterator<Item = (usize, u64, u64)> + '_ {
        let offsets = self.offsets(m, o);
        let last = offsets.partition_point(|&x| x < hi) - 1;
        let first = offsets.partition_point(|&x| x <= lo).saturating_sub(1);
        (first..=last).rev().map(move |pat| (pat, offsets[pat], hi.min(offsets[pat] + self.count(pat, m, o))))
    }

    /// Calls `f` with every pattern block that has layer ranks in `lo..hi`,
    /// highest first, as [`BitIndex::for_each_desc`] visits them.
    pub(crate) fn for_each_block_desc(
        &self,
        rules: &Rules,
        (lo, hi): (u64, u64),
        (m, o): (u8, u8),
        to_move: Side,
        mut f: impl FnMut(&Block),
    ) {
        let hs = self.begin + 1;
        for (pat, first, top) in self.blocks_desc((lo, hi), (m, o)) {
            if lo.max(first) < top {
                let mut pattern = State::empty(to_move);
                let (me, opp) = (self.pat_me[pat] << hs, self.pat_opp[pat] << hs);
                add_pieces(rules, &mut pattern, (me, opp));
                let w = self.start_width(pat, o);
                let budgets = (m - me.count_ones() as u8, o - opp.count_ones() as u8);
                f(&Block { pattern, first, ranks: (lo.max(first) - first, top - first), w, budgets });
            }
        }
    }

    /// The block ranks to visit, highest first, each with its start
    /// squares: the mover's and the opponent's start ranks and occupancy
    /// bits (rank `r` is `mine * w + theirs`, counted down without a
    /// division per position).
    #[inline(always)]
    pub(crate) fn starts_desc<'a>(&'a self, block: &Block) -> impl Iterator<Item = (u64, (Start, Start))> + 'a {
        let (lo, hi, w) = (block.ranks.0, block.ranks.1, block.w);
        let (mut me, mut opp) = (hi / w, hi % w);
        (lo..hi).rev().map(move |r| {
            if opp == 0 {
                (me, opp) = (me - 1, w - 1);
            } else {
                opp -= 1;
            }
            (r, ((me, self.rb_inv[me as usize] << 1), (opp, self.rb_inv[opp as usize] << 1)))
        })
    }

    /// The start rank of a side's start squares (bit `pos` for path
    /// position `pos`, other bits ignored).
    #[inline(always)]
    pub(crate) fn start_rank(&self, mask: u32) -> u64 {
        u64::from(self.rb[(mask >> 1 & self.begin_mask) as usize])
    }

    /// How many start subsets a side with `k` pieces off the pattern has:
    /// the weight of the mover's start rank.
    pub(crate) fn start_weight(&self, k: u8) -> u64 {
        self.cb[usize::from(k)]
    }

    /// Path positions `1..=begin` are each side's private start squares.
    pub(crate) fn begin(&self) -> u8 {
        self.begin
    }

    /// Places pattern `pat` and start rank `r`; returns the pieces placed (mine, theirs).
    fn place(&self, rules: &Rules, pat: usize, r: u64, o: u8, st: &mut State) -> (u8, u8) {
        let hs = self.begin + 1;
        let w = self.start_width(pat, o);
        let me_bits = self.pat_me[pat] << hs | self.rb_inv[(r / w) as usize] << 1;
        let opp_bits = self.pat_opp[pat] << hs | self.rb_inv[(r % w) as usize] << 1;
        add_pieces(rules, st, (me_bits, opp_bits));
        (me_bits.count_ones() as u8, opp_bits.count_ones() as u8)
    }

    /// The opponent's start subsets in pattern `pat`'s block with budget
    /// `o`: a block rank is `mine * width + theirs`.
    fn start_width(&self, pat: usize, o: u8) -> u64 {
        self.cb[usize::from(o) - self.pat_opp[pat].count_ones() as usize]
    }
}

/// Adds pieces at the path positions of the bits of `mine` (the side to
/// move's) and `theirs`.
fn add_pieces(rules: &Rules, st: &mut State, (mine, theirs): (u32, u32)) {
    for (side, mut bits) in [(st.to_move(), mine), (st.to_move().other(), theirs)] {
        while bits != 0 {
            st.add_piece(rules, side, bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
    }
}

/// The squares past the start, most significant first: squares further
/// along either path first.
fn build_digits(rules: &Rules, begin: u8) -> Vec<Digit> {
    let mut digits: Vec<Digit> = Vec::new();
    for side in Side::BOTH {
        for pos in begin + 1..=rules.path_len() {
            let sq = rules.square(side, pos);
            let [me, _] = rules.positions_on(Side::Light, sq);
            let [opp, _] = rules.positions_on(Side::Dark, sq);
            if !digits.iter().any(|d| d.me == me && d.opp == opp) {
                digits.push(Digit { me, opp });
            }
        }
    }
    digits.sort_by_key(|d| (std::cmp::Reverse(d.me.max(d.opp)), std::cmp::Reverse(d.me)));
    digits
}
