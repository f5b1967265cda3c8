//! One comparison everywhere (SPEC 5.1): a program's transcript against the
//! expected one, by the graded events its level declares, with the first
//! difference shown as expected against actual.
//!
//! Shipped with every starter: the starter's tests, the kit's tests and the
//! grader all call [`compare`].

use crate::level::EventsFn;

/// Where an actual transcript first differs from the expected one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The index of the first graded event that differs; `None` when the
    /// events agree and only the ending (success or failure) does not.
    pub event: Option<usize>,
    /// Expected against actual, for people.
    pub text: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// `Ok` when `actual` has the same graded events as `expected`, and ends in
/// failure exactly when it must (input that ends before the game does).
/// Otherwise, what differs first.
pub fn compare(
    events: EventsFn,
    expected: &str,
    expected_failed: bool,
    actual: &str,
    actual_failed: bool,
) -> Result<(), Difference> {
    let (expected_events, actual_events) = (events(expected), events(actual));
    if let Some(text) = first_difference(&expected_events, &actual_events) {
        return Err(Difference {
            event: first_index(&expected_events, &actual_events),
            text,
        });
    }
    let ending = |text: &str| {
        Err(Difference {
            event: None,
            text: text.to_owned(),
        })
    };
    match (expected_failed, actual_failed) {
        (true, false) => ending(
            "input ended before the game did: the program must end with a non-zero exit status",
        ),
        (false, true) => ending("the program failed (non-zero exit status) after a whole game"),
        _ => Ok(()),
    }
}

fn first_index(expected: &[String], actual: &[String]) -> Option<usize> {
    (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))
}

/// The first difference between two lists of events, as expected and actual
/// blocks with a little context; `None` when they are equal.
pub fn first_difference(expected: &[String], actual: &[String]) -> Option<String> {
    let at = first_index(expected, actual)?;
    let block = |items: &[String]| {
        let first = at.saturating_sub(3);
        let mut out = String::new();
        for (i, item) in items.iter().enumerate().skip(first).take(at + 3 - first) {
            let mark = if i == at { '>' } else { ' ' };
            for (k, line) in item.lines().enumerate() {
                let number = if k == 0 {
                    format!("{:>4}", i + 1)
                } else {
                    "    ".to_owned()
                };
                out.push_str(&format!("{mark}{number} | {line}\n"));
            }
        }
        if at >= items.len() {
            out.push_str(&format!(">{:>4} | (nothing more)\n", at + 1));
        }
        out
    };
    Some(format!(
        "first difference at graded event {}\n--- expected ---\n{}--- actual ---\n{}",
        at + 1,
        block(expected),
        block(actual)
    ))
}

/// The byte offset in `transcript` of the line where its graded event
/// `index` begins (the transcript's length when it has fewer events).
pub fn event_start(events: EventsFn, transcript: &str, index: usize) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(transcript.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < transcript.len())
        .collect();
    // The fewest whole lines whose events reach `index`.
    let (mut low, mut high) = (1, starts.len() + 1);
    while low < high {
        let middle = (low + high) / 2;
        let end = starts.get(middle).copied().unwrap_or(transcript.len());
        if events(&transcript[..end]).len() > index {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    starts.get(low - 1).copied().unwrap_or(transcript.len())
}

/// What a crashed program said about it on stderr: a Rust panic's line and
/// message, or the tail of a Python traceback. `None` when stderr holds
/// neither.
pub fn crash_message(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().collect();
    if let Some(at) = lines.iter().position(|l| l.contains(" panicked at ")) {
        // The panic's line and its message, up to the backtrace's note.
        let message: Vec<&str> = lines[at..]
            .iter()
            .take(8)
            .take_while(|l| !l.starts_with("note: ") && !l.starts_with("stack backtrace:"))
            .copied()
            .collect();
        return Some(message.join("\n"));
    }
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last):"))?;
    // Where it was raised and what: the last frame and the exception.
    let traceback = &lines[at..];
    Some(traceback[traceback.len().saturating_sub(6)..].join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn equal_events_pass_and_a_missing_failure_is_reported() {
        assert!(compare(lines, "a\nb", false, "a\nb", false).is_ok());
        assert_eq!(
            compare(lines, "a", true, "a", false).unwrap_err().event,
            None
        );
        assert!(compare(lines, "a", false, "a", true).is_err());
        let difference = compare(lines, "a\nb", false, "a\nc", false).unwrap_err();
        assert_eq!(difference.event, Some(1));
        let difference = difference.text;
        assert!(difference.contains(">   2 | b") && difference.contains(">   2 | c"));
        assert!(
            compare(lines, "a\nb", false, "a", false)
                .unwrap_err()
                .text
                .contains("(nothing more)")
        );
    }

    /// Events of two lines each, as a board is.
    fn pairs(text: &str) -> Vec<String> {
        let lines: Vec<&str> = text.lines().collect();
        lines.chunks(2).map(|c| c.join("\n")).collect()
    }

    #[test]
    fn an_event_starts_on_its_first_line() {
        let text = "a\nb\nc\nd\ne\n";
        assert_eq!(event_start(lines, text, 0), 0);
        assert_eq!(event_start(lines, text, 2), 4);
        assert_eq!(event_start(lines, text, 9), text.len());
        assert_eq!(event_start(pairs, text, 1), 4);
        assert_eq!(event_start(pairs, text, 2), 8);
    }

    #[test]
    fn crashes_are_told_by_their_message() {
        let rust = "thread 'main' (7) panicked at src/velha/mod.rs:45:5:\n\
                    not yet implemented: jogar: see EXERCISE.md\n\
                    note: run with `RUST_BACKTRACE=1`\n";
        let message = crash_message(rust).unwrap();
        assert!(message.contains("mod.rs:45:5") && message.contains("not yet implemented: jogar"));
        assert!(!message.contains("RUST_BACKTRACE"));
        let python = "Traceback (most recent call last):\n  File \"p.py\", line 3, in <module>\n    f()\n  File \"p.py\", line 2, in f\n    x = 1 / 0\nZeroDivisionError: division by zero\n";
        let message = crash_message(python).unwrap();
        assert!(
            message.ends_with("ZeroDivisionError: division by zero"),
            "{message}"
        );
        assert!(message.contains("line 2"), "{message}");
        assert_eq!(crash_message("error: input ended\n"), None);
    }
}
