//! The built-in rule sets by family: which family a rule-set id belongs to,
//! and the names, sources, summaries and options of the sets beyond the
//! race (the race sets describe themselves in their rule-set files).

use serde::{Deserialize, Serialize};

use crate::marker::{akalandung, bens};

/// The family of a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Race rule sets ([`crate::Game`]).
    Race,
    /// The prisoner games ([`crate::tower::TowerGame`]): `ravensburg-1977`, `vizier-4-pyramids`, `guard-d6`.
    Tower,
    /// Marker games: `bens-ur` ([`crate::marker::bens::BensGame`]) and
    /// `ludens-akalandung` ([`crate::marker::akalandung::AkalandungGame`]).
    Bens,
}

/// A built-in rule set of a family other than the race, for `ur rules`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyRuleSet {
    pub id: &'static str,
    pub family: Family,
    pub name: &'static str,
    /// The booklet and section it comes from.
    pub source: &'static str,
    /// The game in plain words, a few short lines: goal, entry, movement,
    /// captures, special squares, how it ends.
    pub summary: &'static str,
    pub options: Vec<FamilyOption>,
}

/// An option of a non-race rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyOption {
    pub name: &'static str,
    pub description: &'static str,
    pub default: &'static str,
    /// The allowed values (`true`/`false` for a switch).
    pub values: Vec<&'static str>,
}

/// The built-in rule sets beyond the races.
pub fn family_rule_sets() -> Vec<FamilyRuleSet> {
    let mut sets = vec![bens::rule_set(), akalandung::rule_set()];
    sets.extend(tower_rule_sets());
    sets
}

/// The family of a built-in rule-set id, if it is one.
pub fn family_of(id: &str) -> Option<Family> {
    if crate::spec::BUILTIN.iter().any(|(b, _)| *b == id) {
        return Some(Family::Race);
    }
    family_rule_sets().into_iter().find(|r| r.id == id).map(|r| r.family)
}

/// The tower rule sets' metadata, from their option tables.
fn tower_rule_sets() -> Vec<FamilyRuleSet> {
    crate::tower::TOWER_IDS
        .iter()
        .filter_map(|&id| {
            let (name, source, defs) = crate::tower::rule_set_info(id)?;
            let options = defs
                .iter()
                .map(|d| FamilyOption {
                    name: d.name,
                    description: d.description,
                    default: d.default,
                    values: if d.values.is_empty() { vec![range_text(d.range)] } else { d.values.to_vec() },
                })
                .collect();
            Some(FamilyRuleSet { id, family: Family::Tower, name, source, summary: tower_summary(id), options })
        })
        .collect()
}

/// The tower games in plain words (docs/rules/<id>.md).
fn tower_summary(id: &str) -> &'static str {
    match id {
        "ravensburg-1977" => {
            "No race off the board: take every enemy token. 10 tokens each enter from the reserve; one d6, 1-5 move, a 6 passes.\n\
             Landing on an enemy stack captures it: the enemy tokens beneath become prisoners, carried along (some may be left on the middle strip, freeing them).\n\
             A5 is a refuge; on A6 prisoners are eliminated and the token turns red; red tokens run both ways from M1 to A6.\n\
             You win when the opponent has no token in reserve and controls no stack; 200 turns without progress or a third repetition draw."
        }
        "vizier-4-pyramids" => {
            "The Ravensburger tower game with four pyramid dice (1-4 marked tips move that many; all blank: reroll or move 5) and viziers for red tokens.\n\
             10 tokens each enter from the reserve; landing on an enemy stack makes its tokens prisoners, which always travel with their captor.\n\
             On the last square prisoners are expelled and the token becomes a vizier, running both ways on the middle strip.\n\
             You win by expelling every enemy token (or when the opponent holds nothing); long stalemates and repetitions draw."
        }
        "guard-d6" => {
            "The Ravensburger tower game simplified: one d6, 1-5 move, a 6 passes; stacks hold at most five pawns.\n\
             10 pawns each enter from off the board; landing on an enemy stack makes its pawns prisoners, always carried along.\n\
             At the exit prisoners are removed and the pawn becomes a guard, moving both ways on the middle strip even when loaded.\n\
             You win by taking every enemy pawn prisoner; long stalemates and repetitions draw."
        }
        _ => "",
    }
}

/// A numeric option's allowed values, as text.
fn range_text((lo, hi): (i64, i64)) -> &'static str {
    match (lo, hi) {
        (0, 1_000_000) => "integer 0..=1000000",
        (0, 1000) => "integer 0..=1000",
        (1, 15) => "integer 1..=15",
        (2, 30) => "integer 2..=30",
        _ => "integer",
    }
}
