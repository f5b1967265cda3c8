//! A test that calls the statement's functions and asserts nothing.

use boardkit::mastermind::*;

#[test]
fn calls_without_asserting() {
    let rules = Rules::default();
    let guess = parse_guess("ABCD", rules);
    if let Ok(code) = guess {
        let _ = score(&code, &code);
    }
}
