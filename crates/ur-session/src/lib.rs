//! What every front end of the Royal Game of Ur shares: a game in progress
//! with its record, dice, hints and reviews; bot-against-bot games and
//! arenas; seeds and statistics; reading rule-set options and records.
//!
//! It does no terminal or network I/O of its own; front ends (`ur` on the
//! command line, the web server) parse their input, call this library and
//! print or send what it returns.

pub mod arena;
pub mod arena_file;
pub mod duel;
pub mod options;
pub mod records;
pub mod reference;
pub mod regret;
pub mod review_doc;
pub mod review_text;
pub mod rgn;
pub mod rolloff;
pub mod rules_text;
pub mod seed;
pub mod session;
pub mod stats;
pub mod tables;
pub mod teach;
pub mod view;

pub use options::{parse_options, RulesChoice};
pub use reference::RulesRef;
pub use rolloff::roll_off;
pub use session::{BestMove, NewGame, NoTables, RulesSource, SavedGame, Session, SessionError, Tables, ACTION_CAP, DEFAULT_DEPTH};
