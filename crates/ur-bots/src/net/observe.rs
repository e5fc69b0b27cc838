//! The observation of a game of any family: a fixed-length `f32` vector
//! from the point of view of the side whose turn it is (the side to roll or
//! to decide), documented in `docs/bots.md` ("Observations of every family").
//!
//! Every family's vector ends with the same turn block: 1 if a decision is
//! open (0 at a roll), then the value of the throw being decided, one-hot
//! over `0..THROW_SLOTS`. Before it:
//! - race: the race network's inputs ([`RaceEncoder`]); with named pieces
//!   (`v1-named-birds`) then, per side (the mover first), the next bird to
//!   summon one-hot over the five birds (none when no bird waits), and the
//!   roll awaited: a declared move, a call, a placement;
//! - `bens-ur`: per side (the mover first), for every path position 1 to 23,
//!   the blank and the dotted markers there; markers at home and borne off,
//!   each divided by 7; then whether the roll to come is a free turn and
//!   whether the start procedure is on;
//! - `ludens-akalandung`: per side, for every path position 1 to 14, a
//!   plain piece, a Twin and the Warrior there; pieces in reserve and borne
//!   off, divided by 7; then whether the mover or its opponent holds the Oracle;
//! - tower games: for each of the 20 squares (the mover's private squares,
//!   its opponent's, then the shared strip), whether the top token is the
//!   mover's, the opponent's, promoted, the stack's height, and the mover's
//!   and the opponent's tokens in it, counts divided by the tokens per side;
//!   per side its reserve, tokens eliminated and prisoners held, divided by
//!   the tokens per side; the turns without progress over the T10 limit, the
//!   current position's repetitions over the T10 limit, and whether the
//!   mover is choosing what to do with an all-blank throw.

use ur_rules::marker::bens::Face;
use ur_rules::tower::{TowerGame, TowerPhase, SQUARES};
use ur_rules::{AnyGame, Game, Phase, Playable, RollKind, Side, State, Turn};

use super::encode::RaceEncoder;

/// Throw values the turn block's one-hot covers.
pub const THROW_SLOTS: usize = 9;
/// The turn block every observation ends with: a decision open, then the throw one-hot.
pub const TURN_BLOCK: usize = 1 + THROW_SLOTS;
const BENS_LEN: usize = 23;
const AKA_LEN: usize = 14;
/// Birds a named-pieces rule set has at most.
const BIRDS: usize = 5;
/// The named-pieces block after the race inputs: each side's next bird, then the roll awaited.
const NAMED_BLOCK: usize = 2 * BIRDS + 3;

/// An observation encoder for one game's rule set.
#[derive(Clone, Debug)]
pub enum Observer {
    Race(Box<RaceEncoder>),
    Bens,
    Akalandung,
    Tower { tokens: f32 },
}

/// The side whose turn it is (light once the game is over).
pub fn viewer(game: &AnyGame) -> Side {
    match game.turn() {
        Turn::Roll(s) | Turn::Decide(s) => s,
        Turn::Over(_) => Side::Light,
    }
}

impl Observer {
    pub fn for_game(game: &AnyGame) -> Observer {
        match game {
            AnyGame::Race(g) => Observer::Race(Box::new(RaceEncoder::new(g.rules().clone()))),
            AnyGame::Bens(_) => Observer::Bens,
            AnyGame::Akalandung(_) => Observer::Akalandung,
            AnyGame::Tower(t) => Observer::Tower { tokens: f32::from(t.rules().tokens.max(1)) },
        }
    }

    /// The observation's length.
    pub fn len(&self) -> usize {
        TURN_BLOCK
            + match self {
                Observer::Race(e) => e.len() + if e.rules().named_pieces() { NAMED_BLOCK } else { 0 },
                Observer::Bens => 2 * (2 * BENS_LEN + 2) + 2,
                Observer::Akalandung => 2 * (3 * AKA_LEN + 2) + 2,
                Observer::Tower { .. } => 6 * SQUARES + 6 + 3,
            }
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The observation of `game` (of this observer's rule set) into `out`.
    ///
    /// # Panics
    /// A game of another family, or `out` of another length.
    pub fn encode(&self, game: &AnyGame, out: &mut [f32]) {
        assert_eq!(out.len(), self.len(), "an observation of {} values", self.len());
        out.fill(0.0);
        let me = viewer(game);
        let (board, turn) = out.split_at_mut(self.len() - TURN_BLOCK);
        let throw = match (self, game) {
            (Observer::Race(e), AnyGame::Race(g)) => race(e, g, board),
            (Observer::Bens, AnyGame::Bens(g)) => {
                for (k, side) in [me, me.other()].into_iter().enumerate() {
                    let (home, off, markers) = g.markers(side);
                    let b = &mut board[k * (2 * BENS_LEN + 2)..];
                    for (pos, face) in markers {
                        b[2 * (usize::from(pos) - 1) + usize::from(face == Face::Dotted)] += 1.0;
                    }
                    b[2 * BENS_LEN] = f32::from(home) / 7.0;
                    b[2 * BENS_LEN + 1] = f32::from(off) / 7.0;
                }
                let n = board.len();
                board[n - 2] = f32::from(u8::from(g.free_turn()));
                board[n - 1] = f32::from(u8::from(g.in_start_procedure()));
                g.throw()
            }
            (Observer::Akalandung, AnyGame::Akalandung(g)) => {
                for (k, side) in [me, me.other()].into_iter().enumerate() {
                    let (reserve, off, pieces) = g.pieces(side);
                    let b = &mut board[k * (3 * AKA_LEN + 2)..];
                    for (pos, twin, warrior) in pieces {
                        let kind = if warrior { 2 } else { usize::from(twin) };
                        b[3 * (usize::from(pos) - 1) + kind] += 1.0;
                    }
                    b[3 * AKA_LEN] = f32::from(reserve) / 7.0;
                    b[3 * AKA_LEN + 1] = f32::from(off) / 7.0;
                }
                let n = board.len();
                board[n - 2] = f32::from(u8::from(g.oracle() == Some(me)));
                board[n - 1] = f32::from(u8::from(g.oracle() == Some(me.other())));
                g.throw()
            }
            (Observer::Tower { tokens }, AnyGame::Tower(g)) => tower(g, me, *tokens, board),
            _ => panic!("an observer of another family"),
        };
        turn[0] = f32::from(u8::from(matches!(game.turn(), Turn::Decide(_))));
        if let Some(v) = throw.filter(|&v| usize::from(v) < THROW_SLOTS) {
            turn[1 + usize::from(v)] = 1.0;
        }
    }
}

/// The race board part; the throw being decided.
fn race(e: &RaceEncoder, g: &Game, board: &mut [f32]) -> Option<u8> {
    let (pieces, named) = board.split_at_mut(e.len());
    e.encode(g.state(), pieces);
    if !named.is_empty() {
        named_block(g, named);
    }
    match g.phase() {
        Phase::Move => g.throw().map(|t| t.value),
        _ => None,
    }
}

/// Each side's next bird to summon and the roll awaited (named pieces).
fn named_block(g: &Game, out: &mut [f32]) {
    let st = g.state();
    let me = st.to_move();
    for (k, side) in [me, me.other()].into_iter().enumerate() {
        if let Some(b) = next_bird(st, side, g.rules().pieces()) {
            out[k * BIRDS + usize::from(b) - 1] = 1.0;
        }
    }
    let kind = match g.roll_kind() {
        RollKind::Normal => None,
        RollKind::MoveOnly => Some(0),
        RollKind::Call => Some(1),
        RollKind::Placement(_) => Some(2),
    };
    if let Some(k) = kind.filter(|_| g.phase() == Phase::Roll) {
        out[2 * BIRDS + k] = 1.0;
    }
}

/// The lowest-numbered bird of `side` waiting in reserve.
fn next_bird(st: &State, side: Side, birds: u8) -> Option<u8> {
    (1..=birds.min(BIRDS as u8)).find(|&b| st.bird(side, b) == 0)
}

/// The tower squares in the mover's order: its private squares, the
/// opponent's, the shared strip.
pub fn tower_order(me: Side) -> [usize; SQUARES] {
    let mut order = [0; SQUARES];
    for (i, o) in order.iter_mut().enumerate() {
        *o = match (me, i) {
            (Side::Dark, 0..=5) => i + 6,
            (Side::Dark, 6..=11) => i - 6,
            _ => i,
        };
    }
    order
}

fn tower(g: &TowerGame, me: Side, tokens: f32, board: &mut [f32]) -> Option<u8> {
    let st = g.stacks();
    for (k, &sq) in tower_order(me).iter().enumerate() {
        let b = &mut board[6 * k..6 * k + 6];
        if let Some(top) = st.top(sq) {
            b[usize::from(top.owner() != me)] = 1.0;
            b[2] = f32::from(u8::from(top.promoted()));
        }
        b[3] = f32::from(st.len(sq)) / (2.0 * tokens);
        b[4] = f32::from(st.count(sq, me)) / tokens;
        b[5] = f32::from(st.count(sq, me.other())) / tokens;
    }
    let rest = &mut board[6 * SQUARES..];
    for (k, side) in [me, me.other()].into_iter().enumerate() {
        rest[3 * k] = f32::from(g.reserve(side)) / tokens;
        rest[3 * k + 1] = f32::from(g.eliminated(side)) / tokens;
        rest[3 * k + 2] = st.prisoners(side) as f32 / tokens;
    }
    let rules = g.rules();
    rest[6] = g.quiet_turns() as f32 / rules.no_progress_turns.max(1) as f32;
    rest[7] = g.repetitions() as f32 / rules.repetition_limit.max(1) as f32;
    rest[8] = f32::from(u8::from(g.phase() == TowerPhase::Blank));
    match g.phase() {
        TowerPhase::Move(v) => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use ur_rules::Options;

    use super::*;

    /// Reads the board part back: per side (light, dark), the pieces at
    /// each path position by kind, and the waiting and borne-off counts.
    fn decode_marker(x: &[f32], me: Side, len: usize, kinds: usize) -> [(Vec<Vec<u8>>, u8, u8); 2] {
        let block = kinds * len + 2;
        let read = |k: usize| {
            let b = &x[k * block..(k + 1) * block];
            let at = (0..len).map(|p| (0..kinds).map(|f| b[kinds * p + f].round() as u8).collect()).collect();
            (at, (b[kinds * len] * 7.0).round() as u8, (b[kinds * len + 1] * 7.0).round() as u8)
        };
        let (mine, theirs) = (read(0), read(1));
        if me == Side::Light {
            [mine, theirs]
        } else {
            [theirs, mine]
        }
    }

    fn expected_marker(game: &AnyGame, side: Side, len: usize, kinds: usize) -> (Vec<Vec<u8>>, u8, u8) {
        let mut at = vec![vec![0u8; kinds]; len];
        let (wait, off) = match game {
            AnyGame::Bens(g) => {
                let (h, o, m) = g.markers(side);
                m.iter().for_each(|&(p, f)| at[usize::from(p) - 1][usize::from(f == Face::Dotted)] += 1);
                (h, o)
            }
            AnyGame::Akalandung(g) => {
                let (r, o, m) = g.pieces(side);
                m.iter().for_each(|&(p, t, w)| at[usize::from(p) - 1][if w { 2 } else { usize::from(t) }] += 1);
                (r, o)
            }
            _ => unreachable!(),
        };
        (at, wait, off)
    }

    fn check_round_trip(game: &AnyGame, obs: &Observer, x: &[f32]) {
        let me = viewer(game);
        match game {
            AnyGame::Bens(_) | AnyGame::Akalandung(_) => {
                let (len, kinds) = if matches!(game, AnyGame::Bens(_)) { (BENS_LEN, 2) } else { (AKA_LEN, 3) };
                let got = decode_marker(x, me, len, kinds);
                for side in Side::BOTH {
                    assert_eq!(got[side.index()], expected_marker(game, side, len, kinds), "{}", game.rule_id());
                }
            }
            AnyGame::Tower(g) => {
                let Observer::Tower { tokens } = obs else { unreachable!() };
                for (k, &sq) in tower_order(me).iter().enumerate() {
                    let b = &x[6 * k..6 * k + 6];
                    let st = g.stacks();
                    assert_eq!((b[3] * 2.0 * tokens).round() as u8, st.len(sq));
                    assert_eq!((b[4] * tokens).round() as u8, st.count(sq, me));
                    assert_eq!((b[5] * tokens).round() as u8, st.count(sq, me.other()));
                    assert_eq!(b[0] == 1.0, st.top(sq).is_some_and(|t| t.owner() == me));
                    assert_eq!(b[1] == 1.0, st.top(sq).is_some_and(|t| t.owner() != me));
                }
                let rest = &x[6 * SQUARES..];
                assert_eq!((rest[0] * tokens).round() as u8, g.reserve(me));
                assert_eq!((rest[3] * tokens).round() as u8, g.reserve(me.other()));
            }
            AnyGame::Race(g) => {
                let Observer::Race(e) = obs else { unreachable!() };
                let named = &x[e.len()..x.len() - TURN_BLOCK];
                assert_eq!(named.len(), if g.rules().named_pieces() { NAMED_BLOCK } else { 0 });
                if !named.is_empty() {
                    let me = g.state().to_move();
                    for (k, side) in [me, me.other()].into_iter().enumerate() {
                        let hot = (0..BIRDS).find(|&b| named[k * BIRDS + b] == 1.0).map(|b| b as u8 + 1);
                        let waiting = (1..=g.rules().pieces()).find(|&b| g.state().bird(side, b) == 0);
                        assert_eq!(hot, waiting, "the next bird of {side:?}");
                    }
                    let awaited = named[2 * BIRDS..].iter().filter(|&&v| v == 1.0).count();
                    assert_eq!(awaited, usize::from(g.phase() == Phase::Roll), "one kind of roll is awaited at a roll");
                }
            }
        }
        let deciding = matches!(game.turn(), Turn::Decide(_));
        let turn = &x[x.len() - TURN_BLOCK..];
        assert_eq!(turn[0] == 1.0, deciding);
        assert!(turn[1..].iter().filter(|&&v| v == 1.0).count() <= usize::from(deciding));
    }

    /// Random games of every built-in rule set beyond the race: each
    /// observation has the observer's length, finite values, and its board
    /// part reads back to the game's pieces.
    #[test]
    fn every_family_round_trips_its_observation() {
        let mut families = 0;
        for id in ["bens-ur", "ludens-akalandung", "ravensburg-1977", "vizier-4-pyramids", "guard-d6", "finkel", "v1-named-birds"] {
            let mut game = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
            let obs = Observer::for_game(&game);
            let mut x = vec![0.0; obs.len()];
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
            for _ in 0..600 {
                obs.encode(&game, &mut x);
                assert!(x.iter().all(|v| v.is_finite()), "{id}");
                check_round_trip(&game, &obs, &x);
                match game.turn() {
                    Turn::Over(_) => game = AnyGame::new(id, &Options::new(), Side::Dark).unwrap(),
                    Turn::Roll(_) => {
                        game.roll_with(&mut rng).unwrap();
                    }
                    Turn::Decide(_) => {
                        let actions = game.actions();
                        game.apply(&actions[rng.gen_range(0..actions.len())]).unwrap();
                    }
                }
            }
            families += 1;
        }
        assert_eq!(families, 7);
    }
}
