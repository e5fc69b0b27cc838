//! A game in progress: whose turn, what must happen next, and the history.

use std::sync::Arc;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::dice::{Dice, Extra, SeededDice, Throw};
use crate::movegen::{format_moves, Move, MoveEffect, MoveList};
use crate::position::State;
use crate::rules::Rules;
use crate::Side;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The side to move rolls.
    Roll,
    /// Named pieces: the side to move declares `move` or `summon`, then rolls.
    Declare,
    /// The side to move picks one of the legal moves.
    Move,
    /// The side to move may roll again (`reroll`) or end the turn (`end`).
    ExtraRoll,
    /// The game is over.
    Over,
}

/// A decision that is not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Take an optional extra roll.
    Reroll,
    /// Decline an optional extra roll.
    End,
    /// Named pieces: roll to move a bird already on the board.
    Move,
    /// Named pieces: roll to call the next bird.
    Summon,
}

impl Choice {
    pub fn parse(text: &str) -> Option<Choice> {
        match text {
            "reroll" => Some(Choice::Reroll),
            "end" => Some(Choice::End),
            "move" => Some(Choice::Move),
            "summon" => Some(Choice::Summon),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Choice::Reroll => "reroll",
            Choice::End => "end",
            Choice::Move => "move",
            Choice::Summon => "summon",
        }
    }
}

/// One step of a game, as stored in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A throw, as the raw dice outcome.
    Roll(u8),
    Move(Move),
    Choose(Choice),
}

/// The text a player types: `roll 3`, `4->8`, `reroll`.
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Roll(r) => write!(f, "roll {r}"),
            Action::Move(m) => write!(f, "{}->{}", m.from, m.to),
            Action::Choose(c) => f.write_str(c.name()),
        }
    }
}

/// What a throw led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollReport {
    pub throw: Throw,
    /// Legal moves (empty when the throw was forfeited or was a call/placement roll).
    pub legal: MoveList,
    /// The throw allowed nothing, and the turn passed.
    pub passed: bool,
    /// Named pieces: the bird called, and whether the call or placement succeeded.
    pub summon: Option<(u8, bool)>,
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GameError {
    #[error("the game is over")]
    Over,
    #[error("cannot {action} now: the game waits for {phase}")]
    WrongPhase { action: &'static str, phase: &'static str },
    #[error("raw outcome {raw} cannot be thrown with {dice}")]
    BadRoll { raw: u8, dice: &'static str },
    #[error("{from}->{to} is not legal; legal moves: {legal}")]
    IllegalMove { from: u8, to: u8, legal: String },
    #[error("'{choice}' is not a choice now; choices: {choices}")]
    BadChoice { choice: &'static str, choices: String },
}

/// The roll a game waits for: a named-pieces turn has a call roll and a
/// placement roll besides the moving one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollKind {
    /// A roll to move (every rule set without named pieces).
    Normal,
    /// Named pieces: declared `move`.
    MoveOnly,
    /// Named pieces: the call roll.
    Call,
    /// Named pieces: the placement roll for this bird.
    Placement(u8),
}

/// Everything a game's future depends on (the position, the phase, the
/// throw and the kind of roll awaited, the winner), without its history or
/// betting pot: games with equal situations go on alike. A key for
/// exhaustive searches over the games a rule set allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    state: State,
    phase: Phase,
    roll_kind: RollKind,
    throw: Option<Throw>,
    winner: Option<Side>,
}

/// A game under one rule set: the position plus what happens next.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Rules>,
    state: State,
    start: State,
    phase: Phase,
    roll_kind: RollKind,
    throw: Option<Throw>,
    legal: MoveList,
    winner: Option<Side>,
    paid: [u32; 2],
    first: Side,
    history: Vec<Action>,
}

impl Game {
    /// A new game from the start position.
    pub fn new(rules: Arc<Rules>, first: Side) -> Game {
        let state = State::start(&rules, first);
        Game::from_state(rules, state)
    }

    /// A game continuing from a validated position, at the start of a turn.
    pub fn from_state(rules: Arc<Rules>, state: State) -> Game {
        let stake = rules.pot().map_or(0, |p| p.stake);
        let mut g = Game {
            first: state.to_move(),
            winner: state.winner(&rules),
            start: state,
            state,
            phase: Phase::Roll,
            roll_kind: RollKind::Normal,
            throw: None,
            legal: MoveList::new(),
            paid: [stake; 2],
            history: Vec::new(),
            rules,
        };
        g.start_turn();
        g
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    /// The position the game started from.
    pub fn start_state(&self) -> &State {
        &self.start
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn to_move(&self) -> Side {
        self.state.to_move()
    }
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }
    pub fn first(&self) -> Side {
        self.first
    }
    /// The game's [`Situation`]: what its future depends on.
    pub fn situation(&self) -> Situation {
        Situation { state: self.state, phase: self.phase, roll_kind: self.roll_kind, throw: self.throw, winner: self.winner }
    }
    /// The roll awaited or last made this turn.
    pub fn roll_kind(&self) -> RollKind {
        self.roll_kind
    }
    /// The current throw, while a move is awaited.
    pub fn throw(&self) -> Option<Throw> {
        self.throw
    }
    /// Legal moves while a move is awaited.
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal
    }
    pub fn history(&self) -> &[Action] {
        &self.history
    }
    /// A copy for a search: the same game without the record of how it got
    /// here (which nothing else reads, and which copying would cost more
    /// with every step).
    pub fn without_history(&self) -> Game {
        Game {
            rules: self.rules.clone(),
            state: self.state,
            start: self.start,
            phase: self.phase,
            roll_kind: self.roll_kind,
            throw: self.throw,
            legal: self.legal.clone(),
            winner: self.winner,
            paid: self.paid,
            first: self.first,
            history: Vec::new(),
        }
    }
    /// Betting pot: what each side has paid in (stake plus fines).
    pub fn pot_paid(&self) -> Option<[u32; 2]> {
        self.rules.pot().map(|_| self.paid)
    }

    /// The choices open now (empty outside `Declare` and `ExtraRoll`).
    pub fn choices(&self) -> Vec<Choice> {
        let s = self.state.to_move();
        match self.phase {
            Phase::ExtraRoll => vec![Choice::Reroll, Choice::End],
            Phase::Declare => {
                let mut c = Vec::new();
                if (1..=self.rules.pieces()).any(|b| (1..=self.rules.path_len()).contains(&self.state.bird(s, b))) {
                    c.push(Choice::Move);
                }
                if self.state.reserve(s) > 0 {
                    c.push(Choice::Summon);
                }
                c
            }
            _ => Vec::new(),
        }
    }

    /// The next bird to summon: the lowest-numbered one in reserve.
    pub fn next_bird(&self) -> Option<u8> {
        let s = self.state.to_move();
        (1..=self.rules.pieces()).find(|&b| self.state.bird(s, b) == 0)
    }

    /// Applies any action.
    ///
    /// # Errors
    /// See [`Game::roll`], [`Game::play`] and [`Game::choose`].
    pub fn apply(&mut self, action: Action) -> Result<(), GameError> {
        match action {
            Action::Roll(raw) => self.roll(raw).map(drop),
            Action::Move(m) => self.play(m).map(drop),
            Action::Choose(c) => self.choose(c),
        }
    }

    /// Sets the throw of the side to move, by raw outcome.
    ///
    /// # Errors
    /// Outside the roll phase, or an outcome the dice cannot show.
    pub fn roll(&mut self, raw: u8) -> Result<RollReport, GameError> {
        self.expect(Phase::Roll, "roll")?;
        let throw = self.rules.throw(raw).ok_or(GameError::BadRoll { raw, dice: self.rules.dice().name() })?;
        self.history.push(Action::Roll(raw));
        let mut report = RollReport { throw, legal: MoveList::new(), passed: false, summon: None };
        match self.roll_kind {
            RollKind::Normal | RollKind::MoveOnly => {
                self.legal = self.rules.legal_moves(&self.state, &throw);
                report.legal = self.legal.clone();
                if self.legal.is_empty() {
                    report.passed = true;
                    self.pass();
                } else {
                    self.throw = Some(throw);
                    self.phase = Phase::Move;
                }
            }
            RollKind::Call => {
                let bird = self.next_bird().expect("summon needs a bird in reserve");
                let called = throw.value == self.rules.call_value(bird);
                report.summon = Some((bird, called));
                if called {
                    self.roll_kind = RollKind::Placement(bird);
                } else {
                    self.pass();
                }
            }
            RollKind::Placement(bird) => {
                let placed = throw.value > 0 && self.rules.can_land(&self.state, 0, throw.value);
                report.summon = Some((bird, placed));
                if placed {
                    let mv = Move { from: 0, to: throw.value, piece: bird };
                    let effect = self.rules.apply_unchecked(&mut self.state, &throw, mv);
                    self.after_move(&effect);
                } else {
                    self.pass();
                }
            }
        }
        Ok(report)
    }

    /// Plays one of the legal moves. A move with `piece` 0 matches any bird.
    ///
    /// # Errors
    /// Outside the move phase, or a move that is not legal.
    pub fn play(&mut self, mv: Move) -> Result<MoveEffect, GameError> {
        self.expect(Phase::Move, "move")?;
        let found = self
            .legal
            .iter()
            .find(|m| m.from == mv.from && m.to == mv.to && (mv.piece == 0 || m.piece == mv.piece))
            .copied()
            .ok_or_else(|| GameError::IllegalMove { from: mv.from, to: mv.to, legal: format_moves(&self.legal) })?;
        let throw = self.throw.take().expect("a throw is set in the move phase");
        self.history.push(Action::Move(found));
        let effect = self.rules.apply_unchecked(&mut self.state, &throw, found);
        self.after_move(&effect);
        Ok(effect)
    }

    /// Makes a choice (optional extra roll, or a named-pieces declaration).
    ///
    /// # Errors
    /// A choice that is not open now.
    pub fn choose(&mut self, choice: Choice) -> Result<(), GameError> {
        if self.phase == Phase::Over {
            return Err(GameError::Over);
        }
        let open = self.choices();
        if !open.contains(&choice) {
            let choices = open.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ");
            return Err(GameError::BadChoice { choice: choice.name(), choices: if choices.is_empty() { "none".into() } else { choices } });
        }
        self.history.push(Action::Choose(choice));
        match choice {
            Choice::Reroll => self.start_turn(),
            Choice::End => self.pass(),
            Choice::Move => self.begin_roll(RollKind::MoveOnly),
            Choice::Summon => self.begin_roll(RollKind::Call),
        }
        Ok(())
    }

    fn expect(&self, phase: Phase, action: &'static str) -> Result<(), GameError> {
        if self.phase == Phase::Over {
            return Err(GameError::Over);
        }
        if self.phase != phase {
            return Err(GameError::WrongPhase { action, phase: phase_waits_for(self.phase) });
        }
        Ok(())
    }

    fn after_move(&mut self, effect: &MoveEffect) {
        self.legal.clear();
        let mover = self.state.to_move().index();
        if effect.landed_on_rosette {
            self.paid[mover] += self.rules.pot().map_or(0, |p| p.rosette_fine);
        }
        if let Some(w) = self.rules.finish_move(&mut self.state, effect) {
            self.winner = Some(w);
            self.phase = Phase::Over;
            return;
        }
        match effect.extra {
            Extra::Optional => self.phase = Phase::ExtraRoll,
            _ => self.start_turn(),
        }
    }

    fn pass(&mut self) {
        let next = self.state.to_move().other();
        self.state.set_to_move(next);
        self.start_turn();
    }

    fn start_turn(&mut self) {
        self.throw = None;
        self.legal.clear();
        if self.winner.is_some() {
            self.phase = Phase::Over;
        } else if self.rules.named_pieces() {
            self.phase = Phase::Declare;
        } else {
            self.begin_roll(RollKind::Normal);
        }
    }

    fn begin_roll(&mut self, kind: RollKind) {
        self.roll_kind = kind;
        self.phase = Phase::Roll;
    }

    /// Plays random legal actions with `dice` until the game ends or
    /// `max_actions` were made. Returns the winner.
    pub fn play_random(&mut self, dice: &mut SeededDice, max_actions: usize) -> Option<Side> {
        for _ in 0..max_actions {
            let action = match self.phase {
                Phase::Over => break,
                Phase::Roll => Action::Roll(dice.throw(self.rules.dice())),
                Phase::Move => Action::Move(self.legal[dice.rng().gen_range(0..self.legal.len())]),
                Phase::Declare | Phase::ExtraRoll => {
                    let c = self.choices();
                    Action::Choose(c[dice.rng().gen_range(0..c.len())])
                }
            };
            self.apply(action).expect("random actions are legal");
        }
        self.winner
    }
}

fn phase_waits_for(phase: Phase) -> &'static str {
    match phase {
        Phase::Roll => "a roll",
        Phase::Declare => "a declaration (choose move or summon)",
        Phase::Move => "a move",
        Phase::ExtraRoll => "a choice (reroll or end)",
        Phase::Over => "nothing (the game is over)",
    }
}
