//! Vos propres tests : ils sont à vous, comme `src/connect4/`. `cargo test`
//! les lance avec ceux du kit ; `boardkit test connect4 --mine` les lance
//! contre des versions correctes du jeu et contre des versions boguées, et
//! nomme les bogues qu'ils laissent passer. Avec `boardkit grade
//! --test-points`, votre cours les note selon les bogues qu'ils trouvent.
//!
//! Un test ne compte que s'il passe sur toute version correcte, à chaque
//! fois : n'appelez que ce qu'EXERCISE.md nomme (`boardkit::connect4::...`)
//! et ne vérifiez que ce qu'il promet (pas la colonne que tire un joueur au
//! hasard, par exemple). Un test qui ne vérifie rien ne trouve rien.

use boardkit::connect4::*;

#[test]
fn a_disc_lands_on_the_bottom_row() {
    let mut board = Board::new(6, 7).unwrap();
    assert_eq!(board.drop_piece(3, Disc::One).unwrap(), 0);
    assert_eq!(board.drop_piece(3, Disc::Two).unwrap(), 1);
}

// Écrivez-en d'autres ci-dessous : chaque `#[test] fn` est un test.
