//! `boardkit play velha`: the exercise's program, plus the reference's
//! computer players and board sizes.

use std::io::{BufRead, Write};

use crate::cli::PlayError;
use crate::console::Console;
use crate::player::{self, Player};
use crate::velha::ai::{Computer, Difficulty};
use crate::velha::board::{Board, MAX_SIZE, MIN_SIZE, Position};
use crate::velha::program::{Human, run};

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Board side: rows A.., columns 1..N, N in a row wins.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    pub size: u8,
    /// Play against the computer: easy (random), medium (looks two moves
    /// ahead) or hard (perfect). You are X and start, unless --ai-first.
    #[arg(long, value_enum)]
    pub ai: Option<AiLevel>,
    /// The computer plays X and starts.
    #[arg(long, requires = "ai")]
    pub ai_first: bool,
    /// Seed for the computer's random choices, so a game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum AiLevel {
    Easy,
    Medium,
    Hard,
}

/// Plays one game as the options say.
pub fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    _color: bool,
) -> Result<(), PlayError> {
    let board = Board::new(args.size.into()).map_err(|e| PlayError::Usage(e.to_string()))?;
    type Seat = Box<dyn Player<Board, Position>>;
    let human: Seat = Box::new(Human);
    let mut players: [Seat; 2] = match args.ai {
        None => [human, Box::new(Human)],
        Some(level) => {
            let difficulty = match level {
                AiLevel::Easy => Difficulty::Easy,
                AiLevel::Medium => Difficulty::Medium,
                AiLevel::Hard => Difficulty::Hard,
            };
            let seed = args.seed.unwrap_or_else(rand::random);
            let computer: Seat = Box::new(player::Computer(Computer::new(difficulty, seed)));
            if args.ai_first {
                [computer, human]
            } else {
                [human, computer]
            }
        }
    };
    run(board, &mut players, &mut Console::new(input, output))?;
    Ok(())
}
