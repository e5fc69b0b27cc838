//! A fixed numbering of every decision a rule set can offer, for learners
//! that choose among a fixed set of outputs (docs/python.md, "Actions").
//!
//! The numbering depends only on the rule set and its options, never on the
//! position, and two decisions open at the same time never share a number:
//! - race: a move is numbered by the square its piece leaves (0: entering;
//!   named birds by bird, then square), after them the choices `reroll`,
//!   `end`, `move` and `summon`;
//! - `bens-ur`: kind (move, jump, exit), the square left, the square reached;
//! - `ludens-akalandung`: kind (move, Warrior's move, Twins' move), the squares
//!   left and reached, then `pass`, `reroll` and `end`;
//! - tower games: prisoners carried, the squares left and reached, then
//!   `reroll` and `move5`.

use crate::any::{AnyAction, AnyGame};
use crate::game::{Action, Choice};
use crate::marker::akalandung::{self, AkalandungAction};
use crate::marker::bens::{self, BensAction};
use crate::tower::{TowerAction, FINAL};

/// Squares a tower move can name: the reserve (0) to beyond the final square.
const TOWER_SQUARES: usize = FINAL as usize + 2;
/// Prisoners a tower move can carry: none to ten (the most tokens a side has).
const TOWER_CARRY: usize = 11;

/// The numbering of one rule set's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `starts`: squares a piece can leave (0 to the path's last); `pieces`: 1, or the named birds.
    Race {
        starts: usize,
        pieces: usize,
    },
    Bens,
    Akalandung,
    Tower,
}

/// Squares a marker move can name (0 to borne off).
const fn marker_squares(off: u8) -> usize {
    off as usize + 1
}

impl ActionSpace {
    /// The numbering for `game`'s rule set and options.
    pub fn of(game: &AnyGame) -> ActionSpace {
        let kind = match game {
            AnyGame::Race(g) => {
                let rules = g.rules();
                let pieces = if rules.named_pieces() { usize::from(rules.pieces()) } else { 1 };
                Kind::Race { starts: usize::from(rules.path_len()) + 1, pieces }
            }
            AnyGame::Bens(_) => Kind::Bens,
            AnyGame::Akalandung(_) => Kind::Akalandung,
            AnyGame::Tower(_) => Kind::Tower,
        };
        ActionSpace { kind }
    }

    /// How many numbers there are (every number is below it).
    pub fn len(&self) -> usize {
        match self.kind {
            Kind::Race { starts, pieces } => starts * pieces + 4,
            Kind::Bens => 3 * marker_squares(bens::OFF).pow(2),
            Kind::Akalandung => 3 * marker_squares(akalandung::OFF).pow(2) + 3,
            Kind::Tower => TOWER_CARRY * TOWER_SQUARES * TOWER_SQUARES + 2,
        }
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The number of a decision of this rule set.
    ///
    /// # Panics
    /// A decision of another family, or a roll.
    pub fn index(&self, action: &AnyAction) -> usize {
        match (self.kind, action) {
            (Kind::Race { starts, pieces }, AnyAction::Race(a)) => race_index(starts, pieces, a),
            (Kind::Bens, AnyAction::Bens(a)) => bens_index(a),
            (Kind::Akalandung, AnyAction::Akalandung(a)) => akalandung_index(a),
            (Kind::Tower, AnyAction::Tower(a)) => tower_index(a),
            _ => panic!("a decision of another family: {action:?}"),
        }
    }

    /// The open decision numbered `index`, if there is one.
    pub fn find(&self, open: &[AnyAction], index: usize) -> Option<AnyAction> {
        open.iter().find(|a| self.index(a) == index).cloned()
    }
}

fn race_index(starts: usize, pieces: usize, action: &Action) -> usize {
    match action {
        Action::Move(m) => usize::from(m.piece.saturating_sub(1)) * starts + usize::from(m.from),
        Action::Choose(c) => {
            starts * pieces
                + match c {
                    Choice::Reroll => 0,
                    Choice::End => 1,
                    Choice::Move => 2,
                    Choice::Summon => 3,
                }
        }
        Action::Roll(_) => panic!("a roll is not a decision"),
    }
}

fn squares_index(n: usize, kind: usize, from: u8, to: u8) -> usize {
    (kind * n + usize::from(from)) * n + usize::from(to)
}

fn bens_index(action: &BensAction) -> usize {
    let n = marker_squares(bens::OFF);
    match *action {
        BensAction::Move { from, to } => squares_index(n, 0, from, to),
        BensAction::Jump { from, to } => squares_index(n, 1, from, to),
        BensAction::Exit { from } => squares_index(n, 2, from, bens::OFF),
    }
}

fn akalandung_index(action: &AkalandungAction) -> usize {
    let n = marker_squares(akalandung::OFF);
    match *action {
        AkalandungAction::Move { from, to, warrior } => squares_index(n, usize::from(warrior), from, to),
        AkalandungAction::Twins { from, to } => squares_index(n, 2, from, to),
        AkalandungAction::Pass => 3 * n * n,
        AkalandungAction::Reroll => 3 * n * n + 1,
        AkalandungAction::End => 3 * n * n + 2,
    }
}

fn tower_index(action: &TowerAction) -> usize {
    let n = TOWER_SQUARES;
    match *action {
        TowerAction::Move(m) => squares_index(n, usize::from(m.carry), m.from, m.to),
        TowerAction::Reroll => TOWER_CARRY * n * n,
        TowerAction::Move5 => TOWER_CARRY * n * n + 1,
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::play::{Playable, Turn};
    use crate::spec::{Options, RuleSetFile};
    use crate::Side;

    fn every_rule_set() -> Vec<String> {
        let mut ids: Vec<String> = RuleSetFile::all_builtin().into_iter().map(|f| f.id).collect();
        ids.extend(crate::family_rule_sets().into_iter().map(|r| r.id.to_string()));
        ids
    }

    /// In random games of every rule set, the open decisions have distinct
    /// numbers within the space, and each number finds its decision.
    #[test]
    fn open_decisions_have_distinct_numbers_in_range() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for id in every_rule_set() {
            let space = ActionSpace::of(&AnyGame::new(&id, &Options::new(), Side::Light).unwrap());
            for _ in 0..20 {
                let mut game = AnyGame::new(&id, &Options::new(), Side::Light).unwrap();
                for _ in 0..5_000 {
                    match game.turn() {
                        Turn::Over(_) => break,
                        Turn::Roll(_) => {
                            game.roll_with(&mut rng).unwrap();
                        }
                        Turn::Decide(_) => {
                            let open = game.actions();
                            let mut seen: Vec<usize> = open.iter().map(|a| space.index(a)).collect();
                            assert!(seen.iter().all(|&i| i < space.len()), "{id}: {open:?} -> {seen:?} beyond {}", space.len());
                            for (a, &i) in open.iter().zip(&seen) {
                                assert_eq!(space.find(&open, i).as_ref(), Some(a), "{id}: {i} finds another decision");
                            }
                            seen.sort_unstable();
                            seen.dedup();
                            assert_eq!(seen.len(), open.len(), "{id}: two open decisions share a number: {open:?}");
                            let pick = open[rng.gen_range(0..open.len())].clone();
                            game.apply(&pick).unwrap();
                        }
                    }
                }
            }
        }
    }
}
