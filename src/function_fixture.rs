//! Function fixtures (not the session fixtures of `session_fixture.rs`):
//! the public function cases of a game, as data: one file per case in
//! `fixtures/<game>/functions/<name>.toml`, each a function of the
//! statement called on many arguments, with every answer accepted for each.
//!
//! Shipped with every starter. They are the one list of public function
//! cases: the starter's tests run them through the game's driver
//! (`harness::<game>::answer`) linked to the student's code, and the grader
//! runs the same requests through the same driver and judges them with
//! [`first_wrong`], the same judgement. The grader computes its accepted
//! answers with the reference; a kit test proves the files hold exactly
//! those (`BOARDKIT_BLESS=1 cargo test --lib public_function_cases` writes
//! them anew).

use std::path::Path;

use crate::catalogue::{f, t};
use crate::level::Level;
use crate::session_fixture::Fields;

/// One public function case: a function of the statement on many arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCase {
    /// Its name in test runs and reports is `<level>::<name>` (the name is
    /// the file's, without `.toml`).
    pub name: String,
    pub level: Level,
    /// What it checks, in one line.
    pub description: String,
    /// The driver's request word (`extrai_linha`, `smart`, ...).
    pub function: String,
    /// Each call: its arguments, then every answer accepted for it.
    pub calls: Vec<Vec<String>>,
}

/// Why the cases could not be read.
#[derive(Debug)]
pub enum FunctionCaseError {
    Read {
        path: String,
        source: std::io::Error,
    },
    Malformed {
        path: String,
        message: String,
    },
}

impl std::fmt::Display for FunctionCaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FunctionCaseError::Read { path, source } => write!(f, "cannot read {path}: {source}"),
            FunctionCaseError::Malformed { path, message } => {
                write!(f, "{path} is malformed: {message}")
            }
        }
    }
}

impl std::error::Error for FunctionCaseError {}

impl FunctionCase {
    /// The case's name in test runs and reports: `<level>::<name>`.
    pub fn test_name(&self) -> String {
        format!("{}::{}", self.level, self.name)
    }

    /// The driver's requests, one per call: `<function> <arguments>`.
    pub fn requests(&self) -> Vec<String> {
        self.calls
            .iter()
            .map(|call| {
                format!(
                    "{} {}",
                    self.function,
                    call.first().map_or("", String::as_str)
                )
            })
            .collect()
    }

    /// The answers accepted for each call, in order.
    pub fn accepted(&self) -> Vec<Vec<String>> {
        self.calls
            .iter()
            .map(|call| call.get(1..).unwrap_or_default().to_vec())
            .collect()
    }

    /// Reads one case from its file's text.
    pub fn parse(text: &str, name: &str) -> Result<FunctionCase, FunctionCaseError> {
        let read = || -> Result<FunctionCase, String> {
            let mut fields = Fields::parse(text)?;
            let calls = match fields.take("calls") {
                Some(toml::Value::Array(calls)) => calls
                    .iter()
                    .map(crate::session_fixture::texts)
                    .collect::<Option<_>>()
                    .ok_or_else(|| "`calls` must be a list of lists of texts".to_owned())?,
                _ => return Err("missing field `calls`, a list of lists of texts".to_owned()),
            };
            let case = FunctionCase {
                name: name.to_owned(),
                level: fields.level("level")?,
                description: fields.required_text("description")?,
                function: fields.required_text("function")?,
                calls,
            };
            fields.finish()?;
            Ok(case)
        };
        read().map_err(|message| FunctionCaseError::Malformed {
            path: format!("{name}.toml"),
            message,
        })
    }

    /// The file's text: one call a line, so a change reads as a diff.
    pub fn to_toml(&self) -> String {
        format!(
            "# Generated from the reference (`BOARDKIT_BLESS=1 cargo test --lib public_function_cases`).\n\
             # Each call: the arguments of `{function}`, then every answer accepted.\n{body}",
            function = self.function,
            body = self.fields_toml()
        )
    }

    /// The file's fields, without its comment.
    pub fn fields_toml(&self) -> String {
        let quoted = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let mut text = format!(
            "level = {level}\ndescription = {description}\nfunction = {function_quoted}\ncalls = [\n",
            level = quoted(self.level.name()),
            description = quoted(&self.description),
            function_quoted = quoted(&self.function),
        );
        for call in &self.calls {
            let fields: Vec<String> = call.iter().map(|s| quoted(s)).collect();
            text.push_str(&format!("  [{}],\n", fields.join(", ")));
        }
        text.push_str("]\n");
        text
    }

    /// Every case in `dir` (a game's `fixtures/<game>/functions`), in level
    /// and name order.
    pub fn discover(dir: &Path) -> Result<Vec<FunctionCase>, FunctionCaseError> {
        let read_error = |source| FunctionCaseError::Read {
            path: dir.display().to_string(),
            source,
        };
        let mut cases = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(read_error)? {
            let path = entry.map_err(read_error)?.path();
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".toml"))
            else {
                continue;
            };
            let text =
                std::fs::read_to_string(&path).map_err(|source| FunctionCaseError::Read {
                    path: path.display().to_string(),
                    source,
                })?;
            cases.push(FunctionCase::parse(&text, name)?);
        }
        sort(&mut cases);
        Ok(cases)
    }
}

/// Level order, then name order: the order of test runs and reports.
pub fn sort(cases: &mut [FunctionCase]) {
    cases.sort_by(|a, b| (a.level, &a.name).cmp(&(b.level, &b.name)));
}

/// The first call whose answer is not accepted: its index and what to tell
/// the student (the request, the answers expected, the answer given). The
/// one judgement of a function case, in the starter's tests and the grader.
pub fn first_wrong(
    requests: &[String],
    answers: &[String],
    accepted: &[Vec<String>],
    shown: &dyn Fn(&str) -> String,
) -> Option<(usize, String)> {
    let i = (0..accepted.len()).find(|&i| {
        answers
            .get(i)
            .is_none_or(|answer| !accepted[i].contains(answer))
    })?;
    let request = requests.get(i).map_or_else(String::new, |r| shown(r));
    // What it answered, or printed there, clipped: a print left in a
    // function can be long.
    let got = answers.get(i).map_or_else(
        || t("(no answer)").to_owned(),
        |answer| crate::compare::clipped_line(answer),
    );
    let wanted = match accepted[i].as_slice() {
        [one] => one.clone(),
        many => f("one of: {answers}", &[("answers", &many.join(", "))]),
    };
    Some((
        i,
        format!(
            "{}\n{}\n{wanted}\n{}\n{got}",
            f("call: {call}", &[("call", &request)]),
            t("--- expected ---"),
            t("--- actual ---")
        ),
    ))
}

/// A call that panicked: where, and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic {
    /// `file:line:column` of the panic, when known.
    pub location: Option<String>,
    pub message: String,
}

impl std::fmt::Display for Panic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(location) => write!(f, "panicked at {location}: {}", self.message),
            None => write!(f, "panicked: {}", self.message),
        }
    }
}

std::thread_local! {
    /// Where the last panic on this thread happened: the hook sees the
    /// location, `catch_unwind` only the payload.
    static LAST_PANIC_AT: std::cell::RefCell<Option<String>> =
        const { std::cell::RefCell::new(None) };
}

/// Replaces the panic hook with one that prints nothing (a panic is told
/// once, as its call's failure, never with a backtrace whatever
/// `RUST_BACKTRACE` says) and remembers where it happened, for [`call`].
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        LAST_PANIC_AT.with(|last| *last.borrow_mut() = at);
    }));
}

/// A panic's message.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "a panic".to_owned())
}

/// Runs `f`, turning a panic into a [`Panic`] with its location (when
/// [`quiet_panics`] is the hook).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    LAST_PANIC_AT.with(|last| last.borrow_mut().take());
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|panic| Panic {
        location: LAST_PANIC_AT.with(|last| last.borrow_mut().take()),
        message: panic_message(&*panic),
    })
}

/// The function driver: one request a line from `input`, one answer a line
/// to `output`, through `answer` (a game's `harness::<game>::answer`, linked
/// to the student's code). A panic answers `panicked at <file:line:column>:
/// <message>` for its request, and ends the run: no answer is needed after
/// it (a stub's thousands of panics would only fill the output limit). The
/// grader's driver and a starter's tests run this, in a process of its own
/// that a time and an output limit can stop.
pub fn drive(
    answer: fn(&str) -> String,
    input: impl std::io::BufRead,
    mut output: impl std::io::Write,
) -> std::io::Result<()> {
    quiet_panics();
    for line in input.lines() {
        let line = line?;
        let (text, last) = match catch(|| answer(&line)) {
            Ok(answer) => (answer, false),
            Err(panic) => (panic.to_string(), true),
        };
        writeln!(output, "{}", text.replace('\n', " "))?;
        // Each answer at once: a call that then runs forever is named by
        // the answers before it.
        output.flush()?;
        if last {
            break;
        }
    }
    Ok(())
}

/// A driver's request as the student reads a call: `extrai_linha(" A 1 ")`
/// (the argument quoted, so spaces and empty strings show).
pub fn call_text(request: &str) -> String {
    match request.split_once(' ') {
        Some((function, argument)) => format!("{function}({argument:?})"),
        None => format!("{request}()"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_survives_its_file() {
        let case = FunctionCase {
            name: "parse_guess".into(),
            level: Level::Basic,
            description: "tabs \"quotes\" and accents: Á".into(),
            function: "parse".into(),
            calls: vec![
                vec!["a\tbcd".into(), "ok ABCD".into()],
                vec!["".into(), "err".into()],
                vec![" A 1 ".into(), "0".into(), "1".into()],
            ],
        };
        let back = FunctionCase::parse(&case.to_toml(), "parse_guess").unwrap();
        assert_eq!(back, case);
        assert_eq!(back.requests()[0], "parse a\tbcd");
        assert_eq!(back.requests()[1], "parse ");
        assert_eq!(back.accepted()[2], ["0", "1"]);
    }

    #[test]
    fn a_panic_is_caught_with_its_place_and_message() {
        quiet_panics();
        let line = line!() + 1;
        let caught = catch(|| -> u8 { panic!("at {}", 7) }).unwrap_err();
        assert_eq!(caught.message, "at 7");
        let place = caught.location.clone().unwrap();
        assert!(
            place.starts_with(&format!("src/function_fixture.rs:{line}:")),
            "{place}"
        );
        assert_eq!(caught.to_string(), format!("panicked at {place}: at 7"));
        assert_eq!(catch(|| 3), Ok(3));
        let _ = std::panic::take_hook();
    }

    #[test]
    fn a_request_reads_as_a_call() {
        assert_eq!(call_text("extrai_linha  A 1 "), "extrai_linha(\" A 1 \")");
        assert_eq!(call_text("extrai_linha "), "extrai_linha(\"\")");
        assert_eq!(call_text("smart"), "smart()");
    }

    #[test]
    fn the_first_wrong_answer_is_named() {
        let requests = vec!["f a".to_owned(), "f b".to_owned()];
        let accepted = vec![vec!["1".to_owned()], vec!["2".to_owned(), "3".to_owned()]];
        assert_eq!(
            first_wrong(&requests, &["1".into(), "3".into()], &accepted, &call_text),
            None
        );
        let (i, message) =
            first_wrong(&requests, &["1".into(), "4".into()], &accepted, &call_text).unwrap();
        assert_eq!(i, 1);
        assert!(
            message.contains("call: f(\"b\")")
                && message.contains("one of: 2, 3")
                && message.contains('4'),
            "{message}"
        );
        assert_eq!(
            first_wrong(&requests, &["1".into()], &accepted, &call_text)
                .unwrap()
                .0,
            1
        );
    }
}
