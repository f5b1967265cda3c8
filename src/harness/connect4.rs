//! The kit's side of the connect-four exercise, shipped as is with every
//! starter: its levels and how they are compared, the program's options and
//! the computer players they make, and the function driver. It calls only
//! the API that EXERCISE.md names.

use std::io::{BufRead, Write};

use crate::catalogue::{f, message, t};
use crate::connect4::{self, Board, Disc, DropError};
use crate::given::connect4::{MAX_SIDE, MIN_SIDE};
use crate::level::{Graded, Level, LevelInfo};
use crate::player::Strategy;
use crate::program::PlayError;

/// The levels of connect four and how each is graded.
pub const LEVELS: &[LevelInfo] = &[
    LevelInfo {
        level: Level::Basic,
        graded: Graded::Functions(&[
            "Board::new",
            "Board::drop_piece",
            "Board::connects_four",
            "Board::is_full",
        ]),
        summary: "the board, any size: Board::new, drop_piece, connects_four (four in a row through a cell), is_full",
    },
    LevelInfo {
        level: Level::Proficient,
        graded: Graded::Program(events),
        summary: "the two-player game program: board, prompt, result; an invalid column re-asked",
    },
    LevelInfo {
        level: Level::Advanced,
        graded: Graded::Program(events),
        summary: "computer opponents: RandomPlayer (uniform) and SmartPlayer (win, else block, else uniform)",
    },
    LevelInfo {
        level: Level::Expert,
        graded: Graded::Functions(&["best_move"]),
        summary: "a perfect player: best_move plays a move of best exact score",
    },
];

/// Printed before each human move, exactly.
pub const PROMPT: &str = "Column number? (starts at 1):";

#[cfg(feature = "kit")]
const SIDE_RANGE: std::ops::RangeInclusive<i64> = MIN_SIDE as i64..=MAX_SIDE as i64;

/// The options of `play connect4`.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "kit", derive(clap::Args))]
pub struct PlayArgs {
    /// Number of rows (4 to 20).
    #[cfg_attr(feature = "kit", arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(SIDE_RANGE)))]
    pub rows: u8,
    /// Number of columns (4 to 20).
    #[cfg_attr(feature = "kit", arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(SIDE_RANGE)))]
    pub cols: u8,
    /// Play against the computer, which plays O; you are player one.
    #[cfg_attr(feature = "kit", arg(long, value_enum))]
    pub ai: Option<AiKind>,
    /// Seed for the computer's random choices, so a game can be replayed.
    #[cfg_attr(feature = "kit", arg(long))]
    pub seed: Option<u64>,
    /// For the kit's tests: a computer opponent that plays these columns
    /// (from 1) in turn, so a game against a computer is the same for every
    /// correct program.
    #[cfg_attr(
        feature = "kit",
        arg(long, hide = true, value_delimiter = ',', conflicts_with = "ai")
    )]
    pub computer_columns: Vec<usize>,
}

/// The computer opponents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "kit", derive(clap::ValueEnum))]
pub enum AiKind {
    /// A uniformly random legal column.
    Random,
    /// Wins if it can, else blocks your win, else random.
    Smart,
    /// A move of best exact score: at once on 7 x 6 (its early moves are
    /// stored), slower on larger boards; columns x (rows + 1) at most 64.
    Perfect,
}

impl crate::program::Options for PlayArgs {
    const HELP: &'static str = "Options:
  --rows <ROWS>    Number of rows (4 to 20) [default: 6]
  --cols <COLS>    Number of columns (4 to 20) [default: 7]
  --ai <AI>        Play against the computer, which plays O [possible values: random, smart, perfect]
  --seed <SEED>    Seed for the computer's random choices, so a game can be replayed";

    fn from_words(words: &[String]) -> Result<Self, PlayError> {
        use crate::program::{number_in, text};
        use lexopt::Arg::Long;
        let mut args = PlayArgs {
            rows: 6,
            cols: 7,
            ai: None,
            seed: None,
            computer_columns: Vec::new(),
        };
        let sides = MIN_SIDE as u8..=MAX_SIDE as u8;
        let mut parser = lexopt::Parser::from_args(words);
        while let Some(arg) = parser.next()? {
            match arg {
                Long("rows") => args.rows = number_in(&mut parser, "rows", sides.clone())?,
                Long("cols") => args.cols = number_in(&mut parser, "cols", sides.clone())?,
                Long("seed") => args.seed = Some(number_in(&mut parser, "seed", 0..=u64::MAX)?),
                Long("ai") => {
                    args.ai = Some(match text(&mut parser)?.as_str() {
                        "random" => AiKind::Random,
                        "smart" => AiKind::Smart,
                        "perfect" => AiKind::Perfect,
                        other => {
                            return Err(PlayError::Usage(format!(
                                "invalid value '{other}' for '--ai': expected random, smart or perfect"
                            )));
                        }
                    });
                }
                Long("computer-columns") => {
                    for column in text(&mut parser)?.split(',') {
                        args.computer_columns.push(column.parse().map_err(|_| {
                            PlayError::Usage(format!(
                                "invalid value '{column}' for '--computer-columns'"
                            ))
                        })?);
                    }
                }
                _ => return Err(arg.unexpected().into()),
            }
        }
        if args.ai.is_some() && !args.computer_columns.is_empty() {
            return Err(PlayError::Usage(
                "the argument '--computer-columns' cannot be used with '--ai'".into(),
            ));
        }
        Ok(args)
    }
}

impl PlayArgs {
    /// The seed of the computer's random choices: `--seed`, else a random one.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(rand::random)
    }

    /// The computer opponent the options ask for, made from the statement's
    /// players (`--ai perfect` plays [`connect4::best_move`]).
    pub fn computer(&self) -> Option<Box<dyn Strategy<Board, usize>>> {
        if !self.computer_columns.is_empty() {
            return Some(Box::new(Scripted {
                columns: self.computer_columns.clone(),
                next: 0,
            }));
        }
        Some(match self.ai? {
            AiKind::Random => Box::new(connect4::RandomPlayer::new(self.seed())),
            AiKind::Smart => Box::new(connect4::SmartPlayer::new(self.seed())),
            AiKind::Perfect => Box::new(BestMove),
        })
    }
}

/// The statement's `best_move` as a computer player.
struct BestMove;

impl Strategy<Board, usize> for BestMove {
    fn choose(&mut self, board: &Board) -> usize {
        connect4::best_move(board)
    }
}

/// Plays the columns it was given, in turn (see `--computer-columns`).
struct Scripted {
    columns: Vec<usize>,
    next: usize,
}

impl Strategy<Board, usize> for Scripted {
    fn choose(&mut self, _board: &Board) -> usize {
        let column = self.columns[self.next % self.columns.len()];
        self.next += 1;
        column.saturating_sub(1)
    }
}

/// Plays the student's program ([`connect4::play`]) as the options say.
pub fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), PlayError> {
    let mut computer = args.computer();
    connect4::play(
        args.rows.into(),
        args.cols.into(),
        computer.as_deref_mut().map(|c| c as _),
        input,
        output,
    )
    .map_err(PlayError::from_io)
}

/// The standard 7 x 6 board after `moves` (columns from 1), through the
/// statement's API; `None` if a move cannot be played.
pub fn standard_board(moves: &str) -> Option<Board> {
    let mut board = Board::new(6, 7).ok()?;
    let mut disc = Disc::One;
    for c in moves.chars() {
        let col = c.to_digit(10)? as usize;
        board.drop_piece(col.checked_sub(1)?, disc).ok()?;
        disc = disc.other();
    }
    Some(board)
}

/// How many times, per legal column, a player is asked in a uniformity
/// request (`random_uniform`, `smart_uniform`).
pub const DRAWS_PER_COLUMN: usize = 2000;

/// The most positions a public case asks a uniformity request on.
pub const UNIFORM_POSITIONS: usize = 32;

/// One request's chance of failing a uniform player: the public case (at
/// most [`UNIFORM_POSITIONS`] positions) fails a correct player at most
/// once in a million runs.
const FALSE_ALARM: f64 = 1e-6 / UNIFORM_POSITIONS as f64;

/// Asks `player` [`DRAWS_PER_COLUMN`] times per legal column on one
/// position: `uniform` and the columns (from 1) drawn, when every column
/// drawn is legal and each comes up as often as a uniform draw allows (see
/// [`crate::uniformity`]); else what is wrong.
fn uniform(player: &mut dyn Strategy<Board, usize>, board: &Board, legal: &[usize]) -> String {
    let mut counts = vec![0usize; legal.len()];
    for _ in 0..DRAWS_PER_COLUMN * legal.len() {
        let col = player.choose(board);
        match legal.iter().position(|&c| c == col) {
            Some(i) => counts[i] += 1,
            None => return format!("illegal column {}", col + 1),
        }
    }
    let columns: Vec<String> = legal.iter().map(|c| (c + 1).to_string()).collect();
    match crate::uniformity::check(&counts, FALSE_ALARM) {
        Ok(()) => format!("uniform over {}", columns.join(" ")),
        Err(skew) => format!(
            "not uniform over {}: column {} {skew}",
            columns.join(" "),
            legal[skew.index] + 1
        ),
    }
}

/// The legal columns (0-based) of the standard board after `moves`
/// (columns from 1), counted by the kit: the statement asks nothing more of
/// a student's `Board` than its four functions (not even `Clone`).
fn legal_columns(moves: &str) -> Vec<usize> {
    (0..7)
        .filter(|&c| {
            let digit = char::from(b'1' + c as u8);
            moves.chars().filter(|&m| m == digit).count() < 6
        })
        .collect()
}

/// Two random players made with the same seed, each asked for a whole game
/// on the standard board: `same` when they play the same columns.
fn replay(seed: u64) -> String {
    let game = || {
        let mut player = connect4::RandomPlayer::new(seed);
        let mut board = Board::new(6, 7).expect("the standard size");
        let mut disc = Disc::One;
        let mut columns = Vec::new();
        for _ in 0..42 {
            let col = player.choose(&board);
            let Ok(row) = board.drop_piece(col, disc) else {
                return Err(format!("illegal column {}", col + 1));
            };
            columns.push(col + 1);
            if board.connects_four(row, col) || board.is_full() {
                break;
            }
            disc = disc.other();
        }
        Ok(columns)
    };
    match (game(), game()) {
        (Err(e), _) | (_, Err(e)) => e,
        (Ok(a), Ok(b)) if a == b => "same".to_owned(),
        (Ok(a), Ok(b)) => format!("the same seed played {a:?} then {b:?}"),
    }
}

/// The function driver: one request in, one answer out, through the
/// statement's API only.
///
/// - `game <rows> <cols> <columns...>` (0-based columns): for each drop,
///   `r<row>`, plus `+4` when it connects four and `+full` when the board is
///   then full, or `full` / `out` for a refused drop; `new:err` when the size
///   is refused.
/// - `four <rows> <cols> <columns...>`: the drops, then `connects_four` asked
///   of every cell: the rows from the bottom, `/` between them, each cell
///   `4` (its disc is part of four in a row), `-` (a disc that is not) or `.`
///   (empty).
/// - `smart <seed> <moves>`, `random <seed> <moves>` and `best_move <moves>`
///   (moves as the columns played from 1, on 7 x 6): the column (from 1)
///   that player chooses.
/// - `random_uniform <moves>`, `smart_uniform <moves>`: whether that
///   player's draws are uniform over the legal columns (see [`uniform`]).
/// - `random_replay <seed>`: whether one seed replays one game.
pub fn answer(request: &str) -> String {
    let bad = || format!("bad request: {request}");
    let mut words = request.split_whitespace();
    let kind = words.next().unwrap_or("");
    match kind {
        "game" => return game(words).unwrap_or_else(bad),
        "four" => return four(words).unwrap_or_else(bad),
        "random_replay" => {
            return match words.next().and_then(|w| w.parse::<u64>().ok()) {
                Some(seed) => replay(seed),
                None => bad(),
            };
        }
        _ => {}
    }
    let seed = match kind {
        "smart" | "random" => match words.next().and_then(|w| w.parse::<u64>().ok()) {
            Some(seed) => seed,
            None => return bad(),
        },
        _ => 0,
    };
    let moves = words.next().unwrap_or("");
    let Some(board) = standard_board(moves) else {
        return bad();
    };
    let col = match kind {
        "smart" => connect4::SmartPlayer::new(seed).choose(&board),
        "random" => connect4::RandomPlayer::new(seed).choose(&board),
        "best_move" => connect4::best_move(&board),
        "random_uniform" | "smart_uniform" => {
            let legal = legal_columns(moves);
            let mut player: Box<dyn Strategy<Board, usize>> = if kind == "random_uniform" {
                Box::new(connect4::RandomPlayer::new(2026))
            } else {
                Box::new(connect4::SmartPlayer::new(2026))
            };
            return uniform(player.as_mut(), &board, &legal);
        }
        _ => return bad(),
    };
    (col + 1).to_string()
}

/// A driver's request as the student's code is called, in Rust, and the
/// board it is asked about drawn as its grid, at any size: never the
/// driver's words (`game 6 7 7 8 100 3`).
pub fn shown_call(request: &str, _python: bool) -> String {
    let words: Vec<&str> = request.split_whitespace().collect();
    let numbers = |from: usize| -> Vec<usize> {
        words
            .iter()
            .skip(from)
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    // A position given as the columns played, from 1, on 6 x 7.
    let played = |moves: Option<&&str>| -> Vec<usize> {
        moves
            .map(|m| {
                m.chars()
                    .filter_map(|c| c.to_digit(10))
                    .map(|d| d as usize - 1)
                    .collect()
            })
            .unwrap_or_default()
    };
    let seed = words.get(1).copied().unwrap_or_default();
    match words.first().copied().unwrap_or_default() {
        "game" => shown_game(&numbers(1)),
        "four" => shown_four(&numbers(1)),
        kind @ ("smart" | "random") => {
            let player = if kind == "smart" {
                "SmartPlayer"
            } else {
                "RandomPlayer"
            };
            let drops = played(words.get(2));
            format!(
                "{}\n{}",
                f(
                    "{player}::new({seed}).choose(&board), on this 6 x 7 board:",
                    &[("player", &player), ("seed", &seed)]
                ),
                drawn(6, 7, &drops)
            )
        }
        "best_move" => format!(
            "{}\n{}",
            t("best_move(&board), on this 6 x 7 board:"),
            drawn(6, 7, &played(words.get(1)))
        ),
        kind @ ("random_uniform" | "smart_uniform") => {
            let player = if kind == "smart_uniform" {
                "SmartPlayer"
            } else {
                "RandomPlayer"
            };
            format!(
                "{}\n{}",
                f(
                    "{player}::choose(&board), drawn many times: each column it may play equally often, on:",
                    &[("player", &player)]
                ),
                drawn(6, 7, &played(words.get(1)))
            )
        }
        "random_replay" => f(
            "RandomPlayer::new({seed}) playing a whole game twice: the same seed plays the same game",
            &[("seed", &seed)],
        ),
        _ => crate::function_fixture::call_text(request),
    }
}

/// The rows, columns and drops of a request's numbers.
fn sized(n: &[usize]) -> (usize, usize, Vec<usize>) {
    (
        n.first().copied().unwrap_or(0),
        n.get(1).copied().unwrap_or(0),
        n.get(2..).unwrap_or_default().to_vec(),
    )
}

/// A `game` request as the student's code is called, what its answers
/// mean, and its board.
fn shown_game(numbers: &[usize]) -> String {
    shown_drops(
        message(
            "Board::new({rows}, {cols}), then drop_piece(col, disc) in columns {drops} (0-based), Disc::One first, then in turn; after each drop, connects_four of its cell and is_full()",
        ),
        message(
            "Answers, one per drop: rN, the row the disc lands in (0 at the bottom), then +4 if connects_four and +full if is_full(); full or out, drop_piece's Err for a full column or one out of range (no turn: the same disc plays next); new:err, Board::new's Err for a size out of range",
        ),
        numbers,
    )
}

/// A `four` request as the student's code is called, what its answer
/// means, and its board.
fn shown_four(numbers: &[usize]) -> String {
    shown_drops(
        message(
            "Board::new({rows}, {cols}), drop_piece in columns {drops} (0-based, Disc::One first), then connects_four(row, col) of every cell holding a disc",
        ),
        message(
            "The answer, row by row from the bottom, split by /: 4, a disc for which connects_four is true; -, one for which it is false; ., an empty cell",
        ),
        numbers,
    )
}

/// A request of drops (rows, columns, then the columns dropped in) said
/// as `call` fills it, then `answers`, then its board.
fn shown_drops(call: &'static str, answers: &'static str, numbers: &[usize]) -> String {
    let (rows, cols, drops) = sized(numbers);
    let drops_said = format!("{drops:?}");
    format!(
        "{}\n{}\n{}",
        f(
            call,
            &[("rows", &rows), ("cols", &cols), ("drops", &drops_said)]
        ),
        t(answers),
        drawn(rows, cols, &drops)
    )
}

/// A board after drops in `columns` (0-based), `X` (Disc::One) first, as
/// rows from the top and the column numbers (from 1) under them. A drop
/// refused (a full column, one out of range) is no turn: the same disc
/// comes next, as the driver plays it.
fn drawn(rows: usize, cols: usize, columns: &[usize]) -> String {
    let (rows, cols) = (rows.min(MAX_SIDE), cols.min(MAX_SIDE));
    let mut cells = vec![vec!['.'; cols]; rows];
    let mut heights = vec![0; cols];
    let mut disc = 'X';
    for &col in columns {
        if col < cols && heights[col] < rows {
            cells[heights[col]][col] = disc;
            heights[col] += 1;
            disc = if disc == 'X' { 'O' } else { 'X' };
        }
    }
    // Columns 10 and over take two digits: every cell is then three wide,
    // so that `9 10 11` never reads as `91011`.
    let width = if cols > 9 { 3 } else { 2 };
    let mut out: Vec<String> = cells
        .iter()
        .rev()
        .map(|row| {
            format!(
                "  {}",
                row.iter()
                    .map(|c| format!("{c:>width$}"))
                    .collect::<String>()
            )
        })
        .collect();
    out.push(format!(
        "  {}",
        (1..=cols)
            .map(|c| format!("{c:>width$}"))
            .collect::<String>()
    ));
    out.join("\n")
}

/// The board after the drops of a `four` request, and `connects_four` of
/// every cell.
fn four<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<String> {
    let rows: usize = words.next()?.parse().ok()?;
    let cols: usize = words.next()?.parse().ok()?;
    let mut board = Board::new(rows, cols).ok()?;
    let mut heights = vec![0usize; cols];
    let mut disc = Disc::One;
    for word in words {
        let col: usize = word.parse().ok()?;
        board.drop_piece(col, disc).ok()?;
        *heights.get_mut(col)? += 1;
        disc = disc.other();
    }
    let lines: Vec<String> = (0..rows)
        .map(|row| {
            (0..cols)
                .map(|col| {
                    match (
                        row < heights[col],
                        row < heights[col] && board.connects_four(row, col),
                    ) {
                        (false, _) => '.',
                        (true, true) => '4',
                        (true, false) => '-',
                    }
                })
                .collect()
        })
        .collect();
    Some(lines.join("/"))
}

fn game<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<String> {
    let rows = words.next()?.parse().ok()?;
    let cols = words.next()?.parse().ok()?;
    let columns: Vec<usize> = words.map(|w| w.parse().ok()).collect::<Option<_>>()?;
    let Ok(mut board) = Board::new(rows, cols) else {
        return Some("new:err".to_owned());
    };
    let mut answers = Vec::new();
    let mut disc = Disc::One;
    for col in columns {
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
    Some(answers.join(" "))
}

/// Stands for the line that explains an invalid input: its wording is free.
pub const MESSAGE: &str = "(one line saying what is wrong)";

fn is_board_line(line: &str) -> bool {
    line.starts_with(['┌', '├', '└', '|'])
        || (!line.trim().is_empty()
            && line
                .split_whitespace()
                .all(|w| w.bytes().all(|b| b.is_ascii_digit())))
}

/// The graded events of a transcript (SPEC 3.2): its lines, compared
/// exactly (trailing spaces and `\r` aside), except the line that explains
/// an invalid input, whose wording is free: any one line right after a
/// prompt that is not a board. A prompt printed without a newline (Python's
/// `input("...")`) is split from what follows it on its line.
pub fn events(text: &str) -> Vec<String> {
    let mut events: Vec<String> = Vec::new();
    for line in text.lines() {
        let mut line = line.trim_end();
        while let Some(rest) = line.strip_prefix(PROMPT) {
            events.push(PROMPT.to_owned());
            line = rest.trim_start();
        }
        if line.is_empty() && events.last().is_some_and(|e| e == PROMPT) {
            continue;
        }
        let after_prompt = events.last().is_some_and(|e| e == PROMPT);
        if after_prompt && !is_board_line(line) {
            events.push(MESSAGE.to_owned());
        } else {
            events.push(line.to_owned());
        }
    }
    while events.last().is_some_and(|e| e.is_empty()) {
        events.pop();
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_free_and_glued_prompts_are_split() {
        let reference =
            format!("┌─┐\n{PROMPT}\nInvalid input 'x': expected a column number.\n{PROMPT}\n┌─┐\n");
        let python = format!("┌─┐\n{PROMPT}Not a column!\n{PROMPT} ┌─┐\n");
        assert_eq!(events(&reference), events(&python));
        let silent = format!("┌─┐\n{PROMPT}\n{PROMPT}\n┌─┐\n");
        assert_ne!(events(&reference), events(&silent));
    }

    #[test]
    fn a_refused_drop_is_no_turn_in_the_board_drawn() {
        // Column 1 of a 2-row board: X, O, then refused; X plays column 2.
        assert_eq!(drawn(2, 2, &[0, 0, 0, 1]), "   O .\n   X X\n   1 2");
        // Past nine columns, each cell is three wide.
        let wide = drawn(1, 10, &[9]);
        assert!(wide.ends_with("  9 10"), "{wide}");
        assert!(wide.starts_with("    .  ."), "{wide}");
    }

    #[test]
    fn other_lines_are_exact() {
        assert_ne!(events("Player one won!\n"), events("Player 1 won!\n"));
        assert_eq!(events("Player one won!\r\n\n"), events("Player one won!"));
    }
}
