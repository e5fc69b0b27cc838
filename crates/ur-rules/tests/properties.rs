//! Property tests over every built-in rule set and every option combination:
//! random games (seeded dice, seeded choices) keep the position invariants,
//! agree between the checked and unchecked move paths, refuse everything that
//! is not open and always end; random setups never panic `Rules::validate`.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use ur_rules::spec::BUILTIN;
use ur_rules::{
    Choice, Dice, Extra, Game, GameError, Move, OptionValue, Options, Phase, RuleSetFile, Rules, SeededDice, Setup, Side, SideSetup,
    SpecError, SquareKind, State, Throw,
};

/// A game that has not ended after this many actions is a failure.
const MAX_ACTIONS: usize = 100_000;
/// Every raw outcome tried when probing refused rolls (no dice shows more than 6).
const RAWS: std::ops::RangeInclusive<u8> = 0..=8;

// ---------------------------------------------------------------------------
// Rule sets and option combinations
// ---------------------------------------------------------------------------

/// Every combination of option values for a built-in rule set, with `pieces` 1..=7.
fn option_combos(id: &str) -> Vec<Options> {
    RuleSetFile::builtin(id).expect("built-in id").option_combinations(7)
}

/// Whether a rule set may refuse this option combination, and why: named
/// birds are at most five, and an Eagle call of 0 cannot be thrown with a d4.
fn refusal_expected(id: &str, options: &Options) -> bool {
    if id != "v1-named-birds" {
        return false;
    }
    let pieces = matches!(options.get("pieces"), Some(OptionValue::Int(n)) if *n > 5);
    let d4 = options.get("dice") == Some(&OptionValue::Text("D4".into()));
    let eagle0 = options.get("eagle_call_value") == Some(&OptionValue::Int(0));
    pieces || (d4 && eagle0)
}

/// The playable option combinations of one rule set, compiled.
type Playable = Vec<(Options, Arc<Rules>)>;

/// Every playable (rule set, options) pair, compiled once.
fn playable() -> Vec<(&'static str, Playable)> {
    BUILTIN
        .iter()
        .map(|&(id, _)| {
            let rules = option_combos(id)
                .into_iter()
                .filter_map(|o| match Rules::builtin_with(id, &o) {
                    Ok(r) => Some((o, Arc::new(r))),
                    Err(_) if refusal_expected(id, &o) => None,
                    Err(e) => panic!("{id} {o:?}: unexpected refusal: {e}"),
                })
                .collect();
            (id, rules)
        })
        .collect()
}

#[test]
fn every_option_combination_compiles_or_is_refused_for_a_stated_reason() {
    let mut compiled = 0;
    for &(id, _) in BUILTIN {
        let file = RuleSetFile::builtin(id).unwrap();
        for o in option_combos(id) {
            match Rules::builtin_with(id, &o) {
                Ok(rules) => {
                    assert!(!refusal_expected(id, &o), "{id} {o:?} should be refused");
                    assert_eq!(rules.id(), id);
                    let full = file.full_options(&o).unwrap();
                    assert_eq!(rules.options, full, "{id}: the compiled options are the full options");
                    assert_eq!(Some(&OptionValue::Int(i64::from(rules.pieces()))), o.get("pieces"), "{id} {o:?}");
                    compiled += 1;
                }
                Err(e) => {
                    assert!(refusal_expected(id, &o), "{id} {o:?}: unexpected refusal: {e}");
                    assert!(matches!(&e, SpecError::Invalid { rules, field, .. } if rules == id && field == "birds"), "{id} {o:?}: {e:?}");
                }
            }
        }
    }
    assert!(compiled > 200, "{compiled} combinations compiled");
}

#[test]
fn out_of_range_options_are_refused() {
    let bad = |id: &str, name: &str, v: OptionValue| {
        let mut o = Options::new();
        o.insert(name.into(), v);
        let e = Rules::builtin_with(id, &o).unwrap_err();
        assert!(matches!(&e, SpecError::BadOptionValue { option, .. } if option == name), "{id} {name}: {e:?}");
    };
    for &(id, _) in BUILTIN {
        bad(id, "pieces", OptionValue::Int(0));
        bad(id, "pieces", OptionValue::Int(16));
        bad(id, "pieces", OptionValue::Text("seven".into()));
        for opt in RuleSetFile::builtin(id).unwrap().options {
            bad(id, &opt.name, OptionValue::Text("no-such-value".into()));
            if let Some(min) = opt.min {
                bad(id, &opt.name, OptionValue::Int(min - 1));
            }
            if let Some(max) = opt.max {
                bad(id, &opt.name, OptionValue::Int(max + 1));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

/// Position invariants: pieces are conserved, the occupancy mask agrees with
/// the counts, the setup round trips, and named birds agree with reserve, off
/// and path.
fn check_state(rules: &Rules, st: &State) -> Result<(), TestCaseError> {
    let l = rules.path_len();
    let n = rules.pieces();
    for side in Side::BOTH {
        let path = st.path_positions(side);
        prop_assert!(path.iter().all(|&p| (1..=l).contains(&p)), "{side}: path {path:?} off 1..={l}");
        prop_assert_eq!(
            usize::from(st.reserve(side)) + usize::from(st.off(side)) + path.len(),
            usize::from(n),
            "{}: reserve {} + off {} + path {:?} != {} pieces",
            side,
            st.reserve(side),
            st.off(side),
            path,
            n
        );
        let mut mask = 0u32;
        for p in 1..=l {
            if st.count_at(side, p) > 0 {
                mask |= 1 << p;
            }
        }
        prop_assert_eq!(st.occupied_positions(side), mask, "{}: occupancy mask", side);
        if rules.named_pieces() {
            let birds = st.birds(side, rules);
            prop_assert_eq!(birds.len(), usize::from(n));
            prop_assert!(birds.iter().all(|&p| p <= l + 1), "{side}: birds {birds:?}");
            let reserve = birds.iter().filter(|&&p| p == 0).count();
            let off = birds.iter().filter(|&&p| p == l + 1).count();
            let mut on: Vec<u8> = birds.iter().copied().filter(|&p| (1..=l).contains(&p)).collect();
            on.sort_unstable();
            prop_assert_eq!(reserve, usize::from(st.reserve(side)), "{}: birds {:?} vs reserve", side, birds);
            prop_assert_eq!(off, usize::from(st.off(side)), "{}: birds {:?} vs off", side, birds);
            prop_assert_eq!(&on, &path, "{}: birds {:?} vs path", side, birds);
        }
    }
    let setup = st.to_setup(rules);
    prop_assert_eq!(rules.validate(&setup), Ok(*st), "setup round trip of {:?}", setup);
    Ok(())
}

/// Everything observable about a game, to check that a refused action changed nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    state: State,
    phase: Phase,
    to_move: Side,
    throw: Option<Throw>,
    legal: Vec<Move>,
    history: usize,
    last: Option<ur_rules::Action>,
    winner: Option<Side>,
    paid: Option<[u32; 2]>,
    choices: Vec<Choice>,
    next_bird: Option<u8>,
}

fn snapshot(g: &Game) -> Snapshot {
    Snapshot {
        state: *g.state(),
        phase: g.phase(),
        to_move: g.to_move(),
        throw: g.throw(),
        legal: g.legal_moves().to_vec(),
        history: g.history().len(),
        last: g.history().last().copied(),
        winner: g.winner(),
        paid: g.pot_paid(),
        choices: g.choices(),
        // `next_bird` panics without named pieces and more than five pieces
        // (see `bird_accessors_do_not_panic_without_named_pieces`).
        next_bird: if g.rules().named_pieces() { g.next_bird() } else { None },
    }
}

/// Game-level invariants that hold between actions.
fn check_game(g: &Game) -> Result<(), TestCaseError> {
    let rules = g.rules();
    check_state(rules, g.state())?;
    let st = g.state();
    match g.winner() {
        Some(w) => {
            prop_assert_eq!(g.phase(), Phase::Over);
            prop_assert_eq!(st.off(w), rules.pieces(), "the winner {} has every piece off", w);
            prop_assert_eq!(st.reserve(w), 0);
            prop_assert!(st.path_positions(w).is_empty());
            prop_assert!(st.off(w.other()) < rules.pieces(), "both sides are off");
        }
        None => {
            prop_assert_ne!(g.phase(), Phase::Over);
            for s in Side::BOTH {
                prop_assert!(st.off(s) < rules.pieces(), "{s} has every piece off but no winner");
            }
        }
    }
    match g.phase() {
        Phase::Move => {
            prop_assert!(g.throw().is_some(), "a throw is set in the move phase");
            prop_assert!(!g.legal_moves().is_empty(), "the move phase has a legal move");
        }
        // That no legal moves are listed outside the move phase is checked by
        // `legal_moves_are_listed_only_while_a_move_is_awaited`.
        _ => prop_assert!(g.throw().is_none()),
    }
    let choices = g.choices();
    match g.phase() {
        Phase::ExtraRoll => prop_assert_eq!(choices, vec![Choice::Reroll, Choice::End]),
        Phase::Declare => {
            prop_assert!(rules.named_pieces());
            prop_assert!(!choices.is_empty(), "a declaration must be possible");
        }
        _ => prop_assert!(choices.is_empty()),
    }
    if !rules.named_pieces() {
        prop_assert_ne!(g.phase(), Phase::Declare);
    }
    Ok(())
}

/// An independent reading of where a piece of the side to move may land,
/// from the public tables (cells, square kinds, rosettes) rather than the
/// engine's bit masks. `None`: it may not; `Some(captures)`: it may.
fn reference_landing(rules: &Rules, st: &State, from: u8, value: u8) -> Option<bool> {
    let side = st.to_move();
    let l = u16::from(rules.path_len());
    let to = u16::from(from) + u16::from(value);
    if value == 0 || to > l + 1 {
        return None;
    }
    let stops = rules.spec.rosettes.stop;
    if stops && (u16::from(from) + 1..to.min(l + 1)).any(|p| rules.board.is_rosette(rules.cell(side, p as u8))) {
        return None;
    }
    if to == l + 1 {
        return Some(false);
    }
    let to = to as u8;
    let cell = rules.cell(side, to);
    let kind = rules.kind(side, to);
    let holds = |s: Side| (1..=rules.path_len()).any(|p| st.count_at(s, p) > 0 && rules.cell(s, p) == cell);
    let (own, theirs) = (holds(side), holds(side.other()));
    match kind {
        SquareKind::Shared => Some(false),
        _ if own => None,
        SquareKind::Safe if theirs => None,
        _ => Some(theirs),
    }
}

/// The reference list of legal moves, in the engine's order (by `from`, or by
/// bird for named pieces).
fn reference_moves(rules: &Rules, st: &State, throw: &Throw) -> Vec<Move> {
    let side = st.to_move();
    let l = rules.path_len();
    let mut out = Vec::new();
    if rules.named_pieces() {
        for (i, &p) in st.birds(side, rules).iter().enumerate() {
            if (1..=l).contains(&p) && reference_landing(rules, st, p, throw.value).is_some() {
                out.push(Move { from: p, to: p + throw.value, piece: i as u8 + 1 });
            }
        }
        return out;
    }
    if st.reserve(side) > 0 && throw.enter && reference_landing(rules, st, 0, throw.value).is_some() {
        out.push(Move::new(0, throw.value));
    }
    for p in 1..=l {
        if st.count_at(side, p) > 0 && reference_landing(rules, st, p, throw.value).is_some() {
            out.push(Move::new(p, p + throw.value));
        }
    }
    out
}

/// The legal moves of the current throw: each obeys the basic invariants, is
/// accepted by the checked `Rules::play`, which gives the same state and
/// effect as `apply_unchecked`, and the resulting state is valid.
fn check_legal_moves(g: &Game) -> Result<(), TestCaseError> {
    let rules = g.rules();
    let st = *g.state();
    let side = st.to_move();
    let throw = g.throw().ok_or_else(|| fail("no throw in the move phase".into()))?;
    let legal = g.legal_moves();
    let l = rules.path_len();
    let expected = rules.legal_moves(&st, &throw);
    prop_assert_eq!(legal, expected.as_slice(), "the game's list is the rules' list");
    let reference = reference_moves(rules, &st, &throw);
    prop_assert_eq!(legal, reference.as_slice(), "the reference list for {:?} in {:?}", throw, st.to_setup(rules));
    prop_assert!(throw.value > 0, "a null throw has no moves");
    if rules.named_pieces() {
        // Named pieces are listed per bird.
        prop_assert!(legal.windows(2).all(|w| w[0].piece < w[1].piece), "sorted by bird: {legal:?}");
    } else {
        prop_assert!(legal.windows(2).all(|w| w[0].from < w[1].from), "sorted by from: {legal:?}");
    }
    for (i, &m) in legal.iter().enumerate() {
        prop_assert!(m.to > m.from, "{m:?}: to > from");
        prop_assert!(m.to <= l + 1, "{m:?}: to <= L + 1 = {}", l + 1);
        prop_assert_eq!(m.to - m.from, throw.value, "{:?}: moves the throw's value", m);
        if rules.named_pieces() {
            prop_assert!((1..=rules.pieces()).contains(&m.piece), "{m:?}: bird number");
            prop_assert_eq!(st.birds(side, rules)[usize::from(m.piece) - 1], m.from, "{:?}: the bird is at from", m);
            prop_assert!(m.from >= 1, "birds enter only by summoning: {m:?}");
            prop_assert!(!legal[..i].contains(&m), "duplicate {m:?}");
        } else {
            prop_assert_eq!(m.piece, 0);
            prop_assert!(!legal[..i].iter().any(|o| o.from == m.from && o.to == m.to), "duplicate {:?} in {:?}", m, legal);
        }
        if m.from == 0 {
            prop_assert!(st.reserve(side) > 0 && throw.enter, "{m:?}: enters from an empty reserve or on a non-entering throw");
        } else {
            prop_assert!(st.count_at(side, m.from) > 0, "{m:?}: no piece at from");
        }
        let mut checked = st;
        let e1 = rules.play(&mut checked, &throw, m).map_err(|e| fail(format!("Rules::play refused legal {m:?}: {e}")))?;
        let mut unchecked = st;
        let e2 = rules.apply_unchecked(&mut unchecked, &throw, m);
        prop_assert_eq!(checked, unchecked, "{:?}: checked and unchecked states differ", m);
        prop_assert_eq!(e1, e2, "{:?}: checked and unchecked effects differ", m);
        prop_assert_eq!(Some(e2.captured), reference_landing(rules, &st, m.from, throw.value), "{:?}: captures", m);
        // A move with piece 0 means "any bird" and is accepted too.
        let mut any = st;
        prop_assert!(rules.play(&mut any, &throw, Move::new(m.from, m.to)).is_ok());
        prop_assert_eq!(checked.to_move(), side, "the side to move changes only in finish_move");
        check_state(rules, &checked)?;
    }
    Ok(())
}

/// Tries every roll, every from/to pair (and bird number) and every choice
/// that is not open now: each must be refused with the game unchanged. The
/// open ones are tried on a copy and must be accepted.
fn probe_refusals(g: &mut Game) -> Result<(), TestCaseError> {
    let rules = g.rules().clone();
    let before = snapshot(g);
    let l = rules.path_len();
    let phase = g.phase();
    let over = |e: &GameError| phase == Phase::Over && *e == GameError::Over;

    for raw in RAWS {
        let open = phase == Phase::Roll && rules.throw(raw).is_some();
        if open {
            let mut copy = g.clone();
            copy.roll(raw).map_err(|e| fail(format!("roll {raw} refused: {e}")))?;
        } else {
            let e = g.roll(raw).err().ok_or_else(|| fail(format!("roll {raw} accepted in {phase:?}")))?;
            let expected = over(&e)
                || matches!(e, GameError::WrongPhase { action: "roll", .. }) && phase != Phase::Roll
                || e == GameError::BadRoll { raw, dice: rules.dice().name() };
            prop_assert!(expected, "roll {raw} in {phase:?}: {e:?}");
            prop_assert_eq!(&snapshot(g), &before, "roll {} was refused but changed the game", raw);
        }
    }

    let legal = before.legal.clone();
    let pieces: Vec<u8> = if rules.named_pieces() { (0..=rules.pieces() + 1).collect() } else { vec![0, 1] };
    let throw = g.throw();
    for from in 0..=l + 1 {
        for to in 0..=l + 1 {
            for &piece in &pieces {
                let mv = Move { from, to, piece };
                let open = phase == Phase::Move && legal.iter().any(|m| m.from == from && m.to == to && (piece == 0 || m.piece == piece));
                if open {
                    let mut copy = g.clone();
                    copy.play(mv).map_err(|e| fail(format!("legal {mv:?} refused: {e}")))?;
                    continue;
                }
                let e = g.play(mv).err().ok_or_else(|| fail(format!("{mv:?} accepted in {phase:?}; legal {legal:?}")))?;
                let expected = over(&e)
                    || matches!(e, GameError::WrongPhase { action: "move", .. }) && phase != Phase::Move
                    || matches!(e, GameError::IllegalMove { from: f, to: t, .. } if f == from && t == to);
                prop_assert!(expected, "{mv:?} in {phase:?}: {e:?}");
                prop_assert_eq!(&snapshot(g), &before, "{:?} was refused but changed the game", mv);
                if let Some(throw) = throw {
                    let mut st = before.state;
                    prop_assert!(rules.play(&mut st, &throw, mv).is_err(), "Rules::play accepted {mv:?}");
                    prop_assert_eq!(st, before.state, "Rules::play refused {:?} but changed the state", mv);
                }
            }
        }
    }

    for c in [Choice::Reroll, Choice::End, Choice::Move, Choice::Summon] {
        if before.choices.contains(&c) {
            let mut copy = g.clone();
            copy.choose(c).map_err(|e| fail(format!("open choice {c:?} refused: {e}")))?;
        } else {
            let e = g.choose(c).err().ok_or_else(|| fail(format!("{c:?} accepted in {phase:?}")))?;
            prop_assert!(over(&e) || matches!(e, GameError::BadChoice { .. }), "{c:?} in {phase:?}: {e:?}");
            prop_assert_eq!(&snapshot(g), &before, "{:?} was refused but changed the game", c);
        }
    }
    Ok(())
}

/// Plays one random game to its end, checking everything after every action.
/// `probe` is the chance (1 in `probe`) of trying every refused action first.
fn walk(rules: &Arc<Rules>, seed: u64, probe: u32) -> Result<Side, TestCaseError> {
    let first = if seed & 1 == 0 { Side::Light } else { Side::Dark };
    let mut game = Game::new(rules.clone(), first);
    walk_game(&mut game, seed, probe)
}

fn walk_game(game: &mut Game, seed: u64, probe: u32) -> Result<Side, TestCaseError> {
    let rules = game.rules().clone();
    let l = rules.path_len();
    let mut dice = SeededDice::new(seed);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let pot = rules.pot();
    if let Some(p) = pot {
        prop_assert_eq!(game.pot_paid(), Some([p.stake; 2]), "each side pays the stake");
    } else {
        prop_assert_eq!(game.pot_paid(), None);
    }
    let mut placing = false;
    for _ in 0..MAX_ACTIONS {
        check_game(game)?;
        if rng.gen_ratio(1, probe) {
            probe_refusals(game)?;
        }
        let before = snapshot(game);
        let side = before.to_move;
        let (me, you) = (side, side.other());
        let start_phase = if rules.named_pieces() { Phase::Declare } else { Phase::Roll };
        match before.phase {
            Phase::Over => return game.winner().ok_or_else(|| fail("over without a winner".into())),
            Phase::Roll => {
                let raw = dice.throw(rules.dice());
                let report = game.roll(raw).map_err(|e| fail(format!("roll {raw}: {e}")))?;
                prop_assert_eq!(Some(report.throw), rules.throw(raw));
                match report.summon {
                    None => {
                        let legal = rules.legal_moves(&before.state, &report.throw);
                        prop_assert_eq!(report.legal.as_slice(), legal.as_slice());
                        prop_assert_eq!(report.passed, legal.is_empty());
                        if report.passed {
                            prop_assert_eq!(game.to_move(), you, "a throw without moves passes the turn");
                            prop_assert_eq!(game.phase(), start_phase);
                        } else {
                            prop_assert_eq!(game.phase(), Phase::Move);
                            prop_assert_eq!(game.legal_moves(), legal.as_slice());
                            prop_assert_eq!(game.throw(), Some(report.throw));
                        }
                    }
                    Some((bird, ok)) => {
                        prop_assert!(rules.named_pieces());
                        prop_assert_eq!(Some(bird), before.next_bird, "the lowest bird in reserve is summoned");
                        let placed_at = game.state().birds(side, &rules)[usize::from(bird) - 1];
                        if placing {
                            let can = reference_landing(&rules, &before.state, 0, report.throw.value).is_some();
                            prop_assert_eq!(ok, can, "placement of bird {} with {:?}", bird, report.throw);
                            prop_assert_eq!(ok, placed_at != 0);
                        }
                        placing = ok && placed_at == 0;
                        if placed_at != 0 {
                            // A placement roll put the bird on the board.
                            prop_assert!(ok);
                            prop_assert_eq!(placed_at, report.throw.value);
                            prop_assert_eq!(game.state().reserve(me), before.state.reserve(me) - 1);
                        } else if ok {
                            // A successful call: the placement roll follows.
                            prop_assert_eq!(report.throw.value, rules.call_value(bird), "the call roll matches the bird");
                            prop_assert_eq!(game.phase(), Phase::Roll);
                            prop_assert_eq!(game.to_move(), me);
                            prop_assert_eq!(game.state(), &before.state);
                        } else {
                            prop_assert_eq!(game.to_move(), you, "a failed call or placement passes the turn");
                            prop_assert_eq!(game.phase(), start_phase);
                            let mut st = *game.state();
                            st.set_to_move(me);
                            prop_assert_eq!(st, before.state);
                        }
                    }
                }
            }
            Phase::Move => {
                check_legal_moves(game)?;
                let mv = before.legal[rng.gen_range(0..before.legal.len())];
                let effect = game.play(mv).map_err(|e| fail(format!("legal {mv:?}: {e}")))?;
                prop_assert_eq!(game.history().last(), Some(&ur_rules::Action::Move(mv)));
                let (b, a) = (&before.state, *game.state());
                prop_assert_eq!(effect.borne_off, mv.to == l + 1);
                prop_assert_eq!(a.off(me), b.off(me) + u8::from(effect.borne_off));
                prop_assert_eq!(effect.landed_on_rosette, mv.to <= l && rules.is_rosette(me, mv.to));
                prop_assert_eq!(a.reserve(you), b.reserve(you) + u8::from(effect.captured), "a capture sends one piece home");
                prop_assert_eq!(a.off(you), b.off(you));
                if effect.captured {
                    prop_assert!(!effect.borne_off);
                    prop_assert_eq!(rules.cell(me, mv.to), find_captured_cell(&rules, b, &a, you));
                }
                if let Some(p) = pot {
                    let mut paid = before.paid.unwrap();
                    if effect.landed_on_rosette {
                        paid[me.index()] += p.rosette_fine;
                    }
                    prop_assert_eq!(game.pot_paid(), Some(paid), "rosette fines");
                }
                if game.winner().is_some() {
                    prop_assert_eq!(game.winner(), Some(me));
                    prop_assert!(effect.borne_off, "only bearing off wins");
                } else {
                    match effect.extra {
                        Extra::None => {
                            prop_assert_eq!(game.to_move(), you);
                            prop_assert_eq!(game.phase(), start_phase);
                        }
                        Extra::Auto => {
                            prop_assert_eq!(game.to_move(), me);
                            prop_assert_eq!(game.phase(), start_phase);
                        }
                        Extra::Optional => {
                            prop_assert_eq!(game.to_move(), me);
                            prop_assert_eq!(game.phase(), Phase::ExtraRoll);
                        }
                    }
                }
            }
            Phase::Declare | Phase::ExtraRoll => {
                let c = before.choices[rng.gen_range(0..before.choices.len())];
                game.choose(c).map_err(|e| fail(format!("open choice {c:?}: {e}")))?;
                prop_assert_eq!(game.state().to_move() == me, c != Choice::End, "only 'end' passes the turn");
                let mut st = *game.state();
                st.set_to_move(me);
                prop_assert_eq!(st, before.state, "a choice moves no piece");
                let expected = match c {
                    Choice::Reroll | Choice::End => start_phase,
                    Choice::Move | Choice::Summon => Phase::Roll,
                };
                prop_assert_eq!(game.phase(), expected);
            }
        }
        prop_assert_eq!(game.history().len(), before.history + 1, "one accepted action is one history entry");
    }
    Err(fail(format!("no winner after {MAX_ACTIONS} actions")))
}

/// The cell where `victim` lost a piece between two positions.
fn find_captured_cell(rules: &Rules, before: &State, after: &State, victim: Side) -> ur_rules::Cell {
    let (b, a) = (before.path_positions(victim), after.path_positions(victim));
    let lost = b.iter().find(|p| b.iter().filter(|q| q == p).count() > a.iter().filter(|q| q == p).count());
    lost.map_or(ur_rules::Cell { row: 255, col: 255 }, |&p| rules.cell(victim, p))
}

// ---------------------------------------------------------------------------
// Random games
// ---------------------------------------------------------------------------

fn config(cases: u32) -> Config {
    Config { cases, failure_persistence: None, max_shrink_iters: 64, ..Config::default() }
}

/// Runs `property` over (option combination, seed) for every built-in rule set,
/// naming the rule set and options of a failure.
fn for_every_rule_set(cases: u32, property: impl Fn(&Arc<Rules>, u64) -> Result<(), TestCaseError>) {
    for (id, combos) in playable() {
        assert!(!combos.is_empty(), "{id}: no playable option combination");
        let mut runner = TestRunner::new(config(cases));
        let result = runner.run(&(0..combos.len(), any::<u64>()), |(ci, seed)| {
            let (options, rules) = &combos[ci];
            property(rules, seed).map_err(|e| fail(format!("{id} {options:?} seed {seed}: {e}")))
        });
        if let Err(e) = result {
            panic!("{id}: {e}");
        }
    }
}

#[test]
fn random_games_keep_every_invariant_and_end() {
    for_every_rule_set(256, |rules, seed| {
        let winner = walk(rules, seed, 32)?;
        prop_assert!(Side::BOTH.contains(&winner));
        Ok(())
    });
}

#[test]
fn actions_that_are_not_open_are_refused_and_change_nothing() {
    for_every_rule_set(12, |rules, seed| walk(rules, seed, 1).map(drop));
}

#[test]
fn legal_moves_are_listed_only_while_a_move_is_awaited() {
    // `Game::legal_moves` is documented as "legal moves while a move is awaited".
    for_every_rule_set(16, |rules, seed| {
        let mut game = Game::new(rules.clone(), Side::Light);
        let mut dice = SeededDice::new(seed);
        while game.phase() != Phase::Over {
            game.play_random(&mut dice, 1);
            if game.phase() != Phase::Move {
                prop_assert!(game.throw().is_none());
                prop_assert!(
                    game.legal_moves().is_empty(),
                    "{:?} after {:?}: legal_moves() still lists {:?}",
                    game.phase(),
                    game.history().last(),
                    game.legal_moves()
                );
            }
        }
        Ok(())
    });
}

#[test]
fn bird_accessors_do_not_panic_without_named_pieces() {
    // `Game::next_bird` and `State::birds` are public; without named pieces
    // they should answer (nothing to summon) rather than panic.
    for (id, combos) in playable() {
        for (options, rules) in combos {
            let game = Game::new(rules.clone(), Side::Light);
            let result = std::panic::catch_unwind(|| (game.next_bird(), game.state().birds(Side::Light, &rules)));
            assert!(result.is_ok(), "{id} {options:?}: next_bird() or State::birds() panicked");
        }
    }
}

#[test]
fn play_random_ends_with_a_winner_who_has_every_piece_off() {
    for_every_rule_set(64, |rules, seed| {
        let first = if seed & 1 == 0 { Side::Light } else { Side::Dark };
        let mut game = Game::new(rules.clone(), first);
        let winner = game.play_random(&mut SeededDice::new(seed), MAX_ACTIONS);
        let w = winner.ok_or_else(|| fail(format!("no winner after {MAX_ACTIONS} actions")))?;
        prop_assert_eq!(game.winner(), Some(w));
        prop_assert_eq!(game.state().off(w), rules.pieces());
        check_game(&game)?;
        Ok(())
    });
}

#[test]
fn fast_random_playouts_end() {
    for_every_rule_set(16, |rules, seed| {
        if rules.named_pieces() {
            return Ok(());
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let start = State::start(rules, Side::Light);
        let p = rules.random_playout(&start, &mut rng);
        prop_assert!(p.throws > 0);
        Ok(())
    });
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for_every_rule_set(8, |rules, seed| {
        let mut a = Game::new(rules.clone(), Side::Light);
        let mut b = Game::new(rules.clone(), Side::Light);
        a.play_random(&mut SeededDice::new(seed), MAX_ACTIONS);
        b.play_random(&mut SeededDice::new(seed), MAX_ACTIONS);
        prop_assert_eq!(a.history(), b.history());
        prop_assert_eq!(a.state(), b.state());
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Random setups
// ---------------------------------------------------------------------------

/// A side of a setup: either anything at all, or one whose counts add up (with
/// positions that may crowd a square, and birds that may disagree).
fn side_setup(len: u8, pieces: u8, named: bool) -> BoxedStrategy<SideSetup> {
    let anything =
        (any::<u8>(), any::<u8>(), prop::collection::vec(any::<u8>(), 0..20), prop::option::of(prop::collection::vec(any::<u8>(), 0..8)))
            .prop_map(|(reserve, off, path, birds)| SideSetup { reserve, off, path, birds });
    let small = (
        0..=pieces + 1,
        0..=pieces + 1,
        prop::collection::vec(0..=len + 2, 0..=usize::from(pieces) + 1),
        prop::option::of(prop::collection::vec(0..=len + 2, 0..=usize::from(pieces) + 1)),
    )
        .prop_map(|(reserve, off, path, birds)| SideSetup { reserve, off, path, birds });
    let near_valid = (
        prop::collection::vec(1..=len, 0..=usize::from(pieces)),
        any::<prop::sample::Index>(),
        0..4u8,
        any::<u64>(),
        any::<prop::sample::Index>(),
        0..=len + 1,
    )
        .prop_map(move |(path, off_at, birds_mode, shuffle, spoil_at, spoil)| {
            let rest = pieces - path.len() as u8;
            let off = off_at.index(usize::from(rest) + 1) as u8;
            let reserve = rest - off;
            let birds = if named && birds_mode > 0 {
                let mut b = path.clone();
                b.extend(std::iter::repeat_n(len + 1, usize::from(off)));
                b.extend(std::iter::repeat_n(0, usize::from(reserve)));
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(shuffle);
                for i in (1..b.len()).rev() {
                    b.swap(i, rng.gen_range(0..=i));
                }
                if birds_mode == 3 && !b.is_empty() {
                    let i = spoil_at.index(b.len());
                    b[i] = spoil;
                }
                Some(b)
            } else {
                None
            };
            SideSetup { reserve, off, path, birds }
        });
    prop_oneof![1 => anything, 2 => small, 6 => near_valid].boxed()
}

/// The setup `validate` should give back through `to_setup`: path ascending,
/// default bird order filled in when none was given.
fn canonical(rules: &Rules, setup: &Setup) -> Setup {
    let len = rules.path_len();
    let side = |s: &SideSetup| {
        let mut path = s.path.clone();
        path.sort_unstable();
        let birds = if rules.named_pieces() {
            Some(s.birds.clone().unwrap_or_else(|| {
                let mut b = path.clone();
                b.extend(std::iter::repeat_n(len + 1, usize::from(s.off)));
                b.extend(std::iter::repeat_n(0, usize::from(s.reserve)));
                b
            }))
        } else {
            // Birds mean nothing without named pieces; `validate` ignores them.
            None
        };
        SideSetup { reserve: s.reserve, off: s.off, path, birds }
    };
    Setup { to_move: setup.to_move, light: side(&setup.light), dark: side(&setup.dark) }
}

#[test]
fn random_setups_never_panic_and_accepted_ones_round_trip() {
    let all: Vec<Arc<Rules>> = playable().into_iter().flat_map(|(_, c)| c.into_iter().map(|(_, r)| r)).collect();
    let strategy = (0..all.len()).prop_flat_map(|i| {
        let r = &all[i];
        let (len, n, named) = (r.path_len(), r.pieces(), r.named_pieces());
        (Just(i), any::<bool>(), side_setup(len, n, named), side_setup(len, n, named), any::<u64>())
    });
    let mut runner = TestRunner::new(config(20_000));
    let accepted = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |(i, light_first, light, dark, seed)| {
        let rules = &all[i];
        let to_move = if light_first { Side::Light } else { Side::Dark };
        let setup = Setup { to_move, light, dark };
        let Ok(st) = rules.validate(&setup) else { return Ok(()) };
        accepted.set(accepted.get() + 1);
        let back = st.to_setup(rules);
        prop_assert_eq!(&back, &canonical(rules, &setup), "{}: to_setup of an accepted setup", rules.id());
        prop_assert_eq!(rules.validate(&back), Ok(st));
        check_state(rules, &st)?;
        prop_assert_eq!(st.to_move(), to_move);
        // The position plays on to a valid end.
        if seed % 8 == 0 {
            let mut game = Game::from_state(rules.clone(), st);
            prop_assert_eq!(game.state(), &st);
            walk_game(&mut game, seed, 64).map_err(|e| fail(format!("{} from {:?}: {e}", rules.id(), setup)))?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(accepted.get() > 2_000, "only {} of 20000 random setups were valid", accepted.get());
}

#[test]
fn birds_are_ignored_without_named_pieces() {
    // Documented behaviour (SideSetup::birds is "named pieces only"): a rule
    // set without named pieces accepts and drops a birds list.
    let rules = Rules::builtin("finkel").unwrap();
    let mut setup = State::start(&rules, Side::Light).to_setup(&rules);
    setup.light.birds = Some(vec![9, 9, 9]);
    let st = rules.validate(&setup).unwrap();
    assert_eq!(st.to_setup(&rules).light.birds, None);
}

#[test]
fn crowded_and_miscounted_setups_are_refused_with_a_reason() {
    let rules = Rules::builtin("finkel").unwrap();
    let start = State::start(&rules, Side::Light).to_setup(&rules);
    let mut s = start.clone();
    s.light.reserve = 6;
    s.light.path = vec![4, 4];
    assert!(matches!(rules.validate(&s), Err(ur_rules::PositionError::PieceCount { .. })), "{:?}", rules.validate(&s));
    s.light.reserve = 5;
    assert!(matches!(rules.validate(&s), Err(ur_rules::PositionError::Crowded { .. })), "{:?}", rules.validate(&s));
    let mut s = start.clone();
    s.light.reserve = 6;
    s.light.path = vec![15];
    assert!(matches!(rules.validate(&s), Err(ur_rules::PositionError::OffPath { pos: 15, .. })));
    // Shared middle row: light 5 and dark 5 are the same square.
    let mut s = start.clone();
    s.light.reserve = 6;
    s.light.path = vec![5];
    s.dark.reserve = 6;
    s.dark.path = vec![5];
    assert!(matches!(rules.validate(&s), Err(ur_rules::PositionError::Crowded { .. })));
    let mut s = start;
    s.light = SideSetup { reserve: 0, off: 7, path: vec![], birds: None };
    s.dark = SideSetup { reserve: 0, off: 7, path: vec![], birds: None };
    assert_eq!(rules.validate(&s), Err(ur_rules::PositionError::BothWon));
}

// ---------------------------------------------------------------------------
// User rule files with unusual but well-formed values
// ---------------------------------------------------------------------------

/// A built-in rule-set file with one top-level line added after `after`.
fn variant(id: &str, after: &str, added: &str) -> String {
    let text = BUILTIN.iter().find(|(i, _)| *i == id).unwrap().1;
    assert!(text.contains(after), "{id}: {after}");
    text.replacen(after, &format!("{after}\n{added}"), 1)
}

/// The light path of 30 cells on the Aseb board (the longest path allowed),
/// visiting two middle-row squares twice.
fn thirty_cells() -> String {
    let mut cells: Vec<[u8; 2]> = vec![[2, 3], [2, 2], [2, 1], [2, 0]];
    cells.extend((0..12).map(|c| [1, c]));
    cells.extend((0..12).rev().map(|c| [0, c]));
    cells.extend([[1, 0], [1, 1]]);
    assert_eq!(cells.len(), 30);
    format!("{cells:?}")
}

#[test]
fn user_rule_files_are_refused_or_keep_every_invariant() {
    let cases: Vec<(&str, String)> = vec![
        // Dice and throws the built-in rule sets do not use.
        ("finkel with a d6", variant("finkel", "dice = \"BIN4\"", "").replace("\"BIN4\"", "\"D6\"")),
        ("ludens with stops and a 7", variant("ludens-planet", "dice = \"BIN3\"", "throws = [{ raw = 3, value = 7 }]")),
        ("ludens with stops and a 9", variant("ludens-planet", "dice = \"BIN3\"", "throws = [{ raw = 3, value = 9 }]")),
        ("finkel with a 31", variant("finkel", "dice = \"BIN4\"", "throws = [{ raw = 4, value = 31 }]")),
        ("finkel with a 40", variant("finkel", "dice = \"BIN4\"", "throws = [{ raw = 4, value = 40 }]")),
        ("finkel with a 250", variant("finkel", "dice = \"BIN4\"", "throws = [{ raw = 4, value = 250 }]")),
        // The longest path.
        ("aseb with 30 squares", variant("aseb", "dice = \"BIN4\"", "").replace("path = \"ASEB\"", &format!("path = {}", thirty_cells()))),
        (
            "aseb with 30 squares and a d6",
            variant("aseb", "dice = \"BIN4\"", "")
                .replace("path = \"ASEB\"", &format!("path = {}", thirty_cells()))
                .replace("\"BIN4\"", "\"D6\""),
        ),
    ];
    let mut failures = Vec::new();
    for (name, text) in &cases {
        let refused = |e: SpecError| {
            let named = matches!(e, SpecError::Invalid { .. } | SpecError::Problems { .. } | SpecError::Unfinishable { .. });
            assert!(named, "{name}: {e:?}");
        };
        // Parsing checks the file with its default options, so a refusal
        // with a reason may come from either step.
        let file = match RuleSetFile::parse(text) {
            Ok(f) => f,
            Err(e) => {
                refused(e);
                continue;
            }
        };
        let rules = match Rules::from_file(&file, &Options::new()) {
            Ok(r) => Arc::new(r),
            Err(e) => {
                refused(e);
                continue; // refused with a reason: fine
            }
        };
        let mut runner = TestRunner::new(Config { cases: 24, max_shrink_iters: 4, ..config(0) });
        let result = runner.run(&any::<u64>(), |seed| {
            let outcome = std::panic::catch_unwind(|| walk(&rules, seed, 16));
            match outcome {
                Ok(r) => r.map(drop),
                Err(p) => {
                    let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                    Err(fail(format!("panicked: {}", msg.unwrap_or_default())))
                }
            }
        });
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "user rule files accepted by Rules::from_file misbehave:\n{}", failures.join("\n"));
}
