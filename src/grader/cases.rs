//! The cases a submission is graded on, with their expected results.
//!
//! Program cases are the kit's fixtures (public and hidden), read from the
//! copy embedded in the binary, never from a submission. Function cases are
//! each game's driver requests. Expected results are computed here, in the
//! grader's process, by running the reference: a fixture's stdin through the
//! reference game, a request through the reference driver.

use crate::fixture::{Fixture, Visibility};
use crate::level::{EventsFn, Level};
use crate::registry::GameInfo;

/// What a case runs.
#[derive(Debug, Clone)]
pub enum CaseKind {
    /// `play <game> <args>` with this stdin, compared by these events.
    Program {
        args: Vec<String>,
        stdin: Vec<u8>,
        events: EventsFn,
    },
    /// The driver, one request a line.
    Functions { requests: Vec<String> },
}

/// What the reference did on a case.
#[derive(Debug, Clone)]
pub enum Expected {
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

/// A program's reads, in order: `(input bytes read so far, output bytes
/// written so far)` at each read. Tells which input line an output line
/// answers.
#[derive(Debug, Clone, Default)]
pub struct Reads(Vec<(usize, usize)>);

impl Reads {
    /// The input line the program had last read when it had written
    /// `output` bytes: its number (from 1) and its text. `None` before any
    /// input was read.
    pub fn line_before(&self, stdin: &[u8], output: usize) -> Option<(usize, String)> {
        let read = self
            .0
            .iter()
            .take_while(|(_, written)| *written <= output)
            .map(|(read, _)| *read)
            .max()
            .filter(|&read| read > 0)?;
        let last = read.min(stdin.len()) - 1;
        // The line holding the last byte read (its own line ending aside).
        let start = stdin[..last]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let end = if stdin[last] == b'\n' { last } else { last + 1 };
        let number = stdin[..start].iter().filter(|&&b| b == b'\n').count() + 1;
        let line = String::from_utf8_lossy(&stdin[start..end]);
        let line = line.trim_end_matches('\r');
        let mut shown: String = line.chars().take(60).collect();
        if line.chars().count() > 60 {
            shown.push_str(&format!("... ({} bytes)", end - start));
        }
        Some((number, shown))
    }
}

/// One graded case.
#[derive(Debug, Clone)]
pub struct Case {
    /// `<level>::<name>`.
    pub name: String,
    pub level: Level,
    pub points: u32,
    pub hidden: bool,
    pub description: String,
    pub kind: CaseKind,
    pub expected: Expected,
}

/// The levels a run can grade: program levels always; function levels
/// unless only a program is given.
pub fn gradable_levels(game: &GameInfo, program_only: bool) -> Vec<Level> {
    game.levels
        .iter()
        .filter(|l| l.events().is_some() || !program_only)
        .map(|l| l.level)
        .collect()
}

/// Runs the reference game on `args` and `stdin`; returns its stdout,
/// whether it failed, and its reads.
pub fn reference_program(game: &GameInfo, args: &[String], stdin: &[u8]) -> (String, bool, Reads) {
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

/// Every case of `game` at the levels this run grades.
pub fn cases(game: &GameInfo, program_only: bool) -> Vec<Case> {
    let levels = gradable_levels(game, program_only);
    let mut cases = Vec::new();
    if !program_only {
        for (level, name, requests) in (game.function_cases)() {
            if !levels.contains(&level) {
                continue;
            }
            let accepted = requests.iter().map(|r| (game.accepted)(r)).collect();
            cases.push(Case {
                name: format!("{level}::{name}"),
                level,
                points: 1,
                hidden: false,
                description: format!("function cases: {name}"),
                kind: CaseKind::Functions { requests },
                expected: Expected::Answers(accepted),
            });
        }
    }
    let prefix = format!("fixtures/{}/", game.id);
    let mut fixtures: Vec<Fixture> = crate::embedded::under(&prefix)
        .filter(|(p, _)| p.ends_with(".toml"))
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
    for fixture in fixtures {
        let Some(events) = game.level(fixture.level).and_then(|l| l.events()) else {
            continue;
        };
        let stdin = fixture.stdin_bytes();
        let (stdout, failed, reads) = reference_program(game, &fixture.args, &stdin);
        cases.push(Case {
            name: fixture.test_name(),
            level: fixture.level,
            points: fixture.points,
            hidden: fixture.visibility == Visibility::Hidden,
            description: fixture.description.clone(),
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
        });
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_cases_and_hidden_ones_are_marked() {
        for game in crate::registry::GAMES {
            let all = cases(game, false);
            assert!(all.iter().any(|c| c.level == Level::Basic), "{}", game.id);
            assert!(
                all.iter().any(|c| c.level == Level::Proficient),
                "{}",
                game.id
            );
            let program = cases(game, true);
            assert!(
                program
                    .iter()
                    .all(|c| matches!(c.kind, CaseKind::Program { .. }))
            );
        }
        assert!(
            cases(crate::registry::find("velha").unwrap(), false)
                .iter()
                .any(|c| c.hidden)
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
}
