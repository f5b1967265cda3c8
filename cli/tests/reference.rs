//! Checks of the kit's own reference, not of an exercise: solver quality
//! against published figures and the `solve` commands' output. These tests
//! are not copied into student starters.

use crate::common;

use std::collections::HashMap;

use boardkit::connect4::book::Book;
use boardkit::connect4::solver::{Position, Shape, Solver};
use boardkit::connect4::{self, Board};
use boardkit::mastermind::solver::{self, Codebreaker, Criterion};
use boardkit::mastermind::{self, Code, Rules};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The standard sets' sample shipped with the kit: (moves, score).
fn sample_positions() -> Vec<(String, i32)> {
    scored_lines("connect4_sample.txt")
}

/// Plain negamax with memoisation over the kit's `Board`, in the data's
/// convention ((cells + 1 - moves) / 2 for a win with the next disc),
/// written without any of the solver's tricks.
fn oracle_score(board: &Board, memo: &mut HashMap<Board, i32>) -> i32 {
    if let Some(&s) = memo.get(board) {
        return s;
    }
    let cells = (board.rows() * board.cols()) as i32;
    let moves = board.discs() as i32;
    let mut best = None;
    for col in board.legal_columns() {
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

#[test]
fn connect4_solver_scores_the_standard_sets_sample_strong_and_weak() {
    let shape = Shape::standard();
    let mut solver = Solver::with_table(shape, 1 << 22);
    for (moves, expected) in sample_positions() {
        let position = Position::from_moves(shape, &moves).unwrap();
        assert_eq!(solver.solve(&position, false), expected, "{moves}");
        assert_eq!(
            solver.solve(&position, true),
            expected.signum(),
            "{moves} (weak)"
        );
    }
}

#[test]
fn connect4_solver_with_its_default_4_byte_table_scores_the_sample() {
    let shape = Shape::standard();
    let mut solver = Solver::new(shape);
    solver.set_book(None);
    assert_eq!(solver.entry_bytes(), 4);
    for (moves, expected) in sample_positions() {
        let position = Position::from_moves(shape, &moves).unwrap();
        assert_eq!(solver.solve(&position, false), expected, "{moves}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]
    // A long test (4 s: the plain negamax oracle runs unoptimised in this
    // binary): `.ci/run` runs it, the everyday `cargo test` does not.
    #[test]
    #[ignore = "long: 150 positions against an unoptimised negamax (4 s); .ci/run runs it"]
    fn connect4_solver_matches_plain_negamax_on_small_boards(
        rows in 4usize..=5, cols in 4usize..=5, picks in prop::collection::vec(0usize..5, 0..40)
    ) {
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
        prop_assume!(!board.is_full());
        let position = Position::from_board(&board).unwrap();
        let expected = oracle_score(&board, &mut HashMap::new());
        let mut solver = Solver::with_table(Shape::new(cols, rows).unwrap(), 1 << 12);
        prop_assert_eq!(solver.solve(&position, false), expected, "{}", connect4::render::board_block(&board));
        prop_assert_eq!(solver.solve(&position, true), expected.signum());

        // The best columns, by the oracle's score of each column.
        let cells = (rows * cols) as i32;
        let by_column: Vec<Option<i32>> = (0..cols)
            .map(|col| {
                board.can_play(col).then(|| {
                    let mut child = board.clone();
                    let row = child.play(col).unwrap();
                    if child.connects_four(row, col) {
                        (cells + 1 - board.discs() as i32) / 2
                    } else if child.is_full() {
                        0
                    } else {
                        -oracle_score(&child, &mut HashMap::new())
                    }
                })
            })
            .collect();
        let best = by_column.iter().flatten().max().copied();
        let expected_columns: Vec<usize> =
            (0..cols).filter(|&c| by_column[c].is_some() && by_column[c] == best).collect();
        prop_assert_eq!(solver.best_columns(&position), expected_columns.clone());
        let right_to_left: Vec<usize> = (0..cols).rev().collect();
        prop_assert_eq!(
            solver.first_best_column(&position, &right_to_left),
            expected_columns.last().copied()
        );
        prop_assert_eq!(solver.scores(&position), by_column);
    }
}

/// Lines `<moves> <score>` of a file in tests/data, comments skipped.
fn scored_lines(file: &str) -> Vec<(String, i32)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    std::fs::read_to_string(&path)
        .expect("a data file")
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

#[test]
fn the_opening_book_agrees_with_the_published_scores() {
    let shape = Shape::standard();
    let book = Book::standard(shape).expect("a 7 x 6 book is embedded");
    assert!(book.depth() >= 1, "the book answers the first moves");
    let mut checked = 0;
    for (moves, expected) in scored_lines("connect4_book_check.txt") {
        let position = Position::from_moves(shape, &moves).unwrap();
        if position.moves() <= book.depth() {
            assert_eq!(book.get(&position), Some(expected), "{moves}");
            let mirrored: String = moves
                .chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect();
            let mirror = Position::from_moves(shape, &mirrored).unwrap();
            assert_eq!(book.get(&mirror), Some(expected), "{mirrored}");
            checked += 1;
        } else {
            assert_eq!(book.get(&position), None, "{moves} is deeper than the book");
        }
    }
    assert!(checked >= 10, "only {checked} positions checked");
    // The well-known first-move scores of 7 x 6 (John Tromp, 1995): only the
    // centre wins; as scores of the side to move after each first move.
    let after_first: Vec<Option<i32>> = (1..=7)
        .map(|col| book.get(&Position::from_moves(shape, &col.to_string()).unwrap()))
        .collect();
    let expected: Vec<Option<i32>> = [2, 1, 0, -1, 0, 1, 2].into_iter().map(Some).collect();
    assert_eq!(after_first, expected);
    assert_eq!(
        book.get(&Position::empty(shape)),
        Some(1),
        "the first player wins"
    );
}

#[test]
fn every_shallow_book_score_follows_from_its_children() {
    // The deepest positions are solved; each shallower one must be the best
    // of its children, negated (or a win at once): a damaged byte shows.
    let shape = Shape::standard();
    let book = Book::standard(shape).expect("a 7 x 6 book is embedded");
    let mut frontier = vec![Position::empty(shape)];
    for depth in 0..book.depth() {
        let mut next = Vec::new();
        for p in &frontier {
            let mut best = None;
            for col in (0..7).filter(|&c| p.can_play(c)) {
                let score = if p.is_winning_move(col) {
                    (43 - depth as i32) / 2
                } else {
                    let mut child = *p;
                    child.play_col(col);
                    next.push(child);
                    -book.get(&child).expect("every child is in the book")
                };
                best = best.max(Some(score));
            }
            assert_eq!(book.get(p), best, "{p:?}");
        }
        next.sort_by_key(Position::canonical_key);
        next.dedup_by_key(|p| p.canonical_key());
        frontier = next;
    }
}

#[test]
fn the_solver_gives_the_same_scores_with_and_without_the_book() {
    let shape = Shape::standard();
    let mut with_book = Solver::with_table(shape, 1 << 22);
    let mut without = Solver::with_table(shape, 1 << 22);
    without.set_book(None);
    for (moves, expected) in sample_positions() {
        let position = Position::from_moves(shape, &moves).unwrap();
        assert_eq!(with_book.solve(&position, false), expected, "{moves}");
        assert_eq!(without.solve(&position, false), expected, "{moves}");
    }
}

#[test]
fn the_search_consults_the_book_below_its_root() {
    // The best columns of the empty board come from null-window searches of
    // its children, which only the book answers quickly; only the centre
    // wins (Tromp). Without the book lookup inside the search this would
    // take minutes, and a wrong lookup would give other columns.
    let shape = Shape::standard();
    let mut solver = Solver::with_table(shape, 1 << 16);
    assert_eq!(solver.best_columns(&Position::empty(shape)), [3]);
    assert!(solver.nodes < 100, "{} positions explored", solver.nodes);
}

#[test]
fn the_perfect_player_and_best_columns_agree_with_every_column_score() {
    use boardkit::player::Strategy;
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4_best_moves.txt");
    let text = std::fs::read_to_string(path).expect("the data file");
    let shape = Shape::standard();
    let mut solver = Solver::with_table(shape, 1 << 22);
    let lines = text.lines().filter(|l| !l.starts_with('#'));
    for (n, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let scores: Vec<Option<i32>> = fields[2..].iter().map(|f| f.parse().ok()).collect();
        let best = scores.iter().flatten().max().copied();
        let best_columns: Vec<usize> = (0..7)
            .filter(|&c| scores[c].is_some() && scores[c] == best)
            .collect();
        let mut board = Board::standard();
        for c in fields[0].chars() {
            board.play(c.to_digit(10).unwrap() as usize - 1).unwrap();
        }
        let position = Position::from_board(&board).unwrap();
        assert_eq!(
            solver.best_columns(&position),
            best_columns,
            "{}",
            fields[0]
        );
        let mut player = connect4::ai::PerfectPlayer::new(shape, n as u64);
        let col = player.choose(&board);
        assert!(
            best_columns.contains(&col),
            "{}: played {}",
            fields[0],
            col + 1
        );
    }
}

#[test]
fn book_connect4_writes_a_book_the_solver_agrees_with_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("5x4.book");
    let partial = dir.path().join("5x4.partial");
    // A saved score is taken as it is: a stopped run goes on from there.
    std::fs::write(&partial, "0 9\nnot a line\n").unwrap();
    let args: Vec<String> = [
        "book",
        "connect4",
        "--width",
        "5",
        "--height",
        "4",
        "--depth",
        "5",
        "--threads",
        "2",
        "--table-mib",
        "1",
        "--out",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([out.to_string_lossy().into_owned()])
    .collect();
    let t = common::run_boardkit(&args, b"");
    assert_eq!(t.exit_code, Some(0), "{}", t.stderr);
    assert!(t.stderr.contains("(1 already in"), "{}", t.stderr);
    assert!(
        !partial.exists(),
        "the progress file is gone once the book is written"
    );
    let book = Book::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(book.depth(), 5);
    let shape = Shape::new(5, 4).unwrap();
    let deepest = Book::deepest_positions(shape, 5);
    let mut solver = Solver::with_table(shape, 1 << 16);
    // 9 cannot be a real score with 5 discs on 5 x 4 (at most 8).
    assert_eq!(book.get(&deepest[0]), Some(9), "the saved score");
    for p in &deepest[1..] {
        assert_eq!(book.get(p), Some(solver.solve(p, false)), "{p:?}");
    }
}

#[test]
fn solve_connect4_answers_book_positions_at_once() {
    let t = common::run_boardkit(&["solve".into(), "connect4".into()], b"4\n");
    assert_eq!(t.exit_code, Some(0), "{}", t.stderr);
    let fields: Vec<&str> = t.stdout.split_whitespace().collect();
    assert_eq!(
        fields[..3],
        ["4", "-1", "1"],
        "one position explored: the book's"
    );
}

#[test]
fn solve_connect4_scores_lines_and_reports_bad_ones() {
    let input = b"4455 18\n44455554221\n8\n1111111\n\n1212121 x\n";
    let t = common::run_boardkit(&["solve".into(), "connect4".into()], input);
    let firsts: Vec<String> = t
        .stdout
        .lines()
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(firsts, ["4455 18", "44455554221 -15"], "{}", t.stdout);
    assert!(
        t.stdout.lines().all(|l| l.split_whitespace().count() == 4),
        "moves, score, positions, microseconds"
    );
    assert_eq!(
        (t.stderr.lines().count(), t.exit_code),
        (4, Some(1)),
        "three bad lines and a summary:\n{}",
        t.stderr
    );
    let weak = common::run_boardkit(
        &["solve".into(), "connect4".into(), "--weak".into()],
        b"4455\n44455554221\n",
    );
    let signs: Vec<&str> = weak
        .stdout
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap_or(""))
        .collect();
    assert_eq!(signs, ["1", "-1"]);
}

fn totals(breaker: &mut Codebreaker) -> (usize, usize) {
    let rules = Rules::default();
    let (mut total, mut max) = (0, 0);
    for secret in Code::all(rules) {
        let board = solver::solve(breaker, rules, &secret, 20);
        assert_eq!(board.guesses.last().map(|(g, _)| g), Some(&secret));
        total += board.guesses.len();
        max = max.max(board.guesses.len());
    }
    (total, max)
}

#[test]
fn knuth_takes_exactly_5801_guesses_at_most_5() {
    assert_eq!(
        totals(&mut Codebreaker::new(Rules::default(), Criterion::Knuth).unwrap()),
        (5801, 5)
    );
}

#[test]
fn the_best_codebreaker_takes_at_most_5668_guesses_at_most_6() {
    let (total, max) = totals(&mut Codebreaker::new(Rules::default(), solver::BEST).unwrap());
    assert!(total <= 5668 && max <= 6, "{total} guesses, at most {max}");
}

#[test]
fn larger_mastermind_games_are_solved_with_a_bounded_search() {
    let rules = Rules::new(5, 8).unwrap();
    let mut breaker = Codebreaker::new(rules, solver::BEST).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..20 {
        let secret = mastermind::random_secret(rules, &mut rng);
        let board = solver::solve(&mut breaker, rules, &secret, 12);
        assert_eq!(
            board.guesses.last().map(|(g, _)| g),
            Some(&secret),
            "5 pegs, 8 colours"
        );
    }
}

#[test]
fn solve_mastermind_all_prints_the_totals() {
    let args = ["solve", "mastermind", "--all", "--strategy", "knuth"].map(String::from);
    let t = common::run_boardkit(&args, b"");
    assert_eq!(t.exit_code, Some(0));
    assert_eq!(
        t.stdout.lines().last(),
        Some("total guesses: 5801, average: 4.476, max: 5")
    );
    assert_eq!(
        t.stdout.lines().count(),
        1297,
        "one line per secret, then the totals"
    );
}

#[test]
fn solve_mastermind_optimal_takes_5625_guesses() {
    let args = ["solve", "mastermind", "--all", "--strategy", "optimal"].map(String::from);
    let t = common::run_boardkit(&args, b"");
    assert_eq!(t.exit_code, Some(0), "{}", t.stderr);
    assert_eq!(
        t.stdout.lines().last(),
        Some("total guesses: 5625, average: 4.340, max: 6")
    );
    assert_eq!(t.stdout.lines().count(), 1297);
    // Every line's guesses end with its secret, each line's first is AABC.
    for line in t.stdout.lines().take(1296) {
        let (secret, rest) = line.split_once(": ").unwrap();
        let guesses: Vec<&str> = rest.split(['(', ')']).nth(1).unwrap().split(' ').collect();
        assert_eq!(guesses.first(), Some(&"AABC"), "{line}");
        assert_eq!(guesses.last(), Some(&secret), "{line}");
    }
}

#[test]
fn solve_mastermind_optimal_one_secret_and_its_limits() {
    let args = [
        "solve",
        "mastermind",
        "--secret",
        "ABCD",
        "--strategy",
        "optimal",
    ]
    .map(String::from);
    let t = common::run_boardkit(&args, b"");
    assert_eq!(t.exit_code, Some(0), "{}", t.stderr);
    assert!(t.stdout.starts_with("AABC  "), "{}", t.stdout);
    assert!(
        t.stdout.contains("ABCD  4 black, 0 white\n"),
        "{}",
        t.stdout
    );
    let args = [
        "solve",
        "mastermind",
        "--all",
        "--strategy",
        "optimal",
        "--colors",
        "5",
    ]
    .map(String::from);
    let t = common::run_boardkit(&args, b"");
    assert_eq!(t.exit_code, Some(2));
    assert!(
        t.stderr
            .contains("--strategy optimal plays the standard game only"),
        "{}",
        t.stderr
    );
}

/// Arguments clap cannot check alone are usage errors, as clap's own
/// are: its `error:` line and usage, status 2, from every command that
/// checks them (they travel up to `main` as values).
#[test]
fn usage_errors_past_clap_read_as_claps_own() {
    for (args, says) in [
        (
            &["solve", "connect4", "--width", "9", "--height", "9"][..],
            "error: ",
        ),
        (
            &["solve", "mastermind", "--secret", "ZZZZ"],
            "invalid --secret",
        ),
        (
            &[
                "book",
                "connect4",
                "--out",
                "/nonexistent/b",
                "--depth",
                "99",
            ],
            "error: ",
        ),
        (&["test", "velha", ".", "--language", "rust"], "cargo test"),
        (
            &[
                "grade",
                "mastermind",
                ".",
                "--language",
                "python",
                "--out",
                "/nonexistent/o",
            ],
            "no Python form",
        ),
        (
            &["test", "mastermind", ".", "--language", "python"],
            "no Python form",
        ),
        (
            &[
                "grade",
                "velha",
                ".",
                "--shard",
                "auto",
                "--out",
                "/nonexistent/o",
            ],
            "no array job here",
        ),
        (
            &["starter", "mastermind", "/nonexistent/s", "--locale", "xx"],
            "error: ",
        ),
    ] {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let t = common::run_boardkit(&args, b"");
        assert_eq!(t.exit_code, Some(2), "{args:?}: {}", t.stderr);
        assert!(t.stderr.starts_with("error: "), "{args:?}: {}", t.stderr);
        assert!(t.stderr.contains(says), "{args:?}: {}", t.stderr);
        assert!(
            t.stderr.contains("Usage: boardkit"),
            "{args:?}: {}",
            t.stderr
        );
        assert!(t.stdout.is_empty(), "{args:?}: {}", t.stdout);
    }
}

#[test]
fn solve_mastermind_one_secret_prints_each_guess() {
    let args = [
        "solve",
        "mastermind",
        "--secret",
        "abcd",
        "--strategy",
        "knuth",
    ]
    .map(String::from);
    let t = common::run_boardkit(&args, b"");
    assert_eq!(
        t.stdout,
        "AABB  1 black, 1 white\nAACD  3 black, 0 white\nABCD  4 black, 0 white\nfound in 3 guesses\n"
    );
}
