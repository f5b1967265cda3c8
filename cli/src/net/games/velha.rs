//! Jogo da velha over the network.

use super::{AnyRules, BoardFlags, IllegalMove, MoveCode, NetworkGame, Rules};
use crate::net::protocol::{Options, Status};
use crate::play::paint::Palette;
use crate::play::session::Language;
use boardkit::console::{Console, InputError};
use boardkit::player::Player;
use boardkit::velha;

/// Jogo da velha on a `size` x `size` board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Velha {
    size: usize,
}

impl Velha {
    /// The rules for a side the library plays (3 to 9), else `None`.
    pub(crate) fn new(size: usize) -> Option<Velha> {
        velha::Board::new(size).ok().map(|_| Velha { size })
    }
}

fn velha_status(status: velha::Status) -> Status {
    match status {
        velha::Status::Won(velha::Mark::X) => Status::XWon,
        velha::Status::Won(velha::Mark::O) => Status::OWon,
        velha::Status::Draw => Status::Draw,
        velha::Status::InProgress => Status::Playing,
    }
}

/// Jogo da velha as network play has it (its registry entry's).
pub(crate) static NETWORK: NetworkGame = NetworkGame {
    id: "velha",
    language: Language::Portuguese,
    options_of: |flags| match flags {
        BoardFlags {
            rows: None,
            cols: None,
            size,
        } => Ok(Options {
            size: Some(size.map_or(3, u32::from)),
            ..Options::default()
        }),
        _ => Err("velha takes --size, not --rows or --cols".into()),
    },
    rules: |options| match options {
        Options {
            size: Some(size),
            rows: None,
            cols: None,
        } => Velha::new(size as usize).map(AnyRules::of),
        _ => None,
    },
};

/// A cell as row and column, a byte each.
impl MoveCode for velha::Position {
    fn code(self) -> u32 {
        (self.row as u32) << 8 | self.col as u32
    }
    fn from_code(code: u32) -> Option<velha::Position> {
        Some(velha::Position {
            row: (code >> 8) as usize,
            col: (code & 0xff) as usize,
        })
    }
}

impl Rules for Velha {
    type Board = velha::Board;
    type Move = velha::Position;

    fn network(&self) -> &'static NetworkGame {
        &NETWORK
    }

    fn options(&self) -> Options {
        Options {
            size: Some(self.size as u32),
            ..Options::default()
        }
    }

    fn language(&self) -> Language {
        Language::Portuguese
    }

    fn title(&self) -> Option<&'static str> {
        Some(velha::program::TITLE)
    }

    fn empty(&self) -> velha::Board {
        velha::Board::new(self.size).expect("Velha::new checked the size")
    }

    fn parse(&self, notation: &str) -> Result<velha::Position, IllegalMove> {
        velha::parse_position(notation, self.size).map_err(|e| IllegalMove::Rule(e.to_string()))
    }

    fn notation(&self, play: velha::Position) -> String {
        play.to_string()
    }

    fn play(&self, board: &mut velha::Board, play: velha::Position) -> Result<Status, IllegalMove> {
        board
            .play(play)
            .map_err(|e| IllegalMove::Rule(e.to_string()))?;
        Ok(velha_status(board.status()))
    }

    fn ask(
        &self,
        board: &velha::Board,
        console: &mut Console<'_>,
    ) -> Result<velha::Position, InputError> {
        velha::program::Human.next_move(board, console)
    }

    fn draw(
        &self,
        board: &velha::Board,
        last: Option<velha::Position>,
        palette: Palette,
    ) -> String {
        crate::play::velha::painted_board(board, last, palette)
    }

    fn result_line(&self, status: Status) -> String {
        let status = match status {
            Status::XWon => velha::Status::Won(velha::Mark::X),
            Status::OWon => velha::Status::Won(velha::Mark::O),
            Status::Draw => velha::Status::Draw,
            Status::Playing => velha::Status::InProgress,
        };
        velha::program::result_line(status).unwrap_or_default()
    }

    fn announce(&self, play: velha::Position) -> String {
        format!("O adversário jogou em {play}.")
    }
}
