//! Rule sets as data: the TOML schema, options, and the built-in rule sets.
//!
//! A rule-set file is a base description plus named options. Each option value
//! is a patch (a TOML table) merged over the base before it is read, so an
//! option can change any field: the dice, the path, a square's kind.
//!
//! Every field is type-checked by hand (see [`check`]) so that a file with
//! several mistakes is refused with one error naming each of them; the board,
//! path and throws are then checked when the rules are compiled
//! ([`crate::Rules::from_file`]).

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
    /// Whether a path may step between squares that are not neighbours in a
    /// row or column (no built-in rule set does; the check catches typos).
    #[serde(default)]
    pub non_adjacent_steps: bool,
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

/// One problem found in a rule-set file: the field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The field, dotted for tables (`rosettes.kind`), with list entries
    /// counted from 1 (`throws[2].value`).
    pub field: String,
    /// What is wrong and what is allowed, in plain words.
    pub message: String,
}

impl Problem {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field '{}': {}", self.field, self.message)
    }
}

/// Most problems an error lists one by one; the rest are counted, so that
/// a file with thousands of mistakes gives a message one can read.
pub const LISTED_PROBLEMS: usize = 20;

/// One problem on its own line, several as an indented list: the first
/// [`LISTED_PROBLEMS`], then how many more there are.
fn problem_list(problems: &[Problem]) -> String {
    match problems {
        [one] => one.to_string(),
        many => {
            let mut text = format!("{} problems:", thousands(many.len()));
            for p in many.iter().take(LISTED_PROBLEMS) {
                text.push_str("\n  - ");
                text.push_str(&p.to_string());
            }
            if many.len() > LISTED_PROBLEMS {
                text.push_str(&format!("\n  … and {} more problems", thousands(many.len() - LISTED_PROBLEMS)));
            }
            text
        }
    }
}

/// `16200` as `16,200`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Most characters in a rule-set id.
pub const MAX_ID_LEN: usize = 64;

/// Checks a rule-set id: 1 to [`MAX_ID_LEN`] characters from `a-z`, `0-9`,
/// `-` and `_`. Ids name table files and record downloads, so nothing else
/// (a path separator, `..`, a quote, a control character) may be in one.
///
/// # Errors
/// The id as shown in messages and the rule it breaks.
pub fn check_id(id: &str) -> Result<(), String> {
    let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_';
    if (1..=MAX_ID_LEN).contains(&id.len()) && id.bytes().all(allowed) {
        Ok(())
    } else {
        Err(format!("rule-set id '{}': use 1 to {MAX_ID_LEN} characters from a-z, 0-9, - and _", shown_id(id)))
    }
}

/// An id as messages show it: control characters and quotes escaped, cut
/// after [`MAX_ID_LEN`] characters.
pub fn shown_id(id: &str) -> String {
    let mut shown: String = id
        .chars()
        .take(MAX_ID_LEN)
        .flat_map(|c| if c.is_control() || c == '\'' { c.escape_default().collect::<Vec<_>>() } else { vec![c] })
        .collect();
    if id.chars().count() > MAX_ID_LEN {
        shown.push_str("...");
    }
    shown
}

fn positions_text(positions: &[u8]) -> String {
    let named: Vec<String> = positions.iter().map(|&p| if p == 0 { "0 (the reserve)".to_owned() } else { p.to_string() }).collect();
    match named.as_slice() {
        [one] => format!("a piece on position {one}"),
        _ => format!("pieces on positions {}", named.join(", ")),
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
    /// Every problem found in a rule-set file: wrong types, unknown fields,
    /// squares off the board, broken paths, throws the dice cannot show.
    #[error("rule set '{rules}': {}", problem_list(.problems))]
    Problems { rules: String, problems: Vec<Problem> },
    /// Some path position can never reach home with the throws of the rule
    /// set, so a game could run forever.
    #[error(
        "rule set '{rules}' can never be finished: {} can never reach home (position {home}); {detail}. Fix: {fix}",
        positions_text(.positions)
    )]
    Unfinishable { rules: String, positions: Vec<u8>, home: u8, detail: String, fix: String },
}

impl SpecError {
    /// The problems this error stands for, one per field.
    pub fn problems(&self) -> Vec<Problem> {
        match self {
            SpecError::Problems { problems, .. } => problems.clone(),
            SpecError::Invalid { field, problem, .. } => vec![Problem::new(field.clone(), problem.clone())],
            SpecError::BadOptionValue { option, value, allowed } => {
                vec![Problem::new(option.clone(), format!("cannot be '{value}'; allowed: {allowed}"))]
            }
            SpecError::Unfinishable { .. } => {
                let text = self.to_string();
                let message = text.split_once(": ").map_or(text.as_str(), |(_, m)| m).to_owned();
                vec![Problem::new("throws", message)]
            }
            other => vec![Problem::new("(file)", other.to_string())],
        }
    }
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
    /// Every combination of option values, each with `pieces` 1 to
    /// `max_pieces`: every value of a value option, the default and bounds of
    /// a numeric one. For tests and fuzzing that sweep a rule set's variants.
    pub fn option_combinations(&self, max_pieces: u8) -> Vec<Options> {
        let mut combos = vec![Options::new()];
        for opt in &self.options {
            let values: Vec<OptionValue> = if opt.values.is_empty() {
                let mut v = vec![opt.default.clone()];
                v.extend([opt.min, opt.max].into_iter().flatten().map(OptionValue::Int));
                v.sort();
                v.dedup();
                v
            } else {
                opt.values.keys().map(|k| OptionValue::parse(k)).collect()
            };
            combos = combos.iter().flat_map(|base| values.iter().map(move |v| with(base, &opt.name, v.clone()))).collect();
        }
        combos.iter().flat_map(|base| (1..=max_pieces).map(move |n| with(base, "pieces", OptionValue::Int(i64::from(n))))).collect()
    }

    /// Parses and checks a rule-set file: every field, the board, the paths,
    /// the throws and whether a game can always be finished, with the
    /// default options and with each value of each option.
    ///
    /// # Errors
    /// A TOML syntax error ([`SpecError::Toml`]); otherwise one error naming
    /// every problem found ([`SpecError::Problems`]), or the one problem
    /// when there is only one (an unfinishable game is
    /// [`SpecError::Unfinishable`]).
    pub fn parse(text: &str) -> Result<Self, SpecError> {
        let mut base: toml::Table = text.parse().map_err(|e: toml::de::Error| SpecError::Toml(e.to_string()))?;
        let mut c = check::Checker::default();
        let options = match base.remove("options") {
            None => Vec::new(),
            Some(v) => c.options(&v),
        };
        let id = base.get("id").and_then(toml::Value::as_str).unwrap_or("(no id)").to_owned();
        let name = base.get("name").and_then(toml::Value::as_str).unwrap_or_default().to_owned();
        let file = RuleSetFile { base, id, name, options };
        let mut problems = c.problems;
        let mut default_error = None;
        if let Err(e) = crate::Rules::from_file(&file, &Options::new()) {
            problems.extend(e.problems());
            default_error = Some(e);
        }
        if problems.is_empty() {
            for opt in &file.options {
                for value in opt.tried_values() {
                    if value == opt.default {
                        continue;
                    }
                    let given = Options::from([(opt.name.clone(), value.clone())]);
                    if let Err(e) = crate::Rules::from_file(&file, &given) {
                        let with = |p: Problem| Problem::new(p.field, format!("{} (with option {}={value})", p.message, opt.name));
                        problems.extend(e.problems().into_iter().map(with));
                    }
                }
            }
        }
        match (problems.len(), default_error) {
            (0, _) => Ok(file),
            (1, Some(e)) => Err(e),
            _ => Err(SpecError::Problems { rules: shown_id(&file.id), problems }),
        }
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
        all.insert("pieces".into(), OptionValue::Int(self.base.get("pieces").and_then(|v| v.as_integer()).unwrap_or(DEFAULT_PIECES)));
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
    /// An unknown option or value, or rules that are not valid after patching
    /// ([`SpecError::Problems`] names every field at fault).
    pub fn resolve(&self, given: &Options) -> Result<RaceSpec, SpecError> {
        let all = self.full_options(given)?;
        let mut table = self.base.clone();
        for opt in &self.options {
            let value = &all[&opt.name];
            merge(&mut table, &patch_for(opt, value)?);
        }
        // The base's own `pieces` is checked with the other fields; a value
        // given as an option is checked here.
        match given.get("pieces") {
            None => {}
            Some(OptionValue::Int(n)) if (1..=i64::from(MAX_PIECES)).contains(n) => {
                table.insert("pieces".into(), toml::Value::Integer(*n));
            }
            Some(v) => {
                return Err(SpecError::BadOptionValue {
                    option: "pieces".into(),
                    value: v.to_string(),
                    allowed: format!("integer 1..={MAX_PIECES}"),
                })
            }
        }
        check::race(&table).map_err(|problems| SpecError::Problems { rules: shown_id(&self.id), problems })
    }
}

/// Pieces per side when a file does not say.
pub const DEFAULT_PIECES: i64 = 7;
/// Most pieces per side.
pub const MAX_PIECES: u8 = 15;

impl OptionSpec {
    /// The values [`RuleSetFile::parse`] tries: every value of a value
    /// option; the default and bounds of a numeric one.
    fn tried_values(&self) -> Vec<OptionValue> {
        if self.field.is_some() {
            let mut v = vec![self.default.clone()];
            v.extend([self.min, self.max].into_iter().flatten().map(OptionValue::Int));
            v.dedup();
            v
        } else {
            self.values.keys().map(|k| OptionValue::parse(k)).collect()
        }
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

/// `base` with one option set.
fn with(base: &Options, name: &str, value: OptionValue) -> Options {
    let mut o = base.clone();
    o.insert(name.to_owned(), value);
    o
}

mod check;
pub use check::{NESTED_FIELDS, RACE_FIELDS};

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
