//! Connect four: your code. Everything in this folder is yours; write the
//! items below (EXERCISE.md, "Connect four"), and add any helpers, types and
//! modules you like.

use std::io::{self, BufRead, Write};

pub use crate::given::connect4::{Disc, DropError, MAX_SIDE, MIN_SIDE, SizeError};
use crate::player::Strategy;

/// A board of any size from 4 x 4 to 20 x 20. Its fields are yours to choose.
#[derive(Debug, Clone)]
pub struct Board {}

impl Board {
    /// An empty board of `rows` x `cols`; a side outside 4..=20 is an error.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        todo!("Board::new({rows}, {cols}): see EXERCISE.md, Connect four, Basic")
    }

    /// Drops `disc` into column `col` (0-based); returns the row it lands on.
    pub fn drop_piece(&mut self, col: usize, disc: Disc) -> Result<usize, DropError> {
        todo!("Board::drop_piece({col}, {disc}): see EXERCISE.md, Connect four, Basic")
    }

    /// Whether the disc at (`row`, `col`) is part of four in a row.
    pub fn connects_four(&self, row: usize, col: usize) -> bool {
        todo!("Board::connects_four({row}, {col}): see EXERCISE.md, Connect four, Basic")
    }

    /// Whether every cell holds a disc.
    pub fn is_full(&self) -> bool {
        todo!("Board::is_full: see EXERCISE.md, Connect four, Basic")
    }
}

/// One game on a board of `rows` x `cols`: player one reads columns from
/// `input`; player two too, or `computer` when given. Everything is printed
/// to `output`. An error when the input ends before the game does.
pub fn play(
    rows: usize,
    cols: usize,
    computer: Option<&mut dyn Strategy<Board, usize>>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let _ = (computer, input, output);
    todo!("play({rows}, {cols}, ..): see EXERCISE.md, Connect four, Proficient")
}

/// Plays a uniformly random legal column, drawn from a generator seeded
/// with the seed it was made with.
#[derive(Debug)]
pub struct RandomPlayer {}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        todo!("RandomPlayer::new({seed}): see EXERCISE.md, Connect four, Advanced")
    }
}

impl Strategy<Board, usize> for RandomPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let _ = board;
        todo!("RandomPlayer::choose: see EXERCISE.md, Connect four, Advanced")
    }
}

/// Wins at once if it can, else blocks the opponent's win, else random.
#[derive(Debug)]
pub struct SmartPlayer {}

impl SmartPlayer {
    pub fn new(seed: u64) -> SmartPlayer {
        todo!("SmartPlayer::new({seed}): see EXERCISE.md, Connect four, Advanced")
    }
}

impl Strategy<Board, usize> for SmartPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let _ = board;
        todo!("SmartPlayer::choose: see EXERCISE.md, Connect four, Advanced")
    }
}

/// A column (0-based) of best exact score for the player to move on 7 x 6.
pub fn best_move(board: &Board) -> usize {
    let _ = board;
    todo!("best_move: see EXERCISE.md, Connect four, Expert")
}
