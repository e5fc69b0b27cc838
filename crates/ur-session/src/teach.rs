//! A rule set's rules as facts for a page that teaches them: the throw
//! table, how pieces enter, what captures and what is safe, how pieces bear
//! off and win, and the judgment calls (the codes of docs/rules/README.md)
//! kept apart from the player's text. The page words them in its language.

use serde_json::{json, Value};
use ur_rules::{family_rule_sets, Extra, Options, RuleSetFile, Rules, SquareKind};

/// The facts of a built-in rule set, or `None` for an unknown id.
pub fn teaching(id: &str) -> Option<Value> {
    if let Some(file) = RuleSetFile::all_builtin().into_iter().find(|f| f.id == id) {
        let rules = Rules::from_file(&file, &Options::new()).ok()?;
        let options = file.options.iter().map(|o| (o.name.clone(), o.description.clone()));
        return Some(race_facts(&rules, judgment(&rules.spec.notes, options)));
    }
    let set = family_rule_sets().into_iter().find(|s| s.id == id)?;
    let options = set.options.iter().map(|o| (o.name.to_string(), o.description.to_string()));
    let family = serde_json::to_value(set.family).unwrap_or(Value::Null);
    Some(json!({"family": family, "judgment": judgment(&[], options)}))
}

/// The facts of a race rule set (built-in or a player's file).
pub fn race_facts(rules: &Rules, judgment: Vec<Value>) -> Value {
    let spec = &rules.spec;
    let total = rules.dice().total_weight();
    let throws: Vec<Value> = rules
        .throws()
        .map(|(t, w)| json!({"raw": t.raw, "value": t.value, "weight": w, "extra": extra(t.extra), "enter": t.enter}))
        .collect();
    let kinds = |k: SquareKind| spec.rosettes.kind == k || spec.squares.iter().any(|s| s.kind == k);
    json!({
        "family": "race",
        "dice": rules.dice().name(),
        "total": total,
        "throws": throws,
        "pieces": spec.pieces,
        "path": rules.path_len(),
        "rosette": {"kind": kind(spec.rosettes.kind), "extra": extra(rules.rosette_extra()), "stop": spec.rosettes.stop},
        "safe": kinds(SquareKind::Safe),
        "shared": kinds(SquareKind::Shared),
        "capture_extra": extra(rules.capture_extra()),
        "birds": spec.birds.as_ref().map(|b| b.names.iter().take(usize::from(spec.pieces)).cloned().collect::<Vec<_>>()),
        "pot": rules.pot().map(|p| json!({"stake": p.stake, "fine": p.rosette_fine})),
        "judgment": judgment,
    })
}

/// The judgment calls: the rule set's notes (`D34: the Finkel route.`) and
/// the codes its options' descriptions cite, each with the option.
pub fn judgment(notes: &[String], options: impl Iterator<Item = (String, String)>) -> Vec<Value> {
    let mut out: Vec<Value> = notes
        .iter()
        .map(|n| match n.split_once(':').filter(|(c, _)| is_code(c)) {
            Some((code, text)) => json!({"code": code, "text": text.trim()}),
            None => json!({"code": "", "text": n}),
        })
        .collect();
    for (name, description) in options {
        for code in codes(&description) {
            out.push(json!({"code": code, "option": name}));
        }
    }
    out
}

/// The judgment-call codes a text cites: `D57`, `T10`, `O04`.
pub fn codes(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| is_code(w)).map(str::to_string).collect()
}

fn is_code(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 3 && matches!(b[0], b'D' | b'O' | b'T') && b[1..].iter().all(u8::is_ascii_digit)
}

fn extra(e: Extra) -> &'static str {
    match e {
        Extra::None => "none",
        Extra::Optional => "optional",
        Extra::Auto => "auto",
    }
}

fn kind(k: SquareKind) -> &'static str {
    match k {
        SquareKind::Plain => "plain",
        SquareKind::Safe => "safe",
        SquareKind::Shared => "shared",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_rule_set_has_facts() {
        let ids: Vec<String> =
            RuleSetFile::all_builtin().into_iter().map(|f| f.id).chain(family_rule_sets().into_iter().map(|s| s.id.to_string())).collect();
        assert_eq!(ids.len(), 17);
        for id in &ids {
            let facts = teaching(id).unwrap_or_else(|| panic!("{id}"));
            assert!(facts["judgment"].is_array(), "{id}");
        }
        let finkel = teaching("finkel").unwrap();
        assert_eq!(finkel["rosette"]["kind"], "safe");
        assert_eq!(finkel["throws"].as_array().unwrap().len(), 5);
        let guard = teaching("guard-d6").unwrap();
        assert!(guard["judgment"].as_array().unwrap().iter().any(|j| j["code"] == "D57" && j["option"] == "max_stack"));
        let bell = teaching("regency-bell").unwrap();
        assert!(bell["judgment"]
            .as_array()
            .unwrap()
            .iter()
            .any(|j| j["code"] == "D52" && j["text"] == "one move earns at most one extra roll."));
        assert!(teaching("no-such-game").is_none());
    }

    #[test]
    fn codes_are_found_in_option_texts() {
        assert_eq!(codes("T10 (O04): the game stops"), ["T10", "O04"]);
        assert_eq!(codes("Start procedure (D63, D22)."), ["D63", "D22"]);
        assert!(codes("BIN4: four binary lots; D4: a d4").is_empty());
    }
}
