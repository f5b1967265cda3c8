//! Students' own tests, graded by the bugs they catch (`boardkit grade
//! --test-points`, `boardkit test --mine`): a class of four kinds of
//! suites, in Rust and in Python, each given the tests column it deserves.
//! Kit-only: not copied into starters.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::grade::{boardkit, correct_crate, grade_command, kit, python_with_pytest};

/// A velha crate at `dir`: the reference over the starter's stubs, and
/// `mine` as its own tests (none when `None`).
fn velha_crate(dir: &Path, mine: Option<&Path>) {
    correct_crate(dir);
    match mine {
        Some(mine) => std::fs::copy(mine, dir.join("tests/mine.rs"))
            .map(|_| ())
            .unwrap(),
        None => std::fs::remove_file(dir.join("tests/mine.rs")).unwrap(),
    }
}

/// `boardkit grade velha EXTRA... SUBMISSIONS --test-points 10 --timeout 3
/// --out OUT`, which must succeed: each submission's `tests` column.
fn graded(extra: &[&str], submissions: &[PathBuf], out: &Path) -> BTreeMap<String, f64> {
    let graded = grade_command()
        .arg("velha")
        .args(extra)
        .args(submissions)
        .args(["--test-points", "10", "--timeout", "3", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        graded.status.success(),
        "{}",
        String::from_utf8_lossy(&graded.stderr)
    );
    tests_column(out)
}

/// No student's feedback among `names` says what a hidden mutant of
/// `path` breaks.
fn no_hidden_mutant_named(out: &Path, names: &[&str], path: &str) {
    for name in names {
        let page = feedback(out, name);
        for breaks in hidden_breaks(path) {
            assert!(
                !page.contains(&breaks),
                "{name}'s feedback names {breaks:?}"
            );
        }
    }
}

/// Each submission's `tests` column.
fn tests_column(out: &Path) -> BTreeMap<String, f64> {
    let text = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "tests")
        .expect("a tests column");
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            (fields[0].to_owned(), fields[at].parse().unwrap())
        })
        .collect()
}

fn own_tests(out: &Path, name: &str) -> serde_json::Value {
    let path = out.join("students").join(name).join("results.json");
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    results["own_tests"]["verdict"].clone()
}

/// What the hidden mutants break: never in a student's feedback.
/// What each hidden mutant breaks: `breaks` in a game's mutations file,
/// or the `description` of each of a package's `hidden/mutants/`.
fn hidden_breaks(path: &str) -> Vec<String> {
    let texts: Vec<String> = match kit(path).is_dir() {
        true => std::fs::read_dir(kit(path))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path().join("submission.toml")).unwrap())
            .collect(),
        false => vec![std::fs::read_to_string(kit(path)).unwrap()],
    };
    let breaks: Vec<String> = texts
        .iter()
        .flat_map(|text| text.lines())
        .filter_map(|l| {
            l.strip_prefix("breaks = \"")
                .or_else(|| l.strip_prefix("description = \""))
        })
        .map(|l| l.trim_end_matches('"').to_owned())
        .collect();
    assert!(!breaks.is_empty(), "{path}");
    breaks
}

fn feedback(out: &Path, name: &str) -> String {
    let folder = out.join("students").join(name);
    std::fs::read_to_string(folder.join("feedback.md")).unwrap()
        + &std::fs::read_to_string(folder.join("feedback.html")).unwrap()
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class graded once (a minute), then read suite by suite"
)]
fn rust_suites_get_the_tests_column_they_deserve() {
    let dir = tempfile::tempdir().unwrap();
    let suites = [
        (
            "thorough",
            Some(kit("exercises/velha/suites.hidden/thorough.rs")),
        ),
        ("thin", Some(kit("cli/tests/mine/velha/thin.rs"))),
        ("invalid", Some(kit("cli/tests/mine/velha/invalid.rs"))),
        ("gaming", Some(kit("cli/tests/mine/velha/gaming.rs"))),
        ("none", None),
        // A red team's: a constructor before the kit's that peeks at the
        // switch, the switch read from /proc/self/mem in safe Rust, the
        // libraries read at compile time, a minute of const evaluation.
        (
            "stdin_peek",
            Some(kit("cli/tests/mine/velha/attacks/stdin_peek.rs")),
        ),
        (
            "proc_mem",
            Some(kit("cli/tests/mine/velha/attacks/proc_mem.rs")),
        ),
        (
            "include_bytes",
            Some(kit("cli/tests/mine/velha/attacks/include_bytes.rs")),
        ),
        (
            "const_eval",
            Some(kit("cli/tests/mine/velha/attacks/const_eval.rs")),
        ),
    ];
    let mut crates = Vec::new();
    for (name, mine) in &suites {
        let root = dir.path().join(name);
        velha_crate(&root, mine.as_deref());
        crates.push(root);
    }
    let out = dir.path().join("out");
    let column = graded(&[], &crates, &out);
    assert_eq!(column["thorough"], 10.0, "{column:?}");
    assert!(column["thin"] > 0.0 && column["thin"] < 2.0, "{column:?}");
    for name in [
        "invalid",
        "gaming",
        "none",
        "stdin_peek",
        "proc_mem",
        "include_bytes",
        "const_eval",
    ] {
        assert_eq!(column[name], 0.0, "{name}: {column:?}");
    }
    let refused = |name: &str| {
        own_tests(&out, name)["error"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        refused("stdin_peek").contains("link_section"),
        "{}",
        refused("stdin_peek")
    );
    assert!(refused("include_bytes").contains("read files as they compile"));
    assert!(refused("const_eval").contains("constant evaluation is taking a long time"));
    // No /proc: the memory read fails on the reference too.
    assert!(
        !own_tests(&out, "proc_mem")["invalid"]
            .as_object()
            .unwrap()
            .is_empty()
    );
    // Thorough: every mutant, public and hidden, caught; nothing invalid.
    let thorough = own_tests(&out, "thorough");
    assert_eq!(thorough["invalid"], serde_json::json!({}));
    assert_eq!(thorough["hidden"][0], thorough["hidden"][1]);
    assert!(thorough["hidden"][0].as_u64().unwrap() >= 9);
    // Invalid: a wrong answer and a pinned prompt, each said invalid.
    let invalid = own_tests(&out, "invalid");
    for test in ["b1_is_column_one", "the_prompt_names_the_player"] {
        let why = invalid["invalid"][test].as_str().unwrap_or_default();
        assert!(why.starts_with("it fails on "), "{test}: {invalid}");
    }
    assert!(
        invalid["invalid"]["the_diagonal_wins"].is_null(),
        "{invalid}"
    );
    // Gaming: the sleeper is cut and invalid; the others are valid and
    // catch nothing (a fresh folder each run: the fourth run is the first).
    let gaming = own_tests(&out, "gaming");
    assert!(gaming["invalid"]["sleeps"].is_string(), "{gaming}");
    for test in [
        "reads_the_source",
        "asserts_nothing",
        "fails_on_its_fourth_run",
    ] {
        assert!(gaming["invalid"][test].is_null(), "{test}: {gaming}");
    }
    // The score counts the tests column; a level never does.
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let thorough_row = csv.lines().find(|l| l.starts_with("thorough,")).unwrap();
    assert!(thorough_row.ends_with(",50,50,expert"), "{csv}");
    let thin_row = csv.lines().find(|l| l.starts_with("thin,")).unwrap();
    assert!(thin_row.ends_with(",50,expert"), "{csv}");
    // The feedback names the public mutants that survived, by what they
    // break, and counts the hidden ones without a word of them.
    let thin = feedback(&out, "thin");
    assert!(
        thin.contains("uncaught: a draw checked before a win"),
        "{thin}"
    );
    assert!(thin.contains("of 11 hidden bugs"), "{thin}");
    let invalid_page = feedback(&out, "invalid");
    assert!(invalid_page.contains("b1_is_column_one"), "{invalid_page}");
    let names = ["thorough", "thin", "invalid", "gaming", "none"];
    no_hidden_mutant_named(&out, &names, "exercises/velha/mutations.hidden.toml");
    assert!(feedback(&out, "none").contains("no tests/mine.rs"));
    // The instructor's report: a column, and each submission's verdict.
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("<th>own tests</th>"), "{report}");
    assert!(report.contains("20 of 20 bugs"), "{report}");
    assert!(
        report.contains("invalid: <code>the_prompt_names_the_player</code>"),
        "{report}"
    );
}

#[test]
fn python_suites_get_the_tests_column_they_deserve() {
    if python_with_pytest().is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI installs pytest");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let suites = [
        ("thorough", kit("cli/tests/mine/velha/test_thorough.py")),
        ("thin", kit("cli/tests/mine/velha/test_thin.py")),
        ("invalid", kit("cli/tests/mine/velha/test_invalid.py")),
        // Lower case, a board with two lines, nine strings: the statement
        // promises none of them.
        ("unpromised", kit("cli/tests/mine/velha/test_unpromised.py")),
        ("gaming", kit("cli/tests/mine/velha/test_gaming.py")),
        (
            "reads_the_code",
            kit("cli/tests/mine/velha/test_reads_the_code.py"),
        ),
        // A red team's: the loaded functions' bytecode against the
        // reference's file's.
        (
            "bytecode",
            kit("cli/tests/mine/velha/attacks/test_bytecode.py"),
        ),
    ];
    let mut folders = Vec::new();
    for (name, suite) in &suites {
        let root = dir.path().join(name);
        std::fs::create_dir_all(&root).unwrap();
        for file in ["funcoes.py", "programa.py"] {
            let exam = kit("cli/tests/grading/python_exams/diego").join(file);
            std::fs::copy(exam, root.join(file)).unwrap();
        }
        // A Portuguese starter's name for the file, for one of them.
        let file = if *name == "thin" {
            "test_meus_testes.py"
        } else {
            "test_mine.py"
        };
        std::fs::copy(suite, root.join(file)).unwrap();
        folders.push(root);
    }
    let out = dir.path().join("out");
    let column = graded(&["--language", "python"], &folders, &out);
    assert_eq!(column["thorough"], 10.0, "{column:?}");
    assert!(column["thin"] > 0.0 && column["thin"] < 5.0, "{column:?}");
    // The invalid test earns nothing; the right one beside it, the
    // statement's row A win, catches the mutant that misses it: 1 of 11.
    assert!((column["invalid"] - 10.0 / 11.0).abs() < 0.01, "{column:?}");
    for name in ["gaming", "reads_the_code", "bytecode", "unpromised"] {
        assert_eq!(column[name], 0.0, "{name}: {column:?}");
    }
    let invalid = own_tests(&out, "invalid");
    assert!(
        invalid["invalid"]["test_mine.py::test_b1_is_column_one"].is_string(),
        "{invalid}"
    );
    let unpromised = own_tests(&out, "unpromised");
    for test in [
        "test_a_lower_case_position",
        "test_a_board_with_two_lines",
        "test_nine_strings",
    ] {
        let why = unpromised["invalid"][format!("test_mine.py::{test}")].as_str();
        assert!(
            why.is_some_and(|w| w.starts_with("it tests what the statement does not promise: ")),
            "{test}: {unpromised}"
        );
    }
    // The functions run in another process: their code is out of reach.
    let code = own_tests(&out, "reads_the_code");
    assert!(
        code["invalid"]["test_mine.py::test_the_code_is_the_references"].is_string(),
        "{code}"
    );
    // The sleeper is cut alone: the other tests still run, valid.
    let gaming = own_tests(&out, "gaming");
    let invalid_ones: Vec<&String> = gaming["invalid"].as_object().unwrap().keys().collect();
    assert_eq!(invalid_ones, ["test_mine.py::test_sleeps"], "{gaming}");
    let names = ["thorough", "thin", "invalid", "gaming"];
    no_hidden_mutant_named(&out, &names, "exercises/velha/exam-english/hidden/mutants");
}

#[test]
fn boardkit_test_mine_names_the_public_bugs_a_starters_tests_miss() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("velha");
    velha_crate(&root, Some(&kit("exercises/velha/mine.rs")));
    let ran = boardkit()
        .args(["test", "velha", "--mine"])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert!(
        ran.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(stdout.contains("valid   a_diagonal_wins"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with(
            "your tests catch 1 of 9 public bugs; uncaught: a draw checked before a win, "
        ),
        "{stdout}"
    );
    assert!(!last.contains("a missing diagonal"), "{stdout}");
    assert!(!last.contains("hidden"), "{stdout}");
    // A test that pins a prompt is said invalid, and why.
    std::fs::copy(
        kit("cli/tests/mine/velha/invalid.rs"),
        root.join("tests/mine.rs"),
    )
    .unwrap();
    let ran = boardkit()
        .args(["test", "velha", "--mine"])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert!(
        stdout.contains("INVALID the_prompt_names_the_player: it fails on "),
        "{stdout}"
    );
    if python_with_pytest().is_some() {
        let python = dir.path().join("python");
        let made = boardkit()
            .args(["starter", "velha", "--language", "python"])
            .arg(&python)
            .output()
            .unwrap();
        assert!(made.status.success());
        let ran = boardkit()
            .args(["test", "velha", "--language", "python", "--mine"])
            .arg(&python)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&ran.stdout);
        assert!(
            stdout
                .lines()
                .last()
                .unwrap()
                .starts_with("your tests catch 1 of 5 public bugs; uncaught: "),
            "{stdout}{}",
            String::from_utf8_lossy(&ran.stderr)
        );
    }
}

#[test]
fn a_changed_tests_file_is_graded_again_without_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("alice");
    velha_crate(&root, Some(&kit("cli/tests/mine/velha/thin.rs")));
    let out = dir.path().join("out");
    let thin = graded(&[], std::slice::from_ref(&root), &out)["alice"];
    // Only the tests change: the same code, a careful suite.
    std::fs::copy(
        kit("exercises/velha/suites.hidden/thorough.rs"),
        root.join("tests/mine.rs"),
    )
    .unwrap();
    let thorough = graded(&[], std::slice::from_ref(&root), &out)["alice"];
    assert!(thin < 2.0, "{thin}");
    assert_eq!(thorough, 10.0, "the second run kept {thin}");
}

#[test]
fn a_connect_four_suite_using_the_sides_the_starter_exports_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("connect4");
    let made = boardkit()
        .args(["starter", "connect4"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(made.status.success());
    // The starter's `pub use`: MIN_SIDE and MAX_SIDE, as EXERCISE.md says.
    let mine = "use boardkit::connect4::*;\n\n\
        #[test]\nfn the_sides_bound_a_board() {\n    \
        assert!(Board::new(MIN_SIDE, MAX_SIDE).is_ok());\n    \
        assert!(Board::new(MIN_SIDE - 1, MAX_SIDE).is_err());\n    \
        assert!(Board::new(MIN_SIDE, MAX_SIDE + 1).is_err());\n}\n";
    std::fs::write(root.join("tests/mine.rs"), mine).unwrap();
    let ran = boardkit()
        .args(["test", "connect4", "--mine"])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert!(
        stdout.contains("valid   the_sides_bound_a_board"),
        "{stdout}{}",
        String::from_utf8_lossy(&ran.stderr)
    );
}

#[test]
fn a_python_test_of_melhor_jogada_is_valid() {
    if python_with_pytest().is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI installs pytest");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let python = dir.path().join("python");
    let made = boardkit()
        .args(["starter", "velha", "--language", "python"])
        .arg(&python)
        .output()
        .unwrap();
    assert!(made.status.success());
    // The statement's expert level: a best move, the fastest win.
    let mine = "import funcoes\n\n\ndef test_the_fastest_win():\n    \
        t = [['X', 'X', ' '], ['O', 'O', ' '], [' ', ' ', ' ']]\n    \
        assert funcoes.melhor_jogada(t) == (0, 2)\n\n\n\
        def test_a_best_move_on_an_empty_board_is_a_cell():\n    \
        linha, coluna = funcoes.melhor_jogada([[' '] * 3 for _ in range(3)])\n    \
        assert 0 <= linha <= 2 and 0 <= coluna <= 2\n";
    std::fs::write(python.join("test_mine.py"), mine).unwrap();
    let ran = boardkit()
        .args(["test", "velha", "--language", "python", "--mine"])
        .arg(&python)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    for test in [
        "test_the_fastest_win",
        "test_a_best_move_on_an_empty_board_is_a_cell",
    ] {
        assert!(
            stdout.contains(&format!("valid   test_mine.py::{test}")),
            "{test}: {stdout}{}",
            String::from_utf8_lossy(&ran.stderr)
        );
    }
}
