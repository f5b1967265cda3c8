//! The jogo da velha program (SPEC 3.1): a loop over a [`Console`].
//!
//! Prints the title and the empty board, then asks each seat's [`Player`] for
//! a move and prints the board after every valid one, until a line is made or
//! the board is full. The human seat validates its input here, with the exam's
//! messages; computer seats are [`crate::player::Computer`] strategies.

use std::io::{self, BufRead, Write};

use super::board::{Board, Mark, Position, Status, parse_position};
use super::render::board_block;
use crate::console::{Console, InputError};
use crate::player::Player;

/// The first line of the program.
pub const TITLE: &str = "Jogo da Velha";
/// Printed when an input is not a position; the same player is asked again.
pub const INVALID_POSITION: &str = "Posição inválida";
/// Printed when the position is taken; the same player is asked again.
pub const OCCUPIED_POSITION: &str = "Posição ocupada";

/// The last line of a finished game: `Vencedor: X`, `Vencedor: O` or `Empate`.
pub fn result_line(status: Status) -> Option<String> {
    match status {
        Status::Won(mark) => Some(format!("Vencedor: {mark}")),
        Status::Draw => Some("Empate".to_owned()),
        Status::InProgress => None,
    }
}

/// A person typing positions at the console.
#[derive(Debug, Default)]
pub struct Human;

impl Player<Board, Position> for Human {
    fn next_move(
        &mut self,
        board: &Board,
        console: &mut Console<'_>,
    ) -> Result<Position, InputError> {
        loop {
            writeln!(
                console.out,
                "Jogador {}, digite a posição (ex.: B2):",
                board.to_move()
            )?;
            let message = match console.read_line()? {
                Ok(line) => match parse_position(&line, board.size()) {
                    Ok(pos) if board.get(pos).is_none() => return Ok(pos),
                    Ok(_) => OCCUPIED_POSITION,
                    Err(_) => INVALID_POSITION,
                },
                Err(_) => INVALID_POSITION,
            };
            writeln!(console.out, "{message}")?;
        }
    }
}

/// The statement's program (EXERCISE.md, "Proficient" and "Advanced"): one
/// game between two people on the 3 x 3 board, reading positions from
/// `entrada` and printing to `saida`. Input that ends before the game does is
/// an error of kind [`io::ErrorKind::UnexpectedEof`].
pub fn jogar(entrada: &mut dyn BufRead, saida: &mut dyn Write) -> io::Result<()> {
    let mut players: [Box<dyn Player<Board, Position>>; 2] = [Box::new(Human), Box::new(Human)];
    let mut console = Console::new(entrada, saida);
    run(Board::default(), &mut players, &mut console)
        .map(|_| ())
        .map_err(InputError::into_io)
}

/// Plays one game from `board`: `players[0]` plays `X`, `players[1]` plays `O`.
/// Returns the final status (never [`Status::InProgress`]).
pub fn run(
    mut board: Board,
    players: &mut [Box<dyn Player<Board, Position> + '_>; 2],
    console: &mut Console<'_>,
) -> Result<Status, InputError> {
    writeln!(console.out, "{TITLE}")?;
    write!(console.out, "{}", board_block(&board))?;
    loop {
        if let Some(line) = result_line(board.status()) {
            writeln!(console.out, "{line}")?;
            console.out.flush()?;
            return Ok(board.status());
        }
        let mark = board.to_move();
        let seat = match mark {
            Mark::X => 0,
            Mark::O => 1,
        };
        let pos = players[seat].next_move(&board, console)?;
        // A player that answers an illegal move is a bug in that player, not
        // bad input: fail loudly in tests, but never corrupt the board.
        board
            .play(pos)
            .unwrap_or_else(|e| panic!("player {mark} chose an illegal move: {e}"));
        write!(console.out, "{}", board_block(&board))?;
    }
}
