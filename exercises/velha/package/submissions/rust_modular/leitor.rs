//! Reading one input line with bounded memory.

use std::io::{self, BufRead, Read};

/// The longest accepted line, its line ending aside.
const LIMITE: usize = 4096;

/// What one line of input turned out to be.
pub enum Linha {
    /// A line of text, line ending removed.
    Texto(String),
    /// Too long, not UTF-8, or holding a control character other than tab.
    Ilegivel,
}

/// Drops everything up to and including the next `\n`.
fn descartar_resto(entrada: &mut dyn BufRead) -> io::Result<()> {
    loop {
        let (usado, achou) = {
            let bloco = entrada.fill_buf()?;
            if bloco.is_empty() {
                return Ok(());
            }
            match bloco.iter().position(|&b| b == b'\n') {
                Some(p) => (p + 1, true),
                None => (bloco.len(), false),
            }
        };
        entrada.consume(usado);
        if achou {
            return Ok(());
        }
    }
}

/// The next line, or `None` at the end of the input.
pub fn proxima(entrada: &mut dyn BufRead) -> io::Result<Option<Linha>> {
    let mut bruto = Vec::new();
    // room for the longest line plus "\r\n"
    let lidos = (&mut *entrada)
        .take(LIMITE as u64 + 2)
        .read_until(b'\n', &mut bruto)?;
    if lidos == 0 {
        return Ok(None);
    }
    let terminou = bruto.last() == Some(&b'\n');
    if terminou {
        bruto.pop();
    } else if bruto.len() == LIMITE + 2 {
        descartar_resto(entrada)?;
        return Ok(Some(Linha::Ilegivel));
    }
    if bruto.last() == Some(&b'\r') {
        bruto.pop();
    }
    if bruto.len() > LIMITE {
        return Ok(Some(Linha::Ilegivel));
    }
    Ok(Some(match String::from_utf8(bruto) {
        Ok(s) if !s.chars().any(|c| c.is_control() && c != '\t') => Linha::Texto(s),
        _ => Linha::Ilegivel,
    }))
}
