//! Watch mode (rustlings' `watch`): the starter's tests run again on every
//! save, and each run shows each level's progress and the first failure;
//! the exercise's hints come one at a time, for the first level not yet
//! reached. A Rust starter runs it as `cargo run -q -- watch`; the kit's
//! `boardkit watch` serves a Python starter.
//!
//! Shipped with every starter, with nothing a student's crate would not
//! otherwise compile: files are polled for their times, and keys are read
//! as lines (`h` then Enter: a hint; `q` then Enter: quit; Enter alone:
//! test again).

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, SystemTime};

/// Where a starter keeps its hints, level by level, in its language.
pub const HINTS: &str = "tests/hints.toml";

/// Where watch mode records how many hints of each level were opened.
pub const HINTS_OPENED: &str = ".boardkit/hints-opened.toml";

/// Where `boardkit test <game> --mine` builds, in a starter, the versions
/// of the game that own tests are graded against (once, about 30 s on 2
/// cores: the kit's dependencies, the example and its mutants).
pub const OWN_TESTS_BUILD: &str = "target/boardkit-mine";

/// The file `boardkit test <game> --mine` writes in [`OWN_TESTS_BUILD`]
/// once those versions are built: later runs reuse them, in a second.
pub const OWN_TESTS_READY: &str = "target/boardkit-mine/ready";

/// The words of [`own_tests_line`], in one place for their translations:
/// `{game}` is the game's name.
const OWN_TESTS_LATER: &str = "tests/mine.rs: `boardkit test {game} --mine` names the bugs your own tests catch (its first run builds the versions they are graded against, about 30 s); `cargo test` says it once every level passes, or with BOARDKIT_MINE=1";
const OWN_TESTS_BUILDING: &str = "boardkit: building the versions of the game your own tests (tests/mine.rs) are graded against, as {why}: once, about 30 s; later runs reuse them (BOARDKIT_MINE=0 skips this)";
const OWN_TESTS_WHY_PASSED: &str = "every level passes";
const OWN_TESTS_WHY_ASKED: &str = "BOARDKIT_MINE=1 asks for it";
const OWN_TESTS_RUNNING: &str = "boardkit: compiling your own tests (tests/mine.rs) against the versions they are graded against, and rebuilding those if the kit changed (BOARDKIT_MINE=0 skips this)";
const OWN_TESTS_NO_BOARDKIT: &str =
    "tests/mine.rs: `boardkit test {game} --mine` names the bugs your own tests catch";

/// Which of the kit's public bugs the student's own tests (`tests/mine.rs`
/// of the starter at `dir`) catch: the last line of `boardkit test <game>
/// --mine` when the kit's binary is on the PATH, else how to see it.
/// `cargo test` ends with it.
///
/// Its first run builds the versions own tests are graded against (about
/// 30 s): done only when `every_level_passed`, or when asked
/// (`BOARDKIT_MINE=1`), never on a student's first runs while every stub
/// still fails; once built, each run takes a second and always runs.
/// Empty with `BOARDKIT_MINE=0`.
pub fn own_tests_line(game: &str, dir: &Path, every_level_passed: bool) -> String {
    let asked = std::env::var_os("BOARDKIT_MINE");
    if asked.as_ref().is_some_and(|v| v == "0") {
        return String::new();
    }
    let asked = asked.is_some_and(|v| v == "1");
    let built = dir.join(OWN_TESTS_READY).is_file();
    if !built && !asked && !every_level_passed {
        return OWN_TESTS_LATER.replace("{game}", game);
    }
    let ran = Command::new("boardkit")
        .args(["test", game, "--mine"])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let slow = if built {
        OWN_TESTS_RUNNING.to_owned()
    } else if asked {
        OWN_TESTS_BUILDING.replace("{why}", OWN_TESTS_WHY_ASKED)
    } else {
        OWN_TESTS_BUILDING.replace("{why}", OWN_TESTS_WHY_PASSED)
    };
    let last = ran
        .and_then(|child| said_if_slow(child, &slow))
        .ok()
        .and_then(|out| {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.lines().last().map(str::to_owned)
        });
    match last {
        Some(line) => format!("tests/mine.rs: {line}"),
        None => OWN_TESTS_NO_BOARDKIT.replace("{game}", game),
    }
}

/// How long a child may run before [`said_if_slow`] says what it does:
/// longer reads as hung.
const SLOW: Duration = Duration::from_secs(2);

/// `child`'s output once it ends; `line` on stderr if it runs longer than
/// [`SLOW`] (a first build, half a minute), while it runs. Its output is
/// a few lines: the pipe holds them until it ends.
fn said_if_slow(mut child: std::process::Child, line: &str) -> io::Result<std::process::Output> {
    let started = std::time::Instant::now();
    while child.try_wait()?.is_none() {
        if started.elapsed() >= SLOW {
            eprintln!("{line}");
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output()
}

/// How often the files' times are read.
const POLL: Duration = Duration::from_millis(300);

/// The most lines of a failure shown.
const FAILURE_LINES: usize = 30;

/// What to watch and how to test it.
pub struct Watch {
    /// The starter's folder.
    pub folder: PathBuf,
    /// The command that runs its tests, and its arguments.
    pub test: Vec<String>,
    /// The folders (or files), under `folder`, whose saves run it again.
    pub watched: Vec<PathBuf>,
}

/// The hints of each level (in level order) and how many were opened.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Hints {
    pub levels: Vec<(String, Vec<String>)>,
    pub opened: BTreeMap<String, usize>,
}

impl Hints {
    /// The starter's hints and what was opened, from its files (none when
    /// they are missing).
    pub fn load(folder: &Path) -> Hints {
        let read = |path: &str| {
            std::fs::read_to_string(folder.join(path))
                .ok()
                .and_then(|t| t.parse::<toml::Table>().ok())
                .unwrap_or_default()
        };
        let levels = read(HINTS)
            .into_iter()
            .filter_map(|(level, hints)| Some((level, crate::session_fixture::texts(&hints)?)))
            .collect::<Vec<_>>();
        let opened = read(HINTS_OPENED)
            .into_iter()
            .filter_map(|(level, n)| Some((level, usize::try_from(n.as_integer()?).ok()?)))
            .collect();
        let mut hints = Hints { levels, opened };
        // In level order, not the file's key order.
        hints.levels.sort_by_key(|(level, _)| {
            level
                .parse::<crate::level::Level>()
                .map_or(usize::MAX, |l| l as usize)
        });
        hints
    }

    /// The next hint of `level`, counted as opened; `None` when every one
    /// was.
    pub fn open(&mut self, level: &str) -> Option<(usize, usize, String)> {
        let (_, hints) = self.levels.iter().find(|(l, _)| l == level)?;
        let opened = self.opened.entry(level.to_owned()).or_default();
        let hint = hints.get(*opened)?.clone();
        *opened += 1;
        Some((*opened, hints.len(), hint))
    }

    /// Records the hints opened, in the starter's `.boardkit/`.
    pub fn save(&self, folder: &Path) -> io::Result<()> {
        let path = folder.join(HINTS_OPENED);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut text =
            String::from("# Hints opened in watch mode, per level (`cargo run -q -- watch`).\n");
        for (level, n) in &self.opened {
            text.push_str(&format!("{level} = {n}\n"));
        }
        std::fs::write(path, text)
    }
}

/// One test run, as watch mode reads it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Progress {
    /// Each level's line: its name, tests passed and run.
    pub levels: Vec<(String, u32, u32)>,
    /// The first failure: its test's name and its message.
    pub failure: Option<(String, String)>,
    /// Why nothing ran (the crate does not build), in the compiler's words.
    pub broken: Option<String>,
}

impl Progress {
    /// Reads a run's output: the `levels:` summary that `cargo test` and
    /// `boardkit test` end with, and the first failure in either's form
    /// (`---- name ----` then its message, or `FAILED  name` then its
    /// indented lines).
    pub fn read(output: &str) -> Progress {
        let mut progress = Progress::default();
        let lines: Vec<&str> = output.lines().collect();
        if let Some(start) = lines.iter().position(|l| l.trim_end() == "levels:") {
            for line in &lines[start + 1..] {
                // `basic  3/6 passed`, or in a translation `Básico (basic)
                // 3/6 passaram`: the level is its English name.
                let words: Vec<&str> = line.split_whitespace().collect();
                let Some(at) = words.iter().position(|w| w.contains('/')) else {
                    break;
                };
                let Some((passed, run)) = words[at].split_once('/') else {
                    break;
                };
                let (Ok(passed), Ok(run)) = (passed.parse(), run.parse()) else {
                    break;
                };
                let level = words[..at]
                    .iter()
                    .find_map(|w| w.strip_prefix('(').and_then(|w| w.strip_suffix(')')))
                    .or(words.first().copied().filter(|_| at > 0));
                let Some(level) = level else { break };
                progress.levels.push((level.to_owned(), passed, run));
            }
        }
        let mut failures: Vec<(String, String)> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let name = line
                .strip_prefix("---- ")
                .and_then(|l| l.strip_suffix(" ----"))
                .or_else(|| line.strip_prefix("FAILED  "));
            let Some(name) = name else { continue };
            let message: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| {
                    !l.starts_with("---- ")
                        && !l.starts_with("ok      ")
                        && !l.starts_with("FAILED  ")
                        && **l != "failures:"
                        && **l != "levels:"
                })
                .map(|l| l.strip_prefix("        ").unwrap_or(l))
                .collect();
            failures.push((name.to_owned(), message.join("\n").trim_end().to_owned()));
        }
        // The first failure of the level a student works on: the first
        // level not passed whole.
        let current = progress.current_level().map(|l| format!("{l}::"));
        progress.failure = failures
            .iter()
            .find(|(name, _)| current.as_ref().is_some_and(|c| name.starts_with(c)))
            .or(failures.first())
            .cloned();
        if progress.levels.is_empty() {
            // No summary: the build failed, or the tests could not start.
            let errors: Vec<&str> = lines
                .iter()
                .skip_while(|l| !l.starts_with("error"))
                .copied()
                .collect();
            let shown = if errors.is_empty() {
                &lines[..]
            } else {
                &errors[..]
            };
            progress.broken = Some(clipped(&shown.join("\n")));
        }
        progress
    }

    /// The first level not passed whole: the one a hint is for.
    pub fn current_level(&self) -> Option<&str> {
        self.levels
            .iter()
            .find(|(level, passed, run)| passed < run && level != "robustness")
            .map(|(level, _, _)| level.as_str())
    }

    /// The run, for people: each level's bar, then the first failure.
    pub fn show(&self) -> String {
        if let Some(broken) = &self.broken {
            return format!("The tests did not run:\n{broken}\n");
        }
        let mut out = String::from("levels:\n");
        for (level, passed, run) in &self.levels {
            let width = 20usize;
            let done = if *run == 0 {
                0
            } else {
                *passed as usize * width / *run as usize
            };
            out.push_str(&format!(
                "  {level:<11} [{}{}] {passed}/{run}\n",
                "#".repeat(done),
                "-".repeat(width - done)
            ));
        }
        match &self.failure {
            Some((name, message)) => {
                out.push_str(&format!("\nfirst failure: {name}\n{}\n", clipped(message)));
            }
            None => out.push_str("\nevery test passed\n"),
        }
        out
    }
}

/// `text` in at most [`FAILURE_LINES`] lines.
fn clipped(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= FAILURE_LINES {
        return text.to_owned();
    }
    format!(
        "{}\n[... {} more lines: run the tests to see them all]",
        lines[..FAILURE_LINES].join("\n"),
        lines.len() - FAILURE_LINES
    )
}

/// The latest modification time of any file under `paths`.
fn latest_change(paths: &[PathBuf]) -> Option<SystemTime> {
    fn walk(path: &Path, latest: &mut Option<SystemTime>) {
        let Ok(meta) = std::fs::metadata(path) else {
            return;
        };
        if meta.is_dir() {
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                walk(&entry.path(), latest);
            }
        } else if let Ok(time) = meta.modified() {
            *latest = (*latest).max(Some(time));
        }
    }
    let mut latest = None;
    for path in paths {
        walk(path, &mut latest);
    }
    latest
}

/// Runs the tests once, and reads the run.
fn test(watch: &Watch) -> Progress {
    let Some((program, args)) = watch.test.split_first() else {
        return Progress::default();
    };
    match Command::new(program)
        .args(args)
        .current_dir(&watch.folder)
        .env("CARGO_TERM_COLOR", "never")
        .output()
    {
        Ok(run) => Progress::read(&format!(
            "{}\n{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        )),
        Err(e) => Progress {
            broken: Some(format!("cannot run {program}: {e}")),
            ..Progress::default()
        },
    }
}

/// Lines typed, read on a thread of their own so that saves are seen
/// while nothing is typed.
fn typed(input: impl BufRead + Send + 'static) -> Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// Watch mode, until `q` or the end of input: tests, shows, waits for a
/// save or a key.
pub fn watch(
    watch: &Watch,
    input: impl BufRead + Send + 'static,
    output: &mut dyn Write,
) -> io::Result<()> {
    let paths: Vec<PathBuf> = watch.watched.iter().map(|p| watch.folder.join(p)).collect();
    let keys = typed(input);
    let mut hints = Hints::load(&watch.folder);
    loop {
        writeln!(output, "\ntesting...")?;
        output.flush()?;
        let seen = latest_change(&paths);
        let progress = test(watch);
        write!(output, "{}", progress.show())?;
        let opened: Vec<String> = hints
            .opened
            .iter()
            .map(|(level, n)| format!("{level} {n}"))
            .collect();
        if !opened.is_empty() {
            writeln!(output, "hints opened: {}", opened.join(", "))?;
        }
        writeln!(
            output,
            "\nwatching: save a file to test again; h then Enter for a hint, q then Enter to quit"
        )?;
        output.flush()?;
        loop {
            match keys.recv_timeout(POLL) {
                Ok(key) => match key.trim() {
                    "q" => return Ok(()),
                    "h" => {
                        let level = progress.current_level();
                        let hint = level.and_then(|level| hints.open(level));
                        match (level, hint) {
                            (Some(level), Some((n, of, hint))) => {
                                hints.save(&watch.folder)?;
                                writeln!(output, "hint {n} of {of} for {level}: {hint}")?;
                            }
                            (Some(level), None) => {
                                writeln!(
                                    output,
                                    "no more hints for {level}: EXERCISE.md says the rest"
                                )?;
                            }
                            (None, _) => writeln!(output, "every level passed: no hint needed")?,
                        }
                        output.flush()?;
                    }
                    "" => break,
                    other => {
                        writeln!(
                            output,
                            "{other:?}: h for a hint, q to quit, Enter to test again"
                        )?;
                        output.flush()?;
                    }
                },
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
                Err(RecvTimeoutError::Timeout) => {
                    if latest_change(&paths) != seen {
                        break;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARGO: &str = "running 3 tests\ntest advanced::x ... FAILED\ntest basic::y ... FAILED\n\nfailures:\n\n---- advanced::x ----\nwrong output; expected: x\nline two\n\n---- basic::y ----\ncrashed; expected: y\nnot yet implemented: extrai_linha\n\nfailures:\n    advanced::x\n    basic::y\n\nlevels:\n  basic         0/1 passed  <- not yet\n  proficient    1/1 passed\n  advanced      0/1 passed  <- not yet\n\ntest result: FAILED. 1 passed; 2 failed\n";

    #[test]
    fn a_run_is_read_for_its_levels_and_the_current_levels_first_failure() {
        let progress = Progress::read(CARGO);
        assert_eq!(
            progress.levels,
            [
                ("basic".to_owned(), 0, 1),
                ("proficient".to_owned(), 1, 1),
                ("advanced".to_owned(), 0, 1)
            ]
        );
        assert_eq!(progress.current_level(), Some("basic"));
        let (name, message) = progress.failure.clone().unwrap();
        assert_eq!(name, "basic::y");
        assert_eq!(
            message,
            "crashed; expected: y\nnot yet implemented: extrai_linha"
        );
        assert!(
            progress
                .show()
                .contains("  basic       [--------------------] 0/1")
        );
        // `boardkit test`'s form.
        let python = Progress::read(
            "ok      basic::a\nFAILED  proficient::b\n        wrong output\n        here\nlevels:\n  basic         1/1 passed\n  proficient    0/1 passed  <- not yet\n",
        );
        assert_eq!(python.current_level(), Some("proficient"));
        assert_eq!(
            python.failure,
            Some(("proficient::b".into(), "wrong output\nhere".into()))
        );
        // A translated starter's summary.
        let translated = Progress::read(
            "levels:\n  Básico (basic)        2/2 passaram\n  Proficiente (proficient)  0/3 passaram  <- ainda não\n",
        );
        assert_eq!(translated.current_level(), Some("proficient"));
        // No summary: the compiler's words.
        let broken = Progress::read(
            "   Compiling x\nerror[E0308]: mismatched types\n --> src/velha/mod.rs:3:5\n",
        );
        assert!(broken.broken.unwrap().starts_with("error[E0308]"));
    }

    #[test]
    fn hints_open_one_at_a_time_and_are_recorded() {
        let dir = std::env::temp_dir().join(format!("boardkit-watch-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(
            dir.join(HINTS),
            "proficient = [\"p1\"]\nbasic = [\"b1\", \"b2\"]\n",
        )
        .unwrap();
        let mut hints = Hints::load(&dir);
        assert_eq!(hints.levels[0].0, "basic", "level order");
        assert_eq!(hints.open("basic"), Some((1, 2, "b1".into())));
        hints.save(&dir).unwrap();
        let mut again = Hints::load(&dir);
        assert_eq!(again.opened.get("basic"), Some(&1));
        assert_eq!(again.open("basic"), Some((2, 2, "b2".into())));
        assert_eq!(again.open("basic"), None);
        assert_eq!(again.open("expert"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
