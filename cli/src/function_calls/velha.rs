//! Jogo da velha's function cases, and the answers accepted for each request
//! of the driver (`boardkit::harness::velha::answer`), computed with the
//! reference in the grader's process. Kit-only.

use super::case;
use boardkit::function_fixture::FunctionCase;
use boardkit::harness::velha::{answer, grid};
use boardkit::level::Level;
use boardkit::velha::ai::Searcher;
use boardkit::velha::board::{Board, Status};

/// Every answer accepted for a request: a best move may be any of several.
/// Computed with the reference, in the grader's process.
pub(crate) fn accepted(request: &str) -> Vec<String> {
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
                .get(boardkit::velha::board::Position {
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

/// The function-level cases, their calls' arguments only (the accepted
/// answers are the reference's, added by the grader).
#[allow(
    clippy::too_many_lines,
    reason = "a table of cases: data, read case by case, not steps"
)]
pub(crate) fn cases() -> Vec<FunctionCase> {
    let mut spellings = Vec::new();
    for letter in ['A', 'B', 'C', 'a', 'b', 'c'] {
        for digit in ['1', '2', '3'] {
            spellings.push(format!("{letter}{digit}"));
            spellings.push(format!(" {letter} {digit} "));
            spellings.push(format!("  {letter}{digit}   "));
        }
    }
    let named: Vec<String> = [
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
    ]
    .map(str::to_owned)
    .to_vec();
    let every_board: Vec<String> = (0..3usize.pow(9))
        .map(|mut code| {
            (0..9)
                .map(|_| {
                    let c = ['.', 'X', 'O'][code % 3];
                    code /= 3;
                    c
                })
                .collect()
        })
        .collect();
    // The expert level: a best move in every position a game can reach,
    // by any play: lost positions ask for the slowest loss, won ones for
    // the fastest win.
    let mut positions = Vec::new();
    reachable(Board::default(), &mut Default::default(), &mut positions);
    let best = |range: std::ops::RangeInclusive<usize>| -> Vec<String> {
        positions
            .iter()
            .filter(|b| range.contains(&b.marks()))
            .map(cells)
            .collect()
    };
    vec![
        case(
            Level::Basic,
            "extrai_linha",
            "the row of every position, in upper and lower case, with spaces anywhere",
            "extrai_linha",
            spellings.clone(),
        ),
        case(
            Level::Basic,
            "extrai_coluna",
            "the column of every position, in upper and lower case, with spaces anywhere",
            "extrai_coluna",
            spellings,
        ),
        case(
            Level::Basic,
            "verifica_vencedor_named_boards",
            "the winner of boards of every shape: rows, columns, diagonals, a draw, a game going on",
            "verifica_vencedor",
            named.clone(),
        ),
        case(
            Level::Basic,
            "verifica_vencedor_every_board",
            "the winner of every one of the 3^9 boards",
            "verifica_vencedor",
            every_board.clone(),
        ),
        case(
            Level::Basic,
            "verifica_vencedor_9_named_boards",
            "the nine-argument form on boards of every shape",
            "verifica_vencedor_9",
            named,
        ),
        case(
            Level::Basic,
            "verifica_vencedor_9_every_board",
            "the nine-argument form on every one of the 3^9 boards",
            "verifica_vencedor_9",
            every_board,
        ),
        case(
            Level::Expert,
            "melhor_jogada_opening",
            "a best move with 0 to 2 marks on the board",
            "melhor_jogada",
            best(0..=2),
        ),
        case(
            Level::Expert,
            "melhor_jogada_middle_game",
            "a best move with 3 or 4 marks: never a loss given away, never a win missed",
            "melhor_jogada",
            best(3..=4),
        ),
        case(
            Level::Expert,
            "melhor_jogada_late_middle_game",
            "a best move with 5 or 6 marks: the fastest win, the slowest loss",
            "melhor_jogada",
            best(5..=6),
        ),
        case(
            Level::Expert,
            "melhor_jogada_end_game",
            "a best move with 7 or 8 marks",
            "melhor_jogada",
            best(7..=8),
        ),
    ]
}
