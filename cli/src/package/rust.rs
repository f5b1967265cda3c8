//! What the kit writes in Rust from a package's API: the stub (the
//! student's `src/<name>/mod.rs`), the public tests (`tests/<name>.rs`,
//! one test per case, by level), and the caller the grader compiles with a
//! submission (`answers.rs`: each case's calls, printed as canonical
//! JSON, and the program); for a class, its struct and methods, its
//! objects made and called step by step.

use std::fmt::Write as _;

use toml::Value;

use super::class::Method;
use super::types::{Codec, ObjectType, Type};
use super::words::Words;
use super::{Call, Case, CaseKind, Ends, Function, Package, Typed};
use boardkit::session_fixture::{Stdin, StdinPart};

/// The Rust type of `t`; an argument (`borrowed`) takes strings, lists
/// and grids by reference.
pub(crate) fn type_of(t: &Type, borrowed: bool) -> String {
    match (t, borrowed) {
        (Type::Str, true) => "&str".into(),
        (Type::List(inner), true) => format!("&[{}]", type_of(inner, false)),
        (Type::Grid(..) | Type::Named(_) | Type::Object(_), true) => {
            format!("&{}", type_of(t, false))
        }
        (Type::Named(named), false) => named.name.clone(),
        (Type::Object(object), false) => object.name.clone(),
        (Type::Bool, _) => "bool".into(),
        (Type::Int, _) => "i64".into(),
        (Type::Uint, _) => "usize".into(),
        (Type::Char, _) => "char".into(),
        (Type::Str, _) => "String".into(),
        (Type::List(inner), _) => format!("Vec<{}>", type_of(inner, false)),
        (Type::Grid(cell, rows, columns), _) => {
            format!("[[{}; {columns}]; {rows}]", type_of(cell, false))
        }
        (Type::Tuple(ts), _) => {
            let inner: Vec<String> = ts.iter().map(|t| type_of(t, false)).collect();
            format!("({})", inner.join(", "))
        }
        (Type::Option(inner), _) => format!("Option<{}>", type_of(inner, false)),
        (Type::Result(inner), _) => format!("Result<{}, String>", type_of(inner, false)),
    }
}

/// `value` of type `t` as a Rust expression (`borrowed` as an argument).
pub(crate) fn literal(t: &Type, value: &Value, borrowed: bool) -> String {
    let list = |inner: &Type, items: &[Value]| -> String {
        let items: Vec<String> = items.iter().map(|v| literal(inner, v, false)).collect();
        items.join(", ")
    };
    match (t, value) {
        (Type::Option(_), Value::Table(t)) if t.is_empty() => "None".into(),
        (Type::Option(inner), v) => format!("Some({})", literal(inner, v, false)),
        (Type::Result(_), Value::Table(_)) => "Err(())".into(),
        (Type::Result(inner), v) => format!("Ok({})", literal(inner, v, false)),
        (Type::Str, Value::String(s)) if borrowed => format!("{s:?}"),
        (Type::Str, Value::String(s)) => format!("String::from({s:?})"),
        (Type::Char, Value::String(s)) => format!("{:?}", s.chars().next().unwrap_or(' ')),
        (Type::List(inner), Value::Array(items)) if borrowed => {
            format!("&[{}]", list(inner, items))
        }
        (Type::List(inner), Value::Array(items)) => format!("vec![{}]", list(inner, items)),
        (Type::Grid(cell, ..), Value::Array(rows)) => {
            let rows: Vec<String> = rows
                .iter()
                .map(|row| match row {
                    Value::Array(cells) => format!("[{}]", list(cell, cells)),
                    _ => String::new(),
                })
                .collect();
            let grid = format!("[{}]", rows.join(", "));
            if borrowed { format!("&{grid}") } else { grid }
        }
        (Type::Tuple(ts), Value::Array(items)) => {
            let members: Vec<String> = ts
                .iter()
                .zip(items)
                .map(|(t, v)| literal(t, v, false))
                .collect();
            format!("({},)", members.join(", "))
        }
        (Type::Named(named), v) => {
            let made = Codec::fill(&named.rust.make, &literal(&named.of, v, false));
            if borrowed { format!("&{made}") } else { made }
        }
        (Type::Object(object), v) => {
            let made = made_object(object, v);
            if borrowed { format!("&{made}") } else { made }
        }
        (Type::Int, Value::Integer(i)) => format!("{i}_i64"),
        (Type::Uint, Value::Integer(i)) => format!("{i}_usize"),
        (_, v) => v.to_string(),
    }
}

/// The function's signature: `pub fn f(a: &[i64]) -> bool`.
fn signature(f: &Function) -> String {
    let args: Vec<String> = f
        .args
        .iter()
        .map(|(name, t)| format!("{name}: {}", type_of(t, true)))
        .collect();
    format!(
        "pub fn {}({}) -> {}",
        f.name,
        args.join(", "),
        type_of(&f.returns, false)
    )
}

/// The student's `src/<name>/mod.rs`: the API, each function a `todo!`.
pub(crate) fn stub(package: &Package, words: &Words) -> String {
    let key = match has_classes(package) {
        true => "package_stub_classes",
        false => "package_stub",
    };
    let header = words.text(key, &[("title", &package.title)]);
    let mut out = super::words::wrapped(&header, "//! ", 72);
    let todo = words.rust_format("package_todo", &[]);
    if package.program.is_some() {
        out.push_str("\nuse std::io::{BufRead, Write};\n");
    }
    let given = package.given_used();
    if !given.is_empty() {
        let names = match given[..] {
            [one] => one.to_owned(),
            _ => format!("{{{}}}", given.join(", ")),
        };
        let _ = writeln!(out, "\nuse crate::given::{names};");
    }
    for f in &package.functions {
        if f.class.is_some() {
            out.push_str(&class_stub(f, &todo));
            continue;
        }
        let (shown, unshown) = todo_args(&f.args);
        let _ = write!(
            out,
            "\n{}{} {{\n{}    todo!(\"{}({shown}): {todo}\")\n}}\n",
            doc(&f.doc),
            signature(f),
            unshown.map(|u| format!("    {u}\n")).unwrap_or_default(),
            f.name,
        );
    }
    if let Some(program) = &package.program {
        let _ = write!(
            out,
            "\n{}pub fn {}({}input: &mut dyn BufRead, output: &mut dyn Write) -> std::io::Result<()> {{\n    let _ = ({}input, output);\n    todo!(\"{}: {todo}\")\n}}\n",
            doc(&program_doc(program, words)),
            program.function,
            options_passed(package, "options: &[String], "),
            options_passed(package, "options, "),
            program.function
        );
    }
    out
}

/// The given types' `Answer`: each written as its `read` value is.
fn given_answers(package: &Package) -> String {
    package
        .types
        .iter()
        .map(|t| {
            format!(
                "impl Answer for given::{} {{ fn write(&self, out: &mut String) {{ ({}).write(out) }} }}\n",
                t.name,
                Codec::fill(&t.rust.read, "self")
            )
        })
        .collect()
}

pub(crate) fn doc(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("/// {}\n", l.trim()))
        .collect()
}

/// The crate's name in a starter: `<name>_exercise`.
pub(crate) fn crate_name(package: &Package) -> String {
    format!("{}_exercise", package.name)
}

/// `tests/<name>.rs`: each public case a test, in a module per level
/// (`cargo test basic` runs one).
pub(crate) fn tests(package: &Package, words: &Words) -> String {
    let krate = crate_name(package);
    let doc = words.text(
        "package_tests",
        &[
            ("title", &package.title),
            ("command", "cargo test <level>"),
            ("levels", &package.levels.join(", ")),
        ],
    );
    let mut out = format!(
        "{}\n#![allow(unused_imports)]\n\nuse {krate}::{};\n",
        super::words::wrapped(&doc, "//! ", 72),
        package.name
    );
    if package.given.rust.is_some() {
        let _ = writeln!(out, "use {krate}::given::*;");
    }
    if has_classes(package) {
        let _ = writeln!(out, "use {krate}::{}::*;", package.name);
    }
    // The session helpers only where a public session uses them: a
    // starter compiles without a warning.
    let sessions = package
        .cases
        .iter()
        .any(|c| !c.hidden && matches!(c.kind, CaseKind::Session { .. }));
    if package.program.is_some() && sessions {
        out.push_str(&session_helpers(package, words));
    }
    if package
        .cases
        .iter()
        .any(|c| !c.hidden && matches!(c.kind, CaseKind::Calls { .. }))
    {
        out.push_str(&check_helper(words));
    }
    for level in package.parts() {
        let cases: Vec<&Case> = package
            .cases
            .iter()
            .filter(|c| !c.hidden && c.part(package) == level)
            .collect();
        if cases.is_empty() {
            continue;
        }
        let _ = write!(out, "\nmod {level} {{\n    use super::*;\n");
        for case in cases {
            out.push_str(&test(package, case, words));
        }
        out.push_str("}\n");
    }
    out
}

fn test(package: &Package, case: &Case, words: &Words) -> String {
    let mut body = String::new();
    match &case.kind {
        CaseKind::Calls { function, calls } => {
            let f = &package.functions[*function];
            let mut checks = String::new();
            for call in calls {
                match f.class {
                    Some(_) => checks.push_str(&class_test(package, f, call)),
                    None => checks.push_str(&call_check(package, f, call)),
                }
            }
            // In a process of their own, within the time limit.
            let checks: String = checks.lines().map(|l| format!("    {l}\n")).collect();
            let _ = write!(
                body,
                "        within({:?}, || {{\n{checks}        }});\n",
                case.test_name(package)
            );
        }
        CaseKind::Session {
            args,
            typed,
            expect,
            ends,
        } => {
            let expect = expect.clone().unwrap_or_default();
            let error = *ends == Ends::Error;
            let _ = match (typed, error) {
                (Typed::Lines(input), false) => writeln!(
                    body,
                    "        super::session(&{args:?}, &{input:?}, &{expect:?});"
                ),
                (Typed::Lines(input), true) => writeln!(
                    body,
                    "        super::typed_session(&{args:?}, {:?}.as_bytes(), &{expect:?}, true);",
                    input.iter().map(|l| format!("{l}\n")).collect::<String>()
                ),
                (Typed::Raw(stdin), _) => writeln!(
                    body,
                    "        super::typed_session(&{args:?}, {}, &{expect:?}, {error});",
                    typed_expression(stdin)
                ),
            };
        }
    }
    let doc = words.text(
        "package_test_doc",
        &[
            ("description", case.description.trim()),
            ("rule", &case.rule.to_string()),
        ],
    );
    format!(
        "\n    /// {doc}\n    #[test]\n    fn {}() {{\n{body}    }}\n",
        case.name
    )
}

/// A Rust starter's `tests/mine.rs`: the student's own tests, started
/// with one example from the first public call whose answer is one value.
/// `boardkit grade --test-points` runs them on correct versions and on
/// wrong ones.
pub(crate) fn own_tests(package: &Package, words: &Words) -> String {
    let doc = words.text(
        "package_own_tests_rust",
        &[("title", &package.title), ("name", &package.name)],
    );
    let mut out = super::words::wrapped(&doc, "//! ", 72);
    if let Some((f, call, answer)) = package.own_example() {
        let call = call_expression(package, f, &call.args);
        let result = matches!(f.returns, Type::Result(_));
        let assertion = match answer {
            Value::Boolean(true) if !result => format!("assert!({call})"),
            Value::Boolean(false) if !result => format!("assert!(!{call})"),
            answer => format!(
                "assert_eq!({call}, {})",
                literal(&f.returns, &answer, false)
            ),
        };
        let _ = write!(
            out,
            "\nuse {}::{};\n\n#[test]\nfn {}_example() {{\n    {assertion};\n}}\n",
            crate_name(package),
            package.name,
            f.name,
        );
    }
    out
}

/// The answers a call accepts: its property's, or the reference's.
pub(crate) fn accepted(call: &Call) -> Vec<Value> {
    match (&call.accept, &call.expect) {
        (Some(accept), _) => accept.clone(),
        (None, Some(expect)) => vec![expect.clone()],
        (None, None) => Vec::new(),
    }
}

/// A call of `f` on `args`, as Rust writes it: `demo::total(&[1_i64])`.
pub(crate) fn call_expression(package: &Package, f: &Function, args: &[Value]) -> String {
    format!("{}::{}({})", package.name, f.name, arguments(&f.args, args))
}

/// One call's check: a statement of its own, with no binding, so that a
/// case of thousands of calls compiles as a flat list.
fn call_check(package: &Package, f: &Function, call: &Call) -> String {
    let call_text = call_expression(package, f, &call.args);
    let accepted: Vec<String> = accepted(call)
        .iter()
        .map(|v| literal(&f.returns, v, false))
        .collect();
    let got = match f.returns {
        Type::Result(_) => format!("{call_text}.map_err(|_| ())"),
        _ => call_text.clone(),
    };
    let shown = call_expression(package, &f.shown(), &call.args);
    format!(
        "        super::check({got}, &[{}], {shown:?});\n",
        accepted.join(", ")
    )
}

/// The starter's tests' one check of a call's answer.
fn check_helper(words: &Words) -> String {
    let message = words.rust_format(
        "package_returned",
        &[
            ("call", "{call}"),
            ("got", "{got:?}"),
            ("accepted", "{accepted:?}"),
        ],
    );
    let limit = CALLS_WALL.as_secs().to_string();
    let timeout = words.rust_format("package_time_limit", &[("seconds", "{seconds}")]);
    let exited = words.rust_format("package_calls_exited", &[("status", "{status}")]);
    format!(
        "\n/// A call's answer, among those accepted.\n#[track_caller]\nfn check<T: PartialEq + std::fmt::Debug>(got: T, accepted: &[T], call: &str) {{\n    assert!(accepted.contains(&got), \"{message}\");\n}}\n{}",
        WITHIN
            .replace("{timeout}", &timeout)
            .replace("{exited}", &exited)
            .replace("{limit}", &limit)
            .replace("{variable}", CASE_SECONDS)
    )
}

/// How long a starter's test of calls may run, on the clock: the
/// grader's wall-clock backstop behind its CPU limit for a case
/// ([`boardkit::judge::case_wall`]), so that a call that never returns
/// fails its test instead of hanging `cargo test`, and no call the grader
/// lets finish is stopped.
const CALLS_WALL: std::time::Duration = boardkit::judge::case_wall(boardkit::judge::CASE_CPU);

/// What sets a starter's time limits for a case, in seconds, instead of
/// the grader's: the kit's own tests, which do not wait for them.
pub(crate) const CASE_SECONDS: &str = "BOARDKIT_CASE_SECONDS";

/// A starter's helper that runs a test's calls in a process of their own
/// (the test binary again, for that test alone), within [`CALLS_WALL`]:
/// a call that never returns fails its test, and one that ends the
/// program (`std::process::exit`) fails its test instead of ending the
/// run, every test after it unrun and `cargo test` content (the grader
/// runs calls in a process of their own too).
const WITHIN: &str = r#"
/// Runs a case's calls in a process of their own (this test binary, for
/// the test `test` alone) within {limit} seconds (or `{variable}`): a
/// call that never returns, or ends the program, fails its test instead
/// of hanging or ending the run.
fn within(test: &str, calls: fn()) {
    use std::io::Read;
    if std::env::var_os("BOARDKIT_CALLS").is_some() {
        calls();
        return;
    }
    let seconds: u64 = std::env::var("{variable}")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or({limit});
    let mut child = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env("BOARDKIT_CALLS", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the test binary runs again");
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    // Read as the child writes: a pipe it fills would stop it.
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out.by_ref().take(1 << 20).read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.by_ref().take(1 << 20).read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed().as_secs() >= seconds {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{timeout}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let (out, err) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    if status.success() && out.contains("test result: ok. 1 passed") {
        return;
    }
    // The child's failure as its own: the panic's message.
    if let Some((_, rest)) = err.split_once("panicked at ") {
        let message = rest.split_once('\n').map_or("", |(_, m)| m);
        let message = message.split("\nnote: run with").next().unwrap_or(message);
        panic!("{}", message.trim_end());
    }
    let status = status.code().map_or_else(|| "a signal".to_owned(), |c| c.to_string());
    panic!("{exited}");
}
"#;

/// The session test's helpers: run the program, keep its graded lines
/// (read as the grader reads them: the same code).
fn session_helpers(package: &Package, words: &Words) -> String {
    let patterns: Vec<String> = package.messages[&package.language]
        .values()
        .map(|m| format!("{m:?}"))
        .collect();
    // `session`, for lines that end normally, only where a public session
    // calls it: a starter compiles without a warning.
    let lines = package.cases.iter().any(|c| {
        !c.hidden
            && matches!(
                &c.kind,
                CaseKind::Session {
                    typed: Typed::Lines(_),
                    ends: Ends::Normally,
                    ..
                }
            )
    });
    let (before, rest) = SESSION.split_once("// <lines>\n").unwrap_or((SESSION, ""));
    let (within, after) = rest.split_once("// </lines>\n").unwrap_or(("", rest));
    let template = format!("{before}{}{after}", if lines { within } else { "" });
    // The statement's first line, checked first where it has one.
    let first = package.first_line().map_or_else(String::new, |first| {
        let message = words.rust_format(
            "package_first_line",
            &[
                ("typed", "{shown}"),
                ("got", "{line:?}"),
                ("expected", "{first:?}"),
            ],
        );
        format!(
            "    if let Some(line) = text.lines().next() {{\n        let first = {first:?};\n        let line = line.trim_end_matches([' ', '\\t', '\\r']);\n        assert!(shaped(first, line).as_deref() == Some(line), \"{message}\");\n    }}\n"
        )
    });
    let with_options = words.rust_format(
        "package_with_options",
        &[("typed", "{input:?}"), ("options", "{}")],
    );
    let template = template
        .replace("{with_options}", &with_options)
        .replace("{first}", &first)
        .replace("{lines}", &patterns.join(", "))
        .replace("{binary}", &(package.name.replace('_', "-") + "-exercise"))
        .replace("{variable}", super::LANGUAGE)
        .replace("{language}", &package.language)
        .replace("{graded}", include_str!("templates/lines.rs.in"))
        .replace("{case_variable}", CASE_SECONDS)
        .replace(
            "{cpu_limit}",
            &boardkit::judge::CASE_CPU.as_secs().to_string(),
        )
        .replace("{wall_limit}", &CALLS_WALL.as_secs().to_string());
    session_messages(&template, words)
}

/// The session helpers' failure messages, in the starter's words.
fn session_messages(template: &str, words: &Words) -> String {
    let ending = [
        ("typed", "{shown}"),
        ("status", "{status}"),
        ("printed", "{text}"),
    ];
    template
        .replace(
            "{timeout}",
            &words.rust_format(
                "package_timeout",
                &[("typed", "{shown}"), ("cpu", "{cpu}"), ("wall", "{wall}")],
            ),
        )
        .replace(
            "{flood}",
            &words.rust_format(
                "package_flood",
                &[("typed", "{shown}"), ("printed", "{began}")],
            ),
        )
        .replace(
            "{differs}",
            &words.rust_format(
                "package_line_differs",
                &[
                    ("typed", "{shown}"),
                    ("number", "{number}"),
                    ("got", "{got_line}"),
                    ("expected", "{expected_line}"),
                    ("printed", "{text}"),
                ],
            ),
        )
        .replace("{none}", &words.rust_format("package_no_line", &[]))
        .replace("{ended}", &words.rust_format("package_ended", &ending))
        .replace(
            "{no_error}",
            &words.rust_format("package_no_error", &ending),
        )
}

/// What a session types, as a Rust expression of `&[u8]`.
fn typed_expression(stdin: &Stdin) -> String {
    let part = |part: &StdinPart| match part {
        StdinPart::Text(text) => format!("{text:?}.as_bytes()"),
        StdinPart::Bytes { bytes } => {
            let bytes: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}_u8")).collect();
            format!("&[{}][..]", bytes.join(", "))
        }
        StdinPart::Repeat { repeat, times } => format!("{repeat:?}.repeat({times}).as_bytes()"),
    };
    match stdin {
        Stdin::Text(text) => format!("{text:?}.as_bytes()"),
        Stdin::Parts(parts) => {
            let parts: Vec<String> = parts.iter().map(part).collect();
            format!("&[{}].concat()", parts.join(", "))
        }
    }
}

/// A starter's session test: `{lines}` the program's lines, `{graded}`
/// their reading, `{binary}` the program, `{language}` the messages'
/// locale, `{variable}` the variable that says it.
const SESSION: &str = include_str!("templates/session.rs.in");

/// `answers.rs`: the grader's caller, compiled with the student's folder
/// at `src/<name>/`: `answers call <function>` reads each call's
/// arguments on stdin and prints each answer, one canonical JSON a line;
/// `answers play` runs the program. It holds no case: nothing of a
/// hidden case is in the file, nor in the program built from it.
pub(crate) fn caller(package: &Package) -> String {
    let mut arms = String::new();
    for f in &package.functions {
        if f.class.is_some() {
            arms.push_str(&class_arm(package, f));
            continue;
        }
        let _ = writeln!(arms, "                    {:?} => {{", f.name);
        let mut passed = Vec::new();
        for (index, (_, t)) in f.args.iter().enumerate() {
            let _ = writeln!(
                arms,
                "                        let a{index}: {} = {};",
                type_of(t, false),
                read(t, &format!("a.get({index}).unwrap_or(&json::NULL)"))
            );
            let borrowed = matches!(
                t,
                Type::Str | Type::List(_) | Type::Grid(..) | Type::Named(_) | Type::Object(_)
            );
            passed.push(format!("{}a{index}", if borrowed { "&" } else { "" }));
        }
        let _ = writeln!(
            arms,
            "                        say({}::{}({}));\n                    }}",
            package.name,
            f.name,
            passed.join(", ")
        );
    }
    let play = match &package.program {
        Some(p) => format!("{}::{}", package.name, p.function),
        None => "no_program".into(),
    };
    let mut given = match package.given.rust {
        Some(_) => format!(
            "#[path = \"src/given.rs\"]\nmod given;\nuse given::*;\n\n{}",
            given_answers(package)
        ),
        None => String::new(),
    };
    if has_classes(package) {
        // An argument's object is made by its class's name.
        let _ = writeln!(given, "#[allow(unused_imports)]\nuse {}::*;", package.name);
    }
    CALLER_MAIN
        .replace("{given}", &given)
        .replace("{name}", &package.name)
        .replace("{answer}", ANSWER)
        .replace("{json}", include_str!("templates/json.rs.in"))
        .replace("{play}", &play)
        .replace("{options}", options_passed(package, "&args[2..], "))
        .replace("{arms}", &arms)
}

/// The program's doc, its options said after it.
pub(crate) fn program_doc(program: &super::Program, words: &Words) -> String {
    match &program.options {
        Some(options) => format!(
            "{} {}",
            program.doc,
            words.text("package_options", &[("options", options)])
        )
        .trim()
        .to_owned(),
        None => program.doc.clone(),
    }
}

/// What a call of the program passes before its input and output: its
/// options (`passed`), when it takes them.
pub(crate) fn options_passed<'a>(package: &Package, passed: &'a str) -> &'a str {
    match package.program.as_ref().and_then(|p| p.options.as_ref()) {
        Some(_) => passed,
        None => "",
    }
}

/// Rust that reads a value of type `t` from `json` (a `&json::J`).
pub(crate) fn read(t: &Type, json: &str) -> String {
    match t {
        Type::Bool => format!("{json}.bool()"),
        Type::Int => format!("{json}.int()"),
        Type::Uint => format!("{json}.uint()"),
        Type::Char => format!("{json}.chr()"),
        Type::Str => format!("{json}.string()"),
        Type::List(inner) => format!(
            "{json}.arr().iter().map(|x| {}).collect::<Vec<_>>()",
            read(inner, "x")
        ),
        Type::Grid(cell, rows, columns) => format!(
            "{{ let rows = {json}.arr(); std::array::from_fn::<_, {rows}, _>(|i| {{ let row = rows.get(i).map_or(&[][..], |r| r.arr()); std::array::from_fn::<_, {columns}, _>(|j| {{ let x = row.get(j).unwrap_or(&json::NULL); {} }}) }}) }}",
            read(cell, "x")
        ),
        Type::Tuple(members) => {
            let each: Vec<String> = members
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    format!(
                        "{{ let x = t.get({i}).unwrap_or(&json::NULL); {} }}",
                        read(t, "x")
                    )
                })
                .collect();
            format!("{{ let t = {json}.arr(); ({},) }}", each.join(", "))
        }
        Type::Option(inner) => format!(
            "{{ let v = {json}; if v.is_null() {{ None }} else {{ Some({}) }} }}",
            read(inner, "v")
        ),
        Type::Named(named) => Codec::fill(&named.rust.make, &read(&named.of, json)),
        Type::Object(object) => read_object(object, json),
        Type::Result(inner) => format!(
            "{{ let v = {json}; if v.is_error() {{ Err(String::new()) }} else {{ Ok({}) }} }}",
            read(inner, "v")
        ),
    }
}

/// An object as a case writes it (`{ new = [...], steps = [...] }`), as
/// a Rust block that makes it: `{ let mut o = Board::new(6_usize);
/// o.drop(3_usize); o }` (each answer dropped).
fn made_object(object: &ObjectType, value: &Value) -> String {
    let Ok((new, steps)) = object.parts(value) else {
        return String::new();
    };
    let args = arguments;
    let mutable = steps.iter().any(|s| object.methods[s.method].mutates);
    let unwrap = if object.fails { ".unwrap()" } else { "" };
    if steps.is_empty() {
        // Made, and nothing more: no block (clippy's let_and_return).
        return format!("{}::new({}){unwrap}", object.name, args(&object.new, new));
    }
    let mut out = format!(
        "{{ let {}o = {}::new({}){unwrap};",
        if mutable { "mut " } else { "" },
        object.name,
        args(&object.new, new)
    );
    for step in steps {
        let method = &object.methods[step.method];
        let drop = if method.answers { "let _ = " } else { "" };
        let _ = write!(
            out,
            " {drop}o.{}({});",
            method.name,
            args(&method.args, step.args)
        );
    }
    out.push_str(" o }");
    out
}

/// Rust that makes an object from `json` (`[[new...], [[method,
/// args...], ...]]`), as the caller reads an argument.
fn read_object(object: &ObjectType, json: &str) -> String {
    let reads = |types: &[(String, Type)], from: &str, first: usize| -> String {
        let each: Vec<String> = types
            .iter()
            .enumerate()
            .map(|(i, (_, t))| {
                let borrowed = matches!(
                    t,
                    Type::Str | Type::List(_) | Type::Grid(..) | Type::Named(_) | Type::Object(_)
                );
                let value = read(
                    t,
                    &format!("{from}.get({}).unwrap_or(&json::NULL)", i + first),
                );
                match borrowed {
                    true => format!("&{{ let x: {} = {value}; x }}", type_of(t, false)),
                    false => value,
                }
            })
            .collect();
        each.join(", ")
    };
    let unwrap = if object.fails { ".unwrap()" } else { "" };
    let mut arms = String::new();
    for method in &object.methods {
        let _ = write!(
            arms,
            "{:?} => {{ let _ = o.{}({}); }} ",
            method.name,
            method.name,
            reads(&method.args, "s", 1)
        );
    }
    format!(
        "{{ let r = {json}.arr(); let n = r.get(0).unwrap_or(&json::NULL).arr(); #[allow(unused_mut)] let mut o = {}::new({}){unwrap}; for step in r.get(1).unwrap_or(&json::NULL).arr() {{ let s = step.arr(); match s.first().unwrap_or(&json::NULL).string().as_str() {{ {arms}_ => {{}} }} }} o }}",
        object.name,
        reads(&object.new, "n", 0)
    )
}

/// A stub's `todo!` words for `args`: each shown with `{name:?}`, but an
/// object (which need not be `Debug`), shown as `..` and used by a
/// `let _ = ...;` of its own (none when there is none).
fn todo_args(args: &[(String, Type)]) -> (String, Option<String>) {
    let shown: Vec<String> = args
        .iter()
        .map(|(n, t)| match t.holds_object() {
            true => "..".to_owned(),
            false => format!("{{{n}:?}}"),
        })
        .collect();
    let unshown: Vec<&str> = args
        .iter()
        .filter(|(_, t)| t.holds_object())
        .map(|(n, _)| n.as_str())
        .collect();
    let unshown = match unshown[..] {
        [] => None,
        [one] => Some(format!("let _ = {one};")),
        _ => Some(format!("let _ = ({});", unshown.join(", "))),
    };
    (shown.join(", "), unshown)
}

/// Whether the API has a class, whose objects arguments may hold.
fn has_classes(package: &Package) -> bool {
    package.functions.iter().any(|f| f.class.is_some())
}

/// The stub of a class: the struct, its constructor and methods, each a
/// `todo!`.
pub(crate) fn class_stub(f: &Function, todo: &str) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let rust = |t: &Type| type_of(t, true);
    let mut out = format!(
        "\n{}pub struct {} {{}}\n\nimpl {} {{\n",
        doc(&f.doc),
        f.name,
        f.name
    );
    let params = |args: &[(String, Type)]| -> (String, String) {
        let declared: Vec<String> = args
            .iter()
            .map(|(n, t)| format!("{n}: {}", rust(t)))
            .collect();
        let (shown, unshown) = todo_args(args);
        let unshown = unshown
            .map(|u| format!("        {u}\n"))
            .unwrap_or_default();
        (
            declared.join(", "),
            format!("{unshown}        todo!(\"{{}}({shown}): {todo}\")"),
        )
    };
    let (declared, body) = params(&f.args);
    let made = match class.fails {
        true => format!("Result<{}, String>", f.name),
        false => f.name.clone(),
    };
    let _ = write!(
        out,
        "{}    pub fn new({declared}) -> {made} {{\n{}\n    }}\n",
        indented_doc(&class.new_doc),
        body.replacen("{}", &format!("{}::new", f.name), 1)
    );
    for m in &class.methods {
        let (declared, body) = params(&m.args);
        let receiver = if m.mutates { "&mut self" } else { "&self" };
        let declared = match declared.is_empty() {
            true => receiver.to_owned(),
            false => format!("{receiver}, {declared}"),
        };
        let returns = m
            .returns
            .as_ref()
            .map(|t| format!(" -> {}", type_of(t, false)))
            .unwrap_or_default();
        let _ = write!(
            out,
            "\n{}    pub fn {}({declared}){returns} {{\n{}\n    }}\n",
            indented_doc(&m.doc),
            m.name,
            body.replacen("{}", &format!("{}::{}", f.name, m.name), 1)
        );
    }
    out.push_str("}\n");
    out
}

fn indented_doc(text: &str) -> String {
    doc(text).lines().map(|l| format!("    {l}\n")).collect()
}

/// The Rust caller's arm for a class: the object made from `a[0]`, then
/// each step of `a[1]` called, the answers written as one JSON array.
pub(crate) fn class_arm(package: &Package, f: &Function) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let reads = |args: &[(String, Type)], from: &str, first: usize| -> (String, String) {
        let mut lets = String::new();
        let mut passed = Vec::new();
        for (i, (_, t)) in args.iter().enumerate() {
            let _ = write!(
                lets,
                "let x{i}: {} = {}; ",
                type_of(t, false),
                read(
                    t,
                    &format!("{from}.get({}).unwrap_or(&json::NULL)", i + first)
                )
            );
            let borrowed = matches!(
                t,
                Type::Str | Type::List(_) | Type::Grid(..) | Type::Named(_) | Type::Object(_)
            );
            passed.push(format!("{}x{i}", if borrowed { "&" } else { "" }));
        }
        (lets, passed.join(", "))
    };
    let (lets, passed) = reads(&f.args, "a.get(0).unwrap_or(&json::NULL).arr()", 0);
    // A constructor that refuses its arguments answers an error, and
    // its object's steps are not called.
    let made = match class.fails {
        true => format!(
            "match {}::{}::new({passed}) {{ Ok(o) => o, Err(_) => {{ say(Err::<bool, ()>(())); continue; }} }}",
            package.name, f.name
        ),
        false => format!("{}::{}::new({passed})", package.name, f.name),
    };
    let mut out = format!(
        "                    {:?} => {{\n                        {lets}#[allow(unused_mut)] let mut o = {made};\n                        let mut out = String::from(\"[\"); let mut first = true;\n                        for step in a.get(1).unwrap_or(&json::NULL).arr() {{\n                            let s = step.arr();\n                            match s.first().unwrap_or(&json::NULL).string().as_str() {{\n",
        f.name
    );
    for m in &class.methods {
        let (lets, passed) = reads(&m.args, "s", 1);
        let called = format!("o.{}({passed})", m.name);
        let body = match m.returns {
            Some(_) => format!(
                "let r = {called}; if !first {{ out.push(','); }} first = false; r.write(&mut out);"
            ),
            None => format!("{called};"),
        };
        let _ = writeln!(
            out,
            "                                {:?} => {{ {lets}{body} }}",
            m.name
        );
    }
    out.push_str(
        "                                _ => unreachable!(\"a step of no method\"),\n                            }\n                        }\n                        let _ = first; out.push(']');\n                        println!(\"\\u{1e}{out}\");\n                    }\n",
    );
    out
}

/// A Rust starter's test of one object: made, then each step called,
/// each answer checked as the grader checks it.
pub(crate) fn class_test(package: &Package, f: &Function, call: &Call) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let expected = super::class::expected(call);
    let steps = class.steps(&call.args);
    let shown_f = f.shown();
    let made = object_shown(package, f, &call.args, Some(0));
    let mutable = if steps.iter().any(|(m, _)| m.mutates) {
        "let mut "
    } else {
        "let "
    };
    let mut out = match class.fails {
        // Made, or refused as the reference refused it.
        true => {
            let call_text = super::class::unbound(&made);
            let object = super::class::variable(package, &f.name);
            let shown = object_shown(package, &shown_f, &call.args, Some(0));
            let shown = super::class::unbound(&shown);
            let refused = super::class::refused(call);
            let want = if refused { "Err(())" } else { "Ok(())" };
            let mut out = format!(
                "        {{\n            let made = {call_text};\n            super::check(made.as_ref().map(|_| ()).map_err(|_| ()), &[{want}], {shown:?});\n"
            );
            if refused {
                // Nothing made: no step to call.
                out.push_str("        }\n");
                return out;
            }
            let _ = writeln!(out, "            {mutable}{object} = made.unwrap();");
            out
        }
        false => format!(
            "        {{\n            {};\n",
            made.replacen("let ", mutable, 1)
        ),
    };
    let mut answered = 0;
    for (at, (method, values)) in steps.iter().enumerate() {
        let object = super::class::variable(package, &f.name);
        let called = format!("{object}.{}", method_call(method, values));
        let Some(returns) = &method.returns else {
            let _ = writeln!(out, "            {called};");
            continue;
        };
        let want = expected
            .get(answered)
            .map(|v| literal(returns, v, false))
            .unwrap_or_default();
        answered += 1;
        let got = match returns {
            Type::Result(_) => format!("{called}.map_err(|_| ())"),
            _ => called,
        };
        let shown = object_shown(package, &shown_f, &call.args, Some(at + 1));
        let _ = writeln!(
            out,
            "            super::check({got}, &[{want}], {shown:?});"
        );
    }
    out.push_str("        }\n");
    out
}

/// An object's call as Rust writes it, its first `upto` steps (all when
/// none): `let mut tally = demo::Tally::new(3_i64); tally.add(2_i64)`.
pub(crate) fn object_shown(
    package: &Package,
    f: &Function,
    args: &[Value],
    upto: Option<usize>,
) -> String {
    let made = |object: &str, new: &[Value], mutates: bool| {
        let mutable = if mutates { "mut " } else { "" };
        format!(
            "let {mutable}{object} = {}::{}::new({})",
            package.name,
            f.name,
            arguments(&f.args, new)
        )
    };
    super::class::shown_with(package, f, args, upto, &made, &method_call)
}

/// `name(arguments)`, as Rust writes a method's call.
fn method_call(method: &Method, values: &[Value]) -> String {
    format!("{}({})", method.name, arguments(&method.args, values))
}

fn arguments(types: &[(String, Type)], values: &[Value]) -> String {
    let each: Vec<String> = types
        .iter()
        .zip(values)
        .map(|((_, t), v)| literal(t, v, true))
        .collect();
    each.join(", ")
}

const CALLER_MAIN: &str = include_str!("templates/answers.rs.in");

/// Canonical JSON, as the grader compares answers.
const ANSWER: &str = r#"trait Answer { fn write(&self, out: &mut String); }
impl Answer for bool { fn write(&self, out: &mut String) { out.push_str(if *self { "true" } else { "false" }); } }
impl Answer for i64 { fn write(&self, out: &mut String) { out.push_str(&self.to_string()); } }
impl Answer for usize { fn write(&self, out: &mut String) { out.push_str(&self.to_string()); } }
impl Answer for char { fn write(&self, out: &mut String) { self.to_string().write(out); } }
impl Answer for String {
    fn write(&self, out: &mut String) {
        out.push('"');
        for c in self.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
    }
}
fn items<'a, T: Answer + 'a>(list: impl Iterator<Item = &'a T>, out: &mut String) {
    out.push('[');
    for (i, item) in list.enumerate() {
        if i > 0 { out.push(','); }
        item.write(out);
    }
    out.push(']');
}
impl<T: Answer> Answer for Vec<T> { fn write(&self, out: &mut String) { items(self.iter(), out); } }
impl<T: Answer, const N: usize> Answer for [T; N] { fn write(&self, out: &mut String) { items(self.iter(), out); } }
impl<T: Answer> Answer for Option<T> {
    fn write(&self, out: &mut String) { match self { Some(v) => v.write(out), None => out.push_str("null") } }
}
impl<T: Answer, E> Answer for Result<T, E> {
    fn write(&self, out: &mut String) { match self { Ok(v) => v.write(out), Err(_) => out.push_str("{\"error\":true}") } }
}
macro_rules! tuple {
    ($($name:ident $index:tt),+) => {
        impl<$($name: Answer),+> Answer for ($($name,)+) {
            fn write(&self, out: &mut String) {
                out.push('[');
                $( if $index > 0 { out.push(','); } self.$index.write(out); )+
                out.push(']');
            }
        }
    };
}
tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);
tuple!(A 0, B 1, C 2, D 3, E 4);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
fn say<T: Answer>(value: T) {
    let mut out = String::new();
    value.write(&mut out);
    // After a mark: what the student's code prints is not an answer.
    println!("\u{1e}{out}");
}
"#;
