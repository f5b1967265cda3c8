//! What the kit writes in Python from a package's API: the stub (the
//! student's `<name>.py`), the public tests (`test_<name>.py`, pytest, a
//! class per level), and the caller the grader runs beside a submission
//! (`caller.py`: each case's calls, printed as canonical JSON, and the
//! program); for a class, its methods, its objects made and called step
//! by step.

use std::fmt::Write as _;

use serde_json::Value as Json;
use toml::Value;

use super::class::Method;
use super::types::{Codec, ObjectType, Type};
use super::words::Words;
use super::{Case, CaseKind, Ends, Function, Package, Typed};
use boardkit::catalogue::f;
use boardkit::judge::{CASE_CPU, case_wall};
use boardkit::session_fixture::{Stdin, StdinPart};

/// The Python annotation of `t`.
pub(crate) fn type_of(t: &Type) -> String {
    match t {
        Type::Bool => "bool".into(),
        Type::Int | Type::Uint => "int".into(),
        Type::Char | Type::Str => "str".into(),
        Type::List(inner) => format!("list[{}]", type_of(inner)),
        Type::Grid(cell, ..) => format!("list[list[{}]]", type_of(cell)),
        Type::Tuple(ts) => {
            let inner: Vec<String> = ts.iter().map(type_of).collect();
            format!("tuple[{}]", inner.join(", "))
        }
        Type::Option(inner) => format!("{} | None", type_of(inner)),
        Type::Result(inner) => type_of(inner),
        Type::Named(named) => named.name.clone(),
        // Quoted: the class may come after the function in the module.
        Type::Object(object) => format!("\"{}\"", object.name),
    }
}

/// `value` of type `t` as a Python expression.
pub(crate) fn literal(t: &Type, value: &Value) -> String {
    let list = |inner: &Type, items: &[Value]| -> String {
        let items: Vec<String> = items.iter().map(|v| literal(inner, v)).collect();
        items.join(", ")
    };
    match (t, value) {
        (Type::Option(_), Value::Table(t)) if t.is_empty() => "None".into(),
        (Type::Option(inner) | Type::Result(inner), v) => literal(inner, v),
        (Type::Named(named), v) => Codec::fill(&named.python.make, &literal(&named.of, v)),
        (Type::Object(object), v) => made_object(object, v),
        (Type::Bool, Value::Boolean(b)) => if *b { "True" } else { "False" }.into(),
        (Type::Str | Type::Char, Value::String(s)) => serde_json::to_string(s).unwrap_or_default(),
        (Type::List(inner), Value::Array(items)) => format!("[{}]", list(inner, items)),
        (Type::Grid(cell, ..), Value::Array(rows)) => {
            let rows: Vec<String> = rows
                .iter()
                .map(|row| match row {
                    Value::Array(cells) => format!("[{}]", list(cell, cells)),
                    _ => String::new(),
                })
                .collect();
            format!("[{}]", rows.join(", "))
        }
        (Type::Tuple(ts), Value::Array(items)) => {
            let members: Vec<String> = ts.iter().zip(items).map(|(t, v)| literal(t, v)).collect();
            format!("({},)", members.join(", "))
        }
        (_, v) => v.to_string(),
    }
}

fn signature(f: &Function) -> String {
    let args: Vec<String> = f
        .args
        .iter()
        .map(|(name, t)| format!("{name}: {}", type_of(t)))
        .collect();
    format!(
        "def {}({}) -> {}:",
        f.name,
        args.join(", "),
        type_of(&f.returns)
    )
}

pub(crate) fn docstring(text: &str, fallback: &str) -> String {
    let text = text.trim();
    let text = if text.is_empty() { fallback } else { text };
    format!("    \"\"\"{}\"\"\"\n", quoted(text))
}

/// `text` inside a docstring: a backslash would start an escape, and a
/// quote could end it.
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The student's files, each with its text: the module, the API's
/// functions each raising; and the program's script when it has one.
pub(crate) fn stubs(package: &Package, words: &Words) -> Vec<(String, String)> {
    let mut files = vec![(package.python.module_file(), stub(package, words))];
    if let (Some(script), Some(program)) = (&package.python.program, &package.program) {
        let header = words.text("package_stub_python", &[("title", &package.title)]);
        let names: Vec<&str> = package.functions.iter().map(|f| f.name.as_str()).collect();
        let mut text = format!(
            "\"\"\"\n{}\n\n{}\"\"\"\n",
            quoted(&super::words::wrapped(&header, "", 72)).trim_end(),
            quoted(&super::words::wrapped(
                &super::rust::program_doc(program, words),
                "",
                72
            )),
        );
        if !names.is_empty() {
            let _ = write!(
                text,
                "\nfrom {} import {}\n",
                package.python.module,
                names.join(", ")
            );
        }
        let todo = quoted(&words.text("package_todo", &[]));
        let _ = writeln!(text, "\nraise NotImplementedError(\"{script}: {todo}\")");
        files.push((script.clone(), text));
    }
    files
}

/// The module `<module>.py`: the API, each function raising; and the
/// program's function when the module is the program.
fn stub(package: &Package, words: &Words) -> String {
    let key = match package.functions.iter().any(|f| f.class.is_some()) {
        true => "package_stub_python_classes",
        false => "package_stub_python",
    };
    let header = words.text(key, &[("title", &package.title)]);
    let mut out = format!(
        "\"\"\"\n{}\"\"\"\n",
        quoted(&super::words::wrapped(&header, "", 72))
    );
    if !super::rust::options_passed(package, "sys").is_empty() && package.python.program.is_none() {
        out.push_str("\nimport sys\n");
    }
    let given = package.given_used();
    if !given.is_empty() {
        let _ = writeln!(out, "\nfrom given import {}", given.join(", "));
    }
    let todo = quoted(&words.text("package_todo", &[]));
    for f in &package.functions {
        if f.class.is_some() {
            out.push_str(&class_stub(f, &todo));
            continue;
        }
        let _ = write!(
            out,
            "\n\n{}\n{}    raise NotImplementedError(\"{}: {todo}\")\n",
            signature(f),
            docstring(&f.doc, "See STATEMENT.md."),
            f.name
        );
    }
    if let Some(program) = package
        .program
        .as_ref()
        .filter(|_| package.python.program.is_none())
    {
        let _ = write!(
            out,
            "\n\ndef {}({}) -> None:\n{}    raise NotImplementedError(\"{}: {todo}\")\n\n\nif __name__ == \"__main__\":\n    {}({})\n",
            program.function,
            super::rust::options_passed(package, "options: list[str]"),
            docstring(
                &super::rust::program_doc(program, words),
                "Plays: reads with input(), writes with print()."
            ),
            program.function,
            program.function,
            super::rust::options_passed(package, "sys.argv[1:]"),
        );
    }
    out
}

/// The helpers both the tests and the caller use: answers in canonical
/// form (tuples as lists), and the program's graded lines.
fn helpers(package: &Package, words: &Words) -> String {
    let patterns: Vec<String> = package
        .messages
        .get(&package.language)
        .map(|m| {
            m.values()
                .map(|p| serde_json::to_string(p).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    let failing: Vec<String> = package
        .functions
        .iter()
        .filter_map(|f| Some((f, f.class.as_ref()?)))
        .map(|(f, class)| {
            let names: Vec<String> = class
                .methods
                .iter()
                .filter(|m| matches!(m.returns, Some(Type::Result(_))))
                .map(|m| format!("{:?}", m.name))
                .collect();
            format!(
                "{:?}: ({}{})",
                f.name,
                names.join(", "),
                if names.len() == 1 { "," } else { "" }
            )
        })
        .collect();
    let whole_only =
        words.python_format("package_whole_only", &[("function", "%s"), ("count", "%s")]);
    let whole_raised = words.python_format(
        "package_whole_raised",
        &[("function", "%s"), ("error", "%s")],
    );
    include_str!("templates/lines.py.in")
        .replace("{case_variable}", super::rust::CASE_SECONDS)
        .replace("{cpu_limit}", &CASE_CPU.as_secs().to_string())
        .replace("{wall_limit}", &case_wall(CASE_CPU).as_secs().to_string())
        .replace(
            "{forms}",
            &forms(&format!("\"{whole_only}\""), &format!("\"{whole_raised}\"")),
        )
        .replace("{given}", &given_reads(package))
        .replace("{failing}", &format!("{{{}}}", failing.join(", ")))
        .replace("{lines}", &patterns.join(", "))
        .replace(
            "{an_exception}",
            &Json::from(words.text("package_an_exception", &[])).to_string(),
        )
        .replace(
            "{not_a_value}",
            &format!(
                "\"{}\"",
                words.python_format("package_not_a_value", &[("value", "%s")])
            ),
        )
}

/// A session's check of the program's first line, where the statement
/// has it start with one (`[program] first`), as the grader checks it.
fn first_check(package: &Package, words: &Words) -> String {
    let Some(first) = package.first_line() else {
        return String::new();
    };
    let message = words.python_format(
        "package_first_line",
        &[("typed", "%s"), ("got", "%r"), ("expected", "%r")],
    );
    format!(
        "    if stdout.splitlines():\n        line = stdout.splitlines()[0].rstrip(\" \\t\\r\")\n        first = {}\n        assert shaped(first, line) == line, \"{message}\" % (shown, line, first)\n",
        Json::from(first)
    )
}

/// A Python starter's `conftest.py`: every test of the folder stopped at
/// the grader's CPU limit for a case, or its wall-clock backstop, saying
/// why in the starter's locale; a call that never returns fails its test
/// instead of hanging `pytest`.
pub(crate) fn conftest(package: &Package, words: &Words) -> String {
    let message = words.python_format("package_time_limit", &[("seconds", "%d")]);
    let mut text = include_str!("templates/conftest.py.in")
        .replace("{message}", &format!("\"{message}\""))
        .replace("{variable}", super::rust::CASE_SECONDS)
        .replace("{cpu}", &CASE_CPU.as_secs().to_string())
        .replace("{wall}", &case_wall(CASE_CPU).as_secs().to_string());
    text.push_str(&level_summary(package, words));
    text
}

/// What pytest ends with: each level's public cases passed and run, and
/// the level reached when every one ran, as `boardkit test` and a Rust
/// starter say it (`boardkit::level::Words::summary`), in the starter's
/// words.
fn level_summary(package: &Package, words: &Words) -> String {
    let catalogue = crate::exercise_data::catalogue_of(&words.locale);
    // A catalogue's text as a Python `%` template, `{name}`s made `%s`.
    let template = |english: &str, holes: &[(&str, &str)]| {
        let mut text = catalogue.text(english).replace('%', "%%");
        for (hole, with) in holes {
            text = text.replace(&format!("{{{hole}}}"), with);
        }
        quoted(&text)
    };
    let mut parts = Vec::new();
    for part in package.parts() {
        let shown = match package
            .level_names
            .get(&words.locale)
            .and_then(|n| n.get(part))
        {
            Some(own) if own != part => format!("{own} ({part})"),
            _ => part.to_owned(),
        };
        let count = package
            .cases
            .iter()
            .filter(|c| !c.hidden && c.part(package) == part)
            .count();
        if count > 0 {
            parts.push(format!(
                "    (\"{}\", \"{}\", {count}, {}),",
                class_name(part),
                quoted(&shown),
                if part == boardkit::session_fixture::ROBUSTNESS {
                    "True"
                } else {
                    "False"
                }
            ));
        }
    }
    format!(
        include_str!("templates/summary.py.in"),
        parts = parts.join("\n"),
        header = quoted(catalogue.text("levels:")),
        count = template("{passed}/{run} passed", &[("passed", "%3d"), ("run", "%d")]),
        not_yet = quoted(catalogue.text("<- not yet")),
        no_level = quoted(catalogue.text("(in the score, in no level)")),
        reached = template(
            "level reached: {name} (every level up to it passed, as the grader counts)",
            &[("name", "%s")]
        ),
        none_yet = quoted(catalogue.text(
            "level reached: none yet (a level counts when it and every level below it pass)"
        )),
    )
}

/// `test_<name>.py`: each public case a test, in a class per level
/// (`pytest -k <level>` runs one).
pub(crate) fn tests(package: &Package, words: &Words) -> String {
    let doc = words.text(
        "package_tests",
        &[
            ("title", &package.title),
            ("command", "python3 -m pytest -k <level>"),
            ("levels", &package.levels.join(", ")),
        ],
    );
    let mut out = format!(
        "\"\"\"\n{}\"\"\"\n",
        quoted(&super::words::wrapped(&doc, "", 72))
    );
    out.push_str(&helpers(package, words));
    // The messages' holes in the order every locale writes them.
    let ending = [("typed", "%s"), ("status", "%s"), ("printed", "%s")];
    let _ = write!(
        out,
        "\n# Imported as the grader imports it: with nothing to read (a program\n# started at the file's top level meets the end of its input).\nimport io\n_stdin, sys.stdin = sys.stdin, io.StringIO(\"\")\ntry:\n    import {name}\nexcept (SyntaxError, ImportError) as error:\n    {name} = Unimportable(\"{cannot_import}\" % (\"%s: %s\" % (type(error).__name__, error)))\nexcept Exception as error:\n    {name} = Unimportable(\"{import_raised}\" % (\"%s (%s)\" % (type(error).__name__, error)))\nexcept SystemExit as error:\n    {name} = Unimportable(\"{import_raised}\" % (\"SystemExit (%s)\" % (error,)))\nfinally:\n    sys.stdin = _stdin\n\n\ndef session(options, typed, expect, error=False):\n    \"\"\"Runs the program with its options on what is typed (lines, or bytes); compares its graded lines, and how it ends: with `error`, a status other than 0 (not the stub's NotImplementedError), else 0.\"\"\"\n    data = typed if isinstance(typed, bytes) else \"\".join(l + \"\\n\" for l in typed).encode()\n    out, err, returncode, stopped = run_program([sys.executable, \"{program}\", *options], data, dict(os.environ, {variable}={language:?}, {io_variable}={io_value:?}))\n    stdout, stderr = out.decode(errors=\"replace\"), err.decode(errors=\"replace\")\n    shown = repr(typed if not isinstance(typed, bytes) else data[:200].decode(errors=\"replace\"))\n    if options:\n        shown = \"{with_options}\" % (shown, \" \".join(options))\n    cpu, wall = session_limits()\n    assert stopped != \"time\", \"{timeout}\" % {{\"typed\": shown, \"cpu\": cpu, \"wall\": wall}}\n    assert stopped != \"flood\", \"{flood}\" % (shown, stdout[:2000])\n{first}    got = [g for g in (graded(l.rstrip(\" \\t\\r\")) for l in stdout.splitlines()) if g is not None]\n    # What the messages show of it: its start, when it is long.\n    stdout = stdout if len(stdout) <= 4000 else stdout[:4000] + \"…\\n\"\n    if got != expect:\n        # The first line that differs, as the grader says it.\n        at = next((i for i, (g, e) in enumerate(zip(got, expect)) if g != e), min(len(got), len(expect)))\n        line = lambda lines: json.dumps(lines[at], ensure_ascii=False) if at < len(lines) else \"{none}\"\n        raise AssertionError(\"{differs}\" % {{\"typed\": shown, \"number\": at + 1, \"got\": line(got), \"expected\": line(expect), \"printed\": stdout + stderr}})\n    status = \"status %d\" % returncode\n    if error:\n        stubbed = any(l.startswith({never_ran}) for l in stderr.splitlines())\n        assert returncode != 0 and not stubbed, \"{no_error}\" % (shown, status, stdout + stderr)\n    else:\n        assert returncode == 0, \"{ended}\" % (shown, status, stdout + stderr)\n",
        name = package.python.module,
        program = package.python.program_file(),
        language = package.language,
        variable = super::LANGUAGE,
        io_variable = super::PYTHON_IO.0,
        io_value = super::PYTHON_IO.1,
        differs = words.python_format(
            "package_line_differs",
            &[
                ("typed", "%(typed)s"),
                ("number", "%(number)s"),
                ("got", "%(got)s"),
                ("expected", "%(expected)s"),
                ("printed", "%(printed)s")
            ]
        ),
        none = words.python_format("package_no_line", &[]),
        ended = words.python_format("package_ended", &ending),
        no_error = words.python_format("package_no_error", &ending),
        never_ran = python_tuple(super::NEVER_RAN),
        timeout = words.python_format(
            "package_timeout",
            &[
                ("typed", "%(typed)s"),
                ("cpu", "%(cpu)s"),
                ("wall", "%(wall)s")
            ]
        ),
        with_options = words.python_format(
            "package_with_options",
            &[("typed", "%s"), ("options", "%s")]
        ),
        first = first_check(package, words),
        cannot_import = words.python_format(
            "package_cannot_import",
            &[("module", &package.python.module), ("error", "%s")]
        ),
        import_raised = words.python_format(
            "package_import_raised",
            &[("module", &package.python.module), ("error", "%s")]
        ),
        flood = words.python_format("package_flood", &[("typed", "%s"), ("printed", "%s")]),
    );
    for level in package.parts() {
        let cases: Vec<&Case> = package
            .cases
            .iter()
            .filter(|c| !c.hidden && c.part(package) == level)
            .collect();
        if cases.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n\nclass {}:", class_name(level));
        for case in cases {
            out.push_str(&test(package, case, words));
        }
    }
    out
}

/// The test class of a part (a level, or robustness) in a starter's
/// tests: `TestBasic`, `TestRobustness`.
pub(crate) fn class_name(part: &str) -> String {
    let name: String = part.split('_').map(capitalized).collect();
    format!("Test{name}")
}

/// `names` as a Python tuple of strings.
fn python_tuple(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    format!("({})", quoted.join(", "))
}

/// An answer as the Python starter's failures show it (`shown` in its
/// tests): the grader's words, in the starter's locale for an error.
fn readable(answer: &Json, words: &Words) -> String {
    let error = words.text("package_an_exception", &[]);
    super::types::shown_answer_saying(answer, super::Language::Python, &error)
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

fn test(package: &Package, case: &Case, words: &Words) -> String {
    let mut body = String::new();
    match &case.kind {
        CaseKind::Calls { function, calls } => {
            let f = &package.functions[*function];
            let check = |returns: &Type, call_text: &str, accepted: &[Json], shown: &str| {
                answer_check(returns, call_text, accepted, shown, words)
            };
            for call in calls {
                if f.class.is_some() {
                    let one = |t: &Type, text: &str, accepted: &Json, shown: &str| {
                        check(t, text, std::slice::from_ref(accepted), shown)
                    };
                    body.push_str(&class_test(package, f, call, &one));
                    continue;
                }
                let call_text = test_call(package, f, &call.args, case.whole);
                let canonical: Vec<Json> = super::rust::accepted(call)
                    .iter()
                    .map(|v| f.returns.canonical(v))
                    .collect();
                let shown = call_expression(package, &f.shown(), &call.args);
                body.push_str(&check(&f.returns, &call_text, &canonical, &shown));
            }
        }
        CaseKind::Session {
            args,
            typed,
            expect,
            ends,
        } => {
            let options = serde_json::to_string(args).unwrap_or_default();
            let typed = match typed {
                Typed::Lines(input) => serde_json::to_string(input).unwrap_or_default(),
                Typed::Raw(stdin) => typed_expression(stdin),
            };
            let expect =
                serde_json::to_string(&expect.clone().unwrap_or_default()).unwrap_or_default();
            let error = if *ends == Ends::Error { ", True" } else { "" };
            let _ = writeln!(body, "        session({options}, {typed}, {expect}{error})");
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
        "\n    def test_{}(self):\n        \"\"\"{}\"\"\"\n{body}",
        case.name,
        quoted(&doc)
    )
}

/// A starter's check of one call's answer (`call_text`, shown as
/// `shown`), among those `accepted`.
fn answer_check(
    returns: &Type,
    call_text: &str,
    accepted: &[Json],
    shown: &str,
    words: &Words,
) -> String {
    let listed: Vec<String> = accepted.iter().map(Json::to_string).collect();
    let listed = serde_json::to_string(&listed).unwrap_or_default();
    // As the failure shows them: Python's words, not JSON, in the
    // statement's types (a tuple as a tuple), as the grader shows them.
    let readable: Vec<String> = accepted
        .iter()
        .map(|v| match v == &super::types::error_json() {
            true => readable(v, words),
            false => super::types::shown_typed(returns, v, super::Language::Python),
        })
        .collect();
    let readable = Json::from(readable.join(", ")).to_string();
    let error_allowed = if matches!(returns, Type::Result(_)) {
        "True"
    } else {
        "False"
    };
    let shown = shown
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('%', "%%");
    let message = words.python_format(
        "package_returned",
        &[("call", &shown), ("got", "%s"), ("accepted", "%s")],
    );
    format!(
        "        got = answer(lambda: {call_text}, {error_allowed})\n        assert got in {listed}, \"{message}\" % (shown(got, {shape}), {readable})\n",
        shape = shape(returns),
    )
}

/// How `shown` (in the starter's tests) writes an answer of type `t`, as
/// a Python literal: a tuple `{"t": [...]}`, a list `{"l": ...}`, else
/// `None` (as JSON reads).
fn shape(t: &Type) -> String {
    match t {
        Type::Tuple(members) => {
            let members: Vec<String> = members.iter().map(shape).collect();
            format!("{{\"t\": [{}]}}", members.join(", "))
        }
        Type::List(inner) => format!("{{\"l\": {}}}", shape(inner)),
        Type::Grid(inner, ..) => format!("{{\"l\": {{\"l\": {}}}}}", shape(inner)),
        Type::Option(inner) | Type::Result(inner) => shape(inner),
        Type::Named(named) => shape(&named.of),
        _ => "None".into(),
    }
}

/// What a session types, as a Python expression of `bytes`.
fn typed_expression(stdin: &Stdin) -> String {
    let text = |text: &str| {
        format!(
            "{}.encode()",
            serde_json::to_string(text).unwrap_or_default()
        )
    };
    let part = |part: &StdinPart| match part {
        StdinPart::Text(t) => text(t),
        StdinPart::Bytes { bytes } => format!("bytes({bytes:?})"),
        StdinPart::Repeat { repeat, times } => format!("{} * {times}", text(repeat)),
    };
    match stdin {
        Stdin::Text(t) => text(t),
        Stdin::Parts(parts) if parts.is_empty() => "b\"\"".into(),
        Stdin::Parts(parts) => parts.iter().map(part).collect::<Vec<_>>().join(" + "),
    }
}

/// How deep a `spread` function's argument holds its items: 1 for a
/// list, 2 for a grid (its cells row by row); `None` when it is no
/// `spread` function.
fn spread_depth(f: &Function) -> Option<usize> {
    match f.args.as_slice() {
        [(_, Type::Grid(..))] if f.spread => Some(2),
        [(_, Type::List(_))] if f.spread => Some(1),
        _ => None,
    }
}

/// `forms.py.in`: how a `spread` function is called, in the tests and
/// the caller alike; `whole_only` the message of a function that takes
/// the items only, called where the whole form is asked.
fn forms(whole_only: &str, whole_raised: &str) -> String {
    include_str!("templates/forms.py.in")
        .replace("{whole_only}", whole_only)
        .replace("{whole_raised}", whole_raised)
}

/// A call as a starter's test makes it: through `forms` for a `spread`
/// function (`whole`: the declared form only).
fn test_call(package: &Package, f: &Function, args: &[Value], whole: bool) -> String {
    match (spread_depth(f), args) {
        (Some(depth), [argument]) => format!(
            "forms({}.{}, {}, {depth}, {}, {:?})",
            package.python.module,
            f.name,
            arguments(&f.args, std::slice::from_ref(argument)),
            if whole { "True" } else { "False" },
            f.name
        ),
        _ => call_expression(package, f, args),
    }
}

pub(crate) fn call_expression(package: &Package, f: &Function, args: &[Value]) -> String {
    format!(
        "{}.{}({})",
        package.python.module,
        f.name,
        arguments(&f.args, args)
    )
}

/// `caller.py`: the grader's caller, run in the submission's folder:
/// `caller.py case <name>` prints each call's answer, one canonical JSON
/// a line after a mark; `caller.py play` runs the program.
pub(crate) fn caller(package: &Package) -> String {
    let mut listed = String::new();
    for f in &package.functions {
        if f.class.is_some() {
            listed.push_str(&class_entry(package, f));
            continue;
        }
        let how = match f.returns {
            Type::Result(_) => "fails",
            _ => "say",
        };
        let args: Vec<String> = f
            .args
            .iter()
            .enumerate()
            .map(|(i, (_, t))| read(t, &format!("a[{i}]")))
            .collect();
        let function = format!("{}.{}", package.python.module, f.name);
        let called = match spread_depth(f) {
            Some(depth) => format!(
                "forms({function}, {}, {depth}, WHOLE, {:?})",
                args[0], f.name
            ),
            None => format!("{function}({})", args.join(", ")),
        };
        let _ = writeln!(listed, "    {:?}: ({how}, lambda a: {called}),", f.name);
    }
    let module = package.python.module.as_str();
    // In the grader's locale (the package's, as its pages): what a student
    // reads when their file cannot be used.
    let cannot_import = python_message(f(
        "{module}.py cannot be imported: {error}",
        &[("module", &module), ("error", &HOLE)],
    ));
    let import_raised = python_message(f(
        "importing {module}.py raised {error} in a line outside every function, which runs as the file is imported (a program started there belongs under `if __name__ == \"__main__\":`)",
        &[("module", &module), ("error", &HOLE)],
    ));
    let no_function = python_message(f(
        "{module}.py has no function {function}",
        &[("module", &module), ("function", &HOLE)],
    ));
    let not_a_value = python_message(f(
        "it returned {value}, which is none of the statement's types (a number, a string, a bool, None, a list or a tuple of them)",
        &[("value", &HOLE)],
    ));
    let no_class = python_message(f(
        "{module}.py has no class {class}",
        &[("module", &module), ("class", &HOLE)],
    ));
    let exited = python_message(f(
        "it called sys.exit({code}), which ends the program: a function returns its answer instead",
        &[("code", &HOLE)],
    ));
    let whole_only = python_message(f(
        "{function} takes its argument's items one by one ({count} parameters): this case calls it with one argument, the whole value, as its level asks",
        &[("function", &HOLE), ("count", &HOLE)],
    ));
    let whole_raised = python_message(f(
        "{function}, called with one argument, the whole value, as this case's level asks, raised {error}: it reads the items one by one",
        &[("function", &HOLE), ("error", &HOLE)],
    ));
    include_str!("templates/caller.py.in")
        .replace("{forms}", &forms(&whole_only, &whole_raised))
        .replace("{exited}", &exited)
        .replace("{not_a_value}", &not_a_value)
        .replace("{no_class}", &no_class)
        .replace("{given}", &given_reads(package))
        .replace("{cannot_import}", &cannot_import)
        .replace("{import_raised}", &import_raised)
        .replace("{no_function}", &no_function)
        .replace("{program}", &package.python.program_file())
        .replace("{module}", &package.python.module)
        .replace("{functions}", &listed)
}

/// An object as a case writes it, as a Python expression that makes it:
/// `built(demo.Board(6), lambda o: o.drop(3))` (`built` is in the
/// starter's tests and the caller).
fn made_object(object: &ObjectType, value: &Value) -> String {
    let Ok((new, steps)) = object.parts(value) else {
        return String::new();
    };
    let args = arguments;
    let mut parts = vec![format!(
        "{}.{}({})",
        object.module,
        object.name,
        args(&object.new, new)
    )];
    for step in steps {
        let method = &object.methods[step.method];
        let mut call = vec![format!("{:?}", method.name)];
        call.extend(
            method
                .args
                .iter()
                .zip(step.args)
                .map(|((_, t), v)| literal(t, v)),
        );
        // A one-member tuple keeps its comma.
        let comma = if call.len() == 1 { "," } else { "" };
        parts.push(format!("({}{comma})", call.join(", ")));
    }
    format!("built({})", parts.join(", "))
}

/// Python that makes an object from `json` (`[[new...], [[method,
/// args...], ...]]`), as the caller reads an argument.
fn read_object(object: &ObjectType, json: &str) -> String {
    let reads = |types: &[(String, Type)], from: &str, first: usize| -> String {
        let each: Vec<String> = types
            .iter()
            .enumerate()
            .map(|(i, (_, t))| read(t, &format!("{from}[{}]", i + first)))
            .collect();
        each.join(", ")
    };
    let methods: Vec<String> = object
        .methods
        .iter()
        .map(|m| {
            let fails = if m.fails { "True" } else { "False" };
            format!(
                "{:?}: ({fails}, lambda o, s: o.{}({}))",
                m.name,
                m.name,
                reads(&m.args, "s", 1)
            )
        })
        .collect();
    format!(
        "built_from(lambda n: {}.{}({}), {json}, {{{}}})",
        object.module,
        object.name,
        reads(&object.new, "n", 0),
        methods.join(", ")
    )
}

/// The stub of a class: its constructor and methods, each raising.
pub(crate) fn class_stub(f: &Function, todo: &str) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let params = |args: &[(String, Type)]| -> String {
        std::iter::once("self".to_owned())
            .chain(args.iter().map(|(n, t)| format!("{n}: {}", type_of(t))))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!(
        "\n\nclass {}:\n{}",
        f.name,
        docstring(&f.doc, "See STATEMENT.md.")
    );
    let _ = write!(
        out,
        "\n    def __init__({}) -> None:\n    {}        raise NotImplementedError(\"{}: {todo}\")\n",
        params(&f.args),
        docstring(&class.new_doc, "See STATEMENT.md."),
        f.name
    );
    for m in &class.methods {
        let returns = m
            .returns
            .as_ref()
            .map_or_else(|| "None".to_owned(), type_of);
        let _ = write!(
            out,
            "\n    def {}({}) -> {returns}:\n    {}        raise NotImplementedError(\"{}.{}: {todo}\")\n",
            m.name,
            params(&m.args),
            docstring(&m.doc, "See STATEMENT.md."),
            f.name,
            m.name
        );
    }
    out
}

/// The Python caller's entry for a class: the object made from `a[0]`,
/// each step of `a[1]` called by `scenario` (`caller.py.in`).
pub(crate) fn class_entry(package: &Package, f: &Function) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let read = |args: &[(String, Type)], from: &str, first: usize| -> String {
        args.iter()
            .enumerate()
            .map(|(i, (_, t))| read(t, &format!("{from}[{}]", i + first)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let methods: Vec<String> = class
        .methods
        .iter()
        .map(|m| {
            let how = match &m.returns {
                Some(Type::Result(_)) => "fails",
                Some(_) => "say",
                None => "change",
            };
            format!(
                "{:?}: ({how:?}, lambda o, s: o.{}({}))",
                m.name,
                m.name,
                read(&m.args, "s", 1)
            )
        })
        .collect();
    let fails = if class.fails { "True" } else { "False" };
    format!(
        "    {:?}: (say, lambda a: scenario(lambda: {}.{}({}), a[1], {{{}}}, {fails})),\n",
        f.name,
        package.python.module,
        f.name,
        read(&f.args, "a[0]", 0),
        methods.join(", ")
    )
}

/// A starter's test of one object, each answering step checked through
/// `answer`, as a function's call is.
fn class_test(
    package: &Package,
    f: &Function,
    call: &super::Call,
    check: &dyn Fn(&Type, &str, &Json, &str) -> String,
) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let expected = super::class::expected(call);
    let steps = class.steps(&call.args);
    let shown_f = f.shown();
    let made = object_shown(package, f, &call.args, Some(0));
    if super::class::refused(call) {
        // Refused as the reference refused it: an exception, no object.
        let call_text = super::class::unbound(&made);
        let shown = object_shown(package, &shown_f, &call.args, Some(0));
        let shown = super::class::unbound(&shown);
        let error = Type::Result(Box::new(Type::Bool));
        return check(
            &error,
            &format!("({call_text}, None)[1]"),
            &super::types::error_json(),
            shown,
        );
    }
    let mut out = format!("        {made}\n");
    let mut answered = 0;
    for (at, (method, values)) in steps.iter().enumerate() {
        let called = format!(
            "{}.{}",
            super::class::variable(package, &f.name),
            method_call(method, values)
        );
        let Some(returns) = &method.returns else {
            let _ = writeln!(out, "        {called}");
            continue;
        };
        let want = expected
            .get(answered)
            .map(|v| returns.canonical(v))
            .unwrap_or(Json::Null);
        answered += 1;
        let shown = object_shown(package, &shown_f, &call.args, Some(at + 1));
        out.push_str(&check(returns, &called, &want, &shown));
    }
    out
}

/// An object's call as Python writes it, its first `upto` steps (all
/// when none): `tally = demo.Tally(3); tally.add(2)`.
pub(crate) fn object_shown(
    package: &Package,
    f: &Function,
    args: &[Value],
    upto: Option<usize>,
) -> String {
    let made = |object: &str, new: &[Value], _: bool| {
        format!(
            "{object} = {}.{}({})",
            package.python.module,
            f.name,
            arguments(&f.args, new)
        )
    };
    super::class::shown_with(package, f, args, upto, &made, &method_call)
}

/// `name(arguments)`, as Python writes a method's call.
fn method_call(method: &Method, values: &[Value]) -> String {
    format!("{}({})", method.name, arguments(&method.args, values))
}

fn arguments(types: &[(String, Type)], values: &[Value]) -> String {
    let each: Vec<String> = types
        .iter()
        .zip(values)
        .map(|((_, t), v)| literal(t, v))
        .collect();
    each.join(", ")
}

/// The given types' code imported, and `GIVEN`: each type with its
/// `read`, which `canonical` applies (`[]` without given types).
fn given_reads(package: &Package) -> String {
    if package.given.python.is_none() {
        return "GIVEN = []\n".into();
    }
    let reads: Vec<String> = package
        .types
        .iter()
        .map(|t| {
            format!(
                "({}, lambda v: {})",
                t.name,
                Codec::fill(&t.python.read, "v")
            )
        })
        .collect();
    format!("from given import *\n\nGIVEN = [{}]\n", reads.join(", "))
}

/// Where a message's hole goes before it becomes Python's `%s`: a
/// character no message holds.
const HOLE: char = '\u{1f}';

/// `text`, a message with [`HOLE`]s, as a Python %-format string literal.
fn python_message(text: String) -> String {
    let body = Json::from(text).to_string().replace('%', "%%");
    body.replace("\\u001f", "%s")
}

/// Python that reads a value of type `t` from the JSON value `json`:
/// tuples from lists, the rest as JSON gives them.
pub(crate) fn read(t: &Type, json: &str) -> String {
    match t {
        Type::List(inner) | Type::Grid(inner, ..) if needs_reading(inner) => {
            let row = match t {
                Type::Grid(..) => read(&Type::List(inner.clone()), "x"),
                _ => read(inner, "x"),
            };
            format!("[{row} for x in {json}]")
        }
        Type::Tuple(members) => {
            let each: Vec<String> = (0..members.len())
                .map(|i| read(&members[i], &format!("t[{i}]")))
                .collect();
            format!("(lambda t: ({},))({json})", each.join(", "))
        }
        Type::Option(inner) if needs_reading(inner) => {
            format!(
                "(lambda v: None if v is None else {})({json})",
                read(inner, "v")
            )
        }
        Type::Named(named) => Codec::fill(&named.python.make, &read(&named.of, json)),
        Type::Object(object) => read_object(object, json),
        _ => json.to_owned(),
    }
}

/// Whether a value of `t` differs from what JSON gives: it holds a tuple.
fn needs_reading(t: &Type) -> bool {
    match t {
        Type::Tuple(_) | Type::Named(_) | Type::Object(_) => true,
        Type::List(inner) | Type::Grid(inner, ..) | Type::Option(inner) | Type::Result(inner) => {
            needs_reading(inner)
        }
        _ => false,
    }
}

/// A Python starter's `test_mine.py`: the student's own tests, started
/// with one example from the first public call whose answer is one value
/// (not an error). `boardkit grade --test-points` runs them on correct
/// versions and on wrong ones.
pub(crate) fn own_tests(package: &Package, words: &Words) -> String {
    // Not graded where their values cannot cross a process (grade.rs).
    let ungraded = !package.types.is_empty() || package.functions.iter().any(|f| f.class.is_some());
    let key = match ungraded {
        true => "package_own_tests_ungraded",
        false => "package_own_tests",
    };
    let doc = words.text(
        key,
        &[("title", &package.title), ("name", &package.python.module)],
    );
    let mut out = format!(
        "\"\"\"\n{}\"\"\"\n\nimport {name}\n",
        quoted(&super::words::wrapped(&doc, "", 72)),
        name = package.python.module
    );
    let example = package.own_example();
    if let Some((f, call, answer)) = example {
        let call = call_expression(package, f, &call.args);
        let assertion = match answer {
            Value::Boolean(true) => call,
            Value::Boolean(false) => format!("not {call}"),
            answer => format!("{call} == {}", literal(&f.returns, &answer)),
        };
        let _ = write!(
            out,
            "\n\ndef test_{}_example():\n    assert {assertion}\n",
            f.name,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Words, readable};

    /// A Python starter's failure shows answers as Python writes them, an
    /// error in the starter's locale: never the grader's JSON.
    #[test]
    fn answers_are_shown_in_pythons_words() {
        let error = crate::package::types::error_json();
        assert_eq!(readable(&error, &Words::of("en")), "an exception");
        assert_eq!(readable(&error, &Words::of("fr")), "une exception");
        assert_eq!(readable(&error, &Words::of("pt-BR")), "uma exceção");
        let en = Words::of("en");
        assert_eq!(readable(&json!([true, null, 3]), &en), "[True, None, 3]");
        assert_eq!(readable(&json!(["é", [false]]), &en), "[\"é\", [False]]");
    }
}
