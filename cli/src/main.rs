//! The `boardkit` command line: parses the arguments and hands them to
//! their command (`commands/`, one module each, in the library), whose
//! outcome becomes the exit status by one policy.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    boardkit_cli::run(boardkit_cli::Cli::parse())
}
