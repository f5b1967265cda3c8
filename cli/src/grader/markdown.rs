//! Text a student controls, made inert in Markdown as `escape` makes it
//! inert in HTML: their submission's name, their program's output, their
//! own tests' names and what pytest printed, the compiler's words about
//! their code. `feedback.md` is read on GitHub, in an LMS, in an editor's
//! preview: a link, an image or raw HTML there would run under the course's
//! name.
//!
//! Three forms, each proved by a CommonMark parser in the tests (a
//! property test feeds them any text):
//! - [`text`]: prose, every ASCII punctuation backslash-escaped (CommonMark
//!   allows that of each), line breaks folded to spaces;
//! - [`code`]: an inline code span, its fence longer than any run of
//!   backticks inside;
//! - [`block`]: a fenced block, likewise.

/// `s` as plain prose: no emphasis, link, image, HTML, heading or table
/// cell boundary can start in it.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 4);
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            // Control characters would end the line in some readers.
            c if c.is_control() => out.push(char::REPLACEMENT_CHARACTER),
            c => out.push(c),
        }
    }
    out
}

/// The longest run of backticks in `s`.
fn longest_backticks(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// `s` as an inline code span, on one line.
pub(crate) fn code(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let fence = "`".repeat(longest_backticks(&one_line) + 1);
    // A space each side keeps a leading or trailing backtick, or a span of
    // spaces, from joining the fence (CommonMark strips one of each).
    format!("{fence} {one_line} {fence}")
}

/// `s` as a fenced code block of `info` (a word: `text`), ending in a line
/// break.
pub(crate) fn block(s: &str, info: &str) -> String {
    let fence = "`".repeat((longest_backticks(s) + 1).max(3));
    let body = s.replace('\r', "");
    let body = body.strip_suffix('\n').unwrap_or(&body);
    format!("{fence}{info}\n{body}\n{fence}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use pulldown_cmark::{Event, Parser, Tag};

    /// Whether `markdown` holds anything live: a link, an image, HTML.
    fn live(markdown: &str) -> Vec<String> {
        Parser::new(markdown)
            .filter_map(|event| match event {
                Event::Start(Tag::Link { dest_url, .. }) => Some(format!("link {dest_url}")),
                Event::Start(Tag::Image { dest_url, .. }) => Some(format!("image {dest_url}")),
                Event::Html(h) | Event::InlineHtml(h) => Some(format!("html {h}")),
                Event::Start(Tag::Heading { .. }) => Some("heading".into()),
                _ => None,
            })
            .collect()
    }

    const HOSTILE: &str = "![x](https://evil.example/a.png) [link](https://evil.example) \
        <img src=x onerror=alert(1)> <https://evil.example> `tick` ``two`` *em* _u_ # h | cell";

    #[test]
    fn a_students_text_is_inert_in_every_form() {
        let in_text = format!("- a line: {}\n", text(HOSTILE));
        assert!(live(&in_text).is_empty(), "{in_text}: {:?}", live(&in_text));
        let in_code = format!("- a test: {}\n", code(HOSTILE));
        assert!(live(&in_code).is_empty(), "{in_code}");
        let in_block = format!("## case\n\n{}", block(HOSTILE, "text"));
        assert_eq!(live(&in_block), ["heading"], "{in_block}");
        // A test id holding backticks stays one code span, whole.
        let spans: Vec<String> = Parser::new(&code("test_`x`_``y``"))
            .filter_map(|e| match e {
                Event::Code(c) => Some(c.into_string()),
                _ => None,
            })
            .collect();
        assert_eq!(spans, ["test_`x`_``y``"]);
    }

    proptest! {
        #[test]
        fn any_text_reads_back_as_itself_and_nothing_live(s in "\\PC{0,60}") {
            let escaped = text(&s);
            prop_assert!(live(&escaped).is_empty(), "{:?}", escaped);
            let read: String = Parser::new(&escaped)
                .filter_map(|e| match e {
                    Event::Text(t) => Some(t.into_string()),
                    Event::SoftBreak => Some(" ".into()),
                    _ => None,
                })
                .collect();
            let expected: String = s.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
            prop_assert_eq!(read.trim(), expected.trim());
        }

        #[test]
        fn any_output_stays_inside_its_block(s in "(\\PC|\n|`{1,5}){0,80}") {
            let fenced = block(&s, "text");
            let events: Vec<Event<'_>> = Parser::new(&fenced).collect();
            let inside: String = events
                .iter()
                .filter_map(|e| match e {
                    Event::Text(t) => Some(t.to_string()),
                    _ => None,
                })
                .collect();
            let starts = events.iter().filter(|e| matches!(e, Event::Start(_))).count();
            prop_assert_eq!(starts, 1, "{:?}", fenced);
            let expected = s.strip_suffix('\n').unwrap_or(&s);
            prop_assert_eq!(inside.strip_suffix('\n').unwrap_or(&inside), expected);
        }

        #[test]
        fn any_name_is_one_code_span(s in "[^\\p{Cc}]{1,40}") {
            let spans: Vec<String> = Parser::new(&code(&s))
                .filter_map(|e| match e {
                    Event::Code(c) => Some(c.into_string()),
                    _ => None,
                })
                .collect();
            prop_assert_eq!(spans.len(), 1);
            prop_assert_eq!(spans[0].trim(), s.trim());
        }
    }
}
