//! Computer players for connect four: pure [`Strategy`] values, no I/O.
//!
//! Randomness comes from a seeded [`ChaCha8Rng`], so a `--seed` replays the
//! same game on every machine.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
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
        let legal: Vec<usize> = board.legal_columns().collect();
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
        let legal: Vec<usize> = board.legal_columns().collect();
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
