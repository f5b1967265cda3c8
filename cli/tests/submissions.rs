//! Submissions as courses collect them: a folder of git repositories
//! (GitHub Classroom's), graded at a commit chosen by the deadline, never at
//! the working tree, late by the commit's date, and read so that nothing in
//! a student's `.git` runs.

use std::path::{Path, PathBuf};
use std::process::Command;

const DEADLINE: &str = "2026-12-01T23:59:00-03:00";

/// Writes the exam `from`'s two files into `dir`, made if missing.
fn hand_in(dir: &Path, from: &str) {
    std::fs::create_dir_all(dir).unwrap();
    for (file, bytes) in crate::download_support::exam(from) {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
}

/// Commits `files` (name, from which exam) into `repo` at `date`.
fn commit(repo: &Path, from: &str, date: &str) {
    hand_in(repo, from);
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
    grade_these(class, out, &["ana", "bia", "caio"], extra)
}

/// Grades the repositories `names` of `class`; returns each one's results.
fn grade_these(class: &Path, out: &Path, names: &[&str], extra: &[&str]) -> serde_json::Value {
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
    for name in names {
        command.arg(class.join(name));
    }
    let graded = command.output().unwrap();
    assert!(graded.status.success(), "{graded:?}");
    let mut all = serde_json::Map::new();
    all.insert(
        "stderr".into(),
        String::from_utf8_lossy(&graded.stderr).into(),
    );
    for name in names {
        let text =
            std::fs::read_to_string(out.join("students").join(name).join("results.json")).unwrap();
        all.insert((*name).into(), serde_json::from_str(&text).unwrap());
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

/// Runs git in `dir`, reading no configuration of this machine's.
fn git_at(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// A commit dated in a zone git takes and RFC 3339 cannot write (`+9959`,
/// shown `+99:59`) is late by its Unix time: penalised, never passed as
/// on time for want of a date that parses.
#[test]
fn a_commit_in_a_zone_rfc3339_cannot_write_is_late_by_its_unix_time() {
    let scratch = tempfile::tempdir().unwrap();
    let class = scratch.path().join("class");
    let ana = class.join("ana");
    std::fs::create_dir_all(&ana).unwrap();
    let deadline = chrono::DateTime::parse_from_rfc3339(DEADLINE).unwrap();
    let late = deadline.timestamp() + 26 * 3600;
    commit(&ana, "diego", &format!("@{late} +9959"));
    let raw = Command::new("git")
        .args(["cat-file", "-p", "HEAD"])
        .current_dir(&ana)
        .output()
        .unwrap();
    let raw = String::from_utf8_lossy(&raw.stdout).into_owned();
    assert!(raw.contains(&format!("{late} +9959")), "{raw}");
    let graded = grade_these(
        &class,
        &scratch.path().join("out"),
        &["ana"],
        &["--late-max-days", "3", "--late-penalty", "10"],
    );
    let ana = &graded["ana"];
    assert_eq!(ana["late_days"], 2, "{graded}");
    let penalty = ana["penalty"].as_f64().unwrap();
    let score = ana["score"].as_f64().unwrap();
    assert!(penalty > 0.0, "{graded}");
    assert!(((score + penalty) * 0.8 - score).abs() < 0.01, "{graded}");
    let at = chrono::DateTime::parse_from_rfc3339(ana["submitted_at"].as_str().unwrap());
    assert_eq!(at.unwrap().timestamp(), late, "{graded}");
}

/// `--late-penalty` without late days (none, or 0) could never apply: no
/// commit past the deadline is taken. Refused, with what to give.
#[test]
fn a_late_penalty_that_can_never_apply_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let ana = scratch.path().join("ana");
    std::fs::create_dir_all(&ana).unwrap();
    commit(&ana, "diego", "2026-12-01T10:00:00-03:00");
    for days in [None, Some("0")] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
        command
            .args(["grade", "velha", "--language", "python", "--no-sandbox"])
            .arg("--out")
            .arg(scratch.path().join("out"))
            .args(["--deadline", DEADLINE, "--late-penalty", "10"])
            .arg(&ana);
        if let Some(days) = days {
            command.args(["--late-max-days", days]);
        }
        let refused = command.output().unwrap();
        let said = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{days:?}: {said}");
        assert!(said.contains("--late-max-days"), "{said}");
        assert!(!scratch.path().join("out/grades.csv").exists());
    }
}

/// A worktree and a submodule checkout (their `.git` a file naming their
/// git dir) and a shallow clone are graded at the commit the deadline
/// selects, never from their working trees (broken here); a `.git` file
/// naming another student's repository is refused with its reason.
#[test]
fn worktrees_submodules_and_shallow_clones_are_graded_at_their_commit() {
    let scratch = tempfile::tempdir().unwrap();
    let clones = scratch.path().join("clones");
    let class = scratch.path().join("class");
    let on_time = "2026-12-01T10:00:00-03:00";
    // The right exam on time, then a buggy one a day late.
    let origin = |name: &str| {
        let dir = clones.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        commit(&dir, "diego", on_time);
        commit(&dir, "bruno", "2026-12-02T10:00:00-03:00");
        dir
    };
    std::fs::create_dir_all(&class).unwrap();
    git_at(&class, &["init", "-q", "-b", "main"]);
    // ana: a worktree of her clone; bia: a submodule of the class's repository.
    let ana = origin("ana");
    git_at(
        &ana,
        &["worktree", "add", "-q", class.join("ana").to_str().unwrap()],
    );
    let bia = origin("bia");
    let bia = bia.to_str().unwrap();
    let add = ["submodule", "add", "-q", bia, "bia"];
    git_at(
        &class,
        &[&["-c", "protocol.file.allow=always"], &add[..]].concat(),
    );
    // caio: a clone of depth 1 of work on time.
    let caio = clones.join("caio");
    std::fs::create_dir_all(&caio).unwrap();
    commit(&caio, "bruno", "2026-11-30T10:00:00-03:00");
    commit(&caio, "diego", on_time);
    let url = format!("file://{}", caio.display());
    git_at(&class, &["clone", "-q", "--depth", "1", &url, "caio"]);
    assert!(class.join("caio/.git/shallow").is_file());
    // dani: a plain repository, the yardstick; eve: her working tree
    // right, her `.git` a file naming dani's repository.
    let dani = class.join("dani");
    std::fs::create_dir_all(&dani).unwrap();
    commit(&dani, "diego", on_time);
    let eve = class.join("eve");
    hand_in(&eve, "diego");
    std::fs::write(eve.join(".git"), "gitdir: ../dani/.git\n").unwrap();
    for name in ["ana", "bia", "caio"] {
        assert!(class.join(name).join(".git").exists(), "{name}");
        std::fs::write(
            class.join(name).join("programa.py"),
            "raise SystemExit(3)\n",
        )
        .unwrap();
    }
    let names = ["ana", "bia", "caio", "dani", "eve"];
    let graded = grade_these(&class, &scratch.path().join("out"), &names, &[]);
    let full = graded["dani"]["score"].as_f64().unwrap();
    assert!(full > 0.0, "{graded}");
    for name in ["ana", "bia", "caio"] {
        let said = &graded[name]["tests"][0]["output"];
        assert_eq!(graded[name]["score"].as_f64(), Some(full), "{name}: {said}");
        assert_eq!(graded[name]["submitted_at"], on_time, "{name}: {said}");
    }
    let stderr = graded["stderr"].as_str().unwrap();
    assert_eq!(graded["eve"]["score"], 0.0, "{stderr}");
    let eve_said = graded["eve"]["tests"][0]["output"].as_str().unwrap();
    assert!(eve_said.contains("its .git is a file"), "{eve_said}");
    assert!(
        stderr.contains("eve: scored 0, not graded at a commit"),
        "{stderr}"
    );
}

/// Grades an LMS's download; returns each submission's score by name, and
/// what `unmapped.txt` lists.
fn grade_download(
    lms: &str,
    archive: &Path,
    roster: &Path,
    out: &Path,
) -> (Vec<(String, f64)>, String) {
    let graded = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args([
            "grade",
            "velha",
            "--language",
            "python",
            "--no-sandbox",
            "--from",
            lms,
        ])
        .arg(archive)
        .arg("--roster")
        .arg(roster)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(graded.status.success(), "{graded:?}");
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let score = header.iter().position(|h| *h == "score").unwrap();
    let scores = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0].to_owned(), cells[score].parse().unwrap())
        })
        .collect();
    let unmapped = std::fs::read_to_string(out.join("unmapped.txt")).unwrap_or_default();
    (scores, unmapped)
}

/// Moodle's and Canvas's downloads, named as each LMS names them, graded
/// by one command each: every student under the roster's name, the one it
/// does not name listed and still graded.
#[test]
fn an_lms_download_is_graded_as_it_comes_named_through_the_roster() {
    let scratch = tempfile::tempdir().unwrap();
    let roster = scratch.path().join("roster.csv");
    std::fs::write(
        &roster,
        "submission,id,login,name,participant\nana,S1,ana.souza,Ana Souza,4112\nbia,S2,bia.lima,Bia Lima,\ncaio,340934,caio.r,Caio Reis,\neli,S5,eli.d,Eli Dias,4116\n",
    )
    .unwrap();
    let archive = moodle_download(scratch.path());
    let (scores, unmapped) = grade_download("moodle", &archive, &roster, &scratch.path().join("m"));
    let names: Vec<&str> = scores.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["Duda_Alves_4114", "ana", "bia", "caio", "eli"],
        "{scores:?}"
    );
    assert_eq!((scores[3].1, scores[4].1), (0.0, 0.0), "{scores:?}");
    assert!(scores[1].1 > scores[2].1, "{scores:?}");
    assert!(
        unmapped.contains("Duda Alves (id 4114): not in the roster"),
        "{unmapped}"
    );
    // Back into Moodle: the grade import's feedback column, and the
    // feedback files' zip (Ana's: the roster gives her participant id).
    let moodle_csv = std::fs::read_to_string(scratch.path().join("m/moodle.csv")).unwrap();
    assert!(
        moodle_csv.starts_with("Username,ID number,Full name,velha,Feedback\n"),
        "{moodle_csv}"
    );
    assert!(
        moodle_csv.contains("Level reached: expert. 30 / 30 points. Every public case passed."),
        "{moodle_csv}"
    );
    assert!(
        !moodle_csv.contains("caio.r") && !moodle_csv.contains("eli.d"),
        "{moodle_csv}"
    );
    let feedback = std::fs::File::open(scratch.path().join("m/moodle-feedback.zip")).unwrap();
    let feedback = zip::ZipArchive::new(feedback).unwrap();
    let entries: Vec<&str> = feedback.file_names().collect();
    assert_eq!(
        entries,
        ["Ana Souza_4112_assignsubmission_file/feedback.html"]
    );
    // Canvas: flat files, one late; Caio mapped by Canvas's user id.
    let mut canvas = Vec::new();
    for (file, bytes) in crate::download_support::exam("diego") {
        canvas.push((format!("reiscaio_late_340934_208490284_{file}"), bytes));
    }
    let archive = scratch.path().join("canvas.zip");
    crate::download_support::zip_of(&archive, &canvas);
    let (scores, unmapped) = grade_download("canvas", &archive, &roster, &scratch.path().join("c"));
    assert_eq!(scores.len(), 1);
    assert_eq!(scores[0].0, "caio");
    assert!(
        scores[0].1 > 0.0 && unmapped.is_empty(),
        "{scores:?} {unmapped}"
    );
}

/// A Moodle download: Ana in a folder, Bia flat, Duda in no roster,
/// Caio's archive no zip, Eli's zip beside a report.
fn moodle_download(dir: &Path) -> PathBuf {
    // Moodle: Ana in a folder ("Download submissions in folders"), mapped
    // by participant id; Bia's files flat, mapped by full name; Duda in
    // no roster.
    let mut moodle = Vec::new();
    for (file, bytes) in crate::download_support::exam("diego") {
        moodle.push((
            format!("Ana Souza_4112_assignsubmission_file/{file}"),
            bytes,
        ));
    }
    for (file, bytes) in crate::download_support::exam("bruno") {
        moodle.push((format!("Bia Lima_4113_assignsubmission_file_{file}"), bytes));
        moodle.push((
            format!("Duda Alves_4114_assignsubmission_file_{file}"),
            Vec::new(),
        ));
    }
    // Caio's archive is no zip: scored 0, and in no LMS file. Eli's files
    // are in a zip handed in beside a report: the same.
    moodle.push((
        "Caio Reis_4115_assignsubmission_file_entrega.zip".to_owned(),
        b"not a zip".to_vec(),
    ));
    let inner = dir.join("inner.zip");
    let files: Vec<(String, Vec<u8>)> = crate::download_support::exam("diego")
        .into_iter()
        .map(|(f, b)| (f.to_owned(), b))
        .collect();
    crate::download_support::zip_of(&inner, &files);
    for (file, bytes) in [
        ("trabalho.zip", std::fs::read(&inner).unwrap()),
        ("relatorio.pdf", b"%PDF".to_vec()),
    ] {
        moodle.push((format!("Eli Dias_4116_assignsubmission_file_{file}"), bytes));
    }
    let archive = dir.join("moodle.zip");
    crate::download_support::zip_of(&archive, &moodle);
    archive
}

/// Homonyms in a Moodle download are never merged: `Ana Souza_4112` is the
/// roster's Ana (her participant id), `Ana Souza_4119` is graded apart and
/// listed. A Canvas resubmission (`programa-1.py`) is graded as the
/// program it is. Neither student's folder holds a hidden case's input
/// (the instructor's, in `instructor/<name>/hidden.json`).
#[test]
fn homonyms_stay_apart_resubmissions_are_mapped_and_hidden_inputs_stay_the_instructors() {
    let scratch = tempfile::tempdir().unwrap();
    let roster = scratch.path().join("roster.csv");
    std::fs::write(
        &roster,
        "submission,id,login,name,participant\nana,S1,ana.souza,Ana Souza,4112\ncaio,340934,caio.r,Caio Reis,\n",
    )
    .unwrap();
    let mut moodle = Vec::new();
    for (file, bytes) in crate::download_support::exam("diego") {
        moodle.push((
            format!("Ana Souza_4112_assignsubmission_file_{file}"),
            bytes,
        ));
        let broken = if file == "programa.py" {
            Vec::new()
        } else {
            b"x = 1\n".to_vec()
        };
        moodle.push((
            format!("Ana Souza_4119_assignsubmission_file_{file}"),
            broken,
        ));
    }
    let archive = scratch.path().join("moodle.zip");
    crate::download_support::zip_of(&archive, &moodle);
    let out = scratch.path().join("m");
    let (scores, unmapped) = grade_download("moodle", &archive, &roster, &out);
    let names: Vec<&str> = scores.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Ana_Souza_4119", "ana"], "{scores:?}");
    assert!(scores[1].1 > scores[0].1, "{scores:?}");
    assert!(unmapped.contains("Ana Souza (id 4119): "), "{unmapped}");
    let mut hidden_inputs = 0;
    for name in names {
        let hidden: std::collections::BTreeMap<String, String> = serde_json::from_str(
            &std::fs::read_to_string(out.join("instructor").join(name).join("hidden.json"))
                .unwrap(),
        )
        .unwrap();
        let folder = out.join("students").join(name);
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for detail in hidden.values() {
                hidden_inputs += 1;
                assert!(
                    !text.contains(detail.as_str()),
                    "{} holds {detail}",
                    path.display()
                );
            }
        }
    }
    assert!(
        hidden_inputs > 0,
        "no hidden case failed: nothing was checked"
    );
    // Canvas: Caio's program handed in again, named `programa-1.py`.
    let full = scores[1].1;
    let mut canvas = Vec::new();
    for (file, bytes) in crate::download_support::exam("diego") {
        let file = file.replace("programa.py", "programa-1.py");
        canvas.push((format!("reiscaio_340934_208490284_{file}"), bytes));
    }
    let archive = scratch.path().join("canvas.zip");
    crate::download_support::zip_of(&archive, &canvas);
    let (scores, _) = grade_download("canvas", &archive, &roster, &scratch.path().join("c"));
    assert_eq!(scores, [("caio".to_owned(), full)]);
}

/// A download is its assignment whole: grading another into the same
/// `--out` writes LMS files of its students only; `--deadline`, which no
/// download's file can be dated by, is refused with it; a misnamed
/// `Programa.py` is said, on the terminal and in the feedback.
#[test]
fn a_download_is_its_own_assignment_and_a_misnamed_file_is_said() {
    let scratch = tempfile::tempdir().unwrap();
    let (roster, one, two) = two_downloads(scratch.path());
    let out = scratch.path().join("out");
    grade_download("moodle", &one, &roster, &out);
    let grade = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["grade", "velha", "--language", "python", "--no-sandbox"])
            .args(["--from", "moodle"])
            .arg(&two)
            .arg("--roster")
            .arg(&roster)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let late = grade(&["--deadline", "2026-12-01T23:59:00-03:00"]);
    let said = String::from_utf8_lossy(&late.stderr).into_owned();
    assert_eq!(late.status.code(), Some(2), "{said}");
    assert!(said.contains("--deadline dates git commits"), "{said}");
    let run = grade(&[]);
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{said}");
    assert!(
        said.contains("bia: no programa.py in the submission (Programa.py is there"),
        "{said}"
    );
    assert!(
        said.contains("not in this download, so in no LMS file"),
        "{said}"
    );
    assert!(said.contains("points out of 30"), "{said}");
    let moodle = std::fs::read_to_string(out.join("moodle.csv")).unwrap();
    assert!(
        moodle.contains("bia.lima") && !moodle.contains("ana.souza"),
        "{moodle}"
    );
    let feedback = std::fs::read_to_string(out.join("students/bia/feedback.md")).unwrap();
    assert!(
        feedback.contains("no programa.py in the submission"),
        "{feedback}"
    );
    // Taking this download's one student out leaves no LMS file row: the
    // earlier download's grades stay out of its files.
    let removed = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["grade", "remove"])
        .arg(&out)
        .args(["bia", "--roster"])
        .arg(&roster)
        .output()
        .unwrap();
    assert!(removed.status.success(), "{removed:?}");
    let moodle = std::fs::read_to_string(out.join("moodle.csv")).unwrap_or_default();
    assert!(!moodle.contains("ana.souza"), "{moodle}");
}

/// Shards of two downloads are no shards of one run: a merge refuses them.
#[test]
fn shards_of_two_downloads_are_not_merged() {
    let scratch = tempfile::tempdir().unwrap();
    let (_, one, two) = two_downloads(scratch.path());
    // One download by two paths is one: its shards merge.
    let copy = scratch.path().join("copy/one.zip");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&one, &copy).unwrap();
    let merge = |archives: [&PathBuf; 2], name: &str| {
        let shards = shards_of(scratch.path(), archives, name);
        Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["grade", "merge"])
            .args(&shards)
            .arg("--out")
            .arg(scratch.path().join(format!("{name}-merged")))
            .output()
            .unwrap()
    };
    let same = merge([&one, &copy], "same");
    assert!(same.status.success(), "{same:?}");
    let merged = merge([&one, &two], "two");
    let said = String::from_utf8_lossy(&merged.stderr);
    assert_eq!(merged.status.code(), Some(2), "{said}");
    assert!(
        said.contains("not a shard of the same run: it grades moodle: two.zip (sha256 "),
        "{said}"
    );
}

/// Shards 1/2 and 2/2 of `archives`' downloads, graded into `dir`.
fn shards_of(dir: &Path, archives: [&PathBuf; 2], name: &str) -> Vec<PathBuf> {
    [(archives[0], "1/2"), (archives[1], "2/2")]
        .iter()
        .map(|(archive, shard)| {
            let dir = dir.join(format!("{name}{}", &shard[..1]));
            let graded = Command::new(env!("CARGO_BIN_EXE_boardkit"))
                .args(["grade", "velha", "--language", "python", "--no-sandbox"])
                .args(["--from", "moodle"])
                .arg(archive)
                .args(["--shard", shard, "--out"])
                .arg(&dir)
                .output()
                .unwrap();
            assert!(graded.status.success(), "{graded:?}");
            dir
        })
        .collect()
}

/// Two Moodle downloads of one student each (Bia's `Programa.py` misnamed),
/// and their roster: (roster, one, two).
fn two_downloads(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let roster = dir.join("roster.csv");
    std::fs::write(
        &roster,
        "submission,id,login,name,participant\nana,S1,ana.souza,Ana Souza,4112\nbia,S2,bia.lima,Bia Lima,4113\n",
    )
    .unwrap();
    let mut first = Vec::new();
    let mut second = Vec::new();
    for (file, bytes) in crate::download_support::exam("diego") {
        first.push((
            format!("Ana Souza_4112_assignsubmission_file_{file}"),
            bytes.clone(),
        ));
        let misnamed = file.replace("programa.py", "Programa.py");
        second.push((
            format!("Bia Lima_4113_assignsubmission_file_{misnamed}"),
            bytes,
        ));
    }
    let (one, two) = (dir.join("one.zip"), dir.join("two.zip"));
    crate::download_support::zip_of(&one, &first);
    crate::download_support::zip_of(&two, &second);
    (roster, one, two)
}

/// The class files in `out` (its top level, its folders aside).
fn class_files(out: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

/// A Moodle download of four students (two the roster maps, two it does
/// not: Eva's archive unpacks to more than a submission may hold), and its
/// roster.
fn moodle_class(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let roster = dir.join("roster.csv");
    std::fs::write(
        &roster,
        "submission,id,login,name,participant\nana,S1,ana.souza,Ana Souza,4112\nbia,S2,bia.lima,Bia Lima,4113\n",
    )
    .unwrap();
    let big = dir.join("big.zip");
    crate::download_support::zip_of(&big, &[("funcoes.py".to_owned(), vec![b'#'; 20 << 20])]);
    let mut moodle = vec![(
        "Eva Reis_4115_assignsubmission_file_entrega.zip".to_owned(),
        std::fs::read(&big).unwrap(),
    )];
    for (file, bytes) in crate::download_support::exam("diego") {
        moodle.push((
            format!("Ana Souza_4112_assignsubmission_file_{file}"),
            bytes.clone(),
        ));
        moodle.push((
            format!("Bia Lima_4113_assignsubmission_file_{file}"),
            bytes.clone(),
        ));
        moodle.push((
            format!("Duda Alves_4114_assignsubmission_file_{file}"),
            bytes,
        ));
    }
    let archive = dir.join("moodle.zip");
    crate::download_support::zip_of(&archive, &moodle);
    (archive, roster)
}

/// No output outlives the grades it describes: a run with every option
/// that writes a class file (a Moodle download, a roster, similarity),
/// then `grade remove` without the roster (no LMS file left holding the
/// student taken out), then a `--fresh` regrade without the roster or the
/// download: exactly the reports that run writes are left (a file the
/// first run wrote that the grader's one list of class files misses would
/// be left too). The grader's own folder keeps only the submissions'
/// copies, not a download nor an archive unpacked.
#[test]
fn every_class_file_is_renewed_or_deleted_and_the_work_folder_is_emptied() {
    let scratch = tempfile::tempdir().unwrap();
    let (archive, roster) = moodle_class(scratch.path());
    let out = scratch.path().join("out");
    let (scores, unmapped) = grade_download("moodle", &archive, &roster, &out);
    assert_eq!(scores.len(), 4, "{scores:?}");
    assert_eq!(unmapped.lines().count(), 2, "{unmapped}");
    for file in [
        "canvas.csv",
        "moodle.csv",
        "moodle-feedback.zip",
        "unmapped.txt",
        "similarity.csv",
    ] {
        assert!(out.join(file).is_file(), "{file} not written");
    }
    // A package's run (velha's Python form) removes its folder whole; a
    // game's keeps its copies of the submissions taken.
    let work: Vec<String> = std::fs::read_dir(out.join(".work"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        work.is_empty() || work == ["taken"],
        "the grader's folder was not emptied: {work:?}"
    );
    let boardkit = || Command::new(env!("CARGO_BIN_EXE_boardkit"));
    let removed = boardkit()
        .args(["grade", "remove"])
        .arg(&out)
        .arg("Duda_Alves_4114")
        .output()
        .unwrap();
    assert!(removed.status.success(), "{removed:?}");
    let left = class_files(&out);
    for file in ["canvas.csv", "moodle.csv", "moodle-feedback.zip"] {
        assert!(
            !left.contains(&file.to_owned()),
            "{file} left after a removal: {left:?}"
        );
    }
    let unmapped = std::fs::read_to_string(out.join("unmapped.txt")).unwrap();
    assert!(
        unmapped.contains("Eva Reis") && !unmapped.contains("Duda"),
        "{unmapped}"
    );
    // Regraded afresh, without the roster nor the download.
    let bia = scratch.path().join("bia");
    std::fs::create_dir_all(&bia).unwrap();
    for (file, bytes) in crate::download_support::exam("bruno") {
        std::fs::write(bia.join(file), bytes).unwrap();
    }
    let regraded = boardkit()
        .args([
            "grade",
            "velha",
            "--language",
            "python",
            "--no-sandbox",
            "--fresh",
        ])
        .arg(&bia)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(regraded.status.success(), "{regraded:?}");
    assert_eq!(
        class_files(&out),
        [
            "grades.csv",
            "junit.xml",
            "report.html",
            "run.json",
            "similarity.csv"
        ]
    );
}

/// Under `--deadline`, nothing is graded undated without a word: a `.git`
/// that is a link scores 0 with its reason (the working tree, which it
/// would otherwise be, is never graded), a folder with no `.git` is
/// graded as handed in with a warning, and grades.csv keeps its commit
/// and lateness columns even when no submission was graded at a commit.
#[test]
fn under_a_deadline_nothing_is_graded_undated_without_a_word() {
    let scratch = tempfile::tempdir().unwrap();
    let elsewhere = scratch.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    commit(&elsewhere, "diego", "2026-12-05T10:00:00-03:00");
    let class = scratch.path().join("class");
    // ana: a right exam in her folder, her .git a link to a late repository.
    let ana = class.join("ana");
    hand_in(&ana, "diego");
    std::os::unix::fs::symlink(elsewhere.join(".git"), ana.join(".git")).unwrap();
    // bia: the right exam, no repository at all.
    let bia = class.join("bia");
    hand_in(&bia, "diego");
    let out = scratch.path().join("out");
    let all = grade_these(&class, &out, &["ana", "bia"], &[]);
    let stderr = all["stderr"].as_str().unwrap();
    assert_eq!(all["ana"]["score"], 0.0, "{}", all["ana"]);
    let ana_said = all["ana"]["tests"][0]["output"].as_str().unwrap();
    assert!(ana_said.contains("its .git is a link"), "{ana_said}");
    assert!(
        stderr.contains("ana: scored 0, not graded at a commit"),
        "{stderr}"
    );
    assert!(
        all["bia"]["score"].as_f64().unwrap() > 0.0,
        "{}",
        all["bia"]
    );
    assert!(
        stderr.contains("bia: graded as handed in: not a git repository"),
        "{stderr}"
    );
    let grades = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let header = grades.lines().next().unwrap();
    assert!(
        header.contains(",commit,submitted_at,late_days,penalty,"),
        "{grades}"
    );
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["deadline"], "2026-12-01T23:59:00-03:00", "{run}");
}
