//! The three tower rule sets as data: one parameter struct, named options.
//!
//! `ravensburg-1977` (docs/rules/ravensburg-1977.md), `vizier-4-pyramids`
//! (docs/rules/vizier-4-pyramids.md) and `guard-d6` (docs/rules/guard-d6.md) differ only in the values of [`TowerRules`].

use crate::spec::{OptionValue, Options, SpecError};

/// The dice of a tower rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TowerDice {
    /// One d6: 1-5 move that many squares, a 6 passes the turn.
    D6SixPasses,
    /// Four binary pyramids (BIN4): 1-4 marks move that many; all blank
    /// offers a choice between throwing again and moving 5.
    Pyramids,
}

/// How the goal-square capacity of own tokens is counted (D45).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalCapScope {
    PerSquare,
    Combined,
}

/// Which tokens count toward `guard-d6`'s stack limit (D57).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackCount {
    /// Every token of both sides in the resulting stack.
    All,
    /// Only the mover's own tokens in the resulting stack.
    Own,
    /// Tokens lying beneath no enemy token.
    ExcludingPrisoners,
}

/// What a game stopped by T10 gives (O04).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateResult {
    Draw,
    /// The side that has eliminated or holds prisoner more enemy tokens wins.
    Adjudicate,
}

/// What an all-blank pyramid throw does when no 5-move exists (D65).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlankWithout5 {
    /// The player throws again (done automatically: there is no choice).
    MustReroll,
    /// The turn passes.
    Pass,
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinRule {
    /// T2: the opponent has no reserve and controls no stack.
    Capture,
    /// D48: every enemy token expelled; with `adjudicate`, also T2.
    Expulsion { adjudicate: bool },
}

/// The parameters of a tower rule set after its options were applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerRules {
    pub id: &'static str,
    pub name: &'static str,
    /// The booklet's names of the plain and promoted faces.
    pub faces: [&'static str; 2],
    /// The booklet's names of light (SOUTH) and dark (NORTH).
    pub sides: [&'static str; 2],
    pub dice: TowerDice,
    pub tokens: u8,
    pub optional_drop_prisoners: bool,
    pub loaded_promoted_backward: bool,
    /// Most own tokens on a goal square (A5, A6), if limited.
    pub goal_cap: Option<u8>,
    pub goal_cap_scope: GoalCapScope,
    /// Most tokens on any square, if limited (`guard-d6`).
    pub max_stack: Option<u8>,
    pub max_stack_counts: StackCount,
    /// The roll-off counts a 6 as 6 (else as 0, D30/D58).
    pub rolloff_six_counts: bool,
    pub blank_without_5: BlankWithout5,
    pub win: WinRule,
    /// T10 (a): turns without progress that end the game; 0 = never.
    pub no_progress_turns: u32,
    /// T10 (b): occurrences of one position that end the game; 0 = never.
    pub repetition_limit: u32,
    pub stalemate_result: StalemateResult,
}

/// The tower rule-set ids.
pub const TOWER_IDS: [&str; 3] = ["ravensburg-1977", "vizier-4-pyramids", "guard-d6"];

/// An option of a tower rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDef {
    pub name: &'static str,
    pub description: &'static str,
    pub default: &'static str,
    /// Allowed words; empty for a number in `range`.
    pub values: &'static [&'static str],
    pub range: (i64, i64),
}

const BOOL: &[&str] = &["true", "false"];

const fn def(name: &'static str, description: &'static str, default: &'static str, values: &'static [&'static str]) -> OptionDef {
    OptionDef { name, description, default, values, range: (0, 0) }
}

const fn num(name: &'static str, description: &'static str, default: &'static str, lo: i64, hi: i64) -> OptionDef {
    OptionDef { name, description, default, values: &[], range: (lo, hi) }
}

const DROP: &str =
    "the carrier's owner may leave some or all prisoners behind on the middle strip (O03); false: the whole load always goes along";
const BACK: &str = "a promoted token carrying prisoners may move backward (D61); false: loaded promoted tokens move only toward the goal";
const ROLLOFF: &str = "in the roll-off for the first player a 6 counts as 6; zero: a 6 scores nothing (D30)";
const QUIET: &str = "T10 (O04): the game stops after this many turns in a row (passes included) without entry, capture, liberation, elimination or promotion; 0 = never";
const REPEAT: &str = "T10 (O04): the game stops when a position (stacks, reserves, side to move) occurs for this many times; 0 = never";
const STALEMATE: &str =
    "T10 (O04): a stopped game is a draw, or (adjudicate) won by the side that eliminated or holds prisoner more enemy tokens";

const T10: [OptionDef; 3] = [
    num("no_progress_turns", QUIET, "200", 0, 1_000_000),
    num("repetition_limit", REPEAT, "3", 0, 1000),
    def("stalemate_result", STALEMATE, "draw", &["draw", "adjudicate"]),
];

/// Tokens per player where the booklet fixes ten: for small variants solved exactly.
const SMALL_TOKENS: OptionDef = num(
    "tokens_per_player",
    "tokens per player. Not in the booklet: an engine option for small variants that can be solved exactly (`ur solve`)",
    "10",
    1,
    10,
);

const RAVENSBURG: [OptionDef; 4] = [
    def("optional_drop_prisoners", DROP, "true", BOOL),
    def("loaded_promoted_backward", BACK, "false", BOOL),
    def("rolloff_six", ROLLOFF, "zero", &["zero", "six"]),
    SMALL_TOKENS,
];

const VIZIER: [OptionDef; 6] = [
    num("tokens_per_player", "tokens per player (D43)", "10", 1, 15),
    def("goal_cap_scope", "the 5-own-token goal limit counts per goal square, or for both goal squares together (D45)", "per_square", &["per_square", "combined"]),
    def("adjudicate_when_no_free_tokens", "the game is won as soon as the opponent has no free token and no reserve; false: play on until every enemy token is expelled (D48)", "true", BOOL),
    def("all_blank_without_5", "an all-blank throw when no 5-move exists: throw again, or the turn passes (D65)", "must_reroll", &["must_reroll", "pass"]),
    def("optional_drop_prisoners", DROP, "false", BOOL),
    def("loaded_promoted_backward", BACK, "false", BOOL),
];

const GUARD: [OptionDef; 6] = [
    num("max_stack", "most pawns on any square (D57)", "5", 2, 30),
    def(
        "max_stack_counts",
        "which pawns count toward max_stack: all, the mover's own, or those beneath no enemy pawn (D57)",
        "all",
        &["all", "own", "excluding_prisoners"],
    ),
    def("loaded_promoted_backward", BACK, "true", BOOL),
    def("optional_drop_prisoners", DROP, "false", BOOL),
    def("rolloff_six", ROLLOFF, "zero", &["zero", "six"]),
    SMALL_TOKENS,
];

/// Name, booklet source and options of a tower rule set.
pub fn rule_set_info(id: &str) -> Option<(&'static str, &'static str, Vec<OptionDef>)> {
    let (name, source, own): (_, _, &[OptionDef]) = match id {
        "ravensburg-1977" => {
            ("Ravensburger UR 1977 (towers)", "booklet 001, Ravensburger \"UR - Jeu antique\"; docs/rules/ravensburg-1977.md", &RAVENSBURG)
        }
        "vizier-4-pyramids" => ("UR with viziers and four pyramids", "booklet 002 \"UR\"; docs/rules/vizier-4-pyramids.md", &VIZIER),
        "guard-d6" => ("Le Royal d'Ur (guards, d6)", "booklet 004 \"Le Royal d'Ur\"; docs/rules/guard-d6.md", &GUARD),
        _ => return None,
    };
    let mut all = own.to_vec();
    all.extend_from_slice(&T10);
    Some((name, source, all))
}

/// The option values chosen, each checked against its definition.
struct Chosen {
    id: &'static str,
    defs: Vec<OptionDef>,
    given: Options,
}

impl Chosen {
    fn word(&self, name: &str) -> Result<&'static str, SpecError> {
        let d = self.def(name)?;
        let Some(v) = self.given.get(name) else { return Ok(d.default) };
        let text = v.to_string();
        d.values.iter().copied().find(|w| *w == text).ok_or_else(|| bad(&d, v))
    }

    fn flag(&self, name: &str) -> Result<bool, SpecError> {
        Ok(self.word(name)? == "true")
    }

    fn number(&self, name: &str) -> Result<i64, SpecError> {
        let d = self.def(name)?;
        let n = match self.given.get(name) {
            None => d.default.parse().unwrap_or(0),
            Some(OptionValue::Int(n)) => *n,
            Some(v @ OptionValue::Text(t)) => t.trim().parse().map_err(|_| bad(&d, v))?,
            Some(v) => return Err(bad(&d, v)),
        };
        if n < d.range.0 || n > d.range.1 {
            return Err(bad(&d, &OptionValue::Int(n)));
        }
        Ok(n)
    }

    fn def(&self, name: &str) -> Result<OptionDef, SpecError> {
        self.defs.iter().copied().find(|d| d.name == name).ok_or_else(|| SpecError::Invalid {
            rules: self.id.into(),
            field: name.into(),
            problem: "not an option of this rule set".into(),
        })
    }
}

fn bad(d: &OptionDef, v: &OptionValue) -> SpecError {
    let allowed = if d.values.is_empty() { format!("integer {}..={}", d.range.0, d.range.1) } else { d.values.join(" | ") };
    SpecError::BadOptionValue { option: d.name.into(), value: v.to_string(), allowed }
}

impl TowerRules {
    /// The tower rule set `id` with options (absent ones take their defaults).
    ///
    /// # Errors
    /// [`SpecError::UnknownRuleSet`] for an id that is not a tower rule set,
    /// [`SpecError::UnknownOption`] for an option it does not have and
    /// [`SpecError::BadOptionValue`] for a value the option does not allow.
    pub fn new(id: &str, options: &Options) -> Result<TowerRules, SpecError> {
        let id: &'static str = TOWER_IDS.iter().copied().find(|i| *i == id).ok_or_else(|| SpecError::UnknownRuleSet(id.into()))?;
        let (name, _, defs) = rule_set_info(id).ok_or_else(|| SpecError::UnknownRuleSet(id.into()))?;
        if let Some(k) = options.keys().find(|k| !defs.iter().any(|d| d.name == k.as_str())) {
            let known = defs.iter().map(|d| d.name).collect::<Vec<_>>().join(", ");
            return Err(SpecError::UnknownOption { rules: id.into(), option: k.clone(), known });
        }
        let c = Chosen { id, defs, given: options.clone() };
        let has = |n: &str| c.defs.iter().any(|d| d.name == n);
        let mut r = TowerRules::base(id, name);
        r.optional_drop_prisoners = c.flag("optional_drop_prisoners")?;
        r.loaded_promoted_backward = c.flag("loaded_promoted_backward")?;
        if has("rolloff_six") {
            r.rolloff_six_counts = c.word("rolloff_six")? == "six";
        }
        if has("tokens_per_player") {
            r.tokens = c.number("tokens_per_player")? as u8;
        }
        if has("goal_cap_scope") {
            r.goal_cap_scope = if c.word("goal_cap_scope")? == "combined" { GoalCapScope::Combined } else { GoalCapScope::PerSquare };
            r.win = WinRule::Expulsion { adjudicate: c.flag("adjudicate_when_no_free_tokens")? };
            r.blank_without_5 = if c.word("all_blank_without_5")? == "pass" { BlankWithout5::Pass } else { BlankWithout5::MustReroll };
        }
        if has("max_stack") {
            r.max_stack = Some(c.number("max_stack")? as u8);
            r.max_stack_counts = match c.word("max_stack_counts")? {
                "own" => StackCount::Own,
                "excluding_prisoners" => StackCount::ExcludingPrisoners,
                _ => StackCount::All,
            };
        }
        r.no_progress_turns = c.number("no_progress_turns")? as u32;
        r.repetition_limit = c.number("repetition_limit")? as u32;
        r.stalemate_result = if c.word("stalemate_result")? == "adjudicate" { StalemateResult::Adjudicate } else { StalemateResult::Draw };
        Ok(r)
    }

    /// The fixed data of each rule set (options then override some fields).
    fn base(id: &'static str, name: &'static str) -> TowerRules {
        let mut r = TowerRules {
            id,
            name,
            faces: ["blue", "red"],
            sides: ["Player A", "Player B"],
            dice: TowerDice::D6SixPasses,
            tokens: 10,
            optional_drop_prisoners: false,
            loaded_promoted_backward: false,
            goal_cap: Some(5),
            goal_cap_scope: GoalCapScope::PerSquare,
            max_stack: None,
            max_stack_counts: StackCount::All,
            rolloff_six_counts: false,
            blank_without_5: BlankWithout5::MustReroll,
            win: WinRule::Capture,
            no_progress_turns: 200,
            repetition_limit: 3,
            stalemate_result: StalemateResult::Draw,
        };
        match id {
            "vizier-4-pyramids" => {
                r.faces = ["blank", "vizier"];
                r.dice = TowerDice::Pyramids;
                r.win = WinRule::Expulsion { adjudicate: true };
            }
            "guard-d6" => {
                r.faces = ["pawn", "guard"];
                r.sides = ["White", "Black"];
                r.goal_cap = None;
                r.max_stack = Some(5);
            }
            _ => {}
        }
        r
    }

    /// The roll-off value of a raw throw (G8; D30, D46, D58): a 6 scores
    /// nothing unless `rolloff_six = six`; an all-blank pyramid throw counts 5.
    pub fn rolloff_value(&self, raw: u8) -> u8 {
        match (self.dice, raw) {
            (TowerDice::D6SixPasses, 6) if !self.rolloff_six_counts => 0,
            (TowerDice::Pyramids, 0) => 5,
            _ => raw,
        }
    }

    /// Who starts after one roll-off throw each; `None` is a tie (throw again).
    pub fn rolloff(&self, light_raw: u8, dark_raw: u8) -> Option<crate::Side> {
        let (l, d) = (self.rolloff_value(light_raw), self.rolloff_value(dark_raw));
        match l.cmp(&d) {
            std::cmp::Ordering::Greater => Some(crate::Side::Light),
            std::cmp::Ordering::Less => Some(crate::Side::Dark),
            std::cmp::Ordering::Equal => None,
        }
    }
}
