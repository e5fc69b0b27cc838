//! `ur rules`: the catalogue of rule sets.

use anyhow::Result;
use clap::{Args, Subcommand};
use ur_rules::{Extra, Options, RuleSetFile, Rules, Side, SquareKind};

use crate::board_text;

#[derive(Args, Debug)]
pub struct RulesCmd {
    #[command(subcommand)]
    action: Option<RulesAction>,
}

#[derive(Subcommand, Debug)]
enum RulesAction {
    /// Print a readable summary of one rule set and its options.
    Show {
        /// Rule-set id.
        id: String,
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
                println!("\n`ur rules show ID` explains one rule set; `--rules-file FILE` loads your own.");
                Ok(())
            }
            Some(RulesAction::Show { id }) => {
                let file = RuleSetFile::builtin(&id)?;
                print!("{}", describe(&file, &Rules::from_file(&file, &Options::new())?));
                Ok(())
            }
        }
    }
}

/// A plain-words description of a rule set.
pub fn describe(file: &RuleSetFile, rules: &Rules) -> String {
    let spec = &rules.spec;
    let mut out = format!("{} ({})\n{}\nSource: {}\n\n", spec.name, spec.id, spec.summary, spec.source);
    out += &format!(
        "Sides: light = {} (bottom row), dark = {} (top row)\nPieces: {} each\nPath: {} squares; bear off exactly on step {}\n",
        spec.sides[0], spec.sides[1], spec.pieces, rules.path_len(), rules.path_len() + 1
    );
    out += &format!("Dice: {}\n", throws_text(rules));
    out += &format!("Rosettes: {}\n", rosette_text(rules));
    if rules.capture_extra() != Extra::None {
        out += &format!("Capturing gives an extra roll ({}).\n", extra_text(rules.capture_extra()));
    }
    if let Some(pot) = rules.pot() {
        out += &format!("Betting pot: stake {} each; fine {} per rosette landing; winner takes the pot.\n", pot.stake, pot.rosette_fine);
    }
    if let Some(b) = &spec.birds {
        out += &format!("Named pieces, summoned in order: {}.\n", b.names.join(", "));
    }
    out += "\nBoard and light's path (positions 1..L; dark mirrors it):\n";
    out += &board_text::path_diagram(rules, Side::Light);
    if !spec.notes.is_empty() {
        out += "\nJudgment calls (see RULESETS.md):\n";
        for n in &spec.notes {
            out += &format!("  - {n}\n");
        }
    }
    out += "\nOptions (--option NAME=VALUE):\n  pieces: number of pieces per side (1..=15)\n";
    for o in &file.options {
        out += &format!("  {}: {} [default {}; {}]\n", o.name, o.description, o.default, o.allowed());
    }
    out
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
