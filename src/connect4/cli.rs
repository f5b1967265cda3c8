//! `boardkit play connect4`: the options and how they make the players.
//! Part of the kit (copied as is into starters), not of the exercise.

use super::ai::{PerfectPlayer, RandomPlayer, SmartPlayer};
use super::board::{Board, MAX_SIDE, MIN_SIDE};
use super::program::{Human, Seat, play as play_game};
use super::solver::Shape;
use crate::cli::PlayError;
use crate::console::Console;
use crate::player::{Computer, Player};

const SIDE_RANGE: std::ops::RangeInclusive<i64> = MIN_SIDE as i64..=MAX_SIDE as i64;

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Number of rows (4 to 20).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    pub rows: u8,
    /// Number of columns (4 to 20).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    pub cols: u8,
    /// Play against the computer, which plays O; you are player one.
    #[arg(long, value_enum)]
    pub ai: Option<AiKind>,
    /// Seed for every random choice, so a game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum AiKind {
    /// A uniformly random legal column.
    Random,
    /// Wins if it can, else blocks your win, else random.
    Smart,
    /// A move of best exact score, by the strong solver (boards whose
    /// columns x (rows + 1) is at most 64). Early in a 7 x 6 game a move can
    /// take minutes: there is no opening book yet.
    Perfect,
}

/// Plays one game as the options say.
pub fn play(args: &PlayArgs, console: &mut Console<'_>, _color: bool) -> Result<(), PlayError> {
    let board = Board::new(args.rows.into(), args.cols.into())
        .map_err(|e| PlayError::Usage(e.to_string()))?;
    let seed = args.seed.unwrap_or_else(rand::random);
    type Seat2 = Box<dyn Player<Board, usize>>;
    let (second, seat): (Seat2, Seat) = match args.ai {
        None => (Box::new(Human), Seat::PlayerTwo),
        Some(AiKind::Random) => (Box::new(Computer(RandomPlayer::new(seed))), Seat::Computer),
        Some(AiKind::Smart) => (Box::new(Computer(SmartPlayer::new(seed))), Seat::Computer),
        Some(AiKind::Perfect) => {
            let shape = Shape::new(board.cols(), board.rows())
                .map_err(|e| PlayError::Usage(format!("--ai perfect: {e}")))?;
            (
                Box::new(Computer(PerfectPlayer::new(shape, seed))),
                Seat::Computer,
            )
        }
    };
    let mut players: [Seat2; 2] = [Box::new(Human), second];
    play_game(board, &mut players, [Seat::PlayerOne, seat], console)?;
    Ok(())
}

/// Plays one game from command-line words (those after `play connect4`).
pub fn play_with(
    words: &[String],
    console: &mut Console<'_>,
    color: bool,
) -> Result<(), PlayError> {
    play(
        &crate::cli::parse_play_args::<PlayArgs>("connect4", words)?,
        console,
        color,
    )
}
