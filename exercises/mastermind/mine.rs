//! Your own tests: yours, as `src/mastermind/` is. `cargo test` runs them
//! with the kit's; `boardkit test mastermind --mine` runs them against
//! correct versions of the game and against buggy ones, and names the bugs
//! they miss. With `boardkit grade --test-points`, your course grades them
//! by the bugs they catch.
//!
//! A test counts only if it passes on every correct version, every time:
//! call only what EXERCISE.md names (`boardkit::mastermind::...`), and
//! assert only what it promises (not which secret a seed draws, for
//! instance). A test that asserts nothing catches nothing.

use boardkit::mastermind::*;

#[test]
fn the_statements_example_scores_one_black_two_white() {
    let secret = Code::from_colors(vec![0, 0, 1, 1]);
    let guess = Code::from_colors(vec![0, 1, 0, 2]);
    assert_eq!(score(&secret, &guess), Score { black: 1, white: 2 });
}

// Write more below: each `#[test] fn` is one test.
