//! The prisoner games: `ravensburg-1977`, `vizier-4-pyramids`, `guard-d6`
//! (docs/rules/README.md#tower-model, docs/rules/ravensburg-1977.md,
//! docs/rules/vizier-4-pyramids.md, docs/rules/guard-d6.md).
//!
//! Tokens capture by stacking on enemy tokens and carry them off as
//! prisoners; a token reaching its final square eliminates its prisoners and
//! is promoted; promoted tokens run both ways on the middle strip; a side
//! wins by taking every enemy token. One engine ([`TowerGame`]) plays all
//! three; the rule sets differ only in [`TowerRules`] data and options.
//!
//! ```
//! use ur_rules::{Playable, Side, Turn};
//! use ur_rules::tower::TowerGame;
//! let mut game = TowerGame::new("guard-d6", &Default::default(), Side::Light).unwrap();
//! game.roll(3).unwrap();
//! let enter = game.actions()[0];
//! assert_eq!(enter.to_string(), "0->3");
//! game.apply(&enter).unwrap();
//! assert_eq!(game.turn(), Turn::Roll(Side::Dark));
//! ```

mod game;
mod rules;
mod stack;
mod text;

pub use game::{EndReason, TowerAction, TowerGame, TowerMove, TowerPhase};
pub use rules::{
    rule_set_info, BlankWithout5, GoalCapScope, OptionDef, StackCount, StalemateResult, TowerDice, TowerRules, WinRule, TOWER_IDS,
};
pub use stack::{cell, position, square, square_by_name, square_name, Stacks, Token, FINAL, M1, M8, REFUGE, SQUARES};
pub use text::{Face, StackView, TokenView, TowerSetup, TowerSnapshot};
