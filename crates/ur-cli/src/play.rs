//! `ur play`: a game in the terminal, human or bot on each side.
//!
//! Plain line input: the program throws the dice, lists the legal moves or
//! choices with numbers, and reads one line per decision (see [`help_text`]).

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{anyhow, Result};
use clap::Args;
use ur_bots::review::{same_action, Judge};
use ur_bots::{make_bot_with_table, Bot, BotError, Oracle};
use ur_rules::{
    Action, AnyRecorder, Choice, Dice, DiceModel, Extra, Family, Game, GameRecord, Move, Phase, Playable, Rules, SeededDice, Side, Throw,
    Turn,
};

use crate::board_text::{board_key, move_text, path_diagram, position_name, render, side_label};
use crate::eval_cmd::{LoadedTable, TableOracle};
use crate::play_any::{board, side_name, AnyPlayer, AnySession};
use crate::rules_arg::RulesArgs;
use crate::table_store;
use ur_solve::atomic::write_atomic;

#[derive(Args, Debug)]
pub struct PlayCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// The bot you play against: random, greedy, expectimax:D, mcts, level1..level5, or perfect (which needs a table: --table, or one in the store).
    #[arg(long, default_value = "greedy")]
    vs: String,
    /// Play against difficulty level N (1 = beginner .. 5 = strongest available); the same as --vs levelN.
    #[arg(long, value_name = "N", conflicts_with = "vs", value_parser = clap::value_parser!(u8).range(1..=5))]
    level: Option<u8>,
    /// The side you play: light (bottom row) or dark (top row).
    #[arg(long = "as", value_name = "SIDE", default_value = "light")]
    side: String,
    /// Who plays light: human or a bot name (overrides --vs/--as).
    #[arg(long)]
    light: Option<String>,
    /// Who plays dark: human or a bot name (overrides --vs/--as).
    #[arg(long)]
    dark: Option<String>,
    /// Who moves first: light, dark or rolloff (each side throws; higher value starts).
    #[arg(long, default_value = "light")]
    first: String,
    /// Seed for the dice and the bots (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Save the game record (JSON) to this file when the game ends or you quit.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Print only the result (for bot-against-bot games).
    #[arg(long)]
    quiet: bool,
    /// A table made by `ur solve` for these rules, for the perfect bot and level 5
    /// (default: the table for these rules in the table store, if any; see `ur solve`).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
}

enum Player {
    Human,
    Bot(Box<dyn Bot>),
}

impl Player {
    fn is_human(&self) -> bool {
        matches!(self, Player::Human)
    }
}

impl PlayCmd {
    pub fn run(self) -> Result<()> {
        if self.rules.family() != Family::Race {
            return self.run_any();
        }
        let loaded = self.rules.load()?;
        self.check_save()?;
        let seed = self.seed.unwrap_or_else(clock_seed);
        let rules = Arc::new(loaded.rules);
        let (oracle, table_path) = match &self.table {
            Some(path) => (Some(LoadedTable::open(path)?.oracle(rules.clone())?), Some(path.clone())),
            None => table_store::oracle_for(table_store::dir().as_deref(), &rules).unzip(),
        };
        let players = [self.player(Side::Light, seed, oracle.as_ref())?, self.player(Side::Dark, seed, oracle.as_ref())?];
        let first = match self.first.as_str() {
            "rolloff" => None,
            s => Some(Side::parse(s).ok_or_else(|| anyhow!("--first must be light, dark or rolloff, not '{s}'"))?),
        };
        let mut dice = SeededDice::new(seed);
        let humans: Vec<Side> = Side::BOTH.into_iter().filter(|s| players[s.index()].is_human()).collect();
        if !self.quiet {
            announce(&rules, seed, &players, table_path.as_deref());
        }
        let first = match first {
            Some(side) => side,
            None => self.roll_off(&rules, &mut dice),
        };
        if !self.quiet && !humans.is_empty() {
            print!("{}", intro(&rules, &humans));
        }
        let judge = match oracle {
            Some(o) => Judge::Table(o),
            None => Judge::search(&rules, HINT_DEPTH),
        };
        let mut game = Game::new(rules, first);
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        let mut session = Session { game: &mut game, players, dice, quiet: self.quiet, input: stdin.lock(), echo, judge };
        let finished = session.run()?;
        let judge = session.judge;
        let record = GameRecord::of(&game, loaded.file_text);
        if let Some(path) = &self.save {
            write_atomic(path, serde_json::to_string_pretty(&record)?.as_bytes())?;
            println!("Game saved to {} (review it with `ur review {}`).", path.display(), path.display());
        }
        announce_result(&game, &humans, finished);
        if finished && !self.quiet && !humans.is_empty() {
            print!("{}", crate::review::play_summary(game.rules(), &judge, &record, &humans, self.save.is_some())?);
        }
        Ok(())
    }

    /// Throws for who starts, and says so.
    fn roll_off(&self, rules: &Rules, dice: &mut SeededDice) -> Side {
        let (side, [a, b]) = rolloff(rules, dice);
        if !self.quiet {
            let names = &rules.spec.sides;
            println!("Roll-off: {} throws {a}, {} throws {b}; {} starts.", names[0], names[1], names[side.index()]);
        }
        side
    }

    /// Fails now, rather than after a whole game, when the record cannot be saved.
    fn check_save(&self) -> Result<()> {
        if let Some(path) = &self.save {
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            if !dir.is_dir() {
                anyhow::bail!("cannot save to {}: the folder {} does not exist", path.display(), dir.display());
            }
        }
        Ok(())
    }

    /// A game of a family beyond the race, through [`ur_rules::AnyGame`].
    fn run_any(&self) -> Result<()> {
        let id = self.rules.rules.as_str();
        if self.table.is_some() {
            anyhow::bail!("--table is for race rule sets only (tables are made by `ur solve`); '{id}' is not one: leave --table out");
        }
        self.check_save()?;
        let seed = self.seed.unwrap_or_else(clock_seed);
        let first = match self.first.as_str() {
            "rolloff" => anyhow::bail!("--first rolloff is for race rule sets; give --first light or --first dark for '{id}'"),
            s => Side::parse(s).ok_or_else(|| anyhow!("--first must be light or dark, not '{s}'"))?,
        };
        let options = self.rules.given_options()?;
        let recorder = AnyRecorder::new(id, &options, first).map_err(|e| anyhow!("{e}"))?;
        let mut players = Vec::new();
        for side in Side::BOTH {
            players.push(match self.player(side, seed, None)? {
                Player::Human => AnyPlayer::Human,
                Player::Bot(bot) => {
                    bot.check(recorder.game()).map_err(|e| anyhow!("{e}"))?;
                    AnyPlayer::Bot(bot)
                }
            });
        }
        let players: [AnyPlayer; 2] = players.try_into().map_err(|_| anyhow!("two players"))?;
        let humans: Vec<Side> = Side::BOTH.into_iter().filter(|s| matches!(players[s.index()], AnyPlayer::Human)).collect();
        if !self.quiet {
            let who = |s: Side| match &players[s.index()] {
                AnyPlayer::Human => "you".to_string(),
                AnyPlayer::Bot(b) => format!("the {} bot", b.name()),
            };
            let name = ur_rules::family_rule_sets().into_iter().find(|r| r.id == id).map_or(id.to_string(), |r| r.name.to_string());
            println!("{name} ({id}) — seed {seed}. Light: {}; Dark: {}.", who(Side::Light), who(Side::Dark));
            if !humans.is_empty() {
                println!("The dice are thrown for you. Answer each question with the number of a line from the list, or the decision as listed; 'help' for more, 'quit' to stop.");
            }
        }
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        let mut session = AnySession { game: recorder, players, dice: SeededDice::new(seed), quiet: self.quiet, input: stdin.lock(), echo };
        let finished = session.run()?;
        let game = session.game.game().clone();
        if let Some(path) = &self.save {
            let record = session.game.record();
            write_atomic(path, serde_json::to_string_pretty(&record)?.as_bytes())?;
            println!("Game saved to {} (check it with `ur replay {}`).", path.display(), path.display());
        }
        if !self.quiet {
            print!("{}", board(&game));
        }
        match game.turn() {
            Turn::Over(Some(w)) => {
                println!("{} wins.", side_name(w));
                if let [h] = humans[..] {
                    println!("{}", if h == w { "You win!" } else { "You lose." });
                }
            }
            Turn::Over(None) => println!("The game is drawn."),
            _ if !finished => println!("Game left unfinished."),
            _ => {}
        }
        Ok(())
    }

    fn player(&self, side: Side, seed: u64, table: Option<&Oracle>) -> Result<Player> {
        let explicit = if side == Side::Light { &self.light } else { &self.dark };
        let mut level_name = None;
        let human_side = Side::parse(&self.side).ok_or_else(|| anyhow!("--as must be light or dark, not '{}'", self.side))?;
        let name = match explicit {
            Some(n) => n.as_str(),
            None if side == human_side => "human",
            None => match self.level {
                Some(n) => level_name.insert(format!("level{n}")).as_str(),
                None => self.vs.as_str(),
            },
        };
        if name == "human" {
            return Ok(Player::Human);
        }
        let bot = make_bot_with_table(name, seed.wrapping_add(side.index() as u64 + 1), table).map_err(|e| match e {
            BotError::Unknown(_) => anyhow!("{e} (or 'human' with --light/--dark)"),
            e => anyhow!("{e}"),
        })?;
        Ok(Player::Bot(bot))
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// G8: each side throws; the higher move value starts; ties throw again.
/// Returns the starter and the deciding values.
fn rolloff(rules: &Rules, dice: &mut SeededDice) -> (Side, [u8; 2]) {
    loop {
        let v = [0, 1].map(|_| rules.throw(dice.throw(rules.dice())).map_or(0, |t| t.value));
        if v[0] != v[1] {
            return (if v[0] > v[1] { Side::Light } else { Side::Dark }, v);
        }
    }
}

/// What a human player is told before the first move: the path with its
/// position numbers, the board key and how to answer.
fn intro(rules: &Rules, humans: &[Side]) -> String {
    let mut out = String::new();
    for &side in humans {
        out += &format!(
            "\nYou play {}. Your pieces start in reserve (position 0) and run along this path, \
             positions 1 to {} (position {} = borne off):\n",
            side_label(rules, side),
            rules.path_len(),
            rules.path_len() + 1
        );
        out += &path_diagram(rules, side);
    }
    out += &board_key(rules);
    out += "The dice are thrown for you. Answer each question with the number of a line from the list; \
            type 'help' for the other input forms, 'path' to see your path again, 'quit' to stop.\n";
    out
}

/// The input forms, for `help`.
pub fn help_text(rules: &Rules, side: Side) -> String {
    let off = rules.path_len() + 1;
    let mut out = String::from("What you can type:\n");
    out += "  1, 2, ...       the line with that number from the list\n";
    out += &format!(
        "  FROM TO         a move by path positions, e.g. '4 7'; 'enter 3' (or '0 3') brings a piece onto 3, \
         '{} off' (or '{} {off}') bears one off\n",
        off - 1,
        off - 1
    );
    out += "  enter / off     the move that enters a piece / bears a piece off, when there is only one\n";
    if let Some(b) = &rules.spec.birds {
        out += &format!("  BIRD            move that bird, by name: {}\n", b.names.join(", ").to_lowercase());
        out += "  move / summon   declare before you roll: move a bird on the board, or try to summon the next one\n";
    }
    out += "  reroll / end    take or decline an optional extra roll (also: yes / no)\n";
    out += "  board           show the board again\n";
    out += "  path            show your path with its position numbers\n";
    out += "  list            show the numbered choices again\n";
    out += "  hint            your win chance after each choice (exact with a solved table)\n";
    out += "  quit            stop playing (the game is saved if you gave --save)\n";
    out += &format!(
        "Positions count along your own path: 0 is your reserve, 1..{} the squares ('path' shows where), {off} borne off.\n",
        rules.path_len()
    );
    out += &format!(
        "Squares are named by column letter and row number, a1 at the bottom left; you are {}, whose path starts on {}.\n",
        side_label(rules, side),
        position_name(rules, side, 1)
    );
    out
}

/// The game's heading: rules, seed, who plays each side, and the table if a bot reads it.
fn announce(rules: &Rules, seed: u64, players: &[Player; 2], table: Option<&std::path::Path>) {
    let who = |s: Side| match &players[s.index()] {
        Player::Human => "you".to_string(),
        Player::Bot(b) => format!("the {} bot", b.name()),
    };
    let (light, dark) = (side_label(rules, Side::Light), side_label(rules, Side::Dark));
    println!("{} ({}) — seed {seed}. {light}: {}; {dark}: {}.", rules.spec.name, rules.id(), who(Side::Light), who(Side::Dark));
    let reads_table = |p: &Player| matches!(p, Player::Bot(b) if b.name() == "perfect" || b.name() == "level5");
    if let Some(path) = table.filter(|_| players.iter().any(reads_table)) {
        println!("Solved table: {} (for perfect and level 5).", path.display());
    }
}

/// Who won (or that the game was left), and the pot where there is one.
fn announce_result(game: &Game, humans: &[Side], finished: bool) {
    match game.winner() {
        Some(w) => {
            println!("{} wins.", side_label(game.rules(), w));
            if let [h] = humans[..] {
                println!("{}", if h == w { "You win!" } else { "You lose." });
            }
        }
        None if !finished => println!("Game left unfinished."),
        None => {}
    }
    if let Some(paid) = game.pot_paid() {
        let total = paid[0] + paid[1];
        println!("Pot: light paid {}, dark paid {}; total {total}.", paid[0], paid[1]);
        if let Some(w) = game.winner() {
            println!("{} takes the pot of {total}.", side_label(game.rules(), w));
        }
    }
}

struct Session<'g, R: BufRead> {
    game: &'g mut Game,
    players: [Player; 2],
    dice: SeededDice,
    quiet: bool,
    input: R,
    /// Print each line read (input from a pipe or file is not shown by the terminal).
    echo: bool,
    /// What `hint` asks: the table, or else a search.
    judge: Judge,
}

impl<R: BufRead> Session<'_, R> {
    /// Plays until the game ends (true) or the human quits (false).
    fn run(&mut self) -> Result<bool> {
        loop {
            let side = self.game.to_move();
            let name = self.game.rules().spec.sides[side.index()].clone();
            match self.game.phase() {
                Phase::Over => return Ok(true),
                Phase::Roll => self.roll(&name)?,
                _ => {
                    let action = match &mut self.players[side.index()] {
                        Player::Bot(bot) => ur_bots::decide_race(&mut **bot, self.game),
                        Player::Human => match self.ask()? {
                            Some(a) => a,
                            None => return Ok(false),
                        },
                    };
                    self.say(&format!("{name} {}", action_text(self.game, action)));
                    self.game.apply(action)?;
                }
            }
        }
    }

    fn roll(&mut self, name: &str) -> Result<()> {
        let rules = Arc::clone(self.game.rules());
        let call = matches!(self.game.history().last(), Some(Action::Choose(Choice::Summon)));
        let side = self.game.to_move();
        let raw = self.dice.throw(rules.dice());
        let report = self.game.roll(raw)?;
        let value = report.throw.value;
        let mut line = format!("{name} throws {}", dice_text(rules.dice(), raw));
        match report.summon {
            Some((bird, ok)) if call => {
                let need = rules.call_value(bird);
                line += &format!(
                    ", {value}: calling the {} ({bird}) needs {need}: {}",
                    bird_name(&rules, bird),
                    if ok { "called! Now a throw to place it" } else { "not this time; the turn ends" }
                );
            }
            Some((bird, ok)) => {
                let bird = bird_name(&rules, bird);
                line += &format!(", {value}: ");
                line += &if ok {
                    let on = position_name(&rules, side, value);
                    format!("the {bird} enters on {value} ({on})")
                } else if value == 0 {
                    format!("a 0 places nothing; the {bird} stays in reserve and the turn ends")
                } else {
                    format!("square {value} is taken; the {bird} stays in reserve and the turn ends")
                };
            }
            None => {
                line += &format!(": {}", throw_text(&report.throw));
                if report.passed {
                    line += if value == 0 { "; the turn passes" } else { "; no legal move, the turn passes" };
                }
            }
        }
        self.say(&line);
        Ok(())
    }

    fn say(&self, line: &str) {
        if !self.quiet {
            println!("{line}");
        }
    }

    /// Prompts the human until a valid action or quit (None).
    fn ask(&mut self) -> Result<Option<Action>> {
        let options = decision_options(self.game);
        let rules = Arc::clone(self.game.rules());
        let side = self.game.to_move();
        println!("\n{}", render(&rules, self.game.state()));
        let list = option_list(self.game, &options);
        print!("{list}");
        loop {
            print!("{} [1-{}, or help]> ", rules.spec.sides[side.index()], options.len());
            std::io::stdout().flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                println!("\n(end of input: leaving the game)");
                return Ok(None);
            }
            if self.echo {
                println!("{}", line.trim_end());
            }
            match parse_input(line.trim(), &options, self.game) {
                Ok(Input::Action(a)) => return Ok(Some(a)),
                Ok(Input::Quit) => return Ok(None),
                Ok(Input::Help) => print!("{}", help_text(&rules, side)),
                Ok(Input::Board) => print!("{}", render(&rules, self.game.state())),
                Ok(Input::Path) => print!("{}", path_diagram(&rules, side)),
                Ok(Input::List) => print!("{list}"),
                Ok(Input::Hint) => print!("{}", hint_text(self.game, &options, &self.judge)),
                Err(e) => println!("{e}"),
            }
        }
    }
}

/// The search depth of `hint` without a table.
const HINT_DEPTH: u32 = 3;

/// Each numbered choice with the mover's win probability after it, best first.
fn hint_text(game: &Game, options: &[(Action, String)], judge: &Judge) -> String {
    let values = judge.action_values(game);
    let Some(&(_, best)) = values.first() else { return "Nothing to choose here.\n".into() };
    let mut out = match judge {
        Judge::Table(_) => "Your win chance after each choice (the solved table: exact):\n".to_string(),
        Judge::Search { .. } => format!("Your win chance after each choice ({} estimates; a solved table is exact):\n", judge.name()),
    };
    for (action, value) in &values {
        let Some(k) = options.iter().position(|(a, _)| same_action(*a, *action)) else { continue };
        let verdict = if best - value <= 1e-9 { "best".to_string() } else { format!("{:+.2} pp", 100.0 * (value - best)) };
        out += &format!("  {:>2}. {:<40} {:>5.1} %  {verdict}\n", k + 1, options[k].1, 100.0 * value);
    }
    out
}

/// The heading and numbered lines of a decision.
fn option_list(game: &Game, options: &[(Action, String)]) -> String {
    let name = &game.rules().spec.sides[game.to_move().index()];
    let mut out = match (game.phase(), game.throw()) {
        (Phase::Move, Some(t)) => format!("{name}, you threw {}. Your moves (path positions, square):\n", t.value),
        (Phase::Declare, _) => format!("{name}, declare before you roll:\n"),
        (Phase::ExtraRoll, _) => format!("{name}, you may roll again:\n"),
        _ => format!("{name}, choose:\n"),
    };
    for (i, (_, text)) in options.iter().enumerate() {
        out += &format!("  {}) {text}\n", i + 1);
    }
    out
}

/// What the raw dice show.
fn dice_text(model: DiceModel, raw: u8) -> String {
    match model {
        DiceModel::Bin3 | DiceModel::Bin4 => format!("{raw} marked tip{} up", if raw == 1 { "" } else { "s" }),
        DiceModel::D4 | DiceModel::D6 => format!("a {raw}"),
    }
}

/// What a throw means: the move value and its special effects.
fn throw_text(t: &Throw) -> String {
    if t.value == 0 {
        return "no move".into();
    }
    let mut s = format!("move {}", t.value);
    if !t.enter {
        s += " (cannot enter a piece)";
    }
    match t.extra {
        Extra::Auto => s += ", then roll again",
        Extra::Optional => s += ", then may roll again",
        Extra::None => {}
    }
    s
}

fn bird_name(rules: &Rules, bird: u8) -> String {
    rules.spec.birds.as_ref().and_then(|b| b.names.get(usize::from(bird) - 1)).cloned().unwrap_or_else(|| format!("bird {bird}"))
}

/// Every decision open now, with a description.
fn decision_options(game: &Game) -> Vec<(Action, String)> {
    match game.phase() {
        Phase::Move => game.legal_moves().iter().map(|m| (Action::Move(*m), move_label(game, *m))).collect(),
        _ => game.choices().into_iter().map(|c| (Action::Choose(c), choice_label(game, c))).collect(),
    }
}

fn move_label(game: &Game, m: Move) -> String {
    let text = move_text(game, m);
    match m.piece {
        0 => text,
        p => format!("{} ({p}): {text}", bird_name(game.rules(), p)),
    }
}

fn choice_label(game: &Game, c: Choice) -> String {
    match c {
        Choice::Reroll => "roll again".into(),
        Choice::End => "end the turn".into(),
        Choice::Move => "declare Move: roll and move a bird already on the board".into(),
        Choice::Summon => match game.next_bird() {
            Some(b) => format!(
                "declare Summon: roll for the {} ({b}), which needs {}; if called, roll again to place it",
                bird_name(game.rules(), b),
                game.rules().call_value(b)
            ),
            None => "declare Summon: roll to call the next bird".into(),
        },
    }
}

fn action_text(game: &Game, a: Action) -> String {
    match a {
        Action::Move(m) => format!("plays {}", move_label(game, m)),
        Action::Choose(Choice::Reroll) => "rolls again".into(),
        Action::Choose(Choice::End) => "ends the turn".into(),
        Action::Choose(Choice::Move) => "declares Move".into(),
        Action::Choose(Choice::Summon) => match game.next_bird() {
            Some(b) => format!("declares Summon for the {} ({b})", bird_name(game.rules(), b)),
            None => "declares Summon".into(),
        },
        Action::Roll(r) => format!("rolls {r}"),
    }
}

/// One line of human input, understood.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    Action(Action),
    Quit,
    Help,
    Board,
    Path,
    List,
    Hint,
}

/// Reads a number from the list, `FROM TO`, `enter`/`off`, a bird's name,
/// a choice name, or one of the commands (help, board, path, list, quit).
fn parse_input(text: &str, options: &[(Action, String)], game: &Game) -> Result<Input> {
    let text = text.to_lowercase();
    let n = options.len();
    let hint = format!("type a number from 1 to {n}, or 'help' for the other input forms");
    match text.as_str() {
        "" => return Err(anyhow!("{hint}")),
        "quit" | "q" | "exit" => return Ok(Input::Quit),
        "help" | "h" | "?" => return Ok(Input::Help),
        "board" | "b" => return Ok(Input::Board),
        "path" | "p" => return Ok(Input::Path),
        "list" | "l" | "moves" => return Ok(Input::List),
        "hint" => return Ok(Input::Hint),
        _ => {}
    }
    let pick = |a: Action| Ok(Input::Action(a));
    if let Ok(k) = text.parse::<usize>() {
        if (1..=n).contains(&k) {
            return pick(options[k - 1].0);
        }
        return Err(anyhow!("there is no line {k}: {hint}"));
    }
    let choice = match text.as_str() {
        "reroll" | "roll" | "again" | "yes" | "y" => Some(Choice::Reroll),
        "end" | "stop" | "no" | "n" => Some(Choice::End),
        "move" | "m" => Some(Choice::Move),
        "summon" | "s" => Some(Choice::Summon),
        _ => None,
    };
    if let Some(c) = choice {
        return match options.iter().find(|(a, _)| *a == Action::Choose(c)) {
            Some((a, _)) => pick(*a),
            None => Err(anyhow!("'{text}' is not open now: {hint}")),
        };
    }
    let moves: Vec<Move> = options
        .iter()
        .filter_map(|(a, _)| match a {
            Action::Move(m) => Some(*m),
            _ => None,
        })
        .collect();
    let rules = game.rules();
    if let Some(birds) = &rules.spec.birds {
        if let Some(i) = birds.names.iter().position(|b| b.to_lowercase() == text) {
            let bird = i as u8 + 1;
            return match moves.iter().find(|m| m.piece == bird) {
                Some(m) => pick(Action::Move(*m)),
                None => Err(anyhow!("the {} cannot move now: {hint}", birds.names[i])),
            };
        }
    }
    let off = rules.path_len() + 1;
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == '-' || c == '>' || c == ',').filter(|w| !w.is_empty()).collect();
    let position = |w: &str| -> Option<u8> {
        match w {
            "enter" | "in" | "reserve" => Some(0),
            "off" | "out" => Some(off),
            _ => w.parse().ok(),
        }
    };
    let positions: Option<Vec<u8>> = words.iter().map(|w| position(w)).collect();
    let Some(positions) = positions else {
        return Err(anyhow!("'{text}' is not understood: {hint}"));
    };
    if game.phase() != Phase::Move {
        return Err(anyhow!("there is no move to make now, only a choice: {hint}"));
    }
    let legal = || moves.iter().map(|m| format!("{}->{}", m.from, m.to)).collect::<Vec<_>>().join(" ");
    let found: Vec<&Move> = match positions[..] {
        [0] if words[0] != "0" => moves.iter().filter(|m| m.from == 0).collect(),
        [p] if p == off && words[0] != p.to_string() => moves.iter().filter(|m| m.to == off).collect(),
        [from, to] => moves.iter().filter(|m| m.from == from && m.to == to).collect(),
        _ => return Err(anyhow!("'{text}' is not understood: {hint}")),
    };
    match found[..] {
        [m] => pick(Action::Move(*m)),
        [m, ..] if found.iter().all(|x| x.from == m.from && x.to == m.to) => pick(Action::Move(*m)),
        [] => Err(anyhow!("'{text}' is not a legal move with this throw; legal moves: {}", legal())),
        _ => Err(anyhow!("'{text}' fits several moves ({}); give FROM TO or a number", legal())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::Rules;

    fn game_after(id: &str, rolls: &[u8]) -> Game {
        let mut g = Game::new(Arc::new(Rules::builtin(id).unwrap()), Side::Light);
        for &r in rolls {
            g.roll(r).unwrap();
        }
        g
    }

    fn parse(text: &str, g: &Game) -> Result<Input> {
        parse_input(text, &decision_options(g), g)
    }

    #[test]
    fn numbers_positions_and_words_pick_moves() {
        let g = game_after("finkel", &[2]);
        let enter = Input::Action(Action::Move(Move::new(0, 2)));
        for text in ["1", "0 2", "0-2", "0->2", "enter 2", "enter", "ENTER"] {
            assert_eq!(parse(text, &g).unwrap(), enter, "{text}");
        }
        assert!(parse("2", &g).unwrap_err().to_string().contains("no line 2"));
        assert!(parse("3 5", &g).unwrap_err().to_string().contains("not a legal move"));
        assert!(parse("off", &g).unwrap_err().to_string().contains("not a legal move"));
        assert!(parse("reroll", &g).unwrap_err().to_string().contains("not open"));
        assert!(parse("banana", &g).unwrap_err().to_string().contains("help"));
        assert!(parse("", &g).is_err());
        assert_eq!(parse("help", &g).unwrap(), Input::Help);
        assert_eq!(parse("quit", &g).unwrap(), Input::Quit);
        assert_eq!(parse("path", &g).unwrap(), Input::Path);
        assert_eq!(parse("board", &g).unwrap(), Input::Board);
        assert_eq!(parse("list", &g).unwrap(), Input::List);
    }

    #[test]
    fn bird_games_take_declarations_and_names() {
        let g = game_after("v1-named-birds", &[]);
        assert_eq!(parse("summon", &g).unwrap(), Input::Action(Action::Choose(Choice::Summon)));
        assert!(parse("move", &g).is_err(), "no bird on the board yet");
        assert!(parse("swallow", &g).is_err(), "no move to make");
        let help = help_text(g.rules(), Side::Light);
        assert!(help.contains("swallow") && help.contains("summon"), "{help}");
        assert!(choice_label(&g, Choice::Summon).contains("Swallow"));
    }

    #[test]
    fn labels_name_squares_and_effects() {
        let g = game_after("finkel", &[4]);
        let label = move_label(&g, Move::new(0, 4));
        assert_eq!(label, "enter -> 4 (a1): rosette, rolls again");
    }
}
