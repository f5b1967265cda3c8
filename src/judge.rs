//! The one judge (SPEC 5.1): a case's verdict, and every word a student
//! reads about it, from what the case expected and how the program's run
//! ended. The grader (`boardkit grade`, `boardkit test`) and a starter's
//! own tests call it alike; neither words a verdict of its own.
//!
//! Shipped with every starter. Not [`crate::compare`], which only compares
//! two transcripts: this module also reads how a run ended (a crash, a
//! signal, a timeout, a flood) and says it.

use std::time::Duration;

use crate::catalogue::{f, message, t};
use crate::compare::{Difference, Reads};
use crate::level::EventsFn;

/// A case's verdict (SPEC 5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "kit", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "kit", serde(rename_all = "snake_case"))]
pub enum Verdict {
    Passed,
    WrongOutput,
    Timeout,
    Crashed,
    OutputLimit,
    /// A crate that does not build (the grader's alone: a local test
    /// that does not build does not run).
    CompileError,
}

impl Verdict {
    /// As reports and `results.json` name it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::WrongOutput => "wrong_output",
            Verdict::Timeout => "timeout",
            Verdict::Crashed => "crashed",
            Verdict::OutputLimit => "output_limit",
            Verdict::CompileError => "compile_error",
        }
    }

    /// In words, as a failure's message starts.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Passed => t("passed"),
            Verdict::WrongOutput => t("wrong output"),
            Verdict::Timeout => t("timed out"),
            Verdict::Crashed => t("crashed"),
            Verdict::OutputLimit => t("printed more than the output limit"),
            Verdict::CompileError => t("did not compile"),
        }
    }
}

/// The CPU time a case may use, the grader's and a starter's alike: the
/// floor, which a case whose reference is slow raises to
/// [`REFERENCE_MARGIN`] times the reference's own time ([`case_cpu`]). CPU
/// time, not the clock on the wall: what else a loaded machine runs is not
/// the case's, so the same code gets the same grade under any load.
pub const CASE_CPU: Duration = Duration::from_secs(10);

/// How many times the reference's CPU time a case may take, when that is
/// more than [`CASE_CPU`].
pub const REFERENCE_MARGIN: u32 = 20;

/// A case's CPU limit, from the reference's CPU time on it.
pub fn case_cpu(reference: Duration) -> Duration {
    CASE_CPU.max(reference * REFERENCE_MARGIN)
}

/// The wall-clock backstop behind a CPU limit of `cpu`: generous, for a
/// program that waits instead of computing (a sleep uses no CPU) and for
/// systems without a CPU limit. Five times the CPU limit, and at least 10
/// s more than it: a program computing for its whole limit still meets it
/// first on a fifth of a core (a machine running four other busy programs
/// a core), and a short one on less.
pub const fn case_wall(cpu: Duration) -> Duration {
    let times = cpu.saturating_mul(5);
    let more = cpu.saturating_add(Duration::from_secs(10));
    if times.as_nanos() > more.as_nanos() {
        times
    } else {
        more
    }
}

/// What a case stopped by its CPU limit twice adds to its message: the
/// grader and a starter's tests run such a case once more before its
/// verdict.
pub fn run_twice() -> &'static str {
    t("(run twice, out of time both times)")
}

/// How a program's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It used this much CPU time, its limit, and was stopped.
    CpuLimit(Duration),
    /// It was still running after this long on the wall clock (the
    /// backstop behind the CPU limit), and was stopped.
    TimedOut(Duration),
    /// It printed more than the output limit, and was stopped.
    OutputLimit,
    /// It filled this folder past its limit, and was stopped.
    DiskLimit(String),
}

/// A program's run, as the judge reads it.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    pub stdout: &'a [u8],
    pub stderr: &'a [u8],
    pub ending: Ending,
}

/// What a session case expected: the reference's transcript for its stdin.
#[derive(Debug, Clone, Copy)]
pub struct Session<'a> {
    /// The graded events of its level.
    pub events: EventsFn,
    /// The reference's stdout.
    pub stdout: &'a str,
    /// Whether the reference ended in failure (input that ends early).
    pub failed: bool,
    /// The reference's reads, to name the input line a difference answers
    /// (a starter's snapshot may lack them).
    pub reads: Option<&'a Reads>,
    pub stdin: &'a [u8],
    /// The line the statement has the program print before anything, and
    /// where it says so.
    pub first_line: Option<(&'a str, &'a str)>,
}

/// What a function case expected: each request's accepted answers.
#[derive(Clone, Copy)]
pub struct Calls<'a> {
    pub requests: &'a [String],
    pub accepted: &'a [Vec<String>],
    /// A request as the student's code is called, in the student's
    /// language (the game's `harness::<game>::shown_call`).
    pub shown: &'a dyn Fn(&str) -> String,
}

/// The most bytes of one output stream a message keeps.
pub const STREAM_KEPT: usize = 8 << 10;

/// What a failed case says, whole: its verdict, what it expected, then the
/// judge's message. The one form of every failure a student reads.
pub fn failure(verdict: Verdict, description: &str, message: &str) -> String {
    f(
        "{verdict}; expected: {description}",
        &[
            ("verdict", &verdict.label()),
            ("description", &crate::catalogue::description(description)),
        ],
    ) + "\n"
        + message
}

/// The verdict of a session's run, and what it says.
pub fn judge_session(session: &Session<'_>, run: &Run<'_>) -> (Verdict, String) {
    let stdout = String::from_utf8_lossy(run.stdout);
    // For runs cut short, where their output so far differs (its ending
    // taken as the expected one: it had none).
    let so_far = || {
        session
            .difference(&stdout, session.failed, true)
            .map(|d| {
                format!(
                    "\n{}\n{d}",
                    t("its output before that, against the expected:")
                )
            })
            .unwrap_or_default()
    };
    let code = match stopped(run, &so_far) {
        Ok(code) => code,
        Err(judged) => return judged,
    };
    let stderr = String::from_utf8_lossy(run.stderr);
    let crash = crate::compare::crash_message(&stderr);
    // A statement that has the program print a line first: nothing before
    // it (a test print at import, a greeting).
    if let (Some((line, rule)), None) = (session.first_line, &crash) {
        let printed = stdout.lines().next().unwrap_or_default();
        if printed.trim_end_matches('\r') != line {
            return (
                Verdict::WrongOutput,
                f(
                    "its first line is {printed}: the program starts with `{line}` ({rule})",
                    &[
                        ("printed", &format!("{:?}", clip(printed, 200))),
                        ("line", &line),
                        ("rule", &rule),
                    ],
                ),
            );
        }
    }
    // Any non-zero exit ended it where it stood: blamed on the line it was
    // answering.
    let difference = session.difference(&stdout, code != 0, code != 0);
    // A crash (a panic, a traceback) is a crash whatever the case, even one
    // that must end in failure: the statement asks for an error, not a
    // panic.
    if let Some(crash) = crash {
        let mut message = f("exit status {code}", &[("code", &code)]);
        message.push('\n');
        message.push_str(&clip(&unimplemented_said(&crash), STREAM_KEPT));
        if let Some(difference) = difference {
            message.push_str(&format!("\n{difference}"));
        }
        return (Verdict::Crashed, message);
    }
    match difference {
        None => (Verdict::Passed, String::new()),
        // An exit of its own where the game goes on is no crash: its output
        // is what is wrong (SPEC 5's verdicts), and it is told apart.
        Some(difference) if code != 0 => {
            let said = stderr_tail(run.stderr);
            let said = if said.trim().is_empty() {
                String::new()
            } else {
                format!(
                    "\n{}",
                    f("its stderr: {said}", &[("said", &said.trim_end())])
                )
            };
            (
                Verdict::WrongOutput,
                f(
                    "ended with exit status {code}, an exit of its own (no panic, no traceback)",
                    &[("code", &code)],
                ) + &format!("{said}\n{difference}"),
            )
        }
        Some(difference) => (Verdict::WrongOutput, difference),
    }
}

/// The verdict of a function case's run through a driver (one answer a
/// line), and what it says.
pub fn judge_calls(calls: &Calls<'_>, run: &Run<'_>) -> (Verdict, String) {
    // A run stopped by a limit: the call it was in, after the answers it gave.
    // A flood: its first lines, clipped (a print left in a function).
    let text = String::from_utf8_lossy(run.stdout);
    let answered = text.lines().count();
    let in_call = || match (&run.ending, calls.requests.get(answered)) {
        (Ending::TimedOut(_) | Ending::CpuLimit(_), Some(request)) => {
            let call = f(
                "in call {number} of {count}: {call}",
                &[
                    ("number", &(answered + 1)),
                    ("count", &calls.requests.len()),
                    ("call", &(calls.shown)(request)),
                ],
            );
            format!("\n{call}")
        }
        (Ending::OutputLimit, _) => {
            let first: Vec<String> = text
                .lines()
                .take(3)
                .map(crate::compare::clipped_line)
                .collect();
            format!("\n{}\n{}", t("its output began:"), first.join("\n"))
        }
        _ => String::new(),
    };
    let code = match stopped(run, &in_call) {
        Ok(code) => code,
        Err(judged) => return judged,
    };
    let stdout = String::from_utf8_lossy(run.stdout);
    let answers: Vec<String> = stdout.lines().map(worded).collect();
    // The call that broke: the driver's panicked answer, or the first one
    // left unanswered when the adapter stopped.
    if let Some(i) = answers.iter().position(|a| a.starts_with("panicked")) {
        return (
            Verdict::Crashed,
            call_crash(calls.requests.get(i), &answers[i], "", calls.shown),
        );
    }
    if code != 0 {
        return (
            Verdict::Crashed,
            call_crash(
                calls.requests.get(answers.len()),
                &crash_report(run.stderr),
                &(f("exit status {code}", &[("code", &code)]) + "\n"),
                calls.shown,
            ),
        );
    }
    match crate::function_fixture::first_wrong(
        calls.requests,
        &answers,
        calls.accepted,
        calls.shown,
    ) {
        Some((_, message)) => (Verdict::WrongOutput, message),
        None => (Verdict::Passed, String::new()),
    }
}

/// A run's exit status, or its verdict when it did not exit by itself.
fn stopped(run: &Run<'_>, so_far: &dyn Fn() -> String) -> Result<i32, (Verdict, String)> {
    match &run.ending {
        Ending::Exited(code) => Ok(*code),
        Ending::CpuLimit(used) => Err((
            Verdict::Timeout,
            f(
                "still running after {seconds} s of CPU time, its limit",
                &[("seconds", &format!("{:.1}", used.as_secs_f64()))],
            ) + &so_far(),
        )),
        Ending::TimedOut(after) => Err((
            Verdict::Timeout,
            f(
                "still running after {seconds} s",
                &[("seconds", &format!("{:.1}", after.as_secs_f64()))],
            ) + &so_far(),
        )),
        Ending::OutputLimit => Err((
            Verdict::OutputLimit,
            f(
                "printed more than the output limit ({bytes} bytes kept)",
                &[("bytes", &run.stdout.len())],
            ) + &so_far(),
        )),
        Ending::DiskLimit(folder) => Err((
            Verdict::OutputLimit,
            f(
                "stopped: it filled {folder}, which holds no more than the disk limit",
                &[("folder", folder)],
            ) + &so_far(),
        )),
        Ending::Signaled(signal) => Err((
            Verdict::Crashed,
            f(
                "killed by {signal}",
                &[("signal", &crate::compare::signal_name(*signal))],
            ) + &format!("\n{}{}", crash_report(run.stderr), so_far()),
        )),
    }
}

impl Session<'_> {
    /// Where `stdout` first differs from the reference's, and the input
    /// line that led to it; `None` when it does not differ. For a run that
    /// `stopped` (a crash, a timeout), the line it was answering.
    pub fn difference(&self, stdout: &str, failed: bool, stopped: bool) -> Option<String> {
        let difference: Difference =
            crate::compare::compare(self.events, self.stdout, self.failed, stdout, failed).err()?;
        let input = match self.reads {
            Some(reads) => reads.locate(self.events, self.stdout, self.stdin, &difference, stopped),
            None => f(
                "input: {input}",
                &[("input", &format!("{:?}", shorten(self.stdin)))],
            ),
        };
        Some(format!(
            "{}\n{}",
            clip(&input, STREAM_KEPT),
            clip(&difference.to_string(), STREAM_KEPT)
        ))
    }
}

/// The Python adapter's words (its `said: {template = ..., ...}` answers),
/// said through the catalogue: the templates it may send.
pub const ADAPTER_WORDS: [&str; 4] = [
    message(
        "wrong type: {call} returned {value}, a {type}: the statement asks for a whole number from 0 to 2",
    ),
    message(
        "wrong type: {call} returned {value}, a {type}: the statement asks for 'X', 'O', 'E' or 'N'",
    ),
    message(
        "wrong type: {call} returned {value}: the statement asks for (linha, coluna), two whole numbers",
    ),
    message(
        "verifica_vencedor takes nine strings; this level needs the form that takes one list of three lists",
    ),
];

/// An answer as the student reads it: the adapter's `said:` line, one of
/// [`ADAPTER_WORDS`] with its values, in the active catalogue's words;
/// any other answer as it came.
fn worded(answer: &str) -> String {
    let Some(table) = answer.strip_prefix("said: ") else {
        return answer.to_owned();
    };
    let Ok(mut said) = toml::from_str::<toml::Table>(&format!("said = {table}")) else {
        return answer.to_owned();
    };
    let Some(toml::Value::Table(fields)) = said.remove("said") else {
        return answer.to_owned();
    };
    let text = |key: &str| fields.get(key).and_then(toml::Value::as_str);
    let Some(template) = ADAPTER_WORDS
        .into_iter()
        .find(|w| Some(*w) == text("template"))
    else {
        return answer.to_owned();
    };
    let values: Vec<(&str, String)> = fields
        .iter()
        .filter(|(key, _)| key.as_str() != "template")
        .filter_map(|(key, value)| Some((key.as_str(), value.as_str()?.to_owned())))
        .collect();
    let arguments: Vec<(&str, &dyn std::fmt::Display)> = values
        .iter()
        .map(|(key, value)| (*key, value as &dyn std::fmt::Display))
        .collect();
    f(template, &arguments)
}

/// A function case's crash: "not yet implemented: <function>" first when
/// it is (Rust's `todo!()`, the Python stub's `NotImplementedError`), then
/// the call that broke and what it said (a panic's file, line and message,
/// or a traceback's tail).
pub fn call_crash(
    request: Option<&String>,
    said: &str,
    ending: &str,
    shown: &dyn Fn(&str) -> String,
) -> String {
    let mut message = String::new();
    let unimplemented =
        said.contains("not yet implemented") || said.contains("NotImplementedError");
    if let (true, Some(request)) = (unimplemented, request) {
        // The function as the call shows it (`Board::new(6, 7), then ...`),
        // not the case file's name the request starts with.
        let call = shown(request);
        let function = match call.split_once('(') {
            Some((name, _)) if !name.contains(' ') => name.to_owned(),
            _ => request.split(' ').next().unwrap_or_default().to_owned(),
        };
        message.push_str(&f(
            "not yet implemented: {function}",
            &[("function", &function)],
        ));
        message.push('\n');
    }
    if let Some(request) = request {
        message.push_str(&f("call: {call}", &[("call", &shown(request))]));
        message.push('\n');
    }
    message.push_str(ending);
    message.push_str(&unimplemented_said(said));
    message
}

/// `text` with Rust's `todo!()` words, which the Python adapter says too,
/// in the active catalogue's: they are English whatever the starter's.
pub fn unimplemented_said(text: &str) -> String {
    let prefix = f("not yet implemented: {function}", &[("function", &"")]);
    text.replace("not yet implemented: ", &prefix)
}

/// What a program said as it crashed: its panic or traceback, else the
/// tail of its stderr; at most [`STREAM_KEPT`] bytes of it.
pub fn crash_report(stderr: &[u8]) -> String {
    let report = crate::compare::crash_message(&String::from_utf8_lossy(stderr))
        .unwrap_or_else(|| stderr_tail(stderr));
    clip(&unimplemented_said(&report), STREAM_KEPT)
}

/// The last lines of a program's stderr.
pub fn stderr_tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    clip(
        &lines[lines.len().saturating_sub(8)..].join("\n"),
        STREAM_KEPT,
    )
}

/// `text` whole if it holds at most `max` bytes; else its start and its
/// end, `max` bytes in all, around a line that says how much was cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut head = max / 2;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - max / 2;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    let cut = f("[... {bytes} bytes cut ...]", &[("bytes", &(tail - head))]);
    format!("{}\n{cut}\n{}", &text[..head], &text[tail..])
}

/// The one shell command that replays a session: its stdin, as `printf`
/// writes it, piped into `program` (`cargo run -q -- play velha`, `python3
/// programa.py`). `None` for an input too long to type (over 400 bytes).
pub fn replay_command(program: &str, stdin: &[u8]) -> Option<String> {
    (stdin.len() <= 400).then(|| format!("printf '{}' | {program}", printf_text(stdin)))
}

/// `bytes` as the format of a single-quoted `printf`: `\n` for newlines,
/// octal for other control bytes, `%%` and `\\` for printf's own.
pub fn printf_text(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'%' => out.push_str("%%"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\047"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// The input as text, cut short when long.
fn shorten(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
    if bytes.len() > 200 {
        format!(
            "{text}... {}",
            f("({bytes} bytes)", &[("bytes", &bytes.len())])
        )
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The adapter's words come through the catalogue; a line that only
    /// looks like them, or names no template of the kit's, as it came.
    #[test]
    fn the_adapters_words_are_the_catalogues() {
        let line = r#"said: {template = "wrong type: {call} returned {value}, a {type}: the statement asks for a whole number from 0 to 2", call = "extrai_linha('A1')", type = "NoneType", value = "None"}"#;
        assert_eq!(
            worded(line),
            "wrong type: extrai_linha('A1') returned None, a NoneType: the statement asks for a whole number from 0 to 2"
        );
        let nine = r#"said: {template = "verifica_vencedor takes nine strings; this level needs the form that takes one list of three lists"}"#;
        assert!(worded(nine).starts_with("verifica_vencedor takes nine strings"));
        for other in [
            "said: {template = \"{call}\", call = \"x\"}",
            "said: {",
            "X",
        ] {
            assert_eq!(worded(other), other);
        }
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn run(stdout: &'static str, stderr: &'static str, ending: Ending) -> Run<'static> {
        Run {
            stdout: stdout.as_bytes(),
            stderr: stderr.as_bytes(),
            ending,
        }
    }

    #[test]
    fn each_ending_has_its_verdict_and_its_words() {
        let session = Session {
            events: lines,
            stdout: "title\nmove\nend\n",
            failed: false,
            reads: None,
            stdin: b"A1\n",
            first_line: Some(("title", "rule 5")),
        };
        let judge = |r: Run<'_>| judge_session(&session, &r);
        assert_eq!(
            judge(run("title\nmove\nend\n", "", Ending::Exited(0))).0,
            Verdict::Passed
        );
        let (verdict, said) = judge(run("title\n", "", Ending::TimedOut(Duration::from_secs(5))));
        assert_eq!(verdict, Verdict::Timeout);
        assert!(said.starts_with("still running after 5.0 s"), "{said}");
        let (verdict, said) = judge(run("title\nmove\n", "", Ending::Exited(3)));
        assert_eq!(verdict, Verdict::WrongOutput);
        assert!(said.contains("an exit of its own"), "{said}");
        let panic = "thread 'main' panicked at src/velha/mod.rs:4:5:\nboom\n";
        let (verdict, said) = judge(run("title\n", panic, Ending::Exited(101)));
        assert_eq!(verdict, Verdict::Crashed);
        assert!(
            said.contains("src/velha/mod.rs:4:5") && said.contains("boom"),
            "{said}"
        );
        // The statement sets no exit status for a finished game: a whole,
        // correct game that exits 1 passes; one that panics after it is a
        // crash all the same.
        assert_eq!(
            judge(run("title\nmove\nend\n", "", Ending::Exited(1))).0,
            Verdict::Passed
        );
        let traceback =
            "Traceback (most recent call last):\n  File \"programa.py\", line 9\nValueError: x\n";
        assert_eq!(
            judge(run("title\nmove\nend\n", traceback, Ending::Exited(1))).0,
            Verdict::Crashed
        );
        assert_eq!(
            judge(run("title\nmove\nend\n", panic, Ending::Exited(101))).0,
            Verdict::Crashed
        );
        let (verdict, said) = judge(run("title\n", "", Ending::Signaled(9)));
        assert_eq!(verdict, Verdict::Crashed);
        assert!(said.starts_with("killed by SIGKILL"), "{said}");
        let (verdict, said) = judge(run("1\ntitle\nmove\nend\n", "", Ending::Exited(0)));
        assert_eq!(verdict, Verdict::WrongOutput);
        assert!(said.contains("rule 5") && said.contains("\"1\""), "{said}");
        assert_eq!(
            failure(Verdict::Timeout, "a game", "still running"),
            "timed out; expected: a game\nstill running"
        );
    }

    #[test]
    fn a_call_that_broke_is_named() {
        let requests = ["extrai_linha B1".to_owned(), "extrai_linha C3".to_owned()];
        let accepted = [vec!["1".to_owned()], vec!["2".to_owned()]];
        let shown = |r: &str| crate::harness::velha::shown_call(r, false);
        let calls = Calls {
            requests: &requests,
            accepted: &accepted,
            shown: &shown,
        };
        assert_eq!(
            judge_calls(&calls, &run("1\n2\n", "", Ending::Exited(0))).0,
            Verdict::Passed
        );
        let (verdict, said) = judge_calls(
            &calls,
            &run("1\npanicked: not yet implemented\n", "", Ending::Exited(0)),
        );
        assert_eq!(verdict, Verdict::Crashed);
        assert!(
            said.starts_with("not yet implemented: extrai_linha\ncall: extrai_linha(\"C3\")"),
            "{said}"
        );
        // Stopped at the time limit: the call it was in, in Rust, its
        // board drawn.
        let requests = vec!["verifica_vencedor X...O....".to_owned(); 2];
        let accepted = [vec!["N".to_owned()], vec!["N".to_owned()]];
        let calls = Calls {
            requests: &requests,
            accepted: &accepted,
            shown: &shown,
        };
        let (verdict, said) = judge_calls(
            &calls,
            &run("N\n", "", Ending::TimedOut(Duration::from_secs(10))),
        );
        assert_eq!(verdict, Verdict::Timeout);
        assert!(said.starts_with("still running after 10.0 s\nin call 2 of 2: verifica_vencedor(&[['X', ' ', ' '], [' ', 'O', ' '], [' ', ' ', ' ']])\n    1   2   3\n  A X |   |  "), "{said}");
        // A flood: its first lines, clipped.
        let flood = format!("{}\n", "debug ".repeat(100)).repeat(10);
        let flooded = Run {
            stdout: flood.as_bytes(),
            stderr: b"",
            ending: Ending::OutputLimit,
        };
        let (verdict, said) = judge_calls(&calls, &flooded);
        assert_eq!(verdict, Verdict::OutputLimit);
        assert!(
            said.contains("its output began:\ndebug debug") && said.contains("… (600 bytes)"),
            "{said}"
        );
        assert!(said.lines().count() < 8, "{said}");
    }
}
