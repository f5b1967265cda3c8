//! `boardkit dev check`: proves that every game's tests discriminate, as
//! rustlings' `dev check` and Exercism's CI do. For each game of the registry:
//!
//! 1. the starter compiles without a warning, and its stubs fail every level;
//! 2. the example (the reference's folder) in place of the stubs passes every
//!    level;
//! 3. each seeded mutation of the example (`exercises/<game>/mutations.toml`)
//!    is caught by its level, and each harmless change (a prompt's wording)
//!    keeps every level;
//! 4. each independent solution (`exercises/<game>/solutions/`) reaches its
//!    level locally;
//! 5. `boardkit grade` gives the stubs no level, the example and every Rust
//!    solution their level, and every program in another language its level
//!    through `--program`;
//! 6. students' own tests are graded fairly ([`crate::grader::own_tests::proof`]): a
//!    careful suite catches every mutant, public and hidden, an empty one
//!    and one that asserts nothing catch none, the statement's plainest
//!    example catches one; and each mutant, public and hidden, differs
//!    from the reference on input the statement promises (the public
//!    cases catch it).
//!
//! Each check runs the starter's own `cargo test`, exactly as a student or
//! the starter's CI would.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::exercise_data::{self, ExerciseError, Manifest};
use crate::grader::report::Results;
use crate::registry::GameInfo;
use boardkit::level::Level;

/// Why the check could not run (a failed check is not an error: it is
/// counted and reported).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    #[error(transparent)]
    Kit(#[from] ExerciseError),
    #[error(transparent)]
    Starter(#[from] crate::starter::StarterError),
    #[error("cannot use {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot run cargo: {0}")]
    Cargo(std::io::Error),
    #[error(transparent)]
    Grade(#[from] crate::grader::GradeError),
    #[error("{0}")]
    Package(String),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CheckError + '_ {
    move |source| CheckError::Io {
        path: path.to_owned(),
        source,
    }
}

/// What a `cargo test` run of a starter said, level by level.
#[derive(Debug, Default)]
struct Levels {
    /// Level -> (passed, run), from the tests' summary lines.
    counts: BTreeMap<Level, (u32, u32)>,
    /// The robustness part's (passed, run), from its summary line.
    robustness: Option<(u32, u32)>,
    /// The run's last lines, for a failure report.
    tail: String,
    /// All it printed.
    text: String,
}

impl Levels {
    /// Whether every test of `level` ran and passed.
    fn passes(&self, level: Level) -> bool {
        self.counts
            .get(&level)
            .is_some_and(|&(passed, run)| run > 0 && passed == run)
    }

    /// Whether every robustness test ran and passed.
    fn robust(&self) -> bool {
        self.robustness
            .is_some_and(|(passed, run)| run > 0 && passed == run)
    }

    fn robustness_summary(&self) -> String {
        match self.robustness {
            Some((passed, run)) => format!("robustness {passed}/{run}"),
            None => format!("robustness: no summary ({})", self.tail.trim()),
        }
    }

    fn summary(&self, level: Level) -> String {
        match self.counts.get(&level) {
            Some((passed, run)) => format!("{level} {passed}/{run}"),
            None => format!("{level}: no summary ({})", self.tail.trim()),
        }
    }
}

/// One starter being checked: its folder and the cargo it runs.
struct Starter<'a> {
    game: &'a GameInfo,
    manifest: Manifest,
    dir: PathBuf,
    target: PathBuf,
}

impl<'a> Starter<'a> {
    /// A new starter of `game` in `dir` (whatever was there removed),
    /// building into `target`.
    fn fresh(game: &'a GameInfo, dir: PathBuf, target: PathBuf) -> Result<Self, CheckError> {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(io_error(&dir))?;
        }
        crate::starter::write_starter(game.id, &dir, None)?;
        Ok(Starter {
            game,
            manifest: exercise_data::manifest(game.id)?,
            dir,
            target,
        })
    }

    /// Runs cargo in the starter, clippy compiling the starter's own
    /// package (its `[lints]`: the kit's lint set), as the grader compiles
    /// one: the same compiler for every run, so the first test run reuses
    /// the first build (clippy's lints change no binary).
    fn cargo(&self, args: &[&str]) -> Result<(bool, String), CheckError> {
        let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        // The kit's CI compiles the kit itself through clippy with `-D
        // warnings` (`.ci/run`): a starter's build takes none of that.
        command
            .env("RUSTC_WORKSPACE_WRAPPER", "clippy-driver")
            .env_remove("CLIPPY_ARGS");
        let output = command
            .args(args)
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_TERM_COLOR", "never")
            // As many students' shells have it: the tests must not care.
            .env("RUST_BACKTRACE", "1")
            .env_remove("RUSTFLAGS")
            .output()
            .map_err(CheckError::Cargo)?;
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        Ok((output.status.success(), text))
    }

    /// `cargo test --test <game> [filter]`, read level by level.
    fn test(&self, filter: Option<Level>) -> Result<Levels, CheckError> {
        let name = filter.map(Level::name).unwrap_or_default();
        let mut args = vec!["test", "--quiet", "--test", self.game.id];
        if !name.is_empty() {
            args.push(name);
        }
        // Every failure, not one screen's: the checks read them all.
        args.extend(["--", "--nocapture"]);
        let (_, text) = self.cargo(&args)?;
        let mut levels = Levels::default();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let (Some(level), Some(count)) = (words.next(), words.next()) else {
                continue;
            };
            let Some((passed, run)) = count.split_once('/') else {
                continue;
            };
            let (Ok(passed), Ok(run)) = (passed.parse(), run.parse()) else {
                continue;
            };
            if level == boardkit::session_fixture::ROBUSTNESS {
                levels.robustness = Some((passed, run));
            } else if let Ok(level) = level.parse::<Level>() {
                levels.counts.insert(level, (passed, run));
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        levels.tail = lines[lines.len().saturating_sub(6)..].join("\n");
        levels.text = text;
        Ok(levels)
    }

    /// The names of the starter's tests (`cargo test --test <game> -- --list`).
    fn listed(&self) -> Result<std::collections::BTreeSet<String>, CheckError> {
        let (_, text) = self.cargo(&["test", "--quiet", "--test", self.game.id, "--", "--list"])?;
        Ok(text
            .lines()
            .filter_map(|line| line.strip_suffix(": test"))
            .map(str::to_owned)
            .collect())
    }

    fn folder(&self) -> PathBuf {
        self.dir.join(&self.manifest.files.solution)
    }

    /// Replaces the student's folder with `files` (path below it, contents).
    fn set_folder<'f>(
        &self,
        files: impl IntoIterator<Item = (&'f str, &'f [u8])>,
    ) -> Result<(), CheckError> {
        let folder = self.folder();
        if folder.exists() {
            std::fs::remove_dir_all(&folder).map_err(io_error(&folder))?;
        }
        write_below(&folder, files)
    }

    fn example(&self) -> Vec<(&'static str, &'static [u8])> {
        exercise_data::folder(&self.manifest.files.example)
    }
}

/// Counts and prints the checks.
#[derive(Default)]
struct Tally {
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, ok: bool, what: impl std::fmt::Display) {
        if ok {
            println!("   ok: {what}");
        } else {
            println!("   FAILED: {what}");
            self.failures.push(what.to_string());
        }
    }
}

/// Runs every check for the games named (all of them when `games` is
/// empty), in `work` (a new temporary folder when `None`); with
/// `own_tests_only`, step 6 alone. Returns the failed checks.
pub(crate) fn run(
    games: &[String],
    work: Option<&Path>,
    own_tests_only: bool,
) -> Result<Vec<String>, CheckError> {
    let temporary;
    let work = match work {
        Some(dir) => dir.to_owned(),
        None => {
            temporary = tempfile::Builder::new()
                .prefix("boardkit-check-")
                .tempdir()
                .map_err(io_error(Path::new("a temporary folder")))?;
            temporary.path().to_owned()
        }
    };
    let mut tally = Tally::default();
    for game in crate::registry::GAMES {
        if !games.is_empty() && !games.iter().any(|g| g == game.id) {
            continue;
        }
        if own_tests_only {
            println!("== {}: students' own tests", game.id);
            check_own_tests(game, &work, &mut tally);
        } else {
            check_game(game, &work, &mut tally)?;
        }
    }
    Ok(tally.failures)
}

/// One game's check: the module's five steps, in order.
fn check_game(game: &GameInfo, work: &Path, tally: &mut Tally) -> Result<(), CheckError> {
    let levels: Vec<Level> = game.levels.iter().map(|l| l.level).collect();
    // One target folder for every starter: dependencies build once.
    let starter = Starter::fresh(
        game,
        work.join(game.id).join("starter"),
        work.join("target"),
    )?;
    println!("== {}: the starter, as a student gets it", game.id);
    check_the_starter(&starter, &levels, tally)?;
    let mutations = exercise_data::mutations(game.id)?;
    let solutions = exercise_data::solutions(game.id)?;
    let plan = LocalPlan::new(&starter, &mutations, &solutions);
    let mut results = run_locally(&starter, work, plan.runs.clone())?.into_iter();
    check_the_example(game, &levels, results.next().unwrap_or_default(), tally);
    println!("== {}: seeded mutations and harmless changes", game.id);
    let mutants = check_mutations(game, &mutations, &plan, &mut results, tally);
    check_harmless_changes(game, &levels, &mutations, &plan, &mut results, tally);
    println!("== {}: independent solutions, locally", game.id);
    check_solutions_locally(game, &levels, &plan, &mut results, tally);
    println!("== {}: the same class in boardkit grade", game.id);
    check_the_class_graded(&starter, work, &solutions, &mutants, tally)?;
    println!(
        "== {}: students' own tests, graded by the mutants they catch",
        game.id
    );
    check_own_tests(game, work, tally);
    println!("== {}: its packages, verified", game.id);
    check_packages(game, work, tally)?;
    Ok(())
}

/// `boardkit verify` over each of the game's packages the kit embeds
/// (`exercises/<game>/<folder>/exercise.toml`), written out whole: a
/// variant finds its base beside it.
fn check_packages(game: &GameInfo, work: &Path, tally: &mut Tally) -> Result<(), CheckError> {
    let prefix = format!("exercises/{}/", game.id);
    let out = work.join("packages");
    let mut roots = Vec::new();
    for (path, bytes) in crate::embedded::under(&prefix) {
        let target = out.join(path);
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder).map_err(io_error(folder))?;
        }
        std::fs::write(&target, bytes).map_err(io_error(&target))?;
        let rest = &path[prefix.len()..];
        if rest.matches('/').count() == 1 && rest.ends_with("/exercise.toml") {
            roots.push(target.parent().map(Path::to_owned).unwrap_or_default());
        }
    }
    let sandbox = crate::package::run::sandbox(false).map_err(CheckError::Package)?;
    for root in roots {
        let shown = root
            .strip_prefix(&out)
            .unwrap_or(&root)
            .display()
            .to_string();
        let package = match crate::package::load::load(&root) {
            Ok(package) => package,
            Err(e) => {
                tally.check(false, format!("{shown} loads: {e}"));
                continue;
            }
        };
        let scratch = work.join("package-scratch");
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).map_err(io_error(&scratch))?;
        for check in crate::package::verify::verify(&package, &sandbox, &scratch) {
            let problems = check.problems.join("; ");
            tally.check(
                check.problems.is_empty(),
                format!("{shown}: {} {problems}", check.what),
            );
        }
    }
    Ok(())
}

/// Step 6: own tests ([`crate::grader::own_tests::proof`]): a careful suite catches every
/// mutant, public and hidden; an empty one and one that asserts nothing
/// catch none; the starter's example is valid. (A package's own tests,
/// Python's too, are `verify`'s.)
fn check_own_tests(game: &GameInfo, work: &Path, tally: &mut Tally) {
    let started = std::time::Instant::now();
    let build = crate::grader::shared_build_dir().unwrap_or_else(|| work.join("grade-build"));
    let proofs = [crate::grader::own_tests::proof::rust(game, work, &build)];
    for proof in proofs {
        match proof {
            Ok(checks) => {
                for (ok, what) in checks {
                    tally.check(ok, what);
                }
            }
            Err(e) => tally.check(false, format!("{}: own tests: {e}", game.id)),
        }
    }
    println!("   (own tests: {:.0} s)", started.elapsed().as_secs_f64());
}

/// Step 1: the starter compiles clean under the kit's lint set, runs the
/// grader's public cases name for name, and its stubs fail every level.
fn check_the_starter(
    starter: &Starter<'_>,
    levels: &[Level],
    tally: &mut Tally,
) -> Result<(), CheckError> {
    let game = starter.game;
    // Compiled by clippy, as the grader compiles a submission: the stubs
    // and the kit's files are clean under the kit's lint set.
    let (built, text) =
        starter.cargo(&["build", "--tests", "--locked", "--message-format=short"])?;
    let own_warnings: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("src/") || l.starts_with("tests/"))
        .collect();
    tally.check(
        built && own_warnings.is_empty(),
        format!(
            "{}: the starter compiles without a warning {}",
            game.id,
            own_warnings.join("; ")
        ),
    );
    // One list of public cases: the starter's tests are the grader's cases
    // that are not hidden, name for name.
    let listed = starter.listed()?;
    let graded: std::collections::BTreeSet<String> =
        crate::graded_cases::cases(game, crate::graded_cases::Grading::Crates)
            .into_iter()
            .filter(|case| !case.hidden)
            .map(|case| case.name)
            .collect();
    let only_local: Vec<&String> = listed.difference(&graded).collect();
    let only_graded: Vec<&String> = graded.difference(&listed).collect();
    tally.check(
        only_local.is_empty() && only_graded.is_empty() && !listed.is_empty(),
        format!(
            "{}: the starter runs the grader's {} public cases, no more, no fewer \
             (only in the starter: {only_local:?}; only in the grader: {only_graded:?})",
            game.id,
            graded.len()
        ),
    );
    let stubs = starter.test(None)?;
    for &level in levels {
        tally.check(
            !stubs.passes(level),
            format!("{}: the stubs fail {}", game.id, stubs.summary(level)),
        );
    }
    tally.check(
        !stubs.robust(),
        format!("{}: the stubs fail {}", game.id, stubs.robustness_summary()),
    );
    // What a student reads first: each failure names the call and where the
    // stub stopped, and no backtrace buries it (RUST_BACKTRACE is set).
    let panic_at = format!("panicked at src/{}/", game.id);
    tally.check(
        stubs.text.contains(&panic_at)
            && stubs.text.contains("not yet implemented")
            && stubs.text.contains("\ncall: ")
            && stubs.text.contains("\nplay it: printf '")
            && !stubs.text.contains("stack backtrace:"),
        format!(
            "{}: the stubs' failures name the call and the todo!()'s file and line, and the command that plays a session again, without a backtrace",
            game.id
        ),
    );
    // Watch mode from the starter's own crate, input closed at once: one
    // run, each level's bar, the first level's first failure, then the end.
    let (watched, text) = starter.cargo(&["run", "--locked", "-q", "--", "watch"])?;
    let first = levels.first().map_or("basic", |l| l.name());
    tally.check(
        watched
            && text.contains(&format!("  {first:<11} [---"))
            && text.contains(&format!("first failure: {first}::")),
        format!(
            "{}: `cargo run -q -- watch` runs the tests and shows each level and the first failure",
            game.id
        ),
    );
    Ok(())
}

/// Every local run after the stubs, in the order steps 2 to 4 read their
/// results: the example, each mutation and harmless change that applies,
/// each Rust solution.
struct LocalPlan<'s> {
    runs: Vec<LocalRun>,
    /// Each mutation's files, `None` where its text is not in the example.
    mutated: Vec<Option<Files>>,
    /// Whether each harmless change applies.
    harmless_applies: Vec<bool>,
    /// The solutions in Rust (the others are programs, graded in step 5).
    rust_solutions: Vec<&'s exercise_data::Solution>,
}

impl<'s> LocalPlan<'s> {
    fn new(
        starter: &Starter<'_>,
        mutations: &exercise_data::Mutations,
        solutions: &'s [exercise_data::Solution],
    ) -> Self {
        let owned = |files: Vec<(&str, &[u8])>| -> Vec<(String, Vec<u8>)> {
            files
                .into_iter()
                .map(|(p, b)| (p.to_owned(), b.to_vec()))
                .collect()
        };
        let mut runs: Vec<LocalRun> = vec![(owned(starter.example()), None)];
        let mutated: Vec<_> = mutations
            .mutation
            .iter()
            .map(|m| changed(starter, &m.file, &m.find, &m.replace))
            .collect();
        for (mutation, files) in mutations.mutation.iter().zip(&mutated) {
            if let Some(files) = files {
                runs.push((files.clone(), Some(mutation.level)));
            }
        }
        let mut harmless_applies = Vec::new();
        for harmless in &mutations.harmless {
            let files = changed(starter, &harmless.file, &harmless.find, &harmless.replace);
            harmless_applies.push(files.is_some());
            runs.extend(files.map(|files| (files, None)));
        }
        let rust_solutions: Vec<&exercise_data::Solution> = solutions
            .iter()
            .filter(|s| s.info.program.is_none())
            .collect();
        for solution in &rust_solutions {
            let files = solution.files.iter().map(|(p, b)| (p.as_str(), *b));
            runs.push((owned(files.collect()), None));
        }
        LocalPlan {
            runs,
            mutated,
            harmless_applies,
            rust_solutions,
        }
    }
}

/// Runs `runs` two at a time, on the starter and a second copy of it (a
/// target of its own): a starter's build is mostly one crate, so one run
/// leaves a core idle.
fn run_locally(
    starter: &Starter<'_>,
    work: &Path,
    runs: Vec<LocalRun>,
) -> Result<Vec<Levels>, CheckError> {
    let game = starter.game;
    let second = Starter::fresh(
        game,
        work.join(game.id).join("starter-2"),
        work.join("target-2"),
    )?;
    // The second copy starts from the first's built dependencies (a copy:
    // Cargo keeps them fresh by their sources); should the copy fail, it
    // builds its own.
    if !second.target.exists() {
        let _ = Command::new("cp")
            .arg("-a")
            .arg(&starter.target)
            .arg(&second.target)
            .status();
    }
    let count = runs.len();
    let started = std::time::Instant::now();
    let results = run_two_at_a_time(&[starter, &second], runs)?;
    println!(
        "   ({count} local runs, two at a time: {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(results)
}

/// Step 2: the example passes every level and the robustness part.
fn check_the_example(game: &GameInfo, levels: &[Level], example: Levels, tally: &mut Tally) {
    println!("== {}: the example in place of the stubs", game.id);
    for &level in levels {
        tally.check(
            example.passes(level),
            format!("{}: the example passes {}", game.id, example.summary(level)),
        );
    }
    tally.check(
        example.robust(),
        format!(
            "{}: the example passes {}",
            game.id,
            example.robustness_summary()
        ),
    );
}

/// Step 3, the mutations: each is caught by its level's local tests. Gives
/// each caught mutation's files and what its local tests said, graded in
/// step 5 with the class.
fn check_mutations<'m>(
    game: &GameInfo,
    mutations: &'m exercise_data::Mutations,
    plan: &LocalPlan<'_>,
    results: &mut impl Iterator<Item = Levels>,
    tally: &mut Tally,
) -> Vec<Mutant<'m>> {
    let mut mutants = Vec::new();
    for (mutation, files) in mutations.mutation.iter().zip(&plan.mutated) {
        let Some(files) = files else {
            tally.check(
                false,
                format!("{}: the mutation '{}' applies", game.id, mutation.breaks),
            );
            continue;
        };
        let result = results.next().unwrap_or_default();
        tally.check(
            !result.passes(mutation.level),
            format!(
                "{}: '{}' is caught by {}",
                game.id,
                mutation.breaks,
                result.summary(mutation.level)
            ),
        );
        mutants.push((mutation, files.clone(), result.text));
    }
    mutants
}

/// Step 3, the harmless changes: each keeps every level.
fn check_harmless_changes(
    game: &GameInfo,
    levels: &[Level],
    mutations: &exercise_data::Mutations,
    plan: &LocalPlan<'_>,
    results: &mut impl Iterator<Item = Levels>,
    tally: &mut Tally,
) {
    for (harmless, &applies) in mutations.harmless.iter().zip(&plan.harmless_applies) {
        if !applies {
            tally.check(
                false,
                format!("{}: the change '{}' applies", game.id, harmless.why),
            );
            continue;
        }
        let result = results.next().unwrap_or_default();
        tally.check(
            levels.iter().all(|&l| result.passes(l)),
            format!(
                "{}: '{}' keeps every level ({})",
                game.id,
                harmless.why,
                summaries(&result, levels.iter())
            ),
        );
    }
}

/// `result`'s summary of each of `levels`, joined.
fn summaries<'l>(result: &Levels, levels: impl Iterator<Item = &'l Level>) -> String {
    levels
        .map(|&l| result.summary(l))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Step 4: each Rust solution reaches its level locally.
fn check_solutions_locally(
    game: &GameInfo,
    levels: &[Level],
    plan: &LocalPlan<'_>,
    results: &mut impl Iterator<Item = Levels>,
    tally: &mut Tally,
) {
    for solution in &plan.rust_solutions {
        let result = results.next().unwrap_or_default();
        let reached = levels.iter().filter(|&&l| l <= solution.info.reaches);
        tally.check(
            reached.clone().all(|&l| result.passes(l)),
            format!(
                "{}: the solution '{}' ({}) reaches {} locally ({})",
                game.id,
                solution.name,
                solution.info.style,
                solution.info.reaches,
                summaries(&result, reached)
            ),
        );
    }
}

/// Step 5: `boardkit grade` gives the class the levels the local runs
/// gave, catches each mutation at its level naming the input the local
/// test names, and notes nothing on the example.
fn check_the_class_graded(
    starter: &Starter<'_>,
    work: &Path,
    solutions: &[exercise_data::Solution],
    mutants: &[Mutant<'_>],
    tally: &mut Tally,
) -> Result<(), CheckError> {
    let game = starter.game;
    let class = work.join(game.id).join("class");
    if class.exists() {
        std::fs::remove_dir_all(&class).map_err(io_error(&class))?;
    }
    let (crates, mut expected) = write_the_class(starter, &class, solutions, mutants)?;
    // Every grading run of the check shares its compiled dependencies (and
    // with CI's other grading runs, given BOARDKIT_BUILD_DIR).
    let build = crate::grader::shared_build_dir().unwrap_or_else(|| work.join("grade-build"));
    let grading_started = std::time::Instant::now();
    let mut graded = grade(game, &crates, None, &class.join("grades"), &build)?;
    println!(
        "   ({} crates graded: {:.0} s)",
        crates.len(),
        grading_started.elapsed().as_secs_f64()
    );
    check_the_example_is_clean(game, &graded, tally);
    for solution in solutions.iter().filter(|s| s.info.program.is_some()) {
        let root = class.join("programs").join(&solution.name);
        write_below(&root, solution.files.iter().map(|(p, b)| (p.as_str(), *b)))?;
        let out = class.join(format!("grades-{}", solution.name));
        graded.extend(grade(
            game,
            &[root],
            solution.info.program.as_deref(),
            &out,
            &build,
        )?);
        expected.insert(solution.name.clone(), Some(solution.info.reaches));
    }
    check_mutants_graded(game, mutants, &graded, tally);
    for (name, want) in &expected {
        let got = graded.get(name).and_then(Results::level_reached);
        tally.check(
            got == *want,
            format!(
                "{}: boardkit grade gives '{name}' level {} (expected {})",
                game.id,
                got.map_or("none", Level::name),
                want.map_or("none", Level::name)
            ),
        );
    }
    Ok(())
}

/// Each graded submission's name, and the level it must reach.
type Expected = BTreeMap<String, Option<Level>>;

/// The class's crates in `class/crates`: the example, the stubs, each Rust
/// solution and each caught mutation; with the level each must reach
/// (mutations have none expected: step 5 checks them by their level).
fn write_the_class(
    starter: &Starter<'_>,
    class: &Path,
    solutions: &[exercise_data::Solution],
    mutants: &[Mutant<'_>],
) -> Result<(Vec<PathBuf>, Expected), CheckError> {
    let crate_at = |name: &str, files: Vec<(&str, &[u8])>| -> Result<PathBuf, CheckError> {
        let root = class.join("crates").join(name);
        write_below(&root.join(&starter.manifest.files.solution), files)?;
        Ok(root)
    };
    let top = starter.game.levels.last().map(|l| l.level);
    let mut expected = Expected::new();
    let mut crates = vec![crate_at("example", starter.example())?];
    expected.insert("example".into(), top);
    crates.push(crate_at(
        "stubs",
        exercise_data::folder(&starter.manifest.files.stub),
    )?);
    expected.insert("stubs".into(), None);
    for solution in solutions.iter().filter(|s| s.info.program.is_none()) {
        let files = solution
            .files
            .iter()
            .map(|(p, b)| (p.as_str(), *b))
            .collect();
        crates.push(crate_at(&solution.name, files)?);
        expected.insert(solution.name.clone(), Some(solution.info.reaches));
    }
    for (i, (_, files, _)) in mutants.iter().enumerate() {
        let files = files
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .collect();
        crates.push(crate_at(&format!("mutation-{}", i + 1), files)?);
    }
    Ok((crates, expected))
}

/// The example draws no note from the kit's lint set when graded.
fn check_the_example_is_clean(
    game: &GameInfo,
    graded: &BTreeMap<String, Results>,
    tally: &mut Tally,
) {
    let lints: Vec<String> = graded
        .get("example")
        .map(|r| {
            r.notes
                .iter()
                .filter(|n| n.is_lint())
                .map(|n| format!("{}:{} {}", n.file, n.line, n.kind))
                .collect()
        })
        .unwrap_or_default();
    tally.check(
        lints.is_empty(),
        format!(
            "{}: the example is clean under the kit's lint set {}",
            game.id,
            lints.join("; ")
        ),
    );
}

/// One bug at a time, the grader catches it at its level too, and its
/// first public failure there names the same input (a call, an input
/// line) as the student's own test of that case.
fn check_mutants_graded(
    game: &GameInfo,
    mutants: &[Mutant<'_>],
    graded: &BTreeMap<String, Results>,
    tally: &mut Tally,
) {
    for (i, (mutation, _, local)) in mutants.iter().enumerate() {
        let results = graded.get(&format!("mutation-{}", i + 1));
        let caught = results
            .and_then(Results::level_reached)
            .is_none_or(|reached| reached < mutation.level);
        let failure = results.and_then(|r| {
            r.tests.iter().find(|t| {
                t.status != "passed"
                    && t.visibility == "visible"
                    && t.name.split("::").next() == Some(mutation.level.name())
            })
        });
        let named = failure.and_then(|t| named_input(&t.output));
        let local = failure
            .map(|t| local_failure(local, &t.name))
            .unwrap_or_default();
        tally.check(
            caught && named.is_some_and(|line| local.contains(line)),
            format!(
                "{}: '{}' is caught by boardkit grade, whose {} names {:?} as the local test does",
                game.id,
                mutation.breaks,
                failure.map_or("(no public failure)", |t| t.name.as_str()),
                named.unwrap_or("(no input)")
            ),
        );
    }
}

/// A folder's files: (path below it, contents).
type Files = Vec<(String, Vec<u8>)>;

/// One local run: the student's folder's files, and the level whose tests
/// run (every level when `None`).
type LocalRun = (Vec<(String, Vec<u8>)>, Option<Level>);

/// Runs `runs` on the `starters` (copies of one starter, each with a target
/// of its own), one run a starter at a time; the results come back in the
/// order of `runs`.
fn run_two_at_a_time(
    starters: &[&Starter<'_>],
    runs: Vec<LocalRun>,
) -> Result<Vec<Levels>, CheckError> {
    let count = runs.len();
    // `runs` come as the example, its mutations and harmless changes (each
    // a small change to the build before: incremental), then the
    // solutions (each a build of its own). The first copy takes them from
    // the front; the others from the back: the second copy's first build
    // is a whole one anyway (its folder is not the first's), so it starts
    // with a solution and leaves the small changes to the first.
    let queue = std::sync::Mutex::new(
        runs.into_iter()
            .enumerate()
            .collect::<std::collections::VecDeque<_>>(),
    );
    let done = std::sync::Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|scope| {
        for (lane, starter) in starters.iter().enumerate() {
            let (queue, done) = (&queue, &done);
            scope.spawn(move || {
                loop {
                    let next = queue
                        .lock()
                        .map(|mut q| {
                            if lane == 0 {
                                q.pop_front()
                            } else {
                                q.pop_back()
                            }
                        })
                        .ok()
                        .flatten();
                    let Some((i, (files, filter))) = next else {
                        break;
                    };
                    let result = starter
                        .set_folder(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
                        .and_then(|()| starter.test(filter));
                    if let Ok(mut done) = done.lock() {
                        done.push((i, result));
                    }
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, result)| result).collect()
}

/// A seeded mutation, the example's files it gives, and what the local
/// tests of its level said.
type Mutant<'m> = (&'m exercise_data::Mutation, Vec<(String, Vec<u8>)>, String);

/// The line of a failure's output that names its input: the call, or the
/// input line of a session.
fn named_input(output: &str) -> Option<&str> {
    output.lines().find(|line| {
        line.starts_with("call: ")
            || [
                "on input line ",
                "after input line ",
                "before input line ",
                "before any input was read",
                "after the last input line",
            ]
            .iter()
            .any(|start| line.starts_with(start))
    })
}

/// What a local test run printed for the failure of test `name`.
fn local_failure<'t>(text: &'t str, name: &str) -> &'t str {
    let Some(start) = text.find(&format!("---- {name} ----")) else {
        return "";
    };
    let rest = &text[start..];
    let end = rest[1..]
        .find("\n---- ")
        .or_else(|| rest.find("\nfailures:"))
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// Writes `files` (paths below `dir`, contents) into `dir`.
fn write_below<'f>(
    dir: &Path,
    files: impl IntoIterator<Item = (&'f str, &'f [u8])>,
) -> Result<(), CheckError> {
    let files: Vec<(String, Vec<u8>)> = files
        .into_iter()
        .map(|(p, b)| (p.to_owned(), b.to_vec()))
        .collect();
    crate::starter::write_files(dir, &files)?;
    Ok(())
}

/// The example's files with one change in `file`; `None` if `find` is not
/// there.
fn changed(
    starter: &Starter<'_>,
    file: &str,
    find: &str,
    replace: &str,
) -> Option<Vec<(String, Vec<u8>)>> {
    let mut found = false;
    let files = starter
        .example()
        .into_iter()
        .map(|(path, bytes)| {
            let mut bytes = bytes.to_vec();
            if path == file {
                let text = String::from_utf8_lossy(&bytes);
                if text.contains(find) {
                    found = true;
                    bytes = text.replacen(find, replace, 1).into_bytes();
                }
            }
            (path.to_owned(), bytes)
        })
        .collect();
    found.then_some(files)
}

/// Grades `submissions` with the kit's grader; returns each one's level.
fn grade(
    game: &GameInfo,
    submissions: &[PathBuf],
    program: Option<&str>,
    out: &Path,
    build: &Path,
) -> Result<BTreeMap<String, Results>, CheckError> {
    let options = crate::grader::Options {
        submissions: submissions.to_vec(),
        out: out.to_owned(),
        program: program.map(str::to_owned),
        style_points: None,
        test_points: None,
        notes_held: false,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        limits: crate::grader::sandbox::Limits {
            timeout: Duration::from_secs(10),
            ..Default::default()
        },
        compile_timeout: Duration::from_secs(1200),
        shard: None,
        // Every grading run of the check shares its compiled dependencies.
        build_dir: Some(build.to_owned()),
        fresh: false,
        reveal_hidden: Default::default(),
        deadlines: None,
        similarity: Default::default(),
        download: None,
        isolation: crate::grader::sandbox::Isolation::bubblewrap()
            .unwrap_or(crate::grader::sandbox::Isolation::None),
    };
    Ok(crate::grader::grade(game, &options)?)
}
