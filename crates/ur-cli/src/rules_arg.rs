//! Choosing rules from the command line: a built-in id or a user's file,
//! plus options, handed to [`ur_session::RulesChoice`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use ur_rules::{AnyGame, Family, Options, Side};
pub use ur_session::options::LoadedRules;
use ur_session::RulesChoice;

/// Rule-set selection shared by every command that plays.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule-set id (see `ur rules`).
    #[arg(long, short = 'r', default_value = "finkel")]
    pub rules: String,
    /// Load the rule set from a TOML file instead of a built-in one
    /// (same format as the files in `rulesets/`).
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    pub rules_file: Option<PathBuf>,
    /// Number of pieces per side (the same as `--option pieces=N`).
    #[arg(long)]
    pub pieces: Option<u8>,
    /// A rule-set option, NAME=VALUE (repeatable; see `ur rules show ID`).
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

impl RulesArgs {
    /// The rules asked for, for the library.
    pub fn choice(&self) -> RulesChoice {
        RulesChoice { id: Some(self.rules.clone()), file: self.rules_file.clone(), pieces: self.pieces, options: self.options.clone() }
    }

    /// The family of the rule set these arguments name (a rule-set file is a race).
    pub fn family(&self) -> Family {
        self.choice().family()
    }

    /// The options given (`--option` and `--pieces`).
    ///
    /// # Errors
    /// A malformed `NAME=VALUE` pair.
    pub fn given_options(&self) -> Result<Options> {
        Ok(self.choice().given_options()?)
    }

    /// A new game of a rule set of any family, `first` to move.
    ///
    /// # Errors
    /// An unknown rule set, a bad option or an invalid rule-set file.
    pub fn new_game(&self, first: Side) -> Result<AnyGame> {
        Ok(self.choice().new_game(first)?)
    }

    /// The arguments as given on a command line (`--rules ID --pieces N --option A=B`),
    /// for the records of how files were made.
    pub fn command_args(&self) -> String {
        let mut text = format!("--rules {}", self.rules);
        if let Some(p) = self.pieces {
            text += &format!(" --pieces {p}");
        }
        for o in &self.options {
            text += &format!(" --option {o}");
        }
        text
    }

    /// Loads the race rules these arguments name.
    ///
    /// # Errors
    /// An unreadable or invalid file, an unknown rule set, or a bad option.
    pub fn load(&self) -> Result<LoadedRules> {
        Ok(self.choice().load()?)
    }
}
