//! A thin suite: one board, one position.

#[test]
fn the_rising_diagonal_wins() {
    let board = [['O', 'O', 'X'], [' ', 'X', ' '], ['X', ' ', ' ']];
    assert_eq!(boardkit::velha::verifica_vencedor(&board), 'X');
}

#[test]
fn b1_is_row_one() {
    assert_eq!(boardkit::velha::extrai_linha("B1"), 1);
}
