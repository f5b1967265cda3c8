//! Shared by every game's test binary: turns each public case into one test
//! named `<level>::<name>` (so that `cargo test basic` runs one level), the
//! same cases the grader runs, judged the same way. A fixture file runs the
//! `boardkit` binary on its stdin and compares what it prints with the
//! expected transcript, by the graded events its level declares
//! (`boardkit::compare`); a function case sends its calls through the
//! game's driver (`boardkit::function_fixture`).

#![allow(dead_code)] // each test binary uses its own part of this module

pub mod own;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boardkit::catalogue::{f, t};
use boardkit::compare::Reads;
use boardkit::function_fixture::FunctionCase;
use boardkit::judge::{Ending, Verdict};
use boardkit::level::{EventsFn, Level, LevelInfo};
use boardkit::session_fixture::{Fixture, Transcript};

/// A failed test's message.
#[derive(Debug)]
pub struct Failed(String);

impl From<String> for Failed {
    fn from(message: String) -> Self {
        Failed(message)
    }
}

impl From<&str> for Failed {
    fn from(message: &str) -> Self {
        Failed(message.to_owned())
    }
}

/// One test: its name and what it runs.
pub struct Trial {
    name: String,
    test: Box<dyn FnOnce() -> Result<(), Failed> + Send>,
}

impl Trial {
    pub fn name(&self) -> &str {
        &self.name
    }
}

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
    Trial {
        name: name.clone(),
        test: Box::new(move || {
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
        }),
    }
}

/// What `cargo test -- <ARGS>` asks of the test runner: libtest's own
/// arguments, those a student meets (filters, `--exact`, `--skip`,
/// `--list`, `--test-threads`, `-q`); others are taken and ignored.
#[derive(Default)]
struct Arguments {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    quiet: bool,
    /// Every test's line and every failure in full (`--nocapture`,
    /// `--verbose`, or BOARDKIT_VERBOSE=1).
    verbose: bool,
    ignored: bool,
    threads: Option<usize>,
}

impl Arguments {
    fn from_args() -> Arguments {
        let mut arguments = Arguments {
            verbose: std::env::var_os("BOARDKIT_VERBOSE").is_some_and(|v| v == "1"),
            ..Arguments::default()
        };
        let mut words = std::env::args().skip(1);
        while let Some(word) = words.next() {
            let (flag, inline) = match word.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => {
                    (flag.to_owned(), Some(value.to_owned()))
                }
                _ => (word.clone(), None),
            };
            let mut value = || inline.clone().or_else(|| words.next()).unwrap_or_default();
            match flag.as_str() {
                "--exact" => arguments.exact = true,
                "--list" => arguments.list = true,
                "-q" | "--quiet" => arguments.quiet = true,
                "--nocapture" | "--verbose" => arguments.verbose = true,
                "--ignored" => arguments.ignored = true,
                "--skip" => arguments.skip.push(value()),
                "--test-threads" => arguments.threads = value().parse().ok(),
                "--color" | "--format" | "-Z" | "--logfile" | "--report-time" => {
                    if inline.is_none() && flag != "--report-time" {
                        value();
                    }
                }
                other if other.starts_with('-') => {}
                _ => arguments.filters.push(word),
            }
        }
        arguments
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |pattern: &String| {
            if self.exact {
                name == pattern
            } else {
                name.contains(pattern.as_str())
            }
        };
        !self.ignored
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(matches)
    }
}

/// The most lines a failing test prints: its start and end, around a line
/// saying how many were cut.
const FAILURE_LINES: usize = 60;

/// `message` in at most [`FAILURE_LINES`] lines.
pub fn clip_lines(message: &str) -> String {
    let lines: Vec<&str> = message.lines().collect();
    if lines.len() <= FAILURE_LINES {
        return message.to_owned();
    }
    let head = FAILURE_LINES * 2 / 3;
    let tail = FAILURE_LINES - head - 1;
    format!(
        "{}\n[... {} lines cut ...]\n{}",
        lines[..head].join("\n"),
        lines.len() - head - tail,
        lines[lines.len() - tail..].join("\n")
    )
}

/// Runs the tests (libtest's way: in parallel, each told as it ends), then
/// one screen: each level's count, the first failing level's first
/// failures in full, and where the rest are (all of them with
/// `--nocapture` or `--verbose`). Not libtest-mimic: it compiles clap and
/// its derive into every student's first `cargo test`.
pub fn run(trials: Vec<Trial>) -> ! {
    boardkit::catalogue::use_folder(crate_root());
    let mut args = Arguments::from_args();
    // Panics are reported once, as the failure of their test with their
    // file and line, not printed again by the default hook (nor with a
    // backtrace when RUST_BACKTRACE is set).
    boardkit::function_fixture::quiet_panics();
    let mut trials = trials;
    pin(&mut trials);
    // Every test of each level, before a filter picks some.
    let mut every: BTreeMap<Level, u32> = BTreeMap::new();
    for trial in &trials {
        if let Some(level) = trial.name().split("::").next().and_then(|l| l.parse().ok()) {
            *every.entry(level).or_default() += 1;
        }
    }
    let total = trials.len();
    args.filters = args.filters.iter().map(|f| level_filter(f)).collect();
    check_filters(&args, &trials);
    let chosen: Vec<Trial> = trials
        .into_iter()
        .filter(|t| args.selects(&t.name))
        .collect();
    if args.list {
        for trial in &chosen {
            println!("{}: test", trial.name);
        }
        std::process::exit(0);
    }
    let filtered = total - chosen.len();
    println!(
        "\nrunning {} test{}",
        chosen.len(),
        if chosen.len() == 1 { "" } else { "s" }
    );
    let started = Instant::now();
    let failures = run_all(chosen, &args);
    summary(&every);
    show_failures(&failures, args.verbose);
    step_summary(&failures);
    let run = total - filtered;
    println!(
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {filtered} filtered out; finished in {:.2}s\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        run - failures.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    // Cargo stops at a failing test binary: the student's own tests and
    // the line that would end the run (`tests/your_tests_catch.rs`) come
    // after this one, so they run here instead.
    if !failures.is_empty() && filtered == 0 {
        if let Some(game) = env!("CARGO_PKG_NAME").strip_suffix("-exercise") {
            if let Some(report) = own::run(crate_root()) {
                println!("{report}");
            }
            println!(
                "{}",
                boardkit::watch::own_tests_line(game, crate_root(), false)
            );
        }
    }
    std::process::exit(if failures.is_empty() { 0 } else { 101 })
}

/// A filter that selects no test, names no level and no test of the
/// student's own: said, and the run fails (`cargo test Básico` ran none
/// and passed, once).
fn check_filters(args: &Arguments, trials: &[Trial]) {
    let unknown = args
        .filters
        .iter()
        .find(|f| !trials.iter().any(|t| t.name.contains(f.as_str())));
    if let Some(unknown) = unknown {
        if !own::names_a_test(crate_root(), unknown) {
            println!("{}", no_such_level(unknown));
            std::process::exit(1);
        }
    }
}

/// Where a run keeps every failure in full (the starter's `target/`, which
/// git ignores).
pub const FAILURES_FILE: &str = "target/boardkit-failures.txt";

/// How many failures a run shows: the first failing level's first ones.
const FAILURES_SHOWN: usize = 3;

/// The failures, one screen of them: the first failing level's first
/// [`FAILURES_SHOWN`] (libtest's `---- name ----` blocks, which watch mode
/// reads), then a line naming the file that holds them all; all of them
/// when `verbose`.
fn show_failures(failures: &[(String, String)], verbose: bool) {
    if failures.is_empty() {
        return;
    }
    let block =
        |(name, message): &(String, String)| format!("---- {name} ----\n{}\n", clip_lines(message));
    let all: String = failures.iter().map(|f| block(f) + "\n").collect();
    let file = crate_root().join(FAILURES_FILE);
    let kept = file
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&file, &all))
        .is_ok();
    println!("\nfailures:\n");
    if verbose {
        print!("{all}");
        println!("failures:");
        for (name, _) in failures {
            println!("    {name}");
        }
        return;
    }
    // The level a student works on: the first that failed, in level order
    // (the robustness part last).
    let rank = |name: &str| {
        let part = name.split("::").next().unwrap_or_default();
        part.parse::<Level>().map_or(usize::MAX, Level::rank)
    };
    let first = failures
        .iter()
        .map(|(n, _)| rank(n))
        .min()
        .unwrap_or(usize::MAX);
    let shown: Vec<&(String, String)> = failures
        .iter()
        .filter(|(n, _)| rank(n) == first)
        .take(FAILURES_SHOWN)
        .collect();
    for failure in &shown {
        println!("{}", block(failure));
    }
    // libtest's list after the messages, which ends them for the tools
    // that read a run (watch mode).
    println!("failures:");
    for (name, _) in &shown {
        println!("    {name}");
    }
    if shown.len() < failures.len() {
        let where_ = if kept {
            FAILURES_FILE.to_owned()
        } else {
            "`cargo test -- --nocapture`".to_owned()
        };
        println!(
            "{}",
            f(
                "{shown} of {count} failures shown; all of them in {file} (`cargo test -- --nocapture` prints them all)",
                &[
                    ("shown", &shown.len()),
                    ("count", &failures.len()),
                    ("file", &where_)
                ],
            )
        );
    }
}

/// A filter as tests are named: a level's name in the starter's language
/// or in English, in any case, with or without accents (`Básico`,
/// `basico`, `BASIC`), is its English name, which starts its tests' names;
/// any other filter is itself.
fn level_filter(filter: &str) -> String {
    let plain = boardkit::catalogue::plain(filter);
    let names = boardkit::catalogue::active().level_names();
    Level::ALL
        .iter()
        .map(|l| l.name())
        .chain([boardkit::session_fixture::ROBUSTNESS])
        .find(|level| {
            plain == *level
                || names
                    .get(*level)
                    .is_some_and(|own| boardkit::catalogue::plain(own) == plain)
        })
        .map_or_else(|| filter.to_owned(), str::to_owned)
}

/// What a filter that names no level and no test is told: the levels, as
/// the starter names them.
fn no_such_level(filter: &str) -> String {
    let words = boardkit::level::Words::load(crate_root());
    let levels: Vec<String> = Level::ALL
        .iter()
        .map(|l| words.name(l.name()))
        .chain([words.name(boardkit::session_fixture::ROBUSTNESS)])
        .collect();
    f(
        "no level or test is named {filter}: the levels are {levels} (`cargo test basic` runs one)",
        &[
            ("filter", &format!("{filter:?}")),
            ("levels", &levels.join(", ")),
        ],
    )
}

/// In a starter, holds each case to the files `tests/cases.lock` pins
/// (SPEC 5.1: the level means what the grader means): a case whose fixture
/// or snapshot was changed or deleted fails, naming the file. The kit's own
/// run (its fixtures are the source) has no lock.
fn pin(trials: &mut Vec<Trial>) {
    let root = crate_root();
    if root != Path::new(env!("CARGO_MANIFEST_DIR")) {
        return;
    }
    let lock = boardkit::session_fixture::CASES_LOCK;
    let Ok(text) = std::fs::read_to_string(root.join(lock)) else {
        for trial in trials.iter_mut() {
            let message = f(
                "{lock} is missing: it pins the public cases the grader runs. Restore it (`git checkout -- {lock}`, or copy it from a new starter).",
                &[("lock", &lock)],
            );
            trial.test = Box::new(move || Err(message.into()));
        }
        return;
    };
    let mut broken: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.splitn(3, ' ');
        let (Some(name), Some(pinned), Some(path)) = (words.next(), words.next(), words.next())
        else {
            continue;
        };
        let problem = match std::fs::read(root.join(path)) {
            Err(_) => t("{path} was deleted since the starter was made"),
            Ok(bytes)
                if format!("{:016x}", boardkit::session_fixture::fingerprint(&bytes)) != pinned =>
            {
                t("{path} was changed since the starter was made")
            }
            Ok(_) => continue,
        };
        broken
            .entry(name.to_owned())
            .or_default()
            .push(problem.replace("{path}", path));
    }
    for (name, problems) in broken {
        let message = format!(
            "{}\n{}",
            problems.join("\n"),
            t(
                "The grader runs its own copy of this case: restore the file (`git checkout -- <file>`, or copy it from a new starter)."
            )
        );
        let failing = trial(name.clone(), move || Err(message.into()));
        match trials.iter_mut().find(|t| t.name == name) {
            Some(trial) => *trial = failing,
            None => trials.push(failing),
        }
    }
}

/// Runs `trials` on as many threads as `--test-threads` (or the cores)
/// allow; returns each failure, in name order.
fn run_all(trials: Vec<Trial>, args: &Arguments) -> Vec<(String, String)> {
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1)
        .clamp(1, trials.len().max(1));
    let queue = Mutex::new(trials.into_iter());
    let failures = Mutex::new(Vec::new());
    let quiet = args.quiet || !args.verbose;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some(trial) = next else { break };
                    let result = (trial.test)();
                    let mut out = std::io::stdout().lock();
                    match &result {
                        Ok(()) if quiet => {
                            let _ = write!(out, ".");
                        }
                        Ok(()) => {
                            let _ = writeln!(out, "test {} ... ok", trial.name);
                        }
                        Err(_) if quiet => {
                            let _ = write!(out, "F");
                        }
                        Err(_) => {
                            let _ = writeln!(out, "test {} ... FAILED", trial.name);
                        }
                    }
                    let _ = out.flush();
                    if let Err(Failed(message)) = result {
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((trial.name, message));
                    }
                }
            });
        }
    });
    if quiet {
        println!();
    }
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    failures.sort();
    failures
}

/// One line per level: how many of its tests passed, and the level reached
/// when every test ran, in the starter's language (`tests/locale.toml`).
fn summary(every: &BTreeMap<Level, u32>) {
    let results = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
    let robustness = *ROBUSTNESS.lock().unwrap_or_else(|e| e.into_inner());
    if results.is_empty() && robustness.0 == 0 {
        return;
    }
    // The grader's rule: a level counts when it and every level below
    // passed whole. Said only when every test ran.
    let every_ran = every
        .iter()
        .all(|(level, n)| results.get(level).map(|r| r.0) == Some(*n));
    let words = boardkit::level::Words::load(crate_root());
    println!("\n{}", words.summary(&results, robustness, every_ran));
}

/// In a GitHub Actions job (the starter's levels workflow), the run's
/// summary for the job's page (`$GITHUB_STEP_SUMMARY`, Markdown): each
/// level's count, then each failure, folded. A starter's cases are public:
/// all of it is the student's.
fn step_summary(failures: &[(String, String)]) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY") else {
        return;
    };
    let results = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
    let words = boardkit::level::Words::load(crate_root());
    let mut out = format!(
        "### {}: the public cases\n\n| level | passed |\n|---|---|\n",
        env!("CARGO_CRATE_NAME")
    );
    for (level, (run, passed)) in results.iter() {
        out.push_str(&format!(
            "| {} | {passed} / {run} |\n",
            words.name(level.name())
        ));
    }
    for (name, message) in failures {
        out.push_str(&format!(
            "\n<details><summary>failed: {name}</summary>\n\n```text\n{}\n```\n\n</details>\n",
            clip_lines(message).replace("```", "'''")
        ));
    }
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(out.as_bytes()));
    if let Err(e) = written {
        eprintln!(
            "cannot write the job's summary {}: {e}",
            path.to_string_lossy()
        );
    }
}

/// How long one case, a session or a function case's calls, may run before
/// it counts as still running, in CPU time where the system counts it
/// (Linux, macOS: `ulimit -t`): the grader's own limit (the library's one
/// definition), which a loaded laptop does not eat into, as time the other
/// tests take is not the case's. The reference's slowest case takes well
/// under a second, so the grader's limit, derived from the reference's
/// time, is this floor for every case the starter ships.
pub const CASE_TIMEOUT: Duration = boardkit::judge::CASE_CPU;

/// The wall-clock backstop behind the CPU limit, the grader's too: a case
/// that waits (a sleep) uses no CPU, and Windows has no CPU limit.
pub const CASE_WALL: Duration = boardkit::judge::case_wall(CASE_TIMEOUT);

/// The memory a case's process may map, as the grader bounds it (KiB).
const CASE_MEMORY_KIB: u64 = 512 << 10;

/// A case's command: `program args`, under the grader's CPU and memory
/// limits where a POSIX shell sets them (`ulimit`; a limit the system
/// refuses, as macOS refuses `-v`, is left out).
pub fn case_command(program: &Path, args: &[String]) -> Command {
    #[cfg(unix)]
    {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(format!(
                // SIGXCPU at the soft limit, read as a timeout; the hard
                // limit a second later (at once, SIGKILL would come first).
                "ulimit -H -t {} 2>/dev/null; ulimit -S -t {} 2>/dev/null; \
                 ulimit -v {CASE_MEMORY_KIB} 2>/dev/null; exec \"$0\" \"$@\"",
                CASE_TIMEOUT.as_secs() + 1,
                CASE_TIMEOUT.as_secs()
            ))
            .arg(program)
            .args(args);
        command
    }
    #[cfg(not(unix))]
    {
        let mut command = Command::new(program);
        command.args(args);
        command
    }
}

/// The most bytes kept of each output stream: the grader's limit. More
/// stops the run.
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// A program's run: how it ended, and what it printed (at most
/// [`OUTPUT_LIMIT`] bytes of each stream).
pub struct Ran {
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs `command` with `stdin`, under the grader's limits: stopped when
/// still running after [`CASE_TIMEOUT`], or past [`OUTPUT_LIMIT`] bytes.
pub fn run_limited(mut command: Command, stdin: &[u8], timeout: Duration) -> Ran {
    use wait_timeout::ChildExt;

    command
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
    let started = Instant::now();
    let mut child = command.spawn().expect("the program runs");
    // Fed and read on threads of their own: a program that stops reading
    // or prints much never holds the test.
    let mut input = child.stdin.take().expect("a piped stdin");
    let bytes = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let flooded = Arc::new(AtomicBool::new(false));
    let drain = |mut pipe: Box<dyn Read + Send>| {
        let flooded = Arc::clone(&flooded);
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut chunk = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let room = OUTPUT_LIMIT - kept.len();
                kept.extend_from_slice(&chunk[..n.min(room)]);
                if n > room {
                    flooded.store(true, Ordering::SeqCst);
                    break;
                }
            }
            kept
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("a piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("a piped stderr")));
    let ending = loop {
        let waited = child
            .wait_timeout(Duration::from_millis(20))
            .expect("the program runs");
        if let Some(status) = waited {
            break exit_ending(status);
        }
        if flooded.load(Ordering::SeqCst) {
            let _ = child.kill();
            let _ = child.wait();
            break Ending::OutputLimit;
        }
        if started.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            break Ending::TimedOut(started.elapsed());
        }
    };
    let _ = feeder.join();
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    // Stopped by its CPU limit (SIGXCPU, 24 on Linux and macOS): still
    // running at the limit, as the grader says it.
    // The hard limit's SIGKILL, a second later, if SIGXCPU was caught.
    let ending = match ending {
        Ending::Signaled(24) => Ending::CpuLimit(CASE_TIMEOUT),
        Ending::Signaled(9) if started.elapsed() >= CASE_TIMEOUT => Ending::CpuLimit(CASE_TIMEOUT),
        other => other,
    };
    // The run ended on its own, then its last bytes went past the limit.
    let ending = if flooded.load(Ordering::SeqCst) {
        Ending::OutputLimit
    } else {
        ending
    };
    Ran {
        ending,
        stdout,
        stderr,
    }
}

/// A case's run under the grader's limits: run once more when its CPU
/// limit stopped it, as the grader does (a moment of a busy machine is not
/// the student's); whether it was.
pub fn run_case(command: impl Fn() -> Command, stdin: &[u8]) -> (Ran, bool) {
    let ran = run_limited(command(), stdin, CASE_WALL);
    if matches!(ran.ending, Ending::CpuLimit(_)) {
        (run_limited(command(), stdin, CASE_WALL), true)
    } else {
        (ran, false)
    }
}

/// `message`, with the words of a case run twice when it was.
fn twice(message: String, verdict: Verdict, ran_twice: bool) -> String {
    if ran_twice && verdict == Verdict::Timeout {
        format!("{message}\n{}", boardkit::judge::run_twice())
    } else {
        message
    }
}

/// How a program that ended by itself ended.
fn exit_ending(status: std::process::ExitStatus) -> Ending {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return Ending::Signaled(signal);
    }
    Ending::Exited(status.code().unwrap_or(-1))
}

impl Ran {
    /// As a snapshot holds it.
    pub fn transcript(&self, args: &[String]) -> Transcript {
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        Transcript {
            args: args.to_vec(),
            exit_code: match self.ending {
                Ending::Exited(code) => Some(code),
                _ => None,
            },
            signal: match self.ending {
                Ending::Signaled(signal) => Some(signal),
                Ending::TimedOut(_) | Ending::CpuLimit(_) | Ending::OutputLimit => Some(9),
                _ => None,
            },
            stdout: text(&self.stdout),
            stderr: text(&self.stderr),
        }
    }
}

/// How long the kit's own runs of `boardkit` may take (a search, a whole
/// game against the perfect player in a debug build).
const KIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `boardkit <args>` with `stdin` and captures what it prints.
pub fn run_boardkit(args: &[String], stdin: &[u8]) -> Transcript {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
    command.args(args);
    run_limited(command, stdin, KIT_TIMEOUT).transcript(args)
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
    let mut words = vec!["play".to_owned(), game.to_owned()];
    words.extend(fixture.args.iter().cloned());
    let command = || case_command(Path::new(env!("CARGO_BIN_EXE_boardkit")), &words);
    let (actual, ran_twice) = run_case(command, &stdin);
    // The input line that led to a difference, as the grader names it,
    // from the reference's reads the snapshot carries (a starter's do).
    let reads = expected_reads(game, &fixture.name);
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
            stdout: &actual.stdout,
            stderr: &actual.stderr,
            ending: actual.ending,
        },
    );
    if verdict == Verdict::Passed {
        return Ok(());
    }
    // The one command that replays it, as the grader says it.
    let mut program = format!("cargo run -q -- play {game}");
    for arg in &fixture.args {
        program.push(' ');
        program.push_str(arg);
    }
    let replay = match boardkit::judge::replay_command(&program, &stdin) {
        Some(command) => format!("\n{}", f("play it: {command}", &[("command", &command)])),
        None => format!(
            "\n{}",
            f(
                "play it: {program}, with the input of fixtures/{game}/{name}.toml ({bytes} bytes)",
                &[
                    ("program", &program),
                    ("game", &game),
                    ("name", &fixture.name),
                    ("bytes", &stdin.len()),
                ],
            )
        ),
    };
    let message = twice(message, verdict, ran_twice);
    Err(format!(
        "{}{replay}",
        boardkit::judge::failure(verdict, &fixture.description, &message)
    )
    .into())
}

/// The environment variable that makes a test binary the game's function
/// driver, for one case's calls.
const DRIVE: &str = "BOARDKIT_DRIVE";

/// The public function cases of `game` (`fixtures/<game>/functions/`), the
/// same the grader runs: one test each, its calls sent through the game's
/// driver (`answer`, the grader's too) in a process of its own, this test
/// binary run again as the driver, so a call that loops or floods is
/// stopped at the grader's limits and named; judged as the grader judges.
///
/// In that process (`BOARDKIT_DRIVE` set), it answers the calls on stdin
/// and ends: the driver's run is all the process does.
pub fn function_trials(
    game: &'static str,
    answer: fn(&str) -> String,
    shown: fn(&str, bool) -> String,
) -> Vec<Trial> {
    if std::env::var_os(DRIVE).is_some() {
        let stdin = std::io::stdin();
        let status =
            boardkit::function_fixture::drive(answer, stdin.lock(), std::io::stdout().lock());
        std::process::exit(i32::from(status.is_err()));
    }
    let dir = crate_root().join("fixtures").join(game).join("functions");
    let cases = FunctionCase::discover(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!cases.is_empty(), "no function cases in {}", dir.display());
    cases
        .into_iter()
        .map(|case| trial(case.test_name(), move || call(&case, shown)))
        .collect()
}

/// Runs a function case's calls through the driver, and judges them.
fn call(case: &FunctionCase, shown: fn(&str, bool) -> String) -> Result<(), Failed> {
    let requests = case.requests();
    let stdin = format!("{}\n", requests.join("\n"));
    let test_binary = std::env::current_exe().expect("the test binary's path");
    let command = || {
        let mut command = case_command(&test_binary, &[]);
        command.env(DRIVE, "1");
        command
    };
    let (run, ran_twice) = run_case(command, stdin.as_bytes());
    let (verdict, message) = boardkit::judge::judge_calls(
        &boardkit::judge::Calls {
            requests: &requests,
            accepted: &case.accepted(),
            shown: &|request| shown(request, false),
        },
        &boardkit::judge::Run {
            stdout: &run.stdout,
            stderr: &run.stderr,
            ending: run.ending,
        },
    );
    let message = twice(message, verdict, ran_twice);
    match verdict {
        Verdict::Passed => Ok(()),
        _ => Err(boardkit::judge::failure(verdict, &case.description, &message).into()),
    }
}

/// `Ok` when `ok`, else a failure with the message.
pub fn check(ok: bool, message: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok { Ok(()) } else { Err(message().into()) }
}
