//! The `boardkit` command line: a thin layer of argument parsing over the
//! library. Usage errors exit with status 2 (clap's convention), input that
//! ends before a game does exits with status 1, a finished game with 0.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use boardkit::console::{Console, InputError};
use boardkit::player::Player;
use boardkit::velha;
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "boardkit",
    version,
    about = "Terminal board games for programming courses: play them, solve them, grade them."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal, or scripted over stdin.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
}

#[derive(Subcommand)]
enum PlayGame {
    /// Jogo da velha (tic-tac-toe): positions such as B2; X starts.
    Velha(VelhaArgs),
}

#[derive(Args)]
struct VelhaArgs {
    /// Board side: rows A.., columns 1..N, N in a row wins.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(velha::board::MIN_SIZE as i64..=velha::board::MAX_SIZE as i64))]
    size: u8,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // stdout may be a closed pipe: say why on stderr, never panic.
            let _ = io::stdout().flush();
            eprintln!("boardkit: {error:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Play { game } => play(game),
    }
}

/// Runs a game on stdin and stdout. Colours reach stdout only when it is a
/// terminal and NO_COLOR is unset (anstream strips them otherwise).
fn play(game: PlayGame) -> anyhow::Result<()> {
    let mut input = io::stdin().lock();
    let mut output = anstream::stdout().lock();
    let input: &mut dyn BufRead = &mut input;
    let mut console = Console::new(input, &mut output);
    let result = match game {
        PlayGame::Velha(args) => {
            let board = velha::Board::new(args.size.into()).context("invalid --size")?;
            let mut players: [Box<dyn Player<velha::Board, velha::Position>>; 2] = [
                Box::new(velha::program::Human),
                Box::new(velha::program::Human),
            ];
            velha::program::play(board, &mut players, &mut console).map(drop)
        }
    };
    match result {
        Ok(()) => Ok(()),
        Err(InputError::EndOfInput) => Err(anyhow::anyhow!("input ended before the game was over")),
        Err(InputError::Io(e)) => Err(e).context("cannot read input or write output"),
    }
}
