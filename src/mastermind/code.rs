//! Mastermind rules: codes, guesses and their score. The basic level's graded API.
//!
//! Pure code, no I/O. A code is `pegs` pegs, each one of `colors` colours
//! named by letters from `A` (4 pegs and 6 colours, `A` to `F`, by default:
//! 1,296 codes). Colours may repeat.
//!
//! Scoring follows the multiset rule: blacks are pegs of the right colour in
//! the right place; whites are, for each colour, the smaller of its counts in
//! secret and guess, summed, minus the blacks. (A widely copied version counts
//! whites peg by peg and gets repeated colours wrong: secret `AABB`, guess
//! `ABAC` scores 1 black and 2 white, not 1 and 3.)

use rand::RngExt;

pub use crate::given::mastermind::{
    Code, GuessError, MAX_COLORS, MAX_PEGS, Rules, RulesError, Score,
};

/// Parses a guess such as `ABCD`: letters in either case, whitespace ignored.
/// An unknown colour is reported before a wrong length.
pub fn parse_guess(text: &str, rules: Rules) -> Result<Code, GuessError> {
    let mut pegs = Vec::with_capacity(rules.pegs());
    let mut count = 0usize;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        let index = (c.to_ascii_uppercase() as u32).wrapping_sub('A' as u32);
        if !c.is_ascii_alphabetic() || index as usize >= rules.colors() {
            return Err(GuessError::UnknownColor {
                found: c,
                last: rules.last_letter(),
            });
        }
        count += 1;
        if pegs.len() < rules.pegs() {
            pegs.push(index as u8);
        }
    }
    if count != rules.pegs() {
        return Err(GuessError::WrongLength {
            expected: rules.pegs(),
            got: count,
        });
    }
    Ok(Code::from_colors(pegs))
}

/// Scores `guess` against `secret`. Both must have the same number of pegs.
pub fn score(secret: &Code, guess: &Code) -> Score {
    debug_assert_eq!(secret.pegs().len(), guess.pegs().len());
    let mut in_secret = [0u8; MAX_COLORS];
    let mut in_guess = [0u8; MAX_COLORS];
    let mut black = 0;
    for (&s, &g) in secret.pegs().iter().zip(guess.pegs()) {
        if s == g {
            black += 1;
        }
        in_secret[s as usize] += 1;
        in_guess[g as usize] += 1;
    }
    let common: u8 = in_secret
        .iter()
        .zip(&in_guess)
        .map(|(&s, &g)| s.min(g))
        .sum();
    Score {
        black,
        white: common - black,
    }
}

/// A secret drawn uniformly from every code of `rules`.
pub fn random_secret(rules: Rules, rng: &mut impl rand::Rng) -> Code {
    Code::from_colors(
        (0..rules.pegs())
            .map(|_| rng.random_range(0..rules.colors() as u8))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn code(text: &str) -> Code {
        parse_guess(text, Rules::default()).unwrap()
    }

    #[rstest]
    #[case("AABB", "ABAC", 1, 2)]
    #[case("ABCD", "ABCD", 4, 0)]
    #[case("ABCD", "DCBA", 0, 4)]
    #[case("AAAA", "AAAB", 3, 0)]
    #[case("AABB", "BBAA", 0, 4)]
    #[case("ABCD", "EEFF", 0, 0)]
    #[case("ABBB", "BAAA", 0, 2)]
    #[case("FFFA", "AFFF", 2, 2)]
    fn scores(#[case] secret: &str, #[case] guess: &str, #[case] black: u8, #[case] white: u8) {
        assert_eq!(score(&code(secret), &code(guess)), Score { black, white });
    }

    #[rstest]
    #[case("abcd", "ABCD")]
    #[case(" a b\tc d ", "ABCD")]
    #[case("FfFf", "FFFF")]
    fn parses_case_and_whitespace(#[case] text: &str, #[case] expected: &str) {
        assert_eq!(code(text).to_string(), expected);
    }

    #[rstest]
    #[case("ABC", GuessError::WrongLength { expected: 4, got: 3 })]
    #[case("ABCDE", GuessError::WrongLength { expected: 4, got: 5 })]
    #[case("", GuessError::WrongLength { expected: 4, got: 0 })]
    #[case("ABCG", GuessError::UnknownColor { found: 'G', last: 'F' })]
    #[case("AB1D", GuessError::UnknownColor { found: '1', last: 'F' })]
    #[case("ÁBCD", GuessError::UnknownColor { found: 'Á', last: 'F' })]
    fn refuses_bad_guesses(#[case] text: &str, #[case] error: GuessError) {
        assert_eq!(parse_guess(text, Rules::default()), Err(error));
    }

    #[test]
    fn codes_are_numbered_lexicographically() {
        let rules = Rules::default();
        assert_eq!(Code::all(rules).len(), 1296);
        assert_eq!(Code::from_index(rules, 0).to_string(), "AAAA");
        assert_eq!(Code::from_index(rules, 1295).to_string(), "FFFF");
        assert_eq!(Code::from_index(rules, 7).to_string(), "AABB");
    }
}
