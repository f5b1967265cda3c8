//! Mastermind: break a secret code of coloured pegs.
//!
//! - [`code`]: the rules, pure: codes, guess parsing, scoring, secrets.
//! - [`program`]: the game program over a console.
//! - [`solver`]: codebreakers (Knuth, most parts, expected size, entropy).

pub mod cli;
pub mod code;
pub mod driver;
pub mod program;
pub mod solver;

pub use code::{Code, GuessError, Rules, Score, parse_guess, random_secret, score};

use crate::game::{Comparison, GameInfo, Graded, Level, LevelInfo};

/// How Mastermind describes itself to the kit.
pub const GAME: GameInfo = GameInfo {
    id: "mastermind",
    play: cli::play_with,
    answer: driver::answer,
    accepted: driver::accepted,
    function_cases: driver::cases,
    events: driver::events,
    title: "Mastermind",
    levels: &[
        LevelInfo {
            level: Level::Basic,
            graded: Graded::Functions(&["score", "random_secret", "parse_guess"]),
            comparison: Comparison::Exact,
            summary: "score a guess (black and white pegs), generate a secret, parse a guess",
        },
        LevelInfo {
            level: Level::Proficient,
            graded: Graded::Program,
            comparison: Comparison::Events,
            summary: "the game program: 10 turns, feedback, result",
        },
        LevelInfo {
            level: Level::Advanced,
            graded: Graded::Program,
            comparison: Comparison::Events,
            summary: "input validation: wrong length, unknown colour, re-ask without losing a turn",
        },
        LevelInfo {
            level: Level::Expert,
            graded: Graded::Functions(&["solver::codebreaker"]),
            comparison: Comparison::Exact,
            summary: "a codebreaker that finds any secret in at most 5 guesses",
        },
    ],
};
