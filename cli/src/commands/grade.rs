//! `boardkit grade`: a class graded, or the output folders of shards merged.

use clap::{Args, Subcommand};

use super::{Failure, Outcome, usage_error};

#[derive(Subcommand)]
pub(crate) enum GradeCommand {
    /// Join the output folders of shards into one: what a single run writes.
    Merge {
        /// The shards' output folders.
        #[arg(required = true)]
        shards: Vec<std::path::PathBuf>,
        /// Where to write the merged reports.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Take submissions out of an output folder (their results and copies),
    /// then write its reports again without them.
    Remove {
        /// The output folder.
        out: std::path::PathBuf,
        /// The submissions' names, as in grades.csv.
        #[arg(required = true)]
        names: Vec<String>,
    },
}

#[derive(Args)]
pub(crate) struct GradeArgs {
    /// The game.
    #[arg(required = true, value_parser = crate::registry::names_parser())]
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
    /// The language the class writes: rust (crates), or python (the
    /// exercise's Python files, every level: the functions through the
    /// kit's adapter, the program as its statement says, or --program).
    #[arg(long, value_enum, default_value_t = Language::Rust)]
    language: Language,
    /// Give the notes on each crate's code (style) up to N points, one
    /// less per note: a `style` column, counted in score and max_score,
    /// never in a level or --require.
    #[arg(long, value_name = "N")]
    style_points: Option<u32>,
    /// Whether a student's results.json carries the notes on their code
    /// (shown), or the instructor keeps them until released (hidden: in
    /// notes.json beside it, and in report.html).
    #[arg(long, value_enum, default_value_t = StyleNotes::Shown)]
    style_notes: StyleNotes,
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

/// Who reads the notes on a submission's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StyleNotes {
    Shown,
    Hidden,
}

/// The language a class writes the exercise in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Language {
    Rust,
    Python,
}

/// Why a `--shard` value is not K/N.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BadShard {
    #[error("expected K/N, such as 1/4")]
    NotAFraction,
    #[error("K is not a number")]
    K,
    #[error("N is not a number")]
    N,
    #[error("{0}: K must be between 1 and N")]
    Range(String),
}

pub(crate) fn parse_shard(text: &str) -> Result<(usize, usize), BadShard> {
    let (k, n) = text.split_once('/').ok_or(BadShard::NotAFraction)?;
    let (k, n): (usize, usize) = (
        k.parse().map_err(|_| BadShard::K)?,
        n.parse().map_err(|_| BadShard::N)?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(BadShard::Range(text.to_owned()));
    }
    Ok((k, n))
}

/// `--require`'s failure.
#[derive(Debug, thiserror::Error)]
#[error("not every submission reaches {0}")]
struct BelowRequired(boardkit::level::Level);

/// Grades a class, or merges shards.
pub(crate) fn run(merge: Option<GradeCommand>, args: GradeArgs) -> Outcome {
    use crate::grader;
    let result = match merge {
        Some(GradeCommand::Merge { shards, out }) => grader::merge(&shards, &out),
        Some(GradeCommand::Remove { out, names }) => grader::remove(&out, &names),
        None => {
            let id = args.game.unwrap_or_default();
            let game = crate::registry::find(&id)
                .unwrap_or_else(|| usage_error(format_args!("unknown game {id:?}")));
            let python = match args.language {
                Language::Rust => None,
                Language::Python => Some(
                    crate::exercise::manifest(game.id)
                        .ok()
                        .and_then(|m| m.python)
                        .unwrap_or_else(|| {
                            usage_error(format_args!(
                                "{} has no Python form of its functions yet: grade its program levels with --program 'python3 FILE'",
                                game.id
                            ))
                        }),
                ),
            };
            let program = args
                .program
                .or_else(|| python.as_ref().map(|v| v.program.clone()));
            let options = grader::Options {
                submissions: args.submissions,
                out: args.out.unwrap_or_default(),
                program,
                python,
                style_points: args.style_points,
                notes_held: args.style_notes == StyleNotes::Hidden,
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
                        Err(e) => return Err(Failure::Refused(Box::new(e))),
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
                    Err(Failure::failed(BelowRequired(level)))
                }
                _ => Ok(()),
            }
        }
        Err(e @ (grader::GradeError::NoSubmission(..) | grader::GradeError::Sandbox(..))) => {
            Err(Failure::Refused(Box::new(e)))
        }
        Err(e) => Err(Failure::failed(e)),
    }
}
