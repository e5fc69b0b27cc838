//! The race family through [`Playable`]: every race rule set is a [`Game`].
//! The board as text lives in [`text`].
//!
//! The race engine keeps its own fast paths ([`Game::apply`], move
//! generation, [`crate::Playout`]); this module only adapts them.

pub mod text;

use crate::game::{Action, Game, Phase};
use crate::play::{standing_from_progress, PlayError, Playable, Turn};
use crate::position::Setup;
use crate::Side;

impl Playable for Game {
    type Action = Action;
    type Position = Setup;

    fn rule_id(&self) -> &str {
        &self.rules().spec.id
    }

    fn side_name(&self, side: Side) -> &str {
        &self.rules().spec.sides[side.index()]
    }

    fn turn(&self) -> Turn {
        match self.phase() {
            Phase::Roll => Turn::Roll(self.to_move()),
            Phase::Move | Phase::Declare | Phase::ExtraRoll => Turn::Decide(self.to_move()),
            Phase::Over => Turn::Over(self.winner()),
        }
    }

    fn outcomes(&self) -> Vec<(u8, f64)> {
        let throws: Vec<_> = self.rules().throws().collect();
        let total: f64 = throws.iter().map(|(_, w)| f64::from(*w)).sum();
        throws.iter().map(|(t, w)| (t.raw, f64::from(*w) / total)).collect()
    }

    fn roll(&mut self, raw: u8) -> Result<(), PlayError> {
        Game::roll(self, raw).map(drop).map_err(PlayError::Race)
    }

    fn actions(&self) -> Vec<Action> {
        match self.phase() {
            Phase::Move => self.legal_moves().iter().map(|&m| Action::Move(m)).collect(),
            Phase::Declare | Phase::ExtraRoll => self.choices().into_iter().map(Action::Choose).collect(),
            Phase::Roll | Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<(), PlayError> {
        if matches!(action, Action::Roll(_)) {
            return Err(PlayError::not_open(action, &self.actions()));
        }
        Game::apply(self, *action).map_err(PlayError::Race)
    }

    /// The race engine checks a move against its list of legal moves as it
    /// plays it, at no extra cost; this is [`Game::apply`].
    fn apply_unchecked(&mut self, action: &Action) {
        let done = Game::apply(self, *action);
        debug_assert!(done.is_ok(), "{action} is not open: {done:?}");
    }

    fn standing(&self, side: Side) -> f64 {
        let rules = self.rules();
        let full = f64::from(rules.pieces()) * f64::from(rules.path_len() + 1);
        standing_from_progress(self.winner(), side, |s| {
            let on_path: u32 = self.state().path_positions(s).iter().map(|&p| u32::from(p)).sum();
            f64::from(on_path + u32::from(self.state().off(s)) * u32::from(rules.path_len() + 1)) / full
        })
    }

    fn position(&self) -> Setup {
        self.state().to_setup(self.rules())
    }

    fn set_position(&mut self, position: &Setup) -> Result<(), PlayError> {
        let state = self.rules().validate(position).map_err(|e| PlayError::BadPosition(e.to_string()))?;
        *self = Game::from_state(self.rules().clone(), state);
        Ok(())
    }

    fn board_text(&self) -> String {
        text::render(self.rules(), self.state()) + &text::turn_line(self)
    }
}
