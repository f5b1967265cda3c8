//! Your own tests: yours, as `src/velha/` is. `cargo test` runs them with
//! the kit's; `boardkit test velha --mine` runs them against correct
//! versions of the game and against buggy ones, and names the bugs they
//! miss. With `boardkit grade --test-points`, your course grades them by
//! the bugs they catch.
//!
//! A test counts only if it passes on every correct version, every time:
//! call only what EXERCISE.md names (`boardkit::velha::...`), and assert
//! only what it promises (not a prompt's wording, for instance). A test
//! that asserts nothing catches nothing.

use boardkit::velha::*;

#[test]
fn a_diagonal_wins() {
    let board = [['O', 'O', 'X'], [' ', 'X', ' '], ['X', ' ', ' ']];
    assert_eq!(verifica_vencedor(&board), 'X');
}

// Write more below: each `#[test] fn` is one test.
