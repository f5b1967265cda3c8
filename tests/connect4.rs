//! Connect four, level by level: `cargo test --test connect4 basic` (or
//! `proficient`, `advanced`, `expert`) runs one level. These are the
//! grader's public cases, judged as the grader judges them; only what
//! EXERCISE.md names is called, so any solution that follows it can pass.
//!
//! - basic, advanced, expert: the statement's functions and players through
//!   the kit's driver, on the calls in `fixtures/connect4/functions/`: drops
//!   on boards of every size, four in a row asked of every cell, the
//!   computer players judged by what they do (a legal column, a win taken, a
//!   loss blocked, every legal column drawn as often as a uniform draw
//!   allows, a seed that replays a game), `best_move` against exact scores.
//! - proficient, advanced: one scripted session per file in
//!   `fixtures/connect4`, replayed through the binary and compared line by
//!   line (the line explaining an invalid input is free); against a computer,
//!   the kit's own opponent plays fixed columns.

mod common;

use boardkit::harness::connect4::{LEVELS, answer, shown_call};

fn main() {
    let mut trials = common::function_trials("connect4", answer, shown_call);
    trials.extend(common::fixture_trials("connect4", LEVELS));
    common::run(trials);
}
