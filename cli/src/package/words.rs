//! A package starter's own words (its README, its tests' docs and
//! failure messages, its own tests' example), in its statement's locale:
//! the kit's catalogue (`exercises/locales/<locale>.toml`, its
//! `package_*` texts), English where the kit has none. A message the
//! generated code prints is written into a string literal, escaped, its
//! placeholders turned into the language's own.

use crate::exercise_data::StarterTexts;

/// The words of one locale.
pub(crate) struct Words {
    texts: Option<StarterTexts>,
    pub locale: String,
}

/// A placeholder's stand-in while a text is escaped: no character any
/// escaping changes.
fn mark(name: &str) -> String {
    format!("\u{1}{name}\u{1}")
}

impl Words {
    pub(crate) fn of(locale: &str) -> Words {
        Words {
            texts: StarterTexts::of(Some(locale)).ok(),
            locale: locale.to_owned(),
        }
    }

    /// The text of `key`, its `{placeholders}` filled from `values`.
    pub(crate) fn text(&self, key: &str, values: &[(&str, &str)]) -> String {
        self.texts
            .as_ref()
            .map(|t| t.text(key, values))
            .unwrap_or_default()
    }

    /// `tests/locale.toml` for a starter in this locale, when the kit
    /// speaks it: what `boardkit test` and watch mode say there.
    pub(crate) fn catalogue_file(&self, name: &str, python: bool) -> Option<String> {
        let speaks = crate::exercise_data::catalogue(&self.locale).is_ok_and(|t| !t.is_empty());
        (self.locale != "en" && speaks)
            .then(|| self.texts.as_ref().map(|t| t.locale_toml(name, python)))
            .flatten()
    }

    /// The message `key` as the inside of a Rust `format!` literal, each
    /// of `holes` (its placeholder, then the Rust that fills it, such as
    /// `{got:?}`) in place.
    pub(crate) fn rust_format(&self, key: &str, holes: &[(&str, &str)]) -> String {
        self.literal(key, holes, |text| {
            quoted(text).replace('{', "{{").replace('}', "}}")
        })
    }

    /// The message `key` as the inside of a Python `"..." % (...)`
    /// literal, each of `holes` (its placeholder, then `%s` or `%r`) in
    /// place.
    pub(crate) fn python_format(&self, key: &str, holes: &[(&str, &str)]) -> String {
        self.literal(key, holes, |text| quoted(text).replace('%', "%%"))
    }

    /// The message `key`, escaped by `escape` for a string literal, each
    /// of `holes` filled after the escaping (so the filling stays code).
    fn literal(
        &self,
        key: &str,
        holes: &[(&str, &str)],
        escape: impl Fn(&str) -> String,
    ) -> String {
        let marks: Vec<String> = holes.iter().map(|(n, _)| mark(n)).collect();
        let values: Vec<(&str, &str)> = holes
            .iter()
            .zip(&marks)
            .map(|((n, _), m)| (*n, m.as_str()))
            .collect();
        let mut out = escape(&self.text(key, &values));
        for ((_, filled), marked) in holes.iter().zip(&marks) {
            out = out.replace(marked.as_str(), filled);
        }
        out
    }
}

/// `text` inside a double-quoted literal of Rust or Python.
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// `text` in lines of at most `width` characters, each after `prefix`.
pub(crate) fn wrapped(text: &str, prefix: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&format!("{prefix}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{prefix}{line}\n"));
    }
    out
}
