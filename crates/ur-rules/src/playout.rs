//! Fast random playouts straight on [`State`], for benchmarks and sampling.

use rand::RngCore;

use crate::dice::{Extra, Throw};
use crate::movegen::Move;
use crate::position::State;
use crate::rules::Rules;
use crate::Side;

/// The result of one random game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    pub winner: Side,
    /// Throws made, passes included.
    pub throws: u32,
}

impl Rules {
    /// Plays `n` random games from the start, light first, seeded: the games
    /// `ur bench` counts. Returns (games, light wins, throws).
    pub fn random_games(&self, n: u64, seed: u64) -> (u64, u64, u64) {
        let rules = self;
        let start = State::start(rules, Side::Light);
        let (mut light, mut throws) = (0, 0);
        if rules.named_pieces() {
            let rules = std::sync::Arc::new(rules.clone());
            let mut dice = crate::SeededDice::new(seed);
            for _ in 0..n {
                let mut g = crate::Game::new(rules.clone(), Side::Light);
                light += u64::from(g.play_random(&mut dice, usize::MAX) == Some(Side::Light));
                throws += g.history().iter().filter(|a| matches!(a, crate::Action::Roll(_))).count() as u64;
            }
            return (n, light, throws);
        }
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(seed);
        for _ in 0..n {
            let p = rules.random_playout(&start, &mut rng);
            light += u64::from(p.winner == Side::Light);
            throws += u64::from(p.throws);
        }
        (n, light, throws)
    }

    /// Plays one game from `start`, both sides choosing uniformly at random
    /// among legal moves (and taking optional extra rolls half the time).
    ///
    /// # Panics
    /// For rules with named pieces (their turns need [`crate::Game`]).
    pub fn random_playout(&self, start: &State, rng: &mut impl RngCore) -> Playout {
        self.random_playout_seen(start, rng, |_, _, _| {})
    }

    /// [`Rules::random_playout`], telling `seen` every throw: the position before it, the
    /// throw, and the move made (`None` for a pass). The same `rng` gives the same game as
    /// `random_playout`; `seen` is how tests compare that game with [`crate::Game`]'s.
    ///
    /// Each throw draws one `u64` from `rng`: the dice read it with
    /// [`crate::DiceModel::sample_bits`], the move is the `k`-th legal move by increasing
    /// destination with `k = ((bits >> 32) * count) >> 32`, and an optional extra roll is
    /// taken when bit 20 is set. (With `D6` dice the die also reads bits 32 to 63, so the die
    /// and the move picked are not independent; no built-in race rule set throws a d6.)
    ///
    /// # Panics
    /// For rules with named pieces.
    #[inline]
    pub fn random_playout_seen(
        &self,
        start: &State,
        rng: &mut impl RngCore,
        mut seen: impl FnMut(&State, &Throw, Option<Move>),
    ) -> Playout {
        assert!(!self.named_pieces(), "random_playout does not support named pieces");
        let throws: Vec<_> = (0..8).map(|raw| self.throw(raw).unwrap_or_else(|| self.throw(1).expect("1 exists"))).collect();
        let dice = self.dice();
        let mut st = *start;
        let mut n = 0;
        loop {
            n += 1;
            let bits = rng.next_u64();
            let throw = &throws[dice.sample_bits(bits) as usize];
            let mut dests = self.destinations(&st, throw);
            if dests == 0 {
                seen(&st, throw, None);
                st.to_move = st.to_move.other();
                continue;
            }
            let pick = ((bits >> 32) * u64::from(dests.count_ones())) >> 32;
            for _ in 0..pick {
                dests &= dests - 1;
            }
            let to = dests.trailing_zeros() as u8;
            let mv = Move::new(to - throw.value, to);
            seen(&st, throw, Some(mv));
            let effect = self.apply_unchecked(&mut st, throw, mv);
            if let Some(winner) = self.finish_move(&mut st, &effect) {
                return Playout { winner, throws: n };
            }
            if effect.extra == Extra::Optional && bits & (1 << 20) == 0 {
                st.to_move = st.to_move.other();
            }
        }
    }
}
