//! A starter's own tests, as a student runs them: the cases pinned when the
//! starter was made, and every case under the grader's limits
//! (`tests/common`'s runner, shipped with every starter).

use std::path::Path;
use std::process::Command;

use crate::common;

/// One starter built at a time in the shared target folder
/// (`target/guide-starter`): every starter's crate has the same name, and
/// two built at once there would overwrite each other's test binary.
pub(crate) static STARTER_TARGET: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A fresh velha starter in `scratch`.
fn velha_starter(scratch: &Path) -> std::path::PathBuf {
    let starter = scratch.join("velha");
    let made = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["starter", "velha"])
        .arg(&starter)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    starter
}

/// `command` run in `starter` as a student's shell runs it (rustc alone),
/// building in the shared starter target folder (hold [`starter_target`]).
pub(crate) fn in_starter(
    starter: &Path,
    command: &str,
    env: &[(&str, &Path)],
) -> std::process::Output {
    let mut run = Command::new("bash");
    run.args(["-c", command])
        .current_dir(starter)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/guide-starter"),
        )
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CLIPPY_ARGS");
    for (name, value) in env {
        run.env(name, value);
    }
    run.output().unwrap()
}

/// Holds the shared starter target folder for one test.
pub(crate) fn starter_target() -> std::sync::MutexGuard<'static, ()> {
    STARTER_TARGET.lock().unwrap_or_else(|e| e.into_inner())
}

/// A program that prints without end is stopped at the output limit, at
/// once, with what it printed so far kept.
#[test]
fn a_case_that_floods_is_stopped_at_the_output_limit() {
    let command = common::case_command(Path::new("/bin/sh"), &["-c".into(), "yes flood".into()]);
    let started = std::time::Instant::now();
    let ran = common::run_limited(command, b"", common::CASE_WALL);
    assert_eq!(ran.ending, boardkit::judge::Ending::OutputLimit);
    assert_eq!(ran.stdout.len(), common::OUTPUT_LIMIT);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// A program that loops without end is stopped at the CPU limit, read as
/// a timeout (not as a crash by SIGXCPU or SIGKILL).
#[test]
#[ignore = "long: spends the CPU limit, 10 s"]
fn a_case_that_loops_is_stopped_at_the_cpu_limit_as_still_running() {
    let command = common::case_command(
        Path::new("/bin/sh"),
        &["-c".into(), "while :; do :; done".into()],
    );
    let ran = common::run_limited(command, b"", common::CASE_WALL);
    assert_eq!(
        ran.ending,
        boardkit::judge::Ending::CpuLimit(common::CASE_TIMEOUT)
    );
}

/// Deleting or editing a public case in a starter cannot raise the level
/// its tests report: the case fails, naming the file.
#[test]
#[ignore = "long: builds a starter's tests (about 15 s)"]
fn a_starter_pins_its_public_cases() {
    let _target = starter_target();
    let scratch = tempfile::tempdir().unwrap();
    let starter = velha_starter(scratch.path());
    std::fs::remove_file(starter.join("fixtures/velha/draw.toml")).unwrap();
    let snapshot = starter.join("tests/snapshots/velha__x_wins_row_a.snap");
    let text = std::fs::read_to_string(&snapshot).unwrap();
    std::fs::write(&snapshot, text.replace("Vencedor: X", "Vencedor: O")).unwrap();
    let run = in_starter(
        &starter,
        "cargo test --quiet --test velha -- --nocapture",
        &[],
    );
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        out.contains("---- proficient::draw ----\nfixtures/velha/draw.toml was deleted since the starter was made"),
        "{out}"
    );
    assert!(
        out.contains(
            "tests/snapshots/velha__x_wins_row_a.snap was changed since the starter was made"
        ),
        "{out}"
    );
    // The deleted case still counts in its level: 13 proficient cases.
    assert!(out.contains("  proficient    0/13 passed"), "{out}");
}

/// The levels workflow's own command, run as its job runs it: the public
/// cases' summary goes to the job's page (`$GITHUB_STEP_SUMMARY`).
#[test]
#[ignore = "long: builds a starter's tests (about 15 s)"]
fn the_levels_workflow_writes_the_job_summary() {
    let _target = starter_target();
    let scratch = tempfile::tempdir().unwrap();
    let starter = velha_starter(scratch.path());
    let workflow = std::fs::read_to_string(starter.join(".github/workflows/levels.yml")).unwrap();
    let command = workflow
        .lines()
        .find_map(|l| l.trim().strip_prefix("command: "))
        .expect("a level's command")
        .to_owned();
    assert_eq!(command, "cargo test --test velha basic");
    let summary = scratch.path().join("summary.md");
    std::fs::write(&summary, "").unwrap();
    let run = in_starter(&starter, &command, &[("GITHUB_STEP_SUMMARY", &summary)]);
    assert!(!run.status.success(), "the stubs fail");
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.starts_with("### velha: the public cases\n"), "{text}");
    assert!(text.contains("| basic | 0 / 6 |"), "{text}");
    assert!(
        text.contains("<summary>failed: basic::extrai_linha</summary>"),
        "{text}"
    );
    assert!(text.contains("not yet implemented: extrai_linha"), "{text}");
}

/// `PATH` with the kit's `boardkit` first, as a student who installed it
/// has it.
fn path_with_boardkit() -> String {
    let kit = Path::new(env!("CARGO_BIN_EXE_boardkit")).parent().unwrap();
    format!(
        "{}:{}",
        kit.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// A student's first `cargo test`, with `boardkit` on the PATH and an own
/// test that fails beside the stubs' failures: the own tests run and
/// report although the kit's tests failed first (Cargo stops at the first
/// failing test binary), and nothing builds the versions own tests are
/// graded against (half a minute, for tests that cannot pass yet). They
/// are built when every level passes (or when `BOARDKIT_MINE=1` asks),
/// with a line that says so while they build; then every run uses them.
#[test]
#[ignore = "long: builds a starter's tests and own tests' graded versions (about 50 s)"]
fn own_tests_run_on_every_cargo_test_and_their_versions_build_once_every_level_passes() {
    let _target = starter_target();
    let scratch = tempfile::tempdir().unwrap();
    let starter = velha_starter(scratch.path());
    let mine = starter.join("tests/mine.rs");
    let mut text = std::fs::read_to_string(&mine).unwrap();
    text.push_str("\n#[test]\nfn two_plus_two() {\n    assert_eq!(2 + 2, 5, \"my own test\");\n}\n\n#[test]\nfn one() {\n    assert_eq!(1, 1);\n}\n");
    std::fs::write(&mine, text).unwrap();
    let path = path_with_boardkit();
    // A student's machine: no grading folder of the kit's tests (CI's
    // holds these versions built, and a build under 2 s says nothing).
    let cargo_test = "env -u BOARDKIT_BUILD_DIR cargo test";
    let env = [("PATH", Path::new(&path))];
    let run = in_starter(&starter, cargo_test, &env);
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "the stubs fail");
    assert!(
        out.contains(
            "tests/mine.rs: your own tests: 1 of 3 pass; failing: a_diagonal_wins, two_plus_two"
        ),
        "{out}"
    );
    assert!(out.contains("my own test"), "the failure's message: {out}");
    assert!(
        out.contains("`boardkit test velha --mine` names the bugs your own tests catch"),
        "{out}"
    );
    assert!(
        !starter.join("target/boardkit-mine").exists(),
        "the graded versions were built: {err}"
    );
    // Every level passes, and the student's own tests: `cargo test` ends
    // with the bugs they catch, building first (said while it does).
    let stub = std::fs::read(starter.join("src/velha/mod.rs")).unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/velha");
    for file in std::fs::read_dir(&example).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(
            &file,
            starter.join("src/velha").join(file.file_name().unwrap()),
        )
        .unwrap();
    }
    let failing = std::fs::read_to_string(&mine).unwrap();
    std::fs::write(&mine, failing.replace("2 + 2, 5", "2 + 2, 4")).unwrap();
    let run = in_starter(&starter, cargo_test, &env);
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{out}{err}");
    assert!(
        err.contains("boardkit: building the versions of the game your own tests (tests/mine.rs) are graded against, as every level passes"),
        "{err}"
    );
    assert!(out.contains("tests/mine.rs: your tests catch "), "{out}");
    assert!(starter.join("target/boardkit-mine/ready").is_file());
    // Built: every run says it, the stub's too, without building again.
    std::fs::write(starter.join("src/velha/mod.rs"), stub).unwrap();
    std::fs::write(&mine, failing).unwrap();
    let run = in_starter(&starter, cargo_test, &env);
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "the stub fails");
    assert!(
        out.contains("1 of 3 pass; failing: a_diagonal_wins, two_plus_two"),
        "{out}"
    );
    assert!(out.contains("tests/mine.rs: your tests catch "), "{out}");
    assert!(!err.contains("boardkit: building"), "{err}");
}

/// The own tests' report: one line when they pass; libtest's failures,
/// then the counts and the failing names, when one fails or they are
/// stopped.
#[test]
fn own_tests_report_their_counts_and_failures() {
    let passing = "\nrunning 2 tests\ntest a ... ok\ntest b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
    assert_eq!(
        common::own::report(passing, None),
        "tests/mine.rs: your own tests: 2 of 2 pass"
    );
    let failing = "\nrunning 2 tests\ntest a ... ok\ntest b ... FAILED\n\nfailures:\n\n---- b stdout ----\nassertion failed\n\nfailures:\n    b\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
    let said = common::own::report(failing, None);
    assert!(said.contains("assertion failed"), "{said}");
    assert!(
        said.ends_with("\ntests/mine.rs: your own tests: 1 of 2 pass; failing: b"),
        "{said}"
    );
    let stopped = "\nrunning 2 tests\ntest a ... ok\n";
    let said = common::own::report(stopped, Some("still running"));
    assert!(
        said.ends_with(
            "tests/mine.rs: your own tests were stopped (still running): 1 of 1 passed before"
        ),
        "{said}"
    );
}

/// The own tests' binary the kit's runs: this package's, built for the
/// code as it is; not another starter's in a shared target folder, not
/// one older than the code, not its dep-info beside it.
#[test]
fn the_own_tests_binary_is_this_packages_and_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let deps = dir.path().join("debug/deps");
    let fingerprints = dir.path().join("debug/.fingerprint");
    std::fs::create_dir_all(&deps).unwrap();
    let binary = |hash: &str, package: &str| {
        let path = deps.join(format!("your_tests-{hash}{}", std::env::consts::EXE_SUFFIX));
        std::fs::write(&path, "").unwrap();
        std::fs::write(deps.join(format!("your_tests-{hash}.d")), "").unwrap();
        std::fs::create_dir_all(fingerprints.join(format!("{package}-{hash}"))).unwrap();
        path
    };
    let source = dir.path().join("mine.rs");
    std::fs::write(&source, "").unwrap();
    let sources = [source.clone()];
    let find = || common::own::test_binary(&deps, "velha-exercise", "your_tests", &sources);
    assert_eq!(find(), None);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let ours = binary("00112233445566aa", "velha-exercise");
    std::thread::sleep(std::time::Duration::from_millis(20));
    binary("00112233445566bb", "connect4-exercise");
    assert_eq!(find(), Some(ours));
    // Changed since it was built: `cargo test --test velha` left it stale.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&source, "// changed").unwrap();
    assert_eq!(find(), None);
}
