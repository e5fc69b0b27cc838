//! One line of a human player's input, understood.

use anyhow::{anyhow, Result};
use ur_rules::{narrate, AnyAction, AnyGame};

/// What a line asks for.
#[derive(Debug, PartialEq)]
pub enum Input {
    Action(AnyAction),
    Quit,
    Help,
    Board,
    Path,
    List,
    Hint,
}

/// A number from the list, a command (help, board, path, list, hint, quit),
/// or a decision in the game's own words.
pub fn parse(text: &str, actions: &[AnyAction], game: &AnyGame) -> Result<Input> {
    let n = actions.len();
    let hint = format!("type a number from 1 to {n}, or 'help' for the other input forms");
    match text.to_lowercase().as_str() {
        "" => return Err(anyhow!("{hint}")),
        "quit" | "q" | "exit" => return Ok(Input::Quit),
        "help" | "h" | "?" => return Ok(Input::Help),
        "board" | "b" => return Ok(Input::Board),
        "path" | "p" => return Ok(Input::Path),
        "list" | "l" | "moves" => return Ok(Input::List),
        "hint" => return Ok(Input::Hint),
        _ => {}
    }
    if let Ok(k) = text.parse::<usize>() {
        if (1..=n).contains(&k) {
            return Ok(Input::Action(actions[k - 1].clone()));
        }
        return Err(anyhow!("there is no line {k}: {hint}"));
    }
    narrate::read_decision(game, text).map(Input::Action).map_err(|e| anyhow!("{e}; {hint}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ur_rules::{Options, Playable, Side};

    fn after(id: &str, rolls: &[u8]) -> AnyGame {
        let mut g = AnyGame::new(id, &Options::new(), Side::Light).unwrap();
        for &r in rolls {
            g.roll(r).unwrap();
        }
        g
    }

    #[test]
    fn numbers_words_and_commands() {
        for (id, rolls) in [("finkel", &[2u8][..]), ("guard-d6", &[3][..]), ("bens-ur", &[0, 2][..])] {
            let g = after(id, rolls);
            let actions = g.actions();
            assert_eq!(parse("1", &actions, &g).unwrap(), Input::Action(actions[0].clone()), "{id}");
            let typed = actions[0].to_string();
            assert_eq!(parse(&typed, &actions, &g).unwrap(), Input::Action(actions[0].clone()), "{id}: {typed}");
            assert!(parse("99", &actions, &g).unwrap_err().to_string().contains("no line 99"), "{id}");
            assert!(parse("banana", &actions, &g).unwrap_err().to_string().contains("help"), "{id}");
            assert_eq!(parse("HELP", &actions, &g).unwrap(), Input::Help);
            assert_eq!(parse("quit", &actions, &g).unwrap(), Input::Quit);
            assert_eq!(parse("hint", &actions, &g).unwrap(), Input::Hint);
        }
    }
}
