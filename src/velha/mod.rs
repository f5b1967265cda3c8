//! Jogo da velha (tic-tac-toe), as set in a Brazilian university exam.
//!
//! - [`board`]: the rules, pure (positions, turns, winner), for any N x N.
//! - [`ai`]: computer players, up to perfect play (negamax, alpha-beta,
//!   symmetric transposition table).
//! - [`exam`]: the graded functions of the basic level, pinned names.
//! - [`render`]: the board block, byte for byte as the spec shows it.
//! - [`program`]: the game program over a console.

pub mod ai;
pub mod board;
pub mod cli;
pub mod driver;
pub mod exam;
pub mod program;
pub mod render;

pub use board::{Board, Mark, Position, Status, parse_position};
pub use exam::{
    extrai_coluna, extrai_linha, melhor_jogada, verifica_vencedor, verifica_vencedor_9,
};

use crate::game::{Comparison, GameInfo, Graded, Level, LevelInfo};

/// How jogo da velha describes itself to the kit.
pub const GAME: GameInfo = GameInfo {
    id: "velha",
    play: cli::play_with,
    answer: driver::answer,
    accepted: driver::accepted,
    function_cases: driver::cases,
    events: driver::events,
    title: "Jogo da velha",
    levels: &[
        LevelInfo {
            level: Level::Basic,
            graded: Graded::Functions(&["extrai_linha", "extrai_coluna", "verifica_vencedor"]),
            comparison: Comparison::Exact,
            summary: "the functions extrai_linha, extrai_coluna and verifica_vencedor",
        },
        LevelInfo {
            level: Level::Proficient,
            graded: Graded::Program,
            comparison: Comparison::Events,
            summary: "the game program with valid input: title, boards, result",
        },
        LevelInfo {
            level: Level::Advanced,
            graded: Graded::Program,
            comparison: Comparison::Events,
            summary: "input validation: Posição inválida, Posição ocupada, case and spaces",
        },
        LevelInfo {
            level: Level::Expert,
            graded: Graded::Functions(&["melhor_jogada"]),
            comparison: Comparison::Exact,
            summary: "an unbeatable AI: melhor_jogada never loses and wins whenever it can",
        },
    ],
};
