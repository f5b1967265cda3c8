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

use common::{cases, check};

use std::collections::BTreeSet;

use boardkit::connect4::ai::{RandomPlayer, SmartPlayer};
use boardkit::connect4::program::{Human, Seat};
use boardkit::connect4::{self, Board, Disc, DropError};
use boardkit::console::Console;
use boardkit::player::{Player, Strategy as _};
use libtest_mimic::{Failed, Trial};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn main() {
    let mut trials = basic_trials();
    trials.extend(common::fixture_trials("connect4"));
    trials.extend(property_trials());
    trials.extend(expert_trials());
    common::run(trials);
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
        common::trial("basic::board::random_games_agree_with_a_full_scan", || {
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
        common::trial("basic::board::every_direction_on_every_size", || {
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
        common::trial("basic::board::errors_for_bad_columns_and_sizes", || {
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
        common::trial(
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
                            .into_iter()
                            .filter(|&c| board.is_winning_drop(c, me))
                            .collect();
                        let threats: Vec<usize> = board
                            .legal_columns()
                            .into_iter()
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
        common::trial(
            "advanced::property::random_plays_legal_columns_and_reaches_them_all",
            || {
                let mut runner = TestRunner::new(cases(300));
                runner
                    .run(&(open_position(), any::<u64>()), |(board, seed)| {
                        let mut player = RandomPlayer::new(seed);
                        let legal: BTreeSet<usize> = board.legal_columns().into_iter().collect();
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
        common::trial(
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
        common::trial(
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

/// Positions of the standard sets with the exact score of every column,
/// computed by the kit and shipped with the tests: (moves, scores).
fn best_move_positions() -> Vec<(String, Vec<Option<i32>>)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4_best_moves.txt");
    std::fs::read_to_string(&path)
        .expect("the data file")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            (
                fields[0].to_owned(),
                fields[2..].iter().map(|f| f.parse().ok()).collect(),
            )
        })
        .collect()
}

fn expert_trials() -> Vec<Trial> {
    vec![common::trial(
        "expert::best_move::plays_a_column_of_best_score",
        || {
            for (moves, scores) in best_move_positions() {
                let mut board = Board::standard();
                for c in moves.chars() {
                    board.play(c.to_digit(10).unwrap() as usize - 1).unwrap();
                }
                let best = scores.iter().flatten().max().copied();
                let col = connect4::ai::best_move(&board);
                let got = scores.get(col).copied().flatten();
                check(got.is_some() && got == best, || {
                    format!(
                        "after {moves}: column {} scores {got:?}; the best columns score {best:?} (scores by column: {scores:?})\n{}",
                        col + 1,
                        connect4::render::board_block(&board)
                    )
                })?;
            }
            Ok(())
        },
    )]
}
