//! Exercise packages (docs/authors.md), from the binary: `new` writes one
//! that `verify` passes; `verify` fails a package that lies (a submission
//! whose level is not the one it declares, an answer the reference does not
//! give, a rule never stated) and refuses one that breaks the format (an
//! unknown key, a bad type, a link out of it), naming the file and line;
//! `bless` writes the reference's answers; `starter --exercise` writes
//! Rust and Python starters whose tests fail on the stub and pass with
//! the reference, and which hold no hidden case.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn boardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardkit"))
}

/// `verify` or `bless` in the sandbox where bubblewrap is installed (CI
/// installs it), without it on a developer's machine that has none.
fn checked(command: &str, dir: &Path) -> Output {
    let mut run = boardkit();
    run.arg(command).arg(dir);
    if Command::new("bwrap").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI installs bubblewrap");
        run.arg("--no-sandbox");
    }
    run.output().unwrap()
}

fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A new package `demo` in a fresh folder.
fn new_package() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("demo");
    let output = boardkit()
        .args(["new", "demo"])
        .arg(&package)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", said(&output));
    (dir, package)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_new_package_verifies_as_it_stands() {
    let (_dir, package) = new_package();
    let output = checked("verify", &package);
    let text = said(&output);
    assert!(output.status.success(), "{text}");
    for check in [
        "the rust reference passes every case",
        "the python reference passes every case",
        "the generated rust stub fails every level",
        "the generated python stub fails every level",
        "the submission says_sum (python) reaches basic",
        "no starter holds a hidden case",
        "time limits",
    ] {
        assert!(text.contains(&format!("ok: {check}")), "{check}: {text}");
    }
}

#[test]
fn verify_fails_a_package_that_lies() {
    let lies: [(&str, &str, &str, &str); 4] = [
        // A wrong submission declared to reach the top level.
        (
            "submissions/says_sum/submission.toml",
            "reaches = \"basic\"",
            "reaches = \"proficient\"",
            "reaches basic, declared proficient",
        ),
        // A blessed answer the reference does not give.
        (
            "cases/total_small.toml",
            "expect = 6",
            "expect = 7",
            "returned 6, expected 7",
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
}

#[test]
fn a_broken_package_is_refused_naming_its_file_and_line() {
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "exercise.toml",
            "title = ",
            "colour = \"red\"\ntitle = ",
            "exercise.toml:4: unknown field `colour`",
        ),
        (
            "exercise.toml",
            "type = \"list<int>\"",
            "type = \"list<float>\"",
            "unknown type `float`",
        ),
        (
            "exercise.toml",
            "format = 1",
            "format = 2",
            "exercise.toml:2: format 2 is not one this kit reads",
        ),
        (
            "cases/total_small.toml",
            "args = [[1, 2, 3]]",
            "args = [[1, \"two\", 3]]",
            "total_small.toml:7: argument `numbers`",
        ),
    ];
    for (file, from, to, why) in cases {
        let (_dir, package) = new_package();
        edit(&package.join(file), from, to);
        let output = checked("verify", &package);
        let text = said(&output);
        assert_eq!(output.status.code(), Some(1), "{why}: {text}");
        assert!(text.contains(why), "{why}: {text}");
    }
}

#[test]
fn a_package_never_reaches_outside_its_folder() {
    let (dir, package) = new_package();
    let outside = dir.path().join("secret.md");
    std::fs::write(&outside, "<a id=\"rule-1\"></a><a id=\"rule-2\"></a>").unwrap();
    std::fs::remove_file(package.join("statement/en.md")).unwrap();
    std::os::unix::fs::symlink(&outside, package.join("statement/en.md")).unwrap();
    let text = said(&checked("verify", &package));
    assert!(text.contains("is a link"), "{text}");
    let (_dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "statement/en.md",
        "../secret.md",
    );
    let text = said(&checked("verify", &package));
    assert!(text.contains("stay inside its folder"), "{text}");
}

#[test]
fn bless_writes_the_references_answers_and_keeps_the_comments() {
    let (_dir, package) = new_package();
    let case = package.join("cases/total_small.toml");
    edit(&case, "expect = 6", "# the sum\nexpect = 0");
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
    assert!(checked("verify", &package).status.success());
}

#[test]
fn a_packages_starters_fail_on_the_stub_and_pass_with_the_reference() {
    let (dir, package) = new_package();
    let rust = dir.path().join("rust");
    let output = boardkit()
        .args(["starter", "--exercise"])
        .arg(&package)
        .arg(&rust)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", said(&output));
    let test = || {
        Command::new("cargo")
            .args(["test", "-q", "--offline"])
            .current_dir(&rust)
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap()
    };
    let failed = test();
    assert!(!failed.status.success(), "{}", said(&failed));
    assert!(
        said(&failed).contains("basic::total_small"),
        "{}",
        said(&failed)
    );
    std::fs::copy(
        package.join("reference/rust/mod.rs"),
        rust.join("src/demo/mod.rs"),
    )
    .unwrap();
    let passed = test();
    assert!(passed.status.success(), "{}", said(&passed));
    let python = dir.path().join("python");
    let output = boardkit()
        .args(["starter", "--exercise"])
        .arg(&package)
        .arg(&python)
        .args(["--language", "python"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", said(&output));
    for file in ["demo.py", "test_demo.py", "STATEMENT.md", "README.md"] {
        let text = std::fs::read_to_string(python.join(file)).unwrap();
        assert!(
            !text.contains("total_negative") && !text.contains("-4, 10, -1"),
            "{file}: a hidden case"
        );
    }
    let source = std::fs::read_to_string(rust.join("tests/demo.rs")).unwrap();
    assert!(
        !source.contains("total_negative"),
        "the Rust starter names a hidden case"
    );
}
