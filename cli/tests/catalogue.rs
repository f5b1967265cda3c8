//! Every line a student reads is in their starter's language: each
//! message the code says through the catalogue (`boardkit::catalogue`'s
//! `t`, `f`, `message`, and a catalogue's `text` and `fill`) has its entry
//! in every locale's catalogue (`exercises/locales/<locale>.toml`), with
//! the same placeholders; each case description and each bug's name of a
//! game translated into a locale has its entry there too; and a translated
//! starter's run prints no message of the English catalogue.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The kit's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The Rust string literal at the start of `text` (after `"`), unescaped.
fn literal(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.chars();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                '\\' => out.push('\\'),
                '"' => out.push('"'),
                '\'' => out.push('\''),
                '\n' => panic!("a message on two lines of code: write it on one"),
                other => panic!("an escape the check does not read: \\{other}"),
            },
            c => out.push(c),
        }
    }
}

/// The messages the code says through the catalogue: the first argument of
/// each call of the catalogue, when it is a literal (outside unit tests).
fn messages() -> BTreeMap<String, String> {
    let mut files = Vec::new();
    for dir in ["src", "tests/common", "cli/src"] {
        rust_files(&root().join(dir), &mut files);
    }
    let calls = ["t(", "f(", "message(", ".text(", ".fill("];
    let mut found = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let text = text.split("#[cfg(test)]\nmod ").next().unwrap_or_default();
        for call in calls {
            for (at, _) in text.match_indices(call) {
                let head = &text[..at];
                let said = if call.starts_with('.') {
                    // A catalogue's: not a starter's texts, read by key.
                    ["catalogue", "said", " c", "(c"]
                        .iter()
                        .any(|r| head.ends_with(r))
                } else {
                    let before = head.chars().next_back().unwrap_or(' ');
                    !(before.is_alphanumeric() || before == '_' || before == '.')
                };
                if !said {
                    continue;
                }
                let rest = text[at + call.len()..].trim_start();
                let Some(rest) = rest.strip_prefix('"') else {
                    continue;
                };
                let message = literal(rest).unwrap();
                let shown = file
                    .strip_prefix(root())
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                found.entry(message).or_insert(shown);
            }
        }
    }
    found
}

/// The `{name}`s of a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find('}') {
            let name = &rest[..close];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                names.insert(name.to_owned());
            }
        }
    }
    names
}

/// A locale's catalogue.
fn catalogue(locale: &str) -> toml::Table {
    let path = root().join(format!("exercises/locales/{locale}.toml"));
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The translated locales, and the games each is a statement of.
fn translations() -> Vec<(&'static str, &'static str)> {
    vec![("pt-BR", "velha"), ("fr", "connect4")]
}

#[test]
fn every_message_a_student_reads_has_its_translation() {
    let messages = messages();
    assert!(
        messages.len() > 100,
        "the check finds the calls: {messages:?}"
    );
    for (locale, _) in translations() {
        let table = catalogue(locale);
        let own = table["messages"].as_table().unwrap();
        let missing: Vec<String> = messages
            .iter()
            .filter(|(m, _)| !own.contains_key(m.as_str()))
            .map(|(m, file)| format!("{m:?} ({file})"))
            .collect();
        assert!(
            missing.is_empty(),
            "{locale} lacks:\n{}",
            missing.join("\n")
        );
        let stale: Vec<&String> = own.keys().filter(|k| !messages.contains_key(*k)).collect();
        assert!(
            stale.is_empty(),
            "{locale} translates what no code says: {stale:?}"
        );
        for (english, text) in own {
            let text = text.as_str().unwrap();
            assert_eq!(
                placeholders(english),
                placeholders(text),
                "{locale}: {english:?} and {text:?}"
            );
        }
    }
}

/// Every fixture file of `game` (`fixtures/<game>/`, its folders too).
fn fixture_files(game: &str) -> Vec<PathBuf> {
    let mut fixtures = Vec::new();
    let mut stack = vec![root().join("fixtures").join(game)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                fixtures.push(path);
            }
        }
    }
    fixtures
}

/// The descriptions of `game`'s hidden cases that no public case shares:
/// their translations are in `<locale>.hidden.toml`, out of a student's
/// build and of every starter.
fn hidden_texts(game: &str) -> BTreeSet<String> {
    let (mut hidden, mut public) = (BTreeSet::new(), BTreeSet::new());
    for path in fixture_files(game) {
        let table: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let Some(description) = table.get("description").and_then(|d| d.as_str()) else {
            continue;
        };
        let is_hidden = table.get("visibility").and_then(|v| v.as_str()) == Some("hidden");
        if is_hidden { &mut hidden } else { &mut public }.insert(description.to_owned());
    }
    hidden.difference(&public).cloned().collect()
}

/// Each text of `game` a student reads from its data: its cases'
/// descriptions, and its bugs' and correct variants' names.
fn game_texts(game: &str) -> BTreeSet<String> {
    let mut texts = BTreeSet::new();
    for path in fixture_files(game) {
        let table: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        if let Some(description) = table.get("description").and_then(|d| d.as_str()) {
            texts.insert(description.to_owned());
        }
    }
    // The Python form's own function cases (`[[python.functions]]`).
    let manifest =
        std::fs::read_to_string(root().join("exercises").join(game).join("exercise.toml")).unwrap();
    for line in manifest.lines() {
        if let Some(text) = line.strip_prefix("description = ") {
            texts.insert(
                toml::from_str::<toml::Table>(&format!("d = {text}")).unwrap()["d"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            );
        }
    }
    for file in ["mutations.toml", "python/mutations.toml"] {
        let path = root().join("exercises").join(game).join(file);
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let table: toml::Table = toml::from_str(&text).unwrap();
        for (kind, key) in [
            ("mutation", "breaks"),
            ("harmless", "why"),
            ("harmless", "unpromised"),
        ] {
            for entry in table
                .get(kind)
                .and_then(|m| m.as_array())
                .into_iter()
                .flatten()
            {
                if let Some(text) = entry.get(key).and_then(|t| t.as_str()) {
                    texts.insert(text.to_owned());
                }
            }
        }
    }
    texts
}

#[test]
fn every_case_and_bug_of_a_translated_game_has_its_translation() {
    for (locale, game) in translations() {
        let table = catalogue(locale);
        let mut own = table["descriptions"][game].as_table().unwrap().clone();
        // The hidden cases' are apart: a student's build holds none.
        let hidden = hidden_texts(game);
        let leaked: Vec<&String> = own.keys().filter(|k| hidden.contains(*k)).collect();
        assert!(
            leaked.is_empty(),
            "{locale}.toml holds hidden cases' descriptions (move them to {locale}.hidden.toml): {leaked:?}"
        );
        let path = root().join(format!("exercises/locales/{locale}.hidden.toml"));
        let apart: toml::Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        own.extend(apart["descriptions"][game].as_table().unwrap().clone());
        let texts = game_texts(game);
        assert!(texts.len() > 40, "{game}: {texts:?}");
        let missing: Vec<&String> = texts.iter().filter(|t| !own.contains_key(*t)).collect();
        assert!(missing.is_empty(), "{locale} lacks {game}'s {missing:#?}");
        let stale: Vec<&String> = own.keys().filter(|k| !texts.contains(*k)).collect();
        assert!(
            stale.is_empty(),
            "{locale} translates what {game} no longer says: {stale:?}"
        );
    }
}

/// The parts of the English catalogue's messages a translated run must not
/// print: each message's text between its placeholders, when it is words
/// (a command, a path or a marker alone is the same in every language).
fn english_fragments() -> BTreeSet<String> {
    let mut fragments = BTreeSet::new();
    for message in messages().keys() {
        let mut plain = message.clone();
        for name in placeholders(message) {
            plain = plain.replace(&format!("{{{name}}}"), "\u{0}");
        }
        for part in plain.split('\u{0}') {
            let part = part.trim_matches(|c: char| !c.is_alphanumeric());
            let words = part
                .split_whitespace()
                .filter(|w| w.chars().all(char::is_alphabetic));
            if part.len() >= 12 && words.count() >= 3 {
                fragments.insert(part.to_owned());
            }
        }
    }
    fragments
}

/// The English lines of a run: each line that holds a fragment of the
/// English catalogue (its translation being different).
pub(crate) fn english_lines(output: &str, locale: &str) -> Vec<String> {
    let own = catalogue(locale);
    let own: BTreeSet<&str> = own["messages"]
        .as_table()
        .unwrap()
        .values()
        .filter_map(|v| v.as_str())
        .collect();
    let fragments: Vec<String> = english_fragments()
        .into_iter()
        .filter(|f| !own.iter().any(|t| t.contains(f.as_str())))
        .collect();
    output
        .lines()
        // Rust's own words: a panic's place (`todo!()`'s message is said in
        // the starter's language).
        .filter(|line| !line.starts_with("panicked at "))
        .filter(|line| fragments.iter().any(|f| line.contains(f.as_str())))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_check_of_a_run_finds_english_lines() {
    let run = "nível alcançado: nenhum\nfirst difference at graded event 3\n--- esperado ---\n";
    assert_eq!(
        english_lines(run, "pt-BR"),
        ["first difference at graded event 3"]
    );
}

/// A translated starter's `cargo test`, every stub failing: every line the
/// kit says is in its language (Cargo's and libtest's own lines aside).
#[test]
#[ignore = "long: builds two starters' tests (about 40 s)"]
fn a_translated_starters_run_prints_no_english_message() {
    let _target = crate::starter::starter_target();
    for (locale, game) in translations() {
        let scratch = tempfile::tempdir().unwrap();
        let starter = scratch.path().join(game);
        let made = std::process::Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["starter", game])
            .arg(&starter)
            .args(["--locale", locale])
            .output()
            .unwrap();
        assert!(made.status.success(), "{made:?}");
        let said = String::from_utf8_lossy(&made.stdout).into_owned();
        let run = crate::starter::in_starter(&starter, "cargo test", &[]);
        let out = format!(
            "{said}{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            out.contains("--- "),
            "{locale}: the run failed its cases: {out}"
        );
        let english = english_lines(&out, locale);
        assert!(
            english.is_empty(),
            "{locale}: English lines:\n{}",
            english.join("\n")
        );
    }
}
