//! The `boardkit` command line: a thin layer of argument parsing over the
//! library. Usage errors exit with status 2 (clap's convention), input that
//! ends before a game does exits with status 1, a finished game with 0.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use boardkit::console::{Console, InputError};
use boardkit::player::Player;
use boardkit::{connect4, mastermind, velha};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "boardkit",
    version,
    about = "Terminal board games for programming courses: play them, solve them, grade them."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal, or scripted over stdin.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Run a solver: print what a perfect or strong player would do.
    Solve {
        #[command(subcommand)]
        game: SolveGame,
    },
}

#[derive(Subcommand)]
enum SolveGame {
    /// Break a Mastermind code, or every code with --all.
    Mastermind(SolveMastermindArgs),
    /// Score connect-four positions read from stdin, one per line:
    /// `<moves> [anything]` in, `<moves> <score> <positions explored> <microseconds>` out.
    Connect4(SolveConnect4Args),
}

#[derive(Args)]
struct SolveConnect4Args {
    /// Only the sign of the score: 1 win, 0 draw, -1 loss.
    #[arg(long)]
    weak: bool,
    /// Board width (columns); width x (height + 1) must be at most 64.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Board height (rows).
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Transposition table size in MiB (8 bytes an entry).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
    table_mib: u32,
}

#[derive(Args)]
struct SolveMastermindArgs {
    /// The secret to find; prints each guess and its score.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    secret: Option<String>,
    /// Play every secret; ends with `total guesses: T, average: A, max: M`.
    #[arg(long)]
    all: bool,
    /// The codebreaker: knuth, most-parts, expected-size, entropy, or best
    /// (the one with the fewest guesses over all secrets of the default game).
    #[arg(long, value_enum, default_value_t = CodebreakerName::Best)]
    strategy: CodebreakerName,
    /// Pegs in a code.
    #[arg(long, default_value_t = 4)]
    pegs: usize,
    /// Number of colours, letters from A.
    #[arg(long, default_value_t = 6)]
    colors: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum CodebreakerName {
    Knuth,
    MostParts,
    ExpectedSize,
    Entropy,
    Best,
}

#[derive(Subcommand)]
enum PlayGame {
    /// Jogo da velha (tic-tac-toe): positions such as B2; X starts.
    Velha(VelhaArgs),
    /// Connect four (puissance 4): type column numbers; X starts.
    Connect4(Connect4Args),
    /// Mastermind: guess the secret code, such as ABCD; 10 turns.
    Mastermind(MastermindArgs),
}

#[derive(Args)]
struct MastermindArgs {
    /// The secret code (letters, either case), instead of a random one.
    #[arg(long, conflicts_with = "seed")]
    secret: Option<String>,
    /// Seed for drawing the secret, so a game can be replayed.
    #[arg(long)]
    seed: Option<u64>,
    /// Pegs in a code (1 to 10).
    #[arg(long, default_value_t = 4)]
    pegs: usize,
    /// Number of colours, letters from A (2 to 26).
    #[arg(long, default_value_t = 6)]
    colors: usize,
    /// Guesses allowed (1 to 100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=100))]
    turns: u8,
}

#[derive(Args)]
struct VelhaArgs {
    /// Board side: rows A.., columns 1..N, N in a row wins.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(velha::board::MIN_SIZE as i64..=velha::board::MAX_SIZE as i64))]
    size: u8,
    /// Play against the computer: easy (random), medium (looks two moves
    /// ahead) or hard (perfect). You are X and start, unless --ai-first.
    #[arg(long, value_enum)]
    ai: Option<VelhaAi>,
    /// The computer plays X and starts.
    #[arg(long, requires = "ai")]
    ai_first: bool,
    /// Seed for the computer's random choices, so a game can be replayed.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Clone, Copy, ValueEnum)]
enum VelhaAi {
    Easy,
    Medium,
    Hard,
}

const SIDE_RANGE: std::ops::RangeInclusive<i64> =
    connect4::board::MIN_SIDE as i64..=connect4::board::MAX_SIDE as i64;

#[derive(Args)]
struct Connect4Args {
    /// Number of rows (4 to 20).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    rows: u8,
    /// Number of columns (4 to 20).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    cols: u8,
    /// Play against the computer, which plays O; you are player one.
    #[arg(long, value_enum)]
    ai: Option<Connect4Ai>,
    /// Seed for every random choice, so a game can be replayed.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Connect4Ai {
    /// A uniformly random legal column.
    Random,
    /// Wins if it can, else blocks your win, else random.
    Smart,
    /// A move of best exact score, by the strong solver (boards whose
    /// columns x (rows + 1) is at most 64). Early in a game a move can take
    /// minutes: there is no opening book yet.
    Perfect,
}

/// Exits with status 2 and clap's usage message, for arguments clap cannot check alone.
fn usage_error(message: impl std::fmt::Display) -> ! {
    Cli::command()
        .error(clap::error::ErrorKind::ValueValidation, message)
        .exit()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // stdout may be a closed pipe: say why on stderr, never panic.
            let _ = io::stdout().flush();
            eprintln!("boardkit: {error:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Play { game } => play(game),
        Command::Solve { game } => solve(game),
    }
}

fn solve(game: SolveGame) -> anyhow::Result<()> {
    let mut out = anstream::stdout().lock();
    match game {
        SolveGame::Connect4(args) => {
            use connect4::solver::{Position, Shape, Solver};
            let shape = Shape::new(args.width, args.height).unwrap_or_else(|e| usage_error(e));
            let mut solver = Solver::with_table(shape, args.table_mib as usize * (1 << 20) / 8);
            let mut lines = boardkit::console::LineReader::new(io::stdin().lock());
            let mut number = 0;
            let mut errors = 0;
            loop {
                let line = match lines.read_line() {
                    Ok(line) => line,
                    Err(InputError::EndOfInput) => break,
                    Err(InputError::Io(e)) => return Err(e).context("cannot read stdin"),
                };
                number += 1;
                let line = match line {
                    Ok(text) => text,
                    Err(e) => {
                        eprintln!("boardkit: line {number}: {e}");
                        errors += 1;
                        continue;
                    }
                };
                let Some(moves) = line.split_whitespace().next() else {
                    continue;
                };
                let position = match Position::from_moves(shape, moves) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!(
                            "boardkit: line {number}: {moves:?} is not a legal position: {e}"
                        );
                        errors += 1;
                        continue;
                    }
                };
                // A fresh table per position, as the reference solver's
                // harness does, so explored positions compare (not timed).
                solver.clear();
                solver.reset_nodes();
                let started = std::time::Instant::now();
                let score = solver.solve(&position, args.weak);
                let micros = started.elapsed().as_micros();
                writeln!(out, "{moves} {score} {} {micros}", solver.nodes)?;
            }
            if errors > 0 {
                anyhow::bail!("{errors} of {number} lines could not be solved");
            }
        }
        SolveGame::Mastermind(args) => {
            use mastermind::solver::{Codebreaker, Criterion};
            let rules =
                mastermind::Rules::new(args.pegs, args.colors).unwrap_or_else(|e| usage_error(e));
            let criterion = match args.strategy {
                CodebreakerName::Knuth => Criterion::Knuth,
                CodebreakerName::MostParts => Criterion::MostParts,
                CodebreakerName::ExpectedSize => Criterion::ExpectedSize,
                CodebreakerName::Entropy => Criterion::Entropy,
                CodebreakerName::Best => mastermind::solver::BEST,
            };
            let mut breaker = Codebreaker::new(rules, criterion).unwrap_or_else(|e| usage_error(e));
            let max_turns = 64;
            if let Some(text) = &args.secret {
                let secret = mastermind::parse_guess(text, rules).unwrap_or_else(|e| {
                    usage_error(format_args!("invalid --secret {text:?}: {e}"))
                });
                let board = mastermind::solver::solve(&mut breaker, rules, &secret, max_turns);
                for (guess, score) in &board.guesses {
                    writeln!(out, "{guess}  {score}")?;
                }
                writeln!(out, "found in {} guesses", board.guesses.len())?;
            } else {
                let (mut total, mut max, mut games) = (0usize, 0usize, 0usize);
                for secret in mastermind::Code::all(rules) {
                    let board = mastermind::solver::solve(&mut breaker, rules, &secret, max_turns);
                    let guesses: Vec<String> =
                        board.guesses.iter().map(|(g, _)| g.to_string()).collect();
                    writeln!(out, "{secret}: {} ({})", guesses.len(), guesses.join(" "))?;
                    total += guesses.len();
                    max = max.max(guesses.len());
                    games += 1;
                }
                writeln!(
                    out,
                    "total guesses: {total}, average: {:.3}, max: {max}",
                    total as f64 / games as f64
                )?;
            }
        }
    }
    Ok(())
}

/// Whether stdout takes colours: a terminal, NO_COLOR unset (anstream's rules).
fn console_colors() -> bool {
    anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
}

/// Runs a game on stdin and stdout. Colours reach stdout only when it is a
/// terminal and NO_COLOR is unset (anstream strips them otherwise).
fn play(game: PlayGame) -> anyhow::Result<()> {
    let mut input = io::stdin().lock();
    let mut output = anstream::stdout().lock();
    let input: &mut dyn BufRead = &mut input;
    let mut console = Console::new(input, &mut output);
    let result = match game {
        PlayGame::Velha(args) => {
            let board = velha::Board::new(args.size.into()).context("invalid --size")?;
            type Seat = Box<dyn Player<velha::Board, velha::Position>>;
            let human: Seat = Box::new(velha::program::Human);
            let mut players: [Seat; 2] = match args.ai {
                None => [human, Box::new(velha::program::Human)],
                Some(level) => {
                    use velha::ai::Difficulty;
                    let difficulty = match level {
                        VelhaAi::Easy => Difficulty::Easy,
                        VelhaAi::Medium => Difficulty::Medium,
                        VelhaAi::Hard => Difficulty::Hard,
                    };
                    let seed = args.seed.unwrap_or_else(rand::random);
                    let computer: Seat = Box::new(boardkit::player::Computer(
                        velha::ai::Computer::new(difficulty, seed),
                    ));
                    if args.ai_first {
                        [computer, human]
                    } else {
                        [human, computer]
                    }
                }
            };
            velha::program::play(board, &mut players, &mut console).map(drop)
        }
        PlayGame::Connect4(args) => {
            use boardkit::player::Computer;
            use connect4::program::{Human, Seat};
            let board = connect4::Board::new(args.rows.into(), args.cols.into())?;
            let seed = args.seed.unwrap_or_else(rand::random);
            let (second, seat): (Box<dyn Player<connect4::Board, usize>>, Seat) = match args.ai {
                None => (Box::new(Human), Seat::PlayerTwo),
                Some(Connect4Ai::Random) => (
                    Box::new(Computer(connect4::ai::RandomPlayer::new(seed))),
                    Seat::Computer,
                ),
                Some(Connect4Ai::Perfect) => {
                    let shape = connect4::solver::Shape::new(board.cols(), board.rows())
                        .unwrap_or_else(|e| usage_error(format_args!("--ai perfect: {e}")));
                    (
                        Box::new(Computer(connect4::ai::PerfectPlayer::new(shape, seed))),
                        Seat::Computer,
                    )
                }
                Some(Connect4Ai::Smart) => (
                    Box::new(Computer(connect4::ai::SmartPlayer::new(seed))),
                    Seat::Computer,
                ),
            };
            let mut players = [
                Box::new(Human) as Box<dyn Player<connect4::Board, usize>>,
                second,
            ];
            connect4::program::play(board, &mut players, [Seat::PlayerOne, seat], &mut console)
                .map(drop)
        }
        PlayGame::Mastermind(args) => {
            use rand::SeedableRng;
            let rules =
                mastermind::Rules::new(args.pegs, args.colors).unwrap_or_else(|e| usage_error(e));
            let secret = match (&args.secret, args.seed) {
                (Some(text), _) => mastermind::parse_guess(text, rules).unwrap_or_else(|e| {
                    usage_error(format_args!("invalid --secret {text:?}: {e}"))
                }),
                (None, seed) => {
                    let mut rng =
                        rand_chacha::ChaCha8Rng::seed_from_u64(seed.unwrap_or_else(rand::random));
                    mastermind::random_secret(rules, &mut rng)
                }
            };
            let style = mastermind::program::Style {
                color: console_colors(),
            };
            mastermind::program::play(
                &secret,
                rules,
                args.turns.into(),
                &mut mastermind::program::Human,
                style,
                &mut console,
            )
            .map(drop)
        }
    };
    match result {
        Ok(()) => Ok(()),
        Err(InputError::EndOfInput) => Err(anyhow::anyhow!("input ended before the game was over")),
        Err(InputError::Io(e)) => Err(e).context("cannot read input or write output"),
    }
}
