//! Your own tests: yours, as `src/connect4/` is. `cargo test` runs them
//! with the kit's; `boardkit test connect4 --mine` runs them against
//! correct versions of the game and against buggy ones, and names the bugs
//! they miss. With `boardkit grade --test-points`, your course grades them
//! by the bugs they catch.
//!
//! A test counts only if it passes on every correct version, every time:
//! call only what EXERCISE.md names (`boardkit::connect4::...`), and assert
//! only what it promises (not a random player's draw, for instance). A
//! test that asserts nothing catches nothing.

use boardkit::connect4::*;

#[test]
fn a_disc_lands_on_the_bottom_row() {
    let mut board = Board::new(6, 7).unwrap();
    assert_eq!(board.drop_piece(3, Disc::One).unwrap(), 0);
    assert_eq!(board.drop_piece(3, Disc::Two).unwrap(), 1);
}

// Write more below: each `#[test] fn` is one test.
