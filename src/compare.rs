//! One comparison everywhere (SPEC 5.1): a program's transcript against the
//! expected one, by the graded events its level declares, with the first
//! difference shown as expected against actual.
//!
//! Shipped with every starter: the starter's tests, the kit's tests and the
//! grader all call [`compare`].

use crate::level::EventsFn;

/// `Ok` when `actual` has the same graded events as `expected`, and ends in
/// failure exactly when it must (input that ends before the game does).
/// Otherwise, what differs first.
pub fn compare(
    events: EventsFn,
    expected: &str,
    expected_failed: bool,
    actual: &str,
    actual_failed: bool,
) -> Result<(), String> {
    if let Some(difference) = first_difference(&events(expected), &events(actual)) {
        return Err(difference);
    }
    match (expected_failed, actual_failed) {
        (true, false) => Err(
            "input ended before the game did: the program must end with a non-zero exit status"
                .into(),
        ),
        (false, true) => Err("the program failed (non-zero exit status) after a whole game".into()),
        _ => Ok(()),
    }
}

/// The first difference between two lists of events, as expected and actual
/// blocks with a little context; `None` when they are equal.
pub fn first_difference(expected: &[String], actual: &[String]) -> Option<String> {
    let at = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn equal_events_pass_and_a_missing_failure_is_reported() {
        assert!(compare(lines, "a\nb", false, "a\nb", false).is_ok());
        assert!(compare(lines, "a", true, "a", false).is_err());
        assert!(compare(lines, "a", false, "a", true).is_err());
        let difference = compare(lines, "a\nb", false, "a\nc", false).unwrap_err();
        assert!(difference.contains(">   2 | b") && difference.contains(">   2 | c"));
        assert!(
            compare(lines, "a\nb", false, "a", false)
                .unwrap_err()
                .contains("(nothing more)")
        );
    }
}
