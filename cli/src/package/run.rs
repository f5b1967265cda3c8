//! A reference, a submission or a stub run on a package's cases, in the
//! sandbox, as the grader runs a student's: Rust compiled with the kit's
//! caller (`answers.rs`), Python run beside the kit's (`caller.py`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use boardkit::catalogue::{f, t};
use boardkit::judge::Verdict;
use serde_json::Value as Json;

use super::{Case, CaseKind, Ends, Language, Package, Typed};
use crate::grader::sandbox::{Ending, Isolation, Job, Limits, Sandbox, Session};

/// A solution ready to run: compiled, or beside its caller.
#[derive(Debug)]
pub(crate) enum Built {
    Rust {
        binary: PathBuf,
    },
    Python {
        folder: PathBuf,
        caller: PathBuf,
    },
    /// Any program, through stdin and stdout (`grade --program`): a
    /// shell command run in a copy of the submission's folder. It plays
    /// the sessions; it has no functions to call.
    Program {
        folder: PathBuf,
        command: String,
    },
}

impl Built {
    fn language(&self) -> Language {
        match self {
            Built::Rust { .. } => Language::Rust,
            Built::Python { .. } | Built::Program { .. } => Language::Python,
        }
    }

    /// `folder` copied into `scratch`, where `command` will run.
    pub(crate) fn program(folder: &Path, command: &str, scratch: &Path) -> Result<Built, String> {
        let _ = std::fs::remove_dir_all(scratch);
        let copy = scratch.join("build");
        copy_folder(folder, &copy).map_err(|e| e.to_string())?;
        Ok(Built::Program {
            folder: copy,
            command: command.to_owned(),
        })
    }
}

/// What a case gave.
#[derive(Debug, Clone)]
pub(crate) struct Ran {
    /// A function case's answers (as far as it got), or a session's graded
    /// lines.
    pub answers: Vec<Json>,
    pub lines: Vec<String>,
    /// A session's whole output, read for a line close to a missing one.
    pub printed: String,
    /// Why it did not finish, if it did not, and how the grader names that.
    pub failure: Option<String>,
    pub verdict: Option<Verdict>,
    /// The language it ran in: how its messages write calls and values.
    pub language: Language,
    pub cpu: Duration,
    /// What a call that answered an error raised, by the call's place
    /// (Python: its exception, said when a value was expected).
    pub raised: std::collections::BTreeMap<usize, String>,
}

/// Inside the sandbox.
const BUILD: &str = "/build";
const OUT: &str = "/out";
const RUST: &str = "/opt/rust";
const CALLER: &str = "/kit/caller.py";
const BINARY: &str = "/kit/answers";

/// Copies the solution folder `from` into `to`, refusing links.
pub(crate) fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_symlink() {
            return Err(std::io::Error::other(format!(
                "{} is a link: a solution holds its files",
                entry.path().display()
            )));
        } else if kind.is_dir() {
            copy_folder(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The toolchain's sysroot, where `rustc` is.
fn sysroot() -> Result<PathBuf, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let output = std::process::Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run {rustc}: {e}"))?;
    Ok(PathBuf::from(
        String::from_utf8_lossy(&output.stdout).trim(),
    ))
}

/// Makes `solution` (a folder holding `mod.rs`, or `<name>.py`) ready to
/// run any case, in `scratch`; a compile error is the error.
pub(crate) fn prepare(
    package: &Package,
    language: Language,
    solution: &Path,
    scratch: &Path,
    sandbox: &Sandbox,
) -> Result<Built, String> {
    let build = scratch.join("build");
    let _ = std::fs::remove_dir_all(scratch);
    match language {
        Language::Python => {
            copy_folder(solution, &build).map_err(|e| e.to_string())?;
            // The kit's copy of the given types, whatever the folder holds.
            if let Some(given) = &package.given.python {
                std::fs::copy(given, build.join("given.py")).map_err(|e| e.to_string())?;
            }
            let caller = scratch.join("caller.py");
            std::fs::write(&caller, super::python::caller(package)).map_err(|e| e.to_string())?;
            Ok(Built::Python {
                folder: build,
                caller,
            })
        }
        Language::Rust => {
            copy_folder(solution, &build.join("src").join(&package.name))
                .map_err(|e| e.to_string())?;
            if let Some(given) = &package.given.rust {
                std::fs::copy(given, build.join("src/given.rs")).map_err(|e| e.to_string())?;
            }
            std::fs::write(build.join("answers.rs"), super::rust::caller(package))
                .map_err(|e| e.to_string())?;
            let out = scratch.join("out");
            std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
            compile(sandbox, &build, &out).map_err(|e| as_the_student_sees(package, &e))?;
            Ok(Built::Rust {
                binary: out.join("answers"),
            })
        }
    }
}

/// A build's errors as the student reads them: their files by the paths
/// of their crate (`src/<name>/mod.rs`, not the grader's `/build/src/...`);
/// and, for a path that leaves their folder (`crate::util`), that only
/// `src/<name>/` is graded.
fn as_the_student_sees(package: &Package, errors: &str) -> String {
    let mut said = errors.replace("/build/src/", "src/");
    let outside = said.lines().any(|l| {
        l.starts_with("error[E0433]")
            || l.starts_with("error[E0432]")
            || l.starts_with("error[E0583]")
    }) && said.contains("crate");
    if outside {
        said.push_str(&format!(
            "\n{}",
            f(
                "only src/{name}/ is graded: a module outside it (declared in src/lib.rs) is not in the crate it is built in; move it into src/{name}/",
                &[("name", &package.name)],
            )
        ));
    }
    said
}

/// rustc with `args`, `build` read-only at `/build`, writing into `out`
/// at `/out`: the toolchain's own, run as the grader's builds are.
pub(crate) fn rustc_job(args: &[String], build: &Path, out: &Path) -> Result<Job<'static>, String> {
    let mut job = Job::new(&format!("{RUST}/bin/rustc"), args);
    job.read_only = vec![(build.to_owned(), BUILD.into()), (sysroot()?, RUST.into())];
    job.writable = vec![(out.to_owned(), OUT.into())];
    job.cwd = Some(BUILD.into());
    job.as_grader_unsandboxed = true;
    job.env = vec![("PATH".into(), format!("{RUST}/bin:/usr/bin:/bin"))];
    Ok(job)
}

/// A compilation's limits.
pub(crate) fn compile_limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(120),
        cpu_seconds: 120,
        memory_bytes: 2 << 30,
        whole_tree: false,
        file_bytes: 256 << 20,
        disk_bytes: 512 << 20,
        ..Limits::default()
    }
}

fn compile(sandbox: &Sandbox, build: &Path, out: &Path) -> Result<(), String> {
    let args: Vec<String> = [
        "--edition=2021",
        "-Copt-level=1",
        "--crate-type=bin",
        "--crate-name=answers",
        "/build/answers.rs",
        "-o",
        "/out/answers",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let job = rustc_job(&args, build, out)?;
    rustc(sandbox, &job).map_err(|e| format!("it does not compile:\n{e}"))
}

/// Runs the rustc `job` under a compilation's limits: its first lines of
/// errors when it fails.
pub(crate) fn rustc(sandbox: &Sandbox, job: &Job<'_>) -> Result<(), String> {
    let ran = sandbox
        .run(job, &compile_limits())
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    match ran.ending {
        Ending::Exited(0) => Ok(()),
        _ => {
            let text = String::from_utf8_lossy(&ran.stderr);
            let first: Vec<&str> = text.lines().take(30).collect();
            Err(first.join("\n"))
        }
    }
}

/// The job that runs `built` with `words` (`case NAME`, or `play`).
fn job<'a>(built: &'a Built, mut words: Vec<String>, package: &Package) -> Job<'a> {
    // A Python session runs the program itself, `python3 <program>.py`,
    // as the student does: the caller's imports would double a short
    // session's time.
    if matches!(built, Built::Python { .. }) && words.first().is_some_and(|w| w == "play") {
        words[0] = package.python.program_file();
    }
    let mut job = bare_job(built, words);
    job.env
        .push((super::LANGUAGE.into(), package.language.clone()));
    job
}

fn bare_job(built: &Built, words: Vec<String>) -> Job<'_> {
    match built {
        Built::Program { folder, command } => {
            // The session's options (the words after `play`) follow the
            // command.
            let mut args = vec!["-c".to_owned(), format!("{command} \"$@\""), "sh".into()];
            args.extend(words.into_iter().skip(1));
            let mut job = Job::new("/bin/sh", &args);
            job.work_from = Some(folder);
            job.env = vec![
                ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
                (super::PYTHON_IO.0.into(), super::PYTHON_IO.1.into()),
            ];
            job
        }
        Built::Rust { binary } => {
            let mut job = Job::new(BINARY, &words);
            job.read_only = vec![(binary.clone(), BINARY.into())];
            job
        }
        Built::Python { folder, caller } => {
            // `call ...` runs the caller; a program's file name, the
            // program with its options.
            let mut args = vec!["-c".into(), "exec python3 \"$0\" \"$@\"".into()];
            if words.first().is_some_and(|w| w == "call") {
                args.push(CALLER.into());
            }
            args.extend(words);
            let mut job = Job::new("/bin/sh", &args);
            job.work_from = Some(folder);
            job.read_only = vec![(caller.clone(), CALLER.into())];
            job.env = vec![
                ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
                (super::PYTHON_IO.0.into(), super::PYTHON_IO.1.into()),
            ];
            job
        }
    }
}

/// Runs `case` on `built`, in `session`: one solution's runs share its
/// sandbox's pod, as the built-in games' do (`Sandbox::session`).
pub(crate) fn run_case(
    package: &Package,
    built: &Built,
    case: &Case,
    session: &mut Session<'_>,
    limits: &Limits,
) -> Ran {
    let (words, stdin): (Vec<String>, Vec<u8>) = match &case.kind {
        // The calls' arguments at run time, one JSON array a line: the
        // caller holds no case, so nothing of another case can be read.
        CaseKind::Calls { function, calls } => {
            let f = &package.functions[*function];
            let lines: String = calls
                .iter()
                .map(|call| format!("{}\n", f.canonical_args(&call.args)))
                .collect();
            let mut words = vec!["call".into(), f.name.clone()];
            if case.whole && f.spread {
                words.push("whole".into());
            }
            (words, lines.into_bytes())
        }
        CaseKind::Session { args, typed, .. } => (
            std::iter::once("play".to_owned())
                .chain(args.iter().cloned())
                .collect(),
            typed.bytes(),
        ),
    };
    let crashed = |why: String| Ran {
        answers: Vec::new(),
        lines: Vec::new(),
        printed: String::new(),
        failure: Some(why),
        verdict: Some(Verdict::Crashed),
        language: built.language(),
        cpu: Duration::ZERO,
        raised: std::collections::BTreeMap::new(),
    };
    if matches!(
        (built, &case.kind),
        (Built::Program { .. }, CaseKind::Calls { .. })
    ) {
        return crashed("a program run with --program has no functions to call".into());
    }
    let mut job = job(built, words, package);
    job.stdin = &stdin;
    let outcome = match session.run(&job, limits) {
        Ok(outcome) => outcome,
        Err(e) => return crashed(format!("cannot run it: {e}")),
    };
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    let (verdict, failure) = match &case.kind {
        CaseKind::Session {
            ends: Ends::Error, ..
        } => error_ending(built, &outcome),
        _ => ending(&outcome),
    };
    let (answers, lines, printed) = match &case.kind {
        CaseKind::Calls { .. } => (
            stdout
                .lines()
                // Answers follow a mark; what the student's code printed
                // is not one.
                .filter_map(|l| l.strip_prefix('\u{1e}'))
                .map(|l| serde_json::from_str(l).unwrap_or(Json::String(l.to_owned())))
                .collect(),
            Vec::new(),
            String::new(),
        ),
        CaseKind::Session { .. } => (
            Vec::new(),
            graded_lines(package, &stdout),
            stdout.clone().into_owned(),
        ),
    };
    Ran {
        answers,
        lines,
        printed,
        failure,
        verdict,
        language: built.language(),
        cpu: outcome.cpu,
        raised: raised(&outcome.stderr),
    }
}

/// How a run ended, as the grader names it and in words: nothing when it
/// ended well.
fn ending(outcome: &crate::grader::sandbox::Outcome) -> (Option<Verdict>, Option<String>) {
    let verdict = match outcome.ending {
        Ending::Exited(0) => None,
        Ending::Exited(_) | Ending::Signaled(_) | Ending::DiskLimit(_) => Some(Verdict::Crashed),
        Ending::CpuLimit(_) | Ending::TimedOut => Some(Verdict::Timeout),
        Ending::OutputLimit => Some(Verdict::OutputLimit),
    };
    let stderr = tail(&outcome.stderr);
    let failure = match outcome.ending {
        Ending::Exited(0) => None,
        Ending::Exited(_) if unwritten(&stderr).is_some() => unwritten(&stderr),
        Ending::Exited(status) => Some(f(
            "it ended with status {status}: {stderr}",
            &[("status", &status), ("stderr", &stderr)],
        )),
        Ending::Signaled(signal) => Some(f(
            "it was killed by signal {signal}: {stderr}",
            &[("signal", &signal), ("stderr", &stderr)],
        )),
        Ending::CpuLimit(d) => Some(f(
            "it ran out of its {seconds} s of CPU time",
            &[("seconds", &d.as_secs())],
        )),
        Ending::TimedOut => Some(t("it did not end in time").into()),
        Ending::OutputLimit => Some(t("it printed too much").into()),
        Ending::DiskLimit(what) => Some(f("it filled {what}", &[("what", &what)])),
    };
    (verdict, failure)
}

/// The stub's own words when a run stopped at a function still to write
/// (Rust's `todo!()`, the Python stub's `NotImplementedError`), in the
/// starter's locale: what a student needs, without the panic's noise.
fn unwritten(stderr: &str) -> Option<String> {
    let rest = stderr.lines().find_map(|l| {
        l.strip_prefix("not yet implemented: ")
            .or_else(|| l.strip_prefix("NotImplementedError: "))
    })?;
    Some(boardkit::judge::unimplemented_said(&format!(
        "not yet implemented: {rest}"
    )))
}

/// How a run that must end in an error ended: nothing when it said one.
/// A crash (a Rust panic, a signal), a limit or the Python stub's
/// `NotImplementedError` is no error said; nor is a normal end.
fn error_ending(
    built: &Built,
    outcome: &crate::grader::sandbox::Outcome,
) -> (Option<Verdict>, Option<String>) {
    let stderr = tail(&outcome.stderr);
    let said = match (outcome.ending, built) {
        (Ending::Exited(0), _) => false,
        (Ending::Exited(101), Built::Rust { .. }) => false,
        (Ending::Exited(_), Built::Python { .. }) => !stubbed(&stderr),
        (Ending::Exited(_), _) => true,
        _ => return ending(outcome),
    };
    if said {
        return (None, None);
    }
    if let Ending::Exited(0) = outcome.ending {
        return (
            Some(Verdict::WrongOutput),
            Some(
                t("it ended normally, expected an error: a message and a status other than 0")
                    .into(),
            ),
        );
    }
    ending(outcome)
}

/// Whether a Python run stopped before the student's program said
/// anything of its own: on the stub's `NotImplementedError`, or a file
/// that does not read (`SyntaxError`, `IndentationError`, `TabError`) or
/// imports what is not there. None of these is an error the program
/// chose to end with.
fn stubbed(stderr: &str) -> bool {
    stderr
        .lines()
        .any(|l| super::NEVER_RAN.iter().any(|name| l.starts_with(name)))
}

/// What the calls that answered an error raised, as the Python caller
/// writes them on stderr after a mark: `<place> <exception>`.
fn raised(stderr: &[u8]) -> std::collections::BTreeMap<usize, String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .filter_map(|l| l.strip_prefix('\u{1e}')?.split_once(' '))
        .filter_map(|(at, why)| Some((at.parse().ok()?, why.to_owned())))
        .collect()
}

/// The last lines of what a run wrote on stderr (not the caller's marked
/// lines).
fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    // The student's paths, not the sandbox's: a Python traceback's
    // `File "/sandbox/demo.py"` is their `demo.py`, a Rust panic's
    // `/build/src/demo/mod.rs` their `src/demo/mod.rs`.
    let sandbox = format!("\"{}/", crate::grader::sandbox::WORK);
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with('\u{1e}'))
        .map(|l| {
            let l = l.replace(&sandbox, "\"");
            format!("{}\n", l.replace("/build/src/", "src/"))
        })
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(6)..].join("\n")
}

// `captures`, `shaped` and `graded`: the one reading of a program's lines, which a
// Rust starter's tests take too (and a Python starter's, ported, is
// checked against).
include!("templates/lines.rs.in");

/// The lines of `stdout` the package grades: its messages'.
pub(crate) fn graded_lines(package: &Package, stdout: &str) -> Vec<String> {
    let Some(messages) = package.messages.get(&package.language) else {
        return Vec::new();
    };
    let patterns: Vec<&str> = messages.values().map(String::as_str).collect();
    stdout
        .lines()
        .map(|l| l.trim_end_matches([' ', '\t', '\r']))
        .filter_map(|l| graded(&patterns, l))
        .collect()
}

/// The lines of `printed` that are none of the package's: where a near
/// miss of an expected line may be (a line that is another message is
/// that message, not a misspelt one).
fn free_lines(package: &Package, printed: &str) -> String {
    let patterns: Vec<&str> = package
        .messages
        .get(&package.language)
        .map(|m| m.values().map(String::as_str).collect())
        .unwrap_or_default();
    printed
        .lines()
        .filter(|l| graded(&patterns, l.trim_end_matches([' ', '\t', '\r'])).is_none())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Whether `ran` passes `case`: `Err` says why not.
pub(crate) fn judge(package: &Package, case: &Case, ran: &Ran) -> Result<(), String> {
    match &case.kind {
        CaseKind::Calls { function, calls } => judge_calls(package, case, *function, calls, ran),
        CaseKind::Session {
            args,
            typed,
            expect,
            ..
        } => {
            first_line(package, typed, ran)?;
            let free = free_lines(package, &ran.printed);
            judge_session(case, (args, typed), expect.as_deref(), ran, &free)
        }
    }
}

/// When the statement has the program start with a line (`[program]
/// first`), the first line it printed is that one: not a prompt, a test
/// print or a blank line before it. A program that printed nothing is
/// judged by its lines alone.
fn first_line(package: &Package, typed: &Typed, ran: &Ran) -> Result<(), String> {
    let (Some(pattern), None) = (package.first_line(), &ran.failure) else {
        return Ok(());
    };
    let Some(line) = ran.printed.lines().next() else {
        return Ok(());
    };
    let line = line.trim_end_matches([' ', '\t', '\r']);
    if graded(&[pattern], line).is_some_and(|g| g == line) {
        return Ok(());
    }
    Err(f(
        "typed {typed}: the program's first line is {got}, expected {expected}: the statement has it start with that line",
        &[
            ("typed", &typed.shown()),
            ("got", &format!("{line:?}")),
            ("expected", &format!("{pattern:?}")),
        ],
    ))
}

/// A function case: each call's answer among those accepted.
fn judge_calls(
    package: &Package,
    case: &Case,
    function: usize,
    calls: &[super::Call],
    ran: &Ran,
) -> Result<(), String> {
    let api = &package.functions[function];
    for (i, call) in calls.iter().enumerate() {
        let returns = api.answer_type(call);
        let accepted = canonical_accepted(api, call);
        if accepted.is_empty() {
            return Err(format!(
                "{}:{}: no answer yet: run `boardkit bless`",
                case.file.display(),
                call.line
            ));
        }
        let shown = shown_call(package, api, &call.args, ran.language);
        let Some(answer) = ran.answers.get(i) else {
            // Ended well, and yet short of answers: the program ended
            // inside a call.
            let why = ran.failure.clone().unwrap_or_else(|| {
                t("no answer: the program ended before this call returned (a function that calls std::process::exit ends it); a function returns its answer instead").into()
            });
            return Err(format!("{shown}: {why}"));
        };
        if let (Some(class), [expected]) = (&api.class, &accepted[..])
            && answer != expected
        {
            return Err(object_failure(
                package, api, class, call, answer, expected, ran,
            ));
        }
        if !accepted.contains(answer) {
            let said = |a: &Json| super::types::shown_typed(&returns, a, ran.language);
            let expected: Vec<String> = accepted.iter().map(said).collect();
            let or = format!(" {} ", t("or"));
            // An error where a value was expected: what was raised.
            let got = match ran.raised.get(&i) {
                Some(why) => format!("{} ({why})", said(answer)),
                None => said(answer),
            };
            return Err(f(
                "{call} returned {got}, expected {expected}",
                &[
                    ("call", &shown),
                    ("got", &got),
                    ("expected", &expected.join(&or)),
                ],
            ));
        }
    }
    ran.failure.clone().map_or(Ok(()), Err)
}

/// The line, in its case file, of the first call whose answer `ran` got
/// wrong or never gave: where verify sends an author.
pub(crate) fn failed_call_line(package: &Package, case: &Case, ran: &Ran) -> Option<usize> {
    let CaseKind::Calls { function, calls } = &case.kind else {
        return None;
    };
    let api = &package.functions[*function];
    calls
        .iter()
        .enumerate()
        .find(|(i, call)| {
            let accepted = canonical_accepted(api, call);
            ran.answers.get(*i).is_none_or(|a| !accepted.contains(a))
        })
        .map(|(_, call)| call.line)
}

/// A call's accepted answers in canonical form, as the caller prints
/// answers: what the judge and verify compare with.
fn canonical_accepted(api: &super::Function, call: &super::Call) -> Vec<Json> {
    let returns = api.answer_type(call);
    super::rust::accepted(call)
        .iter()
        .map(|v| returns.canonical(v))
        .collect()
}

/// An object's call whose answers are not those expected: the steps up
/// to the first wrong answer, that answer and the one expected.
fn object_failure(
    package: &Package,
    api: &super::Function,
    class: &super::class::Class,
    call: &super::Call,
    answer: &Json,
    expected: &Json,
    ran: &Ran,
) -> String {
    let none: &[Json] = &[];
    let (got, want) = match (answer, expected) {
        (Json::Array(got), Json::Array(want)) => (got.as_slice(), want.as_slice()),
        // Made where refused, or refused where made: the constructor's
        // call is the failure.
        _ if class.fails && (answer.is_array() != expected.is_array()) => {
            let made = object_shown(package, &api.shown(), &call.args, ran.language, Some(0));
            let said = |v: &Json| match v.is_array() {
                true => t("an object").to_owned(),
                false => super::types::shown_answer(v, ran.language),
            };
            return f(
                "{call} returned {got}, expected {expected}",
                &[
                    ("call", &super::class::unbound(&made)),
                    ("got", &said(answer)),
                    ("expected", &said(expected)),
                ],
            );
        }
        (_, Json::Array(want)) => (none, want.as_slice()),
        _ => (none, none),
    };
    let at = got.iter().zip(want).take_while(|(g, w)| g == w).count();
    let step = super::class::step_of_answer(class, &call.args, at);
    let shown = object_shown(package, &api.shown(), &call.args, ran.language, Some(step));
    // The answering step's own type says how its answer is written.
    let returns = class
        .steps(&call.args)
        .get(step.wrapping_sub(1))
        .and_then(|(m, _)| m.returns.clone());
    let said = |v: Option<&Json>| match (v, &returns) {
        (None, _) => t("no answer").to_owned(),
        (Some(v), Some(returns)) => super::types::shown_typed(returns, v, ran.language),
        (Some(v), None) => super::types::shown_answer(v, ran.language),
    };
    f(
        "{call} returned {got}, expected {expected}",
        &[
            ("call", &shown),
            ("got", &said(got.get(at))),
            ("expected", &said(want.get(at))),
        ],
    )
}

/// Where two lists of lines first differ: the length of their common
/// start.
fn differs_at(got: &[String], expected: &[String]) -> usize {
    got.iter().zip(expected).take_while(|(a, b)| a == b).count()
}

/// A session: the program's graded lines, those expected.
fn judge_session(
    case: &Case,
    (args, typed): (&[String], &Typed),
    expect: Option<&[String]>,
    ran: &Ran,
    free: &str,
) -> Result<(), String> {
    let Some(expect) = expect else {
        return Err(format!(
            "{}: no expected lines yet: run `boardkit bless`",
            case.file.display()
        ));
    };
    // The options, when there are, said apart from the lines typed.
    let typed = match args {
        [] => typed.shown(),
        _ => f(
            "{typed} (the program started with the options {options})",
            &[("typed", &typed.shown()), ("options", &args.join(" "))],
        ),
    };
    if let Some(failure) = &ran.failure {
        let said = f(
            "typed {typed}: {failure}",
            &[("typed", &typed), ("failure", failure)],
        );
        // A wrong line printed before the failure is the first thing to
        // fix: said first, or the student fixes the end and only then
        // finds it.
        // Among the lines it printed, one that is not the expected line.
        let at = differs_at(&ran.lines, expect);
        let wrong = (at < ran.lines.len() && at < expect.len()).then_some(at);
        return Err(match wrong {
            Some(at) => f(
                "typed {typed}: line {number} of the program's lines is {got}, expected {expected}; then {failure}",
                &[
                    ("typed", &typed),
                    ("number", &(at + 1)),
                    ("got", &format!("{:?}", ran.lines[at])),
                    ("expected", &format!("{:?}", expect[at])),
                    ("failure", failure),
                ],
            ),
            None => said,
        });
    }
    if ran.lines.is_empty() && !expect.is_empty() {
        return Err(f(
            "typed {typed}: the program printed none of the exercise's lines (expected first {line})",
            &[("typed", &typed), ("line", &format!("{:?}", expect[0]))],
        ) + &near_miss(ran, free, &expect[0]));
    }
    if ran.lines != expect {
        let at = differs_at(&ran.lines, expect);
        let line = |lines: &[String]| {
            lines
                .get(at)
                .map_or_else(|| t("(none)").to_owned(), |l| format!("{l:?}"))
        };
        let near = expect
            .get(at)
            .map(|e| near_miss(ran, free, e))
            .unwrap_or_default();
        return Err(f(
            "typed {typed}: line {number} of the program's lines is {got}, expected {expected}",
            &[
                ("typed", &typed),
                ("number", &(at + 1)),
                ("got", &line(&ran.lines)),
                ("expected", &line(expect)),
            ],
        ) + &near);
    }
    Ok(())
}

/// "; you printed `Gagne !`...": a line the program printed close to the
/// `expected` one it did not print (accents, case, punctuation, a letter
/// or two), which no pattern took for a graded line; else nothing.
fn near_miss(ran: &Ran, free: &str, expected: &str) -> String {
    fn no_events(_: &str) -> Vec<String> {
        Vec::new()
    }
    if ran.lines.iter().any(|l| l == expected) {
        return String::new();
    }
    boardkit::compare::near_miss(no_events, expected, free).map_or_else(String::new, |near| {
        format!(
            "\n{}",
            boardkit::compare::you_printed(&near, expected).trim_end()
        )
    })
}

/// A call as the student's language writes it, for messages.
pub(crate) fn shown_call(
    package: &Package,
    f: &super::Function,
    args: &[toml::Value],
    language: Language,
) -> String {
    let f = &f.shown();
    if f.class.is_some() {
        return object_shown(package, f, args, language, None);
    }
    match language {
        Language::Python => super::python::call_expression(package, f, args),
        Language::Rust => super::rust::call_expression(package, f, args),
    }
}

/// An object's call as `language` writes it, its first `upto` steps.
fn object_shown(
    package: &Package,
    f: &super::Function,
    args: &[toml::Value],
    language: Language,
    upto: Option<usize>,
) -> String {
    match language {
        Language::Python => super::python::object_shown(package, f, args, upto),
        Language::Rust => super::rust::object_shown(package, f, args, upto),
    }
}

/// The sandbox a package's runs use: bubblewrap, or none when asked.
pub(crate) fn sandbox(unsandboxed: bool) -> Result<Sandbox, String> {
    let isolation = match unsandboxed {
        true => Isolation::None,
        false => Isolation::bubblewrap().map_err(|e| e.to_string())?,
    };
    Sandbox::new(isolation, 1).map_err(|e| format!("cannot prepare the sandbox: {e}"))
}

#[cfg(test)]
mod tests {
    use super::graded;

    const PATTERNS: &[&str] = &[
        "Jogo da Velha",
        "A {}|{}|{}",
        "Vencedor: {}",
        "Posição inválida",
        "Lettre invalide : {}",
    ];

    const LINES: &[&str] = &[
        "Jogo da Velha",
        "A X | O |   ",
        "A  X|O |",
        "Jogada: Vencedor:  O ",
        "Sua vez: Posição inválida",
        "Posição inválida!",
        "B X | O |",
        "Jogo",
        "",
        "Lettre invalide :",
        "Lettre invalide :  a b",
        "Lettre invalide:",
        "? Lettre invalide :",
    ];

    #[test]
    fn what_a_pattern_stands_for_is_graded_without_its_spaces() {
        let got: Vec<Option<String>> = LINES.iter().map(|l| graded(PATTERNS, l)).collect();
        let want = [
            Some("Jogo da Velha"),
            Some("A X|O|"),
            Some("A X|O|"),
            Some("Vencedor: O"),
            Some("Posição inválida"),
            None,
            None,
            None,
            None,
            Some("Lettre invalide :"),
            Some("Lettre invalide : a b"),
            None,
            Some("Lettre invalide :"),
        ];
        assert_eq!(got, want.map(|w| w.map(str::to_owned)));
    }

    /// The Python starter's port reads every line as this one does.
    #[test]
    fn the_python_port_grades_alike() {
        let patterns: Vec<String> = PATTERNS
            .iter()
            .map(|p| serde_json::to_string(p).unwrap())
            .collect();
        let port = include_str!("templates/lines.py.in")
            .replace("{lines}", &patterns.join(", "))
            .replace("{given}", "GIVEN = []")
            .replace("{forms}", "")
            .replace("{failing}", "{}");
        let lines = serde_json::to_string(LINES).unwrap();
        let script = format!(
            "__file__ = 'test.py'\n{port}\nprint(json.dumps([graded(l) for l in {lines}]))\n"
        );
        let out = std::process::Command::new("python3")
            .args(["-c", &script])
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let python: Vec<Option<String>> = serde_json::from_slice(&out.stdout).unwrap();
        let rust: Vec<Option<String>> = LINES.iter().map(|l| graded(PATTERNS, l)).collect();
        assert_eq!(python, rust);
    }
}
