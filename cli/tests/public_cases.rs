//! The kit's own checks of the public cases every starter ships
//! (`fixtures/<game>/functions/`): the answers they accept, which the
//! grader computes with the reference, agree with oracles written here
//! independently of the library; and the reference's programs survive
//! arbitrary input. Not copied into student starters.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use boardkit::function_fixture::FunctionCase;
use boardkit::given::connect4::Disc;
use libtest_mimic::Failed;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// The stored public function case `name` of `game`.
fn stored(game: &str, name: &str) -> FunctionCase {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(game)
        .join("functions");
    FunctionCase::discover(&dir)
        .unwrap()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name} of {game}"))
}

/// A velha request's nine cells (row by row, `.` empty) as the exam's board.
fn velha_board(cells: &str) -> [[char; 3]; 3] {
    let c: Vec<char> = cells
        .chars()
        .map(|c| if c == '.' { ' ' } else { c })
        .collect();
    [[c[0], c[1], c[2]], [c[3], c[4], c[5]], [c[6], c[7], c[8]]]
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

/// The oracle's depth-aware value of `cells` for `to_move` (a win with `m`
/// marks on the board scores `10 - m`; a loss the negative; a draw 0), by
/// plain minimax over the exam's representation: each empty cell's value,
/// the best.
fn oracle_value(cells: &mut [[char; 3]; 3], to_move: char, marks: i32) -> i32 {
    oracle_move_values(cells, to_move, marks)
        .into_iter()
        .map(|(value, _, _)| value)
        .max()
        .unwrap_or(i32::MIN)
}

/// The value for `to_move` of playing each empty cell: (value, row, column).
fn oracle_move_values(
    cells: &mut [[char; 3]; 3],
    to_move: char,
    marks: i32,
) -> Vec<(i32, usize, usize)> {
    let other = if to_move == 'X' { 'O' } else { 'X' };
    let mut values = Vec::new();
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
        values.push((value, r, c));
    }
    values
}

/// Every move of best oracle value for the player to move on `cells`.
fn oracle_best_moves(cells: &mut [[char; 3]; 3]) -> Vec<String> {
    let marks = cells.iter().flatten().filter(|&&c| c != ' ').count() as i32;
    let xs = cells.iter().flatten().filter(|&&c| c == 'X').count() as i32;
    let to_move = if 2 * xs == marks { 'X' } else { 'O' };
    let scored: Vec<(i32, String)> = oracle_move_values(cells, to_move, marks)
        .into_iter()
        .map(|(value, r, c)| (value, format!("{r} {c}")))
        .collect();
    let best = scored.iter().map(|(v, _)| *v).max().expect("a move left");
    scored
        .into_iter()
        .filter(|(v, _)| *v == best)
        .map(|(_, m)| m)
        .collect()
}

#[test]
fn velha_every_board_is_judged_as_the_oracle_judges_it() {
    for name in [
        "verifica_vencedor_every_board",
        "verifica_vencedor_9_every_board",
        "verifica_vencedor_named_boards",
        "verifica_vencedor_9_named_boards",
    ] {
        let case = stored("velha", name);
        if name.ends_with("every_board") {
            assert_eq!(case.calls.len(), 19683, "{name}");
        }
        for call in &case.calls {
            let expected = oracle_winner(&velha_board(&call[0])).to_string();
            assert_eq!(call[1..], [expected], "{name}: {}", call[0]);
        }
    }
}

#[test]
fn velha_positions_are_read_as_the_statement_says() {
    for name in ["extrai_linha", "extrai_coluna"] {
        let case = stored("velha", name);
        assert_eq!(case.calls.len(), 6 * 3 * 3, "{name}");
        for call in &case.calls {
            let text: String = call[0].chars().filter(|c| *c != ' ').collect();
            let text = text.to_uppercase();
            let (row, col) = (text.as_bytes()[0] - b'A', text.as_bytes()[1] - b'1');
            let expected = if name == "extrai_linha" { row } else { col };
            assert_eq!(call[1..], [expected.to_string()], "{name}({:?})", call[0]);
        }
    }
}

/// Every position a game can reach (in progress), by any play: the best
/// moves accepted are exactly the oracle's, whose values prefer the fastest
/// win and the slowest loss.
#[test]
fn velha_best_moves_are_the_oracles_in_every_reachable_position() {
    let mut positions = 0;
    for name in [
        "melhor_jogada_opening",
        "melhor_jogada_middle_game",
        "melhor_jogada_late_middle_game",
        "melhor_jogada_end_game",
    ] {
        for call in stored("velha", name).calls {
            let mut board = velha_board(&call[0]);
            let mut expected = oracle_best_moves(&mut board);
            let mut accepted = call[1..].to_vec();
            expected.sort();
            accepted.sort();
            assert_eq!(accepted, expected, "{name}: {}", call[0]);
            positions += 1;
        }
    }
    // 5,478 legal positions, less the 958 finished ones.
    assert_eq!(positions, 4520);
}

#[test]
fn velha_arbitrary_bytes_never_crash_or_hang() {
    survives_arbitrary_input("velha", b"ABCabc123 \r\n", 60).unwrap();
}

#[test]
fn velha_every_game_of_valid_moves_ends_with_a_result() {
    let mut runner = TestRunner::new(cases(40));
    runner
        .run(
            &Just(vec!["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]).prop_shuffle(),
            |cells| {
                let script = cells.join("\n") + "\n";
                let transcript = common::play("velha", &[], script.as_bytes());
                let events = boardkit::harness::velha::events(&transcript.stdout);
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
        .unwrap();
}

// Connect four: the drops' answers against a grid scanned whole.

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

    /// Every four in a row on the grid: its direction and its cells.
    fn fours(&self) -> Vec<(&'static str, [(usize, usize); 4])> {
        let (rows, cols) = (self.rows() as isize, self.cols() as isize);
        let mut found = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                for (name, dr, dc) in [
                    ("horizontal", 0, 1),
                    ("vertical", 1, 0),
                    ("rising", 1, 1),
                    ("falling", 1, -1),
                ] {
                    let cells = [0, 1, 2, 3].map(|k| (r + k * dr, c + k * dc));
                    if cells
                        .iter()
                        .any(|&(r, c)| r < 0 || c < 0 || r >= rows || c >= cols)
                    {
                        continue;
                    }
                    let cells = cells.map(|(r, c)| (r as usize, c as usize));
                    let first = self.cells[cells[0].0][cells[0].1];
                    if first.is_some() && cells.iter().all(|&(r, c)| self.cells[r][c] == first) {
                        found.push((name, cells));
                    }
                }
            }
        }
        found
    }

    /// Whether the disc at (row, col) is part of a four.
    fn has_four_through(&self, row: usize, col: usize) -> bool {
        self.fours()
            .iter()
            .any(|(_, cells)| cells.contains(&(row, col)))
    }

    /// The directions of the fours on the grid.
    fn four_directions(&self) -> Vec<&'static str> {
        self.fours().into_iter().map(|(name, _)| name).collect()
    }
}

/// The `game` answers of a grid: each drop's row, `+4`, `+full`, or
/// `full` / `out`.
fn grid_game(rows: usize, cols: usize, columns: &[usize]) -> String {
    let mut grid = Grid::new(rows, cols);
    columns
        .iter()
        .map(|&col| {
            if col >= cols {
                return "out".to_owned();
            }
            if grid.height(col) == rows {
                return "full".to_owned();
            }
            let disc = grid.to_move();
            let row = grid.drop(col, disc);
            let mut answer = format!("r{row}");
            if grid.has_four_through(row, col) {
                answer.push_str("+4");
            }
            if grid.is_full() {
                answer.push_str("+full");
            }
            answer
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn numbers(text: &str) -> Vec<usize> {
    text.split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn connect4_drops_and_fours_are_judged_as_a_full_scan_judges_them() {
    for name in [
        "random_games_on_every_size",
        "four_in_a_row_every_direction",
        "full_columns_and_full_boards",
    ] {
        for call in stored("connect4", name).calls {
            let n = numbers(&call[0]);
            assert_eq!(
                call[1..],
                [grid_game(n[0], n[1], &n[2..])],
                "{name}: {}",
                call[0]
            );
        }
    }
    let mut directions = std::collections::BTreeSet::new();
    for call in stored("connect4", "four_through_every_cell").calls {
        let n = numbers(&call[0]);
        let mut grid = Grid::new(n[0], n[1]);
        for &col in &n[2..] {
            let disc = grid.to_move();
            grid.drop(col, disc);
        }
        let expected: Vec<String> = (0..grid.rows())
            .map(|row| {
                (0..grid.cols())
                    .map(|col| match grid.cells[row][col] {
                        None => '.',
                        Some(_) if grid.has_four_through(row, col) => '4',
                        Some(_) => '-',
                    })
                    .collect()
            })
            .collect();
        assert_eq!(call[1..], [expected.join("/")], "four {}", call[0]);
        directions.extend(grid.four_directions());
    }
    assert_eq!(
        directions.len(),
        4,
        "fours in every direction: {directions:?}"
    );
}

#[test]
fn connect4_arbitrary_bytes_never_crash_or_hang() {
    survives_arbitrary_input("connect4", b"12345678 \r\n", 60).unwrap();
}

// Mastermind: scores against a peg-by-peg count.

/// The oracle: blacks peg by peg, then whites by pairing each remaining
/// guess peg with an unused secret peg of its colour.
fn oracle(secret: &[u8], guess: &[u8]) -> (u8, u8) {
    let mut used_secret = vec![false; secret.len()];
    let mut used_guess = vec![false; guess.len()];
    let mut black = 0;
    for i in 0..secret.len() {
        if secret[i] == guess[i] {
            black += 1;
            used_secret[i] = true;
            used_guess[i] = true;
        }
    }
    let mut white = 0;
    for (i, &g) in guess.iter().enumerate() {
        if used_guess[i] {
            continue;
        }
        if let Some(j) = (0..secret.len()).find(|&j| !used_secret[j] && secret[j] == g) {
            used_secret[j] = true;
            white += 1;
        }
    }
    (black, white)
}

#[test]
fn mastermind_scores_are_a_plain_peg_by_peg_count() {
    for name in ["score_random_pairs", "score_repeated_colours"] {
        for call in stored("mastermind", name).calls {
            let codes: Vec<Vec<u8>> = call[0]
                .split_whitespace()
                .map(|c| c.bytes().map(|b| b - b'A').collect())
                .collect();
            let (black, white) = oracle(&codes[0], &codes[1]);
            assert_eq!(
                call[1..],
                [format!("{black} {white}")],
                "{name}: {}",
                call[0]
            );
        }
    }
}

#[test]
fn mastermind_arbitrary_bytes_never_crash_or_hang() {
    survives_arbitrary_input("mastermind", b"ABCDEFabcdefg \t\r\n", 60).unwrap();
}

/// `boardkit grade --help` and the instructors' guide tell the same facts: where results
/// go, what `--compile-timeout` bounds, how a rerun regrades.
#[test]
fn grade_help_and_readme_agree() {
    let help = common::run_boardkit(&["grade".into(), "--help".into()], b"").stdout;
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/instructors.md"),
    )
    .unwrap();
    for text in [&help, &readme] {
        assert!(text.contains("students/<name>/results.json"), "{text}");
        assert!(!text.contains("delete a submission's folder"), "{text}");
    }
    assert!(help.contains("one crate may take to compile"), "{help}");
    assert!(readme.contains("with its own timeout (`--compile-timeout`"));
    assert!(help.contains("--fresh") && readme.contains("`--fresh` grades everyone again"));
}

// The reference's programs on arbitrary input.

/// A proptest configuration of `n` cases without failure files (a failing
/// case is printed in the message).
fn cases(n: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: n,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Arbitrary bytes, mostly from `alphabet`, as a game's stdin.
fn arbitrary_input(
    alphabet: &'static [u8],
    max_len: usize,
) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    prop::collection::vec(
        prop_oneof![1 => any::<u8>(), 4 => prop::sample::select(alphabet.to_vec())],
        0..max_len,
    )
}

/// The program on arbitrary input never crashes and never hangs: it ends
/// with status 0 (a finished game) or 1 (input ended first).
fn survives_arbitrary_input(
    game: &'static str,
    alphabet: &'static [u8],
    runs: u32,
) -> Result<(), Failed> {
    let mut runner = proptest::test_runner::TestRunner::new(cases(runs));
    runner
        .run(&arbitrary_input(alphabet, 400), |input| {
            let transcript = common::play(game, &[], &input);
            proptest::prop_assert!(
                matches!(transcript.exit_code, Some(0 | 1)),
                "exit status {:?} on input {:?}\n{}",
                transcript.exit_code,
                String::from_utf8_lossy(&input),
                transcript.stderr
            );
            Ok(())
        })
        .map_err(|e| Failed::from(e.to_string()))
}

// The statement and the definition.

/// The statement's section of the game titled `title` (its `# ` heading
/// starts with the title), cut at its `## <Level>:` headings: level name ->
/// that level's text.
fn statement_levels(statement: &str, title: &str) -> BTreeMap<String, String> {
    let start = statement
        .find(&format!("\n# {title}"))
        .unwrap_or_else(|| panic!("no section for {title}"));
    let rest = &statement[start + 1..];
    let section = &rest[..rest[1..].find("\n# ").map_or(rest.len(), |end| end + 1)];
    let mut levels = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in section.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            current = heading
                .split(':')
                .next()
                .map(|level| level.trim().to_lowercase());
            continue;
        }
        if let Some(level) = &current {
            let text: &mut String = levels.entry(level.clone()).or_default();
            text.push_str(line);
            text.push('\n');
        }
    }
    levels
}

/// Whether `text` holds `word` as a whole identifier.
fn names(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(part)
            && !text[i + word.len()..].chars().next().is_some_and(part)
    })
}

/// Each level's graded functions, as README and the starter's README name
/// them (the definition's summary) and as the public function cases call
/// them, are named by the statement at that level.
#[test]
fn the_statement_names_each_levels_graded_functions_at_that_level() {
    let statement =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../EXERCISE.md"))
            .unwrap();
    let identifier = |word: &str| {
        word.contains('_')
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    for game in boardkit_cli::registry::GAMES {
        let levels = statement_levels(&statement, game.title);
        let whole: String = levels.values().cloned().collect();
        for info in game.levels {
            let text = levels
                .get(info.level.name())
                .unwrap_or_else(|| panic!("{}: no {} section", game.id, info.level));
            for word in info
                .summary
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            {
                if identifier(word) {
                    assert!(
                        names(text, word),
                        "{}: the {} summary names {word}, which its section does not",
                        game.id,
                        info.level
                    );
                }
            }
        }
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(game.id)
            .join("functions");
        for case in FunctionCase::discover(&dir).unwrap() {
            // A case calls the statement's function when the statement
            // defines it (others are the driver's own words: `four`, `game`).
            if !whole.contains(&format!("fn {}(", case.function)) {
                continue;
            }
            let text = &levels[case.level.name()];
            assert!(
                names(text, &case.function),
                "{}: {} calls {} at {}, whose section does not name it",
                game.id,
                case.name,
                case.function,
                case.level
            );
        }
    }
}

/// `grade --list-cases`: every case of a mode with the rule it checks, on
/// one page; the exam's by its section and number, the kit's robustness
/// apart (never in Python).
#[test]
fn every_case_names_the_rule_it_checks() {
    let list = |extra: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["grade", "velha", "--list-cases"])
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let exam = list(&["--language", "python"]);
    let line = |text: &str, case: &str| {
        text.lines()
            .find(|l| l.starts_with(case))
            .unwrap_or_else(|| panic!("no {case} in\n{text}"))
            .to_owned()
    };
    // The exam's rules, by their numbers in its statement.
    assert!(
        line(&exam, "advanced::spec_invalid_examples ").contains("rule 5"),
        "{exam}"
    );
    assert!(
        line(&exam, "proficient::draw ").contains("rule 4"),
        "{exam}"
    );
    assert!(!exam.contains("robustness"), "{exam}");
    // The exam in Portuguese: the same cases, described in its words.
    let portuguese = list(&["--language", "python", "--locale", "pt-BR"]);
    assert!(
        line(&portuguese, "basic::extrai_linha ").contains("a linha de cada posição"),
        "{portuguese}"
    );
    let names = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .collect()
    };
    assert_eq!(names(&portuguese), names(&exam));
    // A locale it has no exam in, or a game's crates: refused, not
    // graded in another language.
    for refused in [
        &["--language", "python", "--locale", "fr"][..],
        &["--locale", "pt-BR"][..],
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["grade", "velha", "--list-cases"])
            .args(refused)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{refused:?}: {output:?}");
    }
    let crates = list(&[]);
    assert!(
        line(&crates, "robustness::line_of_4096_bytes ").contains("EXERCISE.md, Robustness"),
        "{crates}"
    );
    assert!(
        line(&crates, "advanced::occupied_cell ")
            .contains("EXERCISE.md, Jogo da velha, advanced level"),
        "{crates}"
    );
}
