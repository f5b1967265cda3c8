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

use crate::catalogue::{f, t};

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
        return f(
            "tests/mine.rs: `boardkit test {game} --mine` names the bugs your own tests catch (its first run builds the versions they are graded against, about 30 s); `cargo test` says it once every level passes, or with BOARDKIT_MINE=1",
            &[("game", &game)],
        );
    }
    let ran = Command::new("boardkit")
        .args(["test", game, "--mine"])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let building = |why: &str| {
        f(
            "boardkit: building the versions of the game your own tests (tests/mine.rs) are graded against, as {why}: once, about 30 s; later runs reuse them (BOARDKIT_MINE=0 skips this)",
            &[("why", &why)],
        )
    };
    let slow = if built {
        t("boardkit: compiling your own tests (tests/mine.rs) against the versions they are graded against, and rebuilding those if the kit changed (BOARDKIT_MINE=0 skips this)").to_owned()
    } else if asked {
        building(t("BOARDKIT_MINE=1 asks for it"))
    } else {
        building(t("every level passes"))
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
        None => f(
            "tests/mine.rs: `boardkit test {game} --mine` names the bugs your own tests catch",
            &[("game", &game)],
        ),
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
    /// Whether each run clears the screen first: [`clears_screen`].
    pub clear: bool,
}

/// Whether watch mode may clear the screen: stdout is a terminal, and
/// `NO_COLOR` does not ask for plain text (piped, it stays a plain log).
pub fn clears_screen() -> bool {
    use std::io::IsTerminal;
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Clears a terminal's screen and its scrollback, and puts the cursor home.
const CLEAR: &str = "\x1b[2J\x1b[3J\x1b[H";

/// The words watch mode adds to a run, in one place, as the starter's
/// catalogue says them.
mod words {
    use crate::catalogue::{f, t};

    pub(super) fn reached(level: Option<&str>) -> String {
        match level {
            Some(level) => f("level reached: {name}", &[("name", &level)]),
            None => t("level reached: none yet").to_owned(),
        }
    }
    pub(super) fn fix_the_build() -> &'static str {
        t("next: fix the first error above, then save")
    }
    pub(super) fn all_passed() -> &'static str {
        t("next: every level passed; q then Enter to quit")
    }
    pub(super) fn make_it_pass(what: &str, section: Option<(&str, &str)>) -> String {
        match section {
            Some((file, heading)) => f(
                "next: make `{what}` pass ({file}, \"{heading}\")",
                &[("what", &what), ("file", &file), ("heading", &heading)],
            ),
            None => f("next: make `{what}` pass", &[("what", &what)]),
        }
    }
    pub(super) fn a_hint_left() -> &'static str {
        t("; h then Enter for a hint")
    }
}

/// Where the statement says what each level asks: its file (a Rust
/// starter's EXERCISE.md, a Python starter's README.md) and each level's
/// heading there, found by the level's name in the starter's language
/// (`tests/locale.toml`) or in English.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Guide {
    pub file: String,
    pub sections: BTreeMap<String, String>,
}

impl Guide {
    /// The statement's file: EXERCISE.md when none was found.
    pub fn file_or_statement(&self) -> &str {
        if self.file.is_empty() {
            "EXERCISE.md"
        } else {
            &self.file
        }
    }

    pub fn load(folder: &Path) -> Guide {
        let names = std::fs::read_to_string(folder.join("tests/locale.toml"))
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
            .and_then(|t| t.get("level_names")?.as_table().cloned())
            .unwrap_or_default();
        // A package's starter has STATEMENT.md instead of EXERCISE.md.
        for file in ["EXERCISE.md", "STATEMENT.md", "README.md"] {
            let Ok(text) = std::fs::read_to_string(folder.join(file)) else {
                continue;
            };
            let headings: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix("## "))
                .map(str::trim)
                .collect();
            let mut sections = BTreeMap::new();
            for level in crate::level::Level::ALL {
                let english = level.name();
                let mut capital = english.chars();
                let capital: String = capital
                    .next()
                    .map(|c| c.to_uppercase().chain(capital).collect())
                    .unwrap_or_default();
                let own = names.get(english).and_then(|n| n.as_str());
                let found = headings.iter().find(|h| {
                    own.into_iter()
                        .chain([capital.as_str()])
                        .any(|name| h.starts_with(name))
                });
                if let Some(heading) = found {
                    sections.insert(english.to_owned(), (*heading).to_owned());
                }
            }
            if !sections.is_empty() {
                return Guide {
                    file: file.to_owned(),
                    sections,
                };
            }
        }
        let statement = ["EXERCISE.md", "STATEMENT.md"]
            .into_iter()
            .find(|f| folder.join(f).is_file());
        Guide {
            file: statement.unwrap_or_default().to_owned(),
            sections: BTreeMap::new(),
        }
    }
}

/// One hint, and what it is about: words of the cases' names, or of their
/// failures' messages (functions, messages), that it helps with; none when
/// it helps with every case of its level.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Hint {
    pub about: Vec<String>,
    pub text: String,
}

impl Hint {
    /// A hint as `tests/hints.toml` holds it: a text, or a table of its
    /// `text` and what it is `about`.
    fn read(value: &toml::Value) -> Option<Hint> {
        if let Some(text) = value.as_str() {
            return Some(Hint {
                about: Vec::new(),
                text: text.to_owned(),
            });
        }
        let table = value.as_table()?;
        let about = match table.get("about") {
            Some(about) => crate::session_fixture::texts(about)?,
            None => Vec::new(),
        };
        let text = table.get("text")?.as_str()?.to_owned();
        Some(Hint { about, text })
    }

    /// Whether it helps with the failing case `name`, whose message is
    /// `message`: a word of its `about` in the case's name or in what the
    /// failure shows (the call, the lines, the error), never in the case's
    /// description, the message's first line ([`crate::judge::failure`]),
    /// which would match hints an author never meant.
    pub fn concerns(&self, name: &str, message: &str) -> bool {
        let shown = message.split_once('\n').map_or("", |(_, rest)| rest);
        self.about.is_empty()
            || self
                .about
                .iter()
                .any(|word| name.contains(word.as_str()) || shown.contains(word.as_str()))
    }
}

/// A hint opened: its number among those opened of its level, how many the
/// level has, and the hint.
pub type Opened = (usize, usize, Hint);

/// The hints of each level (in level order), and which were opened.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Hints {
    pub levels: Vec<(String, Vec<Hint>)>,
    /// Per level, the hints opened, in the order they were: their places
    /// in the level's list, from 0.
    pub opened: BTreeMap<String, Vec<usize>>,
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
            .filter_map(|(level, hints)| {
                let hints: Option<Vec<Hint>> = hints.as_array()?.iter().map(Hint::read).collect();
                Some((level, hints?))
            })
            .collect::<Vec<_>>();
        let record = read(HINTS_OPENED);
        let which = record.get("which").and_then(toml::Value::as_table);
        let opened = record
            .iter()
            .filter_map(|(level, n)| {
                let count = usize::try_from(n.as_integer()?).ok()?;
                // Which ones, when recorded; else (an older record) the
                // first ones, as they were served then.
                let places = which
                    .and_then(|w| w.get(level)?.as_array().cloned())
                    .map(|places| {
                        places
                            .iter()
                            .filter_map(|p| usize::try_from(p.as_integer()?).ok()?.checked_sub(1))
                            .collect()
                    })
                    .unwrap_or_else(|| (0..count).collect());
                Some((level.clone(), places))
            })
            .collect();
        let mut hints = Hints { levels, opened };
        // In level order, not the file's key order.
        hints.levels.sort_by_key(|(level, _)| {
            level
                .parse::<crate::level::Level>()
                .map_or(usize::MAX, crate::level::Level::rank)
        });
        hints
    }

    /// The next hint of `level`, counted as opened: the first not opened
    /// whose `about` names `failure` (the first failing case's name and
    /// message), else the first not opened for every case of the level
    /// (no `about`), else the first not opened; `None` when every one was.
    pub fn open(&mut self, level: &str, failure: Option<(&str, &str)>) -> Option<Opened> {
        let (_, hints) = self.levels.iter().find(|(l, _)| l == level)?;
        let opened = self.opened.entry(level.to_owned()).or_default();
        let left = (0..hints.len()).filter(|i| !opened.contains(i));
        let first = left.clone().next()?;
        let concerns =
            |i: usize| failure.is_none_or(|(name, message)| hints[i].concerns(name, message));
        let pick = left
            .clone()
            .find(|&i| failure.is_some() && !hints[i].about.is_empty() && concerns(i))
            .or_else(|| left.clone().find(|&i| concerns(i)))
            .unwrap_or(first);
        opened.push(pick);
        Some((opened.len(), hints.len(), hints[pick].clone()))
    }

    /// Whether `level` has a hint not opened yet.
    pub fn left(&self, level: &str) -> bool {
        let opened = self.opened.get(level).map_or(0, Vec::len);
        self.levels
            .iter()
            .any(|(l, hints)| l == level && hints.len() > opened)
    }

    /// What the failing case `name` (`level::case`) tests, as the hints
    /// name it: a word of a hint's `about` that starts the case's name
    /// (`verifica_vencedor` for `basic::verifica_vencedor_every_board`).
    pub fn subject(&self, name: &str) -> Option<&str> {
        let (level, case) = name.split_once("::")?;
        let (_, hints) = self.levels.iter().find(|(l, _)| l == level)?;
        hints
            .iter()
            .flat_map(|h| &h.about)
            .find(|word| case.starts_with(word.as_str()))
            .map(String::as_str)
    }

    /// Records the hints opened, in the starter's `.boardkit/`: how many
    /// per level, then which (their numbers in `tests/hints.toml`).
    pub fn save(&self, folder: &Path) -> io::Result<()> {
        let path = folder.join(HINTS_OPENED);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // No command named: a Rust starter's watch is `cargo run -q --
        // watch`, a Python starter's `boardkit watch`.
        let mut text = String::from("# Hints opened in watch mode, per level.\n");
        for (level, places) in &self.opened {
            text.push_str(&format!("{level} = {}\n", places.len()));
        }
        text.push_str(
            "\n# Which, in the order opened: their places in tests/hints.toml.\n[which]\n",
        );
        for (level, places) in &self.opened {
            let numbers: Vec<String> = places.iter().map(|p| (p + 1).to_string()).collect();
            text.push_str(&format!("{level} = [{}]\n", numbers.join(", ")));
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
        let header = |l: &str| l.trim_end() == "levels:" || l.trim_end() == t("levels:");
        if let Some(start) = lines.iter().position(|l| header(l)) {
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
            let cargo = line
                .strip_prefix("---- ")
                .and_then(|l| l.strip_suffix(" ----"));
            let indented = line.strip_prefix("FAILED  ");
            let Some(name) = cargo.or(indented) else {
                continue;
            };
            let message: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| {
                    // `boardkit test`'s message is indented, whole.
                    if indented.is_some() {
                        return l.starts_with("        ");
                    }
                    !l.starts_with("---- ")
                        && !l.starts_with("ok      ")
                        && !l.starts_with("FAILED  ")
                        && **l != "failures:"
                        && !header(l)
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

    /// The highest level passed whole with every level below it, as the
    /// grader counts a level reached; `None` before the first.
    pub fn reached(&self) -> Option<&str> {
        self.levels
            .iter()
            .filter(|(level, _, _)| level != "robustness")
            .take_while(|(_, passed, run)| passed == run && *run > 0)
            .last()
            .map(|(level, _, _)| level.as_str())
    }

    /// The line a run ends with: what to do next, where the statement says
    /// it, and whether a hint is left.
    pub fn next_step(&self, hints: &Hints, guide: &Guide) -> String {
        if self.broken.is_some() {
            return words::fix_the_build().to_owned();
        }
        let (Some(level), Some((name, _))) = (self.current_level(), &self.failure) else {
            return words::all_passed().to_owned();
        };
        let what = hints.subject(name).unwrap_or_else(|| {
            name.split_once("::")
                .map_or(name.as_str(), |(_, case)| case)
        });
        let section = guide
            .sections
            .get(level)
            .map(|heading| (guide.file.as_str(), heading.as_str()));
        let mut line = words::make_it_pass(what, section);
        if hints.left(level) {
            line.push_str(words::a_hint_left());
        }
        line
    }

    /// The run, for people: each level's bar (its name in `words`), then
    /// the first failure.
    pub fn show(&self, words: &crate::level::Words) -> String {
        if let Some(broken) = &self.broken {
            return format!("{}\n{broken}\n", t("The tests did not run:"));
        }
        let mut out = format!("{}\n", words.header());
        let names: Vec<String> = self.levels.iter().map(|(l, _, _)| words.name(l)).collect();
        let name_width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(11);
        for ((_, passed, run), name) in self.levels.iter().zip(&names) {
            let width = 20usize;
            let done = if *run == 0 {
                0
            } else {
                *passed as usize * width / *run as usize
            };
            let pad = " ".repeat(name_width - name.chars().count());
            out.push_str(&format!(
                "  {name}{pad} [{}{}] {passed}/{run}\n",
                "#".repeat(done),
                "-".repeat(width - done)
            ));
        }
        let reached = self.reached().map(|l| words.name(l));
        out.push_str(&format!("{}\n", words::reached(reached.as_deref())));
        match &self.failure {
            Some((name, message)) => {
                let first = f("first failure: {name}", &[("name", name)]);
                out.push_str(&format!("\n{first}\n{}\n", clipped(message)));
            }
            None => out.push_str(&format!(
                "\n{}\n",
                t("every case of the kit passed (your own tests are not among them)")
            )),
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
    let more = f(
        "[... {count} more lines: run the tests to see them all]",
        &[("count", &(lines.len() - FAILURE_LINES))],
    );
    format!("{}\n{more}", lines[..FAILURE_LINES].join("\n"))
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
            broken: Some(f(
                "cannot run {program}: {error}",
                &[("program", program), ("error", &e)],
            )),
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

/// The next hint for the run's level, as `h` shows it (the first failure
/// choosing among the level's hints), or why there is none.
fn open_hint(
    progress: &Progress,
    hints: &mut Hints,
    words: &crate::level::Words,
    guide: &Guide,
) -> String {
    let level = progress.current_level();
    let failure = progress
        .failure
        .as_ref()
        .map(|(name, message)| (name.as_str(), message.as_str()));
    let hint = level.and_then(|level| hints.open(level, failure));
    match (level, hint) {
        // What a hint is about chose it; the student reads its text.
        (Some(level), Some((n, of, hint))) => f(
            "hint {number} of {count} for {level}: {text}",
            &[
                ("number", &n),
                ("count", &of),
                ("level", &words.name(level)),
                ("text", &hint.text),
            ],
        ),
        (Some(level), None) => f(
            "no more hints for {level}: {file} says the rest",
            &[
                ("level", &words.name(level)),
                ("file", &guide.file_or_statement()),
            ],
        ),
        (None, _) => t("every level passed: no hint needed").to_owned(),
    }
}

/// Watch mode, until `q` or the end of input: tests, shows, waits for a
/// save or a key.
pub fn watch(
    watch: &Watch,
    input: impl BufRead + Send + 'static,
    output: &mut dyn Write,
) -> io::Result<()> {
    crate::catalogue::use_folder(&watch.folder);
    let words = crate::level::Words::load(&watch.folder);
    let paths: Vec<PathBuf> = watch.watched.iter().map(|p| watch.folder.join(p)).collect();
    let keys = typed(input);
    let mut hints = Hints::load(&watch.folder);
    let guide = Guide::load(&watch.folder);
    loop {
        // A screen a run: the last run's lines do not stay above this one.
        let top = if watch.clear { CLEAR } else { "\n" };
        writeln!(output, "{top}{}", t("testing..."))?;
        output.flush()?;
        let seen = latest_change(&paths);
        let progress = test(watch);
        write!(output, "{}", progress.show(&words))?;
        let opened: Vec<String> = hints
            .opened
            .iter()
            .map(|(level, places)| format!("{} {}", words.name(level), places.len()))
            .collect();
        if !opened.is_empty() {
            let opened = opened.join(", ");
            writeln!(
                output,
                "{}",
                f("hints opened: {levels}", &[("levels", &opened)])
            )?;
        }
        writeln!(output, "\n{}", progress.next_step(&hints, &guide))?;
        writeln!(
            output,
            "\n{}",
            t("watching: save a file to test again; h then Enter for a hint, q then Enter to quit")
        )?;
        output.flush()?;
        loop {
            match keys.recv_timeout(POLL) {
                Ok(key) => match key.trim() {
                    "q" => return Ok(()),
                    "h" => {
                        let said = open_hint(&progress, &mut hints, &words, &guide);
                        hints.save(&watch.folder)?;
                        writeln!(output, "{said}")?;
                        output.flush()?;
                    }
                    "" => break,
                    other => {
                        let other = format!("{other:?}");
                        writeln!(
                            output,
                            "{}",
                            f(
                                "{key}: h for a hint, q to quit, Enter to test again",
                                &[("key", &other)]
                            )
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
    use crate::level::Words;

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
                .show(&Words::english())
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

    fn hint(text: &str) -> Hint {
        Hint {
            about: Vec::new(),
            text: text.into(),
        }
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
        assert_eq!(hints.open("basic", None), Some((1, 2, hint("b1"))));
        hints.save(&dir).unwrap();
        let mut again = Hints::load(&dir);
        assert_eq!(again.opened.get("basic"), Some(&vec![0]));
        assert_eq!(again.open("basic", None), Some((2, 2, hint("b2"))));
        assert_eq!(again.open("basic", None), None);
        assert_eq!(again.open("expert", None), None);
        // An older record, a count alone: the first ones were opened.
        std::fs::write(dir.join(HINTS_OPENED), "basic = 1\n").unwrap();
        let mut older = Hints::load(&dir);
        assert_eq!(older.open("basic", None), Some((2, 2, hint("b2"))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A hint's `about` words match the case's name and what its failure
    /// shows, never its description: "sum" in "expected: the sum of a few
    /// numbers" chooses no hint about `sum`.
    #[test]
    fn a_hint_is_chosen_by_the_case_and_what_it_shows_not_its_description() {
        let about_sum = Hint {
            about: vec!["sum".into()],
            text: "sum".into(),
        };
        let described = "crashed; expected: the sum of a few numbers\ndemo.total([1]): status 1";
        assert!(!about_sum.concerns("basic::total_small", described));
        assert!(about_sum.concerns("basic::sum_small", described));
        let shown = "wrong output; expected: a total\ndemo.total([1]): sum() returned 2";
        assert!(about_sum.concerns("basic::total_small", shown));
        assert!(hint("any").concerns("basic::total_small", described));
    }

    /// A hint about the failing case comes before one for every case of
    /// the level, even listed after it (the author's guide says so).
    #[test]
    fn a_hint_about_the_failure_comes_before_a_general_one() {
        let mut hints = Hints {
            levels: vec![(
                "basic".into(),
                vec![
                    hint("start with mascara"),
                    Hint {
                        about: vec!["letra_valida".into()],
                        text: "one letter, a to z".into(),
                    },
                ],
            )],
            opened: BTreeMap::new(),
        };
        let failing = Some((
            "basic::letra_valida_simples",
            "wrong output\nletra_valida(\"ab\")",
        ));
        let (_, _, first) = hints.open("basic", failing).unwrap();
        assert_eq!(first.text, "one letter, a to z");
        let (_, _, second) = hints.open("basic", failing).unwrap();
        assert_eq!(second.text, "start with mascara");
    }

    #[test]
    fn hints_come_in_the_order_of_the_first_failure() {
        let dir = std::env::temp_dir().join(format!("boardkit-watch-order-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(
            dir.join(HINTS),
            concat!(
                "basic = [\n",
                "  { about = [\"extrai_linha\", \"extrai_coluna\"], text = \"spaces first\" },\n",
                "  { about = [\"extrai_linha\", \"extrai_coluna\"], text = \"a letter's distance\" },\n",
                "  { about = [\"verifica_vencedor\"], text = \"the eight lines\" },\n",
                "  \"read EXERCISE.md\",\n",
                "]\n",
            ),
        )
        .unwrap();
        let mut hints = Hints::load(&dir);
        // verifica_vencedor fails first: its hint, then the level's own.
        let failing = Some(("basic::verifica_vencedor_every_board", "wrong answer"));
        let (n, of, first) = hints.open("basic", failing).unwrap();
        assert_eq!((n, of, first.text.as_str()), (1, 4, "the eight lines"));
        assert_eq!(first.about, ["verifica_vencedor"]);
        assert_eq!(
            hints.open("basic", failing).unwrap().2.text,
            "read EXERCISE.md"
        );
        // Then the rest, in their order; the count goes on.
        assert_eq!(hints.open("basic", failing).unwrap().2.text, "spaces first");
        hints.save(&dir).unwrap();
        // A failure named by its message, after a restart: what was opened
        // stays opened.
        let mut again = Hints::load(&dir);
        let (n, _, next) = again
            .open(
                "basic",
                Some(("basic::b", "crashed: not yet implemented: extrai_coluna")),
            )
            .unwrap();
        assert_eq!((n, next.text.as_str()), (4, "a letter's distance"));
        assert_eq!(again.open("basic", failing), None);
        let record = std::fs::read_to_string(dir.join(HINTS_OPENED)).unwrap();
        assert!(
            record.contains("basic = 3\n") && record.contains("basic = [3, 4, 1]"),
            "{record}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A starter's folder with hints, a translated statement and its
    /// level names; removed when dropped.
    struct Starter(PathBuf);

    impl Starter {
        fn new(name: &str) -> Starter {
            let dir = std::env::temp_dir().join(format!("boardkit-{name}-{}", std::process::id()));
            std::fs::create_dir_all(dir.join("tests")).unwrap();
            std::fs::write(
                dir.join(HINTS),
                "basic = [{ about = [\"extrai_linha\"], text = \"b1\" }, { about = [\"verifica_vencedor\"], text = \"b2\" }]\n",
            )
            .unwrap();
            std::fs::write(
                dir.join("tests/locale.toml"),
                "[level_names]\nbasic = \"Básico\"\nproficient = \"Proficiente\"\n",
            )
            .unwrap();
            std::fs::write(
                dir.join("EXERCISE.md"),
                "# Jogo da velha\n\n## Robustez\n\n## Básico: quatro funções\n\n## Proficiente: o jogo\n",
            )
            .unwrap();
            Starter(dir)
        }
    }

    impl Drop for Starter {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_run_shows_the_level_reached_and_ends_with_the_next_step() {
        let starter = Starter::new("next");
        let (hints, guide) = (Hints::load(&starter.0), Guide::load(&starter.0));
        assert_eq!(guide.file, "EXERCISE.md");
        assert_eq!(guide.sections["basic"], "Básico: quatro funções");
        let run = |text: &str| Progress::read(text);
        let failing = run(
            "---- basic::verifica_vencedor_every_board ----\nwrong\n\nlevels:\n  basic  2/3 passed\n  proficient 0/1 passed\n",
        );
        assert_eq!(failing.reached(), None);
        assert!(
            failing
                .show(&Words::english())
                .contains("level reached: none yet\n"),
            "{}",
            failing.show(&Words::english())
        );
        assert_eq!(
            failing.next_step(&hints, &guide),
            "next: make `verifica_vencedor` pass (EXERCISE.md, \"Básico: quatro funções\"); h then Enter for a hint"
        );
        // A case no hint names is named itself; no hint left, none offered.
        let mut opened = hints.clone();
        opened.opened.insert("basic".into(), vec![0, 1]);
        let other = run("---- basic::named_boards ----\nwrong\n\nlevels:\n  basic  2/3 passed\n");
        assert_eq!(
            other.next_step(&opened, &guide),
            "next: make `named_boards` pass (EXERCISE.md, \"Básico: quatro funções\")"
        );
        let proficient = run(
            "---- proficient::draw ----\nwrong\n\nlevels:\n  basic  3/3 passed\n  proficient 0/1 passed\n  robustness 0/2 passed\n",
        );
        assert_eq!(proficient.reached(), Some("basic"));
        assert!(
            proficient
                .next_step(&hints, &guide)
                .contains("\"Proficiente: o jogo\"")
        );
        let done = run("levels:\n  basic  3/3 passed\n  proficient 1/1 passed\n");
        assert_eq!(done.reached(), Some("proficient"));
        assert_eq!(
            done.next_step(&hints, &guide),
            "next: every level passed; q then Enter to quit"
        );
        let broken = run("error[E0308]: mismatched types\n");
        assert_eq!(
            broken.next_step(&hints, &guide),
            "next: fix the first error above, then save"
        );
    }

    /// Watch mode on a fake test run, until its input ends.
    #[cfg(unix)]
    fn watched(starter: &Starter, clear: bool) -> String {
        let settings = Watch {
            folder: starter.0.clone(),
            test: [
                "sh",
                "-c",
                "printf '%s\\n' '---- basic::extrai_linha ----' wrong '' levels: '  basic  0/3 passed'",
            ]
            .map(String::from)
                .to_vec(),
            watched: vec!["src".into()],
            clear,
        };
        let mut output = Vec::new();
        watch(
            &settings,
            std::io::Cursor::new(b"q\n".to_vec()),
            &mut output,
        )
        .unwrap();
        String::from_utf8(output).unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn each_run_clears_a_terminal_and_stays_a_plain_log_when_piped() {
        let starter = Starter::new("clear");
        let screen = watched(&starter, true);
        assert!(screen.starts_with(CLEAR), "{screen:?}");
        assert!(
            screen.contains("level reached: none yet\n")
                && screen.contains("\nnext: make `extrai_linha` pass (EXERCISE.md, \"Básico: quatro funções\"); h then Enter for a hint\n"),
            "{screen}"
        );
        let log = watched(&starter, false);
        assert!(!log.contains('\x1b'), "{log:?}");
        assert!(log.starts_with("\ntesting...\n"), "{log:?}");
    }
}
