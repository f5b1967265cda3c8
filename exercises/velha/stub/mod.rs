//! Jogo da velha: your code. Everything in this folder is yours; write the
//! functions below (EXERCISE.md, "Jogo da velha"), and add any helpers,
//! types and modules you like.

use std::io::{self, BufRead, Write};

/// The row index 0..=2 of a position: `"B1"` -> 1. The letter may be lower
/// case and spaces may stand anywhere (`" b 1 "` -> 1).
pub fn extrai_linha(posicao: &str) -> usize {
    todo!("extrai_linha({posicao:?}): see EXERCISE.md, Jogo da velha, Basic")
}

/// The column index 0..=2 of a position: `"B1"` -> 0.
pub fn extrai_coluna(posicao: &str) -> usize {
    todo!("extrai_coluna({posicao:?}): see EXERCISE.md, Jogo da velha, Basic")
}

/// `'X'` or `'O'` if that player has three in a row, `'E'` if the board is
/// full with no winner, `'N'` if nobody has won and a cell is empty.
pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {
    todo!("verifica_vencedor({tabuleiro:?}): see EXERCISE.md, Jogo da velha, Basic")
}

/// [`verifica_vencedor`] with one argument per cell, `a1` to `c3`.
#[allow(clippy::too_many_arguments)] // the exam's signature
pub fn verifica_vencedor_9(
    a1: char,
    a2: char,
    a3: char,
    b1: char,
    b2: char,
    b3: char,
    c1: char,
    c2: char,
    c3: char,
) -> char {
    let cells = [a1, a2, a3, b1, b2, b3, c1, c2, c3];
    todo!("verifica_vencedor_9({cells:?}): see EXERCISE.md, Jogo da velha, Basic")
}

/// One game between two people: positions read from `entrada`, everything
/// printed to `saida`. An error when the input ends before the game does.
pub fn jogar(entrada: &mut dyn BufRead, saida: &mut dyn Write) -> io::Result<()> {
    let _ = (entrada, saida);
    todo!("jogar: see EXERCISE.md, Jogo da velha, Proficient")
}

/// The best move `(linha, coluna)` for the player to move: never lose, win
/// as fast as possible, lose as late as possible.
pub fn melhor_jogada(tabuleiro: &[[char; 3]; 3]) -> (usize, usize) {
    todo!("melhor_jogada({tabuleiro:?}): see EXERCISE.md, Jogo da velha, Expert")
}
