//! A rule set in plain words: what the game is, how pieces enter, move,
//! capture and leave, its dice and squares, and its options. `ur rules
//! show` prints it; the browser app shows it as a rule set's page.

use ur_rules::{Extra, FamilyRuleSet, Options, RuleSetFile, Rules, Side, SquareKind};

/// One option of a rule set: what it does, its default, what it allows,
/// and its value now when that is not the default.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OptionLine {
    pub name: String,
    pub description: String,
    pub default: String,
    pub allowed: String,
    pub now: Option<String>,
}

/// A rule set beyond the race in words: name, summary, family and source.
pub fn family_rules_text(set: &FamilyRuleSet) -> String {
    let family = ur_rules::narrate::family_name(set.family);
    format!("{} ({})\n{}\nFamily: {family}\nSource: {}\n", set.name, set.id, set.summary.trim_end(), set.source)
}

/// The options of a rule set beyond the race, with the values `given`.
pub fn family_options(set: &FamilyRuleSet, given: &Options) -> Vec<OptionLine> {
    set.options
        .iter()
        .map(|o| OptionLine {
            name: o.name.into(),
            description: o.description.into(),
            default: o.default.into(),
            allowed: o.values.join(", "),
            now: given.get(o.name).map(ToString::to_string).filter(|v| v != o.default),
        })
        .collect()
}

/// A race rule set in words, with the drawings of both paths.
pub fn race_rules_text(rules: &Rules) -> String {
    let spec = &rules.spec;
    let len = rules.path_len();
    let mut out = format!("{} ({})\n{}\nSource: {}\n\n", spec.name, spec.id, spec.summary, spec.source);
    out +=
        &format!("Sides: light = {} (bottom row, moves first unless told otherwise), dark = {} (top row)\n", spec.sides[0], spec.sides[1]);
    out += &format!("Pieces: {} each, all in reserve at the start\n", spec.pieces);
    out += &format!("Path: {len} squares; a piece bears off with the exact throw that takes it to step {}\n", len + 1);
    out += &format!("Dice: {}\n", throws_text(rules));
    out += &format!("Rosettes: {}\n", rosette_text(rules));
    out += &format!("Captures: {}\n", capture_text(rules));
    if rules.capture_extra() != Extra::None {
        out += &format!("Capturing gives an extra roll ({}).\n", extra_text(rules.capture_extra()));
    }
    out += "Moving: a player who can move must move; a throw with no legal move ends the turn (and any extra roll it would have given).\n";
    if let Some(pot) = rules.pot() {
        out += &format!("Betting pot: stake {} each; fine {} per rosette landing; winner takes the pot.\n", pot.stake, pot.rosette_fine);
    }
    out += &birds_text(rules);
    out += &format!("Win: the first to bear off all {} pieces.\n", spec.pieces);
    out += &format!("\nLight's path ({}), positions 1..{len} on the board:\n", spec.sides[0]);
    out += &ur_rules::race::text::path_diagram(rules, Side::Light);
    out += &format!("Dark's path ({}), the mirror image (top and bottom rows swapped):\n", spec.sides[1]);
    out += &ur_rules::race::text::path_diagram(rules, Side::Dark);
    if !spec.notes.is_empty() {
        out += "\nJudgment calls (see docs/rules/README.md#index-of-judgment-calls):\n";
        for n in &spec.notes {
            out += &format!("  - {n}\n");
        }
    }
    out
}

fn birds_text(rules: &Rules) -> String {
    let spec = &rules.spec;
    let Some(b) = &spec.birds else { return String::new() };
    let calls: Vec<String> = b
        .names
        .iter()
        .take(usize::from(spec.pieces))
        .enumerate()
        .map(|(i, n)| format!("{} {n} (call roll {})", i + 1, rules.call_value(i as u8 + 1)))
        .collect();
    format!("Named pieces, summoned in order: {}.\n", calls.join(", "))
        + "Each turn: declare Move (roll, then move a bird already on the board) or Summon (roll the next bird's \
           call value, then roll again to place it on that square of the path; a failed call or placement ends the turn).\n"
}

/// The options of a race rule set (pieces first), with the rules' values.
pub fn race_options(file: &RuleSetFile, rules: &Rules) -> Vec<OptionLine> {
    let spec = &rules.spec;
    let now = |name: &str, default: &str| rules.options.get(name).map(ToString::to_string).filter(|v| v != default);
    let default_pieces = file.full_options(&Options::new()).ok().and_then(|o| o.get("pieces").map(ToString::to_string));
    let default_pieces = default_pieces.unwrap_or_else(|| spec.pieces.to_string());
    let max_pieces = spec.birds.as_ref().map_or(15, |b| b.names.len().min(5));
    let mut lines = vec![OptionLine {
        name: "pieces".into(),
        description: "number of pieces per side".into(),
        now: now("pieces", &default_pieces),
        default: default_pieces,
        allowed: format!("integer 1..={max_pieces}"),
    }];
    lines.extend(file.options.iter().map(|o| OptionLine {
        name: o.name.clone(),
        description: o.description.clone(),
        default: o.default.to_string(),
        allowed: o.allowed(),
        now: now(&o.name, &o.default.to_string()),
    }));
    lines
}

fn capture_text(rules: &Rules) -> String {
    let shared = rules.spec.rosettes.kind == SquareKind::Shared || rules.spec.squares.iter().any(|s| s.kind == SquareKind::Shared);
    let safe = rules.spec.rosettes.kind == SquareKind::Safe || rules.spec.squares.iter().any(|s| s.kind == SquareKind::Safe);
    let mut s = "landing on an opposing piece sends it back to its owner's reserve".to_string();
    if safe {
        s += "; an opposing piece on a protected square cannot be landed on";
    }
    if shared {
        s += "; on a shared square pieces of both sides stand together and nothing is captured";
    }
    s += "; a piece may not land on a square held by its own side";
    if shared {
        s += " (except a shared square)";
    }
    s
}

pub fn throws_text(rules: &Rules) -> String {
    let total = rules.dice().total_weight();
    let parts: Vec<String> = rules
        .throws()
        .map(|(t, w)| {
            let mut s = format!("{}→{}", t.raw, t.value);
            if t.extra != Extra::None {
                s += &format!("+roll({})", extra_text(t.extra));
            }
            if !t.enter {
                s += " no entry";
            }
            format!("{s} ({w}/{total})")
        })
        .collect();
    format!("{} (raw→squares): {}", rules.dice().name(), parts.join(", "))
}

fn rosette_text(rules: &Rules) -> String {
    let kind = match rules.spec.rosettes.kind {
        SquareKind::Plain => "hold one piece and do not protect it",
        SquareKind::Safe => "hold one piece, which cannot be captured",
        SquareKind::Shared => "hold any number of pieces of both sides; no capture there",
    };
    let mut s = format!("{kind}; extra roll: {}", extra_text(rules.rosette_extra()));
    if rules.spec.rosettes.stop {
        s += "; a piece may not pass over a rosette (compulsory stop)";
    }
    for sq in &rules.spec.squares {
        s += &format!("; square [{}, {}] is {:?}", sq.at.row, sq.at.col, sq.kind).to_lowercase();
    }
    s
}

fn extra_text(e: Extra) -> &'static str {
    match e {
        Extra::None => "none",
        Extra::Optional => "optional",
        Extra::Auto => "automatic",
    }
}
