//! Choosing rules: a built-in id or a user's rule-set file, plus `NAME=VALUE`
//! options, as a front end receives them.

use std::path::{Path, PathBuf};

use ur_rules::{family_of, AnyGame, Family, OptionValue, Options, RuleSetFile, Rules, Side};
use ur_solve::LoadedTable;

/// Why the rules asked for cannot be had.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OptionsError {
    #[error("option '{0}' must look like NAME=VALUE, for example dice=D4")]
    NoEquals(String),
    #[error("option '{0}' must look like NAME=VALUE, with both a name and a value, for example dice=D4")]
    Empty(String),
    #[error("cannot read rule-set file {path}: {why}")]
    Read { path: String, why: String },
    #[error("in rule-set file {path}: {why}")]
    InFile { path: String, why: String },
    #[error("name a rule set (see `ur rules`) or give a rule-set file")]
    NoRuleSet,
    #[error(
        "'{id}' is a rule set of the {} family, not a race; this works on race rule sets only \
         (rules, play, replay, arena and the engine work on every family)",
        ur_rules::narrate::family_name(*family)
    )]
    NotRace { id: String, family: Family },
    #[error(transparent)]
    Rules(#[from] ur_rules::SpecError),
    #[error(transparent)]
    TableRules(#[from] ur_solve::TableRulesError),
}

/// Parses `NAME=VALUE` pairs.
///
/// # Errors
/// A pair without `=`, or with an empty name or value.
pub fn parse_options(pairs: &[String]) -> Result<Options, OptionsError> {
    let mut options = Options::new();
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else { return Err(OptionsError::NoEquals(pair.clone())) };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() || v.is_empty() {
            return Err(OptionsError::Empty(pair.clone()));
        }
        options.insert(k.into(), OptionValue::parse(v));
    }
    Ok(options)
}

/// The rules a front end was asked for: a rule-set id or file, a piece
/// count and options (`NAME=VALUE`), each perhaps missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesChoice {
    /// A built-in rule-set id.
    pub id: Option<String>,
    /// A user's rule-set file (TOML), instead of a built-in rule set.
    pub file: Option<PathBuf>,
    /// Pieces per side, the same as the option `pieces=N`.
    pub pieces: Option<u8>,
    /// `NAME=VALUE` pairs.
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

impl RulesChoice {
    /// Whether anything was given at all.
    pub fn is_given(&self) -> bool {
        self.id.is_some() || self.file.is_some() || self.options_given()
    }

    /// Whether a piece count or an option was given.
    pub fn options_given(&self) -> bool {
        self.pieces.is_some() || !self.options.is_empty()
    }

    /// The family of the rule set named (a rule-set file, or nothing, is a race).
    pub fn family(&self) -> Family {
        match (&self.file, &self.id) {
            (None, Some(id)) => family_of(id).unwrap_or(Family::Race),
            _ => Family::Race,
        }
    }

    /// The options given, `pieces` included.
    ///
    /// # Errors
    /// A malformed `NAME=VALUE` pair.
    pub fn given_options(&self) -> Result<Options, OptionsError> {
        let mut options = parse_options(&self.options)?;
        if let Some(n) = self.pieces {
            options.insert("pieces".into(), OptionValue::Int(i64::from(n)));
        }
        Ok(options)
    }

    /// Loads the race rules named: the user's file when given, else the built-in id.
    ///
    /// # Errors
    /// An unreadable or invalid file, an unknown rule set or one beyond the
    /// race, or a bad option.
    pub fn load(&self) -> Result<LoadedRules, OptionsError> {
        let options = self.given_options()?;
        match &self.file {
            Some(path) => load_file(path, &options),
            None => {
                let id = self.id.as_deref().ok_or(OptionsError::NoRuleSet)?;
                if let Some(family) = family_of(id).filter(|f| *f != Family::Race) {
                    return Err(OptionsError::NotRace { id: id.into(), family });
                }
                let file = RuleSetFile::builtin(id)?;
                let rules = Rules::from_file(&file, &options)?;
                Ok(LoadedRules { rules, file, file_text: None })
            }
        }
    }

    /// A new game of a rule set of any family, `first` to move.
    ///
    /// # Errors
    /// An unknown rule set, a bad option or an invalid rule-set file.
    pub fn new_game(&self, first: Side) -> Result<AnyGame, OptionsError> {
        if self.family() == Family::Race {
            return Ok(AnyGame::Race(ur_rules::Game::new(self.load()?.rules.into(), first)));
        }
        let id = self.id.as_deref().ok_or(OptionsError::NoRuleSet)?;
        Ok(AnyGame::new(id, &self.given_options()?, first)?)
    }

    /// The rules to use with `table`: those named (a rule-set id, by default
    /// the table's, or file, with the piece count and options; when the rule
    /// set is the table's and no option is given, with the table's options),
    /// else the table's own.
    ///
    /// # Errors
    /// An unknown rule set, a bad option, or a table for a rule set that is not built in.
    pub fn for_table(&self, table: &LoadedTable) -> Result<Rules, OptionsError> {
        if !self.is_given() {
            return Ok(table.header_rules()?);
        }
        let mut choice = self.clone();
        if choice.id.is_none() {
            choice.id = Some(table.table.header.rules_id.clone());
        }
        let loaded = choice.load()?;
        Ok(table.given_rules(&loaded.file, loaded.rules, self.options_given()))
    }
}

fn load_file(path: &Path, options: &Options) -> Result<LoadedRules, OptionsError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| OptionsError::Read { path: name.clone(), why: e.to_string() })?;
    let in_file = |e: ur_rules::SpecError| OptionsError::InFile { path: name.clone(), why: e.to_string() };
    let file = RuleSetFile::parse(&text).map_err(in_file)?;
    let rules = Rules::from_file(&file, options).map_err(in_file)?;
    Ok(LoadedRules { rules, file, file_text: Some(text) })
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

    #[test]
    fn a_choice_loads_rules_with_its_pieces() {
        let choice = RulesChoice { id: Some("finkel".into()), pieces: Some(3), ..RulesChoice::default() };
        assert_eq!(choice.load().unwrap().rules.pieces(), 3);
        assert_eq!(RulesChoice::default().load().err(), Some(OptionsError::NoRuleSet));
    }
}
