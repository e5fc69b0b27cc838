//! Who starts: the roll-off of the booklets (each side throws once, the
//! higher move value starts, ties throw again).

use ur_rules::report::race_rules;
use ur_rules::{AnyGame, Dice, SeededDice, Side};

/// The starter and the deciding move values, drawn with dice seeded by
/// `seed`; none for rule sets whose throws have no move values (beyond the race).
pub fn roll_off(game: &AnyGame, seed: u64) -> Option<(Side, [u8; 2])> {
    let rules = race_rules(game)?;
    let mut dice = SeededDice::new(seed ^ 0x0072_6f6c_6c6f_6666);
    let mut value = || rules.throw(dice.throw(rules.dice())).map_or(0, |t| t.value);
    loop {
        let v = [value(), value()];
        if v[0] != v[1] {
            return Some((if v[0] > v[1] { Side::Light } else { Side::Dark }, v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::Options;

    #[test]
    fn the_higher_throw_starts_and_the_seed_decides() {
        let game = AnyGame::new("regency-bell", &Options::new(), Side::Light).unwrap();
        let mut starters = [0; 2];
        for seed in 0..200 {
            let (side, [a, b]) = roll_off(&game, seed).unwrap();
            assert_ne!(a, b);
            assert_eq!(side == Side::Light, a > b);
            assert_eq!(roll_off(&game, seed), Some((side, [a, b])));
            starters[side.index()] += 1;
        }
        assert!(starters[0] > 60 && starters[1] > 60, "{starters:?}");
        let towers = AnyGame::new("guard-d6", &Options::new(), Side::Light).unwrap();
        assert_eq!(roll_off(&towers, 1), None);
    }
}
