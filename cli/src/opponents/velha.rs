//! Jogo da velha for every front end: its computer opponents and the cells
//! of a win.

use boardkit::velha::ai::Difficulty;
use boardkit::velha::board::winning_lines;
use boardkit::velha::{Board, Position, Status};

/// The computer opponents (`--ai`, the menu, the browser's `opponent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Computer {
    /// Uniformly random empty cells.
    Easy,
    /// Takes a win in one, blocks a loss in one.
    Medium,
    /// Perfect play: never loses, wins whenever it can, fastest win first.
    Hard,
}

impl Computer {
    /// The reference's AI of this level.
    pub(crate) fn difficulty(self) -> Difficulty {
        match self {
            Computer::Easy => Difficulty::Easy,
            Computer::Medium => Difficulty::Medium,
            Computer::Hard => Difficulty::Hard,
        }
    }

    /// The player, drawing its random choices from `seed`.
    pub(crate) fn player(self, seed: u64) -> boardkit::velha::ai::Computer {
        boardkit::velha::ai::Computer::new(self.difficulty(), seed)
    }
}

/// The game's mode as the scoreboard records it (`3x3 vs hard (computer
/// first)`, `4x4 two players`), for `play` and the full screen alike.
pub(crate) fn mode(size: usize, opponent: Option<(Computer, bool)>) -> String {
    match opponent {
        Some((level, computer_first)) => {
            let first = if computer_first {
                " (computer first)"
            } else {
                ""
            };
            format!("{size}x{size} vs {}{first}", super::name(level))
        }
        None => format!("{size}x{size} two players"),
    }
}

/// The cells of a whole line of one mark, if the game is won, as a mask
/// (bit `row * size + col`).
pub(crate) fn winning_cells(board: &Board) -> u128 {
    let n = board.size();
    let Status::Won(mark) = board.status() else {
        return 0;
    };
    winning_lines(n)
        .iter()
        .filter(|&&line| {
            (0..n * n).filter(|i| line >> i & 1 == 1).all(|i| {
                board.get(Position {
                    row: i / n,
                    col: i % n,
                }) == Some(mark)
            })
        })
        .fold(0, |all, line| all | line)
}
