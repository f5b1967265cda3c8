//! Codes coming from outside: a secret drawn at random, a guess typed in.

use crate::given::mastermind::{Code, GuessError, Rules};

/// A secret drawn uniformly from every code of `rules`, with `rng` only.
///
/// Instead of one draw per peg, a single number is drawn uniformly among all
/// `colors^pegs` codes and its base-`colors` digits become the pegs (the
/// last digit first), which is just as uniform, peg by peg and code by code.
pub fn random_secret(rules: Rules, rng: &mut impl rand::Rng) -> Code {
    use rand::RngExt;
    let base = rules.colors() as u64;
    let mut number = rng.random_range(0..rules.code_count());
    let mut pegs = vec![0u8; rules.pegs()];
    for peg in pegs.iter_mut() {
        *peg = (number % base) as u8;
        number /= base;
    }
    Code::from_colors(pegs)
}

/// The colour index of `c` under `rules`, if it is one of the game's letters.
fn colour_of(c: char, rules: Rules) -> Option<u8> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    let index = c.to_ascii_uppercase() as usize - 'A' as usize;
    (index < rules.colors()).then_some(index as u8)
}

/// A guess such as `ABCD`: letters in either case, whitespace ignored.
///
/// The first character that is not a colour wins over a wrong length; it is
/// reported as it was typed (`'g'` stays lower case).
pub fn parse_guess(text: &str, rules: Rules) -> Result<Code, GuessError> {
    let mut pegs = Vec::with_capacity(rules.pegs());
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        match colour_of(c, rules) {
            Some(colour) => pegs.push(colour),
            None => {
                return Err(GuessError::UnknownColor {
                    found: c,
                    last: rules.last_letter(),
                });
            }
        }
    }
    if pegs.len() != rules.pegs() {
        return Err(GuessError::WrongLength {
            expected: rules.pegs(),
            got: pegs.len(),
        });
    }
    Ok(Code::from_colors(pegs))
}
