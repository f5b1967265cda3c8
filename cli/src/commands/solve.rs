//! `boardkit solve`: the solvers on positions or secrets.

use std::io::{self, Write};

use anyhow::Context;
use boardkit::console::InputError;
use boardkit::{connect4, mastermind};
use clap::{Args, Subcommand, ValueEnum};

use super::usage_error;

#[derive(Subcommand)]
pub(crate) enum SolveGame {
    /// Break a Mastermind code, or every code with --all.
    Mastermind(SolveMastermindArgs),
    /// Score connect-four positions read from stdin, one per line:
    /// `<moves> [anything]` in, `<moves> <score> <positions explored> <microseconds>` out.
    Connect4(SolveConnect4Args),
}

#[derive(Args)]
pub(crate) struct SolveConnect4Args {
    /// Only the sign of the score: 1 win, 0 draw, -1 loss.
    #[arg(long)]
    weak: bool,
    /// Board width (columns); width x (height + 1) must be at most 64.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Board height (rows).
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Transposition table size in MiB (4 bytes an entry on 7 x 6 from 64
    /// MiB, 8 otherwise).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
    table_mib: u32,
    /// Search every position, without the embedded opening book (7 x 6 only).
    #[arg(long)]
    no_book: bool,
    /// Clear the transposition table before each position, so that each
    /// line's positions explored do not depend on the lines before it (the
    /// C++ reference's benchmark harness does this; its solver's command
    /// keeps the table, as this one does by default).
    #[arg(long)]
    fresh_table: bool,
}

#[derive(Args)]
pub(crate) struct SolveMastermindArgs {
    /// The secret to find; prints each guess and its score.
    #[arg(long, required_unless_present = "all", conflicts_with = "all")]
    secret: Option<String>,
    /// Play every secret; ends with `total guesses: T, average: A, max: M`.
    #[arg(long)]
    all: bool,
    /// The codebreaker: knuth, most-parts, expected-size, entropy, best
    /// (the heuristic with the fewest guesses over all secrets of the
    /// default game), or optimal (the embedded decision tree of the fewest
    /// guesses of all, 5,625; the default game only).
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
pub(crate) enum CodebreakerName {
    Knuth,
    MostParts,
    ExpectedSize,
    Entropy,
    Best,
    Optimal,
}

pub(crate) fn run(game: SolveGame) -> anyhow::Result<()> {
    let mut out = anstream::stdout().lock();
    match game {
        SolveGame::Connect4(args) => solve_connect4(&args, &mut out),
        SolveGame::Mastermind(args) => solve_mastermind(&args, &mut out),
    }
}

/// `solve connect4`: each position of stdin's lines, scored.
fn solve_connect4(args: &SolveConnect4Args, out: &mut impl Write) -> anyhow::Result<()> {
    use connect4::solver::{Position, Shape, Solver};
    let shape = Shape::new(args.width, args.height).map_err(usage_error)?;
    let mut solver =
        Solver::with_table(shape, Solver::table_entries(shape, args.table_mib as usize));
    if args.no_book {
        solver.set_book(None);
    }
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
                eprintln!("boardkit: line {number}: {moves:?} is not a legal position: {e}");
                errors += 1;
                continue;
            }
        };
        if args.fresh_table {
            // Not timed: the search is.
            solver.clear();
        }
        solver.reset_nodes();
        let started = std::time::Instant::now();
        let score = solver.solve(&position, args.weak);
        let micros = started.elapsed().as_micros();
        writeln!(out, "{moves} {score} {} {micros}", solver.nodes)?;
    }
    if errors > 0 {
        anyhow::bail!("{errors} of {number} lines could not be solved");
    }
    Ok(())
}

/// `solve mastermind`: one secret broken, or every secret with `--all`.
fn solve_mastermind(args: &SolveMastermindArgs, out: &mut impl Write) -> anyhow::Result<()> {
    use mastermind::solver::{Codebreaker, Criterion};
    let rules = mastermind::Rules::new(args.pegs, args.colors).map_err(usage_error)?;
    let mut breaker: Box<dyn boardkit::player::Strategy<_, _>> = match args.strategy {
        CodebreakerName::Optimal => {
            if rules != mastermind::Rules::default() {
                return Err(usage_error(format_args!(
                        "--strategy optimal plays the standard game only (4 pegs, 6 colours), not {} pegs, {} colours",
                        rules.pegs(),
                        rules.colors()
                    ))
                    .into());
            }
            Box::new(mastermind::optimal::OptimalCodebreaker::standard()?)
        }
        name => {
            let criterion = match name {
                CodebreakerName::Knuth => Criterion::Knuth,
                CodebreakerName::MostParts => Criterion::MostParts,
                CodebreakerName::ExpectedSize => Criterion::ExpectedSize,
                CodebreakerName::Entropy => Criterion::Entropy,
                CodebreakerName::Best | CodebreakerName::Optimal => mastermind::solver::BEST,
            };
            Box::new(Codebreaker::new(rules, criterion).map_err(usage_error)?)
        }
    };
    let max_turns = 64;
    if let Some(text) = &args.secret {
        let secret = mastermind::parse_guess(text, rules)
            .map_err(|e| usage_error(format_args!("invalid --secret {text:?}: {e}")))?;
        let board = mastermind::solver::solve(breaker.as_mut(), rules, &secret, max_turns);
        for (guess, score) in &board.guesses {
            writeln!(out, "{guess}  {score}")?;
        }
        writeln!(out, "found in {} guesses", board.guesses.len())?;
    } else {
        let (mut total, mut max, mut games) = (0usize, 0usize, 0usize);
        for secret in mastermind::Code::all(rules) {
            let board = mastermind::solver::solve(breaker.as_mut(), rules, &secret, max_turns);
            let guesses: Vec<String> = board.guesses.iter().map(|(g, _)| g.to_string()).collect();
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
    Ok(())
}
