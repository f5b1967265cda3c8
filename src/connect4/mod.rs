//! Connect four (puissance 4), as set in a Swiss university Rust assignment.
//!
//! - [`board`]: the rules, pure, for any board from 4 x 4 to 20 x 20.
//! - [`render`]: the board as the course's testbed prints it.
//! - [`ai`]: computer players (random, smart, perfect) and `best_move`.
//! - [`solver`]: the strong solver (bitboards, negamax, null windows).
//! - [`book`]: its opening book, computed by the solver, stored in this folder.
//! - [`program`]: the game program over a console.

pub mod ai;
pub mod board;
pub mod book;
pub mod cli;
pub mod driver;
pub mod program;
pub mod render;
pub mod solver;

pub use board::{Board, Disc, DropError, SizeError};

use crate::game::{Comparison, GameInfo, Graded, Level, LevelInfo};

/// How connect four describes itself to the kit.
pub const GAME: GameInfo = GameInfo {
    id: "connect4",
    play: cli::play_with,
    answer: driver::answer,
    accepted: driver::accepted,
    function_cases: driver::cases,
    events: driver::events,
    title: "Connect four",
    levels: &[
        LevelInfo {
            level: Level::Basic,
            graded: Graded::Functions(&[
                "Board::new",
                "Board::drop_piece",
                "Board::connects_four",
                "Board::is_full",
            ]),
            comparison: Comparison::Exact,
            summary: "a board of any size: drop a piece, detect four in a row, detect a full board",
        },
        LevelInfo {
            level: Level::Proficient,
            graded: Graded::Program,
            comparison: Comparison::Exact,
            summary: "the two-player game program: board, prompt, result",
        },
        LevelInfo {
            level: Level::Advanced,
            graded: Graded::Program,
            comparison: Comparison::Exact,
            summary: "computer opponents: random, and smart (win, else block, else random)",
        },
        LevelInfo {
            level: Level::Expert,
            graded: Graded::Functions(&["ai::best_move"]),
            comparison: Comparison::Exact,
            summary: "a perfect player: best_move plays a move of best exact score",
        },
    ],
};
