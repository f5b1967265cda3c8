//! Shared by every game's test binary: turns each fixture file into one test,
//! named `<level>::<name>` so that `cargo test basic` runs one level, which
//! runs the real `boardkit` binary on the fixture's stdin and snapshots the
//! transcript with insta.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use boardkit::fixture::{Fixture, Transcript};
use boardkit::game::Level;
use libtest_mimic::{Arguments, Failed, Trial};

/// Per level: (tests run, tests passed), for the summary at the end.
static RESULTS: Mutex<BTreeMap<Level, (u32, u32)>> = Mutex::new(BTreeMap::new());

/// A test named `<level>::...` whose result counts in its level's summary.
pub fn trial(
    name: impl Into<String>,
    test: impl FnOnce() -> Result<(), Failed> + Send + 'static,
) -> Trial {
    let name = name.into();
    let level: Option<Level> = name.split("::").next().and_then(|l| l.parse().ok());
    Trial::test(name, move || {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(test));
        if let Some(level) = level {
            let passed = matches!(outcome, Ok(Ok(())));
            let mut results = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
            let entry = results.entry(level).or_default();
            entry.0 += 1;
            entry.1 += u32::from(passed);
        }
        match outcome {
            Ok(result) => result,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("a panic");
                Err(format!("panicked: {message}").into())
            }
        }
    })
}

/// Runs the tests, then prints one line per level: how many passed.
pub fn run(trials: Vec<Trial>) -> ! {
    let args = Arguments::from_args();
    // Panics are reported once, as the failure of their test, not printed
    // again by the default hook (a todo!() in a property test would print
    // once per case tried).
    std::panic::set_hook(Box::new(|_| {}));
    let conclusion = libtest_mimic::run(&args, trials);
    let results = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
    if !results.is_empty() {
        println!("levels:");
        for (level, (run, passed)) in results.iter() {
            let mark = if passed == run { "" } else { "  <- not yet" };
            println!("  {:<11} {passed:>3}/{run} passed{mark}", level.name());
        }
        println!();
    }
    conclusion.exit()
}

/// How long one scripted session may run before it counts as hung.
const SESSION_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `boardkit <args>` with `stdin` and captures everything it prints.
pub fn run_boardkit(args: &[String], stdin: &[u8]) -> Transcript {
    let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .write_stdin(stdin.to_vec())
        .timeout(SESSION_TIMEOUT)
        .output()
        .expect("boardkit runs");
    Transcript {
        args: args.to_vec(),
        exit_code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// One test per fixture of `game`, each snapshotting its transcript.
pub fn fixture_trials(game: &str) -> Vec<Trial> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game);
    let fixtures = Fixture::discover(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    fixtures
        .into_iter()
        .map(|fixture| {
            let name = fixture.test_name();
            trial(name, move || replay(&fixture))
        })
        .collect()
}

fn replay(fixture: &Fixture) -> Result<(), Failed> {
    let mut args = vec!["play".to_owned(), fixture.game.clone()];
    args.extend(fixture.args.iter().cloned());
    let transcript = run_boardkit(&args, &fixture.stdin_bytes());
    if transcript.stdout.contains('\x1b') {
        return Err("piped output must carry no terminal codes".into());
    }
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let name = format!("{}__{}", fixture.game, fixture.name);
    let actual = transcript.to_string();
    let updating = std::env::var("INSTA_UPDATE").is_ok_and(|v| v == "always");
    if let Some(expected) = read_snapshot(&snapshots.join(format!("{name}.snap"))) {
        if expected.trim_end() == actual.trim_end() {
            return Ok(());
        }
        if !updating {
            return Err(first_difference(&expected, &actual).into());
        }
    }
    // A new fixture (or an update asked for): insta writes the snapshot to review.
    insta::with_settings!({
        snapshot_path => snapshots,
        prepend_module_to_snapshot => false,
        omit_expression => true,
        description => fixture.description.clone(),
    }, {
        insta::assert_snapshot!(name, actual);
    });
    Ok(())
}

/// The content of an insta snapshot file (after its header), if it exists.
fn read_snapshot(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let body = text.strip_prefix("---\n")?;
    let end = body.find("\n---\n")?;
    Some(body[end + 5..].to_owned())
}

/// Where two transcripts first differ, as expected and actual blocks with a
/// few lines of context and the differing line marked: not a whole dump.
pub fn first_difference(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (
        expected.trim_end().lines().collect(),
        actual.trim_end().lines().collect(),
    );
    let at = (0..e.len().max(a.len()))
        .find(|&i| e.get(i) != a.get(i))
        .unwrap_or(0);
    let block = |lines: &[&str]| {
        let mut out = String::new();
        let first = at.saturating_sub(4);
        for (i, line) in lines.iter().enumerate().skip(first).take(at + 4 - first) {
            let mark = if i == at { '>' } else { ' ' };
            // Show trailing spaces: they are part of the expected output.
            out.push_str(&format!("{mark}{:>4} | {line}\u{23ce}\n", i + 1));
        }
        if at >= lines.len() {
            out.push_str(&format!(">{:>4} | (no more lines)\n", at + 1));
        }
        out
    };
    format!(
        "the transcript differs from the expected one at line {} (\u{23ce} marks the end of a line)\n\
         --- expected ---\n{}--- actual ---\n{}",
        at + 1,
        block(&e),
        block(&a)
    )
}

/// `Ok` when `ok`, else a failure with the message.
pub fn check(ok: bool, message: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok { Ok(()) } else { Err(message().into()) }
}

/// A proptest configuration of `n` cases without failure files (a failing
/// case is printed in the message).
pub fn cases(n: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: n,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}
