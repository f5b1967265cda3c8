//! Grading's fourth step, judge: a finished run against its case's
//! expected result, by the library's one judge ([`boardkit::judge`], which
//! a starter's own tests call too), and the result a report shows of it.
//! Running is `run.rs`; the reports are `report.rs`.

use super::report::{Extra, Results, TestResult, Verdict};
use super::sandbox::{self, Ending};
use super::shown;
use crate::graded_cases::{Case, CaseKind, Expected};

/// A submission that could not be opened (or built) is graded as not compiling, with
/// the reason as its output.
pub(super) fn failed_everywhere(cases: &[Case], verdict: Verdict, message: &str) -> Results {
    let tests = cases
        .iter()
        .map(|c| test_result(c, verdict, message.to_owned()))
        .collect();
    Results::of(tests, None)
}

/// A case's result: its verdict and what the report shows of it (a hidden
/// case's input and output only in the instructor's `detail`).
pub(super) fn test_result(case: &Case, verdict: Verdict, output: String) -> TestResult {
    let facts = CaseFacts {
        name: case.name.clone(),
        level: case.level,
        points: case.points,
        hidden: case.hidden,
        robustness: case.robustness,
        description: case.description.clone(),
    };
    case_result(&facts, verdict, output)
}

/// What a case's result says of the case: a game's, or an exercise
/// package's.
#[derive(Debug, Clone)]
pub(crate) struct CaseFacts {
    /// `<level>::<name>`.
    pub name: String,
    pub level: boardkit::level::Level,
    pub points: u32,
    pub hidden: bool,
    pub robustness: bool,
    pub description: String,
}

/// A case's result from its facts, its verdict and what went wrong.
pub(crate) fn case_result(case: &CaseFacts, verdict: Verdict, output: String) -> TestResult {
    let passed = verdict == Verdict::Passed;
    // A failure says first what went wrong and what the case expected, so
    // the description never reads as what the program did.
    let full = if passed {
        case.description.clone()
    } else {
        boardkit::judge::failure(verdict, &case.description, &output)
    };
    let full = shown::printable(&full).trim_end().to_owned();
    // Hidden cases are reported without their inputs or outputs; the
    // instructor's report alone shows them.
    let (output, detail) = if case.hidden {
        (
            format!("hidden case: {}", verdict.name()),
            Some(full).filter(|_| !passed),
        )
    } else {
        (full, None)
    };
    TestResult {
        name: case.name.clone(),
        score: if passed { case.points as f64 } else { 0.0 },
        max_score: case.points as f64,
        status: if passed { "passed" } else { "failed" }.to_owned(),
        output,
        visibility: if case.hidden {
            "after_published"
        } else {
            "visible"
        }
        .to_owned(),
        extra_data: Extra {
            level: case.level,
            verdict,
            robustness: case.robustness,
        },
        detail,
    }
}

/// The verdict of one finished run against the expected result: the
/// library's one judge ([`boardkit::judge`]), which a starter's own tests
/// call too.
pub(super) fn judge(case: &Case, outcome: &sandbox::Outcome) -> (Verdict, String) {
    use boardkit::judge::{self, Ending as Judged};
    let ending = match &outcome.ending {
        Ending::Exited(code) => Judged::Exited(*code),
        Ending::Signaled(signal) => Judged::Signaled(*signal),
        Ending::TimedOut => Judged::TimedOut(outcome.elapsed),
        Ending::CpuLimit(limit) => Judged::CpuLimit(*limit),
        Ending::OutputLimit => Judged::OutputLimit,
        Ending::DiskLimit(folder) => Judged::DiskLimit((*folder).to_owned()),
    };
    let run = judge::Run {
        stdout: &outcome.stdout,
        stderr: &outcome.stderr,
        ending,
    };
    match (&case.kind, &case.expected) {
        (
            CaseKind::Program { events, stdin, .. },
            Expected::Program {
                stdout,
                failed,
                reads,
            },
        ) => judge::judge_session(
            &judge::Session {
                events: *events,
                stdout,
                failed: *failed,
                reads: Some(reads),
                stdin,
                first_line: None,
            },
            &run,
        ),
        (CaseKind::Functions { requests, shown }, Expected::Answers(accepted)) => {
            judge::judge_calls(
                &judge::Calls {
                    requests,
                    accepted,
                    shown: &|request| shown(request, false),
                },
                &run,
            )
        }
        // A case's kind and its expectation are made together.
        _ => (
            Verdict::CompileError,
            "the case's kind and its expected result differ".into(),
        ),
    }
}

/// The result of one run of `case`, judged; a run that could not start
/// crashed.
pub(super) fn judged(case: &Case, outcome: std::io::Result<sandbox::Outcome>) -> TestResult {
    match outcome {
        Ok(outcome) => {
            let (verdict, message) = judge(case, &outcome);
            test_result(case, verdict, message)
        }
        Err(e) => test_result(case, Verdict::Crashed, format!("could not be started: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::graded_cases::Grading;

    /// A session case of velha and the reference's own answer to it.
    fn a_session(hidden: bool) -> (Case, Vec<u8>) {
        let game = crate::registry::find("velha").unwrap();
        let case = crate::graded_cases::cases(game, Grading::Crates)
            .into_iter()
            .find(|c| c.hidden == hidden && matches!(c.kind, CaseKind::Program { .. }))
            .expect("a session case");
        let Expected::Program { stdout, .. } = &case.expected else {
            unreachable!("a session expects a program's output")
        };
        let stdout = stdout.clone().into_bytes();
        (case, stdout)
    }

    fn exited(stdout: Vec<u8>, code: i32) -> sandbox::Outcome {
        sandbox::Outcome {
            ending: Ending::Exited(code),
            stdout,
            stderr: Vec::new(),
            elapsed: Duration::from_millis(5),
            starved: false,
            cpu: Duration::ZERO,
        }
    }

    #[test]
    fn the_references_own_output_passes_and_another_does_not() {
        let (case, stdout) = a_session(false);
        let passed = judged(&case, Ok(exited(stdout, 0)));
        assert_eq!(
            passed.extra_data.verdict,
            Verdict::Passed,
            "{}",
            passed.output
        );
        assert_eq!(passed.score, f64::from(case.points));
        let failed = judged(&case, Ok(exited(b"nothing like it\n".to_vec(), 0)));
        assert_eq!(failed.extra_data.verdict, Verdict::WrongOutput);
        assert_eq!(failed.score, 0.0);
        assert_eq!(failed.status, "failed");
    }

    #[test]
    fn a_run_that_timed_out_or_never_started_is_told_so() {
        let (case, stdout) = a_session(false);
        let mut outcome = exited(stdout, 0);
        outcome.ending = Ending::TimedOut;
        assert_eq!(
            judged(&case, Ok(outcome)).extra_data.verdict,
            Verdict::Timeout
        );
        let never = judged(&case, Err(std::io::Error::other("no such program")));
        assert_eq!(never.extra_data.verdict, Verdict::Crashed);
        assert!(
            never.output.contains("could not be started"),
            "{}",
            never.output
        );
    }

    #[test]
    fn a_hidden_case_keeps_its_input_and_output_for_the_instructor() {
        let (case, _) = a_session(true);
        let failed = judged(&case, Ok(exited(b"nothing like it\n".to_vec(), 0)));
        assert_eq!(failed.output, "hidden case: wrong_output");
        assert_eq!(failed.visibility, "after_published");
        assert!(failed.detail.is_some_and(|d| d.contains("nothing like it")));
    }

    #[test]
    fn a_submission_never_run_fails_every_case_with_its_reason() {
        let (case, _) = a_session(false);
        let results = failed_everywhere(
            &[case.clone(), case],
            Verdict::CompileError,
            "no src/velha/",
        );
        assert_eq!(results.tests.len(), 2);
        assert!(results.tests.iter().all(|t| {
            t.extra_data.verdict == Verdict::CompileError && t.output.contains("no src/velha/")
        }));
        assert_eq!(results.score, 0.0);
    }
}
