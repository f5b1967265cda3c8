//! Scoring a guess against a secret.
//!
//! Blacks are counted place by place. The pegs that are not black are then
//! tallied per colour on each side; a colour left over on both sides gives
//! as many whites as the smaller of its two leftovers. (Equivalent to the
//! statement's "sum of minimum counts minus blacks", computed directly.)

use crate::given::mastermind::{Code, MAX_COLORS, Score};

/// The black and white pegs of `guess` against `secret`.
pub fn score(secret: &Code, guess: &Code) -> Score {
    score_pegs(secret.pegs(), guess.pegs())
}

/// [`score`] on raw colour indices.
pub(crate) fn score_pegs(secret: &[u8], guess: &[u8]) -> Score {
    let mut left_in_secret = [0u8; MAX_COLORS];
    let mut left_in_guess = [0u8; MAX_COLORS];
    let mut black = 0u8;
    for (&s, &g) in secret.iter().zip(guess) {
        if s == g {
            black += 1;
        } else {
            left_in_secret[usize::from(s)] += 1;
            left_in_guess[usize::from(g)] += 1;
        }
    }
    let white = left_in_secret
        .iter()
        .zip(&left_in_guess)
        .map(|(&a, &b)| a.min(b))
        .sum();
    Score { black, white }
}
