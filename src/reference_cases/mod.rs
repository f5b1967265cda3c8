//! Each game's public function cases and the answers accepted for them,
//! computed with the reference. Kit-only: starters get the cases as data
//! (`fixtures/<game>/functions/`). The registry points here; this module
//! imports only the games, their harnesses and the cases' format, so
//! nothing here imports the registry or the grader.

pub mod connect4;
pub mod mastermind;
pub mod velha;
