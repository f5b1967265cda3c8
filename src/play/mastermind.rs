//! `boardkit play mastermind`: the exercise's program and options, with
//! coloured pegs on a terminal.

use std::io::{BufRead, Write};

use crate::cli::PlayError;
use crate::console::Console;
use crate::mastermind::program::{Human, Style, run};

#[derive(Debug, clap::Args)]
#[group(skip)]
pub struct PlayArgs {
    #[command(flatten)]
    pub exercise: crate::harness::mastermind::PlayArgs,
}

/// Plays one game as the options say.
pub fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    color: bool,
) -> Result<(), PlayError> {
    let rules = args.exercise.rules()?;
    let secret = args.exercise.secret(rules)?;
    let turns = args.exercise.turns.into();
    let mut console = Console::new(input, output);
    run(
        &secret,
        rules,
        turns,
        &mut Human,
        Style { color },
        &mut console,
    )?;
    Ok(())
}
