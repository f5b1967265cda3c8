//! `boardkit book`: the embedded books computed again with the solvers
//! (resumable: answers go to `<out>.partial` as they come).

use std::io::Write;

use anyhow::Context;
use boardkit::{connect4, mastermind};
use clap::{Args, Subcommand};

use super::usage_error;

/// Computes one book.
pub(crate) fn run(game: BookGame) -> super::Outcome {
    match game {
        BookGame::Connect4(args) => book_connect4(args),
        BookGame::Connect4Playbook(args) => playbook_connect4(args),
        BookGame::MastermindOptimal(args) => book_mastermind(args),
    }?;
    Ok(())
}

#[derive(Subcommand)]
pub(crate) enum BookGame {
    /// The exact score of every connect-four position of up to --depth discs,
    /// written to --out (one byte a position).
    Connect4(BookConnect4Args),
    /// The perfect player's repertoire on 7 x 6: its column in every position
    /// it can meet up to --first discs (playing first) and --second (playing
    /// second), whatever its opponent plays; written to --out.
    Connect4Playbook(PlaybookArgs),
    /// The optimal Mastermind codebreaker's decision tree (the fewest
    /// guesses in all over every secret: 5,625 on the standard game), found
    /// by an exact search and written to --out.
    MastermindOptimal(BookMastermindArgs),
}

#[derive(Args)]
pub(crate) struct BookMastermindArgs {
    /// The file to write (the embedded one is src/mastermind/optimal.tree).
    #[arg(long)]
    out: std::path::PathBuf,
    /// The first guess, or `any` to weigh every first guess (one per
    /// symmetry class). With a code, the parts it makes are searched on
    /// --threads threads. Either way the standard game's tree is the same
    /// (AABC is its best first guess).
    #[arg(long, default_value = "any")]
    first: String,
    /// Pegs in a code.
    #[arg(long, default_value_t = 4)]
    pegs: usize,
    /// Number of colours, letters from A.
    #[arg(long, default_value_t = 6)]
    colors: usize,
    /// Search threads with --first CODE (default: the number of cores), one
    /// part of the first guess at a time each.
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Args)]
pub(crate) struct PlaybookArgs {
    /// Deepest position (discs on the board) answered when the perfect
    /// player moves first.
    #[arg(long, default_value_t = 8)]
    first: u32,
    /// Deepest position answered when it moves second.
    #[arg(long, default_value_t = 7)]
    second: u32,
    /// The file to write (the embedded one is src/connect4/7x6.playbook).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Solver threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=16384))]
    table_mib: u32,
}

#[derive(Args)]
pub(crate) struct BookConnect4Args {
    /// Discs on the board of the deepest positions; each one more costs
    /// about 3 times as many positions to solve.
    #[arg(long)]
    depth: u32,
    /// The book file to write (the embedded one is src/connect4/7x6.book).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Board width (columns).
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Board height (rows).
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// Solver threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=16384))]
    table_mib: u32,
}

pub(crate) fn book_connect4(args: BookConnect4Args) -> anyhow::Result<()> {
    use connect4::book::Book;
    use connect4::solver::{Shape, Solver};
    let shape = Shape::new(args.width, args.height).map_err(usage_error)?;
    if args.depth as i32 >= shape.cells() {
        return Err(usage_error(format_args!("--depth must be below {}", shape.cells())).into());
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Scores are appended to <out>.partial as they come: a stopped run goes on.
    let partial = args.out.with_extension("partial");
    let total = Book::deepest_positions(shape, args.depth).len();
    let known = connect4::book::read_progress(
        &std::fs::read_to_string(&partial).unwrap_or_default(),
        total,
    );
    let already = known.iter().flatten().count();
    let log = std::sync::Mutex::new(open_progress(&partial)?);
    let done = std::sync::atomic::AtomicUsize::new(already);
    let bar = indicatif::ProgressBar::new(total as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} positions, about {eta} left",
        )
        .expect("a valid template"),
    );
    bar.set_position(already as u64);
    let quiet = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    eprintln!(
        "solving {total} positions of {} discs ({already} already in {})",
        args.depth,
        partial.display()
    );
    let started = std::time::Instant::now();
    let book = Book::generate(
        shape,
        args.depth,
        threads,
        Solver::table_entries(shape, args.table_mib as usize),
        &known,
        &|i, score| {
            let mut log = log.lock().expect("no writer panics");
            // A lost line only costs its position again on resume.
            let _ = log.write_all(connect4::book::progress_line(i, score).as_bytes());
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            bar.set_position(n as u64);
            if quiet && n % (total / 100).max(1) == 0 {
                eprintln!(
                    "{n}/{total} positions after {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
        },
    );
    bar.finish_and_clear();
    finish_generation(&args.out, &partial, &book.to_bytes(), book.len(), started)
}

pub(crate) fn playbook_connect4(args: PlaybookArgs) -> anyhow::Result<()> {
    use connect4::playbook;
    use connect4::solver::{Shape, Solver};
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Answers are appended to <out>.partial as they come: a stopped run goes on.
    let partial = args.out.with_extension("partial");
    let known = playbook::read_progress(&std::fs::read_to_string(&partial).unwrap_or_default());
    let log = std::sync::Mutex::new(open_progress(&partial)?);
    eprintln!(
        "answering the perfect player's positions up to {} discs (first) and {} (second); {} already in {}",
        args.first,
        args.second,
        known.len(),
        partial.display()
    );
    let started = std::time::Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let playbook = playbook::generate(
        Shape::standard(),
        (args.first, args.second),
        threads,
        Solver::table_entries(Shape::standard(), args.table_mib as usize),
        &known,
        &|key, column, discs| {
            let mut log = log.lock().expect("no writer panics");
            // A lost line only costs its position again on resume.
            let _ = log.write_all(playbook::progress_line(key, column).as_bytes());
            let _ = log.flush();
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n % 50 == 0 {
                eprintln!(
                    "{n} positions answered this run, now at {discs} discs, after {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
        },
    );
    finish_generation(
        &args.out,
        &partial,
        &playbook.to_bytes(),
        playbook.len(),
        started,
    )
}

pub(crate) fn book_mastermind(args: BookMastermindArgs) -> anyhow::Result<()> {
    use mastermind::optimal;
    let rules = mastermind::Rules::new(args.pegs, args.colors).map_err(usage_error)?;
    if rules.code_count() > optimal::MAX_CODES {
        return Err(usage_error(format_args!(
            "{} codes are too many for the optimal search: at most {}",
            rules.code_count(),
            optimal::MAX_CODES
        ))
        .into());
    }
    let first = match args.first.as_str() {
        "any" => None,
        text => Some(
            mastermind::parse_guess(text, rules)
                .map_err(|e| usage_error(format_args!("invalid --first {text:?}: {e}")))?,
        ),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = std::time::Instant::now();
    eprintln!(
        "searching the optimal strategy for {} pegs, {} colours, first guess {}",
        rules.pegs(),
        rules.colors(),
        first.as_ref().map_or("any".to_owned(), |c| c.to_string())
    );
    let tree = optimal::search(rules, first.as_ref(), threads, &|p| {
        eprintln!(
            "part {}/{}: {} codes, {} guesses ({} sets searched) after {:.0} s",
            p.done,
            p.parts,
            p.size,
            p.cost,
            p.nodes,
            started.elapsed().as_secs_f64()
        );
    })?;
    let bytes = tree.to_bytes();
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let codes = rules.code_count();
    eprintln!(
        "wrote {} ({} bytes): {} guesses over {codes} secrets (average {:.3}, at most {}) in {:.1} s",
        args.out.display(),
        bytes.len(),
        tree.total(),
        tree.total() as f64 / codes as f64,
        tree.max_guesses(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The progress file of a resumable generation, opened for appending.
pub(crate) fn open_progress(partial: &std::path::Path) -> anyhow::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(partial)
        .with_context(|| format!("cannot write {}", partial.display()))
}

/// Writes a generated file and drops its progress file, now redundant.
pub(crate) fn finish_generation(
    out: &std::path::Path,
    partial: &std::path::Path,
    bytes: &[u8],
    positions: usize,
    started: std::time::Instant,
) -> anyhow::Result<()> {
    std::fs::write(out, bytes).with_context(|| format!("cannot write {}", out.display()))?;
    let _ = std::fs::remove_file(partial);
    eprintln!(
        "wrote {} ({positions} positions, {} bytes) in {:.1} s this run",
        out.display(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
