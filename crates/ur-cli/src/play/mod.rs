//! `ur play`: a game in the terminal, human or bot on each side, for every
//! rule set.
//!
//! In a terminal, a full-screen app (`tui/`): the board drawn and redrawn,
//! one key per action. With `--plain`, or input that is not a terminal,
//! plain line input: the program throws the dice, lists the open decisions
//! with numbers, and reads one line per decision (see `help`). The game is
//! a [`ur_session::Session`]; the words come from [`ur_rules::narrate`].

mod input;
mod tui;

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use ur_bots::hint::action_values;
use ur_bots::review::Judge;
use ur_bots::review_any::AnyStep;
use ur_bots::{make_bot_with_table, Bot, BotError};
use ur_cli::{out, outln};
use ur_rules::{narrate, AnyAction, AnyGame, Family, Playable, Side, Turn};
use ur_session::records::Seats;
use ur_session::review_text::play_summary;
use ur_session::tables::{LoadedTable, TableSource};
use ur_session::{NewGame, RulesSource, Session, DEFAULT_DEPTH};

use crate::rules_arg::RulesArgs;
use input::Input;

#[derive(Args, Debug)]
pub struct PlayCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// The bot you play against: random, greedy, expectimax:D, mcts, level1..level5, or perfect (which needs a table: --table, or one in the store)
    /// [default: greedy, or the resumed game's].
    #[arg(long)]
    vs: Option<String>,
    /// Play against difficulty level N (1 = beginner .. 5 = strongest available); the same as --vs levelN.
    #[arg(long, value_name = "N", conflicts_with = "vs", value_parser = clap::value_parser!(u8).range(1..=5))]
    level: Option<u8>,
    /// The side you play: light (bottom row) or dark (top row) [default: light, or the resumed game's].
    #[arg(long = "as", value_name = "SIDE")]
    side: Option<String>,
    /// Who plays light: human or a bot name (overrides --vs/--as).
    #[arg(long)]
    light: Option<String>,
    /// Who plays dark: human or a bot name (overrides --vs/--as).
    #[arg(long)]
    dark: Option<String>,
    /// Who moves first: light, dark or rolloff (each side throws; higher value starts; race rule sets).
    #[arg(long, default_value = "light")]
    first: String,
    /// Seed for the dice and the bots (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Save the game record (JSON) to this file after every step, with who plays each side
    /// (a file already there is refused unless --force, or it is the file resumed).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Replace the --save file if it exists.
    #[arg(long, requires = "save")]
    force: bool,
    /// Go on with an unfinished game saved with --save, saving to the same file (unless --save):
    /// its rules, first player and players come from the file (--vs, --as, --light, --dark change the players).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["rules", "rules_file", "pieces", "options", "first"])]
    resume: Option<PathBuf>,
    /// Start from this position instead of the start: a position string such as `l:469.1,2d`
    /// (docs/positions.md; its side moves first) or the position's JSON.
    #[arg(long, value_name = "POSITION", conflicts_with_all = ["resume", "first"])]
    from: Option<String>,
    /// Print only the result (for bot-against-bot games).
    #[arg(long)]
    quiet: bool,
    /// A table made by `ur solve` for these rules, for the perfect bot, level 5 and hints
    /// (default: the table for these rules in the table store, if any; see `ur solve`).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Line mode even in a terminal: the board as text, one typed line per decision
    /// (the line mode is also used whenever input or output is not a terminal).
    #[arg(long)]
    plain: bool,
    /// Full-screen game: no roll animation and no pause after a bot's move (or set UR_NO_ANIMATION=1).
    #[arg(long)]
    no_animation: bool,
    /// Full-screen game: draw with ASCII characters only (or set UR_ASCII=1); NO_COLOR=1 leaves colours out.
    #[arg(long)]
    ascii: bool,
    /// Line mode: the language the game is told in, en or fr (moves, throws, the lists).
    #[arg(long, default_value = "en", value_parser = parse_lang)]
    lang: narrate::Lang,
}

fn parse_lang(text: &str) -> Result<narrate::Lang, String> {
    narrate::Lang::parse(text).ok_or_else(|| format!("'{text}' is no language of the game: give en or fr"))
}

/// Who plays a side.
pub(crate) enum Player {
    Human,
    Bot(Box<dyn Bot>),
}

/// Where the game is kept: its file, rewritten (atomically) after every
/// step with who plays each side.
#[derive(Clone, Debug)]
pub(crate) struct Saving {
    pub path: PathBuf,
    seats: Seats,
    /// Held while the file is written, so that a signal's exit never cuts a write short.
    writing: Arc<Mutex<()>>,
}

impl Saving {
    /// Writes the game as it stands.
    pub fn write(&self, session: &Session) -> Result<()> {
        let text = ur_session::records::game_json(&session.record(), Some(&self.seats))?;
        let _writing = self.hold();
        ur_solve::atomic::write_atomic(&self.path, text.as_bytes())
            .with_context(|| format!("cannot save the game to {}", self.path.display()))
    }

    /// Waits for a write under way and keeps others from starting, for as long
    /// as the guard lives: a signal handler holds it until the program exits.
    pub fn hold(&self) -> MutexGuard<'_, ()> {
        self.writing.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What the player is told when the game stops before its end.
    pub fn interrupted_line(&self) -> String {
        let p = self.path.display();
        format!("Interrupted: the game so far is saved to {p}; go on with `ur play --resume {p}`.")
    }

    /// The line printed once the game is over or left.
    fn saved_line(&self, family: Family) -> String {
        let next = if family == Family::Race { "review it with `ur review" } else { "check it with `ur replay" };
        format!("Game saved to {} ({next} {}`).", self.path.display(), self.path.display())
    }
}

impl PlayCmd {
    pub fn run(self) -> Result<()> {
        let save_to = self.save_target()?;
        let seed = self.seed.unwrap_or_else(clock_seed);
        let tables = self.tables()?;
        let (mut session, stored_seats, rolloff) = match &self.resume {
            Some(path) => {
                let (session, seats) = resume(path, &tables)?;
                (session, seats, None)
            }
            None => {
                let (session, rolloff) = self.new_session(seed, &tables)?;
                (session, None, rolloff)
            }
        };
        let seats = self.seats(stored_seats)?;
        let saving = save_to.map(|path| Saving { path, seats: seats.clone(), writing: Arc::default() });
        session.seed_dice(seed);
        if let Some(rules) = ur_rules::report::race_rules(session.game()) {
            crate::table_store::warn_passed_over(&tables, rules);
        }
        if let (Some(_), Some(Err(why))) = (&self.table, session.table()) {
            bail!("{why}");
        }
        let players = [self.player(Side::Light, seed, &session, &seats)?, self.player(Side::Dark, seed, &session, &seats)?];
        let humans: Vec<Side> = Side::BOTH.into_iter().filter(|s| matches!(players[s.index()], Player::Human)).collect();
        let full_screen = !self.plain
            && !self.quiet
            && !humans.is_empty()
            && std::io::stdin().is_terminal()
            && std::io::stdout().is_terminal()
            && !dumb_terminal();
        if let (Some(line), false, false) = (&rolloff, full_screen, self.quiet) {
            outln!("{line}")?;
        }
        if let Some(saving) = &saving {
            saving.write(&session)?;
        }
        if full_screen {
            let judge = session.judge(None).or_else(|_| session.judge(Some(DEFAULT_DEPTH))).ok();
            let mut look = tui::Look::new(self.no_animation, self.ascii || ascii_only_locale(), saving.clone(), seats.clone());
            look.intro.extend(rolloff.clone());
            let out = tui::run(session, players, judge, look)?;
            if let Some(saving) = &saving {
                saving.write(&out.session)?;
                outln!("{}", saving.saved_line(out.session.family()))?;
            }
            announce_result(&out.session, &humans, out.finished)?;
            out!("{}", out.summary.unwrap_or_default())?;
            return Ok(());
        }
        if !self.quiet {
            announce(&session, &tables, seed, &seats)?;
            if self.resume.is_some() {
                let history = history(&session);
                if !history.is_empty() {
                    out!("{}", wrap(&format!("The game so far:\n{}", history.join("\n"))))?;
                }
            }
            if !humans.is_empty() {
                out!("{}", wrap(&narrate::intro(session.game(), &humans)))?;
            }
        }
        if let Some(saving) = saving.clone() {
            crate::signals::on_stop(move |signal| {
                let _writing = saving.hold();
                crate::signals::say(&format!("\n{}", saving.interrupted_line()));
                std::process::exit(crate::signals::status(signal));
            })?;
        }
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        let judge = session.judge(None).or_else(|_| session.judge(Some(DEFAULT_DEPTH))).ok();
        let mut table =
            Table { session, players, quiet: self.quiet, input: stdin.lock(), echo, judge, saving: saving.clone(), lang: self.lang };
        let finished = table.run()?;
        let session = table.session;
        if let Some(saving) = &saving {
            saving.write(&session)?;
            outln!("{}", saving.saved_line(session.family()))?;
        }
        announce_result(&session, &humans, finished)?;
        if finished && !self.quiet && !humans.is_empty() {
            if let Some(judge) = &table.judge {
                out!("{}", play_summary(&session, judge, &humans, saving.is_some())?.unwrap_or_default())?;
            }
        }
        Ok(())
    }

    /// The file the game is saved to (`--save`, else the file resumed), checked
    /// before the game starts: a record already there is replaced only with
    /// `--force` or when it is the game being resumed.
    fn save_target(&self) -> Result<Option<PathBuf>> {
        let Some(path) = self.save.clone().or_else(|| self.resume.clone()) else { return Ok(None) };
        crate::files::check_output(&path, "cannot save to")?;
        let resumed = self.resume.as_deref().is_some_and(|r| same_file(r, &path));
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) && !self.force && !resumed {
            bail!(
                "--save {}: the file already exists (a saved game is never replaced unasked); give --force to replace it, \
                 or another file name",
                path.display()
            );
        }
        Ok(Some(path))
    }

    /// Who plays each side: as the flags say, or the resumed game's players when no flag names one.
    fn seats(&self, stored: Option<Seats>) -> Result<Seats> {
        let named = self.vs.is_some() || self.level.is_some() || self.side.is_some() || self.light.is_some() || self.dark.is_some();
        if let (Some(stored), false) = (stored, named) {
            return Ok(stored);
        }
        let side = self.side.as_deref().unwrap_or("light");
        let human_side = Side::parse(side).ok_or_else(|| anyhow!("--as must be light or dark, not '{side}'"))?;
        let bot = self.level.map_or_else(|| self.vs.clone().unwrap_or_else(|| "greedy".into()), |n| format!("level{n}"));
        let seat = |s: Side, explicit: &Option<String>| match explicit {
            Some(name) => name.clone(),
            None if s == human_side => "human".into(),
            None => bot.clone(),
        };
        Ok(Seats { light: seat(Side::Light, &self.light), dark: seat(Side::Dark, &self.dark) })
    }

    fn tables(&self) -> Result<TableSource> {
        match &self.table {
            Some(path) if self.rules.family() != Family::Race => {
                let _ = path;
                bail!(
                    "--table is for race rule sets only (tables are made by `ur solve`); '{}' is not one: leave --table out",
                    self.rules.rules
                )
            }
            Some(path) => Ok(TableSource::File(LoadedTable::open(path)?)),
            None => Ok(crate::table_store::dir().map_or(TableSource::None, TableSource::Store)),
        }
    }

    /// A new game, after a roll-off for who starts when asked (with its line).
    fn new_session(&self, seed: u64, tables: &TableSource) -> Result<(Session, Option<String>)> {
        let rules = match self.rules.rules_file {
            Some(_) => RulesSource::File(self.rules.load()?.file_text.unwrap_or_default()),
            None => RulesSource::Builtin(self.rules.rules.clone()),
        };
        let options = self.rules.given_options()?;
        let first = match self.first.as_str() {
            "rolloff" => Side::Light,
            s => Side::parse(s).ok_or_else(|| anyhow!("--first must be light, dark or rolloff, not '{s}'"))?,
        };
        let mut new = NewGame { rules, options, first };
        let mut session = Session::new(&new, tables).map_err(|e| anyhow!("{e}"))?;
        if let Some(text) = &self.from {
            session.set_text(text).map_err(|e| anyhow!("--from: {e}"))?;
            return Ok((session, None));
        }
        if self.first != "rolloff" {
            return Ok((session, None));
        }
        let (starter, [a, b]) = ur_session::roll_off(session.game(), seed).ok_or_else(|| {
            anyhow!("--first rolloff is for race rule sets; give --first light or --first dark for '{}'", session.game().rule_id())
        })?;
        let name = |s| narrate::side_name(session.game(), s);
        let line = format!("Roll-off: {} throws {a}, {} throws {b}; {} starts.", name(Side::Light), name(Side::Dark), name(starter));
        new.first = starter;
        Ok((Session::new(&new, tables).map_err(|e| anyhow!("{e}"))?, Some(line)))
    }

    fn player(&self, side: Side, seed: u64, session: &Session, seats: &Seats) -> Result<Player> {
        let name = seats.of(side);
        if name == "human" {
            return Ok(Player::Human);
        }
        if name == "perfect" && session.family() != Family::Race {
            let rules = session.game().rule_id().to_owned();
            return Err(anyhow!("{}", BotError::RaceOnly { bot: name.into(), rules }));
        }
        let table = session.table().and_then(Result::ok);
        let bot = make_bot_with_table(name, seed.wrapping_add(side.index() as u64 + 1), table).map_err(|e| match e {
            BotError::Unknown(_) => anyhow!("{e} (or 'human' with --light/--dark)"),
            BotError::NeedsTable => anyhow!(
                "{e}; give --table FILE, made by `ur solve` (for example `ur solve finkel --pieces 2 --out f2.urt`), \
                 or put a table in the store with `ur solve ID` (no --out)"
            ),
            e => anyhow!("{e}"),
        })?;
        bot.check(session.game()).map_err(|e| anyhow!("{e}"))?;
        Ok(Player::Bot(bot))
    }
}

/// A saved game to go on with, and who played it if the file says.
fn resume(path: &Path, tables: &TableSource) -> Result<(Session, Option<Seats>)> {
    let (saved, seats) = crate::files::read_game_with_seats(path)?;
    let session = Session::resume(&saved, tables).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if matches!(session.game().turn(), Turn::Over(_)) {
        bail!("{} holds a finished game; there is nothing to resume (`ur review` or `ur replay` it)", path.display());
    }
    Ok((session, seats))
}

/// Whether two paths name the same file (both existing).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The game's steps so far in words, one line each, as they were told
/// when played: the move log of a resumed game.
pub(crate) fn history(session: &Session) -> Vec<String> {
    let Ok((mut game, steps)) = session.steps() else { return Vec::new() };
    let mut lines = Vec::with_capacity(steps.len());
    for step in steps {
        let line = match step {
            AnyStep::Roll(raw) => match ur_rules::report::roll(&mut game, raw) {
                Ok(rolled) => narrate::roll_line(&game, &rolled),
                Err(_) => break,
            },
            AnyStep::Act(action) => {
                let Turn::Decide(side) = game.turn() else { break };
                let line = format!("{} {}", narrate::side_name(&game, side), narrate::action_line(&game, &action));
                if ur_rules::report::act(&mut game, &action).is_err() {
                    break;
                }
                line
            }
        };
        lines.push(line);
    }
    lines
}

/// The width text is wrapped to, so that no line wraps mid-word in a terminal.
const WIDTH: usize = 80;

/// `text` with every line longer than [`WIDTH`] wrapped at spaces, its
/// continuation indented under the line's own text.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.chars().count() <= WIDTH {
            out += line;
            out.push('\n');
            continue;
        }
        let hang = " ".repeat(hanging_indent(line).min(WIDTH / 2));
        out += &textwrap::fill(line, textwrap::Options::new(WIDTH).subsequent_indent(&hang));
        out.push('\n');
    }
    out
}

/// Where a wrapped line goes on: under a table row's text (`  FROM TO   text`),
/// a list item's text (`  1) text`), or the line's own indent.
fn hanging_indent(line: &str) -> usize {
    let indent = line.len() - line.trim_start().len();
    let body = &line[indent..];
    if let Some(gap) = body.find("  ") {
        return indent + gap + body[gap..].len() - body[gap..].trim_start().len();
    }
    match body.find(") ") {
        Some(k) if body[..k].bytes().all(|b| b.is_ascii_digit()) => indent + k + 2,
        _ => indent,
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// The game's heading: rules, seed, who plays each side, and the table if a bot reads it.
fn announce(session: &Session, tables: &TableSource, seed: u64, seats: &Seats) -> Result<()> {
    let game = session.game();
    let who = |s: Side| match seats.of(s) {
        "human" => "you".to_string(),
        bot => format!("the {bot} bot"),
    };
    let (light, dark) = (narrate::side_name(game, Side::Light), narrate::side_name(game, Side::Dark));
    let heading = format!(
        "{} ({}) — seed {seed}. {light}: {}; {dark}: {}.",
        narrate::rule_set_name(game),
        game.rule_id(),
        who(Side::Light),
        who(Side::Dark)
    );
    out!("{}", wrap(&heading))?;
    let reads_table = |s: Side| matches!(seats.of(s), "perfect" | "level5");
    let path = ur_rules::report::race_rules(game).and_then(|r| tables.path_for(r));
    if let (Some(Ok(_)), Some(path)) = (session.table(), path) {
        if Side::BOTH.into_iter().any(reads_table) {
            outln!("Solved table: {} (for perfect and level 5).", path.display())?;
        }
    }
    Ok(())
}

/// Who won (or that the game was left), and the pot where there is one.
fn announce_result(session: &Session, humans: &[Side], finished: bool) -> Result<()> {
    let game = session.game();
    match game.turn() {
        Turn::Over(Some(w)) => {
            outln!("{} wins.", narrate::side_name(game, w))?;
            if let [h] = humans[..] {
                outln!("{}", if h == w { "You win!" } else { "You lose." })?;
            }
        }
        Turn::Over(None) => outln!("The game is drawn.")?,
        _ if !finished => outln!("Game left unfinished.")?,
        _ => {}
    }
    if let Some(pot) = ur_rules::report::race_view(game).and_then(|v| v.pot) {
        let total = pot[0] + pot[1];
        outln!("Pot: light paid {}, dark paid {}; total {total}.", pot[0], pot[1])?;
        if let Turn::Over(Some(w)) = game.turn() {
            outln!("{} takes the pot of {total}.", narrate::side_name(game, w))?;
        }
    }
    Ok(())
}

/// A game at the table: the session, its players and the human's input.
struct Table<R: BufRead> {
    session: Session,
    players: [Player; 2],
    quiet: bool,
    input: R,
    /// Print each line read (input from a pipe is not shown by the terminal).
    echo: bool,
    /// What `hint` asks: the table, or else a search; none for families without a judge.
    judge: Option<Judge>,
    /// Where the game is saved after every step.
    saving: Option<Saving>,
    lang: narrate::Lang,
}

impl<R: BufRead> Table<R> {
    /// Plays until the game ends (true) or a human quits (false).
    fn run(&mut self) -> Result<bool> {
        for _ in 0..ur_session::ACTION_CAP {
            match self.session.game().turn() {
                Turn::Over(_) => return Ok(true),
                Turn::Roll(_) => {
                    let rolled = self.session.roll_dice().map_err(|e| anyhow!("the dice were refused: {e}"))?;
                    self.say(&narrate::roll_line_in(self.session.game(), &rolled, self.lang))?;
                }
                Turn::Decide(side) => {
                    let Some(action) = self.decide(side)? else { return Ok(false) };
                    let game = self.session.game();
                    let line =
                        format!("{} {}", narrate::side_name_in(game, side, self.lang), narrate::action_line_in(game, &action, self.lang));
                    self.session.act(&action).map_err(|e| anyhow!("{action} was refused: {e}"))?;
                    self.say(&line)?;
                }
            }
            if let Some(saving) = &self.saving {
                if let Err(e) = saving.write(&self.session) {
                    crate::signals::say(&format!("warning: {e:#}; the game goes on unsaved"));
                }
            }
        }
        bail!("the game did not end within {} steps; the rules may not let it end", ur_session::ACTION_CAP)
    }

    fn decide(&mut self, side: Side) -> Result<Option<AnyAction>> {
        match &mut self.players[side.index()] {
            Player::Bot(bot) => Ok(Some(bot.decide(self.session.game()))),
            Player::Human => self.ask(side),
        }
    }

    fn say(&self, line: &str) -> Result<()> {
        if !self.quiet {
            out!("{}", wrap(line))?;
        }
        Ok(())
    }

    /// Prompts the human until a valid decision or quit (None).
    fn ask(&mut self, side: Side) -> Result<Option<AnyAction>> {
        let game = self.session.game().clone();
        let actions = game.actions();
        outln!("\n{}", game.board_text())?;
        let list = wrap(&numbered(&game, &actions, self.lang));
        out!("{list}")?;
        loop {
            out!("{} [1-{}, or help]> ", narrate::side_name(&game, side), actions.len())?;
            ur_cli::out::flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                outln!("\n(end of input: leaving the game)")?;
                return Ok(None);
            }
            if self.echo {
                outln!("{}", line.trim_end())?;
            }
            match input::parse(line.trim(), &actions, &game) {
                Ok(Input::Action(a)) => return Ok(Some(a)),
                Ok(Input::Quit) => return Ok(None),
                Ok(Input::Help) => out!("{}", wrap(&narrate::help(&game, side)))?,
                Ok(Input::Board) => out!("{}", game.board_text())?,
                Ok(Input::Path) => out!("{}", narrate::path(&game, side).unwrap_or_else(|| game.board_text()))?,
                Ok(Input::List) => out!("{list}")?,
                Ok(Input::Hint) => out!("{}", wrap(&hint_text(self.judge.as_ref(), &game, &actions)))?,
                Err(e) => out!("{}", wrap(&e.to_string()))?,
            }
        }
    }
}

/// Each numbered choice with the mover's win probability after it, best
/// first, from the judge (the table, or a search); why not, without one.
fn hint_text(judge: Option<&Judge>, game: &AnyGame, actions: &[AnyAction]) -> String {
    let Some(judge) = judge.filter(|_| !ur_bots::hint::network_judges(game)) else {
        return match ur_bots::hint::network_action_values(game) {
            Ok((values, name)) => {
                let heading = format!("Your win chance after each choice (the neural network's estimates, {name} deep):\n");
                choice_lines(heading, game, actions, &values)
            }
            Err(e) => format!("No hint here: {e}.\n"),
        };
    };
    let values = match action_values(judge, game) {
        Ok(v) => v,
        Err(e) => return format!("No hint here: {e}.\n"),
    };
    let heading = match judge {
        Judge::Table(_) => "Your win chance after each choice (the solved table: exact):\n".to_string(),
        Judge::Search { .. } => format!("Your win chance after each choice ({} estimates; a solved table is exact):\n", judge.name()),
    };
    choice_lines(heading, game, actions, &values)
}

/// A hint's lines: each choice (numbered as offered) with its win chance, best first.
fn choice_lines(heading: String, game: &AnyGame, actions: &[AnyAction], values: &[(AnyAction, f64)]) -> String {
    let Some(&(_, best)) = values.first() else { return "Nothing to choose here.\n".into() };
    let mut out = heading;
    for (action, value) in values {
        let Some(k) = actions.iter().position(|a| a == action) else { continue };
        let verdict = if best - value <= 1e-9 { "best".to_string() } else { format!("{:+.2} pp", 100.0 * (value - best)) };
        out += &format!("  {:>2}. {:<40} {:>5.1} %  {verdict}\n", k + 1, narrate::label(game, action), 100.0 * value);
    }
    out
}

/// The heading and numbered lines of a decision.
fn numbered(game: &AnyGame, actions: &[AnyAction], lang: narrate::Lang) -> String {
    let mut out = narrate::heading_in(game, lang);
    for (i, a) in actions.iter().enumerate() {
        out += &format!("  {}) {}\n", i + 1, narrate::label_in(game, a, lang));
    }
    out
}

/// A terminal that cannot draw the full-screen game (`TERM=dumb`, or none
/// named): the line mode is used instead.
fn dumb_terminal() -> bool {
    std::env::var("TERM").map_or(true, |t| t.is_empty() || t == "dumb")
}

/// A locale without UTF-8 (`LC_ALL=C`, `POSIX`): the full-screen game draws in ASCII.
fn ascii_only_locale() -> bool {
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let Some(locale) = set("LC_ALL").or_else(|| set("LC_CTYPE")).or_else(|| set("LANG")) else { return false };
    let l = locale.to_ascii_lowercase();
    !(l.contains("utf-8") || l.contains("utf8"))
}
