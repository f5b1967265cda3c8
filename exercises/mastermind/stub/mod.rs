//! Mastermind: your code. Everything in this folder is yours; write the
//! functions below (EXERCISE.md, "Mastermind"), and add any helpers, types
//! and modules you like.

use std::io::{self, BufRead, Write};

pub use crate::given::mastermind::{Code, DecodingBoard, GuessError, Rules, Score};
use crate::player::Strategy;

/// The black and white pegs of `guess` against `secret`.
pub fn score(secret: &Code, guess: &Code) -> Score {
    todo!("score({secret}, {guess}): see EXERCISE.md, Mastermind, Basic")
}

/// A secret drawn uniformly from every code of `rules`, with `rng` only.
pub fn random_secret(rules: Rules, rng: &mut impl rand::Rng) -> Code {
    let _ = rng;
    todo!("random_secret({rules:?}): see EXERCISE.md, Mastermind, Basic")
}

/// A guess such as `ABCD`: letters in either case, whitespace ignored.
pub fn parse_guess(text: &str, rules: Rules) -> Result<Code, GuessError> {
    todo!("parse_guess({text:?}, {rules:?}): see EXERCISE.md, Mastermind, Basic")
}

/// One game of `turns` turns against `secret`: guesses read from `input`,
/// everything printed to `output`. An error when the input ends first.
pub fn play(
    secret: &Code,
    rules: Rules,
    turns: usize,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let _ = (secret, rules, input, output);
    todo!("play(.., {turns} turns): see EXERCISE.md, Mastermind, Proficient")
}

/// A codebreaker that finds any secret of `rules` in at most 5 guesses.
pub fn codebreaker(rules: Rules) -> Box<dyn Strategy<DecodingBoard, Code>> {
    todo!("codebreaker({rules:?}): see EXERCISE.md, Mastermind, Expert")
}
