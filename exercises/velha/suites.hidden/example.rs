//! One test, the statement's own example: X wins along row A. A suite this
//! plain catches the mutant that breaks the plainest rule.

#[test]
fn x_wins_along_row_a() {
    let board = [['X', 'X', 'X'], ['O', 'O', ' '], [' ', ' ', ' ']];
    assert_eq!(boardkit::velha::verifica_vencedor(&board), 'X');
}
