//! Rule-set files: every mistake is refused with a message naming the field,
//! what was found and what is allowed; every built-in rule set and every
//! option combination it offers still loads; no input makes the parser panic.
//!
//! The bad files live in `tests/bad-rulesets/`: each one has `# expect: TEXT`
//! comment lines, and the error for the file must contain every TEXT.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use ur_rules::spec::{BUILTIN, NESTED_FIELDS, RACE_FIELDS};
use ur_rules::{OptionValue, Options, RuleSetFile, Rules, SpecError};

fn bad_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/bad-rulesets")
}

/// A file's text and its `# expect:` lines.
fn bad_files() -> Vec<(String, String, Vec<String>)> {
    let mut files: Vec<_> = std::fs::read_dir(bad_dir())
        .expect("tests/bad-rulesets exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let expect = text.lines().filter_map(|l| l.strip_prefix("# expect:")).map(|e| e.trim().to_owned()).collect();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text, expect)
        })
        .collect();
    files.sort();
    files
}

/// The error for a rule-set file with its default options, if any.
fn load(text: &str) -> Result<Rules, SpecError> {
    Rules::from_file(&RuleSetFile::parse(text)?, &Options::new())
}

/// Words of serde's or toml's own messages that must never reach a user.
const SERDE_WORDS: [&str; 5] = ["invalid type", "unit variant", "untagged enum", "did not match any variant", "expected a"];

#[test]
fn every_bad_rule_set_file_is_refused_with_its_expected_message() {
    let files = bad_files();
    assert!(files.len() >= 30, "only {} bad files", files.len());
    let mut failures = Vec::new();
    for (name, text, expect) in &files {
        assert!(!expect.is_empty(), "{name}: no `# expect:` line");
        let message = match load(text) {
            Ok(_) => {
                failures.push(format!("{name}: accepted"));
                continue;
            }
            Err(e) => e.to_string(),
        };
        for e in expect {
            if !message.contains(e.as_str()) {
                failures.push(format!("{name}: the message does not contain {e:?}:\n{message}"));
            }
        }
        if name != "syntax-error.toml" {
            for word in SERDE_WORDS {
                if message.contains(word) {
                    failures.push(format!("{name}: the message has serde's words {word:?}:\n{message}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_wrong_type_for_pieces_names_the_field_the_value_and_the_range() {
    let finkel = BUILTIN[0].1;
    for (value, found) in [
        ("\"seven\"", "the text \"seven\""),
        ("\"3\"", "the text \"3\""),
        ("3.5", "the decimal number 3.5"),
        ("true", "true (a yes/no value)"),
        ("[3]", "a list ([3])"),
        ("{ n = 3 }", "a table"),
        ("0", "the number 0"),
        ("-3", "the number -3"),
        ("16", "the number 16"),
    ] {
        let text = finkel.replace("pieces = 7", &format!("pieces = {value}"));
        let e = RuleSetFile::parse(&text).unwrap_err();
        let SpecError::Problems { problems, .. } = &e else { panic!("{value}: {e:?}") };
        assert_eq!(problems.len(), 1, "{value}: {e}");
        assert_eq!(problems[0].field, "pieces");
        assert_eq!(problems[0].message, format!("found {found}; allowed: a whole number from 1 to 15 (pieces per side)"), "{value}");
    }
}

#[test]
fn every_problem_of_a_file_is_in_one_error() {
    let text = BUILTIN[0]
        .1
        .replace("pieces = 7", "pieces = \"seven\"\nspeed = 3")
        .replace("dice = \"BIN4\"", "dice = true\nthrows = [{ raw = 1, value = 2.5, extra = \"always\" }]")
        .replace("kind = \"safe\"", "kind = 1");
    let e = RuleSetFile::parse(&text).unwrap_err();
    let SpecError::Problems { rules, problems } = &e else { panic!("{e:?}") };
    assert_eq!(rules, "finkel");
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["speed", "pieces", "dice", "throws[1].value", "throws[1].extra", "rosettes.kind"], "{e}");
    assert!(e.to_string().starts_with("rule set 'finkel': 6 problems:\n  - field 'speed': unknown field `speed`"), "{e}");
}

#[test]
fn an_unfinishable_game_names_the_positions_and_the_fix() {
    let text = BUILTIN[0].1.replace("dice = \"BIN4\"", "dice = \"BIN4\"\nthrows = [{ raw = 1, value = 2 }]");
    let e = RuleSetFile::parse(&text).unwrap_err();
    let SpecError::Unfinishable { rules, positions, home, .. } = &e else { panic!("{e:?}") };
    assert_eq!((rules.as_str(), positions.as_slice(), *home), ("finkel", &[14u8][..], 15));
    // The same check guards option values given when the rules are compiled.
    let with_d4 = BUILTIN
        .iter()
        .find(|b| b.0 == "v1-simple")
        .unwrap()
        .1
        .replace("D4 = { dice = \"D4\" }", "D4 = { dice = \"D4\", throws = [{ raw = 1, value = 2 }, { raw = 3, value = 2 }] }");
    let e = RuleSetFile::parse(&with_d4).unwrap_err();
    assert!(e.to_string().contains("with option dice=D4") && e.to_string().contains(", 14 can never reach home (position 15)"), "{e}");
}

#[test]
fn a_deliberate_jump_is_allowed_when_the_file_says_so() {
    let jump = "path = [[2, 3], [2, 1], [2, 0], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6], [1, 7], [2, 7], [2, 6]]";
    let text = BUILTIN[0].1.replace("path = \"PATH-14\"", jump);
    let e = RuleSetFile::parse(&text).unwrap_err();
    assert!(e.to_string().contains("non_adjacent_steps = true"), "{e}");
    let rules = load(&text.replace(jump, &format!("{jump}\nnon_adjacent_steps = true"))).unwrap();
    assert_eq!(rules.path_len(), 13);
}

/// A finkel file with this id line.
fn with_id(id_line: &str) -> String {
    BUILTIN[0].1.replace("id = \"finkel\"", id_line)
}

#[test]
fn a_rule_set_id_outside_the_allowed_characters_is_refused_with_the_fix() {
    let long = "a".repeat(65);
    let bad = ["../../escaped", "a/b", "", "A", "a b", "a\"b", "a\u{7f}b", "a\r\nb", "caf\u{e9}", "a\\b", ".", &long];
    for id in bad {
        let toml_id = toml::Value::String(id.to_owned()).to_string();
        let e = RuleSetFile::parse(&with_id(&format!("id = {toml_id}"))).unwrap_err();
        let SpecError::Problems { problems, .. } = &e else { panic!("{id:?}: {e:?}") };
        assert_eq!(problems.len(), 1, "{id:?}: {e}");
        assert_eq!(problems[0].field, "id", "{id:?}");
        let message = e.to_string();
        assert!(message.contains("use 1 to 64 characters from a-z, 0-9, - and _"), "{id:?}: {message}");
        assert!(!message.chars().any(char::is_control), "{id:?}: the message carries control characters: {message:?}");
    }
    let e = RuleSetFile::parse(&with_id("id = \"a/b\"")).unwrap_err();
    assert!(e.to_string().contains("rule-set id 'a/b': use 1 to 64 characters from a-z, 0-9, - and _"), "{e}");
    for id in ["a", "my-finkel", "x_1", "0", &"z".repeat(64)] {
        let file = RuleSetFile::parse(&with_id(&format!("id = \"{id}\""))).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(file.id, id);
    }
}

#[test]
fn every_built_in_rule_set_id_is_allowed() {
    let ids: Vec<String> =
        BUILTIN.iter().map(|(id, _)| id.to_string()).chain(ur_rules::family_rule_sets().iter().map(|s| s.id.to_string())).collect();
    assert_eq!(ids.len(), 17, "{ids:?}");
    for id in ids {
        assert_eq!(ur_rules::spec::check_id(&id), Ok(()), "{id}");
    }
}

#[test]
fn a_file_with_thousands_of_problems_reports_the_first_twenty_and_counts_the_rest() {
    let cells = vec!["[9, 9]"; 8100].join(", ");
    let text = BUILTIN[0].1.replace("path = \"PATH-14\"", &format!("path = [{cells}]"));
    let e = RuleSetFile::parse(&text).unwrap_err();
    let SpecError::Problems { problems, .. } = &e else { panic!("{e:?}") };
    assert_eq!(problems.len(), 16_200);
    let message = e.to_string();
    assert!(message.len() < 4096, "{} bytes:\n{}", message.len(), &message[..2000.min(message.len())]);
    assert!(message.starts_with("rule set 'finkel': 16,200 problems:\n  - field 'path': square 1 of the path"), "{message}");
    assert_eq!(message.matches("\n  - ").count(), 20, "{message}");
    assert!(message.ends_with("\n  … and 16,180 more problems"), "{message}");
}

/// The values tried for one option: every value, or the default and bounds.
fn option_values(opt: &ur_rules::OptionSpec) -> Vec<OptionValue> {
    if opt.values.is_empty() {
        [Some(opt.default.clone()), opt.min.map(OptionValue::Int), opt.max.map(OptionValue::Int)].into_iter().flatten().collect()
    } else {
        opt.values.keys().map(|k| OptionValue::parse(k)).collect()
    }
}

#[test]
fn every_built_in_rule_set_and_option_combination_validates() {
    let mut checked = 0;
    for &(id, text) in BUILTIN {
        let file = RuleSetFile::parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut combos = vec![Options::new()];
        for opt in &file.options {
            combos = combos
                .iter()
                .flat_map(|base| {
                    option_values(opt).into_iter().map(move |v| {
                        let mut o = base.clone();
                        o.insert(opt.name.clone(), v);
                        o
                    })
                })
                .collect();
        }
        let most = if id == "v1-named-birds" { 5 } else { 15 };
        for combo in &combos {
            for pieces in 1..=most {
                let mut o = combo.clone();
                o.insert("pieces".into(), OptionValue::Int(pieces));
                match Rules::from_file(&file, &o) {
                    Ok(_) => checked += 1,
                    // The one combination refused by design: a d4 cannot throw
                    // the 0 that would call the Eagle (O01).
                    Err(SpecError::Invalid { field, .. })
                        if field == "birds"
                            && o.get("dice") == Some(&OptionValue::Text("D4".into()))
                            && o.get("eagle_call_value") == Some(&OptionValue::Int(0)) => {}
                    Err(e) => panic!("{id} {o:?}: {e}"),
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn the_rule_files_in_the_repository_load_as_before() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let rules = load(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let id = path.file_stem().unwrap().to_string_lossy();
        assert_eq!(rules.id(), id);
        let builtin = Rules::builtin(&id).unwrap();
        assert_eq!((rules.pieces(), rules.path_len(), rules.dice()), (builtin.pieces(), builtin.path_len(), builtin.dice()));
    }
}

// ---------------------------------------------------------------------------
// No input makes the parser panic
// ---------------------------------------------------------------------------

/// Any TOML value, written as text.
fn toml_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        (-40i64..300).prop_map(|i| i.to_string()),
        any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(|x| format!("{x:?}")),
        any::<bool>().prop_map(|b| b.to_string()),
        "[a-zA-Z0-9_ -]{0,12}".prop_map(|s| format!("{s:?}")),
        prop::sample::select(vec![
            "\"PATH-14\"",
            "\"PATH-27\"",
            "\"ASEB\"",
            "\"aseb\"",
            "\"standard\"",
            "\"BIN3\"",
            "\"D6\"",
            "\"safe\"",
            "\"shared\"",
            "\"auto\"",
            "\"optional\"",
            "[]",
            "{}",
            "1979-05-27",
        ])
        .prop_map(str::to_owned),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec((prop::sample::select(field_names()), inner), 0..5)
                .prop_map(|v| format!("{{ {} }}", v.iter().map(|(k, x)| format!("{k} = {x}")).collect::<Vec<_>>().join(", "))),
        ]
    })
}

/// The field names generated tables use: every field a rule-set file may
/// have, at the top or in a nested table, and one it may not (`colour`).
fn field_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = RACE_FIELDS.to_vec();
    for &name in NESTED_FIELDS.iter().flat_map(|fields| fields.iter()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.push("colour");
    names
}

fn no_panic(text: &str) -> Result<(), TestCaseError> {
    let outcome = std::panic::catch_unwind(|| {
        if let Ok(file) = RuleSetFile::parse(text) {
            // A file that loads also compiles with its defaults and options.
            Rules::from_file(&file, &Options::new()).expect("a parsed file compiles with its defaults");
            for opt in &file.options {
                for v in option_values(opt) {
                    let _ = Rules::from_file(&file, &Options::from([(opt.name.clone(), v)]));
                }
            }
        }
    });
    prop_assert!(outcome.is_ok(), "panicked on:\n{text}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// One field of a built-in file set to any value.
    #[test]
    fn any_value_for_any_field_is_refused_or_loaded(
        which in 0..BUILTIN.len(),
        field in prop::sample::select(field_names()),
        value in toml_value(),
    ) {
        let text = BUILTIN[which].1;
        let line = format!("{field} = {value}");
        // Replace the field's line when the file has it, else add it at the top.
        let replaced: Vec<String> = text
            .lines()
            .map(|l| if l.starts_with(&format!("{field} =")) { line.clone() } else { l.to_owned() })
            .collect();
        let mut replaced = replaced.join("\n");
        if replaced == text.trim_end() {
            replaced = format!("{line}\n{text}");
        }
        no_panic(&replaced)?;
    }

    /// Any few fields with any values, in any order, with or without tables.
    #[test]
    fn any_toml_ish_text_is_refused_or_loaded(
        fields in prop::collection::vec((prop::sample::select(field_names()), toml_value()), 0..12),
        table in prop::sample::select(vec!["", "[rosettes]", "[pot]", "[birds]", "[[squares]]", "[[options]]", "[[throws]]"]),
        tail in prop::collection::vec((prop::sample::select(field_names()), toml_value()), 0..4),
    ) {
        let mut text = String::new();
        for (k, v) in &fields {
            text.push_str(&format!("{k} = {v}\n"));
        }
        text.push_str(table);
        text.push('\n');
        for (k, v) in &tail {
            text.push_str(&format!("{k} = {v}\n"));
        }
        no_panic(&text)?;
    }

    /// Arbitrary characters, mostly the ones TOML is made of.
    #[test]
    fn arbitrary_text_is_refused_or_loaded(text in "[a-z_=\\[\\]{}\"0-9 .,\n#-]{0,200}") {
        no_panic(&text)?;
    }

    /// A built-in file with its geometry or throws changed at random.
    #[test]
    fn random_paths_and_throws_are_refused_or_loaded(
        cells in prop::collection::vec((0u8..5, 0u8..14), 0..32),
        dice in prop::sample::select(vec!["BIN3", "BIN4", "D4", "D6"]),
        throws in prop::collection::vec((0u8..8, 0u8..9, any::<bool>()), 0..5),
        board in prop::sample::select(vec!["standard", "aseb"]),
        stop in any::<bool>(),
        jumps in any::<bool>(),
    ) {
        let path: Vec<String> = cells.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
        let throws: Vec<String> = throws.iter().map(|(r, v, e)| format!("{{ raw = {r}, value = {v}, enter = {e} }}")).collect();
        let text = format!(
            "id = \"x\"\nname = \"X\"\nsource = \"s\"\nsummary = \"s\"\nboard = \"{board}\"\npath = [{}]\ndice = \"{dice}\"\n\
             throws = [{}]\nnon_adjacent_steps = {jumps}\n[rosettes]\nkind = \"safe\"\nstop = {stop}\n",
            path.join(", "),
            throws.join(", ")
        );
        no_panic(&text)?;
    }
}
