//! Shared by every game's test binary: turns each public case into one test
//! named `<level>::<name>` (so that `cargo test basic` runs one level), the
//! same cases the grader runs, judged the same way. A fixture file runs the
//! `boardkit` binary on its stdin and compares what it prints with the
//! expected transcript, by the graded events its level declares
//! (`boardkit::compare`); a function case sends its calls through the
//! game's driver (`boardkit::function_fixture`).

#![allow(dead_code)] // each test binary uses its own part of this module

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use boardkit::compare::Reads;
use boardkit::function_fixture::{FunctionCase, first_wrong};
use boardkit::judge::{Ending, Verdict};
use boardkit::level::{EventsFn, Level, LevelInfo};
use boardkit::session_fixture::{Fixture, Transcript};
use libtest_mimic::{Arguments, Failed, Trial};

/// Per level: (tests run, tests passed), for the summary at the end.
static RESULTS: Mutex<BTreeMap<Level, (u32, u32)>> = Mutex::new(BTreeMap::new());
/// The robustness part's (tests run, tests passed): in no level.
static ROBUSTNESS: Mutex<(u32, u32)> = Mutex::new((0, 0));

/// A test named `<level>::...` whose result counts in its level's summary.
pub fn trial(
    name: impl Into<String>,
    test: impl FnOnce() -> Result<(), Failed> + Send + 'static,
) -> Trial {
    let name = name.into();
    let part = name.split("::").next().unwrap_or_default();
    let robustness = part == boardkit::session_fixture::ROBUSTNESS;
    let level: Option<Level> = part.parse().ok();
    Trial::test(name, move || {
        let outcome = boardkit::function_fixture::catch(test);
        let passed = matches!(outcome, Ok(Ok(())));
        if let Some(level) = level {
            let mut results = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
            let entry = results.entry(level).or_default();
            entry.0 += 1;
            entry.1 += u32::from(passed);
        } else if robustness {
            let mut part = ROBUSTNESS.lock().unwrap_or_else(|e| e.into_inner());
            part.0 += 1;
            part.1 += u32::from(passed);
        }
        match outcome {
            Ok(result) => result,
            Err(panic) => Err(panic.to_string().into()),
        }
    })
}

/// Runs the tests, then prints one line per level: how many passed.
pub fn run(trials: Vec<Trial>) -> ! {
    let args = Arguments::from_args();
    // Panics are reported once, as the failure of their test with their
    // file and line, not printed again by the default hook (nor with a
    // backtrace when RUST_BACKTRACE is set).
    boardkit::function_fixture::quiet_panics();
    // Every test of each level, before a filter picks some.
    let mut every: BTreeMap<Level, u32> = BTreeMap::new();
    for trial in &trials {
        if let Some(level) = trial.name().split("::").next().and_then(|l| l.parse().ok()) {
            *every.entry(level).or_default() += 1;
        }
    }
    let conclusion = libtest_mimic::run(&args, trials);
    let results = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
    let robustness = *ROBUSTNESS.lock().unwrap_or_else(|e| e.into_inner());
    if !results.is_empty() || robustness.0 > 0 {
        println!("levels:");
        for (level, (run, passed)) in results.iter() {
            let mark = if passed == run { "" } else { "  <- not yet" };
            println!("  {:<11} {passed:>3}/{run} passed{mark}", level.name());
        }
        let (run, passed) = robustness;
        if run > 0 {
            println!(
                "  {:<11} {passed:>3}/{run} passed (the kit's own rules: in the score, in no level)",
                boardkit::session_fixture::ROBUSTNESS
            );
        }
        // The grader's rule: a level counts when it and every level below
        // passed whole. Said only when every test ran.
        if every
            .iter()
            .all(|(level, n)| results.get(level).map(|r| r.0) == Some(*n))
        {
            let reached = results
                .iter()
                .take_while(|(_, (run, passed))| passed == run)
                .last()
                .map_or("none", |(level, _)| level.name());
            println!(
                "level reached: {reached} (every level up to it passed, as the grader counts)"
            );
        }
        println!();
    }
    conclusion.exit()
}

/// How long one scripted session may run before it counts as hung.
const SESSION_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `boardkit <args>` with `stdin` and captures everything it prints.
pub fn run_boardkit(args: &[String], stdin: &[u8]) -> Transcript {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use wait_timeout::ChildExt;

    let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
    command
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A panic is read for its place and message: a backtrace (RUST_BACKTRACE
    // set in the student's shell) only costs time. BOARDKIT_BACKTRACE=1
    // keeps it.
    if std::env::var_os("BOARDKIT_BACKTRACE").is_none_or(|v| v == "0") {
        command.env("RUST_BACKTRACE", "0");
    }
    let mut child = command.spawn().expect("boardkit runs");
    // Fed and read on threads of their own: a program that stops reading
    // or prints much never holds the test.
    let mut input = child.stdin.take().expect("a piped stdin");
    let bytes = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    }
    let stdout = drain(child.stdout.take().expect("a piped stdout"));
    let stderr = drain(child.stderr.take().expect("a piped stderr"));
    let waited = child.wait_timeout(SESSION_TIMEOUT).expect("boardkit runs");
    let status = waited.unwrap_or_else(|| {
        let _ = child.kill();
        child.wait().expect("boardkit ends once killed")
    });
    let _ = feeder.join();
    let text = |thread: std::thread::JoinHandle<Vec<u8>>| {
        String::from_utf8_lossy(&thread.join().unwrap_or_default()).into_owned()
    };
    Transcript {
        args: args.to_vec(),
        exit_code: status.code(),
        signal: std::os::unix::process::ExitStatusExt::signal(&status),
        stdout: text(stdout),
        stderr: text(stderr),
    }
}

/// `boardkit play <game> <args>` with `stdin`.
pub fn play(game: &str, args: &[String], stdin: &[u8]) -> Transcript {
    let mut words = vec!["play".to_owned(), game.to_owned()];
    words.extend(args.iter().cloned());
    run_boardkit(&words, stdin)
}

/// The graded events of `level` of a game.
pub fn events_of(levels: &[LevelInfo], level: Level) -> Option<EventsFn> {
    levels
        .iter()
        .find(|l| l.level == level)
        .and_then(LevelInfo::events)
}

/// The folder holding `fixtures/` and `tests/snapshots/`: the crate's own in
/// a starter; the workspace's root when the kit runs these tests from `cli/`.
fn crate_root() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match manifest.parent() {
        Some(root) if !manifest.join("fixtures").is_dir() => root,
        _ => manifest,
    }
}

/// The fixtures of `game` (`fixtures/<game>/`), in level and name order.
pub fn fixtures(game: &str) -> Vec<Fixture> {
    let dir = crate_root().join("fixtures").join(game);
    let fixtures = Fixture::discover(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    fixtures
}

/// A fixture's snapshot file, split: its header (insta's `---` block,
/// without its fences) and the transcript after it.
fn snapshot(game: &str, name: &str) -> Option<(String, String)> {
    let path = crate_root()
        .join("tests/snapshots")
        .join(format!("{game}__{name}.snap"));
    let text = std::fs::read_to_string(path).ok()?;
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some((rest[..end].to_owned(), rest[end + 5..].to_owned()))
}

/// The expected transcript of a fixture, from its snapshot file.
pub fn expected_transcript(game: &str, name: &str) -> Option<Transcript> {
    let (_, body) = snapshot(game, name)?;
    let (head, stdout) = body.split_once("----- stdout -----\n")?;
    let exit_code = head
        .lines()
        .find_map(|l| l.strip_prefix("exit status: "))
        .and_then(|s| s.trim().parse().ok());
    let args = head
        .lines()
        .next()?
        .strip_prefix("$ boardkit ")?
        .split(' ')
        .map(str::to_owned)
        .collect();
    Some(Transcript {
        args,
        exit_code,
        signal: None,
        stdout: stdout.to_owned(),
        stderr: String::new(),
    })
}

/// The reference's reads as it wrote a fixture's expected transcript: the
/// `reads:` line of its snapshot's header, which a starter's snapshots carry.
pub fn expected_reads(game: &str, name: &str) -> Option<Reads> {
    let (header, _) = snapshot(game, name)?;
    header
        .lines()
        .find_map(|l| l.strip_prefix("reads: "))?
        .parse()
        .ok()
}

/// One test per fixture of `game` the student is graded on (fixtures that
/// pin the reference's own random draws are the kit's alone), comparing
/// the program's output with the expected transcript by the level's events.
pub fn fixture_trials(game: &'static str, levels: &'static [LevelInfo]) -> Vec<Trial> {
    fixtures(game)
        .into_iter()
        .filter(|f| !f.reference_only)
        .filter_map(|fixture| {
            let events = events_of(levels, fixture.level)?;
            Some(trial(fixture.test_name(), move || {
                replay(game, &fixture, events)
            }))
        })
        .collect()
}

fn replay(game: &str, fixture: &Fixture, events: EventsFn) -> Result<(), Failed> {
    let expected = expected_transcript(game, &fixture.name).ok_or_else(|| {
        format!(
            "no expected transcript tests/snapshots/{game}__{}.snap",
            fixture.name
        )
    })?;
    let stdin = fixture.stdin_bytes();
    let started = std::time::Instant::now();
    let actual = play(game, &fixture.args, &stdin);
    let elapsed = started.elapsed();
    // The input line that led to a difference, as the grader names it,
    // from the reference's reads the snapshot carries (a starter's do).
    let reads = expected_reads(game, &fixture.name);
    let ending = match (actual.signal, actual.exit_code) {
        // Killed at the session's limit: still running, as the grader says.
        (Some(_), _) if elapsed >= SESSION_TIMEOUT => Ending::TimedOut(elapsed),
        (Some(signal), _) => Ending::Signaled(signal),
        (None, code) => Ending::Exited(code.unwrap_or(-1)),
    };
    // The grader's own judge, and its words.
    let (verdict, message) = boardkit::judge::judge_session(
        &boardkit::judge::Session {
            events,
            stdout: &expected.stdout,
            failed: expected.exit_code != Some(0),
            reads: reads.as_ref(),
            stdin: &stdin,
            first_line: None,
        },
        &boardkit::judge::Run {
            stdout: actual.stdout.as_bytes(),
            stderr: actual.stderr.as_bytes(),
            ending,
        },
    );
    match verdict {
        Verdict::Passed => Ok(()),
        _ => Err(boardkit::judge::failure(verdict, &fixture.description, &message).into()),
    }
}

/// The public function cases of `game` (`fixtures/<game>/functions/`), the
/// same the grader runs: one test each, every call sent through the game's
/// driver (`answer`, the grader's too) and judged as the grader judges it.
pub fn function_trials(game: &'static str, answer: fn(&str) -> String) -> Vec<Trial> {
    let dir = crate_root().join("fixtures").join(game).join("functions");
    let cases = FunctionCase::discover(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!cases.is_empty(), "no function cases in {}", dir.display());
    cases
        .into_iter()
        .map(|case| {
            trial(case.test_name(), move || {
                let requests = case.requests();
                let mut answers = Vec::with_capacity(requests.len());
                // Called in this process, judged and worded by the
                // grader's judge.
                for request in &requests {
                    match boardkit::function_fixture::catch(|| answer(request)) {
                        Ok(answer) => answers.push(answer),
                        Err(panic) => {
                            let said =
                                boardkit::judge::call_crash(Some(request), &panic.to_string(), "");
                            return Err(boardkit::judge::failure(
                                Verdict::Crashed,
                                &case.description,
                                &said,
                            )
                            .into());
                        }
                    }
                }
                match first_wrong(&requests, &answers, &case.accepted()) {
                    None => Ok(()),
                    Some((_, message)) => Err(boardkit::judge::failure(
                        Verdict::WrongOutput,
                        &case.description,
                        &message,
                    )
                    .into()),
                }
            })
        })
        .collect()
}

/// `Ok` when `ok`, else a failure with the message.
pub fn check(ok: bool, message: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok { Ok(()) } else { Err(message().into()) }
}
