//! Mastermind in the browser.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{GameError, Table, illegal, invalid};
use crate::web::api::{GameView, GuessView, MastermindView, Move};

use boardkit::mastermind::optimal::OptimalCodebreaker;
use boardkit::mastermind::solver::{BEST, Codebreaker};
use boardkit::mastermind::{Code, DecodingBoard, Rules, parse_guess, random_secret, score};
use boardkit::player::Strategy;

/// Guesses a Mastermind game allows (as `boardkit play mastermind`).
pub(crate) const MASTERMIND_TURNS: usize = 10;

/// A Mastermind game in the browser: the standard rules (4 pegs, 6
/// colours), 10 turns. The secret never leaves the server before the end.
pub(crate) struct MastermindTable {
    secret: Code,
    board: DecodingBoard,
    /// Which guesses the codebreaker played.
    by_computer: Vec<bool>,
}

impl std::fmt::Debug for MastermindTable {
    /// Without the secret: it must not reach a log or an error either.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MastermindTable")
            .field("guesses", &self.board.guesses.len())
            .finish_non_exhaustive()
    }
}

impl MastermindTable {
    pub(super) fn new(seed: u64) -> MastermindTable {
        let rules = Rules::default();
        MastermindTable {
            secret: random_secret(rules, &mut ChaCha8Rng::seed_from_u64(seed)),
            board: DecodingBoard {
                rules,
                turns: MASTERMIND_TURNS,
                guesses: Vec::new(),
            },
            by_computer: Vec::new(),
        }
    }

    fn won(&self) -> bool {
        self.board
            .guesses
            .last()
            .is_some_and(|(_, s)| usize::from(s.black) == self.board.rules.pegs())
    }

    fn is_over(&self) -> bool {
        self.won() || self.board.guesses.len() >= self.board.turns
    }

    fn submit(&mut self, guess: Code, by_computer: bool) {
        let result = score(&self.secret, &guess);
        self.board.guesses.push((guess, result));
        self.by_computer.push(by_computer);
    }

    fn mastermind_view(&self) -> MastermindView {
        let over = self.is_over();
        let won = self.won();
        MastermindView {
            pegs: self.board.rules.pegs(),
            colors: self.board.rules.colors(),
            turns: self.board.turns,
            guesses: self
                .board
                .guesses
                .iter()
                .zip(&self.by_computer)
                .map(|((guess, s), &by_computer)| GuessView {
                    guess: guess.to_string(),
                    black: s.black,
                    white: s.white,
                    by_computer,
                })
                .collect(),
            over,
            won,
            secret: over.then(|| self.secret.to_string()),
            result: over.then(|| if won { "You win" } else { "You lose!" }.to_owned()),
        }
    }
}

impl Table for MastermindTable {
    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let (None, None, Some(text)) = (request.row, request.col, &request.guess) else {
            return invalid("a Mastermind move is {\"guess\": \"ABCD\"}");
        };
        let guess =
            parse_guess(text, self.board.rules).map_err(|e| GameError::Invalid(e.to_string()))?;
        if self.is_over() {
            return illegal("the game is over");
        }
        self.submit(guess, false);
        Ok(())
    }

    fn codebreaker_guess(&mut self) -> Result<(), GameError> {
        if self.is_over() {
            return illegal("the game is over");
        }
        // The optimal tree while the guesses are its own, the best heuristic
        // codebreaker from wherever the person left it.
        let guess = match OptimalCodebreaker::standard() {
            Ok(mut optimal) => optimal.choose(&self.board),
            Err(_) => Codebreaker::new(self.board.rules, BEST)
                .expect("the standard game suits a codebreaker")
                .choose(&self.board),
        };
        self.submit(guess, true);
        Ok(())
    }

    fn view(&self) -> GameView {
        GameView::Mastermind(self.mastermind_view())
    }
}
