//! The `boardkit` command line: parses the arguments and hands them to
//! their command (`commands/`, one module each), whose outcome becomes the
//! exit status by one policy (`commands::Failure::exit`).

mod commands;

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "boardkit",
    version,
    about = "Terminal board games for programming courses: play them, solve them, grade them."
)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() -> ExitCode {
    match commands::run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.exit(),
    }
}
