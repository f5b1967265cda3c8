//! The words a student reads, in their starter's language: verdicts,
//! differences, limits, the level table, watch mode, own tests. One
//! catalogue per locale, as data (`exercises/locales/<locale>.toml` in the
//! kit, copied into a translated starter's `tests/locale.toml`), each
//! message keyed by its English text, as gettext keys them: the English
//! catalogue is the text the code writes, and a message a catalogue lacks
//! is said in English. The lines a program must print are the statement's,
//! never translated.
//!
//! Which catalogue speaks is set once per process, from the starter's
//! folder ([`use_folder`]): a starter's tests, its watch mode, and
//! `boardkit test` on a Python starter. The grader of a package speaks its
//! statement's locale ([`use_catalogue`]); of a built-in game, English.
//!
//! Shipped with every starter.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::path::Path;
use std::sync::OnceLock;

/// One locale's messages and case descriptions.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    /// English text to the locale's.
    messages: BTreeMap<String, String>,
    /// A case's English description to the locale's.
    descriptions: BTreeMap<String, String>,
    /// A level's English name (`basic`) to the locale's (`Básico`).
    level_names: BTreeMap<String, String>,
}

/// The catalogue of this process, once set.
static ACTIVE: OnceLock<Catalogue> = OnceLock::new();

impl Catalogue {
    /// Where a translated starter keeps its catalogue.
    pub const FILE: &'static str = "tests/locale.toml";

    /// A catalogue's text: its `[messages]` table, English key to the
    /// locale's text, and its `[descriptions]` (any tables below it: each
    /// game's). Unreadable text is no catalogue: English.
    pub fn parse(text: &str) -> Catalogue {
        text.parse::<toml::Table>()
            .map(|table| Catalogue::from_table(&table))
            .unwrap_or_default()
    }

    /// A catalogue's table, as [`Catalogue::parse`] reads it.
    pub fn from_table(table: &toml::Table) -> Catalogue {
        let mut catalogue = Catalogue::default();
        if let Some(messages) = table.get("messages").and_then(|m| m.as_table()) {
            for (english, own) in messages {
                if let Some(own) = own.as_str() {
                    catalogue.messages.insert(english.clone(), own.to_owned());
                }
            }
        }
        if let Some(names) = table.get("level_names").and_then(|n| n.as_table()) {
            for (level, own) in names {
                if let Some(own) = own.as_str() {
                    catalogue.level_names.insert(level.clone(), own.to_owned());
                }
            }
        }
        if let Some(games) = table.get("descriptions").and_then(|d| d.as_table()) {
            let tables = games.values().filter_map(|g| g.as_table());
            for (english, own) in tables.flatten() {
                if let Some(own) = own.as_str() {
                    catalogue
                        .descriptions
                        .insert(english.clone(), own.to_owned());
                }
            }
        }
        catalogue
    }

    /// The catalogue of the starter in `folder`: English when it has none.
    pub fn of_folder(folder: &Path) -> Catalogue {
        std::fs::read_to_string(folder.join(Catalogue::FILE))
            .map(|text| Catalogue::parse(&text))
            .unwrap_or_default()
    }

    /// `english` in this catalogue's locale.
    pub fn text<'a>(&'a self, english: &'a str) -> &'a str {
        self.messages.get(english).map_or(english, String::as_str)
    }

    /// `english` in this catalogue's locale, each `{name}` filled with its
    /// argument.
    pub fn fill(&self, english: &str, arguments: &[(&str, &dyn Display)]) -> String {
        fill(self.text(english), arguments)
    }

    /// A case's description (or another of a game's texts: a bug's name)
    /// in this catalogue's locale; one the kit lengthened (a Python exam's
    /// case, "... (only the inputs the exam promises)") as its known start
    /// and the rest as a message.
    pub fn description(&self, english: &str) -> String {
        if let Some(own) = self.descriptions.get(english) {
            return own.clone();
        }
        let start = self
            .descriptions
            .iter()
            .filter(|(key, _)| english.starts_with(key.as_str()))
            .max_by_key(|(key, _)| key.len());
        match start {
            Some((key, own)) => format!("{own}{}", self.text(&english[key.len()..])),
            None => english.to_owned(),
        }
    }

    /// A level's own name in this locale (`Básico` for `basic`).
    pub fn level_name(&self, level: &str) -> Option<&str> {
        self.level_names.get(level).map(String::as_str)
    }

    /// Each level's own name in this locale, by its English name.
    pub fn level_names(&self) -> &BTreeMap<String, String> {
        &self.level_names
    }

    /// Whether this catalogue translates anything: English has nothing to.
    pub fn is_english(&self) -> bool {
        self.messages.is_empty() && self.descriptions.is_empty() && self.level_names.is_empty()
    }
}

/// Speaks the catalogue of the starter in `folder` from now on, in this
/// process (the first call decides; later ones change nothing).
pub fn use_folder(folder: &Path) {
    let _ = ACTIVE.set(Catalogue::of_folder(folder));
}

/// Speaks `catalogue` from now on, in this process (the first call
/// decides, as for [`use_folder`]): the grader of a package in its
/// statement's locale.
pub fn use_catalogue(catalogue: Catalogue) {
    let _ = ACTIVE.set(catalogue);
}

/// The catalogue this process speaks: English until [`use_folder`].
pub fn active() -> &'static Catalogue {
    ACTIVE.get_or_init(Catalogue::default)
}

/// `english` as this process says it.
pub fn t(english: &'static str) -> &'static str {
    active().text(english)
}

/// `english` as this process says it, each `{name}` filled.
pub fn f(english: &'static str, arguments: &[(&str, &dyn Display)]) -> String {
    active().fill(english, arguments)
}

/// A message said through the catalogue where it is used, not here (a
/// text the kit appends to a case's description): marks it for the
/// catalogues' check, which reads every `t`, `f` and `message` call.
pub const fn message(english: &'static str) -> &'static str {
    english
}

/// A case's description as this process says it.
pub fn description(english: &str) -> String {
    active().description(english)
}

/// A word as a student may type a level's name: lower case, without the
/// accents of the kit's locales (`Básico`, `basico`: `basico`). A table
/// of those letters, not Unicode's decomposition: a starter compiles no
/// crate for it.
pub fn plain(word: &str) -> String {
    word.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            other => other,
        })
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .collect()
}

/// `template` with each `{name}` replaced by its argument, in one pass (an
/// argument's own braces stay as they are); an unknown name stays.
pub fn fill(template: &str, arguments: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let name_end = after.find('}');
        let value = name_end.and_then(|end| {
            let name = &after[..end];
            arguments
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (end, v))
        });
        if let Some((end, value)) = value {
            out.push_str(&value.to_string());
            rest = &after[end + 1..];
        } else {
            out.push('{');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PT: &str = r#"
    [messages]
    "wrong output" = "saída errada"
    "still running after {seconds} s" = "ainda rodando após {seconds} s"

    [descriptions.velha]
    "Nine moves and no line: Empate" = "Nove jogadas e nenhuma linha: Empate"
    "#;

    #[test]
    fn a_message_is_said_in_the_catalogues_words_else_in_english() {
        let pt = Catalogue::parse(PT);
        assert_eq!(pt.text("wrong output"), "saída errada");
        assert_eq!(pt.text("crashed"), "crashed");
        assert_eq!(
            pt.fill("still running after {seconds} s", &[("seconds", &"10.0")]),
            "ainda rodando após 10.0 s"
        );
        assert_eq!(
            pt.description("Nine moves and no line: Empate"),
            "Nove jogadas e nenhuma linha: Empate"
        );
        assert_eq!(
            pt.description("Nine moves and no line: Empate (only the inputs the exam promises)"),
            "Nove jogadas e nenhuma linha: Empate (only the inputs the exam promises)"
        );
        assert!(!pt.is_english());
        assert!(Catalogue::parse("not = [toml").is_english());
    }

    #[test]
    fn a_level_is_typed_in_any_case_with_or_without_accents() {
        for typed in ["Básico", "basico", "BÁSICO", "Ba\u{301}sico", " básico "] {
            assert_eq!(plain(typed), "basico", "{typed:?}");
        }
        assert_eq!(plain("Confirmé"), "confirme");
    }

    #[test]
    fn filling_is_one_pass_and_leaves_other_braces() {
        let filled = fill("{a} and {b}, {unknown} {", &[("a", &"{b}"), ("b", &"x")]);
        assert_eq!(filled, "{b} and x, {unknown} {");
    }
}
