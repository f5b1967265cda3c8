//! Connect four in the browser.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use serde::Deserialize;

use super::{GameError, Table, WebTable, illegal, invalid};
use crate::opponents::{self, connect4::Computer as Connect4Computer};
use crate::web::api::{BoardView, Cell, GameView, Move, Opponent};
use clap::ValueEnum;

use boardkit::connect4;
use boardkit::connect4::solver::Shape;
use boardkit::player::Strategy;

fn disc_char(disc: connect4::Disc) -> char {
    match disc {
        connect4::Disc::One => 'X',
        connect4::Disc::Two => 'O',
    }
}

/// Connect four in the browser.
pub(crate) const GAME: WebTable = WebTable {
    id: "connect4",
    title: "Connect four",
    markup: include_str!("../page/connect4.html"),
    script: include_str!("../page/connect4.js"),
    new: |request, seed| {
        let request: NewConnect4 = super::options(request)?;
        Ok(Box::new(Connect4Table::new(
            request.rows,
            request.cols,
            request.opponent.as_deref(),
            request.computer_first,
            request.seed.unwrap_or(seed),
        )?))
    },
};

/// A connect-four move: the column, from 0.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Connect4Move {
    col: usize,
}

/// `POST /api/games` with `"game": "connect4"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewConnect4 {
    /// Rows, 4 to 20 (default 6).
    #[serde(default = "default_rows")]
    rows: usize,
    /// Columns, 4 to 20 (default 7).
    #[serde(default = "default_cols")]
    cols: usize,
    /// `random`, `smart` or `perfect` (7 x 6 only); absent or null: two
    /// players.
    #[serde(default)]
    opponent: Option<String>,
    /// The computer plays X and moves first.
    #[serde(default)]
    computer_first: bool,
    /// Makes the computer's random choices reproducible.
    #[serde(default)]
    seed: Option<u64>,
}

fn default_rows() -> usize {
    6
}

fn default_cols() -> usize {
    7
}

/// A connect-four game in the browser.
#[derive(Debug)]
pub(crate) struct Connect4Table {
    board: connect4::Board,
    computer: Option<(Connect4Computer, connect4::Disc)>,
    /// The last disc, `(row, col)` with row 0 at the bottom (the library's).
    last: Option<(usize, usize)>,
    computer_last: Option<(usize, usize)>,
    rng: ChaCha8Rng,
}

impl Connect4Table {
    pub(super) fn new(
        rows: usize,
        cols: usize,
        opponent: Option<&str>,
        computer_first: bool,
        seed: u64,
    ) -> Result<Connect4Table, GameError> {
        let board =
            connect4::Board::new(rows, cols).map_err(|e| GameError::Invalid(e.to_string()))?;
        let computer = match opponent {
            None => {
                if computer_first {
                    return invalid("computer_first needs an opponent");
                }
                None
            }
            Some(name) => {
                let offered = opponents::connect4::offered(cols, rows);
                let Some(level) = opponents::parse::<Connect4Computer>(name) else {
                    return invalid(format!(
                        "unknown connect-four level {name:?}: choose {}",
                        opponents::names(Connect4Computer::value_variants())
                    ));
                };
                if !offered.contains(&level) {
                    return invalid(format!(
                        "the {name} player plays 7 columns x 6 rows only, not {cols} x {rows}"
                    ));
                }
                let disc = if computer_first {
                    connect4::Disc::One
                } else {
                    connect4::Disc::Two
                };
                Some((level, disc))
            }
        };
        Ok(Connect4Table {
            board,
            computer,
            last: None,
            computer_last: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn is_over(&self) -> bool {
        self.winning().is_some() || self.board.is_full()
    }

    /// The winning disc's cell, if the last disc made four in a row.
    fn winning(&self) -> Option<(usize, usize)> {
        self.last
            .filter(|&(row, col)| self.board.connects_four(row, col))
    }

    fn drop_disc(&mut self, col: usize) -> Result<(), GameError> {
        let row = self
            .board
            .play(col)
            .map_err(|e| GameError::Illegal(e.to_string()))?;
        self.last = Some((row, col));
        Ok(())
    }

    fn board_view(&self) -> BoardView {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        // Rows top first, as drawn.
        let drawn = |(row, col): (usize, usize)| [rows - 1 - row, col];
        let winner = self.winning().and_then(|(r, c)| self.board.get(r, c));
        let over = self.is_over();
        let result = if !over {
            None
        } else {
            use connect4::program::{DRAW, Seat};
            Some(
                match (winner, self.computer) {
                    (None, _) => DRAW,
                    (Some(w), Some((_, computer))) if w == computer => Seat::Computer.win_line(),
                    // Against the computer, the person is player one.
                    (Some(_), Some(_)) | (Some(connect4::Disc::One), None) => {
                        Seat::PlayerOne.win_line()
                    }
                    (Some(connect4::Disc::Two), None) => Seat::PlayerTwo.win_line(),
                }
                .to_owned(),
            )
        };
        BoardView {
            rows,
            cols,
            cells: (0..rows)
                .rev()
                .map(|row| {
                    (0..cols)
                        .map(|col| self.board.get(row, col).map(disc_char))
                        .collect()
                })
                .collect(),
            turn: (!over).then(|| disc_char(self.board.to_move())),
            over,
            winner: winner.map(disc_char),
            result,
            computer: self.computer.map(|(level, disc)| Opponent {
                level: opponents::name(level),
                mark: disc_char(disc),
            }),
            last_move: self.last.map(drawn),
            computer_move: self.computer_last.map(drawn),
            winning_cells: self
                .winning()
                .map(|(r, c)| opponents::connect4::winning_cells(&self.board, r, c))
                .unwrap_or_default()
                .into_iter()
                .map(drawn)
                .collect::<Vec<Cell>>(),
            moves: self.board.discs(),
        }
    }
}

impl Table for Connect4Table {
    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let Connect4Move { col } =
            super::move_as(request, "a connect-four move is {\"col\": C}, from 0")?;
        if col >= self.board.cols() {
            return invalid(format!(
                "column {col} does not exist: the columns are 0 to {}",
                self.board.cols() - 1
            ));
        }
        if self.is_over() {
            return illegal("the game is over");
        }
        if self.computer_to_move() {
            return illegal("it is the computer's turn");
        }
        self.drop_disc(col)
    }

    fn computer_to_move(&self) -> bool {
        !self.is_over()
            && self
                .computer
                .is_some_and(|(_, disc)| disc == self.board.to_move())
    }

    fn play_computer(&mut self) {
        let Some((level, _)) = self.computer.filter(|_| self.computer_to_move()) else {
            return;
        };
        let seed = self.rng.next_u64();
        // Only 7 x 6 offers the perfect player (`opponents::connect4::offered`).
        let col = opponents::connect4::player(level, Shape::standard(), seed).choose(&self.board);
        self.drop_disc(col)
            .expect("the computer plays a legal column of a game in progress");
        self.computer_last = self.last;
    }

    fn view(&self) -> GameView {
        super::tagged(GAME.id, self.board_view())
    }
}
