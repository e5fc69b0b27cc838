//! The hand-written reader of rule-set tables: every field is type-checked
//! and every problem is collected, so one error can list them all.

use std::collections::BTreeMap;

use toml::{Table, Value};

use super::{
    BirdSpec, OptionSpec, OptionValue, PathSpec, PotSpec, Problem, RaceSpec, RosetteSpec, SquareKind, SquareSpec, ThrowSpec, MAX_PIECES,
};
use crate::board::{Cell, PATH_NAMES};
use crate::dice::{DiceModel, Extra};

/// The fields of a race rule-set file (`options` is read apart).
pub const RACE_FIELDS: &[&str] = &[
    "id",
    "name",
    "source",
    "summary",
    "sides",
    "pieces",
    "board",
    "path",
    "dark_path",
    "non_adjacent_steps",
    "dice",
    "throws",
    "rosettes",
    "squares",
    "capture_extra_roll",
    "pot",
    "birds",
    "notes",
    "options",
];
const THROW_FIELDS: &[&str] = &["raw", "value", "extra", "enter"];
const ROSETTE_FIELDS: &[&str] = &["kind", "extra_roll", "stop"];
const SQUARE_FIELDS: &[&str] = &["at", "kind"];
const POT_FIELDS: &[&str] = &["stake", "rosette_fine"];
const BIRD_FIELDS: &[&str] = &["names", "eagle_call_value"];
const OPTION_FIELDS: &[&str] = &["name", "description", "default", "values", "field", "min", "max"];
/// The fields of the tables inside a race rule-set file: a throw, `rosettes`,
/// a square, `pot`, `birds` and an option.
pub const NESTED_FIELDS: [&[&str]; 6] = [THROW_FIELDS, ROSETTE_FIELDS, SQUARE_FIELDS, POT_FIELDS, BIRD_FIELDS, OPTION_FIELDS];
/// Fields an option's patch may not change.
const FIXED_FIELDS: &[&str] = &["id", "pieces", "options"];

const DICE: &[(&str, DiceModel)] = &[("BIN3", DiceModel::Bin3), ("BIN4", DiceModel::Bin4), ("D4", DiceModel::D4), ("D6", DiceModel::D6)];
const KINDS: &[(&str, SquareKind)] = &[("plain", SquareKind::Plain), ("safe", SquareKind::Safe), ("shared", SquareKind::Shared)];
const EXTRAS: &[(&str, Extra)] = &[("none", Extra::None), ("optional", Extra::Optional), ("auto", Extra::Auto)];

const CELL: &str = "a square as [row, column], two whole numbers such as [2, 3]";

/// What a value is, in plain words, for messages.
pub fn found(v: &Value) -> String {
    let short = |text: String| {
        if text.chars().count() > 40 {
            format!("{}...", text.chars().take(40).collect::<String>())
        } else {
            text
        }
    };
    match v {
        Value::String(s) => format!("the text {}", short(format!("{s:?}"))),
        Value::Integer(i) => format!("the number {i}"),
        Value::Float(x) => format!("the decimal number {x}"),
        Value::Boolean(b) => format!("{b} (a yes/no value)"),
        Value::Datetime(d) => format!("the date {d}"),
        Value::Array(_) => format!("a list ({})", short(v.to_string())),
        Value::Table(_) => "a table".to_owned(),
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

fn quoted(words: &[&str]) -> String {
    words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(", ")
}

/// Whether a field must be given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    Required,
    Optional,
}
use Need::{Optional, Required};

#[derive(Default)]
pub struct Checker {
    pub problems: Vec<Problem>,
}

impl Checker {
    fn wrong(&mut self, field: String, v: &Value, allowed: &str) {
        self.problems.push(Problem::new(field, format!("found {}; allowed: {allowed}", found(v))));
    }

    fn missing(&mut self, field: String, allowed: &str) {
        self.problems.push(Problem::new(field, format!("missing; it must be given as {allowed}")));
    }

    fn unknown(&mut self, t: &Table, prefix: &str, known: &[&str]) {
        for key in t.keys().filter(|k| !known.contains(&k.as_str())) {
            let message = format!("unknown field `{key}`; the known fields here are: {}", known.join(", "));
            self.problems.push(Problem::new(join(prefix, key), message));
        }
    }

    /// The value of a field, or a problem when a required one is missing.
    fn get<'t>(&mut self, t: &'t Table, prefix: &str, key: &str, need: Need, allowed: &str) -> Option<&'t Value> {
        let v = t.get(key);
        if v.is_none() && need == Required {
            self.missing(join(prefix, key), allowed);
        }
        v
    }

    fn text(&mut self, t: &Table, prefix: &str, key: &str, need: Need) -> Option<String> {
        const ALLOWED: &str = "a text in quotes";
        match self.get(t, prefix, key, need, ALLOWED)? {
            Value::String(s) => Some(s.clone()),
            v => {
                self.wrong(join(prefix, key), v, ALLOWED);
                None
            }
        }
    }

    fn int(&mut self, t: &Table, prefix: &str, key: &str, need: Need, range: (i64, i64), what: &str) -> Option<i64> {
        let allowed = format!("a whole number from {} to {}{what}", range.0, range.1);
        let v = self.get(t, prefix, key, need, &allowed)?;
        match v {
            Value::Integer(i) if (range.0..=range.1).contains(i) => Some(*i),
            v => {
                self.wrong(join(prefix, key), v, &allowed);
                None
            }
        }
    }

    fn boolean(&mut self, t: &Table, prefix: &str, key: &str) -> Option<bool> {
        match t.get(key)? {
            Value::Boolean(b) => Some(*b),
            v => {
                self.wrong(join(prefix, key), v, "true or false");
                None
            }
        }
    }

    fn word<T: Copy>(&mut self, t: &Table, prefix: &str, key: &str, need: Need, words: &[(&str, T)]) -> Option<T> {
        let names: Vec<&str> = words.iter().map(|w| w.0).collect();
        let allowed = format!("one of {}", quoted(&names));
        let v = self.get(t, prefix, key, need, &allowed)?;
        if let Some(found) = v.as_str().and_then(|s| words.iter().find(|w| w.0 == s)) {
            return Some(found.1);
        }
        self.wrong(join(prefix, key), v, &allowed);
        None
    }

    fn list<'t>(&mut self, t: &'t Table, prefix: &str, key: &str, allowed: &str) -> Option<&'t Vec<Value>> {
        match t.get(key)? {
            Value::Array(a) => Some(a),
            v => {
                self.wrong(join(prefix, key), v, allowed);
                None
            }
        }
    }

    fn texts(&mut self, t: &Table, prefix: &str, key: &str, need: Need) -> Option<Vec<String>> {
        const ALLOWED: &str = "a list of texts in quotes, such as [\"a\", \"b\"]";
        self.get(t, prefix, key, need, ALLOWED)?;
        let list = self.list(t, prefix, key, ALLOWED)?;
        let mut out = Vec::new();
        for (i, v) in list.iter().enumerate() {
            match v {
                Value::String(s) => out.push(s.clone()),
                v => self.wrong(format!("{}[{}]", join(prefix, key), i + 1), v, "a text in quotes"),
            }
        }
        (out.len() == list.len()).then_some(out)
    }

    fn sub_table<'t>(&mut self, t: &'t Table, prefix: &str, key: &str, allowed: &str) -> Option<&'t Table> {
        match t.get(key)? {
            Value::Table(sub) => Some(sub),
            v => {
                self.wrong(join(prefix, key), v, allowed);
                None
            }
        }
    }

    /// The entries of a list of tables (`[[squares]]`), each read by `read`.
    fn entries<T>(
        &mut self,
        t: &Table,
        key: &str,
        allowed: &str,
        mut read: impl FnMut(&mut Self, &Table, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        let list = self.list(t, "", key, allowed)?;
        let mut out = Vec::new();
        for (i, v) in list.iter().enumerate() {
            let field = format!("{key}[{}]", i + 1);
            match v {
                Value::Table(entry) => out.extend(read(self, entry, &field)),
                v => self.wrong(field, v, allowed),
            }
        }
        (out.len() == list.len()).then_some(out)
    }

    fn cell(&mut self, v: &Value, field: String) -> Option<Cell> {
        let pair = v.as_array().filter(|a| a.len() == 2).and_then(|a| {
            let part = |x: &Value| x.as_integer().and_then(|i| u8::try_from(i).ok());
            Some(Cell { row: part(&a[0])?, col: part(&a[1])? })
        });
        if pair.is_none() {
            self.wrong(field, v, CELL);
        }
        pair
    }

    fn path(&mut self, t: &Table, key: &str, need: Need) -> Option<PathSpec> {
        let allowed = format!("a path name (one of {}) or a list of squares such as [[2, 3], [2, 2]]", quoted(&PATH_NAMES));
        match self.get(t, "", key, need, &allowed)? {
            Value::String(name) => Some(PathSpec::Named(name.clone())),
            Value::Array(cells) => {
                let read: Vec<Option<Cell>> = cells.iter().enumerate().map(|(i, c)| self.cell(c, format!("{key}[{}]", i + 1))).collect();
                read.into_iter().collect::<Option<Vec<Cell>>>().map(PathSpec::Cells)
            }
            v => {
                self.wrong(key.to_owned(), v, &allowed);
                None
            }
        }
    }

    /// Reads the `[[options]]` list; options with problems are left out
    /// (their problems are recorded).
    pub fn options(&mut self, v: &Value) -> Vec<OptionSpec> {
        const ALLOWED: &str = "a list of [[options]] tables";
        let Value::Array(list) = v else {
            self.wrong("options".into(), v, ALLOWED);
            return Vec::new();
        };
        let mut out: Vec<OptionSpec> = Vec::new();
        for (i, v) in list.iter().enumerate() {
            let prefix = format!("options[{}]", i + 1);
            let Value::Table(t) = v else {
                self.wrong(prefix, v, "a table with name, description, default and values (or field, min and max)");
                continue;
            };
            let before = self.problems.len();
            if let Some(opt) = self.option(t, &prefix) {
                if out.iter().any(|o| o.name == opt.name) {
                    self.problems.push(Problem::new(join(&prefix, "name"), format!("option '{}' is given twice", opt.name)));
                } else if self.problems.len() == before {
                    out.push(opt);
                }
            }
        }
        out
    }

    fn option(&mut self, t: &Table, prefix: &str) -> Option<OptionSpec> {
        self.unknown(t, prefix, OPTION_FIELDS);
        let name = self.text(t, prefix, "name", Required);
        if name.as_deref() == Some("pieces") {
            let message = "'pieces' is an option of every rule set already; give the default as the top-level field pieces = N";
            self.problems.push(Problem::new(join(prefix, "name"), message));
        }
        let description = self.text(t, prefix, "description", Required);
        const DEFAULT: &str = "true, false, a whole number or a text";
        let default = match self.get(t, prefix, "default", Required, DEFAULT) {
            None => None,
            Some(Value::Boolean(b)) => Some(OptionValue::Bool(*b)),
            Some(Value::Integer(i)) => Some(OptionValue::Int(*i)),
            Some(Value::String(s)) => Some(OptionValue::Text(s.clone())),
            Some(v) => {
                self.wrong(join(prefix, "default"), v, DEFAULT);
                None
            }
        };
        let field = self.text(t, prefix, "field", Optional);
        let min = self.int(t, prefix, "min", Optional, (i64::MIN, i64::MAX), "");
        let max = self.int(t, prefix, "max", Optional, (i64::MIN, i64::MAX), "");
        let mut values = BTreeMap::new();
        const PATCH: &str = "a table of the fields this value changes, such as { dice = \"D4\" } (or {} for none)";
        if let Some(table) = self.sub_table(t, prefix, "values", "a table of values, such as { BIN4 = {}, D4 = { dice = \"D4\" } }") {
            for (key, patch) in table {
                let field_name = format!("{prefix}.values.{key}");
                match patch {
                    Value::Table(p) => {
                        for fixed in FIXED_FIELDS.iter().filter(|f| p.contains_key(**f)) {
                            let message = format!("an option may not change '{fixed}'");
                            self.problems.push(Problem::new(field_name.clone(), message));
                        }
                        values.insert(key.clone(), p.clone());
                    }
                    v => self.wrong(field_name, v, PATCH),
                }
            }
        }
        let (name, description, default) = (name?, description?, default?);
        match (&field, values.is_empty()) {
            (None, true) => {
                let message = "an option needs `values` (the fields each value changes) or `field` (the number field it sets)";
                self.problems.push(Problem::new(prefix.to_owned(), message));
            }
            (Some(_), false) => {
                let message = "an option has either `values` or `field` (with min and max), not both";
                self.problems.push(Problem::new(prefix.to_owned(), message));
            }
            (None, false) => {
                if !values.contains_key(&default.to_string()) {
                    let known: Vec<&str> = values.keys().map(String::as_str).collect();
                    let message = format!("'{default}' is not one of the option's values ({})", known.join(", "));
                    self.problems.push(Problem::new(join(prefix, "default"), message));
                }
            }
            (Some(f), true) => {
                if f == "pieces" || FIXED_FIELDS.contains(&f.split('.').next().unwrap_or_default()) {
                    self.problems.push(Problem::new(join(prefix, "field"), format!("an option may not set '{f}'")));
                }
                let in_range = |n: i64| min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m);
                match default {
                    OptionValue::Int(n) if in_range(n) => {}
                    _ => {
                        let allowed = format!("a whole number from {} to {}", min.unwrap_or(0), max.unwrap_or(i64::MAX));
                        let message = format!("'{default}' is not allowed; allowed: {allowed}");
                        self.problems.push(Problem::new(join(prefix, "default"), message));
                    }
                }
            }
        }
        Some(OptionSpec { name, description, default, values, field, min, max })
    }
}

/// Reads a race rule set's table (options already applied), checking
/// every field.
///
/// # Errors
/// Every problem found.
pub fn race(t: &Table) -> Result<RaceSpec, Vec<Problem>> {
    let mut c = Checker::default();
    c.unknown(t, "", RACE_FIELDS);
    let id = c.text(t, "", "id", Required);
    if let Some(Err(message)) = id.as_deref().map(super::check_id) {
        c.problems.push(Problem::new("id", message));
    }
    let name = c.text(t, "", "name", Required);
    let source = c.text(t, "", "source", Required);
    let summary = c.text(t, "", "summary", Required);
    let sides = match c.texts(t, "", "sides", Optional) {
        Some(names) => match <[String; 2]>::try_from(names) {
            Ok(pair) => Some(pair),
            Err(names) => {
                let message = format!("found {} names; allowed: a list of two names, light's then dark's", names.len());
                c.problems.push(Problem::new("sides", message));
                None
            }
        },
        None => Some(super::default_sides()),
    };
    let pieces = match t.get("pieces") {
        None => Some(super::DEFAULT_PIECES as u8),
        Some(_) => c.int(t, "", "pieces", Required, (1, i64::from(MAX_PIECES)), " (pieces per side)").map(|n| n as u8),
    };
    let board = c.text(t, "", "board", Required);
    let path = c.path(t, "path", Required);
    let dark_path = c.path(t, "dark_path", Optional);
    let non_adjacent_steps = c.boolean(t, "", "non_adjacent_steps").unwrap_or(false);
    let dice = c.word(t, "", "dice", Required, DICE);
    const THROWS: &str = "a list of tables such as [{ raw = 0, value = 4 }]";
    let throws = c.entries(t, "throws", THROWS, |c, e, field| {
        c.unknown(e, field, THROW_FIELDS);
        let raw = c.int(
            e,
            field,
            "raw",
            Required,
            (0, 6),
            " (what the dice show: 0 to 3 with BIN3, 0 to 4 with BIN4, 1 to 4 with D4, 1 to 6 with D6)",
        );
        let value = c.int(e, field, "value", Optional, (0, 7), " (squares to move; 0 is no move)");
        let extra = c.word(e, field, "extra", Optional, EXTRAS);
        let enter = c.boolean(e, field, "enter");
        Some(ThrowSpec { raw: raw? as u8, value: value.map(|v| v as u8), extra: extra.unwrap_or_default(), enter })
    });
    let rosettes = c.sub_table(t, "", "rosettes", "a table such as { kind = \"safe\", extra_roll = \"auto\" }").map(|r| {
        c.unknown(r, "rosettes", ROSETTE_FIELDS);
        RosetteSpec {
            kind: c.word(r, "rosettes", "kind", Optional, KINDS).unwrap_or_default(),
            extra_roll: c.word(r, "rosettes", "extra_roll", Optional, EXTRAS).unwrap_or_default(),
            stop: c.boolean(r, "rosettes", "stop").unwrap_or(false),
        }
    });
    let squares = c.entries(t, "squares", "a list of [[squares]] tables such as { at = [1, 3], kind = \"shared\" }", |c, e, field| {
        c.unknown(e, field, SQUARE_FIELDS);
        let at = c.get(e, field, "at", Required, CELL).and_then(|v| c.cell(v, join(field, "at")));
        let kind = c.word(e, field, "kind", Required, KINDS);
        Some(SquareSpec { at: at?, kind: kind? })
    });
    let capture_extra_roll = c.word(t, "", "capture_extra_roll", Optional, EXTRAS).unwrap_or_default();
    let pot = c.sub_table(t, "", "pot", "a table such as { stake = 10, rosette_fine = 1 }").and_then(|p| {
        c.unknown(p, "pot", POT_FIELDS);
        let stake = c.int(p, "pot", "stake", Required, (0, i64::from(u32::MAX)), "");
        let fine = c.int(p, "pot", "rosette_fine", Required, (0, i64::from(u32::MAX)), "");
        Some(PotSpec { stake: stake? as u32, rosette_fine: fine? as u32 })
    });
    let birds = c.sub_table(t, "", "birds", "a table such as { names = [\"Swallow\", \"Raven\"] }").and_then(|b| {
        c.unknown(b, "birds", BIRD_FIELDS);
        let names = c.texts(b, "birds", "names", Required);
        let call = c.int(b, "birds", "eagle_call_value", Optional, (0, 255), " (a move value the dice can give)");
        Some(BirdSpec { names: names?, eagle_call_value: call.map(|v| v as u8) })
    });
    let notes = c.texts(t, "", "notes", Optional);
    let (Some(id), Some(name), Some(source), Some(summary), Some(sides), Some(pieces), Some(board), Some(path), Some(dice), true) =
        (id, name, source, summary, sides, pieces, board, path, dice, c.problems.is_empty())
    else {
        return Err(c.problems);
    };
    let rosettes = rosettes.unwrap_or_default();
    let (throws, squares, notes) = (throws.unwrap_or_default(), squares.unwrap_or_default(), notes.unwrap_or_default());
    Ok(RaceSpec {
        id,
        name,
        source,
        summary,
        sides,
        pieces,
        board,
        path,
        dark_path,
        non_adjacent_steps,
        dice,
        throws,
        rosettes,
        squares,
        capture_extra_roll,
        pot,
        birds,
        notes,
    })
}
