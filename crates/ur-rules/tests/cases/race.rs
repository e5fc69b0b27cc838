//! The race family (the booklet rule sets of `rulesets/*.toml`):
//! `tests/cases/race/<rule-set id>.cases.toml` holds cases derived from
//! the rule set's page in docs/rules/, one or more per rule clause, DECISION and OPEN item. Each case
//! sets up a position, throws, and checks the legal moves and what playing a
//! move leads to.
//!
//! Case format (keys of one `[[case]]` table; everything but `clause` is optional):
//!
//! * `clause`: the rule the case checks, e.g. `"D08 optional re-roll on a rosette"`.
//! * `options`: rule-set options, e.g. `{ dice = "D4", pieces = 5 }`.
//! * `options_error = true`: the options must be refused; nothing else is checked.
//! * `path_cells = { light = [[r, c], ...], dark = [...] }`: the physical cell of
//!   every path position 1..=L, per side (§1.3).
//! * `rosettes = [4, 8, 14]`: exactly these path positions are rosettes, for both sides.
//! * `throws = [{ raw, value, p = "1/16", extra = "none" | "optional" | "auto",
//!   enter = true }, ...]`: the whole throw table (`extra` defaults to none,
//!   `enter` to true); `p` is the raw outcome's exact probability.
//! * `sides = ["White", "Black"]`: display names of light (SOUTH) and dark (NORTH).
//! * `rolloff = [light raw, dark raw]`, `first = "light" | "dark" | "tie"`: the
//!   roll-off (G8) compares the mapped values of the two throws; a tie re-rolls.
//!   The engine has no roll-off procedure, so this checks its throw values
//!   against the spec's comparison rule.
//! * `position = { to_move = "light", light = {...}, dark = {...} }`: the start
//!   of the case (default: the start position, light to move). A side is
//!   `{ reserve, off, path = [positions], birds = [position of bird 1..] }`;
//!   `off` defaults to 0, `reserve` to what is left of the pieces; with `birds`,
//!   `path`, `off` and `reserve` default to what the birds say.
//! * `position_error = true`: the position must be refused.
//! * `steps = [ {...}, ... ]`: actions in order. The case's own step keys (below)
//!   form a first step played before `steps`.
//!
//! Step keys, applied in this order:
//!
//! * `choose = "reroll" | "end" | "move" | "summon"` (`choose_error = true`: refused).
//! * `raw = k` or `value = v` (mapped to its raw outcome): the throw
//!   (`roll_error = true`: the roll must be refused).
//! * `legal = [[from, to], ...]`: the exact legal set for that throw (a third
//!   number is the bird); `must`, `must_not`: moves that must / must not be legal.
//! * `passed = bool`: the throw allowed nothing and the turn passed.
//! * `summon = [bird, succeeded]`: named birds, the call or placement roll's outcome.
//! * `play = [from, to]` (or `[from, to, bird]`).
//! * `after = { to_move, phase, choices, captured, position, pot, pot_won, winner,
//!   next_bird }`: the state after the step. `position` here may omit `to_move`
//!   or a side (not checked then); `pot` is what each side paid in, `pot_won`
//!   the sum the winner takes.
//!
//! Coverage: each booklet rule set has a file with at least 10 cases whose
//! clauses name every DECISION/OPEN item of its section, the generic
//! procedures G1-G9 that apply, and §1.3.

use std::sync::Arc;

use serde::Deserialize;
use ur_rules::{Choice, Extra, Game, Move, MoveEffect, Options, Phase, Rules, Setup, Side, SideSetup};

use crate::runner::{self, Family, PathCells};

pub struct Race;

/// The case keys of a race case (besides the runner's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceCase {
    path_cells: Option<PathCells>,
    rosettes: Option<Vec<u8>>,
    throws: Option<Vec<ThrowRow>>,
    sides: Option<[String; 2]>,
    rolloff: Option<[u8; 2]>,
    first: Option<String>,
    position: Option<Pos>,
}

impl Family for Race {
    const FOLDER: &'static str = "race";
    const CASE_KEYS: &'static [&'static str] = &["path_cells", "rosettes", "throws", "sides", "rolloff", "first", "position"];
    const RULE_SETS: &'static [&'static str] = &[
        "v1-simple",
        "v1-named-birds",
        "walker-cyningstan",
        "ludens-planet",
        "regency-conventional",
        "regency-murray",
        "regency-british-museum",
        "regency-bell",
    ];
    const MIN_CASES: usize = 10;

    type Case = RaceCase;
    type Step = Step;
    type Rules = Arc<Rules>;
    type Game = Game;

    fn required_tags(id: &str) -> Vec<&'static str> {
        let mut tags = vec!["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G9", "§1.3"];
        if id != "walker-cyningstan" {
            tags.push("G8"); // Walker's players toss a coin instead of a roll-off.
        }
        let own: &[&str] = match id {
            "v1-simple" => &["D02", "D03", "D04", "D05", "D06", "D07", "D08"],
            "v1-named-birds" => &["D09", "D10", "D11", "D12", "O01", "D08"],
            "walker-cyningstan" => &["D23", "D24", "D25", "D26", "D27"],
            "ludens-planet" => &["D34", "D35", "D36", "D64"],
            "regency-conventional" => &["D49", "D50", "D66"],
            "regency-murray" => &["D51", "D66"],
            "regency-british-museum" => &["D66"],
            "regency-bell" => &["D52", "D53", "D54", "D55", "D66"],
            _ => &[],
        };
        tags.extend_from_slice(own);
        tags
    }

    fn rules(id: &str, options: &Options) -> Result<Arc<Rules>, String> {
        Rules::builtin_with(id, options).map(Arc::new).map_err(|e| e.to_string())
    }

    fn game(rules: &Arc<Rules>, case: &RaceCase) -> Result<Game, String> {
        let state = match &case.position {
            None => ur_rules::State::start(rules, Side::Light),
            Some(p) => {
                let setup = setup_of(rules, p);
                rules.validate(&setup).map_err(|e| format!("{} ({e})", fmt_setup(&setup)))?
            }
        };
        Ok(Game::from_state(rules.clone(), state))
    }

    fn check_start(rules: &Arc<Rules>, _: &Game, case: &RaceCase, errs: &mut Vec<String>) -> Result<(), String> {
        if let Some(pc) = &case.path_cells {
            pc.problems(|side| (1..=rules.path_len()).map(|p| rules.cell(side, p).into()).collect(), errs);
        }
        if let Some(want) = &case.rosettes {
            for side in Side::BOTH {
                let got: Vec<u8> = (1..=rules.path_len()).filter(|&p| rules.is_rosette(side, p)).collect();
                if &got != want {
                    errs.push(format!("{side} rosette positions are {got:?}, expected {want:?}"));
                }
            }
        }
        if let Some(want) = &case.throws {
            let total = rules.dice().total_weight();
            let got: Vec<ThrowRow> = rules
                .throws()
                .map(|(t, w)| {
                    let g = gcd(w, total);
                    ThrowRow { raw: t.raw, value: t.value, p: format!("{}/{}", w / g, total / g), extra: t.extra, enter: t.enter }
                })
                .collect();
            if &got != want {
                errs.push(format!("throw table is {got:?}, expected {want:?}"));
            }
        }
        if let Some(want) = &case.sides {
            if &rules.spec.sides != want {
                errs.push(format!("sides are {:?}, expected {want:?}", rules.spec.sides));
            }
        }
        if let Some([l, d]) = case.rolloff {
            let value = |raw: u8| rules.throw(raw).map(|t| t.value).ok_or(format!("roll-off raw {raw} cannot be thrown"));
            let (lv, dv) = (value(l)?, value(d)?);
            let got = match lv.cmp(&dv) {
                std::cmp::Ordering::Greater => "light",
                std::cmp::Ordering::Less => "dark",
                std::cmp::Ordering::Equal => "tie",
            };
            let want = case.first.as_deref().ok_or("'rolloff' needs 'first'")?;
            if got != want {
                errs.push(format!("roll-off raw {l} (value {lv}) vs raw {d} (value {dv}) gives {got}, expected {want}"));
            }
        }
        Ok(())
    }

    fn step(rules: &Arc<Rules>, game: &mut Game, step: &Step, errs: &mut Vec<String>) -> Result<(), String> {
        let mut effect = None;
        if let Some(c) = step.choose {
            match game.choose(c) {
                Ok(()) if step.choose_error => return Err(format!("choice '{}' was accepted, expected refused", c.name())),
                Err(e) if !step.choose_error => return Err(format!("choice '{}' refused: {e}", c.name())),
                _ => {}
            }
        }
        let raw = match (step.raw, step.value) {
            (Some(r), _) => Some(r),
            (None, Some(v)) => Some(rules.raw_for_value(v)?),
            (None, None) => None,
        };
        if let Some(raw) = raw {
            match game.roll(raw) {
                Ok(_) if step.roll_error => return Err(format!("roll {raw} was accepted, expected refused")),
                Err(_) if step.roll_error => {}
                Err(e) => return Err(format!("roll {raw} refused: {e}")),
                Ok(report) => {
                    let legal: Vec<Move> = report.legal.to_vec();
                    if let Some(want) = &step.legal {
                        let with = want.iter().any(|m| m.len() == 3);
                        let mut want = want.clone();
                        want.sort();
                        want.dedup();
                        let got = norm(&legal, with);
                        if got != want {
                            errs.push(format!(
                                "throw raw {raw} (value {}): legal moves are {}, expected {}",
                                report.throw.value,
                                fmt_moves(&got),
                                fmt_moves(&want)
                            ));
                        }
                    }
                    for mv in step.must.iter().flatten() {
                        let m = move_of(mv)?;
                        let ok = legal.iter().any(|l| l.from == m.from && l.to == m.to && (m.piece == 0 || l.piece == m.piece));
                        if !ok {
                            errs.push(format!(
                                "throw raw {raw}: {mv:?} must be legal; legal moves are {}",
                                fmt_moves(&norm(&legal, mv.len() == 3))
                            ));
                        }
                    }
                    for mv in step.must_not.iter().flatten() {
                        let m = move_of(mv)?;
                        let listed = legal.iter().any(|l| l.from == m.from && l.to == m.to && (m.piece == 0 || l.piece == m.piece));
                        let playable = game.clone().play(m).is_ok();
                        if listed || playable {
                            errs.push(format!(
                                "throw raw {raw}: {mv:?} must not be legal; legal moves are {}",
                                fmt_moves(&norm(&legal, mv.len() == 3))
                            ));
                        }
                    }
                    if let Some(p) = step.passed {
                        if report.passed != p {
                            errs.push(format!("throw raw {raw}: passed is {}, expected {p}", report.passed));
                        }
                    }
                    if let Some(s) = step.summon {
                        if report.summon != Some(s) {
                            errs.push(format!("throw raw {raw}: summon outcome is {:?}, expected {s:?}", report.summon));
                        }
                    }
                }
            }
        } else if step.legal.is_some() || step.must.is_some() || step.must_not.is_some() || step.passed.is_some() {
            return Err("legal/must/must_not/passed need a 'raw' or 'value'".into());
        }
        if let Some(p) = &step.play {
            let m = move_of(p)?;
            effect = Some(game.play(m).map_err(|e| format!("play {p:?} refused: {e}"))?);
        }
        if let Some(e) = &step.after {
            check_after(rules, game, effect, e, errs);
        }
        Ok(())
    }
}

runner::family_tests!(Race, every_race_case_holds, every_booklet_rule_set_has_cases_for_its_items);

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct PosSide {
    reserve: Option<u8>,
    off: Option<u8>,
    path: Option<Vec<u8>>,
    birds: Option<Vec<u8>>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Pos {
    to_move: Option<Side>,
    /// Absent: every piece in reserve (a start position), or not checked (in `after`).
    light: Option<PosSide>,
    dark: Option<PosSide>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct ThrowRow {
    raw: u8,
    value: u8,
    p: String,
    #[serde(default)]
    extra: Extra,
    #[serde(default = "yes")]
    enter: bool,
}

fn yes() -> bool {
    true
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    to_move: Option<Side>,
    phase: Option<Phase>,
    choices: Option<Vec<Choice>>,
    captured: Option<bool>,
    position: Option<Pos>,
    pot: Option<[u32; 2]>,
    pot_won: Option<u32>,
    winner: Option<Side>,
    next_bird: Option<u8>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Step {
    choose: Option<Choice>,
    #[serde(default)]
    choose_error: bool,
    raw: Option<u8>,
    value: Option<u8>,
    #[serde(default)]
    roll_error: bool,
    legal: Option<Vec<Vec<u8>>>,
    must: Option<Vec<Vec<u8>>>,
    must_not: Option<Vec<Vec<u8>>>,
    passed: Option<bool>,
    summon: Option<(u8, bool)>,
    play: Option<Vec<u8>>,
    after: Option<Expect>,
}

fn side_setup(rules: &Rules, s: &PosSide) -> SideSetup {
    let len = rules.path_len();
    let pieces = rules.pieces();
    if let Some(birds) = &s.birds {
        let path = s.path.clone().unwrap_or_else(|| birds.iter().copied().filter(|&p| p >= 1 && p <= len).collect());
        let off = s.off.unwrap_or_else(|| birds.iter().filter(|&&p| p == len + 1).count() as u8);
        let reserve = s.reserve.unwrap_or_else(|| birds.iter().filter(|&&p| p == 0).count() as u8);
        return SideSetup { reserve, off, path, birds: Some(birds.clone()) };
    }
    let path = s.path.clone().unwrap_or_default();
    let off = s.off.unwrap_or(0);
    let reserve = s.reserve.unwrap_or_else(|| (i32::from(pieces) - i32::from(off) - path.len() as i32).clamp(0, i32::from(u8::MAX)) as u8);
    SideSetup { reserve, off, path, birds: None }
}

fn setup_of(rules: &Rules, p: &Pos) -> Setup {
    Setup {
        to_move: p.to_move.unwrap_or(Side::Light),
        light: side_setup(rules, &p.light.clone().unwrap_or_default()),
        dark: side_setup(rules, &p.dark.clone().unwrap_or_default()),
    }
}

fn move_of(v: &[u8]) -> Result<Move, String> {
    match *v {
        [from, to] => Ok(Move::new(from, to)),
        [from, to, piece] => Ok(Move { from, to, piece }),
        _ => Err(format!("a move is [from, to] or [from, to, bird], not {v:?}")),
    }
}

/// Moves as comparable lists: with birds when any expected move names one.
fn norm(moves: &[Move], with_piece: bool) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = moves.iter().map(|m| if with_piece { vec![m.from, m.to, m.piece] } else { vec![m.from, m.to] }).collect();
    out.sort();
    out.dedup();
    out
}

fn fmt_moves(moves: &[Vec<u8>]) -> String {
    let parts: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    format!("[{}]", parts.join(", "))
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Roll => "roll",
        Phase::Declare => "declare",
        Phase::Move => "move",
        Phase::ExtraRoll => "extra_roll",
        Phase::Over => "over",
    }
}

fn fmt_side(x: &SideSetup) -> String {
    let mut path = x.path.clone();
    path.sort_unstable();
    let mut t = format!("{{ reserve = {}, off = {}, path = {path:?}", x.reserve, x.off);
    if let Some(b) = &x.birds {
        t += &format!(", birds = {b:?}");
    }
    t + " }"
}

fn fmt_setup(s: &Setup) -> String {
    format!("{{ to_move = \"{}\", light = {}, dark = {} }}", s.to_move, fmt_side(&s.light), fmt_side(&s.dark))
}

fn check_position(rules: &Rules, game: &Game, expected: &Pos, errs: &mut Vec<String>) {
    let want = setup_of(rules, expected);
    let got = game.state().to_setup(rules);
    let mut bad = expected.to_move.is_some_and(|s| s != got.to_move);
    for (w, g, e) in [(&want.light, &got.light, expected.light.as_ref()), (&want.dark, &got.dark, expected.dark.as_ref())] {
        let (mut wp, mut gp) = (w.path.clone(), g.path.clone());
        wp.sort_unstable();
        gp.sort_unstable();
        let Some(e) = e else { continue };
        bad |= w.reserve != g.reserve || w.off != g.off || wp != gp;
        if e.birds.is_some() {
            bad |= w.birds != g.birds;
        }
    }
    if bad {
        let mut shown = want.clone();
        shown.to_move = expected.to_move.unwrap_or(got.to_move);
        let mut text = fmt_setup(&shown);
        if expected.light.is_none() {
            text = text.replacen(&format!("light = {}", fmt_side(&shown.light)), "light = (any)", 1);
        }
        if expected.dark.is_none() {
            text = text.replacen(&format!("dark = {}", fmt_side(&shown.dark)), "dark = (any)", 1);
        }
        errs.push(format!("position is {}, expected {text}", fmt_setup(&got)));
    }
}

fn check_after(rules: &Rules, game: &Game, effect: Option<MoveEffect>, e: &Expect, errs: &mut Vec<String>) {
    if let Some(s) = e.to_move {
        if game.to_move() != s {
            errs.push(format!("to_move is {}, expected {s}", game.to_move()));
        }
    }
    if let Some(p) = e.phase {
        if game.phase() != p {
            errs.push(format!("phase is {}, expected {}", phase_name(game.phase()), phase_name(p)));
        }
    }
    if let Some(c) = &e.choices {
        let (mut got, mut want) = (game.choices(), c.clone());
        got.sort_by_key(|c| c.name());
        want.sort_by_key(|c| c.name());
        if got != want {
            let names = |v: &[Choice]| v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ");
            errs.push(format!("choices are [{}], expected [{}]", names(&got), names(&want)));
        }
    }
    if let Some(c) = e.captured {
        match effect {
            None => errs.push("'captured' needs a 'play' in the same step".into()),
            Some(eff) if eff.captured != c => errs.push(format!("captured is {}, expected {c}", eff.captured)),
            _ => {}
        }
    }
    if let Some(p) = &e.position {
        check_position(rules, game, p, errs);
    }
    if let Some(pot) = e.pot {
        match game.pot_paid() {
            None => errs.push(format!("the rules have no pot, expected contributions {pot:?}")),
            Some(got) if got != pot => errs.push(format!("pot contributions are {got:?}, expected {pot:?}")),
            _ => {}
        }
    }
    if let Some(won) = e.pot_won {
        let got = game.pot_paid().map(|p| p[0] + p[1]);
        if got != Some(won) {
            errs.push(format!("pot is {got:?}, expected the winner to take {won}"));
        }
    }
    if let Some(w) = e.winner {
        if game.winner() != Some(w) {
            errs.push(format!("winner is {:?}, expected {w}", game.winner()));
        }
    }
    if let Some(b) = e.next_bird {
        if game.next_bird() != Some(b) {
            errs.push(format!("next bird is {:?}, expected {b}", game.next_bird()));
        }
    }
}
