//! Feature encoders: a position as the network's input, from the side to
//! move's point of view (`docs/bots.md`, "The network's inputs").
//!
//! The race encoding, per side (the mover first, then its opponent):
//! - for each position `p` of the side's path, `1` if it holds a piece and
//!   the pieces beyond the first divided by the number of pieces;
//! - pieces waiting and pieces borne off, each divided by the number of pieces.
//!
//! then the hand-chosen features of the linear evaluation
//! ([`crate::eval::feature_names`]: expected turns to finish, contact,
//! danger, ...), then the throw's rules: the chance of each move value
//! `1..=MAX_THROW`. The rules' part is the same in every position of a rule
//! set; it lets one network serve rule sets that differ only in their dice.

use std::sync::Arc;

use ur_rules::{Rules, Side, State};

use crate::chance::merged_throws;
use crate::eval::{Evaluator, NF};

/// Move values the dice inputs cover (`1..=MAX_THROW`).
pub const MAX_THROW: usize = 8;

/// The race encoder for one rule set.
#[derive(Clone, Debug)]
pub struct RaceEncoder {
    features: Evaluator,
    len: usize,
    inv_n: f32,
    dice: [f32; MAX_THROW],
}

impl RaceEncoder {
    pub fn new(rules: Arc<Rules>) -> RaceEncoder {
        let mut dice = [0.0; MAX_THROW];
        for (t, p) in merged_throws(&rules) {
            if (1..=MAX_THROW).contains(&usize::from(t.value)) {
                dice[usize::from(t.value) - 1] += p as f32;
            }
        }
        RaceEncoder {
            len: usize::from(rules.path_len()),
            inv_n: 1.0 / f32::from(rules.pieces()),
            features: Evaluator::new_unweighted(rules),
            dice,
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        self.features.rules()
    }

    /// The number of inputs.
    pub fn len(&self) -> usize {
        2 * (2 * self.len + 2) + NF + MAX_THROW
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Where each side's block starts, and the hand features and dice.
    fn side_block(&self, k: usize) -> usize {
        k * (2 * self.len + 2)
    }

    /// Writes the encoding of `st` into `out` (`out.len() == self.len()`).
    pub fn encode(&self, st: &State, out: &mut [f32]) {
        debug_assert_eq!(out.len(), self.len());
        out.fill(0.0);
        let me = st.to_move();
        for (k, side) in [me, me.other()].into_iter().enumerate() {
            let base = self.side_block(k);
            let mut mask = st.occupied_positions(side);
            while mask != 0 {
                let p = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if (1..=self.len).contains(&p) {
                    let c = f32::from(st.count_at(side, p as u8));
                    out[base + 2 * (p - 1)] = 1.0;
                    out[base + 2 * (p - 1) + 1] = (c - 1.0) * self.inv_n;
                }
            }
            out[base + 2 * self.len] = f32::from(st.reserve(side)) * self.inv_n;
            out[base + 2 * self.len + 1] = f32::from(st.off(side)) * self.inv_n;
        }
        let hand = self.side_block(2);
        let mut f = [0.0f64; NF];
        self.features.features(st, &mut f);
        for (o, v) in out[hand..hand + NF].iter_mut().zip(f) {
            *o = v as f32;
        }
        out[hand + NF..].copy_from_slice(&self.dice);
    }

    /// Reads back the board part of an encoding: for each side (light,
    /// dark), the count at every path position (index 0: waiting, `len + 1`:
    /// borne off), given the side to move. Inverts [`RaceEncoder::encode`]
    /// on the pieces (tests check it round-trips).
    pub fn decode_counts(&self, x: &[f32], to_move: Side) -> [Vec<u8>; 2] {
        let n = 1.0 / self.inv_n;
        let mut out = [vec![0u8; self.len + 2], vec![0u8; self.len + 2]];
        for (k, side) in [to_move, to_move.other()].into_iter().enumerate() {
            let base = self.side_block(k);
            let counts = &mut out[side.index()];
            for p in 1..=self.len {
                if x[base + 2 * (p - 1)] > 0.5 {
                    counts[p] = 1 + (x[base + 2 * (p - 1) + 1] * n).round() as u8;
                }
            }
            counts[0] = (x[base + 2 * self.len] * n).round() as u8;
            counts[self.len + 1] = (x[base + 2 * self.len + 1] * n).round() as u8;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use ur_rules::{Extra, RuleSetFile};

    use super::*;

    /// Every race rule set without named pieces: random games' turn starts
    /// decode back to their pieces, and both sides' views mirror.
    #[test]
    fn the_race_encoding_round_trips_every_race_rule_set() {
        let mut checked = 0;
        for spec in RuleSetFile::all_builtin() {
            let Ok(rules) = Rules::builtin(&spec.id) else { continue };
            if rules.named_pieces() {
                continue;
            }
            let rules = Arc::new(rules);
            let enc = RaceEncoder::new(rules.clone());
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
            let mut x = vec![0.0; enc.len()];
            let mut st = State::start(&rules, Side::Light);
            for _ in 0..400 {
                enc.encode(&st, &mut x);
                let counts = enc.decode_counts(&x, st.to_move());
                for side in Side::BOTH {
                    let c = &counts[side.index()];
                    assert_eq!(c[0], st.reserve(side), "{}", spec.id);
                    assert_eq!(c[enc.len + 1], st.off(side), "{}", spec.id);
                    for (p, &count) in c.iter().enumerate().take(enc.len + 1).skip(1) {
                        assert_eq!(count, st.count_at(side, p as u8), "{} position {p}", spec.id);
                    }
                }
                let t = rules.throw(rules.dice().sample_bits(rng.gen())).unwrap();
                let moves = rules.legal_moves(&st, &t);
                if moves.is_empty() {
                    st.set_to_move(st.to_move().other());
                    continue;
                }
                let effect = rules.apply_unchecked(&mut st, &t, moves[rng.gen_range(0..moves.len())]);
                if rules.finish_move(&mut st, &effect).is_some() {
                    st = State::start(&rules, Side::Dark);
                } else if effect.extra == Extra::Optional && rng.gen_bool(0.5) {
                    st.set_to_move(st.to_move().other());
                }
            }
            checked += 1;
        }
        assert!(checked >= 10, "{checked} race rule sets");
    }
}
