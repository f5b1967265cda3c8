//! Grading's first step, plan: what one run grades. The cases of its mode
//! (crates, programs, a Python exam), the submissions given (the output
//! folder and a class's own folder refused as submissions, a missing path
//! refused), each named, this shard's opened once into the grader's folder,
//! and those whose results are current left out (their fingerprint: the
//! kit, the settings, their files). Also what the reports' header says of
//! the run. Building is `build.rs`, running `run.rs`.

use std::path::{Path, PathBuf};

use super::report::{self, Results};
use super::sandbox::Isolation;
use super::submission::{self, Submission, SubmissionError};
use super::{GradeError, Options};
use crate::graded_cases::{self, Case};
use crate::registry::GameInfo;

/// What one grading run does.
pub(super) struct Plan {
    /// The cases of the run's mode.
    pub cases: Vec<Case>,
    /// The submissions it grades: this shard's, without those whose
    /// results are current (unless `--fresh`), by name.
    pub todo: Vec<Planned>,
    /// Every submission it was given, by name: the header's `latest`.
    pub every_name: Vec<String>,
    /// The kit's digest, in every fingerprint.
    pub kit: Vec<u8>,
    /// The grader's own folder, `<out>/.work`.
    pub scratch: PathBuf,
    /// The student's folder of a crate (`src/velha`).
    pub solution: String,
    /// Lines past which a function is noted as long.
    pub long_function: usize,
}

/// One submission to grade.
pub(super) struct Planned {
    pub name: String,
    /// Taken into the grader's folder, or why it could not be (graded as
    /// not compiling, with the reason).
    pub opened: Result<Submission, SubmissionError>,
    pub fingerprint: String,
}

/// Plans the run `options` ask for.
pub(super) fn plan(game: &GameInfo, options: &Options) -> Result<Plan, GradeError> {
    earlier_run_of_another_kind(game, options)?;
    if !HIDDEN_CASES {
        eprintln!(
            "boardkit: warning: this boardkit is a student's build, without the hidden cases: \
             the grades count the public cases alone (an instructor's build: \
             `cargo install --locked --path cli`, or `maturin build --features hidden-cases`)"
        );
    }
    let out_error = |e| GradeError::Out(options.out.clone(), e);
    std::fs::create_dir_all(&options.out).map_err(out_error)?;
    let scratch = options.out.join(".work");
    std::fs::create_dir_all(&scratch).map_err(out_error)?;
    let grading = match &options.program {
        Some(_) => graded_cases::Grading::Program,
        None => graded_cases::Grading::Crates,
    };
    let submissions = submissions_given(game, options)?;
    let class_error = |e: crate::exercise_data::ExerciseError| GradeError::Class(e.into());
    let solution = crate::exercise_data::manifest(game.id)
        .map_err(class_error)?
        .files
        .solution;
    let long_function = crate::exercise_data::code_notes()
        .map_err(class_error)?
        .notes
        .long_function;
    let mut plan = Plan {
        cases: graded_cases::cases(game, grading),
        todo: Vec::new(),
        every_name: Vec::new(),
        kit: kit_digest(),
        scratch,
        solution,
        long_function,
    };
    plan.every_name = plan.open(game, options, &submissions);
    Ok(plan)
}

impl Plan {
    /// Names the submissions; takes this shard's, once each, into the
    /// grader's folder; keeps those to grade. Returns every name.
    fn open(&mut self, game: &GameInfo, options: &Options, submissions: &[PathBuf]) -> Vec<String> {
        let (names, told_apart) = submission::names(submissions);
        let mut every_name = names.clone();
        every_name.sort();
        for warning in told_apart {
            eprintln!("boardkit: warning: {}", super::shown::printable(&warning));
        }
        let mut named: Vec<(String, &PathBuf)> = names.into_iter().zip(submissions).collect();
        named.sort();
        // A crate: the student's folder, and their own tests when graded.
        let mut only: Vec<&Path> = Vec::new();
        if options.program.is_none() {
            only.push(Path::new(&self.solution));
            if options.test_points.is_some() {
                only.push(Path::new(crate::exercise_data::OWN_TESTS_FILE));
            }
        }
        for (i, (name, path)) in named.into_iter().enumerate() {
            if !in_shard(i, options.shard) {
                continue;
            }
            let limit = options.deadlines.as_ref().map(|d| d.limit(&name));
            let opened = submission::open(path, &name, &only, &self.scratch, limit);
            say_opened(&name, &opened, limit.is_some());
            // What the grader reads of it: a crate's student folder, a
            // program's whole folder, or a refused archive itself.
            let content = match (&opened, &options.program) {
                (Ok(s), None) => s.root.join(&self.solution),
                (Ok(s), Some(_)) => s.root.clone(),
                (Err(_), _) => path.clone(),
            };
            // A crate's own tests are graded too: a changed tests/mine.rs
            // is graded again (a program's folder holds its test file).
            let own_tests = match (&opened, &options.program, options.test_points) {
                (Ok(s), None, Some(_)) => Some(s.root.join(crate::exercise_data::OWN_TESTS_FILE)),
                _ => None,
            };
            let fingerprint = fingerprint(&self.kit, game, options, &content, own_tests.as_deref());
            if options.fresh || !finished(&report::student_dir(&options.out, &name), &fingerprint) {
                self.todo.push(Planned {
                    name,
                    opened,
                    fingerprint,
                });
            }
        }
        every_name
    }
}

/// The submissions given, checked: not a class's folder given whole, none
/// missing, the output folder left out.
fn submissions_given(game: &GameInfo, options: &Options) -> Result<Vec<PathBuf>, GradeError> {
    given(game.id, options)
}

/// The submissions `options` give, checked as any class's: one class
/// folder given for its submissions, or a missing path, refused (the
/// instructor's mistake, never a student's 0); the output folder left
/// out. `what` is what the command grades (`velha`, `--exercise DIR`).
pub(crate) fn given(what: &str, options: &Options) -> Result<Vec<PathBuf>, GradeError> {
    let class = match options.submissions.as_slice() {
        [only] => submission::class_folder(only).map(|held| (only, held)),
        _ => None,
    };
    if let Some((only, held)) = class {
        let dir = only.display();
        return Err(GradeError::NoSubmission(format!(
            "{dir} is a class's folder ({held} submissions in it), not one submission: \
             give each one, as in `boardkit grade {} {}/* --out {}`",
            what,
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
    Ok(submissions.into_iter().cloned().collect())
}

/// Empties the grader's folder `scratch` (`<out>/.work`) once a run ends,
/// of everything but what later runs read: each submission's copy
/// (`taken/`: similarity, `grade merge` and `grade remove` compare them)
/// and the kit's dependencies built (`build/deps/`, or `build_dir` when it
/// is inside). Downloads and archives unpacked, repositories, crates and
/// their builds, own tests' work: all go, whatever their size.
pub(super) fn empty_work(scratch: &Path, build_dir: Option<&Path>) {
    let kept_build = build_dir
        .and_then(|dir| std::path::absolute(dir).ok())
        .zip(std::path::absolute(scratch).ok())
        .and_then(|(dir, scratch)| {
            let inside = dir.strip_prefix(&scratch).ok()?;
            inside.components().next().map(|c| c.as_os_str().to_owned())
        });
    let Ok(entries) = std::fs::read_dir(scratch) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let path = entry.path();
        if name == "taken" || Some(&name) == kept_build.as_ref() {
            continue;
        }
        let gone = if name == "build" {
            // The class's build: its crates and their targets go, the kit's
            // dependencies stay (built once for every run).
            ["crates", "targets"]
                .into_iter()
                .map(|inside| path.join(inside))
                .filter(|inside| inside.exists())
                .try_for_each(std::fs::remove_dir_all)
        } else if entry.file_type().is_ok_and(|t| t.is_dir()) {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        if let Err(e) = gone {
            eprintln!("boardkit: warning: cannot empty {}: {e}", path.display());
        }
    }
}

/// Whether `dir` holds the final results of exactly this submission (the
/// same fingerprint; a build or a case that timed out is graded again).
pub(crate) fn finished(dir: &Path, fingerprint: &str) -> bool {
    std::fs::read_to_string(dir.join("results.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<Results>(&text).ok())
        .is_some_and(|r| {
            // A case that ran out of time is graded again: the machine's
            // load then was no part of the submission.
            !r.incomplete
                && r.fingerprint == fingerprint
                && !r
                    .tests
                    .iter()
                    .any(|t| t.extra_data.verdict == report::Verdict::Timeout)
        })
}

/// A digest of the kit: every embedded file (cases, reference, harness).
pub(crate) fn kit_digest() -> Vec<u8> {
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
/// game, the options that change a verdict, `content`, the files the
/// grader reads of the submission (a folder, or a single file), and
/// `own_tests`, the crate's own tests file when they are graded (whether
/// it is there, and its bytes).
pub(super) fn fingerprint(
    kit: &[u8],
    game: &GameInfo,
    options: &Options,
    content: &Path,
    own_tests: Option<&Path>,
) -> String {
    fingerprint_of(kit, &settings(game, options), content, own_tests)
}

/// A fingerprint of grading `content` (and `own_tests`) with `kit` (a
/// digest of what grades: the kit's, or a package's) under `settings`.
pub(crate) fn fingerprint_of(
    kit: &[u8],
    settings: &str,
    content: &Path,
    own_tests: Option<&Path>,
) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(kit);
    hash.update(settings.as_bytes());
    let files = if content.is_file() {
        vec![content.to_owned()]
    } else {
        super::submission::files_below(content)
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
    if let Some(path) = own_tests {
        // Apart from the folder's files: a missing file is not an empty one.
        match std::fs::read(path) {
            Ok(bytes) => {
                hash.update(b"\0own tests\0");
                hash.update((bytes.len() as u64).to_le_bytes());
                hash.update(bytes);
            }
            Err(_) => hash.update(b"\0no own tests\0"),
        }
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether this build holds the hidden cases (the instructor's, by default;
/// what students install does not).
pub(super) const HIDDEN_CASES: bool = cfg!(feature = "hidden-cases");

/// The game, the mode and the options that change a verdict or a score.
pub(super) fn settings(game: &GameInfo, options: &Options) -> String {
    format!("{}|{}", game.id, run_settings(options))
}

/// The options of a run that change a verdict or a score, whatever it
/// grades.
pub(crate) fn run_settings(options: &Options) -> String {
    let limits = &options.limits;
    format!(
        "{:?}|{:?}|{:?}|{}|{:?}|{}|{}|{}|{}|{}|{}",
        options.program,
        options.style_points,
        options.test_points,
        options.notes_held,
        limits.timeout,
        limits.output_bytes,
        limits.memory_bytes,
        limits.cpu_seconds,
        limits.processes,
        limits.file_bytes,
        // A deadline changes the commit graded and the score: shards of
        // another policy never merge.
        options
            .deadlines
            .as_ref()
            .map(super::deadline::Deadlines::digest)
            .unwrap_or_default()
    )
}

/// A digest of what every grade of a run depends on besides the
/// submissions: the kit and [`settings`] (a run's header keeps it; shards
/// merge only when theirs are equal).
pub(super) fn grading_digest(kit: &[u8], game: &GameInfo, options: &Options) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(kit);
    hash.update(settings(game, options).as_bytes());
    hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `path` names nothing (an instructor's typo, most likely): the
/// one submission error that stops a class. Anything that is there, even an
/// empty folder or a stray file, is graded, with the reason it gets no
/// points, so that no student's folder stops the class.
pub(super) fn missing(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_err()
}

/// Whether `path` is the output folder (a glob such as `class/*` names it
/// when it is inside the class's folder).
pub(super) fn is_out_folder(path: &Path, out: &Path) -> bool {
    match (path.canonicalize(), out.canonicalize()) {
        (Ok(path), Ok(out)) => path == out,
        _ => false,
    }
}

/// What a grading run says of a submission it opened: a repository not
/// graded at a commit (its 0 is no grade of the code: a date unread, a
/// clone cut short), a folder `--deadline` cannot date, links left out.
pub(crate) fn say_opened(
    name: &str,
    opened: &Result<submission::Submission, SubmissionError>,
    deadline: bool,
) {
    if let Err(SubmissionError::Git(e)) = opened {
        let said = format!("{name}: scored 0, not graded at a commit: {e}");
        eprintln!("boardkit: warning: {}", super::shown::printable(&said));
    }
    let Ok(s) = opened else { return };
    if deadline && s.commit.is_none() {
        let said = format!(
            "{name}: graded as handed in: not a git repository, so --deadline cannot date it"
        );
        eprintln!("boardkit: warning: {}", super::shown::printable(&said));
    }
    if !s.links.is_empty() {
        eprintln!(
            "boardkit: {name}: links left out (never followed): {}",
            s.links.join(", ")
        );
    }
}

/// Which submissions belong to this shard: a deterministic slice of the
/// submissions sorted by name.
pub(crate) fn in_shard(index_in_sorted: usize, shard: Option<(usize, usize)>) -> bool {
    shard.is_none_or(|(k, n)| index_in_sorted % n == k - 1)
}

/// Refuses an `--out` that holds another game's or another mode's results
/// (one report would mix them: a velha student in Mastermind's report, a
/// program's 30 points against the crates' 40); with `--fresh`, takes those
/// results out first.
pub(super) fn earlier_run_of_another_kind(
    game: &GameInfo,
    options: &Options,
) -> Result<(), GradeError> {
    let now = mode(options);
    let same = |earlier: &report::RunInfo| {
        earlier.game == game.id && mode_kind(&earlier.submissions) == mode_kind(&now)
    };
    earlier_run_of_another(options, same, &format!("{}, {now}", game.title))
}

/// Refuses an `--out` whose earlier run is not `same` as this one (which
/// grades `this`); with `--fresh`, takes its results out first.
pub(crate) fn earlier_run_of_another(
    options: &Options,
    same: impl Fn(&report::RunInfo) -> bool,
    this: &str,
) -> Result<(), GradeError> {
    let Some(earlier) = report::read_run_info(&options.out) else {
        return Ok(());
    };
    if same(&earlier) {
        return Ok(());
    }
    let out = options.out.display();
    if !options.fresh {
        return Err(GradeError::OtherRun(format!(
            "{out} holds the results of another run: {}, {}; this one grades {this}: give another --out, or --fresh to replace them",
            earlier.title, earlier.submissions
        )));
    }
    eprintln!(
        "boardkit: --fresh: the results of {}, {} in {out} are replaced",
        earlier.title, earlier.submissions
    );
    let gone = |e| GradeError::Out(options.out.clone(), e);
    for folder in [report::STUDENTS, report::INSTRUCTOR, ".work/taken"] {
        let path = options.out.join(folder);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).map_err(gone)?;
        }
    }
    report::forget_class_files(&options.out).map_err(gone)?;
    Ok(())
}

/// What the header says of a class of crates.
pub(crate) const CRATES: &str = "Rust crates";

/// The header of this run's reports; `latest`, the submissions it was given.
pub(super) fn run_info(
    game: &GameInfo,
    options: &Options,
    latest: Vec<String>,
    kit: &[u8],
    cases: &[Case],
) -> report::RunInfo {
    let limits = &options.limits;
    let case_cpu: std::collections::BTreeMap<String, report::CaseCpu> = cases
        .iter()
        .map(|case| {
            let limits = super::run::case_limits(limits, case);
            let cpu = report::CaseCpu {
                // Rounded up to 10 ms: a measure, which shards of one
                // run (and a merge) report alike.
                reference_ms: (case.reference_cpu.as_secs_f64() * 100.0).ceil().max(1.0) * 10.0,
                limit_s: limits.cpu_seconds,
                wall_s: limits.timeout.as_secs(),
            };
            (case.name.clone(), cpu)
        })
        .collect();
    let slowest = case_cpu
        .values()
        .map(|c| c.reference_ms)
        .fold(0.0, f64::max);
    let mut text = format!(
        "{} s of CPU time per case, or {}x the reference's where more (its slowest case: under {slowest} ms), \
         {} s on the wall clock behind it, a case out of CPU time run once more; \
         {} MiB memory, {} processes, {} KiB output per case",
        limits.cpu_seconds,
        boardkit::judge::REFERENCE_MARGIN,
        limits.timeout.as_secs_f64(),
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
        case_cpu,
        latest,
        grading: grading_digest(kit, game, options),
        shard: options.shard.map(|(k, n)| format!("{k}/{n}")),
        reveal_hidden: options.reveal_hidden,
        deadline: options.deadlines.as_ref().map(|d| d.deadline.to_rfc3339()),
        similarity: options.similarity.clone(),
        download: options.download.clone(),
        locale: None,
        level_names: std::collections::BTreeMap::new(),
    }
}

/// The kind of a run's [`mode`] (crates, programs, a Python exam): runs of
/// one kind grade one set of cases, whatever the command.
pub(super) fn mode_kind(mode: &str) -> &'static str {
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
pub(super) fn mode(options: &Options) -> String {
    match &options.program {
        Some(command) => format!("programs run as `{command}`"),
        None => CRATES.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run's options, crates graded into `out`.
    fn options(out: &Path) -> Options {
        Options {
            submissions: Vec::new(),
            out: out.to_owned(),
            program: None,
            style_points: None,
            test_points: None,
            notes_held: false,
            jobs: 1,
            limits: super::super::sandbox::Limits::default(),
            compile_timeout: std::time::Duration::from_secs(60),
            shard: None,
            build_dir: None,
            isolation: Isolation::None,
            fresh: false,
            reveal_hidden: Default::default(),
            deadlines: None,
            similarity: Default::default(),
            download: None,
        }
    }

    #[test]
    fn shards_share_out_every_submission_once() {
        for n in 1..5 {
            for i in 0..20 {
                let owners = (1..=n).filter(|&k| in_shard(i, Some((k, n)))).count();
                assert_eq!(owners, 1, "submission {i} of {n} shards");
            }
        }
        assert!(in_shard(7, None));
    }

    #[test]
    fn a_fingerprint_follows_the_files_and_the_settings() {
        let dir = tempfile::tempdir().unwrap();
        let game = crate::registry::find("velha").unwrap();
        let work = dir.path().join("alice");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(work.join("mod.rs"), "fn a() {}").unwrap();
        let options = options(&dir.path().join("out"));
        let kit = b"kit".to_vec();
        let first = fingerprint(&kit, game, &options, &work, None);
        assert_eq!(first, fingerprint(&kit, game, &options, &work, None));
        std::fs::write(work.join("mod.rs"), "fn b() {}").unwrap();
        let edited = fingerprint(&kit, game, &options, &work, None);
        assert_ne!(first, edited);
        let mut slower = options.clone();
        slower.limits.timeout *= 2;
        assert_ne!(edited, fingerprint(&kit, game, &slower, &work, None));
        assert_ne!(
            edited,
            fingerprint(b"another kit", game, &options, &work, None)
        );
    }

    #[test]
    fn a_fingerprint_follows_the_own_tests_and_their_points() {
        let dir = tempfile::tempdir().unwrap();
        let game = crate::registry::find("velha").unwrap();
        let work = dir.path().join("alice");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(work.join("mod.rs"), "fn a() {}").unwrap();
        let mine = dir.path().join("mine.rs");
        let mut options = options(&dir.path().join("out"));
        options.test_points = Some(10);
        let kit = b"kit".to_vec();
        let print = |options: &Options| fingerprint(&kit, game, options, &work, Some(&mine));
        let missing = print(&options);
        std::fs::write(&mine, "").unwrap();
        let empty = print(&options);
        assert_ne!(missing, empty);
        std::fs::write(&mine, "#[test] fn a() {}").unwrap();
        let one = print(&options);
        assert_ne!(empty, one);
        std::fs::write(&mine, "#[test] fn a() { assert!(false) }").unwrap();
        assert_ne!(one, print(&options));
        let mut more = options.clone();
        more.test_points = Some(20);
        assert_ne!(print(&options), print(&more));
    }

    #[test]
    fn the_output_folder_is_no_submission_and_a_typo_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("grades");
        std::fs::create_dir_all(&out).unwrap();
        assert!(is_out_folder(&dir.path().join("./grades"), &out));
        assert!(!is_out_folder(dir.path(), &out));
        assert!(missing(&dir.path().join("alcie")));
        assert!(!missing(&out));
    }

    #[test]
    fn runs_of_one_kind_are_one_mode_whatever_their_command() {
        let dir = tempfile::tempdir().unwrap();
        let mut options = options(dir.path());
        assert_eq!(mode_kind(&mode(&options)), "crates");
        options.program = Some("python3 a.py".into());
        let a = mode(&options);
        options.program = Some("python3 b.py".into());
        assert_ne!(a, mode(&options));
        assert_eq!(mode_kind(&a), mode_kind(&mode(&options)));
        assert_eq!(mode_kind(&a), "programs");
    }
}
