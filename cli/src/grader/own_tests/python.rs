//! A Python student's own tests (pytest, `test_mine.py` or its
//! translation's name) against the Python reference's correct versions and
//! mutants, in the sandbox.
//!
//! Every run sees the same folder: the reference's file and the student's
//! test file. The version runs from memory: its source comes on standard
//! input, read by the launcher before pytest starts, and is loaded as the
//! module the tests import; standard input is then empty.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::verdict::{Mutant, Passed, Verdict, Version, Versions, assess};
use crate::exercise_data::{self, PythonOwnTests};
use crate::grader::sandbox::{Job, Limits, Sandbox};

/// Reads the version's source from stdin, loads it as the module, empties
/// stdin, and runs pytest with the arguments given.
const LAUNCHER: &str = r#"import json, os, sys, types
data = json.loads(sys.stdin.read())
sys.stdin.close()
sys.stdin = open(os.devnull)
module = types.ModuleType(data["module"])
module.__file__ = os.path.abspath(data["module"] + ".py")
exec(compile(data["source"], module.__file__, "exec"), module.__dict__)
sys.modules[data["module"]] = module
del data
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"#;

/// What a test may not look at: the functions' code, the modules loaded,
/// files. Python lets a test tell two versions apart by their code rather
/// than by what they do; such a file is not graded.
const INTROSPECTION: &[&str] = &[
    "__code__",
    "co_code",
    "inspect",
    "import dis",
    "from dis",
    "__file__",
    "getsource",
    "marshal",
    "sys.modules",
    "__dict__",
    "__globals__",
    "open(",
    "pathlib",
    "importlib",
    "__import__",
    "import os",
    "from os",
];

/// The correct versions and mutants of a game's Python module.
pub(crate) struct PythonVersions {
    pub versions: Versions,
    /// The module's name (`funcoes`).
    module: String,
    reference: String,
    /// Each version other than the reference, with its source.
    sources: Vec<(Version, String)>,
    /// The test file names the grader looks for, in a submission.
    pub file_names: Vec<String>,
}

impl PythonVersions {
    /// The versions of `own`; with `hidden`, the hidden mutants too.
    pub(crate) fn of(own: &PythonOwnTests, hidden: bool) -> Result<PythonVersions, String> {
        let text = |path: &str| {
            crate::embedded::file(path)
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .ok_or_else(|| format!("the kit has no {path}"))
        };
        let reference = text(&own.reference)?;
        let mutations: exercise_data::Mutations =
            toml::from_str(&text(&own.mutations)?).map_err(|e| e.to_string())?;
        let hidden_path = own.mutations.replace(".toml", ".hidden.toml");
        let hidden_ones: Vec<exercise_data::Mutation> =
            match (hidden, crate::embedded::file(&hidden_path)) {
                (true, Some(_)) => {
                    toml::from_str::<exercise_data::Mutations>(&text(&hidden_path)?)
                        .map_err(|e| e.to_string())?
                        .mutation
                }
                _ => Vec::new(),
            };
        let changed = |find: &str, replace: &str| {
            reference
                .contains(find)
                .then(|| reference.replacen(find, replace, 1))
                .ok_or_else(|| format!("{find:?} is not in {}", own.reference))
        };
        let mut versions = Versions::default();
        let mut sources = Vec::new();
        for h in &mutations.harmless {
            let version = Version::Harmless(h.why.clone());
            versions.correct.push(version.clone());
            sources.push((version, changed(&h.find, &h.replace)?));
        }
        let all = mutations.mutation.iter().map(|m| (m, false));
        for (m, hidden) in all.chain(hidden_ones.iter().map(|m| (m, true))) {
            versions.mutants.push(Mutant {
                breaks: m.breaks.clone(),
                hidden,
            });
            let version = Version::Mutant(versions.mutants.len() - 1);
            sources.push((version, changed(&m.find, &m.replace)?));
        }
        let file = |path: &str| {
            Path::new(path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        };
        Ok(PythonVersions {
            versions,
            module: file(&own.reference)
                .unwrap_or_default()
                .trim_end_matches(".py")
                .to_owned(),
            reference,
            sources,
            file_names: own.examples.values().filter_map(|p| file(p)).collect(),
        })
    }

    /// The student's test file in `dir`, if any.
    pub(crate) fn test_file(&self, dir: &Path) -> Option<PathBuf> {
        self.file_names
            .iter()
            .map(|n| dir.join(n))
            .find(|p| p.is_file())
    }

    /// Judges the test file `source` (in a folder of its own below `work`),
    /// its runs in an order drawn from `seed`.
    pub(crate) fn judge(
        &self,
        sandbox: &Sandbox,
        source: &Path,
        work: &Path,
        limits: &Limits,
        seed: u64,
    ) -> Verdict {
        let failed = |error: String| Verdict {
            error: Some(error),
            ..Verdict::missing("", &self.versions)
        };
        let text = std::fs::read_to_string(source).unwrap_or_default();
        if let Some(word) = INTROSPECTION.iter().find(|w| text.contains(**w)) {
            return failed(format!(
                "they look into the code or the files (`{word}`): tests are graded by what the functions do"
            ));
        }
        let name = source
            .file_name()
            .map_or("test_mine.py".into(), |n| n.to_string_lossy().into_owned());
        let folder = work.join("tests");
        let prepared = std::fs::create_dir_all(&folder)
            .and_then(|()| std::fs::write(folder.join(&name), &text))
            .and_then(|()| {
                std::fs::write(folder.join(format!("{}.py", self.module)), &self.reference)
            });
        if let Err(e) = prepared {
            return failed(format!("cannot prepare their folder: {e}"));
        }
        let reference = self.reference.as_str();
        let collected = self.run(
            sandbox,
            &folder,
            reference,
            &["--collect-only", "-q", &name],
            limits,
        );
        let tests: Vec<String> = collected
            .lines()
            .filter(|l| l.starts_with(&format!("{name}::")))
            .map(str::to_owned)
            .collect();
        if tests.is_empty() {
            let why = collected
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no test found");
            return failed(format!("pytest found no test in {name}: {why}"));
        }
        assess(&tests, &self.versions, seed, |version, skip| {
            let source = match version {
                Version::Reference => reference,
                _ => self
                    .sources
                    .iter()
                    .find(|(v, _)| v == version)
                    .map_or(reference, |(_, s)| s.as_str()),
            };
            let mut args: Vec<&str> = vec!["-q", "-rA", "-p", "no:cacheprovider", &name];
            for test in skip {
                args.extend(["--deselect", test.as_str()]);
            }
            read_outcomes(&self.run(sandbox, &folder, source, &args, limits), skip)
        })
    }

    /// One pytest run in `folder` (read-only) with `source` as the module.
    fn run(
        &self,
        sandbox: &Sandbox,
        folder: &Path,
        source: &str,
        args: &[&str],
        limits: &Limits,
    ) -> String {
        let mut all: Vec<String> = vec![
            "-c".into(),
            "exec python3 -c \"$0\" \"$@\"".into(),
            LAUNCHER.into(),
        ];
        all.extend(args.iter().map(|a| a.to_string()));
        let mut job = Job::new("/bin/sh", &all);
        job.work_from = Some(folder);
        job.env = vec![("PYTHONDONTWRITEBYTECODE".into(), "1".into())];
        let stdin = serde_json::json!({ "module": self.module, "source": source }).to_string();
        job.stdin = stdin.as_bytes();
        sandbox
            .run(&job, limits)
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }
}

/// pytest's `-rA` lines: `PASSED <id>`, `FAILED <id> - why`, `ERROR <id>`.
/// A test with a failing line failed whatever else the run printed.
fn read_outcomes(stdout: &str, skip: &BTreeSet<String>) -> Passed {
    let mut passed = Passed::new();
    for line in stdout.lines() {
        let (ok, rest) = if let Some(rest) = line.strip_prefix("PASSED ") {
            (true, rest)
        } else if let Some(rest) = line
            .strip_prefix("FAILED ")
            .or_else(|| line.strip_prefix("ERROR "))
        {
            (false, rest)
        } else {
            continue;
        };
        let id = rest.split(" - ").next().unwrap_or(rest).trim().to_owned();
        if skip.contains(&id) {
            continue;
        }
        let entry = passed.entry(id).or_insert(ok);
        *entry &= ok;
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pytest_lines_give_each_tests_outcome() {
        let out = "..F\nPASSED test_mine.py::test_a\nFAILED test_mine.py::test_b - assert 1 == 2\nPASSED test_mine.py::test_b\nERROR test_mine.py::test_c\n";
        let passed = read_outcomes(out, &BTreeSet::new());
        assert_eq!(passed.get("test_mine.py::test_a"), Some(&true));
        assert_eq!(passed.get("test_mine.py::test_b"), Some(&false));
        assert_eq!(passed.get("test_mine.py::test_c"), Some(&false));
    }

    #[test]
    fn the_reference_and_its_changes_are_the_kits() {
        let variant = exercise_data::manifest("velha").unwrap().python.unwrap();
        let own = variant.own_tests.unwrap();
        let versions = PythonVersions::of(&own, true).unwrap();
        assert_eq!(versions.module, "funcoes");
        let public = versions
            .versions
            .mutants
            .iter()
            .filter(|m| !m.hidden)
            .count();
        let hidden = versions.versions.mutants.len() - public;
        assert!(hidden >= public, "{hidden} hidden, {public} public");
        assert!(versions.file_names.contains(&"test_mine.py".to_owned()));
    }
}
