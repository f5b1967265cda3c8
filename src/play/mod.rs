//! `boardkit play <game>`: the reference's command line for each game. Its
//! options are the exercise's (the shipped harness's) plus the reference's
//! own extras (AI levels, board sizes, colours). Kit-only: starters play the
//! student's program through the harness instead.

pub mod connect4;
pub mod mastermind;
pub mod thinking;
pub mod velha;
