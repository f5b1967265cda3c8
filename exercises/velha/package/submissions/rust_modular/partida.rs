//! The two-player program.

use std::io::{self, BufRead, Write};

use super::coordenada::interpreta;
use super::desenho::desenhar;
use super::leitor::{proxima, Linha};
use super::peca::{Grade, Peca};
use super::regras::situacao;

/// Asks `vez` until a free valid cell is typed; returns its index.
fn pedir_casa(
    grade: &Grade,
    vez: Peca,
    entrada: &mut dyn BufRead,
    saida: &mut dyn Write,
) -> io::Result<usize> {
    loop {
        write!(saida, "Jogador {}, sua jogada: ", vez.simbolo())?;
        saida.flush()?;
        let linha = proxima(entrada)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        let alvo = match linha {
            Linha::Texto(t) => interpreta(&t),
            Linha::Ilegivel => None,
        };
        match alvo.map(|(l, c)| 3 * l + c) {
            None => writeln!(saida, "Posição inválida")?,
            Some(i) if grade[i].is_some() => writeln!(saida, "Posição ocupada")?,
            Some(i) => return Ok(i),
        }
    }
}

/// One game between two people: positions read from `entrada`, everything
/// printed to `saida`. An error when the input ends before the game does.
pub fn jogar(entrada: &mut dyn BufRead, saida: &mut dyn Write) -> io::Result<()> {
    writeln!(saida, "Jogo da Velha")?;
    let mut grade: Grade = [None; 9];
    desenhar(&grade, saida)?;
    let mut vez = Peca::Xis;
    let fim = loop {
        let casa = pedir_casa(&grade, vez, entrada, saida)?;
        grade[casa] = Some(vez);
        desenhar(&grade, saida)?;
        match situacao(&grade) {
            'N' => vez = vez.oponente(),
            outro => break outro,
        }
    };
    match fim {
        'E' => writeln!(saida, "Empate")?,
        vencedor => writeln!(saida, "Vencedor: {vencedor}")?,
    }
    saida.flush()
}
