//! `ur rules`: the catalogue of rule sets.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};
use ur_cli::{out, outln};
use ur_rules::{family_rule_sets, FamilyRuleSet, Options, RuleSetFile, Rules, Side};
use ur_session::rules_text::{family_options, family_rules_text, race_options, race_rules_text, OptionLine};
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
                    outln!("{:<24} {}", file.id, rules.spec.summary)?;
                }
                let others = family_rule_sets();
                if !others.is_empty() {
                    outln!("\nBeyond the race:")?;
                    for r in &others {
                        outln!("{:<24} {} ({} family; {})", r.id, r.name, ur_rules::narrate::family_name(r.family), r.source)?;
                    }
                }
                outln!("\n`ur rules show ID` explains one rule set; `--rules-file FILE` loads your own.")?;
                Ok(())
            }
            Some(RulesAction::Show { id, rules_file, pieces, options }) => {
                let choice = RulesChoice { id, file: rules_file, pieces, options };
                if choice.file.is_none() {
                    if let Some(set) = family_rule_sets().into_iter().find(|r| Some(r.id) == choice.id.as_deref()) {
                        // Check the options given against the rule set itself.
                        let given = choice.given_options()?;
                        choice.new_game(Side::Light)?;
                        out!("{}", describe_family_set(&set, &given))?;
                        return Ok(());
                    }
                }
                let loaded = choice.load()?;
                out!("{}", describe(&loaded.file, &loaded.rules))?;
                Ok(())
            }
        }
    }
}

/// A plain-words description of a rule set beyond the race.
pub fn describe_family_set(set: &FamilyRuleSet, given: &Options) -> String {
    let mut out = family_rules_text(set);
    out += &options_text(&family_options(set, given), "");
    out += &format!(
        "\nPlay it with `ur play --rules {}`; bots: random, greedy, expectimax, mcts, noisy, level1..level5 (tables and `perfect` are for race sets only).\n",
        set.id
    );
    out
}

/// A plain-words description of a rule set.
pub fn describe(file: &RuleSetFile, rules: &Rules) -> String {
    race_rules_text(rules) + &options_text(&race_options(file, rules), ", also --pieces N")
}

/// The options as lines under their heading; `pieces_also` follows the pieces option's description.
fn options_text(options: &[OptionLine], pieces_also: &str) -> String {
    let mut out = "\nOptions (--option NAME=VALUE):\n".to_string();
    if options.is_empty() {
        out += "  none\n";
    }
    for o in options {
        let also = if o.name == "pieces" { pieces_also } else { "" };
        let now = o.now.as_ref().map(|v| format!("; now {v}")).unwrap_or_default();
        out += &format!("  {}: {}{also} [default {}; {}{now}]\n", o.name, o.description, o.default, o.allowed);
    }
    out
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
