//! The `boardkit` command line: a thin layer of argument parsing over the
//! library. Usage errors exit with status 2 (clap's convention), input that
//! ends before a game does exits with status 1, a finished game with 0.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use boardkit::console::InputError;
use boardkit::{connect4, mastermind};
use boardkit_cli::play::session::{Language, SessionArgs};
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
    /// Host velha or connect4 for one opponent over TCP (not Mastermind).
    ///
    /// Prints the address it waits on (127.0.0.1 unless --bind), takes the
    /// first opponent and stops listening; you play X and start the first
    /// game. The protocol is in README.md, "Network play".
    Host(boardkit_cli::net::HostArgs),
    /// Join a game hosted with `boardkit host`, at the address it printed.
    Join(boardkit_cli::net::JoinArgs),
    /// Serve the three games to a web browser, on 127.0.0.1 unless --bind.
    ///
    /// Prints the address it listens on; open it in a browser. The rules
    /// and the computer players run here; the JSON API is in README.md,
    /// "Browser". Ctrl-C stops it.
    Serve(boardkit_cli::web::ServeArgs),
    /// Play full screen: a menu, arrow keys and Enter, undo, hints, play
    /// again (needs a terminal).
    Tui(boardkit_cli::tui::TuiArgs),
    /// Print the scoreboard: every result recorded by games played on a
    /// terminal (or with --scoreboard).
    Scores {
        /// The scoreboard file (default: boardkit/scores.json in the
        /// platform's data folder).
        #[arg(long, value_name = "PATH")]
        scoreboard: Option<std::path::PathBuf>,
        /// Only this game's results.
        #[arg(long)]
        game: Option<String>,
    },
    /// Write a student starter crate for a game: stubs, public fixtures and
    /// their tests, the statement, and a CI workflow with one job per level.
    Starter {
        /// velha, connect4 or mastermind.
        game: String,
        /// A new (or empty) folder.
        dir: std::path::PathBuf,
    },
    /// Grade a class: every submission's cases, in isolation, with reports
    /// (grades.csv, students/<name>/results.json, junit.xml, report.html) in --out.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade {
        #[command(subcommand)]
        merge: Option<GradeCommand>,
        #[command(flatten)]
        args: GradeArgs,
    },
    /// Run a solver: print what a perfect or strong player would do.
    Solve {
        #[command(subcommand)]
        game: SolveGame,
    },
    /// Compute an opening book with the solver (slow: see README.md).
    Book {
        #[command(subcommand)]
        game: BookGame,
    },
    /// The kit's own tools, for its developers and its CI.
    Dev {
        #[command(subcommand)]
        command: DevCommand,
    },
}

#[derive(Subcommand)]
enum DevCommand {
    /// Prove that every game's tests discriminate: the stubs fail every
    /// level, the example passes, each seeded mutation is caught, and every
    /// independent solution reaches its level, locally and in the grader.
    Check {
        /// Only these games (default: every game).
        games: Vec<String>,
        /// Work in this folder (kept afterwards) instead of a temporary one.
        #[arg(long)]
        work: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum BookGame {
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
struct BookMastermindArgs {
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
struct PlaybookArgs {
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
struct BookConnect4Args {
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

#[derive(Subcommand)]
enum GradeCommand {
    /// Join the output folders of shards into one: what a single run writes.
    Merge {
        /// The shards' output folders.
        #[arg(required = true)]
        shards: Vec<std::path::PathBuf>,
        /// Where to write the merged reports.
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

#[derive(Args)]
struct GradeArgs {
    /// velha, connect4 or mastermind.
    #[arg(required = true)]
    game: Option<String>,
    /// Submission folders or .zip archives; each one's name is the student's.
    #[arg(required = true)]
    submissions: Vec<std::path::PathBuf>,
    /// The output folder. A submission graded there before whose files,
    /// options and kit are unchanged keeps its results (a stopped run
    /// continues); a changed one is graded again; --fresh grades all again.
    #[arg(long, required = true)]
    out: Option<std::path::PathBuf>,
    /// Grade any program through stdin/stdout, run in a copy of each
    /// submission folder (for instance 'python3 programa.py'): program levels only.
    #[arg(long)]
    program: Option<String>,
    /// Submissions graded at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Seconds a case may run.
    #[arg(long, default_value_t = 5.0)]
    timeout: f64,
    /// Seconds one crate may take to compile (and the class's shared
    /// dependencies, built once before the crates).
    #[arg(long, default_value_t = 1200)]
    compile_timeout: u64,
    /// Memory a case may use, in MiB.
    #[arg(long, default_value_t = 512)]
    memory_mib: u64,
    /// Bytes of stdout (and of stderr) a case may print.
    #[arg(long, default_value_t = 1 << 20)]
    output_limit: usize,
    /// Grade the K-th of N deterministic slices of the submissions (K/N).
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Exit with status 1 when a submission does not reach this level.
    #[arg(long)]
    require: Option<boardkit::level::Level>,
    /// Run student code without the sandbox (bubblewrap): only when it
    /// cannot be installed, and never for code you do not trust.
    #[arg(long)]
    no_sandbox: bool,
    /// Grade every submission again (by default, a submission whose files,
    /// options and kit are unchanged keeps its results).
    #[arg(long)]
    fresh: bool,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text.split_once('/').ok_or("expected K/N, such as 1/4")?;
    let (k, n): (usize, usize) = (
        k.parse().map_err(|_| "K is not a number")?,
        n.parse().map_err(|_| "N is not a number")?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(format!("{text}: K must be between 1 and N"));
    }
    Ok((k, n))
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
struct SolveMastermindArgs {
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
enum CodebreakerName {
    Knuth,
    MostParts,
    ExpectedSize,
    Entropy,
    Best,
    Optimal,
}

#[derive(Subcommand)]
enum PlayGame {
    /// Jogo da velha (tic-tac-toe): positions such as B2; X starts.
    Velha {
        #[command(flatten)]
        game: boardkit_cli::play::velha::PlayArgs,
        #[command(flatten)]
        session: SessionArgs,
    },
    /// Connect four (puissance 4): type column numbers; X starts.
    Connect4 {
        #[command(flatten)]
        game: boardkit_cli::play::connect4::PlayArgs,
        #[command(flatten)]
        session: SessionArgs,
    },
    /// Mastermind: guess the secret code, such as ABCD; 10 turns.
    Mastermind {
        #[command(flatten)]
        game: boardkit_cli::play::mastermind::PlayArgs,
        #[command(flatten)]
        session: SessionArgs,
    },
}

/// Exits with status 2 and clap's usage message, for arguments clap cannot check alone.
fn usage_error(message: impl std::fmt::Display) -> ! {
    Cli::command()
        .error(clap::error::ErrorKind::ValueValidation, message)
        .exit()
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Play { game } => {
            use boardkit_cli::play::{connect4, mastermind, velha};
            let (session, language) = match &game {
                PlayGame::Velha { session, .. } => (session, Language::Portuguese),
                PlayGame::Connect4 { session, .. } | PlayGame::Mastermind { session, .. } => {
                    (session, Language::English)
                }
            };
            session.apply_color_choice();
            boardkit::cli::run_play_in(language.input_ended(), |input, output, color| {
                let terminal = session.terminal(color);
                match &game {
                    PlayGame::Velha { game, .. } => {
                        velha::session(game, session, input, output, terminal)
                    }
                    PlayGame::Connect4 { game, .. } => {
                        connect4::session(game, session, input, output, terminal)
                    }
                    PlayGame::Mastermind { game, .. } => {
                        mastermind::session(game, session, input, output, terminal)
                    }
                }
            })
        }
        Command::Host(args) if args.peer.tui => boardkit_cli::tui::host(&args),
        Command::Join(args) if args.peer.tui => boardkit_cli::tui::join(&args),
        Command::Host(args) => {
            args.peer.apply_color_choice();
            boardkit_cli::net::run(|input, output, color| {
                boardkit_cli::net::host(&args, input, output, color)
            })
        }
        Command::Join(args) => {
            args.peer.apply_color_choice();
            boardkit_cli::net::run(|input, output, color| {
                boardkit_cli::net::join(&args, input, output, color)
            })
        }
        Command::Serve(args) => match boardkit_cli::web::serve(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("boardkit: {e}");
                ExitCode::from(1)
            }
        },
        Command::Tui(args) => boardkit_cli::tui::run(&args),
        Command::Scores { scoreboard, game } => scores(scoreboard, game),
        Command::Starter { game, dir } => match boardkit_cli::starter::write_starter(&game, &dir) {
            Ok(files) => {
                println!("wrote {} files into {}", files.len(), dir.display());
                println!("next: cd {} && cargo test", dir.display());
                ExitCode::SUCCESS
            }
            Err(e @ boardkit_cli::starter::StarterError::UnknownGame(..)) => usage_error(e),
            Err(e) => {
                eprintln!("boardkit: {e}");
                ExitCode::from(1)
            }
        },
        Command::Grade { merge, args } => grade(merge, args),
        Command::Dev {
            command: DevCommand::Check { games, work },
        } => {
            for game in &games {
                if boardkit_cli::registry::find(game).is_none() {
                    usage_error(format_args!(
                        "unknown game {game:?}: the kit has {}",
                        boardkit_cli::registry::names()
                    ));
                }
            }
            match boardkit_cli::check::run(&games, work.as_deref()) {
                Ok(failures) if failures.is_empty() => {
                    println!("every check passed");
                    ExitCode::SUCCESS
                }
                Ok(failures) => {
                    println!("{} check(s) failed:", failures.len());
                    for failure in failures {
                        println!("  {failure}");
                    }
                    ExitCode::from(1)
                }
                Err(e) => {
                    eprintln!("boardkit: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Book { game } => match match game {
            BookGame::Connect4(args) => book_connect4(args),
            BookGame::Connect4Playbook(args) => playbook_connect4(args),
            BookGame::MastermindOptimal(args) => book_mastermind(args),
        } {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("boardkit: {error:#}");
                ExitCode::from(1)
            }
        },
        Command::Solve { game } => match solve(game) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                let _ = io::stdout().flush();
                eprintln!("boardkit: {error:#}");
                ExitCode::from(1)
            }
        },
    }
}

fn book_connect4(args: BookConnect4Args) -> anyhow::Result<()> {
    use connect4::book::Book;
    use connect4::solver::{Shape, Solver};
    let shape = Shape::new(args.width, args.height).unwrap_or_else(|e| usage_error(e));
    if args.depth as i32 >= shape.cells() {
        usage_error(format_args!("--depth must be below {}", shape.cells()));
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

fn playbook_connect4(args: PlaybookArgs) -> anyhow::Result<()> {
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

fn book_mastermind(args: BookMastermindArgs) -> anyhow::Result<()> {
    use mastermind::optimal;
    let rules = mastermind::Rules::new(args.pegs, args.colors).unwrap_or_else(|e| usage_error(e));
    if rules.code_count() > optimal::MAX_CODES {
        usage_error(format_args!(
            "{} codes are too many for the optimal search: at most {}",
            rules.code_count(),
            optimal::MAX_CODES
        ));
    }
    let first = match args.first.as_str() {
        "any" => None,
        text => Some(
            mastermind::parse_guess(text, rules)
                .unwrap_or_else(|e| usage_error(format_args!("invalid --first {text:?}: {e}"))),
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
fn open_progress(partial: &std::path::Path) -> anyhow::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(partial)
        .with_context(|| format!("cannot write {}", partial.display()))
}

/// Writes a generated file and drops its progress file, now redundant.
fn finish_generation(
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

/// `boardkit scores`: the scoreboard as a table (exit 1 when it cannot be
/// read, saying why; the file is left as it is).
fn scores(path: Option<std::path::PathBuf>, game: Option<String>) -> ExitCode {
    use boardkit_cli::play::scoreboard;
    let result = path
        .map_or_else(scoreboard::default_path, Ok)
        .and_then(|path| Ok((scoreboard::load(&path)?, path)));
    match result {
        Ok((mut board, path)) => {
            if let Some(game) = &game {
                board.entries.retain(|e| &e.game == game);
            }
            if board.entries.is_empty() {
                println!(
                    "no results yet in {} (games played on a terminal are recorded)",
                    path.display()
                );
            } else {
                print!("{}", scoreboard::table(&board));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("boardkit: {e}");
            ExitCode::from(1)
        }
    }
}

fn solve(game: SolveGame) -> anyhow::Result<()> {
    let mut out = anstream::stdout().lock();
    match game {
        SolveGame::Connect4(args) => {
            use connect4::solver::{Position, Shape, Solver};
            let shape = Shape::new(args.width, args.height).unwrap_or_else(|e| usage_error(e));
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
                        eprintln!(
                            "boardkit: line {number}: {moves:?} is not a legal position: {e}"
                        );
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
        }
        SolveGame::Mastermind(args) => {
            use mastermind::solver::{Codebreaker, Criterion};
            let rules =
                mastermind::Rules::new(args.pegs, args.colors).unwrap_or_else(|e| usage_error(e));
            let mut breaker: Box<dyn boardkit::player::Strategy<_, _>> = match args.strategy {
                CodebreakerName::Optimal => {
                    if rules != mastermind::Rules::default() {
                        usage_error(format_args!(
                            "--strategy optimal plays the standard game only (4 pegs, 6 colours), not {} pegs, {} colours",
                            rules.pegs(),
                            rules.colors()
                        ));
                    }
                    Box::new(mastermind::optimal::OptimalCodebreaker::standard()?)
                }
                name => {
                    let criterion = match name {
                        CodebreakerName::Knuth => Criterion::Knuth,
                        CodebreakerName::MostParts => Criterion::MostParts,
                        CodebreakerName::ExpectedSize => Criterion::ExpectedSize,
                        CodebreakerName::Entropy => Criterion::Entropy,
                        CodebreakerName::Best | CodebreakerName::Optimal => {
                            mastermind::solver::BEST
                        }
                    };
                    Box::new(Codebreaker::new(rules, criterion).unwrap_or_else(|e| usage_error(e)))
                }
            };
            let max_turns = 64;
            if let Some(text) = &args.secret {
                let secret = mastermind::parse_guess(text, rules).unwrap_or_else(|e| {
                    usage_error(format_args!("invalid --secret {text:?}: {e}"))
                });
                let board = mastermind::solver::solve(breaker.as_mut(), rules, &secret, max_turns);
                for (guess, score) in &board.guesses {
                    writeln!(out, "{guess}  {score}")?;
                }
                writeln!(out, "found in {} guesses", board.guesses.len())?;
            } else {
                let (mut total, mut max, mut games) = (0usize, 0usize, 0usize);
                for secret in mastermind::Code::all(rules) {
                    let board =
                        mastermind::solver::solve(breaker.as_mut(), rules, &secret, max_turns);
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

fn grade(merge: Option<GradeCommand>, args: GradeArgs) -> ExitCode {
    use boardkit_cli::grader;
    let result = match merge {
        Some(GradeCommand::Merge { shards, out }) => grader::merge(&shards, &out),
        None => {
            let id = args.game.unwrap_or_default();
            let game = boardkit_cli::registry::find(&id)
                .unwrap_or_else(|| usage_error(format_args!("unknown game {id:?}")));
            let options = grader::Options {
                submissions: args.submissions,
                out: args.out.unwrap_or_default(),
                program: args.program,
                jobs: args
                    .jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
                limits: grader::sandbox::Limits {
                    timeout: std::time::Duration::from_secs_f64(args.timeout.max(0.05)),
                    output_bytes: args.output_limit,
                    memory_bytes: args.memory_mib << 20,
                    cpu_seconds: (args.timeout.ceil() as u64).max(1) + 1,
                    ..Default::default()
                },
                compile_timeout: std::time::Duration::from_secs(args.compile_timeout),
                shard: args.shard,
                build_dir: None,
                fresh: args.fresh,
                isolation: if args.no_sandbox {
                    eprintln!(
                        "boardkit: WARNING: --no-sandbox: student code runs without isolation; it can read and change what this user can"
                    );
                    grader::sandbox::Isolation::None
                } else {
                    match grader::sandbox::Isolation::bubblewrap() {
                        Ok(isolation) => isolation,
                        Err(e) => {
                            eprintln!("boardkit: {e}");
                            return ExitCode::from(2);
                        }
                    }
                },
            };
            grader::grade(game, &options)
        }
    };
    match result {
        Ok(all) => {
            print!("{}", grader::report::table(&all));
            match args.require {
                Some(level) if !grader::all_reach(&all, level) => {
                    eprintln!("boardkit: not every submission reaches {level}");
                    ExitCode::from(1)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(
            e @ (grader::GradeError::Collision(..)
            | grader::GradeError::NoSubmission(..)
            | grader::GradeError::Sandbox(..)),
        ) => {
            eprintln!("boardkit: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("boardkit: {e}");
            ExitCode::from(1)
        }
    }
}
