//! `boardkit play connect4`: the exercise's program and options, with the
//! reference's perfect player (its repertoire of early moves, then a uniform
//! draw among the best columns, with the opening book) behind `--ai perfect`,
//! with a spinner past 0.3 s on a terminal; for people, the discs in colour,
//! whose turn it is, the computer's column announced, a footer aligned at
//! every width, play again and the scoreboard.

use std::io::{BufRead, Write};

use super::paint::{Emphasis, Palette};
use super::session::{self, Ending, Language, Match, Seat, SessionArgs, Terminal};
use boardkit::connect4::ai::PerfectPlayer;
use boardkit::connect4::program::{DRAW, Human, Outcome, Seat as Named, run};
use boardkit::connect4::solver::Shape;
use boardkit::connect4::{Board, Disc, play as play_game};
use boardkit::console::{Console, InputError};
use boardkit::harness::connect4::AiKind;
use boardkit::player::{Player, Strategy};
use boardkit::program::PlayError;

use crate::opponents::connect4::winning_cells;

/// `boardkit play connect4`.
pub(crate) const GAME: super::TerminalGame = super::TerminalGame {
    id: "connect4",
    about: "Connect four (puissance 4): type column numbers; X starts",
    language: Language::English,
    args: <PlayArgs as clap::Args>::augment_args,
    session: |matches, options, input, output, terminal| {
        session(&super::options(matches)?, options, input, output, terminal)
    },
};

#[derive(Debug, clap::Args)]
#[group(skip)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub exercise: boardkit::harness::connect4::PlayArgs,
}

/// The computer the options ask for; the perfect one with a spinner when
/// people wait for it.
fn computer(
    options: &boardkit::harness::connect4::PlayArgs,
    spinner: bool,
) -> Result<Option<Box<dyn Strategy<Board, usize>>>, PlayError> {
    // `--computer-columns` and `--ai` never come together (clap refuses it).
    Ok(match options.ai {
        Some(AiKind::Perfect) => {
            let shape = Shape::new(options.cols.into(), options.rows.into())
                .map_err(|e| PlayError::Usage(format!("--ai perfect: {e}")))?;
            let perfect = PerfectPlayer::new(shape, options.seed());
            if spinner {
                Some(Box::new(super::thinking::Thinking::new(perfect)))
            } else {
                Some(Box::new(perfect))
            }
        }
        _ => options.computer(),
    })
}

/// Plays one game as the options say.
pub(crate) fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    _color: bool,
) -> Result<(), PlayError> {
    let options = &args.exercise;
    // A spinner for people waiting; none in scripts and pipes.
    let spinner = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let mut computer = computer(options, spinner)?;
    play_game(
        options.rows.into(),
        options.cols.into(),
        computer.as_deref_mut().map(|c| c as _),
        input,
        output,
    )
    .map_err(PlayError::from_io)
}

/// The two seats: you and the computer, or two people.
fn seats(against: bool, you: String, options: &SessionArgs) -> [Seat; 2] {
    if against {
        [
            Seat {
                label: "you".into(),
                person: Some(you),
            },
            Seat {
                label: "computer".into(),
                person: None,
            },
        ]
    } else {
        [
            Seat {
                label: "player one".into(),
                person: Some(you),
            },
            Seat {
                label: "player two".into(),
                person: Some(
                    options
                        .opponent
                        .clone()
                        .unwrap_or_else(|| "player two".into()),
                ),
            },
        ]
    }
}

/// `boardkit play connect4`: the plain program when piped (the transcript
/// of [`play`], byte for byte), else games in a row for people (see
/// [`session`]). Game `k` of a seeded session uses seed `seed + k`.
pub(crate) fn session(
    args: &PlayArgs,
    options: &SessionArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    terminal: Terminal,
) -> Result<(), PlayError> {
    if options.is_plain(terminal) {
        return play(args, input, output, terminal.color);
    }
    let exercise = &args.exercise;
    let (rows, cols) = (usize::from(exercise.rows), usize::from(exercise.cols));
    let empty = Board::new(rows, cols).map_err(|e| PlayError::Usage(e.to_string()))?;
    let you = options.name.clone().unwrap_or_else(session::login_name);
    let against = exercise.ai.is_some() || !exercise.computer_columns.is_empty();
    let opponent = against.then(|| {
        exercise
            .ai
            .map_or("scripted".to_owned(), crate::opponents::name)
    });
    let mode = crate::opponents::connect4::mode(cols, rows, opponent.as_deref());
    let seats = seats(against, you, options);
    let game = Match {
        game: "connect4",
        mode,
        seats,
        language: Language::English,
        draws: true,
    };
    let names = [
        Named::PlayerOne,
        if against {
            Named::Computer
        } else {
            Named::PlayerTwo
        },
    ];
    let palette = Palette {
        color: terminal.color,
    };
    // Refuses a board the options cannot play before the first game.
    computer(exercise, false)?;
    let base_seed = exercise.seed();
    let spinner = terminal.interactive && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let mut console = Console::new(input, output);
    session::run(options, terminal, &game, &mut console, |round, console| {
        let mut this_round = exercise.clone();
        this_round.seed = Some(base_seed.wrapping_add(u64::from(round)));
        let computer = computer(&this_round, spinner)
            .unwrap_or_else(|e| unreachable!("checked before the first game: {e}"));
        let outcome = if terminal.interactive {
            interactive_game(empty.clone(), computer, names, console, palette)?
        } else {
            let second: Box<dyn Player<Board, usize>> = match computer {
                Some(c) => Box::new(boardkit::player::Computer(c)),
                None => Box::new(Human),
            };
            let mut players: [Box<dyn Player<Board, usize>>; 2] = [Box::new(Human), second];
            run(empty.clone(), &mut players, names, console)?
        };
        Ok(match outcome {
            Outcome::Won(Disc::One) => Ending::Won(0),
            Outcome::Won(Disc::Two) => Ending::Won(1),
            Outcome::Draw => Ending::Draw,
        })
    })
}

fn seat_name(seat: Named) -> &'static str {
    match seat {
        Named::PlayerOne => "Player one",
        Named::PlayerTwo => "Player two",
        Named::Computer => "Computer",
    }
}

/// One game for people: the board painted, whose turn it is, the
/// computer's column announced, the four in a row shown.
fn interactive_game(
    mut board: Board,
    mut computer: Option<Box<dyn Strategy<Board, usize>>>,
    names: [Named; 2],
    console: &mut Console<'_>,
    palette: Palette,
) -> Result<Outcome, InputError> {
    write!(console.out, "{}", painted_board(&board, None, palette))?;
    loop {
        let disc = board.to_move();
        let seat = usize::from(disc == Disc::Two);
        let mark = palette.mark(disc.symbol(), Emphasis::default());
        let col = match (seat, computer.as_mut()) {
            (1, Some(computer)) => {
                let col = computer.choose(&board);
                let text = format!("Computer played column {}.", col + 1);
                writeln!(console.out, "{}", palette.note(&text))?;
                col
            }
            _ => {
                writeln!(console.out, "{} ({mark}) to play.", seat_name(names[seat]))?;
                console.out.flush()?;
                Human.next_move(&board, console)?
            }
        };
        let row = board
            .play(col)
            .unwrap_or_else(|e| panic!("player {disc} chose an illegal column: {e}"));
        write!(
            console.out,
            "{}",
            painted_board(&board, Some((row, col)), palette)
        )?;
        let outcome = if board.connects_four(row, col) {
            writeln!(console.out, "{}", palette.strong(names[seat].win_line()))?;
            Outcome::Won(disc)
        } else if board.is_full() {
            writeln!(console.out, "{}", palette.strong(DRAW))?;
            Outcome::Draw
        } else {
            continue;
        };
        console.out.flush()?;
        return Ok(outcome);
    }
}

/// The exercise's board (SPEC 3.2), painted, with a footer whose numbers
/// stand under their columns at every width: from 10 columns on, the tens
/// on a line of their own above the units.
pub(crate) fn painted_board(
    board: &Board,
    last: Option<(usize, usize)>,
    palette: Palette,
) -> String {
    let cols = board.cols();
    let winning = match last {
        Some((row, col)) if board.connects_four(row, col) => winning_cells(board, row, col),
        _ => Vec::new(),
    };
    let rule = |left: char, middle: char, right: char| {
        let mut line = String::new();
        line.push(left);
        line.push_str(&vec!["─"; cols].join(&middle.to_string()));
        line.push(right);
        line.push('\n');
        line
    };
    let mut out = rule('┌', '┬', '┐');
    for row in (0..board.rows()).rev() {
        out.push('|');
        for col in 0..cols {
            match board.get(row, col) {
                Some(disc) => out.push_str(&palette.mark(
                    disc.symbol(),
                    Emphasis {
                        winning: winning.contains(&(row, col)),
                        last: last == Some((row, col)),
                    },
                )),
                None => out.push(' '),
            }
            out.push('|');
        }
        out.push('\n');
        out.push_str(&if row > 0 {
            rule('├', '┼', '┤')
        } else {
            rule('└', '┴', '┘')
        });
    }
    if cols >= 10 {
        let tens: String = (1..=cols)
            .map(|c| match c / 10 {
                0 => "  ".to_owned(),
                t => format!(" {t}"),
            })
            .collect();
        out.push_str(&palette.coordinate(&tens));
        out.push('\n');
    }
    let units: String = (1..=cols)
        .map(|c| {
            if cols >= 10 {
                format!(" {}", c % 10)
            } else {
                format!(" {c}")
            }
        })
        .collect();
    out.push_str(&palette.coordinate(&units));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardkit::connect4::render::board_block;

    fn strip(text: &str) -> String {
        anstream::adapter::strip_str(text).to_string()
    }

    #[test]
    fn the_painted_board_is_the_exercise_board_in_colour() {
        let mut board = Board::standard();
        for col in [0, 1, 0, 1, 0, 1, 0] {
            board.play(col).unwrap();
        }
        let on = painted_board(&board, Some((3, 0)), Palette { color: true });
        assert_eq!(strip(&on), board_block(&board));
        assert_ne!(on, board_block(&board));
        let off = painted_board(&board, Some((3, 0)), Palette { color: false });
        assert_eq!(off, board_block(&board));
        assert_eq!(winning_cells(&board, 3, 0).len(), 4);
    }

    #[test]
    fn the_footer_stands_under_its_columns_at_every_width() {
        for cols in 4..=20 {
            let board = Board::new(4, cols).unwrap();
            let text = painted_board(&board, None, Palette { color: false });
            let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
            let row = &lines[1];
            let footer = if cols >= 10 {
                let (tens, units) = (&lines[lines.len() - 2], &lines[lines.len() - 1]);
                assert_eq!(tens.len(), row.len() - 1);
                (tens.clone(), units.clone())
            } else {
                (Vec::new(), lines[lines.len() - 1].clone())
            };
            for col in 0..cols {
                // The cell of column `col` is at 1 + 2 col, between walls.
                let at = 1 + 2 * col;
                assert_eq!(row[at - 1], '|');
                let number = col + 1;
                assert_eq!(
                    footer.1[at],
                    char::from_digit((number % 10) as u32, 10).unwrap()
                );
                if number >= 10 {
                    assert_eq!(
                        footer.0[at],
                        char::from_digit((number / 10) as u32, 10).unwrap()
                    );
                }
            }
            if cols < 10 {
                assert_eq!(text, board_block(&board));
            }
        }
    }
}
