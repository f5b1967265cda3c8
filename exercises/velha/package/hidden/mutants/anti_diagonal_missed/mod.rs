//! Jogo da velha: tudo num arquivo so. The package's reference: it
//! prints its messages in the locale the kit grades (`BOARDKIT_LANGUAGE`),
//! Portuguese or English.
//!
//! O tabuleiro e uma matriz `[[char; 3]; 3]`, com 'X', 'O' ou ' ' em cada
//! casa. A leitura da entrada e feita byte a byte, para nunca guardar mais
//! que uma linha valida na memoria.

use std::io::{self, BufRead, Write};

/// The program's lines in the locale graded: the title, the two input
/// messages, the winner's line before the mark and a draw; then the
/// prompt, which is not graded.
struct Palavras {
    titulo: &'static str,
    invalida: &'static str,
    ocupada: &'static str,
    vencedor: &'static str,
    empate: &'static str,
    vez: &'static str,
}

fn palavras() -> Palavras {
    match std::env::var("BOARDKIT_LANGUAGE").as_deref() {
        Ok("en") => Palavras {
            titulo: "Tic-Tac-Toe",
            invalida: "Invalid position",
            ocupada: "Position taken",
            vencedor: "Winner: ",
            empate: "Draw",
            vez: "type a position (e.g. B2)",
        },
        _ => Palavras {
            titulo: "Jogo da Velha",
            invalida: "Posição inválida",
            ocupada: "Posição ocupada",
            vencedor: "Vencedor: ",
            empate: "Empate",
            vez: "digite a posição (ex.: B2)",
        },
    }
}

/// Tamanho maximo de uma linha, sem contar o fim de linha.
const MAX_LINHA: usize = 4096;

/// Tira os espacos de uma posicao e devolve os dois caracteres que sobram.
fn limpa_posicao(posicao: &str) -> Vec<char> {
    let mut resto = Vec::new();
    for c in posicao.chars() {
        if c != ' ' {
            resto.push(c);
        }
    }
    resto
}

/// The row index 0..=2 of a position: `"B1"` -> 1. The letter may be lower
/// case and spaces may stand anywhere (`" b 1 "` -> 1).
pub fn extrai_linha(posicao: &str) -> usize {
    let chars = limpa_posicao(posicao);
    match chars[0].to_ascii_uppercase() {
        'A' => 0,
        'B' => 1,
        _ => 2,
    }
}

/// The column index 0..=2 of a position: `"B1"` -> 0.
pub fn extrai_coluna(posicao: &str) -> usize {
    let chars = limpa_posicao(posicao);
    chars[1] as usize - '1' as usize
}

/// Diz se a posicao digitada e valida: uma letra A-C (ou a-c) e um digito
/// 1-3, com espacos em qualquer lugar e nada mais.
fn posicao_valida(texto: &str) -> bool {
    let chars = limpa_posicao(texto);
    if chars.len() != 2 {
        return false;
    }
    let letra = chars[0];
    let numero = chars[1];
    let letra_ok = letra == 'A'
        || letra == 'B'
        || letra == 'C'
        || letra == 'a'
        || letra == 'b'
        || letra == 'c';
    let numero_ok = numero == '1' || numero == '2' || numero == '3';
    letra_ok && numero_ok
}

/// `'X'` or `'O'` if that player has three in a row, `'E'` if the board is
/// full with no winner, `'N'` if nobody has won and a cell is empty.
pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {
    let jogadores = ['X', 'O'];
    for j in 0..2 {
        let p = jogadores[j];
        for i in 0..3 {
            // linha i
            if tabuleiro[i][0] == p && tabuleiro[i][1] == p && tabuleiro[i][2] == p {
                return p;
            }
            // coluna i
            if tabuleiro[0][i] == p && tabuleiro[1][i] == p && tabuleiro[2][i] == p {
                return p;
            }
        }
        if tabuleiro[0][0] == p && tabuleiro[1][1] == p && tabuleiro[2][2] == p {
            return p;
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            if tabuleiro[i][j] != 'X' && tabuleiro[i][j] != 'O' {
                return 'N';
            }
        }
    }
    'E'
}

/// [`verifica_vencedor`] with one argument per cell, `a1` to `c3`.
#[allow(clippy::too_many_arguments)] // the exam's signature
pub fn verifica_vencedor_9(
    a1: char,
    a2: char,
    a3: char,
    b1: char,
    b2: char,
    b3: char,
    c1: char,
    c2: char,
    c3: char,
) -> char {
    let tab = [[a1, a2, a3], [b1, b2, b3], [c1, c2, c3]];
    verifica_vencedor(&tab)
}

/// Escreve o tabuleiro nas dez linhas do enunciado.
fn imprime_tabuleiro(saida: &mut dyn Write, tab: &[[char; 3]; 3]) -> io::Result<()> {
    let letras = ['A', 'B', 'C'];
    writeln!(saida, "  1   2   3")?;
    for i in 0..3 {
        writeln!(saida, "    |   |   ")?;
        writeln!(
            saida,
            "{} {} | {} | {} ",
            letras[i], tab[i][0], tab[i][1], tab[i][2]
        )?;
        if i < 2 {
            writeln!(saida, " ___|___|___")?;
        } else {
            writeln!(saida, "    |   |   ")?;
        }
    }
    Ok(())
}

/// Le uma linha da entrada.
///
/// - `Ok(None)`: a entrada acabou (nenhum byte antes do fim);
/// - `Ok(Some(None))`: uma linha que nao e texto valido (longa demais, nao
///   UTF-8 ou com caractere de controle);
/// - `Ok(Some(Some(texto)))`: a linha, sem o fim de linha.
fn le_linha(entrada: &mut dyn BufRead) -> io::Result<Option<Option<String>>> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut longa = false;
    let mut leu_algo = false;
    loop {
        let buf = match entrada.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        leu_algo = true;
        let mut usados = 0;
        let mut achou_fim = false;
        for &b in buf {
            usados += 1;
            if b == b'\n' {
                achou_fim = true;
                break;
            }
            // guarda no maximo MAX_LINHA + 1 bytes (o '\r' final pode vir)
            if bytes.len() <= MAX_LINHA {
                bytes.push(b);
            } else {
                longa = true;
            }
        }
        entrada.consume(usados);
        if achou_fim {
            break;
        }
    }
    if !leu_algo {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    if longa || bytes.len() > MAX_LINHA {
        return Ok(Some(None));
    }
    let texto = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => return Ok(Some(None)),
    };
    for c in texto.chars() {
        if c.is_control() && c != '\t' {
            return Ok(Some(None));
        }
    }
    Ok(Some(Some(texto)))
}

/// One game between two people: positions read from `entrada`, everything
/// printed to `saida`. An error when the input ends before the game does.
pub fn jogar(entrada: &mut dyn BufRead, saida: &mut dyn Write) -> io::Result<()> {
    let mut tab = [[' '; 3]; 3];
    let mut jogador = 'X';
    let p = palavras();
    writeln!(saida, "{}", p.titulo)?;
    imprime_tabuleiro(saida, &tab)?;
    loop {
        writeln!(saida, "{jogador}, {}:", p.vez)?;
        saida.flush()?;
        let linha = match le_linha(entrada)? {
            None => return Err(io::ErrorKind::UnexpectedEof.into()),
            Some(l) => l,
        };
        let texto = match linha {
            Some(t) if posicao_valida(&t) => t,
            _ => {
                writeln!(saida, "{}", p.invalida)?;
                continue;
            }
        };
        let l = extrai_linha(&texto);
        let c = extrai_coluna(&texto);
        if tab[l][c] != ' ' {
            writeln!(saida, "{}", p.ocupada)?;
            continue;
        }
        tab[l][c] = jogador;
        imprime_tabuleiro(saida, &tab)?;
        let resultado = verifica_vencedor(&tab);
        if resultado == 'X' || resultado == 'O' {
            writeln!(saida, "{}{}", p.vencedor, resultado)?;
            break;
        }
        if resultado == 'E' {
            writeln!(saida, "{}", p.empate)?;
            break;
        }
        if jogador == 'X' {
            jogador = 'O';
        } else {
            jogador = 'X';
        }
    }
    saida.flush()?;
    Ok(())
}

/// Minimax com poda alfa-beta. `vez` e quem joga agora, `eu` e quem pediu
/// a jogada. Vitoria vale 10 menos a profundidade, derrota o contrario:
/// assim a vitoria mais rapida e a derrota mais lenta ganham.
fn minimax(
    tab: &mut [[char; 3]; 3],
    vez: char,
    eu: char,
    profundidade: i32,
    mut alfa: i32,
    mut beta: i32,
) -> i32 {
    let r = verifica_vencedor(tab);
    if r == eu {
        return 10 - profundidade;
    }
    if r == 'E' {
        return 0;
    }
    if r != 'N' {
        return profundidade - 10;
    }
    let outro = if vez == 'X' { 'O' } else { 'X' };
    if vez == eu {
        let mut melhor = -100;
        for i in 0..3 {
            for j in 0..3 {
                if tab[i][j] == ' ' {
                    tab[i][j] = vez;
                    let v = minimax(tab, outro, eu, profundidade + 1, alfa, beta);
                    tab[i][j] = ' ';
                    if v > melhor {
                        melhor = v;
                    }
                    if melhor > alfa {
                        alfa = melhor;
                    }
                    if alfa >= beta {
                        return melhor;
                    }
                }
            }
        }
        melhor
    } else {
        let mut pior = 100;
        for i in 0..3 {
            for j in 0..3 {
                if tab[i][j] == ' ' {
                    tab[i][j] = vez;
                    let v = minimax(tab, outro, eu, profundidade + 1, alfa, beta);
                    tab[i][j] = ' ';
                    if v < pior {
                        pior = v;
                    }
                    if pior < beta {
                        beta = pior;
                    }
                    if alfa >= beta {
                        return pior;
                    }
                }
            }
        }
        pior
    }
}

/// The best move `(linha, coluna)` for the player to move: never lose, win
/// as fast as possible, lose as late as possible.
pub fn melhor_jogada(tabuleiro: &[[char; 3]; 3]) -> (usize, usize) {
    let mut tab = *tabuleiro;
    let mut x = 0;
    let mut o = 0;
    for i in 0..3 {
        for j in 0..3 {
            if tab[i][j] == 'X' {
                x += 1;
            } else if tab[i][j] == 'O' {
                o += 1;
            } else {
                tab[i][j] = ' ';
            }
        }
    }
    let eu = if x == o { 'X' } else { 'O' };
    let outro = if eu == 'X' { 'O' } else { 'X' };
    let mut melhor = -1000;
    let mut jogada = (0, 0);
    let mut alfa = -1000;
    for i in 0..3 {
        for j in 0..3 {
            if tab[i][j] == ' ' {
                tab[i][j] = eu;
                let v = minimax(&mut tab, outro, eu, 1, alfa, 1000);
                tab[i][j] = ' ';
                if v > melhor {
                    melhor = v;
                    jogada = (i, j);
                }
                if melhor > alfa {
                    alfa = melhor;
                }
            }
        }
    }
    jogada
}
