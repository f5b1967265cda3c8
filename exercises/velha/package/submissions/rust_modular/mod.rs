//! Jogo da velha, split in small modules:
//!
//! - [`peca`]: the `Peca` enum and the `Grade` board (`[Option<Peca>; 9]`);
//! - [`coordenada`]: parsing of typed positions;
//! - [`regras`]: who won;
//! - [`desenho`]: how the board is printed;
//! - [`leitor`]: bounded reading of input lines;
//! - [`partida`]: the two-player program;
//! - [`estrategia`]: the perfect player (memoized negamax).

mod coordenada;
mod desenho;
mod estrategia;
mod leitor;
mod partida;
mod peca;
mod regras;

pub use coordenada::{extrai_coluna, extrai_linha};
pub use estrategia::melhor_jogada;
pub use partida::jogar;
pub use regras::{verifica_vencedor, verifica_vencedor_9};
