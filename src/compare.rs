//! One comparison everywhere (SPEC 5.1): a program's transcript against the
//! expected one, by the graded events its level declares, with the first
//! difference shown as expected against actual.
//!
//! Shipped with every starter: the starter's tests, the kit's tests and the
//! grader all call [`compare`].

use crate::catalogue::{f, t};
use crate::level::EventsFn;

/// The words this module adds to a difference, in one place, as the
/// starter's catalogue says them.
mod words {
    use super::{NearMiss, clipped_line};
    use crate::catalogue::f;

    /// A near miss: what was printed, on which line when other text shares
    /// it (a prompt), and the statement's line.
    pub(super) fn you_printed(near: &NearMiss, statement: &str) -> String {
        let (printed, statement) = (clipped_line(&near.printed), clipped_line(statement));
        if near.printed == near.line {
            f(
                "you printed `{printed}`; the statement's line is `{statement}`",
                &[("printed", &printed), ("statement", &statement)],
            ) + "\n"
        } else {
            let line = clipped_line(&near.line);
            f(
                "you printed `{printed}` (on the line `{line}`); the statement's line is `{statement}`",
                &[
                    ("printed", &printed),
                    ("line", &line),
                    ("statement", &statement),
                ],
            ) + "\n"
        }
    }
}

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
    if let Some(mut text) = first_difference(&expected_events, &actual_events) {
        let at = first_index(&expected_events, &actual_events);
        // Its graded events ended there: what it printed after them (a
        // result line of the wrong form, say) is what the student must see.
        if at.is_some_and(|at| at >= actual_events.len()) {
            let rest = &actual[events_end(events, actual, actual_events.len())..];
            let lines: Vec<&str> = rest.lines().filter(|l| !l.trim().is_empty()).collect();
            if !lines.is_empty() {
                text.push_str(t("--- what it printed after its last graded event ---"));
                text.push('\n');
                for line in lines.iter().take(6) {
                    text.push_str(&format!("      | {line}\n"));
                }
                if lines.len() > 6 {
                    let more = f("... ({count} more lines)", &[("count", &(lines.len() - 6))]);
                    text.push_str(&format!("      | {more}\n"));
                }
            }
        }
        if let Some(line) = at.and_then(|at| expected_events.get(at)) {
            if let Some(near) = near_miss(events, line, actual) {
                text.push_str(&words::you_printed(&near, line));
            }
        }
        return Err(Difference { event: at, text });
    }
    let ending = |text: &str| {
        Err(Difference {
            event: None,
            text: text.to_owned(),
        })
    };
    match (expected_failed, actual_failed) {
        (true, false) => ending(t(
            "input ended before the game did: the program must end with a non-zero exit status",
        )),
        // The statements set no exit status for a game that ended: a
        // whole, correct game passes whatever its status (a panic or a
        // traceback after it is still a crash, judged on stderr).
        _ => Ok(()),
    }
}

/// "you printed `...`; the statement's line is `...`": a near miss said
/// as every difference says it, for a grader that finds its own.
pub fn you_printed(near: &NearMiss, statement: &str) -> String {
    words::you_printed(near, statement)
}

/// A near miss: what a program printed close to a graded line, and the
/// whole line it printed it on (the same when nothing else shares it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearMiss {
    pub printed: String,
    pub line: String,
}

/// The most bytes of one line, and of a whole transcript, searched inside
/// for a near miss: a flood of short words stays fast (whole lines are
/// still compared beyond).
const SEARCHED_LINE: usize = 4096;
const SEARCHED_TOTAL: usize = 64 * 1024;

/// A part of a line of `actual` close to the graded line `expected`
/// without being it, wherever it stands on its line (after a prompt
/// printed without a newline, before other text): the same letters apart
/// from accents, case, punctuation or spacing (`Posicao invalida` for
/// `Posição inválida`), or a letter or two apart when that part holds no
/// graded event of its own (a misspelt result, not another result).
/// `None` for boards, and when no line holds such a part.
pub fn near_miss(events: EventsFn, expected: &str, actual: &str) -> Option<NearMiss> {
    if expected.contains('\n') || expected.starts_with("board ") {
        return None;
    }
    let want = folded(expected);
    if want.is_empty() {
        return None;
    }
    // Lines without a word (a connect-four board's row) are only ever
    // compared whole: their letters would be found in any board.
    let has_word = expected
        .split(|c: char| !c.is_alphabetic())
        .any(|w| w.chars().count() >= 3);
    let slack = (want.chars().count() / 8).max(1);
    let mut budget = SEARCHED_TOTAL;
    actual
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .find_map(|line| {
            // It printed the graded line itself there: no miss.
            if events(line).iter().any(|e| e == expected) {
                return None;
            }
            let inside = has_word && budget > 0;
            let searched = if inside {
                start_of_at(line, SEARCHED_LINE)
            } else {
                line
            };
            budget = budget.saturating_sub(searched.len());
            let (part, distance) = closest_part(searched, &want, slack, inside)?;
            let close = distance == 0 || (distance <= slack && events(part).is_empty());
            close.then(|| NearMiss {
                printed: part.to_owned(),
                line: line.to_owned(),
            })
        })
}

/// The run of words of `line` (the whole line, or any run when `inside`)
/// whose letters are closest to `want`, at most `slack` edits away: the
/// longest of the closest, so that a part of a graded event is judged with
/// the event it belongs to. A run ends with the punctuation stuck to its
/// last word (`EMPATE!`).
fn closest_part<'a>(
    line: &'a str,
    want: &str,
    slack: usize,
    inside: bool,
) -> Option<(&'a str, usize)> {
    // Each word: where it starts, where it ends with its punctuation, its letters.
    let mut words: Vec<(usize, usize, String)> = Vec::new();
    let mut start = None;
    for (at, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                words.push((from, at, folded(&line[from..at])));
                start = None;
            }
            _ => {}
        }
    }
    for word in &mut words {
        let rest = &line[word.1..];
        word.1 += rest
            .find(|c: char| c.is_whitespace() || c.is_alphanumeric())
            .unwrap_or(rest.len());
    }
    let wanted = want.chars().count();
    let mut best: Option<(usize, usize, usize)> = None;
    for first in 0..words.len() {
        if !inside && first > 0 {
            break;
        }
        let mut letters = String::new();
        for last in first..words.len() {
            letters.push_str(&words[last].2);
            let count = letters.chars().count();
            if count > wanted + slack {
                break;
            }
            if (!inside && last + 1 < words.len()) || count + slack < wanted {
                continue;
            }
            let Some(distance) = distance_within(&letters, want, slack) else {
                continue;
            };
            let span = words[last].1 - words[first].0;
            if best.is_none_or(|(d, from, to)| {
                (distance, usize::MAX - span) < (d, usize::MAX - (to - from))
            }) {
                best = Some((distance, words[first].0, words[last].1));
            }
        }
    }
    best.map(|(distance, from, to)| (line[from..to].trim_end(), distance))
}

/// The edit distance between `a` and `b` when it is at most `limit`: rows
/// stop as soon as every cell is past it.
fn distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
        if row.iter().all(|&d| d > limit) {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= limit)
}

/// The first `bytes` bytes of `line` at most, at a character's boundary.
fn start_of_at(line: &str, bytes: usize) -> &str {
    let mut end = bytes.min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[..end]
}

/// A line's letters and digits, lower case and without accents: what a
/// near miss keeps. Accents are folded by a table of the letters the
/// kit's languages write (Portuguese, French): a student's line is short,
/// and a Unicode normalisation crate would weigh on every starter's build.
fn folded(line: &str) -> String {
    line.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            'ÿ' => 'y',
            other => other,
        })
        .collect()
}

/// The widest line shown side by side; wider events are shown one block
/// above the other.
const SIDE_WIDTH: usize = 36;

/// Expected and actual events around `at` in two columns, each event's
/// lines beside the other's (a board beside a board), when they are narrow.
fn side_by_side(expected: &[String], actual: &[String], at: usize) -> Option<String> {
    let window = at.saturating_sub(3)..at + 3;
    let lines = |items: &[String], i: usize| -> Vec<String> {
        match items.get(i) {
            Some(item) => item.lines().map(str::to_owned).collect(),
            None if i == at => vec![t("(nothing more)").to_owned()],
            None => Vec::new(),
        }
    };
    let narrow = window.clone().all(|i| {
        lines(expected, i)
            .iter()
            .chain(&lines(actual, i))
            .all(|l| l.chars().count() <= SIDE_WIDTH)
    });
    if !narrow {
        return None;
    }
    let width = SIDE_WIDTH + 7;
    let mut out = f(
        "first difference at graded event {number}",
        &[("number", &(at + 1))],
    );
    out.push_str(&format!(
        "\n{:<width$}   {}\n",
        t("--- expected ---"),
        t("--- actual ---")
    ));
    for i in window {
        let (left, right) = (lines(expected, i), lines(actual, i));
        let mark = if i == at { '>' } else { ' ' };
        for k in 0..left.len().max(right.len()) {
            let number = if k == 0 {
                format!("{:>4}", i + 1)
            } else {
                "    ".to_owned()
            };
            let cell = |side: &[String]| match side.get(k) {
                Some(line) => format!("{mark}{number} | {line}"),
                None => String::new(),
            };
            let row = format!("{:<width$}   {}", cell(&left), cell(&right));
            out.push_str(row.trim_end());
            out.push('\n');
        }
    }
    Some(out)
}

/// An event as a student reads it: a board (`board X../.O./...`, its rows
/// from the top) drawn as its grid, a row a line, `.` for an empty cell.
fn shown_event(event: &str) -> String {
    match event.strip_prefix("board ") {
        Some(rows) if rows.contains('/') => rows
            .split('/')
            .map(|row| row.chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => event.to_owned(),
    }
}

fn first_index(expected: &[String], actual: &[String]) -> Option<usize> {
    (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i))
}

/// The first difference between two lists of events, as expected and actual
/// blocks with a little context; `None` when they are equal.
pub fn first_difference(expected: &[String], actual: &[String]) -> Option<String> {
    let at = first_index(expected, actual)?;
    let expected: Vec<String> = expected.iter().map(|e| shown_event(e)).collect();
    let actual: Vec<String> = actual.iter().map(|e| shown_event(e)).collect();
    let (expected, actual) = (expected.as_slice(), actual.as_slice());
    if let Some(text) = side_by_side(expected, actual, at) {
        return Some(text);
    }
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
            out.push_str(&format!(">{:>4} | {}\n", at + 1, t("(nothing more)")));
        }
        out
    };
    Some(format!(
        "{}\n{}\n{}{}\n{}",
        f(
            "first difference at graded event {number}",
            &[("number", &(at + 1))]
        ),
        t("--- expected ---"),
        block(expected),
        t("--- actual ---"),
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

/// The byte offset in `transcript` just after the fewest whole lines that
/// hold its first `count` graded events, each as the whole transcript reads
/// it (0 for none; its length when it has fewer).
pub fn events_end(events: EventsFn, transcript: &str, count: usize) -> usize {
    if count == 0 {
        return 0;
    }
    let ends: Vec<usize> = transcript
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain((!transcript.ends_with('\n')).then_some(transcript.len()))
        .collect();
    // Whole events: a board is only one once all its lines are read.
    let whole = events(transcript);
    if count > whole.len() {
        return transcript.len();
    }
    let wanted = &whole[..count];
    let index = ends.partition_point(|&end| {
        let so_far = events(&transcript[..end]);
        so_far.len() < wanted.len() || so_far[..wanted.len()] != *wanted
    });
    ends.get(index).copied().unwrap_or(transcript.len())
}

/// A program's reads, in order: `(input bytes read so far, output bytes
/// written so far)` at each read. Tells which input line an output line
/// answers. The grader traces the reference's as it runs a case; a
/// starter's snapshots carry them (a `reads:` line in their header), so
/// that a local test names the input line the grader names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads(pub Vec<(usize, usize)>);

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
        line_holding(stdin, read)
    }

    /// The input line the program read next once it had written `output`
    /// bytes: what a program that stopped there was answering when it
    /// stopped; with how much it had written when it read it. `None` when
    /// it read nothing more.
    pub fn line_read_at(&self, stdin: &[u8], output: usize) -> Option<(usize, String, usize)> {
        let (read, written) = self
            .0
            .iter()
            .find(|(_, written)| *written >= output)
            .filter(|(read, _)| *read > 0)?;
        let (number, line) = line_holding(stdin, *read)?;
        Some((number, line, *written))
    }

    /// The input that led to `difference` between the `expected`
    /// transcript (the one these reads were traced on) and a program's, for
    /// people: the input line and the lines typed up to it. For a program
    /// that `stopped` (crashed, ended early, ran out of time), the line it
    /// was answering: the one the reference read next after the last graded
    /// event the program got right.
    pub fn locate(
        &self,
        events: EventsFn,
        expected: &str,
        stdin: &[u8],
        difference: &Difference,
        stopped: bool,
    ) -> String {
        let (input, number) = if let (true, Some(event)) = (stopped, difference.event) {
            let right = events_end(events, expected, event);
            let missed = event_start(events, expected, event);
            match self.line_read_at(stdin, right) {
                // What it missed comes before that line is read: it
                // stopped before reading it (the title, say).
                Some((1, _, written)) if missed < written => {
                    (t("before any input was read").to_owned(), 0)
                }
                Some((number, _, written)) if missed < written => (
                    f(
                        "before input line {number} was read",
                        &[("number", &number)],
                    ),
                    number - 1,
                ),
                Some((number, line, _)) => (
                    f(
                        "on input line {number}: {line}",
                        &[("number", &number), ("line", &shown_line(&line))],
                    ),
                    number,
                ),
                None => (t("after the last input line").to_owned(), usize::MAX),
            }
        } else {
            let at = match difference.event {
                Some(event) => event_start(events, expected, event),
                None => expected.len(),
            };
            match self.line_before(stdin, at) {
                Some((number, line)) => (
                    f(
                        "after input line {number}: {line}",
                        &[("number", &number), ("line", &shown_line(&line))],
                    ),
                    number,
                ),
                None => (t("before any input was read").to_owned(), 0),
            }
        };
        // The moves that led there, as typed.
        let typed = String::from_utf8_lossy(stdin);
        let lines: Vec<String> = typed.lines().take(number).map(clipped_line).collect();
        let moves = match lines.len() {
            0 => String::new(),
            n if n <= 20 => format!(
                "\n{}",
                f(
                    "the input up to there: {moves}",
                    &[("moves", &lines.join(" · "))]
                )
            ),
            n => format!(
                "\n{}",
                f(
                    "the input up to there ({count} lines, the last 20): … {moves}",
                    &[("count", &n), ("moves", &lines[n - 20..].join(" · "))],
                )
            ),
        };
        format!("{input}{moves}")
    }
}

/// The most bytes of one input line a student is shown.
const LINE_SHOWN: usize = 200;

/// An input line as a failure quotes it: whole when short, else its start
/// and its length (a megabyte line is one of the robustness cases).
fn shown_line(line: &str) -> String {
    if line.len() <= LINE_SHOWN {
        return format!("{line:?}");
    }
    format!(
        "{:?}… {}",
        start_of(line),
        f("({bytes} bytes)", &[("bytes", &line.len())])
    )
}

/// An input line as the moves up to a failure list it: clipped as
/// [`shown_line`] clips it, unquoted.
pub fn clipped_line(line: &str) -> String {
    if line.len() <= LINE_SHOWN {
        return line.to_owned();
    }
    format!(
        "{}… {}",
        start_of(line),
        f("({bytes} bytes)", &[("bytes", &line.len())])
    )
}

/// The first [`LINE_SHOWN`] bytes of `line`, at a character's boundary.
fn start_of(line: &str) -> &str {
    let mut end = LINE_SHOWN.min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[..end]
}

/// As a snapshot's header holds them: `read:written` pairs, space-separated.
impl std::fmt::Display for Reads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (read, written)) in self.0.iter().enumerate() {
            let space = if i == 0 { "" } else { " " };
            write!(f, "{space}{read}:{written}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Reads {
    type Err = std::num::ParseIntError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.split_whitespace()
            .map(|pair| {
                let (read, written) = pair.split_once(':').unwrap_or((pair, ""));
                Ok((read.parse()?, written.parse()?))
            })
            .collect::<Result<_, _>>()
            .map(Reads)
    }
}

/// The line of `stdin` holding its byte `read - 1` (the last of `read`
/// bytes read): its number (from 1) and its text, cut short when long.
fn line_holding(stdin: &[u8], read: usize) -> Option<(usize, String)> {
    if stdin.is_empty() {
        return None;
    }
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
        shown.push_str(&format!(
            "... {}",
            f("({bytes} bytes)", &[("bytes", &(end - start))])
        ));
    }
    Some((number, shown))
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
    let Some(at) = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last):"))
    else {
        return syntax_error(&lines);
    };
    // Where it was raised and what: the last frame and the exception.
    let traceback = &lines[at..];
    Some(traceback[traceback.len().saturating_sub(6)..].join("\n"))
}

/// A program Python could not read: its main file's syntax error comes
/// with no traceback, only the place (`File "programa.py", line 3`), the
/// line and its caret, and the error.
fn syntax_error(lines: &[&str]) -> Option<String> {
    let kinds = ["SyntaxError:", "IndentationError:", "TabError:"];
    let error = lines
        .iter()
        .rposition(|l| kinds.iter().any(|kind| l.starts_with(kind)))?;
    let place = lines[..error]
        .iter()
        .rposition(|l| l.trim_start().starts_with("File \""))?;
    Some(lines[place..=error].join("\n"))
}

/// A signal by its name, as a student looks it up: `SIGABRT`. The numbers
/// POSIX fixes, and Linux's or macOS's for the rest: no `libc`, so a
/// starter builds on Windows too (where no signal ends a program).
pub fn signal_name(signal: i32) -> String {
    #[cfg(target_os = "linux")]
    const OWN: [(i32, &str); 2] = [(7, "SIGBUS"), (31, "SIGSYS")];
    #[cfg(not(target_os = "linux"))]
    const OWN: [(i32, &str); 2] = [(10, "SIGBUS"), (12, "SIGSYS")];
    let names = [
        (1, "SIGHUP"),
        (2, "SIGINT"),
        (3, "SIGQUIT"),
        (4, "SIGILL"),
        (5, "SIGTRAP"),
        (6, "SIGABRT"),
        (8, "SIGFPE"),
        (9, "SIGKILL"),
        (11, "SIGSEGV"),
        (13, "SIGPIPE"),
        (14, "SIGALRM"),
        (15, "SIGTERM"),
        (24, "SIGXCPU"),
        (25, "SIGXFSZ"),
    ];
    names
        .iter()
        .chain(OWN.iter())
        .find(|(number, _)| *number == signal)
        .map_or_else(
            || f("signal {signal}", &[("signal", &signal)]),
            |(_, name)| (*name).to_owned(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_close_to_a_graded_line_is_named() {
        let velha = crate::harness::velha::events;
        let near = |expected, actual| near_miss(velha, expected, actual);
        assert_eq!(
            near("Posição inválida", "Jogador X:\nPosicao invalida\n")
                .map(|n| n.printed)
                .as_deref(),
            Some("Posicao invalida")
        );
        assert_eq!(
            near("Empate", "EMPATE!\n").map(|n| n.printed).as_deref(),
            Some("EMPATE!")
        );
        assert_eq!(
            near("Posição ocupada", "Posiçao ocupda\n")
                .map(|n| n.printed)
                .as_deref(),
            Some("Posiçao ocupda")
        );
        // Another result is not a misspelt one; a prompt is not close.
        assert_eq!(near("Vencedor: X", "Vencedor: O\n"), None);
        assert_eq!(near("Empate", "Jogador O:\n"), None);
        assert_eq!(near("Posição inválida", "Posição inválida\n"), None);
        let expected = "Jogo da Velha\nPosição inválida\nEmpate\n";
        let actual = "Jogo da Velha\nPosicao invalida\nEmpate\n";
        let difference = compare(velha, expected, false, actual, false).unwrap_err();
        assert!(
            difference.text.contains(
                "you printed `Posicao invalida`; the statement's line is `Posição inválida`"
            ),
            "{difference}"
        );
        assert_eq!(distance_within("kitten", "sitting", 3), Some(3));
        assert_eq!(distance_within("kitten", "sitting", 2), None);
    }

    #[test]
    fn a_near_miss_after_a_prompt_on_its_line_is_named() {
        let velha = crate::harness::velha::events;
        let near = |expected, actual| near_miss(velha, expected, actual);
        // The example: a prompt without a newline, then the
        // misspelt message on the same line.
        let found = near(
            "Posição inválida",
            "Jogo da Velha\nJogador X, sua jogada: Posição invalida\n",
        )
        .unwrap();
        assert_eq!(found.printed, "Posição invalida");
        assert_eq!(found.line, "Jogador X, sua jogada: Posição invalida");
        // Python's `input("...")` glued to a typo, and a prompt with no space.
        assert_eq!(
            near("Posição ocupada", "Jogada:Posiçao ocupda\n").map(|n| n.printed),
            Some("Posiçao ocupda".to_owned())
        );
        // Anywhere on its line: before a prompt printed after it.
        assert_eq!(
            near("Empate", "Deu EMPATE! Jogador O, sua jogada: \n").map(|n| n.printed),
            Some("EMPATE!".to_owned())
        );
        // A result glued to a prompt is another result, not a misspelt one;
        // a prompt alone is not close; a line that holds the graded line
        // printed right is no near miss.
        assert_eq!(
            near("Vencedor: X", "Jogador O, sua jogada: Vencedor: O\n"),
            None
        );
        assert_eq!(near("Posição inválida", "Jogador X, sua jogada: \n"), None);
        assert_eq!(
            near("Posição inválida", "Jogador X: Posição inválida\n"),
            None
        );
        // A line holding another graded event is not cut down to look like
        // the expected one (`black, 2 white` of `2 black, 2 white`).
        let mastermind = crate::harness::mastermind::events;
        assert!(
            near_miss(
                mastermind,
                "1 black, 2 white",
                "Guess 1: 2 black, 2 white\n"
            )
            .is_none()
        );
        assert_eq!(
            near_miss(mastermind, "1 black, 2 white", "Guess 1: 1 black 2 white\n")
                .map(|n| n.printed),
            Some("1 black 2 white".to_owned())
        );
        // Board lines are no words: not looked for inside other lines.
        let connect4 = crate::harness::connect4::events;
        assert!(near_miss(connect4, "|X|O| | | | | |", "|X|O|X|O| | | |\n").is_none());
        // Through the one judge: the diff names the line after the prompt.
        let expected = "Jogo da Velha\nPosição inválida\nEmpate\n";
        let actual = "Jogo da Velha\nJogador X, sua jogada: Posição invalida\nEmpate\n";
        let difference = compare(velha, expected, false, actual, false).unwrap_err();
        assert!(
            difference.text.contains(
                "you printed `Posição invalida` (on the line `Jogador X, sua jogada: Posição invalida`); the statement's line is `Posição inválida`"
            ),
            "{difference}"
        );
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn boards_are_shown_side_by_side() {
        let difference = compare(
            pairs,
            "x..\n...\nx..\n.o.\n",
            false,
            "x..\n...\nx..\no..\n",
            false,
        )
        .unwrap_err()
        .text;
        let rows: Vec<&str> = difference.lines().collect();
        assert_eq!(
            rows[1].split_whitespace().collect::<Vec<_>>(),
            ["---", "expected", "---", "---", "actual", "---"]
        );
        assert!(
            rows[2].starts_with("    1 | x..") && rows[2].ends_with("    1 | x.."),
            "{difference}"
        );
        assert!(
            rows[4].starts_with(">   2 | x..") && rows[4].ends_with(">   2 | x.."),
            "{difference}"
        );
        assert!(
            rows[5].starts_with(">     | .o.") && rows[5].ends_with(">     | o.."),
            "{difference}"
        );
    }

    #[test]
    fn a_line_that_is_no_event_is_shown_not_called_nothing() {
        // Events: lines starting with "Vencedor: ".
        fn results(text: &str) -> Vec<String> {
            text.lines()
                .filter(|l| l.starts_with("Vencedor: ") || l.starts_with("board"))
                .map(str::to_owned)
                .collect()
        }
        let difference = compare(
            results,
            "board 1\nVencedor: X\n",
            false,
            "board 1\nprompt> Vencedor X!\n",
            false,
        )
        .unwrap_err();
        assert!(difference.text.contains("(nothing more)"), "{difference}");
        assert!(
            difference.text.contains(
                "--- what it printed after its last graded event ---\n      | prompt> Vencedor X!\n"
            ),
            "{difference}"
        );
        // And the result it misspelt after its prompt, named.
        assert!(
            difference.text.ends_with(
                "you printed `Vencedor X!` (on the line `prompt> Vencedor X!`); the statement's line is `Vencedor: X`\n"
            ),
            "{difference}"
        );
    }

    #[test]
    fn the_end_of_the_first_events_is_found() {
        let text = "a\nfree\nb\nfree";
        assert_eq!(events_end(lines_a_b, text, 0), 0);
        assert_eq!(events_end(lines_a_b, text, 1), 2);
        assert_eq!(events_end(lines_a_b, text, 2), 9);
        assert_eq!(events_end(lines_a_b, text, 3), text.len());
    }

    fn lines_a_b(text: &str) -> Vec<String> {
        text.lines()
            .filter(|l| *l == "a" || *l == "b")
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn equal_events_pass_and_a_missing_failure_is_reported() {
        assert!(compare(lines, "a\nb", false, "a\nb", false).is_ok());
        assert_eq!(
            compare(lines, "a", true, "a", false).unwrap_err().event,
            None
        );
        // A finished game's exit status is not graded.
        assert!(compare(lines, "a", false, "a", true).is_ok());
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
        // A main file Python cannot read: no traceback, still a crash.
        let syntax = "  File \"/sandbox/programa.py\", line 3\n    if x\n        ^\nSyntaxError: expected ':'\n";
        let message = crash_message(syntax).unwrap();
        assert!(
            message.starts_with("  File \"/sandbox/programa.py\", line 3"),
            "{message}"
        );
        assert!(message.ends_with("SyntaxError: expected ':'"), "{message}");
        assert_eq!(
            crash_message("SyntaxError: a message of the game's own\n"),
            None
        );
    }

    /// A program that prints a title, then `got <line>` for each line it
    /// reads: its reads, as the grader traces them.
    fn echo() -> (Reads, &'static [u8], &'static str) {
        let reads = "2:6 4:12 6:18".parse().unwrap();
        (reads, b"A\nB\nC\n", "title\ngot A\ngot B\ngot C\n")
    }

    #[test]
    fn reads_read_back_as_a_snapshot_header_holds_them() {
        let (reads, _, _) = echo();
        assert_eq!(reads, Reads(vec![(2, 6), (4, 12), (6, 18)]));
        assert_eq!(reads.to_string().parse::<Reads>().unwrap(), reads);
        assert!("2:6 4".parse::<Reads>().is_err());
    }

    #[test]
    fn a_difference_names_the_input_line_that_led_to_it() {
        let (reads, stdin, expected) = echo();
        let locate = |actual: &str, failed: bool| {
            let difference = compare(lines, expected, false, actual, failed).unwrap_err();
            reads.locate(lines, expected, stdin, &difference, failed)
        };
        // Stopped after answering A: it was answering B.
        assert_eq!(
            locate("title\ngot A\n", true),
            "on input line 2: \"B\"\nthe input up to there: A · B"
        );
        // Stopped before its title: before reading anything.
        assert_eq!(locate("", true), "before any input was read");
        // A wrong answer to B: after reading it.
        assert_eq!(
            locate("title\ngot A\ngot X\ngot C\n", false),
            "after input line 2: \"B\"\nthe input up to there: A · B"
        );
        // A whole game that exits non-zero is no difference: the
        // statements set no status for a finished game.
        assert!(compare(lines, expected, false, expected, true).is_ok());
    }

    #[test]
    fn a_megabyte_line_is_quoted_by_its_start_and_its_length() {
        let long = "A".repeat(1 << 20);
        let stdin = format!("{long}\nB\nC\n");
        let reads: Reads = format!(
            "{}:6 {}:12 {}:18",
            long.len() + 1,
            long.len() + 3,
            long.len() + 5
        )
        .parse()
        .unwrap();
        let expected = "title\ngot A\ngot B\ngot C\n";
        let difference = compare(lines, expected, false, "title\ngot X\n", false).unwrap_err();
        let said = reads.locate(lines, expected, stdin.as_bytes(), &difference, false);
        assert!(said.len() < 600, "{} bytes", said.len());
        assert!(
            said.contains(&format!("… ({} bytes)", long.len())),
            "{said}"
        );
        assert_eq!(shown_line("B"), "\"B\"");
        assert_eq!(
            clipped_line(&"é".repeat(150)).len(),
            200 + "… (300 bytes)".len()
        );
    }
}
