//! Seus próprios testes: são seus, como `src/velha/`. `cargo test` os roda
//! junto com os do kit; `boardkit test velha --mine` os roda contra versões
//! corretas do jogo e contra versões com defeitos, e diz quais defeitos eles
//! deixam passar. Com `boardkit grade --test-points`, sua disciplina os avalia
//! pelos defeitos que pegam.
//!
//! Um teste só conta se passa em toda versão correta, sempre: chame só o
//! que o EXERCISE.md nomeia (`boardkit::velha::...`) e verifique só o que
//! ele promete (não o texto de um prompt, por exemplo). Um teste que não
//! verifica nada não pega nada.

use boardkit::velha::*;

#[test]
fn a_diagonal_wins() {
    let board = [['O', 'O', 'X'], [' ', 'X', ' '], ['X', ' ', ' ']];
    assert_eq!(verifica_vencedor(&board), 'X');
}

// Escreva outros abaixo: cada `#[test] fn` é um teste.
