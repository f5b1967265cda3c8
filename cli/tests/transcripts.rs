//! The reference's own transcripts, byte for byte: every fixture of every
//! game (hidden ones and those that pin the reference's seeded draws too),
//! replayed through the binary and compared exactly with its insta snapshot.
//! Kit-only: this is how the team reviews a change of the reference's
//! output. Students are compared by graded events instead (`tests/<game>.rs`).

// The starter's test helpers, kept with the library (tests/common).
#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::Path;

use libtest_mimic::{Failed, Trial};

fn main() {
    let mut trials = Vec::new();
    for game in boardkit_cli::registry::GAMES {
        for fixture in common::fixtures(game.id) {
            let name = format!("{}::{}", game.id, fixture.name);
            trials.push(Trial::test(name, move || exact(&fixture)));
        }
    }
    let args = libtest_mimic::Arguments::from_args();
    libtest_mimic::run(&args, trials).exit();
}

fn exact(fixture: &boardkit::session_fixture::Fixture) -> Result<(), Failed> {
    let transcript = common::play(&fixture.game, &fixture.args, &fixture.stdin_bytes());
    if transcript.stdout.contains('\x1b') {
        return Err("piped output must carry no terminal codes".into());
    }
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/snapshots");
    let name = format!("{}__{}", fixture.game, fixture.name);
    let actual = transcript.to_string();
    let updating = std::env::var("INSTA_UPDATE").is_ok_and(|v| v == "always");
    if let Some(expected) = common::expected_transcript(&fixture.game, &fixture.name) {
        if expected.stdout.trim_end() == transcript.stdout.trim_end()
            && expected.exit_code == transcript.exit_code
        {
            return Ok(());
        }
        if !updating {
            return Err(first_difference(&expected.to_string(), &actual).into());
        }
    }
    // A new fixture (or an update asked for): insta writes the snapshot to review.
    insta::with_settings!({
        snapshot_path => snapshots,
        prepend_module_to_snapshot => false,
        omit_expression => true,
        description => fixture.description.clone(),
    }, {
        insta::assert_snapshot!(name, actual);
    });
    Ok(())
}

/// Where two transcripts first differ, with a few lines of context.
fn first_difference(expected: &str, actual: &str) -> String {
    let lines =
        |text: &str| -> Vec<String> { text.lines().map(|l| format!("{l}\u{23ce}")).collect() };
    boardkit::compare::first_difference(&lines(expected), &lines(actual))
        .unwrap_or_else(|| "the transcripts differ only in their ends".into())
}
