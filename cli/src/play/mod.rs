//! `boardkit play <game>`: the reference's command line for each game. Its
//! options are the exercise's (the shipped harness's) plus the reference's
//! own extras (AI levels, board sizes, colours). Kit-only: starters play the
//! student's program through the harness instead.
//!
//! Each game has `play` (one game, the exercise's transcript: what the
//! grader and the fixtures run) and `session` (what the binary runs: `play`
//! when piped, games in a row for people on a terminal).

pub(crate) mod connect4;
pub(crate) mod mastermind;
pub(crate) mod paint;
pub(crate) mod scoreboard;
pub(crate) mod session;
pub(crate) mod thinking;
pub(crate) mod velha;
