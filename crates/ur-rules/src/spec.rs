//! Rule sets as data: the TOML schema, options, and the built-in rule sets.
//!
//! A rule-set file is a base description plus named options. Each option value
//! is a patch (a TOML table) merged over the base before it is read, so an
//! option can change any field: the dice, the path, a square's kind.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::dice::{DiceModel, Extra};

/// How a square treats pieces that land on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SquareKind {
    /// One piece; landing on an opposing piece captures it.
    #[default]
    Plain,
    /// One piece; an opposing piece there cannot be landed on.
    Safe,
    /// Any number of pieces of either side; nothing is captured there.
    Shared,
}

/// A path, by name (see [`crate::board::PATH_NAMES`]) or as the light side's cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PathSpec {
    Named(String),
    Cells(Vec<Cell>),
}

/// Overrides the mapping of one raw outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThrowSpec {
    pub raw: u8,
    pub value: Option<u8>,
    #[serde(default)]
    pub extra: Extra,
    pub enter: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosetteSpec {
    #[serde(default)]
    pub kind: SquareKind,
    #[serde(default)]
    pub extra_roll: Extra,
    /// A piece may not pass over a rosette on its path (it must stop on it).
    #[serde(default)]
    pub stop: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquareSpec {
    pub at: Cell,
    pub kind: SquareKind,
}

/// The betting pot of `regency-bell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PotSpec {
    pub stake: u32,
    pub rosette_fine: u32,
}

/// Named pieces summoned in order (`v1-named-birds`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BirdSpec {
    pub names: Vec<String>,
    /// Call roll that summons the fifth bird (which no die can show as 5);
    /// absent means 0 when the dice can show 0, else 4 (OPEN O01).
    pub eagle_call_value: Option<u8>,
}

/// The rules of one race rule set, after options were applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSpec {
    pub id: String,
    pub name: String,
    pub source: String,
    pub summary: String,
    /// Display names of the light (SOUTH) and dark (NORTH) sides.
    #[serde(default = "default_sides")]
    pub sides: [String; 2],
    pub pieces: u8,
    pub board: String,
    pub path: PathSpec,
    /// The dark path; absent means the light path mirrored.
    pub dark_path: Option<PathSpec>,
    pub dice: DiceModel,
    #[serde(default)]
    pub throws: Vec<ThrowSpec>,
    #[serde(default)]
    pub rosettes: RosetteSpec,
    #[serde(default)]
    pub squares: Vec<SquareSpec>,
    #[serde(default)]
    pub capture_extra_roll: Extra,
    pub pot: Option<PotSpec>,
    pub birds: Option<BirdSpec>,
    /// Judgment calls from the specification, for `ur rules show`.
    #[serde(default)]
    pub notes: Vec<String>,
}

fn default_sides() -> [String; 2] {
    ["Light".into(), "Dark".into()]
}

/// A value given to an option.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Text(s) => write!(f, "{s}"),
        }
    }
}

impl OptionValue {
    /// Reads a command-line value: `true`/`false`, an integer, else text.
    pub fn parse(text: &str) -> OptionValue {
        match text {
            "true" => OptionValue::Bool(true),
            "false" => OptionValue::Bool(false),
            _ => text.parse().map_or_else(|_| OptionValue::Text(text.into()), OptionValue::Int),
        }
    }

    fn to_toml(&self) -> toml::Value {
        match self {
            OptionValue::Bool(b) => toml::Value::Boolean(*b),
            OptionValue::Int(i) => toml::Value::Integer(*i),
            OptionValue::Text(s) => toml::Value::String(s.clone()),
        }
    }

    fn key(&self) -> String {
        self.to_string()
    }
}

/// Option values by name.
pub type Options = BTreeMap<String, OptionValue>;

/// An option a rule set offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionSpec {
    pub name: String,
    pub description: String,
    pub default: OptionValue,
    /// Each allowed value with the patch it applies.
    #[serde(default)]
    pub values: BTreeMap<String, toml::Table>,
    /// For a numeric option: the dotted field it sets.
    pub field: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl OptionSpec {
    /// The allowed values, for help texts.
    pub fn allowed(&self) -> String {
        if self.values.is_empty() {
            format!("integer {}..={}", self.min.unwrap_or(0), self.max.unwrap_or(i64::MAX))
        } else {
            self.values.keys().cloned().collect::<Vec<_>>().join(" | ")
        }
    }
}

/// Errors in rule-set files and options.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("rule-set file is not valid: {0}")]
    Toml(String),
    #[error("unknown rule set '{0}'; `ur rules` lists the rule sets")]
    UnknownRuleSet(String),
    #[error("unknown option '{option}' for rule set '{rules}'; its options are: {known}")]
    UnknownOption { rules: String, option: String, known: String },
    #[error("option '{option}' cannot be '{value}'; allowed: {allowed}")]
    BadOptionValue { option: String, value: String, allowed: String },
    #[error("rule set '{rules}': field '{field}': {problem}")]
    Invalid { rules: String, field: String, problem: String },
}

/// A rule-set file: the base rules and the options that patch them.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSetFile {
    base: toml::Table,
    pub id: String,
    pub name: String,
    pub options: Vec<OptionSpec>,
}

impl RuleSetFile {
    /// Parses a rule-set file.
    ///
    /// # Errors
    /// A TOML syntax error, or a missing or malformed field, names the field.
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let mut base: toml::Table = text.parse().map_err(|e: toml::de::Error| SpecError::Toml(e.to_string()))?;
        let options = match base.remove("options") {
            None => Vec::new(),
            Some(v) => Vec::<OptionSpec>::deserialize(v).map_err(|e| SpecError::Toml(format!("in [[options]]: {e}")))?,
        };
        let text_field = |k: &str| -> Result<String, SpecError> {
            base.get(k).and_then(|v| v.as_str()).map(str::to_owned).ok_or_else(|| SpecError::Invalid {
                rules: "?".into(),
                field: k.into(),
                problem: "missing (a string is required)".into(),
            })
        };
        let id = text_field("id")?;
        let name = text_field("name")?;
        let file = RuleSetFile { base, id, name, options };
        file.resolve(&Options::new())?; // the defaults must give valid rules
        Ok(file)
    }

    /// The built-in rule set with this id.
    ///
    /// # Errors
    /// [`SpecError::UnknownRuleSet`] for an unknown id.
    pub fn builtin(id: &str) -> Result<Self, SpecError> {
        BUILTIN
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, text)| RuleSetFile::parse(text).expect("built-in rule sets are valid"))
            .ok_or_else(|| SpecError::UnknownRuleSet(id.into()))
    }

    /// Every built-in rule set, in catalogue order.
    pub fn all_builtin() -> Vec<RuleSetFile> {
        BUILTIN.iter().map(|(_, t)| RuleSetFile::parse(t).expect("built-in rule sets are valid")).collect()
    }

    /// Every option with its value: the given one, else the default.
    ///
    /// # Errors
    /// An unknown option name.
    pub fn full_options(&self, given: &Options) -> Result<Options, SpecError> {
        let mut all: Options = self.options.iter().map(|o| (o.name.clone(), o.default.clone())).collect();
        all.insert("pieces".into(), OptionValue::Int(self.base.get("pieces").and_then(|v| v.as_integer()).unwrap_or(7)));
        for (k, v) in given {
            if !all.contains_key(k) {
                return Err(SpecError::UnknownOption { rules: self.id.clone(), option: k.clone(), known: self.option_names() });
            }
            all.insert(k.clone(), v.clone());
        }
        Ok(all)
    }

    fn option_names(&self) -> String {
        let mut names: Vec<&str> = self.options.iter().map(|o| o.name.as_str()).collect();
        names.push("pieces");
        names.join(", ")
    }

    /// Applies options to the base rules and reads the result.
    ///
    /// # Errors
    /// An unknown option or value, or rules that are not valid after patching.
    pub fn resolve(&self, given: &Options) -> Result<RaceSpec, SpecError> {
        let all = self.full_options(given)?;
        let mut table = self.base.clone();
        for opt in &self.options {
            let value = &all[&opt.name];
            merge(&mut table, &patch_for(opt, value)?);
        }
        let pieces = match &all["pieces"] {
            OptionValue::Int(n) if (1..=15).contains(n) => *n,
            v => return Err(SpecError::BadOptionValue { option: "pieces".into(), value: v.to_string(), allowed: "integer 1..=15".into() }),
        };
        table.insert("pieces".into(), toml::Value::Integer(pieces));
        RaceSpec::deserialize(toml::Value::Table(table)).map_err(|e| SpecError::Invalid {
            rules: self.id.clone(),
            field: "(rules)".into(),
            problem: e.to_string().trim().to_owned(),
        })
    }
}

fn patch_for(opt: &OptionSpec, value: &OptionValue) -> Result<toml::Table, SpecError> {
    let bad = || SpecError::BadOptionValue { option: opt.name.clone(), value: value.to_string(), allowed: opt.allowed() };
    if let Some(field) = &opt.field {
        let OptionValue::Int(n) = value else { return Err(bad()) };
        if opt.min.is_some_and(|m| *n < m) || opt.max.is_some_and(|m| *n > m) {
            return Err(bad());
        }
        return Ok(dotted(field, value.to_toml()));
    }
    opt.values.get(&value.key()).cloned().ok_or_else(bad)
}

/// `a.b = v` as a nested table.
fn dotted(field: &str, value: toml::Value) -> toml::Table {
    let mut parts = field.rsplit('.');
    let last = parts.next().unwrap_or(field);
    let mut t = toml::Table::new();
    t.insert(last.into(), value);
    for p in parts {
        let mut outer = toml::Table::new();
        outer.insert(p.into(), toml::Value::Table(t));
        t = outer;
    }
    t
}

/// Deep-merges `patch` into `base`: tables merge, anything else replaces.
fn merge(base: &mut toml::Table, patch: &toml::Table) {
    for (k, v) in patch {
        match (base.get_mut(k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(p)) => merge(b, p),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Built-in rule sets: `(id, TOML text)`, in catalogue order.
pub const BUILTIN: &[(&str, &str)] = &[
    ("finkel", include_str!("../../../rulesets/finkel.toml")),
    ("masters", include_str!("../../../rulesets/masters.toml")),
    ("blitz", include_str!("../../../rulesets/blitz.toml")),
    ("aseb", include_str!("../../../rulesets/aseb.toml")),
    ("v1-simple", include_str!("../../../rulesets/v1-simple.toml")),
    ("v1-named-birds", include_str!("../../../rulesets/v1-named-birds.toml")),
    ("walker-cyningstan", include_str!("../../../rulesets/walker-cyningstan.toml")),
    ("ludens-planet", include_str!("../../../rulesets/ludens-planet.toml")),
    ("regency-conventional", include_str!("../../../rulesets/regency-conventional.toml")),
    ("regency-murray", include_str!("../../../rulesets/regency-murray.toml")),
    ("regency-british-museum", include_str!("../../../rulesets/regency-british-museum.toml")),
    ("regency-bell", include_str!("../../../rulesets/regency-bell.toml")),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_with_defaults_and_matches_its_id() {
        for (id, text) in BUILTIN {
            let f = RuleSetFile::parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(&f.id, id);
        }
    }

    #[test]
    fn unknown_option_is_named() {
        let f = RuleSetFile::builtin("finkel").unwrap();
        let mut o = Options::new();
        o.insert("colour".into(), OptionValue::Text("red".into()));
        let e = f.resolve(&o).unwrap_err();
        assert!(e.to_string().contains("colour"), "{e}");
    }

    #[test]
    fn malformed_toml_names_the_field() {
        let text = BUILTIN[0].1.replace("dice = \"BIN4\"", "dice = \"BIN9\"");
        let e = RuleSetFile::parse(&text).unwrap_err();
        assert!(e.to_string().contains("BIN9"), "{e}");
    }
}
