//! Jogo da velha, level by level: `cargo test --test velha basic` (or
//! `proficient`, `advanced`, `expert`) runs one level. These are the
//! grader's public cases, judged as the grader judges them; only what
//! EXERCISE.md names is called, so any solution that follows it can pass.
//!
//! - basic, expert: the statement's functions through the kit's driver, on
//!   the calls in `fixtures/velha/functions/` (every spelling of every
//!   position, every one of the 3^9 boards in both forms, a best move in
//!   every position a game can reach).
//! - proficient, advanced: one scripted session per file in `fixtures/velha`,
//!   replayed through the binary and compared by graded events (title,
//!   boards, messages, result: prompts are free).

mod common;

use boardkit::harness::velha::{LEVELS, answer, shown_call};

fn main() {
    let mut trials = common::function_trials("velha", answer, shown_call);
    trials.extend(common::fixture_trials("velha", LEVELS));
    common::run(trials);
}
