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
fn in_starter(starter: &Path, command: &str, env: &[(&str, &Path)]) -> std::process::Output {
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
    let run = in_starter(&starter, "cargo test --quiet --test velha", &[]);
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
