//! Data-driven rule tests: `tests/cases/<family>/<rule-set id>.cases.toml`
//! holds cases derived from the rule set's page in docs/rules/, one or more per rule clause,
//! DECISION and OPEN item. One runner ([`runner`]) reads and runs the files
//! of every rule family and checks that their clauses name the items they
//! must; each family ([`race`], [`marker`], [`tower`]) only says how its
//! cases read, how its game is built and played, and which items it must
//! name. All failing cases are reported together, each with its file, its
//! number and clause, its step and what differed.
//!
//! A new family is a module implementing [`runner::Family`], its folder under
//! `tests/cases/` in [`FAMILIES`], and its two tests from
//! `runner::family_tests!`.

mod marker;
mod race;
mod runner;
mod tower;

use runner::Family;

/// The folders of `tests/cases/`, one per family.
const FAMILIES: [&str; 3] = [race::Race::FOLDER, marker::Marker::FOLDER, tower::Tower::FOLDER];

#[test]
fn the_case_folders_are_the_families() {
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(runner::cases_root()).expect("tests/cases exists") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if !path.is_dir() || !FAMILIES.contains(&name.as_str()) {
            problems.push(format!("tests/cases/{name}: not a family folder (one of {FAMILIES:?})"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn case_file_names_name_a_rule_set() {
    assert_eq!(runner::case_id("v1-simple.cases.toml"), Ok("v1-simple"));
    for bad in ["v1-simple.toml", ".cases.toml", "v1-simple.cases.toml.bak", "V1 Simple.cases.toml", "notes.md"] {
        let e = runner::case_id(bad).expect_err(bad);
        assert!(e.contains(bad) && e.contains("<rule-set id>.cases.toml"), "{e}");
    }
}

const GOOD_CASE: &str = r#"
[[case]]
clause = "G1 entering with a 1"
value = 1
legal = [[0, 1]]
"#;

/// A wrong legal set, a wrong position after a play, and a refusal that does not happen.
const WRONG_CASES: &str = r#"
[[case]]
clause = "G1 a deliberately wrong legal set"
value = 2
legal = [[0, 1]]

[[case]]
clause = "G2 a deliberately wrong position"
value = 1
play = [0, 1]
steps = [{ after = { to_move = "dark", position = { light = { path = [2] } } } }]

[[case]]
clause = "a deliberately wrong refusal: the default options"
options_error = true
"#;

#[test]
fn the_runner_passes_a_right_case() {
    let report = runner::run_text::<race::Race>("inline.cases.toml", "v1-simple", GOOD_CASE);
    assert_eq!(report.cases, 1);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

#[test]
fn the_runner_reports_wrong_cases_by_file_case_and_difference() {
    let report = runner::run_text::<race::Race>("inline.cases.toml", "v1-simple", WRONG_CASES);
    assert_eq!(report.cases, 3);
    let [legal, position, refusal] = report.failures.as_slice() else { panic!("expected 3 failures, got {:#?}", report.failures) };
    assert!(legal.starts_with("inline.cases.toml case #1 [G1 a deliberately wrong legal set]: step 1: "), "{legal}");
    assert!(legal.contains("legal moves are [[0, 2]], expected [[0, 1]]"), "{legal}");
    assert!(position.starts_with("inline.cases.toml case #2 [G2 a deliberately wrong position]: step 2: "), "{position}");
    assert!(position.contains("position is") && position.contains("expected"), "{position}");
    assert!(refusal.starts_with("inline.cases.toml case #3 [a deliberately wrong refusal: the default options]: "), "{refusal}");
    assert!(refusal.contains("accepted, expected refused"), "{refusal}");
    let text = report.failure_text("inline").expect("a failing report must fail the test");
    assert!(text.contains("3 of 3 inline cases failed") && text.contains("case #1 [G1"), "{text}");
}

#[test]
fn the_runner_reports_a_malformed_case() {
    let text = "[[case]]\nclause = \"a misspelt key\"\nvalu = 1\n";
    let report = runner::run_text::<marker::Marker>("inline.cases.toml", "bens-ur", text);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    assert!(report.failures[0].starts_with("inline.cases.toml case #1 [a misspelt key]: bad case: "), "{}", report.failures[0]);
    assert!(report.failures[0].contains("valu"), "{}", report.failures[0]);
    let no_clause = runner::run_text::<tower::Tower>("inline.cases.toml", "guard-d6", "[[case]]\nraw = 1\n");
    assert!(no_clause.failures[0].contains("missing 'clause'"), "{:?}", no_clause.failures);
    let not_toml = runner::run_text::<tower::Tower>("inline.cases.toml", "guard-d6", "[[case]\n");
    assert!(not_toml.failures[0].starts_with("inline.cases.toml: not valid TOML"), "{:?}", not_toml.failures);
}

#[test]
fn clauses_name_tags_as_whole_words() {
    assert!(runner::names("G1 / §1.3: entering", "G1"));
    assert!(runner::names("G1 / §1.3: entering", "§1.3"));
    assert!(!runner::names("T10 a long stack", "T1"));
    assert!(!runner::names("D080", "D08"));
    let clauses = ["G1 / §1.3: entering".to_owned(), "T10 a long stack".to_owned()];
    assert_eq!(runner::unnamed(&clauses, &["G1", "§1.3", "T1", "T10", "D08"]), ["T1", "D08"]);
}
