//! `boardkit grade --exercise DIR`: a class graded on a package's cases,
//! public and hidden, by the grader's steps and into its one results model
//! and outputs (`results.json`, `grades.csv`, `junit.xml`, `report.html`,
//! each student's feedback pages, and the LMS files the command adds).
//! Submissions come as the grader opens them (folders, zips, git
//! repositories at their deadline, LMS downloads); each is run in the
//! sandbox, each case's CPU limit derived from the reference's time on it.
//! The class is compared for similarity, as any class is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::own_rust::RustVersions;
use super::run::{self, Built};
use super::{Case, CaseKind, Language, Package};
use crate::grader::own_tests::python::{GivenVersion, PythonVersions};
use crate::grader::own_tests::verdict::Verdict as OwnVerdict;
use crate::grader::report::{self, Results, TestResult};
use crate::grader::sandbox::{Isolation, Limits, Sandbox};
use crate::grader::submission;
use crate::grader::{GradeError, Options};
use boardkit::judge::Verdict;
use boardkit::level::Level;

/// Grades `options.submissions`, written in `language`, on `package`;
/// returns every submission's results in the output folder.
pub(crate) fn grade(
    package: &Package,
    language: Language,
    options: &Options,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(options.out.clone(), e);
    refuse_another_run(package, language, options)?;
    // What the students read (each case's failure, the pages) in the
    // package's locale.
    boardkit::catalogue::use_catalogue(crate::exercise_data::catalogue_of(package.locale()));
    std::fs::create_dir_all(&options.out).map_err(out_error)?;
    // Absolute: the sandbox mounts the folders under it.
    let scratch = std::path::absolute(options.out.join(".work")).map_err(out_error)?;
    std::fs::create_dir_all(&scratch).map_err(out_error)?;
    // Gone when the run ends, however it ends: it holds the reference,
    // the mutants (hidden ones too) and every student's copy, and an
    // instructor shares the out folder.
    let _scratch = Removed(scratch.clone());
    let (named, every) = class_given(package, options)?;
    let levels = Level::of_package(&package.levels);
    let sandbox = Sandbox::new(options.isolation.clone(), options.jobs.max(1))
        .map_err(GradeError::Sandbox)?;
    // With --program, the sessions alone: a program has no functions to call.
    let cases: Vec<&Case> = package
        .cases
        .iter()
        .filter(|c| options.program.is_none() || matches!(c.kind, CaseKind::Session { .. }))
        .collect();
    let limits = reference_limits(
        package,
        &cases,
        &sandbox,
        options,
        &scratch.join("reference"),
    )?;
    // A crate: its student folder and its own tests alone.
    let only_rust = PathBuf::from(format!("src/{}", package.name));
    let own_rust = PathBuf::from(super::own_rust::OWN_TESTS_FILE);
    let only: Vec<&Path> = match (language, &options.program) {
        (Language::Rust, None) => vec![only_rust.as_path(), own_rust.as_path()],
        _ => Vec::new(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .map_err(|e| GradeError::Sandbox(std::io::Error::other(e)))?;
    let own = own_tests_versions(package, language, options, &sandbox, &scratch)?;
    let digest = package_digest(package);
    let settings = format!(
        "{}|{}",
        grading_kind(package, language, options),
        crate::grader::plan::run_settings(options)
    );
    let class = Class {
        digest: &digest,
        settings: &settings,
        own: own.as_ref(),
        package,
        language,
        options,
        cases: &cases,
        levels: &levels,
        limits: &limits,
        sandbox: &sandbox,
        scratch: &scratch,
        only: &only,
    };
    pool.install(|| {
        named
            .par_iter()
            .for_each(|(name, path)| class.grade_one(name, path));
    });
    let all = report::read_results(&options.out).map_err(out_error)?;
    let run = run_info(package, language, options, every, &limits);
    let run = report::RunInfo {
        // Shards merge only when graded with the same package, kit and
        // options.
        grading: format!("{} {}", run.grading, run_digest(&digest, &settings)),
        ..run
    };
    report::forget_class_files(&options.out).map_err(out_error)?;
    // Each pair of the class compared as the grader compares any: it
    // flags, it never changes a grade.
    let similar = crate::grader::similarity::of_class(
        &package.name,
        language == Language::Rust && options.program.is_none(),
        all.keys(),
        &[&options.out],
        &options.similarity,
    );
    report::write_reports(&options.out, &all, Some(&run), Some(&similar)).map_err(out_error)?;
    crate::grader::feedback::write_pages(&options.out, &all, Some(&run)).map_err(out_error)?;
    Ok(all)
}

/// A submission's name and its path.
type Named = (String, PathBuf);

/// The class `options` give, checked as any class's
/// ([`crate::grader::plan::given`]), each submission named: this
/// shard's, and every name.
fn class_given(
    package: &Package,
    options: &Options,
) -> Result<(Vec<Named>, Vec<String>), GradeError> {
    let what = format!("--exercise {}", package.root.display());
    let submissions = crate::grader::plan::given(&what, options)?;
    let (names, told_apart) = submission::names(&submissions);
    for warning in told_apart {
        eprintln!(
            "boardkit: warning: {}",
            crate::grader::shown::printable(&warning)
        );
    }
    let mut named: Vec<Named> = names.into_iter().zip(submissions).collect();
    named.sort();
    let every: Vec<String> = named.iter().map(|(n, _)| n.clone()).collect();
    // This shard's slice of the class, as the grader slices any.
    let named = named
        .into_iter()
        .enumerate()
        .filter(|(i, _)| crate::grader::plan::in_shard(*i, options.shard))
        .map(|(_, n)| n)
        .collect();
    Ok((named, every))
}

/// A short digest of a run's package, kit and settings, as a run's
/// header keeps it.
fn run_digest(digest: &[u8], settings: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(digest);
    hash.update(settings.as_bytes());
    hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What every grade of a package's run depends on besides the
/// submission: the kit, the package as read (its manifest, cases and
/// answers), and the files of its references, given types, submissions
/// and mutants (own tests run against them).
fn package_digest(package: &Package) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(crate::grader::plan::kit_digest());
    hash.update(format!("{package:?}").as_bytes());
    let given = [&package.given.rust, &package.given.python];
    let references = [&package.reference.rust, &package.reference.python];
    let mut paths: Vec<&Path> = given
        .into_iter()
        .chain(references)
        .flatten()
        .map(PathBuf::as_path)
        .collect();
    paths.extend(package.submissions.iter().map(|s| s.dir.as_path()));
    for path in paths {
        let files = match path.is_dir() {
            true => submission::files_below(path),
            false => vec![path.to_owned()],
        };
        for file in files {
            hash.update(file.as_os_str().as_encoded_bytes());
            hash.update(std::fs::read(&file).unwrap_or_default());
        }
    }
    hash.finalize().to_vec()
}

/// With `--test-points`, what students' own tests run against: the
/// reference of the class's language, and the bugs they can catch
/// (refused when none).
fn own_tests_versions(
    package: &Package,
    language: Language,
    options: &Options,
    sandbox: &Sandbox,
    scratch: &Path,
) -> Result<Option<OwnVersions>, GradeError> {
    if options.test_points.is_none() {
        return Ok(None);
    }
    let versions = OwnVersions::of(package, language, true, sandbox, scratch)
        .map_err(GradeError::NoSubmission)?;
    if versions.versions().mutants.is_empty() {
        return Err(GradeError::NoSubmission(format!(
            "--test-points: {} has no {language} wrong submission or mutant whose bug shows in a function's answers, so own tests would have nothing to catch (docs/authors.md, \"Grading a class\")",
            package.name
        )));
    }
    Ok(Some(versions))
}

/// What a class's own tests run against, in its language.
pub(crate) enum OwnVersions {
    Python(PythonVersions),
    Rust(RustVersions),
}

impl OwnVersions {
    /// The reference of `language` and its bugs own tests can catch,
    /// built in `scratch`; with `hidden`, the hidden mutants too.
    pub(crate) fn of(
        package: &Package,
        language: Language,
        hidden: bool,
        sandbox: &Sandbox,
        scratch: &Path,
    ) -> Result<OwnVersions, String> {
        // Python's own tests call the versions across a process, with
        // values Python writes as literals: a given type's object is none.
        if language == Language::Python && !package.types.is_empty() {
            return Err(format!(
                "own tests in Python are not graded on {}, which gives types ([[type]]): their values do not cross to the versions the tests run against; in Rust they are (docs/authors.md, \"Not yet\")",
                package.name
            ));
        }
        if language == Language::Python && package.functions.iter().any(|f| f.class.is_some()) {
            return Err(format!(
                "own tests in Python are not graded on {}, which has classes ([[class]]): their objects do not cross to the versions the tests run against; in Rust they are (docs/authors.md, \"Not yet\")",
                package.name
            ));
        }
        let bugs = function_bugs(package, language, sandbox, &scratch.join("bugs"));
        match language {
            Language::Python => own_versions(package, hidden, &bugs).map(OwnVersions::Python),
            Language::Rust => {
                let at = scratch.join("own-libraries");
                RustVersions::build(package, &bugs, hidden, sandbox, &at).map(OwnVersions::Rust)
            }
        }
    }

    pub(crate) fn versions(&self) -> &crate::grader::own_tests::verdict::Versions {
        match self {
            OwnVersions::Python(p) => &p.versions,
            OwnVersions::Rust(r) => &r.versions,
        }
    }

    /// The student's file of own tests in `dir`, if there is one.
    pub(crate) fn test_file(&self, dir: &Path) -> Option<PathBuf> {
        match self {
            OwnVersions::Python(p) => p.test_file(dir),
            OwnVersions::Rust(_) => {
                Some(dir.join(super::own_rust::OWN_TESTS_FILE)).filter(|f| f.is_file())
            }
        }
    }

    /// The file's name, as a student writes it.
    pub(crate) fn file_name(&self) -> String {
        match self {
            OwnVersions::Python(p) => p.file_names.join(" or "),
            OwnVersions::Rust(_) => super::own_rust::OWN_TESTS_FILE.to_owned(),
        }
    }

    /// Judges the test file `source`, in `work`.
    pub(crate) fn judge(
        &self,
        sandbox: &Sandbox,
        source: &Path,
        work: &Path,
        limits: &Limits,
        seed: u64,
    ) -> OwnVerdict {
        match self {
            OwnVersions::Python(p) => p.judge(sandbox, source, work, limits, seed),
            OwnVersions::Rust(r) => r.judge(sandbox, source, work, limits, seed),
        }
    }
}

/// One run's class: what every submission is graded with.
struct Class<'a> {
    package: &'a Package,
    language: Language,
    options: &'a Options,
    cases: &'a [&'a Case],
    levels: &'a [Level],
    limits: &'a BTreeMap<String, (Limits, std::time::Duration)>,
    sandbox: &'a Sandbox,
    scratch: &'a Path,
    only: &'a [&'a Path],
    own: Option<&'a OwnVersions>,
    /// What every grade depends on besides the submission
    /// ([`package_digest`]), and the run's settings: with a submission's
    /// files, its fingerprint.
    digest: &'a [u8],
    settings: &'a str,
}

impl Class<'_> {
    /// Warns of a Python submission in a class of crates: the folder handed
    /// in at `path` (the crate's own copy holds its student folder alone).
    fn warn_python_as_crate(&self, name: &str, path: &Path) {
        if let (Language::Rust, None) = (self.language, &self.options.program) {
            let module = self.package.python.module_file();
            if path.join(&module).is_file()
                && !path.join(format!("src/{}", self.package.name)).is_dir()
            {
                eprintln!(
                    "boardkit: warning: {name} holds {module} and no crate: a Python class is graded with --language python",
                );
            }
        }
    }

    /// Opens, grades and saves the submission `name` at `path`.
    fn grade_one(&self, name: &str, path: &Path) {
        let limit = self.options.deadlines.as_ref().map(|d| d.limit(name));
        let opened = submission::open(path, name, self.only, self.scratch, limit);
        crate::grader::plan::say_opened(name, &opened, limit.is_some());
        // What the grader reads of it: the files taken (a crate's student
        // folder and own tests), or a refused archive itself.
        let content = opened.as_ref().map_or(path, |s| s.root.as_path());
        let fingerprint =
            crate::grader::plan::fingerprint_of(self.digest, self.settings, content, None);
        let dir = report::student_dir(&self.options.out, name);
        if !self.options.fresh && crate::grader::plan::finished(&dir, &fingerprint) {
            // Graded already, as it is now: kept (a timed-out case is not).
            return;
        }
        self.warn_python_as_crate(name, path);
        let work = self.scratch.join("run").join(name);
        let mut results = match &opened {
            Ok(s) => graded(
                self.package,
                (self.language, self.options.program.as_deref()),
                &s.root,
                self.cases,
                self.levels,
                self.limits,
                self.sandbox,
                &work,
            ),
            Err(e) => failed_everywhere(
                self.package,
                self.cases,
                self.levels,
                Verdict::CompileError,
                &e.said(),
            ),
        };
        if let (Ok(s), Language::Rust, None) = (&opened, self.language, &self.options.program) {
            results.note(
                notes(self.package, &s.root),
                self.options.style_points,
                self.options.notes_held,
            );
        }
        if let (Some(points), Some(versions), Ok(s)) = (self.options.test_points, self.own, &opened)
        {
            let verdict = match versions.test_file(&s.root) {
                Some(source) => {
                    let work = self.scratch.join("own-tests").join(name);
                    let limits = &self.options.limits;
                    versions.judge(self.sandbox, &source, &work, limits, rand::random())
                }
                None => OwnVerdict::missing(&versions.file_name(), versions.versions()),
            };
            results.own_tests(verdict, points);
        }
        results.unsandboxed = self.options.isolation == Isolation::None;
        results.fingerprint = fingerprint;
        results.unread = opened.as_ref().err().map(submission::SubmissionError::said);
        if let (Ok(s), Language::Python, None) = (&opened, self.language, &self.options.program) {
            let expected = self.package.python.files();
            for said in crate::grader::missing_in(&s.root, &expected, &mut results) {
                eprintln!("boardkit: warning: {name}: {said}");
            }
        }
        if let Ok(submission::Submission {
            commit: Some(commit),
            ..
        }) = &opened
        {
            results.late(name, commit, self.options.deadlines.as_ref());
        }
        eprintln!(
            "graded {name}: {}/{} points, level {}",
            results.score,
            results.max_score(),
            results.level_name()
        );
        if let Err(e) = report::save_results(&self.options.out, name, &results) {
            eprintln!("boardkit: cannot save the results of {name}: {e}");
        }
    }
}

/// A Python starter's own tests, in English.
pub(crate) const OWN_TESTS_FILE: &str = "test_mine.py";

/// A Python starter's own tests' file in `words`' locale
/// (`test_meus_testes.py` in Portuguese).
pub(crate) fn own_tests_file(words: &super::words::Words) -> String {
    Some(words.text("package_own_tests_file", &[]))
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| OWN_TESTS_FILE.to_owned())
}

/// The own tests' file in every locale the kit speaks, English's first:
/// what the grader looks for in a Python submission.
pub(crate) fn own_tests_files() -> Vec<String> {
    let mut names = vec![OWN_TESTS_FILE.to_owned()];
    for (path, _) in crate::embedded::under("exercises/locales/") {
        let Some(locale) = path
            .strip_prefix("exercises/locales/")
            .and_then(|p| p.strip_suffix(".toml"))
        else {
            continue;
        };
        let name = own_tests_file(&super::words::Words::of(locale));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// What a Python class's own tests run on: the package's Python
/// reference, its Python submissions that reach every level (correct
/// versions), and those of its wrong submissions and mutants named in
/// `bugs` (what each breaks is its description); with `hidden`, the
/// mutants of `hidden/` too.
pub(crate) fn own_versions(
    package: &Package,
    hidden: bool,
    bugs: &std::collections::BTreeSet<String>,
) -> Result<PythonVersions, String> {
    let read = |folder: &Path| {
        let file = folder.join(package.python.module_file());
        std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))
    };
    let folder = package.reference.python.as_ref().ok_or_else(|| {
        format!(
            "{} has no Python reference: own tests run against it",
            package.name
        )
    })?;
    let top = package.levels.len() - 1;
    let mut given = Vec::new();
    for submission in &package.submissions {
        let correct = submission.reaches == Some(top);
        let kept = submission.language == Language::Python
            && (hidden || !submission.mutant)
            && (correct || bugs.contains(&submission.name));
        if kept {
            given.push(GivenVersion {
                name: submission.name.clone(),
                source: submission.text(Path::new(&package.python.module_file()))?,
                breaks: (!correct).then(|| submission.description.clone()),
                hidden: submission.mutant,
                unpromised: submission.unpromised.clone(),
            });
        }
    }
    let mut versions =
        PythonVersions::of_sources(&package.python.module, read(folder)?, given, OWN_TESTS_FILE);
    versions.file_names = own_tests_files();
    Ok(versions)
}

/// The package's wrong submissions and mutants in `language` whose bug
/// shows in a function's answers: the bugs own tests, which call
/// functions, can catch (a program's bug they cannot).
pub(crate) fn function_bugs(
    package: &Package,
    language: Language,
    sandbox: &Sandbox,
    scratch: &Path,
) -> std::collections::BTreeSet<String> {
    let top = package.levels.len() - 1;
    let calls: Vec<&Case> = package
        .cases
        .iter()
        .filter(|c| matches!(c.kind, CaseKind::Calls { .. }))
        .collect();
    let wrong = package
        .submissions
        .iter()
        .filter(|s| s.language == language && s.reaches != Some(top));
    let mut bugs = std::collections::BTreeSet::new();
    for submission in wrong {
        let work = scratch.join(&submission.name);
        // Apart from `work`, which `prepare` empties first.
        let Ok(folder) = submission.folder(&scratch.join("patched").join(&submission.name)) else {
            continue;
        };
        let built = run::prepare(package, language, &folder, &work, sandbox);
        let Ok(built) = built else {
            continue;
        };
        let mut session = sandbox.session();
        let fails = calls.iter().any(|case| {
            let ran = run::run_case(package, &built, case, &mut session, &Limits::default());
            run::judge(package, case, &ran).is_err()
        });
        if fails {
            bugs.insert(submission.name.clone());
        }
    }
    bugs
}

/// Notes on a crate's code, its student folder read as the grader reads
/// any (`--style-points` turns them into points).
fn notes(package: &Package, root: &Path) -> Vec<crate::grader::notes::Note> {
    let shown = format!("src/{}", package.name);
    let long_function = crate::exercise_data::code_notes().map_or(40, |c| c.notes.long_function);
    let (mut notes, _) =
        crate::grader::notes::rust_notes(&root.join(&shown), &shown, long_function);
    // "No enum of its own" asks for a board game's marks and states: a
    // package's exercise may have none to model.
    notes.retain(|n| n.kind != "no_enum");
    crate::grader::notes::sort(&mut notes);
    notes
}

/// Each case's limits: the run's, the CPU limit raised to the margin over
/// the reference's own time on it where that is more.
fn reference_limits(
    package: &Package,
    cases: &[&Case],
    sandbox: &Sandbox,
    options: &Options,
    scratch: &Path,
) -> Result<BTreeMap<String, (Limits, std::time::Duration)>, GradeError> {
    let (language, folder) = super::bless::reference(package);
    let built = run::prepare(package, language, folder, scratch, sandbox).map_err(|e| {
        GradeError::NoSubmission(format!("the package's reference does not build: {e}"))
    })?;
    // The cases shared among `--jobs` sessions, each taking the next:
    // the reference's time on each is CPU time, which its neighbours do
    // not change, and the class waits for the slowest of them alone.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let times = std::sync::Mutex::new(Vec::with_capacity(cases.len()));
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, cases.len().max(1)) {
            scope.spawn(|| {
                let mut session = sandbox.session();
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    let ran = run::run_case(package, &built, case, &mut session, &options.limits);
                    if let Ok(mut times) = times.lock() {
                        times.push((case.name.clone(), ran.cpu));
                    }
                }
            });
        }
    });
    let times = times.into_inner().unwrap_or_default();
    let mut limits = BTreeMap::new();
    for (name, reference) in times {
        // `--timeout`, or 20 times the reference's time when that is
        // more: as the built-in games' cases (`grader::run`).
        let cpu = reference * boardkit::judge::REFERENCE_MARGIN;
        let case_limits = if cpu > std::time::Duration::from_secs(options.limits.cpu_seconds) {
            options.limits.with_cpu(cpu)
        } else {
            options.limits
        };
        limits.insert(name, (case_limits, reference));
    }
    Ok(limits)
}

/// `boardkit test --exercise`: the student's folder `root` on the
/// package's public cases (of `level` alone, when named), each with
/// `limits`, judged as the grader judges them. No hidden case is read.
pub(crate) fn public_results(
    package: &Package,
    language: Language,
    root: &Path,
    level: Option<usize>,
    limits: Limits,
    sandbox: &Sandbox,
    work: &Path,
) -> Vec<TestResult> {
    let levels = Level::of_package(&package.levels);
    let cases: Vec<&Case> = package
        .cases
        .iter()
        .filter(|c| !c.hidden && level.is_none_or(|l| c.level == l))
        .collect();
    let each = cases
        .iter()
        .map(|c| (c.name.clone(), (limits, std::time::Duration::ZERO)))
        .collect();
    let results = graded(
        package,
        (language, None),
        root,
        &cases,
        &levels,
        &each,
        sandbox,
        work,
    );
    results.tests
}

#[allow(clippy::too_many_arguments)] // one private call
fn graded(
    package: &Package,
    (language, program): (Language, Option<&str>),
    root: &Path,
    cases: &[&Case],
    levels: &[Level],
    limits: &BTreeMap<String, (Limits, std::time::Duration)>,
    sandbox: &Sandbox,
    work: &Path,
) -> Results {
    let solution = match language {
        Language::Rust => root.join("src").join(&package.name),
        Language::Python => root.to_path_buf(),
    };
    let needs = match language {
        Language::Rust => solution.join("mod.rs"),
        Language::Python => solution.join(package.python.module_file()),
    };
    if let Some(command) = program {
        return match Built::program(root, command, work) {
            Ok(built) => judged(package, &built, cases, levels, limits, sandbox),
            Err(e) => failed_everywhere(package, cases, levels, Verdict::CompileError, &e),
        };
    }
    if !needs.is_file() {
        let why = format!(
            "no {} in the submission",
            needs.strip_prefix(root).unwrap_or(&needs).display()
        );
        return failed_everywhere(package, cases, levels, Verdict::CompileError, &why);
    }
    let built: Built = match run::prepare(package, language, &solution, work, sandbox) {
        Ok(built) => built,
        Err(e) => return failed_everywhere(package, cases, levels, Verdict::CompileError, &e),
    };
    judged(package, &built, cases, levels, limits, sandbox)
}

/// `built`'s results on `cases`, each judged as the grader judges it.
fn judged(
    package: &Package,
    built: &Built,
    cases: &[&Case],
    levels: &[Level],
    limits: &BTreeMap<String, (Limits, std::time::Duration)>,
    sandbox: &Sandbox,
) -> Results {
    let mut session = sandbox.session();
    let tests = cases
        .iter()
        .map(|case| {
            let case_limits = limits
                .get(&case.name)
                .map_or_else(Limits::default, |(l, _)| *l);
            let ran = run::run_case(package, built, case, &mut session, &case_limits);
            let (verdict, message) = match run::judge(package, case, &ran) {
                Ok(()) => (Verdict::Passed, String::new()),
                Err(why) => match replay(package, built, case) {
                    Some(replay) => (
                        ran.verdict.unwrap_or(Verdict::WrongOutput),
                        format!("{why}\n{replay}"),
                    ),
                    None => (ran.verdict.unwrap_or(Verdict::WrongOutput), why),
                },
            };
            result(package, case, levels, verdict, message)
        })
        .collect();
    Results::of(tests, None)
}

/// What replays a public session on the student's own machine, as a
/// failure's message ends (as the built-in games' do): its test, for a
/// crate, and its input piped into the program. Never a hidden case's.
fn replay(package: &Package, built: &Built, case: &Case) -> Option<String> {
    use boardkit::catalogue::f;
    let CaseKind::Session { args, typed, .. } = &case.kind else {
        return None;
    };
    if case.hidden {
        return None;
    }
    let options: Vec<String> = args.iter().map(|a| shell_word(a)).collect();
    let options = options.join(" ");
    let program = match built {
        Built::Program { command, .. } => format!("{command} {options}"),
        Built::Python { .. } => format!("python3 {} {options}", package.python.program_file()),
        Built::Rust { .. } => format!("cargo run -q -- {options}"),
    };
    let play = boardkit::judge::replay_command(program.trim_end(), &typed.bytes());
    match built {
        Built::Rust { .. } => {
            let test = format!(
                "cargo test --test {} {}",
                package.name,
                case.test_name(package)
            );
            let test = f("reproduce it: {command}", &[("command", &test)]);
            Some(match play {
                Some(play) => format!(
                    "{test}\n{}",
                    f("or play it: {command}", &[("command", &play)])
                ),
                None => test,
            })
        }
        _ => play.map(|play| f("play it: {command}", &[("command", &play)])),
    }
}

/// `word` as a shell reads it back: quoted unless plain.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./:,+@%".contains(c));
    match plain {
        true => word.to_owned(),
        false => format!("'{}'", word.replace('\'', "'\\''")),
    }
}

fn failed_everywhere(
    package: &Package,
    cases: &[&Case],
    levels: &[Level],
    verdict: Verdict,
    why: &str,
) -> Results {
    // The error once, under the first public case a page shows; the
    // others point to it.
    let first = cases.iter().find(|c| !c.hidden);
    let same = first.map(|c| {
        let shown = c.test_name(package);
        boardkit::catalogue::f("the same error as {case}", &[("case", &shown)])
    });
    Results::of(
        cases
            .iter()
            .map(|c| {
                let output = match (&same, first) {
                    (Some(same), Some(first)) if c.name != first.name => same.clone(),
                    _ => why.to_owned(),
                };
                result(package, c, levels, verdict, output)
            })
            .collect(),
        None,
    )
}

fn result(
    package: &Package,
    case: &Case,
    levels: &[Level],
    verdict: Verdict,
    output: String,
) -> TestResult {
    crate::grader::judge::case_result(
        &crate::grader::judge::CaseFacts {
            name: case.test_name(package),
            level: levels[case.level],
            points: case.points,
            hidden: case.hidden,
            robustness: case.robustness,
            description: boardkit::catalogue::f(
                "{description} (STATEMENT.md, rule {rule})",
                &[
                    ("description", &case.description.trim()),
                    ("rule", &case.rule),
                ],
            ),
        },
        verdict,
        output,
    )
}

fn run_info(
    package: &Package,
    language: Language,
    options: &Options,
    mut latest: Vec<String>,
    limits: &BTreeMap<String, (Limits, std::time::Duration)>,
) -> report::RunInfo {
    let case_cpu = package
        .cases
        .iter()
        .filter_map(|case| {
            let (l, cpu) = limits.get(&case.name)?;
            let cpu = report::CaseCpu {
                reference_ms: (cpu.as_secs_f64() * 100.0).ceil().max(1.0) * 10.0,
                limit_s: l.cpu_seconds,
                wall_s: l.timeout.as_secs(),
            };
            Some((case.test_name(package), cpu))
        })
        .collect();
    latest.sort();
    let kind = grading_kind(package, language, options);
    let (submissions, grading) = match &options.program {
        Some(command) => (command.clone(), format!("{kind} {command}")),
        // Said as the grader says its own classes: merged shards and
        // similarity read a class of crates by it.
        None => (
            match language {
                Language::Rust => crate::grader::plan::CRATES.to_owned(),
                Language::Python => format!("python3 {}", package.python.program_file()),
            },
            kind,
        ),
    };
    report::RunInfo {
        game: package.name.clone(),
        title: package.title.clone(),
        kit_version: env!("CARGO_PKG_VERSION").to_owned(),
        graded_at: chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string(),
        submissions,
        sandboxed: options.isolation != Isolation::None,
        limits: format!(
            "{} s of CPU time per case, or {}x the reference's where more; {} MiB memory, {} KiB output per case",
            options.limits.cpu_seconds,
            boardkit::judge::REFERENCE_MARGIN,
            options.limits.memory_bytes >> 20,
            options.limits.output_bytes >> 10
        ),
        case_cpu,
        latest,
        grading,
        shard: options.shard.map(|(k, n)| format!("{k}/{n}")),
        reveal_hidden: options.reveal_hidden,
        deadline: options.deadlines.as_ref().map(|d| d.deadline.to_rfc3339()),
        similarity: options.similarity.clone(),
        download: options.download.clone(),
        locale: Some(package.locale().to_owned()),
        level_names: package
            .level_names
            .get(package.locale())
            .cloned()
            .unwrap_or_default(),
    }
}

/// One report per exercise and mode: an `--out` holding another's
/// results is refused (or, with `--fresh`, emptied), never mixed in.
fn refuse_another_run(
    package: &Package,
    language: Language,
    options: &Options,
) -> Result<(), GradeError> {
    let kind = grading_kind(package, language, options);
    let same = |earlier: &report::RunInfo| {
        let words: Vec<&str> = earlier.grading.split(' ').take(3).collect();
        words.join(" ") == kind
    };
    let this = format!("{}, {kind}", package.title);
    crate::grader::plan::earlier_run_of_another(options, same, &this)
}

/// What a run of `package` grades, as its header's `grading` begins:
/// `package NAME rust`, `package NAME python` or `package NAME program`.
fn grading_kind(package: &Package, language: Language, options: &Options) -> String {
    match &options.program {
        Some(_) => format!("package {} program", package.name),
        None => format!("package {} {language}", package.name),
    }
}

/// `--list-cases`: each case a line, with its level, points, visibility
/// and the rule it checks.
pub(crate) fn list_cases(package: &Package, program: bool) -> String {
    let mut out = String::new();
    let sessions = |c: &&Case| !program || matches!(c.kind, CaseKind::Session { .. });
    for case in package.cases.iter().filter(sessions) {
        let seen = if case.hidden { "hidden" } else { "public" };
        let points = match case.points {
            1 => "1 point".to_owned(),
            n => format!("{n} points"),
        };
        out.push_str(&format!(
            "{}  {points}, {seen}, rule {}: {}\n",
            case.test_name(package),
            case.rule,
            case.description
        ));
    }
    out
}

/// A folder removed when this is dropped.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
