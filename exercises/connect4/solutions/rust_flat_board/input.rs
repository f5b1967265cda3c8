//! Reading the players' columns: whitespace-separated words over any number
//! of lines, with a bounded memory per line.
//!
//! A line that cannot hold columns (longer than [`LINE_LIMIT`] bytes, not
//! UTF-8, or with a control character other than a tab) counts as one bad
//! entry, whatever it contains. The end of input is `UnexpectedEof`.

use std::collections::VecDeque;
use std::io::{self, BufRead};

/// The longest line read as words, in bytes (line ending excluded).
pub const LINE_LIMIT: usize = 4096;

/// One entry typed by a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A whitespace-separated word.
    Word(String),
    /// A whole line that could not be read as words.
    Unreadable,
}

/// Splits an input into [`Entry`]s, one at a time.
pub struct WordReader<'a> {
    source: &'a mut dyn BufRead,
    waiting: VecDeque<String>,
    line: Vec<u8>,
}

impl<'a> WordReader<'a> {
    pub fn new(source: &'a mut dyn BufRead) -> Self {
        WordReader {
            source,
            waiting: VecDeque::new(),
            line: Vec::new(),
        }
    }

    /// The next entry; blank lines are skipped.
    pub fn next_entry(&mut self) -> io::Result<Entry> {
        loop {
            if let Some(word) = self.waiting.pop_front() {
                return Ok(Entry::Word(word));
            }
            if !self.fill_line()? {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the input ended before the game did",
                ));
            }
            match self.usable_line() {
                Some(text) => {
                    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
                    self.waiting.extend(words);
                }
                None => return Ok(Entry::Unreadable),
            }
        }
    }

    /// Reads the next line into `self.line`, keeping at most one byte past
    /// the limit; `false` at the end of input.
    fn fill_line(&mut self) -> io::Result<bool> {
        self.line.clear();
        let mut got_bytes = false;
        loop {
            let chunk = match self.source.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(got_bytes);
            }
            got_bytes = true;
            let newline = chunk.iter().position(|&b| b == b'\n');
            let body = &chunk[..newline.unwrap_or(chunk.len())];
            let room = (LINE_LIMIT + 2).saturating_sub(self.line.len());
            self.line.extend_from_slice(&body[..body.len().min(room)]);
            let consumed = newline.map_or(chunk.len(), |i| i + 1);
            self.source.consume(consumed);
            if newline.is_some() {
                return Ok(true);
            }
        }
    }

    /// The line just read as text, or `None` when it cannot hold columns.
    fn usable_line(&self) -> Option<&str> {
        let mut bytes = &self.line[..];
        if let Some(stripped) = bytes.strip_suffix(b"\r") {
            bytes = stripped;
        }
        if bytes.len() > LINE_LIMIT {
            return None;
        }
        let text = std::str::from_utf8(bytes).ok()?;
        if text.chars().any(|c| c.is_control() && c != '\t') {
            return None;
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(mut bytes: &[u8]) -> Vec<Entry> {
        let mut reader = WordReader::new(&mut bytes);
        let mut found = Vec::new();
        while let Ok(entry) = reader.next_entry() {
            found.push(entry);
        }
        found
    }

    #[test]
    fn words_span_lines_and_bad_lines_are_one_entry() {
        let mut input = b"4 1\r\n\n\xff 4\n".to_vec();
        input.extend(std::iter::repeat_n(b'7', LINE_LIMIT + 1));
        input.extend(b"\n2");
        assert_eq!(
            entries(&input),
            vec![
                Entry::Word("4".into()),
                Entry::Word("1".into()),
                Entry::Unreadable,
                Entry::Unreadable,
                Entry::Word("2".into()),
            ]
        );
    }
}
