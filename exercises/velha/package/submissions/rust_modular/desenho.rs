//! The ten lines of the printed board.

use std::io::{self, Write};

use super::peca::Grade;

const CABECALHO: &str = "  1   2   3";
const VAZIA: &str = "    |   |   ";
const DIVISA: &str = " ___|___|___";

fn celula(grade: &Grade, i: usize) -> char {
    grade[i].map_or(' ', |p| p.simbolo())
}

/// Writes the board, header first.
pub fn desenhar(grade: &Grade, saida: &mut dyn Write) -> io::Result<()> {
    let mut texto = String::new();
    texto.push_str(CABECALHO);
    texto.push('\n');
    for (n, rotulo) in ['A', 'B', 'C'].into_iter().enumerate() {
        let casas: Vec<String> = (0..3)
            .map(|c| format!(" {} ", celula(grade, 3 * n + c)))
            .collect();
        let base = if n == 2 { VAZIA } else { DIVISA };
        texto.push_str(&format!("{VAZIA}\n{rotulo}{}\n{base}\n", casas.join("|")));
    }
    saida.write_all(texto.as_bytes())
}
