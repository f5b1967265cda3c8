//! The Mastermind program (SPEC 3.3): a loop over a [`Console`].
//!
//! Each turn asks the codebreaker (a [`Player`]: a human at the console, or a
//! solver strategy) for a guess and prints its score in a line holding
//! `<B> black, <W> white`. An invalid guess is explained and asked again
//! without using a turn. The game ends at four black, on any turn, or after
//! the last turn; then `Secret: <CODE>` and `You win` or `You lose!`.

use std::io::{self, BufRead, Write};

use super::code::{Code, Rules, Score, parse_guess, score};
use crate::console::{Console, InputError};
use crate::player::Player;

pub use crate::given::mastermind::DecodingBoard;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Found on this turn (1-based).
    Won {
        turn: usize,
    },
    Lost,
}

/// Whether the program may style its output (a terminal, NO_COLOR unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    pub color: bool,
}

impl Style {
    /// A code, each peg in its colour when styling is on.
    pub fn code(&self, code: &Code) -> String {
        if !self.color {
            return code.to_string();
        }
        const PALETTE: [anstyle::AnsiColor; 6] = [
            anstyle::AnsiColor::Red,
            anstyle::AnsiColor::Green,
            anstyle::AnsiColor::Yellow,
            anstyle::AnsiColor::Blue,
            anstyle::AnsiColor::Magenta,
            anstyle::AnsiColor::Cyan,
        ];
        code.pegs()
            .iter()
            .map(|&peg| {
                let style = anstyle::Style::new()
                    .bold()
                    .fg_color(PALETTE.get(peg as usize).map(|&c| c.into()));
                format!("{style}{}{style:#}", (b'A' + peg) as char)
            })
            .collect()
    }

    /// The feedback line's text: always `<B> black, <W> white`, and on a
    /// terminal the key pegs too.
    pub fn score(&self, score: Score) -> String {
        if !self.color {
            return score.to_string();
        }
        format!(
            "{score}  {}{}",
            "●".repeat(score.black.into()),
            "○".repeat(score.white.into())
        )
    }
}

/// A person typing guesses at the console.
#[derive(Debug, Default)]
pub struct Human;

impl Player<DecodingBoard, Code> for Human {
    fn next_move(
        &mut self,
        board: &DecodingBoard,
        console: &mut Console<'_>,
    ) -> Result<Code, InputError> {
        loop {
            writeln!(
                console.out,
                "Guess {} of {}:",
                board.guesses.len() + 1,
                board.turns
            )?;
            let problem = match console.read_line()? {
                Ok(line) => match parse_guess(&line, board.rules) {
                    Ok(code) => return Ok(code),
                    Err(e) => e.to_string(),
                },
                Err(e) => e.to_string(),
            };
            writeln!(
                console.out,
                "Invalid guess: {problem}. This does not use a turn."
            )?;
        }
    }
}

/// The statement's program (EXERCISE.md, "Proficient" and "Advanced"): one
/// game of `turns` turns against `secret`, the guesses read from `input`.
/// Input that ends before the game does is an error of kind
/// [`io::ErrorKind::UnexpectedEof`].
pub fn play(
    secret: &Code,
    rules: Rules,
    turns: usize,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let mut console = Console::new(input, output);
    run(
        secret,
        rules,
        turns,
        &mut Human,
        Style::default(),
        &mut console,
    )
    .map(|_| ())
    .map_err(InputError::into_io)
}

/// Plays one game of `turns` turns against `secret`.
pub fn run(
    secret: &Code,
    rules: Rules,
    turns: usize,
    breaker: &mut dyn Player<DecodingBoard, Code>,
    style: Style,
    console: &mut Console<'_>,
) -> Result<Outcome, InputError> {
    writeln!(
        console.out,
        "Mastermind: find the secret code of {} pegs, colours A to {} (repeats allowed), in {turns} {}.",
        rules.pegs(),
        rules.last_letter(),
        if turns == 1 { "turn" } else { "turns" }
    )?;
    let mut board = DecodingBoard {
        rules,
        turns,
        guesses: Vec::with_capacity(turns),
    };
    let mut outcome = Outcome::Lost;
    while board.guesses.len() < turns {
        let guess = breaker.next_move(&board, console)?;
        let result = score(secret, &guess);
        writeln!(
            console.out,
            "{}  {}",
            style.code(&guess),
            style.score(result)
        )?;
        board.guesses.push((guess, result));
        if usize::from(result.black) == rules.pegs() {
            outcome = Outcome::Won {
                turn: board.guesses.len(),
            };
            break;
        }
    }
    writeln!(console.out, "Secret: {}", style.code(secret))?;
    let last = match outcome {
        Outcome::Won { .. } => "You win",
        Outcome::Lost => "You lose!",
    };
    writeln!(console.out, "{last}")?;
    console.out.flush()?;
    Ok(outcome)
}
