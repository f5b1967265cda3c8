//! The function-level driver for connect four: one request line in, one
//! answer out, through the graded board API only. Part of the kit (copied as
//! is into starters and graded crates).
//!
//! Request: `game <rows> <cols> <columns...>` (0-based columns). Answer: for
//! each drop, `r<row>` plus `+4` when it connects four and `+full` when the
//! board is then full, or `full`/`out` for a refused drop; then `new:err`
//! when the size is refused.

use super::board::{Board, Disc, DropError};

/// The answer to one request (see the module documentation).
pub fn answer(request: &str) -> String {
    let words: Vec<&str> = request.split_whitespace().collect();
    let numbers: Option<Vec<usize>> = words.iter().skip(1).map(|w| w.parse().ok()).collect();
    let (Some("game"), Some(numbers)) = (words.first().copied(), numbers) else {
        return format!("bad request: {request}");
    };
    if numbers.len() < 2 {
        return format!("bad request: {request}");
    }
    let Ok(mut board) = Board::new(numbers[0], numbers[1]) else {
        return "new:err".to_owned();
    };
    let mut answers = Vec::new();
    let mut disc = Disc::One;
    for &col in &numbers[2..] {
        match board.drop_piece(col, disc) {
            Ok(row) => {
                let mut a = format!("r{row}");
                if board.connects_four(row, col) {
                    a.push_str("+4");
                }
                if board.is_full() {
                    a.push_str("+full");
                }
                answers.push(a);
                disc = disc.other();
            }
            Err(DropError::ColumnFull { .. }) => answers.push("full".into()),
            Err(DropError::OutOfRange { .. }) => answers.push("out".into()),
        }
    }
    answers.join(" ")
}

/// The function-level cases of the basic level: (name, requests).
pub fn cases() -> Vec<(&'static str, Vec<String>)> {
    let game = |rows: usize, cols: usize, moves: &[usize]| {
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        format!("game {rows} {cols} {}", moves.join(" "))
    };
    // Every column of every size filled up, then one more: fills, full columns, a full board.
    let mut fill = Vec::new();
    for rows in 4..=7 {
        for cols in 4..=8 {
            let moves: Vec<usize> = (0..cols)
                .flat_map(|c| std::iter::repeat_n(c, rows + 1))
                .collect();
            fill.push(game(rows, cols, &moves));
        }
    }
    vec![
        (
            "four_in_a_row_every_direction",
            vec![
                game(6, 7, &[3, 0, 3, 0, 3, 0, 3]),
                game(6, 7, &[0, 0, 1, 1, 2, 2, 3]),
                game(6, 7, &[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]),
                game(6, 7, &[6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3]),
                game(6, 7, &[0, 0, 1, 1, 3, 3, 2]),
                game(4, 4, &[0, 1, 0, 1, 0, 1, 0]),
                game(5, 12, &[8, 8, 9, 9, 10, 10, 11]),
                game(12, 5, &[4, 3, 4, 3, 4, 3, 4]),
                game(4, 7, &[5, 5, 6, 6, 0, 1, 3, 3]),
            ],
        ),
        ("full_columns_and_full_boards", fill),
        (
            "columns_out_of_range_and_sizes",
            vec![
                game(6, 7, &[7, 8, 100, 3]),
                game(3, 7, &[0]),
                game(6, 21, &[0]),
                game(20, 20, &[19, 0]),
            ],
        ),
    ]
}

/// Connect four is compared exactly (its course's testbed is byte for byte),
/// so its events are its lines, without trailing whitespace.
pub fn events(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_owned()).collect()
}
