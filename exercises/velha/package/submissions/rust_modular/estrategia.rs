//! A perfect player: negamax over every reachable position, memoized by
//! a base-3 code of the board.

use std::collections::HashMap;

use super::peca::{achatar, quem_joga, Grade, Peca};
use super::regras::dono_de_trinca;

/// Base-3 code of a board: unique for each of the 3^9 boards.
fn codigo(grade: &Grade) -> u32 {
    grade.iter().fold(0, |acc, casa| {
        acc * 3
            + match casa {
                None => 0,
                Some(Peca::Xis) => 1,
                Some(Peca::Bola) => 2,
            }
    })
}

fn livres(grade: &Grade) -> impl Iterator<Item = usize> + '_ {
    (0..9).filter(move |&i| grade[i].is_none())
}

/// The value of `grade` for `vez`, who is to move. A win is worth one more
/// than the number of empty cells left after it, so a quick win beats a
/// slow one and a slow loss beats a quick one; a draw is 0.
fn negamax(grade: &mut Grade, vez: Peca, memo: &mut HashMap<u32, i32>) -> i32 {
    if let Some(&v) = memo.get(&codigo(grade)) {
        return v;
    }
    let vagas: Vec<usize> = livres(grade).collect();
    let valor = vagas
        .iter()
        .map(|&i| {
            grade[i] = Some(vez);
            let v = if dono_de_trinca(grade) == Some(vez) {
                vagas.len() as i32
            } else if vagas.len() == 1 {
                0
            } else {
                -negamax(grade, vez.oponente(), memo)
            };
            grade[i] = None;
            v
        })
        .max()
        .unwrap_or(0);
    memo.insert(codigo(grade), valor);
    valor
}

/// The best move `(linha, coluna)` for the player to move: never lose, win
/// as fast as possible, lose as late as possible.
pub fn melhor_jogada(tabuleiro: &[[char; 3]; 3]) -> (usize, usize) {
    let mut grade = achatar(tabuleiro);
    let vez = quem_joga(&grade);
    let mut memo = HashMap::new();
    let vagas: Vec<usize> = livres(&grade).collect();
    let escolhida = vagas
        .iter()
        .copied()
        .max_by_key(|&i| {
            grade[i] = Some(vez);
            let v = if dono_de_trinca(&grade) == Some(vez) {
                vagas.len() as i32
            } else if vagas.len() == 1 {
                0
            } else {
                -negamax(&mut grade, vez.oponente(), &mut memo)
            };
            grade[i] = None;
            (v, std::cmp::Reverse(i))
        })
        .unwrap_or(0);
    (escolhida / 3, escolhida % 3)
}
