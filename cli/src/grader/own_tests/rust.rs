//! A Rust student's own tests (`tests/mine.rs`), built and run against the
//! correct versions and the mutants, in the sandbox.
//!
//! The libraries are built once per class ([`Libraries::build`]): the
//! example with every change it can take in as one library (`schemata`),
//! plus one per change that cannot, and one per independent solution. Each
//! student's file is then compiled once per library, never once per mutant.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use super::schemata::{Change, SWITCH_MODULE, SWITCH_SYMBOL, schemata};
use super::verdict::{
    Assessed, Mutant, Passed, Verdict, Version, Versions, charged, over_budget, run_budget,
    run_versions, verdict_of,
};
use crate::exercise_data::{self, OWN_TESTS_FILE as TESTS_FILE};
use crate::grader::build::{BuildError, Class, Library};
use crate::grader::sandbox::{Job, Limits, Sandbox};
use crate::registry::GameInfo;

/// What a student's tests may take: each run's limits (the cases'), the
/// compilation's time, and the seed of the runs' order.
pub(crate) struct Budget {
    pub limits: Limits,
    pub compile_timeout: Duration,
    pub seed: u64,
}

/// What the class's students' tests run against, built.
pub(crate) struct Libraries {
    pub versions: Versions,
    /// Each library's target folder.
    libraries: Vec<Library>,
    /// Each version: its library (index) and the change's number in it.
    targets: Vec<(Version, usize, u32)>,
}

/// The example's folder: its Rust files without the kit's unit tests,
/// and its other files (data it embeds) as they are.
type Folder = (Vec<(String, String)>, Vec<(String, Vec<u8>)>);

fn example(game: &GameInfo) -> Result<Folder, BuildError> {
    let manifest =
        exercise_data::manifest(game.id).map_err(|e| BuildError::Failed(e.to_string()))?;
    let (rust, data): (Vec<_>, Vec<_>) = exercise_data::folder(&manifest.files.example)
        .into_iter()
        .partition(|(p, _)| p.ends_with(".rs"));
    let rust = rust
        .into_iter()
        .map(|(p, b)| {
            let text = crate::starter::without_unit_tests(b);
            (p.to_owned(), String::from_utf8_lossy(&text).into_owned())
        })
        .collect();
    let data = data
        .into_iter()
        .map(|(p, b)| (p.to_owned(), b.to_vec()))
        .collect();
    Ok((rust, data))
}

/// The Rust files `files`, and the example's data beside them.
fn with_data(files: &[(String, String)], data: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .map(|(p, t)| (p.clone(), t.clone().into_bytes()))
        .chain(data.iter().cloned())
        .collect()
}

/// A change of the example: a mutant, or a harmless one (its version).
struct ChangeData {
    version: Version,
    mutant: Option<Mutant>,
    text: [String; 3],
}

/// Every change of game `id`: the public mutations, the hidden ones (with
/// `hidden`), then the harmless changes; each as its version.
fn changes(id: &str, hidden: bool) -> Result<Vec<ChangeData>, BuildError> {
    let failed = |e: exercise_data::ExerciseError| BuildError::Failed(e.to_string());
    let mutations = exercise_data::mutations(id).map_err(failed)?;
    let hidden_ones = if hidden {
        exercise_data::hidden_mutations(id).map_err(failed)?
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for (m, hidden) in mutations
        .mutation
        .iter()
        .map(|m| (m, false))
        .chain(hidden_ones.iter().map(|m| (m, true)))
    {
        let mutant = Mutant {
            breaks: m.breaks.clone(),
            hidden,
        };
        out.push(ChangeData {
            version: Version::Mutant(0),
            mutant: Some(mutant),
            text: [m.file.clone(), m.find.clone(), m.replace.clone()],
        });
    }
    for h in &mutations.harmless {
        out.push(ChangeData {
            version: h
                .unpromised
                .clone()
                .map_or_else(|| Version::Harmless(h.why.clone()), Version::Unpromised),
            mutant: None,
            text: [h.file.clone(), h.find.clone(), h.replace.clone()],
        });
    }
    Ok(out)
}

impl Libraries {
    /// Builds the libraries for `game`'s students' tests: with `hidden`,
    /// the hidden mutants too; with `solutions`, the independent solutions
    /// as correct versions.
    pub(crate) fn build(
        class: &Class<'_>,
        sandbox: &Sandbox,
        game: &GameInfo,
        hidden: bool,
        solutions: bool,
        timeout: Duration,
    ) -> Result<Libraries, BuildError> {
        let (example, data) = example(game)?;
        let changes = changes(game.id, hidden)?;
        let list: Vec<Change<'_>> = changes
            .iter()
            .map(|c| {
                let [file, find, replace] = &c.text;
                Change {
                    file,
                    find,
                    replace,
                }
            })
            .collect();
        let rewritten = schemata(&example, &list);
        if let Some(&index) = rewritten.missing.first() {
            return Err(BuildError::Failed(format!(
                "the change of {} {:?} is not in the example",
                list[index].file, list[index].find
            )));
        }
        let switch = [(
            "src/mutant_schemata.rs".to_owned(),
            SWITCH_MODULE.as_bytes().to_vec(),
        )];
        let mut libraries = vec![class.build_library(
            sandbox,
            "schemata",
            &with_data(&rewritten.files, &data),
            &switch,
            timeout,
        )?];
        let mut versions = Versions::default();
        let mut targets = vec![(Version::Reference, 0, 0)];
        for (index, change) in changes.iter().enumerate() {
            let version = match &change.mutant {
                Some(mutant) => {
                    versions.mutants.push(mutant.clone());
                    Version::Mutant(versions.mutants.len() - 1)
                }
                None => {
                    versions.correct.push(change.version.clone());
                    change.version.clone()
                }
            };
            if rewritten.alone.contains(&index) {
                let change = &list[index];
                let files: Vec<(String, String)> = example
                    .iter()
                    .map(|(p, t)| match p == change.file {
                        true => (p.clone(), t.replacen(change.find, change.replace, 1)),
                        false => (p.clone(), t.clone()),
                    })
                    .collect();
                let name = format!("change-{}", index + 1);
                libraries.push(class.build_library(
                    sandbox,
                    &name,
                    &with_data(&files, &data),
                    &switch,
                    timeout,
                )?);
                targets.push((version, libraries.len() - 1, 0));
            } else {
                targets.push((version, 0, index as u32 + 1));
            }
        }
        let mut built = Libraries {
            versions,
            libraries,
            targets,
        };
        if solutions {
            built.add_solutions(class, sandbox, game, timeout)?;
        }
        Ok(built)
    }

    /// The independent Rust solutions, each a correct version of its own.
    fn add_solutions(
        &mut self,
        class: &Class<'_>,
        sandbox: &Sandbox,
        game: &GameInfo,
        timeout: Duration,
    ) -> Result<(), BuildError> {
        let corpus =
            exercise_data::solutions(game.id).map_err(|e| BuildError::Failed(e.to_string()))?;
        for solution in corpus.iter().filter(|s| s.info.program.is_none()) {
            let files: Vec<(String, Vec<u8>)> = solution
                .files
                .iter()
                .map(|(p, b)| (p.clone(), b.to_vec()))
                .collect();
            let name = format!("solution-{}", solution.name);
            let switch = [(
                "src/mutant_schemata.rs".to_owned(),
                SWITCH_MODULE.as_bytes().to_vec(),
            )];
            self.libraries
                .push(class.build_library(sandbox, &name, &files, &switch, timeout)?);
            let version = Version::Solution(solution.name.clone());
            self.versions.correct.push(version.clone());
            self.targets.push((version, self.libraries.len() - 1, 0));
        }
        Ok(())
    }

    /// Judges the test file `source`: compiled against each library in
    /// `work`, then run against every version, in an order drawn from `seed`.
    pub(crate) fn judge(
        &self,
        class: &Class<'_>,
        sandbox: &Sandbox,
        source: &Path,
        work: &Path,
        budget: &Budget,
    ) -> Verdict {
        match self.run_suite(class, sandbox, source, work, budget) {
            Ok((tests, assessed)) => verdict_of(&tests, &self.versions, assessed),
            Err(error) => Verdict {
                error: Some(error),
                ..Verdict::missing(TESTS_FILE, &self.versions)
            },
        }
    }

    /// [`Libraries::judge`]'s runs, test by test: the tests' names and what
    /// each version made of them; or why they could not run.
    pub(crate) fn run_suite(
        &self,
        class: &Class<'_>,
        sandbox: &Sandbox,
        source: &Path,
        work: &Path,
        budget: &Budget,
    ) -> Result<(Vec<String>, Assessed), String> {
        let limits = &budget.limits;
        // A test file of a few hundred lines compiles in seconds.
        let compile_timeout = budget.compile_timeout.min(COMPILE_TIMEOUT);
        if let Some(why) = reads_files(&std::fs::read_to_string(source).unwrap_or_default()) {
            return Err(why);
        }
        let mut binaries = Vec::new();
        for (index, library) in self.libraries.iter().enumerate() {
            let out = (&*work.join(format!("tests-{index}")), SWITCH_SYMBOL);
            match class.compile_tests(sandbox, library, source, out, compile_timeout) {
                Ok(binary) => binaries.push(binary),
                Err(error) => {
                    let against = self
                        .targets
                        .iter()
                        .find(|(_, l, _)| *l == index)
                        .map_or("the reference".to_owned(), |(v, _, _)| match v {
                            Version::Solution(name) => format!("the independent solution {name} (they call what EXERCISE.md does not name?)"),
                            _ => "the reference".to_owned(),
                        });
                    return Err(format!("they do not compile against {against}: {error}"));
                }
            }
        }
        let tests = list_tests(sandbox, &binaries[0], limits)?;
        let (most, mut used) = (run_budget(limits), Duration::ZERO);
        let mut over = false;
        let assessed = run_versions(&tests, &self.versions, budget.seed, |version, skip| {
            over |= used > most;
            let found = self.targets.iter().find(|(v, _, _)| v == version);
            let (Some((_, library, switch)), false) = (found, over) else {
                return Passed::new();
            };
            let (passed, cpu) = run_tests(sandbox, &binaries[*library], *switch, skip, limits);
            used += cpu;
            passed
        });
        if over {
            return Err(over_budget(most));
        }
        Ok((tests, assessed))
    }
}

/// The most a test file's compilation against one library may take.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// What a test file may not do: read files as it compiles (the libraries
/// it is compiled against are files too).
pub(crate) fn reads_files(text: &str) -> Option<String> {
    [
        "include_bytes",
        "include_str",
        "include!",
        "#[path",
        "#![path",
    ]
    .iter()
    .find(|word| text.contains(**word))
    .map(|word| {
        format!(
            "they read files as they compile (`{word}`): tests are graded by what the functions do"
        )
    })
}

/// The tests' names (`--list`).
fn list_tests(sandbox: &Sandbox, binary: &Path, limits: &Limits) -> Result<Vec<String>, String> {
    let mut job = Job::new("/case/tests", &["--list".into(), "--format=terse".into()]);
    job.read_only = vec![(binary.to_owned(), "/case/tests".into())];
    job.hide_proc = true;
    job.stdin = b"0\n";
    let outcome = sandbox.run(&job, limits).map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&outcome.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_owned)
        .collect())
}

/// One run of the tests with change `switch` on (0 for a library of its
/// own), `skip` left out, without `/proc` (nothing of the process's memory
/// to read): each test's outcome from libtest's lines. A test with a
/// `FAILED` line failed whatever else the run printed.
fn run_tests(
    sandbox: &Sandbox,
    binary: &Path,
    switch: u32,
    skip: &BTreeSet<String>,
    limits: &Limits,
) -> (Passed, Duration) {
    let mut args: Vec<String> = vec!["--test-threads=2".into(), "--color=never".into()];
    if !skip.is_empty() {
        args.push("--exact".into());
        for name in skip {
            args.push("--skip".into());
            args.push(name.clone());
        }
    }
    let mut job = Job::new("/case/tests", &args);
    job.read_only = vec![(binary.to_owned(), "/case/tests".into())];
    job.hide_proc = true;
    // Read before `main` by every library's switch: every run finds its
    // input ended.
    let line = format!("{switch}\n");
    job.stdin = line.as_bytes();
    let Ok(outcome) = sandbox.run(&job, limits) else {
        return (Passed::new(), Duration::ZERO);
    };
    let cpu = charged(&outcome, limits);
    (
        read_outcomes(&String::from_utf8_lossy(&outcome.stdout)),
        cpu,
    )
}

/// libtest's `test NAME ... ok|FAILED|ignored` lines.
pub(crate) fn read_outcomes(stdout: &str) -> Passed {
    let mut passed = Passed::new();
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("test ") else {
            continue;
        };
        let Some((name, outcome)) = rest.rsplit_once(" ... ") else {
            continue;
        };
        let ok = matches!(outcome.trim(), "ok" | "ignored");
        let entry = passed.entry(name.to_owned()).or_insert(ok);
        *entry &= ok;
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_line_wins_over_a_forged_ok() {
        let out = "running 2 tests\ntest a ... ok\ntest b ... FAILED\ntest b ... ok\ntest c ... ignored\n";
        let passed = read_outcomes(out);
        assert_eq!(passed.get("a"), Some(&true));
        assert_eq!(passed.get("b"), Some(&false));
        assert_eq!(passed.get("c"), Some(&true));
    }
}
