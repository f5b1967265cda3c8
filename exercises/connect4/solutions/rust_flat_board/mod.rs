//! Connect four, split into small modules:
//!
//! - [`board`]: the grid of any size (a flat vector of cells) and its drawing;
//! - [`input`]: a bounded, token-by-token reader of the player's columns;
//! - [`game`]: the game loop, where every seat (person or computer) is alike;
//! - [`players`]: the random and the smart computer opponents;
//! - [`solver`]: the perfect player on 7 x 6 (bitboards, negamax, bounds table).

mod board;
mod game;
mod input;
mod players;
mod solver;

pub use crate::given::connect4::{Disc, DropError, MAX_SIDE, MIN_SIDE, SizeError};

pub use board::Board;
pub use game::play;
pub use players::{RandomPlayer, SmartPlayer};
pub use solver::best_move;
