//! `boardkit play connect4`: the exercise's program and options, with the
//! reference's perfect player (a uniform draw among the best columns, with
//! the opening book) behind `--ai perfect`.

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
            Some(Box::new(PerfectPlayer::new(shape, options.seed())))
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
