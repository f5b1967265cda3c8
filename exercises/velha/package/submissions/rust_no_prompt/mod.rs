//! Jogo da velha. The board is kept internally as a flat `[u8; 9]`
//! (`b' '`, `b'X'`, `b'O'`, index `3 * row + column`); the exam's
//! `[[char; 3]; 3]` only appears at the public boundary.

mod ai;
mod game;
mod parse;
mod rules;

pub use ai::melhor_jogada;
pub use game::jogar;
pub use parse::{extrai_coluna, extrai_linha};
pub use rules::{verifica_vencedor, verifica_vencedor_9};
