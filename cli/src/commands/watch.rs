//! `boardkit watch`: a starter's tests again on every save, each level's
//! progress, and hints one at a time (`boardkit::watch`). What the wheel
//! gives a Python starter; a Rust starter runs the same from its own crate
//! (`cargo run -q -- watch`).

use clap::Args;

use super::grade::Language;
use super::{Failure, Outcome, usage_error};

#[derive(Args)]
pub(crate) struct WatchArgs {
    /// A built-in game (velha, connect4, mastermind). With --exercise
    /// there is none: the one argument is the starter's folder
    /// (`boardkit watch --exercise PACKAGE [DIR]`).
    game: Option<String>,
    /// The starter's folder (default: this one).
    dir: Option<std::path::PathBuf>,
    /// An exercise package's folder (docs/authors.md) instead of a game
    /// of the kit: each save runs `boardkit test --exercise PACKAGE` on
    /// the starter, and its hints are the package's.
    #[arg(long, value_name = "PACKAGE")]
    exercise: Option<std::path::PathBuf>,
    /// The language the starter is written in (default: Python for a
    /// folder with Python files and no Cargo.toml).
    #[arg(long, value_enum)]
    language: Option<Language>,
}

pub(crate) fn run(args: WatchArgs) -> Outcome {
    let (game, dir) = match (&args.exercise, args.game, args.dir) {
        (Some(_), _, Some(_)) => {
            return Err(usage_error(
                "with --exercise, give only the starter's folder: boardkit watch --exercise PACKAGE [DIR]",
            )
            .into());
        }
        (Some(_), dir, None) => (None, dir.map_or_else(|| ".".into(), Into::into)),
        (None, Some(game), dir) => (Some(game), dir.unwrap_or_else(|| ".".into())),
        (None, None, _) => {
            return Err(usage_error("expected a game: boardkit watch GAME [DIR]").into());
        }
    };
    if !dir.is_dir() {
        return Err(usage_error(format_args!("{} is not a folder", dir.display())).into());
    }
    let language = args.language.unwrap_or_else(|| Language::of_folder(&dir));
    let watch = match (game, &args.exercise) {
        // A game whose Python form is a package (velha's exam): its
        // starter's.
        (Some(game), _) if language == Language::Python => {
            let game = super::known_game(&game)?;
            match super::python_package_in(&game, &dir) {
                Some(package) => package_watch(&package, dir, language)?,
                None => game_watch(&game, dir, language)?,
            }
        }
        (Some(game), _) => game_watch(&super::known_game(&game)?, dir, language)?,
        (None, Some(package)) => package_watch(package, dir, language)?,
        (None, None) => return Ok(()),
    };
    let input = std::io::BufReader::new(std::io::stdin());
    boardkit::watch::watch(&watch, input, &mut std::io::stdout()).map_err(Failure::failed)
}

/// What watch mode runs for a package's starter: this very binary's
/// `boardkit test --exercise`, on every save of the student's files.
fn package_watch(
    package: &std::path::Path,
    dir: std::path::PathBuf,
    language: Language,
) -> Result<boardkit::watch::Watch, Failure> {
    let loaded = super::package::loaded(package)?;
    let absolute = |p: &std::path::Path| std::path::absolute(p).map_err(Failure::failed);
    let boardkit = std::env::current_exe().map_err(Failure::failed)?;
    let watched = match language {
        Language::Rust => vec![format!("src/{}", loaded.name).into()],
        Language::Python => {
            let mut files = vec![loaded.python.module_file().into()];
            if let Some(program) = &loaded.python.program {
                files.push(program.into());
            }
            files
        }
    };
    Ok(boardkit::watch::Watch {
        test: vec![
            boardkit.display().to_string(),
            "test".into(),
            "--exercise".into(),
            absolute(&loaded.root)?.display().to_string(),
            absolute(&dir)?.display().to_string(),
            "--language".into(),
            match language {
                Language::Rust => "rust",
                Language::Python => "python",
            }
            .into(),
        ],
        folder: dir,
        watched,
        clear: boardkit::watch::clears_screen(),
    })
}

/// What watch mode runs for a starter of the kit's `game`.
fn game_watch(
    game: &str,
    dir: std::path::PathBuf,
    language: Language,
) -> Result<boardkit::watch::Watch, Failure> {
    let game = crate::registry::find(game)
        .ok_or_else(|| usage_error(format_args!("unknown game {game:?}")))?;
    let watch = match language {
        Language::Rust => boardkit::watch::Watch {
            folder: dir,
            test: ["cargo", "test", "--test", game.id]
                .map(String::from)
                .to_vec(),
            watched: vec!["src".into()],
            clear: boardkit::watch::clears_screen(),
        },
        Language::Python => {
            return Err(usage_error(format_args!(
                "{} has no Python form yet: its starter is a Rust crate",
                game.id
            ))
            .into());
        }
    };
    Ok(watch)
}
