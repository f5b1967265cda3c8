//! Shared by every game's test binary: turns each fixture file into one test,
//! named `<level>::<name>` so that `cargo test basic` runs one level, which
//! runs the real `boardkit` binary on the fixture's stdin and snapshots the
//! transcript with insta.

#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use boardkit::fixture::{Fixture, Transcript};
use libtest_mimic::{Failed, Trial};

/// How long one scripted session may run before it counts as hung.
const SESSION_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `boardkit <args>` with `stdin` and captures everything it prints.
pub fn run_boardkit(args: &[String], stdin: &[u8]) -> Transcript {
    let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .write_stdin(stdin.to_vec())
        .timeout(SESSION_TIMEOUT)
        .output()
        .expect("boardkit runs");
    Transcript {
        args: args.to_vec(),
        exit_code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// One test per fixture of `game`, each snapshotting its transcript.
pub fn fixture_trials(game: &str) -> Vec<Trial> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game);
    let fixtures = Fixture::discover(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    fixtures
        .into_iter()
        .map(|fixture| {
            let name = fixture.test_name();
            Trial::test(name, move || replay(&fixture))
        })
        .collect()
}

fn replay(fixture: &Fixture) -> Result<(), Failed> {
    let mut args = vec!["play".to_owned(), fixture.game.clone()];
    args.extend(fixture.args.iter().cloned());
    let transcript = run_boardkit(&args, &fixture.stdin_bytes());
    if transcript.stdout.contains('\x1b') {
        return Err("piped output must carry no terminal codes".into());
    }
    insta::with_settings!({
        snapshot_path => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
        description => fixture.description.clone(),
    }, {
        insta::assert_snapshot!(format!("{}__{}", fixture.game, fixture.name), transcript.to_string());
    });
    Ok(())
}

/// Expected and actual as two readable blocks, for assertion messages.
pub fn expected_actual(expected: &str, actual: &str) -> String {
    format!("--- expected ---\n{expected}\n--- actual ---\n{actual}\n")
}
