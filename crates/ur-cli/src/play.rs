//! `ur play`: a game in the terminal, human or bot on each side.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use clap::Args;
use ur_bots::{make_bot, Bot};
use ur_rules::{Action, Choice, Dice, Game, GameRecord, Move, Phase, SeededDice, Side};

use crate::board_text::{move_text, render};
use crate::files::write_atomic;
use crate::rules_arg::RulesArgs;

#[derive(Args, Debug)]
pub struct PlayCmd {
    #[command(flatten)]
    rules: RulesArgs,
    /// The bot you play against (random, greedy).
    #[arg(long, default_value = "greedy")]
    vs: String,
    /// The side you play.
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
}

enum Player {
    Human,
    Bot(Box<dyn Bot>),
}

impl PlayCmd {
    pub fn run(self) -> Result<()> {
        let loaded = self.rules.load()?;
        let seed = self.seed.unwrap_or_else(clock_seed);
        let mut dice = SeededDice::new(seed);
        let players = [self.player(Side::Light, seed)?, self.player(Side::Dark, seed)?];
        let first = match self.first.as_str() {
            "rolloff" => rolloff(&loaded.rules, &mut dice),
            s => Side::parse(s).ok_or_else(|| anyhow::anyhow!("--first must be light, dark or rolloff, not '{s}'"))?,
        };
        let mut game = Game::new(Arc::new(loaded.rules), first);
        let mut session = Session { game: &mut game, players, dice, quiet: self.quiet, input: std::io::stdin().lock() };
        if !self.quiet {
            println!("{} — seed {seed}. Type a move's number, 'help' or 'quit'.", session.game.rules().spec.name);
        }
        let finished = session.run()?;
        if let Some(path) = &self.save {
            let record = GameRecord::of(&game, loaded.file_text);
            write_atomic(path, serde_json::to_string_pretty(&record)?.as_bytes())?;
            println!("Game saved to {}", path.display());
        }
        match game.winner() {
            Some(w) => println!("{} ({w}) wins.", game.rules().spec.sides[w.index()]),
            None if !finished => println!("Game left unfinished."),
            None => {}
        }
        if let Some(paid) = game.pot_paid() {
            println!("Pot: light paid {}, dark paid {}; total {}.", paid[0], paid[1], paid[0] + paid[1]);
        }
        Ok(())
    }

    fn player(&self, side: Side, seed: u64) -> Result<Player> {
        let explicit = if side == Side::Light { &self.light } else { &self.dark };
        let human_side = Side::parse(&self.side)
            .ok_or_else(|| anyhow::anyhow!("--as must be light or dark, not '{}'", self.side))?;
        let name = match explicit {
            Some(n) => n.as_str(),
            None if side == human_side => "human",
            None => self.vs.as_str(),
        };
        if name == "human" {
            return Ok(Player::Human);
        }
        Ok(Player::Bot(make_bot(name, seed.wrapping_add(side.index() as u64 + 1))?))
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// G8: each side throws; the higher move value starts; ties throw again.
fn rolloff(rules: &ur_rules::Rules, dice: &mut SeededDice) -> Side {
    loop {
        let [a, b] = [0, 1].map(|_| rules.throw(dice.throw(rules.dice())).map_or(0, |t| t.value));
        if a != b {
            return if a > b { Side::Light } else { Side::Dark };
        }
    }
}

struct Session<'g, R: BufRead> {
    game: &'g mut Game,
    players: [Player; 2],
    dice: SeededDice,
    quiet: bool,
    input: R,
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
                        Player::Bot(bot) => bot.decide(self.game),
                        Player::Human => match self.ask()? {
                            Some(a) => a,
                            None => return Ok(false),
                        },
                    };
                    self.say(&format!("{name} plays {}", action_text(self.game, action)));
                    self.game.apply(action)?;
                }
            }
        }
    }

    fn roll(&mut self, name: &str) -> Result<()> {
        let raw = self.dice.throw(self.game.rules().dice());
        let report = self.game.roll(raw)?;
        let mut line = format!("{name} throws {} (dice show {raw})", report.throw.value);
        if let Some((bird, ok)) = report.summon {
            line += &format!(" for bird {bird}: {}", if ok { "success" } else { "failed" });
        }
        if report.passed {
            line += ": no legal move, the turn passes";
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
        println!("\n{}", render(self.game.rules(), self.game.state()));
        for (i, (_, text)) in options.iter().enumerate() {
            println!("  {}) {text}", i + 1);
        }
        loop {
            print!("your choice> ");
            std::io::stdout().flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            match parse_choice(line.trim(), &options) {
                Ok(Some(a)) => return Ok(Some(a)),
                Ok(None) => return Ok(None),
                Err(e) => println!("{e}"),
            }
        }
    }
}

/// Every decision open now, with a description.
fn decision_options(game: &Game) -> Vec<(Action, String)> {
    match game.phase() {
        Phase::Move => game.legal_moves().iter().map(|m| (Action::Move(*m), move_label(game, *m))).collect(),
        _ => game.choices().into_iter().map(|c| (Action::Choose(c), choice_label(c).into())).collect(),
    }
}

fn move_label(game: &Game, m: Move) -> String {
    let text = move_text(game, m.from, m.to);
    match (m.piece, &game.rules().spec.birds) {
        (0, _) | (_, None) => text,
        (p, Some(b)) => format!("{} {text}", b.names[p as usize - 1]),
    }
}

fn choice_label(c: Choice) -> &'static str {
    match c {
        Choice::Reroll => "roll again",
        Choice::End => "end the turn",
        Choice::Move => "declare Move: roll and move a bird on the board",
        Choice::Summon => "declare Summon: roll to call the next bird",
    }
}

fn action_text(game: &Game, a: Action) -> String {
    match a {
        Action::Move(m) => move_label(game, m),
        Action::Choose(c) => choice_label(c).into(),
        Action::Roll(r) => format!("roll {r}"),
    }
}

/// Reads a number from the list, `FROM TO`, a choice name, or `quit`.
fn parse_choice(text: &str, options: &[(Action, String)]) -> Result<Option<Action>> {
    if text == "quit" || text == "q" {
        return Ok(None);
    }
    if let Ok(n) = text.parse::<usize>() {
        if (1..=options.len()).contains(&n) {
            return Ok(Some(options[n - 1].0));
        }
        bail!("pick a number from 1 to {}", options.len());
    }
    let nums: Vec<u8> = text.split(|c: char| c == ' ' || c == '-').filter_map(|t| t.parse().ok()).collect();
    if let [from, to] = nums[..] {
        if let Some((a, _)) = options.iter().find(|(a, _)| matches!(a, Action::Move(m) if m.from == from && m.to == to)) {
            return Ok(Some(*a));
        }
        bail!("{from} -> {to} is not a legal move here");
    }
    if let Some(c) = Choice::parse(text) {
        if let Some((a, _)) = options.iter().find(|(a, _)| *a == Action::Choose(c)) {
            return Ok(Some(*a));
        }
    }
    bail!("type the number of a move or choice (1-{}), FROM TO positions, or quit", options.len())
}
