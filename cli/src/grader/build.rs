//! Grading's second step, build: Rust submissions, each in a sandbox of
//! its own (SPEC 5.3).
//!
//! Each submission becomes a crate made of the kit's own files of the
//! starter (its manifest, shared modules, the game's harness) plus the
//! student's folder `src/<game>/`, as the game's manifest declares it:
//! nothing else of a submission is read, so an edited test, manifest or
//! `build.rs` changes nothing. The crate has two binaries, its game and a
//! function driver.
//!
//! A Rust build runs the student's code (macros, `const` evaluation,
//! `include_str!`), so it runs in the sandbox like any case: offline, with
//! the toolchain and the downloaded crates mounted read-only, its own
//! target folder writable, its own timeout, and nothing left running after
//! it. The kit's dependencies are built once per class ([`Class::prepare`],
//! the kit's own code only), then each submission starts from hard links to
//! them (read-only to the build) and compiles its own crate alone: one that
//! does not compile, or never finishes, affects no other, and its name is
//! never part of a manifest.
//!
//! Clippy compiles each submission's own crate (`clippy-driver` as Cargo's
//! workspace wrapper: the same binaries, and clippy's lints on the way,
//! with the dependencies built once as before), under the kit's lint set
//! (`exercises/lints.toml`, the starter's `[lints]`): its warnings on the
//! student's folder are the submission's lint notes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::grader::notes::Note;
use crate::grader::sandbox::{Ending, Isolation, Job, Limits, LineWatcher, Sandbox};
use crate::registry::GameInfo;

/// A submission's binaries.
#[derive(Debug, Clone)]
pub(crate) struct Built {
    pub game: PathBuf,
    pub driver: PathBuf,
    /// The compiler's and clippy's warnings on the student's folder.
    pub lints: Vec<Note>,
}

/// Why a submission has no binaries.
#[derive(Debug, Clone)]
pub(crate) enum BuildError {
    /// The compiler refused it (its first error), or it could not be prepared.
    Failed(String),
    /// The build did not finish in time: never cached as a result.
    TimedOut(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Failed(m) | BuildError::TimedOut(m) => f.write_str(m),
        }
    }
}

/// Why the class's crate could not be prepared, or a build not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PrepareError {
    #[error(transparent)]
    Kit(#[from] crate::exercise_data::ExerciseError),
    #[error(transparent)]
    Starter(#[from] crate::starter::StarterError),
    #[error("{}: {source}", path.display())]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot run {program}: {source}")]
    Run {
        program: String,
        source: std::io::Error,
    },
    #[error("no cargo in the toolchain {}", .0.display())]
    NoCargo(PathBuf),
    #[error("cannot fetch the kit's dependencies: {0}")]
    Fetch(String),
    #[error("the kit's dependencies did not build within {} s", .0.as_secs())]
    DependenciesTimedOut(Duration),
    #[error("the kit's dependencies did not build: {0}")]
    Dependencies(String),
    #[error("the student's folder holds more than {} MiB", MAX_STUDENT_BYTES >> 20)]
    TooLarge,
    #[error("no CARGO_HOME and no HOME")]
    NoCargoHome,
    #[error("the starter's Cargo.toml: {0}")]
    Manifest(String),
}

/// An I/O error on `path`.
fn file_error(path: &Path) -> impl FnOnce(std::io::Error) -> PrepareError + '_ {
    move |source| PrepareError::File {
        path: path.to_owned(),
        source,
    }
}

const DRIVER: &str = r#"//! The kit's function driver: one request a line on stdin, one answer a
//! line on stdout, through the student's library (`function_fixture::drive`).
fn main() {
    let stdin = std::io::stdin();
    let _ = boardkit::function_fixture::drive(
        boardkit::harness::GAME::answer,
        stdin.lock(),
        std::io::stdout().lock(),
    );
}
"#;

/// Writes `bytes` to `path` unless it already holds them (keeps mtimes, so
/// Cargo's incremental build stays valid).
fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, bytes)
}

/// The most bytes of a student's folder taken into the build.
const MAX_STUDENT_BYTES: u64 = 16 << 20;

/// The files of the student's folder `solution` below `root`: the folder
/// itself, not a link to somebody else's, and not empty.
fn submitted_files(root: &Path, solution: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut folder = root.to_owned();
    for part in Path::new(solution).components() {
        folder.push(part);
        if std::fs::symlink_metadata(&folder).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "{solution} is a link, not a folder of the submission"
            ));
        }
    }
    let students = student_files(&folder).map_err(|e| e.to_string())?;
    if students.is_empty() {
        return Err(format!("no {solution}/ folder in the submission"));
    }
    Ok(students)
}

/// The student's files: every regular file below `folder` (links and other
/// kinds skipped), as paths relative to `folder`.
fn student_files(folder: &Path) -> Result<Vec<(String, Vec<u8>)>, PrepareError> {
    let mut files = Vec::new();
    let mut total = 0u64;
    for path in super::submission::files_below(folder) {
        // Below `folder`: the walk started there.
        let relative = path
            .strip_prefix(folder)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(&path).map_err(file_error(Path::new(&relative)))?;
        total += bytes.len() as u64;
        if total > MAX_STUDENT_BYTES {
            return Err(PrepareError::TooLarge);
        }
        files.push((relative, bytes));
    }
    Ok(files)
}

/// Inside the sandbox: the crate, its target, the toolchain, Cargo's home.
const CRATE: &str = "/build/crate";
const TARGET: &str = "/build/target";
const RUST: &str = "/opt/rust";
const CARGO_HOME: &str = "/opt/cargo";

/// The toolchain the grader was built with: its sysroot and Cargo's
/// registry of downloaded crates (host paths).
#[derive(Debug, Clone)]
struct Toolchain {
    sysroot: PathBuf,
    registry: PathBuf,
    /// The host's target triple.
    host: String,
    /// Whether the toolchain has clippy (`rustup component add clippy`).
    clippy: bool,
}

impl Toolchain {
    fn find() -> Result<Toolchain, PrepareError> {
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let output = Command::new(&rustc)
            .args(["--print", "sysroot"])
            .output()
            .map_err(|source| PrepareError::Run {
                program: rustc.clone(),
                source,
            })?;
        let sysroot = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if !sysroot.join("bin/cargo").is_file() {
            return Err(PrepareError::NoCargo(sysroot));
        }
        let version =
            Command::new(&rustc)
                .arg("-vV")
                .output()
                .map_err(|source| PrepareError::Run {
                    program: rustc.clone(),
                    source,
                })?;
        let host = String::from_utf8_lossy(&version.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("host: "))
            .unwrap_or_default()
            .to_owned();
        let cargo_home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
            .ok_or(PrepareError::NoCargoHome)?;
        Ok(Toolchain {
            clippy: sysroot.join("bin/clippy-driver").is_file(),
            sysroot,
            registry: cargo_home.join("registry"),
            host,
        })
    }
}

/// What a build compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Units {
    /// The kit's dependencies, once per class.
    Dependencies,
    /// A submission's binaries, linted by clippy.
    Submission,
    /// A library alone, for students' own tests (`crate::mine`).
    Library,
}

/// A class's build: the kit's dependencies built once (in a folder runs
/// may share), then each submission's crate (in the run's own).
pub(crate) struct Class<'a> {
    game: &'a GameInfo,
    dir: PathBuf,
    /// The built dependencies: `<dir>/deps/<key>`, the key naming the
    /// manifest and lock they were built from, so starters of other
    /// dependencies (two games graded with one build folder, a new kit)
    /// never take each other's.
    deps: PathBuf,
    toolchain: Toolchain,
    /// The lock file of the class's crates: the kit's, for the crate's own
    /// name, written once by `cargo fetch`.
    lock: Vec<u8>,
}

/// How long the kit's own dependencies may take to build, once per class.
const DEPENDENCIES_TIMEOUT: Duration = Duration::from_secs(1800);

/// How much a build may use.
fn build_limits(timeout: Duration) -> Limits {
    Limits {
        timeout,
        output_bytes: 16 << 20,
        memory_bytes: 4 << 30,
        // Past what a build starved on a loaded machine may use in the
        // wall clock it is given then (under half a core, up to four
        // times its limit): its clock stops it, not SIGXCPU.
        cpu_seconds: timeout.as_secs().max(1) * 3,
        whole_tree: false,
        processes: 256,
        file_bytes: 1 << 30,
        // Its `/tmp`, Cargo's home, and what it adds to its target folder.
        disk_bytes: 2 << 30,
    }
}

impl<'a> Class<'a> {
    /// Builds the kit's dependencies in `build` (the starter with its
    /// stubs: the kit's code only): once, then reused by every run given
    /// that folder. Each submission's crate and target go in `work`, this
    /// run's own.
    ///
    /// `progress` counts the crates compiled out of the crate graph's.
    pub(crate) fn prepare(
        game: &'a GameInfo,
        build: &Path,
        work: &Path,
        sandbox: &Sandbox,
        timeout: Duration,
        progress: &indicatif::ProgressBar,
    ) -> Result<Class<'a>, PrepareError> {
        // Absolute: without a sandbox, cargo runs in the crate's folder and
        // would read a relative target folder from there.
        let dir = &std::path::absolute(build).map_err(file_error(build))?;
        let work = &std::path::absolute(work).map_err(file_error(work))?;
        let manifest = crate::exercise_data::manifest(game.id)?;
        let key = dependencies_key(game, &manifest, sandbox)?;
        let deps = dir.join("deps").join(&key);
        // One build folder may serve runs at once (CI's grading tests and
        // `dev check` share one): the first builds, the others wait for it.
        let lock_path = dir.join("deps").join(format!("{key}.lock"));
        std::fs::create_dir_all(dir.join("deps")).map_err(file_error(&lock_path))?;
        let lock_file = std::fs::File::create(&lock_path).map_err(file_error(&lock_path))?;
        let mut lock = fd_lock::RwLock::new(lock_file);
        let _building = lock.write().map_err(file_error(&lock_path))?;
        let mut class = Class {
            game,
            dir: work.to_owned(),
            deps: deps.clone(),
            toolchain: Toolchain::find()?,
            lock: Vec::new(),
        };
        let stub: Vec<(String, Vec<u8>)> = crate::exercise_data::folder(&manifest.files.stub)
            .into_iter()
            .map(|(p, b)| (p.to_owned(), b.to_vec()))
            .collect();
        let target = deps.join("target");
        let done = deps.join("built");
        // Each game's crate (its lock is the submissions'), one build.
        let crate_dir = deps.join(format!("crate-{}", game.id));
        let lock = crate_dir.join("Cargo.lock");
        let fetched = lock.is_file() && done.is_file();
        if fetched {
            class.lock = std::fs::read(&lock).map_err(file_error(&lock))?;
        }
        class.write_crate(&crate_dir, &stub)?;
        if !fetched {
            class.fetch(&crate_dir)?;
        }
        if !done.is_file() {
            class.build_dependencies(sandbox, &crate_dir, &target, timeout, progress)?;
            std::fs::write(&done, b"").map_err(file_error(&done))?;
        }
        // Every submission's build links these files: none may write them.
        seal(&target).map_err(file_error(&target))?;
        class.lock = std::fs::read(&lock).map_err(file_error(&lock))?;
        Ok(class)
    }

    /// Downloads the kit's dependencies for `crate_dir`, outside the
    /// sandbox.
    fn fetch(&self, crate_dir: &Path) -> Result<(), PrepareError> {
        // Downloads, if any, happen here, outside the sandbox: the kit's
        // own dependencies at the kit's locked versions (the lock file
        // only loses what the crate does not use).
        let fetch = Command::new(self.toolchain.sysroot.join("bin/cargo"))
            .args(["fetch", "--manifest-path"])
            .arg(crate_dir.join("Cargo.toml"))
            .env("RUSTC", self.toolchain.sysroot.join("bin/rustc"))
            .output()
            .map_err(|source| PrepareError::Run {
                program: "cargo".into(),
                source,
            })?;
        if !fetch.status.success() {
            return Err(PrepareError::Fetch(
                String::from_utf8_lossy(&fetch.stderr).into_owned(),
            ));
        }
        Ok(())
    }

    /// Builds the kit's dependencies of `crate_dir` into `target`, then
    /// seals them.
    fn build_dependencies(
        &self,
        sandbox: &Sandbox,
        crate_dir: &Path,
        target: &Path,
        timeout: Duration,
        progress: &indicatif::ProgressBar,
    ) -> Result<(), PrepareError> {
        std::fs::create_dir_all(target).map_err(file_error(target))?;
        // Once per class, before any submission: every core, and the
        // time the kit's own code needs (the submissions' timeout is
        // for theirs).
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let deps_timeout = timeout.max(DEPENDENCIES_TIMEOUT);
        if let Some(units) = self.units(&crate_dir.join("Cargo.toml")) {
            progress.set_length(units);
        }
        let compiled = progress.clone();
        let watch = LineWatcher(std::sync::Arc::new(move |line: &[u8]| {
            if let Some(name) = artifact_name(line) {
                compiled.set_message(format!("building the kit's dependencies: {name}"));
                compiled.inc(1);
            }
        }));
        let outcome = self.cargo(
            sandbox,
            crate_dir,
            target,
            deps_timeout,
            cores,
            Some(watch),
            Units::Dependencies,
        )?;
        match outcome.ending {
            Ending::Exited(0) => {}
            Ending::TimedOut | Ending::CpuLimit(_) => {
                return Err(PrepareError::DependenciesTimedOut(deps_timeout));
            }
            _ => {
                return Err(PrepareError::Dependencies(
                    String::from_utf8_lossy(&outcome.stderr).into_owned(),
                ));
            }
        }
        // The stubs' own artifacts go: every submission builds its crate
        // (same package) anew, and must not find them as read-only links.
        let debug = target.join("debug");
        remove_own_artifacts(&debug).map_err(file_error(&debug))?;
        // Sealed before it is said built: a run that finds it built
        // finds it sealed.
        seal(target).map_err(file_error(target))?;
        Ok(())
    }

    /// Writes a crate of the kit's files and `students` (paths below the
    /// student's folder) into `dir`, afresh.
    fn write_crate(&self, dir: &Path, students: &[(String, Vec<u8>)]) -> Result<(), PrepareError> {
        let manifest = crate::exercise_data::manifest(self.game.id)?;
        let kit = crate::starter::kit_owned_files(self.game, &manifest)?;
        let _ = std::fs::remove_dir_all(dir.join("src"));
        for (path, bytes) in &kit {
            let bytes = match path.as_str() {
                "Cargo.lock" if !self.lock.is_empty() => &self.lock,
                "Cargo.lock" => bytes,
                _ if path.starts_with("src/") => bytes,
                _ => continue,
            };
            let path = dir.join(path);
            write_if_changed(&path, bytes).map_err(file_error(&path))?;
        }
        for (path, bytes) in students {
            let target = dir.join(&manifest.files.solution).join(path);
            write_if_changed(&target, bytes).map_err(file_error(&target))?;
        }
        let driver = dir.join("src/bin/driver.rs");
        write_if_changed(&driver, DRIVER.replace("GAME", self.game.id).as_bytes())
            .map_err(file_error(&driver))?;
        let cargo_toml = crate_manifest(&kit)?;
        let manifest_path = dir.join("Cargo.toml");
        write_if_changed(&manifest_path, cargo_toml.as_bytes()).map_err(file_error(&manifest_path))
    }

    /// How many units (libraries, build scripts, binaries) building the
    /// kit's crate at `manifest` compiles: the crates its binaries need,
    /// from `cargo metadata` (run on the kit's own crate, outside the
    /// sandbox, as `cargo fetch` is). `None` when cargo cannot tell.
    fn units(&self, manifest: &Path) -> Option<u64> {
        let output = Command::new(self.toolchain.sysroot.join("bin/cargo"))
            .args([
                "metadata",
                "--format-version",
                "1",
                "--frozen",
                "--manifest-path",
            ])
            .arg(manifest)
            .args(["--filter-platform", &self.toolchain.host])
            .env("RUSTC", self.toolchain.sysroot.join("bin/rustc"))
            .output()
            .ok()?;
        let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
        count_units(&metadata)
    }

    /// Whether submissions are compiled by clippy, and so have lint notes.
    pub(crate) fn lints(&self) -> bool {
        self.toolchain.clippy
    }

    /// `cargo build` of the crate at `dir` into `target`, in the sandbox;
    /// `watch` sees cargo's JSON messages as they come. With `lint`, clippy
    /// compiles the crate's own package (its dependencies stay rustc's).
    #[allow(clippy::too_many_arguments)] // one private call per use
    fn cargo(
        &self,
        sandbox: &Sandbox,
        dir: &Path,
        target: &Path,
        timeout: Duration,
        jobs: usize,
        watch: Option<LineWatcher>,
        units: Units,
    ) -> Result<crate::grader::sandbox::Outcome, PrepareError> {
        let targets = if units == Units::Library {
            "--lib"
        } else {
            "--bins"
        };
        let lint = units == Units::Submission;
        let mut job = Job::new(
            &format!("{RUST}/bin/cargo"),
            &[
                "build".into(),
                "--frozen".into(),
                targets.into(),
                "--message-format=json".into(),
                "--quiet".into(),
            ],
        );
        job.cwd = Some(CRATE.into());
        job.as_grader_unsandboxed = true;
        job.watch_stdout = watch;
        job.read_only = vec![
            (dir.to_owned(), CRATE.into()),
            (self.toolchain.sysroot.clone(), RUST.into()),
        ];
        job.writable = vec![(target.to_owned(), TARGET.into())];
        // Cargo's home: in the sandbox, a scratch folder with the downloaded
        // crates mounted read-only at a fixed path; without it, the grader's
        // own (the same path every build, so dependencies are reused).
        let cargo_home = match sandbox.isolation() {
            Isolation::None => self
                .toolchain
                .registry
                .parent()
                .unwrap_or(Path::new("/"))
                .display()
                .to_string(),
            Isolation::Bubblewrap(_) => {
                job.read_only.push((
                    self.toolchain.registry.clone(),
                    format!("{CARGO_HOME}/registry"),
                ));
                job.scratch = vec![CARGO_HOME.into()];
                CARGO_HOME.into()
            }
        };
        job.env = [
            ("PATH", format!("{RUST}/bin:/usr/bin:/bin")),
            ("CARGO_HOME", cargo_home),
            ("CARGO_TARGET_DIR", TARGET.into()),
            ("RUSTC", format!("{RUST}/bin/rustc")),
            ("CARGO_INCREMENTAL", "0".into()),
            ("CARGO_TERM_COLOR", "never".into()),
            ("CARGO_BUILD_JOBS", jobs.to_string()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
        if lint && self.toolchain.clippy {
            job.env.push((
                "RUSTC_WORKSPACE_WRAPPER".into(),
                format!("{RUST}/bin/clippy-driver"),
            ));
        }
        sandbox
            .run(&job, &build_limits(timeout))
            .map_err(|source| PrepareError::Run {
                program: "the build".into(),
                source,
            })
    }

    /// Builds the submission `name` whose crate root is `root`.
    pub(crate) fn build(
        &self,
        sandbox: &Sandbox,
        name: &str,
        root: &Path,
        timeout: Duration,
    ) -> Result<Built, BuildError> {
        let failed = |e: String| BuildError::Failed(e);
        let manifest =
            crate::exercise_data::manifest(self.game.id).map_err(|e| failed(e.to_string()))?;
        let students = submitted_files(root, &manifest.files.solution).map_err(failed)?;
        let crate_dir = self.dir.join("crates").join(name);
        self.write_crate(&crate_dir, &students)
            .map_err(|e| failed(e.to_string()))?;
        // The kit's dependencies, as hard links: the build reads them, and
        // adds its own files beside them.
        let target = self.dir.join("targets").join(name);
        let _ = std::fs::remove_dir_all(&target);
        link_tree(&self.deps.join("target"), &target)
            .map_err(|e| failed(format!("cannot prepare the build: {e}")))?;
        // Submissions build side by side, one job each.
        let outcome = self
            .cargo(
                sandbox,
                &crate_dir,
                &target,
                timeout,
                1,
                None,
                Units::Submission,
            )
            .map_err(|e| failed(e.to_string()))?;
        match outcome.ending {
            Ending::TimedOut | Ending::CpuLimit(_) => {
                return Err(BuildError::TimedOut(format!(
                    "compilation timed out after {} s",
                    timeout.as_secs()
                )));
            }
            Ending::OutputLimit => {
                return Err(failed("the compiler printed more than 16 MiB".into()));
            }
            Ending::DiskLimit(folder) => {
                return Err(failed(format!(
                    "the build was stopped: {folder} held more than {} MiB",
                    build_limits(timeout).disk_bytes >> 20
                )));
            }
            _ => {}
        }
        let messages = read_messages(&String::from_utf8_lossy(&outcome.stdout));
        let (errors, executables) = (messages.error, messages.executables);
        let lints: Vec<Note> = messages
            .warnings
            .iter()
            .filter_map(|w| crate::grader::notes::lint_note(w, &manifest.files.solution))
            .collect();
        // A path inside the sandbox, or already the host's (--no-sandbox).
        let inside = |name: &str| {
            executables
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, p)| {
                    p.strip_prefix(TARGET)
                        .map(|rel| target.join(rel))
                        .ok()
                        .or_else(|| p.starts_with(&target).then(|| p.clone()))
                })
        };
        match (errors, inside("game"), inside("driver")) {
            (None, Some(game), Some(driver)) if outcome.ending == Ending::Exited(0) => Ok(Built {
                game,
                driver,
                lints,
            }),
            (Some(error), _, _) => Err(failed(error)),
            _ => Err(failed(format!(
                "the crate did not build: {}",
                String::from_utf8_lossy(&outcome.stderr)
                    .lines()
                    .take(20)
                    .collect::<Vec<_>>()
                    .join("\n")
            ))),
        }
    }
}

/// A library built for students' tests ([`Class::build_library`]): its
/// target folder, and each library crate it compiled or found fresh there
/// (name, path below the folder), for `--extern`.
#[derive(Debug, Clone)]
pub(crate) struct Library {
    pub target: PathBuf,
    externs: Vec<(String, String)>,
}

/// The libraries of cargo's `compiler-artifact` messages in `stdout`, as
/// (crate name, rlib path below `target`, inside the sandbox or not).
fn library_artifacts(stdout: &str, target: &Path) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let name = message["target"]["name"]
            .as_str()
            .unwrap_or_default()
            .replace('-', "_");
        let files = message["filenames"].as_array().cloned().unwrap_or_default();
        for file in files.iter().filter_map(|f| f.as_str()) {
            let path = Path::new(file);
            let below = path
                .strip_prefix(TARGET)
                .or_else(|_| path.strip_prefix(target));
            if let (Ok(below), true) = (below, file.ends_with(".rlib")) {
                found.retain(|(n, _)| *n != name);
                found.push((name.clone(), below.to_string_lossy().into_owned()));
            }
        }
    }
    found
}

impl Class<'_> {
    /// Builds the library of a crate whose student's folder is `folder`
    /// (the example, a mutant, a solution) plus the `extra` files (paths
    /// from the crate's root; `src/lib.rs` gets each `.rs` one of them as
    /// a private module). Gives the target folder whose `debug/deps` holds
    /// it: a student's tests compile against it ([`Class::compile_tests`]).
    pub(crate) fn build_library(
        &self,
        sandbox: &Sandbox,
        name: &str,
        folder: &[(String, Vec<u8>)],
        extra: &[(String, Vec<u8>)],
        timeout: Duration,
    ) -> Result<Library, BuildError> {
        let failed = |e: String| BuildError::Failed(e);
        let key = {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            (folder, extra, &self.deps).hash(&mut hasher);
            format!("{:016x}", hasher.finish())
        };
        // Beside the class's dependencies, named by its files: every run
        // given that build folder (dev check, the long tests, `boardkit
        // test --mine` again) finds it built. One process builds it, the
        // others wait.
        let shared = self.deps.join("own-tests");
        let name = format!("{name}-{key}");
        std::fs::create_dir_all(&shared).map_err(|e| failed(e.to_string()))?;
        let lock_file = std::fs::File::create(shared.join(format!("{name}.lock")))
            .map_err(|e| failed(e.to_string()))?;
        let mut lock = fd_lock::RwLock::new(lock_file);
        let _building = lock.write().map_err(|e| failed(e.to_string()))?;
        let target = shared.join("targets").join(&name);
        let stamp = target.join("boardkit-library.stamp");
        let externs_file = target.join("boardkit-externs.json");
        let known: Option<Vec<(String, String)>> = std::fs::read(&externs_file)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        if let (true, Some(externs)) = (
            std::fs::read_to_string(&stamp).is_ok_and(|s| s == key),
            known,
        ) {
            return Ok(Library { target, externs });
        }
        let crate_dir = shared.join("crates").join(&name);
        self.write_crate(&crate_dir, folder)
            .map_err(|e| failed(e.to_string()))?;
        let lib_rs = crate_dir.join("src/lib.rs");
        let mut root = std::fs::read_to_string(&lib_rs).map_err(|e| failed(e.to_string()))?;
        for (path, bytes) in extra {
            let file = crate_dir.join(path);
            write_if_changed(&file, bytes).map_err(|e| failed(e.to_string()))?;
            if let Some(module) = path
                .strip_prefix("src/")
                .and_then(|p| p.strip_suffix(".rs"))
            {
                root.push_str(&format!("mod {module};\n"));
            }
        }
        write_if_changed(&lib_rs, root.as_bytes()).map_err(|e| failed(e.to_string()))?;
        // Kept from an earlier run: Cargo rebuilds what changed.
        if !target.exists() {
            link_tree(&self.deps.join("target"), &target)
                .map_err(|e| failed(format!("cannot prepare the build: {e}")))?;
        }
        let outcome = self
            .cargo(
                sandbox,
                &crate_dir,
                &target,
                timeout,
                2,
                None,
                Units::Library,
            )
            .map_err(|e| failed(e.to_string()))?;
        let messages = read_messages(&String::from_utf8_lossy(&outcome.stdout));
        match (outcome.ending, messages.error) {
            (_, Some(error)) => Err(failed(error)),
            (Ending::Exited(0), None) => {
                let externs = library_artifacts(&String::from_utf8_lossy(&outcome.stdout), &target);
                let json = serde_json::to_vec(&externs).unwrap_or_default();
                let _ = std::fs::write(&externs_file, json);
                let _ = std::fs::write(&stamp, key);
                Ok(Library { target, externs })
            }
            (ending, None) => Err(failed(format!(
                "the library did not build ({ending:?}): {}",
                String::from_utf8_lossy(&outcome.stderr)
            ))),
        }
    }

    /// Compiles a student's test file `source` (libtest's `#[test]`s)
    /// against the library built in `library` ([`Class::build_library`]),
    /// in the sandbox, into `out/tests`, with the symbol `required` linked
    /// in. Without `unsafe`: a test cannot run before `main` nor reach what
    /// the library keeps to itself.
    pub(crate) fn compile_tests(
        &self,
        sandbox: &Sandbox,
        library: &Library,
        source: &Path,
        (out, required): (&Path, &str),
        timeout: Duration,
    ) -> Result<PathBuf, BuildError> {
        let failed = |e: String| BuildError::Failed(e);
        std::fs::create_dir_all(out).map_err(|e| failed(e.to_string()))?;
        // What a starter's `tests/` may use: the crate, and its dependencies.
        let manifest =
            crate::exercise_data::manifest(self.game.id).map_err(|e| failed(e.to_string()))?;
        let kit = crate::starter::kit_owned_files(self.game, &manifest)
            .map_err(|e| failed(e.to_string()))?;
        let cargo_toml: toml::Table = kit
            .iter()
            .find(|(p, _)| p == "Cargo.toml")
            .and_then(|(_, b)| String::from_utf8_lossy(b).parse().ok())
            .unwrap_or_default();
        let names: Vec<String> = cargo_toml
            .get("dependencies")
            .and_then(|d| d.as_table())
            .into_iter()
            .flat_map(|d| d.keys())
            .map(|name| name.replace('-', "_"))
            .chain(["boardkit".to_owned()])
            .collect();
        // Each by its file: a build may hold two of one name.
        let externs = library
            .externs
            .iter()
            .filter(|(name, _)| names.contains(name))
            .flat_map(|(name, below)| ["--extern".to_owned(), format!("{name}={TARGET}/{below}")]);
        let mut args: Vec<String> = [
            "--edition=2024",
            "--test",
            "--crate-name=mine",
            "-Copt-level=1",
            "-Cdebuginfo=0",
            // Never `--cap-lints`: it caps this `forbid` too.
            "-Funsafe_code",
            "--error-format=short",
            "-L",
            &format!("dependency={TARGET}/debug/deps"),
            "-o",
            "/build/out/tests",
            "/build/tests.rs",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.extend(externs);
        // The library's object that defines `required` is linked, whether
        // the tests call the library or not.
        args.push(format!("-Clink-arg=-Wl,--undefined={required}"));
        let mut job = Job::new(&format!("{RUST}/bin/rustc"), &args);
        job.as_grader_unsandboxed = true;
        job.read_only = vec![
            (library.target.clone(), TARGET.into()),
            (source.to_owned(), "/build/tests.rs".into()),
            (self.toolchain.sysroot.clone(), RUST.into()),
        ];
        job.writable = vec![(out.to_owned(), "/build/out".into())];
        job.env = vec![("PATH".into(), format!("{RUST}/bin:/usr/bin:/bin"))];
        let outcome = sandbox
            .run(&job, &build_limits(timeout))
            .map_err(|e| failed(e.to_string()))?;
        match outcome.ending {
            Ending::Exited(0) => Ok(out.join("tests")),
            Ending::TimedOut | Ending::CpuLimit(_) => Err(BuildError::TimedOut(format!(
                "the tests' compilation timed out after {} s",
                timeout.as_secs()
            ))),
            _ => Err(failed(
                String::from_utf8_lossy(&outcome.stderr)
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .take(12)
                    .collect::<Vec<_>>()
                    .join("\n"),
            )),
        }
    }
}

/// The one package name of every submission's crate (never its student's name).
const PACKAGE: &str = "submission";

/// Removes what a build of the class's own crate left in `profile` (its
/// fingerprints, library, binaries), keeping its dependencies'.
fn remove_own_artifacts(profile: &Path) -> std::io::Result<()> {
    let fingerprints = profile.join(".fingerprint");
    for entry in std::fs::read_dir(&fingerprints)?.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(&format!("{PACKAGE}-"))
        {
            std::fs::remove_dir_all(entry.path())?;
        }
    }
    let own = |name: &str| {
        ["libboardkit", "boardkit-", "game", "driver"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
    };
    for folder in [profile.to_owned(), profile.join("deps")] {
        for entry in std::fs::read_dir(&folder)?.flatten() {
            if entry.file_type()?.is_file() && own(&entry.file_name().to_string_lossy()) {
                std::fs::remove_file(entry.path())?;
            }
        }
    }
    Ok(())
}

/// The crate a `compiler-artifact` message of cargo names; `None` for
/// every other line.
fn artifact_name(line: &[u8]) -> Option<String> {
    let message: serde_json::Value = serde_json::from_slice(line).ok()?;
    (message["reason"] == "compiler-artifact")
        .then(|| message["target"]["name"].as_str().unwrap_or("?").to_owned())
}

/// The units a build of the root package's binaries compiles, from `cargo
/// metadata`: a library per package it needs (dev-dependencies aside), a
/// build script where one is, and the root's library and binaries.
fn count_units(metadata: &serde_json::Value) -> Option<u64> {
    let packages: std::collections::HashMap<&str, &serde_json::Value> = metadata["packages"]
        .as_array()?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let nodes: std::collections::HashMap<&str, &serde_json::Value> = metadata["resolve"]["nodes"]
        .as_array()?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let root = metadata["resolve"]["root"].as_str()?;
    let mut seen = std::collections::HashSet::from([root]);
    let mut stack = vec![root];
    let mut units = 0;
    while let Some(id) = stack.pop() {
        let targets = packages.get(id)?["targets"].as_array()?;
        let kinds = |t: &serde_json::Value| -> Vec<String> {
            t["kind"]
                .as_array()
                .map(|k| {
                    k.iter()
                        .filter_map(|k| k.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        units += targets
            .iter()
            .filter(|t| {
                let kinds = kinds(t);
                kinds.iter().any(|k| k == "custom-build")
                    || (id == root && kinds.iter().any(|k| k == "bin"))
                    || kinds
                        .iter()
                        .any(|k| matches!(k.as_str(), "lib" | "rlib" | "proc-macro"))
            })
            .count() as u64;
        for dep in nodes.get(id)?["deps"].as_array()? {
            let needed = dep["dep_kinds"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k["kind"] != "dev"));
            if let Some(dep) = dep["pkg"].as_str().filter(|_| needed) {
                if seen.insert(dep) {
                    stack.push(dep);
                }
            }
        }
    }
    Some(units)
}

/// What a build's JSON messages say.
#[derive(Debug, Default)]
struct Messages {
    /// The first compiler error, rendered.
    error: Option<String>,
    /// Every executable built (name, path).
    executables: Vec<(String, PathBuf)>,
    /// The compiler's warnings (its `message` objects).
    warnings: Vec<serde_json::Value>,
}

fn read_messages(stdout: &str) -> Messages {
    let mut error = None;
    let mut executables = Vec::new();
    let mut warnings = Vec::new();
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        match message["reason"].as_str() {
            Some("compiler-message")
                if message["message"]["level"] == "error" && error.is_none() =>
            {
                let rendered: String = message["message"]["rendered"]
                    .as_str()
                    .unwrap_or("")
                    .chars()
                    .take(4000)
                    .collect();
                error = Some(rendered);
            }
            Some("compiler-message") if message["message"]["level"] == "warning" => {
                warnings.push(message["message"].clone());
            }
            Some("compiler-artifact") => {
                if let (Some(exe), Some(name)) = (
                    message["executable"].as_str(),
                    message["target"]["name"].as_str(),
                ) {
                    executables.push((name.to_owned(), PathBuf::from(exe)));
                }
            }
            _ => {}
        }
    }
    Messages {
        error,
        executables,
        warnings,
    }
}

/// Copies the folder tree `from` into `to`, its files as hard links, except
/// the few Cargo rewrites in place (locks and its cache of rustc's answers),
/// which are copied.
/// Makes every file below `dir` read-only, and the grader's (root's, when
/// the grader is root: the builds' slot users own nothing of them), so no
/// student build can change what every other build links to.
fn seal(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            seal(&path)?;
        } else if kind.is_file() {
            if root {
                std::os::unix::fs::chown(&path, Some(0), Some(0))?;
            }
            let mode = entry.metadata()?.permissions().mode() & 0o555;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(())
}

fn link_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        let name = entry.file_name();
        if kind.is_dir() {
            link_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            if name == ".cargo-lock" {
                continue;
            }
            if name == ".rustc_info.json" {
                std::fs::copy(entry.path(), &target)?;
            } else {
                // A copy where the build folder is on another filesystem.
                std::fs::hard_link(entry.path(), &target)
                    .or_else(|_| std::fs::copy(entry.path(), &target).map(|_| ()))?;
            }
        }
    }
    Ok(())
}

/// The crate's manifest: the starter's dependencies, two binaries, one
/// fixed package name whatever the submission is called.
fn crate_manifest(files: &[(String, Vec<u8>)]) -> Result<String, PrepareError> {
    let starter = files
        .iter()
        .find(|(p, _)| p == "Cargo.toml")
        .ok_or_else(|| PrepareError::Manifest("missing".into()))?;
    let starter: toml::Table = String::from_utf8_lossy(&starter.1)
        .parse()
        .map_err(|e: toml::de::Error| PrepareError::Manifest(e.to_string()))?;
    let manifest = SubmissionManifest {
        package: Package {
            name: PACKAGE,
            version: "0.1.0",
            edition: "2024",
            rust_version: starter
                .get("package")
                .and_then(|p| p.get("rust-version"))
                .and_then(|v| v.as_str())
                .map(str::to_owned),
            publish: false,
        },
        lib: Target {
            name: "boardkit",
            path: "src/lib.rs",
        },
        bin: vec![
            Target {
                name: "game",
                path: "src/main.rs",
            },
            Target {
                name: "driver",
                path: "src/bin/driver.rs",
            },
        ],
        dependencies: starter
            .get("dependencies")
            .cloned()
            .unwrap_or(toml::Value::Table(Default::default())),
        lints: starter
            .get("lints")
            .cloned()
            .unwrap_or(toml::Value::Table(Default::default())),
        // The submission's own crate in one codegen unit: it builds with
        // one job (side by side with the others), where 256 units only
        // add work (7.8 s against 5.8 s for the lib of velha's example).
        // The dependencies, built once, keep Cargo's default.
        profile: toml::toml! {
            [dev]
            debug = false
            opt-level = 1
            [dev.package.submission]
            codegen-units = 1
        },
        workspace: toml::Table::new(),
    };
    toml::to_string(&manifest).map_err(|e| PrepareError::Manifest(e.to_string()))
}

/// The key of a build of the kit's dependencies: what the crates the lock
/// downloads are, and whether they build in the sandbox.
fn dependencies_key(
    game: &GameInfo,
    manifest: &crate::exercise_data::Manifest,
    sandbox: &Sandbox,
) -> Result<String, PrepareError> {
    use sha2::Digest as _;
    let kit = crate::starter::kit_owned_files(game, manifest)?;
    let mut hasher = sha2::Sha256::new();
    // Built in the sandbox or not: the artifacts name other paths.
    hasher.update(match sandbox.isolation() {
        Isolation::None => "no sandbox",
        Isolation::Bubblewrap(_) => "bubblewrap",
    });
    // The crates the lock downloads, not the starter's own entry: games of
    // one set of dependencies share one build of them (a unit one game's
    // features alone need is built by each of its submissions, as any unit
    // missing from the build).
    if let Some((_, lock)) = kit.iter().find(|(path, _)| path == "Cargo.lock") {
        for package in registry_packages(lock) {
            hasher.update(package.as_bytes());
        }
    }
    let digest = hasher.finalize();
    Ok(digest[..8].iter().map(|b| format!("{b:02x}")).collect())
}

/// The registry packages a lock file pins (`name version checksum`, sorted):
/// what a build of the dependencies depends on, whichever starter's lock
/// it is (each names its own crate too, which has no source).
fn registry_packages(lock: &[u8]) -> Vec<String> {
    let lock: toml::Table = String::from_utf8_lossy(lock).parse().unwrap_or_default();
    let field = |package: &toml::Value, key: &str| {
        package
            .get(key)
            .and_then(toml::Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mut packages: Vec<String> = lock
        .get("package")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter(|package| package.get("source").is_some())
        .map(|p| {
            format!(
                "{} {} {}\n",
                field(p, "name"),
                field(p, "version"),
                field(p, "checksum")
            )
        })
        .collect();
    packages.sort();
    packages
}

/// A submission's generated manifest (trybuild's way: serde structs).
#[derive(serde::Serialize)]
struct SubmissionManifest {
    package: Package,
    lib: Target,
    bin: Vec<Target>,
    dependencies: toml::Value,
    /// The starter's: the kit's lint set.
    lints: toml::Value,
    profile: toml::Table,
    /// Empty: the crate is a workspace of its own, wherever the build
    /// folder is (below another workspace's folder, as CI's shared one).
    workspace: toml::Table,
}

#[derive(serde::Serialize)]
struct Package {
    name: &'static str,
    version: &'static str,
    edition: &'static str,
    /// The kit's: clippy suggests nothing its code could not compile.
    #[serde(rename = "rust-version", skip_serializing_if = "Option::is_none")]
    rust_version: Option<String>,
    publish: bool,
}

#[derive(serde::Serialize)]
struct Target {
    name: &'static str,
    path: &'static str,
}

/// Grading's second step, for the class: the kit's dependencies built once
/// (or found built in `--build-dir`), with a progress bar; each
/// submission's own build is [`Class::build`].
pub(crate) fn prepare_class<'a>(
    game: &'a GameInfo,
    options: &super::Options,
    sandbox: &Sandbox,
    scratch: &Path,
) -> Result<Class<'a>, super::GradeError> {
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
    let class = Class::prepare(
        game,
        &build,
        &work,
        sandbox,
        options.compile_timeout,
        &progress,
    )?;
    // The count from cargo's metadata is close, not exact.
    progress.set_length(progress.position());
    if progress.position() > 0 {
        let line = format!(
            "boardkit: built the kit's dependencies for the class ({} crates) in {:.0} s",
            progress.position(),
            started.elapsed().as_secs_f64()
        );
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            progress.println(line);
        } else {
            eprintln!("{line}");
        }
    }
    progress.finish_and_clear();
    if !class.lints() {
        eprintln!(
            "boardkit: warning: the toolchain has no clippy: notes without lints \
             (rustup component add clippy)"
        );
    }
    Ok(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_submissions_own_profile_names_its_package() {
        let manifest = crate_manifest(&[(
            "Cargo.toml".to_owned(),
            b"[package]\nrust-version = \"1.85\"\n".to_vec(),
        )])
        .unwrap();
        let table: toml::Table = manifest.parse().unwrap();
        assert_eq!(table["package"]["name"].as_str(), Some(PACKAGE));
        assert_eq!(
            table["profile"]["dev"]["package"][PACKAGE]["codegen-units"].as_integer(),
            Some(1),
            "{manifest}"
        );
    }

    #[test]
    fn compiler_messages_give_the_first_error_and_the_executables() {
        let stdout = r#"{"reason":"compiler-message","message":{"level":"error","rendered":"error[E0308]: mismatched types"}}
{"reason":"compiler-message","message":{"level":"error","rendered":"second"}}
{"reason":"compiler-artifact","executable":"/build/target/debug/game","target":{"name":"game"}}
not json"#;
        let messages = read_messages(stdout);
        assert_eq!(
            messages.error.as_deref(),
            Some("error[E0308]: mismatched types")
        );
        assert_eq!(
            messages.executables,
            vec![("game".to_owned(), PathBuf::from("/build/target/debug/game"))]
        );
    }
}
