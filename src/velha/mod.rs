//! Jogo da velha (tic-tac-toe), as set in a Brazilian university exam: the
//! reference, and the example solution of the exercise.
//!
//! The statement's API (EXERCISE.md) stands at this module's root:
//! [`extrai_linha`], [`extrai_coluna`], [`verifica_vencedor`],
//! [`verifica_vencedor_9`], [`jogar`] and [`melhor_jogada`]. The rest is the
//! reference's own way, free to differ in a student's folder:
//!
//! - [`board`]: the rules, pure (positions, turns, winner), for any N x N.
//! - [`ai`]: computer players, up to perfect play (negamax, alpha-beta,
//!   symmetric transposition table).
//! - [`exam`]: the graded functions, thin views over [`board`].
//! - [`render`]: the board block, byte for byte as the spec shows it.
//! - [`program`]: the game program over a console.

pub mod ai;
pub mod board;
pub mod exam;
pub mod program;
pub mod render;

pub use board::{Board, Mark, Position, Status, parse_position};
pub use exam::{
    extrai_coluna, extrai_linha, melhor_jogada, verifica_vencedor, verifica_vencedor_9,
};
pub use program::jogar;
