//! Connect four rules: the basic level's graded API.
//!
//! Pure code, no I/O. A board has `rows` x `cols` cells (each between
//! [`MIN_SIDE`] and [`MAX_SIDE`]); each column is a stack of discs, so a disc
//! always lands on the lowest empty cell. Row 0 is the bottom row and column 0
//! the leftmost; the program shows columns to people from 1.
//!
//! Four discs of one player in a row, horizontally, vertically or diagonally,
//! win. Only the lines through the last disc can have changed, so a win is
//! detected by looking at those four lines alone.

pub use crate::given::connect4::{Disc, DropError, MAX_SIDE, MIN_SIDE, SizeError};

/// How many discs in a row win.
pub const CONNECT: usize = 4;

/// A connect-four board of any supported size.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    /// One stack per column, bottom first.
    columns: Vec<Vec<Disc>>,
}

impl Board {
    /// An empty board of `rows` x `cols`.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        let side = MIN_SIDE..=MAX_SIDE;
        if !side.contains(&rows) || !side.contains(&cols) {
            return Err(SizeError { rows, cols });
        }
        Ok(Board {
            rows,
            columns: vec![Vec::with_capacity(rows); cols],
        })
    }

    /// The standard 6 rows x 7 columns board.
    pub fn standard() -> Board {
        Board::new(6, 7).expect("6 x 7 is a valid size")
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.columns.len()
    }

    /// The disc at `row` (0 = bottom), `col` (0 = left), if any.
    pub fn get(&self, row: usize, col: usize) -> Option<Disc> {
        self.columns.get(col)?.get(row).copied()
    }

    /// How many discs column `col` holds.
    pub fn height(&self, col: usize) -> usize {
        self.columns[col].len()
    }

    /// How many discs are on the board.
    pub fn discs(&self) -> usize {
        self.columns.iter().map(Vec::len).sum()
    }

    /// The player to move: one starts, then they alternate.
    pub fn to_move(&self) -> Disc {
        if self.discs() % 2 == 0 {
            Disc::One
        } else {
            Disc::Two
        }
    }

    /// Whether a disc can go in `col` (0-based): it exists and is not full.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.cols() && self.height(col) < self.rows
    }

    /// The columns that are not full, left to right.
    pub fn legal_columns(&self) -> Vec<usize> {
        (0..self.cols()).filter(|&c| self.can_play(c)).collect()
    }

    /// Whether every cell holds a disc.
    pub fn is_full(&self) -> bool {
        self.discs() == self.rows * self.cols()
    }

    /// Drops `disc` into column `col` (0-based); returns the row it lands on.
    pub fn drop_piece(&mut self, col: usize, disc: Disc) -> Result<usize, DropError> {
        if col >= self.cols() {
            return Err(DropError::OutOfRange {
                col,
                cols: self.cols(),
            });
        }
        if !self.can_play(col) {
            return Err(DropError::ColumnFull { col });
        }
        self.columns[col].push(disc);
        Ok(self.columns[col].len() - 1)
    }

    /// Drops the disc of the player to move into `col`; returns the row.
    pub fn play(&mut self, col: usize) -> Result<usize, DropError> {
        self.drop_piece(col, self.to_move())
    }

    /// Whether the disc at (`row`, `col`) is part of four in a row.
    pub fn connects_four(&self, row: usize, col: usize) -> bool {
        match self.get(row, col) {
            Some(disc) => self.longest_line_through(row, col, disc) >= CONNECT,
            None => false,
        }
    }

    /// Whether dropping `disc` into `col` would make four in a row, without
    /// playing it. False for a column that cannot be played.
    pub fn is_winning_drop(&self, col: usize, disc: Disc) -> bool {
        self.can_play(col) && self.longest_line_through(self.height(col), col, disc) >= CONNECT
    }

    /// The longest line of `disc` through (`row`, `col`), counting that cell
    /// as `disc` whatever it holds.
    fn longest_line_through(&self, row: usize, col: usize, disc: Disc) -> usize {
        const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let run = |dr: isize, dc: isize| {
            let mut count = 0;
            let (mut r, mut c) = (row as isize + dr, col as isize + dc);
            while r >= 0 && c >= 0 && self.get(r as usize, c as usize) == Some(disc) {
                count += 1;
                r += dr;
                c += dc;
            }
            count
        };
        DIRECTIONS
            .iter()
            .map(|&(dr, dc)| 1 + run(dr, dc) + run(-dr, -dc))
            .max()
            .unwrap_or(1)
    }

    /// The winner, if any line of four exists anywhere (a full scan: for
    /// checking positions built by hand; games use [`Board::connects_four`]).
    pub fn winner(&self) -> Option<Disc> {
        (0..self.cols())
            .flat_map(|c| (0..self.height(c)).map(move |r| (r, c)))
            .find(|&(r, c)| self.connects_four(r, c))
            .and_then(|(r, c)| self.get(r, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn board_after(rows: usize, cols: usize, moves: &[usize]) -> (Board, usize, usize) {
        let mut board = Board::new(rows, cols).unwrap();
        let mut last = (0, 0);
        for &col in moves {
            last = (board.play(col).unwrap(), col);
        }
        (board, last.0, last.1)
    }

    #[rstest]
    #[case::vertical(6, 7, &[0, 1, 0, 1, 0, 1, 0])]
    #[case::horizontal(6, 7, &[0, 0, 1, 1, 2, 2, 3])]
    #[case::rising_diagonal(6, 7, &[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3])]
    #[case::falling_diagonal(6, 7, &[6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3])]
    #[case::middle_of_a_line(6, 7, &[0, 0, 1, 1, 3, 3, 2])]
    #[case::small_board(4, 4, &[0, 1, 0, 1, 0, 1, 0])]
    #[case::wide_board(5, 12, &[8, 8, 9, 9, 10, 10, 11])]
    #[case::tall_board(12, 5, &[4, 3, 4, 3, 4, 3, 4])]
    fn four_in_a_row_wins(#[case] rows: usize, #[case] cols: usize, #[case] moves: &[usize]) {
        let (board, row, col) = board_after(rows, cols, moves);
        assert!(board.connects_four(row, col));
        assert_eq!(board.winner(), Some(Disc::One));
    }

    #[test]
    fn three_in_a_row_does_not_win_and_lines_do_not_wrap() {
        let (board, row, col) = board_after(6, 7, &[0, 0, 1, 1, 2]);
        assert!(!board.connects_four(row, col));
        // Columns 5, 6 then 0, 1 of the next row: no wrap-around.
        let (board, ..) = board_after(4, 7, &[5, 5, 6, 6, 0, 1, 3, 3]);
        assert_eq!(board.winner(), None);
    }

    #[test]
    fn a_full_column_and_a_missing_column_are_errors() {
        let mut board = Board::new(4, 4).unwrap();
        for _ in 0..4 {
            board.play(2).unwrap();
        }
        assert_eq!(board.play(2), Err(DropError::ColumnFull { col: 2 }));
        assert_eq!(
            board.play(4),
            Err(DropError::OutOfRange { col: 4, cols: 4 })
        );
        assert_eq!(board.legal_columns(), vec![0, 1, 3]);
    }

    #[test]
    fn sizes_outside_the_bounds_are_refused() {
        assert!(Board::new(3, 7).is_err());
        assert!(Board::new(6, MAX_SIDE + 1).is_err());
        assert!(Board::new(MAX_SIDE, MIN_SIDE).is_ok());
    }

    #[test]
    fn a_full_board_is_detected() {
        let mut board = Board::new(4, 4).unwrap();
        for col in [0, 1, 2, 3] {
            for _ in 0..4 {
                board.play(col).unwrap();
            }
        }
        assert!(board.is_full());
        assert_eq!(board.legal_columns().len(), 0);
    }

    #[test]
    fn winning_drops_are_seen_before_they_are_played() {
        let (board, ..) = board_after(6, 7, &[0, 6, 1, 6, 2]);
        assert!(board.is_winning_drop(3, Disc::One));
        assert!(!board.is_winning_drop(3, Disc::Two));
        assert!(!board.is_winning_drop(4, Disc::One));
    }
}
