//! The connect-four program (SPEC 3.2): a loop over a [`Console`].
//!
//! Prints the empty board, then asks each seat's [`Player`] for a column and
//! prints the board after every move, until four in a row or a full board.
//! The output is exactly what the course's byte-for-byte testbed expects:
//! boards, prompts, one-line messages for invalid input, the result line.

use std::io::{self, BufRead, Write};

use super::board::{Board, Disc};
use super::render::board_block;
use crate::console::{Console, InputError};
use crate::player::{Player, Strategy};

/// Printed before each human move.
pub const PROMPT: &str = "Column number? (starts at 1):";
/// The result line of a draw.
pub const DRAW: &str = "It is a draw.";

/// How a seat is named in the result line (`<name> won!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    PlayerOne,
    PlayerTwo,
    Computer,
}

impl Seat {
    pub fn win_line(self) -> &'static str {
        match self {
            Seat::PlayerOne => "Player one won!",
            Seat::PlayerTwo => "Player two won!",
            Seat::Computer => "Computer won!",
        }
    }
}

/// A person typing column numbers; many may stand on one line (`4 1 4 1`).
#[derive(Debug, Default)]
pub struct Human;

/// At most this many characters of a bad token are echoed in a message.
const ECHO_CHARS: usize = 16;

impl Player<Board, usize> for Human {
    fn next_move(&mut self, board: &Board, console: &mut Console<'_>) -> Result<usize, InputError> {
        loop {
            writeln!(console.out, "{PROMPT}")?;
            let message = match console.read_token()? {
                Err(_) => "Invalid input: expected a column number.".to_owned(),
                Ok(token) => match token.parse::<usize>() {
                    Err(_) => {
                        let shown: String = token.chars().take(ECHO_CHARS).collect();
                        let more = if token.chars().count() > ECHO_CHARS {
                            "..."
                        } else {
                            ""
                        };
                        format!("Invalid input '{shown}{more}': expected a column number.")
                    }
                    Ok(n) if n == 0 || n > board.cols() => {
                        format!("Column {n} does not exist: choose 1 to {}.", board.cols())
                    }
                    Ok(n) if !board.can_play(n - 1) => {
                        format!("Column {n} is full: choose another.")
                    }
                    Ok(n) => return Ok(n - 1),
                },
            };
            writeln!(console.out, "{message}")?;
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won(Disc),
    Draw,
}

/// The statement's program (EXERCISE.md, "Proficient" and "Advanced"): one
/// game on a board of `rows` x `cols`. Player one is the person at `input`;
/// player two is another person there too, or `computer` when given (its
/// board follows with no prompt; its win is `Computer won!`). Input that ends
/// before the game does is an error of kind [`io::ErrorKind::UnexpectedEof`].
pub fn play(
    rows: usize,
    cols: usize,
    computer: Option<&mut dyn Strategy<Board, usize>>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let board =
        Board::new(rows, cols).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let (second, seat): (Box<dyn Player<Board, usize> + '_>, Seat) = match computer {
        None => (Box::new(Human), Seat::PlayerTwo),
        Some(strategy) => (Box::new(Borrowed(strategy)), Seat::Computer),
    };
    let mut players: [Box<dyn Player<Board, usize> + '_>; 2] = [Box::new(Human), second];
    let mut console = Console::new(input, output);
    run(board, &mut players, [Seat::PlayerOne, seat], &mut console)
        .map(|_| ())
        .map_err(InputError::into_io)
}

/// A borrowed strategy seen as a player.
struct Borrowed<'a>(&'a mut dyn Strategy<Board, usize>);

impl Player<Board, usize> for Borrowed<'_> {
    fn next_move(&mut self, board: &Board, _: &mut Console<'_>) -> Result<usize, InputError> {
        Ok(self.0.choose(board))
    }
}

/// Plays one game from an empty `board`: `players[0]` drops `X` and starts.
/// `seats` name the two players in the result line.
pub fn run(
    mut board: Board,
    players: &mut [Box<dyn Player<Board, usize> + '_>; 2],
    seats: [Seat; 2],
    console: &mut Console<'_>,
) -> Result<Outcome, InputError> {
    write!(console.out, "{}", board_block(&board))?;
    loop {
        let disc = board.to_move();
        let seat = match disc {
            Disc::One => 0,
            Disc::Two => 1,
        };
        let col = players[seat].next_move(&board, console)?;
        // A player answering an illegal column is a bug in that player.
        let row = board
            .play(col)
            .unwrap_or_else(|e| panic!("player {disc} chose an illegal column: {e}"));
        write!(console.out, "{}", board_block(&board))?;
        let outcome = if board.connects_four(row, col) {
            writeln!(console.out, "{}", seats[seat].win_line())?;
            Outcome::Won(disc)
        } else if board.is_full() {
            writeln!(console.out, "{DRAW}")?;
            Outcome::Draw
        } else {
            continue;
        };
        console.out.flush()?;
        return Ok(outcome);
    }
}
