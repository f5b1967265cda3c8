//! Jogo da velha for every front end: its computer opponents and the cells
//! of a win.

use boardkit::player::Strategy;
use boardkit::velha::ai::Searcher;
use boardkit::velha::board::winning_lines;
use boardkit::velha::{Board, Position, Status};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

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
    /// The player, drawing its random choices from `seed`.
    pub(crate) fn player(self, seed: u64) -> ComputerPlayer {
        ComputerPlayer {
            level: self,
            rng: ChaCha8Rng::seed_from_u64(seed),
            searcher: None,
        }
    }
}

/// Boards of this size or less are searched to the end by `Hard`.
const EXACT_MAX_SIZE: usize = 4;
/// Plies searched by `Hard` on boards too large to solve.
const DEEP_PLIES: u32 = 4;
const MEDIUM_PLIES: u32 = 2;

/// A computer opponent of one level, on the reference's [`Searcher`]; ties
/// between moves of one score are broken by a seeded draw. Pure: no I/O.
pub(crate) struct ComputerPlayer {
    level: Computer,
    rng: ChaCha8Rng,
    searcher: Option<Searcher>,
}

impl Strategy<Board, Position> for ComputerPlayer {
    fn choose(&mut self, board: &Board) -> Position {
        let size = board.size();
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(size));
        let candidates = match self.level {
            Computer::Easy => board.empty_cells(),
            Computer::Medium => searcher.best_moves(board, Some(MEDIUM_PLIES)),
            Computer::Hard if size <= EXACT_MAX_SIZE => searcher.best_moves(board, None),
            Computer::Hard => searcher.best_moves(board, Some(DEEP_PLIES)),
        };
        *candidates
            .choose(&mut self.rng)
            .expect("asked to move on a board with an empty cell")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position a 3 x 3 game can reach that is still in progress.
    fn positions() -> Vec<Board> {
        fn walk(board: Board, seen: &mut std::collections::HashSet<Board>, out: &mut Vec<Board>) {
            if !seen.insert(board) || board.status() != Status::InProgress {
                return;
            }
            out.push(board);
            for pos in board.empty_cells() {
                walk(board.with_move(pos), seen, out);
            }
        }
        let mut out = Vec::new();
        walk(Board::default(), &mut Default::default(), &mut out);
        out
    }

    #[test]
    fn hard_plays_a_best_move_and_medium_takes_every_win_whatever_the_seed() {
        let positions = positions();
        assert_eq!(positions.len(), 4520);
        let mut searcher = Searcher::new(3);
        for seed in 0..3 {
            let mut hard = Computer::Hard.player(seed);
            let mut medium = Computer::Medium.player(seed);
            for board in &positions {
                let best = searcher.best_moves(board, None);
                let played = hard.choose(board);
                assert!(best.contains(&played), "hard played {played} on {board:?}");
                let me = board.to_move();
                let wins: Vec<_> = board
                    .empty_cells()
                    .into_iter()
                    .filter(|&p| board.with_move(p).status() == Status::Won(me))
                    .collect();
                if !wins.is_empty() {
                    let played = medium.choose(board);
                    assert!(wins.contains(&played), "medium missed a win on {board:?}");
                }
            }
        }
    }
}
