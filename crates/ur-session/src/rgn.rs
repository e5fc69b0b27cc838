//! RGN (Royal Game Notation), RoyalUr's PGN-like text for games: read and
//! written here for every rule set (docs/rgn.md).
//!
//! Two layers, both pure text functions with no I/O:
//! - syntax: [`parse_games`] reads tags and move text into [`RgnGame`]s (it
//!   never panics, whatever the input), [`format_game`] writes one back
//!   with RoyalUr's line wrapping;
//! - meaning: [`read_games`] replays each game under its rules into a
//!   [`SavedGame`], [`write_game`] turns a record into RGN text.
//!
//! RoyalUr's own rule sets (`Rules` tag: `Finkel`, `Masters`, `Blitz`,
//! `Aseb`...) are written exactly as RoyalUr-Java writes them; ours carry
//! `Ur...` tags and, where RGN cannot state a step, a token of our own.

use std::fmt;

use serde_json::Value;
use ur_rules::any_record::ANY_RECORD_VERSION;
use ur_rules::record::{Tags, RECORD_VERSION};
use ur_rules::{
    family_of, Action, AnyAction, AnyGame, AnyRecord, Family, GameRecord, OptionValue, Options, Playable, RuleSetFile, Side, Step, Turn,
};

use crate::records::SavedGame;

/// A roll and its moves on one line, wrapped before this many characters
/// (RoyalUr-Java's default turn line length).
pub const LINE_WIDTH: usize = 60;

/// Tags we read into the record's fields rather than keep as metadata.
pub const OWN_TAGS: [&str; 7] = ["Rules", "UrRules", "UrOptions", "UrRulesFile", "UrFirst", "UrStart", "UrRecord"];

/// An error with the place in the text it concerns (line and column from 1;
/// 0 when it concerns no place, as when writing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgnError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for RgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.message),
            (line, 0) => write!(f, "line {line}: {}", self.message),
            (line, column) => write!(f, "line {line}, column {column}: {}", self.message),
        }
    }
}

impl std::error::Error for RgnError {}

fn err(line: usize, column: usize, message: impl Into<String>) -> RgnError {
    RgnError { line, column, message: message.into() }
}

// ---------------------------------------------------------------------------
// Syntax
// ---------------------------------------------------------------------------

/// One `[Key Value]` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgnTag {
    pub key: String,
    pub value: String,
    /// Where it was read (0 when made here).
    pub line: usize,
}

/// One action of the move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// `N --`: a roll with no move after it.
    Roll(u32),
    /// A move or decision, with the roll before it when written (`N:B2B4`),
    /// and whether it was marked ` *` (landing on a rosette).
    Act { roll: Option<u32>, text: String, rosette: bool },
}

/// An action and the side whose turn marker (`n.` light, `/` dark) it follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgnItem {
    pub side: Side,
    pub kind: ItemKind,
    pub line: usize,
    pub column: usize,
}

/// One game as written: its tags, its actions, and whether it ends with `#`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RgnGame {
    pub tags: Vec<RgnTag>,
    pub items: Vec<RgnItem>,
    pub finished: bool,
    /// The line the game starts on (0 when made here).
    pub line: usize,
}

/// Reads every game of an RGN text: games are separated by a `---` line (as
/// in RoyalUr's files) or by a tag line after move text. Never panics.
///
/// # Errors
/// The first line that does not read, with its line and column.
pub fn parse_games(text: &str) -> Result<Vec<RgnGame>, RgnError> {
    let mut games = Vec::new();
    let mut game = RgnGame::default();
    let mut moves = MoveReader::default();
    for (index, raw_line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw_line.trim();
        if line == "---" {
            finish_game(&mut games, &mut game, &mut moves)?;
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            if !game.items.is_empty() || moves.pending.is_some() || game.finished {
                finish_game(&mut games, &mut game, &mut moves)?;
            }
            if game.line == 0 {
                game.line = line_no;
            }
            let column = raw_line.len() - raw_line.trim_start().len() + 1;
            game.tags.push(parse_tag(line, line_no, column)?);
            continue;
        }
        if game.line == 0 {
            game.line = line_no;
        }
        moves.line(raw_line, line_no, &mut game)?;
    }
    finish_game(&mut games, &mut game, &mut moves)?;
    Ok(games)
}

fn finish_game(games: &mut Vec<RgnGame>, game: &mut RgnGame, moves: &mut MoveReader) -> Result<(), RgnError> {
    if let Some((n, line, column)) = moves.pending.take() {
        return Err(err(line, column, format!("the roll {n} must be followed by `--` (a roll with no move is written `{n} --`)")));
    }
    let done = std::mem::take(game);
    *moves = MoveReader::default();
    if !done.tags.is_empty() || !done.items.is_empty() {
        games.push(done);
    }
    Ok(())
}

/// `[Key Value]` or `[Key "quoted value"]`.
fn parse_tag(line: &str, line_no: usize, column: usize) -> Result<RgnTag, RgnError> {
    let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
        return Err(err(line_no, column, "a tag line must look like [Key Value] and end with ]"));
    };
    let (key, rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(err(line_no, column + 1, format!("expected a tag name of letters, digits and _ after [, found '{key}'")));
    }
    let rest = rest.trim();
    let value_column = column + 1 + key.len() + 1;
    let value = if let Some(quoted) = rest.strip_prefix('"') {
        unquote(quoted, line_no, value_column)?
    } else if rest.is_empty() {
        return Err(err(line_no, value_column, format!("tag {key} has no value; write [{key} Value] or [{key} \"\"]")));
    } else {
        rest.to_owned()
    };
    Ok(RgnTag { key: key.to_owned(), value, line: line_no })
}

/// The rest of a quoted value after its opening quote, which must end with
/// the closing quote.
fn unquote(text: &str, line: usize, column: usize) -> Result<String, RgnError> {
    let mut out = String::new();
    let count = text.chars().count();
    let mut chars = text.chars().enumerate();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' if i + 1 == count => return Ok(out),
            '"' => return Err(err(line, column + i + 1, "text after the closing quote of a tag value; escape a quote inside as \\\"")),
            '\\' => match chars.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, 'n')) => out.push('\n'),
                Some((_, 'r')) => out.push('\r'),
                Some((j, other)) => {
                    return Err(err(line, column + j, format!("unknown escape \\{other} in a tag value; use \\\" \\\\ \\n or \\r")))
                }
                None => return Err(err(line, column + i + 1, "a tag value ends inside an escape; close it with \"")),
            },
            _ => out.push(c),
        }
    }
    Err(err(line, column, "a quoted tag value has no closing quote"))
}

/// Reads move text token by token, across lines.
#[derive(Default)]
struct MoveReader {
    side: Option<Side>,
    /// A roll number waiting for its `--`, with its place.
    pending: Option<(u32, usize, usize)>,
}

impl MoveReader {
    fn line(&mut self, raw_line: &str, line_no: usize, game: &mut RgnGame) -> Result<(), RgnError> {
        for (column, token) in tokens(raw_line) {
            if game.finished {
                return Err(err(line_no, column, format!("'{token}' after the end mark #: nothing may follow it")));
            }
            self.token(token, line_no, column, game)?;
        }
        Ok(())
    }

    fn token(&mut self, token: &str, line: usize, column: usize, game: &mut RgnGame) -> Result<(), RgnError> {
        let (body, end) = match token.strip_suffix('#') {
            Some(body) => (body, true),
            None => (token, false),
        };
        if let Some((n, l, c)) = self.pending.take() {
            if body != "--" {
                return Err(err(l, c, format!("the roll {n} must be followed by `--` (a roll with no move is written `{n} --`)")));
            }
            let side = self.side_at(l, c)?;
            game.items.push(RgnItem { side, kind: ItemKind::Roll(n), line: l, column: c });
            game.finished = end;
            return Ok(());
        }
        if end && body.is_empty() {
            return Err(err(line, column, "a lone #: the end mark goes right after the last action, as in A7A+#"));
        }
        if let Some(number) = body.strip_suffix('.') {
            if end || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err(line, column, format!("'{token}' is not a turn number such as 12.")));
            }
            self.side = Some(Side::Light);
            return Ok(());
        }
        match body {
            "/" if !end => {
                self.side = Some(Side::Dark);
                Ok(())
            }
            "*" => {
                match game.items.last_mut() {
                    Some(RgnItem { kind: ItemKind::Act { rosette, .. }, .. }) if !*rosette => *rosette = true,
                    _ => return Err(err(line, column, "a rosette mark * must follow a move")),
                }
                game.finished = end;
                Ok(())
            }
            "--" => Err(err(line, column, "`--` must follow a roll number, as in 0 --")),
            _ if !end && !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) => {
                self.side_at(line, column)?;
                self.pending = Some((number(body, line, column)?, line, column));
                Ok(())
            }
            // Written back, such a token could start a line and read as a tag or a separator.
            _ if body.starts_with('[') || body == "---" => Err(err(
                line,
                column,
                format!("'{token}' is not an action: a tag [Key Value] and the game separator --- go on lines of their own"),
            )),
            _ => {
                let side = self.side_at(line, column)?;
                let (roll, text) = split_roll(body, line, column)?;
                game.items.push(RgnItem { side, kind: ItemKind::Act { roll, text: text.to_owned(), rosette: false }, line, column });
                game.finished = end;
                Ok(())
            }
        }
    }

    fn side_at(&self, line: usize, column: usize) -> Result<Side, RgnError> {
        self.side.ok_or_else(|| err(line, column, "expected a turn marker first: `1.` before light's actions, `/` before dark's"))
    }
}

/// `N:text` into the roll and the text.
fn split_roll(body: &str, line: usize, column: usize) -> Result<(Option<u32>, &str), RgnError> {
    match body.split_once(':') {
        Some((n, text)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            if text.is_empty() {
                return Err(err(line, column, format!("'{body}': a roll written before an action needs the action after the colon")));
            }
            Ok((Some(number(n, line, column)?), text))
        }
        _ => Ok((None, body)),
    }
}

fn number(text: &str, line: usize, column: usize) -> Result<u32, RgnError> {
    text.parse().map_err(|_| err(line, column, format!("the roll {text} is too large")))
}

/// The whitespace-separated tokens of a line with their columns (from 1).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (column, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (true, Some((s, col))) => {
                out.push((col, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some((i, column + 1)),
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &line[s..]));
    }
    out
}

/// Whether a tag value is written without quotes (RoyalUr's rule).
fn is_bare(value: &str) -> bool {
    let mut chars = value.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

fn quote(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes a game as RoyalUr does: tags, a blank line, then one line per
/// light turn and the dark turn after it, wrapped before [`LINE_WIDTH`].
pub fn format_game(game: &RgnGame) -> String {
    let mut out = String::new();
    for tag in &game.tags {
        let value = if is_bare(&tag.value) { tag.value.clone() } else { quote(&tag.value) };
        out.push_str(&format!("[{} {value}]\n", tag.key));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let mut lines: Vec<String> = Vec::new();
    let (mut block, mut block_len) = (String::new(), 0usize);
    let (mut turns, mut last_side) = (0usize, None);
    for (i, item) in game.items.iter().enumerate() {
        let mut action = String::new();
        if last_side != Some(item.side) {
            turns += 1;
            last_side = Some(item.side);
            action = match item.side {
                Side::Light => format!("{}. ", turns.div_ceil(2)),
                Side::Dark => "/ ".into(),
            };
        }
        action.push_str(&item_text(&item.kind));
        if game.finished && i + 1 == game.items.len() {
            action.push('#');
        }
        let len = action.chars().count();
        if block.is_empty() {
            block_len = len;
        } else if block_len + len + 1 < LINE_WIDTH {
            block.push(' ');
            block_len += len + 1;
        } else {
            block.push('\n');
            block_len = len;
        }
        block.push_str(&action);
        let next_side = game.items.get(i + 1).map(|n| n.side);
        if next_side.is_none() || (item.side == Side::Dark && next_side != Some(Side::Dark)) {
            lines.push(std::mem::take(&mut block));
        }
    }
    out.push_str(&lines.join("\n"));
    out
}

fn item_text(kind: &ItemKind) -> String {
    match kind {
        ItemKind::Roll(n) => format!("{n} --"),
        ItemKind::Act { roll, text, rosette } => {
            let roll = roll.map(|n| format!("{n}:")).unwrap_or_default();
            format!("{roll}{text}{}", if *rosette { " *" } else { "" })
        }
    }
}

/// Several games as RoyalUr's files hold them: separated by `---` lines,
/// ending with a newline.
pub fn format_games(games: &[String]) -> String {
    let mut out = games.join("\n\n---\n\n");
    out.push('\n');
    out
}

// ---------------------------------------------------------------------------
// Rules: RoyalUr's presets and our own tags
// ---------------------------------------------------------------------------

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
enum Numbers {
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
fn header_tags(saved: &SavedGame) -> (Vec<(String, String)>, Numbers) {
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
fn default_record(name: &str) -> Result<SavedGame, String> {
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
fn header_from_tags(tags: &[RgnTag], default: Option<&str>) -> Result<(SavedGame, Numbers), RgnError> {
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

// ---------------------------------------------------------------------------
// Tokens of actions
// ---------------------------------------------------------------------------

/// A square in RGN coordinates: the column letter counts the board's rows
/// from light's side (`A` light's, `B` the middle, `C` dark's), the number
/// its columns from 1.
fn cell_name(rows: u8, cell: ur_rules::Cell) -> String {
    let letter = char::from(b'A' + (rows - 1).saturating_sub(cell.row).min(25));
    format!("{letter}{}", u32::from(cell.col) + 1)
}

fn side_letter(rows: u8, side: Side) -> char {
    match side {
        Side::Light => 'A',
        Side::Dark => char::from(b'A' + (rows - 1).min(25)),
    }
}

/// A race move in squares: `A@A4`, `B2B5`, `A7A+`.
fn square_token(game: &ur_rules::Game, m: ur_rules::Move) -> String {
    let rules = game.rules();
    let side = game.to_move();
    let rows = rules.board.rows;
    let end = |pos: u8, mark: char| {
        if pos == 0 || pos > rules.path_len() {
            format!("{}{mark}", side_letter(rows, side))
        } else {
            cell_name(rows, rules.cell(side, pos))
        }
    };
    format!("{}{}", end(m.from, '@'), end(m.to, '+'))
}

/// A race move by path positions (`5-7`, with `b2` for a named bird).
fn position_token(m: ur_rules::Move) -> String {
    let bird = if m.piece == 0 { String::new() } else { format!("b{}", m.piece) };
    format!("{}-{}{bird}", m.from, m.to)
}

/// The usual text of an open action: squares for a race move, the choice's
/// name, the family's text without spaces for the other families.
fn primary_token(game: &AnyGame, action: &AnyAction) -> String {
    match (game, action) {
        (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) => square_token(g, *m),
        (_, AnyAction::Race(Action::Choose(c))) => c.name().to_owned(),
        _ => action.to_string().split_whitespace().collect(),
    }
}

fn json_token(action: &AnyAction) -> String {
    serde_json::to_string(action).expect("actions serialise")
}

/// The open actions a token names, and whether it claims a capture (`x`).
fn matches(game: &AnyGame, token: &str) -> (Vec<AnyAction>, bool) {
    let open = game.actions();
    if token.starts_with('{') {
        let Ok(value) = serde_json::from_str::<Value>(token) else { return (Vec::new(), false) };
        let found = open.into_iter().filter(|a| serde_json::to_value(a).ok().as_ref() == Some(&value)).collect();
        return (found, false);
    }
    let named = |t: &str| -> Vec<AnyAction> {
        open.iter()
            .filter(|a| primary_token(game, a) == t || matches!(a, AnyAction::Race(Action::Move(m)) if position_token(*m) == t))
            .cloned()
            .collect()
    };
    let found = named(token);
    if found.is_empty() && matches!(game, AnyGame::Race(_)) {
        if let Some(body) = token.strip_suffix('x') {
            return (named(body), true);
        }
    }
    (found, false)
}

/// The raw outcomes after which `token` names exactly one action of the
/// side that rolled.
fn inferred_rolls(game: &AnyGame, token: &str) -> Vec<u8> {
    let Turn::Roll(side) = game.turn() else { return Vec::new() };
    game.outcomes()
        .into_iter()
        .filter(|&(raw, _)| {
            let mut g = game.clone();
            g.roll(raw).is_ok() && g.turn() == Turn::Decide(side) && matches(&g, token).0.len() == 1
        })
        .map(|(raw, _)| raw)
        .collect()
}

fn raw_of(game: &AnyGame, n: u32, numbers: Numbers) -> Result<u8, String> {
    let n = u8::try_from(n).map_err(|_| format!("no roll shows {n}"))?;
    match (numbers, game) {
        (Numbers::Value, AnyGame::Race(g)) => g.rules().raw_for_value(n),
        _ => Ok(n),
    }
}

fn number_of(game: &AnyGame, raw: u8, numbers: Numbers) -> u32 {
    match (numbers, game) {
        (Numbers::Value, AnyGame::Race(g)) => u32::from(g.rules().throw(raw).map_or(raw, |t| t.value)),
        _ => u32::from(raw),
    }
}

fn acting_side(game: &AnyGame) -> Option<Side> {
    match game.turn() {
        Turn::Roll(s) | Turn::Decide(s) => Some(s),
        Turn::Over(_) => None,
    }
}

/// What an action did that RGN marks: a capture, a landing on a rosette.
#[derive(Clone, Copy, Default)]
struct Marks {
    capture: bool,
    rosette: bool,
}

/// Plays an action, with the marks RGN gives it.
fn play(game: &mut AnyGame, action: &AnyAction) -> Result<Marks, String> {
    if let (AnyGame::Race(g), AnyAction::Race(Action::Move(m))) = (&mut *game, action) {
        let rules = g.rules().clone();
        let side = g.to_move();
        let effect = g.play(*m).map_err(|e| e.to_string())?;
        let rosette = m.to >= 1 && m.to <= rules.path_len() && rules.board.is_rosette(rules.cell(side, m.to));
        return Ok(Marks { capture: effect.captured, rosette });
    }
    game.apply(action).map_err(|e| e.to_string())?;
    Ok(Marks::default())
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/// One step of a replay, as records keep it.
enum Played {
    Roll(u8),
    Act(AnyAction),
}

/// The game before its first step, and the record of it.
fn start_game(saved: &SavedGame) -> Result<AnyGame, String> {
    match saved {
        SavedGame::Race(r) => {
            let header = GameRecord { actions: Vec::new(), winner: None, ..r.clone() };
            header.start_game().map(AnyGame::Race).map_err(|e| e.to_string())
        }
        SavedGame::Family(r) => {
            let mut game = AnyGame::new(&r.rules, &r.options, r.first).map_err(|e| e.to_string())?;
            if let Some(start) = &r.start {
                game.set_position(start).map_err(|e| format!("the start position: {e}"))?;
            }
            Ok(game)
        }
    }
}

/// Replays a game's actions under the rules its tags give (`default`, a
/// RoyalUr rule-set name such as `Masters` or one of our ids, for a game
/// without a `Rules` or `UrRules` tag; Finkel when none is given).
///
/// # Errors
/// Tags that do not say valid rules, or the first action that does not
/// read or is not legal, with its line and column.
pub fn game_to_record(game: &RgnGame, default: Option<&str>) -> Result<SavedGame, RgnError> {
    let (mut saved, numbers) = header_from_tags(&game.tags, default).map_err(|mut e| {
        if e.line == 0 {
            e.line = game.line;
        }
        e
    })?;
    let mut g = start_game(&saved).map_err(|e| err(game.line, 0, format!("the game cannot start: {e}")))?;
    let assumed = !game.tags.iter().any(|t| t.key == "Rules" || t.key == "UrRules");
    let mut played = Vec::new();
    for item in &game.items {
        read_item(&mut g, item, numbers, &mut played).map_err(|mut m| {
            if assumed {
                m.push_str(&format!(" (the game names no rules and was read as {})", default.unwrap_or("Finkel")));
            }
            err(item.line, item.column, m)
        })?;
    }
    if game.finished && !matches!(g.turn(), Turn::Over(_)) {
        let (line, column) = game.items.last().map_or((game.line, 0), |i| (i.line, i.column));
        return Err(err(line, column, "the game is marked finished (#) but is not over after its last action"));
    }
    let over = g.turn();
    match &mut saved {
        SavedGame::Race(r) => {
            r.actions = played
                .into_iter()
                .filter_map(|p| match p {
                    Played::Roll(raw) => Some(Action::Roll(raw)),
                    Played::Act(a) => a.as_race().copied(),
                })
                .collect();
            r.winner = g.winner();
        }
        SavedGame::Family(r) => {
            r.steps = played
                .into_iter()
                .map(|p| match p {
                    Played::Roll(raw) => Step::Roll(raw),
                    Played::Act(a) => Step::Act(serde_json::to_value(&a).expect("actions serialise")),
                })
                .collect();
            (r.over, r.winner) = match over {
                Turn::Over(w) => (true, w),
                _ => (false, None),
            };
        }
    }
    Ok(saved)
}

fn read_item(g: &mut AnyGame, item: &RgnItem, numbers: Numbers, played: &mut Vec<Played>) -> Result<(), String> {
    let Some(side) = acting_side(g) else {
        return Err("the game is already over here; nothing may follow its last move".into());
    };
    if side != item.side {
        let marker = if side == Side::Light { "a turn number such as `12.`" } else { "`/`" };
        return Err(format!("it is {side}'s turn here, but this action is marked as {}'s (put it after {marker})", item.side));
    }
    match &item.kind {
        ItemKind::Roll(n) => {
            let raw = raw_of(g, *n, numbers)?;
            g.roll(raw).map_err(|e| format!("the roll {n}: {e}"))?;
            played.push(Played::Roll(raw));
            Ok(())
        }
        ItemKind::Act { roll, text, rosette } => {
            if let Some(n) = roll {
                let raw = raw_of(g, *n, numbers)?;
                g.roll(raw).map_err(|e| format!("the roll {n}: {e}"))?;
                played.push(Played::Roll(raw));
            } else if let Turn::Roll(_) = g.turn() {
                let raw = match inferred_rolls(g, text).as_slice() {
                    [raw] => *raw,
                    [] => return Err(format!("no roll makes '{text}' a legal move of {side} here")),
                    many => {
                        let rolls: Vec<String> = many.iter().map(|r| number_of(g, *r, numbers).to_string()).collect();
                        return Err(format!(
                            "'{text}' could follow a roll of {}: write the roll before it, as {}:{text}",
                            rolls.join(" or "),
                            rolls[0]
                        ));
                    }
                };
                g.roll(raw).map_err(|e| e.to_string())?;
                played.push(Played::Roll(raw));
            }
            let (found, claims_capture) = matches(g, text);
            let action = match found.as_slice() {
                [one] => one.clone(),
                [] => {
                    let open: Vec<String> = g.actions().iter().map(|a| primary_token(g, a)).collect();
                    let open = if open.is_empty() { "none (the game waits for a roll)".to_owned() } else { open.join(", ") };
                    return Err(format!("'{text}' is not a legal action here; legal: {open}"));
                }
                _ => return Err(format!("'{text}' names more than one legal action here; write it by path positions (FROM-TO)")),
            };
            let marks = play(g, &action)?;
            if claims_capture && !marks.capture {
                return Err(format!("'{text}' is marked as a capture (x), but it captures nothing"));
            }
            if *rosette && !marks.rosette {
                return Err(format!("'{text}' is marked as landing on a rosette (*), but it does not"));
            }
            played.push(Played::Act(action));
            Ok(())
        }
    }
}

/// Reads every game of an RGN text into records (see [`game_to_record`]).
///
/// # Errors
/// The first game that does not read, named by its number (from 1).
pub fn read_games(text: &str, default: Option<&str>) -> Result<Vec<SavedGame>, RgnError> {
    let games = parse_games(text)?;
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            game_to_record(g, default).map_err(|mut e| {
                if games.len() > 1 {
                    e.message = format!("game {}: {}", i + 1, e.message);
                }
                e
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// The steps of a record as actions of its game.
fn record_steps(saved: &SavedGame, game: &AnyGame) -> Result<Vec<Played>, String> {
    match saved {
        SavedGame::Race(r) => Ok(r
            .actions
            .iter()
            .map(|a| match a {
                Action::Roll(raw) => Played::Roll(*raw),
                other => Played::Act(AnyAction::Race(*other)),
            })
            .collect()),
        SavedGame::Family(r) => r
            .steps
            .iter()
            .map(|s| match s {
                Step::Roll(raw) => Ok(Played::Roll(*raw)),
                Step::Act(json) => game.action_from_json(json).map(Played::Act).map_err(|e| e.to_string()),
            })
            .collect(),
    }
}

/// The token that names `action` alone among the open actions.
fn token_for(game: &AnyGame, action: &AnyAction) -> String {
    let mut forms = vec![primary_token(game, action)];
    if let AnyAction::Race(Action::Move(m)) = action {
        forms.push(position_token(*m));
    }
    forms.push(json_token(action));
    let alone = |t: &String| matches!(matches(game, t).0.as_slice(), [one] if one == action);
    forms.iter().find(|t| alone(t)).cloned().unwrap_or_else(|| json_token(action))
}

/// A record as an RGN game: its steps replayed into tokens.
///
/// # Errors
/// A record that does not replay.
pub fn record_to_game(saved: &SavedGame, default: Option<&str>) -> Result<RgnGame, RgnError> {
    let fail = |index: usize, m: String| err(0, 0, format!("the record does not replay at step {}: {m}", index + 1));
    crate::records::replay("the record", saved).map_err(|e| err(0, 0, e.to_string()))?;
    let mut g = start_game(saved).map_err(|m| err(0, 0, format!("the record cannot start: {m}")))?;
    let steps = record_steps(saved, &g).map_err(|m| err(0, 0, format!("the record does not read: {m}")))?;
    let (header, numbers) = header_tags(saved);
    let mut items = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let side = acting_side(&g).ok_or_else(|| fail(i, "the game is over before this step".into()))?;
        match &steps[i] {
            Played::Roll(raw) => {
                let before = g.clone();
                g.roll(*raw).map_err(|e| fail(i, e.to_string()))?;
                let paired = match steps.get(i + 1) {
                    Some(Played::Act(next)) if g.turn() == Turn::Decide(side) => Some(next),
                    _ => None,
                };
                let Some(action) = paired else {
                    items.push(item(side, ItemKind::Roll(number_of(&g, *raw, numbers))));
                    i += 1;
                    continue;
                };
                let token = token_for(&g, action);
                let roll = (inferred_rolls(&before, &token) != [*raw]).then(|| number_of(&g, *raw, numbers));
                items.push(act_item(&mut g, side, action, token, roll).map_err(|m| fail(i + 1, m))?);
                i += 2;
            }
            Played::Act(action) => {
                let token = token_for(&g, action);
                items.push(act_item(&mut g, side, action, token, None).map_err(|m| fail(i, m))?);
                i += 1;
            }
        }
    }
    let kept = match saved {
        SavedGame::Race(r) => &r.tags,
        SavedGame::Family(r) => &r.tags,
    };
    // A game without moves keeps its rules tags: with neither, nothing would be written.
    let own_only = !items.is_empty() && kept.is_empty() && default.and_then(|d| default_record(d).ok()).is_some_and(|d| header_tags(&d).0 == header);
    let mut tags: Vec<RgnTag> = Vec::new();
    if !own_only {
        tags.extend(header.into_iter().map(|(key, value)| RgnTag { key, value, line: 0 }));
    }
    tags.extend(kept.iter().filter(|(k, _)| !OWN_TAGS.contains(&k.as_str())).map(|(key, value)| RgnTag {
        key: key.clone(),
        value: value.clone(),
        line: 0,
    }));
    Ok(RgnGame { tags, items, finished: matches!(g.turn(), Turn::Over(_)), line: 0 })
}

fn item(side: Side, kind: ItemKind) -> RgnItem {
    RgnItem { side, kind, line: 0, column: 0 }
}

fn act_item(g: &mut AnyGame, side: Side, action: &AnyAction, mut token: String, roll: Option<u32>) -> Result<RgnItem, String> {
    let squares = matches!(action, AnyAction::Race(Action::Move(_))) && token == primary_token(g, action);
    let marks = play(g, action)?;
    if squares && marks.capture {
        token.push('x');
    }
    Ok(item(side, ItemKind::Act { roll, text: token, rosette: squares && marks.rosette }))
}

/// A record as RGN text. `default` is the rule set a reader will assume
/// for a game without rules tags (as for [`game_to_record`]): a record
/// with no metadata under those rules is written without tags, as RoyalUr
/// writes such games; otherwise the rules are always named.
///
/// # Errors
/// A record that does not replay.
pub fn write_game(saved: &SavedGame, default: Option<&str>) -> Result<String, RgnError> {
    Ok(format_game(&record_to_game(saved, default)?))
}
