//! Computer players for connect four: pure [`Strategy`] values, no I/O.
//!
//! Randomness comes from a seeded [`ChaCha8Rng`], so a `--seed` replays the
//! same game on every machine.

use rand::SeedableRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

use super::board::Board;
use crate::player::Strategy;

/// Plays a uniformly random legal column.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

fn random_among(columns: &[usize], rng: &mut ChaCha8Rng) -> usize {
    *columns
        .choose(rng)
        .expect("a strategy is only asked to move on a board with a legal column")
}

impl Strategy<Board, usize> for RandomPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let legal: Vec<usize> = board.legal_columns();
        random_among(&legal, &mut self.rng)
    }
}

/// Wins at once if it can, otherwise blocks the opponent's immediate win,
/// otherwise plays at random. When several columns win (or block), one of
/// them is drawn at random too.
pub struct SmartPlayer {
    rng: ChaCha8Rng,
}

impl SmartPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy<Board, usize> for SmartPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let me = board.to_move();
        let legal: Vec<usize> = board.legal_columns();
        for disc in [me, me.other()] {
            let decisive: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| board.is_winning_drop(c, disc))
                .collect();
            if !decisive.is_empty() {
                return random_among(&decisive, &mut self.rng);
            }
        }
        random_among(&legal, &mut self.rng)
    }
}

/// Plays a move of best score (SPEC 4): a win as fast as possible, else a
/// draw, else a loss as late as possible; among equals, one drawn at random.
/// Needs a board that fits the solver's bitboard (7 x 6 does).
pub struct PerfectPlayer {
    solver: super::solver::Solver,
    /// Its early moves, computed ahead (7 x 6 only): positions of 4 to 8
    /// discs take the solver seconds to minutes.
    playbook: Option<std::sync::Arc<super::playbook::Playbook>>,
    rng: ChaCha8Rng,
}

impl PerfectPlayer {
    pub fn new(shape: super::solver::Shape, seed: u64) -> Self {
        Self {
            solver: super::solver::Solver::new(shape),
            playbook: super::playbook::Playbook::standard(shape),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy<Board, usize> for PerfectPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let position =
            super::solver::Position::from_board(board).expect("the board fits the solver");
        // In the repertoire: its one best column, at once.
        if let Some(column) = self.playbook.as_ref().and_then(|b| b.get(&position)) {
            return column;
        }
        // The first best column of a random order is a uniform draw among the
        // best ones, found with as few searches as the order allows.
        let mut order: Vec<usize> = (0..board.cols()).collect();
        order.shuffle(&mut self.rng);
        self.solver
            .first_best_column(&position, &order)
            .expect("a strategy is only asked to move on a board with a legal column")
    }
}

/// The expert level's graded function: a best column (0-based) for the side
/// to move on a board of 7 columns x 6 rows (or any board that fits 64 bits),
/// by the exact score: a win as fast as possible, else a draw, else a loss as
/// late as possible. Among equals, the column closest to the centre (the
/// left one on a tie).
///
/// # Panics
///
/// When no column can be played, or the board does not fit a bitboard.
pub fn best_move(board: &Board) -> usize {
    let shape =
        super::solver::Shape::new(board.cols(), board.rows()).expect("the board fits the solver");
    let mut solver = super::solver::Solver::with_table(shape, 1 << 20);
    let position = super::solver::Position::from_board(board).expect("the board fits the solver");
    // Centre first (twice the distance to it, in whole numbers), the left
    // column on a tie: the first best column in that order is the answer.
    let last = board.cols() - 1;
    let mut order: Vec<usize> = (0..board.cols()).collect();
    order.sort_by_key(|&c| ((2 * c).abs_diff(last), c));
    solver
        .first_best_column(&position, &order)
        .expect("a column can be played")
}
