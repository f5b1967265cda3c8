//! One test, the statement's plainest rule: four discs of one player side
//! by side on the bottom row win. A suite this plain catches the mutant
//! that breaks it.

use boardkit::connect4::{Board, Disc};

#[test]
fn four_side_by_side_on_the_bottom_row_win() {
    let mut board = Board::new(6, 7).unwrap();
    for col in 0..4 {
        board.drop_piece(col, Disc::One).unwrap();
    }
    assert!(board.connects_four(0, 3));
}
