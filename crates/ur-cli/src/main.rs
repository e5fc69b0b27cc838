//! `ur`: play, replay, benchmark and serve the Royal Game of Ur.

mod arena;
mod bench;
mod convert;
mod eval_cmd;
mod files;
mod play;
mod regret;
mod replay;
mod review;
mod rules_arg;
mod rules_cmd;
mod serve;
mod signals;
mod solve_cmd;
mod solve_graph;
mod train_eval;
mod train_net;
mod train_selfplay;
mod train_table;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ur_cli::out::StdoutError;
use ur_cli::{engine, table_store};

#[derive(Parser)]
#[command(name = "ur", version, about = "The Royal Game of Ur: every rule set, a playing engine and tools.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the rule sets, or show one in detail.
    Rules(rules_cmd::RulesCmd),
    /// Serve the browser app: play against a bot, hot-seat or online by link (docs/serve.md).
    Serve(serve::ServeCmd),
    /// Play a game in the terminal against a bot.
    Play(play::PlayCmd),
    /// Check a game record and print its final position.
    Replay(replay::ReplayCmd),
    /// Measure random-play throughput.
    Bench(bench::BenchCmd),
    /// Convert a game between our JSON record and RGN (RoyalUr's Royal Game Notation).
    Convert(convert::ConvertCmd),
    /// Serve the line-based JSON engine protocol on stdin/stdout.
    Engine(engine::EngineCmd),
    /// Solve a race rule set exactly and write a table.
    Solve(solve_cmd::SolveCmd),
    /// List the solved tables in the table store.
    Tables(table_store::TablesCmd),
    /// Print the win probability of a position from a solved table.
    Eval(eval_cmd::EvalCmd),
    /// List the moves for a position and throw with their win probabilities, best first.
    Hint(eval_cmd::HintCmd),
    /// Play a round robin between bots: win rates with 95% intervals, an Elo table, games per second.
    Arena(arena::ArenaCmd),
    /// Measure a bot's mean loss of win probability per decision against a solved table.
    Regret(regret::RegretCmd),
    /// Judge every decision of a recorded game against the best choice, and the luck of every roll.
    Review(review::ReviewCmd),
    /// Fit the race evaluation to solved tables and write its weights.
    TrainEval(train_eval::TrainEvalCmd),
    /// Train a race rule set's neural evaluation by self-play and write the network the `net` bots read.
    TrainNet(train_net::TrainNetCmd),
    /// Fit the race evaluation of one rule set by self-play and add it to a weights file.
    TrainSelfplay(train_selfplay::TrainSelfPlayCmd),
    /// Fit one rule set's race evaluation to a solved table of the full game and add it to a weights file.
    TrainTable(train_table::TrainTableCmd),
}

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`ur rules | head`), as command-line tools do.
    #[cfg(unix)]
    // SAFETY: restoring the default signal disposition before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(c) => c.run(),
        Command::Serve(c) => c.run(),
        Command::Play(c) => c.run(),
        Command::Replay(c) => c.run(),
        Command::Bench(c) => c.run(),
        Command::Convert(c) => c.run(),
        Command::Engine(c) => c.run(),
        Command::Solve(c) => c.run(),
        Command::Tables(c) => c.run(),
        Command::Eval(c) => c.run(),
        Command::Hint(c) => c.run(),
        Command::Arena(c) => c.run(),
        Command::Regret(c) => c.run(),
        Command::Review(c) => c.run(),
        Command::TrainEval(c) => c.run(),
        Command::TrainNet(c) => c.run(),
        Command::TrainSelfplay(c) => c.run(),
        Command::TrainTable(c) => c.run(),
    };
    // What standard output still holds is written now, so that a failure is seen.
    let result = result.and_then(|()| Ok(ur_cli::out::flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that went away (where SIGPIPE does not end the program first): a quiet end.
        Err(e) if e.chain().any(|c| c.downcast_ref::<StdoutError>().is_some_and(StdoutError::is_broken_pipe)) => ExitCode::from(141),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
