//! The board: a flat, row-major vector of cells, row 0 at the bottom.

use std::fmt;

use super::{Disc, DropError, MAX_SIDE, MIN_SIDE, SizeError};

/// The four line directions (row step, column step): one sense of each.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// How many discs in a row make a win.
const LINE: usize = 4;

/// A board of any size from 4 x 4 to 20 x 20.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    cols: usize,
    /// `cells[row * cols + col]`, row 0 at the bottom.
    cells: Vec<Option<Disc>>,
    /// How many discs each column holds: the row the next one lands on.
    filled: Vec<usize>,
    /// Discs on the board, so the side to move and fullness are O(1).
    discs: usize,
}

impl Board {
    /// An empty board of `rows` x `cols`; a side outside 4..=20 is an error.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        let fits = |side: usize| (MIN_SIDE..=MAX_SIDE).contains(&side);
        if !fits(rows) || !fits(cols) {
            return Err(SizeError { rows, cols });
        }
        Ok(Board {
            rows,
            cols,
            cells: vec![None; rows * cols],
            filled: vec![0; cols],
            discs: 0,
        })
    }

    /// Drops `disc` into column `col` (0-based); returns the row it lands on.
    pub fn drop_piece(&mut self, col: usize, disc: Disc) -> Result<usize, DropError> {
        self.check_column(col)?;
        let row = self.filled[col];
        self.cells[row * self.cols + col] = Some(disc);
        self.filled[col] += 1;
        self.discs += 1;
        Ok(row)
    }

    /// Whether the disc at (`row`, `col`) is part of four in a row: only the
    /// four lines through that cell are looked at.
    pub fn connects_four(&self, row: usize, col: usize) -> bool {
        let Some(disc) = self.get(row, col) else {
            return false;
        };
        DIRECTIONS.iter().any(|&(dr, dc)| {
            1 + self.run(row, col, dr, dc, disc) + self.run(row, col, -dr, -dc, disc) >= LINE
        })
    }

    /// Whether every cell holds a disc.
    pub fn is_full(&self) -> bool {
        self.discs == self.rows * self.cols
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The disc at (`row`, `col`), if any (`None` off the board too).
    pub fn get(&self, row: usize, col: usize) -> Option<Disc> {
        if row < self.rows && col < self.cols {
            self.cells[row * self.cols + col]
        } else {
            None
        }
    }

    /// How many discs column `col` holds.
    pub fn column_height(&self, col: usize) -> usize {
        self.filled[col]
    }

    /// How many discs are on the board.
    pub fn disc_count(&self) -> usize {
        self.discs
    }

    /// Whose turn it is: player one starts, then the players alternate.
    pub fn to_move(&self) -> Disc {
        if self.discs.is_multiple_of(2) {
            Disc::One
        } else {
            Disc::Two
        }
    }

    /// `Ok` when a disc can go into `col`, else why not.
    pub fn check_column(&self, col: usize) -> Result<(), DropError> {
        if col >= self.cols {
            Err(DropError::OutOfRange {
                col,
                cols: self.cols,
            })
        } else if self.filled[col] >= self.rows {
            Err(DropError::ColumnFull { col })
        } else {
            Ok(())
        }
    }

    /// The columns that can still take a disc, left to right.
    pub fn open_columns(&self) -> Vec<usize> {
        (0..self.cols)
            .filter(|&c| self.filled[c] < self.rows)
            .collect()
    }

    /// Whether dropping `disc` into the open column `col` would connect four.
    pub fn would_connect(&self, col: usize, disc: Disc) -> bool {
        let mut trial = self.clone();
        match trial.drop_piece(col, disc) {
            Ok(row) => trial.connects_four(row, col),
            Err(_) => false,
        }
    }

    /// How many cells of `disc` follow (`row`, `col`) in the step (`dr`, `dc`),
    /// stopping at three: a fourth is never needed.
    fn run(&self, row: usize, col: usize, dr: isize, dc: isize, disc: Disc) -> usize {
        let (mut r, mut c) = (row as isize, col as isize);
        let mut count = 0;
        while count < LINE - 1 {
            r += dr;
            c += dc;
            if r < 0 || c < 0 || self.get(r as usize, c as usize) != Some(disc) {
                break;
            }
            count += 1;
        }
        count
    }
}

/// The board as the game prints it: top row first, box-drawing rules, and a
/// footer numbering the columns from 1. Every line ends with a newline.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = |left: char, mid: char, right: char| {
            let mut line = String::new();
            line.push(left);
            for c in 0..self.cols {
                line.push('─');
                line.push(if c + 1 == self.cols { right } else { mid });
            }
            line
        };
        writeln!(f, "{}", rule('┌', '┬', '┐'))?;
        for row in (0..self.rows).rev() {
            let mut line = String::from("|");
            for col in 0..self.cols {
                line.push(self.get(row, col).map_or(' ', Disc::symbol));
                line.push('|');
            }
            writeln!(f, "{line}")?;
            if row > 0 {
                writeln!(f, "{}", rule('├', '┼', '┤'))?;
            }
        }
        writeln!(f, "{}", rule('└', '┴', '┘'))?;
        let footer: String = (1..=self.cols).map(|n| format!(" {n}")).collect();
        writeln!(f, "{footer}")
    }
}
