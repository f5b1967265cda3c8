//! What EXERCISE.md gives for Mastermind: the rules of a game, codes,
//! scores, the errors of a guess, and what a codebreaker is shown.
//!
//! A code is `pegs` pegs, each one of `colors` colours named by letters from
//! `A` (4 pegs and 6 colours, `A` to `F`, by default: 1,296 codes).

use std::fmt;

/// The most pegs a code may have.
pub const MAX_PEGS: usize = 10;
/// The most colours: one letter each, `A` to `Z`.
pub const MAX_COLORS: usize = 26;

/// The shape of a game: how many pegs a code has and how many colours exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    pegs: usize,
    colors: usize,
}

impl Default for Rules {
    /// 4 pegs, 6 colours (`A` to `F`).
    fn default() -> Self {
        Rules { pegs: 4, colors: 6 }
    }
}

/// Why a game shape is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    pub pegs: usize,
    pub colors: usize,
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} pegs and {} colours are not supported: pegs must be 1 to {MAX_PEGS}, colours 2 to {MAX_COLORS}",
            self.pegs, self.colors
        )
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// A game of `pegs` pegs (1 to 10) and `colors` colours (2 to 26).
    pub fn new(pegs: usize, colors: usize) -> Result<Rules, RulesError> {
        if !(1..=MAX_PEGS).contains(&pegs) || !(2..=MAX_COLORS).contains(&colors) {
            return Err(RulesError { pegs, colors });
        }
        Ok(Rules { pegs, colors })
    }

    /// How many pegs a code has.
    pub fn pegs(&self) -> usize {
        self.pegs
    }

    /// How many colours exist, lettered from `A`.
    pub fn colors(&self) -> usize {
        self.colors
    }

    /// The letter of the last colour (`F` by default).
    pub fn last_letter(&self) -> char {
        (b'A' + self.colors as u8 - 1) as char
    }

    /// How many codes exist: colours to the power of pegs.
    pub fn code_count(&self) -> u64 {
        (self.colors as u64).pow(self.pegs as u32)
    }
}

/// A code: the secret or a guess. Each peg is a colour index, 0 for `A`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(Vec<u8>);

impl Code {
    /// A code from colour indices (0 for `A`, 1 for `B`, ...).
    pub fn from_colors(colors: Vec<u8>) -> Code {
        Code(colors)
    }

    /// The colour index of each peg, left to right.
    pub fn pegs(&self) -> &[u8] {
        &self.0
    }

    /// The `index`-th code of `rules` in lexicographic order (`AAAA` is 0).
    pub fn from_index(rules: Rules, mut index: u64) -> Code {
        let mut pegs = vec![0u8; rules.pegs];
        for peg in pegs.iter_mut().rev() {
            *peg = (index % rules.colors as u64) as u8;
            index /= rules.colors as u64;
        }
        Code(pegs)
    }

    /// Every code of `rules`, in lexicographic order.
    pub fn all(rules: Rules) -> Vec<Code> {
        (0..rules.code_count())
            .map(|i| Code::from_index(rules, i))
            .collect()
    }
}

impl fmt::Display for Code {
    /// The letters of the code, such as `ABCD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &peg in &self.0 {
            write!(f, "{}", (b'A' + peg) as char)?;
        }
        Ok(())
    }
}

/// Why a text is not a guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuessError {
    /// Not as many pegs as the rules say.
    WrongLength { expected: usize, got: usize },
    /// A character that is not one of the game's colour letters.
    UnknownColor { found: char, last: char },
}

impl std::fmt::Display for GuessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GuessError::WrongLength { expected, got } => {
                write!(f, "expected {expected} colours, got {got}")
            }
            GuessError::UnknownColor { found, last } => {
                write!(f, "'{found}' is not a colour: use the letters A to {last}")
            }
        }
    }
}

impl std::error::Error for GuessError {}

/// The feedback for one guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Score {
    /// Right colour, right place.
    pub black: u8,
    /// Right colour, wrong place (for each colour, the smaller of its counts
    /// in secret and guess, summed, minus the blacks).
    pub white: u8,
}

impl fmt::Display for Score {
    /// `<B> black, <W> white`, as the program prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} black, {} white", self.black, self.white)
    }
}

/// What a codebreaker is shown: the shape of the game and its guesses so far,
/// each with its score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodingBoard {
    pub rules: Rules,
    /// How many guesses the game allows.
    pub turns: usize,
    pub guesses: Vec<(Code, Score)>,
}
