//! A rule set as reports name it: its id (and the file it came from, when it
//! is not built in) with its options, written one way everywhere:
//! `finkel (pieces=7)`.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;
use ur_rules::{Options, Rules};

/// A rule-set reference: id, the user's rule-set file if any, and options.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RulesRef {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    pub options: Options,
}

impl RulesRef {
    pub fn new(id: impl Into<String>, options: Options) -> RulesRef {
        RulesRef { id: id.into(), file: None, options }
    }

    /// The reference of compiled rules.
    pub fn of(rules: &Rules) -> RulesRef {
        RulesRef::new(rules.id(), rules.options.clone())
    }

    /// The same, naming the rule-set file the rules came from.
    #[must_use]
    pub fn with_file(mut self, file: Option<PathBuf>) -> RulesRef {
        self.file = file;
        self
    }
}

impl fmt::Display for RulesRef {
    /// `finkel`, `finkel (pieces=7, dice=D4)`, `my-finkel from my.toml (pieces=3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        if let Some(file) = &self.file {
            write!(f, " from {}", file.display())?;
        }
        if !self.options.is_empty() {
            let opts: Vec<String> = self.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, " ({})", opts.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::OptionValue;

    #[test]
    fn a_reference_is_written_one_way() {
        assert_eq!(RulesRef::new("finkel", Options::new()).to_string(), "finkel");
        let opts: Options = [("pieces".to_string(), OptionValue::Int(7)), ("dice".to_string(), OptionValue::Text("D4".into()))].into();
        assert_eq!(RulesRef::new("finkel", opts.clone()).to_string(), "finkel (dice=D4, pieces=7)");
        let file = RulesRef::new("mine", opts).with_file(Some("my.toml".into()));
        assert_eq!(file.to_string(), "mine from my.toml (dice=D4, pieces=7)");
    }
}
