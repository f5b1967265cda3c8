//! Each exercise's data, in `exercises/<game>/` (not its statement, which
//! is EXERCISE.md): who owns which file
//! (`exercise.toml`), the stub of the student's folder (`stub/`), the seeded
//! mutations its tests must catch (`mutations.toml`), and a corpus of
//! independent solutions (`solutions/<name>/`). Read from the copy embedded
//! in the binary, by the starter generator, the grader and the kit's check.

use serde::Deserialize;

use boardkit::level::Level;

/// Why an exercise's data cannot be read: a defect of the kit, not of a user.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExerciseError {
    #[error("the kit has no file {0}")]
    Missing(String),
    #[error("the kit's file {path} is malformed: {message}")]
    Malformed { path: String, message: String },
}

fn text(path: &str) -> Result<&'static str, ExerciseError> {
    let bytes = crate::embedded::file(path).ok_or_else(|| ExerciseError::Missing(path.into()))?;
    std::str::from_utf8(bytes).map_err(|e| ExerciseError::Malformed {
        path: path.into(),
        message: e.to_string(),
    })
}

fn parse<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, ExerciseError> {
    toml::from_str(text(path)?).map_err(|e| ExerciseError::Malformed {
        path: path.into(),
        message: e.to_string(),
    })
}

/// `exercises/<game>/exercise.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Manifest {
    pub files: Files,
    /// The game in Python as a built-in package (its exam), per locale:
    /// what `starter`, `test`, `watch` and `grade` run with `--language
    /// python`.
    #[serde(default)]
    pub python_package: std::collections::BTreeMap<String, String>,
    /// Watch mode's hints: per locale, per level, in order.
    #[serde(default)]
    pub hints: Hints,
    /// The levels' summaries in each translation (English: the harness's
    /// `LEVELS`).
    #[serde(default)]
    pub summaries: Summaries,
    /// The game's name in each translation.
    #[serde(default)]
    pub titles: std::collections::BTreeMap<String, String>,
    /// How the statement's introduction, written for every game, reads in
    /// this game's English starter: each `[text, as this game says it]`
    /// (a text the introduction no longer holds refuses the starter).
    #[serde(default)]
    pub intro: Vec<[String; 2]>,
}

/// Per locale, per level, a line.
pub(crate) type Summaries =
    std::collections::BTreeMap<String, std::collections::BTreeMap<Level, String>>;

/// A starter's own words in one locale (`exercises/locales/<locale>.toml`,
/// one catalogue per locale), each text the locale lacks in English.
pub(crate) struct StarterTexts {
    /// The locale's code (`pt-BR`), `en` for English.
    locale: String,
    own: toml::Table,
    english: toml::Table,
}

impl StarterTexts {
    /// The words of `locale` (English's when it is `None` or `en`).
    pub(crate) fn of(locale: Option<&str>) -> Result<StarterTexts, ExerciseError> {
        let locale = locale.unwrap_or("en");
        Ok(StarterTexts {
            locale: locale.to_owned(),
            own: catalogue(locale)?,
            english: catalogue("en")?,
        })
    }

    /// The text of `key`, its placeholders (`{name}`) filled from `values`.
    pub(crate) fn text(&self, key: &str, values: &[(&str, &str)]) -> String {
        let raw = self
            .own
            .get(key)
            .or_else(|| self.english.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        let mut out = raw.to_owned();
        for (name, value) in values {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    /// A level's name as the starter says it: `Básico (basic)`, or the
    /// English name alone.
    pub(crate) fn level_name(&self, level: &str) -> String {
        let own = self
            .own
            .get("level_names")
            .and_then(|n| n.get(level))
            .and_then(|n| n.as_str())
            .unwrap_or(level);
        if own == level {
            level.to_owned()
        } else {
            format!("{own} ({level})")
        }
    }

    /// `tests/locale.toml`: the part of the catalogue a translated
    /// starter's tests, watch mode and `boardkit test` speak (see
    /// `boardkit::catalogue`), with `game`'s case descriptions alone.
    /// A Python starter's (`python`) leaves out the messages only Cargo's
    /// runs say: it names no Cargo command.
    pub(crate) fn locale_toml(&self, game: &str, python: bool) -> String {
        let mut table = toml::Table::new();
        // Which locale: what the kit's own commands (`boardkit test`) say
        // in that starter, beyond these words.
        table.insert("locale".into(), self.locale.clone().into());
        if let Some(value) = self.own.get("level_names") {
            table.insert("level_names".into(), value.clone());
        }
        if let Some(messages) = self.own.get("messages").and_then(|m| m.as_table()) {
            let mut kept = messages.clone();
            kept.retain(|english, own| {
                !python
                    || !(english.contains("cargo")
                        || own.as_str().is_some_and(|o| o.contains("cargo")))
            });
            table.insert("messages".into(), kept.into());
        }
        let descriptions = self.own.get("descriptions").and_then(|d| d.get(game));
        if let Some(descriptions) = descriptions {
            let mut games = toml::Table::new();
            games.insert(game.into(), descriptions.clone());
            table.insert("descriptions".into(), games.into());
        }
        format!(
            "# What the tests say, in the starter's language: the kit's catalogue (exercises/locales/{}.toml).\n{}",
            self.locale,
            toml::to_string(&table).unwrap_or_default()
        )
    }
}

/// The messages of `locale`'s catalogue, as a starter's tests speak them
/// (English for a locale without one).
pub(crate) fn catalogue_of(locale: &str) -> boardkit::catalogue::Catalogue {
    catalogue(locale)
        .map(|table| boardkit::catalogue::Catalogue::from_table(&table))
        .unwrap_or_default()
}

/// The catalogue of `locale`: `exercises/locales/<locale>.toml`, none
/// (English throughout) for a locale without one.
pub(crate) fn catalogue(locale: &str) -> Result<toml::Table, ExerciseError> {
    let path = format!("exercises/locales/{locale}.toml");
    let Ok(text) = self::text(&path) else {
        return Ok(toml::Table::new());
    };
    toml::from_str(text).map_err(|e| ExerciseError::Malformed {
        path,
        message: e.to_string(),
    })
}

/// Hints per locale (`en`, `pt-BR`, ...), then per level, one at a time.
pub(crate) type Hints =
    std::collections::BTreeMap<String, std::collections::BTreeMap<Level, Vec<Hint>>>;

/// One hint: a text, for every case of its level; or a text and what it is
/// `about` (words of the cases' names or failures it helps with), served
/// first when the first failure is one of those.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum Hint {
    Plain(String),
    About { about: Vec<String>, text: String },
}

impl Hint {
    /// As the starter's `tests/hints.toml` holds it (`boardkit::watch`
    /// reads it).
    fn to_toml(&self) -> String {
        let quoted = |text: &str| toml::Value::String(text.to_owned()).to_string();
        match self {
            Hint::Plain(text) => quoted(text),
            Hint::About { about, text } => {
                let about: Vec<String> = about.iter().map(|w| quoted(w)).collect();
                format!(
                    "{{ about = [{}], text = {} }}",
                    about.join(", "),
                    quoted(text)
                )
            }
        }
    }
}

/// The hints of `locale` (English when it has none), as a starter's
/// `tests/hints.toml` holds them.
pub(crate) fn hints_toml(hints: &Hints, locale: Option<&str>) -> String {
    let levels = locale
        .and_then(|l| hints.get(l))
        .or_else(|| hints.get("en"))
        .cloned()
        .unwrap_or_default();
    let said = catalogue_of(locale.unwrap_or("en"));
    let header = said.text(
        "Hints, one at a time for the first level not yet reached: run the tests in watch mode, then h and Enter. The kit's: editing it changes nothing.",
    );
    let mut out = comment(header);
    for (level, hints) in levels {
        let quoted: Vec<String> = hints.iter().map(Hint::to_toml).collect();
        out.push_str(&format!("{level} = [\n  {},\n]\n", quoted.join(",\n  ")));
    }
    out
}

/// `text` as TOML comment lines of at most 76 characters.
fn comment(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 76 && line.len() > 1 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Which files are whose (paths relative to the kit's repository).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Files {
    /// The student's folder in a starter, wholly theirs (`src/<game>`).
    pub solution: String,
    /// The kit's folder whose files make that folder in a starter.
    pub stub: String,
    /// The reference's folder, which reaches every level in place of the stub.
    pub example: String,
    /// The kit's code shipped as is, outside the student's folder.
    pub kit: Vec<String>,
    /// The student's tests and the data they read, shipped as is.
    pub test: Vec<String>,
    /// The starter's own `Cargo.lock`: only the packages its manifest
    /// needs, at the kit's versions (`BOARDKIT_BLESS=1 cargo test --lib
    /// a_starter_has_a_lock_of_its_own` writes it anew).
    pub lock: String,
    /// The student's own tests' example (`tests/mine.rs` in a starter;
    /// its translations beside it, as `mine.<locale>.rs`).
    pub own_tests: String,
}

impl Files {
    #[cfg(test)]
    /// Whether `path` (relative to a crate's root) is in the student's folder.
    pub(crate) fn is_students(&self, path: &str) -> bool {
        path.strip_prefix(&self.solution)
            .is_some_and(|rest| rest.starts_with('/'))
    }
}

/// Where `id`'s statement in `locale` is: for a crate, the statement's
/// introduction and the game's section in one file
/// (`exercises/<id>/statement/<locale>.md`); for the Python form, its
/// statement's file with the locale before `.md`.
pub(crate) fn translation(id: &str, locale: &str) -> String {
    format!("exercises/{id}/statement/{locale}.md")
}

/// The locales `id`'s statement is written in: `en` (the kit's own), then
/// every translation the kit holds.
pub(crate) fn locales(id: &str) -> Vec<String> {
    let mut locales = vec!["en".to_owned()];
    let (prefix, suffix) = (format!("exercises/{id}/statement/"), ".md".to_owned());
    for (path, _) in crate::embedded::under(&prefix) {
        if let Some(locale) = path[prefix.len()..].strip_suffix(&suffix) {
            if !locale.contains('/') && !locale.contains('.') {
                locales.push(locale.to_owned());
            }
        }
    }
    locales
}

/// The manifest of game `id`.
pub(crate) fn manifest(id: &str) -> Result<Manifest, ExerciseError> {
    parse(&format!("exercises/{id}/exercise.toml"))
}

/// The built-in package game `id` is in Python, in `locale` (English's
/// when the locale has none): `None` when the game has no Python form.
pub(crate) fn python_package(id: &str, locale: &str) -> Option<String> {
    let packages = manifest(id).ok()?.python_package;
    packages.get(locale).or_else(|| packages.get("en")).cloned()
}

/// `exercises/lints.toml`: what the kit notes on a student's Rust.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CodeNotes {
    pub notes: NoteThresholds,
    /// The lint set: a Cargo `[lints]` table, the same in every starter's
    /// manifest and every submission's crate.
    pub lints: toml::Table,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoteThresholds {
    /// Lines past which a function is noted as long.
    pub long_function: usize,
}

/// What the kit notes on a student's Rust.
pub(crate) fn code_notes() -> Result<CodeNotes, ExerciseError> {
    parse("exercises/lints.toml")
}

/// The files of a stub folder in `locale` (`<stub>.<locale>/`, when the kit
/// holds that translation), else the English one.
pub(crate) fn stub_folder(stub: &str, locale: Option<&str>) -> Vec<(&'static str, &'static [u8])> {
    let translated = locale
        .filter(|l| *l != "en")
        .map(|l| folder(&format!("{}.{l}", stub.trim_end_matches('/'))))
        .filter(|files| !files.is_empty());
    translated.unwrap_or_else(|| folder(stub))
}

/// Where a Rust student's own tests are, in their crate: the starter puts
/// the example there ([`Files::own_tests`]), the grader takes it from there.
pub(crate) const OWN_TESTS_FILE: &str = "tests/mine.rs";

/// The example of a student's own tests in `locale`, or in English.
pub(crate) fn own_tests(path: &str, locale: Option<&str>) -> Result<&'static [u8], ExerciseError> {
    let translated = locale
        .filter(|l| *l != "en")
        .and_then(|l| crate::embedded::file(&path.replace(".rs", &format!(".{l}.rs"))));
    translated
        .or_else(|| crate::embedded::file(path))
        .ok_or_else(|| ExerciseError::Missing(path.to_owned()))
}

/// The files of a folder of the kit, as (path below the folder, contents).
pub(crate) fn folder(prefix: &str) -> Vec<(&'static str, &'static [u8])> {
    let prefix = format!("{}/", prefix.trim_end_matches('/'));
    crate::embedded::under(&prefix)
        .map(|(p, b)| (&p[prefix.len()..], b))
        .collect()
}

/// A seeded mutation of the example: a change its tests must catch.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Mutation {
    /// The file of the example's folder it changes.
    pub file: String,
    /// The text it replaces (its first occurrence; it must occur).
    pub find: String,
    pub replace: String,
    /// The level whose cases must catch it.
    pub level: Level,
    /// What it breaks, in a few words.
    pub breaks: String,
}

/// A change of the example that the statement does not grade (a prompt's
/// wording, say): with it, the example must still reach every level.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Harmless {
    pub file: String,
    pub find: String,
    pub replace: String,
    /// Why it must not matter.
    pub why: String,
    /// What a test that fails on it tests that the statement does not
    /// promise (a position in lower case, say): such a test is reported as
    /// testing that, rather than as failing on a correct version.
    #[serde(default)]
    pub unpromised: Option<String>,
}

/// `exercises/<game>/mutations.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Mutations {
    pub mutation: Vec<Mutation>,
    #[serde(default)]
    pub harmless: Vec<Harmless>,
}

/// The seeded mutations and harmless changes of game `id`.
pub(crate) fn mutations(id: &str) -> Result<Mutations, ExerciseError> {
    parse(&format!("exercises/{id}/mutations.toml"))
}

/// The hidden mutants of game `id` (`exercises/<game>/mutations.hidden.toml`):
/// what students' own tests are graded by beside the public mutations,
/// counted and never described. Only the instructor's build holds them
/// (the `hidden-cases` feature); a student's has none.
pub(crate) fn hidden_mutations(id: &str) -> Result<Vec<Mutation>, ExerciseError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Hidden {
        mutation: Vec<Mutation>,
    }
    let path = format!("exercises/{id}/mutations.hidden.toml");
    if crate::embedded::file(&path).is_none() {
        return Ok(Vec::new());
    }
    Ok(parse::<Hidden>(&path)?.mutation)
}

/// An independent solution's `solution.toml`: written from EXERCISE.md
/// alone, by someone who never saw the reference.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolutionInfo {
    /// How it differs from the reference (prompts, structure, random draws).
    pub style: String,
    /// For a program in another language: the command that runs it, graded
    /// with `--program`. Absent: a Rust folder that replaces the stub.
    pub program: Option<String>,
    /// The level it must reach, locally and in the grader.
    pub reaches: Level,
}

/// One solution of the corpus.
#[derive(Debug, Clone)]
pub(crate) struct Solution {
    pub name: String,
    pub info: SolutionInfo,
    /// Its files, as (path below its folder, contents), `solution.toml` aside.
    pub files: Vec<(String, &'static [u8])>,
}

/// The corpus of independent solutions of game `id`, by name.
pub(crate) fn solutions(id: &str) -> Result<Vec<Solution>, ExerciseError> {
    let root = format!("exercises/{id}/solutions");
    let mut solutions: Vec<Solution> = Vec::new();
    for (path, bytes) in folder(&root) {
        let Some((name, file)) = path.split_once('/') else {
            continue;
        };
        if solutions.last().is_none_or(|s| s.name != name) {
            solutions.push(Solution {
                name: name.to_owned(),
                info: parse(&format!("{root}/{name}/solution.toml"))?,
                files: Vec::new(),
            });
        }
        if file != "solution.toml" {
            let last = solutions.last_mut().expect("pushed above");
            last.files.push((file.to_owned(), bytes));
        }
    }
    Ok(solutions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_manifest_a_stub_and_mutations() {
        for game in crate::registry::GAMES {
            let manifest = manifest(game.id).unwrap();
            assert_eq!(manifest.files.solution, format!("src/{}", game.id));
            assert!(
                manifest
                    .files
                    .is_students(&format!("src/{}/mod.rs", game.id))
            );
            assert!(
                !manifest
                    .files
                    .is_students(&format!("src/{}x/mod.rs", game.id))
            );
            assert!(!folder(&manifest.files.stub).is_empty(), "{}", game.id);
            for path in manifest.files.kit.iter().chain(&manifest.files.test) {
                assert!(crate::embedded::file(path).is_some(), "{path}");
            }
            assert!(
                !mutations(game.id).unwrap().mutation.is_empty(),
                "{}",
                game.id
            );
            solutions(game.id).unwrap();
        }
    }

    /// Each hint's `about`, per level, in a locale's hints.
    fn abouts(
        levels: &std::collections::BTreeMap<Level, Vec<Hint>>,
    ) -> Vec<(Level, Vec<Vec<String>>)> {
        levels
            .iter()
            .map(|(level, hints)| {
                let about = hints
                    .iter()
                    .map(|h| match h {
                        Hint::Plain(_) => Vec::new(),
                        Hint::About { about, .. } => about.clone(),
                    })
                    .collect();
                (*level, about)
            })
            .collect()
    }

    #[test]
    fn hints_say_what_they_are_about_in_every_translation_and_a_starter_reads_them() {
        for game in crate::registry::GAMES {
            let manifest = manifest(game.id).unwrap();
            for hints in [&manifest.hints] {
                let Some(english) = hints.get("en") else {
                    continue;
                };
                for (locale, levels) in hints {
                    assert_eq!(abouts(levels), abouts(english), "{} {locale}", game.id);
                }
            }
        }
        // As a starter holds them: with verifica_vencedor failing first,
        // its hint comes first.
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path();
        std::fs::create_dir_all(folder.join("tests")).unwrap();
        let velha = manifest("velha").unwrap();
        for locale in ["en", "pt-BR"] {
            std::fs::write(
                folder.join(boardkit::watch::HINTS),
                hints_toml(&velha.hints, Some(locale)),
            )
            .unwrap();
            let mut hints = boardkit::watch::Hints::load(folder);
            let failing = ("basic::verifica_vencedor_every_board", "wrong answer");
            let (n, of, hint) = hints.open("basic", Some(failing)).unwrap();
            assert_eq!((n, of), (1, 3), "{locale}");
            assert_eq!(hint.about, ["verifica_vencedor"], "{locale}");
            assert!(
                hint.text.starts_with("verifica_vencedor"),
                "{locale}: {}",
                hint.text
            );
        }
    }
}
