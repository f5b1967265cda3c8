//! One test, the statement's own example and plainest rule: secret `AABB`,
//! guess `ABAC` scores 1 black, 2 white; the secret itself, 4 black. A
//! suite this plain catches the mutants that break them.

use boardkit::mastermind::{Code, Score, score};

#[test]
fn the_statements_example_and_an_exact_guess() {
    let secret = Code::from_colors(vec![0, 0, 1, 1]);
    let guess = Code::from_colors(vec![0, 1, 0, 2]);
    assert_eq!(score(&secret, &guess), Score { black: 1, white: 2 });
    assert_eq!(score(&secret, &secret), Score { black: 4, white: 0 });
}
