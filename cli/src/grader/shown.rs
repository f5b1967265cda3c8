//! How text a student or a program wrote is shown in the reports: no
//! terminal control, no spreadsheet formula, no markup. Used by the class
//! report, the similarity report, the LMS files and the terminal; the
//! reports themselves are `report.rs` and `similarity.rs`.

/// A CSV cell no spreadsheet runs as a formula (OWASP's rule: a cell that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
/// leading `'`), quoted when it holds a separator, a quote or a line break.
pub(crate) fn csv_field(text: &str) -> String {
    let text = formula_safe(text);
    if text.contains([',', '"', '\n', '\r', ';']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// `text` as no spreadsheet runs it as a formula: with a leading `'` when
/// it starts with `=`, `+`, `-`, `@`, a tab or a carriage return.
pub(crate) fn formula_safe(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// Whether `c` may not be shown as it is: a control character other than
/// a line break or a tab (ESC, NUL...), a character XML 1.0 refuses (U+FFFE,
/// U+FFFF: one would make a class's `junit.xml` unreadable), another
/// non-character, or a bidirectional control that reorders what is read.
fn unshowable(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{fdd0}'..='\u{fdef}')
        || (c as u32 & 0xfffe) == 0xfffe
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Text a program printed, made safe for every report and terminal: what
/// [`unshowable`] says shown as `\u{..}`.
pub(crate) fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if unshowable(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` made printable, then escaped for HTML (text and attributes).
pub(crate) fn escape(text: &str) -> String {
    printable(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
