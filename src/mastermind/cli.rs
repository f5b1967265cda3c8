//! `boardkit play mastermind`: the options and the secret they make. Part of
//! the kit (copied as is into starters), not of the exercise.

use rand::SeedableRng;

use super::code::{Rules, parse_guess, random_secret};
use super::program::{Human, Style, play as play_game};
use crate::cli::PlayError;
use crate::console::Console;

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The secret code (letters, either case), instead of a random one.
    #[arg(long, conflicts_with = "seed")]
    pub secret: Option<String>,
    /// Seed for drawing the secret, so a game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Pegs in a code (1 to 10).
    #[arg(long, default_value_t = 4)]
    pub pegs: usize,
    /// Number of colours, letters from A (2 to 26).
    #[arg(long, default_value_t = 6)]
    pub colors: usize,
    /// Guesses allowed (1 to 100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub turns: u8,
}

/// Plays one game as the options say.
pub fn play(args: &PlayArgs, console: &mut Console<'_>, color: bool) -> Result<(), PlayError> {
    let rules = Rules::new(args.pegs, args.colors).map_err(|e| PlayError::Usage(e.to_string()))?;
    let secret = match &args.secret {
        Some(text) => parse_guess(text, rules)
            .map_err(|e| PlayError::Usage(format!("invalid --secret {text:?}: {e}")))?,
        None => {
            let mut rng =
                rand_chacha::ChaCha8Rng::seed_from_u64(args.seed.unwrap_or_else(rand::random));
            random_secret(rules, &mut rng)
        }
    };
    play_game(
        &secret,
        rules,
        args.turns.into(),
        &mut Human,
        Style { color },
        console,
    )?;
    Ok(())
}

/// Plays one game from command-line words (those after `play mastermind`).
pub fn play_with(
    words: &[String],
    console: &mut Console<'_>,
    color: bool,
) -> Result<(), PlayError> {
    play(
        &crate::cli::parse_play_args::<PlayArgs>("mastermind", words)?,
        console,
        color,
    )
}
