//! One module per command (cargo's `commands/`), and the one policy that
//! turns how a command ended into an exit status:
//!
//! - **0**: done.
//! - **1**: the command ran and failed: a game's input ended early, a check
//!   failed, a submission does not reach `--require`, a file cannot be read
//!   or written.
//! - **2**: the command was asked wrongly: clap's usage errors, a value
//!   clap cannot check alone, a class that cannot be graded as asked (no
//!   sandbox, two submissions of one name).
//!
//! A failure is printed once, here, as `boardkit: <why>` on stderr.

pub(crate) mod book;
pub(crate) mod dev;
pub(crate) mod grade;
pub(crate) mod package;
pub(crate) mod play;
pub(crate) mod scores;
pub(crate) mod solve;
pub(crate) mod test;
pub(crate) mod watch;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// The command line.
#[derive(Parser)]
#[command(
    name = "boardkit",
    version,
    about = "Terminal board games for programming courses: play them, solve them, grade them."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Runs the command `cli` names; its outcome is the exit status, by the
/// policy above.
pub fn run(cli: Cli) -> ExitCode {
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// How a command failed; [`Failure::report`] is the policy.
pub(crate) enum Failure {
    /// It ran and failed (status 1).
    Failed(Box<dyn std::error::Error + Send + Sync>),
    /// It cannot run as asked (status 2).
    Refused(Box<dyn std::error::Error + Send + Sync>),
    /// Its arguments are wrong in a way clap cannot check alone: clap's
    /// usage message, status 2.
    Usage(String),
    /// It told the person itself (a game, a network session, the full
    /// screen, the list of failed checks): only the status is left.
    Said(ExitCode),
}

/// What every command returns.
pub(crate) type Outcome = Result<(), Failure>;

/// An anyhow error shown with its causes (`cannot write x: No space left`).
#[derive(Debug, thiserror::Error)]
#[error("{0:#}")]
pub(crate) struct Chain(anyhow::Error);

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Self {
        match error.downcast::<UsageError>() {
            Ok(usage) => usage.into(),
            Err(error) => Failure::Failed(Box::new(Chain(error))),
        }
    }
}

impl Failure {
    /// A command's own error, as a failure of the run (status 1).
    pub(crate) fn failed(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Failure::Failed(Box::new(error))
    }

    /// Prints why (when not said already) and gives the exit status.
    pub(crate) fn report(self) -> ExitCode {
        // What a command printed on stdout goes out before its error.
        let _ = std::io::Write::flush(&mut std::io::stdout());
        match self {
            Failure::Failed(error) => {
                eprintln!("boardkit: {error}");
                ExitCode::from(1)
            }
            Failure::Refused(error) => {
                eprintln!("boardkit: {error}");
                ExitCode::from(2)
            }
            Failure::Usage(message) => {
                let error = Cli::command().error(clap::error::ErrorKind::ValueValidation, message);
                // clap's own rendering (and exit status) of a usage error.
                let _ = error.print();
                ExitCode::from(2)
            }
            Failure::Said(status) => status,
        }
    }
}

/// A status a front end gave after telling the person why.
fn said(status: ExitCode) -> Outcome {
    if status == ExitCode::SUCCESS {
        Ok(())
    } else {
        Err(Failure::Said(status))
    }
}

/// Arguments wrong in a way clap cannot check alone: status 2 and clap's
/// usage message, printed by [`Failure::report`] as clap prints its own. It
/// travels as a value, through `anyhow` too, up to [`run`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(String);

/// A [`UsageError`] saying `message`.
pub(crate) fn usage_error(message: impl std::fmt::Display) -> UsageError {
    UsageError(message.to_string())
}

impl From<UsageError> for Failure {
    fn from(error: UsageError) -> Self {
        Failure::Usage(error.0)
    }
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Play a game in the terminal, or scripted over stdin.
    Play {
        /// An exercise package's folder (docs/authors.md) instead of a
        /// game of the kit: its reference's program, built and run as
        /// your own user (play packages you trust).
        #[arg(long, value_name = "PACKAGE")]
        exercise: Option<std::path::PathBuf>,
        /// With --exercise, the options of a program that takes them,
        /// after `--`: `boardkit play --exercise PACKAGE -- --start 3`.
        #[arg(last = true, requires = "exercise", value_name = "OPTIONS")]
        options: Vec<String>,
        #[command(subcommand)]
        game: Option<play::PlayGame>,
    },
    /// Host a two-player game (velha or connect4) for one opponent over TCP.
    ///
    /// Prints the address it waits on (127.0.0.1 unless --bind), takes the
    /// first opponent and stops listening; you play X and start the first
    /// game. The protocol is in docs/players.md, "Network play".
    #[command(mut_arg("game", |game| game.value_parser(crate::net::game_parser(crate::registry::network_games()))))]
    Host(crate::net::HostArgs),
    /// Join a game hosted with `boardkit host`, at the address it printed.
    Join(crate::net::JoinArgs),
    /// Serve the games to a web browser, on 127.0.0.1 unless --bind.
    ///
    /// Prints the address it listens on; open it in a browser. The rules
    /// and the computer players run here; the JSON API is in docs/players.md,
    /// "Browser". Ctrl-C stops it.
    Serve(crate::web::ServeArgs),
    /// Play full screen: a menu, arrow keys and Enter, undo, hints, play
    /// again (needs a terminal).
    #[command(mut_arg("game", |game| game.value_parser(crate::tui::game_names(&crate::registry::tui_games()))))]
    Tui(crate::tui::TuiArgs),
    /// Print the scoreboard: every result recorded by games played on a
    /// terminal (or with --scoreboard).
    Scores {
        /// The scoreboard file (default: boardkit/scores.json in the
        /// platform's data folder).
        #[arg(long, value_name = "PATH")]
        scoreboard: Option<std::path::PathBuf>,
        /// Only this game's results.
        #[arg(long, value_parser = crate::registry::names_parser())]
        game: Option<String>,
    },
    /// Write a student starter for a game: stubs, public fixtures and
    /// their tests, the statement, and (a built-in game's crate) a CI
    /// workflow with one job per level.
    Starter {
        /// A built-in game (velha, connect4, mastermind). With --exercise
        /// there is none: the one argument is the folder to write into
        /// (`boardkit starter --exercise PACKAGE DIR`).
        game: String,
        /// A new (or empty) folder.
        dir: Option<std::path::PathBuf>,
        /// An exercise package's folder (docs/authors.md) instead of a
        /// game of the kit: `boardkit starter --exercise PACKAGE DIR`.
        #[arg(long, value_name = "PACKAGE")]
        exercise: Option<std::path::PathBuf>,
        /// rust (a crate), or python (the exercise's Python files, with
        /// pytest tests).
        #[arg(long, value_enum, default_value_t = grade::Language::Rust)]
        language: grade::Language,
        /// The statement's language: en (the default), or a translation
        /// the kit holds (velha: pt-BR; connect4: fr); with --exercise,
        /// one of the package's statements (default: en if it has one,
        /// else the first by name). The exact lines a program prints are
        /// the same in every one.
        #[arg(long)]
        locale: Option<String>,
    },
    /// Run the public cases on a student's own folder, as the grader judges
    /// them: what a Python starter's tests run (a Rust one's are `cargo test`).
    Test(test::TestArgs),
    /// Run a starter's tests again on every save, with each level's
    /// progress and the exercise's hints one at a time (h then Enter; q
    /// then Enter quits). A Rust starter of a built-in game also runs it
    /// as `cargo run -q -- watch`; a package's, as `boardkit watch
    /// --exercise PACKAGE`.
    Watch(watch::WatchArgs),
    /// Grade a class: every submission's cases, in isolation, with reports
    /// (grades.csv, students/<name>/results.json, junit.xml, report.html) in --out.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade {
        #[command(subcommand)]
        merge: Option<grade::GradeCommand>,
        // Boxed: the largest of the commands' arguments by far.
        #[command(flatten)]
        args: Box<grade::GradeArgs>,
    },
    /// Run a solver: print what a perfect or strong player would do.
    Solve {
        #[command(subcommand)]
        game: solve::SolveGame,
    },
    /// Compute an opening book with the solver (slow: see docs/players.md, "The opening book").
    Book {
        #[command(subcommand)]
        game: book::BookGame,
    },
    /// Write a new exercise package that `boardkit verify` passes as it
    /// stands: one function, one session, references in Rust and Python,
    /// a wrong submission (docs/authors.md).
    New {
        /// The exercise's name: the student's folder `src/<NAME>/`, the
        /// module `<NAME>.py`.
        name: String,
        /// A new (or empty) folder.
        dir: std::path::PathBuf,
    },
    /// Check an exercise package: its schema, its reference on every case,
    /// its submissions' and mutants' levels, its stubs, its rules, its
    /// starters (docs/authors.md).
    Verify(package::PackageArgs),
    /// Write a package's expected answers by running its reference.
    Bless(package::PackageArgs),
    /// The kit's own tools, for its developers and its CI.
    Dev {
        #[command(subcommand)]
        command: dev::DevCommand,
    },
}

/// Runs one command.
fn dispatch(command: Command) -> Outcome {
    match command {
        Command::Play {
            game: Some(game),
            exercise: None,
            ..
        } => said(play::run(game)),
        Command::Play {
            game: None,
            exercise: Some(folder),
            options,
        } => package::play(&folder, &options),
        Command::Play { .. } => Err(usage_error(
            "expected a game or --exercise PACKAGE: boardkit play GAME, or boardkit play --exercise PACKAGE",
        )
        .into()),
        Command::Host(args) if args.peer.tui => {
            said(crate::tui::host(&args, &crate::registry::tui_games()))
        }
        Command::Join(args) if args.peer.tui => said(crate::tui::join(
            &args,
            &crate::registry::tui_games(),
            &crate::registry::network_games(),
        )),
        Command::Host(args) => {
            args.peer.apply_color_choice();
            said(crate::net::run(|input, output, color| {
                crate::net::host(&args, input, output, color)
            }))
        }
        Command::Join(args) => {
            args.peer.apply_color_choice();
            said(crate::net::run(|input, output, color| {
                crate::net::join(
                    &args,
                    &crate::registry::network_games(),
                    input,
                    output,
                    color,
                )
            }))
        }
        Command::Serve(args) => {
            crate::web::serve(&args, crate::registry::web_games()).map_err(Failure::failed)
        }
        Command::Tui(args) => said(crate::tui::run(&args, &crate::registry::tui_games())),
        Command::Scores { scoreboard, game } => scores::run(scoreboard, game),
        Command::Starter {
            game,
            dir,
            exercise,
            language,
            locale,
        } => match (exercise, dir) {
            (Some(package), None) => package::starter(
                &package,
                std::path::Path::new(&game),
                language == grade::Language::Python,
                locale.as_deref(),
            ),
            (Some(_), Some(_)) => Err(usage_error(
                "with --exercise, give only the folder to write into: boardkit starter --exercise PACKAGE DIR",
            )
            .into()),
            (None, Some(dir)) => starter(&known_game(&game)?, &dir, language, locale.as_deref()),
            (None, None) => Err(usage_error("expected a game and a folder: boardkit starter GAME DIR").into()),
        },
        Command::New { name, dir } => package::new(&name, &dir),
        Command::Verify(args) => package::verify(&args),
        Command::Bless(args) => package::bless(&args),
        Command::Grade { merge, args } => grade::run(merge, *args),
        Command::Test(args) => test::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Dev { command } => dev::run(command),
        Command::Book { game } => book::run(game),
        Command::Solve { game } => Ok(solve::run(game)?),
    }
}

/// `game` if the kit has it; otherwise a usage error naming the games,
/// as clap names a value it refuses.
pub(crate) fn known_game(game: &str) -> Result<String, UsageError> {
    if crate::registry::find(game).is_some() {
        return Ok(game.to_owned());
    }
    let nearest = crate::registry::GAMES
        .iter()
        .map(|g| (distance(game, g.id), g.id))
        .min()
        .filter(|(d, _)| *d <= 3)
        .map(|(_, id)| format!("\n\n  tip: a similar value exists: '{id}'"))
        .unwrap_or_default();
    Err(usage_error(format!(
        "invalid value '{game}' for '<GAME>'\n  [possible values: {}]{nearest}",
        crate::registry::names()
    )))
}

/// The built-in package a game's Python starter in `dir` was written
/// from: the one of the starter's locale (`tests/locale.toml`'s, English
/// without one); `None` when the game has no Python form.
pub(crate) fn python_package_in(game: &str, dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let locale = std::fs::read_to_string(dir.join(boardkit::catalogue::Catalogue::FILE))
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|table| table.get("locale")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| "en".to_owned());
    crate::exercise_data::python_package(game, &locale).map(Into::into)
}

/// The edit distance between two words (Levenshtein's).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            previous = here;
        }
    }
    row[b.len()]
}

/// What `boardkit starter` says once it wrote `count` files into `dir`,
/// in the starter's language (its catalogue): the files, whether pytest
/// is there for a Python starter, and the next command.
pub(crate) fn said_written(dir: &std::path::Path, count: usize, python: bool) {
    let said = boardkit::catalogue::Catalogue::of_folder(dir);
    let folder = dir.display();
    println!(
        "{}",
        said.fill(
            "wrote {count} files into {folder}",
            &[("count", &count), ("folder", &folder)]
        )
    );
    // pytest for the very `python3` the next command runs, before it.
    if python {
        let advice = crate::starter::pytest_check::check(dir);
        if let Some(text) = crate::starter::pytest_check::message(&advice, &said) {
            print!("{text}");
        }
    }
    let next = if python {
        "python3 -m pytest"
    } else {
        "cargo test"
    };
    let command = format!("cd {folder} && {next}");
    println!("{}", said.fill("next: {command}", &[("command", &command)]));
}

/// `boardkit starter`: a student's crate, or Python files, for one game.
fn starter(
    game: &str,
    dir: &std::path::Path,
    language: grade::Language,
    locale: Option<&str>,
) -> Outcome {
    use crate::starter::{StarterError, write_starter};
    if language == grade::Language::Python {
        // A game's Python form is a package (velha's exam).
        return match crate::exercise_data::python_package(game, locale.unwrap_or("en")) {
            Some(name) => package::starter(std::path::Path::new(&name), dir, true, locale),
            None => Err(usage_error(StarterError::NoPython(game.to_owned())).into()),
        };
    }
    match write_starter(game, dir, locale) {
        Ok(files) => {
            said_written(dir, files.len(), false);
            Ok(())
        }
        Err(
            e @ (StarterError::UnknownGame(..)
            | StarterError::NoPython(..)
            | StarterError::NoLocale(..)),
        ) => Err(usage_error(e).into()),
        Err(e) => Err(Failure::failed(e)),
    }
}
