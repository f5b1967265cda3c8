//! boardkit: an auto-graded exercise kit for terminal board games.
//!
//! The kit's crate, in three rooms:
//!
//! - **The games' references**, one folder each ([`velha`], [`connect4`],
//!   [`mastermind`]): the statement's API at the folder's root, pure rules,
//!   AIs and solvers inside. Each folder is also the example solution of its
//!   exercise: dropped into a starter, it reaches every level.
//! - **What ships with every starter**, outside the student's folder: the
//!   input layer ([`console`]), the one trait between a game and its players
//!   ([`player`]), the types the statement gives ([`given`]), each game's
//!   harness ([`harness`]: levels, comparison, options, function driver),
//!   [`level`], [`compare`], [`fixture`], [`function_cases`], [`uniformity`] and
//!   [`cli`].
//! - **Kit-only tools**: the [`registry`] of games (above the games, and
//!   below the grader, the starter and the check, which read it), each
//!   game's public function cases answered by the reference
//!   ([`reference_cases`]), the reference's command line ([`play`]) and its
//!   full screen ([`tui`]), network play ([`net`]), the browser ([`web`]),
//!   [`starter`] generation, the [`grader`], the [`exercise`] manifests and
//!   the kit's [`check`].

pub mod check;
pub mod cli;
pub mod compare;
pub mod connect4;
pub mod console;
pub mod embedded;
pub mod exercise;
pub mod fixture;
pub mod function_cases;
pub mod given;
pub mod grader;
pub mod harness;
pub mod level;
pub mod mastermind;
pub mod net;
pub mod play;
pub mod player;
pub mod reference_cases;
pub mod registry;
pub mod starter;
pub mod tui;
pub mod uniformity;
pub mod velha;
pub mod web;
