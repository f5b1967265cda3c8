//! The types the statement (EXERCISE.md) gives, complete.
//!
//! They ship as they are with every starter, outside the student's folder, so
//! a student uses them and never has to write them; the reference uses the
//! very same ones. Jogo da velha gives none: its API is plain `char`s.

pub mod connect4;
pub mod mastermind;
