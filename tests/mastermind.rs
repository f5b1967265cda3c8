//! Mastermind, level by level: `cargo test --test mastermind basic` (or
//! `proficient`, `advanced`, `expert`) runs one level. These are the
//! grader's public cases, judged as the grader judges them; only what
//! EXERCISE.md names is called, so any solution that follows it can pass.
//!
//! - basic, expert: the statement's functions through the kit's driver, on
//!   the calls in `fixtures/mastermind/functions/`: scores (every pair of
//!   codes, and other sizes), parsing, secrets judged by their distribution
//!   (never by the draws themselves), and one codebreaker against every
//!   secret.
//! - proficient, advanced: one scripted session per file in
//!   `fixtures/mastermind`, replayed through the binary and compared by graded
//!   events (each score, the secret, the result: prompts are free).

mod common;

use boardkit::harness::mastermind::{LEVELS, answer, shown_call};

fn main() {
    let mut trials = common::function_trials("mastermind", answer, shown_call);
    trials.extend(common::fixture_trials("mastermind", LEVELS));
    common::run(trials);
}
