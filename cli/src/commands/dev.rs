//! `boardkit dev`: the kit's own tools, for its developers and its CI.

use clap::Subcommand;

use super::{Failure, Outcome};

#[derive(Subcommand)]
pub(crate) enum DevCommand {
    /// Prove that every game's tests discriminate: the stubs fail every
    /// level, the example passes, each seeded mutation is caught, and every
    /// independent solution reaches its level, locally and in the grader.
    Check {
        /// Only these games (default: every game).
        #[arg(value_parser = crate::registry::names_parser())]
        games: Vec<String>,
        /// Work in this folder (kept afterwards) instead of a temporary one.
        #[arg(long)]
        work: Option<std::path::PathBuf>,
        /// Only step 6: students' own tests are graded fairly (the careful
        /// suites, the mutants against the promised calls, the API).
        #[arg(long)]
        own_tests_only: bool,
    },
}

/// Runs a developer's command.
pub(crate) fn run(command: DevCommand) -> Outcome {
    let DevCommand::Check {
        games,
        work,
        own_tests_only,
    } = command;
    let failures =
        crate::check::run(&games, work.as_deref(), own_tests_only).map_err(Failure::failed)?;
    if failures.is_empty() {
        println!("every check passed");
        return Ok(());
    }
    println!("{} check(s) failed:", failures.len());
    for failure in failures {
        println!("  {failure}");
    }
    Err(Failure::Said(std::process::ExitCode::from(1)))
}
