//! A game as a terminal program (not the `boardkit` binary's crate, `cli/`):
//! what every game's command line shares: running a game on the terminal
//! and turning its end into an exit status. Used by the `boardkit` binary and
//! by the `main.rs` of every generated starter, so both behave alike.
//!
//! Exit statuses: 0 when the game ended normally, 1 when input ended early
//! (with a message on stderr), 2 for bad command-line usage.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use crate::console::InputError;

/// Why a game could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The options do not make a game (exit status 2).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Input(#[from] InputError),
}

impl PlayError {
    /// A program's I/O error: the end of input, or a failure to read or write.
    pub fn from_io(error: io::Error) -> PlayError {
        if error.kind() == io::ErrorKind::UnexpectedEof {
            PlayError::Input(InputError::EndOfInput)
        } else {
            PlayError::Input(InputError::Io(error))
        }
    }
}

/// Parses the words after `play <game>` into that game's options, as the
/// command line would (how the grader runs the reference on a fixture).
pub fn parse_play_args<A: clap::Args + clap::FromArgMatches>(
    game: &'static str,
    words: &[String],
) -> Result<A, PlayError> {
    let command = A::augment_args(clap::Command::new(game));
    let matches = command
        .try_get_matches_from(std::iter::once(game.to_owned()).chain(words.iter().cloned()))
        .map_err(|e| PlayError::Usage(e.to_string()))?;
    A::from_arg_matches(&matches).map_err(|e| PlayError::Usage(e.to_string()))
}

/// The signature of a game's `play`: its options, input, output, colours.
pub type Play<A> = fn(&A, &mut dyn BufRead, &mut dyn Write, bool) -> Result<(), PlayError>;

/// Plays `game` from the words after `play <game>`, parsed into its options.
pub fn play_from_words<A: clap::Args + clap::FromArgMatches>(
    game: &'static str,
    play: Play<A>,
    words: &[String],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    color: bool,
) -> Result<(), PlayError> {
    play(&parse_play_args::<A>(game, words)?, input, output, color)
}

/// Whether stdout takes colours: a terminal, and NO_COLOR unset (anstream's rules).
pub fn stdout_takes_colors() -> bool {
    anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
}

/// Runs `game` on stdin and stdout, then exits as the module says. `game`
/// gets the input, the output and whether colours may be used; anything it
/// styles is stripped by anstream when stdout is not a terminal.
pub fn run_play(
    game: impl FnOnce(&mut dyn BufRead, &mut dyn Write, bool) -> Result<(), PlayError>,
) -> ExitCode {
    run_play_in("input ended before the game was over", game)
}

/// [`run_play`], saying that input ended early in the game's language.
pub fn run_play_in(
    input_ended: &str,
    game: impl FnOnce(&mut dyn BufRead, &mut dyn Write, bool) -> Result<(), PlayError>,
) -> ExitCode {
    let color = stdout_takes_colors();
    let mut input = io::stdin().lock();
    let mut output = anstream::stdout().lock();
    let result = game(&mut input, &mut output, color);
    let _ = output.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(PlayError::Usage(message)) => {
            eprintln!("error: {message}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(PlayError::Input(InputError::EndOfInput)) => {
            eprintln!("boardkit: {input_ended}");
            ExitCode::from(1)
        }
        Err(PlayError::Input(InputError::Io(e))) => {
            eprintln!("boardkit: cannot read input or write output: {e}");
            ExitCode::from(1)
        }
    }
}
