//! boardkit: an auto-graded exercise kit for terminal board games.
//!
//! The reference library of the kit: each game in its own module, with pure
//! rules, its AIs and its program over a [`console::Console`]; the fixture
//! format that tests and grader replay; and each game's self-description in
//! [`game`]. The `boardkit` binary is a thin command line over this library.

pub mod cli;
pub mod connect4;
pub mod console;
pub mod fixture;
pub mod game;
pub mod grader;
pub mod mastermind;
pub mod player;
pub mod starter;
pub mod velha;
