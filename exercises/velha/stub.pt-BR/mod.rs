//! Jogo da velha: o seu código. Tudo nesta pasta é seu; escreva as funções
//! abaixo (EXERCISE.md, "Jogo da velha") e acrescente as funções auxiliares,
//! os tipos e os módulos que quiser.

use std::io::{self, BufRead, Write};

/// O índice 0..=2 da linha de uma posição: `"B1"` -> 1. A letra pode ser
/// minúscula e pode haver espaços em qualquer lugar (`" b 1 "` -> 1).
pub fn extrai_linha(posicao: &str) -> usize {
    todo!("extrai_linha({posicao:?}): veja EXERCISE.md, Jogo da velha, Básico")
}

/// O índice 0..=2 da coluna de uma posição: `"B1"` -> 0.
pub fn extrai_coluna(posicao: &str) -> usize {
    todo!("extrai_coluna({posicao:?}): veja EXERCISE.md, Jogo da velha, Básico")
}

/// `'X'` ou `'O'` se esse jogador tem três em linha, `'E'` se o tabuleiro
/// está cheio sem vencedor, `'N'` se ninguém venceu e há casa vazia.
pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {
    todo!("verifica_vencedor({tabuleiro:?}): veja EXERCISE.md, Jogo da velha, Básico")
}

/// [`verifica_vencedor`] com um argumento por casa, de `a1` a `c3`.
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
    todo!("verifica_vencedor_9({cells:?}): veja EXERCISE.md, Jogo da velha, Básico")
}

/// Uma partida entre duas pessoas: posições lidas de `entrada`, tudo
/// impresso em `saida`. Um erro quando a entrada acaba antes do jogo.
pub fn jogar(entrada: &mut dyn BufRead, saida: &mut dyn Write) -> io::Result<()> {
    let _ = (entrada, saida);
    todo!("jogar: veja EXERCISE.md, Jogo da velha, Proficiente")
}

/// A melhor jogada `(linha, coluna)` para quem joga: nunca perder, vencer
/// o mais rápido possível, perder o mais tarde possível.
pub fn melhor_jogada(tabuleiro: &[[char; 3]; 3]) -> (usize, usize) {
    todo!("melhor_jogada({tabuleiro:?}): veja EXERCISE.md, Jogo da velha, Especialista")
}
