//! boardkit-cli: the `boardkit` binary's library.
//!
//! - The [`registry`] of games: above the games (in the `boardkit` crate),
//!   below every tool that reads it.
//! - The front ends, each keeping only its drawing: the terminal ([`play`]),
//!   the full screen ([`tui`]), network play ([`net`]) and the browser
//!   ([`web`]).
//! - The course's tools: [`starter`] generation, the [`grader`], each game's
//!   public function cases answered by the reference ([`reference_cases`]),
//!   the [`exercise`] manifests, the files a starter is made from
//!   ([`embedded`]) and the kit's [`check`].

pub mod check;
pub mod embedded;
pub mod exercise;
pub mod grader;
pub mod net;
pub mod play;
pub mod reference_cases;
pub mod registry;
pub mod starter;
pub mod table;
pub mod tui;
pub mod web;
