//! The kit's side of the jogo da velha exercise, shipped as is with every
//! starter: its levels and how they are compared, the program's options, and
//! the function driver. It calls only the API that EXERCISE.md names, so any
//! student folder that follows the statement links with it.

use std::io::{BufRead, Write};

use crate::level::{Graded, Level, LevelInfo};
use crate::program::PlayError;
use crate::velha;

/// The levels of jogo da velha and how each is graded.
pub const LEVELS: &[LevelInfo] = &[
    LevelInfo {
        level: Level::Basic,
        graded: Graded::Functions(&[
            "extrai_linha",
            "extrai_coluna",
            "verifica_vencedor",
            "verifica_vencedor_9",
        ]),
        summary: "the functions extrai_linha, extrai_coluna, verifica_vencedor and its nine-argument form verifica_vencedor_9",
    },
    LevelInfo {
        level: Level::Proficient,
        graded: Graded::Program(events),
        summary: "the game program with valid input: title, boards, result",
    },
    LevelInfo {
        level: Level::Advanced,
        graded: Graded::Program(events),
        summary: "input validation: Posição inválida, Posição ocupada, case and spaces",
    },
    LevelInfo {
        level: Level::Expert,
        graded: Graded::Functions(&["melhor_jogada"]),
        summary: "an unbeatable AI: melhor_jogada never loses and wins whenever it can",
    },
];

/// The exercise's program takes no options: two people, one 3 x 3 board.
#[derive(Debug, Default)]
#[cfg_attr(feature = "kit", derive(clap::Args))]
pub struct PlayArgs {}

impl crate::program::Options for PlayArgs {
    const HELP: &'static str = "Options: none (two people, one 3 x 3 board).";

    fn from_words(words: &[String]) -> Result<Self, PlayError> {
        let mut parser = lexopt::Parser::from_args(words);
        match parser.next()? {
            None => Ok(PlayArgs {}),
            Some(arg) => Err(arg.unexpected().into()),
        }
    }
}

/// Plays the student's program ([`velha::jogar`]).
pub fn play(
    _args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), PlayError> {
    velha::jogar(input, output).map_err(PlayError::from_io)
}

/// The exam's board from a request's nine cells, row by row, `.` for empty.
pub fn grid(cells: &str) -> Option<[[char; 3]; 3]> {
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

/// The function driver: one request in, one answer out, through the
/// statement's functions only. Requests: `extrai_linha <position>`,
/// `extrai_coluna <position>`, `verifica_vencedor <9 cells>`,
/// `verifica_vencedor_9 <9 cells>` and `melhor_jogada <9 cells>` (cells row by
/// row, `.` for empty; a move answers `<row> <column>`, 0-based).
pub fn answer(request: &str) -> String {
    let (function, argument) = request.split_once(' ').unwrap_or((request, ""));
    let board = grid(argument);
    match (function, board) {
        ("extrai_linha", _) => velha::extrai_linha(argument).to_string(),
        ("extrai_coluna", _) => velha::extrai_coluna(argument).to_string(),
        ("verifica_vencedor", Some(b)) => velha::verifica_vencedor(&b).to_string(),
        ("verifica_vencedor_9", Some(b)) => velha::verifica_vencedor_9(
            b[0][0], b[0][1], b[0][2], b[1][0], b[1][1], b[1][2], b[2][0], b[2][1], b[2][2],
        )
        .to_string(),
        ("melhor_jogada", Some(b)) => {
            let (row, col) = velha::melhor_jogada(&b);
            format!("{row} {col}")
        }
        _ => format!("bad request: {request}"),
    }
}

/// A driver's request as the student calls it, in Rust (`python` false) or
/// in Python, then its board drawn as a grid: `verifica_vencedor(&[['X',
/// ' ', ' '], ...])`, never the driver's nine cells.
pub fn shown_call(request: &str, python: bool) -> String {
    let (function, argument) = request.split_once(' ').unwrap_or((request, ""));
    let Some(board) =
        grid(argument).filter(|_| function != "extrai_linha" && function != "extrai_coluna")
    else {
        return format!("{function}({argument:?})");
    };
    let cell = |c: char| {
        if python {
            format!("\"{c}\"")
        } else {
            format!("'{c}'")
        }
    };
    let rows: Vec<String> = board
        .iter()
        .map(|row| format!("[{}]", row.map(cell).join(", ")))
        .collect();
    let call = match (function, python) {
        ("verifica_vencedor_9", _) => format!(
            "verifica_vencedor_9({})",
            board
                .iter()
                .flatten()
                .map(|c| cell(*c))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ("verifica_vencedor_lista", true) => format!("verifica_vencedor([{}])", rows.join(", ")),
        (_, true) => format!("{function}([{}])", rows.join(", ")),
        (_, false) => format!("{function}(&[{}])", rows.join(", ")),
    };
    let drawn: Vec<String> = board
        .iter()
        .zip(['A', 'B', 'C'])
        .map(|(row, letter)| format!("  {letter} {}", row.map(String::from).join(" | ")))
        .collect();
    // The driver's answer is two numbers: say which tuple they stand for.
    let answer = if function == "melhor_jogada" {
        format!(
            "\n{}",
            crate::catalogue::t(
                "melhor_jogada's answer is shown as the row then the column: 1 2 stands for (1, 2)"
            )
        )
    } else {
        String::new()
    };
    format!(
        "{call}\n    1   2   3\n{}{answer}",
        drawn.join("\n   ---+---+---\n")
    )
}

/// The graded events of a transcript (SPEC 3.1), in order: the title, each
/// board cell by cell, the two messages and the result.
///
/// Prompts, of any wording or none, and any other text are ignored. A
/// prompt printed without a newline (Python's `input("...")`) shares its
/// line with what follows: the title, messages and results are found at a
/// line's end, the board's header line is not graded. A board is its rows
/// `A`, `B`, `C` in order; a row `A` after a row `C` starts the next board,
/// so two boards with nothing between them are two boards. Trailing spaces
/// and `\r` may be missing.
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
        if let Some((index, cells)) = board_row(line) {
            if index != rows.len() {
                flush(&mut rows, &mut events);
            }
            if index == rows.len() {
                rows.push(cells);
            }
            if rows.len() == 3 {
                flush(&mut rows, &mut events);
            }
            continue;
        }
        if line.ends_with("Jogo da Velha") {
            flush(&mut rows, &mut events);
            events.push("Jogo da Velha".into());
        }
        for message in ["Posição inválida", "Posição ocupada"] {
            if line.contains(message) {
                flush(&mut rows, &mut events);
                events.push(message.into());
            }
        }
        for result in ["Vencedor: X", "Vencedor: O", "Empate"] {
            if line.ends_with(result) {
                flush(&mut rows, &mut events);
                events.push(result.into());
            }
        }
    }
    flush(&mut rows, &mut events);
    events
}

/// A board row line `L c | c | c` (`L` being `A`, `B` or `C`): its index and
/// its cells, `.` for an empty one.
fn board_row(line: &str) -> Option<(usize, String)> {
    let mut chars = line.chars();
    let index = match chars.next()? {
        'A' => 0,
        'B' => 1,
        'C' => 2,
        _ => return None,
    };
    let cells: Vec<&str> = chars.as_str().split('|').collect();
    if cells.len() != 3 {
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
    Some((index, row))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLOCK_AFTER_A1: &str = "  1   2   3\n    |   |   \nA X |   |   \n ___|___|___\n    |   |   \nB   |   |   \n ___|___|___\n    |   |   \nC   |   |   \n    |   |   \n";

    #[test]
    fn prompts_of_any_form_or_none_give_the_same_events() {
        let reference = format!("Jogo da Velha\nJogador X:\n{BLOCK_AFTER_A1}Vencedor: X\n");
        let no_prompt = format!("Jogo da Velha\n{BLOCK_AFTER_A1}Vencedor: X\n");
        let python = format!(
            "Jogo da Velha\r\nSua vez: {}Jogada: Vencedor: X\r\n",
            BLOCK_AFTER_A1.replace("   \n", "\r\n")
        );
        assert_eq!(events(&reference), events(&no_prompt));
        assert_eq!(events(&reference), events(&python));
        assert_eq!(
            events(&reference),
            vec!["Jogo da Velha", "board X../.../...", "Vencedor: X"]
        );
    }

    #[test]
    fn a_call_is_shown_as_the_students_code_is_called() {
        assert_eq!(
            shown_call("extrai_linha  b 1 ", false),
            "extrai_linha(\" b 1 \")"
        );
        let rust = shown_call("verifica_vencedor X.O......", false);
        assert!(
            rust.starts_with("verifica_vencedor(&[['X', ' ', 'O'], [' ', ' ', ' '], [' ', ' ', ' ']])\n    1   2   3\n  A X |   | O\n   ---+---+---\n"),
            "{rust}"
        );
        let python = shown_call("verifica_vencedor_lista X.O......", true);
        assert!(
            python.starts_with("verifica_vencedor([[\"X\", \" \", \"O\"], [\" \", \" \", \" \"], [\" \", \" \", \" \"]])"),
            "{python}"
        );
        assert!(
            shown_call("verifica_vencedor_9 X........", false)
                .starts_with("verifica_vencedor_9('X', ' ', ")
        );
        let best = shown_call("melhor_jogada X........", true);
        assert!(best.starts_with("melhor_jogada([[\"X\""), "{best}");
        assert!(best.ends_with("1 2 stands for (1, 2)"), "{best}");
    }

    #[test]
    fn two_boards_with_nothing_between_are_two_boards() {
        let two = format!("{BLOCK_AFTER_A1}{BLOCK_AFTER_A1}");
        assert_eq!(events(&two), vec!["board X../.../..."; 2]);
    }

    #[test]
    fn a_broken_board_is_not_a_board() {
        let broken = BLOCK_AFTER_A1.replace("B   |   |   ", "B   |   ");
        assert_eq!(events(&broken), vec!["board X.."]);
    }
}
