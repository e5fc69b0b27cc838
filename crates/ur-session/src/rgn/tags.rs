//! The rules a game's tags name: RoyalUr's presets (`Rules`), our own
//! `Ur...` tags, and the empty record each describes.

use serde_json::Value;
use ur_rules::any_record::ANY_RECORD_VERSION;
use ur_rules::record::{Tags, RECORD_VERSION};
use ur_rules::{family_of, AnyRecord, Family, GameRecord, OptionValue, Options, RuleSetFile, Side};

use super::{err, RgnError, RgnTag, OWN_TAGS};
use crate::records::SavedGame;

/// A rule set RoyalUr names in its `Rules` tag.
struct Preset {
    name: &'static str,
    id: &'static str,
    pieces: Option<i64>,
    /// A rule-set file for presets our options cannot state.
    file: Option<&'static str>,
}

const PRESETS: [Preset; 6] = [
    Preset { name: "Finkel", id: "finkel", pieces: None, file: None },
    Preset { name: "Finkel with Two Pieces", id: "finkel", pieces: Some(2), file: None },
    Preset { name: "Masters", id: "masters", pieces: None, file: None },
    Preset { name: "Masters with Four Dice", id: "masters-four-dice", pieces: None, file: Some(MASTERS_FOUR_DICE) },
    Preset { name: "Blitz", id: "blitz", pieces: None, file: None },
    Preset { name: "Aseb", id: "aseb", pieces: None, file: None },
];

/// RoyalUr's Masters with four binary dice (0 to 4, a 0 moves nothing): our
/// `masters` has no dice option, so imported games carry this file.
pub const MASTERS_FOUR_DICE: &str = r#"id = "masters-four-dice"
name = "Masters with Four Dice"
source = "RoyalUr.net (James Masters' rules with four binary dice)"
summary = "Masters with four binary dice: 7 pieces, dice 0 to 4 (0 moves nothing), the 16-square Masters path, rosettes give an extra roll but do not protect."
pieces = 7
board = "standard"
path = "PATH-16"
dice = "BIN4"

[rosettes]
kind = "plain"
extra_roll = "auto"
"#;

/// The names RoyalUr gives its rule sets, for messages and help.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

/// How a written roll number reads: RoyalUr writes what a roll moves; our
/// own rule sets write the raw outcome (what the dice show).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Numbers {
    Value,
    Raw,
}

/// A record with no steps yet: the rules, options, first player and start.
fn preset_record(p: &Preset) -> GameRecord {
    let file = match p.file {
        Some(text) => RuleSetFile::parse(text).expect("the preset's rule-set file is valid"),
        None => RuleSetFile::builtin(p.id).expect("presets are built in"),
    };
    let given: Options = p.pieces.map(|n| ("pieces".to_owned(), OptionValue::Int(n))).into_iter().collect();
    GameRecord {
        version: RECORD_VERSION,
        rules: p.id.to_owned(),
        options: file.full_options(&given).expect("preset options are valid"),
        rules_file: p.file.map(str::to_owned),
        first: Side::Light,
        start: None,
        actions: Vec::new(),
        winner: None,
        tags: Tags::new(),
    }
}

fn preset_of(record: &GameRecord) -> Option<&'static Preset> {
    if record.version != RECORD_VERSION || record.first != Side::Light || record.start.is_some() {
        return None;
    }
    PRESETS.iter().find(|p| {
        let usual = preset_record(p);
        usual.rules == record.rules && usual.options == record.options && usual.rules_file == record.rules_file
    })
}

/// The tags that say a record's rules, options, first player and start.
pub(super) fn header_tags(saved: &SavedGame) -> (Vec<(String, String)>, Numbers) {
    if let SavedGame::Race(r) = saved {
        if let Some(p) = preset_of(r) {
            return (vec![("Rules".into(), p.name.into())], Numbers::Value);
        }
    }
    let mut tags = Vec::new();
    let (rules, options, first) = match saved {
        SavedGame::Race(r) => (&r.rules, &r.options, r.first),
        SavedGame::Family(r) => (&r.rules, &r.options, r.first),
    };
    tags.push(("UrRules".to_owned(), rules.clone()));
    if !options.is_empty() {
        tags.push(("UrOptions".into(), options_text(options)));
    }
    if let SavedGame::Race(GameRecord { rules_file: Some(text), .. }) = saved {
        tags.push(("UrRulesFile".into(), text.clone()));
    }
    if first == Side::Dark {
        tags.push(("UrFirst".into(), "dark".into()));
    }
    let start = match saved {
        SavedGame::Race(r) => r.start.as_ref().map(|s| serde_json::to_string(s).expect("positions serialise")),
        SavedGame::Family(r) => r.start.as_ref().map(Value::to_string),
    };
    if let Some(start) = start {
        tags.push(("UrStart".into(), start));
    }
    if let SavedGame::Family(r) = saved {
        if family_of(&r.rules) == Some(Family::Race) {
            tags.push(("UrRecord".into(), "2".into()));
        }
    }
    (tags, Numbers::Raw)
}

/// `name=value` pairs, or JSON when a value would not read back the same.
fn options_text(options: &Options) -> String {
    let simple = options.iter().all(|(k, v)| {
        let text = v.to_string();
        !k.is_empty()
            && k.chars().all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
            && !text.is_empty()
            && !text.contains(char::is_whitespace)
            && OptionValue::parse(&text) == *v
    });
    if simple {
        options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
    } else {
        serde_json::to_string(options).expect("options serialise")
    }
}

fn parse_options_text(text: &str, line: usize) -> Result<Options, RgnError> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).map_err(|e| err(line, 0, format!("UrOptions is not a JSON object of options: {e}")));
    }
    let mut options = Options::new();
    for pair in text.split_whitespace() {
        match pair.split_once('=') {
            Some((k, v)) if !k.is_empty() && !v.is_empty() => {
                options.insert(k.to_owned(), OptionValue::parse(v));
            }
            _ => return Err(err(line, 0, format!("UrOptions: '{pair}' must look like NAME=VALUE, as in pieces=5"))),
        }
    }
    Ok(options)
}

/// A record with no steps for a rule set named by a RoyalUr preset name or
/// one of our rule-set ids, with its default options.
pub(super) fn default_record(name: &str) -> Result<SavedGame, String> {
    if let Some(p) = PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name)) {
        return Ok(SavedGame::Race(preset_record(p)));
    }
    our_record(name, None, None, false).map_err(|e| {
        format!("{e}; RoyalUr's rule sets are {}", PRESETS.iter().map(|p| format!("'{}'", p.name)).collect::<Vec<_>>().join(", "))
    })
}

/// A record with no steps for one of our rule sets: with the options given,
/// or else the rule set's defaults (every option named, as a race record
/// made by play has them).
fn our_record(id: &str, options: Option<Options>, rules_file: Option<String>, version2: bool) -> Result<SavedGame, String> {
    let family = match &rules_file {
        Some(_) => Family::Race,
        None => family_of(id).ok_or_else(|| format!("unknown rule set '{id}'; `ur rules` lists the rule sets"))?,
    };
    if family == Family::Race && !version2 {
        let file = match &rules_file {
            Some(text) => RuleSetFile::parse(text).map_err(|e| format!("the rule-set file in UrRulesFile does not read: {e}"))?,
            None => RuleSetFile::builtin(id).map_err(|e| e.to_string())?,
        };
        let options = match options {
            Some(given) => given,
            None => file.full_options(&Options::new()).map_err(|e| e.to_string())?,
        };
        return Ok(SavedGame::Race(GameRecord {
            version: RECORD_VERSION,
            rules: id.to_owned(),
            options,
            rules_file,
            first: Side::Light,
            start: None,
            actions: Vec::new(),
            winner: None,
            tags: Tags::new(),
        }));
    }
    Ok(SavedGame::Family(AnyRecord {
        version: ANY_RECORD_VERSION,
        rules: id.to_owned(),
        family,
        options: options.unwrap_or_default(),
        first: Side::Light,
        start: None,
        steps: Vec::new(),
        over: false,
        winner: None,
        tags: Tags::new(),
    }))
}

/// The record (with no steps yet) that a game's tags describe, and the
/// metadata to keep.
pub(super) fn header_from_tags(tags: &[RgnTag], default: Option<&str>) -> Result<(SavedGame, Numbers), RgnError> {
    let find = |key: &str| tags.iter().find(|t| t.key == key);
    if let Some(dup) =
        tags.iter().enumerate().find(|(i, t)| OWN_TAGS.contains(&t.key.as_str()) && tags[..*i].iter().any(|u| u.key == t.key))
    {
        return Err(err(dup.1.line, 0, format!("the tag {} is given twice; keep one", dup.1.key)));
    }
    let mut saved = match (find("Rules"), find("UrRules")) {
        (Some(a), Some(_)) => {
            return Err(err(a.line, 0, "both Rules and UrRules are given; keep one (Rules for RoyalUr's rule sets, UrRules for ours)"))
        }
        (Some(t), None) => match PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(&t.value)) {
            Some(p) => SavedGame::Race(preset_record(p)),
            None => {
                return Err(err(
                    t.line,
                    0,
                    format!(
                        "unknown Rules '{}'; RoyalUr's rule sets are {}; for ours write [UrRules ID] (see `ur rules`)",
                        t.value,
                        PRESETS.iter().map(|p| format!("'{}'", p.name)).collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
        },
        (None, Some(t)) => {
            let options = match find("UrOptions") {
                Some(o) => parse_options_text(&o.value, o.line)?,
                None => Options::new(),
            };
            let version2 = match find("UrRecord") {
                None => false,
                Some(v) if v.value == "2" => true,
                Some(v) if v.value == "1" => false,
                Some(v) => return Err(err(v.line, 0, format!("UrRecord must be 1 or 2 (the JSON record version), not '{}'", v.value))),
            };
            let file = find("UrRulesFile").map(|f| f.value.clone());
            our_record(&t.value, Some(options), file, version2).map_err(|e| err(t.line, 0, e))?
        }
        (None, None) => {
            default_record(default.unwrap_or("Finkel")).map_err(|e| err(0, 0, format!("no Rules tag, and the rules given: {e}")))?
        }
    };
    if let Some(t) = find("UrFirst") {
        let side = Side::parse(&t.value).ok_or_else(|| err(t.line, 0, format!("UrFirst must be light or dark, not '{}'", t.value)))?;
        match &mut saved {
            SavedGame::Race(r) => r.first = side,
            SavedGame::Family(r) => r.first = side,
        }
    }
    if let Some(t) = find("UrStart") {
        let bad = |e: serde_json::Error| err(t.line, 0, format!("UrStart is not a start position in JSON: {e}"));
        match &mut saved {
            SavedGame::Race(r) => r.start = Some(serde_json::from_str(&t.value).map_err(bad)?),
            SavedGame::Family(r) => r.start = Some(serde_json::from_str(&t.value).map_err(bad)?),
        }
    }
    // RoyalUr's rule sets number rolls by what they move, ours by the dice.
    let numbers = match (find("Rules"), find("UrRules"), &saved) {
        (Some(_), _, _) => Numbers::Value,
        (None, None, SavedGame::Race(r)) if preset_of(r).is_some() => Numbers::Value,
        _ => Numbers::Raw,
    };
    let kept: Tags = tags.iter().filter(|t| !OWN_TAGS.contains(&t.key.as_str())).map(|t| (t.key.clone(), t.value.clone())).collect();
    match &mut saved {
        SavedGame::Race(r) => r.tags = kept,
        SavedGame::Family(r) => r.tags = kept,
    }
    Ok((saved, numbers))
}
