//! Submissions as courses collect them: a folder of git repositories
//! (GitHub Classroom's), graded at a commit chosen by the deadline, never at
//! the working tree, late by the commit's date, and read so that nothing in
//! a student's `.git` runs.

use std::path::Path;
use std::process::Command;

const DEADLINE: &str = "2026-12-01T23:59:00-03:00";

/// Commits `files` (name, from which exam) into `repo` at `date`.
fn commit(repo: &Path, exam: &str, date: &str) {
    let exams = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grading/python_exams");
    for file in ["funcoes.py", "programa.py"] {
        std::fs::copy(exams.join(exam).join(file), repo.join(file)).unwrap();
    }
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    if !repo.join(".git").exists() {
        git(&["init", "-q", "-b", "main"]);
    }
    git(&["add", "-A"]);
    git(&[
        "-c",
        "user.name=s",
        "-c",
        "user.email=s@example.org",
        "commit",
        "-q",
        "-m",
        date,
    ]);
}

fn grade(class: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
    command
        .args([
            "grade",
            "velha",
            "--language",
            "python",
            "--no-sandbox",
            "--out",
        ])
        .arg(out)
        .args(["--deadline", DEADLINE])
        .args(extra);
    for name in ["ana", "bia", "caio"] {
        command.arg(class.join(name));
    }
    let graded = command.output().unwrap();
    assert!(graded.status.success(), "{graded:?}");
    let mut all = serde_json::Map::new();
    for name in ["ana", "bia", "caio"] {
        let text =
            std::fs::read_to_string(out.join("students").join(name).join("results.json")).unwrap();
        all.insert(name.into(), serde_json::from_str(&text).unwrap());
    }
    all.into()
}

/// A class of three repositories; returns the class's folder and the file
/// the hostile one's code would create if it ran.
fn class_of_three(scratch: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let class = scratch.join("class");
    // ana: a buggy exam on time, the right one a day and a half late, and
    // a working tree that was never committed.
    let ana = class.join("ana");
    std::fs::create_dir_all(&ana).unwrap();
    commit(&ana, "bruno", "2026-12-01T10:00:00-03:00");
    commit(&ana, "diego", "2026-12-03T10:00:00-03:00");
    std::fs::write(ana.join("programa.py"), "raise SystemExit(3)\n").unwrap();
    // bia: nothing before the fifth.
    let bia = class.join("bia");
    std::fs::create_dir_all(&bia).unwrap();
    commit(&bia, "diego", "2026-12-05T10:00:00-03:00");
    // caio: on time, with a repository that tries to run code as it is
    // read (a hook, core.fsmonitor, a smudge filter, alternates).
    let caio = class.join("caio");
    std::fs::create_dir_all(&caio).unwrap();
    let marker = scratch.join("ran");
    std::fs::write(caio.join(".gitattributes"), "* filter=evil\n").unwrap();
    commit(&caio, "diego", "2026-12-01T09:00:00-03:00");
    let touch = format!("touch {}", marker.display());
    std::fs::write(
        caio.join(".git/config"),
        format!(
            "[core]\n\tfsmonitor = {touch}\n\thooksPath = hooks\n[filter \"evil\"]\n\tsmudge = {touch}\n\tclean = {touch}\n\trequired = true\n[diff]\n\texternal = {touch}\n"
        ),
    )
    .unwrap();
    for hook in ["post-checkout", "pre-commit", "reference-transaction"] {
        let path = caio.join(".git/hooks").join(hook);
        std::fs::write(&path, format!("#!/bin/sh\n{touch}\n")).unwrap();
        let mut permissions = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(&path, permissions).unwrap();
    }
    std::fs::write(caio.join(".git/objects/info/alternates"), "/etc\n").unwrap();

    (class, marker)
}

#[test]
fn a_repository_is_graded_at_its_commit_in_time_late_by_its_date() {
    let scratch = tempfile::tempdir().unwrap();
    let (class, marker) = class_of_three(scratch.path());
    // On time only: ana's buggy commit.
    let on_time = grade(&class, &scratch.path().join("on-time"), &[]);
    let full = on_time["caio"]["score"].as_f64().unwrap();
    assert!(full > 0.0, "{on_time}");
    assert_eq!(on_time["caio"]["late_days"], 0);
    assert!(
        on_time["ana"]["score"].as_f64().unwrap() < full,
        "{on_time}"
    );
    assert_eq!(on_time["ana"]["submitted_at"], "2026-12-01T10:00:00-03:00");
    assert_eq!(on_time["bia"]["score"], 0.0);
    let bia_said = on_time["bia"]["tests"][0]["output"].as_str().unwrap();
    assert!(bia_said.contains("no commit at or before"), "{bia_said}");
    assert!(!marker.exists(), "the student's repository ran code");
    let csv = std::fs::read_to_string(scratch.path().join("on-time/grades.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",commit,submitted_at,late_days,penalty,score,"),
        "{csv}"
    );

    // Three late days allowed, 10 % a day: ana's right exam, two days
    // started late, 20 % off; bia still has nothing in time.
    let late = grade(
        &class,
        &scratch.path().join("late"),
        &["--late-max-days", "3", "--late-penalty", "10"],
    );
    assert_eq!(late["ana"]["submitted_at"], "2026-12-03T10:00:00-03:00");
    assert_eq!(late["ana"]["late_days"], 2);
    let penalty = late["ana"]["penalty"].as_f64().unwrap();
    assert!((penalty - full * 0.2).abs() < 0.01, "{late}");
    assert!(
        (late["ana"]["score"].as_f64().unwrap() - full * 0.8).abs() < 0.01,
        "{late}"
    );
    assert_eq!(late["bia"]["score"], 0.0);
    let feedback =
        std::fs::read_to_string(scratch.path().join("late/students/ana/feedback.md")).unwrap();
    assert!(feedback.contains("2 days late"), "{feedback}");

    // An extension to the fourth: ana on time.
    let extensions = scratch.path().join("extensions.csv");
    std::fs::write(
        &extensions,
        "submission,deadline\nana,2026-12-04T00:00:00-03:00\n",
    )
    .unwrap();
    let extended = grade(
        &class,
        &scratch.path().join("extended"),
        &[
            "--late-max-days",
            "3",
            "--late-penalty",
            "10",
            "--extensions",
            extensions.to_str().unwrap(),
        ],
    );
    assert_eq!(extended["ana"]["late_days"], 0);
    assert_eq!(extended["ana"]["score"].as_f64(), Some(full));
    assert!(!marker.exists(), "the student's repository ran code");
}
