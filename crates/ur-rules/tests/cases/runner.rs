//! The family-independent part of the rule-case tests: finding and naming
//! the case files, reading a `[[case]]` table into its family's case and
//! steps, the refusal checks of `options_error` / `position_error`, the step
//! loop, the report of every failure, and the clause-coverage check.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use ur_rules::{OptionValue, Options, Side};

/// The ending of every case file's name: `<rule-set id>.cases.toml`.
pub const SUFFIX: &str = ".cases.toml";

/// What a rule family adds to the runner: how its cases read, how its game is
/// built and played, and which items its case files must name.
pub trait Family {
    /// The family's folder under `tests/cases/`.
    const FOLDER: &'static str;
    /// Case keys read into [`Family::Case`]; every other key (besides the
    /// runner's `clause`, `options`, `options_error`, `position_error` and
    /// `steps`) is a key of the case's first step.
    const CASE_KEYS: &'static [&'static str];
    /// The rule sets that must have a case file.
    const RULE_SETS: &'static [&'static str];
    /// Cases each file must hold at least.
    const MIN_CASES: usize;
    /// Judgment-call items (docs/rules/) the family's files must name between them.
    const SHARED_TAGS: &'static [&'static str] = &[];

    /// The case keys of [`Family::CASE_KEYS`] (unknown keys should be refused).
    type Case: DeserializeOwned;
    /// One step (unknown keys should be refused).
    type Step: DeserializeOwned;
    /// The rule set with its options applied.
    type Rules;
    /// A game in play.
    type Game;

    /// Judgment-call items (docs/rules/) the rule set's file must name in some case's clause.
    fn required_tags(id: &str) -> Vec<&'static str>;
    /// The rule set with the case's options; `Err` when they are refused.
    fn rules(id: &str, options: &Options) -> Result<Self::Rules, String>;
    /// The case's game (its `position`, or the start); `Err` when the position is refused.
    fn game(rules: &Self::Rules, case: &Self::Case) -> Result<Self::Game, String>;
    /// Checks of the case's own keys on the rules and the game before any step.
    fn check_start(rules: &Self::Rules, game: &Self::Game, case: &Self::Case, errs: &mut Vec<String>) -> Result<(), String>;
    /// Plays one step and checks it. Failures go to `errs`; `Err` also ends the case.
    fn step(rules: &Self::Rules, game: &mut Self::Game, step: &Self::Step, errs: &mut Vec<String>) -> Result<(), String>;
}

/// One `[[case]]` table, read.
struct Case<F: Family> {
    options: Options,
    options_error: bool,
    position_error: bool,
    own: F::Case,
    steps: Vec<F::Step>,
}

/// The outcome of the cases of one or more files.
#[derive(Debug, Default)]
pub struct Report {
    pub cases: usize,
    pub failures: Vec<String>,
}

impl Report {
    /// The text a failing test shows: every failure, with the count; `None` when all cases hold.
    pub fn failure_text(&self, what: &str) -> Option<String> {
        if self.cases == 0 {
            return Some(format!("no {what} cases were run"));
        }
        (!self.failures.is_empty())
            .then(|| format!("{} of {} {what} cases failed:\n\n{}", self.failures.len(), self.cases, self.failures.join("\n\n")))
    }
}

/// `tests/cases/` of the repository.
pub fn cases_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cases")
}

/// The path shown in messages: from the repository root.
fn shown(folder: &str, name: &str) -> String {
    format!("tests/cases/{folder}/{name}")
}

/// The rule-set id a case file's name gives, or why the name is refused.
pub fn case_id(name: &str) -> Result<&str, String> {
    let id = name.strip_suffix(SUFFIX).unwrap_or_default();
    let fine = !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if fine {
        Ok(id)
    } else {
        Err(format!("'{name}' is not a case file name: case files are named <rule-set id>{SUFFIX}"))
    }
}

/// The family's case files as (shown path, rule-set id, full path), sorted;
/// every other entry of the folder is a problem.
pub fn case_files<F: Family>() -> (Vec<(String, String, PathBuf)>, Vec<String>) {
    let dir = cases_root().join(F::FOLDER);
    let mut files = Vec::new();
    let mut problems = Vec::new();
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => return (files, vec![format!("tests/cases/{}: cannot read: {e}", F::FOLDER)]),
    };
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let at = shown(F::FOLDER, &name);
        if !path.is_file() {
            problems.push(format!("{at}: not a case file: the folder holds only <rule-set id>{SUFFIX} files"));
            continue;
        }
        match case_id(&name) {
            Ok(id) => files.push((at, id.to_owned(), path.clone())),
            Err(e) => problems.push(format!("{at}: {e}")),
        }
    }
    files.sort();
    (files, problems)
}

/// The `[[case]]` tables of a case file's text.
pub fn tables(text: &str) -> Result<Vec<toml::Table>, String> {
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("not valid TOML: {e}"))?;
    let cases = table.remove("case").ok_or("no [[case]] tables")?;
    if let Some(k) = table.keys().next() {
        return Err(format!("unknown top-level key '{k}' (only [[case]] tables)"));
    }
    Vec::<toml::Table>::deserialize(cases).map_err(|e| format!("[[case]]: {e}"))
}

fn take<T: DeserializeOwned>(t: &mut toml::Table, k: &str) -> Result<Option<T>, String> {
    t.remove(k).map(|v| T::deserialize(v).map_err(|e| format!("key '{k}': {e}"))).transpose()
}

/// Rule-set options from a TOML table: booleans, integers and text.
pub fn options_of(t: &toml::Table) -> Result<Options, String> {
    t.iter()
        .map(|(k, v)| {
            let v = match v {
                toml::Value::Boolean(b) => OptionValue::Bool(*b),
                toml::Value::Integer(i) => OptionValue::Int(*i),
                toml::Value::String(s) => OptionValue::Text(s.clone()),
                other => return Err(format!("option '{k}': unsupported value {other}")),
            };
            Ok((k.clone(), v))
        })
        .collect()
}

fn parse_case<F: Family>(mut t: toml::Table) -> Result<Case<F>, String> {
    let _clause: String = take(&mut t, "clause")?.ok_or("missing 'clause'")?;
    let options = options_of(&take(&mut t, "options")?.unwrap_or_default())?;
    let options_error = take(&mut t, "options_error")?.unwrap_or(false);
    let position_error = take(&mut t, "position_error")?.unwrap_or(false);
    let later: Vec<toml::Table> = take(&mut t, "steps")?.unwrap_or_default();
    let own: toml::Table = F::CASE_KEYS.iter().filter_map(|k| t.remove(*k).map(|v| ((*k).to_owned(), v))).collect();
    let own = F::Case::deserialize(toml::Value::Table(own)).map_err(|e| format!("case keys: {e}"))?;
    let mut steps = Vec::new();
    if !t.is_empty() {
        steps.push(F::Step::deserialize(toml::Value::Table(t)).map_err(|e| format!("case keys: {e}"))?);
    }
    for (i, s) in later.into_iter().enumerate() {
        steps.push(F::Step::deserialize(toml::Value::Table(s)).map_err(|e| format!("steps[{i}]: {e}"))?);
    }
    Ok(Case { options, options_error, position_error, own, steps })
}

/// Runs one case; returns its failures (empty when it passes).
fn run_case<F: Family>(id: &str, case: &Case<F>) -> Vec<String> {
    let mut errs = Vec::new();
    let rules = match (F::rules(id, &case.options), case.options_error) {
        (Ok(_), true) => return vec![format!("options {:?} were accepted, expected refused", case.options)],
        (Err(_), true) => return errs,
        (Err(e), false) => return vec![format!("options {:?} refused: {e}", case.options)],
        (Ok(r), false) => r,
    };
    let mut game = match (F::game(&rules, &case.own), case.position_error) {
        (Ok(_), true) => return vec!["the position was accepted, expected refused".into()],
        (Err(_), true) => return errs,
        (Err(e), false) => return vec![format!("position refused: {e}")],
        (Ok(g), false) => g,
    };
    if let Err(e) = F::check_start(&rules, &game, &case.own, &mut errs) {
        errs.push(e);
        return errs;
    }
    for (i, step) in case.steps.iter().enumerate() {
        let mut step_errs = Vec::new();
        let end = F::step(&rules, &mut game, step, &mut step_errs);
        errs.extend(step_errs.into_iter().chain(end.as_ref().err().cloned()).map(|e| format!("step {}: {e}", i + 1)));
        if end.is_err() {
            break;
        }
    }
    errs
}

/// Runs every case of one file's text; `file` names it in the failures.
pub fn run_text<F: Family>(file: &str, id: &str, text: &str) -> Report {
    let mut report = Report::default();
    let tables = match tables(text) {
        Ok(t) => t,
        Err(e) => {
            report.failures.push(format!("{file}: {e}"));
            return report;
        }
    };
    for (i, t) in tables.into_iter().enumerate() {
        report.cases += 1;
        let clause = t.get("clause").and_then(|c| c.as_str()).unwrap_or("(no clause)").to_owned();
        let head = format!("{file} case #{} [{clause}]", i + 1);
        match parse_case::<F>(t) {
            Ok(case) => report.failures.extend(run_case(id, &case).into_iter().map(|e| format!("{head}: {e}"))),
            Err(e) => report.failures.push(format!("{head}: bad case: {e}")),
        }
    }
    report
}

/// Runs every case of the family's files.
pub fn run_family<F: Family>() -> Report {
    let (files, problems) = case_files::<F>();
    let mut report = Report { cases: 0, failures: problems };
    for (shown, id, path) in files {
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let r = run_text::<F>(&shown, &id, &text);
                report.cases += r.cases;
                report.failures.extend(r.failures);
            }
            Err(e) => report.failures.push(format!("{shown}: cannot read: {e}")),
        }
    }
    report
}

/// Whether a clause names a tag as a whole word: `D08` is not `D080`, `T1` is not `T10`.
pub fn names(clause: &str, tag: &str) -> bool {
    clause.match_indices(tag).any(|(at, _)| {
        let before = clause[..at].chars().next_back();
        let after = clause[at + tag.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric()) && !after.is_some_and(|c| c.is_alphanumeric())
    })
}

/// The tags no clause names.
pub fn unnamed<'t>(clauses: &[String], tags: &[&'t str]) -> Vec<&'t str> {
    tags.iter().copied().filter(|tag| !clauses.iter().any(|c| names(c, tag))).collect()
}

/// The clause-coverage problems of the family's files: each required rule set
/// has a file with at least [`Family::MIN_CASES`] cases naming every required
/// tag, and the files together name every shared tag.
pub fn coverage<F: Family>() -> Vec<String> {
    let (files, mut problems) = case_files::<F>();
    let mut all_clauses = Vec::new();
    for id in F::RULE_SETS {
        let name = shown(F::FOLDER, &format!("{id}{SUFFIX}"));
        let Some((_, _, path)) = files.iter().find(|(_, i, _)| i == id) else {
            problems.push(format!("{name}: missing: rule set '{id}' has no case file"));
            continue;
        };
        let tables = match std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}")).and_then(|t| tables(&t)) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        if tables.len() < F::MIN_CASES {
            problems.push(format!("{name}: {} cases, at least {} required", tables.len(), F::MIN_CASES));
        }
        let clauses: Vec<String> = tables.iter().filter_map(|t| t.get("clause").and_then(|c| c.as_str()).map(str::to_owned)).collect();
        let missing = unnamed(&clauses, &F::required_tags(id));
        if !missing.is_empty() {
            problems.push(format!("{name}: no case names {}", missing.join(", ")));
        }
        all_clauses.extend(clauses);
    }
    let missing = unnamed(&all_clauses, F::SHARED_TAGS);
    if !missing.is_empty() {
        problems.push(format!("tests/cases/{}: no case names {}", F::FOLDER, missing.join(", ")));
    }
    problems
}

/// Asserts that every case of the family holds.
pub fn assert_cases<F: Family>() {
    if let Some(text) = run_family::<F>().failure_text(F::FOLDER) {
        panic!("{text}");
    }
}

/// Asserts the family's clause coverage.
pub fn assert_coverage<F: Family>() {
    let problems = coverage::<F>();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The two tests of a family, named as given: every case of its files holds
/// ([`assert_cases`]), and its files name every item they must
/// ([`assert_coverage`]).
macro_rules! family_tests {
    ($family:ty, $cases:ident, $coverage:ident) => {
        #[test]
        fn $cases() {
            $crate::runner::assert_cases::<$family>();
        }

        #[test]
        fn $coverage() {
            $crate::runner::assert_coverage::<$family>();
        }
    };
}
pub(crate) use family_tests;

/// A case's `path_cells`: the cell (`[row, column]`) of every path
/// position, per side.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathCells {
    light: Vec<[u8; 2]>,
    dark: Vec<[u8; 2]>,
}

impl PathCells {
    /// Where a side's path (`path(side)`, positions 1 and on) differs from the case.
    pub fn problems(&self, path: impl Fn(Side) -> Vec<[u8; 2]>, errs: &mut Vec<String>) {
        for (side, want) in [(Side::Light, &self.light), (Side::Dark, &self.dark)] {
            let got = path(side);
            if &got != want {
                errs.push(format!("{side} path cells are {got:?}, expected {want:?}"));
            }
        }
    }
}

/// A roll's outcome against the case: an accepted roll that should be
/// refused, or a refused one that should be accepted.
pub fn roll_problem<E: std::fmt::Display>(raw: u8, result: Result<(), E>, refused: bool) -> Result<(), String> {
    match (result, refused) {
        (Ok(()), true) => Err(format!("roll {raw} was accepted, expected refused")),
        (Err(e), false) => Err(format!("roll {raw} refused: {e}")),
        _ => Ok(()),
    }
}

/// The open actions against a step's `legal` (exactly these, any order),
/// `must` (among them) and `must_not` (not among them).
pub fn open_problems(open: &[String], legal: Option<&[String]>, must: &[String], must_not: &[String]) -> Vec<String> {
    let mut errs = Vec::new();
    if let Some(want) = legal {
        let (mut w, mut g) = (want.to_vec(), open.to_vec());
        w.sort();
        g.sort();
        if w != g {
            errs.push(format!("open actions are {g:?}, expected {w:?}"));
        }
    }
    errs.extend(must.iter().filter(|m| !open.contains(m)).map(|m| format!("'{m}' must be open; open: {open:?}")));
    errs.extend(must_not.iter().filter(|m| open.contains(m)).map(|m| format!("'{m}' must not be open; open: {open:?}")));
    errs
}
