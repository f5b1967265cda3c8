//! Codebreakers: strategies that guess the secret from the scores so far.
//!
//! Every strategy keeps the codes still consistent with the scores (the
//! candidates) and picks the guess that splits them best by some measure of
//! the partition its possible scores make:
//!
//! - [`Criterion::Knuth`]: the smallest largest part (Knuth 1976): exactly
//!   5,801 guesses over all 1,296 secrets, never more than 5.
//! - [`Criterion::MostParts`]: the most parts (Kooi 2005).
//! - [`Criterion::ExpectedSize`]: the smallest expected part (Irving 1978).
//! - [`Criterion::Entropy`]: the most information (Neuwirth 1982).
//!
//! Ties go to a guess that could be the secret, then to the first code in
//! lexicographic order, so every strategy is deterministic. Guesses depend
//! only on the history, so they are memoised by history: playing all 1,296
//! secrets walks one decision tree, each node computed once.
//!
//! On small games (at most [`FULL_SEARCH_CODES`] codes) every code is a
//! possible guess and scores come from a precomputed table. On larger ones
//! the search is bounded: guesses are drawn from the candidates only, at most
//! [`LARGE_GAME_GUESSES`] of them.

use std::collections::HashMap;

use super::code::{Code, Rules, score};
use super::program::DecodingBoard;
use crate::player::Strategy;

/// Games with at most this many codes are searched over every guess.
pub const FULL_SEARCH_CODES: u64 = 4096;
/// The largest game a codebreaker takes on (codes in all).
pub const MAX_CODES: u64 = 1 << 20;
/// On larger games, how many candidate guesses are weighed per turn.
pub const LARGE_GAME_GUESSES: usize = 200;

/// The default codebreaker: the fewest guesses over all 1,296 secrets of
/// the standard game among this module's criteria (see the benchmark).
pub const BEST: Criterion = Criterion::MostParts;

/// How a strategy weighs the partition a guess makes of the candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    Knuth,
    MostParts,
    ExpectedSize,
    Entropy,
}

impl Criterion {
    pub const ALL: [Criterion; 4] = [
        Criterion::Knuth,
        Criterion::MostParts,
        Criterion::ExpectedSize,
        Criterion::Entropy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Criterion::Knuth => "knuth",
            Criterion::MostParts => "most-parts",
            Criterion::ExpectedSize => "expected-size",
            Criterion::Entropy => "entropy",
        }
    }

    /// A cost to minimise for the part sizes of a guess (smaller is better).
    fn cost(self, parts: &[u32], total: u32) -> f64 {
        let nonzero = parts.iter().filter(|&&n| n > 0);
        match self {
            Criterion::Knuth => parts.iter().copied().max().unwrap_or(0) as f64,
            Criterion::MostParts => -(nonzero.count() as f64),
            Criterion::ExpectedSize => parts.iter().map(|&n| (n as f64) * (n as f64)).sum(),
            Criterion::Entropy => {
                let t = total as f64;
                // Minus the entropy, in bits.
                nonzero
                    .map(|&n| (n as f64 / t) * (n as f64 / t).log2())
                    .sum()
            }
        }
    }
}

/// A codebreaker using one [`Criterion`].
pub struct Codebreaker {
    rules: Rules,
    criterion: Criterion,
    codes: Vec<Code>,
    /// `table[s * n + g]`: the score index of guess `g` against secret `s`
    /// (small games only).
    table: Option<Vec<u8>>,
    memo: HashMap<Vec<(u32, u8)>, u32>,
}

/// Why a codebreaker refuses a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge(pub u64);

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} codes are too many for a codebreaker: at most {MAX_CODES}",
            self.0
        )
    }
}

impl std::error::Error for TooLarge {}

impl Codebreaker {
    pub fn new(rules: Rules, criterion: Criterion) -> Result<Codebreaker, TooLarge> {
        if rules.code_count() > MAX_CODES {
            return Err(TooLarge(rules.code_count()));
        }
        let full = rules.code_count() <= FULL_SEARCH_CODES;
        let codes: Vec<Code> = Code::all(rules);
        let table = full.then(|| {
            let mut table = Vec::with_capacity(codes.len() * codes.len());
            for s in &codes {
                for g in &codes {
                    table.push(Self::score_index(rules, s, g));
                }
            }
            table
        });
        Ok(Codebreaker {
            rules,
            criterion,
            codes,
            table,
            memo: HashMap::new(),
        })
    }

    fn score_index(rules: Rules, secret: &Code, guess: &Code) -> u8 {
        let s = score(secret, guess);
        s.black * (rules.pegs() as u8 + 1) + s.white
    }

    fn score_of(&self, secret: u32, guess: u32) -> u8 {
        match &self.table {
            Some(table) => table[secret as usize * self.codes.len() + guess as usize],
            None => Self::score_index(
                self.rules,
                &self.codes[secret as usize],
                &self.codes[guess as usize],
            ),
        }
    }

    fn index_of(&self, code: &Code) -> u32 {
        code.pegs()
            .iter()
            .fold(0u32, |i, &p| i * self.rules.colors() as u32 + p as u32)
    }

    /// The next guess after `history` (guess index, score index) pairs.
    fn next_index(&mut self, history: &[(u32, u8)]) -> u32 {
        if let Some(&guess) = self.memo.get(history) {
            return guess;
        }
        let candidates: Vec<u32> = (0..self.codes.len() as u32)
            .filter(|&c| history.iter().all(|&(g, s)| self.score_of(c, g) == s))
            .collect();
        let guess = self.pick(&candidates);
        self.memo.insert(history.to_vec(), guess);
        guess
    }

    fn pick(&self, candidates: &[u32]) -> u32 {
        match candidates.len() {
            0 => {
                panic!("no code is consistent with the scores: they were not computed by the rules")
            }
            1 | 2 => return candidates[0],
            _ => {}
        }
        let guesses: Vec<u32> = if self.table.is_some() {
            (0..self.codes.len() as u32).collect()
        } else {
            candidates
                .iter()
                .copied()
                .take(LARGE_GAME_GUESSES)
                .collect()
        };
        let parts_len = (self.rules.pegs() + 1) * (self.rules.pegs() + 1);
        let mut parts = vec![0u32; parts_len];
        let mut is_candidate = vec![false; self.codes.len()];
        for &c in candidates {
            is_candidate[c as usize] = true;
        }
        let mut best: Option<(f64, bool, u32)> = None;
        for &g in &guesses {
            parts.iter_mut().for_each(|p| *p = 0);
            for &s in candidates {
                parts[self.score_of(s, g) as usize] += 1;
            }
            let cost = self.criterion.cost(&parts, candidates.len() as u32);
            let key = (cost, !is_candidate[g as usize], g);
            // Lower cost, then a possible secret, then the lower code.
            let better = match best {
                None => true,
                Some((c, not_cand, idx)) => {
                    const EPS: f64 = 1e-9;
                    cost < c - EPS || ((cost - c).abs() <= EPS && (key.1, key.2) < (not_cand, idx))
                }
            };
            if better {
                best = Some(key);
            }
        }
        best.expect("at least one guess").2
    }
}

impl Strategy<DecodingBoard, Code> for Codebreaker {
    fn choose(&mut self, board: &DecodingBoard) -> Code {
        assert_eq!(
            board.rules, self.rules,
            "a codebreaker plays the rules it was made for"
        );
        let history: Vec<(u32, u8)> = board
            .guesses
            .iter()
            .map(|(g, s)| {
                (
                    self.index_of(g),
                    s.black * (self.rules.pegs() as u8 + 1) + s.white,
                )
            })
            .collect();
        let index = self.next_index(&history);
        self.codes[index as usize].clone()
    }
}

/// The expert level's graded function: a codebreaker that finds any secret
/// of the standard game (4 pegs, 6 colours) in at most 5 guesses. The kit
/// plays it against every secret. This reference is Knuth's.
pub fn codebreaker(rules: Rules) -> Box<dyn Strategy<DecodingBoard, Code>> {
    match Codebreaker::new(rules, Criterion::Knuth) {
        Ok(breaker) => Box::new(breaker),
        Err(e) => panic!("codebreaker: {e}"),
    }
}

/// The guesses a strategy makes against `secret`, with their scores, up to
/// and including the one that finds it (at most `max_turns`).
pub fn solve(
    breaker: &mut dyn Strategy<DecodingBoard, Code>,
    rules: Rules,
    secret: &Code,
    max_turns: usize,
) -> DecodingBoard {
    let mut board = DecodingBoard {
        rules,
        turns: max_turns,
        guesses: Vec::new(),
    };
    while board.guesses.len() < max_turns {
        let guess = breaker.choose(&board);
        let result = score(secret, &guess);
        board.guesses.push((guess, result));
        if usize::from(result.black) == rules.pegs() {
            break;
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuth_opens_with_aabb() {
        let mut breaker = Codebreaker::new(Rules::default(), Criterion::Knuth).unwrap();
        let board = DecodingBoard {
            rules: Rules::default(),
            turns: 10,
            guesses: vec![],
        };
        assert_eq!(breaker.choose(&board).to_string(), "AABB");
    }
}
