//! boardkit-cli: the `boardkit` binary's library. Its face is the command
//! line ([`Cli`], [`run`]) and the [`registry`]; the rest is the crate's own.
//!
//! - The [`registry`] of games: above the games (in the `boardkit` crate),
//!   below every tool that reads it.
//! - The front ends, each keeping only its drawing: the terminal ([`play`]),
//!   the full screen ([`tui`]), network play ([`net`]) and the browser
//!   ([`web`]).
//! - The computer [`opponents`] and modes of each game, for every front end.
//! - The course's tools: [`starter`] generation, the [`grader`], the cases
//!   a run grades with their answers ([`graded_cases`]), the calls made of
//!   each game's functions ([`function_calls`], answered by the reference),
//!   the data of `exercises/` ([`exercise_data`]: manifests, mutations,
//!   solutions), the files a starter is made from ([`embedded`]) and the
//!   kit's [`check`].

#![warn(unreachable_pub)]

mod check;
mod commands;
mod embedded;
mod exercise_data;
mod function_calls;
mod graded_cases;
mod grader;
mod net;
mod opponents;
mod package;
mod play;
pub mod registry;
mod starter;
mod tui;
mod web;

pub use commands::{Cli, run};
