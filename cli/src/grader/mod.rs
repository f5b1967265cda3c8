//! `boardkit grade`: grading a class, as its steps (SPEC 8), one module
//! each:
//!
//! 1. [`plan`]: what the run grades: its cases, the submissions given
//!    ([`submission`] opens each: a folder, or a zip unpacked with care),
//!    those whose results are current left out.
//! 2. [`build`]: the kit's dependencies once for the class, then each Rust
//!    submission's crate from a pristine starter plus only the student's
//!    folder; with `--program`, the submission is any folder in which a
//!    command runs instead.
//! 3. [`run`]: each case in the [`sandbox`].
//! 4. [`judge`]: each run against its case's expected result, by the
//!    library's one judge.
//! 5. [`report`]: `results.json` per submission, saved as each finishes (a
//!    stopped run continues where it was), then the class's reports.
//!
//! With `--test-points`, [`own_tests`] grades each student's own tests by
//! the mutants they catch. [`merge`] joins the shards of one run, or takes
//! submissions out.

pub(crate) mod build;
pub(crate) mod deadline;
pub(crate) mod download;
pub(crate) mod feedback;
pub(crate) mod git;
pub(crate) mod judge;
pub(crate) mod lms;
pub(crate) mod markdown;
pub(crate) mod merge;
pub(crate) mod notes;
pub(crate) mod own_tests;
pub(crate) mod plan;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod sandbox;
pub(crate) mod shard;
pub(crate) mod shown;
pub(crate) mod similarity;
pub(crate) mod submission;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use rayon::prelude::*;

pub(crate) use self::merge::{merge, remove};

use self::build::{BuildError, Class};
use self::plan::{Plan, Planned};
use self::report::{Results, Verdict};
use self::run::Runner;
use self::sandbox::{Isolation, Limits, Sandbox};
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
    /// `--style-points`: the most points the notes on a crate's code give.
    pub style_points: Option<u32>,
    /// `--test-points`: the most points a student's own tests earn, by the
    /// mutants they catch (`crate::mine`).
    pub test_points: Option<u32>,
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
    /// `--reveal-hidden`: what each student's feedback says of hidden cases.
    pub reveal_hidden: feedback::RevealHidden,
    /// `--deadline` and its policy.
    pub deadlines: Option<deadline::Deadlines>,
    /// `--similarity-common`, `--similarity-corpus`, `--similarity-top`.
    pub similarity: similarity::Options,
    /// `--from LMS ARCHIVE`, as the header says it (`moodle: dl.zip`): the
    /// run grades one download, the whole of one assignment.
    pub download: Option<String>,
}

/// Why grading could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GradeError {
    #[error("cannot write the reports in {0}: {1}")]
    Out(PathBuf, std::io::Error),
    #[error("cannot prepare the sandbox: {0}")]
    Sandbox(std::io::Error),
    #[error("cannot build the kit's dependencies for the class: {0}")]
    Class(#[from] build::PrepareError),
    #[error("{0}")]
    NoSubmission(String),
    /// `--test-points`: the versions students' tests run against did not build.
    #[error("cannot build the versions students' tests run against: {0}")]
    OwnTests(String),
    /// `grade merge` given folders that are not shards of one run.
    #[error("nothing merged: {0}")]
    NotShards(String),
    /// `--out` holds another game's or another mode's results.
    #[error("{0}")]
    OtherRun(String),
}

/// The most bytes of output a submission's reports keep, all cases together.
const SUBMISSION_KEPT: usize = 256 << 10;

/// The build folder that grading runs share when none is given
/// (`BOARDKIT_BUILD_DIR`: CI's long tests and dev check share one).
pub(crate) fn shared_build_dir() -> Option<PathBuf> {
    std::env::var_os("BOARDKIT_BUILD_DIR").map(PathBuf::from)
}

/// Whether every submission reached `level`.
pub(crate) fn all_reach(all: &BTreeMap<String, Results>, level: Level) -> bool {
    all.values()
        .all(|r| r.level_reached().is_some_and(|l| l >= level))
}

/// Grades `options.submissions`; returns every submission's results found
/// in the output folder afterwards (earlier runs' included).
pub(crate) fn grade(
    game: &GameInfo,
    options: &Options,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let plan = plan::plan(game, options)?;
    let graded = grade_planned(game, options, &plan);
    plan::empty_work(&plan.scratch, options.build_dir.as_deref());
    graded
}

/// Grades what `plan` holds, then writes the class's reports.
fn grade_planned(
    game: &GameInfo,
    options: &Options,
    plan: &Plan,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let sandbox = Sandbox::new(options.isolation.clone(), options.jobs.max(1))
        .map_err(GradeError::Sandbox)?;
    if let Some(why) = sandbox.pods_refused() {
        eprintln!(
            "boardkit: warning: each case gets a sandbox of its own, slower than one per submission: {why}"
        );
    }
    // Rust submissions that opened need the class's build; none, none.
    let to_build = options.program.is_none() && plan.todo.iter().any(|p| p.opened.is_ok());
    let class = match to_build {
        true => Some(build::prepare_class(
            game,
            options,
            &sandbox,
            &plan.scratch,
        )?),
        false => None,
    };
    let own_tests = match (&class, options.test_points) {
        (Some(class), Some(_)) => Some(
            crate::grader::own_tests::rust::Libraries::build(
                class,
                &sandbox,
                game,
                true,
                true,
                options.compile_timeout,
            )
            .map_err(|e| GradeError::OwnTests(e.to_string()))?,
        ),
        _ => None,
    };
    let prepared = Prepared {
        class: class.as_ref(),
        own_tests: own_tests.as_ref(),
    };
    let progress = Progress::new(plan.todo.len(), plan.cases.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .expect("a thread pool");
    pool.install(|| {
        plan.todo.par_iter().for_each(|planned| {
            let results =
                grade_submission(game, options, plan, planned, &sandbox, &prepared, &progress);
            progress.graded(&planned.name, &results);
        });
    });
    progress.bar.finish_and_clear();
    class_reports(game, options, plan)
}

/// What the class's build made ready: the kit's dependencies for Rust
/// submissions, and with `--test-points` what their tests run against.
struct Prepared<'a> {
    class: Option<&'a Class<'a>>,
    own_tests: Option<&'a crate::grader::own_tests::rust::Libraries>,
}

/// One submission through its steps: built (a crate), run and judged, its
/// code noted, its own tests judged, its results saved at once (a stopped
/// run keeps them).
fn grade_submission(
    game: &GameInfo,
    options: &Options,
    plan: &Plan,
    planned: &Planned,
    sandbox: &Sandbox,
    prepared: &Prepared<'_>,
    progress: &Progress,
) -> Results {
    let class = prepared.class;
    let cases = &plan.cases;
    let not_run = |message: &str| {
        // Cases a submission never ran count as done.
        progress.bar.inc(cases.len() as u64);
        judge::failed_everywhere(cases, Verdict::CompileError, message)
    };
    // The build's warnings on the student's folder, if it built.
    let mut lints = Vec::new();
    let runner = match (&planned.opened, &options.program, class) {
        (Err(e), _, _) => Err(not_run(&e.said())),
        (Ok(s), Some(command), _) => Ok(Runner::Program {
            command: command.clone(),
            root: s.root.clone(),
        }),
        (Ok(s), None, Some(class)) => {
            match class.build(sandbox, &planned.name, &s.root, options.compile_timeout) {
                Ok(mut built) => {
                    lints = std::mem::take(&mut built.lints);
                    Ok(Runner::Rust(built))
                }
                Err(BuildError::Failed(e)) => Err(not_run(&e)),
                Err(BuildError::TimedOut(e)) => Err(Results {
                    incomplete: true,
                    ..not_run(&e)
                }),
            }
        }
        (Ok(_), None, None) => unreachable!("a class is prepared for Rust submissions"),
    };
    let results = match runner {
        Ok(runner) => {
            let limits = &options.limits;
            run::run_cases(game, cases, &runner, sandbox, limits, &progress.bar)
        }
        Err(never_run) => never_run,
    };
    let mut results = Results {
        unsandboxed: options.isolation == Isolation::None,
        fingerprint: planned.fingerprint.clone(),
        unread: planned
            .opened
            .as_ref()
            .err()
            .map(submission::SubmissionError::said),
        ..results
    };
    say_unread(planned, progress);
    // Notes on a crate's code: its student folder, read here.
    if let (Ok(s), None) = (&planned.opened, &options.program) {
        let solution = &plan.solution;
        let (mut notes, _) =
            notes::rust_notes(&s.root.join(solution), solution, plan.long_function);
        notes.append(&mut lints);
        notes::sort(&mut notes);
        results.note(notes, options.style_points, options.notes_held);
    }
    if let Ok(submission::Submission {
        commit: Some(commit),
        ..
    }) = &planned.opened
    {
        results.late(&planned.name, commit, options.deadlines.as_ref());
    }
    judge_own_tests(options, plan, planned, sandbox, prepared, &mut results);
    results.bound_outputs(SUBMISSION_KEPT);
    if let Err(e) = report::save_results(&options.out, &planned.name, &results) {
        progress.say(format!(
            "boardkit: cannot save the results of {}: {e}",
            planned.name
        ));
    }
    results
}

/// With `--test-points`: the student's own tests, judged by the mutants
/// they catch.
fn judge_own_tests(
    options: &Options,
    plan: &Plan,
    planned: &Planned,
    sandbox: &Sandbox,
    prepared: &Prepared<'_>,
    results: &mut Results,
) {
    let (Some(points), Ok(opened)) = (options.test_points, &planned.opened) else {
        return;
    };
    let work = plan.scratch.join("own-tests").join(&planned.name);
    let (Some(class), Some(libraries)) = (prepared.class, prepared.own_tests) else {
        return;
    };
    let source = opened.root.join(crate::exercise_data::OWN_TESTS_FILE);
    let verdict = if source.is_file() {
        let budget = crate::grader::own_tests::rust::Budget {
            limits: options.limits,
            compile_timeout: options.compile_timeout,
            seed: rand::random(),
        };
        libraries.judge(class, sandbox, &source, &work, &budget)
    } else {
        let file = crate::exercise_data::OWN_TESTS_FILE;
        crate::grader::own_tests::verdict::Verdict::missing(file, &libraries.versions)
    };
    results.own_tests(verdict, points);
}

/// The grading's progress: a bar on a terminal, a plain line per step
/// elsewhere (CI logs).
struct Progress {
    bar: indicatif::ProgressBar,
    plain: bool,
    submissions: usize,
    done: std::sync::atomic::AtomicUsize,
}

impl Progress {
    fn new(submissions: usize, cases: usize) -> Progress {
        let bar = indicatif::ProgressBar::new((submissions * cases) as u64).with_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} grading [{bar:30}] {pos}/{len} cases, {msg}, {elapsed}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar.set_message(format!("0/{submissions} submissions done"));
        Progress {
            bar,
            plain: !std::io::IsTerminal::is_terminal(&std::io::stderr()),
            submissions,
            done: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn say(&self, line: String) {
        if self.plain {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// One more submission graded.
    fn graded(&self, name: &str, results: &Results) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let all = self.submissions;
        self.bar
            .set_message(format!("{done}/{all} submissions done"));
        self.say(format!(
            "graded {name}: {}/{} points, level {} ({done}/{all})",
            results.score,
            results.max_score(),
            results.level_name()
        ));
    }
}

/// Each file the exercise expects that `root` lacks, said with those that
/// look like it (`Programa.py`): a case it fails fails for that, not for
/// its first line.
fn missing_files(root: &std::path::Path, expected: &[String]) -> Vec<String> {
    let present: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    let mut said = Vec::new();
    for file in expected.iter().filter(|file| !root.join(file).is_file()) {
        let stem = file.split('.').next().unwrap_or(file).to_lowercase();
        let alike: Vec<&str> = present
            .iter()
            .filter(|p| p.to_lowercase().starts_with(&stem))
            .map(String::as_str)
            .collect();
        said.push(if alike.is_empty() {
            format!("no {file} in the submission")
        } else {
            format!(
                "no {file} in the submission ({} is there: a file's name must be exactly {file})",
                alike.join(", ")
            )
        });
    }
    said
}

/// What to say of each file of `expected` a submission in `root` lacks,
/// each also put atop its failed cases; one whose files may be in an
/// archive it holds is unread (its 0 grades no code).
pub(crate) fn missing_in(
    root: &std::path::Path,
    expected: &[String],
    results: &mut Results,
) -> Vec<String> {
    let mut missing = missing_files(root, expected);
    for said in &missing {
        for test in results.tests.iter_mut().filter(|t| t.status != "passed") {
            test.output = format!("{said}\n{}", test.output);
        }
    }
    // The files may be in an archive handed in beside others, or not
    // a .zip: its 0 would grade no code.
    let archives = archives_in(root);
    if !missing.is_empty() && !archives.is_empty() {
        let why = format!(
            "the expected files may be in {}, an archive the grader does not unpack (only a .zip handed in alone is): unpack it and grade its folder",
            archives.join(", ")
        );
        missing.push(format!("{why}; left out of the LMS files"));
        results.unread = Some(why);
    }
    missing
}

/// The archives at the top of a submission's folder, by their names.
fn archives_in(root: &std::path::Path) -> Vec<String> {
    const ARCHIVES: [&str; 8] = [
        ".zip", ".tar", ".tar.gz", ".tgz", ".rar", ".7z", ".gz", ".xz",
    ];
    let mut found: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            let lower = name.to_lowercase();
            ARCHIVES.iter().any(|ext| lower.ends_with(ext))
        })
        .collect();
    found.sort();
    found
}

/// Warns of a submission that could not be read (a repository not
/// cloned is said as the plan opens it).
fn say_unread(planned: &Planned, progress: &Progress) {
    if let Err(e) = &planned.opened {
        if !matches!(e, submission::SubmissionError::Git(_)) {
            let said = format!(
                "{}: scored 0, its submission unread ({e}): left out of the LMS files",
                planned.name
            );
            progress.say(format!("boardkit: warning: {}", shown::printable(&said)));
        }
    }
}

/// The last step for the class: every submission's results in the output
/// folder (earlier runs' too, said), its similarity, and the class reports.
fn class_reports(
    game: &GameInfo,
    options: &Options,
    plan: &Plan,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(options.out.clone(), e);
    let all = report::read_results(&options.out).map_err(out_error)?;
    let crates = options.program.is_none();
    let similar = similarity::of_class(
        game.id,
        crates,
        all.keys(),
        &[&options.out],
        &options.similarity,
    );
    let run = plan::run_info(
        game,
        options,
        plan.every_name.clone(),
        &plan.kit,
        &plan.cases,
    );
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
    // What an earlier run wrote for the class goes: this run writes its own
    // (the LMS's files and unmapped.txt by `boardkit grade`, after this).
    report::forget_class_files(&options.out).map_err(out_error)?;
    report::write_reports(&options.out, &all, Some(&run), Some(&similar)).map_err(out_error)?;
    feedback::write_pages(&options.out, &all, Some(&run)).map_err(out_error)?;
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A misnamed main file is said, with the file that looks like it.
    #[test]
    fn a_missing_expected_file_is_said_with_its_look_alikes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("funcoes.py"), "").unwrap();
        std::fs::write(dir.path().join("Programa.py"), "").unwrap();
        let expected = [
            "funcoes.py".to_owned(),
            "programa.py".to_owned(),
            "extra.py".to_owned(),
        ];
        assert_eq!(
            missing_files(dir.path(), &expected),
            [
                "no programa.py in the submission (Programa.py is there: a file's name must be exactly programa.py)",
                "no extra.py in the submission",
            ]
        );
    }
}
