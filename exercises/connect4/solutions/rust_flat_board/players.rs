//! Computer opponents that draw at random: uniformly, or after looking one
//! move ahead for a win to take or a loss to stop.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::Board;
use crate::player::Strategy;

/// Plays a uniformly random open column, drawn from a `StdRng` seeded with
/// the seed it was made with.
#[derive(Debug)]
pub struct RandomPlayer {
    generator: StdRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            generator: StdRng::seed_from_u64(seed),
        }
    }

    /// One of `columns`, all equally likely (`columns` is not empty).
    fn pick_among(&mut self, columns: &[usize]) -> usize {
        columns[self.generator.random_range(0..columns.len())]
    }
}

impl Strategy<Board, usize> for RandomPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let open = board.open_columns();
        self.pick_among(&open)
    }
}

/// Wins at once if it can, else blocks the opponent's win, else random.
#[derive(Debug)]
pub struct SmartPlayer {
    dice: RandomPlayer,
}

impl SmartPlayer {
    pub fn new(seed: u64) -> SmartPlayer {
        SmartPlayer {
            dice: RandomPlayer::new(seed),
        }
    }
}

impl Strategy<Board, usize> for SmartPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let open = board.open_columns();
        let me = board.to_move();
        let winning: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| board.would_connect(c, me))
            .collect();
        if !winning.is_empty() {
            return self.dice.pick_among(&winning);
        }
        let blocking: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&c| board.would_connect(c, me.other()))
            .collect();
        if !blocking.is_empty() {
            return self.dice.pick_among(&blocking);
        }
        self.dice.pick_among(&open)
    }
}
