//! What the tests of exercise packages share (`packages.rs` in the kit's
//! tests, `package_grading.rs` in the long ones): the binary, a new
//! package, and the packages written from their statements alone.
#![allow(dead_code)] // each binary uses its part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn boardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardkit"))
}

/// `verify` or `bless` in the sandbox where bubblewrap is installed (CI
/// installs it), without it on a developer's machine that has none.
pub(crate) fn checked(command: &str, dir: &Path) -> Output {
    let mut run = boardkit();
    // As an instructor types it: the folder's name, from where it is.
    if let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) {
        run.current_dir(parent).arg(command).arg(name);
    } else {
        run.arg(command).arg(dir);
    }
    if Command::new("bwrap").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI installs bubblewrap");
        run.arg("--no-sandbox");
    }
    run.output().unwrap()
}

pub(crate) fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A new package `demo` in a fresh folder.
pub(crate) fn new_package() -> (tempfile::TempDir, PathBuf) {
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

pub(crate) fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// `boardkit grade --exercise` with the sandbox where CI has it.
pub(crate) fn grade(package: &Path, out: &Path, submissions: &[PathBuf], python: bool) -> Output {
    grade_with(package, out, submissions, python, &[])
}

/// `boardkit grade --exercise` with `extra` options.
pub(crate) fn grade_with(
    package: &Path,
    out: &Path,
    submissions: &[PathBuf],
    python: bool,
    extra: &[&str],
) -> Output {
    let mut run = boardkit();
    run.args(["grade", "--exercise"])
        .arg(package)
        .args(submissions)
        .arg("--out")
        .arg(out)
        .args(extra);
    if python {
        run.args(["--language", "python"]);
    }
    if Command::new("bwrap").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI installs bubblewrap");
        run.arg("--no-sandbox");
    }
    run.output().unwrap()
}

pub(crate) fn grades(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("grades.csv"))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The packages written from their statements alone, as instructors
/// would (`cli/tests/data/packages/`): found by their folders, so that no
/// Rust file of the kit names them.
pub(crate) fn written_packages() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/packages");
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("exercise.toml").is_file())
        .collect();
    found.sort();
    found
}

/// A package's name, as its manifest says it.
pub(crate) fn name_of(package: &Path) -> String {
    let text = std::fs::read_to_string(package.join("exercise.toml")).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    table["name"].as_str().unwrap().to_owned()
}

pub(crate) fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.path().is_dir() {
            copy_folder(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// `--no-sandbox` where bubblewrap is missing (never in CI).
pub(crate) fn sandbox_flag() -> Vec<&'static str> {
    if Command::new("bwrap").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI installs bubblewrap");
        return vec!["--no-sandbox"];
    }
    Vec::new()
}

/// `boardkit starter --exercise PACKAGE FOLDER` with `extra` options
/// (`--language python`), which must succeed.
pub(crate) fn made_starter(package: &Path, folder: &Path, extra: &[&str]) {
    let made = boardkit()
        .args(["starter", "--exercise"])
        .arg(package)
        .arg(folder)
        .args(extra)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", said(&made));
}
