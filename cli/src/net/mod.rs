//! Network play (SPEC 7, "Network"): `boardkit host <GAME>` and
//! `boardkit join <HOST:PORT>`, two people over TCP, playing the
//! two-player games of the registry (each its [`NetworkGame`]; the
//! commands hand them over, as to every front end).
//!
//! - [`protocol`]: the messages (line-delimited JSON, a versioned hello),
//!   the bounded reader, the faults a peer can commit.
//! - [`games`]: each game's rules and words for network play, over the
//!   library's boards, and [`games::Round`], one game's moves.
//! - [`session`]: the host's authoritative loop and the joiner's, over any
//!   `BufRead` and `Write`.
//! - [`tcp`]: the command-line options, listening, connecting, timeouts,
//!   closing.
//!
//! Exit statuses, as for `play`: 0 when the people are done, 1 for a
//! network or peer error (and input that ends mid-game), with a message on
//! stderr, 2 for bad usage.

pub(crate) mod games;
pub(crate) mod protocol;
pub(crate) mod session;
pub(crate) mod tcp;

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

pub(crate) use games::NetworkGame;
pub(crate) use tcp::{HostArgs, JoinArgs, NetError, game_parser, host, join};

/// Runs `host` or `join` on stdin and stdout and turns its end into an
/// exit status, the error on stderr. `command` gets the input, the output
/// and whether colours may be used.
pub(crate) fn run(
    command: impl FnOnce(&mut dyn BufRead, &mut dyn Write, bool) -> Result<session::Tally, NetError>,
) -> ExitCode {
    let color = boardkit::program::stdout_takes_colors();
    let mut input = io::stdin().lock();
    let mut output = anstream::stdout().lock();
    let result = command(&mut input, &mut output, color);
    let _ = output.flush();
    exit_status(result)
}

/// The exit status of a network session, the error on stderr: 0 when the
/// people are done, 2 for bad usage, 1 otherwise.
pub(crate) fn exit_status<T>(result: Result<T, NetError>) -> ExitCode {
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(NetError::Usage(message)) => {
            eprintln!("error: {message}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("boardkit: {error}");
            ExitCode::from(1)
        }
    }
}
