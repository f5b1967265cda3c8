//! boardkit-cli: the `boardkit` binary's library. Its face is the command
//! line ([`Cli`], [`run`]) and the [`registry`]; the rest is the crate's own.
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

#![warn(unreachable_pub)]

mod cases;
mod check;
mod commands;
mod embedded;
mod exercise;
mod grader;
mod net;
mod play;
mod reference_cases;
pub mod registry;
mod starter;
mod table;
mod tui;
mod web;

pub use commands::{Cli, run};
