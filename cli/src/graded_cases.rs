//! The cases a grading run grades, with their answers and points, defined
//! once (not the fixture files they are read from, the library's
//! `session_fixture.rs` and `function_fixture.rs`, nor the calls made of the
//! functions, `function_calls/`). Each exercise's cases and points: what the grader runs,
//! what a starter ships (its public ones) and what every README, the
//! starter's README and the reports count. Grader, starter and check read
//! them here.
//!
//! Program cases are the kit's fixtures (public and hidden), read from the
//! copy embedded in the binary, never from a submission. Function cases are
//! each game's driver requests. Expected results are computed here, in the
//! grader's process, by running the reference: a fixture's stdin through the
//! reference game, a request through the reference driver.

use crate::registry::GameInfo;
use boardkit::compare::Reads;
use boardkit::function_fixture::FunctionCase;
use boardkit::level::{EventsFn, Level};
use boardkit::session_fixture::{Fixture, Visibility};

/// What a case runs.
#[derive(Debug, Clone)]
pub(crate) enum CaseKind {
    /// `play <game> <args>` with this stdin, compared by these events.
    Program {
        args: Vec<String>,
        stdin: Vec<u8>,
        events: EventsFn,
    },
    /// The driver, one request a line.
    Functions {
        requests: Vec<String>,
        /// A request as the student's code is called (the game's
        /// `harness::<game>::shown_call`, in Rust).
        shown: fn(&str, bool) -> String,
    },
}

/// What the reference did on a case.
#[derive(Debug, Clone)]
pub(crate) enum Expected {
    /// The reference's stdout, whether it ended in failure (input ended
    /// early), and how much input it had read as it wrote.
    Program {
        stdout: String,
        failed: bool,
        reads: Reads,
    },
    /// The answers accepted for each request (any best move, say).
    Answers(Vec<Vec<String>>),
}

/// One graded case.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// `<level>::<name>`.
    pub name: String,
    pub level: Level,
    pub points: u32,
    pub hidden: bool,
    /// A rule of the kit's own: the robustness part, in no level.
    pub robustness: bool,
    /// Where the rule it checks is stated: EXERCISE.md's section, or a
    /// course's own statement (its section and number).
    pub rule: String,
    pub description: String,
    pub kind: CaseKind,
    pub expected: Expected,
    /// The reference's CPU time on the case, as the grader ran it for its
    /// expected result: the case's CPU limit is derived from it.
    pub reference_cpu: std::time::Duration,
}

/// What `work` returns, and the CPU time this thread spent on it.
fn timed<T>(work: impl FnOnce() -> T) -> (T, std::time::Duration) {
    fn now() -> std::time::Duration {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the timespec it is given.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
        std::time::Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
    }
    let start = now();
    let value = work();
    (value, now().saturating_sub(start))
}

/// What a grading run grades, which decides its cases.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Grading {
    /// Rust crates: every level, functions through the kit's driver.
    Crates,
    /// Any program through stdin and stdout: its program levels only.
    Program,
}

/// The levels a run can grade.
pub(crate) fn gradable_levels(game: &GameInfo, grading: Grading) -> Vec<Level> {
    game.levels
        .iter()
        .filter(|l| match grading {
            Grading::Crates => true,
            Grading::Program => l.events().is_some(),
        })
        .map(|l| l.level)
        .collect()
}

/// Runs the reference game on `args` and `stdin`; returns its stdout,
/// whether it failed, and its reads.
pub(crate) fn reference_program(
    game: &GameInfo,
    args: &[String],
    stdin: &[u8],
) -> (String, bool, Reads) {
    use std::cell::RefCell;
    use std::io::{BufRead, Read, Write};
    use std::rc::Rc;

    /// Output shared with the input, which notes its length at each read.
    struct Output(Rc<RefCell<Vec<u8>>>);
    impl Write for Output {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    struct Input<'a> {
        rest: &'a [u8],
        read: usize,
        output: Rc<RefCell<Vec<u8>>>,
        reads: Vec<(usize, usize)>,
    }
    impl Read for Input<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            let n = self.rest.read(buffer)?;
            self.consume_noted(n);
            Ok(n)
        }
    }
    impl BufRead for Input<'_> {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            Ok(self.rest)
        }
        fn consume(&mut self, n: usize) {
            self.rest = &self.rest[n..];
            self.consume_noted(n);
        }
    }
    impl Input<'_> {
        fn consume_noted(&mut self, n: usize) {
            self.read += n;
            self.reads.push((self.read, self.output.borrow().len()));
        }
    }

    let shared = Rc::new(RefCell::new(Vec::new()));
    let mut input = Input {
        rest: stdin,
        read: 0,
        output: Rc::clone(&shared),
        reads: Vec::new(),
    };
    let mut output = Output(Rc::clone(&shared));
    let result = (game.play)(args, &mut input, &mut output, false);
    let reads = Reads(std::mem::take(&mut input.reads));
    drop(output);
    let stdout = String::from_utf8_lossy(&shared.borrow()).into_owned();
    (stdout, result.is_err(), reads)
}

/// The public function cases of `game`, each call's accepted answers
/// computed with the reference: what `fixtures/<game>/functions/` holds
/// (a kit test proves it), and what the starter's tests run.
pub(crate) fn public_function_cases(game: &GameInfo) -> Vec<FunctionCase> {
    // Computed once a process: the reference answers every call (each
    // best move of every position), and the starter, the README's table,
    // the grader and the kit's tests all ask for them.
    static ANSWERED: Memo<Vec<FunctionCase>> = Memo::new();
    ANSWERED.get_or(game.id, || answer_function_cases(game))
}

fn answer_function_cases(game: &GameInfo) -> Vec<FunctionCase> {
    let mut cases = (game.function_cases)();
    for case in &mut cases {
        let requests = case.requests();
        for (call, request) in case.calls.iter_mut().zip(&requests) {
            call.truncate(1);
            call.extend((game.accepted)(request));
        }
    }
    boardkit::function_fixture::sort(&mut cases);
    cases
}

/// The points of one level of a game: those of its public cases (the
/// starter's) and of its hidden ones (the grader's alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LevelPoints {
    pub level: Level,
    pub public: u32,
    pub hidden: u32,
}

/// The points of each level of `game`, in level order, as `boardkit grade`
/// gives them: the one count that README, the starter's README and the
/// reports show.
pub(crate) fn level_points(game: &GameInfo) -> Vec<LevelPoints> {
    let all = cases(game, Grading::Crates);
    game.levels
        .iter()
        .map(|info| {
            let of = |hidden: bool| {
                all.iter()
                    .filter(|c| c.level == info.level && c.hidden == hidden && !c.robustness)
                    .map(|c| c.points)
                    .sum()
            };
            LevelPoints {
                level: info.level,
                public: of(false),
                hidden: of(true),
            }
        })
        .collect()
}

#[cfg(test)]
/// docs/levels.md's table of every game's levels: what each grades and its points
/// (public, then hidden), from each game's definition. A test checks that
/// docs/levels.md holds it (`BOARDKIT_BLESS=1` writes it).
pub(crate) fn readme_levels_table() -> String {
    let games = crate::registry::GAMES;
    let mut out = String::from("| level |");
    for game in games {
        out.push_str(&format!(" {} |", game.title));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(games.len()));
    out.push('\n');
    let points: Vec<Vec<LevelPoints>> = games.iter().map(level_points).collect();
    for level in Level::ALL {
        out.push_str(&format!("| {level} |"));
        for (game, points) in games.iter().zip(&points) {
            let Some(info) = game.level(level) else {
                out.push_str(" |");
                continue;
            };
            let p = points.iter().find(|p| p.level == level);
            let (public, hidden) = p.map_or((0, 0), |p| (p.public, p.hidden));
            let hidden = if hidden > 0 {
                format!(" + {hidden} hidden")
            } else {
                String::new()
            };
            out.push_str(&format!(" {} ({public}{hidden} points) |", info.summary));
        }
        out.push('\n');
    }
    // The kit's own rules: in the score, in no level.
    out.push_str("| robustness |");
    for game in games {
        let (public, hidden) = robustness_points(game);
        let hidden = if hidden > 0 {
            format!(" + {hidden} hidden")
        } else {
            String::new()
        };
        out.push_str(&format!(
            " the kit's own rules, in the score and in no level: long lines, bytes that are not text, control characters, CR LF, input that ends early ({public}{hidden} points) |"
        ));
    }
    out.push('\n');
    out
}

/// Values computed once a process per game (the reference's answers),
/// cloned out. A second caller for the same game waits for the first
/// instead of computing it again; other games go on side by side.
struct Memo<T>(std::sync::Mutex<Vec<(&'static str, Cell<T>)>>);

/// One game's value, once computed.
type Cell<T> = std::sync::Arc<std::sync::OnceLock<T>>;

impl<T: Clone> Memo<T> {
    const fn new() -> Self {
        Memo(std::sync::Mutex::new(Vec::new()))
    }

    fn get_or(&self, key: &'static str, compute: impl FnOnce() -> T) -> T {
        let cell = {
            let mut held = self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match held.iter().find(|(k, _)| *k == key) {
                Some((_, cell)) => std::sync::Arc::clone(cell),
                None => {
                    let cell = std::sync::Arc::new(std::sync::OnceLock::new());
                    held.push((key, std::sync::Arc::clone(&cell)));
                    cell
                }
            }
        };
        cell.get_or_init(compute).clone()
    }
}

/// The robustness part's points of `game` (public, hidden), as `boardkit
/// grade` gives them to crates and programs: in the score, in no level.
pub(crate) fn robustness_points(game: &GameInfo) -> (u32, u32) {
    let all = cases(game, Grading::Crates);
    let of = |hidden: bool| {
        all.iter()
            .filter(|c| c.robustness && c.hidden == hidden)
            .map(|c| c.points)
            .sum()
    };
    (of(false), of(true))
}

/// Every case of `game` at the levels this run grades.
pub(crate) fn cases(game: &GameInfo, grading: Grading) -> Vec<Case> {
    // Computed once a process per game (the reference runs every
    // fixture).
    static CRATES: Memo<Vec<Case>> = Memo::new();
    static PROGRAMS: Memo<Vec<Case>> = Memo::new();
    match grading {
        Grading::Crates => CRATES.get_or(game.id, || compute_cases(game, grading)),
        Grading::Program => PROGRAMS.get_or(game.id, || compute_cases(game, grading)),
    }
}

fn compute_cases(game: &GameInfo, grading: Grading) -> Vec<Case> {
    let levels = gradable_levels(game, grading);
    let mut cases = Vec::new();
    let functions = match grading {
        Grading::Crates => public_function_cases(game),
        Grading::Program => Vec::new(),
    };
    let rule_of = |level: Level, robustness: bool| -> String {
        match robustness {
            true => "EXERCISE.md, Robustness".to_owned(),
            false => format!("EXERCISE.md, {}, {level} level", game.title),
        }
    };
    for case in functions {
        if !levels.contains(&case.level) {
            continue;
        }
        let (accepted, reference_cpu) = timed(|| case.accepted());
        cases.push(Case {
            name: case.test_name(),
            level: case.level,
            points: 1,
            hidden: false,
            robustness: false,
            rule: rule_of(case.level, false),
            description: case.description.clone(),
            kind: CaseKind::Functions {
                requests: case.requests(),
                shown: game.shown_call,
            },
            expected: Expected::Answers(accepted),
            reference_cpu,
        });
    }
    for fixture in graded_fixtures(game, &levels) {
        let rule = rule_of(fixture.level, fixture.robustness);
        cases.extend(session_case(game, &fixture, rule));
    }
    cases
}

/// The fixtures `grading` runs, at `levels`, by level and name.
fn graded_fixtures(game: &GameInfo, levels: &[Level]) -> Vec<Fixture> {
    let prefix = format!("fixtures/{}/", game.id);
    let mut fixtures: Vec<Fixture> = crate::embedded::under(&prefix)
        .filter(|(p, _)| p.ends_with(".toml") && !p[prefix.len()..].contains('/'))
        .filter_map(|(p, bytes)| {
            let name = p[prefix.len()..].trim_end_matches(".toml");
            Fixture::parse(std::str::from_utf8(bytes).ok()?, name, game.id).ok()
        })
        .filter(|f| levels.contains(&f.level))
        // Sessions that pin the reference's own random draws stay in the
        // kit's tests: a different but correct computer player or secret
        // would not match them. The grader checks computer players through
        // the driver (any best move, any legal column).
        .filter(|f| !f.reference_only)
        .collect();
    fixtures.sort_by(|a, b| (a.level, &a.name).cmp(&(b.level, &b.name)));
    fixtures
}

/// The case of one session, with the reference's run of it as the answer;
/// `None` when its level runs no program.
fn session_case(game: &GameInfo, fixture: &Fixture, rule: String) -> Option<Case> {
    let events = game.level(fixture.level).and_then(|l| l.events())?;
    let stdin = fixture.stdin_bytes();
    let description = fixture.description.clone();
    let ((stdout, failed, reads), reference_cpu) =
        timed(|| reference_program(game, &fixture.args, &stdin));
    Some(Case {
        name: fixture.test_name(),
        level: fixture.level,
        points: fixture.points,
        hidden: fixture.visibility == Visibility::Hidden,
        robustness: fixture.robustness,
        rule,
        description,
        kind: CaseKind::Program {
            args: fixture.args.clone(),
            stdin,
            events,
        },
        expected: Expected::Program {
            stdout,
            failed,
            reads,
        },
        reference_cpu,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_cases_and_hidden_ones_are_marked() {
        for game in crate::registry::GAMES {
            let all = cases(game, Grading::Crates);
            assert!(all.iter().any(|c| c.level == Level::Basic), "{}", game.id);
            assert!(
                all.iter().any(|c| c.level == Level::Proficient),
                "{}",
                game.id
            );
            let program = cases(game, Grading::Program);
            assert!(
                program
                    .iter()
                    .all(|c| matches!(c.kind, CaseKind::Program { .. }))
            );
        }
        assert!(
            cases(crate::registry::find("velha").unwrap(), Grading::Crates)
                .iter()
                .any(|c| c.hidden)
        );
    }

    /// The public function cases the grader runs are, call for call and
    /// answer for answer, those `fixtures/<game>/functions/` holds: the
    /// files the starter's tests read. `BOARDKIT_BLESS=1` writes them anew.
    /// Hidden sessions only vary the inputs of public ones: each names the
    /// public session of its level whose inputs it varies.
    #[test]
    fn every_hidden_session_varies_a_public_one_of_its_level() {
        for game in crate::registry::GAMES {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../fixtures")
                .join(game.id);
            let fixtures = Fixture::discover(&dir).unwrap();
            for fixture in &fixtures {
                let hidden = fixture.visibility == Visibility::Hidden && !fixture.reference_only;
                let Some(name) = &fixture.varies else {
                    assert!(
                        !hidden,
                        "{}/{} varies no public session",
                        game.id, fixture.name
                    );
                    continue;
                };
                assert!(
                    hidden,
                    "{}/{}: only a hidden session varies another",
                    game.id, fixture.name
                );
                let public = fixtures
                    .iter()
                    .find(|f| &f.name == name)
                    .unwrap_or_else(|| panic!("{}/{}: no session {name}", game.id, fixture.name));
                assert!(
                    public.visibility == Visibility::Public
                        && !public.reference_only
                        && public.level == fixture.level,
                    "{}/{} varies {name}, not a public session of its level",
                    game.id,
                    fixture.name
                );
            }
        }
    }

    #[test]
    fn public_function_cases_are_the_fixtures() {
        let bless = std::env::var_os("BOARDKIT_BLESS").is_some();
        for game in crate::registry::GAMES {
            let generated = public_function_cases(game);
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../fixtures")
                .join(game.id)
                .join("functions");
            if bless {
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                for case in &generated {
                    std::fs::write(dir.join(format!("{}.toml", case.name)), case.to_toml())
                        .unwrap();
                }
            }
            let stored = FunctionCase::discover(&dir).unwrap();
            let names = |cases: &[FunctionCase]| -> Vec<String> {
                cases.iter().map(FunctionCase::test_name).collect()
            };
            assert_eq!(
                names(&stored),
                names(&generated),
                "{}: run BOARDKIT_BLESS=1 cargo test --lib public_function_cases",
                game.id
            );
            for (stored, generated) in stored.iter().zip(&generated) {
                let differs = stored
                    .calls
                    .iter()
                    .zip(&generated.calls)
                    .find(|(a, b)| a != b);
                assert!(
                    stored == generated,
                    "{} {}: the stored case differs from the reference's (first: {differs:?}); \
                     run BOARDKIT_BLESS=1 cargo test --lib public_function_cases",
                    game.id,
                    stored.name
                );
            }
        }
    }

    /// The uniformity requests' false alarms add up to at most one in a
    /// million per case: each request's share assumes at most this many.
    #[test]
    fn uniformity_cases_keep_to_their_false_alarm_budget() {
        let c4 = crate::registry::find("connect4").unwrap();
        for case in (c4.function_cases)() {
            if case.function.ends_with("_uniform") {
                assert!(
                    (1..=boardkit::harness::connect4::UNIFORM_POSITIONS)
                        .contains(&case.calls.len()),
                    "{}",
                    case.name
                );
            }
        }
        let mm = crate::registry::find("mastermind").unwrap();
        for case in (mm.function_cases)() {
            if case.function == "random_secret" {
                assert!(case.calls.len() <= boardkit::harness::mastermind::SECRET_REQUESTS);
            }
        }
    }

    #[test]
    fn readme_shows_every_games_levels_and_points_as_defined() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/levels.md");
        let readme = std::fs::read_to_string(&path).unwrap();
        let (start, end) = ("<!-- levels: begin -->\n", "<!-- levels: end -->");
        let from = readme
            .find(start)
            .expect("docs/levels.md has the levels markers")
            + start.len();
        let to = readme[from..].find(end).unwrap() + from;
        let table = readme_levels_table();
        if std::env::var_os("BOARDKIT_BLESS").is_some() {
            let written = format!("{}{table}{}", &readme[..from], &readme[to..]);
            std::fs::write(&path, written).unwrap();
            return;
        }
        assert_eq!(
            readme[from..to],
            table,
            "docs/levels.md's levels table: run BOARDKIT_BLESS=1 cargo test --lib readme_shows"
        );
    }

    #[test]
    fn an_output_line_is_traced_to_the_input_read_before_it() {
        let game = crate::registry::find("velha").unwrap();
        let stdin = b"A1\nB1\nzz\nA2\n";
        let (stdout, failed, reads) = reference_program(game, &[], stdin);
        assert!(failed, "the input ends before the game");
        assert_eq!(reads.line_before(stdin, 0), None);
        let invalid = stdout.find("Posi\u{e7}\u{e3}o inv\u{e1}lida").unwrap();
        assert_eq!(reads.line_before(stdin, invalid), Some((3, "zz".into())));
        assert_eq!(reads.line_before(stdin, stdout.len()).unwrap().0, 4);
    }

    #[test]
    fn a_program_that_stopped_is_blamed_on_the_line_it_was_answering() {
        // Graded events where the invalid-input message is free: a program
        // that crashed on `zz` got every board right up to the one after
        // B1, and the next event it misses is the board after A2.
        fn boards(text: &str) -> Vec<String> {
            let game = crate::registry::find("velha").unwrap();
            let events = game
                .level(Level::Proficient)
                .and_then(boardkit::level::LevelInfo::events)
                .unwrap();
            events(text)
                .into_iter()
                .filter(|e| e.starts_with("board "))
                .collect()
        }
        let game = crate::registry::find("velha").unwrap();
        let stdin = b"A1\nB1\nzz\nA2\n";
        let (stdout, _, reads) = reference_program(game, &[], stdin);
        let last = boards(&stdout).len() - 1;
        let right = boardkit::compare::events_end(boards, &stdout, last);
        let (number, line, written) = reads.line_read_at(stdin, right).unwrap();
        assert_eq!((number, line.as_str()), (3, "zz"));
        // The board it missed comes after that read: it stopped on the line.
        assert!(boardkit::compare::event_start(boards, &stdout, last) >= written);
        // Blamed on the event it missed, it would be A2's.
        let missed = boardkit::compare::event_start(boards, &stdout, last);
        assert_eq!(reads.line_before(stdin, missed).unwrap().0, 4);
    }
}
