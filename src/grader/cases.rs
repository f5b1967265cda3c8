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
    /// The reference's stdout, and whether it ended in failure (input ended early).
    Program { stdout: String, failed: bool },
    /// The answers accepted for each request (any best move, say).
    Answers(Vec<Vec<String>>),
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

/// Runs the reference game on `args` and `stdin`; returns its stdout and
/// whether it failed.
pub fn reference_program(game: &GameInfo, args: &[String], stdin: &[u8]) -> (String, bool) {
    let mut input: &[u8] = stdin;
    let mut output = Vec::new();
    let result = (game.play)(args, &mut input, &mut output, false);
    (
        String::from_utf8_lossy(&output).into_owned(),
        result.is_err(),
    )
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
        let (stdout, failed) = reference_program(game, &fixture.args, &stdin);
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
            expected: Expected::Program { stdout, failed },
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
}
