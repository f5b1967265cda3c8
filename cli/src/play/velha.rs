//! `boardkit play velha`: the exercise's program, plus the reference's
//! computer players and board sizes; for people on a terminal, the coloured
//! board, the computer's move announced, play again and the scoreboard.

use std::io::{BufRead, Write};

use super::paint::{Emphasis, Palette};
use super::session::{self, Ending, Language, Match, Seat, SessionArgs, Terminal};
use boardkit::console::{Console, InputError};
use boardkit::player::{self, Player, Strategy};
use boardkit::program::PlayError;
use boardkit::velha::board::{Board, MAX_SIZE, MIN_SIZE, Mark, Position, Status, parse_position};
use boardkit::velha::program::{
    Human, INVALID_POSITION, OCCUPIED_POSITION, TITLE, result_line, run,
};
use boardkit::velha::render::board_block;

use crate::opponents::velha::{Computer, winning_cells};

/// `boardkit play velha`.
pub(crate) const GAME: super::TerminalGame = super::TerminalGame {
    id: "velha",
    about: "Jogo da velha (tic-tac-toe): positions such as B2; X starts",
    language: Language::Portuguese,
    args: <PlayArgs as clap::Args>::augment_args,
    session: |matches, options, input, output, terminal| {
        session(&super::options(matches)?, options, input, output, terminal)
    },
};

#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// Board side: rows A.., columns 1..N, N in a row wins.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    pub size: u8,
    /// Play against the computer: easy (random), medium (looks two moves
    /// ahead) or hard (perfect). You are X and start, unless --ai-first.
    #[arg(long, value_enum)]
    pub ai: Option<Computer>,
    /// The computer plays X and starts.
    #[arg(long, requires = "ai")]
    pub ai_first: bool,
    /// Seed for the computer's random choices, so a game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Plays one game as the options say.
pub(crate) fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    _color: bool,
) -> Result<(), PlayError> {
    let board = Board::new(args.size.into()).map_err(|e| PlayError::Usage(e.to_string()))?;
    type Seat = Box<dyn Player<Board, Position>>;
    let human: Seat = Box::new(Human);
    let mut players: [Seat; 2] = match args.ai {
        None => [human, Box::new(Human)],
        Some(level) => {
            let seed = args.seed.unwrap_or_else(rand::random);
            let computer: Seat = Box::new(player::Computer(level.player(seed)));
            if args.ai_first {
                [computer, human]
            } else {
                [human, computer]
            }
        }
    };
    run(board, &mut players, &mut Console::new(input, output))?;
    Ok(())
}

/// `boardkit play velha`: the plain program when piped (the transcript of
/// [`play`], byte for byte), else games in a row for people (see
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
    let size = usize::from(args.size);
    let empty = Board::new(size).map_err(|e| PlayError::Usage(e.to_string()))?;
    let you = options.name.clone().unwrap_or_else(session::login_name);
    let mode = crate::opponents::velha::mode(size, args.ai.map(|level| (level, args.ai_first)));
    let seats = match args.ai {
        None => [
            Seat {
                label: "X".into(),
                person: Some(you),
            },
            Seat {
                label: "O".into(),
                person: Some(options.opponent.clone().unwrap_or_else(|| "O".into())),
            },
        ],
        Some(_) => {
            let person = Seat {
                label: "você".into(),
                person: Some(you),
            };
            let computer = Seat {
                label: "computador".into(),
                person: None,
            };
            if args.ai_first {
                [computer, person]
            } else {
                [person, computer]
            }
        }
    };
    let game = Match {
        game: "velha",
        mode,
        seats,
        language: Language::Portuguese,
        draws: true,
    };
    let palette = Palette {
        color: terminal.color,
    };
    let mut console = Console::new(input, output);
    session::run(options, terminal, &game, &mut console, |round, console| {
        let seed = args
            .seed
            .map_or_else(rand::random, |s| s.wrapping_add(u64::from(round)));
        let computer = || -> Box<dyn Strategy<Board, Position>> {
            let level = args.ai.expect("a computer seat has a level");
            Box::new(level.player(seed))
        };
        let status = if terminal.interactive {
            let mut seats: [Option<Box<dyn Strategy<Board, Position>>>; 2] = match args.ai {
                None => [None, None],
                Some(_) if args.ai_first => [Some(computer()), None],
                Some(_) => [None, Some(computer())],
            };
            interactive_game(empty, &mut seats, console, palette)?
        } else {
            type Seat = Box<dyn Player<Board, Position>>;
            let mut players: [Seat; 2] = match args.ai {
                None => [Box::new(Human), Box::new(Human)],
                Some(_) if args.ai_first => {
                    [Box::new(player::Computer(computer())), Box::new(Human)]
                }
                Some(_) => [Box::new(Human), Box::new(player::Computer(computer()))],
            };
            run(empty, &mut players, console)?
        };
        Ok(match status {
            Status::Won(Mark::X) => Ending::Won(0),
            Status::Won(Mark::O) => Ending::Won(1),
            _ => Ending::Draw,
        })
    })
}

/// One game for people: the exercise's board painted, the prompt naming
/// the player, the computer's move announced, the winning line shown.
/// `computers[0]` plays X (None: a person at the console).
fn interactive_game(
    mut board: Board,
    computers: &mut [Option<Box<dyn Strategy<Board, Position>>>; 2],
    console: &mut Console<'_>,
    palette: Palette,
) -> Result<Status, InputError> {
    writeln!(console.out, "{}", palette.strong(TITLE))?;
    write!(console.out, "{}", painted_board(&board, None, palette))?;
    loop {
        if let Some(line) = result_line(board.status()) {
            writeln!(console.out, "{}", palette.strong(&line))?;
            console.out.flush()?;
            return Ok(board.status());
        }
        let mark = board.to_move();
        let seat = usize::from(mark == Mark::O);
        let pos = match &mut computers[seat] {
            Some(computer) => {
                let pos = computer.choose(&board);
                let text = format!("Computador jogou em {pos}");
                writeln!(console.out, "{}", palette.note(&text))?;
                pos
            }
            None => ask_position(&board, console, palette)?,
        };
        board
            .play(pos)
            .unwrap_or_else(|e| panic!("player {mark} chose an illegal move: {e}"));
        write!(console.out, "{}", painted_board(&board, Some(pos), palette))?;
    }
}

fn ask_position(
    board: &Board,
    console: &mut Console<'_>,
    palette: Palette,
) -> Result<Position, InputError> {
    let mark = palette.mark(board.to_move().as_char(), Emphasis::default());
    loop {
        writeln!(console.out, "Jogador {mark}, digite a posição (ex.: B2):")?;
        console.out.flush()?;
        let message = match console.read_line()? {
            Ok(line) => match parse_position(&line, board.size()) {
                Ok(pos) if board.get(pos).is_none() => return Ok(pos),
                Ok(_) => OCCUPIED_POSITION,
                Err(_) => INVALID_POSITION,
            },
            Err(_) => INVALID_POSITION,
        };
        writeln!(console.out, "{message}")?;
    }
}

/// The exercise's board block (SPEC 3.1), painted: the same characters.
pub(crate) fn painted_board(board: &Board, last: Option<Position>, palette: Palette) -> String {
    let plain = board_block(board);
    if !palette.color {
        return plain;
    }
    let n = board.size();
    let winning = winning_cells(board);
    let mut out = String::with_capacity(plain.len() * 2);
    for (i, line) in plain.lines().enumerate() {
        if i == 0 {
            out.push_str(&palette.coordinate(line));
        } else if i >= 2 && (i - 2) % 3 == 0 {
            let row = (i - 2) / 3;
            for (j, c) in line.chars().enumerate() {
                if j == 0 {
                    out.push_str(&palette.coordinate(&c.to_string()));
                } else if j >= 2 && (j - 2) % 4 == 0 && (j - 2) / 4 < n {
                    let pos = Position {
                        row,
                        col: (j - 2) / 4,
                    };
                    let emphasis = Emphasis {
                        winning: winning >> (row * n + pos.col) & 1 == 1,
                        last: last == Some(pos),
                    };
                    out.push_str(&palette.mark(c, emphasis));
                } else {
                    out.push(c);
                }
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(text: &str) -> String {
        anstream::adapter::strip_str(text).to_string()
    }

    #[test]
    fn the_painted_board_is_the_exercise_board_in_colour() {
        let mut board = Board::new(3).unwrap();
        for pos in ["A1", "B1", "A2", "B2", "A3"] {
            board.play(parse_position(pos, 3).unwrap()).unwrap();
        }
        let last = parse_position("A3", 3).unwrap();
        let on = painted_board(&board, Some(last), Palette { color: true });
        assert_eq!(strip(&on), board_block(&board));
        assert_ne!(on, board_block(&board));
        // The three X of row A are in reverse video; the O are not.
        assert_eq!(
            on.matches("\x1b[7m").count() + on.matches(";7m").count(),
            3,
            "{on:?}"
        );
        assert_eq!(
            painted_board(&board, None, Palette { color: false }),
            board_block(&board)
        );
    }
}
