//! Mastermind: break a secret code of coloured pegs. The reference, and the
//! example solution of the exercise.
//!
//! The statement's API (EXERCISE.md) stands at this module's root: [`score`],
//! [`random_secret`], [`parse_guess`], [`play`] and [`codebreaker`], with the
//! given types ([`Code`], [`Score`], [`Rules`], [`GuessError`],
//! [`DecodingBoard`]). The rest is the reference's own way:
//!
//! - [`code`]: the rules, pure: guess parsing, scoring, secrets.
//! - [`program`]: the game program over a console.
//! - [`solver`]: codebreakers (Knuth, most parts, expected size, entropy).
//! - [`optimal`]: the optimal codebreaker (5,625 guesses over all secrets),
//!   its search and its embedded decision tree.

pub mod code;
pub mod optimal;
pub mod program;
pub mod solver;

pub use code::{Code, GuessError, Rules, Score, parse_guess, random_secret, score};
pub use program::{DecodingBoard, play};
pub use solver::codebreaker;
