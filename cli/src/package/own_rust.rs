//! A Rust class's own tests on a package (`tests/mine.rs`, `boardkit grade
//! --exercise DIR --test-points`): each version (the Rust reference, the
//! Rust submissions that reach every level, the wrong ones and mutants
//! whose bug shows in a function's answers) built once per class as the
//! exercise's library; each student's file compiled against each, in the
//! sandbox, and judged as the built-ins' own tests are
//! ([`crate::grader::own_tests::verdict`]).
//!
//! Every version's library and every test binary is built from the same
//! paths and run from the same path: a test cannot tell which version it
//! runs on but by what the functions answer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Language, Package};
use crate::grader::own_tests::rust::read_outcomes;
use crate::grader::own_tests::verdict::{
    Mutant, Verdict, Version, Versions, assess, charged, over_budget, run_budget,
};
use crate::grader::sandbox::{Job, Limits, Sandbox};

/// The student's own tests in a Rust starter.
pub(crate) const OWN_TESTS_FILE: &str = "tests/mine.rs";

/// Where the sandbox sees a build's parts (its sources at `/build`).
const LIBRARY: &str = "/library";
const OUT: &str = "/out";
const TESTS: &str = "/kit/mine";

/// What a Rust class's own tests run against, built.
pub(crate) struct RustVersions {
    pub versions: Versions,
    /// Each version and the folder holding its library.
    libraries: Vec<(Version, PathBuf)>,
    /// The library's crate name, as a starter's tests `use` it.
    krate: String,
}

impl RustVersions {
    /// Builds every version's library in `scratch`: with `hidden`, the
    /// mutants of `hidden/` too; `bugs` names the wrong ones and mutants
    /// whose bug shows in a function's answers.
    pub(crate) fn build(
        package: &Package,
        bugs: &BTreeSet<String>,
        hidden: bool,
        sandbox: &Sandbox,
        scratch: &Path,
    ) -> Result<RustVersions, String> {
        let reference = package.reference.rust.as_ref().ok_or_else(|| {
            format!(
                "{} has no Rust reference: own tests run against it",
                package.name
            )
        })?;
        let krate = super::rust::crate_name(package);
        let top = package.levels.len() - 1;
        let mut versions = Versions::default();
        let mut folders = vec![(Version::Reference, reference.clone())];
        for (index, submission) in package.submissions.iter().enumerate() {
            let correct = submission.reaches == Some(top);
            let kept = submission.language == Language::Rust
                && (hidden || !submission.mutant)
                && (correct || bugs.contains(&submission.name));
            if !kept {
                continue;
            }
            let version = if correct {
                let version = match &submission.unpromised {
                    Some(what) => Version::Unpromised(what.clone()),
                    None => Version::Solution(submission.name.clone()),
                };
                versions.correct.push(version.clone());
                version
            } else {
                versions.mutants.push(Mutant {
                    breaks: submission.description.clone(),
                    hidden: submission.mutant,
                });
                Version::Mutant(versions.mutants.len() - 1)
            };
            let folder = submission.folder(&scratch.join(format!("patched-{index}")))?;
            folders.push((version, folder));
        }
        let mut libraries = Vec::new();
        for (index, (version, folder)) in folders.into_iter().enumerate() {
            let at = scratch.join(format!("library-{index}"));
            library(package, &krate, &folder, &at, sandbox)
                .map_err(|e| format!("{version:?}: {e}"))?;
            libraries.push((version, at.join("out")));
        }
        Ok(RustVersions {
            versions,
            libraries,
            krate,
        })
    }

    /// Judges the test file `source`, each version's run in an order drawn
    /// from `seed`, in `work`.
    pub(crate) fn judge(
        &self,
        sandbox: &Sandbox,
        source: &Path,
        work: &Path,
        limits: &Limits,
        seed: u64,
    ) -> Verdict {
        let failed = |error: String| Verdict {
            error: Some(error),
            ..Verdict::missing("", &self.versions)
        };
        // The libraries are files too: a test reads none as it compiles.
        let text = std::fs::read_to_string(source).unwrap_or_default();
        if let Some(why) = crate::grader::own_tests::rust::reads_files(&text) {
            return failed(why);
        }
        // Its own folder in `work`, which may hold the libraries too.
        let work = work.join("mine");
        let _ = std::fs::remove_dir_all(&work);
        let mut binaries = Vec::new();
        for (index, (version, library)) in self.libraries.iter().enumerate() {
            let at = work.join(format!("version-{index}"));
            match self.tests(source, library, &at, sandbox) {
                Ok(binary) => binaries.push((version.clone(), binary)),
                Err(e) => return failed(e),
            }
        }
        let reference = &binaries[0].1;
        let (listed, _) = run(sandbox, reference, &["--list"], limits);
        let tests: Vec<String> = listed
            .lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(str::to_owned)
            .collect();
        if tests.is_empty() {
            return failed(format!("no test found in {OWN_TESTS_FILE}"));
        }
        let (most, mut used) = (run_budget(limits), Duration::ZERO);
        let mut over = false;
        let verdict = assess(&tests, &self.versions, seed, |version, skip| {
            over |= used > most;
            if over {
                return crate::grader::own_tests::verdict::Passed::new();
            }
            let binary = binaries
                .iter()
                .find(|(v, _)| v == version)
                .map_or(reference, |(_, b)| b);
            let mut args = vec!["--exact", "--test-threads=1"];
            for test in skip {
                args.extend(["--skip", test.as_str()]);
            }
            let (stdout, cpu) = run(sandbox, binary, &args, limits);
            used += cpu;
            read_outcomes(&stdout)
        });
        if over {
            return failed(over_budget(most));
        }
        verdict
    }

    /// The student's tests compiled against `library`, in `at`: the
    /// binary's folder.
    fn tests(
        &self,
        source: &Path,
        library: &Path,
        at: &Path,
        sandbox: &Sandbox,
    ) -> Result<PathBuf, String> {
        let build = at.join("build");
        let out = at.join("out");
        std::fs::create_dir_all(&build)
            .and_then(|()| std::fs::create_dir_all(&out))
            .and_then(|()| std::fs::copy(source, build.join("mine.rs")).map(|_| ()))
            .map_err(|e| format!("cannot prepare their tests: {e}"))?;
        let extern_arg = format!("{}={LIBRARY}/lib{}.rlib", self.krate, self.krate);
        let args = [
            "--edition=2021",
            "-Copt-level=1",
            "--test",
            "--crate-name=mine",
            // Lints as rustc has them: a deny-by-default one (a constant
            // evaluated for too long) stops the build.
            "--extern",
            &extern_arg,
            "-L",
            LIBRARY,
            "/build/mine.rs",
            "-o",
            "/out/mine",
        ];
        rustc(sandbox, &args, &build, Some(library), &out)
            .map_err(|e| format!("{OWN_TESTS_FILE} does not compile:\n{e}"))?;
        Ok(out)
    }
}

/// `folder` (a student folder: `mod.rs` and its modules) built as the
/// exercise's library `krate`, in `at`.
fn library(
    package: &Package,
    krate: &str,
    folder: &Path,
    at: &Path,
    sandbox: &Sandbox,
) -> Result<(), String> {
    let build = at.join("build");
    let out = at.join("out");
    let _ = std::fs::remove_dir_all(at);
    let mut lib = format!("pub mod {};\n", package.name);
    if let Some(given) = &package.given.rust {
        lib.push_str("pub mod given;\n");
        std::fs::create_dir_all(&build)
            .and_then(|()| std::fs::copy(given, build.join("given.rs")))
            .map_err(|e| format!("cannot prepare the library: {e}"))?;
    }
    super::run::copy_folder(folder, &build.join(&package.name))
        .and_then(|()| std::fs::write(build.join("lib.rs"), lib))
        .and_then(|()| std::fs::create_dir_all(&out))
        .map_err(|e| format!("cannot prepare the library: {e}"))?;
    let name = format!("--crate-name={krate}");
    let output = format!("{OUT}/lib{krate}.rlib");
    let args = [
        "--edition=2021",
        "-Copt-level=1",
        "--crate-type=rlib",
        "--cap-lints=allow",
        &name,
        "/build/lib.rs",
        "-o",
        &output,
    ];
    rustc(sandbox, &args, &build, None, &out)
}

/// rustc with `args`, `build` read-only at `/build` (and `library` at
/// `/library`), writing into `out` at `/out`.
fn rustc(
    sandbox: &Sandbox,
    args: &[&str],
    build: &Path,
    library: Option<&Path>,
    out: &Path,
) -> Result<(), String> {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let mut job = super::run::rustc_job(&args, build, out)?;
    if let Some(library) = library {
        job.read_only.push((library.to_owned(), LIBRARY.into()));
    }
    super::run::rustc(sandbox, &job)
}

/// One run of the tests in `folder` (`mine`, seen at the same path for
/// every version): what it printed, and the CPU it is charged.
fn run(sandbox: &Sandbox, folder: &Path, args: &[&str], limits: &Limits) -> (String, Duration) {
    let binary = format!("{TESTS}/mine");
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let mut job = Job::new(&binary, &args);
    job.read_only = vec![(folder.to_owned(), TESTS.into())];
    job.hide_proc = true;
    sandbox
        .run(&job, limits)
        .map(|o| {
            let cpu = charged(&o, limits);
            (String::from_utf8_lossy(&o.stdout).into_owned(), cpu)
        })
        .unwrap_or_default()
}
