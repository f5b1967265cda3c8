//! `boardkit test`: a student's own folder against the public cases, as
//! the grader judges them; what a Python starter's tests run.

use clap::Args;

use super::{Failure, Outcome, usage_error};
use crate::grader::report::TestResult;
use boardkit::level::Level;

#[derive(Args)]
pub(crate) struct TestArgs {
    /// The game.
    #[arg(value_parser = crate::registry::names_parser())]
    game: String,
    /// The student's folder (default: this one).
    #[arg(default_value = ".")]
    dir: std::path::PathBuf,
    /// The language the folder is written in (a Rust starter runs its
    /// cases with `cargo test`; this command runs them for Python).
    #[arg(long, value_enum, default_value_t = super::grade::Language::Rust)]
    language: super::grade::Language,
    /// Run your own tests (a Rust starter's tests/mine.rs; with
    /// --language python, its test_mine.py or test_meus_testes.py) against
    /// the correct versions and the public bugs: which tests are valid, and
    /// which bugs they catch.
    #[arg(long)]
    mine: bool,
    /// Only this level's cases.
    #[arg(long)]
    level: Option<Level>,
    /// The program levels' command (default: the statement's, such as
    /// 'python3 programa.py').
    #[arg(long)]
    program: Option<String>,
    /// Seconds of CPU time a case may use: the grader's limit (a loaded
    /// machine's other work is not counted; the wall clock stops a case
    /// only at five times this, 10 s more at least).
    #[arg(long, default_value_t = boardkit::judge::CASE_CPU.as_secs_f64())]
    timeout: f64,
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
#[error("{0} of the cases run failed")]
struct CasesFailed(usize);

pub(crate) fn run(args: TestArgs) -> Outcome {
    let game = crate::registry::find(&args.game)
        .ok_or_else(|| usage_error(format_args!("unknown game {:?}", args.game)))?;
    if args.mine && args.language == super::grade::Language::Python {
        return own_python_tests(game, &args);
    }
    if args.mine {
        return own_tests(game, &args);
    }
    if args.language == super::grade::Language::Rust {
        return Err(usage_error("a Rust starter runs its cases with `cargo test`").into());
    }
    let python = crate::exercise_data::manifest(game.id)
        .ok()
        .and_then(|m| m.python)
        .ok_or_else(|| {
            usage_error(format_args!(
                "{} has no Python form of its functions yet",
                game.id
            ))
        })?;
    if let Some(level) = args.level {
        if !python.levels.contains_key(&level) {
            return Err(
                usage_error(format_args!("{} has no level {level} in Python", game.id)).into(),
            );
        }
    }
    let local = crate::grader::Local {
        dir: args.dir.clone(),
        program: args.program.unwrap_or_else(|| python.program.clone()),
        level: args.level,
        limits: case_limits(args.timeout),
        python,
    };
    let results = crate::grader::run_public(game, &local).map_err(Failure::failed)?;
    print!("{}", summary(&results, args.level.is_none(), &args.dir));
    // Last, what `python3 -m pytest` needs, when it lacks it.
    if let Some(text) = crate::starter::pytest_check::for_starter(&args.dir) {
        eprint!("\n{text}");
    }
    let failed = results.iter().filter(|r| r.status != "passed").count();
    if failed > 0 {
        return Err(Failure::failed(CasesFailed(failed)));
    }
    Ok(())
}

/// Could not judge the student's own tests.
#[derive(Debug, thiserror::Error)]
enum OwnTestsError {
    #[error("no {0}: your own tests go there")]
    Missing(std::path::PathBuf),
    #[error("cannot prepare the sandbox: {0}")]
    Sandbox(std::io::Error),
    #[error("cannot build the kit's dependencies: {0}")]
    Prepare(#[from] crate::grader::build::PrepareError),
    #[error("cannot build the versions your tests run against: {0}")]
    Versions(crate::grader::build::BuildError),
    #[error("{0}")]
    Python(String),
}

/// What `--mine` says while its first run builds.
const BUILDING: &str = "boardkit: building the versions your tests run against (once, about 30 s; later runs reuse them)";

/// `--mine`: the student's own tests against the correct versions and
/// the public mutants, built in the crate's `target/boardkit-mine` (kept:
/// the next run builds only what changed).
fn own_tests(game: &'static crate::registry::GameInfo, args: &TestArgs) -> Outcome {
    use crate::grader::build::Class;
    let source = args.dir.join(crate::exercise_data::OWN_TESTS_FILE);
    if !source.is_file() {
        return Err(Failure::failed(OwnTestsError::Missing(source)));
    }
    let sandbox = crate::grader::sandbox::Sandbox::own_user()
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let build = std::path::absolute(args.dir.join(boardkit::watch::OWN_TESTS_BUILD))
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let ready = args.dir.join(boardkit::watch::OWN_TESTS_READY);
    let long = std::time::Duration::from_secs(1800);
    let hidden = indicatif::ProgressBar::hidden();
    // Said only when it builds: a run that reuses them takes a second.
    if !ready.is_file() {
        eprintln!("{BUILDING}");
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
    if let Some(text) = crate::starter::pytest_check::for_starter(&args.dir) {
        eprint!("\n{text}");
    }
    Ok(())
}

/// `--mine --language python`: the student's own test file against the
/// Python reference's correct versions and public mutants.
fn own_python_tests(game: &'static crate::registry::GameInfo, args: &TestArgs) -> Outcome {
    let own = crate::exercise_data::manifest(game.id)
        .ok()
        .and_then(|m| m.python)
        .and_then(|p| p.own_tests)
        .ok_or_else(|| usage_error(format_args!("{} has no own tests in Python", game.id)))?;
    let versions = crate::grader::own_tests::python::PythonVersions::of(&own, false)
        .map_err(|e| Failure::failed(OwnTestsError::Python(e)))?;
    let Some(source) = versions.test_file(&args.dir) else {
        let names = versions.file_names.join(" or ");
        return Err(Failure::failed(OwnTestsError::Missing(
            args.dir.join(names),
        )));
    };
    let sandbox = crate::grader::sandbox::Sandbox::own_user()
        .map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let work = tempfile::tempdir().map_err(|e| Failure::failed(OwnTestsError::Sandbox(e)))?;
    let limits = case_limits(args.timeout);
    let verdict = versions.judge(&sandbox, &source, work.path(), &limits, rand::random());
    print!("{}", crate::grader::own_tests::verdict::report(&verdict));
    if let Some(text) = crate::starter::pytest_check::for_starter(&args.dir) {
        eprint!("\n{text}");
    }
    Ok(())
}

/// Each case, then each level's count and the level reached, as a Rust
/// starter's `cargo test` prints them (the level only when every level ran),
/// in the starter's language (`tests/locale.toml` in `dir`).
fn summary(results: &[TestResult], every_level: bool, dir: &std::path::Path) -> String {
    let mut out = String::new();
    let mut levels: std::collections::BTreeMap<Level, (u32, u32)> = Default::default();
    for result in results {
        let passed = result.status == "passed";
        if passed {
            out.push_str(&format!("ok      {}\n", result.name));
        } else {
            out.push_str(&format!("FAILED  {}\n", result.name));
            for line in result.output.lines() {
                out.push_str(&format!("        {line}\n"));
            }
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
    out.push_str(&words.summary(&levels, (0, 0), every_level));
    out
}
