//! Jogo da velha, level by level: `cargo test --test velha basic` (or
//! `proficient`, `advanced`, `expert`) runs one level. Only what EXERCISE.md
//! names is called: any solution that follows it can pass.
//!
//! - basic: the exam functions, checked exhaustively against an oracle written
//!   here, independently of the library (every position spelling, all 3^9
//!   boards).
//! - proficient, advanced: one scripted session per file in `fixtures/velha`,
//!   replayed through the binary and compared by graded events (title,
//!   boards, messages, result: prompts are free).
//! - advanced::property: arbitrary bytes never make the game crash or hang.
//! - expert: `melhor_jogada` against every sequence of replies.

mod common;

use common::{cases, check};

use boardkit::harness::velha::{LEVELS, events};
use boardkit::velha;
use libtest_mimic::{Failed, Trial};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn main() {
    let mut trials = function_trials();
    trials.extend(common::fixture_trials("velha", LEVELS));
    trials.extend(property_trials());
    trials.extend(expert_trials());
    common::run(trials);
}

/// Every spelling of every position the exam accepts, with its row and column.
fn position_spellings() -> Vec<(String, usize, usize)> {
    let mut all = Vec::new();
    for (row, letters) in [('A', 'a'), ('B', 'b'), ('C', 'c')].into_iter().enumerate() {
        for (col, digit) in ['1', '2', '3'].into_iter().enumerate() {
            for letter in [letters.0, letters.1] {
                for (before, middle, after) in [("", "", ""), (" ", " ", " "), ("  ", "", "   ")] {
                    all.push((format!("{before}{letter}{middle}{digit}{after}"), row, col));
                }
            }
        }
    }
    all
}

/// The oracle: a plain reading of the exam's statement.
fn oracle_winner(cells: &[[char; 3]; 3]) -> char {
    let lines = [
        [(0, 0), (0, 1), (0, 2)],
        [(1, 0), (1, 1), (1, 2)],
        [(2, 0), (2, 1), (2, 2)],
        [(0, 0), (1, 0), (2, 0)],
        [(0, 1), (1, 1), (2, 1)],
        [(0, 2), (1, 2), (2, 2)],
        [(0, 0), (1, 1), (2, 2)],
        [(0, 2), (1, 1), (2, 0)],
    ];
    for player in ['X', 'O'] {
        if lines
            .iter()
            .any(|line| line.iter().all(|&(r, c)| cells[r][c] == player))
        {
            return player;
        }
    }
    if cells.iter().flatten().all(|&c| c != ' ') {
        'E'
    } else {
        'N'
    }
}

fn all_boards() -> impl Iterator<Item = [[char; 3]; 3]> {
    (0..3usize.pow(9)).map(|mut code| {
        let mut cells = [[' '; 3]; 3];
        for cell in cells.iter_mut().flatten() {
            *cell = [' ', 'X', 'O'][code % 3];
            code /= 3;
        }
        cells
    })
}

fn board_from_rows(rows: [&str; 3]) -> [[char; 3]; 3] {
    rows.map(|r| {
        let c: Vec<char> = r.chars().collect();
        [c[0], c[1], c[2]]
    })
}

fn function_trials() -> Vec<Trial> {
    let mut trials = Vec::new();
    trials.push(common::trial("basic::extrai_linha::every_spelling", || {
        for (text, row, _) in position_spellings() {
            let got = velha::extrai_linha(&text);
            check(got == row, || {
                format!("extrai_linha({text:?}): expected {row}, got {got}")
            })?;
        }
        Ok(())
    }));
    trials.push(common::trial(
        "basic::extrai_coluna::every_spelling",
        || {
            for (text, _, col) in position_spellings() {
                let got = velha::extrai_coluna(&text);
                check(got == col, || {
                    format!("extrai_coluna({text:?}): expected {col}, got {got}")
                })?;
            }
            Ok(())
        },
    ));
    trials.push(common::trial(
        "basic::extrai_linha::spec_example_b1",
        || {
            check(
                velha::extrai_linha("B1") == 1 && velha::extrai_coluna("B1") == 0,
                || "B1 is row 1, column 0".into(),
            )
        },
    ));
    trials.push(common::trial("basic::verifica_vencedor::all_19683_boards", || {
        for cells in all_boards() {
            let (expected, got, got9) = (
                oracle_winner(&cells),
                velha::verifica_vencedor(&cells),
                velha::verifica_vencedor_9(
                    cells[0][0], cells[0][1], cells[0][2], cells[1][0], cells[1][1], cells[1][2],
                    cells[2][0], cells[2][1], cells[2][2],
                ),
            );
            check(got == expected && got9 == expected, || {
                format!("board {cells:?}: expected {expected:?}, got {got:?} (nine-argument form: {got9:?})")
            })?;
        }
        Ok(())
    }));
    // Named cases, so a failing student sees which shape of board is wrong.
    let named: [(&str, [&str; 3], char); 18] = [
        ("x_row_a", ["XXX", "OO ", "   "], 'X'),
        ("x_row_b", ["OO ", "XXX", "   "], 'X'),
        ("x_row_c", ["OO ", "   ", "XXX"], 'X'),
        ("o_row_a", ["OOO", "XX ", "X  "], 'O'),
        ("o_row_c", ["XX ", "X  ", "OOO"], 'O'),
        ("x_column_1", ["XO ", "XO ", "X  "], 'X'),
        ("x_column_3", ["O X", "O X", "  X"], 'X'),
        ("o_column_2", ["XOX", " O ", "XO "], 'O'),
        ("x_main_diagonal", ["XO ", "OX ", "  X"], 'X'),
        ("x_anti_diagonal", ["OOX", " X ", "X  "], 'X'),
        ("o_main_diagonal", ["OXX", "XO ", "  O"], 'O'),
        ("o_anti_diagonal", ["XXO", "XO ", "O  "], 'O'),
        (
            "win_on_the_ninth_move_is_not_a_draw",
            ["XOX", "OXO", "OXX"],
            'X',
        ),
        ("draw", ["XOX", "XOO", "OXX"], 'E'),
        ("empty_board", ["   ", "   ", "   "], 'N'),
        ("in_progress", ["XO ", "   ", "   "], 'N'),
        ("two_in_a_row_is_not_a_win", ["XX ", "OO ", "   "], 'N'),
        ("last_cell_empty", ["XOX", "XOO", "OX "], 'N'),
    ];
    for (name, rows, expected) in named {
        trials.push(common::trial(
            format!("basic::verifica_vencedor::{name}"),
            move || {
                let got = velha::verifica_vencedor(&board_from_rows(rows));
                check(got == expected, || {
                    format!(
                        "board\n{}\n{}\n{}\nexpected {expected:?}, got {got:?}",
                        rows[0], rows[1], rows[2]
                    )
                })
            },
        ));
    }
    trials
}

fn property_trials() -> Vec<Trial> {
    vec![
        common::trial(
            "advanced::property::arbitrary_bytes_never_crash_or_hang",
            || common::survives_arbitrary_input("velha", b"ABCabc123 \r\n", 60),
        ),
        common::trial(
            "proficient::property::every_game_of_valid_moves_ends_with_a_result",
            || {
                let mut runner = TestRunner::new(cases(40));
                runner
                    .run(
                        &Just(vec!["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"])
                            .prop_shuffle(),
                        |cells| {
                            let script = cells.join("\n") + "\n";
                            let transcript = common::play("velha", &[], script.as_bytes());
                            let events = events(&transcript.stdout);
                            let last = events.last().map(String::as_str).unwrap_or_default();
                            prop_assert!(
                                matches!(last, "Vencedor: X" | "Vencedor: O" | "Empate"),
                                "after {:?} the last graded line is {:?}",
                                cells,
                                last
                            );
                            Ok(())
                        },
                    )
                    .map_err(|e| Failed::from(e.to_string()))
            },
        ),
    ]
}

/// The oracle's depth-aware value of `cells` for `to_move` (a win with `m`
/// marks on the board scores `10 - m`; a loss the negative; a draw 0), by
/// plain minimax over the exam's representation.
fn oracle_value(cells: &mut [[char; 3]; 3], to_move: char, marks: i32) -> i32 {
    let other = if to_move == 'X' { 'O' } else { 'X' };
    let mut best = i32::MIN;
    for i in 0..9 {
        let (r, c) = (i / 3, i % 3);
        if cells[r][c] != ' ' {
            continue;
        }
        cells[r][c] = to_move;
        let value = match oracle_winner(cells) {
            'E' => 0,
            'N' => -oracle_value(cells, other, marks + 1),
            _ => 10 - (marks + 1),
        };
        cells[r][c] = ' ';
        best = best.max(value);
    }
    best
}

/// A move chooser under test: the exam's board in, `(row, column)` out.
type MoveChooser<'a> = dyn FnMut(&[[char; 3]; 3]) -> (usize, usize) + 'a;

/// Plays `ai` as `ai_mark` against every sequence of replies; checks each of
/// its moves is optimal for the oracle (never a loss given away, never a win
/// missed, the fastest win taken). Returns how many games were played.
fn against_every_reply(
    cells: &mut [[char; 3]; 3],
    to_move: char,
    ai_mark: char,
    marks: i32,
    ai: &mut MoveChooser<'_>,
) -> Result<u32, Failed> {
    if oracle_winner(cells) != 'N' {
        return check(
            oracle_winner(cells) != if ai_mark == 'X' { 'O' } else { 'X' },
            || format!("the AI ({ai_mark}) lost: {cells:?}"),
        )
        .map(|()| 1);
    }
    let other = if to_move == 'X' { 'O' } else { 'X' };
    if to_move == ai_mark {
        let best = oracle_value(cells, to_move, marks);
        let (r, c) = ai(cells);
        check(r < 3 && c < 3 && cells[r][c] == ' ', || {
            format!("illegal move {r},{c} on {cells:?}")
        })?;
        cells[r][c] = to_move;
        let got = match oracle_winner(cells) {
            'E' => 0,
            'N' => -oracle_value(cells, other, marks + 1),
            _ => 10 - (marks + 1),
        };
        let games = if got == best {
            against_every_reply(cells, other, ai_mark, marks + 1, ai)
        } else {
            Err(
                format!("on {cells:?} the move {r},{c} scores {got}, the best scores {best}")
                    .into(),
            )
        };
        cells[r][c] = ' ';
        return games;
    }
    let mut games = 0;
    for i in 0..9 {
        let (r, c) = (i / 3, i % 3);
        if cells[r][c] == ' ' {
            cells[r][c] = to_move;
            let result = against_every_reply(cells, other, ai_mark, marks + 1, ai);
            cells[r][c] = ' ';
            games += result?;
        }
    }
    Ok(games)
}

fn expert_trials() -> Vec<Trial> {
    let mut trials = Vec::new();
    for ai_mark in ['X', 'O'] {
        trials.push(common::trial(
            format!("expert::melhor_jogada::perfect_as_{ai_mark}_against_every_reply"),
            move || {
                let games =
                    against_every_reply(&mut [[' '; 3]; 3], 'X', ai_mark, 0, &mut |cells| {
                        velha::melhor_jogada(cells)
                    })?;
                check(games > 0, || "no game played".into())
            },
        ));
    }
    trials
}
