//! `boardkit verify DIR`: a package checked as Kattis's `verifyproblem`
//! checks a problem. The schema (read by [`super::load`]), then: every
//! cited rule stated in every locale and every rule cited; the reference
//! (each language it has) passing every case as blessed; each submission
//! and mutant reaching exactly its declared level; the generated stub
//! failing every level; each case that accepts several answers passed
//! with another than the reference's; no hidden case or input in a
//! starter; each case's
//! time limit, from the reference's time.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use super::run::{self, Built};
use super::words::Words;
use super::{Case, CaseKind, Language, Package};
use crate::grader::sandbox::{Limits, Sandbox};

/// One check's outcome: what it checked, and each problem it found.
#[derive(Debug)]
pub(crate) struct Check {
    pub what: String,
    pub problems: Vec<String>,
}

/// Every check of `package`, in order.
pub(crate) fn verify(package: &Package, sandbox: &Sandbox, scratch: &Path) -> Vec<Check> {
    let mut checks = vec![rules(package)];
    let mut limits = Vec::new();
    // The answers each correct solution gave: the references' first.
    let mut answers = Vec::new();
    for (language, folder) in [
        (Language::Rust, &package.reference.rust),
        (Language::Python, &package.reference.python),
    ] {
        let Some(folder) = folder else { continue };
        let what = format!("the {language} reference passes every case as blessed");
        let outcome = level_of(
            package,
            language,
            folder,
            sandbox,
            &scratch.join("reference"),
            Runs::Every,
        );
        let mut problems = outcome.failures.clone();
        if !problems.is_empty() {
            // A case changed after bless (a step's argument, a call's
            // input) disagrees with its old answers, the reference's own.
            problems.push(
                "where the reference is right: a case changed since it was blessed (`boardkit bless` writes its answers again), or a call's `accept` misses the reference's answer (bless leaves `accept` alone: add it by hand); else the reference is wrong, or the Rust and Python references disagree"
                    .into(),
            );
        }
        if let Some(e) = outcome.unbuilt {
            problems.push(e);
        }
        limits.extend(outcome.cpu.iter().map(|(name, cpu)| (name.clone(), *cpu)));
        answers.push(outcome.answers);
        checks.push(Check { what, problems });
    }
    // Both languages' stubs: a starter can be written in either.
    for language in [Language::Rust, Language::Python] {
        checks.push(stub_check(package, language, sandbox, scratch));
    }
    for submission in &package.submissions {
        let (check, passed) = submission_check(package, submission, sandbox, scratch);
        checks.push(check);
        answers.push(passed);
    }
    checks.push(alternatives_accepted(package, &answers));
    checks.push(a_bug_is_caught(package));
    checks.push(python_names(package));
    checks.push(starter_check(package, scratch));
    checks.push(starters_compile(package, scratch));
    checks.push(time_limits(package, &limits));
    checks
}

/// A package whose every submission is right proves nothing of its
/// cases: a wrong submission or a mutant (a level below the top, or none)
/// shows that they catch a bug, as Kattis's `wrong_answer` submissions do.
fn a_bug_is_caught(package: &Package) -> Check {
    let top = package.levels.len().checked_sub(1);
    let wrong = package.submissions.iter().any(|s| s.reaches < top);
    let problems = if wrong {
        Vec::new()
    } else {
        vec![format!(
            "{}: no wrong submission or mutant, so nothing shows that the cases catch a bug: add one that reaches a level below {} (`reaches` in its submission.toml; docs/authors.md, \"Case files\")",
            package.root.display(),
            package.levels.last().map_or("the top", String::as_str)
        )]
    };
    Check {
        what: "a wrong submission or mutant shows the cases catch a bug".into(),
        problems,
    }
}

/// A student's Python file named as one of Python's own modules
/// (`fractions`, `random`) hides that module from them: their
/// `from fractions import Fraction` would read their own file. Asked of
/// the `python3` here (3.10 and later know their modules' names).
fn python_names(package: &Package) -> Check {
    let mut names = vec![package.python.module.clone()];
    if let Some(script) = &package.python.program {
        names.push(script.trim_end_matches(".py").to_owned());
    }
    let asked = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys; print(*[n for n in sys.argv[1:] if n in getattr(sys, 'stdlib_module_names', ())])",
        ])
        .args(&names)
        .output();
    let problems = match asked {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(|name| {
                format!(
                    "`{name}.py` is named as a module of Python's own: a student's `import {name}` would read their file; name the exercise, or `[python] module`, otherwise"
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    Check {
        what: "no Python file of the student's is named as a module of Python's own".into(),
        problems,
    }
}

/// The rule anchors (`<a id="rule-3"></a>`) a statement holds.
pub(crate) fn anchors(text: &str) -> BTreeSet<u32> {
    text.match_indices("id=\"rule-")
        .filter_map(|(at, found)| {
            let rest = &text[at + found.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

fn rules(package: &Package) -> Check {
    let mut problems = Vec::new();
    let cited: BTreeSet<u32> = package.cases.iter().map(|c| c.rule).collect();
    for (locale, path) in &package.statements {
        let text = std::fs::read_to_string(path)
            .map(|t| anchors(&t))
            .unwrap_or_default();
        for case in &package.cases {
            if !text.contains(&case.rule) {
                problems.push(format!(
                    "{}: rule {} is not in the {locale} statement ({}): expected `<a id=\"rule-{}\"></a>` there",
                    case.file.display(), case.rule, path.display(), case.rule
                ));
            }
        }
        for rule in text.difference(&cited) {
            problems.push(format!(
                "{}: rule {rule} is stated and no case checks it",
                path.display()
            ));
        }
    }
    Check {
        what: "every cited rule is stated in every locale, and every rule is cited".into(),
        problems,
    }
}

/// What a solution reached.
struct Reached {
    /// The highest level every case up to which passes (an index).
    level: Option<usize>,
    failures: Vec<String>,
    /// Levels with a failed case.
    failed_levels: BTreeSet<usize>,
    unbuilt: Option<String>,
    cpu: Vec<(String, Duration)>,
    /// The answers of each function case it passed, by the case's name.
    answers: BTreeMap<String, Vec<serde_json::Value>>,
}

/// How many cases a run needs to settle what it checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runs {
    /// Every case: a reference, which must pass them all.
    Every,
    /// A case of each level until one fails there, robustness aside: a
    /// stub, which must fail every level.
    EachLevel,
    /// Cases level by level until the first failure, robustness aside: a
    /// submission's level (the cases above it cannot change it).
    UntilFailure,
}

fn level_of(
    package: &Package,
    language: Language,
    folder: &Path,
    sandbox: &Sandbox,
    scratch: &Path,
    runs: Runs,
) -> Reached {
    let cases: Vec<&Case> = package.cases.iter().collect();
    let mut reached = Reached {
        level: None,
        failures: Vec::new(),
        failed_levels: BTreeSet::new(),
        unbuilt: None,
        cpu: Vec::new(),
        answers: BTreeMap::new(),
    };
    let built: Built = match run::prepare(package, language, folder, scratch, sandbox) {
        Ok(built) => built,
        Err(e) => {
            reached.failed_levels = (0..package.levels.len()).collect();
            reached.unbuilt = Some(e);
            return reached;
        }
    };
    let mut session = sandbox.session();
    for case in &cases {
        let settled = reached.failed_levels.contains(&case.level)
            || (runs == Runs::UntilFailure && !reached.failed_levels.is_empty());
        if runs != Runs::Every && (case.robustness || settled) {
            continue;
        }
        let ran = run::run_case(package, &built, case, &mut session, &Limits::default());
        reached.cpu.push((case.test_name(package), ran.cpu));
        let judged = run::judge(package, case, &ran);
        if judged.is_ok() && matches!(case.kind, CaseKind::Calls { .. }) {
            reached
                .answers
                .insert(case.name.clone(), ran.answers.clone());
        }
        if let Err(why) = judged {
            // A robustness case counts in the score, in no level.
            if !case.robustness {
                reached.failed_levels.insert(case.level);
            }
            // A call's own line, where the failure is a call's.
            let at = run::failed_call_line(package, case, &ran)
                .map_or_else(String::new, |line| format!(":{line}"));
            reached.failures.push(format!(
                "{} ({}{at}): {why}",
                case.test_name(package),
                case.file.display()
            ));
        }
    }
    reached.level = (0..package.levels.len())
        .take_while(|l| !reached.failed_levels.contains(l))
        .last();
    reached
}

fn level_name(package: &Package, level: Option<usize>) -> &str {
    level.map_or("none", |l| package.levels[l].as_str())
}

fn stub_check(package: &Package, language: Language, sandbox: &Sandbox, scratch: &Path) -> Check {
    let folder = scratch.join("stub-source");
    let _ = std::fs::remove_dir_all(&folder);
    let written = std::fs::create_dir_all(&folder).and_then(|()| match language {
        Language::Rust => std::fs::write(
            folder.join("mod.rs"),
            super::rust::stub(package, &Words::of("en")),
        ),
        Language::Python => super::python::stubs(package, &Words::of("en"))
            .into_iter()
            .try_for_each(|(file, text)| std::fs::write(folder.join(file), text)),
    });
    let mut problems = Vec::new();
    if let Err(e) = written {
        problems.push(format!("cannot write the stub: {e}"));
    }
    let reached = level_of(
        package,
        language,
        &folder,
        sandbox,
        &scratch.join("stub"),
        Runs::EachLevel,
    );
    if let Some(e) = &reached.unbuilt {
        problems.push(format!("the stub does not build: {e}"));
    }
    for (index, level) in package.levels.iter().enumerate() {
        if !package
            .cases
            .iter()
            .any(|c| c.level == index && !c.robustness)
        {
            problems.push(format!(
                "{level} has no case: add one, or leave the level out of `levels`"
            ));
        } else if !reached.failed_levels.contains(&index) {
            problems.push(format!(
                "the stub passes every case of {level}: add a case it fails"
            ));
        }
    }
    Check {
        what: format!("the generated {language} stub fails every level"),
        problems,
    }
}

/// A case that accepts several answers to a call (`accept`) is proved to
/// accept them: a submission passes it with another answer than the
/// reference's, as Kattis asks of a checker. Without one, nothing shows
/// the property is graded as a property, and a student's own test that
/// asserts the reference's answer passes every correct version there is.
fn alternatives_accepted(
    package: &Package,
    answers: &[BTreeMap<String, Vec<serde_json::Value>>],
) -> Check {
    let mut problems = Vec::new();
    for case in &package.cases {
        let CaseKind::Calls { calls, .. } = &case.kind else {
            continue;
        };
        let several: Vec<usize> = (0..calls.len())
            .filter(|&i| calls[i].accept.as_ref().is_some_and(|a| a.len() > 1))
            .collect();
        let (Some(reference), false) = (answers.first(), several.is_empty()) else {
            continue;
        };
        let Some(theirs) = reference.get(&case.name) else {
            continue;
        };
        let other = answers[1..]
            .iter()
            .filter_map(|a| a.get(&case.name))
            .any(|a| {
                several
                    .iter()
                    .any(|&i| a.get(i).is_some_and(|v| Some(v) != theirs.get(i)))
            });
        if !other {
            problems.push(format!(
                "{}: its calls accept several answers, and no submission passes it with another answer than the reference's: add one that does, another right answer (docs/authors.md, `accept`)",
                case.file.display()
            ));
        }
    }
    Check {
        what: "each case that accepts several answers is passed with another than the reference's"
            .into(),
        problems,
    }
}

fn submission_check(
    package: &Package,
    submission: &super::Submission,
    sandbox: &Sandbox,
    scratch: &Path,
) -> (Check, BTreeMap<String, Vec<serde_json::Value>>) {
    let kind = if submission.mutant {
        "mutant"
    } else {
        "submission"
    };
    let declared = level_name(package, submission.reaches);
    let mut problems = Vec::new();
    let folder = submission
        .folder(&scratch.join("patched"))
        .unwrap_or_else(|e| {
            problems.push(e);
            submission.dir.clone()
        });
    let reached = level_of(
        package,
        submission.language,
        &folder,
        sandbox,
        &scratch.join("submission"),
        Runs::UntilFailure,
    );
    if reached.level != submission.reaches {
        let mut why = format!(
            "{}: reaches {}, declared {declared}",
            submission.file.display(),
            level_name(package, reached.level)
        );
        // Higher than declared: no case at the level above catches it.
        if reached.level > submission.reaches {
            let above = submission.reaches.map_or(0, |l| l + 1);
            why.push_str(&format!(
                "\n    no case of {} catches its bug: add one that does, or declare `reaches = \"{}\"`",
                package.levels.get(above).map_or("the level above", String::as_str),
                level_name(package, reached.level)
            ));
        }
        // A build's error is said once, below, with what it means.
        for failure in reached.failures.iter().take(3) {
            why.push_str(&format!("\n    {failure}"));
        }
        problems.push(why);
    }
    if let Some(e) = unbuilt(&reached) {
        // A submission that never runs shows no bug, whatever its level.
        problems.push(format!(
            "{}: it does not build, so it shows no bug: make it build (a wrong submission's bug is in what it answers)\n    {e}",
            submission.file.display()
        ));
    }
    let why = match submission.description.trim() {
        "" => String::new(),
        d => format!(": {d}"),
    };
    let check = Check {
        what: format!(
            "the {kind} {} ({}) reaches {declared}{why}",
            submission.name, submission.language
        ),
        problems,
    };
    (check, reached.answers)
}

/// Why a version never ran: a Rust build that failed, or Python that
/// does not read or imports what is not there (not the stub's
/// `NotImplementedError`, which is a function still to write).
fn unbuilt(reached: &Reached) -> Option<String> {
    if let Some(e) = &reached.unbuilt {
        return Some(e.clone());
    }
    let never_ran = super::NEVER_RAN
        .iter()
        .filter(|name| **name != "NotImplementedError");
    let marks: Vec<String> = never_ran.map(|name| format!("{name}: ")).collect();
    reached.failures.iter().find_map(|failure| {
        failure
            .lines()
            .find(|l| marks.iter().any(|mark| l.contains(mark.as_str())))
            .map(|l| l.trim().to_owned())
    })
}

/// A starter in each language holds no hidden case's name and no hidden
/// call or session.
fn starter_check(package: &Package, scratch: &Path) -> Check {
    let mut problems = Vec::new();
    let mut text = String::new();
    for language in [Language::Rust, Language::Python] {
        let dir = scratch.join(format!("starter-{language}"));
        let _ = std::fs::remove_dir_all(&dir);
        match super::starter::write(package, &dir, language, None) {
            Ok(files) => {
                for file in files {
                    text.push_str(&std::fs::read_to_string(dir.join(file)).unwrap_or_default());
                }
            }
            Err(e) => problems.push(format!("cannot write a {language} starter: {e}")),
        }
    }
    for case in package.cases.iter().filter(|c| c.hidden) {
        let named = [
            format!("fn {}(", case.name),
            format!("def test_{}(", case.name),
            format!("\"{}\"", case.name),
        ];
        if named.iter().any(|n| text.contains(n.as_str())) {
            problems.push(format!(
                "{}: a starter names the hidden case {}",
                case.file.display(),
                case.name
            ));
        }
    }
    problems.extend(hidden_calls_held(package, &text));
    Check {
        what: "no starter holds a hidden case".into(),
        problems,
    }
}

/// Each hidden call (its arguments in no public call) a starter's `text`
/// shows, as either language writes it: found in one pass over the text,
/// for a package of tens of thousands of calls.
fn hidden_calls_held(package: &Package, text: &str) -> Vec<String> {
    let key = |args: &[toml::Value]| toml::Value::Array(args.to_vec()).to_string();
    let public: BTreeSet<String> = package
        .cases
        .iter()
        .filter(|c| !c.hidden)
        .filter_map(|c| match &c.kind {
            CaseKind::Calls { calls, .. } => Some(calls),
            CaseKind::Session { .. } => None,
        })
        .flatten()
        .map(|call| key(&call.args))
        .collect();
    let mut hidden = Vec::new();
    for case in package.cases.iter().filter(|c| c.hidden) {
        let CaseKind::Calls { function, calls } = &case.kind else {
            continue;
        };
        let f = &package.functions[*function];
        for call in calls.iter().filter(|c| !public.contains(&key(&c.args))) {
            for language in [Language::Rust, Language::Python] {
                let shown = run::shown_call(package, f, &call.args, language);
                hidden.push((case, call.line, shown));
            }
        }
    }
    let Ok(finder) = aho_corasick::AhoCorasick::new(hidden.iter().map(|(_, _, s)| s)) else {
        return vec!["cannot search the starters for hidden calls".into()];
    };
    let found: BTreeSet<usize> = finder
        .find_overlapping_iter(text)
        .map(|m| m.pattern().as_usize())
        .collect();
    found
        .into_iter()
        .map(|i| {
            let (case, line, shown) = &hidden[i];
            format!(
                "{}:{line}: a starter holds the hidden call {shown}",
                case.file.display()
            )
        })
        .collect()
}

/// The starters `starter_check` wrote compile: the Rust one's tests
/// (`cargo test --no-run`, nothing of the package runs) and the Python
/// one's files (`py_compile`). Without cargo or python3, that language's
/// starter is said unchecked.
fn starters_compile(package: &Package, scratch: &Path) -> Check {
    let mut problems = Vec::new();
    let mut unchecked = Vec::new();
    let rust = scratch.join(format!("starter-{}", Language::Rust));
    let mut cargo = std::process::Command::new("cargo");
    // As a student's machine builds it, warnings refused (a starter has
    // none): no wrapper or flags of the caller's own build.
    cargo
        .args(["test", "--no-run", "--offline", "-q"])
        .current_dir(&rust)
        .env("CARGO_TARGET_DIR", scratch.join("starter-target"))
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    let python = scratch.join(format!("starter-{}", Language::Python));
    let mut files = package.python.files();
    files.push(format!("test_{}.py", package.name));
    // The own tests' file, named in the starter's locale.
    files.extend(
        super::grade::own_tests_files()
            .into_iter()
            .filter(|name| python.join(name).is_file()),
    );
    let mut compile = std::process::Command::new("python3");
    compile
        .args(["-B", "-m", "py_compile"])
        .args(&files)
        .current_dir(&python);
    for (language, mut command) in [("Rust", cargo), ("Python", compile)] {
        match command.output() {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                let said = String::from_utf8_lossy(&out.stderr);
                let first: Vec<&str> = said.lines().take(12).collect();
                problems.push(format!(
                    "the {language} starter's tests do not compile:\n{}",
                    first.join("\n")
                ));
            }
            Err(_) => unchecked.push(language),
        }
    }
    let what = match unchecked.as_slice() {
        [] => "the Rust and Python starters compile".to_owned(),
        missing => {
            let tools: Vec<&str> = missing
                .iter()
                .map(|l| if *l == "Rust" { "cargo" } else { "python3" })
                .collect();
            format!(
                "the starters compile ({} unchecked: no {} here)",
                missing.join(", "),
                tools.join(" or ")
            )
        }
    };
    Check { what, problems }
}

/// Each case's CPU limit, from the reference's time on it (the grader's
/// margin over it, and never under the kit's floor).
fn time_limits(package: &Package, cpu: &[(String, Duration)]) -> Check {
    let slowest = cpu.iter().max_by_key(|(_, d)| *d);
    let what = match slowest {
        Some((name, d)) => format!(
            "time limits: {} s of CPU per case (the slowest, {name}, took the reference {} ms)",
            boardkit::judge::case_cpu(*d).as_secs(),
            d.as_millis()
        ),
        None => "time limits: no case ran".into(),
    };
    let _ = package;
    Check {
        what,
        problems: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A starter that shows a hidden call's arguments is caught, in
    /// either language's writing; one that shows only public calls is not.
    #[test]
    fn a_hidden_call_in_a_starter_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("demo");
        super::super::scaffold::write("demo", &root).expect("a new package");
        let package = super::super::load::load(&root).expect("it loads");
        let (function, call) = package
            .cases
            .iter()
            .filter(|c| c.hidden)
            .find_map(|c| match &c.kind {
                CaseKind::Calls { function, calls } => Some((*function, &calls[0])),
                CaseKind::Session { .. } => None,
            })
            .expect("a new package has a hidden call");
        let f = &package.functions[function];
        assert!(hidden_calls_held(&package, "").is_empty());
        for language in [Language::Rust, Language::Python] {
            let shown = run::shown_call(&package, f, &call.args, language);
            let found = hidden_calls_held(&package, &format!("x = {shown}\n"));
            assert_eq!(found.len(), 1, "{shown}: {found:?}");
            assert!(found[0].contains("holds the hidden call"), "{found:?}");
        }
    }
}
