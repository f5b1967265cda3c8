//! The function-level driver for jogo da velha: one request line in, one
//! answer out, through the graded functions only. Part of the kit (copied
//! as is into starters and graded crates): the grader asks a student's
//! library and the reference the same requests and compares the answers.
//!
//! Requests: `extrai_linha <position>`, `extrai_coluna <position>`,
//! `verifica_vencedor <9 cells>` and `melhor_jogada <9 cells>` (cells row by
//! row, `.` for empty; a move answers `<row> <column>`, 0-based).

use super::ai::Searcher;
use super::board::{Board, Status};
use super::exam::{extrai_coluna, extrai_linha, melhor_jogada, verifica_vencedor};
use crate::game::Level;

fn grid(cells: &str) -> Option<[[char; 3]; 3]> {
    let cells: Vec<char> = cells
        .chars()
        .map(|c| if c == '.' { ' ' } else { c })
        .collect();
    (cells.len() == 9).then(|| {
        [
            [cells[0], cells[1], cells[2]],
            [cells[3], cells[4], cells[5]],
            [cells[6], cells[7], cells[8]],
        ]
    })
}

/// The answer to one request (see the module documentation).
pub fn answer(request: &str) -> String {
    let (function, argument) = request.split_once(' ').unwrap_or((request, ""));
    match function {
        "extrai_linha" => extrai_linha(argument).to_string(),
        "extrai_coluna" => extrai_coluna(argument).to_string(),
        "verifica_vencedor" => match grid(argument) {
            Some(board) => verifica_vencedor(&board).to_string(),
            None => format!("bad request: {request}"),
        },
        "melhor_jogada" => match grid(argument) {
            Some(board) => {
                let (row, col) = melhor_jogada(&board);
                format!("{row} {col}")
            }
            None => format!("bad request: {request}"),
        },
        _ => format!("bad request: {request}"),
    }
}

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
                .get(super::board::Position {
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
pub fn cases() -> Vec<crate::game::FunctionCase> {
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
        (Level::Expert, "melhor_jogada_opening", best(0..=2)),
        (Level::Expert, "melhor_jogada_middle_game", best(3..=4)),
        (Level::Expert, "melhor_jogada_late_middle_game", best(5..=6)),
        (Level::Expert, "melhor_jogada_end_game", best(7..=8)),
    ]
}

/// The graded events of a transcript (SPEC 3.1), in order: the title, each
/// board cell by cell, the two messages and the result. Prompts and any
/// other text are ignored; a prompt printed without a newline may share a
/// line with what follows; trailing spaces and `\r` may be missing.
pub fn events(text: &str) -> Vec<String> {
    let mut events = Vec::new();
    let mut rows: Vec<String> = Vec::new();
    let flush = |rows: &mut Vec<String>, events: &mut Vec<String>| {
        if !rows.is_empty() {
            events.push(format!("board {}", rows.join("/")));
            rows.clear();
        }
    };
    for line in text.lines() {
        let line = line.trim_end();
        if let Some(row) = board_row(line, rows.len()) {
            rows.push(row);
            continue;
        }
        if !line.trim().is_empty() && !line.contains('|') && !line.trim_start().starts_with('1') {
            flush(&mut rows, &mut events);
        }
        if line.ends_with("Jogo da Velha") {
            events.push("title".into());
        }
        for message in ["Posição inválida", "Posição ocupada"] {
            if line.contains(message) {
                events.push(message.into());
            }
        }
        for result in ["Vencedor: X", "Vencedor: O", "Empate"] {
            if line.ends_with(result) {
                events.push(result.into());
            }
        }
    }
    flush(&mut rows, &mut events);
    events
}

/// The cells of a board row line `L c | c | c` for row number `index`
/// (`A` for 0), trailing spaces optional.
fn board_row(line: &str, index: usize) -> Option<String> {
    let letter = (b'A' + index as u8) as char;
    let rest = line.strip_prefix(letter)?;
    let cells: Vec<&str> = rest.split('|').collect();
    if cells.len() < 3 {
        return None;
    }
    let mut row = String::new();
    for cell in cells {
        match cell.trim() {
            "" => row.push('.'),
            "X" => row.push('X'),
            "O" => row.push('O'),
            _ => return None,
        }
    }
    Some(row)
}
