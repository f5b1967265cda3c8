//! The student's own tests (`tests/mine.rs`, Cargo's target `your_tests`),
//! run by the kit's test binary when the kit's tests fail: Cargo stops at
//! the first test binary that fails, and the kit's comes first, so without
//! this a failing own test would go unmentioned on every run until every
//! level passes. Cargo builds every test binary before it runs any, so
//! theirs is already built beside this one.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use boardkit::catalogue::{f, t};
use boardkit::judge::Ending;

/// Cargo's name of the own tests' target (the starter's `Cargo.toml`).
pub const OWN_TARGET: &str = "your_tests";

/// The newest file in `folder` (Cargo's `deps/`) that is package
/// `package`'s test binary of target `name` (`<name>-<16 hex digits>`,
/// `.exe` on Windows, its fingerprint `../.fingerprint/<package>-<same
/// digits>`: not another starter's, in a target folder they share), if it
/// is no older than every file of `sources`: one built for the code as it
/// is now, not left from an earlier build (`cargo test --test <game>`
/// builds only the kit's).
pub fn test_binary(
    folder: &Path,
    package: &str,
    name: &str,
    sources: &[PathBuf],
) -> Option<PathBuf> {
    let fingerprints = folder.parent()?.join(".fingerprint");
    let is_binary = |file: &str| {
        let stem = file.strip_suffix(std::env::consts::EXE_SUFFIX)?;
        let hash = stem.strip_prefix(name)?.strip_prefix('-')?;
        let ours = hash.len() == 16
            && hash.bytes().all(|b| b.is_ascii_hexdigit())
            && fingerprints.join(format!("{package}-{hash}")).is_dir();
        ours.then_some(())
    };
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let newest = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .filter(|entry| entry.file_name().to_str().and_then(is_binary).is_some())
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| Some((modified(&entry.path())?, entry.path())))
        .max()?;
    let sources_changed = sources.iter().filter_map(|s| latest(s)).max();
    (sources_changed.is_none_or(|s| s <= newest.0)).then_some(newest.1)
}

/// Whether the student's own tests (built for the starter at `root`) have
/// a test whose name holds `filter`: `cargo test <name>` runs it, and the
/// kit's tests, which run first, must not stop Cargo before it.
pub fn names_a_test(root: &Path, filter: &str) -> bool {
    let Some(folder) = std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.to_owned()))
    else {
        return false;
    };
    let sources = [root.join("tests/mine.rs"), root.join("src")];
    let Some(binary) = test_binary(&folder, env!("CARGO_PKG_NAME"), OWN_TARGET, &sources) else {
        // Not built for the code as it is: Cargo builds it before it runs
        // any; a filter may be its.
        return std::fs::read_to_string(root.join("tests/mine.rs"))
            .is_ok_and(|text| text.contains(filter));
    };
    std::process::Command::new(binary)
        .args(["--list", "--format=terse"])
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.strip_suffix(": test"))
                .any(|name| name.contains(filter))
        })
}

/// The latest modification time of `path`, a file or a folder's files.
fn latest(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    std::fs::read_dir(path)
        .ok()?
        .flatten()
        .filter_map(|entry| latest(&entry.path()))
        .max()
}

/// libtest's counts from its `test result:` line: (passed, failed).
pub fn counts(output: &str) -> Option<(u32, u32)> {
    let line = output.lines().find(|l| l.starts_with("test result: "))?;
    let number = |word: &str| {
        let before = line.split(&format!(" {word}")).next()?;
        before.rsplit(' ').next()?.parse().ok()
    };
    Some((number("passed;")?, number("failed;")?))
}

/// The names libtest lists under its last `failures:` heading.
fn failing(output: &str) -> Vec<&str> {
    let Some(at) = output.rfind("\nfailures:\n") else {
        return Vec::new();
    };
    output[at + "\nfailures:\n".len()..]
        .lines()
        .map_while(|l| l.strip_prefix("    "))
        .collect()
}

/// The report's lines: libtest's own output first when a test failed or
/// the run was stopped (the failures' messages), then one line of counts.
pub fn report(output: &str, stopped: Option<&str>) -> String {
    let (passed, failed) = counts(output).unwrap_or_else(|| {
        // Stopped before its summary: the tests that ended so far.
        let ended = |verdict: &str| {
            let n = output.lines().filter(|l| l.ends_with(verdict)).count();
            u32::try_from(n).unwrap_or(u32::MAX)
        };
        (ended(" ... ok"), ended(" ... FAILED"))
    });
    let (run, failing) = (passed + failed, failing(output).join(", "));
    // A stub's todo!() panics in English: libtest's lines, in the student's.
    let output = &boardkit::judge::unimplemented_said(output);
    let header = t("tests/mine.rs: your own tests, run although the kit's tests failed:");
    match stopped {
        Some(why) => format!(
            "{header}\n{}\n{}",
            output.trim_end(),
            f(
                "tests/mine.rs: your own tests were stopped ({why}): {passed} of {run} passed before",
                &[("why", &why), ("passed", &passed), ("run", &run)],
            )
        ),
        None if failed == 0 => f(
            "tests/mine.rs: your own tests: {passed} of {run} pass",
            &[("passed", &passed), ("run", &run)],
        ),
        None => format!(
            "{header}\n{}\n{}",
            output.trim_end(),
            f(
                "tests/mine.rs: your own tests: {passed} of {run} pass; failing: {failing}",
                &[("passed", &passed), ("run", &run), ("failing", &failing)],
            )
        ),
    }
}

/// The own tests' report (see [`report`]) when their binary was built for
/// the code as it is (`root` is the starter's folder), run under the
/// grader's limits for a suite of own tests (the cases' own); `None` when
/// there is none to run.
pub fn run(root: &Path) -> Option<String> {
    let this = std::env::current_exe().ok()?;
    let sources = [root.join("tests/mine.rs"), root.join("src")];
    let package = env!("CARGO_PKG_NAME");
    let binary = test_binary(this.parent()?, package, OWN_TARGET, &sources)?;
    let ran = super::run_limited(super::case_command(&binary, &[]), b"", super::CASE_WALL);
    let output = String::from_utf8_lossy(&ran.stdout);
    let stopped = match ran.ending {
        Ending::Exited(_) => None,
        Ending::TimedOut(_) | Ending::CpuLimit(_) => Some(f(
            "still running after {seconds} s of CPU time, the limit of a run",
            &[("seconds", &super::CASE_TIMEOUT.as_secs())],
        )),
        Ending::OutputLimit | Ending::DiskLimit(_) => {
            Some(t("they printed more than the output limit").to_owned())
        }
        Ending::Signaled(signal) => Some(f("ended by signal {signal}", &[("signal", &signal)])),
    };
    Some(report(&output, stopped.as_deref()))
}
