//! The two-player program: no prompts, just the title, boards, messages and
//! the result. Input is read byte-wise with a bounded buffer.

use std::io::{self, BufRead, Read, Write};

use super::parse::cell_of;
use super::rules::{Flat, outcome};

/// How many bytes are pulled from the input at a time: memory stays bounded
/// however long a line is.
const CHUNK: u64 = 256;

/// What is kept of a line while it streams by: only its non-space bytes,
/// and only the first three of them (a position has two), and its length.
#[derive(Default)]
struct Scan {
    kept: [u8; 3],
    count: usize,
    pending_cr: bool,
    /// Bytes of the line, its line ending aside.
    length: usize,
}

/// A longer line is one invalid input, whatever it holds.
const MAX_LINE_BYTES: usize = 4096;

impl Scan {
    fn keep(&mut self, byte: u8) {
        if self.count < self.kept.len() {
            self.kept[self.count] = byte;
        }
        self.count = self.count.saturating_add(1);
    }

    fn feed(&mut self, byte: u8) {
        if self.pending_cr {
            // A `\r` not closing the line is just another invalid byte.
            self.pending_cr = false;
            self.length = self.length.saturating_add(1);
            self.keep(b'\r');
        }
        match byte {
            b'\r' => self.pending_cr = true,
            b' ' => self.length = self.length.saturating_add(1),
            other => {
                self.length = self.length.saturating_add(1);
                self.keep(other);
            }
        }
    }

    fn position(&self) -> Option<usize> {
        if self.count > 2 || self.length > MAX_LINE_BYTES {
            return None;
        }
        cell_of(&self.kept[..self.count])
    }
}

/// Reads one line byte-wise (`read_until` over a bounded `take`) and returns
/// the cell it names, or `None` for an invalid line (not a position, not
/// UTF-8, too long...). A final `\r` before the `\n` is dropped; a last line
/// without `\n` still counts. `Err(UnexpectedEof)` when input is over.
fn next_position(entrada: &mut dyn BufRead, chunk: &mut Vec<u8>) -> io::Result<Option<usize>> {
    let mut scan = Scan::default();
    let mut read_any = false;
    loop {
        chunk.clear();
        let n = (&mut *entrada).take(CHUNK).read_until(b'\n', chunk)?;
        if n == 0 {
            if !read_any {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            break; // last line without a newline
        }
        read_any = true;
        let ended = chunk.last() == Some(&b'\n');
        let body = if ended { &chunk[..n - 1] } else { &chunk[..] };
        for &byte in body {
            scan.feed(byte);
        }
        if ended || (n as u64) < CHUNK {
            break;
        }
    }
    Ok(scan.position())
}

fn draw(board: &Flat, saida: &mut dyn Write) -> io::Result<()> {
    let mut text = String::with_capacity(128);
    text.push_str("  1   2   3\n");
    for (r, letter) in ['A', 'B', 'C'].into_iter().enumerate() {
        text.push_str("    |   |   \n");
        let cell = |c: usize| char::from(board[r * 3 + c]);
        text.push_str(&format!("{letter} {} | {} | {} \n", cell(0), cell(1), cell(2)));
        text.push_str(if r < 2 { " ___|___|___\n" } else { "    |   |   \n" });
    }
    saida.write_all(text.as_bytes())
}

/// One game between two people: positions read from `entrada`, everything
/// printed to `saida`. An error when the input ends before the game does.
pub fn jogar(entrada: &mut dyn BufRead, saida: &mut dyn Write) -> io::Result<()> {
    let mut board: Flat = [b' '; 9];
    let mut mover = b'X';
    let mut chunk = Vec::with_capacity(CHUNK as usize);
    writeln!(saida, "Jogo da Velha")?;
    draw(&board, saida)?;
    saida.flush()?;
    loop {
        let position = match next_position(entrada, &mut chunk) {
            Ok(position) => position,
            Err(e) => {
                saida.flush()?;
                return Err(e);
            }
        };
        match position {
            None => writeln!(saida, "Posição inválida")?,
            Some(i) if board[i] != b' ' => writeln!(saida, "Posição ocupada")?,
            Some(i) => {
                board[i] = mover;
                draw(&board, saida)?;
                match outcome(&board) {
                    b'N' => mover = if mover == b'X' { b'O' } else { b'X' },
                    b'E' => {
                        writeln!(saida, "Empate")?;
                        break;
                    }
                    winner => {
                        writeln!(saida, "Vencedor: {}", char::from(winner))?;
                        break;
                    }
                }
            }
        }
        saida.flush()?;
    }
    saida.flush()
}
