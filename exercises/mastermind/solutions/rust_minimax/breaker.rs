//! A codebreaker in the spirit of Knuth (1977): keep every code still
//! consistent with the scores seen, and play the code whose worst-case
//! answer leaves the fewest of them.
//!
//! Differences from the textbook presentation:
//!
//! - the breaker never trusts its own memory of "the current game": each
//!   call compares the board it is shown with the history it last worked
//!   from. When the board extends that history, only the new rows filter
//!   the candidates; otherwise (a new game, or someone else's board) it
//!   starts over from every code. So one breaker can play game after game.
//! - every decision is memoised by the history that led to it: the choice
//!   depends on nothing else, so replaying 1,296 games costs little more
//!   than the distinct positions they visit.
//! - scores are packed in one byte, `black * (pegs + 1) + white`, and for
//!   small games every pair of codes is scored once, up front, in a table.

use std::collections::HashMap;

use super::scoring::score_pegs;
use crate::given::mastermind::{Code, DecodingBoard, Rules, Score};
use crate::player::Strategy;

/// Games up to this many codes get the full minimax over every code and a
/// precomputed score table (4,096 codes: a 16 MiB table at most).
const FULL_SEARCH_LIMIT: u64 = 4096;

/// A codebreaker that finds any secret of `rules` in at most 5 guesses
/// (for the standard 4 pegs and 6 colours).
pub fn codebreaker(rules: Rules) -> Box<dyn Strategy<DecodingBoard, Code>> {
    Box::new(MinimaxBreaker::new(rules))
}

/// One row of history: the guess (as its index among all codes) and its
/// packed score.
type Row = (u32, u8);

/// The minimax codebreaker. See the module documentation.
pub struct MinimaxBreaker {
    rules: Rules,
    /// Every code, in lexicographic order; a code's index is its position.
    codes: Vec<Code>,
    /// `table[a * n + b]`: packed score of code `a` against code `b`.
    table: Vec<u8>,
    /// The history the candidates were computed from.
    history: Vec<Row>,
    /// Indices of the codes consistent with `history`, ascending.
    candidates: Vec<u32>,
    /// The guess chosen after each history already seen.
    memo: HashMap<Vec<Row>, u32>,
}

impl MinimaxBreaker {
    /// A breaker for games of `rules`.
    pub fn new(rules: Rules) -> MinimaxBreaker {
        let small = rules.code_count() <= FULL_SEARCH_LIMIT;
        let codes = if small { Code::all(rules) } else { Vec::new() };
        let n = codes.len();
        let mut breaker = MinimaxBreaker {
            rules,
            table: Vec::new(),
            history: Vec::new(),
            candidates: (0..n as u32).collect(),
            memo: HashMap::new(),
            codes,
        };
        if small {
            let mut table = vec![0u8; n * n];
            for a in 0..n {
                for b in a..n {
                    let packed =
                        breaker.pack(score_pegs(breaker.codes[a].pegs(), breaker.codes[b].pegs()));
                    table[a * n + b] = packed;
                    table[b * n + a] = packed;
                }
            }
            breaker.table = table;
        }
        breaker
    }

    fn pack(&self, score: Score) -> u8 {
        score.black * (self.rules.pegs() as u8 + 1) + score.white
    }

    fn buckets(&self) -> usize {
        (self.rules.pegs() + 1) * (self.rules.pegs() + 1)
    }

    fn index_of(&self, code: &Code) -> u32 {
        let base = self.rules.colors() as u32;
        code.pegs()
            .iter()
            .fold(0u32, |acc, &peg| acc * base + u32::from(peg))
    }

    fn packed(&self, a: u32, b: u32) -> u8 {
        self.table[a as usize * self.codes.len() + b as usize]
    }

    /// Brings `history` and `candidates` in line with `rows`.
    fn catch_up(&mut self, rows: &[Row]) {
        if !rows.starts_with(&self.history) {
            self.history.clear();
            self.candidates = (0..self.codes.len() as u32).collect();
        }
        for &(guess, packed) in &rows[self.history.len()..] {
            let table = &self.table;
            let n = self.codes.len();
            self.candidates
                .retain(|&c| table[guess as usize * n + c as usize] == packed);
            self.history.push((guess, packed));
        }
    }

    /// The code whose worst answer leaves the fewest candidates; on a tie,
    /// a candidate (it may win at once), then the lowest index.
    fn minimax(&self) -> u32 {
        match self.candidates.as_slice() {
            [] => return 0, // the scores shown contradict each other
            [only] => return *only,
            _ => {}
        }
        let mut is_candidate = vec![false; self.codes.len()];
        for &c in &self.candidates {
            is_candidate[c as usize] = true;
        }
        let mut tally = vec![0u32; self.buckets()];
        // (worst case, not a candidate, index): smaller is better.
        let mut best = (u32::MAX, true, 0u32);
        for guess in 0..self.codes.len() as u32 {
            tally.iter_mut().for_each(|t| *t = 0);
            let mut worst = 0u32;
            for &secret in &self.candidates {
                let t = &mut tally[usize::from(self.packed(guess, secret))];
                *t += 1;
                worst = worst.max(*t);
                if worst > best.0 {
                    break; // already worse than the best found
                }
            }
            let key = (worst, !is_candidate[guess as usize], guess);
            if key < best {
                best = key;
            }
        }
        best.2
    }

    /// For games too large for the table: the first code, in lexicographic
    /// order, consistent with every row (a simple but always-winning play).
    fn first_consistent(&self, board: &DecodingBoard) -> Code {
        let (pegs, base) = (self.rules.pegs(), self.rules.colors() as u8);
        let mut pegs_now = vec![0u8; pegs];
        loop {
            if board
                .guesses
                .iter()
                .all(|(g, s)| score_pegs(&pegs_now, g.pegs()) == *s)
            {
                return Code::from_colors(pegs_now);
            }
            // Next code, odometer style; give up on AAAA... after a full turn.
            let mut place = pegs;
            loop {
                if place == 0 {
                    return Code::from_colors(vec![0; pegs]);
                }
                place -= 1;
                pegs_now[place] += 1;
                if pegs_now[place] < base {
                    break;
                }
                pegs_now[place] = 0;
            }
        }
    }
}

impl Strategy<DecodingBoard, Code> for MinimaxBreaker {
    fn choose(&mut self, board: &DecodingBoard) -> Code {
        if board.rules != self.rules {
            *self = MinimaxBreaker::new(board.rules);
        }
        if self.codes.is_empty() {
            return self.first_consistent(board);
        }
        let rows: Vec<Row> = board
            .guesses
            .iter()
            .map(|(g, s)| (self.index_of(g), self.pack(*s)))
            .collect();
        let choice = match self.memo.get(&rows) {
            Some(&choice) => choice,
            None => {
                self.catch_up(&rows);
                let choice = if rows.is_empty() {
                    self.opening()
                } else {
                    self.minimax()
                };
                self.memo.insert(rows, choice);
                choice
            }
        };
        self.codes[choice as usize].clone()
    }
}

impl MinimaxBreaker {
    /// Knuth's opening for 4 pegs and 6 colours is `AABB`; in general, two
    /// colours each filling about half the pegs, chosen without search (a
    /// first minimax would cost every code against every code).
    fn opening(&self) -> u32 {
        let pegs = self.rules.pegs();
        let colours: Vec<u8> = (0..pegs).map(|i| u8::from(i >= pegs / 2)).collect();
        self.index_of(&Code::from_colors(colours))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_breaker_solves_every_secret_in_five_and_a_replay_costs_nothing() {
        let rules = Rules::default();
        let mut breaker = codebreaker(rules);
        for round in 0..2 {
            let (mut total, mut max) = (0, 0);
            for secret in Code::all(rules) {
                let mut board = DecodingBoard {
                    rules,
                    turns: 10,
                    guesses: Vec::new(),
                };
                loop {
                    let guess = breaker.choose(&board);
                    let s = score_pegs(secret.pegs(), guess.pegs());
                    board.guesses.push((guess, s));
                    if s.black == 4 {
                        break;
                    }
                    assert!(board.guesses.len() < 10);
                }
                total += board.guesses.len();
                max = max.max(board.guesses.len());
            }
            eprintln!("round {round}: {total} guesses, {max} at most");
            assert!(max <= 5);
        }
    }

    #[test]
    fn a_large_game_falls_back_and_still_wins() {
        let rules = Rules::new(5, 9).unwrap();
        let secret = Code::from_colors(vec![8, 3, 3, 0, 7]);
        let mut breaker = codebreaker(rules);
        let mut board = DecodingBoard {
            rules,
            turns: 100,
            guesses: Vec::new(),
        };
        while board.guesses.last().is_none_or(|(g, _)| *g != secret) {
            assert!(board.guesses.len() < 100);
            let guess = breaker.choose(&board);
            let s = score_pegs(secret.pegs(), guess.pegs());
            board.guesses.push((guess, s));
        }
    }
}
