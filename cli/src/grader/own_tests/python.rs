//! A Python student's own tests (pytest, `test_mine.py` or its
//! translation's name) against a package's Python reference, its correct
//! versions and its mutants, in the sandbox.
//!
//! Every run sees the same folder, holding only the student's test file.
//! The version never enters the tests' process: the launcher forks, the
//! parent reads the version's source from standard input, makes itself
//! impossible to trace (not dumpable), and answers calls over a pipe; the
//! child runs pytest with a module of the same name whose functions send
//! their arguments and return the answers, plain values only (Python's
//! literals, read back with `ast.literal_eval`). So a test sees a function
//! only by what it answers: its code, its file and its memory are out of
//! reach (and `/proc` is hidden).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::verdict::{
    Mutant, Passed, Verdict, Version, Versions, assess, charged, over_budget, run_budget,
};
use crate::grader::sandbox::{Job, Limits, Sandbox};

/// A version an exercise gives besides its reference: its name, its
/// source, and what it breaks (none: a correct version), hidden or not.
pub(crate) struct GivenVersion {
    pub name: String,
    pub source: String,
    pub breaks: Option<String>,
    pub hidden: bool,
    /// A correct version's answers the statement does not promise.
    pub unpromised: Option<String>,
}

/// `python3 -c LAUNCHER MODULE SECONDS PYTEST_ARGS...`: the version in the
/// parent, pytest in the child, calls between them as literals, one a line;
/// each test cut after SECONDS (it fails alone, and the others still run).
const LAUNCHER: &str = r#"import ast, builtins, os, sys, types
module_name = sys.argv[1]
calls_in, calls_out = os.pipe()
answers_in, answers_out = os.pipe()
child = os.fork()
if child:
    os.close(calls_out)
    os.close(answers_in)
    try:
        import ctypes
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
    except Exception:
        pass
    data = ast.literal_eval(sys.stdin.read())
    module = types.ModuleType(module_name)
    exec(compile(data["source"], module_name + ".py", "exec"), module.__dict__)
    del data
    names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))
    answers = os.fdopen(answers_out, "w")
    answers.write(repr(names) + "\n")
    answers.flush()
    for line in os.fdopen(calls_in):
        try:
            name, args, kwargs = ast.literal_eval(line)
            if name not in names:
                raise NameError(name)
            text = repr(("ok", getattr(module, name)(*args, **kwargs)))
            ast.literal_eval(text)
        except BaseException as error:
            text = repr(("error", type(error).__name__, str(error)))
        answers.write(text + "\n")
        answers.flush()
    status = os.waitpid(child, 0)[1]
    os._exit(os.waitstatus_to_exitcode(status))
os.close(calls_in)
os.close(answers_out)
os.close(0)
sys.stdin = open(os.devnull)
calls = os.fdopen(calls_out, "w")
answers = os.fdopen(answers_in)
module = types.ModuleType(module_name)


def proxy(name):
    def call(*args, **kwargs):
        text = repr((name, args, kwargs))
        try:
            ast.literal_eval(text)
        except Exception:
            raise TypeError(name + ": only plain values (str, int, lists, tuples, dicts) can be passed") from None
        calls.write(text + "\n")
        calls.flush()
        answer = ast.literal_eval(answers.readline())
        if answer[0] == "ok":
            return answer[1]
        kind = getattr(builtins, answer[1], None)
        if not (isinstance(kind, type) and issubclass(kind, Exception)):
            kind = Exception
        raise kind(answer[2])
    call.__name__ = name
    return call


for name in ast.literal_eval(answers.readline()):
    setattr(module, name, proxy(name))
sys.modules[module_name] = module
import signal
import pytest


class Limit:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        def expired(signum, frame):
            raise TimeoutError("the test ran past " + sys.argv[2] + " s")
        signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, float(sys.argv[2]))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)


sys.exit(pytest.main(sys.argv[3:], plugins=[Limit()]))
"#;

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
    /// The versions an exercise gives as sources: its `reference` and
    /// the others, for the module `module`, the student's tests in
    /// `file_name` (an exercise package's, read by the package).
    pub(crate) fn of_sources(
        module: &str,
        reference: String,
        given: Vec<GivenVersion>,
        file_name: &str,
    ) -> PythonVersions {
        let mut versions = Versions::default();
        let mut sources = Vec::new();
        for version in given {
            let kind = match version.breaks {
                None => {
                    let kind = match version.unpromised {
                        Some(what) => Version::Unpromised(what),
                        None => Version::Solution(version.name),
                    };
                    versions.correct.push(kind.clone());
                    kind
                }
                Some(breaks) => {
                    versions.mutants.push(Mutant {
                        breaks,
                        hidden: version.hidden,
                    });
                    Version::Mutant(versions.mutants.len() - 1)
                }
            };
            sources.push((kind, version.source));
        }
        PythonVersions {
            versions,
            module: module.to_owned(),
            reference,
            sources,
            file_names: vec![file_name.to_owned()],
        }
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
        let name = source
            .file_name()
            .map_or("test_mine.py".into(), |n| n.to_string_lossy().into_owned());
        let folder = work.join("tests");
        let prepared = std::fs::create_dir_all(&folder)
            .and_then(|()| std::fs::write(folder.join(&name), &text));
        if let Err(e) = prepared {
            return failed(format!("cannot prepare their folder: {e}"));
        }
        let reference = self.reference.as_str();
        let (collected, _) = self.run(
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
        let (most, mut used) = (run_budget(limits), Duration::ZERO);
        let mut over = false;
        let verdict = assess(&tests, &self.versions, seed, |version, skip| {
            over |= used > most;
            if over {
                return Passed::new();
            }
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
            let (stdout, cpu) = self.run(sandbox, &folder, source, &args, limits);
            used += cpu;
            read_outcomes(&stdout, skip)
        });
        if over {
            return failed(over_budget(most));
        }
        verdict
    }

    /// One pytest run in `folder` (read-only) with `source` as the module.
    fn run(
        &self,
        sandbox: &Sandbox,
        folder: &Path,
        source: &str,
        args: &[&str],
        limits: &Limits,
    ) -> (String, Duration) {
        let mut all: Vec<String> = vec![
            "-c".into(),
            "exec python3 -c \"$0\" \"$@\"".into(),
            LAUNCHER.into(),
            self.module.clone(),
            // A quarter of the run's limit for each test, at least a second.
            format!("{:.1}", (limits.cpu_seconds as f64 / 4.0).max(1.0)),
        ];
        all.extend(args.iter().map(|a| a.to_string()));
        let mut job = Job::new("/bin/sh", &all);
        job.work_from = Some(folder);
        job.hide_proc = true;
        job.env = vec![("PYTHONDONTWRITEBYTECODE".into(), "1".into())];
        // A Python literal, which the launcher reads with `ast.literal_eval`.
        let stdin = format!("{{'source': {}}}", python_string(source));
        job.stdin = stdin.as_bytes();
        sandbox
            .run(&job, limits)
            .map(|o| {
                let cpu = charged(&o, limits);
                (String::from_utf8_lossy(&o.stdout).into_owned(), cpu)
            })
            .unwrap_or_default()
    }
}

/// `text` as a Python string literal (JSON's escapes are Python's too).
fn python_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
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
}
