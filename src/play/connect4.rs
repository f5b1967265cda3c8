//! `boardkit play connect4`: the exercise's program and options, with the
//! reference's perfect player (its repertoire of early moves, then a uniform
//! draw among the best columns, with the opening book) behind `--ai perfect`,
//! with a spinner past 0.3 s on a terminal.

use std::io::{BufRead, Write};

use crate::cli::PlayError;
use crate::connect4::ai::PerfectPlayer;
use crate::connect4::solver::Shape;
use crate::connect4::{Board, play as play_game};
use crate::harness::connect4::AiKind;
use crate::player::Strategy;

#[derive(Debug, clap::Args)]
#[group(skip)]
pub struct PlayArgs {
    #[command(flatten)]
    pub exercise: crate::harness::connect4::PlayArgs,
}

/// Plays one game as the options say.
pub fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    _color: bool,
) -> Result<(), PlayError> {
    let options = &args.exercise;
    let (rows, cols) = (options.rows.into(), options.cols.into());
    // `--computer-columns` and `--ai` never come together (clap refuses it).
    let mut computer: Option<Box<dyn Strategy<Board, usize>>> = match options.ai {
        Some(AiKind::Perfect) => {
            let shape = Shape::new(cols, rows)
                .map_err(|e| PlayError::Usage(format!("--ai perfect: {e}")))?;
            let perfect = PerfectPlayer::new(shape, options.seed());
            // A spinner for people waiting; none in scripts and pipes.
            if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                Some(Box::new(super::thinking::Thinking::new(perfect)))
            } else {
                Some(Box::new(perfect))
            }
        }
        _ => options.computer(),
    };
    play_game(
        rows,
        cols,
        computer.as_deref_mut().map(|c| c as _),
        input,
        output,
    )
    .map_err(PlayError::from_io)
}
