//! Connect four, level by level: `cargo test --test connect4 basic` (or
//! `proficient`, `advanced`, `expert`) runs one level. Only what EXERCISE.md
//! names is called: any solution that follows it can pass.
//!
//! - basic: the board API against a model written here (a grid scanned
//!   whole for four in a row), over thousands of random games on many sizes.
//! - proficient, advanced: one scripted session per file in
//!   `fixtures/connect4`, replayed through the binary and compared line by
//!   line (the line explaining an invalid input is free); against a computer,
//!   the kit's own opponent plays fixed columns.
//! - advanced::property: the computer players' promises over thousands of
//!   random positions, judged by what they do (never by their random draws);
//!   arbitrary bytes never make the game crash or hang.
//! - expert: `best_move` against the exact scores of every column.

mod common;

use common::{cases, check};

use std::collections::BTreeSet;

use boardkit::connect4::{self, Board, RandomPlayer, SmartPlayer};
use boardkit::given::connect4::{Disc, DropError};
use boardkit::harness::connect4::LEVELS;
use boardkit::player::Strategy as _;
use libtest_mimic::{Failed, Trial};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn main() {
    let mut trials = basic_trials();
    trials.extend(common::fixture_trials("connect4", LEVELS));
    trials.extend(property_trials());
    trials.extend(expert_trials());
    common::run(trials);
}

/// The tests' own model of a board: a grid (row 0 at the bottom), scanned
/// whole, with none of the student's code.
#[derive(Debug, Clone)]
struct Grid {
    cells: Vec<Vec<Option<Disc>>>,
}

impl Grid {
    fn new(rows: usize, cols: usize) -> Grid {
        Grid {
            cells: vec![vec![None; cols]; rows],
        }
    }

    fn rows(&self) -> usize {
        self.cells.len()
    }

    fn cols(&self) -> usize {
        self.cells[0].len()
    }

    fn height(&self, col: usize) -> usize {
        self.cells
            .iter()
            .take_while(|row| row[col].is_some())
            .count()
    }

    fn legal(&self) -> Vec<usize> {
        (0..self.cols())
            .filter(|&c| self.height(c) < self.rows())
            .collect()
    }

    fn discs(&self) -> usize {
        self.cells.iter().flatten().filter(|c| c.is_some()).count()
    }

    fn to_move(&self) -> Disc {
        if self.discs() % 2 == 0 {
            Disc::One
        } else {
            Disc::Two
        }
    }

    fn is_full(&self) -> bool {
        self.cells.iter().flatten().all(Option::is_some)
    }

    /// Drops `disc` in `col` (which must be playable); returns the row.
    fn drop(&mut self, col: usize, disc: Disc) -> usize {
        let row = self.height(col);
        self.cells[row][col] = Some(disc);
        row
    }

    /// Whether `disc` has four in a row anywhere.
    fn has_four(&self, disc: Disc) -> bool {
        let (rows, cols) = (self.rows() as isize, self.cols() as isize);
        let at = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && r < rows
                && c < cols
                && self.cells[r as usize][c as usize] == Some(disc)
        };
        (0..rows).any(|r| {
            (0..cols).any(|c| {
                [(0, 1), (1, 0), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dr, dc)| (0..4).all(|k| at(r + k * dr, c + k * dc)))
            })
        })
    }

    /// The columns where `disc` would make four at once.
    fn winning_drops(&self, disc: Disc) -> Vec<usize> {
        self.legal()
            .into_iter()
            .filter(|&c| {
                let mut next = self.clone();
                next.drop(c, disc);
                next.has_four(disc)
            })
            .collect()
    }

    /// The grid as text, top row first, for failure messages.
    fn render(&self) -> String {
        let mut out = String::new();
        for row in self.cells.iter().rev() {
            out.push('|');
            for cell in row {
                out.push(cell.map_or(' ', Disc::symbol));
                out.push('|');
            }
            out.push('\n');
        }
        out
    }
}

/// The student's board and the model after the same drops, each disc in turn.
fn both_after(rows: usize, cols: usize, columns: &[usize]) -> (Board, Grid) {
    let mut board = Board::new(rows, cols).expect("a valid size");
    let mut grid = Grid::new(rows, cols);
    for &col in columns {
        let disc = grid.to_move();
        board.drop_piece(col, disc).expect("a playable column");
        grid.drop(col, disc);
    }
    (board, grid)
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
                    let mut grid = Grid::new(rows, cols);
                    for pick in picks {
                        let col = pick % cols;
                        let disc = grid.to_move();
                        let height = grid.height(col);
                        match board.drop_piece(col, disc) {
                            Ok(row) => {
                                prop_assert_eq!(
                                    row,
                                    height,
                                    "a disc lands on the lowest empty cell"
                                );
                                grid.drop(col, disc);
                                prop_assert_eq!(
                                    board.connects_four(row, col),
                                    grid.has_four(disc),
                                    "connects_four({}, {}) after this board:\n{}",
                                    row,
                                    col,
                                    grid.render()
                                );
                                if grid.has_four(disc) {
                                    break;
                                }
                            }
                            Err(e) => {
                                prop_assert_eq!(height, rows, "only a full column refuses a disc");
                                prop_assert_eq!(e, DropError::ColumnFull { col });
                            }
                        }
                        prop_assert_eq!(board.is_full(), grid.is_full());
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
                        // Four X at the top-right-most spot that fits, O filling below.
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
                        let mut grid = Grid::new(rows, cols);
                        for &(r, c) in &cells {
                            while grid.height(c) < r {
                                board.drop_piece(c, Disc::Two).unwrap();
                                grid.drop(c, Disc::Two);
                            }
                            if grid.height(c) == r {
                                board.drop_piece(c, Disc::One).unwrap();
                                grid.drop(c, Disc::One);
                            }
                        }
                        for &(r, c) in &cells {
                            check(board.connects_four(r, c), || {
                                format!(
                                    "{rows}x{cols} {name}: the X at row {r} column {c} should connect four\n{}",
                                    grid.render()
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
            )?;
            check(
                Board::new(4, 4).is_ok() && Board::new(20, 20).is_ok(),
                || "sizes 4 and 20 are allowed".into(),
            )
        }),
        common::trial("basic::board::a_full_board_is_full", || {
            let (board, _) = both_after(4, 4, &[0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2]);
            check(board.is_full(), || "16 discs on a 4 x 4 board".into())?;
            let (board, _) = both_after(4, 4, &[0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3]);
            check(!board.is_full(), || "15 discs on a 4 x 4 board".into())
        }),
    ]
}

/// Random positions with no four in a row yet and a legal move left.
fn open_position() -> impl proptest::strategy::Strategy<Value = Vec<usize>> {
    game_script().prop_map(|(rows, cols, picks)| {
        let mut grid = Grid::new(rows, cols);
        let mut columns = vec![rows, cols];
        for pick in picks {
            let col = pick % cols;
            if grid.height(col) == rows {
                continue;
            }
            let mut next = grid.clone();
            let disc = next.to_move();
            next.drop(col, disc);
            if next.has_four(disc) || next.is_full() {
                break;
            }
            grid = next;
            columns.push(col);
        }
        columns
    })
}

/// A position made by [`open_position`]: `[rows, cols, columns...]`.
fn position(spec: &[usize]) -> (Board, Grid) {
    both_after(spec[0], spec[1], &spec[2..])
}

fn property_trials() -> Vec<Trial> {
    vec![
        common::trial(
            "advanced::property::smart_wins_when_it_can_and_blocks_otherwise",
            || {
                let mut runner = TestRunner::new(cases(3000));
                runner
                    .run(&(open_position(), any::<u64>()), |(spec, seed)| {
                        let (board, grid) = position(&spec);
                        let me = grid.to_move();
                        let col = SmartPlayer::new(seed).choose(&board);
                        let legal = grid.legal();
                        prop_assert!(
                            legal.contains(&col),
                            "illegal column {} on\n{}",
                            col,
                            grid.render()
                        );
                        let wins = grid.winning_drops(me);
                        let threats = grid.winning_drops(me.other());
                        if !wins.is_empty() {
                            prop_assert!(
                                wins.contains(&col),
                                "missed a win in {:?}, played {} on\n{}",
                                wins,
                                col,
                                grid.render()
                            );
                        } else if !threats.is_empty() {
                            prop_assert!(
                                threats.contains(&col),
                                "failed to block {:?}, played {} on\n{}",
                                threats,
                                col,
                                grid.render()
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
                let mut runner = TestRunner::new(cases(200));
                runner
                    .run(&(open_position(), any::<u64>()), |(spec, seed)| {
                        let (board, grid) = position(&spec);
                        let mut player = RandomPlayer::new(seed);
                        let legal: BTreeSet<usize> = grid.legal().into_iter().collect();
                        let mut counts = std::collections::BTreeMap::<usize, usize>::new();
                        let draws = 100 * legal.len();
                        for _ in 0..draws {
                            let col = player.choose(&board);
                            prop_assert!(
                                legal.contains(&col),
                                "illegal column {} on\n{}",
                                col,
                                grid.render()
                            );
                            *counts.entry(col).or_default() += 1;
                        }
                        // 100 expected draws per column: a uniform draw never
                        // falls below a third of that in practice.
                        prop_assert!(
                            legal
                                .iter()
                                .all(|c| counts.get(c).copied().unwrap_or(0) >= 33),
                            "columns drawn (0-based: times) {:?} in {} draws on\n{}",
                            counts,
                            draws,
                            grid.render()
                        );
                        Ok(())
                    })
                    .map_err(|e| Failed::from(e.to_string()))
            },
        ),
        common::trial(
            "advanced::property::the_same_seed_replays_the_same_game",
            || {
                for seed in 0..30 {
                    let play = |seed| {
                        let mut board = Board::new(6, 7).unwrap();
                        let mut grid = Grid::new(6, 7);
                        let mut players = [RandomPlayer::new(seed), RandomPlayer::new(seed + 1)];
                        let mut moves = Vec::new();
                        while !grid.has_four(Disc::One)
                            && !grid.has_four(Disc::Two)
                            && !grid.is_full()
                        {
                            let disc = grid.to_move();
                            let col = players[grid.discs() % 2].choose(&board);
                            if board.drop_piece(col, disc).is_err() {
                                break;
                            }
                            grid.drop(col, disc);
                            moves.push(col);
                        }
                        moves
                    };
                    check(play(seed) == play(seed), || {
                        format!("the seeds {seed} and {} gave two games", seed + 1)
                    })?;
                }
                Ok(())
            },
        ),
        common::trial(
            "advanced::property::arbitrary_bytes_never_crash_or_hang",
            || common::survives_arbitrary_input("connect4", b"12345678 \r\n", 60),
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
                let columns: Vec<usize> = moves
                    .chars()
                    .map(|c| c.to_digit(10).unwrap() as usize - 1)
                    .collect();
                let (board, grid) = both_after(6, 7, &columns);
                let best = scores.iter().flatten().max().copied();
                let col = connect4::best_move(&board);
                let got = scores.get(col).copied().flatten();
                check(got.is_some() && got == best, || {
                    format!(
                        "after {moves}: column {} scores {got:?}; the best columns score {best:?} (scores by column: {scores:?})\n{}",
                        col + 1,
                        grid.render()
                    )
                })?;
            }
            Ok(())
        },
    )]
}
