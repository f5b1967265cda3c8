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
#[derive(Debug)]
pub enum PlayError {
    /// The options do not make a game (exit status 2).
    Usage(String),
    Input(InputError),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Usage(message) => f.write_str(message),
            PlayError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::Input(e) => e.source(),
            PlayError::Usage(_) => None,
        }
    }
}

impl From<InputError> for PlayError {
    fn from(e: InputError) -> Self {
        PlayError::Input(e)
    }
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

/// A game's options, read from the words after `play <game>` (a starter's
/// `main.rs`, and the grader running the reference on a fixture). Read
/// with lexopt, not clap: a starter's first build compiles no derive macro.
/// The kit's own `boardkit play` parses the same options with clap, for
/// its `--help`; a kit test holds both readings equal on every fixture.
pub trait Options: Sized {
    /// The options, as `--help` lists them.
    const HELP: &'static str;

    /// Reads the options; a usage error says what is wrong.
    fn from_words(words: &[String]) -> Result<Self, PlayError>;
}

/// A usage error, from the option reader's.
impl From<lexopt::Error> for PlayError {
    fn from(error: lexopt::Error) -> Self {
        PlayError::Usage(error.to_string())
    }
}

/// The value of an option, parsed as a number within `range`.
pub fn number_in<T>(
    parser: &mut lexopt::Parser,
    option: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, PlayError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let value = parser.value()?;
    let text = value.to_string_lossy();
    match text.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(PlayError::Usage(format!(
            "invalid value '{text}' for '--{option}': expected a number from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

/// The value of an option, as text.
pub fn text(parser: &mut lexopt::Parser) -> Result<String, PlayError> {
    parser
        .value()?
        .into_string()
        .map_err(|v| PlayError::Usage(format!("invalid value {v:?}: not UTF-8")))
}

/// Parses the words after `play <game>` into that game's options, as the
/// kit's command line would (`boardkit play`, with clap).
#[cfg(feature = "kit")]
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
#[cfg(feature = "kit")]
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

/// A starter's `main`: `boardkit play <game> [OPTIONS]` runs the student's
/// program through `play`; `--help` says so. What the kit's `boardkit play
/// <game>` does for the exercise's options, without its other commands.
pub fn starter_main<A: Options>(
    title: &str,
    game: &str,
    play: fn(&A, &mut dyn BufRead, &mut dyn Write) -> Result<(), PlayError>,
) -> ExitCode {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let help = format!(
        "{title}\n\nUsage: cargo run -- play {game} [OPTIONS]\n       cargo run -q -- watch   (the tests again on every save, and hints)\n\n{}\n  -h, --help  Print help",
        A::HELP
    );
    let wants_help = |w: &[String]| w.iter().any(|w| w == "--help" || w == "-h");
    match words.as_slice() {
        [] => {
            println!("{help}");
            ExitCode::SUCCESS
        }
        [play_word, named, rest @ ..] if play_word == "play" && named == game => {
            if wants_help(rest) {
                println!("{help}");
                return ExitCode::SUCCESS;
            }
            run_play(|input, output, _color| play(&A::from_words(rest)?, input, output))
        }
        [watch] if watch == "watch" => {
            let watch = crate::watch::Watch {
                folder: ".".into(),
                test: ["cargo", "test", "--test", game].map(String::from).to_vec(),
                watched: vec!["src".into()],
                clear: crate::watch::clears_screen(),
            };
            let input = io::BufReader::new(io::stdin());
            match crate::watch::watch(&watch, input, &mut io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("boardkit: watch: {e}");
                    ExitCode::from(1)
                }
            }
        }
        _ if wants_help(&words) => {
            println!("{help}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!(
                "error: unexpected arguments {:?}\n\nUsage: cargo run -- play {game} [OPTIONS]\n\nFor more information, try '--help'.",
                words.join(" ")
            );
            ExitCode::from(2)
        }
    }
}
