//! The interactive game: prompts (printed without a newline, like Python's
//! `input()`), one feedback line per valid guess, the secret and the result.

use std::io::{self, BufRead, Write};

use super::codes::parse_guess;
use super::scoring::score;
use crate::given::mastermind::{Code, Rules};

/// Longest line kept: anything longer cannot be a guess of at most 10 pegs
/// even with generous whitespace, and is reported as one invalid guess.
const LONGEST_LINE: usize = 4096;

/// One line of input as the game sees it.
enum Line {
    /// A line of text, its line ending removed.
    Text(String),
    /// Bytes that are not UTF-8.
    NotText,
    /// More than [`LONGEST_LINE`] bytes (the rest was skipped).
    TooLong,
}

/// Reads one line without ever holding more than [`LONGEST_LINE`] bytes of
/// it. `None` at the end of input. A last line without `\n` still counts.
fn next_line(input: &mut dyn BufRead) -> io::Result<Option<Line>> {
    let mut kept: Vec<u8> = Vec::new();
    let mut overflow = false;
    let mut seen_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (body, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], at + 1, true),
            None => (chunk, chunk.len(), false),
        };
        // One byte more: a final `\r` belongs to the line ending.
        let room = (LONGEST_LINE + 1).saturating_sub(kept.len());
        if body.len() > room {
            overflow = true;
        }
        kept.extend_from_slice(&body[..body.len().min(room)]);
        input.consume(used);
        if done {
            break;
        }
    }
    if overflow {
        return Ok(Some(Line::TooLong));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    if kept.len() > LONGEST_LINE {
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotText,
    }))
}

/// Asks until a valid guess is typed. An error when the input ends first.
fn ask_guess(
    turn: usize,
    turns: usize,
    rules: Rules,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<Code> {
    loop {
        write!(output, "[turn {turn}/{turns}] your guess> ")?;
        output.flush()?;
        let problem = match next_line(input)? {
            None => {
                writeln!(output)?;
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            Some(Line::Text(text)) => match parse_guess(&text, rules) {
                Ok(code) => return Ok(code),
                Err(error) => error.to_string(),
            },
            Some(Line::NotText) => "that line is not readable text".to_owned(),
            Some(Line::TooLong) => format!("that line is longer than {LONGEST_LINE} bytes"),
        };
        writeln!(output, "  ?? {problem} (turn not counted, try again)")?;
    }
}

/// One game of `turns` turns against `secret`: guesses read from `input`,
/// everything printed to `output`. An error when the input ends first.
pub fn play(
    secret: &Code,
    rules: Rules,
    turns: usize,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        output,
        "== Mastermind == {} pegs, letters A..{} (repeats allowed), {turns} tries to crack the code.",
        rules.pegs(),
        rules.last_letter()
    )?;
    let mut won = false;
    for turn in 1..=turns {
        let guess = ask_guess(turn, turns, rules, input, output)?;
        let result = score(secret, &guess);
        writeln!(output, "{guess} => {result}")?;
        if usize::from(result.black) == rules.pegs() {
            won = true;
            break;
        }
    }
    writeln!(output)?;
    writeln!(output, "Secret: {secret}")?;
    writeln!(output, "{}", if won { "You win" } else { "You lose!" })?;
    output.flush()
}
