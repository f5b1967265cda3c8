//! A Python starter where students' Pythons are: made with a `python3`
//! that lacks pytest, it says the command that installs pytest for that
//! very interpreter; and nothing it writes names a Rust command.

use std::path::Path;
use std::process::Command;

/// `boardkit starter velha DIR --language python [--locale L]` with `path`
/// as the PATH: its output.
fn starter(dir: &Path, locale: &str, path: &str) -> String {
    let made = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["starter", "velha"])
        .arg(dir)
        .args(["--language", "python", "--locale", locale])
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    String::from_utf8(made.stdout).unwrap()
}

#[test]
#[ignore = "long: makes a virtual environment (6 s); .ci/run runs it"]
fn a_python3_without_pytest_is_told_the_command_for_it() {
    let scratch = tempfile::tempdir().unwrap();
    let venv = scratch.path().join("venv");
    // A virtual environment, as `python3 -m venv` makes one: pip, no pytest.
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    if !made.status.success() {
        eprintln!("skipped: python3 -m venv fails here (no ensurepip): {made:?}");
        return;
    }
    let path = format!("{}:/usr/bin:/bin", venv.join("bin").display());
    let python = Command::new(venv.join("bin/python3"))
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let python = String::from_utf8(python.stdout).unwrap();
    let out = starter(&scratch.path().join("pt"), "pt-BR", &path);
    let said = format!(
        "falta o pytest: o python3 que roda os testes ({}) não o tem.\n\
         Instale-o para este mesmo python3:\n    python3 -m pip install pytest\npróximo passo: ",
        python.trim()
    );
    assert!(out.contains(&said), "{out}");
    // Its tests, run without pytest, say it too, in its language; not
    // when pytest runs them (its python3 is then another one).
    let tested = |under_pytest: bool| {
        let mut test = Command::new(env!("CARGO_BIN_EXE_boardkit"));
        test.args(["test", "velha"])
            .arg(scratch.path().join("pt"))
            .args(["--language", "python", "--level", "basic"])
            .env("PATH", &path)
            .env_remove("PYTEST_CURRENT_TEST");
        if under_pytest {
            test.env(
                "PYTEST_CURRENT_TEST",
                "tests/test_velha.py::test_level[basic] (call)",
            );
        }
        let run = test.output().unwrap();
        assert_eq!(run.status.code(), Some(1), "{run:?}");
        String::from_utf8(run.stderr).unwrap()
    };
    let stderr = tested(false);
    assert!(
        stderr.contains(&said[..said.len() - "próximo passo: ".len()]),
        "{stderr}"
    );
    assert!(!tested(true).contains("pytest"));
    let out = starter(&scratch.path().join("en"), "en", &path);
    assert!(
        out.contains("pytest is missing: the python3 that runs the tests (")
            && out.contains("\n    python3 -m pip install pytest\nnext: "),
        "{out}"
    );
}

#[test]
fn a_python3_with_pytest_is_told_nothing_of_it() {
    let Some(dir) = ["python3", "/usr/bin/python3"]
        .into_iter()
        .find_map(|python| {
            let found = Command::new(python)
                .args(["-c", "import pytest, sys; print(sys.executable)"])
                .output()
                .ok()?;
            let path = String::from_utf8(found.stdout).ok()?;
            let path = Path::new(path.trim()).parent()?.to_owned();
            found.status.success().then_some(path)
        })
    else {
        eprintln!("skipped: no python3 with pytest here");
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let path = format!("{}:/usr/bin:/bin", dir.display());
    let out = starter(&scratch.path().join("pt"), "pt-BR", &path);
    assert!(!out.contains("pytest:") && !out.contains("falta"), "{out}");
}

/// Every file a Python starter writes, in each of its languages, and what
/// `boardkit starter` says: Python's commands, never Cargo's.
#[test]
fn a_python_starter_names_no_cargo_command() {
    let scratch = tempfile::tempdir().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    for locale in ["en", "pt-BR"] {
        let dir = scratch.path().join(locale);
        let out = starter(&dir, locale, &path);
        assert!(!out.contains("cargo"), "{out}");
        let mut files = vec![dir.clone()];
        let mut seen = 0;
        while let Some(file) = files.pop() {
            if file.is_dir() {
                files.extend(std::fs::read_dir(&file).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            seen += 1;
            let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
            assert!(!text.contains("cargo"), "{}:\n{text}", file.display());
        }
        assert!(seen > 8, "{locale}: {seen} files");
        // The README's virtual environment stays out of the student's repository.
        let ignored = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
        assert!(ignored.lines().any(|l| l == "/.venv/"), "{ignored}");
    }
}

/// What watch mode writes in a Python starter (the hints opened) names no
/// Cargo command either.
#[test]
fn a_python_starters_watch_writes_no_cargo_command() {
    use std::io::Write;
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("pt");
    starter(&dir, "pt-BR", &std::env::var("PATH").unwrap_or_default());
    let mut watch = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["watch", "velha", "--language", "python"])
        .arg(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A hint, then quit: each line waits for the run before it.
    watch.stdin.take().unwrap().write_all(b"h\nq\n").unwrap();
    let out = watch.wait_with_output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    // In the starter's language.
    assert!(shown.contains("dica 1 de"), "{shown}");
    let opened = std::fs::read_to_string(dir.join(".boardkit/hints-opened.toml")).unwrap();
    assert!(
        opened.contains("basic = 1") && !opened.contains("cargo"),
        "{opened}"
    );
}
