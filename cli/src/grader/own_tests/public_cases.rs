//! `dev check`'s proof that each Rust mutant, public and hidden, differs
//! from the reference on input the statement promises: the game's public
//! cases (its function cases and its sessions, none of the robustness
//! part nor a hidden case) hold only such input, and, written as one test
//! file, they run against every version as a student's tests do. The file
//! must pass on every correct version, and fail on each mutant. A mutant
//! whose change lies in a function the cases call by name (velha's
//! `verifica_vencedor_9`, say: a student must write both forms, and may
//! test each alone) must fail that function's own cases.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use super::rust::{Budget, Libraries};
use super::verdict::Assessed;
use crate::exercise_data;
use crate::graded_cases::{CaseKind, Expected, Grading};
use crate::grader::build::Class;
use crate::grader::sandbox::Sandbox;
use crate::registry::GameInfo;

/// One check: whether it held, and what it says.
type Check = (bool, String);

/// The public cases of a game as a test file.
pub(crate) struct Suite {
    pub text: String,
    /// Each test's name and the functions its calls name (none for a
    /// session).
    pub functions: BTreeMap<String, BTreeSet<String>>,
}

/// What the file's tests share: a function case's calls, one a line as
/// `request<TAB>accepted<TAB>...`, and a session's replay, compared by the
/// level's graded events and whether the game ended early.
const HEAD: &str = r#"//! The public cases of the game, as `dev check` proves each mutant fails one.
#![allow(clippy::all)]
use boardkit::level::{Level, find};
use boardkit::program::Options as _;

fn calls(calls: &str) {
    for line in calls.lines() {
        let mut fields = line.split('\t').map(unescape);
        let request = fields.next().unwrap_or_default();
        let answer = harness::answer(&request);
        assert!(fields.any(|a| a == answer), "{request:?}: {answer:?}");
    }
}

/// A field as it was: `\t`, `\n`, `\r` and `\\` undone.
fn unescape(field: &str) -> String {
    let mut out = String::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        out.push(match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('t') => '\t',
                Some('n') => '\n',
                Some('r') => '\r',
                _ => '\\',
            },
            (c, false) => c,
        });
    }
    out
}

fn session(level: Level, args: &[&str], stdin: &[u8], expected: &[&str], failed: bool) {
    let events = find(harness::LEVELS, level)
        .and_then(|l| l.events())
        .expect("a level of sessions");
    let words: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let options = harness::PlayArgs::from_words(&words).expect("the session's options");
    let mut input: &[u8] = stdin;
    let mut output = Vec::new();
    let result = harness::play(&options, &mut input, &mut output);
    assert_eq!(events(&String::from_utf8_lossy(&output)), expected);
    assert_eq!(result.is_err(), failed);
}
"#;

/// The public cases of `game` (not hidden, not robustness) as one test
/// file, a test per case named as the grader names it.
pub(crate) fn suite(game: &GameInfo) -> Result<Suite, String> {
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    let mut functions = BTreeMap::new();
    let cases = crate::graded_cases::cases(game, Grading::Crates);
    for case in cases.iter().filter(|c| !c.hidden && !c.robustness) {
        let (module, name) = case
            .name
            .split_once("::")
            .ok_or_else(|| format!("the case {} has no level", case.name))?;
        if !is_identifier(name) {
            return Err(format!("the case {} is no Rust name", case.name));
        }
        let body = match (&case.kind, &case.expected) {
            (CaseKind::Functions { requests, .. }, Expected::Answers(accepted)) => {
                let called = requests
                    .iter()
                    .filter_map(|r| r.split(' ').next())
                    .map(str::to_owned);
                functions.insert(case.name.clone(), called.collect());
                format!("calls({:?});", call_lines(&case.name, requests, accepted)?)
            }
            (
                CaseKind::Program {
                    args,
                    stdin,
                    events,
                },
                Expected::Program { stdout, failed, .. },
            ) => {
                functions.insert(case.name.clone(), BTreeSet::new());
                format!(
                    "session(Level::{:?}, &{args:?}, &{stdin:?}, &{:?}, {failed});",
                    case.level,
                    events(stdout)
                )
            }
            _ => return Err(format!("the case {} has no answer of its kind", case.name)),
        };
        let tests = modules.entry(module.to_owned()).or_default();
        let _ = write!(
            tests,
            "\n    #[test]\n    fn {name}() {{\n        {body}\n    }}\n"
        );
    }
    if functions.is_empty() {
        return Err(format!("{} has no public case", game.id));
    }
    let mut text = format!("{HEAD}\nuse boardkit::harness::{} as harness;\n", game.id);
    for (module, tests) in modules {
        let _ = write!(text, "\nmod {module} {{\n    use super::*;\n{tests}}}\n");
    }
    Ok(Suite { text, functions })
}

fn is_identifier(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.chars().next().is_some_and(|c| !c.is_ascii_digit())
}

/// A function case's calls, one a line, each field escaped (a tab, a line
/// break in a request is data: `parse a<TAB>bcd`): refused where a call
/// accepts no answer.
fn call_lines(name: &str, requests: &[String], accepted: &[Vec<String>]) -> Result<String, String> {
    if requests.len() != accepted.len() {
        return Err(format!("{name}: its calls and answers differ in number"));
    }
    let mut lines = String::new();
    for (request, answers) in requests.iter().zip(accepted) {
        if answers.is_empty() {
            return Err(format!("{name}: the call {request:?} accepts no answer"));
        }
        let fields: Vec<String> = std::iter::once(request)
            .chain(answers)
            .map(|f| escape(f))
            .collect();
        lines.push_str(&fields.join("\t"));
        lines.push('\n');
    }
    Ok(lines)
}

/// `field` with `\`, tab, and line breaks escaped, as `unescape` in the
/// test file undoes.
fn escape(field: &str) -> String {
    field
        .replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// The name of the free function whose body holds the first `find` in
/// `text`: the last `fn NAME` before it, when it starts its line (a
/// method, or a function inside another, is none of the statement's).
pub(crate) fn enclosing_function(text: &str, find: &str) -> Option<String> {
    let at = text.find(find)?;
    let before = &text[..at];
    let start = before
        .match_indices("fn ")
        .filter(|(i, _)| *i == 0 || before[..*i].ends_with(char::is_whitespace))
        .last()?
        .0;
    let line = &before[before[..start].rfind('\n').map_or(0, |i| i + 1)..start];
    if !matches!(line, "" | "pub " | "pub(crate) ") {
        return None;
    }
    let name: String = before[start + 3..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// One mutant as the proof reads it: what it breaks, and the function
/// its change lies in.
pub(crate) struct Changed {
    pub breaks: String,
    pub function: Option<String>,
}

/// Each mutant of `game`, public then hidden (the order of
/// [`Libraries::build`]'s), with the function its change lies in.
fn mutants(game: &GameInfo) -> Result<Vec<Changed>, String> {
    let manifest = exercise_data::manifest(game.id).map_err(|e| e.to_string())?;
    let example = exercise_data::folder(&manifest.files.example);
    let public = exercise_data::mutations(game.id).map_err(|e| e.to_string())?;
    let hidden = exercise_data::hidden_mutations(game.id).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for m in public.mutation.iter().chain(&hidden) {
        let text = example
            .iter()
            .find(|(p, _)| *p == m.file)
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .ok_or_else(|| format!("the mutant '{}' changes no file of the example", m.breaks))?;
        out.push(Changed {
            breaks: m.breaks.clone(),
            function: enclosing_function(&text, &m.find),
        });
    }
    Ok(out)
}

/// Whether the public cases catch mutant `changed`, caught by the tests
/// `caught_by`: by any, or by its own function's where the cases call it.
pub(crate) fn judged(
    game: &str,
    changed: &Changed,
    caught_by: &[&str],
    functions: &BTreeMap<String, BTreeSet<String>>,
) -> Check {
    let own: Option<&String> = changed
        .function
        .as_ref()
        .filter(|f| functions.values().any(|called| called.contains(*f)));
    let through = |test: &&str| match own {
        Some(function) => functions.get(*test).is_some_and(|c| c.contains(function)),
        None => true,
    };
    let ok = caught_by.iter().any(through);
    let by = match own {
        Some(function) => format!(" through {function}'s own cases"),
        None => String::new(),
    };
    (
        ok,
        format!(
            "{game}: own tests: the mutant '{}' differs from the reference on promised input: the public cases catch it{by} (caught by: {})",
            changed.breaks,
            caught_by.join(", ")
        ),
    )
}

/// The proof for game `game`, over the libraries built for the other
/// suites: the public cases' file in `work`, judged.
pub(crate) fn proof(
    game: &GameInfo,
    (class, sandbox, libraries): (&Class<'_>, &Sandbox, &Libraries),
    work: &Path,
    budget: &Budget,
) -> Result<Vec<Check>, String> {
    let suite = suite(game)?;
    let changed = mutants(game)?;
    if changed.len() != libraries.versions.mutants.len() {
        return Err(format!(
            "{} mutants read, {} built",
            changed.len(),
            libraries.versions.mutants.len()
        ));
    }
    let source = work.join("public-cases.rs");
    std::fs::create_dir_all(work)
        .and_then(|()| std::fs::write(&source, &suite.text))
        .map_err(|e| e.to_string())?;
    let (tests, assessed) = libraries.run_suite(class, sandbox, &source, work, budget)?;
    Ok(checks(game.id, &tests, &suite, &changed, &assessed))
}

/// The proof's checks from the runs: every test valid, and each mutant
/// caught.
fn checks(
    game: &str,
    tests: &[String],
    suite: &Suite,
    changed: &[Changed],
    assessed: &Assessed,
) -> Vec<Check> {
    let listed: BTreeSet<&str> = tests.iter().map(String::as_str).collect();
    let written: BTreeSet<&str> = suite.functions.keys().map(String::as_str).collect();
    let mut checks = vec![(
        listed == written && assessed.invalid.is_empty(),
        format!(
            "{game}: own tests: the public cases, as a test file, pass on every correct version ({} tests; invalid: {:?})",
            tests.len(),
            assessed.invalid
        ),
    )];
    for (index, mutant) in changed.iter().enumerate() {
        let caught_by = assessed.caught_by(index);
        checks.push(judged(game, mutant, &caught_by, &suite.functions));
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn velha() -> &'static GameInfo {
        crate::registry::GAMES
            .iter()
            .find(|g| g.id == "velha")
            .unwrap()
    }

    #[test]
    fn the_suite_holds_the_public_cases_and_nothing_else() {
        let suite = suite(velha()).unwrap();
        let names: Vec<&str> = suite.functions.keys().map(String::as_str).collect();
        assert!(
            names.contains(&"basic::verifica_vencedor_9_every_board"),
            "{names:?}"
        );
        assert!(
            names.contains(&"advanced::lower_case_and_spaces"),
            "{names:?}"
        );
        // Neither the robustness part nor a hidden case is promised here.
        for left_out in [
            "megabyte_line",
            "invalid_utf8",
            "draw_hidden",
            "occupied_hidden",
        ] {
            assert!(!names.iter().any(|n| n.ends_with(left_out)), "{left_out}");
            assert!(
                !suite.text.contains(&format!("fn {left_out}(")),
                "{left_out}"
            );
        }
        assert!(
            suite
                .text
                .contains("use boardkit::harness::velha as harness;")
        );
        assert!(suite.text.contains("mod basic {") && suite.text.contains("mod advanced {"));
        let called = &suite.functions["basic::verifica_vencedor_9_every_board"];
        assert_eq!(called.iter().collect::<Vec<_>>(), ["verifica_vencedor_9"]);
        assert!(suite.functions["proficient::x_wins_row_a"].is_empty());
    }

    #[test]
    fn a_call_holding_a_tab_or_a_line_break_is_escaped() {
        let requests = ["parse a\tbcd".to_owned(), "parse x\\n\r\n".to_owned()];
        let accepted = [vec!["err 1".to_owned()], vec!["ok\t2".to_owned()]];
        let lines = call_lines("basic::parse", &requests, &accepted).unwrap();
        assert_eq!(lines, "parse a\\tbcd\terr 1\nparse x\\\\n\\r\\n\tok\\t2\n");
        assert!(call_lines("basic::parse", &requests, &[vec![], vec![]]).is_err());
    }

    #[test]
    fn a_change_is_placed_in_its_function() {
        let text = "pub fn verifica_vencedor(t: &T) -> char {\n    a(t)\n}\n\n\
                    pub fn verifica_vencedor_9(\n    a1: char,\n) -> char {\n    b(a1)\n}\n";
        assert_eq!(
            enclosing_function(text, "a(t)").as_deref(),
            Some("verifica_vencedor")
        );
        assert_eq!(
            enclosing_function(text, "b(a1)").as_deref(),
            Some("verifica_vencedor_9")
        );
        assert_eq!(enclosing_function(text, "absent"), None);
        let method =
            "pub fn score() {}\nimpl Shown {\n    pub fn score(&self) {\n        c()\n    }\n}\n";
        assert_eq!(enclosing_function(method, "c()"), None);
        // The kit's own velha mutants of the nine-argument form.
        let changed = mutants(velha()).unwrap();
        let nine = changed
            .iter()
            .filter(|c| c.function.as_deref() == Some("verifica_vencedor_9"))
            .count();
        assert!(nine >= 2, "{nine}");
    }

    #[test]
    fn a_mutant_only_unpromised_input_or_the_other_form_reveals_fails_the_proof() {
        let suite = suite(velha()).unwrap();
        let mutant = |breaks: &str, function: Option<&str>| Changed {
            breaks: breaks.into(),
            function: function.map(str::to_owned),
        };
        // Revealed by a robustness case alone (a megabyte line refused):
        // no public case fails on it.
        let long_lines = mutant("a megabyte line refused", Some("lire_ligne"));
        assert!(!judged("velha", &long_lines, &[], &suite.functions).0);
        // A nine-argument form's mutant the list form's cases or a session
        // catch, but not its own cases: a student may test only that form.
        let nine = mutant(
            "a nine-argument form that forgets C3",
            Some("verifica_vencedor_9"),
        );
        let others = [
            "basic::verifica_vencedor_every_board",
            "proficient::x_wins_row_a",
        ];
        assert!(!judged("velha", &nine, &others, &suite.functions).0);
        // Caught through its own cases: proved.
        let own = ["basic::verifica_vencedor_9_named_boards"];
        assert!(judged("velha", &nine, &own, &suite.functions).0);
        // A change outside the named functions: any public case will do.
        let board = mutant("a missing diagonal", Some("lines"));
        assert!(
            judged(
                "velha",
                &board,
                &["proficient::x_wins_row_a"],
                &suite.functions
            )
            .0
        );
        // The runs: a test invalid on a correct version counts for nothing.
        let mut assessed = Assessed {
            failed_on: vec![BTreeSet::from([
                "basic::verifica_vencedor_9_named_boards".into()
            ])],
            ..Assessed::default()
        };
        let tests: Vec<String> = suite.functions.keys().cloned().collect();
        assert!(
            checks("velha", &tests, &suite, &[nine], &assessed)
                .iter()
                .all(|c| c.0)
        );
        assessed.invalid.insert(
            "basic::verifica_vencedor_9_named_boards".into(),
            "it fails on the reference".into(),
        );
        let nine = mutant(
            "a nine-argument form that forgets C3",
            Some("verifica_vencedor_9"),
        );
        assert!(
            checks("velha", &tests, &suite, &[nine], &assessed)
                .iter()
                .all(|c| !c.0)
        );
    }
}
