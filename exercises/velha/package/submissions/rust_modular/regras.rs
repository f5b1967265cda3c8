//! The result of a board.

use super::peca::{achatar, Grade, Peca, TRINCAS};

/// The player holding a full line, `X` first when both do.
pub fn dono_de_trinca(grade: &Grade) -> Option<Peca> {
    [Peca::Xis, Peca::Bola].into_iter().find(|&p| {
        TRINCAS
            .iter()
            .any(|trinca| trinca.iter().all(|&i| grade[i] == Some(p)))
    })
}

/// `'X'`, `'O'`, `'E'` or `'N'` for a flat board.
pub fn situacao(grade: &Grade) -> char {
    match dono_de_trinca(grade) {
        Some(p) => p.simbolo(),
        None if grade.iter().all(Option::is_some) => 'E',
        None => 'N',
    }
}

/// `'X'` or `'O'` if that player has three in a row, `'E'` if the board is
/// full with no winner, `'N'` if nobody has won and a cell is empty.
pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {
    situacao(&achatar(tabuleiro))
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
    verifica_vencedor(&[[a1, a2, a3], [b1, b2, b3], [c1, c2, c3]])
}
