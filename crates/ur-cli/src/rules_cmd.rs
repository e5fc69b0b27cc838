//! `ur rules`: the catalogue of rule sets.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};
use ur_rules::{family_rule_sets, Extra, FamilyRuleSet, Options, RuleSetFile, Rules, Side, SquareKind};

use ur_session::RulesChoice;

#[derive(Args, Debug)]
pub struct RulesCmd {
    #[command(subcommand)]
    action: Option<RulesAction>,
}

#[derive(Subcommand, Debug)]
enum RulesAction {
    /// Print a readable summary of one rule set and its options.
    Show {
        /// Rule-set id (see `ur rules`).
        #[arg(required_unless_present = "rules_file")]
        id: Option<String>,
        /// Describe a rule-set file (TOML) instead of a built-in rule set
        /// (`--file FILE` is also accepted).
        #[arg(long, value_name = "FILE", conflicts_with = "id", alias = "file")]
        rules_file: Option<PathBuf>,
        /// Number of pieces per side.
        #[arg(long)]
        pieces: Option<u8>,
        /// Describe the rules with this option set, NAME=VALUE (repeatable).
        #[arg(long = "option", short = 'o', value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

impl RulesCmd {
    pub fn run(self) -> Result<()> {
        match self.action {
            None => {
                for file in RuleSetFile::all_builtin() {
                    let rules = Rules::from_file(&file, &Options::new())?;
                    println!("{:<24} {}", file.id, rules.spec.summary);
                }
                let others = family_rule_sets();
                if !others.is_empty() {
                    println!("\nBeyond the race:");
                    for r in &others {
                        println!("{:<24} {} ({} family; {})", r.id, r.name, ur_rules::narrate::family_name(r.family), r.source);
                    }
                }
                println!("\n`ur rules show ID` explains one rule set; `--rules-file FILE` loads your own.");
                Ok(())
            }
            Some(RulesAction::Show { id, rules_file, pieces, options }) => {
                let choice = RulesChoice { id, file: rules_file, pieces, options };
                if choice.file.is_none() {
                    if let Some(set) = family_rule_sets().into_iter().find(|r| Some(r.id) == choice.id.as_deref()) {
                        // Check the options given against the rule set itself.
                        let given = choice.given_options()?;
                        choice.new_game(Side::Light)?;
                        print!("{}", describe_family_set(&set, &given));
                        return Ok(());
                    }
                }
                let loaded = choice.load()?;
                print!("{}", describe(&loaded.file, &loaded.rules));
                Ok(())
            }
        }
    }
}

/// A plain-words description of a rule set beyond the race.
pub fn describe_family_set(set: &FamilyRuleSet, given: &Options) -> String {
    let family = ur_rules::narrate::family_name(set.family);
    let mut out = format!("{} ({})\n{}\nFamily: {family}\nSource: {}\n", set.name, set.id, set.summary.trim_end(), set.source);
    out += "\nOptions (--option NAME=VALUE):\n";
    if set.options.is_empty() {
        out += "  none\n";
    }
    for o in &set.options {
        let now = match given.get(o.name) {
            Some(v) if v.to_string() != o.default => format!("; now {v}"),
            _ => String::new(),
        };
        out += &format!("  {}: {} [default {}; {}{now}]\n", o.name, o.description, o.default, o.values.join(", "));
    }
    out += &format!(
        "\nPlay it with `ur play --rules {}`; bots: random, greedy, expectimax, mcts, noisy, level1..level5 (tables and `perfect` are for race sets only).\n",
        set.id
    );
    out
}

/// A plain-words description of a rule set.
pub fn describe(file: &RuleSetFile, rules: &Rules) -> String {
    let spec = &rules.spec;
    let len = rules.path_len();
    let mut out = format!("{} ({})\n{}\nSource: {}\n\n", spec.name, spec.id, spec.summary, spec.source);
    out += &format!(
        "Sides: light = {} (bottom row, moves first unless --first says otherwise), dark = {} (top row)\n",
        spec.sides[0], spec.sides[1]
    );
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
    if let Some(b) = &spec.birds {
        let calls: Vec<String> = b
            .names
            .iter()
            .take(usize::from(spec.pieces))
            .enumerate()
            .map(|(i, n)| format!("{} {n} (call roll {})", i + 1, rules.call_value(i as u8 + 1)))
            .collect();
        out += &format!("Named pieces, summoned in order: {}.\n", calls.join(", "));
        out += "Each turn: declare Move (roll, then move a bird already on the board) or Summon (roll the next bird's \
                call value, then roll again to place it on that square of the path; a failed call or placement ends the turn).\n";
    }
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
    out += "\nOptions (--option NAME=VALUE):\n";
    let now = |name: &str, default: String| match rules.options.get(name) {
        Some(v) if v.to_string() != default => format!("; now {v}"),
        _ => String::new(),
    };
    let default_pieces = file.full_options(&Options::new()).ok().and_then(|o| o.get("pieces").map(ToString::to_string));
    let default_pieces = default_pieces.unwrap_or_else(|| spec.pieces.to_string());
    let max_pieces = spec.birds.as_ref().map_or(15, |b| b.names.len().min(5));
    out += &format!(
        "  pieces: number of pieces per side, also --pieces N [default {default_pieces}; integer 1..={max_pieces}{}]\n",
        now("pieces", default_pieces.clone())
    );
    for o in &file.options {
        out +=
            &format!("  {}: {} [default {}; {}{}]\n", o.name, o.description, o.default, o.allowed(), now(&o.name, o.default.to_string()));
    }
    out
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

fn throws_text(rules: &Rules) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::{Family, FamilyOption, OptionValue};

    #[test]
    fn a_family_set_is_described_with_its_options() {
        let set = FamilyRuleSet {
            id: "demo",
            family: Family::Race,
            name: "Demo",
            source: "a booklet, p. 1",
            summary: "A demo game.",
            options: vec![FamilyOption { name: "fast", description: "Shorter game.", default: "false", values: vec!["true", "false"] }],
        };
        let given: Options = [("fast".to_string(), OptionValue::Bool(true))].into();
        let text = describe_family_set(&set, &given);
        for part in ["Demo (demo)", "Source: a booklet, p. 1", "  fast: Shorter game. [default false; true, false; now true]"] {
            assert!(text.contains(part), "{part:?} not in\n{text}");
        }
    }
}
