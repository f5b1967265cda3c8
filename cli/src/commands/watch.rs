//! `boardkit watch`: a starter's tests again on every save, each level's
//! progress, and hints one at a time (`boardkit::watch`). What the wheel
//! gives a Python starter; a Rust starter runs the same from its own crate
//! (`cargo run -q -- watch`).

use clap::Args;

use super::grade::Language;
use super::{Failure, Outcome, usage_error};

#[derive(Args)]
pub(crate) struct WatchArgs {
    /// The game.
    #[arg(value_parser = crate::registry::names_parser())]
    game: String,
    /// The starter's folder (default: this one).
    #[arg(default_value = ".")]
    dir: std::path::PathBuf,
    /// The language the starter is written in (default: Python for a
    /// folder with Python files and no Cargo.toml).
    #[arg(long, value_enum)]
    language: Option<Language>,
}

pub(crate) fn run(args: WatchArgs) -> Outcome {
    let game = crate::registry::find(&args.game)
        .ok_or_else(|| usage_error(format_args!("unknown game {:?}", args.game)))?;
    if !args.dir.is_dir() {
        return Err(usage_error(format_args!("{} is not a folder", args.dir.display())).into());
    }
    let language = args
        .language
        .unwrap_or_else(|| Language::of_folder(&args.dir));
    let watch = match language {
        Language::Rust => boardkit::watch::Watch {
            folder: args.dir,
            test: ["cargo", "test", "--test", game.id]
                .map(String::from)
                .to_vec(),
            watched: vec!["src".into()],
            clear: boardkit::watch::clears_screen(),
        },
        Language::Python => {
            let python = crate::exercise_data::manifest(game.id)
                .ok()
                .and_then(|m| m.python)
                .ok_or_else(|| usage_error(format_args!("{} has no Python form yet", game.id)))?;
            // This very binary's `boardkit test`: the cases the pytest file
            // runs, and the summary it ends with.
            let boardkit = std::env::current_exe().map_err(Failure::failed)?;
            boardkit::watch::Watch {
                folder: args.dir,
                test: vec![
                    boardkit.display().to_string(),
                    "test".into(),
                    game.id.into(),
                    ".".into(),
                    "--language".into(),
                    "python".into(),
                ],
                watched: python.files.iter().map(Into::into).collect(),
                clear: boardkit::watch::clears_screen(),
            }
        }
    };
    let input = std::io::BufReader::new(std::io::stdin());
    boardkit::watch::watch(&watch, input, &mut std::io::stdout()).map_err(Failure::failed)
}
