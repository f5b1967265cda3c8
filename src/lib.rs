//! boardkit: the library a student's starter is made from.
//!
//! Two rooms:
//!
//! - **What ships with every starter**, outside the student's folder: the
//!   input layer ([`console`]), the one trait between a game and its players
//!   ([`player`]), the types the statement gives ([`given`]), each game's
//!   harness ([`harness`]: levels, comparison, options, function driver),
//!   [`level`], [`compare`], [`judge`], the two kinds of fixture file
//!   ([`session_fixture`]: a scripted session; [`function_fixture`]: calls
//!   of a function and their accepted answers), [`uniformity`] and
//!   [`program`] (a game run as a terminal program, and its exit status),
//!   [`watch`] (the tests run again on every save, with hints).
//! - **The games' references**, one folder each ([`velha`], [`connect4`],
//!   [`mastermind`]): the statement's API at the folder's root, pure rules,
//!   AIs and solvers inside. Each folder is also the example solution of its
//!   exercise: dropped into a starter, it reaches every level.
//!
//! A starter takes the files its `exercises/<game>/exercise.toml` names: the
//! kit's modules above for one game, that game's stub, the fixtures and the
//! tests. The `boardkit` binary (the `boardkit-cli` crate, in `cli/`) plays,
//! grades and generates starters from this crate.

pub mod catalogue;
pub mod compare;
pub mod connect4;
pub mod console;
pub mod function_fixture;
pub mod given;
pub mod harness;
pub mod judge;
pub mod level;
pub mod mastermind;
pub mod player;
pub mod program;
pub mod session_fixture;
pub mod uniformity;
pub mod velha;
pub mod watch;
