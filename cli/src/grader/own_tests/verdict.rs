//! A student's tests against the correct versions and the mutants: which
//! tests are valid, which mutants they catch, the points. Pure: the runs
//! come through a closure (the Rust and Python runners, or a test's fake).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use boardkit::catalogue::{f, t};

use crate::grader::sandbox::{Ending, Limits, Outcome};

/// A version of the game the tests run against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Version {
    /// The reference.
    Reference,
    /// A change the statement leaves free: why it must not matter.
    Harmless(String),
    /// A correct version that answers only what the statement promises: what
    /// a test that fails on it tests beyond that.
    Unpromised(String),
    /// An independent solution, by its name.
    Solution(String),
    /// A mutant, by its index in [`Versions::mutants`].
    Mutant(usize),
}

/// A mutant: what it breaks, and whether it is hidden (counted, never
/// described).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mutant {
    pub breaks: String,
    pub hidden: bool,
}

/// Everything the tests run against.
#[derive(Debug, Clone, Default)]
pub(crate) struct Versions {
    /// The correct ones other than the reference.
    pub correct: Vec<Version>,
    pub mutants: Vec<Mutant>,
}

/// How many times a test runs on the reference: one that does not pass
/// every time is flaky, and invalid.
pub(crate) const REFERENCE_RUNS: usize = 3;

/// What one run said: each test's name and whether it passed. A test
/// missing from it (the run was cut, or crashed) did not pass.
pub(crate) type Passed = BTreeMap<String, bool>;

/// A student's tests, judged.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, PartialEq)]
pub(crate) struct Verdict {
    /// Every test, by name.
    pub tests: Vec<String>,
    /// The invalid tests and why (the first correct version each failed).
    pub invalid: BTreeMap<String, String>,
    /// The public mutants, each with whether a valid test caught it.
    pub public: Vec<(String, bool)>,
    /// The hidden mutants: how many, and how many were caught.
    pub hidden: (usize, usize),
    /// A problem that kept the tests from running at all (they did not
    /// compile, say).
    pub error: Option<String>,
}

impl Verdict {
    /// No tests at `file`: every mutant survives.
    pub(crate) fn missing(file: &str, versions: &Versions) -> Verdict {
        let public = versions.mutants.iter().filter(|m| !m.hidden);
        let hidden = versions.mutants.iter().filter(|m| m.hidden).count();
        Verdict {
            public: public.map(|m| (m.breaks.clone(), false)).collect(),
            hidden: (hidden, 0),
            error: Some(f("no {file}", &[("file", &file)])),
            ..Verdict::default()
        }
    }

    /// Caught mutants, of all.
    pub(crate) fn caught(&self) -> (usize, usize) {
        let public = self.public.iter().filter(|(_, c)| *c).count();
        (public + self.hidden.1, self.public.len() + self.hidden.0)
    }

    /// `points` x caught / mutants.
    pub(crate) fn points(&self, points: f64) -> f64 {
        let (caught, all) = self.caught();
        if all == 0 {
            return 0.0;
        }
        points * caught as f64 / all as f64
    }

    /// "your tests catch 6 of 9 public bugs; uncaught: a, b", then the
    /// hidden ones' count where there are any.
    pub(crate) fn line(&self) -> String {
        if let Some(error) = &self.error {
            return f("your tests did not run: {error}", &[("error", error)]);
        }
        let caught = self.public.iter().filter(|(_, c)| *c).count();
        let mut line = f(
            "your tests catch {caught} of {count} public bugs",
            &[("caught", &caught), ("count", &self.public.len())],
        );
        let uncaught: Vec<String> = self
            .public
            .iter()
            .filter(|(_, c)| !*c)
            .map(|(b, _)| boardkit::catalogue::description(b))
            .collect();
        if !uncaught.is_empty() {
            let list = uncaught.join(", ");
            line.push_str(&f("; uncaught: {bugs}", &[("bugs", &list)]));
        }
        if self.hidden.0 > 0 {
            line.push_str(&f(
                "; {caught} of {count} hidden bugs",
                &[("caught", &self.hidden.1), ("count", &self.hidden.0)],
            ));
        }
        // A summary line alone (pytest's last) still says which tests
        // count for nothing.
        if !self.invalid.is_empty() {
            let tests: Vec<&str> = self.invalid.keys().map(String::as_str).collect();
            line.push_str(&f(
                "; not counted: {tests}",
                &[("tests", &tests.join(", "))],
            ));
        }
        line
    }
}

/// The most CPU time all of a student's runs may use together: a suite
/// runs in a fraction of a second, and one that takes the time limit on
/// every run would cost tens of runs of it. CPU time, not the wall's: a
/// loaded machine must not fail a suite an idle one grades.
pub(crate) fn run_budget(limits: &Limits) -> Duration {
    Duration::from_secs(60).max(Duration::from_secs(limits.cpu_seconds) * 6)
}

/// What one run costs against [`run_budget`]: the CPU time it used, or
/// its whole limit when a limit stopped it (a program killed mid-run
/// leaves part of its time uncounted; one that waits uses none).
pub(crate) fn charged(outcome: &Outcome, limits: &Limits) -> Duration {
    match outcome.ending {
        Ending::CpuLimit(_) | Ending::TimedOut => {
            outcome.cpu.max(Duration::from_secs(limits.cpu_seconds))
        }
        _ => outcome.cpu,
    }
}

/// Why a student's tests that went over [`run_budget`] are not graded.
pub(crate) fn over_budget(most: Duration) -> String {
    f(
        "they used more than {seconds} s of CPU time over all their runs: a suite must run in well under the time limit",
        &[("seconds", &most.as_secs())],
    )
}

/// What `boardkit test --mine` prints: each test, valid or not and why,
/// then the line of bugs caught.
pub(crate) fn report(verdict: &Verdict) -> String {
    let mut out = String::new();
    for test in &verdict.tests {
        if !out.is_empty() {
            out.push('\n');
        }
        match verdict.invalid.get(test) {
            Some(why) => out.push_str(&f("INVALID {test}: {why}", &[("test", test), ("why", why)])),
            None => out.push_str(&f("valid   {test}", &[("test", test)])),
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&verdict.line());
    out.push('\n');
    out
}

fn describe(version: &Version) -> String {
    match version {
        Version::Reference => t("the reference").into(),
        Version::Harmless(why) => f(
            "a correct version ({why})",
            &[("why", &boardkit::catalogue::description(why))],
        ),
        Version::Solution(name) => f(
            "a correct solution written from EXERCISE.md by someone else ({name})",
            &[("name", name)],
        ),
        Version::Unpromised(what) => f(
            "a correct version ({why})",
            &[("why", &boardkit::catalogue::description(what))],
        ),
        Version::Mutant(_) => t("a mutant").into(),
    }
}

/// Each mutant's failed tests and the invalid tests, after every run:
/// what [`assess`] counts, and what `dev check` reads test by test.
#[derive(Debug, Clone, Default)]
pub(crate) struct Assessed {
    /// The invalid tests and why (the first correct version each failed).
    pub invalid: BTreeMap<String, String>,
    /// For each mutant, by index, the tests that failed on it.
    pub failed_on: Vec<BTreeSet<String>>,
}

impl Assessed {
    /// The valid tests that failed on mutant `index`: those that catch it.
    pub(crate) fn caught_by(&self, index: usize) -> Vec<&str> {
        self.failed_on.get(index).map_or_else(Vec::new, |failed| {
            failed
                .iter()
                .filter(|t| !self.invalid.contains_key(*t))
                .map(String::as_str)
                .collect()
        })
    }
}

/// Runs `tests` against every version, each run afresh, in an order drawn
/// from `seed` with the reference's runs among the mutants'. `run(version,
/// skip)` runs every test but those in `skip` (already invalid: a test
/// that sleeps costs its time limit once, not once a version).
pub(crate) fn assess(
    tests: &[String],
    versions: &Versions,
    seed: u64,
    run: impl FnMut(&Version, &BTreeSet<String>) -> Passed,
) -> Verdict {
    verdict_of(tests, versions, run_versions(tests, versions, seed, run))
}

/// [`assess`]'s runs, test by test.
pub(crate) fn run_versions(
    tests: &[String],
    versions: &Versions,
    seed: u64,
    mut run: impl FnMut(&Version, &BTreeSet<String>) -> Passed,
) -> Assessed {
    let mut order: Vec<Version> = std::iter::repeat_n(Version::Reference, REFERENCE_RUNS)
        .chain(versions.correct.iter().cloned())
        .chain((0..versions.mutants.len()).map(Version::Mutant))
        .collect();
    order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let mut invalid: BTreeMap<String, String> = BTreeMap::new();
    let mut reference_passes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failed_on: Vec<BTreeSet<String>> = vec![BTreeSet::new(); versions.mutants.len()];
    for version in &order {
        let skip: BTreeSet<String> = invalid.keys().cloned().collect();
        let passed = run(version, &skip);
        for test in tests.iter().filter(|t| !skip.contains(*t)) {
            let ok = passed.get(test).copied().unwrap_or(false);
            match version {
                Version::Mutant(index) if !ok => {
                    failed_on[*index].insert(test.clone());
                }
                Version::Mutant(_) => {}
                Version::Reference if ok => *reference_passes.entry(test).or_default() += 1,
                _ if !ok => {
                    let why = match (version, reference_passes.get(test.as_str())) {
                        (Version::Reference, Some(1)) => {
                            t("flaky: it failed on the reference after passing once").to_owned()
                        }
                        (Version::Reference, Some(n)) => f(
                            "flaky: it failed on the reference after passing {count} times",
                            &[("count", n)],
                        ),
                        (Version::Unpromised(what), _) => f(
                            "it tests what the statement does not promise: {what}",
                            &[("what", &boardkit::catalogue::description(what))],
                        ),
                        _ => f("it fails on {version}", &[("version", &describe(version))]),
                    };
                    invalid.insert(test.clone(), why);
                }
                _ => {}
            }
        }
    }
    Assessed { invalid, failed_on }
}

/// The verdict of `tests` from their runs.
pub(crate) fn verdict_of(tests: &[String], versions: &Versions, assessed: Assessed) -> Verdict {
    let caught: Vec<bool> = (0..versions.mutants.len())
        .map(|index| !assessed.caught_by(index).is_empty())
        .collect();
    let public = versions
        .mutants
        .iter()
        .zip(&caught)
        .filter(|(m, _)| !m.hidden)
        .map(|(m, c)| (m.breaks.clone(), *c))
        .collect();
    let hidden = versions
        .mutants
        .iter()
        .zip(&caught)
        .filter(|(m, _)| m.hidden);
    let hidden = hidden.fold((0, 0), |(n, c), (_, caught)| {
        (n + 1, c + usize::from(*caught))
    });
    Verdict {
        tests: tests.to_vec(),
        invalid: assessed.invalid,
        public,
        hidden,
        error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budget is charged in CPU time: a run that computed is charged
    /// what it computed, however long a loaded machine took to give it;
    /// one a limit stopped, its whole limit.
    #[test]
    fn each_run_is_charged_its_cpu_time_or_its_limit() {
        let limits = Limits::default().with_cpu(Duration::from_secs(2));
        let outcome = |ending, cpu| Outcome {
            ending,
            stdout: Vec::new(),
            stderr: Vec::new(),
            elapsed: Duration::from_secs(30),
            starved: false,
            cpu,
        };
        let quick = outcome(Ending::Exited(0), Duration::from_millis(300));
        assert_eq!(charged(&quick, &limits), Duration::from_millis(300));
        let waited = outcome(Ending::TimedOut, Duration::ZERO);
        assert_eq!(charged(&waited, &limits), Duration::from_secs(2));
        let killed = outcome(
            Ending::CpuLimit(Duration::from_secs(2)),
            Duration::from_millis(10),
        );
        assert_eq!(charged(&killed, &limits), Duration::from_secs(2));
        assert_eq!(run_budget(&limits), Duration::from_secs(60));
        assert!(over_budget(run_budget(&limits)).contains("60 s of CPU time"));
    }

    fn versions() -> Versions {
        Versions {
            correct: vec![Version::Solution("other".into())],
            mutants: vec![
                Mutant {
                    breaks: "a missing diagonal".into(),
                    hidden: false,
                },
                Mutant {
                    breaks: "a draw first".into(),
                    hidden: false,
                },
                Mutant {
                    breaks: "secret".into(),
                    hidden: true,
                },
            ],
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_valid_test_catches_the_mutants_it_fails_on() {
        // `diagonal` fails on mutant 0 and the hidden one; `nothing` passes
        // everywhere; `wrong` fails on the solution; `counter` fails on
        // its fourth run, whatever that run is.
        let tests = names(&["diagonal", "nothing", "wrong", "counter"]);
        for seed in 0..20 {
            let mut runs = 0;
            let verdict = assess(&tests, &versions(), seed, |version, skip| {
                runs += 1;
                let mut passed = Passed::new();
                for test in &tests {
                    if skip.contains(test) {
                        continue;
                    }
                    let ok = match test.as_str() {
                        "diagonal" => !matches!(version, Version::Mutant(0 | 2)),
                        "wrong" => !matches!(version, Version::Solution(_)),
                        "counter" => runs < 4,
                        _ => true,
                    };
                    passed.insert(test.clone(), ok);
                }
                passed
            });
            assert_eq!(
                verdict.public,
                vec![
                    ("a missing diagonal".into(), true),
                    ("a draw first".into(), false)
                ]
            );
            assert_eq!(verdict.hidden, (1, 1));
            assert!(verdict.invalid.contains_key("wrong"), "{verdict:?}");
            assert!(
                verdict.invalid.contains_key("counter"),
                "seed {seed}: {verdict:?}"
            );
            assert_eq!(verdict.caught(), (2, 3));
            assert!((verdict.points(3.0) - 2.0).abs() < 1e-9);
            assert_eq!(
                verdict.line(),
                "your tests catch 1 of 2 public bugs; uncaught: a draw first; 1 of 1 hidden bugs; not counted: counter, wrong"
            );
        }
    }

    #[test]
    fn a_test_missing_from_a_run_did_not_pass() {
        let tests = names(&["sleeps"]);
        let verdict = assess(&tests, &versions(), 1, |_, _| Passed::new());
        assert_eq!(verdict.caught(), (0, 3));
        assert!(
            verdict.invalid["sleeps"].starts_with("it fails on "),
            "{verdict:?}"
        );
    }
}
