//! Plain minimax with depth-aware scores: a win sooner scores higher, a loss
//! later scores higher (negamax form, no pruning; the 3x3 tree is small).

use super::rules::{Flat, flatten, outcome};

/// Score of `board` for `mover`, who is about to play: `10 - marks` for a
/// win reached after the winning move with `marks` marks on the board, its
/// negative for a loss, 0 for a draw.
fn score(board: &mut Flat, mover: u8) -> i32 {
    let other = if mover == b'X' { b'O' } else { b'X' };
    let mut best = i32::MIN;
    for i in 0..9 {
        if board[i] != b' ' {
            continue;
        }
        board[i] = mover;
        let value = value_after(board, other);
        board[i] = b' ';
        best = best.max(value);
    }
    best
}

/// Value, for the player who just moved, of `board`; `other` moves next.
fn value_after(board: &mut Flat, other: u8) -> i32 {
    match outcome(board) {
        b'N' => -score(board, other),
        b'E' => 0,
        _ => {
            let marks = board.iter().filter(|&&c| c != b' ').count() as i32;
            10 - marks
        }
    }
}

/// The best move `(linha, coluna)` for the player to move (`X` when both
/// have as many marks, else `O`). Panics if no cell is free.
pub fn melhor_jogada(tabuleiro: &[[char; 3]; 3]) -> (usize, usize) {
    let mut board = flatten(tabuleiro);
    let xs = board.iter().filter(|&&c| c == b'X').count();
    let os = board.iter().filter(|&&c| c == b'O').count();
    let (mover, other) = if xs == os { (b'X', b'O') } else { (b'O', b'X') };
    let mut best: Option<(i32, usize)> = None;
    for i in 0..9 {
        if board[i] != b' ' {
            continue;
        }
        board[i] = mover;
        let value = value_after(&mut board, other);
        board[i] = b' ';
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, i));
        }
    }
    let (_, cell) = best.expect("melhor_jogada: no free cell");
    (cell / 3, cell % 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_immediate_win() {
        let grid = [['X', 'X', ' '], ['O', 'O', ' '], [' ', ' ', ' ']];
        assert_eq!(melhor_jogada(&grid), (0, 2));
    }

    #[test]
    fn blocks() {
        let grid = [['X', 'X', ' '], ['O', ' ', ' '], [' ', ' ', ' ']];
        assert_eq!(melhor_jogada(&grid), (0, 2));
    }
}
