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

pub mod cases;
pub mod compile;
pub mod games;
pub mod report;
pub mod sandbox;
pub mod submission;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;

use self::cases::{Case, CaseKind, Expected};
use self::report::{Extra, Results, TestResult, Verdict};
use self::sandbox::{Ending, Limits};
use crate::level::Level;
use crate::registry::GameInfo;

/// How a grading run is set up.
#[derive(Debug, Clone)]
pub struct Options {
    pub submissions: Vec<PathBuf>,
    pub out: PathBuf,
    /// Grade any program through stdin/stdout: this command, run in a copy of
    /// the submission's folder (for instance `python3 programa.py`).
    pub program: Option<String>,
    pub jobs: usize,
    pub limits: Limits,
    pub compile_timeout: Duration,
    /// `(k, n)`: grade the k-th of n slices (1-based).
    pub shard: Option<(usize, usize)>,
    /// Where the class is built (default: `<out>/.work/build`); runs that
    /// share it share their compiled dependencies.
    pub build_dir: Option<PathBuf>,
}

/// Why grading could not run.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    #[error("cannot write the reports in {0}: {1}")]
    Out(PathBuf, std::io::Error),
}

/// A submission that could not be opened is graded as not compiling, with
/// the reason as its output.
fn failed_everywhere(cases: &[Case], verdict: Verdict, message: &str) -> Results {
    let tests = cases
        .iter()
        .map(|c| test_result(c, verdict, message.to_owned()))
        .collect();
    Results { score: 0.0, tests }
}

fn test_result(case: &Case, verdict: Verdict, output: String) -> TestResult {
    let passed = verdict == Verdict::Passed;
    let output = if case.hidden {
        // Hidden cases are reported without their inputs or outputs.
        format!("hidden case: {}", verdict.name())
    } else {
        format!("{}\n{output}", case.description)
            .trim_end()
            .to_owned()
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
        },
    }
}

/// The last lines of a program's stderr, for a crash report.
fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

/// The verdict of one finished run against the expected result.
fn judge(case: &Case, outcome: &sandbox::Outcome) -> (Verdict, String) {
    let code = match outcome.ending {
        Ending::Exited(code) => code,
        Ending::TimedOut => {
            let message = format!("still running after {:.1} s", outcome.elapsed.as_secs_f64());
            return (Verdict::Timeout, message);
        }
        Ending::OutputLimit => {
            return (
                Verdict::OutputLimit,
                "printed more than the output limit".into(),
            );
        }
        Ending::Signaled(signal) => {
            return (
                Verdict::Crashed,
                format!("killed by signal {signal}\n{}", tail(&outcome.stderr)),
            );
        }
    };
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    match &case.expected {
        Expected::Answers(expected) => {
            let answers: Vec<String> = stdout.lines().map(str::to_owned).collect();
            if let Some(panic) = answers.iter().find(|a| a.starts_with("panicked: ")) {
                return (Verdict::Crashed, panic.clone());
            }
            if code != 0 {
                return (
                    Verdict::Crashed,
                    format!("exit status {code}\n{}", tail(&outcome.stderr)),
                );
            }
            if let Some(i) = (0..expected.len())
                .find(|&i| answers.get(i).is_none_or(|a| !expected[i].contains(a)))
            {
                let request = match &case.kind {
                    CaseKind::Functions { requests } => {
                        requests.get(i).cloned().unwrap_or_default()
                    }
                    CaseKind::Program { .. } => String::new(),
                };
                let got = answers.get(i).map_or("(no answer)", String::as_str);
                let wanted = match expected[i].as_slice() {
                    [one] => one.clone(),
                    many => format!("one of: {}", many.join(", ")),
                };
                return (
                    Verdict::WrongOutput,
                    format!("{request}\n--- expected ---\n{wanted}\n--- actual ---\n{got}"),
                );
            }
            (Verdict::Passed, String::new())
        }
        Expected::Program {
            stdout: expected,
            failed,
        } => {
            if code != 0 && !failed {
                return (
                    Verdict::Crashed,
                    format!("exit status {code}\n{}", tail(&outcome.stderr)),
                );
            }
            let CaseKind::Program { events, .. } = &case.kind else {
                return (Verdict::Crashed, "a program case without a program".into());
            };
            match crate::compare::compare(*events, expected, *failed, &stdout, code != 0) {
                Ok(()) => (Verdict::Passed, String::new()),
                Err(difference) => (Verdict::WrongOutput, difference),
            }
        }
    }
}

/// How to run a submission's code.
enum Runner {
    Rust(compile::Built),
    Program { command: String, root: PathBuf },
}

fn run_case(game: &GameInfo, case: &Case, runner: &Runner, limits: &Limits) -> TestResult {
    let outcome = match (&case.kind, runner) {
        (CaseKind::Program { args, stdin, .. }, Runner::Rust(built)) => {
            let mut words = vec!["play".to_owned(), game.id.to_owned()];
            words.extend(args.iter().cloned());
            sandbox::run(&built.game, &words, stdin, None, limits)
        }
        (CaseKind::Program { args, stdin, .. }, Runner::Program { command, root }) => {
            let mut words = vec![
                "-c".to_owned(),
                format!("{command} \"$@\""),
                "program".to_owned(),
            ];
            words.extend(args.iter().cloned());
            sandbox::run(Path::new("/bin/sh"), &words, stdin, Some(root), limits)
        }
        (CaseKind::Functions { requests }, Runner::Rust(built)) => {
            let mut stdin = requests.join("\n").into_bytes();
            stdin.push(b'\n');
            sandbox::run(&built.driver, &[], &stdin, None, limits)
        }
        (CaseKind::Functions { .. }, Runner::Program { .. }) => {
            return test_result(
                case,
                Verdict::CompileError,
                "function cases need a Rust crate".into(),
            );
        }
    };
    match outcome {
        Ok(outcome) => {
            let (verdict, message) = judge(case, &outcome);
            test_result(case, verdict, message)
        }
        Err(e) => test_result(case, Verdict::Crashed, format!("could not be started: {e}")),
    }
}

fn grade_one(game: &GameInfo, cases: &[Case], runner: &Runner, limits: &Limits) -> Results {
    let tests: Vec<TestResult> = cases
        .iter()
        .map(|case| run_case(game, case, runner, limits))
        .collect();
    Results {
        score: tests.iter().map(|t| t.score).sum(),
        tests,
    }
}

/// Copies a submission's binaries into `dir`, readable and runnable by all.
fn reachable_copy(built: &compile::Built, dir: &Path) -> std::io::Result<compile::Built> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir)?;
    if let Some(parent) = dir.parent() {
        std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o755))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
    let copy = |from: &Path, name: &str| -> std::io::Result<PathBuf> {
        let to = dir.join(name);
        std::fs::copy(from, &to)?;
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755))?;
        Ok(to)
    };
    Ok(compile::Built {
        game: copy(&built.game, "game")?,
        driver: copy(&built.driver, "driver")?,
    })
}

/// Which submissions belong to this shard: a deterministic slice of the
/// submissions sorted by name.
fn in_shard(index_in_sorted: usize, shard: Option<(usize, usize)>) -> bool {
    shard.is_none_or(|(k, n)| index_in_sorted % n == k - 1)
}

/// Grades `options.submissions`; returns every submission's results found
/// in the output folder afterwards (earlier runs' included).
pub fn grade(game: &GameInfo, options: &Options) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(options.out.clone(), e);
    std::fs::create_dir_all(&options.out).map_err(out_error)?;
    let scratch = options.out.join(".work");
    std::fs::create_dir_all(scratch.join("unpacked")).map_err(out_error)?;
    let cases = cases::cases(game, options.program.is_some());

    // Open, name and order the submissions; keep this shard's unfinished ones.
    let mut opened: Vec<(String, Result<submission::Submission, String>)> = options
        .submissions
        .iter()
        .map(
            |path| match submission::open(path, &scratch.join("unpacked")) {
                Ok(s) => (s.name.clone(), Ok(s)),
                Err(e) => {
                    let raw = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let raw = raw.strip_suffix(".zip").unwrap_or(&raw).to_owned();
                    (submission::safe_name(&raw), Err(e.to_string()))
                }
            },
        )
        .collect();
    opened.sort_by(|a, b| a.0.cmp(&b.0));
    let todo: Vec<(String, Result<submission::Submission, String>)> = opened
        .into_iter()
        .enumerate()
        .filter(|(i, _)| in_shard(*i, options.shard))
        .map(|(_, s)| s)
        .filter(|(name, _)| !options.out.join(name).join("results.json").is_file())
        .collect();

    let progress = indicatif::ProgressBar::new(todo.len() as u64);
    progress.set_style(
        indicatif::ProgressStyle::with_template("{spinner} grading [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let built = match &options.program {
        Some(_) => Default::default(),
        None => {
            progress.set_message("building the class");
            let rust: Vec<(String, PathBuf)> = todo
                .iter()
                .filter_map(|(name, s)| s.as_ref().ok().map(|s| (name.clone(), s.root.clone())))
                .collect();
            let build = options
                .build_dir
                .clone()
                .unwrap_or_else(|| scratch.join("build"));
            compile::build_all(game, &rust, &build, options.compile_timeout)
        }
    };
    // Cases run as `nobody` when the grader is root: the binaries must be
    // reachable whatever the permissions of the output folder's parents.
    let binaries = tempfile::Builder::new()
        .prefix("boardkit-bin-")
        .tempdir()
        .map_err(out_error)?;
    let built: std::collections::HashMap<String, Result<compile::Built, String>> = built
        .into_iter()
        .map(|(name, result)| {
            let result = result.and_then(|b| {
                reachable_copy(&b, &binaries.path().join(&name)).map_err(|e| e.to_string())
            });
            (name, result)
        })
        .collect();
    progress.set_message("running the cases");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .expect("a thread pool");
    pool.install(|| {
        todo.par_iter().for_each(|(name, opened)| {
            let results = match (opened, &options.program) {
                (Err(e), _) => failed_everywhere(&cases, Verdict::CompileError, e),
                (Ok(s), Some(command)) => grade_one(
                    game,
                    &cases,
                    &Runner::Program {
                        command: command.clone(),
                        root: s.root.clone(),
                    },
                    &options.limits,
                ),
                (Ok(_), None) => match built.get(name) {
                    Some(Ok(b)) => {
                        grade_one(game, &cases, &Runner::Rust(b.clone()), &options.limits)
                    }
                    Some(Err(e)) => failed_everywhere(&cases, Verdict::CompileError, e),
                    None => failed_everywhere(&cases, Verdict::CompileError, "not built"),
                },
            };
            // Each finished submission is saved at once: a stopped run keeps it.
            let dir = options.out.join(name);
            let saved = std::fs::create_dir_all(&dir).and_then(|()| {
                let json = serde_json::to_string_pretty(&results).map_err(std::io::Error::other)?;
                let temp = dir.join("results.json.tmp");
                std::fs::write(&temp, json)?;
                std::fs::rename(&temp, dir.join("results.json"))
            });
            if let Err(e) = saved {
                progress.println(format!("boardkit: cannot save the results of {name}: {e}"));
            }
            progress.inc(1);
        });
    });
    progress.finish_and_clear();
    let all = report::read_results(&options.out).map_err(out_error)?;
    report::write_reports(&options.out, &all).map_err(out_error)?;
    Ok(all)
}

/// Joins the outputs of shards into `out`: exactly what one run writes.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(out.to_owned(), e);
    std::fs::create_dir_all(out).map_err(out_error)?;
    for shard in shards {
        for (name, results) in report::read_results(shard).map_err(out_error)? {
            let dir = out.join(&name);
            std::fs::create_dir_all(&dir).map_err(out_error)?;
            let json = serde_json::to_string_pretty(&results)
                .map_err(|e| out_error(std::io::Error::other(e)))?;
            std::fs::write(dir.join("results.json"), json).map_err(out_error)?;
        }
    }
    let all = report::read_results(out).map_err(out_error)?;
    report::write_reports(out, &all).map_err(out_error)?;
    Ok(all)
}

/// Whether every submission reached `level`.
pub fn all_reach(all: &BTreeMap<String, Results>, level: Level) -> bool {
    all.values()
        .all(|r| r.level_reached().is_some_and(|l| l >= level))
}
