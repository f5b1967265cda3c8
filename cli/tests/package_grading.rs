//! Exercise packages (docs/authors.md), from the binary, the long part:
//! `verify` fails a package that lies (a submission whose level is not the
//! one it declares, an answer the reference does not give, a rule never
//! stated); `bless` writes the reference's answers; starters in Rust and
//! Python fail on the stub and pass with the reference; classes graded in
//! Python and Rust, students' habits included; a variant; and each package
//! written from its statement alone (`cli/tests/data/packages/`) through
//! every step.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::package_support::*;

#[test]
fn verify_fails_a_package_that_lies() {
    let lies: [(&str, &str, &str, &str); 5] = [
        // A wrong submission declared to reach the top level.
        (
            "submissions/says_sum/submission.toml",
            "reaches = \"basic\"",
            "reaches = \"proficient\"",
            "reaches basic, declared proficient",
        ),
        // One declared below what it reaches: which case should catch it.
        (
            "submissions/says_sum/submission.toml",
            "reaches = \"basic\"",
            "reaches = \"none\"",
            "reaches basic, declared none\n    no case of basic catches its bug: add one that does, or declare `reaches = \"basic\"`",
        ),
        // A blessed answer the reference does not give, at its call's
        // line.
        (
            "cases/total_small.toml",
            "expect = 6",
            "expect = 7",
            "total_small.toml:7): demo::total(&[1_i64, 2_i64, 3_i64]) returned 6, expected 7",
        ),
        // A rule cited and never stated.
        (
            "cases/total_small.toml",
            "rule = 1",
            "rule = 3",
            "rule 3 is not in the en statement",
        ),
        // A session's expected line the reference does not print.
        (
            "cases/three_numbers.toml",
            "\"Total: 12\"",
            "\"Total: 13\"",
            "expected \"Total: 13\"",
        ),
    ];
    for (file, from, to, why) in lies {
        let (_dir, package) = new_package();
        edit(&package.join(file), from, to);
        let output = checked("verify", &package);
        let text = said(&output);
        assert_eq!(output.status.code(), Some(1), "{file}: {text}");
        assert!(
            text.contains("FAILED") && text.contains(why),
            "{why}: {text}"
        );
    }
    never_running_submissions_show_no_bug();
    no_wrong_submission_proves_nothing();
    a_module_named_as_pythons_own_is_refused();
}

/// A student's module named `random` would hide Python's own from them.
fn a_module_named_as_pythons_own_is_refused() {
    let (_dir, package) = new_package();
    for folder in ["reference/python", "submissions/says_sum"] {
        let folder = package.join(folder);
        std::fs::rename(folder.join("demo.py"), folder.join("random.py")).unwrap();
    }
    edit(
        &package.join("exercise.toml"),
        "[reference]",
        "[python]\nmodule = \"random\"\n\n[reference]",
    );
    let output = checked("verify", &package);
    let text = said(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("`random.py` is named as a module of Python's own"),
        "{text}"
    );
}

/// A package whose every submission is right (here, none at all) shows no
/// case catching a bug: refused, saying what to add.
fn no_wrong_submission_proves_nothing() {
    let (_dir, package) = new_package();
    std::fs::remove_dir_all(package.join("submissions/says_sum")).unwrap();
    let output = checked("verify", &package);
    let text = said(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAILED: a wrong submission or mutant shows the cases catch a bug")
            && text.contains("no wrong submission or mutant"),
        "{text}"
    );
}

/// A wrong submission declared to reach no level that never runs (Python
/// that does not read, a Rust patch that does not compile) reaches none
/// as declared, and shows no bug: refused.
fn never_running_submissions_show_no_bug() {
    let (_dir, package) = new_package();
    let says_sum = package.join("submissions/says_sum");
    edit(
        &says_sum.join("submission.toml"),
        "reaches = \"basic\"",
        "reaches = \"none\"",
    );
    edit(&says_sum.join("demo.py"), "def play():", "def play()");
    let typo = package.join("submissions/typo");
    std::fs::create_dir_all(&typo).unwrap();
    std::fs::write(
        typo.join("submission.toml"),
        "language = \"rust\"\nreaches = \"none\"\n\n[[patch]]\nfile = \"mod.rs\"\nfind = \"numbers.iter().sum()\"\nreplace = \"numbers.iter().sum() +\"\n",
    )
    .unwrap();
    // Declared to reach a level, too: its build's error is said once.
    let unknown = package.join("submissions/unknown_name");
    std::fs::create_dir_all(&unknown).unwrap();
    std::fs::write(
        unknown.join("submission.toml"),
        "language = \"rust\"\nreaches = \"basic\"\n\n[[patch]]\nfile = \"mod.rs\"\nfind = \"numbers.iter().sum()\"\nreplace = \"undefined_name\"\n",
    )
    .unwrap();
    let output = checked("verify", &package);
    let text = said(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert_eq!(
        text.matches("cannot find value `undefined_name`").count(),
        1,
        "{text}"
    );
    for (file, why) in [
        ("says_sum/submission.toml", "SyntaxError"),
        ("typo/submission.toml", "does not build"),
        (
            "unknown_name/submission.toml",
            "reaches none, declared basic",
        ),
    ] {
        let line = text
            .lines()
            .find(|l| l.contains(file) && l.contains("it does not build, so it shows no bug"));
        assert!(line.is_some(), "{file}: {text}");
        assert!(text.contains(why), "{why}: {text}");
    }
}

#[test]
fn bless_writes_the_references_answers_and_keeps_the_comments() {
    let (_dir, package) = new_package();
    let case = package.join("cases/total_small.toml");
    edit(&case, "expect = 6", "# the sum\nexpect = 0");
    edit(
        &case,
        "args = [[]]\nexpect = 0",
        "args = [[]]\nexpect = 99  # none: 0",
    );
    edit(
        &package.join("cases/three_numbers.toml"),
        "\"Total: 12\"",
        "\"Total: 0\"",
    );
    assert!(!checked("verify", &package).status.success());
    let output = checked("bless", &package);
    assert!(output.status.success(), "{}", said(&output));
    let text = std::fs::read_to_string(&case).unwrap();
    assert!(text.contains("# the sum\nexpect = 6"), "{text}");
    assert!(text.contains("expect = 0  # none: 0"), "{text}");
    assert!(checked("verify", &package).status.success());
}

#[test]
fn a_packages_starters_fail_on_the_stub_and_pass_with_the_reference() {
    let (_dir, package) = new_package();
    let (starters, failed) = starters_fail_then_pass(&package);
    assert!(
        said(&failed).contains("basic::total_small"),
        "{}",
        said(&failed)
    );
    let python = starters.path().join("python");
    // Each language's starter gives its own hints, and those for both.
    for (language, own, other) in [
        ("python", "Python's `sum`", "an iterator's"),
        ("rust", "an iterator's `sum()`", "Python's"),
    ] {
        for file in ["README.md", "tests/hints.toml"] {
            let text = std::fs::read_to_string(starters.path().join(language).join(file)).unwrap();
            assert!(
                text.contains(own) && !text.contains(other) && text.contains("reads lines until"),
                "{language} {file}: {text}"
            );
        }
    }
    for file in ["demo.py", "test_demo.py", "STATEMENT.md", "README.md"] {
        let text = std::fs::read_to_string(python.join(file)).unwrap();
        assert!(
            !text.contains("total_negative") && !text.contains("-4, 10, -1"),
            "{file}: a hidden case"
        );
    }
    let source = std::fs::read_to_string(starters.path().join("rust/tests/demo.rs")).unwrap();
    assert!(
        !source.contains("total_negative"),
        "the Rust starter names a hidden case"
    );
}

#[test]
fn a_class_is_graded_on_a_package_in_python() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    let student = |name: &str, source: &Path| {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(source, folder.join("demo.py")).unwrap();
        folder
    };
    let top = student("ana", &package.join("reference/python/demo.py"));
    let basic = student("bruno", &package.join("submissions/says_sum/demo.py"));
    let empty = class.join("carla");
    std::fs::create_dir_all(&empty).unwrap();
    let out = dir.path().join("out");
    let output = grade(&package, &out, &[top, basic, empty], true);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    assert_eq!(
        rows[0], "submission,basic,proficient,score,max_score,level",
        "{rows:?}"
    );
    assert!(
        rows.contains(&"ana,2,2,4,4,proficient".to_owned()),
        "{rows:?}"
    );
    assert!(rows.contains(&"bruno,2,0,2,4,basic".to_owned()), "{rows:?}");
    assert!(rows.contains(&"carla,0,0,0,4,none".to_owned()), "{rows:?}");
    let feedback = std::fs::read_to_string(out.join("students/bruno/feedback.md")).unwrap();
    assert!(
        feedback.contains("Total: 12"),
        "a public case's difference: {feedback}"
    );
    assert!(out.join("similarity.csv").is_file() && out.join("report.html").is_file());
    let listed = boardkit()
        .args(["grade", "--exercise"])
        .arg(&package)
        .arg("--list-cases")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&listed.stdout)
            .contains("basic::total_negative  1 point, hidden, rule 1"),
        "{}",
        said(&listed)
    );
    let results = std::fs::read_to_string(out.join("students/ana/results.json")).unwrap();
    assert!(
        results.contains("after_published") && !results.contains("-4, 10, -1"),
        "{results}"
    );
}

/// A class of crates made from the package's starter, graded with style
/// points: the stub's `todo!`s are noted.
#[test]
fn a_class_of_crates_is_graded_on_a_package_with_style_points() {
    let (dir, package) = new_package();
    let crates = dir.path().join("crates");
    let starter = |name: &str, reference: bool| {
        let folder = crates.join(name);
        made_starter(&package, &folder, &[]);
        if reference {
            std::fs::copy(
                package.join("reference/rust/mod.rs"),
                folder.join("src/demo/mod.rs"),
            )
            .unwrap();
        }
        folder
    };
    let right = starter("dora", true);
    let stub = starter("edu", false);
    let broken = starter("fred", true);
    let outside = starter("gus", true);
    helper_outside_the_folder(&outside);
    edit(
        &broken.join("src/demo/mod.rs"),
        "numbers.iter().sum()",
        "numbers.iter().sum() +",
    );
    let out = dir.path().join("out-rust");
    let output = grade_with(
        &package,
        &out,
        &[right, stub.clone(), broken, outside],
        false,
        &["--style-points", "3"],
    );
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    assert_eq!(
        rows[0], "submission,basic,proficient,style,score,max_score,level",
        "{rows:?}"
    );
    assert!(rows.iter().any(|r| r.starts_with("dora,2,2,")), "{rows:?}");
    // The stub's `todo!`s are noted, and cost a style point; no note asks
    // a package's code for a board game's enum.
    assert!(rows.contains(&"edu,0,0,2,2,7,none".to_owned()), "{rows:?}");
    table_shows_the_style(&output);
    let feedback = std::fs::read_to_string(out.join("students/edu/feedback.md")).unwrap();
    assert!(!feedback.contains("enum"), "{feedback}");
    // At the stub's first `todo!`, wherever its doc puts it.
    let first = std::fs::read_to_string(stub.join("src/demo/mod.rs"))
        .unwrap()
        .lines()
        .position(|l| l.contains("todo!"))
        .unwrap()
        + 1;
    assert!(
        feedback.contains(&format!("src/demo/mod.rs:{first}")),
        "{feedback}"
    );
    // A failed session says how to run it again in the crate.
    assert!(
        feedback.contains(
            "reproduce it: cargo test --test demo proficient::three_numbers\nor play it: printf '3\\n4\\nx\\n5\\n' | cargo run -q --"
        ),
        "{feedback}"
    );
    // A build's error once, under the first case; the others point to it.
    let fred = std::fs::read_to_string(out.join("students/fred/feedback.md")).unwrap();
    assert_eq!(
        fred.matches("error: expected expression").count(),
        1,
        "{fred}"
    );
    assert!(
        fred.contains("the same error as basic::total_small"),
        "{fred}"
    );
    let gus = std::fs::read_to_string(out.join("students/gus/feedback.md")).unwrap();
    assert!(
        gus.contains("only src/demo/ is graded") && gus.contains("src/demo/mod.rs"),
        "{gus}"
    );
    assert!(!gus.contains("/build/"), "{gus}");
}

/// A crate whose student folder calls a helper module outside it (in
/// `src/util.rs`): not in the crate the grader builds, which says so.
/// The terminal's table shows the style beside the levels, as the CSV:
/// the columns add up to the score.
fn table_shows_the_style(output: &std::process::Output) {
    let table = String::from_utf8_lossy(&output.stdout);
    let edu: Vec<&str> = table
        .lines()
        .find(|l| l.starts_with("edu "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(edu, ["edu", "0/2", "0/2", "2/3", "2/7", "none"], "{table}");
}

fn helper_outside_the_folder(crate_dir: &Path) {
    std::fs::write(
        crate_dir.join("src/util.rs"),
        "pub fn twice(n: i64) -> i64 { 2 * n }\n",
    )
    .unwrap();
    let lib = std::fs::read_to_string(crate_dir.join("src/lib.rs")).unwrap();
    std::fs::write(
        crate_dir.join("src/lib.rs"),
        format!("{lib}pub mod util;\n"),
    )
    .unwrap();
    edit(
        &crate_dir.join("src/demo/mod.rs"),
        "numbers.iter().sum()",
        "crate::util::twice(numbers.iter().sum()) / 2",
    );
}

#[test]
fn a_variant_extends_a_package_with_its_own_levels_points_and_cases() {
    let (dir, package) = new_package();
    let variant = dir.path().join("demo_basic");
    std::fs::create_dir_all(variant.join("cases")).unwrap();
    std::fs::create_dir_all(variant.join("statement")).unwrap();
    std::fs::write(
        variant.join("exercise.toml"),
        "format = 1\nname = \"demo\"\nextends = \"../demo\"\ntitle = \"Demo, the functions\"\nlevels = [\"basic\"]\n\n[statement]\nen = \"statement/en.md\"\n\n[points]\ntotal_small = 5\n",
    )
    .unwrap();
    std::fs::write(
        variant.join("statement/en.md"),
        "# Demo\n\n<a id=\"rule-1\"></a>**Rule 1.** `total(numbers)` is their sum.\n",
    )
    .unwrap();
    std::fs::write(
        variant.join("cases/total_one.toml"),
        "level = \"basic\"\nrule = 1\ndescription = \"one number\"\nfunction = \"total\"\n\n[[call]]\nargs = [[7]]\n",
    )
    .unwrap();
    a_wrong_submission_of_its_own(&variant);
    let blessed = checked("bless", &variant);
    assert!(blessed.status.success(), "{}", said(&blessed));
    assert!(
        std::fs::read_to_string(variant.join("cases/total_one.toml"))
            .unwrap()
            .contains("expect = 7")
    );
    let output = checked("verify", &variant);
    assert!(output.status.success(), "{}", said(&output));
    let starter = dir.path().join("starter");
    made_starter(&variant, &starter, &[]);
    let readme = std::fs::read_to_string(starter.join("README.md")).unwrap();
    assert!(readme.contains("| basic | 6 | 1 |"), "{readme}");
    let tests = std::fs::read_to_string(starter.join("tests/demo.rs")).unwrap();
    assert!(
        tests.contains("fn total_one") && !tests.contains("three_numbers"),
        "{tests}"
    );
    // The base's hint of the level it leaves out goes with the level;
    // a Python hint stays out of a Rust starter.
    assert!(
        readme.contains("an iterator's `sum()`")
            && !readme.contains("Python's `sum`")
            && !readme.contains("reads lines until"),
        "{readme}"
    );
    // Its API given without `[program]`: the base's sessions go too.
    edit(
        &variant.join("exercise.toml"),
        "[points]",
        "[[function]]\nname = \"total\"\nargs = [{ name = \"numbers\", type = \"list<int>\" }]\nreturns = \"int\"\n\n[points]",
    );
    edit(
        &variant.join("exercise.toml"),
        "levels = [\"basic\"]",
        "levels = [\"basic\", \"proficient\"]",
    );
    let output = checked("verify", &variant);
    assert!(
        said(&output).contains("proficient has no case: add one"),
        "{}",
        said(&output)
    );
    // Points for a base's session it dropped: said as dropped.
    edit(
        &variant.join("exercise.toml"),
        "[points]",
        "[points]\nthree_numbers = 2",
    );
    let output = checked("verify", &variant);
    assert!(
        said(&output).contains("`three_numbers`, a case of the base this variant drops"),
        "{}",
        said(&output)
    );
    // The base is as it was.
    assert!(checked("verify", &package).status.success());
}

#[test]
fn a_package_written_from_its_statement_goes_through_every_step() {
    for package in written_packages() {
        let output = checked("verify", &package);
        assert!(output.status.success(), "{}", said(&output));
        let _ = starters_fail_then_pass(&package);
        a_class_reaches_its_declared_levels(&package);
    }
}

/// A case that accepts several answers is proved to: without the
/// submission that passes it with another answer than the reference's,
/// verify fails, naming the case.
#[test]
fn a_property_case_is_proved_by_another_right_answer() {
    for package in written_packages() {
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join(package.file_name().unwrap());
        copy_folder(&package, &copy);
        let other = copy.join("submissions/last_winning_heap");
        assert!(other.is_dir(), "{}", other.display());
        std::fs::remove_dir_all(&other).unwrap();
        let output = checked("verify", &copy);
        let text = said(&output);
        assert_eq!(output.status.code(), Some(1), "{text}");
        assert!(
            text.contains("FAILED: each case that accepts several answers is passed with another than the reference's")
                && text.contains("winning_move_several.toml: its calls accept several answers"),
            "{text}"
        );
    }
}

/// A variant's own wrong submission: a patch of its base's reference.
fn a_wrong_submission_of_its_own(variant: &Path) {
    let wrong = variant.join("submissions/doubles");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::write(
        wrong.join("submission.toml"),
        "language = \"python\"\nreaches = \"none\"\ndescription = \"counts each number twice\"\n\n[[patch]]\nfile = \"demo.py\"\nfind = \"return sum(numbers)\"\nreplace = \"return 2 * sum(numbers)\"\n",
    )
    .unwrap();
}

/// Its starters: the stub fails, the reference passes. Returns their
/// folder and the Rust stub's failed run.
fn starters_fail_then_pass(package: &Path) -> (tempfile::TempDir, std::process::Output) {
    let name = name_of(package);
    let dir = tempfile::tempdir().unwrap();
    let rust = dir.path().join("rust");
    made_starter(package, &rust, &[]);
    let cargo = || {
        Command::new("cargo")
            .args(["test", "-q", "--offline"])
            .current_dir(&rust)
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap()
    };
    let failed = cargo();
    assert!(!failed.status.success(), "{name}: the Rust stub passes");
    copy_folder(
        &package.join("reference/rust"),
        &rust.join("src").join(&name),
    );
    let passed = cargo();
    assert!(passed.status.success(), "{name}: {}", said(&passed));
    classroom_runs_each_level(&rust, "cargo", &[]);
    let python = dir.path().join("python");
    made_starter(package, &python, &["--language", "python"]);
    let pytest = Command::new("/usr/bin/python3")
        .args(["-m", "pytest", "--version"])
        .output();
    if pytest.is_ok_and(|o| o.status.success()) {
        let run = || {
            Command::new("/usr/bin/python3")
                .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
                .current_dir(&python)
                .output()
                .unwrap()
        };
        assert!(!run().status.success(), "{name}: the Python stub passes");
        // Every file of the reference: its module, and its program's
        // script when it has one.
        copy_folder(&package.join("reference/python"), &python);
        let passed = run();
        assert!(passed.status.success(), "{name}: {}", said(&passed));
        classroom_runs_each_level(
            &python,
            "/usr/bin/python3",
            &["-v", "-p", "no:cacheprovider"],
        );
    } else {
        assert!(std::env::var_os("CI").is_none(), "CI has pytest");
    }
    (dir, failed)
}

/// Each level's job of the starter's Classroom workflow, its command run
/// as the job runs it (`program` for its first word, `extra` at its end) on
/// the reference: it passes, running that level's tests and no other's.
fn classroom_runs_each_level(starter: &Path, program: &str, extra: &[&str]) {
    let text = std::fs::read_to_string(starter.join(".github/workflows/levels.yml")).unwrap();
    let value = |line: &str, key: &str| -> Option<String> {
        let raw = line.trim().strip_prefix(key)?;
        Some(serde_json::from_str(raw).unwrap_or_else(|_| raw.to_owned()))
    };
    let levels: Vec<String> = text
        .lines()
        .filter_map(|l| value(l, "test-name: "))
        .collect();
    let commands: Vec<String> = text.lines().filter_map(|l| value(l, "command: ")).collect();
    assert!(
        !levels.is_empty() && levels.len() == commands.len(),
        "{text}"
    );
    for (level, command) in levels.iter().zip(&commands) {
        let words = shlex::split(command).unwrap();
        let run = Command::new(program)
            .args(&words[1..])
            .args(extra)
            .current_dir(starter)
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap();
        let out = said(&run);
        assert!(run.status.success(), "{command}: {out}");
        // Each test the run names is one of this level's.
        let (rust, python) = (
            format!("test {level}::"),
            format!("::{}::", python_class(level)),
        );
        let ran: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("test ") && l.contains(" ... ") || l.contains(" PASSED"))
            .collect();
        assert!(!ran.is_empty(), "{command} ran no test: {out}");
        for line in ran {
            assert!(
                line.starts_with(&rust) || line.contains(&python),
                "{command} ran another level's test: {line}"
            );
        }
    }
}

/// The test class of a level in a Python starter: `TestBasic`.
fn python_class(level: &str) -> String {
    let name: String = level
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    format!("Test{name}")
}

/// A small class: the package's Python submissions, graded at the levels
/// they declare.
fn a_class_reaches_its_declared_levels(package: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let mut expected = Vec::new();
    for entry in std::fs::read_dir(package.join("submissions")).unwrap() {
        let folder = entry.unwrap().path();
        let spec: toml::Table =
            toml::from_str(&std::fs::read_to_string(folder.join("submission.toml")).unwrap())
                .unwrap();
        if spec["language"].as_str() != Some("python") {
            continue;
        }
        let student = class.join(folder.file_name().unwrap());
        copy_folder(&folder, &student);
        expected.push((student, spec["reaches"].as_str().unwrap().to_owned()));
    }
    let top = class.join("reference");
    copy_folder(&package.join("reference/python"), &top);
    let out = dir.path().join("out");
    let students: Vec<PathBuf> = expected
        .iter()
        .map(|(s, _)| s.clone())
        .chain([top])
        .collect();
    let output = grade(package, &out, &students, true);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    for (student, level) in &expected {
        let student = student.file_name().unwrap().to_string_lossy().into_owned();
        let row = rows
            .iter()
            .find(|r| r.starts_with(&format!("{student},")))
            .unwrap();
        assert!(
            row.ends_with(&format!(",{level}")),
            "{row}: declared {level}"
        );
    }
}

/// A function that may answer an error, but raised where a value was
/// expected (a log file the read-only sandbox refused): its failure says
/// what was raised, not only "an exception".
#[test]
fn an_error_where_a_value_was_expected_says_what_was_raised() {
    let (dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "returns = \"int\"",
        "returns = \"result<int>\"",
    );
    let blessed = checked("bless", &package);
    assert!(blessed.status.success(), "{}", said(&blessed));
    let student = dir.path().join("class/ana");
    copy_folder(&package.join("reference/python"), &student);
    edit(
        &student.join("demo.py"),
        "    return sum(numbers)",
        "    with open(\"log.txt\", \"a\") as log:\n        log.write(str(numbers))\n    return sum(numbers)",
    );
    let out = dir.path().join("out");
    let graded = grade(&package, &out, std::slice::from_ref(&student), true);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/ana/feedback.md")).unwrap();
    assert!(
        page.contains("demo.total([1, 2, 3]) returned an exception (PermissionError:")
            || page.contains("demo.total([1, 2, 3]) returned an exception (OSError:"),
        "{page}"
    );
}

/// Habits a trial student found judged apart locally and in the grader,
/// now alike: debug prints by the megabyte in a function (no output the
/// grader bounds: the function answers all the same), a value of no
/// statement's type (said as such, never as the kit's traceback), a
/// program read at the file's top level (each function's test says why,
/// the sessions still run), and a broken `test_mine.py` (the other tests
/// still run).
#[test]
fn students_habits_are_judged_alike_locally_and_in_the_grader() {
    let (dir, package) = new_package();
    let reference = std::fs::read_to_string(package.join("reference/python/demo.py")).unwrap();
    let student = |name: &str, source: String| {
        let folder = dir.path().join("class").join(name);
        made_starter(&package, &folder, &["--language", "python"]);
        std::fs::write(folder.join("demo.py"), source).unwrap();
        folder
    };
    let chatty = student(
        "chatty",
        reference.replace(
            "    return sum(numbers)",
            "    for k in range(30000):\n        print(\"adding\", numbers, k)\n    return sum(numbers)",
        ),
    );
    let set = student(
        "set",
        reference.replace("    return sum(numbers)", "    return {sum(numbers)}"),
    );
    let top = student(
        "top",
        reference.replace(
            "if __name__ == \"__main__\":\n    play()",
            "FIRST = input()\nplay()",
        ),
    );
    std::fs::write(top.join("test_mine.py"), "def test_broken(:\n").unwrap();
    let exits = student(
        "exits",
        reference.replace("    return sum(numbers)", "    import sys\n    sys.exit(0)"),
    );
    let out = dir.path().join("out");
    let class = [chatty.clone(), set.clone(), top.clone(), exits];
    let graded = grade(&package, &out, &class, true);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = |name: &str| {
        std::fs::read_to_string(out.join("students").join(name).join("feedback.md")).unwrap()
    };
    let none_of_the_types = "{6} (set), which is none of the statement's types";
    assert!(
        !page("chatty").contains("basic::total"),
        "{}",
        page("chatty")
    );
    assert!(page("set").contains(none_of_the_types), "{}", page("set"));
    assert!(
        page("top").contains("importing demo.py raised EOFError"),
        "{}",
        page("top")
    );
    assert!(
        page("exits").contains("it called sys.exit(0), which ends the program"),
        "{}",
        page("exits")
    );
    let pytest = |folder: &Path| {
        let ran = Command::new("/usr/bin/python3")
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .current_dir(folder)
            .output()
            .unwrap();
        said(&ran)
    };
    let text = pytest(&chatty);
    assert!(text.contains("3 passed"), "{text}");
    let text = pytest(&set);
    assert!(text.contains(none_of_the_types), "{text}");
    let text = pytest(&top);
    assert!(text.contains("importing demo.py raised EOFError"), "{text}");
    assert!(text.contains("2 failed, 1 error"), "{text}");
}

#[test]
fn students_habits_do_not_cost_them_their_grade() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    // Debug prints in a function, and the program started at the file's
    // top level, without `if __name__ == "__main__":`.
    let habits = class.join("prints");
    std::fs::create_dir_all(&habits).unwrap();
    let reference = std::fs::read_to_string(package.join("reference/python/demo.py")).unwrap();
    let source = reference
        .replace(
            "    return sum(numbers)",
            "    print(\"debug:\", numbers)\n    return sum(numbers)",
        )
        .replace("if __name__ == \"__main__\":\n    play()", "play()");
    assert!(
        source.ends_with("play()\n") && source.contains("debug:"),
        "{source}"
    );
    std::fs::write(habits.join("demo.py"), source).unwrap();
    // A prompt printed without a newline, as `input("...")` does.
    let prompts = class.join("prompts");
    std::fs::create_dir_all(&prompts).unwrap();
    std::fs::write(
        prompts.join("demo.py"),
        reference.replace("line = input()", "line = input(\"Number? \")"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = grade(&package, &out, &[habits, prompts], true);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    assert!(
        rows.contains(&"prints,2,2,4,4,proficient".to_owned()),
        "{rows:?}"
    );
    assert!(
        rows.contains(&"prompts,2,2,4,4,proficient".to_owned()),
        "{rows:?}"
    );
    // In Rust: a `println!` in a function.
    let crate_dir = dir.path().join("crates/debug");
    made_starter(&package, &crate_dir, &[]);
    let rust = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    let rust = rust.replace(
        "    numbers.iter().sum()",
        "    println!(\"debug: {numbers:?}\");\n    numbers.iter().sum()",
    );
    std::fs::write(crate_dir.join("src/demo/mod.rs"), rust).unwrap();
    let out = dir.path().join("out-rust");
    let output = grade(&package, &out, &[crate_dir], false);
    assert!(output.status.success(), "{}", said(&output));
    assert!(
        grades(&out).contains(&"debug,2,2,4,4,proficient".to_owned()),
        "{:?}",
        grades(&out)
    );
}

#[test]
fn a_package_may_name_its_levels_as_the_kit_does_in_another_order() {
    let (dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "levels = [\"basic\", \"proficient\"]",
        "levels = [\"warm_up\", \"basic\"]",
    );
    edit(
        &package.join("exercise.toml"),
        "level = \"proficient\"",
        "level = \"basic\"",
    );
    edit(
        &package.join("cases/total_small.toml"),
        "level = \"basic\"",
        "level = \"warm_up\"",
    );
    edit(
        &package.join("hidden/cases/total_negative.toml"),
        "level = \"basic\"",
        "level = \"warm_up\"",
    );
    edit(
        &package.join("cases/three_numbers.toml"),
        "level = \"proficient\"",
        "level = \"basic\"",
    );
    let student = dir.path().join("class/ana");
    copy_folder(&package.join("reference/python"), &student);
    let out = dir.path().join("out");
    let output = grade(&package, &out, &[student], true);
    assert!(output.status.success(), "{}", said(&output));
    // Read back from results.json by name, each at its place in the list.
    assert_eq!(
        grades(&out),
        [
            "submission,warm_up,basic,score,max_score,level",
            "ana,2,2,4,4,basic"
        ]
    );
}

/// `boardkit test --exercise` and `boardkit watch --exercise` on a
/// package's starters: the stub fails every level, in Rust and Python;
/// watch shows the levels and opens the package's hint for the first one;
/// the reference passes, and `--level` runs one level.
#[test]
fn a_packages_starter_is_tested_and_watched_from_the_binary() {
    for package in written_packages() {
        let name = name_of(&package);
        let dir = tempfile::tempdir().unwrap();
        let test = |starter: &Path, extra: &[&str]| {
            boardkit()
                .args(["test", "--exercise"])
                .arg(&package)
                .arg(starter)
                .args(extra)
                .output()
                .unwrap()
        };
        for language in ["rust", "python"] {
            let starter = dir.path().join(language);
            made_starter(&package, &starter, &["--language", language]);
            let failed = test(&starter, &[]);
            let text = said(&failed);
            assert_eq!(failed.status.code(), Some(1), "{name} {language}: {text}");
            assert!(text.contains("level reached: none yet"), "{text}");
            // A function still to write says so, in the stub's own words,
            // without the panic's or the traceback's noise.
            assert!(text.contains(": not yet implemented: "), "{text}");
            for noise in ["status 101", "panicked at", "Traceback", "RUST_BACKTRACE"] {
                assert!(!text.contains(noise), "{name} {language}: {noise}: {text}");
            }
        }
        let python = dir.path().join("python");
        let hints: toml::Table =
            toml::from_str(&std::fs::read_to_string(python.join("tests/hints.toml")).unwrap())
                .unwrap();
        let levels = package_levels(&package);
        let first_hint = hints[&levels[0]][0]["text"].as_str().unwrap().to_owned();
        let watched = watch(&package, &python, "h\nq\n");
        assert!(watched.contains("level reached: none yet"), "{watched}");
        assert!(
            watched.contains(&format!("hint 1 of 1 for {}: {first_hint}", levels[0])),
            "{watched}"
        );
        let module = format!("{name}.py");
        std::fs::copy(
            package.join("reference/python").join(&module),
            python.join(&module),
        )
        .unwrap();
        let passed = test(&python, &[]);
        let text = said(&passed);
        assert!(passed.status.success(), "{text}");
        let last = levels.last().unwrap();
        assert!(text.contains(&format!("level reached: {last}")), "{text}");
        let one = said(&test(&python, &["--level", &levels[0]]));
        assert!(!one.contains(last.as_str()), "{one}");
        let wrong = test(&python, &["--level", "no_such_level"]);
        assert_eq!(wrong.status.code(), Some(2), "{}", said(&wrong));
    }
}

/// What `boardkit watch --exercise` shows on `starter` when `keys` are typed.
fn watch(package: &Path, starter: &Path, keys: &str) -> String {
    use std::io::Write;
    let mut child = boardkit()
        .args(["watch", "--exercise"])
        .arg(package)
        .arg(starter)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(keys.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", said(&output));
    said(&output)
}

/// A package's levels, from its manifest.
fn package_levels(package: &Path) -> Vec<String> {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(package.join("exercise.toml")).unwrap()).unwrap();
    manifest["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect()
}

/// `boardkit play --exercise`: the reference's program, scripted over
/// stdin, prints each public session's expected lines; a package without
/// a program is refused as asked wrongly.
#[test]
fn a_packages_program_is_played_from_the_binary() {
    use std::io::Write;
    for package in written_packages() {
        let mut sessions = 0;
        for entry in std::fs::read_dir(package.join("cases")).unwrap() {
            let case: toml::Table =
                toml::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
            let (Some(input), Some(expect)) = (case.get("input"), case.get("expect")) else {
                continue;
            };
            sessions += 1;
            let lines = |v: &toml::Value| -> Vec<String> {
                let items = v.as_array().unwrap().iter();
                items.map(|l| l.as_str().unwrap().to_owned()).collect()
            };
            let mut child = boardkit()
                .args(["play", "--exercise"])
                .arg(&package)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let typed: String = lines(input).iter().map(|l| format!("{l}\n")).collect();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(typed.as_bytes()).unwrap();
            drop(stdin);
            let played = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&played.stdout);
            let mut rest = text.as_ref();
            for line in lines(expect) {
                let at = rest
                    .find(&line)
                    .unwrap_or_else(|| panic!("{line:?} in {text}"));
                rest = &rest[at + line.len()..];
            }
        }
        assert!(sessions > 0, "{} has a session", package.display());
    }
    let (_dir, package) = new_package();
    let manifest = package.join("exercise.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let at = text.find("[program]").unwrap();
    let end = text[at..].find("\n\n").unwrap() + at;
    std::fs::write(&manifest, format!("{}{}", &text[..at], &text[end..])).unwrap();
    for case in std::fs::read_dir(package.join("cases")).unwrap() {
        let path = case.unwrap().path();
        if std::fs::read_to_string(&path).unwrap().contains("input") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let played = boardkit()
        .args(["play", "--exercise"])
        .arg(&package)
        .output()
        .unwrap();
    assert_eq!(played.status.code(), Some(2), "{}", said(&played));
    assert!(
        said(&played).contains("has no program to play"),
        "{}",
        said(&played)
    );
}

/// `grade --exercise --program`: any program through stdin and stdout, on
/// the sessions alone, the package named as a relative folder.
#[test]
fn a_package_grades_any_program() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    let student = |name: &str, source: &Path, file: &str| {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(source, folder.join(file)).unwrap();
        folder
    };
    // Their program under another name: --program says how to run it.
    let students = [
        student("ana", &package.join("reference/python/demo.py"), "game.py"),
        student(
            "bruno",
            &package.join("submissions/says_sum/demo.py"),
            "game.py",
        ),
        class.join("carla"),
    ];
    std::fs::create_dir_all(&students[2]).unwrap();
    let out = dir.path().join("program");
    // The package as a relative folder, as an instructor types it.
    let relative = |out: &Path, options: &[&str]| {
        boardkit()
            .current_dir(dir.path())
            .args([
                "grade",
                "--exercise",
                "demo",
                "--language",
                "python",
                "--out",
            ])
            .arg(out)
            .args(&students)
            .args(options)
            .args(sandbox_flag())
            .output()
            .unwrap()
    };
    let output = relative(
        &out,
        &["--program", "python3 game.py", "--style-points", "2"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", said(&output));
    let output = relative(&out, &["--program", "python3 game.py"]);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    assert_eq!(
        rows[0], "submission,proficient,score,max_score,level",
        "{rows:?}"
    );
    assert!(
        rows.contains(&"ana,2,2,2,proficient".to_owned()),
        "{rows:?}"
    );
    assert!(rows.contains(&"bruno,0,0,2,none".to_owned()), "{rows:?}");
    assert!(rows.contains(&"carla,0,0,2,none".to_owned()), "{rows:?}");
}

/// `grade --exercise --shard`: the slices of a class, merged, are the
/// whole class's run.
#[test]
fn a_package_grades_a_class_in_shards() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    let student = |name: &str, source: &Path| {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(source, folder.join("game.py")).unwrap();
        folder
    };
    let students = [
        student("ana", &package.join("reference/python/demo.py")),
        student("bruno", &package.join("submissions/says_sum/demo.py")),
        class.join("carla"),
    ];
    std::fs::create_dir_all(&students[2]).unwrap();
    let whole = dir.path().join("whole");
    let output = grade_with(
        &package,
        &whole,
        &students,
        true,
        &["--program", "python3 game.py"],
    );
    assert!(output.status.success(), "{}", said(&output));
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = dir.path().join(format!("shard{k}"));
        let slice = format!("{k}/2");
        let options = ["--program", "python3 game.py", "--shard", slice.as_str()];
        let output = grade_with(&package, &shard, &students, true, &options);
        assert!(output.status.success(), "{}", said(&output));
        assert!(grades(&shard).len() < students.len() + 1, "a slice");
        shards.push(shard);
    }
    let merged = dir.path().join("merged");
    let output = boardkit()
        .args(["grade", "merge"])
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", said(&output));
    assert_eq!(grades(&merged), grades(&whole));
    // A shard graded with another timeout is no shard of the same run.
    let other = dir.path().join("other");
    let options = [
        "--program",
        "python3 game.py",
        "--shard",
        "2/2",
        "--timeout",
        "7",
    ];
    let output = grade_with(&package, &other, &students, true, &options);
    assert!(output.status.success(), "{}", said(&output));
    let mixed = dir.path().join("mixed");
    let output = boardkit()
        .args(["grade", "merge"])
        .args([&shards[0], &other])
        .arg("--out")
        .arg(&mixed)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", said(&output));
    assert!(
        said(&output).contains("graded with other options"),
        "{}",
        said(&output)
    );
    assert!(!mixed.join("grades.csv").exists());
}

/// `grade --exercise --test-points`: a Python class's own tests
/// (`test_mine.py`, the starter's example to start from) run on the
/// package's reference and its wrong submissions; a test that fails on
/// the reference is invalid; a missing file scores nothing. `boardkit
/// test --exercise --mine` says the same locally.
#[test]
fn a_python_class_s_own_tests_are_graded_by_the_package_s_wrong_submissions() {
    let (dir, package) = new_package();
    // The reference with one change: a `[[patch]]`, no copy.
    let wrong = package.join("submissions/off_by_one");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::write(
        wrong.join("submission.toml"),
        "language = \"python\"\nreaches = \"none\"\ndescription = \"adds one to every total\"\n\n[[patch]]\nfile = \"demo.py\"\nfind = \"return sum(numbers)\"\nreplace = \"return sum(numbers) + 1\"\n",
    )
    .unwrap();
    let class = dir.path().join("class");
    let mut students = Vec::new();
    for name in ["ana", "bruno", "carla"] {
        let folder = class.join(name);
        made_starter(&package, &folder, &["--language", "python"]);
        std::fs::copy(
            package.join("reference/python/demo.py"),
            folder.join("demo.py"),
        )
        .unwrap();
        students.push(folder);
    }
    std::fs::write(
        class.join("bruno/test_mine.py"),
        "import demo\n\ndef test_wrong():\n    assert demo.total([1]) == 2\n",
    )
    .unwrap();
    std::fs::remove_file(class.join("carla/test_mine.py")).unwrap();
    assert_mine_catches_the_public_bug(&package, &students[0]);
    let out = dir.path().join("out");
    let output = grade_with(&package, &out, &students, true, &["--test-points", "4"]);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    assert_eq!(
        rows[0], "submission,basic,proficient,tests,score,max_score,level",
        "{rows:?}"
    );
    assert!(
        rows.contains(&"ana,2,2,4,8,8,proficient".to_owned()),
        "{rows:?}"
    );
    assert!(
        rows.contains(&"bruno,2,2,0,4,8,proficient".to_owned()),
        "{rows:?}"
    );
    assert!(
        rows.contains(&"carla,2,2,0,4,8,proficient".to_owned()),
        "{rows:?}"
    );
    let refused = grade_with(
        &package,
        &out,
        &students,
        true,
        &["--test-points", "4", "--program", "python3 demo.py"],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", said(&refused));
}

/// A package's starter in its statement's second locale speaks it: its
/// README, its tests' failures (Rust and Python), `boardkit test`.
#[test]
fn a_packages_starter_speaks_its_statements_locale() {
    let (dir, package) = new_package();
    std::fs::copy(
        package.join("statement/en.md"),
        package.join("statement/pt-BR.md"),
    )
    .unwrap();
    edit(
        &package.join("exercise.toml"),
        "en = \"statement/en.md\"",
        "en = \"statement/en.md\"\npt-BR = \"statement/pt-BR.md\"",
    );
    for language in ["rust", "python"] {
        let starter = dir.path().join(language);
        made_starter(
            &package,
            &starter,
            &["--language", language, "--locale", "pt-BR"],
        );
        let readme = std::fs::read_to_string(starter.join("README.md")).unwrap();
        assert!(readme.contains("O enunciado é STATEMENT.md"), "{readme}");
        let tested = boardkit()
            .args(["test", "--exercise"])
            .arg(&package)
            .arg(&starter)
            .output()
            .unwrap();
        let text = said(&tested);
        assert!(text.contains("Básico (basic)"), "{text}");
        assert!(!text.contains("level reached"), "{text}");
    }
    // A total off by one: a call's failure, said in Portuguese.
    let reference = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    std::fs::write(
        dir.path().join("rust/src/demo/mod.rs"),
        reference.replace("numbers.iter().sum()", "numbers.iter().sum::<i64>() + 1"),
    )
    .unwrap();
    let ran = Command::new("cargo")
        .args(["test", "-q", "--offline"])
        .current_dir(dir.path().join("rust"))
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(said(&ran).contains("devolveu"), "{}", said(&ran));
    let python = dir.path().join("python");
    let tests = std::fs::read_to_string(python.join("test_demo.py")).unwrap();
    assert!(
        tests.contains("devolveu %s; valores aceitos: %s"),
        "{tests}"
    );
}

/// Every type of the format reaches a function as an argument, read at
/// run time by the Rust and the Python callers alike (quotes,
/// backslashes, tabs, newlines and more than ASCII in strings; tuples,
/// options, grids, lists of them), and the starters written for it
/// compile.
#[test]
fn every_type_reaches_a_function_in_rust_and_python() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/types");
    let output = checked("verify", &package);
    let text = said(&output);
    assert!(output.status.success(), "{text}");
    for check in [
        "the rust reference passes every case as blessed",
        "the python reference passes every case as blessed",
        "the Rust and Python starters compile",
    ] {
        assert!(text.contains(&format!("ok: {check}")), "{check}: {text}");
    }
}

/// What a run can read holds no other case: a function that prints the
/// caller, in Rust (`include_str!`) and Python (`/kit/caller.py`), and its
/// arguments on stderr shows no hidden case's input in its feedback.
#[test]
fn a_submission_reads_no_hidden_input_from_the_caller() {
    let (dir, package) = new_package();
    let python = dir.path().join("class/mallory");
    std::fs::create_dir_all(&python).unwrap();
    std::fs::write(
        python.join("demo.py"),
        "import sys\n\ndef total(numbers):\n    sys.stderr.write(open('/kit/caller.py').read().replace('\\n', ' ') + repr(sys.argv))\n    raise SystemExit(1)\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = grade(&package, &out, &[python], true);
    assert!(output.status.success(), "{}", said(&output));
    let feedback = std::fs::read_to_string(out.join("students/mallory/feedback.md")).unwrap();
    assert!(
        feedback.contains("FUNCTIONS"),
        "the caller was read: {feedback}"
    );
    assert!(
        !feedback.contains("-4, 10, -1") && !feedback.contains("total_negative"),
        "{feedback}"
    );
    let rust = dir.path().join("crates/mallory");
    made_starter(&package, &rust, &[]);
    let reference = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    std::fs::write(
        rust.join("src/demo/mod.rs"),
        reference.replace(
            "numbers.iter().sum()",
            "{ eprintln!(\"{}\", include_str!(\"../../answers.rs\").replace('\\n', \" \")); std::process::exit(1) }",
        ),
    )
    .unwrap();
    let out = dir.path().join("out-rust");
    let output = grade(&package, &out, &[rust], false);
    assert!(output.status.success(), "{}", said(&output));
    let feedback = std::fs::read_to_string(out.join("students/mallory/feedback.md")).unwrap();
    assert!(
        feedback.contains("fn main"),
        "the caller was read: {feedback}"
    );
    assert!(
        !feedback.contains("-4") && !feedback.contains("total_negative"),
        "{feedback}"
    );
}

/// The authors' guide's worked example, its files taken from
/// docs/authors.md as a reader would copy them, verifies and prints what
/// the guide says it prints (the reference's time aside).
#[test]
fn the_authors_guides_worked_example_verifies_as_it_says() {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/authors.md"))
            .unwrap();
    // The section's lines, up to the next heading outside a code block
    // (the statement's own headings are in one).
    let mut fenced = false;
    let lines: Vec<&str> = guide
        .lines()
        .skip_while(|l| !l.starts_with("## A worked example"))
        .enumerate()
        .take_while(|(n, l)| {
            fenced ^= l.starts_with("```");
            *n == 0 || fenced || !l.starts_with("## ")
        })
        .map(|(_, l)| l)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("high_score");
    let mut said = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let file = line
            .strip_prefix('`')
            .and_then(|l| l.split_once('`'))
            .filter(|_| line.ends_with(':'))
            .map(|(f, _)| f);
        let fence = lines.get(i + 2).is_some_and(|l| l.starts_with("```"));
        if let (Some(file), true) = (file, fence) {
            let body: Vec<&str> = lines[i + 3..]
                .iter()
                .take_while(|l| !l.starts_with("```"))
                .copied()
                .collect();
            i += 3 + body.len();
            if file.starts_with("boardkit ") {
                said = body.iter().map(|l| (*l).to_owned()).collect();
                continue;
            }
            let path = package.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body.join("\n") + "\n").unwrap();
        }
        i += 1;
    }
    assert!(!said.is_empty(), "the guide shows what verify prints");
    let output = checked("verify", &package);
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{}", self::said(&output));
    // Which case is the slowest, and how long it took, vary run to run.
    let took = |l: &str| l.split(" (the slowest").next().unwrap_or(l).to_owned();
    let printed: Vec<String> = printed.lines().map(took).collect();
    let said: Vec<String> = said.iter().map(|l| took(l)).collect();
    assert_eq!(printed, said, "docs/authors.md's worked example");
}

/// An `--out` holding another run's results (another exercise, another
/// language) is refused, and with `--fresh` replaced: one report never
/// mixes two.
#[test]
fn an_out_folder_of_another_run_is_refused_or_replaced() {
    let (dir, package) = new_package();
    let student = dir.path().join("class/ana");
    copy_folder(&package.join("reference/python"), &student);
    let out = dir.path().join("out");
    let output = grade(&package, &out, std::slice::from_ref(&student), true);
    assert!(output.status.success(), "{}", said(&output));
    let again = grade(&package, &out, std::slice::from_ref(&student), true);
    assert!(
        again.status.success(),
        "the same run again: {}",
        said(&again)
    );
    let rust = grade(&package, &out, std::slice::from_ref(&student), false);
    assert_eq!(rust.status.code(), Some(2), "{}", said(&rust));
    assert!(
        said(&rust).contains("holds the results of another run"),
        "{}",
        said(&rust)
    );
    let fresh = grade_with(&package, &out, &[student], false, &["--fresh"]);
    assert!(fresh.status.success(), "{}", said(&fresh));
    assert_eq!(grades(&out).len(), 2, "{:?}", grades(&out));
}

/// `[program] first`: the statement has the program start with its
/// title. A program that prints anything before it (a prompt, a test
/// print at import) fails each session, in the grader and in both
/// starters alike, saying which line came first.
#[test]
fn a_program_starts_with_the_line_the_statement_says() {
    let (dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "total = \"Total: {}\"",
        "title = \"Adding up\"\ntotal = \"Total: {}\"",
    );
    edit(
        &package.join("exercise.toml"),
        "function = \"play\"",
        "function = \"play\"\nfirst = \"title\"",
    );
    edit(
        &package.join("reference/python/demo.py"),
        "    numbers = []\n",
        "    print(\"Adding up\")\n    numbers = []\n",
    );
    edit(
        &package.join("reference/rust/mod.rs"),
        "    let mut numbers = Vec::new();\n",
        "    writeln!(output, \"Adding up\")?;\n    let mut numbers = Vec::new();\n",
    );
    let blessed = checked("bless", &package);
    assert!(blessed.status.success(), "{}", said(&blessed));
    let verified = checked("verify", &package);
    assert!(verified.status.success(), "{}", said(&verified));
    let expected = "the program's first line is \"Numbers, please\", expected \"Adding up\"";
    // In Python: the grader, then the starter's pytest.
    let python = dir.path().join("python");
    made_starter(&package, &python, &["--language", "python"]);
    copy_folder(&package.join("reference/python"), &python);
    edit(
        &python.join("demo.py"),
        "    print(\"Adding up\")\n",
        "    print(\"Numbers, please\")\n    print(\"Adding up\")\n",
    );
    let out = dir.path().join("out");
    let graded = grade(&package, &out, std::slice::from_ref(&python), true);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/python/feedback.md")).unwrap();
    assert!(page.contains(expected), "{page}");
    let pytest = Command::new("/usr/bin/python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .current_dir(&python)
        .output()
        .unwrap();
    let text = said(&pytest);
    assert!(text.contains("1 failed"), "{text}");
    assert!(
        text.contains("the program's first line is 'Numbers, please', expected 'Adding up'"),
        "{text}"
    );
    // In Rust: the starter's cargo test.
    let rust = dir.path().join("rust");
    made_starter(&package, &rust, &[]);
    copy_folder(&package.join("reference/rust"), &rust.join("src/demo"));
    edit(
        &rust.join("src/demo/mod.rs"),
        "    writeln!(output, \"Adding up\")?;\n",
        "    writeln!(output, \"Numbers, please\")?;\n    writeln!(output, \"Adding up\")?;\n",
    );
    let ran = Command::new("cargo")
        .args(["test", "-q", "--offline", "--test", "demo"])
        .current_dir(&rust)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let text = said(&ran);
    assert!(!ran.status.success() && text.contains(expected), "{text}");
}

/// A near miss of an expected line is looked for among the lines that
/// are none of the exercise's: `Total 12` is a misspelt `Total: 12`, but
/// `Not a number: Total: 12` is another message, not a misspelling.
#[test]
fn a_line_that_is_another_message_is_no_near_miss() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    for (name, last) in [
        ("ana", "print(\"Total \" + str(total(numbers)))"),
        (
            "bia",
            "print(\"Not a number: Total: \" + str(total(numbers)))",
        ),
    ] {
        copy_folder(&package.join("reference/python"), &class.join(name));
        edit(
            &class.join(name).join("demo.py"),
            "print(\"Total: \" + str(total(numbers)))",
            last,
        );
    }
    let out = dir.path().join("out");
    let graded = grade(
        &package,
        &out,
        &[class.join("ana"), class.join("bia")],
        true,
    );
    assert!(graded.status.success(), "{}", said(&graded));
    let page = |name: &str| {
        std::fs::read_to_string(out.join("students").join(name).join("feedback.md")).unwrap()
    };
    assert!(
        page("ana").contains("you printed `Total 12`"),
        "{}",
        page("ana")
    );
    assert!(!page("bia").contains("you printed"), "{}", page("bia"));
}

/// A starter's tests never hang and never flood, as the SPEC asks of
/// every starter: a call that never returns fails its test at the time
/// limit (shortened here by `BOARDKIT_CASE_SECONDS`), and a program that
/// prints without end fails at the grader's output limit, in both
/// languages; the other tests still run and report.
#[test]
fn a_starters_tests_stop_what_never_ends() {
    let (dir, package) = new_package();
    let rust = dir.path().join("rust");
    made_starter(&package, &rust, &[]);
    std::fs::write(
        rust.join("src/demo/mod.rs"),
        "use std::io::{BufRead, Write};\n\n\
         pub fn total(numbers: &[i64]) -> i64 {\n    let _ = numbers;\n    loop {\n        std::thread::sleep(std::time::Duration::from_millis(50));\n    }\n}\n\n\
         pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> std::io::Result<()> {\n    let _ = input;\n    loop {\n        writeln!(output, \"{}\", \"x\".repeat(1000))?;\n    }\n}\n",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let ran = Command::new("cargo")
        .args(["test", "-q", "--offline", "--test", "demo"])
        .current_dir(&rust)
        .env_remove("CARGO_TARGET_DIR")
        .env("BOARDKIT_CASE_SECONDS", "2")
        .output()
        .unwrap();
    let text = said(&ran);
    assert!(!ran.status.success(), "{text}");
    assert!(
        text.contains("still running after 2 seconds: an endless loop, or a call far slower than the reference"),
        "{text}"
    );
    assert!(
        text.contains("the program printed more than 1 MiB, the grader's output limit"),
        "{text}"
    );
    assert!(
        text.len() < 40_000,
        "the flood is not shown whole: {} bytes",
        text.len()
    );
    let python = dir.path().join("python");
    made_starter(&package, &python, &["--language", "python"]);
    std::fs::write(
        python.join("demo.py"),
        "def total(numbers):\n    while True:\n        try:\n            pass\n        except Exception:\n            pass\n\n\n\
         def play():\n    while True:\n        print(\"x\" * 1000)\n\n\n\
         if __name__ == \"__main__\":\n    play()\n",
    )
    .unwrap();
    let ran = Command::new("/usr/bin/python3")
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .current_dir(&python)
        .env("BOARDKIT_CASE_SECONDS", "2")
        .output()
        .unwrap();
    let text = said(&ran);
    assert!(text.contains("3 failed"), "{text}");
    assert!(
        text.contains("TimeLimit: still running after 2 seconds: an endless loop"),
        "{text}"
    );
    assert!(
        text.contains("the program printed more than 1 MiB, the grader's output limit"),
        "{text}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(120));
}

/// A starter's session holds a program to the grader's limits, its CPU
/// time and a backstop on the clock, not to the clock alone: a program
/// that waits 3 s (a pause between turns) passes when the CPU limit is
/// 2 s, as in the grader, and one that computes without end fails saying
/// which limit.
#[test]
fn a_starters_session_is_held_to_the_graders_limits() {
    let (dir, package) = new_package();
    let python = dir.path().join("python");
    made_starter(&package, &python, &["--language", "python"]);
    let reference = std::fs::read_to_string(package.join("reference/python/demo.py")).unwrap();
    let pytest = |code: &str| {
        std::fs::write(python.join("demo.py"), code).unwrap();
        Command::new("/usr/bin/python3")
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-k",
                "three_numbers",
            ])
            .current_dir(&python)
            .env("BOARDKIT_CASE_SECONDS", "2")
            .output()
            .unwrap()
    };
    let play = "    numbers = []\n";
    let waits = pytest(&reference.replace(
        play,
        "    __import__(\"time\").sleep(3)\n    numbers = []\n",
    ));
    assert!(waits.status.success(), "{}", said(&waits));
    let computes = pytest(&reference.replace(play, "    while True:\n        pass\n"));
    assert!(
        said(&computes).contains(
            "did not end within the grader's limits, 2 s of CPU time or 12 s on the clock"
        ),
        "{}",
        said(&computes)
    );
    let rust = dir.path().join("rust");
    made_starter(&package, &rust, &[]);
    let reference = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    let cargo_test = |code: &str| {
        std::fs::write(rust.join("src/demo/mod.rs"), code).unwrap();
        Command::new("cargo")
            .args(["test", "-q", "--offline", "--test", "demo", "three_numbers"])
            .current_dir(&rust)
            .env_remove("CARGO_TARGET_DIR")
            .env("BOARDKIT_CASE_SECONDS", "2")
            .output()
            .unwrap()
    };
    let play = "    let mut numbers = Vec::new();\n";
    let waits = cargo_test(&reference.replace(
        play,
        "    std::thread::sleep(std::time::Duration::from_secs(3));\n    let mut numbers = Vec::new();\n",
    ));
    assert!(waits.status.success(), "{}", said(&waits));
    let computes = cargo_test(&reference.replace(
        play,
        "    let mut spins = 0u64;\n    while std::hint::black_box(spins) < u64::MAX {\n        spins += 1;\n    }\n    let mut numbers = Vec::new();\n",
    ));
    assert!(
        said(&computes).contains(
            "did not end within the grader's limits, 2 s of CPU time or 12 s on the clock"
        ),
        "{}",
        said(&computes)
    );
}

/// A Rust function that ends the program (`std::process::exit(0)`) fails
/// its test in the starter, as its case in the grader, and the other
/// tests still run: the calls run in a process of their own. Before, it
/// ended the test binary with status 0 and `cargo test` said nothing
/// failed.
#[test]
fn a_rust_function_that_ends_the_program_fails_locally_as_in_the_grader() {
    let (dir, package) = new_package();
    let crate_dir = dir.path().join("ana");
    made_starter(&package, &crate_dir, &[]);
    let reference = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    let student = reference.replace(
        "    numbers.iter().sum()",
        "    if numbers.first() == Some(&1) {\n        std::process::exit(0);\n    }\n    numbers.iter().sum()",
    );
    assert_ne!(student, reference);
    std::fs::write(crate_dir.join("src/demo/mod.rs"), student).unwrap();
    let ran = Command::new("cargo")
        .args(["test", "-q", "--offline", "--test", "demo"])
        .current_dir(&crate_dir)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let text = said(&ran);
    assert!(!ran.status.success(), "{text}");
    assert!(
        text.contains("the calls ended the program (status 0) before their test finished"),
        "{text}"
    );
    assert!(text.contains("1 passed; 1 failed"), "{text}");
    let out = dir.path().join("out");
    let graded = grade(&package, &out, &[crate_dir], false);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/ana/feedback.md")).unwrap();
    assert!(
        page.contains("total\\_small")
            && page.contains("the program ended before this call returned"),
        "{page}"
    );
}

/// A session that prints a wrong line, then crashes at the end of its
/// input, is told the wrong line first: fixing the crash alone would only
/// show it next.
#[test]
fn a_wrong_line_before_a_crash_is_said_first() {
    let (dir, package) = new_package();
    let student = dir.path().join("class/ana");
    made_starter(&package, &student, &["--language", "python"]);
    let reference = std::fs::read_to_string(package.join("reference/python/demo.py")).unwrap();
    let source = reference.replace(
        "        try:\n            line = input()\n        except EOFError:\n            break\n        try:\n            numbers.append(int(line.strip()))\n",
        "        line = input()\n        try:\n            numbers.append(int(line.strip()))\n            print(\"Total: \" + str(total(numbers)))\n",
    );
    assert_ne!(source, reference);
    std::fs::write(student.join("demo.py"), source).unwrap();
    // The starter's test says the same line, in the grader's words.
    let ran = Command::new("/usr/bin/python3")
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "three_numbers",
        ])
        .current_dir(&student)
        .output()
        .unwrap();
    assert!(
        said(&ran).contains(
            "line 1 of the program's lines is \"Total: 3\", expected \"Not a number: x\""
        ),
        "{}",
        said(&ran)
    );
    let out = dir.path().join("out");
    let graded = grade(&package, &out, &[student], true);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/ana/feedback.md")).unwrap();
    assert!(
        page.contains("line 1 of the program's lines is \"Total: 3\", expected \"Not a number: x\"; then it ended with status 1"),
        "{page}"
    );
    // The traceback names the student's file, not the sandbox's path.
    assert!(
        page.contains("File \"demo.py\", line") && !page.contains("/sandbox/"),
        "{page}"
    );
}

/// The class is taken as `boardkit grade` takes any: a mistyped path or
/// a class's folder given whole is the instructor's error (exit 2,
/// nothing graded), the `--out` folder is never a submission, and an
/// empty folder is a student with 0 and the reason.
#[test]
fn a_packages_class_is_taken_as_any_class() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    copy_folder(&package.join("reference/python"), &class.join("ana"));
    std::fs::create_dir_all(class.join("bia")).unwrap();
    let out = dir.path().join("out");
    let typo = grade(
        &package,
        &out,
        &[class.join("ana"), class.join("aan")],
        true,
    );
    assert_eq!(typo.status.code(), Some(2), "{}", said(&typo));
    assert!(
        said(&typo).contains("aan: no such file or folder"),
        "{}",
        said(&typo)
    );
    assert!(!out.join("grades.csv").exists());
    let whole = grade(&package, &out, std::slice::from_ref(&class), true);
    assert_eq!(whole.status.code(), Some(2), "{}", said(&whole));
    assert!(
        said(&whole).contains("is a class's folder"),
        "{}",
        said(&whole)
    );
    let students = [class.join("ana"), class.join("bia"), out.clone()];
    let run = grade(&package, &out, &students, true);
    assert!(run.status.success(), "{}", said(&run));
    assert!(said(&run).contains("is the --out folder: not a submission"));
    let book = grades(&out);
    assert_eq!(book.len(), 3, "{book:?}");
    assert!(
        book[1].starts_with("ana,") && book[1].ends_with(",proficient"),
        "{book:?}"
    );
    assert!(book[2].starts_with("bia,0,0,0,"), "{book:?}");
}

/// `--require` takes the package's own levels: one it reaches passes,
/// one above it exits 1, and a level the package does not have is
/// refused before any grading (exit 2), never read as a class below it.
#[test]
fn require_takes_the_packages_levels() {
    let (dir, package) = new_package();
    for file in ["exercise.toml", "cases/three_numbers.toml"] {
        let path = package.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("\"proficient\"", "\"intermediaire\"")).unwrap();
    }
    let student = dir.path().join("class/ana");
    copy_folder(&package.join("reference/python"), &student);
    edit(&student.join("demo.py"), "print(\"Total", "print(\"Sum");
    let out = dir.path().join("out");
    let students = std::slice::from_ref(&student);
    let met = grade_with(&package, &out, students, true, &["--require", "basic"]);
    assert!(met.status.success(), "{}", said(&met));
    let missed = grade_with(
        &package,
        &out,
        students,
        true,
        &["--require", "intermediaire"],
    );
    assert_eq!(missed.status.code(), Some(1), "{}", said(&missed));
    assert!(said(&missed).contains("not every submission reaches intermediaire"));
    // Its page says how to play the failed session again.
    let page = std::fs::read_to_string(out.join("students/ana/feedback.md")).unwrap();
    assert!(
        page.contains("play it: printf '3\\n4\\nx\\n5\\n' | python3 demo.py"),
        "{page}"
    );
    let unknown = grade_with(&package, &out, students, true, &["--require", "expert"]);
    assert_eq!(unknown.status.code(), Some(2), "{}", said(&unknown));
    assert!(
        said(&unknown)
            .contains("--require expert: not a level of this exercise (basic, intermediaire)"),
        "{}",
        said(&unknown)
    );
}

/// Grading a class again grades only what changed: a student's edited
/// file, or every student when the package changes (a case's points);
/// `--fresh` grades everyone again. As `boardkit grade` does a built-in's.
#[test]
fn a_regrade_grades_what_changed_and_keeps_the_rest() {
    let (dir, package) = new_package();
    let class = dir.path().join("class");
    for name in ["ana", "bia"] {
        copy_folder(&package.join("reference/python"), &class.join(name));
    }
    let out = dir.path().join("out");
    let students = [class.join("ana"), class.join("bia")];
    let modified = |name: &str| {
        std::fs::metadata(out.join("students").join(name).join("results.json"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let run = |extra: &[&str]| {
        let output = grade_with(&package, &out, &students, true, extra);
        assert!(output.status.success(), "{}", said(&output));
        (modified("ana"), modified("bia"))
    };
    let (ana, bia) = run(&[]);
    let first = grades(&out);
    // Bia breaks her file; Ana changes nothing.
    edit(
        &class.join("bia/demo.py"),
        "return sum(numbers)",
        "return 1",
    );
    let (ana_again, bia_again) = run(&[]);
    assert_eq!(ana_again, ana, "an unchanged submission is reused");
    assert_ne!(bia_again, bia, "a changed one is graded again");
    assert_eq!(grades(&out)[1], first[1], "{:?}", grades(&out));
    assert_ne!(grades(&out)[2], first[2], "{:?}", grades(&out));
    // The package changes: every grade depends on it.
    let case = package.join("cases/total_small.toml");
    edit(&case, "level = ", "points = 2\nlevel = ");
    let (ana_new, bia_new) = run(&[]);
    assert_ne!(
        ana_new, ana_again,
        "a changed package grades everyone again"
    );
    assert_ne!(bia_new, bia_again);
    let (ana_fresh, _) = run(&["--fresh"]);
    assert_ne!(ana_fresh, ana_new, "--fresh grades everyone again");
}

/// The built-in velha and its English variant, copied; the variant's own
/// sessions removed. Its sessions then have no lines until `bless` writes
/// them, in English, into the variant's folder (hidden ones into
/// `hidden/`); the base's files stay as they were.
#[test]
fn a_variant_in_another_locale_gets_its_own_sessions_from_bless() {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../exercises/velha");
    let dir = tempfile::tempdir().unwrap();
    for folder in ["package", "english"] {
        copy_folder(&kit.join(folder), &dir.path().join(folder));
    }
    let english = dir.path().join("english");
    std::fs::remove_dir_all(english.join("cases")).unwrap();
    std::fs::remove_dir_all(english.join("hidden")).unwrap();
    let before = std::fs::read_to_string(dir.path().join("package/cases/draw.toml")).unwrap();
    // Every session of the base, public and hidden, written anew: none
    // had lines in English.
    let output = checked("bless", &english);
    assert!(output.status.success(), "{}", said(&output));
    assert!(
        said(&output).contains("30 case files written"),
        "{}",
        said(&output)
    );
    let draw = std::fs::read_to_string(english.join("cases/draw.toml")).unwrap();
    assert!(
        draw.contains("\"Tic-Tac-Toe\"") && draw.contains("\"Draw\""),
        "{draw}"
    );
    assert!(!draw.contains("\"Empate\""), "{draw}");
    let hidden = std::fs::read_to_string(english.join("hidden/cases/draw_hidden.toml")).unwrap();
    assert!(
        hidden.contains("varies = \"draw\"") && hidden.contains("\"Draw\""),
        "{hidden}"
    );
    // Function cases stay the base's: no copy of them.
    assert!(!english.join("cases/extrai_linha.toml").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("package/cases/draw.toml")).unwrap(),
        before
    );
    let again = checked("bless", &english);
    assert!(
        said(&again).contains("0 case files written"),
        "{}",
        said(&again)
    );
}

/// `--timeout` below 10 s is each case's CPU limit (the reference takes
/// far less than a twentieth of it), its wall-clock backstop behind it:
/// as run.json says, so it is.
#[test]
fn a_package_case_takes_the_timeout_given() {
    let (dir, package) = new_package();
    let right = dir.path().join("class/ana");
    std::fs::create_dir_all(&right).unwrap();
    std::fs::copy(
        package.join("reference/python/demo.py"),
        right.join("demo.py"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = grade_with(&package, &out, &[right], true, &["--timeout", "2"]);
    assert!(output.status.success(), "{}", said(&output));
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let cases = run["case_cpu"].as_object().expect("case_cpu");
    assert!(!cases.is_empty(), "{run}");
    for (name, case) in cases {
        assert_eq!(
            (case["limit_s"].as_u64(), case["wall_s"].as_u64()),
            (Some(2), Some(12)),
            "{name}: {run}"
        );
    }
}

/// A program that takes options: `[program] options` says them, a
/// session's `args` sets them. The reference, the starters in both
/// languages, `play --exercise` and the grader all pass them; a program
/// that ignores them fails the session that sets them; a session of a
/// program without options cannot set them.
#[test]
fn a_program_takes_the_options_a_session_gives() {
    let (dir, package) = new_package();
    std::fs::write(
        package.join("cases/started.toml"),
        "level = \"proficient\"\nrule = 2\ndescription = \"the total starts at --start\"\nargs = [\"--start\", \"10\"]\ninput = [\"1\", \"2\"]\n",
    )
    .unwrap();
    let text = said(&checked("verify", &package));
    assert!(
        text.contains("started.toml:4: the program takes no options"),
        "{text}"
    );
    edit(
        &package.join("exercise.toml"),
        "[reference]",
        "options = \"--start N: the total starts at N (0 without it)\"\n\n[reference]",
    );
    edit(
        &package.join("reference/rust/mod.rs"),
        "pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> std::io::Result<()> {\n    let mut numbers = Vec::new();",
        "pub fn play(\n    options: &[String],\n    input: &mut dyn BufRead,\n    output: &mut dyn Write,\n) -> std::io::Result<()> {\n    let start = match options {\n        [flag, n] if flag == \"--start\" => n.parse().unwrap_or(0),\n        _ => 0,\n    };\n    let mut numbers = vec![start];",
    );
    let python = package.join("reference/python/demo.py");
    edit(
        &python,
        "def play() -> None:",
        "def play(options: list[str]) -> None:",
    );
    edit(
        &python,
        "    numbers = []",
        "    numbers = [int(options[1])] if options[:1] == [\"--start\"] else []",
    );
    edit(
        &python,
        "    play()",
        "    import sys\n\n    play(sys.argv[1:])",
    );
    let blessed = checked("bless", &package);
    assert!(blessed.status.success(), "{}", said(&blessed));
    let started = std::fs::read_to_string(package.join("cases/started.toml")).unwrap();
    assert!(started.contains("\"Total: 13\""), "{started}");
    let verified = checked("verify", &package);
    let text = said(&verified);
    assert!(verified.status.success(), "{text}");
    // says_sum ignores the options and prints Sum: it stays at basic.
    assert!(
        text.contains("ok: the submission says_sum (python) reaches basic"),
        "{text}"
    );
    let starters = starters_fail_then_pass(&package);
    let stub = std::fs::read_to_string(starters.0.path().join("rust/src/main.rs")).unwrap();
    assert!(stub.contains("std::env::args().skip(1)"), "{stub}");
    // A failed session says the options it started the program with, as
    // the grader's pages do.
    assert!(
        said(&starters.1)
            .contains("typed \"1\\n2\\n\" (the program started with the options --start 10)"),
        "{}",
        said(&starters.1)
    );
    played_with_options(&package);
    graded_with_options(dir.path(), &package);
}

/// Graded: a student who ignores the options fails that session only,
/// which says the options; one whose result line is in lower case is
/// told of the near miss.
fn graded_with_options(dir: &Path, package: &Path) {
    let class = dir.join("class");
    let ignores = class.join("ignores");
    std::fs::create_dir_all(&ignores).unwrap();
    std::fs::write(
        ignores.join("demo.py"),
        "import sys\n\n\ndef total(numbers):\n    return sum(numbers)\n\n\ndef play(options):\n    numbers = []\n    while True:\n        try:\n            line = input()\n        except EOFError:\n            break\n        try:\n            numbers.append(int(line))\n        except ValueError:\n            print(\"Not a number: \" + line)\n    print(\"Total: \" + str(total(numbers)))\n\n\nif __name__ == \"__main__\":\n    play(sys.argv[1:])\n",
    )
    .unwrap();
    // Lower case: no pattern takes its result line, which is said as
    // the near miss it is.
    let lower = class.join("lower");
    std::fs::create_dir_all(&lower).unwrap();
    let text = std::fs::read_to_string(ignores.join("demo.py")).unwrap();
    std::fs::write(
        lower.join("demo.py"),
        text.replace("\"Total: \"", "\"total: \""),
    )
    .unwrap();
    let out = dir.join("out");
    let graded = grade(package, &out, &[ignores, lower], true);
    assert!(graded.status.success(), "{}", said(&graded));
    let feedback = std::fs::read_to_string(out.join("students/ignores/feedback.md")).unwrap();
    assert!(
        feedback.contains("(the program started with the options --start 10)"),
        "{feedback}"
    );
    assert!(!feedback.contains("three\\_numbers ("), "{feedback}");
    let feedback = std::fs::read_to_string(out.join("students/lower/feedback.md")).unwrap();
    assert!(
        feedback.contains("you printed `total: 12`; the statement's line is `Total: 12`"),
        "{feedback}"
    );
}

/// `play --exercise DIR -- --start 5`: the demo's total starts at 5.
fn played_with_options(package: &Path) {
    // Played with its options.
    let mut play = boardkit()
        .args(["play", "--exercise"])
        .arg(package)
        .args(["--", "--start", "5"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    play.stdin.take().unwrap().write_all(b"1\n").unwrap();
    let played = play.wait_with_output().unwrap();
    assert!(
        String::from_utf8_lossy(&played.stdout).contains("Total: 6"),
        "{}",
        said(&played)
    );
}

/// Sessions that type bytes (`stdin`: CR LF, no final newline, a byte that
/// is not UTF-8) and one that must end in an error (`ends = "error"`),
/// both graded in no level (`robustness = true`). The references already
/// stop at a line that is not UTF-8 (Rust's `lines()`, Python's
/// `input()`); the stubs fail; the starters' tests group them under
/// `robustness` and pass with the reference; a student whose program ends
/// normally there keeps the top level and loses that case only.
#[test]
fn robustness_sessions_type_bytes_and_end_in_an_error() {
    let (dir, package) = new_package();
    let case = |name: &str, rest: &str| {
        std::fs::write(
            package.join("cases").join(name),
            format!(
                "level = \"proficient\"\nrobustness = true\nrule = 2\ndescription = \"d\"\n{rest}"
            ),
        )
        .unwrap();
    };
    case("crlf_no_final_newline.toml", "stdin = \"3\\r\\n4\"\n");
    case(
        "not_utf8.toml",
        "ends = \"error\"\nstdin = [{ bytes = [0xff, 0x0a] }, \"3\\n\"]\n",
    );
    // Python's input() reads such a byte as a surrogate (every Python
    // run of a package does): the reference says it.
    edit(
        &package.join("reference/python/demo.py"),
        "            break\n",
        "            break\n        if any(\"\\udc80\" <= c <= \"\\udcff\" for c in line):\n            raise SystemExit(\"a line that is not UTF-8\")\n",
    );
    let blessed = checked("bless", &package);
    assert!(blessed.status.success(), "{}", said(&blessed));
    let crlf = std::fs::read_to_string(package.join("cases/crlf_no_final_newline.toml")).unwrap();
    assert!(crlf.contains("\"Total: 7\""), "{crlf}");
    let verified = checked("verify", &package);
    assert!(verified.status.success(), "{}", said(&verified));
    let (starters, _) = starters_fail_then_pass(&package);
    let rust = std::fs::read_to_string(starters.path().join("rust/tests/demo.rs")).unwrap();
    assert!(
        rust.contains("mod robustness {") && rust.contains("&[0xff_u8, 0x0a_u8][..]"),
        "{rust}"
    );
    let python = std::fs::read_to_string(starters.path().join("python/test_demo.py")).unwrap();
    assert!(python.contains("class TestRobustness:"), "{python}");
    let readme = std::fs::read_to_string(starters.path().join("rust/README.md")).unwrap();
    assert!(
        readme.contains("| robustness | 2 | 0 |")
            && readme.contains("in no level (`cargo test robustness`)"),
        "{readme}"
    );
    graded_on_bytes(dir.path(), &package);
}

/// A class on the byte sessions: a lenient student who reads a byte that
/// is not UTF-8 and carries on fails that case alone; a file that does
/// not read passes nothing, the case that ends in an error included; a
/// missing function is said as missing.
fn graded_on_bytes(dir: &Path, package: &Path) {
    // Lenient: a byte that is not UTF-8 read as U+FFFD, and on it goes.
    let lenient = dir.join("class/lenient");
    std::fs::create_dir_all(&lenient).unwrap();
    std::fs::write(
        lenient.join("demo.py"),
        "import sys\n\n\ndef total(numbers):\n    return sum(numbers)\n\n\ndef play():\n    numbers = []\n    for raw in sys.stdin.buffer:\n        line = raw.decode(errors=\"replace\").rstrip(\"\\r\\n\")\n        try:\n            numbers.append(int(line.strip()))\n        except ValueError:\n            print(\"Not a number: \" + line)\n    print(\"Total: \" + str(total(numbers)))\n\n\nif __name__ == \"__main__\":\n    play()\n",
    )
    .unwrap();
    // Broken: a file that does not read, which never says an error of
    // its own (the case's expected lines are none). Partial: no `total`.
    let broken = dir.join("class/broken");
    std::fs::create_dir_all(&broken).unwrap();
    let reference = std::fs::read_to_string(package.join("reference/python/demo.py")).unwrap();
    let unreadable = reference.replace("def play() -> None:", "def play() -> None");
    assert_ne!(unreadable, reference);
    std::fs::write(broken.join("demo.py"), unreadable).unwrap();
    let partial = dir.join("class/partial");
    std::fs::create_dir_all(&partial).unwrap();
    std::fs::write(
        partial.join("demo.py"),
        reference.replace("def total(", "def soma("),
    )
    .unwrap();
    let out = dir.join("out");
    let graded = grade(package, &out, &[lenient, broken, partial], true);
    assert!(graded.status.success(), "{}", said(&graded));
    let broken_results = std::fs::read_to_string(out.join("students/broken/results.json")).unwrap();
    let broken_results: serde_json::Value = serde_json::from_str(&broken_results).unwrap();
    let passed: Vec<&serde_json::Value> = broken_results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "passed")
        .collect();
    assert!(passed.is_empty(), "{passed:?}");
    let partial_page = std::fs::read_to_string(out.join("students/partial/feedback.md")).unwrap();
    assert!(
        partial_page.contains("has no function total"),
        "{partial_page}"
    );
    assert!(!partial_page.contains("caller.py"), "{partial_page}");
    let results = std::fs::read_to_string(out.join("students/lenient/results.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    let failed: Vec<&str> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] != "passed")
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(failed, ["robustness::not_utf8"], "{results}");
    let rows = grades(&out);
    assert!(
        rows.contains(&"lenient,2,2,1,5,6,proficient".to_owned()),
        "{rows:?}"
    );
    let feedback = std::fs::read_to_string(out.join("students/lenient/feedback.md")).unwrap();
    assert!(feedback.contains("expected an error"), "{feedback}");
}

/// An exam's Python layout: the functions in `funcoes.py`, the program a
/// script `programa.py` of its own (`[python]`). Verify, both starters,
/// a wrong submission patching the script, and a class: a student who
/// hands in `funcoes.py` alone keeps the function cases' points.
#[test]
fn an_exams_two_python_files_are_a_packages_layout() {
    let (dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "[reference]",
        "[python]\nmodule = \"funcoes\"\nprogram = \"programa.py\"\n\n[reference]",
    );
    let python = package.join("reference/python");
    std::fs::remove_file(python.join("demo.py")).unwrap();
    std::fs::write(
        python.join("funcoes.py"),
        "def total(numbers):\n    return sum(numbers)\n",
    )
    .unwrap();
    std::fs::write(python.join("programa.py"), PROGRAMA).unwrap();
    let says_sum = package.join("submissions/says_sum");
    std::fs::remove_file(says_sum.join("demo.py")).unwrap();
    let toml = std::fs::read_to_string(says_sum.join("submission.toml")).unwrap();
    std::fs::write(
        says_sum.join("submission.toml"),
        toml + "\n[[patch]]\nfile = \"programa.py\"\nfind = 'print(\"Total: \"'\nreplace = 'print(\"Sum: \"'\n",
    )
    .unwrap();
    let verified = checked("verify", &package);
    let text = said(&verified);
    assert!(verified.status.success(), "{text}");
    assert!(
        text.contains("ok: the submission says_sum (python) reaches basic"),
        "{text}"
    );
    let (starters, _) = starters_fail_then_pass(&package);
    let script = std::fs::read_to_string(starters.path().join("python/programa.py")).unwrap();
    assert!(script.contains("from funcoes import total"), "{script}");
    // A class: Ana hands in both files, Bruno the functions alone.
    let class = dir.path().join("class");
    copy_folder(&python, &class.join("ana"));
    std::fs::create_dir_all(class.join("bruno")).unwrap();
    std::fs::copy(python.join("funcoes.py"), class.join("bruno/funcoes.py")).unwrap();
    let out = dir.path().join("out");
    let graded = grade(
        &package,
        &out,
        &[class.join("ana"), class.join("bruno")],
        true,
    );
    assert!(graded.status.success(), "{}", said(&graded));
    let rows = grades(&out);
    assert!(
        rows.contains(&"ana,2,2,4,4,proficient".to_owned()),
        "{rows:?}"
    );
    assert!(rows.contains(&"bruno,2,0,2,4,basic".to_owned()), "{rows:?}");
}

/// The demo's program as an exam's script: no function, run from the top.
const PROGRAMA: &str = "from funcoes import total\n\nnumbers = []\nwhile True:\n    try:\n        line = input()\n    except EOFError:\n        break\n    try:\n        numbers.append(int(line.strip()))\n    except ValueError:\n        print(\"Not a number: \" + line)\nprint(\"Total: \" + str(total(numbers)))\n";

/// `grade --exercise --test-points` on a class of crates: each student's
/// `tests/mine.rs` (the starter's example to start from) built against
/// the Rust reference and the package's Rust bugs, as the Python class's
/// are: valid tests that catch the bug score, a test that fails on the
/// reference is invalid, a missing file scores nothing; `boardkit test
/// --exercise --mine` says the same in the crate.
#[test]
fn a_class_of_crates_own_tests_are_graded_by_the_package_s_rust_bugs() {
    let (dir, package) = new_package();
    let wrong = package.join("submissions/off_by_one");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::write(
        wrong.join("submission.toml"),
        "language = \"rust\"\nreaches = \"none\"\ndescription = \"adds one to every total\"\n\n[[patch]]\nfile = \"mod.rs\"\nfind = \"numbers.iter().sum()\"\nreplace = \"numbers.iter().sum::<i64>() + 1\"\n",
    )
    .unwrap();
    let class = dir.path().join("class");
    let mut students = Vec::new();
    for name in ["ana", "bruno", "carla", "dora"] {
        let folder = class.join(name);
        made_starter(&package, &folder, &[]);
        copy_folder(&package.join("reference/rust"), &folder.join("src/demo"));
        students.push(folder);
    }
    // Dora's test tells the versions apart by their library's bytes.
    std::fs::write(
        class.join("dora/tests/mine.rs"),
        "#[test]\nfn same_library() {\n    let lib = include_bytes!(\"/library/libdemo_exercise.rlib\");\n    assert!(lib.len() % 7 != 3);\n}\n",
    )
    .unwrap();
    let example = std::fs::read_to_string(class.join("ana/tests/mine.rs")).unwrap();
    assert!(example.contains("use demo_exercise::demo;"), "{example}");
    std::fs::write(
        class.join("bruno/tests/mine.rs"),
        "use demo_exercise::demo;\n\n#[test]\nfn wrong() {\n    assert_eq!(demo::total(&[1]), 2);\n}\n",
    )
    .unwrap();
    std::fs::remove_file(class.join("carla/tests/mine.rs")).unwrap();
    assert_mine_catches_the_public_bug(&package, &students[0]);
    let out = dir.path().join("out");
    let output = grade_with(&package, &out, &students, false, &["--test-points", "4"]);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    for row in [
        "ana,2,2,4,8,8,proficient",
        "bruno,2,2,0,4,8,proficient",
        "carla,2,2,0,4,8,proficient",
        "dora,2,2,0,4,8,proficient",
    ] {
        assert!(rows.contains(&row.to_owned()), "{row}: {rows:?}");
    }
    let bruno = std::fs::read_to_string(out.join("students/bruno/feedback.md")).unwrap();
    assert!(bruno.contains("wrong"), "{bruno}");
    let dora = std::fs::read_to_string(out.join("students/dora/feedback.md")).unwrap();
    assert!(dora.contains("read files as they compile"), "{dora}");
}

/// A Python student who reads with `input()`: a line that is not UTF-8
/// is read alike by their starter's tests in a UTF-8 terminal and by the
/// grader's sandbox (a surrogate, then "Posição inválida"), so velha's
/// robustness session passes in both.
#[test]
fn a_python_student_s_input_reads_bytes_locally_as_the_grader_does() {
    let dir = tempfile::tempdir().unwrap();
    let starter = dir.path().join("ana");
    let made = boardkit()
        .args(["starter", "--exercise", "velha", "--language", "python"])
        .arg(&starter)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", said(&made));
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../exercises/velha/package");
    let reference = std::fs::read_to_string(kit.join("reference/python/velha.py")).unwrap();
    let student = reference.replace(
        "if __name__ == \"__main__\":",
        "def le_linha():\n    try:\n        return input()\n    except EOFError:\n        return None\n\n\nif __name__ == \"__main__\":",
    );
    assert_ne!(student, reference);
    std::fs::write(starter.join("velha.py"), student).unwrap();
    let has_pytest = Command::new("/usr/bin/python3")
        .args(["-m", "pytest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_pytest || std::env::var_os("CI").is_none(),
        "CI has pytest"
    );
    if has_pytest {
        // As in a student's terminal (pt_BR.UTF-8: strict UTF-8; this
        // machine's C.UTF-8 reads as the sandbox does).
        let pytest = Command::new("/usr/bin/python3")
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-k",
                "invalid_utf8",
            ])
            .current_dir(&starter)
            .env("PYTHONIOENCODING", "utf-8:strict")
            .output()
            .unwrap();
        assert!(pytest.status.success(), "{}", said(&pytest));
    }
    let out = dir.path().join("out");
    let graded = grade(Path::new("velha"), &out, &[starter], true);
    assert!(graded.status.success(), "{}", said(&graded));
    let results = std::fs::read_to_string(out.join("students/ana/results.json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&results).unwrap();
    let case = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "robustness::invalid_utf8")
        .cloned()
        .unwrap_or_default();
    assert_eq!(case["status"], "passed", "{case}");
}

/// `boardkit test --exercise PACKAGE --mine` in `starter` says its own
/// tests catch the package's one public bug.
fn assert_mine_catches_the_public_bug(package: &Path, starter: &Path) {
    let local = boardkit()
        .args(["test", "--exercise"])
        .arg(package)
        .arg(starter)
        .arg("--mine")
        .output()
        .unwrap();
    assert!(
        said(&local).contains("your tests catch 1 of 1 public bugs"),
        "{}",
        said(&local)
    );
}

/// A package's feedback pages speak its statement's locale (velha's,
/// pt-BR): the page's own words, each failure's, the level reached and
/// the page's language; an English package's speak English.
#[test]
fn a_packages_feedback_pages_speak_its_statements_locale() {
    let dir = tempfile::tempdir().unwrap();
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../exercises/velha/package");
    let reference = std::fs::read_to_string(kit.join("reference/python/velha.py")).unwrap();
    // The package's own wrong submission: a column counted from one.
    let student = reference.replace(
        "    return int(_cells(posicao)[1]) - 1\n",
        "    return int(_cells(posicao)[1])\n",
    );
    assert_ne!(student, reference);
    let ana = dir.path().join("ana");
    std::fs::create_dir_all(&ana).unwrap();
    std::fs::write(ana.join("velha.py"), student).unwrap();
    // A file without a function, and one that imports what is not there:
    // the caller's own words are the package's locale too.
    let (bia, caio) = (dir.path().join("bia"), dir.path().join("caio"));
    std::fs::create_dir_all(&bia).unwrap();
    std::fs::write(
        bia.join("velha.py"),
        "def extrai_coluna(p):\n    return 0\n",
    )
    .unwrap();
    std::fs::create_dir_all(&caio).unwrap();
    std::fs::write(caio.join("velha.py"), "import nao_existe\n").unwrap();
    // An empty folder: why it has nothing, in the package's locale.
    let dani = dir.path().join("dani");
    std::fs::create_dir_all(&dani).unwrap();
    let out = dir.path().join("out");
    let graded = grade(Path::new("velha"), &out, &[ana, bia, caio, dani], true);
    assert!(graded.status.success(), "{}", said(&graded));
    for (name, words, english) in [
        (
            "bia",
            "velha.py não tem a função extrai_linha",
            "has no function",
        ),
        (
            "caio",
            "velha.py não pode ser importado: ModuleNotFoundError",
            "cannot be imported",
        ),
        ("dani", "uma pasta vazia: nada a corrigir", "empty folder"),
    ] {
        let page =
            std::fs::read_to_string(out.join(format!("students/{name}/feedback.md"))).unwrap();
        assert!(
            page.contains(words) && !page.contains(english),
            "{name}: {page}"
        );
    }
    let page = std::fs::read_to_string(out.join("students/ana/feedback.md")).unwrap();
    for words in [
        "# Jogo da velha: retorno para ana",
        "Nível alcançado: **nenhum**.",
        "| parte | pontos |",
        "devolveu",
    ] {
        assert!(page.contains(words), "{words}: {page}");
    }
    for english in ["feedback for", "Level reached", "returned", "hidden case"] {
        assert!(!page.contains(english), "{english}: {page}");
    }
    let html = std::fs::read_to_string(out.join("students/ana/feedback.html")).unwrap();
    assert!(html.contains("<html lang=\"pt-BR\">"), "{html}");
    assert!(
        html.contains("<caption>Pontos por parte</caption>"),
        "{html}"
    );
    notes_in_the_packages_locale(dir.path(), &kit);
    // English: the kit's own words.
    let (_dir, package) = new_package();
    let out = dir.path().join("out-en");
    let graded = grade(&package, &out, &[package.join("reference/python")], true);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/python/feedback.md")).unwrap();
    assert!(page.contains("Level reached: **proficient**."), "{page}");
}

/// The kit's notes on a crate's code (`--style-points`) in the package's
/// locale: an `unwrap()` in velha's Portuguese.
fn notes_in_the_packages_locale(dir: &Path, kit: &Path) {
    let davi = dir.join("davi");
    made_starter(Path::new("velha"), &davi, &[]);
    let reference = std::fs::read_to_string(kit.join("reference/rust/mod.rs")).unwrap();
    std::fs::write(
        davi.join("src/velha/mod.rs"),
        reference + "\n/// A helper.\npub fn ajuda(x: Option<u8>) -> u8 {\n    x.unwrap()\n}\n",
    )
    .unwrap();
    let out = dir.join("out-rust");
    let graded = grade_with(
        Path::new("velha"),
        &out,
        &[davi],
        false,
        &["--style-points", "1"],
    );
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/davi/feedback.md")).unwrap();
    assert!(page.contains("interrompe o programa num None"), "{page}");
    assert!(!page.contains("stops the program"), "{page}");
}

/// A type the statement gives (`[[type]]`, its code in `[given]`): its
/// values made and read by each language's codec, through verify, both
/// starters (the kit's `given` beside the student's folder) and a class
/// in each language graded at the levels its students reach.
#[test]
fn a_given_type_is_made_and_read_by_its_codec_in_both_languages() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/given");
    let output = checked("verify", &package);
    assert!(output.status.success(), "{}", said(&output));
    let (starters, _) = starters_fail_then_pass(&package);
    let rust = starters.path().join("rust");
    let lib = std::fs::read_to_string(rust.join("src/lib.rs")).unwrap();
    assert!(lib.contains("pub mod given;") && rust.join("src/given.rs").is_file());
    let python = starters.path().join("python");
    assert!(python.join("given.py").is_file());
    // A failure shows a given value by its name, not its codec's code.
    let tests = std::fs::read_to_string(python.join("test_pegs.py")).unwrap();
    assert!(
        tests.contains("\"pegs.blacks(Code([0, 1, 2, 3]), Code([0, 1, 2, 3])) returned %s"),
        "{tests}"
    );
    let tests = std::fs::read_to_string(rust.join("tests/pegs.rs")).unwrap();
    assert!(
        tests.contains("\"pegs::parse(\\\"ABCD\\\")\"")
            && !tests.contains("\"pegs::blacks(&Code::from_colors"),
        "{tests}"
    );
    given_types_graded_in_python(&package);
    given_types_graded_in_rust(&package);
}

/// A Python class: the reference, a wrong `blacks`, and a student who
/// wrote a `given.py` of their own (the kit's is used, as in a starter).
fn given_types_graded_in_python(package: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let reference = std::fs::read_to_string(package.join("reference/python/pegs.py")).unwrap();
    let students = [
        ("ana", reference.clone(), "proficient"),
        (
            "bia",
            reference.replace(
                "return sum(1 for a, b in zip(secret.colors, guess.colors) if a == b)",
                "return sum(1 for b in guess.colors if b in secret.colors)",
            ),
            "none",
        ),
        ("caio", reference.clone(), "proficient"),
    ];
    let mut folders = Vec::new();
    for (name, source, _) in &students {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("pegs.py"), source).unwrap();
        folders.push(folder);
    }
    std::fs::write(folders[2].join("given.py"), "class Code:\n    pass\n").unwrap();
    // Own tests in Python cannot pass a given type's objects: refused.
    let own = dir.path().join("own");
    let refused = grade_with(package, &own, &folders, true, &["--test-points", "2"]);
    assert_eq!(refused.status.code(), Some(2), "{}", said(&refused));
    assert!(said(&refused).contains("own tests in Python are not graded on pegs"));
    let out = dir.path().join("out");
    let output = grade(package, &out, &folders, true);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    for (name, _, level) in students {
        let row = rows
            .iter()
            .find(|r| r.starts_with(&format!("{name},")))
            .unwrap();
        assert!(
            row.ends_with(&format!(",{level}")),
            "{row}: expected {level}"
        );
    }
}

/// A class of crates: the reference, and parse taking three letters
/// (the package's Rust mutant), which reaches basic only.
fn given_types_graded_in_rust(package: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let reference = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    let mutant = reference.replace("(colors.len() == 4)", "(colors.len() >= 3)");
    assert_ne!(mutant, reference);
    let mut crates = Vec::new();
    for (name, source) in [("dora", &reference), ("edu", &mutant)] {
        let folder = dir.path().join(name);
        made_starter(package, &folder, &[]);
        std::fs::write(folder.join("src/pegs/mod.rs"), source).unwrap();
        crates.push(folder);
    }
    // dora's own test uses the given type, and catches the mutant.
    std::fs::write(
        crates[0].join("tests/mine.rs"),
        "use pegs_exercise::given::Code;\nuse pegs_exercise::pegs;\n\n#[test]\nfn three_letters_are_no_code() {\n    assert_eq!(pegs::parse(\"ABC\"), None::<Code>);\n}\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = grade_with(package, &out, &crates, false, &["--test-points", "2"]);
    assert!(output.status.success(), "{}", said(&output));
    let rows = grades(&out);
    // The columns: basic, proficient, tests (2 x the one Rust mutant
    // caught), score, max_score, level.
    assert_eq!(
        rows,
        [
            "submission,basic,proficient,tests,score,max_score,level",
            "dora,2,2,2,6,6,proficient",
            "edu,2,0,0,2,6,basic",
        ],
    );
}

/// A class the student writes (`[[class]]`): each case's object made,
/// then its methods called in turn, through verify, both starters and a
/// class in each language, whose failures show the steps to the first
/// wrong answer.
#[test]
fn a_class_is_made_then_its_methods_called_in_both_languages() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scoreboard");
    let output = checked("verify", &package);
    assert!(output.status.success(), "{}", said(&output));
    let (starters, _) = starters_fail_then_pass(&package);
    let stub = std::fs::read_to_string(starters.path().join("rust/tests/scoreboard.rs")).unwrap();
    // Each step checked as it comes, its object held in a name that
    // hides no module; a constructor refusing what the reference refused.
    assert!(
        stub.contains("super::check(a_scoreboard.score(\"zoe\"), &[None], ")
            && stub.contains("super::check(made.as_ref().map(|_| ()).map_err(|_| ()), &[Err(())], \"scoreboard::Scoreboard::new(&[String::from(\\\"ana\\\"), String::from(\\\"bia\\\"), String::from(\\\"ana\\\")])\");"),
        "{stub}"
    );
    let dir = tempfile::tempdir().unwrap();
    let reference =
        std::fs::read_to_string(package.join("reference/python/scoreboard.py")).unwrap();
    let last_on_ties = reference.replace(
        "self.scores_of[p] > self.scores_of[best]",
        "self.scores_of[p] >= self.scores_of[best]",
    );
    // Points given, then forgotten: each call a board of its own.
    let forgets = reference.replace(
        "self.scores_of[player] += points",
        "self.scores_of = {p: 0 for p in self.players}\n        self.scores_of[player] += points",
    );
    // A name given twice taken.
    let twice = reference.replace("raise ValueError(\"a name is given twice\")", "pass");
    // Right, its scores() the very list it keeps changing: each answer
    // is the list as it was when returned.
    let keeps = "class Scoreboard:\n    def __init__(self, players):\n        if len(set(players)) != len(players):\n            raise ValueError(\"twice\")\n        self.names = list(players)\n        self.points = [0] * len(players)\n\n    def add(self, player, points):\n        i = self.names.index(player)\n        self.points[i] += points\n        return self.points[i]\n\n    def score(self, player):\n        return self.points[self.names.index(player)] if player in self.names else None\n\n    def scores(self):\n        return self.points\n\n    def leader(self):\n        if not self.names:\n            return None\n        return self.names[self.points.index(max(self.points))]\n\n    def reset(self):\n        for i in range(len(self.points)):\n            self.points[i] = 0\n\n\ndef ranking(board):\n    order = sorted(range(len(board.names)), key=lambda i: -board.points[i])\n    return [board.names[i] for i in order]\n".to_owned();
    let mut folders = Vec::new();
    for (name, source) in [
        ("ana", &reference),
        ("bia", &last_on_ties),
        ("caio", &forgets),
        ("dan", &twice),
        ("eva", &keeps),
    ] {
        assert!(name == "ana" || *source != reference, "{name}: no bug made");
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("scoreboard.py"), source).unwrap();
        folders.push(folder);
    }
    let refused = grade_with(
        &package,
        &dir.path().join("own"),
        &folders,
        true,
        &["--test-points", "1"],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", said(&refused));
    assert!(said(&refused).contains("which has classes ([[class]])"));
    let out = dir.path().join("out");
    let output = grade(&package, &out, &folders, true);
    assert!(output.status.success(), "{}", said(&output));
    assert_eq!(
        grades(&out),
        [
            "submission,basic,proficient,score,max_score,level",
            "ana,4,3,7,7,proficient",
            "bia,4,2,6,7,basic",
            "caio,2,1,3,7,none",
            "dan,3,3,6,7,none",
            "eva,4,3,7,7,proficient",
        ]
    );
    let page = std::fs::read_to_string(out.join("students/dan/feedback.md")).unwrap();
    assert!(
        page.contains("scoreboard.Scoreboard([\"ana\", \"bia\", \"ana\"]) returned an object, expected an exception"),
        "{page}"
    );
    let page = std::fs::read_to_string(out.join("students/bia/feedback.md")).unwrap();
    assert!(
        page.contains("a_scoreboard = scoreboard.Scoreboard([\"ana\", \"bia\", \"caio\"]); a_scoreboard.leader() returned \"caio\", expected \"ana\""),
        "{page}"
    );
    let page = std::fs::read_to_string(out.join("students/caio/feedback.md")).unwrap();
    assert!(
        page.contains("a_scoreboard.add(\"ana\", 3); a_scoreboard.add(\"bia\", 2); a_scoreboard.add(\"ana\", 4) returned 4, expected 7"),
        "{page}"
    );
    class_graded_in_rust(&package);
}

/// A class of crates: the reference with an own test of a class's
/// methods, which catches the package's Rust bug.
fn class_graded_in_rust(package: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let reference = std::fs::read_to_string(package.join("reference/rust/mod.rs")).unwrap();
    let folder = dir.path().join("dora");
    made_starter(package, &folder, &[]);
    std::fs::write(folder.join("src/scoreboard/mod.rs"), &reference).unwrap();
    std::fs::write(
        folder.join("tests/mine.rs"),
        "use scoreboard_exercise::scoreboard::Scoreboard;\n\n#[test]\nfn a_stranger_is_refused() {\n    let mut board = Scoreboard::new(&[\"ana\".to_owned()]).unwrap();\n    assert!(board.add(\"zoe\", 1).is_err());\n    assert_eq!(board.score(\"zoe\"), None);\n}\n",
    )
    .unwrap();
    // The last leader on a tie: its answer said as Rust writes it.
    let edu = dir.path().join("edu");
    made_starter(package, &edu, &[]);
    let last = reference.replace("entry.1 > b.1", "entry.1 >= b.1");
    assert_ne!(last, reference);
    std::fs::write(edu.join("src/scoreboard/mod.rs"), last).unwrap();
    let out = dir.path().join("out");
    let output = grade_with(
        package,
        &out,
        &[folder, edu],
        false,
        &["--test-points", "2"],
    );
    assert!(output.status.success(), "{}", said(&output));
    assert_eq!(
        grades(&out),
        [
            "submission,basic,proficient,tests,score,max_score,level",
            "dora,4,3,2,9,9,proficient",
            "edu,4,2,0,6,9,basic",
        ]
    );
    let page = std::fs::read_to_string(out.join("students/edu/feedback.md")).unwrap();
    assert!(
        page.contains("a_scoreboard.leader() returned Some(\"caio\"), expected Some(\"ana\")"),
        "{page}"
    );
}

/// Velha's Python exam as a package variant (`velha-exam`, built in):
/// the exams of `grading/python_exams/`, written from the exam's own
/// statement and graded by hand, get through it the grades the built-in
/// Python path gives them (`grade.rs` checks those levels), level by
/// level. `verifica_vencedor` is taken in either of the exam's forms
/// (`spread`), and in the list form alone where the advanced level asks
/// for it (ana writes nine strings, kaio `*casas`, joana reads both).
#[test]
fn velhas_python_exam_is_a_package_that_grades_as_the_built_in_does() {
    let dir = tempfile::tempdir().unwrap();
    let exams = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grading/python_exams");
    let names = [
        "ana", "bruno", "carla", "diego", "eduarda", "felipe", "gabriel", "helena", "iara",
        "joana", "kaio",
    ];
    let out = dir.path().join("out");
    let class: Vec<PathBuf> = names.iter().map(|n| exams.join(n)).collect();
    let graded = grade(Path::new("velha-exam"), &out, &class, true);
    assert!(graded.status.success(), "{}", said(&graded));
    // Name, basic, proficient, advanced, expert, score, of, level: the
    // built-in's table for the same class.
    let expected = [
        "ana,4,15,6,0,25,30,proficient",
        "bruno,4,0,1,0,5,30,basic",
        "carla,4,0,1,0,5,30,basic",
        "diego,4,15,7,4,30,30,expert",
        "eduarda,2,13,6,0,21,30,none",
        "felipe,3,15,7,0,25,30,none",
        "gabriel,0,0,0,0,0,30,none",
        "helena,4,15,4,0,23,30,proficient",
        "iara,4,15,7,4,30,30,expert",
        "joana,4,15,7,4,30,30,expert",
        "kaio,4,15,6,4,29,30,proficient",
    ];
    let rows = grades(&out);
    for row in expected {
        assert!(rows.contains(&row.to_owned()), "{row}: {rows:#?}");
    }
    let page = std::fs::read_to_string(out.join("students/ana/feedback.md")).unwrap();
    assert!(
        page.contains("verifica_vencedor recebe os itens do seu argumento um a um (9 parâmetros)"),
        "{page}"
    );
    // `*casas` takes one argument, and fails reading nine: said so.
    let page = std::fs::read_to_string(out.join("students/kaio/feedback.md")).unwrap();
    assert!(
        page.contains("levantou IndexError: tuple index out of range: ela lê os itens um a um"),
        "{page}"
    );
    // The levels as the course names them.
    assert!(page.contains("Nível alcançado: **proficiente**"), "{page}");
    the_exams_starter_takes_either_form(dir.path(), &exams);
}

/// The exam's Python starter calls `verifica_vencedor` as the grader does:
/// ana's nine strings pass the basic level and fail the list form, saying
/// why.
fn the_exams_starter_takes_either_form(dir: &Path, exams: &Path) {
    let starter = dir.join("ana");
    let made = boardkit()
        .args([
            "starter",
            "--exercise",
            "velha-exam",
            "--language",
            "python",
        ])
        .arg(&starter)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", said(&made));
    for file in ["funcoes.py", "programa.py"] {
        std::fs::copy(exams.join("ana").join(file), starter.join(file)).unwrap();
    }
    let run = |level: &str| {
        Command::new("/usr/bin/python3")
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", level])
            .current_dir(&starter)
            .output()
            .unwrap()
    };
    let basic = run("TestBasic");
    assert!(basic.status.success(), "{}", said(&basic));
    let advanced = run("list_form");
    assert!(!advanced.status.success(), "{}", said(&advanced));
    assert!(
        said(&advanced).contains("verifica_vencedor recebe os itens do seu argumento um a um"),
        "{}",
        said(&advanced)
    );
    // A wrong best move, shown as the grader shows it: a tuple.
    std::fs::write(
        starter.join("funcoes.py"),
        "def melhor_jogada(tabuleiro):\n    return (2, 1)\n",
    )
    .unwrap();
    let expert = run("end_game");
    assert!(
        said(&expert).contains("devolveu (2, 1); valores aceitos: (2, 0), (2, 2)"),
        "{}",
        said(&expert)
    );
}
