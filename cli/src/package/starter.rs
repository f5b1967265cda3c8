//! `boardkit starter --exercise DIR OUT`: a student's starter for a
//! package, in Rust (a crate: the stub in `src/<name>/`, the public tests
//! in `tests/<name>.rs`) or Python (`<name>.py` and `test_<name>.py`),
//! with the statement in the chosen locale. Nothing of `hidden/` is read.

use std::path::Path;

use super::words::Words;
use super::{Language, Package};

/// Writes the starter into `dir` (new, or empty); returns the files
/// written, relative to it.
pub(crate) fn write(
    package: &Package,
    dir: &Path,
    language: Language,
    locale: Option<&str>,
) -> Result<Vec<String>, String> {
    if std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(format!(
            "{} is not empty: a starter goes into a new or empty folder",
            dir.display()
        ));
    }
    let (locale, statement) = match locale {
        None => package.statements[0].clone(),
        Some(wanted) => package
            .statements
            .iter()
            .find(|(l, _)| l == wanted)
            .cloned()
            .ok_or_else(|| {
                let have: Vec<&str> = package.statements.iter().map(|(l, _)| l.as_str()).collect();
                format!(
                    "{} has no statement in {wanted}: it has {}",
                    package.name,
                    have.join(", ")
                )
            })?,
    };
    let statement =
        std::fs::read_to_string(&statement).map_err(|e| format!("{}: {e}", statement.display()))?;
    let mut files: Vec<(String, String)> = vec![("STATEMENT.md".into(), statement)];
    let name = &package.name;
    let words = Words::of(&locale);
    files.extend(match language {
        Language::Rust => rust_files(package, &words),
        Language::Python => python_files(package, &words),
    });
    // The given types' code, beside the student's folder: the kit's.
    let given = match language {
        Language::Rust => package.given.rust.as_ref().map(|f| ("src/given.rs", f)),
        Language::Python => package.given.python.as_ref().map(|f| ("given.py", f)),
    };
    if let Some((path, file)) = given {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        files.push((path.into(), text));
    }
    files.push(("README.md".into(), readme(package, language, &words)));
    let catalogue = words.catalogue_file(name, language == Language::Python);
    if let Some(catalogue) = with_level_names(catalogue, package, &words) {
        files.push((boardkit::catalogue::Catalogue::FILE.into(), catalogue));
    }
    files.push((
        ".github/workflows/levels.yml".into(),
        crate::starter::classroom::workflow(&ladder(package, language)),
    ));
    files.push((".gitignore".into(), gitignore(language).into()));
    if let Some(hints) = hints_file(package, &words, language) {
        files.push((boardkit::watch::HINTS.into(), hints));
    }
    for (file, text) in &files {
        let path = dir.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.into_iter().map(|(f, _)| f).collect())
}

/// A level as the starter's README names it: its name in the locale and
/// its own (`intermédiaire (intermediaire)`), which commands take.
fn shown_level(package: &Package, locale: &str, level: &str) -> String {
    match package.level_names.get(locale).and_then(|n| n.get(level)) {
        Some(own) if own != level => format!("{own} ({level})"),
        _ => level.to_owned(),
    }
}

/// The starter's words file (`tests/locale.toml`: what `boardkit test`,
/// `cargo test` and watch say) with the package's own level names in its
/// locale, which show beside the levels' own; a file of just those in a
/// locale the kit has no words for, English too.
fn with_level_names(file: Option<String>, package: &Package, words: &Words) -> Option<String> {
    let Some(names) = package.level_names.get(&words.locale) else {
        return file;
    };
    let (header, mut table) = match &file {
        Some(text) => (
            text.lines().next().unwrap_or_default().to_owned(),
            text.parse::<toml::Table>().ok()?,
        ),
        None => {
            let mut table = toml::Table::new();
            table.insert("locale".into(), words.locale.clone().into());
            (
                "# The levels' names in the starter's language.".to_owned(),
                table,
            )
        }
    };
    let entry = table
        .entry("level_names")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let toml::Value::Table(own) = entry {
        for (level, name) in names {
            own.insert(level.clone(), name.clone().into());
        }
    }
    Some(format!("{header}\n{}", toml::to_string(&table).ok()?))
}

/// The starter's levels as its Classroom workflow grades them: each
/// level's public points, its test module (Rust) or class (Python).
/// The robustness part is no level: the workflow leaves it out, as the
/// built-ins' does.
fn ladder(package: &Package, language: Language) -> crate::starter::classroom::Ladder {
    use crate::starter::classroom::{Ladder, Rung, Toolchain};
    let name = &package.name;
    let (toolchain, setup) = match language {
        Language::Rust => (
            Toolchain::Rust,
            format!("cargo test --test {name} --no-run"),
        ),
        Language::Python => (
            Toolchain::Python,
            "python3 -m pip install pytest".to_owned(),
        ),
    };
    // A level with no public case has nothing to run in a starter: its
    // points are the grader's alone.
    let rungs = package
        .levels
        .iter()
        .filter_map(|level| {
            let public: Vec<u32> = package
                .cases
                .iter()
                .filter(|c| !c.hidden && c.part(package) == level)
                .map(|c| c.points)
                .collect();
            let command = match language {
                Language::Rust => format!("cargo test --test {name} {level}::"),
                Language::Python => format!(
                    "python3 -m pytest test_{name}.py::{}",
                    super::python::class_name(level)
                ),
            };
            (!public.is_empty()).then(|| Rung {
                level: level.clone(),
                max_score: public.iter().sum(),
                command,
            })
        })
        .collect();
    Ladder {
        generator: format!("boardkit starter --exercise {name}"),
        toolchain,
        setup,
        rungs,
    }
}

/// What git leaves out of a starter: builds, Python's caches and a
/// virtual environment in the folder (VS Code's `.venv`), and what
/// `boardkit test` and watch keep (`.boardkit/`: failures, hints opened).
fn gitignore(language: Language) -> &'static str {
    match language {
        Language::Rust => "/target\n/.boardkit/\n",
        Language::Python => "/.venv/\n__pycache__/\n/.pytest_cache/\n/.boardkit/\n",
    }
}

/// The starter's two test targets, the exercise's cases first: `cargo
/// test` runs targets in the order of their names and stops at the first
/// that fails, so the student's own tests (which fail on the stub too)
/// are named to come after and never hide a level's cases (as the
/// built-ins' `your_tests`).
fn test_targets(name: &str) -> String {
    let own = match name < "your_tests" {
        true => "your_tests".to_owned(),
        false => format!("{name}_your_tests"),
    };
    format!(
        "[[test]]\nname = \"{name}\"\npath = \"tests/{name}.rs\"\n\n[[test]]\nname = \"{own}\"\npath = \"{}\"\n",
        super::own_rust::OWN_TESTS_FILE
    )
}

/// A Rust starter's own files: its manifest, crate root, program, stub,
/// tests and the student's own tests' example.
fn rust_files(package: &Package, words: &Words) -> Vec<(String, String)> {
    let name = &package.name;
    let mut files = Vec::new();
    let dashed = name.replace('_', "-");
    files.push((
        "Cargo.toml".into(),
        format!("[package]\nname = \"{dashed}-exercise\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n# A crate of its own, wherever it is written.\n[workspace]\n\n[dependencies]\n\n{}", test_targets(name)),
    ));
    let given = match &package.given.rust {
        Some(_) => "pub mod given;\n",
        None => "",
    };
    files.push((
        "src/lib.rs".into(),
        format!(
            "{}\n{given}pub mod {name};\n",
            super::words::wrapped(
                &words.text(
                    "package_crate",
                    &[("title", &package.title), ("name", name)]
                ),
                "//! ",
                72
            )
        ),
    ));
    if let Some(program) = &package.program {
        let main = include_str!("templates/main.rs.in")
            .replace("{crate}", &super::rust::crate_name(package))
            .replace("{name}", name)
            .replace("{play}", &program.function)
            .replace(
                "{options}",
                super::rust::options_passed(
                    package,
                    "&std::env::args().skip(1).collect::<Vec<_>>(), ",
                ),
            );
        files.push(("src/main.rs".into(), main));
    }
    files.push((
        format!("src/{name}/mod.rs"),
        super::rust::stub(package, words),
    ));
    files.push((
        format!("tests/{name}.rs"),
        super::rust::tests(package, words),
    ));
    files.push((
        super::own_rust::OWN_TESTS_FILE.into(),
        super::rust::own_tests(package, words),
    ));
    files
}

/// A Python starter's own files: its stub, its tests and the student's
/// own tests' example.
fn python_files(package: &Package, words: &Words) -> Vec<(String, String)> {
    let name = &package.name;
    let mut files = Vec::new();
    files.extend(super::python::stubs(package, words));
    files.push((
        format!("test_{name}.py"),
        super::python::tests(package, words),
    ));
    files.push((
        crate::package::grade::own_tests_file(words),
        super::python::own_tests(package, words),
    ));
    files.push(("pytest.ini".into(), PYTEST_INI.into()));
    files.push((
        "conftest.py".into(),
        super::python::conftest(package, words),
    ));
    files
}

/// The starter's pytest settings: Python's own tracebacks (each failing
/// line and its message). pytest's rereads the whole test file for each
/// failure: on velha's 1.4 MB of cases, 43 s instead of 5 for the stubs.
/// A test file that cannot be collected (the student's own, broken) stops
/// no other file's tests.
const PYTEST_INI: &str = "\
# Python's own tracebacks: each failure's line and message, at once; and
# a test file that cannot be read stops none of the others.
[pytest]
addopts = --tb=native --continue-on-collection-errors
";

fn readme(package: &Package, language: Language, words: &Words) -> String {
    let (yours, test, one) = match language {
        Language::Rust => (format!("src/{}/", package.name), "cargo test", "cargo test"),
        Language::Python => (
            // Inside the README's quotes: `funcoes.py`, `programa.py`.
            package.python.files().join("`, `"),
            "python3 -m pytest",
            "python3 -m pytest -k",
        ),
    };
    let first = &package.levels[0];
    let one_level = format!("{one} {first}");
    let width = one_level.len().max(test.len());
    let points: String = package
        .parts()
        .into_iter()
        .map(|part| {
            let of = |hidden: bool| -> u32 {
                package
                    .cases
                    .iter()
                    .filter(|c| c.part(package) == part && c.hidden == hidden)
                    .map(|c| c.points)
                    .sum()
            };
            format!(
                "| {} | {} | {} |\n",
                shown_level(package, &words.locale, part),
                of(false),
                of(true)
            )
        })
        .collect();
    // Said under the table: what the robustness row is.
    let points = if package.cases.iter().any(|c| c.robustness) {
        format!(
            "{points}\n{}\n",
            words.text("package_robustness", &[("command", one)])
        )
    } else {
        points
    };
    let hints = package
        .hints
        .get(&words.locale)
        .map(|h| {
            h.iter()
                .filter(|h| h.is_for(language))
                .map(|h| {
                    let level = shown_level(package, &words.locale, &package.levels[h.level]);
                    format!("- {level}: {}\n", h.text)
                })
                .collect::<String>()
        })
        .unwrap_or_default();
    let hints = if hints.is_empty() {
        String::new()
    } else {
        format!("\n{}\n\n{hints}", words.text("package_hints", &[]))
    };
    let commands = format!(
        "{test:<width$}  # {}\n{one_level:<width$}  # {}",
        words.text("package_every_level", &[]),
        words.text("package_one_level", &[])
    );
    let text = words.text(
        "package_readme",
        &[
            ("title", &package.title),
            ("commands", &commands),
            ("yours", &yours),
            ("points", &points),
        ],
    );
    format!("{text}{hints}")
}

/// The hints of `locale` as watch mode reads them (`tests/hints.toml`):
/// each level's, in order, with what each is about.
fn hints_file(package: &Package, words: &Words, language: Language) -> Option<String> {
    let hints: Vec<&super::Hint> = package
        .hints
        .get(&words.locale)?
        .iter()
        .filter(|h| h.is_for(language))
        .collect();
    if hints.is_empty() {
        return None;
    }
    let mut out = super::words::wrapped(&words.text("package_hints_file", &[]), "# ", 72);
    for (index, level) in package.levels.iter().enumerate() {
        let mut table = toml::Table::new();
        let list: Vec<toml::Value> = hints
            .iter()
            .filter(|h| h.level == index)
            .map(|h| {
                let mut hint = toml::Table::new();
                hint.insert("text".into(), h.text.clone().into());
                let about = h.about.iter().map(|w| toml::Value::from(w.as_str()));
                hint.insert("about".into(), toml::Value::Array(about.collect()));
                toml::Value::Table(hint)
            })
            .collect();
        if list.is_empty() {
            continue;
        }
        table.insert(level.clone(), toml::Value::Array(list));
        out.push_str(&toml::to_string(&table).ok()?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::Language;

    /// Each starter's Classroom workflow holds one job per level with
    /// public cases, each its level's public points and test command,
    /// checked as the built-ins' are (SchemaStore's schema, the actions'
    /// inputs, the jobs' order and the reporter's fallbacks).
    #[test]
    fn a_packages_workflow_grades_each_level_in_classroom() {
        let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        // The kit's velha, and each package written from its statement.
        let written = std::fs::read_dir(kit.join("cli/tests/data/packages")).unwrap();
        let mut folders = vec![kit.join("exercises/velha/package")];
        folders.extend(written.map(|entry| entry.unwrap().path()));
        for folder in &folders {
            let package = super::super::load::load(folder).unwrap();
            for language in [Language::Rust, Language::Python] {
                let ladder = super::ladder(&package, language);
                assert_eq!(ladder.rungs.len(), package.levels.len(), "{folder:?}");
                assert!(ladder.rungs.iter().all(|r| r.max_score > 0), "{ladder:?}");
                let problems = crate::starter::classroom::tests::problems_of(&ladder);
                assert!(
                    problems.is_empty(),
                    "{folder:?} {language:?}: {problems:#?}"
                );
            }
        }
        let velha = super::super::load::load(&kit.join("exercises/velha/package")).unwrap();
        let python = super::ladder(&velha, Language::Python);
        assert_eq!(
            python.rungs[0].command,
            "python3 -m pytest test_velha.py::TestBasic"
        );
        let rust = super::ladder(&velha, Language::Rust);
        assert_eq!(
            rust.rungs[1].command,
            "cargo test --test velha proficient::"
        );
    }

    /// Cargo runs test targets by name and stops at the first that fails:
    /// the student's own tests come after the exercise's cases whatever
    /// the exercise's name.
    #[test]
    fn own_tests_run_after_the_cases() {
        for name in ["demo", "velha", "your_game", "zigzag"] {
            let manifest: toml::Table = super::test_targets(name).parse().unwrap();
            let targets = manifest["test"].as_array().unwrap();
            let named = |path: &str| {
                targets
                    .iter()
                    .find(|t| t["path"].as_str() == Some(path))
                    .and_then(|t| t["name"].as_str())
                    .unwrap()
                    .to_owned()
            };
            let (cases, own) = (named(&format!("tests/{name}.rs")), named("tests/mine.rs"));
            assert!(cases < own, "{name}: {cases} before {own}");
        }
    }
}
