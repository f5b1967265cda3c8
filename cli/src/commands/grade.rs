//! `boardkit grade`: a class graded, or the output folders of shards merged.

use clap::{Args, Subcommand};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Failure, Outcome, usage_error};
use crate::grader::lms::{self, Student};
use crate::grader::report::Results;

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
        #[command(flatten)]
        lms: LmsArgs,
    },
    /// Take submissions out of an output folder (their results and copies),
    /// then write its reports again without them.
    Remove {
        /// The output folder.
        out: std::path::PathBuf,
        /// The submissions' names, as in grades.csv.
        #[arg(required = true)]
        names: Vec<String>,
        /// canvas.csv, moodle.csv and moodle-feedback.zip are written again
        /// with this roster, without the submissions taken out (their
        /// grades in the LMS stay as they are); without it, they are
        /// deleted (they would still hold the grades taken out).
        #[command(flatten)]
        lms: LmsArgs,
    },
}

/// Grades into a learning management system.
#[derive(Args)]
pub(crate) struct LmsArgs {
    /// A roster (CSV: submission,id,login[,name][,participant]): writes
    /// moodle.csv (Moodle's grade import, matched on the login),
    /// moodle-feedback.zip and canvas.csv (Canvas's gradebook import)
    /// beside grades.csv. A student with no graded submission is left out
    /// of them (their grade there stays as it is). A roster with an empty
    /// or repeated login or id is refused. Without it, a run deletes those
    /// an earlier run wrote (they would hold its grades).
    #[arg(long, value_name = "FILE")]
    roster: Option<std::path::PathBuf>,
    /// The assignment's column in moodle.csv (default: the game's name).
    #[arg(long, value_name = "NAME", requires = "roster")]
    assignment: Option<String>,
    /// The Canvas assignment as Canvas names its column, `Title (id)`, the
    /// id being the number in the assignment's address
    /// (/courses/12/assignments/4567): "Jogo da velha (4567)", canvas.csv's
    /// column. Without it the column is --assignment's, which Canvas's
    /// import asks to map to an assignment, or makes a new one of.
    #[arg(long, value_name = "TITLE (ID)", requires = "roster", value_parser = canvas_column)]
    canvas_assignment: Option<lms::CanvasColumn>,
    /// The Moodle version moodle-feedback.zip is for: 4.1 and later read a
    /// folder per student (`<Full name>_<participant id>_assignsubmission_file/`),
    /// earlier versions a flat file per student
    /// (`<Full name>_<participant id>_assignsubmission_file_feedback.html`).
    #[arg(long, value_name = "X.Y", default_value = "4.1", requires = "roster", value_parser = moodle_version)]
    moodle_version: lms::MoodleZip,
}

/// `--canvas-assignment`, checked as Canvas reads it.
fn canvas_column(text: &str) -> Result<lms::CanvasColumn, String> {
    lms::CanvasColumn::parse(text)
}

/// `--moodle-version`, as the form of the feedback archive.
fn moodle_version(text: &str) -> Result<lms::MoodleZip, String> {
    lms::MoodleZip::parse(text)
}

#[derive(Args)]
pub(crate) struct GradeArgs {
    /// A built-in game (velha, connect4, mastermind). With --exercise
    /// there is none: every argument is a submission
    /// (`boardkit grade --exercise PACKAGE SUBMISSION...`).
    #[arg(required_unless_present = "exercise")]
    game: Option<String>,
    /// Submission folders or .zip archives; each one's name is the student's.
    #[arg(required_unless_present_any = ["list_cases", "from", "exercise"])]
    submissions: Vec<std::path::PathBuf>,
    /// An exercise package's folder (docs/authors.md) instead of a game of
    /// the kit: its cases, public and hidden, graded in Rust (each
    /// submission a crate with the package's `src/<name>/`) or Python
    /// (`<name>.py`).
    #[arg(long, value_name = "PACKAGE")]
    exercise: Option<std::path::PathBuf>,
    /// An LMS's download of the whole assignment, taken as it comes: `moodle`
    /// ("Download all submissions") or `canvas` ("Download Submissions"),
    /// then the archive. One submission per student, named through
    /// --roster (Moodle: its optional `participant` column, else `name`;
    /// Canvas: `id`, its user id; a name or id only when it points to one
    /// student both ways, and a number never on a row of another name);
    /// one it cannot map is graded under the archive's name and listed in
    /// unmapped.txt. Canvas's `programa-1.py` and Moodle's `programa
    /// (1).py` (a file handed in again) are graded as the expected
    /// `programa.py`.
    #[arg(long, num_args = 2, value_names = ["LMS", "ARCHIVE"])]
    from: Vec<String>,
    /// The output folder. A submission graded there before whose files,
    /// options and kit are unchanged keeps its results (a stopped run
    /// continues); a changed one is graded again; --fresh grades all again.
    #[arg(long, required_unless_present = "list_cases")]
    out: Option<std::path::PathBuf>,
    /// List the cases this mode grades (each with its level, points,
    /// visibility and the rule it checks, by where the statement states
    /// it), and grade nothing.
    #[arg(long)]
    list_cases: bool,
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
    /// less per kind of note (a habit is one): a `style` column, counted
    /// in score and max_score, never in a level or --require.
    #[arg(long, value_name = "N")]
    style_points: Option<u32>,
    /// Grade each student's own tests (tests/mine.rs; in Python, the
    /// starter's test file) up to N points, by the bugs they catch: N x
    /// caught / mutants, public and hidden. A `tests` column, counted in
    /// score and max_score, never in a level.
    #[arg(long, value_name = "N")]
    test_points: Option<u32>,
    /// Whether a student's results.json carries the notes on their code
    /// (shown), or the instructor keeps them until released (hidden: in
    /// instructor/<name>/notes.json, and in report.html).
    #[arg(long, value_enum, default_value_t = StyleNotes::Shown)]
    style_notes: StyleNotes,
    /// What each student's feedback (students/<name>/feedback.html and
    /// feedback.md) says of the hidden cases: how many failed per level
    /// (counts), or their names too (names); never their inputs.
    #[arg(long, value_enum, default_value_t = crate::grader::feedback::RevealHidden::Counts)]
    reveal_hidden: crate::grader::feedback::RevealHidden,
    /// With --language python, the locale of the game's Python exam the
    /// class is graded on, and its pages' language (velha: en, the
    /// default, or pt-BR; the same cases).
    #[arg(long, value_name = "LOCALE")]
    locale: Option<String>,
    /// Submissions graded at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Seconds of CPU time a case may use (whole seconds; a case whose
    /// reference takes longer gets 20 times the reference's). CPU time, so
    /// a loaded machine grades as an idle one; a case that runs out of it
    /// is run once more before its verdict, and the wall clock stops a
    /// case only at five times this, 10 s more at least (a program that
    /// waits).
    #[arg(long, default_value_t = boardkit::judge::CASE_CPU.as_secs_f64())]
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
    /// Grade the K-th of N deterministic slices of the submissions (K/N);
    /// `auto`: the slice of this Slurm array task; `auto/N`: of N, this
    /// one's index from Kubernetes (JOB_COMPLETION_INDEX) or AWS Batch
    /// (AWS_BATCH_JOB_ARRAY_INDEX).
    #[arg(long, value_parser = crate::grader::shard::parse, value_name = "K/N|auto|auto/N")]
    shard: Option<crate::grader::shard::ShardSpec>,
    /// Exit with status 1 when a submission does not reach this level (one
    /// of the game's, or of the package's).
    #[arg(long, value_name = "LEVEL")]
    require: Option<String>,
    /// Run student code without the sandbox (bubblewrap): only when it
    /// cannot be installed, and never for code you do not trust.
    #[arg(long)]
    no_sandbox: bool,
    /// Grade every submission again (by default, a submission whose files,
    /// options and kit are unchanged keeps its results).
    #[arg(long)]
    fresh: bool,
    /// The deadline, RFC 3339 (2026-12-01T23:59:00-03:00): a git
    /// repository (a clone, worktree, submodule checkout or shallow clone)
    /// is graded at its last commit at or before it (or before the last day
    /// --late-max-days allows), late by its committer date's instant; a
    /// date git cannot read, or a shallow clone cut after the deadline,
    /// scores 0 with the reason, also said on the terminal.
    #[arg(long, value_name = "WHEN")]
    deadline: Option<String>,
    /// Percent of the score earned lost per day started past the deadline
    /// (0 to 100); needs --late-max-days, without which no late commit is
    /// taken (refused alone: it would never apply).
    #[arg(
        long,
        value_name = "PERCENT",
        default_value_t = 0.0,
        requires = "deadline"
    )]
    late_penalty: f64,
    /// Days past the deadline a commit is still taken (late); past them, or
    /// without this option past the deadline, nothing is.
    #[arg(long, value_name = "N", requires = "deadline")]
    late_max_days: Option<u32>,
    /// A CSV of `submission,deadline` rows: a student's own deadline.
    #[arg(long, value_name = "FILE", requires = "deadline")]
    extensions: Option<std::path::PathBuf>,
    /// Similarity leaves out fragments found in more than this share of
    /// the class (a lecture's snippet), in classes of ten or more.
    #[arg(long, value_name = "SHARE", default_value_t = crate::grader::similarity::DEFAULT_COMMON)]
    similarity_common: f64,
    /// A folder of earlier terms' submissions and known solutions, one
    /// folder each: compared with every student (never with each other),
    /// in a section of their own.
    #[arg(long, value_name = "DIR")]
    similarity_corpus: Option<std::path::PathBuf>,
    /// similarity.csv keeps only the N highest pairs (every pair by
    /// default: a class of 1,000 has 499,500).
    #[arg(long, value_name = "N")]
    similarity_top: Option<usize>,
    /// Where the kit's dependencies are built, once for every class graded
    /// with the same folder (default: `<out>/.work/build`, or the
    /// BOARDKIT_BUILD_DIR environment variable). Keyed by the starter's
    /// manifest and lock and by the sandbox, so games and kits never share.
    #[arg(long, value_name = "DIR")]
    build_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    lms: LmsArgs,
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

impl Language {
    /// A starter's language, told by its files: Python when it has no
    /// Cargo.toml and has Python files (a student who forgets
    /// `--language python` in their Python starter gets what they meant).
    pub(crate) fn of_folder(dir: &std::path::Path) -> Language {
        let python = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|entry| entry.path().extension().is_some_and(|e| e == "py"));
        if !dir.join("Cargo.toml").exists() && (python || dir.join("tests/conftest.py").exists()) {
            Language::Python
        } else {
            Language::Rust
        }
    }
}

/// `--require`'s failure.
#[derive(Debug, thiserror::Error)]
#[error("not every submission reaches {0}")]
struct BelowRequired(boardkit::level::Level);

/// `--require NAME`, refused before any grading when NAME is none of the
/// run's `levels`: a mistyped level never reads as a class below it.
fn required_known(require: Option<&str>, levels: &[&str]) -> Result<(), Failure> {
    match require {
        Some(name) if !levels.contains(&name) => Err(usage_error(format!(
            "--require {name}: not a level of this exercise ({})",
            levels.join(", ")
        ))
        .into()),
        _ => Ok(()),
    }
}

/// Grades a class, or merges shards.
pub(crate) fn run(merge: Option<GradeCommand>, args: GradeArgs) -> Outcome {
    use crate::grader;
    // A roster that cannot be read is refused before any grading.
    let lms = roster_of_the_run(merge.as_ref(), &args)?;
    // Every run deletes the class files an earlier one wrote, the LMS's
    // too: they are written again only with a roster.
    let out = out_folder(merge.as_ref(), &args);
    let earlier_lms = lms_files(&out);
    let require = args.require.clone();
    let args_language = args.language;
    let mut unmapped = Vec::new();
    let result = match merge {
        Some(GradeCommand::Merge { shards, out, .. }) => grader::merge(&shards, &out),
        Some(GradeCommand::Remove { out, names, .. }) => grader::remove(&out, &names),
        None => match grading_options(args)? {
            Some((Exercise::Game(game), options, lines)) => {
                let levels = boardkit::level::Level::ALL.map(boardkit::level::Level::name);
                required_known(require.as_deref(), &levels)?;
                unmapped = lines;
                grader::grade(game, &options)
            }
            Some((Exercise::Package(package), options, lines)) => {
                let levels: Vec<&str> = package.levels.iter().map(String::as_str).collect();
                required_known(require.as_deref(), &levels)?;
                unmapped = lines;
                let language = match args_language {
                    Language::Rust => crate::package::Language::Rust,
                    Language::Python => crate::package::Language::Python,
                };
                crate::package::grade::grade(&package, language, &options)
            }
            // `--list-cases` printed them.
            None => return Ok(()),
        },
    };
    match result {
        Ok(all) => {
            print!("{}", grader::report::table(&all));
            grader::report::write_unmapped(&out, &unmapped).map_err(Failure::failed)?;
            // A download is the whole assignment: its LMS files hold no
            // one else, after a merge or a removal too.
            let from_download =
                grader::report::read_run_info(&out).is_some_and(|run| run.download.is_some());
            match lms {
                Some(lms) if from_download => {
                    lms.write(&in_this_run(&out, all.clone()))
                        .map_err(Failure::failed)?;
                }
                Some(lms) => lms.write(&all).map_err(Failure::failed)?,
                None if !earlier_lms.is_empty() => eprintln!(
                    "boardkit: deleted {} (an earlier run's grades): give --roster to write them again",
                    earlier_lms.join(", ")
                ),
                None => {}
            }
            // Read once the run's levels are known (a package's, or a
            // merged run's results').
            match require.as_deref().map(str::parse::<boardkit::level::Level>) {
                Some(Ok(level)) if !grader::all_reach(&all, level) => {
                    Err(Failure::failed(BelowRequired(level)))
                }
                Some(Err(e)) => Err(usage_error(format!("--require: {e}")).into()),
                _ => Ok(()),
            }
        }
        Err(
            e @ (grader::GradeError::NoSubmission(..)
            | grader::GradeError::Sandbox(..)
            | grader::GradeError::NotShards(..)
            | grader::GradeError::OtherRun(..)),
        ) => Err(Failure::Refused(Box::new(e))),
        Err(e) => Err(Failure::failed(e)),
    }
}

/// The results of the submissions this run was given (`all` less those an
/// earlier run graded into the same folder), each left out said: grades of
/// another download of the folder are no grades of this one's assignment.
fn in_this_run(out: &Path, all: BTreeMap<String, Results>) -> BTreeMap<String, Results> {
    let Some(run) = crate::grader::report::read_run_info(out) else {
        return all;
    };
    // Not `is_stale`: a folder whose download's students were all removed
    // has an empty `latest`, and holds none of the download's.
    let (kept, earlier): (BTreeMap<_, _>, BTreeMap<_, _>) = all
        .into_iter()
        .partition(|(name, _)| run.latest.contains(name));
    if !earlier.is_empty() {
        eprintln!(
            "boardkit: not in this download, so in no LMS file (an earlier run graded them into {}): {}",
            out.display(),
            earlier.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    kept
}

/// The LMS roster the run writes grades for, if `--roster` names one;
/// the game is the one the run grades (a merge's shards or an `--out` say
/// it).
fn roster_of_the_run(
    merge: Option<&GradeCommand>,
    args: &GradeArgs,
) -> Result<Option<Lms>, Failure> {
    match merge {
        Some(GradeCommand::Merge { lms, out, shards }) => {
            let game = shards
                .iter()
                .find_map(|shard| crate::grader::report::read_run_info(shard).map(|run| run.game));
            roster(lms, out, game.as_deref())
        }
        Some(GradeCommand::Remove { lms, out, .. }) => {
            let game = crate::grader::report::read_run_info(out).map(|run| run.game);
            roster(lms, out, game.as_deref())
        }
        None => roster(
            &args.lms,
            args.out.as_deref().unwrap_or(Path::new(".")),
            args.game.as_deref().filter(|_| args.exercise.is_none()),
        ),
    }
}

/// `--from LMS ARCHIVE`: the download unpacked into `<out>/.work/download`,
/// one submission per student; the names the roster does not map are
/// listed on the terminal and returned (for `<out>/unmapped.txt`, written
/// once graded).
fn downloaded(
    from: &[String],
    roster: Option<&Path>,
    out: Option<&Path>,
    expected: &[String],
) -> Result<(Vec<PathBuf>, Vec<String>), Failure> {
    use crate::grader::download;
    let [lms, archive] = from else {
        return Ok((Vec::new(), Vec::new()));
    };
    let lms = <download::Lms as clap::ValueEnum>::from_str(lms, true)
        .map_err(|_| usage_error(format_args!("--from {lms:?}: the LMS is moodle or canvas")))?;
    let students = match roster {
        Some(path) => {
            crate::grader::lms::read_roster(path).map_err(|e| Failure::Refused(Box::new(e)))?
        }
        None => Vec::new(),
    };
    let out = out.unwrap_or(Path::new("."));
    let unpacked = download::unpack(
        lms,
        Path::new(archive),
        &students,
        &out.join(".work/download"),
        expected,
    )
    .map_err(|e| Failure::Refused(Box::new(e)))?;
    for line in &unpacked.unmapped {
        eprintln!("boardkit: {line}");
    }
    Ok((unpacked.submissions, unpacked.unmapped))
}

/// `--from LMS ARCHIVE` as run.json records it: the LMS, the archive's
/// file name and its content's digest (`moodle: dl.zip (sha256 3fa2…)`),
/// so shards given one download by other paths are of one run.
fn download_said(from: &[String]) -> Option<String> {
    use sha2::{Digest, Sha256};
    let [lms, archive] = from else {
        return None;
    };
    let path = Path::new(archive);
    let digest = std::fs::read(path).map_or_else(
        |_| "unread".to_owned(),
        |bytes| {
            Sha256::digest(bytes)[..8]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        },
    );
    let name = path
        .file_name()
        .map_or_else(|| archive.clone(), |n| n.to_string_lossy().into_owned());
    Some(format!("{}: {name} (sha256 {digest})", lms.to_lowercase()))
}

/// `--deadline` and its policy, read.
fn deadlines(
    args: &GradeArgs,
) -> Result<Option<crate::grader::deadline::Deadlines>, super::UsageError> {
    use crate::grader::deadline;
    let Some(when) = &args.deadline else {
        return Ok(None);
    };
    // A download's files carry no commit to date: every student would be
    // graded as handed in, a late one too, the policy unapplied.
    if !args.from.is_empty() {
        return Err(usage_error(
            "--deadline dates git commits, and an LMS download (--from) has none: its \
             files would all be graded as handed in, late ones too. Leave --deadline out \
             and apply the late policy in the LMS, which marks late submissions itself",
        ));
    }
    let penalty = args.late_penalty;
    if !(0.0..=100.0).contains(&penalty) {
        return Err(usage_error(format_args!(
            "--late-penalty {penalty}: a percent from 0 to 100"
        )));
    }
    // No commit past the deadline is taken without late days: a penalty
    // would never apply, and the course's policy would go unapplied
    // silently.
    if penalty > 0.0 && args.late_max_days.unwrap_or(0) == 0 {
        return Err(usage_error(format_args!(
            "--late-penalty {penalty} never applies without --late-max-days N (N > 0): \
             past the deadline no commit is taken, so none is late; give the late days \
             allowed, or leave --late-penalty out"
        )));
    }
    Ok(Some(deadline::Deadlines {
        deadline: deadline::parse_date(when).map_err(usage_error)?,
        penalty_percent: penalty,
        max_days: args.late_max_days,
        extensions: match &args.extensions {
            Some(path) => deadline::read_extensions(path).map_err(usage_error)?,
            None => Default::default(),
        },
    }))
}

/// What a grading run is given: the game, the grader's options, and the
/// lines of `unmapped.txt`.
/// What a run grades: a game of the kit, or an exercise package.
enum Exercise {
    Game(&'static crate::registry::GameInfo),
    Package(Box<crate::package::Package>),
}

type Graded = (Exercise, crate::grader::Options, Vec<String>);

/// Bubblewrap, or nothing with `--no-sandbox` (said).
fn isolation(no_sandbox: bool) -> Result<crate::grader::sandbox::Isolation, Failure> {
    if no_sandbox {
        eprintln!(
            "boardkit: WARNING: --no-sandbox: student code runs without isolation; it can read and change what this user can"
        );
        return Ok(crate::grader::sandbox::Isolation::None);
    }
    crate::grader::sandbox::Isolation::bubblewrap().map_err(|e| Failure::Refused(Box::new(e)))
}

/// The game, the grader's options and the download's unmapped names that
/// `args` ask for; `None` when `--list-cases` asked for the cases instead
/// (printed here).
fn grading_options(args: GradeArgs) -> Result<Option<Graded>, Failure> {
    use crate::grader;
    let deadlines = deadlines(&args)?;
    let limits = case_limits(&args);
    let similarity = similarity_options(&args);
    if let Some(dir) = args.exercise.clone() {
        return package_options(args, &dir, deadlines, limits);
    }
    let id = args.game.clone().unwrap_or_default();
    let game = crate::registry::find(&super::known_game(&id)?).expect("a known game");
    // A game whose Python form is a package (velha's exam) is graded as
    // that package, of --locale's language (English's by default).
    let locale = args.locale.clone();
    if let (Language::Python, Some(name)) = (
        args.language,
        crate::exercise_data::python_package(game.id, locale.as_deref().unwrap_or("en")),
    ) {
        exam_locale_known(game.id, locale.as_deref())?;
        let args = GradeArgs { game: None, ..args };
        return package_options(args, Path::new(&name), deadlines, limits);
    }
    if let Some(locale) = locale {
        return Err(usage_error(format_args!(
            "--locale {locale}: a game's pages are English; --locale picks the language of a game's Python exam (--language python)"
        ))
        .into());
    }
    if args.language == Language::Python {
        return Err(usage_error(format_args!(
            "{} has no Python form of its functions yet: grade its program levels with --program 'python3 FILE'",
            game.id
        ))
        .into());
    }
    let shard = shard_slice(&args)?;
    if args.list_cases {
        let grading = match &args.program {
            Some(_) => crate::graded_cases::Grading::Program,
            None => crate::graded_cases::Grading::Crates,
        };
        print!("{}", list_cases(game, grading));
        return Ok(None);
    }
    let isolation = isolation(args.no_sandbox)?;
    let program = args.program;
    let mut submissions = args.submissions;
    let (downloads, unmapped) = downloaded(
        &args.from,
        args.lms.roster.as_deref(),
        args.out.as_deref(),
        &[],
    )?;
    submissions.extend(downloads);
    let options = grader::Options {
        download: download_said(&args.from),
        submissions,
        out: args.out.unwrap_or_default(),
        program,
        style_points: args.style_points,
        test_points: args.test_points,
        notes_held: args.style_notes == StyleNotes::Hidden,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        limits,
        compile_timeout: std::time::Duration::from_secs(args.compile_timeout),
        shard,
        build_dir: args.build_dir.or_else(grader::shared_build_dir),
        fresh: args.fresh,
        isolation,
        reveal_hidden: args.reveal_hidden,
        deadlines,
        similarity,
    };
    Ok(Some((Exercise::Game(game), options, unmapped)))
}

/// `--locale` for a game's Python exam: one it has a package in, never
/// another's silently taken.
fn exam_locale_known(game: &str, locale: Option<&str>) -> Result<(), Failure> {
    let known = crate::exercise_data::manifest(game)
        .map(|m| m.python_package.into_keys().collect::<Vec<_>>())
        .unwrap_or_default();
    match locale {
        Some(asked) if !known.iter().any(|k| k == asked) => Err(usage_error(format_args!(
            "--locale {asked}: {game}'s Python exam is in {}",
            known.join(", ")
        ))
        .into()),
        _ => Ok(()),
    }
}

/// `--shard`'s slice, said on stderr.
fn shard_slice(args: &GradeArgs) -> Result<Option<(usize, usize)>, super::UsageError> {
    args.shard
        .map(|spec| {
            let (slice, from) =
                crate::grader::shard::resolve(spec, |name| std::env::var(name).ok())
                    .map_err(usage_error)?;
            eprintln!("boardkit: grading shard {from}");
            Ok(slice)
        })
        .transpose()
}

/// `--exercise DIR`: the package's options; what a package cannot be
/// graded with yet is refused, never ignored.
fn package_options(
    args: GradeArgs,
    dir: &Path,
    deadlines: Option<crate::grader::deadline::Deadlines>,
    limits: crate::grader::sandbox::Limits,
) -> Result<Option<Graded>, Failure> {
    let package = package_asked(&args, dir)?;
    let similarity = similarity_options(&args);
    let shard = shard_slice(&args)?;
    if args.list_cases {
        print!(
            "{}",
            crate::package::grade::list_cases(&package, args.program.is_some())
        );
        return Ok(None);
    }
    let isolation = isolation(args.no_sandbox)?;
    // With --exercise the first word is a submission, not a game.
    let mut submissions: Vec<PathBuf> = args.game.iter().map(PathBuf::from).collect();
    submissions.extend(args.submissions);
    let expected = match args.language {
        Language::Python => package.python.files(),
        Language::Rust => Vec::new(),
    };
    let (downloads, unmapped) = downloaded(
        &args.from,
        args.lms.roster.as_deref(),
        args.out.as_deref(),
        &expected,
    )?;
    submissions.extend(downloads);
    if submissions.is_empty() {
        return Err(usage_error("expected submissions to grade, or --from LMS ARCHIVE").into());
    }
    let options = crate::grader::Options {
        download: download_said(&args.from),
        submissions,
        out: args.out.unwrap_or_default(),
        program: args.program,
        style_points: args.style_points,
        test_points: args.test_points,
        notes_held: args.style_notes == StyleNotes::Hidden,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        limits,
        compile_timeout: std::time::Duration::from_secs(args.compile_timeout),
        shard,
        build_dir: None,
        fresh: args.fresh,
        isolation,
        reveal_hidden: args.reveal_hidden,
        deadlines,
        similarity,
    };
    Ok(Some((
        Exercise::Package(Box::new(package)),
        options,
        unmapped,
    )))
}

/// The package at `dir`, once `args` ask what it can be graded with;
/// what it cannot is refused, never ignored.
fn package_asked(args: &GradeArgs, dir: &Path) -> Result<crate::package::Package, Failure> {
    let unsupported = [
        (
            args.test_points.is_some() && args.program.is_some(),
            "with --exercise, --test-points grades own tests (test_mine.py, tests/mine.rs), which call the functions: a program graded with --program has none",
        ),
        (
            args.locale.is_some() && args.exercise.is_some(),
            "with --exercise, the pages speak the package's statement's language: --locale picks a game's Python exam (boardkit grade GAME --language python --locale L)",
        ),
        (
            args.style_points.is_some()
                && (args.language == Language::Python || args.program.is_some()),
            "with --exercise, --style-points grades a class of crates: its notes read Rust code",
        ),
    ];
    if let Some((_, why)) = unsupported.iter().find(|(given, _)| *given) {
        return Err(usage_error(why).into());
    }
    let package = super::package::loaded(dir)?;
    if args.program.is_some() && package.program.is_none() {
        return Err(usage_error(format!(
            "{} has no program: --program grades a program's sessions",
            package.name
        ))
        .into());
    }
    Ok(package)
}

/// How the class is compared, as `args` set it.
fn similarity_options(args: &GradeArgs) -> crate::grader::similarity::Options {
    crate::grader::similarity::Options {
        common: args.similarity_common.clamp(0.0, 1.0),
        corpus: args.similarity_corpus.clone(),
        top: args.similarity_top,
    }
}

/// Each case's limits, as `args` set them.
fn case_limits(args: &GradeArgs) -> crate::grader::sandbox::Limits {
    crate::grader::sandbox::Limits {
        output_bytes: args.output_limit,
        memory_bytes: args.memory_mib << 20,
        ..Default::default()
    }
    .with_cpu(std::time::Duration::from_secs_f64(
        args.timeout.clamp(1.0, 3600.0),
    ))
}

/// `--list-cases`: every case a mode grades, with the rule it checks, on
/// one page an instructor can audit.
fn list_cases(game: &crate::registry::GameInfo, grading: crate::graded_cases::Grading) -> String {
    let cases = crate::graded_cases::cases(game, grading);
    let width = cases.iter().map(|c| c.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "{} cases of {} ({}):\n{:<width$}  {:<10}  {:>6}  {:<6}  rule\n",
        cases.len(),
        game.title,
        match grading {
            crate::graded_cases::Grading::Crates => "Rust crates, by EXERCISE.md",
            crate::graded_cases::Grading::Program => "--program, by EXERCISE.md",
        },
        "case",
        "level",
        "points",
        "shown",
    );
    for case in &cases {
        let level = if case.robustness {
            boardkit::session_fixture::ROBUSTNESS
        } else {
            case.level.name()
        };
        let rule = &case.rule;
        out.push_str(&format!(
            "{:<width$}  {level:<10}  {:>6}  {:<6}  {rule}\n",
            case.name,
            case.points,
            if case.hidden { "hidden" } else { "public" },
        ));
    }
    out
}

/// Where and what a run writes for the LMS.
struct Lms {
    students: Vec<Student>,
    assignment: String,
    canvas: Option<lms::CanvasColumn>,
    moodle_zip: lms::MoodleZip,
    out: PathBuf,
}

/// The roster `--roster` names, read now: one that cannot be read refuses
/// the run (exit 2) before anything is graded.
fn roster(args: &LmsArgs, out: &Path, game: Option<&str>) -> Result<Option<Lms>, Failure> {
    let Some(path) = args.roster.as_ref() else {
        return Ok(None);
    };
    let students = lms::read_roster(path).map_err(|e| Failure::Refused(Box::new(e)))?;
    let assignment = args
        .assignment
        .clone()
        .or_else(|| game.map(str::to_owned))
        .unwrap_or_else(|| "boardkit".to_owned());
    Ok(Some(Lms {
        students,
        assignment,
        canvas: args.canvas_assignment.clone(),
        moodle_zip: args.moodle_version,
        out: out.to_owned(),
    }))
}

/// The output folder of the run.
fn out_folder(merge: Option<&GradeCommand>, args: &GradeArgs) -> PathBuf {
    match merge {
        Some(GradeCommand::Merge { out, .. } | GradeCommand::Remove { out, .. }) => out.clone(),
        None => args.out.clone().unwrap_or_default(),
    }
}

/// The LMS's files in `out`.
fn lms_files(out: &Path) -> Vec<&'static str> {
    use crate::grader::report::{CANVAS_CSV, MOODLE_CSV, MOODLE_FEEDBACK};
    [CANVAS_CSV, MOODLE_CSV, MOODLE_FEEDBACK]
        .into_iter()
        .filter(|file| out.join(file).is_file())
        .collect()
}

/// Why the LMS files could not be written.
#[derive(Debug, thiserror::Error)]
enum LmsError {
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, std::io::Error),
}

impl Lms {
    /// Writes `moodle.csv`, `moodle-feedback.zip` and, with Canvas's
    /// column, `canvas.csv`; says the roster's gaps.
    fn write(&self, all: &BTreeMap<String, Results>) -> Result<(), LmsError> {
        let imports = lms::imports(&self.students, all, &self.assignment, self.canvas.as_ref());
        let write = |file: &str, bytes: &[u8]| {
            let path = self.out.join(file);
            std::fs::write(&path, bytes).map_err(|e| LmsError::Write(path, e))
        };
        write("moodle.csv", imports.moodle.as_bytes())?;
        write("canvas.csv", imports.canvas.as_bytes())?;
        if self.canvas.is_none() {
            eprintln!(
                "boardkit: warning: canvas.csv's column is {:?}, no Canvas assignment's: Canvas's \
                 import will ask which assignment it is, or make a new one; give \
                 --canvas-assignment \"Title (id)\" (the id is the number in the assignment's \
                 address) to match yours",
                self.assignment
            );
        }
        let (zip, left_out) =
            lms::moodle_feedback_zip(&self.students, all, &self.out, self.moodle_zip)
                .map_err(|e| LmsError::Write(self.out.join("moodle-feedback.zip"), e))?;
        // An archive of no page would only look like one Moodle can take.
        if left_out.len() < self.students.len() {
            write("moodle-feedback.zip", &zip)?;
        } else {
            eprintln!(
                "boardkit: no moodle-feedback.zip: no student of the roster has both a graded submission and a participant id of digits and name"
            );
        }
        if !left_out.is_empty() && left_out.len() < self.students.len() {
            eprintln!(
                "boardkit: not in moodle-feedback.zip (no graded submission, or the roster gives no participant id of digits and name): {}",
                left_out.join(", ")
            );
        }
        let gaps = &imports.gaps;
        if !gaps.unlisted.is_empty() {
            eprintln!(
                "boardkit: graded but not in the roster (in no LMS file): {}",
                gaps.unlisted.join(", ")
            );
        }
        if !gaps.missing.is_empty() {
            eprintln!(
                "boardkit: in the roster with no graded submission (left out of the LMS files, so their grades there stay as they are): {}",
                gaps.missing.join(", ")
            );
        }
        if !gaps.unread.is_empty() {
            eprintln!(
                "boardkit: warning: submission unread (an archive refused or empty; see each one's feedback), so left out of the LMS files, never 0: {}",
                gaps.unread.join(", ")
            );
        }
        if !gaps.unfinished.is_empty() {
            eprintln!(
                "boardkit: not graded to the end (a build ran out of time; graded again by the next run), left out of the LMS files: {}",
                gaps.unfinished.join(", ")
            );
        }
        // Points as the run counts them: an LMS item of another maximum
        // clamps them (Moodle) or reads them over it (Canvas).
        let max = all.values().map(Results::max_score).fold(0.0, f64::max);
        eprintln!(
            "boardkit: the LMS files give points out of {max}: set the assignment's maximum \
             grade to {max} in Moodle or Canvas (Moodle clamps a grade above its item's \
             maximum; Canvas takes it as more than 100%)"
        );
        eprintln!(
            "boardkit: wrote moodle.csv and canvas.csv ({} of {} students, assignment {:?}{})",
            self.students.len() - gaps.missing.len() - gaps.unfinished.len() - gaps.unread.len(),
            self.students.len(),
            self.assignment,
            self.canvas
                .as_ref()
                .map(|c| format!(", in Canvas {:?}", c.as_str()))
                .unwrap_or_default()
        );
        Ok(())
    }
}
