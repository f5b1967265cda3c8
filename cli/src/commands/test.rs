//! `boardkit test`: a student's own folder against the public cases, as
//! the grader judges them; what a Python starter's tests run.

use clap::Args;

use super::{Failure, Outcome, usage_error};
use crate::grader::report::TestResult;
use boardkit::catalogue::{f, t};
use boardkit::level::Level;

#[derive(Args)]
pub(crate) struct TestArgs {
    /// A built-in game (velha, connect4, mastermind). With --exercise
    /// there is none: the one argument is the student's folder
    /// (`boardkit test --exercise PACKAGE [DIR]`).
    game: Option<String>,
    /// The student's folder (default: this one).
    dir: Option<std::path::PathBuf>,
    /// An exercise package's folder (docs/authors.md) instead of a game
    /// of the kit: `boardkit test --exercise PACKAGE [DIR]` runs its
    /// public cases on DIR, a starter written from it.
    #[arg(long, value_name = "PACKAGE")]
    exercise: Option<std::path::PathBuf>,
    /// The language the folder is written in (a game's Rust starter runs
    /// its cases with `cargo test`; this command runs them for Python, and
    /// for a package's starter in either language).
    /// Default: Python for a folder with Python files and no Cargo.toml.
    #[arg(long, value_enum)]
    language: Option<super::grade::Language>,
    /// Run your own tests (a Rust starter's tests/mine.rs; with
    /// --language python, its test_mine.py or test_meus_testes.py) against
    /// the correct versions and the public bugs: which tests are valid, and
    /// which bugs they catch.
    #[arg(long)]
    mine: bool,
    /// Only this level's cases.
    #[arg(long)]
    level: Option<String>,
    /// The program levels' command (default: the statement's, such as
    /// 'python3 programa.py').
    #[arg(long)]
    program: Option<String>,
    /// Seconds of CPU time a case may use: the grader's limit (a loaded
    /// machine's other work is not counted; the wall clock stops a case
    /// only at five times this, 10 s more at least).
    #[arg(long, default_value_t = boardkit::judge::CASE_CPU.as_secs_f64())]
    timeout: f64,
    /// Every case and every failure in full (by default, one screen: the
    /// levels, then the first failing level's first failures, the rest in
    /// .boardkit/failures.txt).
    #[arg(long)]
    verbose: bool,
}

/// A case's limits with `timeout` seconds of CPU time, as the grader sets
/// them.
fn case_limits(timeout: f64) -> crate::grader::sandbox::Limits {
    crate::grader::sandbox::Limits::default().with_cpu(std::time::Duration::from_secs_f64(
        timeout.clamp(1.0, 3600.0),
    ))
}

/// Not every case run passed.
#[derive(Debug, thiserror::Error)]
#[error("{}", f("{count} of the cases run failed", &[("count", .0)]))]
struct CasesFailed(usize);

pub(crate) fn run(mut args: TestArgs) -> Outcome {
    let game = game_of(&mut args)?;
    let dir = args.dir.clone().unwrap_or_else(|| ".".into());
    // What it says, in the starter's language.
    boardkit::catalogue::use_folder(&dir);
    let language = args
        .language
        .unwrap_or_else(|| super::grade::Language::of_folder(&dir));
    // A game whose Python form is a package (velha's exam): its starter's.
    let game = match game {
        Some(game) if language == super::grade::Language::Python => {
            match super::python_package_in(&game, &dir) {
                Some(package) => {
                    args.exercise = Some(package);
                    None
                }
                None => Some(game),
            }
        }
        game => game,
    };
    let Some(game) = game else {
        return package_test(&args, &dir, language);
    };
    let game = crate::registry::find(&game)
        .ok_or_else(|| usage_error(format_args!("unknown game {game:?}")))?;
    if language == super::grade::Language::Python {
        return Err(usage_error(format_args!(
            "{} has no Python form yet: its starter is a Rust crate",
            game.id
        ))
        .into());
    }
    if args.mine {
        return own_tests(game, &args, &dir);
    }
    Err(usage_error("a Rust starter runs its cases with `cargo test`").into())
}

/// The game `args` name (none with `--exercise`), their folder put in
/// `args.dir`.
fn game_of(args: &mut TestArgs) -> Result<Option<String>, Failure> {
    Ok(match (&args.exercise, args.game.take(), args.dir.take()) {
        (Some(_), _, Some(_)) => {
            return Err(usage_error(
                "with --exercise, give only the student's folder: boardkit test --exercise PACKAGE [DIR]",
            )
            .into());
        }
        (Some(_), dir, None) => {
            args.dir = dir.map(Into::into);
            None
        }
        (None, Some(game), dir) => {
            args.dir = dir;
            Some(super::known_game(&game)?)
        }
        (_, None, _) => {
            return Err(usage_error("expected a game: boardkit test GAME [DIR]").into());
        }
    })
}

/// Exit 1 when a case run failed.
fn passed_all(results: &[TestResult]) -> Outcome {
    let failed = results.iter().filter(|r| r.status != "passed").count();
    if failed > 0 {
        return Err(Failure::failed(CasesFailed(failed)));
    }
    Ok(())
}

/// `--exercise PACKAGE`: the package's public cases on `dir`, a starter
/// written from it (Rust or Python), as the student's own user: their own
/// code, on their machine, as `cargo test` runs it.
fn package_test(
    args: &TestArgs,
    dir: &std::path::Path,
    language: super::grade::Language,
) -> Outcome {
    let Some(folder) = &args.exercise else {
        return Ok(());
    };
    if args.program.is_some() {
        return Err(usage_error(
            "an exercise package's folder is tested on its cases: --program is for the kit's games",
        )
        .into());
    }
    let package = super::package::loaded(folder)?;
    if args.mine {
        return package_own_tests(&package, args, dir, language);
    }
    let level = match &args.level {
        None => None,
        Some(name) => Some(
            package
                .levels
                .iter()
                .position(|l| l == name)
                .ok_or_else(|| {
                    usage_error(format_args!(
                        "{} has no level {name:?}: its levels are {}",
                        package.name,
                        package.levels.join(", ")
                    ))
                })?,
        ),
    };
    let sandbox = crate::grader::sandbox::Sandbox::own_user()
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let work = tempfile::tempdir().map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let language = match language {
        super::grade::Language::Rust => crate::package::Language::Rust,
        super::grade::Language::Python => crate::package::Language::Python,
    };
    let results = crate::package::grade::public_results(
        &package,
        language,
        dir,
        level,
        case_limits(args.timeout),
        &sandbox,
        work.path(),
    );
    print!("{}", summary(&results, level.is_none(), dir, args.verbose));
    // Last, what `python3 -m pytest` needs, when it lacks it.
    if language == crate::package::Language::Python {
        if let Some(text) = crate::starter::pytest_check::for_starter(dir) {
            eprint!("\n{text}");
        }
    }
    passed_all(&results)
}

/// Could not judge the student's own tests.
#[derive(Debug, thiserror::Error)]
enum OwnTestsError {
    #[error("{}", f("no {path}: your own tests go there", &[("path", &.0.display())]))]
    Missing(std::path::PathBuf),
    #[error("{}", f("cannot prepare the sandbox: {error}", &[("error", .0)]))]
    Sandbox(std::io::Error),
    #[error("{}", f("cannot build the kit's dependencies: {error}", &[("error", .0)]))]
    Prepare(#[from] crate::grader::build::PrepareError),
    #[error("{}", f("cannot build the versions your tests run against: {error}", &[("error", .0)]))]
    Versions(crate::grader::build::BuildError),
    #[error("{0}")]
    Package(String),
}

/// `--mine`: the student's own tests against the correct versions and
/// the public mutants, built in the crate's `target/boardkit-mine` (kept:
/// the next run builds only what changed).
fn own_tests(
    game: &'static crate::registry::GameInfo,
    args: &TestArgs,
    dir: &std::path::Path,
) -> Outcome {
    use crate::grader::build::Class;
    let source = dir.join(crate::exercise_data::OWN_TESTS_FILE);
    if !source.is_file() {
        return Err(Failure::failed(OwnTestsError::Missing(source)));
    }
    let sandbox = crate::grader::sandbox::Sandbox::own_user()
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let build = std::path::absolute(dir.join(boardkit::watch::OWN_TESTS_BUILD))
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let ready = dir.join(boardkit::watch::OWN_TESTS_READY);
    let long = std::time::Duration::from_secs(1800);
    let hidden = indicatif::ProgressBar::hidden();
    // Said only when it builds: a run that reuses them takes a second.
    if !ready.is_file() {
        eprintln!(
            "{}",
            t(
                "boardkit: building the versions your tests run against (once, about 30 s; later runs reuse them)"
            )
        );
    }
    // The kit's dependencies where grading runs share them, if set.
    let dependencies = crate::grader::shared_build_dir().unwrap_or_else(|| build.clone());
    let class = Class::prepare(
        game,
        &dependencies,
        &build.join("work"),
        &sandbox,
        long,
        &hidden,
    )
    .map_err(|e| Failure::failed(OwnTestsError::Prepare(e)))?;
    let libraries =
        crate::grader::own_tests::rust::Libraries::build(&class, &sandbox, game, false, true, long)
            .map_err(|e| Failure::failed(OwnTestsError::Versions(e)))?;
    // `cargo test` in the starter runs this command on every run once
    // the versions are built (`boardkit::watch::own_tests_line`); a file
    // it cannot write only leaves that to the student's asking.
    let _ = std::fs::write(&ready, "built by `boardkit test --mine`\n");
    let budget = crate::grader::own_tests::rust::Budget {
        limits: case_limits(args.timeout),
        compile_timeout: long,
        seed: rand::random(),
    };
    let work = build.join("work/own-tests");
    let verdict = libraries.judge(&class, &sandbox, &source, &work, &budget);
    print!("{}", crate::grader::own_tests::verdict::report(&verdict));
    if let Some(text) = crate::starter::pytest_check::for_starter(dir) {
        eprint!("\n{text}");
    }
    Ok(())
}

/// `--exercise PACKAGE --mine`: a starter's own tests (`test_mine.py`,
/// `tests/mine.rs`) against the package's reference of its language and
/// its public wrong submissions.
fn package_own_tests(
    package: &crate::package::Package,
    args: &TestArgs,
    dir: &std::path::Path,
    language: super::grade::Language,
) -> Outcome {
    let language = match language {
        super::grade::Language::Rust => crate::package::Language::Rust,
        super::grade::Language::Python => crate::package::Language::Python,
    };
    let sandbox = crate::grader::sandbox::Sandbox::own_user()
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let work = tempfile::tempdir().map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let versions =
        crate::package::grade::OwnVersions::of(package, language, false, &sandbox, work.path())
            .map_err(|e| Failure::failed(OwnTestsError::Package(e)))?;
    let Some(source) = versions.test_file(dir) else {
        return Err(Failure::failed(OwnTestsError::Missing(
            dir.join(versions.file_name()),
        )));
    };
    let limits = case_limits(args.timeout);
    let verdict = versions.judge(&sandbox, &source, work.path(), &limits, rand::random());
    print!("{}", crate::grader::own_tests::verdict::report(&verdict));
    Ok(())
}

/// Where `boardkit test` keeps every failure in full, in a Python starter.
const FAILURES_FILE: &str = ".boardkit/failures.txt";

/// How many failures a run shows: the first failing level's first ones.
const FAILURES_SHOWN: usize = 3;

/// One screen, as a Rust starter's `cargo test` prints it: each level's
/// count and the level reached (the level only when every level ran), then
/// the first failing level's first failures (`FAILED  name` and its
/// indented lines, which watch mode reads) and the file that holds them
/// all; with `verbose`, every case. In the starter's language
/// (`tests/locale.toml` in `dir`).
fn summary(
    results: &[TestResult],
    every_level: bool,
    dir: &std::path::Path,
    verbose: bool,
) -> String {
    let mut levels: std::collections::BTreeMap<Level, (u32, u32)> = Default::default();
    let mut failed: Vec<&TestResult> = Vec::new();
    let mut all = String::new();
    for result in results {
        let passed = result.status == "passed";
        if passed {
            all.push_str(&format!("ok      {}\n", result.name));
        } else {
            all.push_str(&case_failure(result));
            failed.push(result);
        }
        // The robustness part is in no level (a Python exam has none).
        if result.extra_data.robustness {
            continue;
        }
        let level = result.extra_data.level;
        let entry = levels.entry(level).or_default();
        entry.0 += 1;
        entry.1 += u32::from(passed);
    }
    let words = boardkit::level::Words::load(dir);
    let mut out = words.summary(&levels, (0, 0), every_level);
    if verbose {
        return format!("{all}{out}");
    }
    let kept = std::fs::create_dir_all(dir.join(".boardkit"))
        .and_then(|()| std::fs::write(dir.join(FAILURES_FILE), &all))
        .is_ok();
    let first = failed.iter().map(|r| r.extra_data.level).min();
    let shown: Vec<&&TestResult> = failed
        .iter()
        .filter(|r| Some(r.extra_data.level) == first)
        .take(FAILURES_SHOWN)
        .collect();
    for result in &shown {
        out.push_str(&case_failure(result));
    }
    if shown.len() < failed.len() {
        let file = if kept { FAILURES_FILE } else { "--verbose" };
        out.push_str(&f(
            "{shown} of {count} failures shown; all of them in {file} (`--verbose` prints them all)",
            &[("shown", &shown.len()), ("count", &failed.len()), ("file", &file)],
        ));
        out.push('\n');
    }
    out
}

/// A failed case as `boardkit test` prints it: `FAILED  name`, then its
/// message indented.
fn case_failure(result: &TestResult) -> String {
    let mut out = format!("FAILED  {}\n", result.name);
    for line in result.output.lines() {
        out.push_str(&format!("        {line}\n"));
    }
    out
}
