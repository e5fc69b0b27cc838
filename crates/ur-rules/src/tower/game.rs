//! A tower game in progress: turn flow, move generation, T10 termination.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::rules::{BlankWithout5, GoalCapScope, StackCount, StalemateResult, TowerDice, TowerRules, WinRule};
use super::stack::{mix, shared, square, Stacks, Token, FINAL, M1, REFUGE, SQUARES};
use super::text::TowerSetup;
use crate::dice::DiceModel;
use crate::play::{PlayError, Playable, Turn};
use crate::spec::{Options, SpecError};
use crate::Side;

/// How much of a lead the standing forgets at the repetition limit
/// (`mcts` against `greedy` on `ravensburg-1977`: fewer drawn games).
const REPETITION_DAMPING: f64 = 0.5;

/// A move: the carrier on the mover's path position `from` (0 = a token
/// entering from the reserve) goes to position `to`, taking along the
/// `carry` enemy tokens directly beneath it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TowerMove {
    pub from: u8,
    pub to: u8,
    #[serde(default)]
    pub carry: u8,
}

impl TowerMove {
    /// Whether the move goes toward M1 (only promoted tokens can).
    pub fn backward(&self) -> bool {
        self.from != 0 && self.to < self.from
    }
}

/// A decision in a tower game. Text: `7->10`, `7->10 +2` (carrying two
/// prisoners), `9->6 back`, `0->3` (enter), `reroll`, `move5`. JSON:
/// `{"stack_move":{"from":7,"to":10,"carry":2}}`, `"reroll"`, `"move5"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TowerAction {
    #[serde(rename = "stack_move")]
    Move(TowerMove),
    /// All blank pyramids: throw again.
    Reroll,
    /// All blank pyramids: move 5.
    Move5,
}

impl fmt::Display for TowerAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TowerAction::Reroll => f.write_str("reroll"),
            TowerAction::Move5 => f.write_str("move5"),
            TowerAction::Move(m) => {
                write!(f, "{}->{}", m.from, m.to)?;
                if m.backward() {
                    f.write_str(" back")?;
                }
                if m.carry > 0 {
                    write!(f, " +{}", m.carry)?;
                }
                Ok(())
            }
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TowerPhase {
    Roll,
    /// All blank pyramids: `reroll` or `move5`.
    Blank,
    /// A move of this many squares.
    Move(u8),
    Over(Option<Side>),
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// T2: the loser has no reserve and controls no stack.
    Capture,
    /// D48: every token of the loser was expelled.
    Expulsion,
    /// T10 (a).
    NoProgress,
    /// T10 (b).
    Repetition,
}

/// A game of `ravensburg-1977`, `vizier-4-pyramids` or `guard-d6`.
#[derive(Clone, Debug)]
pub struct TowerGame {
    pub(super) rules: TowerRules,
    pub(super) stacks: Stacks,
    pub(super) reserve: [u8; 2],
    pub(super) eliminated: [u8; 2],
    pub(super) to_move: Side,
    pub(super) phase: TowerPhase,
    /// Turns in a row without progress (T10 a).
    pub(super) quiet: u32,
    /// Whether the turn under way made progress.
    progress: bool,
    /// Whether it made an irreversible change (earlier positions cannot recur).
    irreversible: bool,
    /// Digests of the positions reached by a move (and the first one) since
    /// the last irreversible change, sorted (only their counts matter, and searches ask for them
    /// at every step).
    history: Vec<u64>,
    pub(super) end: Option<EndReason>,
}

impl TowerGame {
    /// Appends the situation's key (see [`crate::AnyGame::situation_key`]):
    /// without the T10 counters, which live in the history.
    pub(crate) fn situation_key(&self, out: &mut Vec<u8>) {
        use crate::situation_key::{opt_byte, side_byte};
        let (tag, value) = match self.phase {
            TowerPhase::Roll => (0, 0),
            TowerPhase::Blank => (1, 0),
            TowerPhase::Move(v) => (2, v),
            TowerPhase::Over(w) => (3, opt_byte(w.map(side_byte))),
        };
        out.extend([tag, value, side_byte(self.to_move)]);
        out.extend(self.reserve.iter().chain(&self.eliminated));
        for sq in 0..SQUARES {
            let len = self.stacks.len(sq);
            out.push(len);
            let bits = (0..len).fold(0u64, |acc, i| acc | u64::from(self.stacks.token(sq, i).0) << (2 * i));
            out.extend_from_slice(&bits.to_le_bytes()[..usize::from(len).div_ceil(4)]);
        }
    }

    /// A new game, `first` to roll.
    ///
    /// # Errors
    /// An unknown tower rule set or a bad option (see [`TowerRules::new`]).
    pub fn new(id: &str, options: &Options, first: Side) -> Result<TowerGame, SpecError> {
        Ok(TowerGame::with_rules(TowerRules::new(id, options)?, first))
    }

    /// A new game under given rules, every token in reserve.
    pub fn with_rules(rules: TowerRules, first: Side) -> TowerGame {
        let n = rules.tokens;
        TowerGame::from_parts(rules, Stacks::default(), [n, n], [0, 0], first)
    }

    /// A game from its parts, the first position recorded for T10.
    pub(super) fn from_parts(rules: TowerRules, stacks: Stacks, reserve: [u8; 2], eliminated: [u8; 2], first: Side) -> TowerGame {
        let mut g = TowerGame {
            rules,
            stacks,
            reserve,
            eliminated,
            to_move: first,
            phase: TowerPhase::Roll,
            quiet: 0,
            progress: false,
            irreversible: false,
            history: Vec::new(),
            end: None,
        };
        if g.rules.repetition_limit > 0 {
            g.history.push(g.digest());
        }
        g
    }

    pub fn rules(&self) -> &TowerRules {
        &self.rules
    }
    pub fn stacks(&self) -> &Stacks {
        &self.stacks
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn phase(&self) -> TowerPhase {
        self.phase
    }
    pub fn reserve(&self, side: Side) -> u8 {
        self.reserve[side.index()]
    }
    /// Tokens of `side` removed from the game.
    pub fn eliminated(&self, side: Side) -> u8 {
        self.eliminated[side.index()]
    }
    /// Turns in a row without progress so far (T10 a).
    pub fn quiet_turns(&self) -> u32 {
        self.quiet
    }
    /// Why the game ended, once over.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }
    pub fn winner(&self) -> Option<Side> {
        match self.phase {
            TowerPhase::Over(w) => w,
            _ => None,
        }
    }

    /// Every legal move of the side to move for a throw of `v`.
    pub fn moves_for(&self, v: u8) -> Vec<TowerMove> {
        let mut out = Vec::new();
        self.each_move(self.to_move, v, &mut |m| {
            out.push(m);
            true
        });
        out
    }

    fn has_move(&self, side: Side, v: u8) -> bool {
        let mut any = false;
        self.each_move(side, v, &mut |_| {
            any = true;
            false
        });
        any
    }

    /// Calls `f` on each legal move until it returns false (T3-T9).
    fn each_move(&self, side: Side, v: u8, f: &mut dyn FnMut(TowerMove) -> bool) {
        if v == 0 {
            return;
        }
        if self.reserve[side.index()] > 0 && v <= M1 && self.fits(side, 0, v, 0) && !f(TowerMove { from: 0, to: v, carry: 0 }) {
            return;
        }
        for from in 1..=FINAL {
            if !self.carrier_moves(side, from, v, f) {
                return;
            }
        }
    }

    /// The moves of the carrier on `from`, if `side` controls it; false to stop.
    fn carrier_moves(&self, side: Side, from: u8, v: u8, f: &mut dyn FnMut(TowerMove) -> bool) -> bool {
        let sq = square(side, from);
        let Some(top) = self.stacks.top(sq).filter(|t| t.owner() == side) else { return true };
        let load = self.stacks.load(sq);
        // Prisoners may be left behind only where their owner may stand (T5).
        let least = if self.rules.optional_drop_prisoners && shared(from) { 0 } else { load };
        let back_ok = top.promoted() && from >= M1;
        for carry in least..=load {
            let fwd = from + v;
            if fwd <= FINAL && self.fits(side, from, fwd, carry) && !f(TowerMove { from, to: fwd, carry }) {
                return false;
            }
            let may_back = back_ok && (carry == 0 || self.rules.loaded_promoted_backward) && from >= M1 + v;
            if may_back && self.fits(side, from, from - v, carry) && !f(TowerMove { from, to: from - v, carry }) {
                return false;
            }
        }
        true
    }

    /// Capacity limits of the destination (§7 goal squares, D45, D57).
    fn fits(&self, side: Side, from: u8, to: u8, carry: u8) -> bool {
        let dest = square(side, to);
        if let (Some(cap), true) = (self.rules.goal_cap, to >= REFUGE) {
            let own = match self.rules.goal_cap_scope {
                GoalCapScope::PerSquare => self.stacks.count(dest, side),
                GoalCapScope::Combined if from >= REFUGE => 0,
                GoalCapScope::Combined => self.stacks.count(square(side, REFUGE), side) + self.stacks.count(square(side, FINAL), side),
            };
            if own + 1 > cap {
                return false;
            }
        }
        let Some(max) = self.rules.max_stack else { return true };
        let kept = if to == FINAL { 0 } else { carry };
        let after = match self.rules.max_stack_counts {
            StackCount::All => self.stacks.len(dest) + 1 + kept,
            StackCount::Own => self.stacks.count(dest, side) + 1,
            StackCount::ExcludingPrisoners => match self.stacks.controller(dest) {
                Some(s) if s == side && kept == 0 => self.stacks.free_run(dest) + 1,
                _ => 1,
            },
        };
        after <= max
    }

    /// Whether `action`, open to the side to move, lands on a stack the
    /// opponent controls and so takes it (T4).
    pub fn captures(&self, action: &TowerAction) -> bool {
        let TowerAction::Move(m) = action else { return false };
        let side = self.to_move;
        self.stacks.controller(square(side, m.to)) == Some(side.other())
    }

    /// Plays a move known to be legal.
    fn play(&mut self, m: TowerMove) {
        let side = self.to_move;
        let foe = side.other();
        let dest = square(side, m.to);
        let mut unit = if m.from == 0 {
            self.reserve[side.index()] -= 1;
            self.mark(true, true);
            (Token::new(side, false).bits(), 1)
        } else {
            let src = square(side, m.from);
            let load = self.stacks.load(src);
            let unit = self.stacks.take(src, 1 + m.carry);
            // Prisoners left behind, or own tokens uncovered, are freed.
            self.mark(m.carry < load || (m.carry > 0 && self.stacks.len(src) > 0), false);
            unit
        };
        if self.stacks.controller(dest) == Some(foe) {
            self.mark(true, false); // capture (T4)
        }
        if m.to == FINAL {
            unit = self.deliver(unit, foe);
        }
        self.stacks.put(dest, unit);
        if self.defeated(foe) {
            self.finish(Some(side), self.win_reason(foe));
        }
    }

    /// T6: prisoners arriving on the final square are eliminated, a plain
    /// carrier is promoted. Returns what is left of the unit: the carrier.
    fn deliver(&mut self, (bits, n): (u64, u8), foe: Side) -> (u64, u8) {
        let carrier = ((bits >> (2 * (n - 1))) & 3) as u8;
        if n > 1 {
            self.eliminated[foe.index()] += n - 1;
            self.mark(true, true);
        }
        if carrier & 2 == 0 {
            self.mark(true, true);
        }
        (u64::from(carrier | 2), 1)
    }

    fn mark(&mut self, progress: bool, irreversible: bool) {
        self.progress |= progress;
        self.irreversible |= irreversible;
    }

    /// Whether `side` has lost under the rule set's win rule.
    fn defeated(&self, side: Side) -> bool {
        let captured = self.reserve[side.index()] == 0 && !self.stacks.controls_any(side);
        match self.rules.win {
            WinRule::Capture => captured,
            WinRule::Expulsion { adjudicate } => self.eliminated[side.index()] == self.rules.tokens || (adjudicate && captured),
        }
    }

    fn win_reason(&self, loser: Side) -> EndReason {
        if self.eliminated[loser.index()] == self.rules.tokens && matches!(self.rules.win, WinRule::Expulsion { .. }) {
            EndReason::Expulsion
        } else {
            EndReason::Capture
        }
    }

    fn finish(&mut self, winner: Option<Side>, why: EndReason) {
        self.phase = TowerPhase::Over(winner);
        self.end = Some(why);
        self.history = Vec::new();
    }

    /// Ends the turn, after a move or a pass: the other side rolls, unless
    /// T10 stops the game. T10(b) counts only positions reached by a move;
    /// passes repeat nothing (D67).
    fn end_turn(&mut self, moved: bool) {
        if matches!(self.phase, TowerPhase::Over(_)) {
            return;
        }
        self.to_move = self.to_move.other();
        self.phase = TowerPhase::Roll;
        self.quiet = if self.progress { 0 } else { self.quiet + 1 };
        if self.irreversible {
            self.history.clear();
        }
        self.progress = false;
        self.irreversible = false;
        if self.rules.no_progress_turns > 0 && self.quiet >= self.rules.no_progress_turns {
            return self.finish(self.stalemate_winner(), EndReason::NoProgress);
        }
        if self.rules.repetition_limit > 0 && moved {
            let d = self.digest();
            let seen = self.record_turn_start(d) as u32;
            if seen >= self.rules.repetition_limit {
                self.finish(self.stalemate_winner(), EndReason::Repetition);
            }
        }
    }

    /// The result of a game stopped by T10 (O04).
    fn stalemate_winner(&self) -> Option<Side> {
        if self.rules.stalemate_result == StalemateResult::Draw {
            return None;
        }
        let score = |s: Side| u32::from(self.eliminated[s.other().index()]) + self.stacks.prisoners(s.other());
        match score(Side::Light).cmp(&score(Side::Dark)) {
            std::cmp::Ordering::Greater => Some(Side::Light),
            std::cmp::Ordering::Less => Some(Side::Dark),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The position for repetition counts: stacks, reserves, side to move.
    fn digest(&self) -> u64 {
        let extra = u64::from(self.reserve[0]) | u64::from(self.reserve[1]) << 8 | (self.to_move as u64) << 16;
        mix(self.stacks.digest() ^ mix(extra))
    }

    /// Reads a throw: a move value, a pass, or the all-blank choice.
    fn throw(&mut self, raw: u8) {
        let v = match (self.rules.dice, raw) {
            (TowerDice::D6SixPasses, 6) => 0,
            (TowerDice::Pyramids, 0) => return self.all_blank(),
            _ => raw,
        };
        if self.has_move(self.to_move, v) {
            self.phase = TowerPhase::Move(v);
        } else {
            self.end_turn(false); // G5/D33: no legal move, the turn passes
        }
    }

    /// D65: offer `reroll`/`move5` when a 5-move exists; otherwise throw
    /// again (no choice to make) or pass, as the option says.
    fn all_blank(&mut self) {
        if self.has_move(self.to_move, 5) {
            self.phase = TowerPhase::Blank;
        } else if self.rules.blank_without_5 == BlankWithout5::Pass {
            self.end_turn(false);
        }
    }

    fn dice_model(&self) -> DiceModel {
        match self.rules.dice {
            TowerDice::D6SixPasses => DiceModel::D6,
            TowerDice::Pyramids => DiceModel::Bin4,
        }
    }

    /// How often a turn started at the current position since the last
    /// irreversible change (T10 b counts these).
    pub fn repetitions(&self) -> u32 {
        self.seen_at(self.digest()).1 as u32
    }

    /// How far a lead still counts: from 1 down to `1 - REPETITION_DAMPING`
    /// as the position recurs toward the T10 repetition limit, since a
    /// repeated position is nearer a draw.
    fn repetition_damping(&self) -> f64 {
        let limit = self.rules.repetition_limit;
        if limit < 2 {
            return 1.0;
        }
        let d = self.digest();
        let seen = self.seen_at(d).1 as f64;
        1.0 - REPETITION_DAMPING * ((seen - 1.0).max(0.0) / f64::from(limit - 1)).min(1.0)
    }

    /// Where `d`'s run starts in the sorted history, and its length: how
    /// often a turn started there since the last irreversible change.
    fn seen_at(&self, d: u64) -> (usize, usize) {
        let from = self.history.partition_point(|&h| h < d);
        (from, self.history[from..].iter().take_while(|&&h| h == d).count())
    }

    /// Records a turn start in `d`; returns how often it has now been seen.
    fn record_turn_start(&mut self, d: u64) -> usize {
        let (from, seen) = self.seen_at(d);
        self.history.insert(from + seen, d);
        seen + 1
    }

    /// Material of both sides: free tokens (promoted ones a little more).
    fn material(&self) -> [f64; 2] {
        let free = self.stacks.free_tokens();
        std::array::from_fn(|s| f64::from(free[s].0 + u32::from(self.reserve[s])) + 0.25 * f64::from(free[s].1))
    }
}

impl Playable for TowerGame {
    type Action = TowerAction;
    type Position = TowerSetup;

    fn rule_id(&self) -> &str {
        self.rules.id
    }

    fn side_name(&self, side: Side) -> &str {
        self.rules.sides[side.index()]
    }

    fn turn(&self) -> Turn {
        match self.phase {
            TowerPhase::Roll => Turn::Roll(self.to_move),
            TowerPhase::Blank | TowerPhase::Move(_) => Turn::Decide(self.to_move),
            TowerPhase::Over(w) => Turn::Over(w),
        }
    }

    fn outcomes(&self) -> Vec<(u8, f64)> {
        let m = self.dice_model();
        m.outcomes().iter().map(|&(r, w)| (r, f64::from(w) / f64::from(m.total_weight()))).collect()
    }

    fn roll(&mut self, raw: u8) -> Result<(), PlayError> {
        if self.phase != TowerPhase::Roll {
            return Err(PlayError::WrongTurn { waits: self.waiting() });
        }
        let m = self.dice_model();
        if m.probability(raw) == 0.0 {
            return Err(PlayError::BadRoll { raw, dice: m.name(), shows: m.outcomes().iter().map(|o| o.0).collect() });
        }
        self.throw(raw);
        Ok(())
    }

    fn actions(&self) -> Vec<TowerAction> {
        match self.phase {
            TowerPhase::Move(v) => self.moves_for(v).into_iter().map(TowerAction::Move).collect(),
            TowerPhase::Blank => vec![TowerAction::Reroll, TowerAction::Move5],
            TowerPhase::Roll | TowerPhase::Over(_) => Vec::new(),
        }
    }

    fn apply(&mut self, action: &TowerAction) -> Result<(), PlayError> {
        let open = match (self.phase, action) {
            (TowerPhase::Blank, TowerAction::Reroll | TowerAction::Move5) => true,
            (TowerPhase::Move(v), TowerAction::Move(m)) => {
                let mut legal = false;
                self.each_move(self.to_move, v, &mut |x| {
                    legal = x == *m;
                    !legal
                });
                legal
            }
            (TowerPhase::Roll | TowerPhase::Over(_), _) => return Err(PlayError::WrongTurn { waits: self.waiting() }),
            _ => false,
        };
        if !open {
            return Err(PlayError::not_open(action, &self.actions()));
        }
        self.apply_unchecked(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: &TowerAction) {
        debug_assert!(self.actions().contains(action), "{action} is not open");
        match (self.phase, action) {
            (TowerPhase::Blank, TowerAction::Reroll) => self.phase = TowerPhase::Roll,
            (TowerPhase::Blank, TowerAction::Move5) => self.phase = TowerPhase::Move(5),
            (TowerPhase::Move(_), TowerAction::Move(m)) => {
                self.play(*m);
                self.end_turn(true);
            }
            _ => panic!("{action} while the game waits for {}", self.waiting()),
        }
    }

    fn standing(&self, side: Side) -> f64 {
        match self.phase {
            TowerPhase::Over(Some(w)) => return if w == side { 1.0 } else { 0.0 },
            TowerPhase::Over(None) => return 0.5,
            _ => {}
        }
        let full = 1.25 * f64::from(self.rules.tokens);
        let material = self.material();
        let lead = (material[side.index()] - material[side.other().index()]) / (2.0 * full);
        (0.5 + lead * self.repetition_damping()).clamp(0.0, 1.0)
    }

    fn position(&self) -> TowerSetup {
        self.to_setup()
    }

    fn set_position(&mut self, position: &TowerSetup) -> Result<(), PlayError> {
        *self = TowerGame::from_position(self.rules, position)?;
        Ok(())
    }

    fn board_text(&self) -> String {
        self.text()
    }
}

impl TowerGame {
    /// What the game waits for, in words with the rule set's side names.
    pub(super) fn waiting(&self) -> String {
        let side = self.side_name(self.to_move);
        match self.phase {
            TowerPhase::Roll => format!("{side} to roll"),
            TowerPhase::Blank => format!("{side}: all blank; reroll or move5"),
            TowerPhase::Move(v) => format!("{side} to move {v}"),
            TowerPhase::Over(w) => {
                let why = self.end_reason().map_or(String::new(), |e| format!(" ({e:?})"));
                format!("game over: {}{why}", w.map_or("draw".to_string(), |s| format!("{} wins", self.side_name(s))))
            }
        }
    }

    /// Every piece is somewhere: reserve + board + eliminated = tokens per side.
    pub fn pieces_accounted(&self) -> bool {
        Side::BOTH.iter().all(|&s| {
            u32::from(self.reserve[s.index()]) + self.stacks.total(s) + u32::from(self.eliminated[s.index()])
                == u32::from(self.rules.tokens)
        }) && (0..SQUARES).all(|sq| usize::from(self.stacks.len(sq)) <= super::stack::MAX_TOKENS)
    }
}
