//! RGN's syntax: `[Key "Value"]` tag lines and the move text, read into
//! [`RgnGame`]s (never panicking, whatever the input) and written back with
//! RoyalUr's line wrapping. Nothing here knows a rule set.

use ur_rules::Side;

use super::{err, RgnError, LINE_WIDTH};

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
