//! Who won: on the flat board, and the exam's two public forms.

pub(crate) type Flat = [u8; 9];

/// The eight winning lines, as flat indices.
pub(crate) const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// `b'X'`/`b'O'` for a winner (X first if both), `b'E'` for a full board,
/// `b'N'` otherwise.
pub(crate) fn outcome(board: &Flat) -> u8 {
    for mark in [b'X', b'O'] {
        if LINES.iter().any(|line| line.iter().all(|&i| board[i] == mark)) {
            return mark;
        }
    }
    if board.contains(&b' ') { b'N' } else { b'E' }
}

/// The exam's grid as a flat board; anything but `X`/`O` is treated as empty.
pub(crate) fn flatten(grid: &[[char; 3]; 3]) -> Flat {
    let mut flat = [b' '; 9];
    for (slot, &c) in flat.iter_mut().zip(grid.iter().flatten()) {
        *slot = match c {
            'X' => b'X',
            'O' => b'O',
            _ => b' ',
        };
    }
    flat
}

/// `'X'`/`'O'` if that player has three in a row, `'E'` if full, else `'N'`.
pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {
    char::from(outcome(&flatten(tabuleiro)))
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
