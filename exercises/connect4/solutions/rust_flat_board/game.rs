//! The game program: seats take turns until a win or a full board.

use std::io::{self, BufRead, Write};

use super::input::{Entry, WordReader};
use super::{Board, Disc, DropError};
use crate::player::Strategy;

/// Printed, exactly, before each move typed by a person.
const PROMPT: &str = "Column number? (starts at 1):";

/// Whoever sits at one side of the board.
trait Seat {
    /// The 0-based column this seat plays on `board`.
    fn pick(
        &mut self,
        board: &Board,
        words: &mut WordReader<'_>,
        out: &mut dyn Write,
    ) -> io::Result<usize>;
    /// The line announcing this seat's win.
    fn victory_line(&self) -> &'static str;
}

/// A person at the keyboard: prompts, and asks again after a bad entry.
struct Person {
    victory: &'static str,
}

impl Seat for Person {
    fn pick(
        &mut self,
        board: &Board,
        words: &mut WordReader<'_>,
        out: &mut dyn Write,
    ) -> io::Result<usize> {
        loop {
            writeln!(out, "{PROMPT}")?;
            out.flush()?;
            let complaint = match words.next_entry()? {
                Entry::Unreadable => "That line could not be read; type column numbers.".to_owned(),
                Entry::Word(word) => match word.parse::<usize>() {
                    Err(_) => format!("\"{word}\" is not a column number; try again."),
                    Ok(number) => match board.check_column(number.wrapping_sub(1)) {
                        Ok(()) => return Ok(number - 1),
                        Err(DropError::OutOfRange { cols, .. }) => {
                            format!("There is no column {number}: pick from 1 to {cols}.")
                        }
                        Err(DropError::ColumnFull { col }) => {
                            format!("No room left in column {}: pick another one.", col + 1)
                        }
                    },
                },
            };
            writeln!(out, "{complaint}")?;
        }
    }

    fn victory_line(&self) -> &'static str {
        self.victory
    }
}

/// A computer opponent: any strategy of the kit's player trait.
struct Machine<'s> {
    strategy: &'s mut dyn Strategy<Board, usize>,
}

impl Seat for Machine<'_> {
    fn pick(
        &mut self,
        board: &Board,
        _words: &mut WordReader<'_>,
        _out: &mut dyn Write,
    ) -> io::Result<usize> {
        let col = self.strategy.choose(board);
        board.check_column(col).map_err(|why| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the computer chose an unplayable column: {why}"),
            )
        })?;
        Ok(col)
    }

    fn victory_line(&self) -> &'static str {
        "Computer won!"
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
    let mut board =
        Board::new(rows, cols).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let first: Box<dyn Seat + '_> = Box::new(Person {
        victory: "Player one won!",
    });
    let second: Box<dyn Seat + '_> = match computer {
        Some(strategy) => Box::new(Machine { strategy }),
        None => Box::new(Person {
            victory: "Player two won!",
        }),
    };
    let mut seats = [first, second];
    let mut words = WordReader::new(input);

    write!(output, "{board}")?;
    loop {
        let disc = board.to_move();
        let seat = &mut seats[usize::from(disc == Disc::Two)];
        let col = seat.pick(&board, &mut words, output)?;
        let row = board
            .drop_piece(col, disc)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        write!(output, "{board}")?;
        if board.connects_four(row, col) {
            writeln!(output, "{}", seat.victory_line())?;
            break;
        }
        if board.is_full() {
            writeln!(output, "It is a draw.")?;
            break;
        }
    }
    output.flush()
}
