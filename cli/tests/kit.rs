//! The kit's own integration tests, in one binary (cargo's way): each test
//! binary links the whole kit, so one binary is one link instead of seven.
//! Kit-only: none of these is copied into a starter. `cargo test --test kit
//! <module>::` runs one file's tests (`cargo test --test kit network::`).
//!
//! Kept apart: the starter's own `tests/<game>.rs` and `transcripts.rs`
//! (their own harness, one test per case), `browser.rs` (one browser
//! session for the file) and the long grading tests (`long.rs`).

// The starter's test helpers, kept with the library (tests/common).
#[path = "../../tests/common/mod.rs"]
mod common;
mod serve;

mod architecture;
mod catalogue;
mod download_support;
mod guides;
mod network;
mod package_support;
mod packages;
mod public_cases;
mod python_starter;
mod reference;
mod starter;
mod terminal;
mod tui;
mod web_api;
