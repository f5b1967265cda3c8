//! Connect four over the network.

use super::{AnyRules, BoardFlags, IllegalMove, MoveCode, NetworkGame, Rules};
use crate::net::protocol::{Options, Side, Status};
use crate::play::paint::Palette;
use crate::play::session::Language;
use boardkit::connect4;
use boardkit::console::{Console, InputError};
use boardkit::player::Player;

/// Connect four on a `rows` x `cols` board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Connect4 {
    rows: usize,
    cols: usize,
}

impl Connect4 {
    /// The rules for a board the library plays (4 to 20 a side), else `None`.
    pub(crate) fn new(rows: usize, cols: usize) -> Option<Connect4> {
        connect4::Board::new(rows, cols)
            .ok()
            .map(|_| Connect4 { rows, cols })
    }
}

/// Connect four as network play has it (its registry entry's).
pub(crate) static NETWORK: NetworkGame = NetworkGame {
    id: "connect4",
    language: Language::English,
    options_of: |flags| match flags {
        BoardFlags { size: Some(_), .. } => {
            Err("connect4 takes --rows and --cols, not --size".into())
        }
        BoardFlags { rows, cols, .. } => Ok(Options {
            rows: Some(rows.map_or(6, u32::from)),
            cols: Some(cols.map_or(7, u32::from)),
            ..Options::default()
        }),
    },
    rules: |options| match options {
        Options {
            size: None,
            rows: Some(rows),
            cols: Some(cols),
        } => Connect4::new(rows as usize, cols as usize).map(AnyRules::of),
        _ => None,
    },
};

/// A column, from 0.
impl MoveCode for usize {
    fn code(self) -> u32 {
        self as u32
    }
    fn from_code(code: u32) -> Option<usize> {
        Some(code as usize)
    }
}

impl Rules for Connect4 {
    type Board = connect4::Board;
    /// The column, from 0.
    type Move = usize;

    fn network(&self) -> &'static NetworkGame {
        &NETWORK
    }

    fn options(&self) -> Options {
        Options {
            rows: Some(self.rows as u32),
            cols: Some(self.cols as u32),
            ..Options::default()
        }
    }

    fn language(&self) -> Language {
        Language::English
    }

    fn title(&self) -> Option<&'static str> {
        None
    }

    fn empty(&self) -> connect4::Board {
        connect4::Board::new(self.rows, self.cols).expect("Connect4::new checked the size")
    }

    fn parse(&self, notation: &str) -> Result<usize, IllegalMove> {
        match notation.parse::<usize>() {
            Ok(n) if (1..=self.cols).contains(&n) => Ok(n - 1),
            Ok(column) => Err(IllegalMove::NoColumn {
                column,
                cols: self.cols,
            }),
            Err(_) => Err(IllegalMove::NotAColumn),
        }
    }

    fn notation(&self, play: usize) -> String {
        (play + 1).to_string()
    }

    fn play(&self, board: &mut connect4::Board, col: usize) -> Result<Status, IllegalMove> {
        let disc = board.to_move();
        let row = board
            .play(col)
            .map_err(|e| IllegalMove::Rule(e.to_string()))?;
        Ok(if board.connects_four(row, col) {
            Status::won_by(match disc {
                connect4::Disc::One => Side::X,
                connect4::Disc::Two => Side::O,
            })
        } else if board.is_full() {
            Status::Draw
        } else {
            Status::Playing
        })
    }

    fn ask(&self, board: &connect4::Board, console: &mut Console<'_>) -> Result<usize, InputError> {
        connect4::program::Human.next_move(board, console)
    }

    fn draw(&self, board: &connect4::Board, last: Option<usize>, palette: Palette) -> String {
        // The last disc is the top one of the last column played.
        let last = last.and_then(|col| Some((board.height(col).checked_sub(1)?, col)));
        crate::play::connect4::painted_board(board, last, palette)
    }

    fn result_line(&self, status: Status) -> String {
        use connect4::program::{DRAW, Seat};
        match status {
            Status::XWon => Seat::PlayerOne.win_line().to_owned(),
            Status::OWon => Seat::PlayerTwo.win_line().to_owned(),
            Status::Draw => DRAW.to_owned(),
            Status::Playing => String::new(),
        }
    }

    fn announce(&self, col: usize) -> String {
        format!("The opponent played column {}.", col + 1)
    }
}
