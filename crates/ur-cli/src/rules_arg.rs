//! Choosing rules from the command line: a built-in id or a user's file, plus options.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use ur_rules::{family_of, AnyGame, Family, OptionValue, Options, RuleSetFile, Rules, Side};

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

/// Rules plus where they came from, for records.
pub struct LoadedRules {
    pub rules: Rules,
    /// The rule-set file the rules were compiled from (for its options).
    pub file: RuleSetFile,
    /// The user's rule-set file text, when not built in.
    pub file_text: Option<String>,
}

impl RulesArgs {
    /// The family of the rule set these arguments name (a rule-set file is a race).
    pub fn family(&self) -> Family {
        match &self.rules_file {
            Some(_) => Family::Race,
            None => family_of(&self.rules).unwrap_or(Family::Race),
        }
    }

    /// The options given (`--option` and `--pieces`), for the families beyond the race.
    ///
    /// # Errors
    /// A malformed `NAME=VALUE` pair.
    pub fn given_options(&self) -> Result<Options> {
        let mut options = parse_options(&self.options)?;
        if let Some(n) = self.pieces {
            options.insert("pieces".into(), OptionValue::Int(i64::from(n)));
        }
        Ok(options)
    }

    /// A new game of a rule set of any family, `first` to move.
    ///
    /// # Errors
    /// An unknown rule set, a bad option or an invalid rule-set file.
    pub fn new_game(&self, first: Side) -> Result<AnyGame> {
        if self.family() == Family::Race {
            let loaded = self.load()?;
            return Ok(AnyGame::Race(ur_rules::Game::new(loaded.rules.into(), first)));
        }
        let options = self.given_options()?;
        AnyGame::new(&self.rules, &options, first).map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// Loads the rules these arguments name.
    ///
    /// # Errors
    /// An unreadable or invalid file, an unknown rule set, or a bad option.
    pub fn load(&self) -> Result<LoadedRules> {
        load(Some(&self.rules), self.rules_file.as_deref(), self.pieces, &self.options)
    }
}

/// Loads a built-in rule set by id, or a user's file when `file` is given,
/// with `--pieces` and `--option` values applied.
///
/// # Errors
/// An unreadable or invalid file, an unknown rule set, or a bad option.
pub fn load(id: Option<&str>, file: Option<&Path>, pieces: Option<u8>, pairs: &[String]) -> Result<LoadedRules> {
    let mut options = parse_options(pairs)?;
    if let Some(n) = pieces {
        options.insert("pieces".into(), OptionValue::Int(i64::from(n)));
    }
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read rule-set file {}", path.display()))?;
            let in_file = || format!("in rule-set file {}", path.display());
            let file = RuleSetFile::parse(&text).with_context(in_file)?;
            let rules = Rules::from_file(&file, &options).with_context(in_file)?;
            Ok(LoadedRules { rules, file, file_text: Some(text) })
        }
        None => {
            let Some(id) = id else { bail!("name a rule set (see `ur rules`) or give --file FILE") };
            if let Some(f) = family_of(id).filter(|f| *f != Family::Race) {
                bail!(
                    "'{id}' is a rule set of the {f:?} family, not a race; this command works on race rule sets only \
                     (rules, play, replay, arena and the engine work on every family)"
                );
            }
            let file = RuleSetFile::builtin(id)?;
            let rules = Rules::from_file(&file, &options)?;
            Ok(LoadedRules { rules, file, file_text: None })
        }
    }
}

/// Parses `NAME=VALUE` pairs.
///
/// # Errors
/// A pair without `=`, or with an empty name or value.
pub fn parse_options(pairs: &[String]) -> Result<Options> {
    let mut options = Options::new();
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            bail!("option '{pair}' must look like NAME=VALUE, for example dice=D4");
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() || v.is_empty() {
            bail!("option '{pair}' must look like NAME=VALUE, with both a name and a value, for example dice=D4");
        }
        options.insert(k.into(), OptionValue::parse(v));
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_reject_malformed_pairs() {
        let o = parse_options(&["dice=D4".into(), " pieces = 3 ".into(), "x=true".into()]).unwrap();
        assert_eq!(o["dice"], OptionValue::Text("D4".into()));
        assert_eq!(o["pieces"], OptionValue::Int(3));
        assert_eq!(o["x"], OptionValue::Bool(true));
        for bad in ["dice", "=D4", "dice="] {
            assert!(parse_options(&[bad.into()]).is_err(), "{bad}");
        }
    }
}
