//! Connect four, level by level: `cargo test --test connect4 basic` (or
//! `proficient`, `advanced`) runs one level.
//!
//! - basic: the board API against an oracle written here (a full scan of
//!   every line), over thousands of random games on many board sizes.
//! - proficient, advanced: one scripted session per file in
//!   `fixtures/connect4`, replayed through the binary and snapshotted.
//! - advanced::property: the computer players' promises, over thousands of
//!   random positions, and arbitrary bytes never make the game panic.

mod common;

use std::collections::BTreeSet;

use boardkit::connect4::ai::{RandomPlayer, SmartPlayer};
use boardkit::connect4::program::{Human, Seat};
use boardkit::connect4::{self, Board, Disc, DropError};
use boardkit::console::Console;
use boardkit::player::{Player, Strategy as _};
use libtest_mimic::{Arguments, Failed, Trial};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn main() {
    let args = Arguments::from_args();
    let mut trials = basic_trials();
    trials.extend(common::fixture_trials("connect4"));
    trials.extend(property_trials());
    trials.extend(expert_trials());
    libtest_mimic::run(&args, trials).exit();
}

fn cases(n: u32) -> Config {
    Config {
        cases: n,
        failure_persistence: None,
        ..Config::default()
    }
}

fn check(ok: bool, message: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok { Ok(()) } else { Err(message().into()) }
}

/// The oracle: whether `grid` (row 0 at the bottom) holds four of a kind in a
/// row anywhere, by scanning every cell in every direction.
fn oracle_has_four(grid: &[Vec<Option<Disc>>], disc: Disc) -> bool {
    let rows = grid.len() as isize;
    let cols = grid[0].len() as isize;
    let at = |r: isize, c: isize| {
        r >= 0 && c >= 0 && r < rows && c < cols && grid[r as usize][c as usize] == Some(disc)
    };
    (0..rows).any(|r| {
        (0..cols).any(|c| {
            [(0, 1), (1, 0), (1, 1), (1, -1)]
                .iter()
                .any(|&(dr, dc)| (0..4).all(|k| at(r + k * dr, c + k * dc)))
        })
    })
}

/// A strategy for the proptest: a board size and a sequence of column picks.
fn game_script() -> impl proptest::strategy::Strategy<Value = (usize, usize, Vec<usize>)> {
    (
        4usize..=9,
        4usize..=9,
        prop::collection::vec(0usize..20, 0..90),
    )
}

fn basic_trials() -> Vec<Trial> {
    vec![
        Trial::test("basic::board::random_games_agree_with_a_full_scan", || {
            let mut runner = TestRunner::new(cases(3000));
            runner
                .run(&game_script(), |(rows, cols, picks)| {
                    let mut board = Board::new(rows, cols).unwrap();
                    let mut grid = vec![vec![None; cols]; rows];
                    for pick in picks {
                        let col = pick % cols;
                        let disc = board.to_move();
                        let height = grid.iter().take_while(|row| row[col].is_some()).count();
                        match board.drop_piece(col, disc) {
                            Ok(row) => {
                                prop_assert_eq!(
                                    row,
                                    height,
                                    "a disc lands on the lowest empty cell"
                                );
                                grid[row][col] = Some(disc);
                                prop_assert_eq!(
                                    board.connects_four(row, col),
                                    oracle_has_four(&grid, disc)
                                );
                                if board.connects_four(row, col) {
                                    break;
                                }
                            }
                            Err(e) => {
                                prop_assert_eq!(height, rows, "only a full column refuses a disc");
                                prop_assert_eq!(e, DropError::ColumnFull { col });
                            }
                        }
                        let full = grid.iter().flatten().all(Option::is_some);
                        prop_assert_eq!(board.is_full(), full);
                        for (r, row) in grid.iter().enumerate() {
                            prop_assert_eq!(board.get(r, col), row[col]);
                        }
                    }
                    Ok(())
                })
                .map_err(|e| Failed::from(e.to_string()))
        }),
        Trial::test("basic::board::every_direction_on_every_size", || {
            for rows in 4..=8 {
                for cols in 4..=8 {
                    for (name, dr, dc) in [
                        ("horizontal", 0, 1),
                        ("vertical", 1, 0),
                        ("rising", 1, 1),
                        ("falling", 1, -1),
                    ] {
                        // Place four X by hand at the top-right-most spot that fits, with O filling below.
                        let (r0, c0) = (
                            rows as isize - 4,
                            if dc < 0 {
                                cols as isize - 1
                            } else {
                                cols as isize - 4
                            },
                        );
                        let cells: Vec<(usize, usize)> = (0..4)
                            .map(|k| ((r0 + k * dr) as usize, (c0 + k * dc) as usize))
                            .collect();
                        let mut board = Board::new(rows, cols).unwrap();
                        for &(r, c) in &cells {
                            while board.height(c) < r {
                                board.drop_piece(c, Disc::Two).unwrap();
                            }
                            if board.height(c) == r {
                                board.drop_piece(c, Disc::One).unwrap();
                            }
                        }
                        for &(r, c) in &cells {
                            check(board.connects_four(r, c), || {
                                format!(
                                    "{rows}x{cols} {name}: the X at row {r} column {c} should connect four\n{}",
                                    connect4::render::board_block(&board)
                                )
                            })?;
                        }
                    }
                }
            }
            Ok(())
        }),
        Trial::test("basic::board::errors_for_bad_columns_and_sizes", || {
            let mut board = Board::new(4, 5).map_err(|e| e.to_string())?;
            check(
                board.drop_piece(5, Disc::One) == Err(DropError::OutOfRange { col: 5, cols: 5 }),
                || "column 5 of a 5-column board (0-based) is out of range".into(),
            )?;
            for _ in 0..4 {
                board.drop_piece(0, Disc::One).map_err(|e| e.to_string())?;
            }
            check(
                board.drop_piece(0, Disc::Two) == Err(DropError::ColumnFull { col: 0 }),
                || "a full column".into(),
            )?;
            check(
                Board::new(3, 7).is_err() && Board::new(7, 21).is_err(),
                || "sizes outside 4..=20".into(),
            )
        }),
    ]
}

/// Random positions with no four in a row yet and a legal move left.
fn open_position() -> impl proptest::strategy::Strategy<Value = Board> {
    game_script().prop_map(|(rows, cols, picks)| {
        let mut board = Board::new(rows, cols).unwrap();
        for pick in picks {
            let col = pick % cols;
            if !board.can_play(col) {
                continue;
            }
            let mut next = board.clone();
            let row = next.play(col).unwrap();
            if next.connects_four(row, col) || next.is_full() {
                break;
            }
            board = next;
        }
        board
    })
}

fn play_in_memory(mut input: &[u8]) -> Vec<u8> {
    let mut output = Vec::new();
    let mut console = Console::new(&mut input, &mut output);
    let mut players: [Box<dyn Player<Board, usize>>; 2] = [Box::new(Human), Box::new(Human)];
    let _ = connect4::program::play(
        Board::standard(),
        &mut players,
        [Seat::PlayerOne, Seat::PlayerTwo],
        &mut console,
    );
    output
}

fn property_trials() -> Vec<Trial> {
    vec![
        Trial::test(
            "advanced::property::smart_wins_when_it_can_and_blocks_otherwise",
            || {
                let mut runner = TestRunner::new(cases(5000));
                runner
                    .run(&(open_position(), any::<u64>()), |(board, seed)| {
                        let me = board.to_move();
                        let col = SmartPlayer::new(seed).choose(&board);
                        prop_assert!(board.can_play(col));
                        let wins: Vec<usize> = board
                            .legal_columns()
                            .filter(|&c| board.is_winning_drop(c, me))
                            .collect();
                        let threats: Vec<usize> = board
                            .legal_columns()
                            .filter(|&c| board.is_winning_drop(c, me.other()))
                            .collect();
                        if !wins.is_empty() {
                            prop_assert!(
                                wins.contains(&col),
                                "missed a win: {:?}, played {}",
                                wins,
                                col
                            );
                        } else if !threats.is_empty() {
                            prop_assert!(
                                threats.contains(&col),
                                "failed to block {:?}, played {}",
                                threats,
                                col
                            );
                        }
                        Ok(())
                    })
                    .map_err(|e| Failed::from(e.to_string()))
            },
        ),
        Trial::test(
            "advanced::property::random_plays_legal_columns_and_reaches_them_all",
            || {
                let mut runner = TestRunner::new(cases(300));
                runner
                    .run(&(open_position(), any::<u64>()), |(board, seed)| {
                        let mut player = RandomPlayer::new(seed);
                        let legal: BTreeSet<usize> = board.legal_columns().collect();
                        let mut seen = BTreeSet::new();
                        for _ in 0..400 {
                            let col = player.choose(&board);
                            prop_assert!(legal.contains(&col), "illegal column {}", col);
                            seen.insert(col);
                        }
                        prop_assert_eq!(seen, legal);
                        Ok(())
                    })
                    .map_err(|e| Failed::from(e.to_string()))
            },
        ),
        Trial::test(
            "advanced::property::the_same_seed_replays_the_same_game",
            || {
                for seed in 0..50 {
                    let play = |seed| {
                        let mut board = Board::standard();
                        let mut player = SmartPlayer::new(seed);
                        let mut moves = Vec::new();
                        while board.winner().is_none() && !board.is_full() {
                            let col = player.choose(&board);
                            board.play(col).unwrap();
                            moves.push(col);
                        }
                        moves
                    };
                    check(play(seed) == play(seed), || {
                        format!("seed {seed} gave two games")
                    })?;
                }
                Ok(())
            },
        ),
        Trial::test(
            "advanced::property::game_never_panics_on_arbitrary_bytes",
            || {
                let mut runner = TestRunner::new(cases(300));
                let bytes = prop::collection::vec(
                    prop_oneof![any::<u8>(), prop::sample::select(b"12345678 \r\n".to_vec())],
                    0..600,
                );
                runner
                    .run(&bytes, |input| {
                        let text =
                            String::from_utf8(play_in_memory(&input)).expect("output is UTF-8");
                        prop_assert!(text.starts_with("┌─┬"));
                        Ok(())
                    })
                    .map_err(|e| Failed::from(e.to_string()))
            },
        ),
    ]
}

/// The standard sets' sample shipped with the kit: (moves, score).
fn sample_positions() -> Vec<(String, i32)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4_sample.txt");
    std::fs::read_to_string(&path)
        .expect("the sample file")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut fields = l.split_whitespace();
            let moves = fields.next().expect("moves").to_owned();
            let score = fields.next().and_then(|s| s.parse().ok()).expect("a score");
            (moves, score)
        })
        .collect()
}

/// The oracle for small boards: plain negamax with memoisation over the
/// kit's own `Board`, in the data's convention ((cells + 1 - moves) / 2 for
/// a win with the next disc), written without any of the solver's tricks.
fn oracle_score(board: &Board, memo: &mut std::collections::HashMap<Board, i32>) -> i32 {
    if let Some(&s) = memo.get(board) {
        return s;
    }
    let cells = (board.rows() * board.cols()) as i32;
    let moves = board.discs() as i32;
    let mut best = None;
    for col in board.legal_columns().collect::<Vec<_>>() {
        let mut child = board.clone();
        let row = child.play(col).expect("a legal column");
        let score = if child.connects_four(row, col) {
            (cells + 1 - moves) / 2
        } else if child.is_full() {
            0
        } else {
            -oracle_score(&child, memo)
        };
        best = Some(best.map_or(score, |b: i32| b.max(score)));
    }
    let best = best.unwrap_or(0);
    memo.insert(board.clone(), best);
    best
}

fn expert_trials() -> Vec<Trial> {
    use boardkit::connect4::solver::{Position, Shape, Solver};
    vec![
        Trial::test(
            "expert::solver::standard_sets_sample_strong_and_weak",
            || {
                let shape = Shape::standard();
                let mut solver = Solver::with_table(shape, 1 << 22);
                for (moves, expected) in sample_positions() {
                    let position =
                        Position::from_moves(shape, &moves).map_err(|e| format!("{moves}: {e}"))?;
                    let strong = solver.solve(&position, false);
                    check(strong == expected, || {
                        format!("{moves}: expected {expected}, got {strong}")
                    })?;
                    let weak = solver.solve(&position, true);
                    check(weak == expected.signum(), || {
                        format!("{moves} (weak): expected {}, got {weak}", expected.signum())
                    })?;
                }
                Ok(())
            },
        ),
        Trial::test("expert::solver::small_boards_match_plain_negamax", || {
            let mut runner = TestRunner::new(cases(150));
            let script = (
                4usize..=5,
                4usize..=5,
                prop::collection::vec(0usize..5, 0..40),
            );
            runner
                .run(&script, |(rows, cols, picks)| {
                    // Keep searches small for the oracle: at most 10 empty cells.
                    let mut board = Board::new(rows, cols).unwrap();
                    for pick in picks.into_iter().chain(0..rows * cols) {
                        if rows * cols - board.discs() <= 10 {
                            break;
                        }
                        let col = pick % cols;
                        if !board.can_play(col) {
                            continue;
                        }
                        let mut next = board.clone();
                        let row = next.play(col).unwrap();
                        if next.connects_four(row, col) {
                            continue;
                        }
                        board = next;
                    }
                    if board.is_full() {
                        return Ok(());
                    }
                    let shape = Shape::new(cols, rows).unwrap();
                    let position = Position::from_board(&board).unwrap();
                    let expected = oracle_score(&board, &mut std::collections::HashMap::new());
                    let mut solver = Solver::with_table(shape, 1 << 12);
                    prop_assert_eq!(
                        solver.solve(&position, false),
                        expected,
                        "{}",
                        connect4::render::board_block(&board)
                    );
                    prop_assert_eq!(solver.solve(&position, true), expected.signum());
                    Ok(())
                })
                .map_err(|e| Failed::from(e.to_string()))
        }),
        Trial::test("expert::best_move::plays_a_move_of_best_score", || {
            let shape = Shape::standard();
            let mut solver = Solver::with_table(shape, 1 << 20);
            for (moves, expected) in sample_positions().into_iter().take(60) {
                let mut board = Board::standard();
                for c in moves.chars() {
                    board.play(c.to_digit(10).unwrap() as usize - 1).unwrap();
                }
                let col = connect4::ai::best_move(&board);
                let mut position = Position::from_moves(shape, &moves).unwrap();
                let got = if position.is_winning_move(col) {
                    (43 - moves.len() as i32) / 2
                } else {
                    position.play_col(col);
                    -solver.solve(&position, false)
                };
                check(got == expected, || {
                    format!(
                        "{moves}: column {} scores {got}, the best scores {expected}",
                        col + 1
                    )
                })?;
            }
            Ok(())
        }),
        Trial::test(
            "expert::cli::solve_connect4_scores_lines_and_reports_bad_ones",
            || {
                let input = b"4455 18\n44455554221\n8\n1111111\n\n1212121 x\n";
                let t = common::run_boardkit(&["solve".into(), "connect4".into()], input);
                let firsts: Vec<String> = t
                    .stdout
                    .lines()
                    .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
                    .collect();
                check(firsts == ["4455 18", "44455554221 -15"], || {
                    common::expected_actual("4455 18\n44455554221 -15", &t.stdout)
                })?;
                check(
                    t.stdout.lines().all(|l| l.split_whitespace().count() == 4),
                    || "moves, score, positions, microseconds".into(),
                )?;
                check(
                    t.stderr.lines().count() == 4 && t.exit_code == Some(1),
                    || format!("three bad lines and a summary, exit 1:\n{}", t.stderr),
                )?;
                let weak = common::run_boardkit(
                    &["solve".into(), "connect4".into(), "--weak".into()],
                    b"4455\n44455554221\n",
                );
                let signs: Vec<&str> = weak
                    .stdout
                    .lines()
                    .map(|l| l.split_whitespace().nth(1).unwrap_or(""))
                    .collect();
                check(signs == ["1", "-1"], || {
                    common::expected_actual("1, -1", &weak.stdout)
                })
            },
        ),
    ]
}
