//! Jogo da velha in the browser.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use serde::Deserialize;

use super::{GameError, Table, WebTable, illegal, invalid};
use crate::opponents::{self, velha::Computer as VelhaComputer};
use crate::web::api::{BoardView, GameView, Move, Opponent};
use clap::ValueEnum;

use boardkit::player::Strategy;
use boardkit::velha;

/// Velha in the browser.
pub(crate) const GAME: WebTable = WebTable {
    id: "velha",
    title: "Jogo da velha",
    markup: include_str!("../page/velha.html"),
    script: include_str!("../page/velha.js"),
    new: |request, seed| {
        let request: NewVelha = super::options(request)?;
        Ok(Box::new(VelhaTable::new(
            request.size,
            request.opponent.as_deref(),
            request.computer_first,
            request.seed.unwrap_or(seed),
        )?))
    },
};

/// A velha move: the cell, from 0, row 0 at the top.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VelhaMove {
    row: usize,
    col: usize,
}

/// `POST /api/games` with `"game": "velha"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewVelha {
    /// The board's side, 3 (default) to 9.
    #[serde(default = "default_size")]
    size: usize,
    /// `easy`, `medium` or `hard`; absent or null: two players.
    #[serde(default)]
    opponent: Option<String>,
    /// The computer plays X and moves first.
    #[serde(default)]
    computer_first: bool,
    /// Makes the computer's random choices reproducible.
    #[serde(default)]
    seed: Option<u64>,
}

fn default_size() -> usize {
    3
}

/// Velha's computer called `name`.
fn velha_level(name: &str) -> Result<VelhaComputer, GameError> {
    match opponents::parse(name) {
        Some(level) => Ok(level),
        None => invalid(format!(
            "unknown velha level {name:?}: choose {}",
            opponents::names(VelhaComputer::value_variants())
        )),
    }
}

fn mark_char(mark: velha::Mark) -> char {
    mark.as_char()
}
/// A velha game in the browser: two people, or a person and the computer.
#[derive(Debug)]
pub(crate) struct VelhaTable {
    board: velha::Board,
    /// The computer's level and mark, if it plays.
    computer: Option<(VelhaComputer, velha::Mark)>,
    last: Option<velha::Position>,
    computer_last: Option<velha::Position>,
    rng: ChaCha8Rng,
}

impl VelhaTable {
    pub(super) fn new(
        size: usize,
        opponent: Option<&str>,
        computer_first: bool,
        seed: u64,
    ) -> Result<VelhaTable, GameError> {
        let board = velha::Board::new(size).map_err(|e| GameError::Invalid(e.to_string()))?;
        let computer = match opponent {
            None => {
                if computer_first {
                    return invalid("computer_first needs an opponent");
                }
                None
            }
            Some(name) => Some((
                velha_level(name)?,
                if computer_first {
                    velha::Mark::X
                } else {
                    velha::Mark::O
                },
            )),
        };
        Ok(VelhaTable {
            board,
            computer,
            last: None,
            computer_last: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn board_view(&self) -> BoardView {
        let n = self.board.size();
        let cell = |row, col| self.board.get(velha::Position { row, col }).map(mark_char);
        let status = self.board.status();
        let winning = opponents::velha::winning_cells(&self.board);
        let marks = self.board.marks();
        BoardView {
            rows: n,
            cols: n,
            cells: (0..n)
                .map(|row| (0..n).map(|col| cell(row, col)).collect())
                .collect(),
            turn: (status == velha::Status::InProgress).then(|| mark_char(self.board.to_move())),
            over: status != velha::Status::InProgress,
            winner: match status {
                velha::Status::Won(mark) => Some(mark_char(mark)),
                _ => None,
            },
            result: velha::program::result_line(status),
            computer: self.computer.map(|(level, mark)| Opponent {
                level: opponents::name(level),
                mark: mark_char(mark),
            }),
            last_move: self.last.map(|p| [p.row, p.col]),
            computer_move: self.computer_last.map(|p| [p.row, p.col]),
            winning_cells: (0..n * n)
                .filter(|i| winning >> i & 1 == 1)
                .map(|i| [i / n, i % n])
                .collect(),
            moves: marks,
        }
    }
}

impl Table for VelhaTable {
    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let VelhaMove { row, col } = super::move_as(
            request,
            "a velha move is {\"row\": R, \"col\": C}, both from 0",
        )?;
        let size = self.board.size();
        if row >= size || col >= size {
            return invalid(format!(
                "row {row}, col {col} is off the {size} x {size} board"
            ));
        }
        if self.computer_to_move() {
            return illegal("it is the computer's turn");
        }
        let pos = velha::Position { row, col };
        self.board
            .play(pos)
            .map_err(|e| GameError::Illegal(e.to_string()))?;
        self.last = Some(pos);
        Ok(())
    }

    fn computer_to_move(&self) -> bool {
        self.board.status() == velha::Status::InProgress
            && self
                .computer
                .is_some_and(|(_, mark)| mark == self.board.to_move())
    }

    fn play_computer(&mut self) {
        let Some((level, _)) = self.computer.filter(|_| self.computer_to_move()) else {
            return;
        };
        let pos = level.player(self.rng.next_u64()).choose(&self.board);
        self.board
            .play(pos)
            .expect("the computer plays an empty cell of a game in progress");
        self.last = Some(pos);
        self.computer_last = Some(pos);
    }

    fn view(&self) -> GameView {
        super::tagged(GAME.id, self.board_view())
    }
}
