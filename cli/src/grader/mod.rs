//! `boardkit grade`: grading a class.
//!
//! 1. [`submission`] opens each submission (a folder, or a zip unpacked with
//!    care) and names it.
//! 2. [`cases`] lists the cases (the kit's fixtures, public and hidden, and
//!    each game's function cases) and computes their expected results with
//!    the reference, in this process.
//! 3. [`compile`] builds every Rust submission in one workspace, from a
//!    pristine starter plus only the student's sources; with `--program`,
//!    the submission is any folder in which a command runs instead.
//! 4. Each case runs in the [`sandbox`]; the grader compares its output with
//!    the expected (exactly, or by graded events) and gives a verdict.
//! 5. [`report`] writes `results.json` per submission (finished ones are kept,
//!    so a stopped run continues where it was) and the class reports.

pub(crate) mod compile;
pub(crate) mod lms;
pub(crate) mod notes;

pub(crate) mod report;
pub(crate) mod sandbox;
pub(crate) mod shard;
pub(crate) mod shown;
pub(crate) mod similarity;
pub(crate) mod submission;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;

use self::compile::BuildError;
use self::report::{Extra, Results, TestResult, Verdict};
use self::sandbox::{Ending, Isolation, Job, Limits, Sandbox, Session};
use crate::cases::{self, Case, CaseKind, Expected};
use crate::registry::GameInfo;
use boardkit::level::Level;

/// How a grading run is set up.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub submissions: Vec<PathBuf>,
    pub out: PathBuf,
    /// Grade any program through stdin/stdout: this command, run in a copy of
    /// the submission's folder (for instance `python3 programa.py`).
    pub program: Option<String>,
    /// The exercise as a Python course sets it (`--language python`): its
    /// functions too, through the kit's adapter.
    pub python: Option<crate::exercise::PythonVariant>,
    /// `--style-points`: the most points the notes on a crate's code give.
    pub style_points: Option<u32>,
    /// `--style-notes hidden`: the notes are the instructor's until released.
    pub notes_held: bool,
    pub jobs: usize,
    pub limits: Limits,
    pub compile_timeout: Duration,
    /// `(k, n)`: grade the k-th of n slices (1-based).
    pub shard: Option<(usize, usize)>,
    /// Where the class is built (default: `<out>/.work/build`); runs that
    /// share it share their compiled dependencies.
    pub build_dir: Option<PathBuf>,
    /// How student code is isolated: bubblewrap, or nothing (`--no-sandbox`).
    pub isolation: Isolation,
    /// Grade every submission again, even those whose results are current.
    pub fresh: bool,
}

/// Why grading could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GradeError {
    #[error("cannot write the reports in {0}: {1}")]
    Out(PathBuf, std::io::Error),
    #[error("cannot prepare the sandbox: {0}")]
    Sandbox(std::io::Error),
    #[error("cannot build the kit's dependencies for the class: {0}")]
    Class(#[from] compile::PrepareError),
    #[error("{0}")]
    NoSubmission(String),
    /// `grade merge` given folders that are not shards of one run.
    #[error("nothing merged: {0}")]
    NotShards(String),
    /// `--out` holds another game's or another mode's results.
    #[error("{0}")]
    OtherRun(String),
}

/// A submission that could not be opened is graded as not compiling, with
/// the reason as its output.
fn failed_everywhere(cases: &[Case], verdict: Verdict, message: &str) -> Results {
    let tests = cases
        .iter()
        .map(|c| test_result(c, verdict, message.to_owned()))
        .collect();
    Results::of(tests, None)
}

fn test_result(case: &Case, verdict: Verdict, output: String) -> TestResult {
    let passed = verdict == Verdict::Passed;
    // A failure says first what went wrong and what the case expected, so
    // the description never reads as what the program did.
    let full = if passed {
        case.description.clone()
    } else {
        boardkit::judge::failure(verdict, &case.description, &output)
    };
    let full = shown::printable(&full).trim_end().to_owned();
    // Hidden cases are reported without their inputs or outputs; the
    // instructor's report alone shows them.
    let (output, detail) = if case.hidden {
        (
            format!("hidden case: {}", verdict.name()),
            Some(full).filter(|_| !passed),
        )
    } else {
        (full, None)
    };
    TestResult {
        name: case.name.clone(),
        score: if passed { case.points as f64 } else { 0.0 },
        max_score: case.points as f64,
        status: if passed { "passed" } else { "failed" }.to_owned(),
        output,
        visibility: if case.hidden {
            "after_published"
        } else {
            "visible"
        }
        .to_owned(),
        extra_data: Extra {
            level: case.level,
            verdict,
            robustness: case.robustness,
        },
        detail,
    }
}

/// The most bytes of output a submission's reports keep, all cases together.
const SUBMISSION_KEPT: usize = 256 << 10;

/// The verdict of one finished run against the expected result: the
/// library's one judge ([`boardkit::judge`]), which a starter's own tests
/// call too.
fn judge(case: &Case, outcome: &sandbox::Outcome) -> (Verdict, String) {
    use boardkit::judge::{self, Ending as Judged};
    let ending = match &outcome.ending {
        Ending::Exited(code) => Judged::Exited(*code),
        Ending::Signaled(signal) => Judged::Signaled(*signal),
        Ending::TimedOut => Judged::TimedOut(outcome.elapsed),
        Ending::OutputLimit => Judged::OutputLimit,
        Ending::DiskLimit(folder) => Judged::DiskLimit((*folder).to_owned()),
    };
    let run = judge::Run {
        stdout: &outcome.stdout,
        stderr: &outcome.stderr,
        ending,
    };
    match (&case.kind, &case.expected) {
        (
            CaseKind::Program { events, stdin, .. },
            Expected::Program {
                stdout,
                failed,
                reads,
            },
        ) => judge::judge_session(
            &judge::Session {
                events: *events,
                stdout,
                failed: *failed,
                reads: Some(reads),
                stdin,
                first_line: case
                    .first_line
                    .as_ref()
                    .map(|f| (f.line.as_str(), f.rule.as_str())),
            },
            &run,
        ),
        (CaseKind::Functions { requests }, Expected::Answers(accepted)) => {
            judge::judge_calls(&judge::Calls { requests, accepted }, &run)
        }
        // A case's kind and its expectation are made together.
        _ => (
            Verdict::CompileError,
            "the case's kind and its expected result differ".into(),
        ),
    }
}

/// How to run a submission's code.
enum Runner {
    Rust(compile::Built),
    /// A program run as `command` in its folder `root`; with the kit's
    /// Python adapter (a host file) its functions too.
    Program {
        command: String,
        root: PathBuf,
        adapter: Option<PathBuf>,
    },
}

/// Where a Rust submission's binary is, inside the sandbox.
const PROGRAM: &str = "/program";
/// Where the kit's Python adapter is, inside the sandbox.
const ADAPTER: &str = "/kit/adapter.py";

fn run_case(
    game: &GameInfo,
    case: &Case,
    runner: &Runner,
    session: &mut Session<'_>,
    limits: &Limits,
) -> TestResult {
    // A function case's input for the driver (or the adapter): its
    // requests, one a line.
    let requests_stdin: Vec<u8> = match &case.kind {
        CaseKind::Functions { requests } => format!("{}\n", requests.join("\n")).into_bytes(),
        CaseKind::Program { .. } => Vec::new(),
    };
    let job = match (&case.kind, runner) {
        (CaseKind::Program { args, stdin, .. }, Runner::Rust(built)) => {
            let mut words = vec!["play".to_owned(), game.id.to_owned()];
            words.extend(args.iter().cloned());
            let mut job = Job::new(PROGRAM, &words);
            job.read_only = vec![(built.game.clone(), PROGRAM.into())];
            job.stdin = stdin;
            job
        }
        (
            CaseKind::Program { args, stdin, .. },
            Runner::Program {
                command,
                root,
                adapter,
            },
        ) => program_job(command, root, adapter.as_deref(), args, stdin),
        (
            CaseKind::Functions { .. },
            Runner::Program {
                root,
                adapter: Some(adapter),
                ..
            },
        ) => {
            // The adapter's path a word of its own: one `--no-sandbox`
            // translates into the host's.
            let mut job = Job::new(
                "/bin/sh",
                &["-c".into(), "exec python3 \"$0\"".into(), ADAPTER.into()],
            );
            job.work_from = Some(root);
            job.read_only = vec![(adapter.clone(), ADAPTER.into())];
            job.stdin = &requests_stdin;
            job
        }
        (CaseKind::Functions { .. }, Runner::Rust(built)) => {
            let mut job = Job::new(PROGRAM, &[]);
            job.read_only = vec![(built.driver.clone(), PROGRAM.into())];
            job.stdin = &requests_stdin;
            job
        }
        (CaseKind::Functions { .. }, Runner::Program { .. }) => {
            return test_result(
                case,
                Verdict::CompileError,
                "function cases need a Rust crate".into(),
            );
        }
    };
    let mut result = finish(case, session.run(&job, limits));
    let failed = !matches!(
        result.extra_data.verdict,
        Verdict::Passed | Verdict::CompileError
    );
    let command = match (&case.kind, case.hidden, failed) {
        (CaseKind::Program { stdin, .. }, false, true) => reproduce(game, case, stdin, runner),
        _ => None,
    };
    if let Some(command) = command {
        result
            .output
            .push_str(&format!("\nreproduce it: {command}"));
    }
    result
}

/// The job of a session case of a program run as `command` in `root`.
fn program_job<'a>(
    command: &str,
    root: &'a Path,
    adapter: Option<&Path>,
    args: &[String],
    stdin: &'a [u8],
) -> Job<'a> {
    // A simple command replaces the shell (`exec`): a signal that kills
    // the program is then told as one, not as sh's status 134.
    let simple = !command.contains([';', '&', '|', '(', ')', '<', '>', '`', '$', '\n']);
    let exec = if simple { "exec " } else { "" };
    let mut words = vec![
        "-c".to_owned(),
        format!("{exec}{command} \"$@\""),
        "program".to_owned(),
    ];
    words.extend(args.iter().cloned());
    let mut job = Job::new("/bin/sh", &words);
    job.work_from = Some(root);
    // Mounted for every case alike: one sandbox serves them all.
    job.read_only = adapter
        .iter()
        .map(|a| (a.to_path_buf(), ADAPTER.into()))
        .collect();
    job.stdin = stdin;
    job
}

/// One command that replays a public session case on the student's own
/// machine: its test, for a crate; its input piped into the program.
fn reproduce(game: &GameInfo, case: &Case, stdin: &[u8], runner: &Runner) -> Option<String> {
    match runner {
        Runner::Rust(_) => Some(format!("cargo test --test {} {}", game.id, case.name)),
        Runner::Program { command, .. } if stdin.len() <= 400 => {
            Some(format!("printf '{}' | {command}", printf_text(stdin)))
        }
        Runner::Program { .. } => None,
    }
}

/// `bytes` as the format of a single-quoted `printf`: `\n` for newlines,
/// octal for other control bytes, `%%` and `\\` for printf's own.
fn printf_text(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'%' => out.push_str("%%"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\047"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

fn finish(case: &Case, outcome: std::io::Result<sandbox::Outcome>) -> TestResult {
    match outcome {
        Ok(outcome) => {
            let (verdict, message) = judge(case, &outcome);
            test_result(case, verdict, message)
        }
        Err(e) => test_result(case, Verdict::Crashed, format!("could not be started: {e}")),
    }
}

fn grade_one(
    game: &GameInfo,
    cases: &[Case],
    runner: &Runner,
    sandbox: &Sandbox,
    limits: &Limits,
    progress: &indicatif::ProgressBar,
) -> Results {
    // One session: the submission's runs share one sandbox (a pod).
    let mut session = sandbox.session();
    let tests: Vec<TestResult> = cases
        .iter()
        .map(|case| {
            let result = run_case(game, case, runner, &mut session, limits);
            progress.inc(1);
            result
        })
        .collect();
    Results::of(tests, None)
}

/// What `boardkit test` runs: a student's own folder, on their machine.
pub(crate) struct Local {
    /// The student's folder.
    pub dir: PathBuf,
    /// The program levels' command, run in `dir`.
    pub program: String,
    pub python: crate::exercise::PythonVariant,
    /// Only this level's cases (all levels otherwise).
    pub level: Option<Level>,
    pub limits: Limits,
}

/// The public cases of `game`'s Python form run on `local.dir`, as the
/// student's own user and without the sandbox (it is their own code), each
/// judged as the grader judges it: what a Python starter's tests run. The
/// grader runs these very cases, and hidden ones besides.
pub(crate) fn run_public(game: &GameInfo, local: &Local) -> Result<Vec<TestResult>, GradeError> {
    let cases: Vec<Case> = cases::cases(game, cases::Grading::Python(&local.python))
        .into_iter()
        .filter(|c| !c.hidden && local.level.is_none_or(|l| c.level == l))
        .collect();
    let scratch = tempfile::tempdir().map_err(GradeError::Sandbox)?;
    let bytes = crate::embedded::file(&local.python.adapter).ok_or_else(|| {
        GradeError::Class(
            crate::exercise::ExerciseError::Missing(local.python.adapter.clone()).into(),
        )
    })?;
    let adapter = scratch.path().join("adapter.py");
    std::fs::write(&adapter, bytes).map_err(GradeError::Sandbox)?;
    let root = std::path::absolute(&local.dir).map_err(GradeError::Sandbox)?;
    let runner = Runner::Program {
        command: local.program.clone(),
        root,
        adapter: Some(adapter),
    };
    let sandbox = Sandbox::own_user().map_err(GradeError::Sandbox)?;
    let mut session = sandbox.session();
    Ok(cases
        .iter()
        .map(|case| run_case(game, case, &runner, &mut session, &local.limits))
        .collect())
}

/// Whether `dir` holds the final results of exactly this submission (the
/// same fingerprint; a build that timed out is graded again).
fn finished(dir: &Path, fingerprint: &str) -> bool {
    std::fs::read_to_string(dir.join("results.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<Results>(&text).ok())
        .is_some_and(|r| !r.incomplete && r.fingerprint == fingerprint)
}

/// A digest of the kit: every embedded file (cases, reference, harness).
fn kit_digest() -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for (path, bytes) in crate::embedded::under("") {
        hash.update(path.as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    }
    hash.finalize().to_vec()
}

/// A fingerprint of what grading a submission depends on: the kit, the
/// game, the options that change a verdict, and `content`, the files the
/// grader reads of the submission (a folder, or a single file).
fn fingerprint(kit: &[u8], game: &GameInfo, options: &Options, content: &Path) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(kit);
    hash.update(settings(game, options).as_bytes());
    let files = if content.is_file() {
        vec![content.to_owned()]
    } else {
        files_below(content)
    };
    for file in files {
        hash.update(
            file.strip_prefix(content)
                .unwrap_or(&file)
                .as_os_str()
                .as_encoded_bytes(),
        );
        hash.update(std::fs::read(&file).unwrap_or_default());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether this build holds the hidden cases (the instructor's, by default;
/// what students install does not).
const HIDDEN_CASES: bool = cfg!(feature = "hidden-cases");

/// The game, the mode and the options that change a verdict or a score.
fn settings(game: &GameInfo, options: &Options) -> String {
    let limits = &options.limits;
    format!(
        "{}|{:?}|{}|{:?}|{}|{:?}|{}|{}|{}|{}|{}",
        game.id,
        options.program,
        options.python.is_some(),
        options.style_points,
        options.notes_held,
        limits.timeout,
        limits.output_bytes,
        limits.memory_bytes,
        limits.cpu_seconds,
        limits.processes,
        limits.file_bytes
    )
}

/// A digest of what every grade of a run depends on besides the
/// submissions: the kit and [`settings`] (a run's header keeps it; shards
/// merge only when theirs are equal).
fn grading_digest(kit: &[u8], game: &GameInfo, options: &Options) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(kit);
    hash.update(settings(game, options).as_bytes());
    hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every regular file below `dir`, sorted, found without following a link
/// (links and other kinds are left out; an unreadable folder is skipped).
pub(crate) fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            // `file_type` does not follow links.
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(entry.path()),
                Ok(t) if t.is_file() => files.push(entry.path()),
                _ => {}
            }
        }
    }
    files.sort();
    files
}

/// Whether `path` names nothing (an instructor's typo, most likely): the
/// one submission error that stops a class. Anything that is there, even an
/// empty folder or a stray file, is graded, with the reason it gets no
/// points, so that no student's folder stops the class.
fn missing(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_err()
}

/// Whether `path` is the output folder (a glob such as `class/*` names it
/// when it is inside the class's folder).
fn is_out_folder(path: &Path, out: &Path) -> bool {
    match (path.canonicalize(), out.canonicalize()) {
        (Ok(path), Ok(out)) => path == out,
        _ => false,
    }
}

/// Which submissions belong to this shard: a deterministic slice of the
/// submissions sorted by name.
fn in_shard(index_in_sorted: usize, shard: Option<(usize, usize)>) -> bool {
    shard.is_none_or(|(k, n)| index_in_sorted % n == k - 1)
}

/// Refuses an `--out` that holds another game's or another mode's results
/// (one report would mix them: a velha student in Mastermind's report, a
/// program's 30 points against the crates' 40); with `--fresh`, takes those
/// results out first.
fn earlier_run_of_another_kind(game: &GameInfo, options: &Options) -> Result<(), GradeError> {
    let Some(earlier) = report::read_run_info(&options.out) else {
        return Ok(());
    };
    let now = mode(options);
    if earlier.game == game.id && mode_kind(&earlier.submissions) == mode_kind(&now) {
        return Ok(());
    }
    let out = options.out.display();
    if !options.fresh {
        return Err(GradeError::OtherRun(format!(
            "{out} holds the results of another run: {}, {}; this one grades {}, {now}:              give another --out, or --fresh to replace them",
            earlier.title, earlier.submissions, game.title
        )));
    }
    eprintln!(
        "boardkit: --fresh: the results of {}, {} in {out} are replaced",
        earlier.title, earlier.submissions
    );
    let gone = |e| GradeError::Out(options.out.clone(), e);
    for folder in [report::STUDENTS, ".work/taken"] {
        let path = options.out.join(folder);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).map_err(gone)?;
        }
    }
    for file in report::CLASS_FILES {
        match std::fs::remove_file(options.out.join(file)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(gone(e)),
            _ => {}
        }
    }
    Ok(())
}

/// The build folder that grading runs share when none is given
/// (`BOARDKIT_BUILD_DIR`: CI's long tests and dev check share one).
pub(crate) fn shared_build_dir() -> Option<PathBuf> {
    std::env::var_os("BOARDKIT_BUILD_DIR").map(PathBuf::from)
}

/// Grades `options.submissions`; returns every submission's results found
/// in the output folder afterwards (earlier runs' included).
pub(crate) fn grade(
    game: &GameInfo,
    options: &Options,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(options.out.clone(), e);
    earlier_run_of_another_kind(game, options)?;
    if !HIDDEN_CASES {
        eprintln!(
            "boardkit: warning: this boardkit is a student's build, without the hidden cases: \
             the grades count the public cases alone (an instructor's build: \
             `cargo install --locked --path cli`, or `maturin build --features hidden-cases`)"
        );
    }
    std::fs::create_dir_all(&options.out).map_err(out_error)?;
    let scratch = options.out.join(".work");
    std::fs::create_dir_all(&scratch).map_err(out_error)?;
    let grading = match (&options.python, &options.program) {
        (Some(variant), _) => cases::Grading::Python(variant),
        (None, Some(_)) => cases::Grading::Program,
        (None, None) => cases::Grading::Crates,
    };
    let cases = cases::cases(game, grading);
    // The kit's adapter, from the binary's own copy, for every sandbox.
    let adapter = match &options.python {
        Some(variant) => {
            let bytes = crate::embedded::file(&variant.adapter).ok_or_else(|| {
                GradeError::Class(
                    crate::exercise::ExerciseError::Missing(variant.adapter.clone()).into(),
                )
            })?;
            let path = scratch.join("adapter.py");
            std::fs::write(&path, bytes).map_err(out_error)?;
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644))
                .map_err(out_error)?;
            Some(path)
        }
        None => None,
    };

    let class = match options.submissions.as_slice() {
        [only] => submission::class_folder(only).map(|held| (only, held)),
        _ => None,
    };
    if let Some((only, held)) = class {
        let dir = only.display();
        return Err(GradeError::NoSubmission(format!(
            "{dir} is a class's folder ({held} submissions in it), not one submission: \
             give each one, as in `boardkit grade {} {}/* --out {}`",
            game.id,
            dir,
            options.out.display()
        )));
    }
    if let Some(path) = options.submissions.iter().find(|p| missing(p)) {
        return Err(GradeError::NoSubmission(format!(
            "{}: no such file or folder",
            path.display()
        )));
    }
    // The output folder is never a submission.
    let (outs, submissions): (Vec<&PathBuf>, Vec<&PathBuf>) = options
        .submissions
        .iter()
        .partition(|p| is_out_folder(p, &options.out));
    for out in outs {
        eprintln!(
            "boardkit: {} is the --out folder: not a submission",
            out.display()
        );
    }
    let submissions: Vec<PathBuf> = submissions.into_iter().cloned().collect();
    let solution = crate::exercise::manifest(game.id)
        .map_err(|e| GradeError::Class(e.into()))?
        .files
        .solution;
    let long_function = crate::exercise::code_notes()
        .map_err(|e| GradeError::Class(e.into()))?
        .notes
        .long_function;
    // Name and order the submissions; take this shard's, once each, into
    // the grader's folder; keep the unfinished ones.
    let (names, told_apart) = submission::names(&submissions);
    let mut every_name = names.clone();
    every_name.sort();
    for warning in told_apart {
        eprintln!("boardkit: warning: {}", shown::printable(&warning));
    }
    let mut named: Vec<(String, &PathBuf)> = names.into_iter().zip(&submissions).collect();
    named.sort();
    let only = options.program.is_none().then(|| Path::new(&solution));
    let opened: Vec<(
        String,
        &PathBuf,
        Result<submission::Submission, submission::SubmissionError>,
    )> = named
        .into_iter()
        .enumerate()
        .filter(|(i, _)| in_shard(*i, options.shard))
        .map(|(_, (name, path))| {
            let opened = submission::open(path, &name, only, &scratch);
            if let Ok(s) = &opened {
                if !s.links.is_empty() {
                    eprintln!(
                        "boardkit: {name}: links left out (never followed): {}",
                        s.links.join(", ")
                    );
                }
            }
            (name, path, opened)
        })
        .collect();
    let kit = kit_digest();
    let todo: Vec<(
        String,
        Result<submission::Submission, submission::SubmissionError>,
        String,
    )> = opened
        .into_iter()
        .map(|(name, path, opened)| {
            // What the grader reads of it: a crate's student folder, a
            // program's whole folder, or a refused archive itself.
            let content = match (&opened, &options.program) {
                (Ok(s), None) => s.root.join(&solution),
                (Ok(s), Some(_)) => s.root.clone(),
                (Err(_), _) => path.clone(),
            };
            let print = fingerprint(&kit, game, options, &content);
            (name, opened, print)
        })
        .filter(|(name, _, print)| {
            options.fresh || !finished(&report::student_dir(&options.out, name), print)
        })
        .collect();

    // Progress on a terminal; a plain line per step elsewhere (CI logs).
    let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let say = |progress: &indicatif::ProgressBar, line: String| {
        if plain {
            eprintln!("{line}");
        } else {
            progress.println(line);
        }
    };
    let sandbox = Sandbox::new(options.isolation.clone(), options.jobs.max(1))
        .map_err(GradeError::Sandbox)?;
    if let Some(why) = sandbox.pods_refused() {
        eprintln!(
            "boardkit: warning: each case gets a sandbox of its own, slower than one per submission: {why}"
        );
    }
    // Rust submissions that opened need the class's build; none, none.
    let to_build = options.program.is_none() && todo.iter().any(|(_, opened, _)| opened.is_ok());
    let class = match to_build {
        false => None,
        true => {
            let work = scratch.join("build");
            let build = options.build_dir.clone().unwrap_or_else(|| work.clone());
            let progress = indicatif::ProgressBar::new(0).with_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} {msg} [{bar:30}] {pos}/{len} crates, {elapsed}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            progress.set_message("building the kit's dependencies");
            progress.enable_steady_tick(Duration::from_millis(120));
            let started = std::time::Instant::now();
            let class = compile::Class::prepare(
                game,
                &build,
                &work,
                &sandbox,
                options.compile_timeout,
                &progress,
            )
            .map_err(GradeError::Class)?;
            // The count from cargo's metadata is close, not exact.
            progress.set_length(progress.position());
            if progress.position() > 0 {
                say(
                    &progress,
                    format!(
                        "boardkit: built the kit's dependencies for the class ({} crates) in {:.0} s",
                        progress.position(),
                        started.elapsed().as_secs_f64()
                    ),
                );
            }
            progress.finish_and_clear();
            if !class.lints() {
                eprintln!(
                    "boardkit: warning: the toolchain has no clippy: notes without lints \
                     (rustup component add clippy)"
                );
            }
            Some(class)
        }
    };
    let progress = indicatif::ProgressBar::new((todo.len() * cases.len()) as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} grading [{bar:30}] {pos}/{len} cases, {msg}, {elapsed}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    progress.enable_steady_tick(Duration::from_millis(120));
    let finished_count = std::sync::atomic::AtomicUsize::new(0);
    let done_message = |done: usize| format!("{done}/{} submissions done", todo.len());
    progress.set_message(done_message(0));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .expect("a thread pool");
    pool.install(|| {
        todo.par_iter().for_each(|(name, opened, print)| {
            // The build's warnings on the student's folder, if it built.
            let mut lints = Vec::new();
            let results = match (opened, &options.program, &class) {
                (Err(e), _, _) => {
                    progress.inc(cases.len() as u64);
                    failed_everywhere(&cases, Verdict::CompileError, &e.to_string())
                }
                (Ok(s), Some(command), _) => grade_one(
                    game,
                    &cases,
                    &Runner::Program {
                        command: command.clone(),
                        root: s.root.clone(),
                        adapter: adapter.clone(),
                    },
                    &sandbox,
                    &options.limits,
                    &progress,
                ),
                (Ok(s), None, Some(class)) => {
                    match class.build(&sandbox, name, &s.root, options.compile_timeout) {
                        Ok(mut built) => {
                            lints = std::mem::take(&mut built.lints);
                            grade_one(
                                game,
                                &cases,
                                &Runner::Rust(built),
                                &sandbox,
                                &options.limits,
                                &progress,
                            )
                        }
                        // Cases a submission never ran count as done.
                        Err(BuildError::Failed(e)) => {
                            progress.inc(cases.len() as u64);
                            failed_everywhere(&cases, Verdict::CompileError, &e)
                        }
                        Err(BuildError::TimedOut(e)) => {
                            progress.inc(cases.len() as u64);
                            Results {
                                incomplete: true,
                                ..failed_everywhere(&cases, Verdict::CompileError, &e)
                            }
                        }
                    }
                }
                (Ok(_), None, None) => unreachable!("a class is prepared for Rust submissions"),
            };
            let mut results = Results {
                unsandboxed: options.isolation == Isolation::None,
                fingerprint: print.clone(),
                ..results
            };
            // Notes on a crate's code: its student folder, read here.
            if let (Ok(s), None) = (opened, &options.program) {
                let (mut notes, _) =
                    notes::rust_notes(&s.root.join(&solution), &solution, long_function);
                notes.append(&mut lints);
                notes::sort(&mut notes);
                if let Some(max) = options.style_points {
                    let style = report::Style {
                        score: notes::style_points(&notes, max),
                        max_score: f64::from(max),
                    };
                    results.score += style.score;
                    results.style = Some(style);
                }
                results.notes = notes;
                results.notes_held = options.notes_held;
            }
            results.bound_outputs(SUBMISSION_KEPT);
            // Each finished submission is saved at once: a stopped run keeps it.
            if let Err(e) = report::save_results(&options.out, name, &results) {
                say(
                    &progress,
                    format!("boardkit: cannot save the results of {name}: {e}"),
                );
            }
            let done = finished_count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            progress.set_message(done_message(done));
            let reached = results.level_name();
            say(
                &progress,
                format!(
                    "graded {name}: {}/{} points, level {reached} ({done}/{})",
                    results.score,
                    results.max_score(),
                    todo.len()
                ),
            );
        });
    });
    progress.finish_and_clear();
    let all = report::read_results(&options.out).map_err(out_error)?;
    let crates = options.program.is_none();
    let similar = similarity(game.id, crates, all.keys(), &[&options.out]);
    let run = run_info(game, options, every_name, &kit);
    // Kept, so a late student can be graded alone into the same folder;
    // said, so a mistaken one can be taken out.
    let stale: Vec<&str> = all
        .keys()
        .filter(|name| run.is_stale(name))
        .map(String::as_str)
        .collect();
    if !stale.is_empty() {
        eprintln!(
            "boardkit: {} graded by an earlier run and not given to this one stay in the reports, marked: {} (`boardkit grade remove {} NAME...` takes one out)",
            stale.len(),
            stale.join(", "),
            options.out.display()
        );
    }
    report::write_reports(&options.out, &all, Some(&run), Some(&similar)).map_err(out_error)?;
    Ok(all)
}

/// The similarity of the submissions `names`, from their copies taken into
/// the first of `outs` that has each (`<out>/.work/taken/<name>`), less the
/// starter's stub; crates are also compared with the example solution.
fn similarity<'a>(
    game: &str,
    crates: bool,
    names: impl Iterator<Item = &'a String>,
    outs: &[&Path],
) -> similarity::Similarity {
    let manifest = crate::exercise::manifest(game).ok();
    let mut base = Vec::new();
    let mut example = None;
    if let (Some(manifest), true) = (&manifest, crates) {
        let solution = &manifest.files.solution;
        let text = |(path, bytes): (&str, &[u8])| {
            (
                format!("{solution}/{path}"),
                String::from_utf8_lossy(bytes).into_owned(),
            )
        };
        base = crate::exercise::folder(&manifest.files.stub)
            .into_iter()
            .map(text)
            .collect();
        let reference: Vec<_> = crate::exercise::folder(solution)
            .into_iter()
            .map(text)
            .collect();
        example = Some(reference);
    }
    let base_runs = similarity::base_runs(&base);
    let works = names
        .map(|name| {
            let taken = outs
                .iter()
                .map(|out| out.join(".work/taken").join(name))
                .find(|dir| dir.is_dir());
            let files = taken.map(|d| similarity::sources(&d)).unwrap_or_default();
            similarity::Work::new(name, &files, &base_runs)
        })
        .collect();
    let example =
        example.map(|files| similarity::Work::new(similarity::EXAMPLE, &files, &base_runs));
    similarity::Similarity::new(works, example)
}

/// What the header says of a class of crates.
const CRATES: &str = "Rust crates";

/// The header of this run's reports; `latest`, the submissions it was given.
fn run_info(
    game: &GameInfo,
    options: &Options,
    latest: Vec<String>,
    kit: &[u8],
) -> report::RunInfo {
    let limits = &options.limits;
    let mut text = format!(
        "{} s wall clock, {} s CPU, {} MiB memory, {} processes, {} KiB output per case",
        limits.timeout.as_secs_f64(),
        limits.cpu_seconds,
        limits.memory_bytes >> 20,
        limits.processes,
        limits.output_bytes >> 10
    );
    if options.program.is_none() {
        text.push_str(&format!(
            "; {} s per build",
            options.compile_timeout.as_secs()
        ));
    }
    if !HIDDEN_CASES {
        text.push_str("; public cases only (a build without the hidden cases)");
    }
    report::RunInfo {
        game: game.id.to_owned(),
        title: game.title.to_owned(),
        kit_version: env!("CARGO_PKG_VERSION").to_owned(),
        graded_at: chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string(),
        submissions: mode(options),
        sandboxed: options.isolation != Isolation::None,
        limits: text,
        latest,
        grading: grading_digest(kit, game, options),
        shard: options.shard.map(|(k, n)| format!("{k}/{n}")),
    }
}

/// The kind of a run's [`mode`] (crates, programs, a Python exam): runs of
/// one kind grade one set of cases, whatever the command.
fn mode_kind(mode: &str) -> &'static str {
    if mode == CRATES {
        "crates"
    } else if mode.starts_with("Python:") {
        "python"
    } else {
        "programs"
    }
}

/// What a run grades, as its header says it: Rust crates, programs run as
/// a command, or a Python exam's files.
fn mode(options: &Options) -> String {
    match (&options.python, &options.program) {
        (Some(variant), Some(command)) => format!(
            "Python: {} through the kit's adapter, programs run as `{command}`",
            variant.files.join(", ")
        ),
        (_, Some(command)) => format!("programs run as `{command}`"),
        (_, None) => CRATES.to_owned(),
    }
}

/// Joins the outputs of shards into `out`: exactly what one run writes.
pub(crate) fn merge(
    shards: &[PathBuf],
    out: &Path,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(out.to_owned(), e);
    // Checked before anything is written: a typo, an empty folder or a
    // class's folder merged would give an empty or a mixed grade book.
    let infos = shard_runs(shards, out)?;
    std::fs::create_dir_all(out).map_err(out_error)?;
    for shard in shards {
        for (name, results) in report::read_results(shard).map_err(out_error)? {
            report::save_results(out, &name, &results).map_err(out_error)?;
        }
    }
    // The shards' header, the latest of them (`graded_at` sorts as time),
    // as one run over the whole class writes it.
    let mut latest: Vec<String> = infos.iter().flat_map(|r| r.latest.clone()).collect();
    latest.sort();
    latest.dedup();
    let run = infos
        .into_iter()
        .max_by(|a, b| a.graded_at.cmp(&b.graded_at))
        .map(|run| report::RunInfo {
            latest,
            shard: None,
            ..run
        });
    let all = report::read_results(out).map_err(out_error)?;
    let similar = run.as_ref().map(|run| {
        let shards: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
        similarity(&run.game, run.submissions == CRATES, all.keys(), &shards)
    });
    report::write_reports(out, &all, run.as_ref(), similar.as_ref()).map_err(out_error)?;
    Ok(all)
}

/// Each shard's header, once the folders are known to be the shards of
/// one run: each the output of `boardkit grade --shard K/N`, all of one
/// game, mode, set of options and kit, of one N, each slice once. A
/// missing slice is said, not refused (a merge may be done as they come).
fn shard_runs(shards: &[PathBuf], out: &Path) -> Result<Vec<report::RunInfo>, GradeError> {
    let mut runs: Vec<report::RunInfo> = Vec::new();
    let mut slices: BTreeMap<usize, &Path> = BTreeMap::new();
    let mut count = None;
    for shard in shards {
        let refuse = |why: String| GradeError::NotShards(format!("{}: {why}", shard.display()));
        if !shard.is_dir() {
            return Err(refuse("no such folder".into()));
        }
        if shard.canonicalize().ok() == out.canonicalize().ok() {
            return Err(refuse("it is the --out folder itself".into()));
        }
        let Some(run) = report::read_run_info(shard) else {
            return Err(refuse(
                "not the output of a grading run (it has no run.json): give the folders                  each `boardkit grade --shard K/N --out DIR` wrote"
                    .into(),
            ));
        };
        let Some((k, n)) = run
            .shard
            .as_deref()
            .and_then(|s| s.split_once('/'))
            .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        else {
            return Err(refuse(format!(
                "graded as a whole class (without --shard), on {}: there is nothing to merge it with",
                run.graded_at
            )));
        };
        if let Some(first) = runs.first() {
            let theirs = shards[0].display();
            let differs = if run.game != first.game {
                Some(format!(
                    "grades {}, where {theirs} grades {}",
                    run.title, first.title
                ))
            } else if run.submissions != first.submissions {
                Some(format!(
                    "grades {}, where {theirs} grades {}",
                    run.submissions, first.submissions
                ))
            } else if run.grading != first.grading {
                Some(format!(
                    "graded with other options ({}) or another kit than {theirs} ({})",
                    run.limits, first.limits
                ))
            } else {
                None
            };
            if let Some(differs) = differs {
                return Err(refuse(format!("not a shard of the same run: it {differs}")));
            }
        }
        if count.is_some_and(|c| c != n) {
            return Err(refuse(format!(
                "shard {k}/{n}, where the others are of {}",
                count.unwrap_or_default()
            )));
        }
        count = Some(n);
        if let Some(other) = slices.insert(k, shard) {
            return Err(refuse(format!(
                "shard {k}/{n}, and so is {}",
                other.display()
            )));
        }
        runs.push(run);
    }
    if let Some(n) = count {
        let missing: Vec<String> = (1..=n)
            .filter(|k| !slices.contains_key(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "boardkit: warning: no shard {} given: their submissions are not in the merge",
                missing.join(", ")
            );
        }
    }
    Ok(runs)
}

/// Takes the submissions `names` out of the output folder `out` (their
/// results, their copies), then writes its reports again without them.
pub(crate) fn remove(
    out: &Path,
    names: &[String],
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(out.to_owned(), e);
    let before = report::read_results(out).map_err(out_error)?;
    for name in names {
        if !before.contains_key(name) {
            let known: Vec<&str> = before.keys().map(String::as_str).collect();
            return Err(GradeError::NoSubmission(format!(
                "{} holds no submission {name:?}; it has: {}",
                out.display(),
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    for name in names {
        std::fs::remove_dir_all(report::student_dir(out, name)).map_err(out_error)?;
        let taken = out.join(".work/taken").join(name);
        if taken.is_dir() {
            std::fs::remove_dir_all(taken).map_err(out_error)?;
        }
    }
    let mut run = report::read_run_info(out);
    if let Some(run) = &mut run {
        run.latest.retain(|n| !names.contains(n));
    }
    let all = report::read_results(out).map_err(out_error)?;
    let similar = run
        .as_ref()
        .map(|run| similarity(&run.game, run.submissions == CRATES, all.keys(), &[out]));
    report::write_reports(out, &all, run.as_ref(), similar.as_ref()).map_err(out_error)?;
    Ok(all)
}

/// Whether every submission reached `level`.
pub(crate) fn all_reach(all: &BTreeMap<String, Results>, level: Level) -> bool {
    all.values()
        .all(|r| r.level_reached().is_some_and(|l| l >= level))
}
