//! Grading's third step, run: each case of a submission in the sandbox, as
//! its build (`build.rs`) or its command gives it, each run then judged
//! (`judge.rs`).

use std::path::{Path, PathBuf};

use super::report::{Results, TestResult, Verdict};
use super::sandbox::{Job, Limits, Sandbox, Session};
use super::{build, judge};
use crate::graded_cases::{Case, CaseKind};
use crate::registry::GameInfo;
use boardkit::catalogue::f;

/// How to run a submission's code.
pub(super) enum Runner {
    Rust(build::Built),
    /// A program run as `command` in its folder `root`.
    Program {
        command: String,
        root: PathBuf,
    },
}

/// Where a Rust submission's binary is, inside the sandbox.
const PROGRAM: &str = "/program";

/// Runs `case` on the submission `runner` runs, and judges it; a failed
/// public session says how to replay it.
pub(super) fn run_case(
    game: &GameInfo,
    case: &Case,
    runner: &Runner,
    session: &mut Session<'_>,
    limits: &Limits,
) -> TestResult {
    // A function case's input for the driver: its requests, one a line.
    let requests_stdin: Vec<u8> = match &case.kind {
        CaseKind::Functions { requests, .. } => format!("{}\n", requests.join("\n")).into_bytes(),
        CaseKind::Program { .. } => Vec::new(),
    };
    let job = match (&case.kind, runner) {
        (CaseKind::Program { args, stdin, .. }, Runner::Rust(built)) => {
            let mut words = vec!["play".to_owned(), game.id.to_owned()];
            words.extend(args.iter().cloned());
            let mut job = Job::new(PROGRAM, &words);
            job.read_only = vec![(built.game.clone(), PROGRAM.into())];
            job.stdin = stdin;
            job
        }
        (CaseKind::Program { args, stdin, .. }, Runner::Program { command, root }) => {
            program_job(command, root, args, stdin)
        }
        (CaseKind::Functions { .. }, Runner::Rust(built)) => {
            let mut job = Job::new(PROGRAM, &[]);
            job.read_only = vec![(built.driver.clone(), PROGRAM.into())];
            job.stdin = &requests_stdin;
            job
        }
        (CaseKind::Functions { .. }, Runner::Program { .. }) => {
            return judge::test_result(
                case,
                Verdict::CompileError,
                "function cases need a Rust crate".into(),
            );
        }
    };
    let limits = case_limits(limits, case);
    let mut ran = session.run(&job, &limits);
    // Once more before the verdict when its CPU limit stopped it, or the
    // wall-clock backstop while it computed: a moment of a loaded machine
    // (a busy sibling core slows CPU time too; a machine busy enough gives
    // it too little of it) is not the student's. A program that waits
    // meets the backstop having computed nothing: no second run.
    let twice = ran.as_ref().is_ok_and(|o| {
        matches!(o.ending, super::sandbox::Ending::CpuLimit(_))
            || (o.ending == super::sandbox::Ending::TimedOut && o.starved)
    });
    if twice {
        ran = session.run(&job, &limits);
    }
    let mut result = judge::judged(case, ran);
    if twice && result.extra_data.verdict == Verdict::Timeout {
        result.output.push('\n');
        result.output.push_str(boardkit::judge::run_twice());
    }
    let failed = !matches!(
        result.extra_data.verdict,
        Verdict::Passed | Verdict::CompileError
    );
    let command = match (&case.kind, case.hidden, failed) {
        (CaseKind::Program { stdin, .. }, false, true) => reproduce(game, case, stdin, runner),
        _ => None,
    };
    if let Some(command) = command {
        result.output.push('\n');
        result.output.push_str(&command);
    }
    result
}

/// A case's limits: the run's, with the CPU limit raised to the margin
/// over the reference's own time where that is more
/// (`boardkit::judge::case_cpu`); the wall-clock backstop follows.
pub(crate) fn case_limits(limits: &Limits, case: &Case) -> Limits {
    let floor = std::time::Duration::from_secs(limits.cpu_seconds);
    limits.with_cpu(floor.max(case.reference_cpu * boardkit::judge::REFERENCE_MARGIN))
}

/// The job of a session case of a program run as `command` in `root`.
pub(super) fn program_job<'a>(
    command: &str,
    root: &'a Path,
    args: &[String],
    stdin: &'a [u8],
) -> Job<'a> {
    // A simple command replaces the shell (`exec`): a signal that kills
    // the program is then told as one, not as sh's status 134.
    let simple = !command.contains([';', '&', '|', '(', ')', '<', '>', '`', '$', '\n']);
    let exec = if simple { "exec " } else { "" };
    let mut words = vec![
        "-c".to_owned(),
        format!("{exec}{command} \"$@\""),
        "program".to_owned(),
    ];
    words.extend(args.iter().cloned());
    let mut job = Job::new("/bin/sh", &words);
    job.work_from = Some(root);
    job.stdin = stdin;
    job
}

/// What replays a public session case on the student's own machine, as
/// its message ends: its test, for a crate (and the game played); its
/// input piped into the program.
pub(super) fn reproduce(
    game: &GameInfo,
    case: &Case,
    stdin: &[u8],
    runner: &Runner,
) -> Option<String> {
    match runner {
        Runner::Rust(_) => {
            let words: Vec<&str> = match &case.kind {
                crate::graded_cases::CaseKind::Program { args, .. } => {
                    args.iter().map(String::as_str).collect()
                }
                crate::graded_cases::CaseKind::Functions { .. } => Vec::new(),
            };
            let program = format!("cargo run -q -- play {} {}", game.id, words.join(" "));
            let test = format!("cargo test --test {} {}", game.id, case.name);
            let test = f("reproduce it: {command}", &[("command", &test)]);
            Some(
                match boardkit::judge::replay_command(program.trim_end(), stdin) {
                    Some(play) => format!(
                        "{test}\n{}",
                        f("or play it: {command}", &[("command", &play)])
                    ),
                    None => test,
                },
            )
        }
        Runner::Program { command, .. } => boardkit::judge::replay_command(command, stdin)
            .map(|play| f("play it: {command}", &[("command", &play)])),
    }
}

/// Runs every case on one submission, in one sandbox session.
pub(super) fn run_cases(
    game: &GameInfo,
    cases: &[Case],
    runner: &Runner,
    sandbox: &Sandbox,
    limits: &Limits,
    progress: &indicatif::ProgressBar,
) -> Results {
    // One session: the submission's runs share one sandbox (a pod).
    let mut session = sandbox.session();
    let tests: Vec<TestResult> = cases
        .iter()
        .map(|case| {
            let result = run_case(game, case, runner, &mut session, limits);
            progress.inc(1);
            result
        })
        .collect();
    Results::of(tests, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simple_command_replaces_the_shell_and_a_pipeline_does_not() {
        let root = Path::new("/tmp/student");
        let args = vec!["--seed".to_owned(), "1".to_owned()];
        let job = program_job("python3 programa.py", root, &args, b"A1\n");
        assert_eq!(job.program, "/bin/sh");
        assert_eq!(job.args[1], "exec python3 programa.py \"$@\"");
        assert_eq!(job.args[3..], ["--seed", "1"]);
        assert_eq!(job.work_from, Some(root));
        assert_eq!(job.stdin, b"A1\n");
        assert!(job.read_only.is_empty());
        let job = program_job("cat x | python3 p.py", root, &[], b"");
        assert_eq!(job.args[1], "cat x | python3 p.py \"$@\"");
    }

    /// A starter's tests stop a case at the library's CPU limit and its
    /// wall-clock backstop (`tests/common`'s `CASE_TIMEOUT`, `CASE_WALL`):
    /// the grader's limits for every case a starter ships are those, its
    /// reference being fast enough that the margin over it never raises
    /// them. A reference grown slow fails here, before a student sees two
    /// limits.
    #[test]
    fn the_grader_stops_a_public_case_where_a_starter_does() {
        let limits = Limits::default();
        assert_eq!(
            (limits.cpu_seconds, limits.timeout),
            (
                boardkit::judge::CASE_CPU.as_secs(),
                boardkit::judge::case_wall(boardkit::judge::CASE_CPU)
            )
        );
        for game in crate::registry::GAMES {
            let cases = crate::graded_cases::cases(game, crate::graded_cases::Grading::Crates);
            for case in cases.iter().filter(|c| !c.hidden) {
                assert_eq!(
                    case_limits(&limits, case),
                    limits,
                    "{}: {}: the reference took {:?}",
                    game.id,
                    case.name,
                    case.reference_cpu
                );
            }
        }
    }

    #[test]
    fn a_public_session_is_replayed_by_one_command() {
        let game = crate::registry::find("velha").unwrap();
        let case = crate::graded_cases::cases(game, crate::graded_cases::Grading::Program)
            .into_iter()
            .find(|c| !c.hidden)
            .unwrap();
        let program = Runner::Program {
            command: "python3 programa.py".into(),
            root: PathBuf::from("/tmp/student"),
        };
        assert_eq!(
            reproduce(game, &case, b"A1\n50%\n", &program).as_deref(),
            Some("play it: printf 'A1\\n50%%\\n' | python3 programa.py")
        );
        // Too long to type: none.
        assert_eq!(reproduce(game, &case, &[b'A'; 401], &program), None);
        assert_eq!(
            boardkit::judge::printf_text(b"it's\\\x01"),
            "it\\047s\\\\\\001"
        );
    }
}
