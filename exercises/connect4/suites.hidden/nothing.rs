//! A test that calls the statement's functions and asserts nothing.

use boardkit::connect4::*;

#[test]
fn calls_without_asserting() {
    let mut board = Board::new(6, 7).unwrap();
    let _ = board.drop_piece(3, Disc::One);
    let _ = board.connects_four(0, 3);
    let _ = board.is_full();
}
