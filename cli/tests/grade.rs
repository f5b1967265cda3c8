//! `boardkit grade` on a corpus of submissions, each with the grade a
//! careful instructor would give it: correct ones in several styles, one bug
//! per level, and hostile ones. Kit-only: not copied into starters.
//!
//! Rust submissions are made here from the reference and one change each,
//! so the corpus holds no second copy of the reference.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(super) fn boardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardkit"))
}

/// `boardkit grade` in the sandbox, or with `--no-sandbox` where bubblewrap
/// is not installed (a developer's machine: CI installs it, and
/// `tests/sandbox.rs` requires it there).
pub(super) fn grade_command() -> Command {
    let mut command = boardkit();
    command.arg("grade");
    if Command::new("bwrap").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI installs bubblewrap");
        command.arg("--no-sandbox");
    }
    command
}

/// A file of the kit, from the workspace's root.
pub(super) fn kit(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// A correct jogo da velha crate at `dir`: the starter with the reference
/// copied over its stubs.
pub(super) fn correct_crate(dir: &Path) {
    let status = boardkit()
        .args(["starter", "velha"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    for entry in std::fs::read_dir(kit("src/velha")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("src/velha").join(path.file_name().unwrap())).unwrap();
    }
}

/// Replaces `from` by `to` in `file` of the crate; the text must be there.
fn patch(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} does not contain {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

fn zip_folder(folder: &Path, prefix: &str, archive: &Path) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(archive).unwrap());
    let mut stack = vec![folder.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = format!("{prefix}/{}", path.strip_prefix(folder).unwrap().display());
                zip.start_file(name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                zip.write_all(&std::fs::read(&path).unwrap()).unwrap();
            }
        }
    }
    zip.finish().unwrap();
}

/// grades.csv as submission -> (column -> value).
fn grades(out: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let text = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_owned)
        .collect();
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let row: BTreeMap<String, String> = header
                .iter()
                .cloned()
                .zip(fields.iter().map(|f| f.to_string()))
                .collect();
            (fields[0].to_owned(), row)
        })
        .collect()
}

fn verdicts(out: &Path, name: &str) -> BTreeMap<String, String> {
    test_fields(out, name, |t| t["extra_data"]["verdict"].as_str())
}

/// One field of each test of `name`'s results.json, by test name.
fn test_fields(
    out: &Path,
    name: &str,
    field: impl Fn(&serde_json::Value) -> Option<&str>,
) -> BTreeMap<String, String> {
    let text =
        std::fs::read_to_string(out.join("students").join(name).join("results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                field(t).unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn sleepers(marker: &str) -> String {
    let ps = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    String::from_utf8_lossy(&ps.stdout).into_owned()
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class graded once (tens of seconds), then read from every side an instructor reads it"
)]
fn a_class_of_rust_submissions_gets_a_careful_instructors_grades() {
    let class = tempfile::tempdir().unwrap();
    // A folder only its owner may enter, as `mktemp -d` makes: cases that run
    // as another user must still reach their binaries.
    std::fs::set_permissions(
        class.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let at = |name: &str| class.path().join(name);
    correct_crate(&at("correct"));
    // A bug per level.
    correct_crate(&at("bug_basic"));
    patch(
        &at("bug_basic"),
        "src/velha/exam.rs",
        "Ok(pos) => pos.col,",
        "Ok(pos) => pos.row,",
    );
    correct_crate(&at("bug_proficient"));
    patch(
        &at("bug_proficient"),
        "src/velha/program.rs",
        "Status::Draw => Some(\"Empate\".to_owned()),",
        "Status::Draw => Some(\"Empate!\".to_owned()),",
    );
    correct_crate(&at("bug_expert"));
    patch(
        &at("bug_expert"),
        "src/velha/exam.rs",
        "        .best_moves(&board, None)\n        .into_iter()",
        "        .best_moves(&board, None)\n        .into_iter()\n        .chain(board.empty_cells())\n        .skip(1)",
    );
    correct_crate(&at("bug_advanced"));
    patch(
        &at("bug_advanced"),
        "src/velha/program.rs",
        "Ok(_) => OCCUPIED_POSITION,",
        "Ok(_) => INVALID_POSITION,",
    );
    // Hostile ones.
    correct_crate(&at("endless_loop"));
    patch(
        &at("endless_loop"),
        "src/velha/exam.rs",
        "pub fn extrai_linha(posicao: &str) -> usize {",
        "pub fn extrai_linha(posicao: &str) -> usize {\n    #[allow(clippy::empty_loop)]\n    loop {}\n    #[allow(unreachable_code)]",
    );
    correct_crate(&at("endless_output"));
    patch(
        &at("endless_output"),
        "src/velha/program.rs",
        "writeln!(console.out, \"{TITLE}\")?;",
        "loop { writeln!(console.out, \"{TITLE}\")?; }",
    );
    correct_crate(&at("memory_hog"));
    patch(
        &at("memory_hog"),
        "src/velha/exam.rs",
        "pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {",
        "pub fn verifica_vencedor(tabuleiro: &[[char; 3]; 3]) -> char {\n    let hog = vec![1u8; 3 << 30];\n    std::hint::black_box(&hog);",
    );
    correct_crate(&at("panics"));
    patch(
        &at("panics"),
        "src/velha/exam.rs",
        "pub fn extrai_coluna(posicao: &str) -> usize {",
        "pub fn extrai_coluna(posicao: &str) -> usize {\n    panic!(\"extrai_coluna is not done\");\n    #[allow(unreachable_code)]",
    );
    correct_crate(&at("exits_early"));
    patch(
        &at("exits_early"),
        "src/velha/program.rs",
        "writeln!(console.out, \"{TITLE}\")?;",
        "writeln!(console.out, \"{TITLE}\")?;\n    std::process::exit(0);",
    );
    // A duration no other process uses marks the children.
    let marker = format!("sleep 78.{}", std::process::id());
    correct_crate(&at("leaves_children"));
    patch(
        &at("leaves_children"),
        "src/velha/program.rs",
        "writeln!(console.out, \"{TITLE}\")?;",
        &format!(
            "writeln!(console.out, \"{{TITLE}}\")?;\n    for _ in 0..20 {{ let _ = std::process::Command::new(\"/bin/sh\").args([\"-c\", \"{marker}\"]).spawn(); }}"
        ),
    );
    // Tampering with the kit's files changes nothing.
    correct_crate(&at("tampered"));
    std::fs::write(at("tampered").join("tests/velha.rs"), "fn main() {}\n").unwrap();
    std::fs::write(
        at("tampered").join("build.rs"),
        "fn main() { panic!(\"a build script\") }\n",
    )
    .unwrap();
    patch(
        &at("tampered"),
        "Cargo.toml",
        "[dependencies]",
        "[build-dependencies]\n\n[dependencies]",
    );
    // The kit's files outside the student's folder: the grader uses its own.
    for kit_file in ["src/harness/velha.rs", "src/console.rs", "src/lib.rs"] {
        std::fs::write(
            at("tampered").join(kit_file),
            "compile_error!(\"a kit file edited\");\n",
        )
        .unwrap();
    }
    correct_crate(&at("compile_error"));
    patch(
        &at("compile_error"),
        "src/velha/exam.rs",
        "pub fn extrai_linha",
        "pub fn extrai_linha_typo() {}\npub fn extrai_linha",
    );
    patch(
        &at("compile_error"),
        "src/velha/exam.rs",
        "-> usize {",
        "-> usize { let x: u8 = \"no\";",
    );
    // Notes on the code: an unwrap and a 60-line function, an index loop
    // (clippy's default lints) and a vector taken by value (the kit's lint
    // set), graded right.
    correct_crate(&at("unwrap_and_long"));
    let added: String = (0..58).map(|_| "    total += 1;\n").collect();
    patch(
        &at("unwrap_and_long"),
        "src/velha/exam.rs",
        "pub fn extrai_linha",
        &format!(
            "pub fn longa(texto: &str) -> usize {{\n    let mut total: usize = texto.parse().unwrap();\n{added}    total\n}}\n\n\
             pub fn conta(linhas: Vec<String>) -> usize {{\n    let mut n = 0;\n    for i in 0..linhas.len() {{\n        if linhas[i] == \"X\" {{\n            n += 1;\n        }}\n    }}\n    n\n}}\n\npub fn extrai_linha"
        ),
    );
    // The starter as written: every function a todo!().
    let untouched = boardkit()
        .args(["starter", "velha"])
        .arg(at("untouched"))
        .output()
        .unwrap();
    assert!(untouched.status.success());
    // Archives.
    correct_crate(&at("staging"));
    zip_folder(&at("staging"), "zipped/project", &at("zipped.zip"));
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(at("zip_slip.zip")).unwrap());
        zip.start_file("../../escaped.rs", zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(b"fn main() {}").unwrap();
        zip.finish().unwrap();
        let mut zip = zip::ZipWriter::new(std::fs::File::create(at("zip_bomb.zip")).unwrap());
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        zip.start_file("bomb/zeros.bin", options).unwrap();
        let block = vec![0u8; 1 << 20];
        for _ in 0..100 {
            zip.write_all(&block).unwrap();
        }
        zip.finish().unwrap();
    }
    let mut submissions: Vec<PathBuf> = [
        "correct",
        "bug_basic",
        "bug_proficient",
        "bug_advanced",
        "bug_expert",
        "endless_loop",
        "endless_output",
        "memory_hog",
        "panics",
        "exits_early",
        "leaves_children",
        "tampered",
        "compile_error",
        "unwrap_and_long",
        "untouched",
        "zipped.zip",
        "zip_slip.zip",
        "zip_bomb.zip",
    ]
    .iter()
    .map(|n| at(n))
    .collect();
    submissions.sort();
    let out = at("out");
    let run = grade_command()
        .arg("velha")
        .args(&submissions)
        .arg("--out")
        .arg(&out)
        .args(["--timeout", "5", "--require", "expert"])
        .args(["--style-points", "30"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(1),
        "--require expert: not everyone reaches it\n{table}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let grades = grades(&out);
    let level = |name: &str| grades[name]["level"].clone();
    // Children are killed with the group; the output itself is right.
    for reached in [
        "correct",
        "tampered",
        "zipped",
        "leaves_children",
        "unwrap_and_long",
    ] {
        assert_eq!(level(reached), "expert", "{reached}\n{table}");
    }
    assert_eq!(level("bug_basic"), "none", "{table}");
    assert_eq!(grades["bug_basic"]["proficient"], "15", "{table}");
    assert_eq!(level("bug_proficient"), "basic", "{table}");
    assert_eq!(level("bug_advanced"), "proficient", "{table}");
    assert_eq!(level("bug_expert"), "advanced", "{table}");
    // Their functions are right; their programs are not.
    for basic in ["endless_output", "exits_early"] {
        assert_eq!(level(basic), "basic", "{basic}\n{table}");
    }
    for none in [
        "endless_loop",
        "memory_hog",
        "panics",
        "untouched",
        "compile_error",
        "zip_slip",
        "zip_bomb",
    ] {
        assert_eq!(level(none), "none", "{none}\n{table}");
    }
    let v = verdicts(&out, "endless_loop");
    assert_eq!(v["basic::extrai_linha"], "timeout");
    // Stopped by its CPU limit, once more before the verdict (or, on a
    // machine so busy that 5 s of CPU took 25 on the wall, by the
    // backstop: out of time all the same).
    let said = test_fields(&out, "endless_loop", |t| t["output"].as_str());
    let said = &said["basic::extrai_linha"];
    assert!(
        (said.contains("still running after 5.0 s of CPU time, its limit")
            && said.contains("run twice, out of time both times"))
            || said.contains("still running after 25."),
        "{said}"
    );
    assert_eq!(
        v["proficient::draw"], "passed",
        "the program does not call extrai_linha"
    );
    assert!(
        verdicts(&out, "endless_output")
            .values()
            .any(|x| x == "output_limit")
    );
    assert_eq!(
        verdicts(&out, "memory_hog")["basic::verifica_vencedor_named_boards"],
        "crashed"
    );
    assert_eq!(verdicts(&out, "panics")["basic::extrai_coluna"], "crashed");
    // A failure says what went wrong first, then the call that broke and
    // the panic's place in the student's file.
    let said = test_fields(&out, "panics", |t| t["output"].as_str());
    let said = &said["basic::extrai_coluna"];
    let exam = std::fs::read_to_string(at("panics").join("src/velha/exam.rs")).unwrap();
    let panic_line = exam
        .lines()
        .position(|l| l.contains("extrai_coluna is not done"))
        .unwrap()
        + 1;
    assert!(said.starts_with("crashed; expected: "), "{said}");
    assert!(said.contains("\ncall: extrai_coluna(\""), "{said}");
    assert!(
        said.contains(&format!(
            "panicked at src/velha/exam.rs:{panic_line}:5: extrai_coluna is not done"
        )),
        "{said}"
    );
    // A result line of the wrong form is shown as printed, with the moves
    // that led there and the command that replays the case locally.
    let said = test_fields(&out, "bug_proficient", |t| t["output"].as_str());
    let draw = &said["proficient::draw"];
    assert!(draw.starts_with("wrong output; expected: "), "{draw}");
    assert!(draw.contains("| Empate!"), "{draw}");
    assert!(draw.contains("\nthe input up to there: "), "{draw}");
    assert!(
        draw.contains(
            "\nreproduce it: cargo test --test velha proficient::draw\nor play it: printf '"
        ) && draw.ends_with("' | cargo run -q -- play velha"),
        "{draw}"
    );
    // The untouched starter: every function case is "not yet implemented"
    // with its function, none an output flood (a stub's every-board case
    // asks 39,366 calls).
    let stub = test_fields(&out, "untouched", |t| t["output"].as_str());
    let stub_verdicts = verdicts(&out, "untouched");
    for (case, function) in [
        ("basic::extrai_linha", "extrai_linha"),
        ("basic::verifica_vencedor_every_board", "verifica_vencedor"),
    ] {
        assert_eq!(stub_verdicts[case], "crashed", "{case}: {}", stub[case]);
        assert!(
            stub[case].contains(&format!("\nnot yet implemented: {function}\n")),
            "{case}: {}",
            stub[case]
        );
    }
    assert!(
        !stub_verdicts.values().any(|v| v == "output_limit"),
        "{stub_verdicts:?}"
    );
    assert_eq!(
        verdicts(&out, "exits_early")["proficient::draw"],
        "wrong_output"
    );
    assert!(
        verdicts(&out, "compile_error")
            .values()
            .all(|x| x == "compile_error")
    );
    assert!(
        verdicts(&out, "zip_slip")
            .values()
            .all(|x| x == "compile_error")
    );
    let slip = std::fs::read_to_string(out.join("students/zip_slip/results.json")).unwrap();
    assert!(slip.contains("outside the submission"), "{slip}");
    assert!(!class.path().parent().unwrap().join("escaped.rs").exists());
    let bomb = std::fs::read_to_string(out.join("students/zip_bomb/results.json")).unwrap();
    assert!(bomb.contains("unpacks to more than"), "{bomb}");
    // Both noted, with file and line; the style's points counted in the
    // score, never in the level.
    let exam = std::fs::read_to_string(at("unwrap_and_long").join("src/velha/exam.rs")).unwrap();
    let line_of = |text: &str| exam.lines().position(|l| l.contains(text)).unwrap() + 1;
    let text = std::fs::read_to_string(out.join("students/unwrap_and_long/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let noted = |kind: &str, line: usize| {
        json["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["kind"] == kind && n["file"] == "src/velha/exam.rs" && n["line"] == line)
    };
    assert!(noted("unwrap", line_of("texto.parse().unwrap()")), "{text}");
    assert!(noted("long_function", line_of("pub fn longa")), "{text}");
    assert!(
        noted("clippy::needless_range_loop", line_of("for i in 0..linhas")),
        "{text}"
    );
    assert!(
        noted("clippy::needless_pass_by_value", line_of("pub fn conta")),
        "{text}"
    );
    // Nothing of the kit's own files, which the student does not own.
    assert!(
        json["notes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["file"].as_str().unwrap().starts_with("src/velha")),
        "{text}"
    );
    // One point a kind of note: the kinds the reference does not have
    // cost one each, in the style and the score.
    let kinds = |name: &str| -> std::collections::BTreeSet<String> {
        let text =
            std::fs::read_to_string(out.join(format!("students/{name}/results.json"))).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["kind"].as_str().unwrap().to_owned())
            .collect()
    };
    let style = |name: &str| grades[name]["style"].parse::<f64>().unwrap();
    let score = |name: &str| grades[name]["score"].parse::<f64>().unwrap();
    for name in ["correct", "unwrap_and_long"] {
        assert_eq!(
            style(name),
            30.0 - kinds(name).len() as f64,
            "{name}\n{table}"
        );
    }
    let added = kinds("unwrap_and_long").len() - kinds("correct").len();
    assert!(added >= 2, "{:?}", kinds("unwrap_and_long"));
    assert_eq!(
        style("correct") - style("unwrap_and_long"),
        added as f64,
        "{table}"
    );
    assert_eq!(
        score("correct") - score("unwrap_and_long"),
        added as f64,
        "{table}"
    );
    // The report groups them by kind, clippy's linked to its explanation.
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        report.contains(
            "index.html#needless_range_loop\"><code>clippy::needless_range_loop</code></a> (1)"
        ),
        "the report groups lint notes by kind"
    );
    assert_eq!(
        grades["correct"]["max_score"],
        grades["bug_basic"]["max_score"]
    );
    // Hidden cases keep their inputs and outputs to themselves.
    let results = std::fs::read_to_string(out.join("students/correct/results.json")).unwrap();
    assert!(results.contains("\"after_published\"") && results.contains("hidden case: passed"));
    assert_eq!(
        sleepers(&marker),
        "",
        "children of a submission survived the grading"
    );
    // The reports exist and name every submission.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let junit = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    for name in grades.keys() {
        assert!(
            html.contains(name.as_str()) && junit.contains(name.as_str()),
            "{name}"
        );
    }
}

fn python_class() -> Vec<PathBuf> {
    ["python_ok", "python_no_diagonal", "python_flood"]
        .iter()
        .map(|n| kit("cli/tests/grading/python").join(n))
        .collect()
}

fn grade_python(out: &Path, extra: &[&str]) -> std::process::Output {
    grade_python_in(out, extra, &[])
}

/// [`grade_python`] with these environment variables (an array job's).
fn grade_python_in(out: &Path, extra: &[&str], vars: &[(&str, &str)]) -> std::process::Output {
    grade_command()
        .envs(vars.iter().copied())
        .arg("velha")
        .args(python_class())
        .args([
            "--program",
            "python3 programa.py",
            "--timeout",
            "3",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn any_program_is_graded_through_stdin_and_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = grade_python(&out, &["--require", "proficient"]);
    let table = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_eq!(run.status.code(), Some(1), "{table}");
    let first = grades(&out);
    // Function levels cannot be graded through stdin: they are left out.
    assert!(!first["python_ok"].contains_key("basic"), "{table}");
    assert_eq!(first["python_ok"]["level"], "advanced", "{table}");
    assert_eq!(first["python_no_diagonal"]["level"], "none", "{table}");
    assert!(
        verdicts(&out, "python_flood")
            .values()
            .any(|v| v == "output_limit"),
        "{table}"
    );
    // Every pair in the similarity report, highest first; the planted bug
    // is a copy of the correct program with one change, and shows.
    let similarity = std::fs::read_to_string(out.join("similarity.csv")).unwrap();
    let rows: Vec<&str> = similarity.lines().collect();
    assert_eq!(rows[0], "a,b,score", "{similarity}");
    assert_eq!(rows.len(), 4, "{similarity}");
    assert!(
        rows[1].starts_with("python_no_diagonal,python_ok,"),
        "{similarity}"
    );
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("id=\"similarity\""));
    // Never in what a student may receive.
    let results = std::fs::read_to_string(out.join("students/python_ok/results.json")).unwrap();
    assert!(!results.contains("python_no_diagonal"));

    // A late student graded alone into the same folder: the others stay,
    // marked as graded by an earlier run, and are said to stay.
    let late = grade_command()
        .arg("velha")
        .arg(kit("cli/tests/grading/python/python_ok"))
        .args(["--program", "python3 programa.py", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&late.stderr);
    assert!(late.status.success(), "{stderr}");
    assert!(
        stderr.contains("2 graded by an earlier run and not given to this one stay")
            && stderr.contains("python_flood, python_no_diagonal"),
        "{stderr}"
    );
    assert_eq!(grades(&out).len(), 3);
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(
        report.matches("graded by an earlier run").count(),
        4,
        "twice each"
    );
    // `grade remove` takes one out of every output.
    let removed = boardkit()
        .args(["grade", "remove"])
        .arg(&out)
        .arg("python_flood")
        .output()
        .unwrap();
    assert!(
        removed.status.success(),
        "{}",
        String::from_utf8_lossy(&removed.stderr)
    );
    let left = grades(&out);
    assert!(
        !left.contains_key("python_flood") && left.len() == 2,
        "{left:?}"
    );
    assert!(!out.join("students/python_flood").exists());
    for file in ["report.html", "junit.xml", "similarity.csv"] {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(!text.contains("python_flood"), "{file}");
    }
    let unknown = boardkit()
        .args(["grade", "remove"])
        .arg(&out)
        .arg("nobody")
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("python_no_diagonal, python_ok"));
}

/// Each test's output (what the student reads of it), by test name.
fn outputs(out: &Path, name: &str) -> BTreeMap<String, String> {
    test_fields(out, name, |t| t["output"].as_str())
}

/// A Python program whose prompts (`input("Jogador X, sua jogada: ")`)
/// print no newline, and whose message lacks its accent: the message lands
/// on the prompt's line, and the student is still told what they printed.
#[test]
fn a_misspelt_message_after_a_prompt_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("class/lia");
    std::fs::create_dir_all(&student).unwrap();
    let program =
        std::fs::read_to_string(kit("cli/tests/grading/python/python_ok/programa.py")).unwrap();
    assert!(program.contains("print(\"Posição inválida\")"));
    std::fs::write(
        student.join("programa.py"),
        program.replace("print(\"Posição inválida\")", "print(\"Posição invalida\")"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = grade_command()
        .arg("velha")
        .arg(&student)
        .args(["--program", "python3 programa.py", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(run.status.success(), "{table}");
    assert_eq!(grades(&out)["lia"]["level"], "proficient", "{table}");
    let said = outputs(&out, "lia");
    let named = said
        .iter()
        .filter(|(test, _)| test.starts_with("advanced::"))
        .filter(|(_, output)| {
            output.contains(
                "you printed `Posição invalida` (on the line `Jogador X, sua jogada: Posição invalida`); \
                 the statement's line is `Posição inválida`",
            )
        })
        .count();
    assert!(named > 0, "{said:#?}");
}

#[test]
fn python_exams_are_graded_at_every_level_by_the_exams_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // Written from the exam's statement by someone who never read the kit,
    // and graded by hand from its rules (see grading/README.md).
    let expected = [
        ("ana", "proficient"),
        // Test prints left at import: its first line is not the title
        // (the exam's rule 5), so no program level.
        ("bruno", "basic"),
        // `testando...` printed at import, before the title: the same.
        ("carla", "basic"),
        ("diego", "expert"),
        ("eduarda", "none"),
        ("felipe", "none"),
        ("gabriel", "none"),
        ("helena", "proficient"),
        // Takes the exam's promise at its word (a letter and a number, with
        // spaces): an empty line or `AA` would crash it, and never come.
        ("iara", "expert"),
        // `verifica_vencedor(*args)` that reads both of the exam's forms:
        // called in each, graded on what it answers.
        ("joana", "expert"),
        // `verifica_vencedor(*casas)` that reads nine strings only: the
        // basic level in that form, not the advanced level's list form.
        ("kaio", "proficient"),
    ];
    let run = grade_command()
        .arg("velha")
        .args(expected.map(|(n, _)| kit("cli/tests/grading/python_exams").join(n)))
        .args(["--language", "python", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{table}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let grades = grades(&out);
    for (name, level) in expected {
        assert_eq!(grades[name]["level"], level, "{name}\n{table}");
    }
    let said = |name: &str, test: &str| outputs(&out, name)[test].clone();
    assert!(
        said("bruno", "proficient::draw")
            .contains("expected \"Jogo da Velha\": the statement has it start with that line"),
        "{}",
        said("bruno", "proficient::draw")
    );
    // No robustness part: not the exam's rules.
    assert!(!grades["diego"].contains_key("robustness"), "{table}");
    // The basic level is graded, through funcoes.py.
    assert_eq!(grades["gabriel"]["basic"], "0", "{table}");
    assert_ne!(grades["bruno"]["basic"], "0", "{table}");
    assert_eq!(grades["bruno"]["basic"], grades["ana"]["basic"], "{table}");
    assert!(
        said("gabriel", "basic::extrai_linha").contains("not yet implemented"),
        "{}",
        said("gabriel", "basic::extrai_linha")
    );
    assert!(
        said("felipe", "basic::extrai_coluna").contains("returned \"0\", expected 0"),
        "{}",
        said("felipe", "basic::extrai_coluna")
    );
    assert!(
        said("ana", "advanced::verifica_vencedor_list_form").contains("one by one (9 parameters)"),
        "{}",
        said("ana", "advanced::verifica_vencedor_list_form")
    );
    assert!(
        said("kaio", "advanced::verifica_vencedor_list_form").contains("IndexError"),
        "{}",
        said("kaio", "advanced::verifica_vencedor_list_form")
    );
    // A level the kit's other form of a function gives no points for is
    // not asked of Python: the nine-argument form is the same cases.
    assert!(
        !outputs(&out, "bruno")
            .keys()
            .any(|t| t.contains("verifica_vencedor_9")),
        "{table}"
    );
}

/// Busy loops, one per slot, ended when dropped: a machine under load.
struct Load(Vec<std::process::Child>);

impl Load {
    fn busy(loops: usize) -> Load {
        Load(
            (0..loops)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

/// The same slow but correct submission (a minimax without memory: about
/// 3 s of CPU on the expert opening case, as a student writes it first)
/// gets the same grade alone and with two busy loops on every core (and
/// whatever the other long tests build beside it): a case's limit is CPU
/// time, 6 s here, with the wall clock far behind it. Under a wall-clock
/// limit it lost its expert level under load; at 3 s of CPU, half its
/// runs lost it even alone (3.1 to 3.4 s on CI's machine), so the margin
/// is the submission's own.
#[test]
fn a_slow_correct_submission_gets_the_same_grade_under_load() {
    let dir = tempfile::tempdir().unwrap();
    let grade = |out: &Path| {
        let run = grade_command()
            .arg("velha")
            .arg(kit("cli/tests/grading/python_slow/lucas"))
            .args(["--language", "python", "--timeout", "6", "--out"])
            .arg(out)
            .output()
            .unwrap();
        assert!(run.status.success(), "{run:?}");
        grades(out)["lucas"].clone()
    };
    let alone = grade(&dir.path().join("alone"));
    assert_eq!(alone["level"], "expert", "{alone:?}");
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let loaded = {
        let _load = Load::busy(2 * cores);
        grade(&dir.path().join("loaded"))
    };
    assert_eq!(alone, loaded);
    // run.json says each case's limits and the reference's time behind them.
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("loaded/run.json")).unwrap())
            .unwrap();
    let expert = &run["case_cpu"]["expert::melhor_jogada_late_middle_game"];
    assert_eq!(
        (expert["limit_s"].as_u64(), expert["wall_s"].as_u64()),
        (Some(6), Some(30)),
        "{run}"
    );
    // The limit is --timeout's: the reference's time, 20 times, is less.
    assert!(
        expert["reference_ms"]
            .as_f64()
            .is_some_and(|ms| ms > 0.0 && ms * 20.0 <= 6000.0),
        "{run}"
    );
    assert!(
        run["limits"]
            .as_str()
            .is_some_and(|l| l.contains("6 s of CPU time per case")),
        "{run}"
    );
}

/// A python3 with pytest, if the machine has one (CI installs Debian's).
pub(super) fn python_with_pytest() -> Option<&'static str> {
    ["python3", "/usr/bin/python3"].into_iter().find(|python| {
        Command::new(python)
            .args(["-m", "pytest", "--version"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one starter written and run with pytest once, then checked case by case"
)]
fn a_python_starter_runs_the_graders_public_cases_with_pytest() {
    let dir = tempfile::tempdir().unwrap();
    let starter = dir.path().join("velha");
    let made = boardkit()
        .args(["starter", "velha"])
        .arg(&starter)
        .args(["--language", "python", "--locale", "pt-BR"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    // The statement in the course's language; the exact lines the same.
    let statement = std::fs::read_to_string(starter.join("STATEMENT.md")).unwrap();
    assert!(
        statement.starts_with("# Jogo da velha (prova em Python)"),
        "{statement}"
    );
    assert!(statement.contains("`Posição ocupada`"), "{statement}");
    // Every case, `ok` ones too (one screen otherwise).
    let test = |folder: &Path| {
        boardkit()
            .args(["test", "velha"])
            .arg(folder)
            .args(["--language", "python", "--verbose"])
            .output()
            .unwrap()
    };
    // The stubs: every case fails, saying what is not written yet.
    let stubs = test(&starter);
    let said = String::from_utf8_lossy(&stubs.stdout).into_owned();
    assert_eq!(stubs.status.code(), Some(1), "{said}");
    assert!(!said.contains("\nok "), "{said}");
    // In the starter's language (its tests/locale.toml).
    assert!(
        said.contains("ainda não implementada: extrai_linha"),
        "{said}"
    );
    assert!(!said.contains("not yet implemented"), "{said}");
    assert!(said.contains("nível alcançado: ainda nenhum"), "{said}");
    // An exam solution in place of the stubs: every level.
    for file in ["funcoes.py", "programa.py"] {
        std::fs::copy(
            kit("cli/tests/grading/python_exams/diego").join(file),
            starter.join(file),
        )
        .unwrap();
    }
    let solved = test(&starter);
    let said = String::from_utf8_lossy(&solved.stdout).into_owned();
    assert!(solved.status.success(), "{said}");
    assert!(
        said.contains("nível alcançado: especialista (expert)"),
        "{said}"
    );
    // The very public cases the grader runs, and nothing else.
    let out = dir.path().join("out");
    let graded = grade_command()
        .arg("velha")
        .arg(&starter)
        .args(["--language", "python", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(graded.status.success(), "{graded:?}");
    let text = std::fs::read_to_string(out.join("students/velha/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let graders: std::collections::BTreeSet<String> = json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["visibility"] == "visible")
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    let local: std::collections::BTreeSet<String> = said
        .lines()
        .filter_map(|l| l.strip_prefix("ok      "))
        .map(str::to_owned)
        .collect();
    assert_eq!(local, graders);
    // pytest, level by level, then the levels.
    let Some(python) = python_with_pytest() else {
        assert!(std::env::var_os("CI").is_none(), "CI needs pytest");
        return;
    };
    let pytest = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .current_dir(&starter)
        .env("BOARDKIT", env!("CARGO_BIN_EXE_boardkit"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&pytest.stdout).into_owned();
    assert!(pytest.status.success(), "{said}");
    // Every public case, and the student's own example test (its own
    // file, named in the starter's language, apart from the kit's).
    assert!(said.contains("27 passed"), "{said}");
    assert!(starter.join("test_meus_testes.py").is_file());
    std::fs::copy(
        kit("cli/tests/grading/python_exams/eduarda/funcoes.py"),
        starter.join("funcoes.py"),
    )
    .unwrap();
    let pytest = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .current_dir(&starter)
        .env("BOARDKIT", env!("CARGO_BIN_EXE_boardkit"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&pytest.stdout).into_owned();
    assert!(!pytest.status.success(), "{said}");
    // In the starter's language.
    assert!(said.contains("devolveu \"N\"; valores aceitos"), "{said}");
    // A failure says the kit's words, not pytest's introspection of the test.
    assert!(!said.contains("CompletedProcess"), "{said}");
    assert!(!said.contains("assert run.returncode"), "{said}");
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class graded whole and in shards once, then compared side by side"
)]
fn shards_merged_equal_one_run_and_a_second_run_continues() {
    let dir = tempfile::tempdir().unwrap();
    // A roster with both gaps: a submission it does not list, a student
    // with no submission.
    let roster = dir.path().join("roster.csv");
    std::fs::write(
        &roster,
        "submission,id,login,name\npython_ok,101,ana.s,\"Silva, Ana\"\n\
         python_flood,102,bia.c,\nghost,103,gil.g,=Gil\n",
    )
    .unwrap();
    let roster = roster.to_str().unwrap();
    let lms = [
        "--roster",
        roster,
        "--assignment",
        "Exam 1",
        "--canvas-assignment",
        "Exam 1 (4567)",
    ];
    let whole = dir.path().join("whole");
    let run = grade_python(&whole, &lms);
    assert!(run.status.success());
    let said = String::from_utf8_lossy(&run.stderr);
    // Ghost has no grade: in neither import (a blank cell would erase
    // the grade Moodle or Canvas holds), and said.
    assert!(
        said.contains(
            "in the roster with no graded submission (left out of the LMS files, \
             so their grades there stay as they are): ghost"
        ),
        "{said}"
    );
    assert!(
        said.contains("graded but not in the roster (in no LMS file): python_no_diagonal"),
        "{said}"
    );
    let grades = grades(&whole);
    let score = |name: &str| grades[name]["score"].clone();
    assert_eq!(
        std::fs::read_to_string(whole.join("canvas.csv")).unwrap(),
        format!(
            "Student,ID,SIS User ID,SIS Login ID,Section,Exam 1 (4567)\n    Points Possible,,,,,30\n\
             \"Silva, Ana\",101,,ana.s,,{}\nbia.c,102,,bia.c,,{}\n",
            score("python_ok"),
            score("python_flood")
        )
    );
    // Moodle's: its columns, then each student's feedback in a line.
    let moodle: Vec<Vec<String>> = csv::Reader::from_path(whole.join("moodle.csv"))
        .unwrap()
        .into_records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect();
    let header = std::fs::read_to_string(whole.join("moodle.csv")).unwrap();
    assert!(
        header.starts_with("Username,ID number,Full name,Exam 1,Feedback\n"),
        "{header}"
    );
    let columns: Vec<[&str; 4]> = moodle
        .iter()
        .map(|r| [r[0].as_str(), r[1].as_str(), r[2].as_str(), r[3].as_str()])
        .collect();
    let (ok, flood) = (score("python_ok"), score("python_flood"));
    assert_eq!(
        columns,
        [
            ["ana.s", "101", "Silva, Ana", ok.as_str()],
            ["bia.c", "102", "bia.c", flood.as_str()],
        ]
    );
    assert!(moodle[0][4].starts_with("Level reached: "), "{moodle:?}");
    assert!(moodle[1][4].contains("First failure: "), "{moodle:?}");
    // Each shard takes its slice from an array job's variables: Slurm's
    // (an array 0-1), Kubernetes' and AWS Batch's (0-based, of 2).
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| dir.path().join(format!("shard{k}")))
        .collect();
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
        ("SLURM_ARRAY_TASK_STEP", "1"),
    ];
    for (shard, spec, vars) in [
        (&shards[0], "auto", &slurm[..]),
        (&shards[1], "auto/2", &[("JOB_COMPLETION_INDEX", "1")][..]),
        (
            &shards[2],
            "auto/2",
            &[("AWS_BATCH_JOB_ARRAY_INDEX", "1")][..],
        ),
    ] {
        let run = grade_python_in(shard, &["--shard", spec], vars);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    // Kubernetes' and AWS Batch's index 1 are the same slice.
    assert_eq!(
        std::fs::read_to_string(shards[1].join("grades.csv")).unwrap(),
        std::fs::read_to_string(shards[2].join("grades.csv")).unwrap()
    );
    let merged = dir.path().join("merged");
    let merge = boardkit()
        .args(["grade", "merge"])
        .args(&shards[..2])
        .arg("--out")
        .arg(&merged)
        .args(lms)
        .output()
        .unwrap();
    assert!(
        merge.status.success(),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    // The same files, but for the minute each run was graded at.
    let undated = |path: PathBuf| -> String {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("<p class=\"meta\">") && !l.contains("\"graded_at\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for file in [
        "grades.csv",
        "canvas.csv",
        "moodle.csv",
        "junit.xml",
        "report.html",
        "run.json",
        "similarity.csv",
        "students/python_ok/results.json",
        "instructor/python_ok/hidden.json",
        "students/python_flood/results.json",
    ] {
        assert_eq!(
            undated(whole.join(file)),
            undated(merged.join(file)),
            "{file} differs"
        );
    }
    // Taken out with the roster, a student is left out of the imports
    // (their grade in the LMS stays as it is, never blanked); taken out
    // without it, no LMS file is left holding the grades taken out.
    let remove = |name: &str, extra: &[&str]| {
        let run = boardkit()
            .args(["grade", "remove"])
            .arg(&merged)
            .arg(name)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8_lossy(&run.stderr).into_owned()
    };
    let said = remove(
        "python_ok",
        &["--roster", roster, "--canvas-assignment", "Exam 1 (4567)"],
    );
    assert!(
        said.contains("no graded submission (left out of the LMS files, so their grades there stay as they are): python_ok, ghost"),
        "{said}"
    );
    let canvas = std::fs::read_to_string(merged.join("canvas.csv")).unwrap();
    assert!(!canvas.contains("ana.s"), "{canvas}");
    assert!(canvas.contains("\nbia.c,102,,bia.c,,"), "{canvas}");
    let moodle = std::fs::read_to_string(merged.join("moodle.csv")).unwrap();
    assert!(
        !moodle.contains("ana.s") && moodle.contains("\nbia.c,102,"),
        "{moodle}"
    );
    // Moodle's column's default: the game graded.
    assert!(
        moodle.starts_with("Username,ID number,Full name,velha,Feedback\n"),
        "{moodle}"
    );
    let said = remove("python_flood", &[]);
    // No moodle-feedback.zip was written: no roster row has a participant id.
    assert!(
        said.contains("deleted canvas.csv, moodle.csv (an earlier run's grades)"),
        "{said}"
    );
    assert!(!merged.join("canvas.csv").exists() && !merged.join("moodle.csv").exists());
    // A second run finds every submission finished and keeps them.
    let before = std::fs::metadata(whole.join("students/python_ok/results.json"))
        .unwrap()
        .modified()
        .unwrap();
    assert!(grade_python(&whole, &[]).status.success());
    let after = std::fs::metadata(whole.join("students/python_ok/results.json"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class graded, changed and graded again: the runs are the test's steps, in order"
)]
fn a_regrade_grades_changed_submissions_again_and_keeps_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for name in ["ana", "bia"] {
        std::fs::create_dir_all(class.join(name)).unwrap();
    }
    let python = |name: &str| {
        kit("cli/tests/grading/python")
            .join(name)
            .join("programa.py")
    };
    std::fs::copy(python("python_ok"), class.join("ana/programa.py")).unwrap();
    std::fs::copy(python("python_no_diagonal"), class.join("bia/programa.py")).unwrap();
    let out = dir.path().join("out");
    let grade = |extra: &[&str]| {
        let run = grade_command()
            .arg("velha")
            .args([class.join("ana"), class.join("bia")])
            .args(["--program", "python3 programa.py", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        grades(&out)
    };
    let modified = |name: &str| {
        std::fs::metadata(out.join("students").join(name).join("results.json"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let first = grade(&[]);
    assert_eq!(first["bia"]["level"], "none");
    let (ana, bia) = (modified("ana"), modified("bia"));
    // Bia fixes her program; Ana changes nothing.
    std::fs::copy(python("python_ok"), class.join("bia/programa.py")).unwrap();
    let second = grade(&[]);
    assert_eq!(second["bia"]["level"], "advanced");
    assert_eq!(modified("ana"), ana, "an unchanged submission is reused");
    assert_ne!(modified("bia"), bia);
    let _ = grade(&["--fresh"]);
    assert_ne!(modified("ana"), ana, "--fresh grades everyone again");
    // A mistyped path is the instructor's error, not a student with 0 points.
    let typo = grade_command()
        .arg("velha")
        .arg(class.join("ana"))
        .arg(class.join("bai"))
        .args(["--program", "python3 programa.py", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("bai"));
    // A folder of empty folders, or a file that is not an archive, is a
    // student with 0 points and the reason: the class goes on.
    std::fs::create_dir_all(class.join("carla/src/velha")).unwrap();
    std::fs::write(class.join("davi.txt"), "fn main() {}").unwrap();
    let rust_out = dir.path().join("rust-out");
    let run = grade_command()
        .arg("velha")
        .arg(class.join("carla"))
        .arg(class.join("davi.txt"))
        .arg("--out")
        .arg(&rust_out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let book = grades(&rust_out);
    for (name, reason) in [
        ("carla", "an empty folder: nothing to grade"),
        ("davi.txt", "neither a folder nor a .zip"),
    ] {
        assert_eq!(book[name]["score"], "0", "{name}");
        let said = test_fields(&rust_out, name, |t| t["output"].as_str());
        assert!(
            said.values()
                .filter(|o| !o.starts_with("hidden case"))
                .all(|o| o.contains(reason)),
            "{name}: {said:?}"
        );
    }
    // Nothing to build: the kit's dependencies were not built for them.
    assert!(!stderr.contains("built the kit's dependencies"), "{stderr}");
}

#[test]
fn without_the_sandbox_the_same_class_grades_alike_and_the_report_says_so() {
    let class = tempfile::tempdir().unwrap();
    correct_crate(&class.path().join("correct"));
    let stub = class.path().join("stub");
    let made = boardkit()
        .args(["starter", "velha"])
        .arg(&stub)
        .output()
        .unwrap();
    assert!(made.status.success());
    let out = class.path().join("out");
    // Relative paths, as an instructor types them: without a sandbox the
    // build runs elsewhere and must still find its folders.
    let run = boardkit()
        .args([
            "grade",
            "--no-sandbox",
            "velha",
            "correct",
            "stub",
            "--out",
            "out",
        ])
        .current_dir(class.path())
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{table}");
    assert!(String::from_utf8_lossy(&run.stderr).contains("--no-sandbox"));
    let grades = grades(&out);
    assert_eq!(grades["correct"]["level"], "expert", "{table}");
    assert_eq!(grades["stub"]["level"], "none", "{table}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("Graded with --no-sandbox"));
}

/// A headless Chromium, as CI installs it (`chromium`); `None` elsewhere.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok());
    assert!(
        found.is_some() || std::env::var_os("CI").is_none(),
        "CI installs chromium"
    );
    found
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class graded once, then its report read part by part"
)]
fn the_report_opens_on_the_class_overview_and_every_failure_says_what_led_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    assert!(grade_python(&out, &[]).status.success());
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // The header, then the overview with its two charts, then the students.
    for needle in [
        "Jogo da velha: class report",
        "boardkit ",
        "3 s of CPU time per case",
    ] {
        assert!(html.contains(needle), "no {needle:?} in the header");
    }
    let overview = html.find("id=\"overview\"").expect("an overview");
    let first_student = html.find("id=\"s-").expect("a section per student");
    assert!(overview < first_student);
    assert_eq!(html[..first_student].matches("<svg").count(), 2);
    assert!(html[overview..first_student].contains("Pass rate per case, worst first"));
    // Cases by pass rate, worst first.
    let rates = &html[html.find("class=\"rates\"").unwrap()..first_student];
    let rates = &rates[..rates.find("</table>").unwrap()];
    let rates: Vec<f64> = rates
        .split("<td class=\"num\">")
        .skip(1)
        .map(|cell| {
            let (passed, rest) = cell.split_once(" / ").unwrap();
            let total = rest.split_once(' ').unwrap().0;
            passed.parse::<f64>().unwrap() / total.parse::<f64>().unwrap()
        })
        .collect();
    assert!(rates.len() > 20 && rates[0] < 1.0, "{rates:?}");
    assert!(rates.windows(2).all(|w| w[0] <= w[1]), "{rates:?}");
    // Each failure is open and says what led to it; passes are folded.
    let sections = &html[first_student..];
    let failures: Vec<&str> = sections.split("<details open>").skip(1).collect();
    assert!(!failures.is_empty());
    for failure in failures {
        let failure = &failure[..failure.find("</details>").unwrap()];
        assert!(
            [
                "after input line",
                "before any input was read",
                "hidden from students",
                "printed more than the output limit",
                "exit status",
                "\ncall: ",
                "killed by SIG",
            ]
            .iter()
            .any(|n| failure.contains(n)),
            "a failure without its cause: {failure}"
        );
    }
    assert!(sections.contains("passed</span></summary>"));
    // The flood is cut, and what it printed before is compared.
    let flood: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("students/python_flood/results.json")).unwrap(),
    )
    .unwrap();
    let cut = flood["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["extra_data"]["verdict"] == "output_limit" && t["visibility"] == "visible")
        .expect("a visible output_limit case");
    assert!(
        cut["output"]
            .as_str()
            .unwrap()
            .contains("first difference at graded event"),
        "{cut}"
    );

    // One self-contained page that a browser draws: its DOM holds the
    // charts, and a screenshot is left for people to look at.
    let Some(browser) = chromium() else {
        eprintln!("no chromium: the report was not drawn");
        return;
    };
    let headless = |extra: &[&str]| {
        Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1100,1800",
            ])
            .args(extra)
            .arg(format!("file://{}", out.join("report.html").display()))
            .output()
            .unwrap()
    };
    let dom = headless(&["--dump-dom"]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("<svg") && dom.contains("Class overview"),
        "{dom}"
    );
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report.png");
    let _ = std::fs::remove_file(&screenshot);
    headless(&[&format!("--screenshot={}", screenshot.display())]);
    let png = std::fs::read(&screenshot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
    eprintln!("the report's screenshot: {}", screenshot.display());
}

#[test]
fn a_class_folder_given_as_one_submission_is_refused_with_the_command_to_use() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("turma");
    for name in ["ana", "bruno"] {
        std::fs::create_dir_all(class.join(name).join("src")).unwrap();
    }
    let out = dir.path().join("out");
    let output = grade_command()
        .arg("velha")
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a class's folder (2 submissions in it)"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("boardkit grade velha {}/* --out", class.display())),
        "{stderr}"
    );
    assert!(!out.join("grades.csv").exists(), "nothing graded");
}

#[test]
fn a_misspelt_game_lists_the_games_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let commands: [&[&str]; 5] = [
        &["grade", "vela", d, "--out", d],
        &["scores", "--game", "vela"],
        &["starter", "vela", d],
        &["test", "vela"],
        &["dev", "check", "vela"],
    ];
    for args in commands {
        let output = boardkit().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("velha, connect4, mastermind"),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.contains("'velha'"),
            "{args:?}: a suggestion: {stderr}"
        );
    }
}

/// A program written to its course's rules (`input()`, `strip()`, the exam's
/// messages) reaches advanced through `--program`: the kit's own rules (a
/// line of 4,097 bytes, the end of input, bytes that are not text) are the
/// robustness part, in the score and in no level.
#[test]
fn a_program_that_follows_its_course_reaches_its_level_without_the_kits_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = grade_command()
        .arg("velha")
        .arg(kit("cli/tests/grading/python/python_input_strip"))
        .arg(kit("cli/tests/grading/python/python_ok"))
        .args([
            "--program",
            "python3 programa.py",
            "--timeout",
            "3",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{table}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let book = grades(&out);
    let strip = &book["python_input_strip"];
    assert_eq!(strip["level"], "advanced", "{table}");
    assert_eq!(strip["advanced"], book["python_ok"]["advanced"], "{table}");
    // Its robustness points are fewer, and counted in the score.
    let number =
        |row: &BTreeMap<String, String>, column: &str| -> f64 { row[column].parse().unwrap() };
    assert!(
        number(strip, "robustness") < number(&book["python_ok"], "robustness"),
        "{table}"
    );
    assert_eq!(
        number(strip, "max_score"),
        number(&book["python_ok"], "max_score")
    );
    assert!(number(strip, "score") < number(strip, "max_score"));
    let said = verdicts(&out, "python_input_strip");
    assert_ne!(said["robustness::line_of_4096_bytes"], "passed", "{said:?}");
    assert!(
        said.keys()
            .all(|name| !name.starts_with("advanced::line_of_4096"))
    );
}

/// What a careful instructor signs: a merge of folders that are not the
/// shards of one run writes nothing (exit 2), an `--out` holding another
/// game's or another kind of run's results is refused until `--fresh`, an
/// empty folder is a student with 0 points (the class goes on), the
/// `--out` folder inside the class is never a student, and a roster saved
/// by a spreadsheet in Portuguese is read.
#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class graded once, then each wrong merge and folder tried on it in turn"
)]
fn merges_and_output_folders_never_lose_or_mix_grades() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let python = |name: &str| {
        kit("cli/tests/grading/python")
            .join(name)
            .join("programa.py")
    };
    for (name, program) in [("ana", "python_ok"), ("bia", "python_no_diagonal")] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::copy(python(program), class.join(name).join("programa.py")).unwrap();
    }
    // Carla handed in an empty folder (folders only).
    std::fs::create_dir_all(class.join("carla/src")).unwrap();
    // Saved by Excel in Portuguese: `;`, capitalised headers, CR LF.
    let roster = dir.path().join("turma.csv");
    std::fs::write(
        &roster,
        "Submission;ID;Login;Name\r\nana;101;ana.s;Silva, Ana\r\nbia;102;bia.c;\r\ncarla;103;carla.d;\r\n",
    )
    .unwrap();
    let run = |game: &str, paths: &[PathBuf], out: &Path, extra: &[&str]| {
        grade_command()
            .arg(game)
            .args(paths)
            .args(["--program", "python3 programa.py", "--timeout", "3"])
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // `class/*` with the output folder inside the class, from a first run.
    let notas = class.join("notas");
    let first = run("velha", &[class.join("ana")], &notas, &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let mut everyone: Vec<PathBuf> = std::fs::read_dir(&class)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    everyone.sort();
    let all = run(
        "velha",
        &everyone,
        &notas,
        &[
            "--roster",
            roster.to_str().unwrap(),
            "--canvas-assignment",
            "Jogo da velha (4567)",
        ],
    );
    assert!(all.status.success(), "{}", stderr(&all));
    assert!(
        stderr(&all).contains("is the --out folder: not a submission"),
        "{}",
        stderr(&all)
    );
    let book = grades(&notas);
    assert_eq!(
        book.keys().map(String::as_str).collect::<Vec<_>>(),
        ["ana", "bia", "carla"]
    );
    assert_eq!(book["ana"]["level"], "advanced");
    assert_eq!(
        (
            book["carla"]["score"].as_str(),
            book["carla"]["level"].as_str()
        ),
        ("0", "none")
    );
    let said = test_fields(&notas, "carla", |t| t["output"].as_str());
    assert!(
        said.values()
            .filter(|o| !o.starts_with("hidden case"))
            .all(|o| o.contains("an empty folder: nothing to grade")),
        "{said:?}"
    );
    let canvas = std::fs::read_to_string(notas.join("canvas.csv")).unwrap();
    assert!(canvas.contains("\"Silva, Ana\",101,,ana.s,,"), "{canvas}");

    // Another game into the same folder: refused, nothing changed; --fresh
    // replaces it.
    let before = std::fs::read_to_string(notas.join("grades.csv")).unwrap();
    let other = run("mastermind", &[class.join("ana")], &notas, &[]);
    assert_eq!(other.status.code(), Some(2), "{}", stderr(&other));
    assert!(
        stderr(&other).contains("holds the results of another run")
            && stderr(&other).contains("--fresh"),
        "{}",
        stderr(&other)
    );
    assert_eq!(
        std::fs::read_to_string(notas.join("grades.csv")).unwrap(),
        before
    );
    // Another kind of run (crates, as the header of a crate class says).
    let crates_out = dir.path().join("crates-out");
    std::fs::create_dir_all(&crates_out).unwrap();
    let header = std::fs::read_to_string(notas.join("run.json")).unwrap();
    let header: serde_json::Value = serde_json::from_str(&header).unwrap();
    let mut crates_header = header.clone();
    crates_header["submissions"] = "Rust crates".into();
    std::fs::write(crates_out.join("run.json"), crates_header.to_string()).unwrap();
    let mixed = run("velha", &[class.join("ana")], &crates_out, &[]);
    assert_eq!(mixed.status.code(), Some(2), "{}", stderr(&mixed));
    assert!(stderr(&mixed).contains("Rust crates"), "{}", stderr(&mixed));
    let fresh = run("mastermind", &[class.join("ana")], &notas, &["--fresh"]);
    assert!(fresh.status.success(), "{}", stderr(&fresh));
    let book = grades(&notas);
    assert_eq!(book.keys().collect::<Vec<_>>(), ["ana"]);
    assert!(
        std::fs::read_to_string(notas.join("report.html"))
            .unwrap()
            .contains("Mastermind")
    );
    assert!(!notas.join("canvas.csv").exists());

    // Shards, and merges that must write nothing.
    let students = [class.join("ana"), class.join("bia"), class.join("carla")];
    let shard = |k: usize, out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec!["--shard".to_owned(), format!("{k}/2")];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let done = run("velha", &students, &out, &args);
        assert!(done.status.success(), "{}", stderr(&done));
        out
    };
    let (s1, s2) = (shard(1, "s1", &[]), shard(2, "s2", &[]));
    let s2_slower = shard(2, "s2-smaller", &["--memory-mib", "256"]);
    let whole = dir.path().join("whole");
    assert!(run("velha", &students, &whole, &[]).status.success());
    let mastermind = dir.path().join("m1");
    let m1 = run("mastermind", &students, &mastermind, &["--shard", "1/2"]);
    assert!(m1.status.success(), "{}", stderr(&m1));
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let merged = dir.path().join("merged");
    for (why, folders, says) in [
        (
            "a typo",
            vec![s1.clone(), dir.path().join("s3")],
            "no such folder",
        ),
        (
            "an empty folder",
            vec![s1.clone(), empty.clone()],
            "no run.json",
        ),
        ("the class's folder", vec![class.clone()], "no run.json"),
        (
            "a whole class's run",
            vec![s1.clone(), whole.clone()],
            "without --shard",
        ),
        (
            "another game",
            vec![s1.clone(), mastermind.clone()],
            "not a shard of the same run",
        ),
        (
            "other options",
            vec![s1.clone(), s2_slower.clone()],
            "other options",
        ),
        (
            "one slice twice",
            vec![s1.clone(), s1.clone()],
            "shard 1/2, and so is",
        ),
    ] {
        let refused = boardkit()
            .args(["grade", "merge"])
            .args(&folders)
            .arg("--out")
            .arg(&merged)
            .output()
            .unwrap();
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{why}: {}",
            stderr(&refused)
        );
        assert!(
            stderr(&refused).contains(says),
            "{why}: {}",
            stderr(&refused)
        );
        assert!(!stderr(&refused).contains("Usage:"), "{why}");
        assert!(
            !merged.exists(),
            "{why}: the merge wrote {}",
            merged.display()
        );
    }
    let joined = boardkit()
        .args(["grade", "merge"])
        .args([&s1, &s2])
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(joined.status.success(), "{}", stderr(&joined));
    assert_eq!(grades(&merged), grades(&whole));

    // A roster whose header names no submission: said plainly, no usage.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "Aluno;Matricula;Email\nana;101;a@x\n").unwrap();
    let refused = run(
        "velha",
        &[class.join("ana")],
        &dir.path().join("bad-out"),
        &["--roster", bad.to_str().unwrap()],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains(r#"found "Aluno;Matricula;Email""#)
            && !stderr(&refused).contains("Usage:"),
        "{}",
        stderr(&refused)
    );
}

/// A roster an LMS would misread (an empty login stops Moodle's import or
/// grades the student before it; a login or id twice grades one student
/// twice) is refused before anything is graded or written, naming its
/// lines; so are a Canvas column without the assignment's id and a Moodle
/// version that is not one.
#[test]
fn a_roster_or_lms_option_an_lms_would_misread_is_refused_before_grading() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("ana");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(
        kit("cli/tests/grading/python/python_ok/programa.py"),
        class.join("programa.py"),
    )
    .unwrap();
    let roster = dir.path().join("roster.csv");
    std::fs::write(
        &roster,
        "submission;id;login;name\r\nana;1008;ana.s;Ana\r\niris;1009;;Íris Nunes\r\n\
         bia;1010;Ana.S;Bia\r\ncaio;1008;caio;Caio\r\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        grade_command()
            .arg("velha")
            .arg(&class)
            .args(["--program", "python3 programa.py", "--out"])
            .arg(&out)
            .arg("--roster")
            .arg(&roster)
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = run(&[]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    for line in [
        r#"lines 2 and 5: the same id "1008""#,
        "line 3: no login",
        r#"lines 2 and 4: the same login "ana.s""#,
        "nothing was graded or written",
    ] {
        assert!(said.contains(line), "{line}: {said}");
    }
    assert!(!out.exists(), "{said}");
    std::fs::write(&roster, "submission,id,login\nana,1008,ana.s\n").unwrap();
    for (option, value, why) in [
        ("--canvas-assignment", "velha", "Title (id)"),
        ("--moodle-version", "4", "major.minor"),
    ] {
        let refused = run(&[option, value]);
        let said = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{said}");
        assert!(said.contains(why), "{said}");
        assert!(!out.exists(), "{said}");
    }
}
