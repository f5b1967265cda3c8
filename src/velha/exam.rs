//! The three functions of the exam's basic level, with their pinned names and
//! signatures (SPEC 3.1). Students write these; the kit grades them.
//!
//! They are thin views over the rules in [`super::board`], so the program and
//! the graded functions can never disagree.

use super::ai::Searcher;
use super::board::{Board, Mark, Status, parse_position};

/// The row index 0..=2 of a position: `"B1"` -> 1.
///
/// The row letter may be lower case and spaces may stand anywhere, as in the
/// game's input (`" c 2"` -> 2).
///
/// # Panics
///
/// When `posicao` is not a position of the 3 x 3 board (the program checks its
/// input before calling this).
pub fn extrai_linha(posicao: &str) -> usize {
    match parse_position(posicao, 3) {
        Ok(pos) => pos.row,
        Err(e) => panic!("extrai_linha({posicao:?}): {e}"),
    }
}

/// The column index 0..=2 of a position: `"B1"` -> 0.
///
/// Same input rules as [`extrai_linha`].
///
/// # Panics
///
/// When `posicao` is not a position of the 3 x 3 board.
pub fn extrai_coluna(posicao: &str) -> usize {
    match parse_position(posicao, 3) {
        Ok(pos) => pos.col,
        Err(e) => panic!("extrai_coluna({posicao:?}): {e}"),
    }
}

/// The state of a board whose cells hold `'X'`, `'O'` or `' '`:
/// `'X'` or `'O'` if that player has three in a row (a row, a column or a
/// diagonal), `'E'` (empate) if the board is full with no winner, `'N'` if
/// there is no winner and a cell is still empty.
///
/// A board completed by a winning move is a win, not a draw. On an impossible
/// board where both players have a line, `'X'` is answered.
pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {
    match Board::from_chars(tabuleiro).status() {
        Status::Won(Mark::X) => 'X',
        Status::Won(Mark::O) => 'O',
        Status::Draw => 'E',
        Status::InProgress => 'N',
    }
}

/// The exam's nine-argument form of [`verifica_vencedor`]: the cells row by
/// row, `a1` top-left to `c3` bottom-right.
#[allow(clippy::too_many_arguments)]
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

/// The expert level: the best move for the player to move (`X` if the counts
/// are equal, else `O`), as `(linha, coluna)`, 0-based.
///
/// Best means: never lose; win whenever a win can be forced, as fast as
/// possible; otherwise draw, or lose as late as possible. Among equally good
/// moves, the first in reading order (A1, A2, ..., C3).
///
/// # Panics
///
/// When the game is already over (a line is made or the board is full).
pub fn melhor_jogada(tabuleiro: &[[char; 3]; 3]) -> (usize, usize) {
    let board = Board::from_chars(tabuleiro);
    assert!(
        board.status() == Status::InProgress,
        "melhor_jogada: the game is over, there is no move to make"
    );
    let best = Searcher::new(3)
        .best_moves(&board, None)
        .into_iter()
        .min_by_key(|p| (p.row, p.col))
        .expect("a game in progress has an empty cell");
    (best.row, best.col)
}
