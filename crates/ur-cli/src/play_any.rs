//! `ur play` for the rule families beyond the race, through [`AnyGame`] only:
//! the board as the family draws it, the open decisions numbered, and human
//! input by number or by the decision's text.

use std::io::{BufRead, Write};

use anyhow::{anyhow, Result};
use ur_bots::Bot;
use ur_rules::{AnyAction, AnyGame, AnyRecorder, Playable, SeededDice, Side, Turn};

use ur_session::duel::throw;

/// Who plays a side.
pub enum AnyPlayer {
    Human,
    Bot(Box<dyn Bot>),
}

/// The board of any game as text, the family's own drawing.
pub fn board(game: &AnyGame) -> String {
    game.board_text()
}

/// The side names for messages.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Light => "Light",
        Side::Dark => "Dark",
    }
}

/// A game in the terminal between humans and bots.
pub struct AnySession<R: BufRead> {
    pub game: AnyRecorder,
    pub players: [AnyPlayer; 2],
    pub dice: SeededDice,
    pub quiet: bool,
    pub input: R,
    /// Print each line read (input from a pipe is not shown by the terminal).
    pub echo: bool,
}

/// One line of human input, understood.
#[derive(Debug, PartialEq)]
enum Input {
    Action(AnyAction),
    Quit,
    Help,
    Board,
    List,
}

const HELP: &str = "What you can type:\n  1, 2, ...   the decision with that number from the list\n  TEXT        a decision as the list writes it\n  board       show the board again\n  list        show the numbered decisions again\n  quit        stop playing (the game is saved if you gave --save)\n";

impl<R: BufRead> AnySession<R> {
    /// Plays until the game ends (true) or a human quits (false).
    ///
    /// # Errors
    /// A bot's decision or a roll the game refused, or an I/O error.
    pub fn run(&mut self) -> Result<bool> {
        loop {
            match self.game.game().turn() {
                Turn::Over(_) => return Ok(true),
                Turn::Roll(side) => {
                    let raw = throw(&mut self.dice, self.game.game());
                    self.game.roll(raw).map_err(|e| anyhow!("the dice showed {raw}, which the game refused: {e}"))?;
                    self.say(&format!("{} rolls {raw}", side_name(side)));
                }
                Turn::Decide(side) => {
                    let action = match &mut self.players[side.index()] {
                        AnyPlayer::Bot(bot) => {
                            let a = bot.decide(self.game.game());
                            self.game.apply(&a).map_err(|e| anyhow!("the {} bot chose {a}, which the game refused: {e}", bot.name()))?;
                            a
                        }
                        AnyPlayer::Human => {
                            let Some(a) = self.ask(side)? else { return Ok(false) };
                            self.game.apply(&a).map_err(|e| anyhow!("{e}"))?;
                            a
                        }
                    };
                    self.say(&format!("{} plays {action}", side_name(side)));
                }
            }
        }
    }

    fn say(&self, line: &str) {
        if !self.quiet {
            println!("{line}");
        }
    }

    fn list(&self, side: Side, actions: &[AnyAction]) -> String {
        let mut out = format!("{}, your decisions:\n", side_name(side));
        for (i, a) in actions.iter().enumerate() {
            out += &format!("  {}) {a}\n", i + 1);
        }
        out
    }

    /// Prompts a human until an open decision or quit (None).
    fn ask(&mut self, side: Side) -> Result<Option<AnyAction>> {
        let actions = self.game.game().actions();
        println!("\n{}", board(self.game.game()));
        let list = self.list(side, &actions);
        print!("{list}");
        loop {
            print!("{} [1-{}, or help]> ", side_name(side), actions.len());
            std::io::stdout().flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                println!("\n(end of input: leaving the game)");
                return Ok(None);
            }
            if self.echo {
                println!("{}", line.trim_end());
            }
            match parse_input(line.trim(), &actions, self.game.game()) {
                Ok(Input::Action(a)) => return Ok(Some(a)),
                Ok(Input::Quit) => return Ok(None),
                Ok(Input::Help) => print!("{HELP}"),
                Ok(Input::Board) => print!("{}", board(self.game.game())),
                Ok(Input::List) => print!("{list}"),
                Err(e) => println!("{e}"),
            }
        }
    }
}

/// A number from the list, a decision's text, or a command.
fn parse_input(text: &str, actions: &[AnyAction], game: &AnyGame) -> Result<Input> {
    let n = actions.len();
    let hint = format!("type a number from 1 to {n}, a decision as listed, or 'help'");
    match text.to_lowercase().as_str() {
        "" => return Err(anyhow!("{hint}")),
        "quit" | "q" | "exit" => return Ok(Input::Quit),
        "help" | "h" | "?" => return Ok(Input::Help),
        "board" | "b" => return Ok(Input::Board),
        "list" | "l" => return Ok(Input::List),
        _ => {}
    }
    if let Ok(k) = text.parse::<usize>() {
        if (1..=n).contains(&k) {
            return Ok(Input::Action(actions[k - 1].clone()));
        }
        return Err(anyhow!("there is no line {k}: {hint}"));
    }
    if let Some(a) = actions.iter().find(|a| a.to_string().eq_ignore_ascii_case(text)) {
        return Ok(Input::Action(a.clone()));
    }
    game.action_from_text(text).map(Input::Action).map_err(|e| anyhow!("{e}; {hint}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::{AnyRecord, Options};

    fn session(input: &str, light: AnyPlayer, dark: AnyPlayer) -> AnySession<&[u8]> {
        AnySession {
            game: AnyRecorder::new("finkel", &Options::new(), Side::Light).unwrap(),
            players: [light, dark],
            dice: SeededDice::new(3),
            quiet: true,
            input: input.as_bytes(),
            echo: false,
        }
    }

    #[test]
    fn bots_play_to_the_end_and_the_record_replays() {
        let bot = |n: &str, s| AnyPlayer::Bot(ur_bots::make_generic_bot(n, s).unwrap());
        let mut s = session("", bot("greedy", 1), bot("level2", 2));
        assert!(s.run().unwrap());
        let record = s.game.record();
        assert!(record.over && record.winner.is_some());
        let text = serde_json::to_string(&record).unwrap();
        let back: AnyRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back.replay().unwrap().position_json(), s.game.game().position_json());
    }

    #[test]
    fn humans_answer_by_number_or_text_and_may_quit() {
        let mut s = session("banana\n1\n0->2\nquit\n", AnyPlayer::Human, AnyPlayer::Human);
        assert!(!s.run().unwrap());
        let record = s.game.record();
        assert!(record.steps.iter().filter(|st| matches!(st, ur_rules::Step::Act(_))).count() >= 1);
        assert!(!record.over);
        record.replay().unwrap();
    }

    #[test]
    fn input_is_understood_or_explained() {
        let mut game = AnyGame::new("finkel", &Options::new(), Side::Light).unwrap();
        game.roll(2).unwrap();
        let actions = game.actions();
        assert_eq!(parse_input("1", &actions, &game).unwrap(), Input::Action(actions[0].clone()));
        assert_eq!(parse_input("0->2", &actions, &game).unwrap(), Input::Action(actions[0].clone()));
        assert!(parse_input("7", &actions, &game).unwrap_err().to_string().contains("no line 7"));
        assert!(parse_input("3->5", &actions, &game).unwrap_err().to_string().contains("open: 0->2"));
        assert_eq!(parse_input("HELP", &actions, &game).unwrap(), Input::Help);
        assert!(board(&game).contains('\n'));
    }
}
