//! Connect four (puissance 4), as set in a Swiss university Rust assignment:
//! the reference, and the example solution of the exercise.
//!
//! The statement's API (EXERCISE.md) stands at this module's root: [`Board`]
//! (`new`, `drop_piece`, `connects_four`, `is_full`), the given items
//! ([`Disc`], [`SizeError`], [`DropError`], [`MIN_SIDE`], [`MAX_SIDE`]),
//! [`play`], [`RandomPlayer`], [`SmartPlayer`] and [`best_move`], as the
//! starter's stub exports them. The rest is the reference's own way:
//!
//! - [`board`]: the rules, pure, for any board from 4 x 4 to 20 x 20.
//! - [`render`]: the board as the course's testbed prints it.
//! - [`ai`]: computer players (random, smart, perfect) and `best_move`.
//! - [`solver`]: the strong solver (bitboards, negamax, null windows).
//! - [`book`]: its opening book, computed by the solver, stored in this folder.
//! - [`playbook`]: the perfect player's repertoire of early moves, likewise.
//! - [`program`]: the game program over a console.

pub mod ai;
pub mod board;
pub mod book;
pub mod playbook;
pub mod program;
pub mod render;
pub mod solver;

pub use ai::{RandomPlayer, SmartPlayer, best_move};
pub use board::{Board, Disc, DropError, MAX_SIDE, MIN_SIDE, SizeError};
pub use program::play;
