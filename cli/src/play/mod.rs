//! `boardkit play <game>`: the reference's command line for each game. Its
//! options are the exercise's (the shipped harness's) plus the reference's
//! own extras (AI levels, board sizes, colours). Kit-only: starters play the
//! student's program through the harness instead.
//!
//! Each game has `play` (one game, the exercise's transcript: what the
//! grader and the fixtures run) and `session` (what the binary runs: `play`
//! when piped, games in a row for people on a terminal).

pub(crate) mod connect4;
pub(crate) mod mastermind;
pub(crate) mod paint;
pub(crate) mod scoreboard;
pub(crate) mod session;
pub(crate) mod thinking;
pub(crate) mod velha;

use std::io::{BufRead, Write};

use boardkit::program::PlayError;
use session::{Language, SessionArgs, Terminal};

/// A game as `boardkit play` offers it: its subcommand, the language its
/// transcript speaks, its options, and its session.
pub(crate) struct TerminalGame {
    /// The subcommand's name.
    pub id: &'static str,
    /// The subcommand's one-line help.
    pub about: &'static str,
    /// The language of its transcript (and of "input ended").
    pub language: Language,
    /// Adds the game's options (its `PlayArgs`) to its subcommand.
    pub args: fn(clap::Command) -> clap::Command,
    /// Plays what the binary runs (see [`TerminalGame::args`]), from the
    /// subcommand's matches.
    pub session: SessionFn,
}

/// A game's session from its subcommand's matches: the session's options,
/// input, output, the terminal's abilities.
pub(crate) type SessionFn = fn(
    &clap::ArgMatches,
    &SessionArgs,
    &mut dyn BufRead,
    &mut dyn Write,
    Terminal,
) -> Result<(), PlayError>;

/// A game's `PlayArgs` from its subcommand's matches: they were declared
/// by [`TerminalGame::args`], so only a bug makes this fail.
fn options<T: clap::FromArgMatches>(matches: &clap::ArgMatches) -> Result<T, PlayError> {
    T::from_arg_matches(matches).map_err(|e| PlayError::Usage(e.to_string()))
}
