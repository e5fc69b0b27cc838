//! Choosing rules from the command line: a built-in id or a user's file, plus options.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use ur_rules::{OptionValue, Options, RuleSetFile, Rules};

/// Rule-set selection shared by every command that plays.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule-set id (see `ur rules`).
    #[arg(long, short = 'r', default_value = "finkel")]
    pub rules: String,
    /// Load the rule set from a TOML file instead of a built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "rules")]
    pub rules_file: Option<PathBuf>,
    /// Number of pieces per side.
    #[arg(long)]
    pub pieces: Option<u8>,
    /// A rule-set option, NAME=VALUE (repeatable; see `ur rules show ID`).
    #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Rules plus where they came from, for records.
pub struct LoadedRules {
    pub rules: Rules,
    /// The user's rule-set file text, when not built in.
    pub file_text: Option<String>,
}

impl RulesArgs {
    /// Loads the rules these arguments name.
    ///
    /// # Errors
    /// An unreadable or invalid file, an unknown rule set, or a bad option.
    pub fn load(&self) -> Result<LoadedRules> {
        let mut options = parse_options(&self.options)?;
        if let Some(n) = self.pieces {
            options.insert("pieces".into(), OptionValue::Int(i64::from(n)));
        }
        let (file, file_text) = match &self.rules_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read rule-set file {}", path.display()))?;
                let file = RuleSetFile::parse(&text).with_context(|| format!("in {}", path.display()))?;
                (file, Some(text))
            }
            None => (RuleSetFile::builtin(&self.rules)?, None),
        };
        Ok(LoadedRules { rules: Rules::from_file(&file, &options)?, file_text })
    }
}

/// Parses `NAME=VALUE` pairs.
///
/// # Errors
/// A pair without `=`.
pub fn parse_options(pairs: &[String]) -> Result<Options> {
    let mut options = Options::new();
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            bail!("option '{pair}' must look like NAME=VALUE, for example dice=D4");
        };
        options.insert(k.trim().into(), OptionValue::parse(v.trim()));
    }
    Ok(options)
}
