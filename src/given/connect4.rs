//! What EXERCISE.md gives for connect four: the discs, the size bounds and
//! the two errors of the basic level.

use std::fmt;

/// The smallest number of rows or columns: four in a row must fit.
pub const MIN_SIDE: usize = 4;
/// The largest number of rows or columns, so a board fits a terminal.
pub const MAX_SIDE: usize = 20;

/// A player's disc: player one plays `X` and starts, player two plays `O`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Disc {
    One,
    Two,
}

impl Disc {
    /// The other player's disc.
    pub fn other(self) -> Disc {
        match self {
            Disc::One => Disc::Two,
            Disc::Two => Disc::One,
        }
    }

    /// The character shown on the board: `X` for player one, `O` for two.
    pub fn symbol(self) -> char {
        match self {
            Disc::One => 'X',
            Disc::Two => 'O',
        }
    }
}

impl fmt::Display for Disc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// Why a board cannot be made: a side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeError {
    pub rows: usize,
    pub cols: usize,
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a board of {} rows and {} columns is not supported: each must be between {MIN_SIDE} and {MAX_SIDE}",
            self.rows, self.cols
        )
    }
}

impl std::error::Error for SizeError {}

/// Why a disc cannot be dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropError {
    /// `col` (0-based) is not a column of this board.
    OutOfRange { col: usize, cols: usize },
    /// `col` (0-based) has no empty cell left.
    ColumnFull { col: usize },
}

impl std::fmt::Display for DropError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DropError::OutOfRange { col, cols } => {
                write!(f, "column {} does not exist: choose 1 to {cols}", col + 1)
            }
            DropError::ColumnFull { col } => write!(f, "column {} is full", col + 1),
        }
    }
}

impl std::error::Error for DropError {}
