//! Jogo da velha rules: the board, positions, whose turn it is and who won.
//!
//! Pure code, no I/O. A board of `size` x `size` (3 by default, up to
//! [`MAX_SIZE`]) is two bitmasks, one per player, so it is `Copy`, cheap to hash
//! and fast to search. `X` always starts, so the player to move is derived from
//! the counts of the two marks, never stored. `size` in a row (a full row,
//! column or diagonal) wins.

use std::fmt;
use std::sync::OnceLock;

/// The smallest board side.
pub const MIN_SIZE: usize = 3;
/// The largest board side: rows `A`..`I`, columns `1`..`9`, one character each.
pub const MAX_SIZE: usize = 9;

/// A player's mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    X,
    O,
}

impl Mark {
    pub fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    pub fn as_char(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

/// A cell: `row` 0 is `A`, `col` 0 is `1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub row: usize,
    pub col: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.row as u8) as char, self.col + 1)
    }
}

/// Why a text is not a position on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidPosition {
    last_row: char,
    size: usize,
}

impl std::fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not a position: expected a row letter A-{} and a column 1-{}",
            self.last_row, self.size
        )
    }
}

impl std::error::Error for InvalidPosition {}

/// Parses a position such as `C2` on a `size` x `size` board.
///
/// The exam's rules: the row letter may be lower case and spaces may stand
/// anywhere (`" C 1 "`, `"a3"`); any other character, a letter or digit off the
/// board, or a missing part makes it invalid (`" D9 "`, `"A4"`, `"AA"`, `""`).
pub fn parse_position(text: &str, size: usize) -> Result<Position, InvalidPosition> {
    let invalid = || InvalidPosition {
        last_row: (b'A' + size as u8 - 1) as char,
        size,
    };
    let mut chars = text.chars().filter(|&c| c != ' ');
    let (Some(letter), Some(digit), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(invalid());
    };
    let row = (letter.to_ascii_uppercase() as usize).wrapping_sub('A' as usize);
    let col = (digit as usize).wrapping_sub('1' as usize);
    if !letter.is_ascii_alphabetic() || !digit.is_ascii_digit() || row >= size || col >= size {
        return Err(invalid());
    }
    Ok(Position { row, col })
}

/// The state of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Won(Mark),
    Draw,
    InProgress,
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    OffBoard(Position),
    Occupied(Position),
    GameOver,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::OffBoard(p) => write!(f, "position {p} is outside the board"),
            MoveError::Occupied(p) => write!(f, "position {p} is already taken"),
            MoveError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a board size is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSize(pub usize);

impl std::fmt::Display for InvalidSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "board size {} is not supported: it must be between {MIN_SIZE} and {MAX_SIZE}",
            self.0
        )
    }
}

impl std::error::Error for InvalidSize {}

/// A jogo da velha board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    x: u128,
    o: u128,
}

impl Default for Board {
    fn default() -> Self {
        Board::new(3).expect("3 is a valid size")
    }
}

impl Board {
    /// An empty board of `size` x `size`.
    pub fn new(size: usize) -> Result<Board, InvalidSize> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(InvalidSize(size));
        }
        Ok(Board {
            size: size as u8,
            x: 0,
            o: 0,
        })
    }

    /// A 3 x 3 board from the exam's representation: `'X'`, `'O'`, anything else empty.
    pub fn from_chars(cells: &[[char; 3]; 3]) -> Board {
        let mut board = Board::default();
        for (row, line) in cells.iter().enumerate() {
            for (col, &c) in line.iter().enumerate() {
                let bit = board.bit(Position { row, col });
                match c {
                    'X' => board.x |= bit,
                    'O' => board.o |= bit,
                    _ => {}
                }
            }
        }
        board
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }

    fn bit(&self, pos: Position) -> u128 {
        1u128 << (pos.row * self.size() + pos.col)
    }

    /// The mark at `pos`, if any. `pos` must be on the board.
    pub fn get(&self, pos: Position) -> Option<Mark> {
        let bit = self.bit(pos);
        if self.x & bit != 0 {
            Some(Mark::X)
        } else if self.o & bit != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The player to move: `X` starts, then they alternate.
    pub fn to_move(&self) -> Mark {
        if self.x.count_ones() > self.o.count_ones() {
            Mark::O
        } else {
            Mark::X
        }
    }

    /// How many marks are on the board.
    pub fn marks(&self) -> usize {
        (self.x | self.o).count_ones() as usize
    }

    /// Every empty cell, row by row.
    pub fn empty_cells(&self) -> Vec<Position> {
        let n = self.size();
        (0..n * n)
            .map(|i| Position {
                row: i / n,
                col: i % n,
            })
            .filter(|&p| self.get(p).is_none())
            .collect()
    }

    /// Plays the side to move at `pos`.
    pub fn play(&mut self, pos: Position) -> Result<(), MoveError> {
        if pos.row >= self.size() || pos.col >= self.size() {
            return Err(MoveError::OffBoard(pos));
        }
        if self.status() != Status::InProgress {
            return Err(MoveError::GameOver);
        }
        if self.get(pos).is_some() {
            return Err(MoveError::Occupied(pos));
        }
        let bit = self.bit(pos);
        match self.to_move() {
            Mark::X => self.x |= bit,
            Mark::O => self.o |= bit,
        }
        Ok(())
    }

    /// The board after the side to move plays `pos`, unchecked beyond debug builds.
    pub fn with_move(mut self, pos: Position) -> Board {
        debug_assert!(self.get(pos).is_none());
        let bit = self.bit(pos);
        match self.to_move() {
            Mark::X => self.x |= bit,
            Mark::O => self.o |= bit,
        }
        self
    }

    /// Whether `mark` holds a whole line.
    pub fn has_line(&self, mark: Mark) -> bool {
        let mask = match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        };
        winning_lines(self.size())
            .iter()
            .any(|&line| line & !mask == 0)
    }

    /// Won (a whole line; `X` is looked at first on an impossible board where
    /// both have one), drawn (full, no line) or in progress. A win on the last
    /// cell is a win, not a draw.
    pub fn status(&self) -> Status {
        if self.has_line(Mark::X) {
            Status::Won(Mark::X)
        } else if self.has_line(Mark::O) {
            Status::Won(Mark::O)
        } else if self.marks() == self.size() * self.size() {
            Status::Draw
        } else {
            Status::InProgress
        }
    }
}

/// The masks of every row, column and both diagonals of a `size` board.
pub fn winning_lines(size: usize) -> &'static [u128] {
    static LINES: OnceLock<Vec<Vec<u128>>> = OnceLock::new();
    let all = LINES.get_or_init(|| {
        (0..=MAX_SIZE)
            .map(|n| {
                if n < MIN_SIZE {
                    return Vec::new();
                }
                let cell = |r: usize, c: usize| 1u128 << (r * n + c);
                let mut lines = Vec::with_capacity(2 * n + 2);
                for i in 0..n {
                    lines.push((0..n).map(|c| cell(i, c)).sum());
                    lines.push((0..n).map(|r| cell(r, i)).sum());
                }
                lines.push((0..n).map(|i| cell(i, i)).sum());
                lines.push((0..n).map(|i| cell(i, n - 1 - i)).sum());
                lines
            })
            .collect()
    });
    &all[size]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("A1", 0, 0)]
    #[case("C2", 2, 1)]
    #[case("b3", 1, 2)]
    #[case(" C 1 ", 2, 0)]
    #[case("a3", 0, 2)]
    #[case("  b  2  ", 1, 1)]
    fn valid_positions(#[case] text: &str, #[case] row: usize, #[case] col: usize) {
        assert_eq!(parse_position(text, 3), Ok(Position { row, col }));
    }

    #[rstest]
    #[case(" D9 ")]
    #[case("A4")]
    #[case("AA")]
    #[case("")]
    #[case("   ")]
    #[case("A0")]
    #[case("1A")]
    #[case("A1A")]
    #[case("A\t1")]
    #[case("Á1")]
    #[case("A١")]
    #[case("A11")]
    fn invalid_positions(#[case] text: &str) {
        assert!(
            parse_position(text, 3).is_err(),
            "{text:?} should be invalid"
        );
    }

    #[test]
    fn larger_boards_take_more_letters_and_digits() {
        assert_eq!(parse_position("d4", 4), Ok(Position { row: 3, col: 3 }));
        assert_eq!(parse_position("I9", 9), Ok(Position { row: 8, col: 8 }));
        assert!(parse_position("E1", 4).is_err());
    }

    #[test]
    fn turns_alternate_and_occupied_cells_are_refused() {
        let mut board = Board::default();
        let b2 = Position { row: 1, col: 1 };
        board.play(b2).unwrap();
        assert_eq!(board.get(b2), Some(Mark::X));
        assert_eq!(board.to_move(), Mark::O);
        assert_eq!(board.play(b2), Err(MoveError::Occupied(b2)));
    }

    #[test]
    fn a_win_on_the_last_cell_is_not_a_draw() {
        let board = Board::from_chars(&[['X', 'O', 'X'], ['O', 'X', 'O'], ['O', 'X', 'X']]);
        assert_eq!(board.status(), Status::Won(Mark::X));
        let draw = Board::from_chars(&[['X', 'O', 'X'], ['X', 'O', 'O'], ['O', 'X', 'X']]);
        assert_eq!(draw.status(), Status::Draw);
    }

    #[test]
    fn every_size_has_two_n_plus_two_lines() {
        for n in MIN_SIZE..=MAX_SIZE {
            assert_eq!(winning_lines(n).len(), 2 * n + 2);
            assert!(
                winning_lines(n)
                    .iter()
                    .all(|l| l.count_ones() as usize == n)
            );
        }
    }
}
