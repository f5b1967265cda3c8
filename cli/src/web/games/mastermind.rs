//! Mastermind in the browser.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use serde::{Deserialize, Serialize};

use super::{GameError, Table, WebTable, illegal};
use crate::web::api::{GameView, Move};

use boardkit::mastermind::optimal::OptimalCodebreaker;
use boardkit::mastermind::solver::{BEST, Codebreaker};
use boardkit::mastermind::{Code, DecodingBoard, Rules, parse_guess, random_secret, score};
use boardkit::player::Strategy;

/// Mastermind in the browser.
pub(crate) const GAME: WebTable = WebTable {
    id: "mastermind",
    title: "Mastermind",
    markup: include_str!("../page/mastermind.html"),
    script: include_str!("../page/mastermind.js"),
    new: |request, seed| {
        let request: NewMastermind = super::options(request)?;
        Ok(Box::new(MastermindTable::new(request.seed.unwrap_or(seed))))
    },
};

/// A Mastermind move: the guess, as `"AABC"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MastermindMove {
    guess: String,
}

/// `POST /api/games` with `"game": "mastermind"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewMastermind {
    /// Draws the secret reproducibly (and seeds the codebreaker's
    /// choices); absent: a fresh secret.
    #[serde(default)]
    seed: Option<u64>,
}

/// One Mastermind guess and its pegs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub(crate) struct GuessView {
    pub guess: String,
    pub black: u8,
    pub white: u8,
    /// The kit's codebreaker played it ("let the computer solve it").
    pub by_computer: bool,
}

/// A Mastermind game: the guesses so far, never the secret before the end.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub(crate) struct MastermindView {
    pub pegs: usize,
    /// Colours are the letters from `A`; this many of them.
    pub colors: usize,
    pub turns: usize,
    pub guesses: Vec<GuessView>,
    pub over: bool,
    pub won: bool,
    /// The secret: null until the game is over.
    pub secret: Option<String>,
    /// `You win`, `Solved by the computer` or `You lose!` at the end; null
    /// while playing.
    pub result: Option<String>,
}

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

    /// Who found the code: the player, or the codebreaker they called.
    fn result(&self, won: bool) -> &'static str {
        match (won, self.by_computer.last()) {
            (true, Some(true)) => "Solved by the computer",
            (true, _) => "You win",
            (false, _) => "You lose!",
        }
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
            result: over.then(|| self.result(won).to_owned()),
        }
    }
}

impl Table for MastermindTable {
    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let MastermindMove { guess: text } =
            super::move_as(request, "a Mastermind move is {\"guess\": \"ABCD\"}")?;
        let guess =
            parse_guess(&text, self.board.rules).map_err(|e| GameError::Invalid(e.to_string()))?;
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
        super::tagged(GAME.id, self.mastermind_view())
    }
}
