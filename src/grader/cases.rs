//! The cases a submission is graded on, with their expected results.
//!
//! Program cases are the kit's fixtures (public and hidden), read from the
//! copy embedded in the binary, never from a submission. Function cases are
//! each game's driver requests. Expected results are computed here, in the
//! grader's process, by running the reference: a fixture's stdin through the
//! reference game, a request through the reference driver.

use crate::console::Console;
use crate::fixture::{Fixture, Visibility};
use crate::game::{Comparison, GameInfo, Graded, Level};

/// What a case runs.
#[derive(Debug, Clone)]
pub enum CaseKind {
    /// `play <game> <args>` with this stdin.
    Program { args: Vec<String>, stdin: Vec<u8> },
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
    pub comparison: Comparison,
    pub kind: CaseKind,
    pub expected: Expected,
}

/// The levels a run can grade: program levels always; function levels
/// unless only a program is given.
pub fn gradable_levels(game: &GameInfo, program_only: bool) -> Vec<Level> {
    game.levels
        .iter()
        .filter(|l| matches!(l.graded, Graded::Program) || !program_only)
        .map(|l| l.level)
        .collect()
}

/// Runs the reference game on `args` and `stdin`; returns its stdout and
/// whether it failed.
pub fn reference_program(game: &GameInfo, args: &[String], stdin: &[u8]) -> (String, bool) {
    let mut input: &[u8] = stdin;
    let mut output = Vec::new();
    let result = {
        let mut console = Console::new(&mut input, &mut output);
        (game.play)(args, &mut console, false)
    };
    (
        String::from_utf8_lossy(&output).into_owned(),
        result.is_err(),
    )
}

/// Every case of `game` at the levels this run grades.
pub fn cases(game: &GameInfo, program_only: bool) -> Vec<Case> {
    let levels = gradable_levels(game, program_only);
    let comparison = |level: Level| {
        game.level(level)
            .map_or(Comparison::Exact, |l| l.comparison)
    };
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
                comparison: Comparison::Exact,
                kind: CaseKind::Functions { requests },
                expected: Expected::Answers(accepted),
            });
        }
    }
    let prefix = format!("fixtures/{}/", game.id);
    let mut fixtures: Vec<Fixture> = crate::starter::KIT_FILES
        .iter()
        .filter(|(p, _)| p.starts_with(&prefix) && p.ends_with(".toml"))
        .filter_map(|(p, bytes)| {
            let name = p[prefix.len()..].trim_end_matches(".toml");
            Fixture::parse(std::str::from_utf8(bytes).ok()?, name, game.id).ok()
        })
        .filter(|f| levels.contains(&f.level))
        // Seeded sessions pin the reference's own random draws: a different
        // but correct computer player or secret would not match them. They
        // stay in the kit's tests; the grader checks computer players
        // through the driver (any best move, any legal column).
        .filter(|f| !f.args.iter().any(|a| a == "--seed" || a == "--ai"))
        .collect();
    fixtures.sort_by(|a, b| (a.level, &a.name).cmp(&(b.level, &b.name)));
    for fixture in fixtures {
        let stdin = fixture.stdin_bytes();
        let (stdout, failed) = reference_program(game, &fixture.args, &stdin);
        cases.push(Case {
            name: fixture.test_name(),
            level: fixture.level,
            points: fixture.points,
            hidden: fixture.visibility == Visibility::Hidden,
            description: fixture.description.clone(),
            comparison: comparison(fixture.level),
            kind: CaseKind::Program {
                args: fixture.args.clone(),
                stdin,
            },
            expected: Expected::Program { stdout, failed },
        });
    }
    cases
}

/// Lines for exact comparison: `\r\n` as `\n`, no trailing whitespace, no
/// trailing empty lines.
pub fn exact_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// The first difference between two sequences, as expected and actual
/// blocks with a little context; `None` when they are equal.
pub fn first_difference(expected: &[String], actual: &[String], what: &str) -> Option<String> {
    let at = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))?;
    let block = |items: &[String]| {
        let first = at.saturating_sub(3);
        let mut out = String::new();
        for (i, item) in items.iter().enumerate().skip(first).take(at + 3 - first) {
            out.push_str(&format!(
                "{}{:>4} | {item}\n",
                if i == at { '>' } else { ' ' },
                i + 1
            ));
        }
        if at >= items.len() {
            out.push_str(&format!(">{:>4} | (nothing more)\n", at + 1));
        }
        out
    };
    Some(format!(
        "first difference at {what} {}\n--- expected ---\n{}--- actual ---\n{}",
        at + 1,
        block(expected),
        block(actual)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_cases_and_hidden_ones_are_marked() {
        for game in crate::game::GAMES {
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
            cases(crate::game::find("velha").unwrap(), false)
                .iter()
                .any(|c| c.hidden)
        );
    }

    #[test]
    fn velha_events_accept_prompts_without_newline_and_missing_spaces() {
        let reference = "Jogo da Velha\n  1   2   3\n    |   |   \nA X |   |   \n ___|___|___\n    |   |   \nB   |   |   \n ___|___|___\n    |   |   \nC   |   |   \n    |   |   \nVencedor: X\n";
        let python = "Jogo da Velha\r\nSua vez:   1   2   3\r\n    |   |\r\nA X |   |\r\n ___|___|___\r\n    |   |\r\nB   |   |\r\n ___|___|___\r\n    |   |\r\nC   |   |\r\n    |   |\r\nJogada: Vencedor: X\r\n";
        let events = crate::velha::driver::events;
        assert_eq!(events(reference), events(python));
        assert_eq!(
            events(reference),
            vec!["title", "board X../.../...", "Vencedor: X"]
        );
    }
}
