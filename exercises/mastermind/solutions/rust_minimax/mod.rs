//! Mastermind, split by concern:
//!
//! - [`scoring`]: black and white pegs;
//! - [`codes`]: drawing a secret and reading a guess typed by a human;
//! - [`game`]: the interactive program (one game on a reader and a writer);
//! - [`breaker`]: a minimax (Knuth-style) codebreaker.

mod breaker;
mod codes;
mod game;
mod scoring;

pub use crate::given::mastermind::{Code, DecodingBoard, GuessError, Rules, Score};

pub use breaker::{MinimaxBreaker, codebreaker};
pub use codes::{parse_guess, random_secret};
pub use game::play;
pub use scoring::score;
