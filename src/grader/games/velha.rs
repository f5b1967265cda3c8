//! Jogo da velha's function cases, and the answers accepted for each request
//! of the driver (`crate::harness::velha::answer`), computed with the
//! reference in the grader's process. Kit-only.

use crate::harness::velha::{answer, grid};
use crate::level::Level;
use crate::velha::ai::Searcher;
use crate::velha::board::{Board, Status};

/// Every answer accepted for a request: a best move may be any of several.
/// Computed with the reference, in the grader's process.
pub fn accepted(request: &str) -> Vec<String> {
    match request.split_once(' ').map(|(f, a)| (f, grid(a))) {
        Some(("melhor_jogada", Some(cells))) => Searcher::new(3)
            .best_moves(&Board::from_chars(&cells), None)
            .iter()
            .map(|p| format!("{} {}", p.row, p.col))
            .collect(),
        _ => vec![answer(request)],
    }
}

/// A 3 x 3 board's cells row by row, `.` for empty: the requests' form.
fn cells(board: &Board) -> String {
    (0..9)
        .map(|i| {
            board
                .get(crate::velha::board::Position {
                    row: i / 3,
                    col: i % 3,
                })
                .map_or('.', |m| m.as_char())
        })
        .collect()
}

fn reachable(board: Board, seen: &mut std::collections::BTreeSet<String>, out: &mut Vec<Board>) {
    let key = cells(&board);
    if board.status() != Status::InProgress || !seen.insert(key) {
        return;
    }
    out.push(board);
    for pos in board.empty_cells() {
        reachable(board.with_move(pos), seen, out);
    }
}

/// The function-level cases: (level, name, requests).
pub fn cases() -> Vec<crate::registry::FunctionCase> {
    let mut spellings = Vec::new();
    for letter in ['A', 'B', 'C', 'a', 'b', 'c'] {
        for digit in ['1', '2', '3'] {
            spellings.push(format!("{letter}{digit}"));
            spellings.push(format!(" {letter} {digit} "));
        }
    }
    let linha = spellings
        .iter()
        .map(|p| format!("extrai_linha {p}"))
        .collect();
    let coluna = spellings
        .iter()
        .map(|p| format!("extrai_coluna {p}"))
        .collect();
    let named = [
        "XXXOO....",
        "OO.XXX...",
        "OO....XXX",
        "OOOXX.X..",
        "XO.XO.X..",
        "O.XO.X..X",
        "XO.OX...X",
        "OOX.X.X..",
        "OXXXO...O",
        "XXOXO.O..",
        "XOXOXOOXX",
        "XOXXOOOXX",
        ".........",
        "XO.......",
        "XX.OO....",
        "XOXXOOOX.",
    ];
    let named_9 = named
        .iter()
        .map(|b| format!("verifica_vencedor_9 {b}"))
        .collect();
    let named = named
        .iter()
        .map(|b| format!("verifica_vencedor {b}"))
        .collect();
    let all = (0..3usize.pow(9))
        .map(|mut code| {
            let cells: String = (0..9)
                .map(|_| {
                    let c = ['.', 'X', 'O'][code % 3];
                    code /= 3;
                    c
                })
                .collect();
            format!("verifica_vencedor {cells}")
        })
        .collect();
    // The expert level: a best move in every position a game can reach.
    let mut positions = Vec::new();
    reachable(Board::default(), &mut Default::default(), &mut positions);
    let best = |range: std::ops::RangeInclusive<usize>| -> Vec<String> {
        positions
            .iter()
            .filter(|b| range.contains(&b.marks()))
            .map(|b| format!("melhor_jogada {}", cells(b)))
            .collect()
    };
    vec![
        (Level::Basic, "extrai_linha", linha),
        (Level::Basic, "extrai_coluna", coluna),
        (Level::Basic, "verifica_vencedor_named_boards", named),
        (Level::Basic, "verifica_vencedor_every_board", all),
        (Level::Basic, "verifica_vencedor_9_named_boards", named_9),
        (Level::Expert, "melhor_jogada_opening", best(0..=2)),
        (Level::Expert, "melhor_jogada_middle_game", best(3..=4)),
        (Level::Expert, "melhor_jogada_late_middle_game", best(5..=6)),
        (Level::Expert, "melhor_jogada_end_game", best(7..=8)),
    ]
}
