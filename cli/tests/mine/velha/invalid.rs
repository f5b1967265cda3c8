//! Invalid tests: a wrong answer, and a prompt the statement leaves free.
//! The third one is right, and catches what it catches.

use boardkit::velha::*;

#[test]
fn b1_is_column_one() {
    assert_eq!(extrai_coluna("B1"), 1);
}

#[test]
fn the_prompt_names_the_player() {
    let mut out = Vec::new();
    let _ = jogar(&mut "A1\nB1\nA2\nB2\nA3\n".as_bytes(), &mut out);
    assert!(String::from_utf8_lossy(&out).contains("Jogador X, digite a posição"));
}

#[test]
fn the_diagonal_wins() {
    let b = [['X', ' ', ' '], [' ', 'X', ' '], [' ', ' ', 'X']];
    assert_eq!(verifica_vencedor(&b), 'X');
}
