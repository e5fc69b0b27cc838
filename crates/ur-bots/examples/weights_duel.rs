//! Two expectimax searches, each with its own weights file, against each
//! other on paired dice (each dice sequence played once from each side);
//! `ur arena --weights` gives every bot the same weights. A research aid.
//!
//! ```text
//! cargo run --release -p ur-bots --example weights_duel -- regency-murray 4 w-m4.json 3 - 2 1000
//! ```
//! Arguments: rules, pieces, A's weights (`-` for the committed ones) and
//! depth, B's weights and depth, games.

use std::sync::Arc;

use ur_bots::chance::merged_throws;
use ur_bots::expectimax::Search;
use ur_bots::{Evaluator, Weights};
use ur_rules::{Dice, Game, OptionValue, Options, Phase, Rules, SeededDice, Side, Throw};

mod common;

fn main() -> std::process::ExitCode {
    common::exit(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [id, pieces, wa, da, wb, db, games] = args.as_slice() else {
        return Err("usage: weights_duel RULES PIECES WEIGHTS_A DEPTH_A WEIGHTS_B DEPTH_B GAMES".into());
    };
    let number = |what: &str, v: &str| v.parse::<u32>().map_err(|_| format!("{what} must be a whole number, not '{v}'"));
    let options: Options = [("pieces".to_string(), OptionValue::Int(i64::from(number("PIECES", pieces)?)))].into();
    let rules = Arc::new(Rules::builtin_with(id, &options)?);
    let a = (Evaluator::with_weights(rules.clone(), &load(wa)?), number("DEPTH_A", da)?.max(1));
    let b = (Evaluator::with_weights(rules.clone(), &load(wb)?), number("DEPTH_B", db)?.max(1));
    let games = number("GAMES", games)?;
    let throws = merged_throws(&rules);
    let wins = (0..games).filter(|&g| play(&rules, &throws, &a, &b, g) == 0).count();
    let p = wins as f64 / f64::from(games.max(1));
    let half = 196.0 * (p * (1.0 - p) / f64::from(games.max(1))).sqrt();
    println!("A ({wa}, depth {da}) against B ({wb}, depth {db}): A won {wins} of {games}, {:.1}% ± {half:.1}", 100.0 * p);
    Ok(())
}

fn load(path: &str) -> Result<Weights, String> {
    if path == "-" {
        return Ok(Weights::builtin().clone());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let weights: Weights = serde_json::from_str(&text).map_err(|e| format!("{path} is not a weights file: {e}"))?;
    weights.check().map_err(|e| format!("{path}: {e}"))?;
    Ok(weights)
}

/// Game `g`: dice sequence `g / 2`, A moving first on even games. Returns 0 if A won.
fn play(rules: &Arc<Rules>, throws: &[(Throw, f64)], a: &(Evaluator, u32), b: &(Evaluator, u32), g: u32) -> u8 {
    let a_side = if g.is_multiple_of(2) { Side::Light } else { Side::Dark };
    let mut game = Game::new(rules.clone(), Side::Light);
    let mut dice = SeededDice::new(u64::from(g / 2) + 1000);
    while game.phase() != Phase::Over {
        let Some(throw) = game.throw().filter(|_| game.phase() == Phase::Move) else {
            game.roll(dice.throw(rules.dice())).expect("the game waits for a roll");
            continue;
        };
        let (eval, depth) = if game.to_move() == a_side { a } else { b };
        let moves = game.legal_moves();
        let mv =
            if moves.len() == 1 { moves[0] } else { Search::new(rules, eval, throws).best_move(game.state(), &throw, moves, *depth).0 };
        game.play(mv).expect("the search picks a legal move");
    }
    u8::from(game.winner() != Some(a_side))
}
