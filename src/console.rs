//! The input/output layer every game program shares.
//!
//! Games never read stdin or write stdout themselves: a program is a loop over a
//! [`Console`], which wraps any [`BufRead`] and any [`Write`]. The same game then
//! runs in a terminal, in a test (over byte slices), in the grader and later in a
//! TUI.
//!
//! Input is hostile until proven otherwise. [`LineReader`] reads one line at a
//! time with a bounded buffer: a line longer than [`MAX_LINE_BYTES`] is skipped to
//! its end without being stored and reported once as [`InvalidLine::TooLong`], so a
//! megabyte line costs a few kilobytes of memory. A `\r\n` ending is accepted; a
//! line that is not UTF-8 or holds a control character (tab excepted) is one
//! invalid input. End of input is the typed error [`InputError::EndOfInput`], which
//! the binary turns into a message on stderr and exit status 1.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, Write};

/// The longest line a game accepts, in bytes, without its line ending.
pub const MAX_LINE_BYTES: usize = 4096;

/// Why a line read from the input cannot be a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvalidLine {
    TooLong,
    NotUtf8,
    ControlCharacter,
}

// Display by hand, here and across the crates a starter ships: a derive
// (thiserror) would cost every student's first build its proc macros.
impl fmt::Display for InvalidLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidLine::TooLong => write!(f, "the line is longer than {MAX_LINE_BYTES} bytes"),
            InvalidLine::NotUtf8 => f.write_str("the line is not valid UTF-8"),
            InvalidLine::ControlCharacter => f.write_str("the line holds a control character"),
        }
    }
}

impl std::error::Error for InvalidLine {}

/// What stops a game before its end.
#[derive(Debug)]
pub enum InputError {
    EndOfInput,
    Io(io::Error),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::EndOfInput => f.write_str("input ended before the game was over"),
            InputError::Io(e) => write!(f, "input/output error: {e}"),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Io(e) => Some(e),
            InputError::EndOfInput => None,
        }
    }
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> Self {
        InputError::Io(e)
    }
}

impl InputError {
    /// As an [`io::Error`]: the end of input is [`io::ErrorKind::UnexpectedEof`].
    pub fn into_io(self) -> io::Error {
        match self {
            InputError::EndOfInput => io::Error::new(io::ErrorKind::UnexpectedEof, self),
            InputError::Io(e) => e,
        }
    }
}

/// Reads lines with a bounded buffer; see the module documentation.
pub struct LineReader<R> {
    inner: R,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            buffer: Vec::with_capacity(256),
        }
    }

    /// The next line, without its ending: `Ok(Ok(text))` for a usable line,
    /// `Ok(Err(why))` for one that is not, `Err(EndOfInput)` once input is over.
    /// A last line without a final newline still counts as a line.
    pub fn read_line(&mut self) -> Result<Result<String, InvalidLine>, InputError> {
        self.buffer.clear();
        let mut too_long = false;
        let mut read_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if available.is_empty() {
                if !read_any {
                    return Err(InputError::EndOfInput);
                }
                break;
            }
            read_any = true;
            let (chunk, used, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            // Store at most one byte past the limit: enough to know it was exceeded.
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.buffer.len());
            if chunk.len() > room {
                too_long = true;
            }
            self.buffer
                .extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.inner.consume(used);
            if ended {
                break;
            }
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        if too_long || self.buffer.len() > MAX_LINE_BYTES {
            return Ok(Err(InvalidLine::TooLong));
        }
        let Ok(text) = std::str::from_utf8(&self.buffer) else {
            return Ok(Err(InvalidLine::NotUtf8));
        };
        if text.chars().any(|c| c.is_control() && c != '\t') {
            return Ok(Err(InvalidLine::ControlCharacter));
        }
        Ok(Ok(text.to_owned()))
    }
}

/// A whitespace-separated token, or a line that could not be split into tokens.
pub type Token = Result<String, InvalidLine>;

/// The two ends of a game program: where moves come from and where output goes.
///
/// Output may carry ANSI styles (colours); the binary writes through
/// `anstream`, which strips them unless stdout is a terminal and `NO_COLOR` is
/// unset. Tests wrap their buffer the same way, or read it stripped.
pub struct Console<'a> {
    lines: LineReader<&'a mut dyn BufRead>,
    pending: VecDeque<String>,
    pub out: &'a mut dyn Write,
}

impl<'a> Console<'a> {
    pub fn new(input: &'a mut dyn BufRead, out: &'a mut dyn Write) -> Self {
        Self {
            lines: LineReader::new(input),
            pending: VecDeque::new(),
            out,
        }
    }

    /// The next whole line (for games that read one move per line).
    pub fn read_line(&mut self) -> Result<Result<String, InvalidLine>, InputError> {
        self.lines.read_line()
    }

    /// The next whitespace-separated token (for games that accept many moves on
    /// one line). Blank lines are skipped; an invalid line is one invalid token.
    pub fn read_token(&mut self) -> Result<Token, InputError> {
        loop {
            if let Some(token) = self.pending.pop_front() {
                return Ok(Ok(token));
            }
            match self.lines.read_line()? {
                Ok(line) => self
                    .pending
                    .extend(line.split_whitespace().map(str::to_owned)),
                Err(invalid) => return Ok(Err(invalid)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<String, InvalidLine>> {
        let mut reader = LineReader::new(input);
        let mut found = Vec::new();
        loop {
            match reader.read_line() {
                Ok(line) => found.push(line),
                Err(InputError::EndOfInput) => return found,
                Err(e) => panic!("unexpected error {e}"),
            }
        }
    }

    #[test]
    fn splits_lines_and_accepts_crlf_and_a_last_line_without_newline() {
        assert_eq!(
            lines(b"A1\r\nb2\nC3"),
            vec![Ok("A1".into()), Ok("b2".into()), Ok("C3".into())]
        );
    }

    #[test]
    fn empty_lines_are_lines_and_nothing_is_end_of_input() {
        assert_eq!(lines(b"\n\r\n"), vec![Ok(String::new()), Ok(String::new())]);
        assert_eq!(lines(b""), vec![]);
    }

    #[test]
    fn a_megabyte_line_is_one_invalid_line_and_reading_goes_on() {
        let mut input = vec![b'x'; 1 << 20];
        input.extend_from_slice(b"\nA1\n");
        assert_eq!(
            lines(&input),
            vec![Err(InvalidLine::TooLong), Ok("A1".into())]
        );
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_accepted() {
        let mut input = vec![b'x'; MAX_LINE_BYTES];
        input.extend_from_slice(b"\r\n");
        assert_eq!(lines(&input).len(), 1);
        assert!(lines(&input)[0].is_ok());
    }

    #[test]
    fn non_utf8_and_control_characters_are_invalid() {
        assert_eq!(
            lines(b"\xff\xfe\nA\x001\nA\r1\nA\t1\n"),
            vec![
                Err(InvalidLine::NotUtf8),
                Err(InvalidLine::ControlCharacter),
                Err(InvalidLine::ControlCharacter),
                Ok("A\t1".into()),
            ]
        );
    }

    #[test]
    fn tokens_span_lines_and_an_invalid_line_is_one_token() {
        let mut input: &[u8] = b"4 1  4\n\n\xff\n 7";
        let mut out = Vec::new();
        let mut console = Console::new(&mut input, &mut out);
        let mut tokens = Vec::new();
        while let Ok(token) = console.read_token() {
            tokens.push(token);
        }
        assert_eq!(
            tokens,
            vec![
                Ok("4".into()),
                Ok("1".into()),
                Ok("4".into()),
                Err(InvalidLine::NotUtf8),
                Ok("7".into()),
            ]
        );
    }
}
