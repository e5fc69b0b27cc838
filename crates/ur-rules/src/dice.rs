//! Dice models with exact probabilities, throw mappings and seedable dice.

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// The physical dice (docs/rules/README.md#dice). A raw outcome is what the dice show:
/// the number of marked tips for binary lots, the face for a d4 or d6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiceModel {
    #[serde(rename = "BIN3")]
    Bin3,
    #[serde(rename = "BIN4")]
    Bin4,
    #[serde(rename = "D4")]
    D4,
    #[serde(rename = "D6")]
    D6,
}

impl DiceModel {
    /// Every raw outcome with its weight; weights sum to [`DiceModel::total_weight`].
    pub fn outcomes(self) -> &'static [(u8, u32)] {
        match self {
            DiceModel::Bin3 => &[(0, 1), (1, 3), (2, 3), (3, 1)],
            DiceModel::Bin4 => &[(0, 1), (1, 4), (2, 6), (3, 4), (4, 1)],
            DiceModel::D4 => &[(1, 1), (2, 1), (3, 1), (4, 1)],
            DiceModel::D6 => &[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)],
        }
    }

    pub fn total_weight(self) -> u32 {
        match self {
            DiceModel::Bin3 => 8,
            DiceModel::Bin4 => 16,
            DiceModel::D4 => 4,
            DiceModel::D6 => 6,
        }
    }

    /// Probability of a raw outcome (0 when it cannot occur).
    pub fn probability(self, raw: u8) -> f64 {
        self.outcomes().iter().find(|&&(r, _)| r == raw).map_or(0.0, |&(_, w)| f64::from(w) / f64::from(self.total_weight()))
    }

    pub fn name(self) -> &'static str {
        match self {
            DiceModel::Bin3 => "BIN3",
            DiceModel::Bin4 => "BIN4",
            DiceModel::D4 => "D4",
            DiceModel::D6 => "D6",
        }
    }

    /// Draws a raw outcome from 64 random bits (only the low bits are used
    /// for binary lots, so one draw serves several throws in hot loops).
    #[inline]
    pub fn sample_bits(self, bits: u64) -> u8 {
        match self {
            DiceModel::Bin3 => (bits & 0b111).count_ones() as u8,
            DiceModel::Bin4 => (bits & 0b1111).count_ones() as u8,
            DiceModel::D4 => (bits & 0b11) as u8 + 1,
            DiceModel::D6 => (((bits >> 32) * 6) >> 32) as u8 + 1,
        }
    }
}

/// Whether something grants an extra roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Extra {
    /// No extra roll.
    #[default]
    None,
    /// The player may roll again or end the turn.
    Optional,
    /// The player rolls again.
    Auto,
}

impl Extra {
    /// The stronger of two grants: `Auto` over `Optional` over `None`.
    pub fn max(self, other: Extra) -> Extra {
        use Extra::*;
        match (self, other) {
            (Auto, _) | (_, Auto) => Auto,
            (Optional, _) | (_, Optional) => Optional,
            _ => None,
        }
    }
}

/// What a raw outcome means under a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Throw {
    pub raw: u8,
    /// Squares to move; 0 is a null throw.
    pub value: u8,
    /// Extra roll granted by the throw itself, if a move is made.
    pub extra: Extra,
    /// Whether this throw may bring a piece onto the board.
    pub enter: bool,
}

/// Draws a raw outcome from a distribution: outcomes with probabilities
/// summing to 1, as [`crate::Playable::outcomes`] gives them. The one place
/// that samples a throw of any family (see [`crate::Playable::roll_with`]).
///
/// # Examples
/// ```
/// use ur_rules::{sample_outcome, SeededDice};
/// let mut dice = SeededDice::new(1);
/// let raw = sample_outcome(&[(1, 0.5), (2, 0.5)], dice.rng());
/// assert!(raw == 1 || raw == 2);
/// ```
pub fn sample_outcome<R: RngCore + ?Sized>(outcomes: &[(u8, f64)], rng: &mut R) -> u8 {
    let mut x: f64 = rng.gen();
    for &(raw, p) in outcomes {
        if x < p {
            return raw;
        }
        x -= p;
    }
    outcomes.last().map_or(0, |o| o.0)
}

/// A source of raw dice outcomes.
pub trait Dice {
    /// Throws the dice once and returns the raw outcome.
    fn throw(&mut self, model: DiceModel) -> u8;

    /// Draws a raw outcome from a distribution ([`sample_outcome`]).
    fn throw_from(&mut self, outcomes: &[(u8, f64)]) -> u8;
}

/// Seedable dice: the same seed gives the same sequence of throws.
///
/// # Examples
/// ```
/// use ur_rules::{Dice, DiceModel, SeededDice};
/// let mut a = SeededDice::new(7);
/// let mut b = SeededDice::new(7);
/// for _ in 0..100 {
///     assert_eq!(a.throw(DiceModel::Bin4), b.throw(DiceModel::Bin4));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct SeededDice {
    rng: Xoshiro256PlusPlus,
}

impl SeededDice {
    pub fn new(seed: u64) -> Self {
        SeededDice { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }

    /// The underlying generator, for callers that need other random choices.
    pub fn rng(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.rng
    }
}

impl Dice for SeededDice {
    fn throw(&mut self, model: DiceModel) -> u8 {
        model.sample_bits(self.rng.next_u64())
    }

    fn throw_from(&mut self, outcomes: &[(u8, f64)]) -> u8 {
        sample_outcome(outcomes, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_total() {
        for m in [DiceModel::Bin3, DiceModel::Bin4, DiceModel::D4, DiceModel::D6] {
            let s: u32 = m.outcomes().iter().map(|o| o.1).sum();
            assert_eq!(s, m.total_weight());
        }
    }

    #[test]
    fn sampling_matches_distribution() {
        for m in [DiceModel::Bin3, DiceModel::Bin4, DiceModel::D4, DiceModel::D6] {
            let mut d = SeededDice::new(1);
            let n = 200_000;
            let mut counts = [0u32; 8];
            for _ in 0..n {
                counts[d.throw(m) as usize] += 1;
            }
            for &(raw, _) in m.outcomes() {
                let f = f64::from(counts[raw as usize]) / f64::from(n);
                assert!((f - m.probability(raw)).abs() < 0.01, "{m:?} {raw} {f}");
            }
        }
    }
}
