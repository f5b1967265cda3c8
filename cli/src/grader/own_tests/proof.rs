//! `dev check`'s proof that students' own tests are graded fairly, per
//! game: a careful suite written from EXERCISE.md alone
//! (`exercises/<game>/suites.hidden/thorough.rs`) is valid and catches
//! every mutant, public and hidden; an empty file and a test that asserts
//! nothing catch none; the starter's example test is valid, and so is a
//! test naming every item the starter's stub exports (what the starter's
//! API promises, every correct version exports); a one-test suite of the
//! statement's plainest example (`suites.hidden/example.rs`) is valid and
//! catches a mutant. And each mutant differs from the reference on input
//! the statement promises ([`super::public_cases`]). (Velha's Python form
//! is a package, its own tests proved by `boardkit verify` and the kit's
//! long tests.)

use std::path::Path;
use std::time::Duration;

use super::public_cases;
use super::rust::{Budget, Libraries};
use super::verdict::Verdict;
use crate::exercise_data;
use crate::grader::build::Class;
use crate::grader::sandbox::{Isolation, Limits, Sandbox};
use crate::registry::GameInfo;

/// One check: whether it held, and what it says.
pub(crate) type Check = (bool, String);

/// What a suite must earn.
enum Expect {
    /// Valid, and every mutant caught.
    Everything,
    /// Nothing caught.
    Nothing,
    /// Valid.
    Valid,
    /// Valid, and at least one mutant caught.
    Something,
}

fn suite(path: &str) -> String {
    crate::embedded::file(path)
        .map_or_else(String::new, |b| String::from_utf8_lossy(b).into_owned())
}

fn judged(id: &str, name: &str, verdict: &Verdict, expect: &Expect) -> Check {
    let (caught, all) = verdict.caught();
    let valid = verdict.error.is_none() && verdict.invalid.is_empty();
    let ok = match expect {
        Expect::Everything => valid && caught == all && all > 0,
        Expect::Nothing => caught == 0,
        Expect::Valid => valid,
        Expect::Something => valid && caught > 0,
    };
    let wanted = match expect {
        Expect::Everything => "is valid and catches every mutant",
        Expect::Nothing => "catches no mutant",
        Expect::Valid => "is valid",
        Expect::Something => "is valid and catches a mutant",
    };
    (
        ok,
        format!(
            "{id}: own tests: {name} {wanted} ({caught} of {all} caught: {}; invalid: {:?})",
            verdict.line(),
            verdict.invalid
        ),
    )
}

/// The Rust proof of game `game`: the class's dependencies in `build`
/// (shared), the rest in `work`.
pub(crate) fn rust(game: &GameInfo, work: &Path, build: &Path) -> Result<Vec<Check>, String> {
    let isolation = Isolation::bubblewrap().unwrap_or(Isolation::None);
    let sandbox = Sandbox::new(isolation, 2).map_err(|e| e.to_string())?;
    let long = Duration::from_secs(1800);
    let hidden = indicatif::ProgressBar::hidden();
    let work = work.join(game.id).join("own-tests");
    let class =
        Class::prepare(game, build, &work, &sandbox, long, &hidden).map_err(|e| e.to_string())?;
    let libraries =
        Libraries::build(&class, &sandbox, game, true, true, long).map_err(|e| e.to_string())?;
    let hidden_count = libraries
        .versions
        .mutants
        .iter()
        .filter(|m| m.hidden)
        .count();
    let public_count = libraries.versions.mutants.len() - hidden_count;
    let mut checks = vec![(
        hidden_count >= public_count,
        format!(
            "{}: own tests: at least as many hidden mutants as public ones ({hidden_count} and {public_count})",
            game.id
        ),
    )];
    let manifest = exercise_data::manifest(game.id).map_err(|e| e.to_string())?;
    let suites = [
        (
            "the careful suite",
            suite(&format!("exercises/{}/suites.hidden/thorough.rs", game.id)),
            Expect::Everything,
        ),
        ("an empty tests/mine.rs", String::new(), Expect::Nothing),
        (
            "a test that asserts nothing",
            suite(&format!("exercises/{}/suites.hidden/nothing.rs", game.id)),
            Expect::Nothing,
        ),
        (
            "the starter's example",
            suite(&manifest.files.own_tests),
            Expect::Valid,
        ),
        (
            "a test naming the stub's API",
            api_suite(&manifest.files.solution, &manifest.files.stub),
            Expect::Valid,
        ),
    ];
    // The plainest rule's one-test suite: every game has one (an empty
    // file, a missing one, catches nothing and fails).
    let plainest = (
        "the statement's plainest example alone",
        suite(&format!("exercises/{}/suites.hidden/example.rs", game.id)),
        Expect::Something,
    );
    let suites = suites.into_iter().chain([plainest]);
    let budget = Budget {
        limits: Limits {
            timeout: Duration::from_secs(10),
            ..Default::default()
        },
        compile_timeout: long,
        seed: 1,
    };
    for (index, (name, text, expect)) in suites.enumerate() {
        let folder = work.join(format!("suite-{index}"));
        let source = folder.join("mine.rs");
        std::fs::create_dir_all(&folder)
            .and_then(|()| std::fs::write(&source, text))
            .map_err(|e| e.to_string())?;
        let verdict = libraries.judge(&class, &sandbox, &source, &folder, &budget);
        checks.push(judged(game.id, name, &verdict, &expect));
    }
    checks.extend(public_proof(
        game,
        (&class, &sandbox, &libraries),
        &work,
        budget,
    ));
    Ok(checks)
}

/// [`public_cases::proof`], a failure to run it a failed check. Every
/// public case in one file: more calls than a student's suite, the expert
/// level's searches among them, so a longer time limit.
fn public_proof(
    game: &GameInfo,
    built: (&Class<'_>, &Sandbox, &Libraries),
    work: &Path,
    budget: Budget,
) -> Vec<Check> {
    let budget = Budget {
        limits: Limits {
            timeout: Duration::from_secs(120),
            cpu_seconds: 60,
            ..Default::default()
        },
        ..budget
    };
    public_cases::proof(game, built, &work.join("public-cases"), &budget).unwrap_or_else(|e| {
        vec![(
            false,
            format!(
                "{}: own tests: the public cases could not run: {e}",
                game.id
            ),
        )]
    })
}

/// A test file that imports every item the stub at `stub` exports, from
/// the student's module at `solution` (`src/connect4`): it compiles only
/// against a version that exports them all.
fn api_suite(solution: &str, stub: &str) -> String {
    let module = solution.rsplit('/').next().unwrap_or(solution);
    let text = suite(&format!("{stub}/mod.rs"));
    let names = exported(&text).join(", ");
    format!(
        "#![allow(unused_imports)]\nuse boardkit::{module}::{{{names}}};\n\n#[test]\nfn the_stubs_api_is_exported() {{}}\n"
    )
}

/// The names a module's text exports at its root: its `pub use` items and
/// its `pub fn`, `struct`, `enum`, `trait`, `const`, `static` and `type`.
fn exported(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("pub use ") {
            let path = path.trim_end().trim_end_matches(';');
            let items = match path.split_once('{') {
                Some((_, list)) => list.trim_end_matches('}'),
                None => path.rsplit("::").next().unwrap_or(path),
            };
            names.extend(
                items
                    .split(',')
                    .map(|n| n.rsplit(" as ").next().unwrap_or(n).trim().to_owned())
                    .filter(|n| !n.is_empty()),
            );
            continue;
        }
        let kinds = ["fn", "struct", "enum", "trait", "const", "static", "type"];
        let item = kinds
            .iter()
            .find_map(|k| line.strip_prefix(&format!("pub {k} ")));
        if let Some(rest) = item {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stubs_api_is_read_from_its_text() {
        let text = "pub use crate::given::c4::{Disc, MAX_SIDE};\npub use a::b::play;\n\
                    pub struct Board {}\nimpl Board {\n    pub fn new() {}\n}\n\
                    pub fn best_move(b: &Board) -> usize {}\nfn private() {}\n";
        assert_eq!(
            exported(text),
            ["Disc", "MAX_SIDE", "play", "Board", "best_move"]
        );
        let suite = api_suite("src/connect4", "exercises/connect4/stub");
        assert!(suite.contains("use boardkit::connect4::{"), "{suite}");
        assert!(suite.contains("MIN_SIDE, SizeError, Board"), "{suite}");
    }
}
