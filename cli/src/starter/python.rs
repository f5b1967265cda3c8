//! A Python starter: the exercise as a Python course sets it (the
//! `[python]` table of `exercises/<game>/exercise.toml`). The student's
//! files stubbed, the statement with each level's points, the public cases
//! to read, and pytest tests that run those cases through `boardkit test`:
//! the grader's own cases and judgement, no second comparison in Python.

use crate::exercise_data::PythonVariant;
use crate::graded_cases::{self, Grading};
use crate::registry::GameInfo;
use boardkit::catalogue::Catalogue;
use boardkit::level::Level;
use boardkit::session_fixture::Visibility;

use super::{StarterError, kit_file};

/// A virtual environment made in the folder (VS Code's `.venv`), and
/// Python's caches: never the student's work.
const GITIGNORE: &[u8] = b"/.venv/\n__pycache__/\n/.pytest_cache/\n/.boardkit/\n";

/// Every file of `game`'s Python starter: (path in the starter, contents).
pub(crate) fn starter_files(
    game: &GameInfo,
    variant: &PythonVariant,
    locale: Option<&str>,
) -> Result<Vec<(String, Vec<u8>)>, StarterError> {
    let mut files: Vec<(String, Vec<u8>)> =
        crate::exercise_data::stub_folder(&variant.stub, locale)
            .into_iter()
            .map(|(path, bytes)| (path.to_owned(), bytes.to_vec()))
            .collect();
    // The student's own tests, named in the starter's language, beside
    // their files (pytest imports them from there), apart from the kit's.
    if let Some(own) = &variant.own_tests {
        let path = locale
            .and_then(|l| own.examples.get(l))
            .or_else(|| own.examples.get("en"));
        if let Some(path) = path {
            let name = path.rsplit('/').next().unwrap_or(path);
            let bytes = crate::embedded::file(path)
                .ok_or_else(|| crate::exercise_data::ExerciseError::Missing(path.clone()))?;
            files.push((name.to_owned(), bytes.to_vec()));
        }
    }
    let levels: Vec<Level> = variant.levels.keys().copied().collect();
    let said = crate::exercise_data::catalogue_of(locale.unwrap_or("en"));
    files.push((
        format!("tests/test_{}.py", game.id),
        test_py(game, &levels, &said).into_bytes(),
    ));
    files.push((
        "tests/conftest.py".into(),
        conftest_py(game, &levels, &said).into_bytes(),
    ));
    files.push((
        boardkit::watch::HINTS.into(),
        crate::exercise_data::hints_toml(&variant.hints, locale).into_bytes(),
    ));
    if locale.is_some_and(|l| l != "en") {
        files.push((
            boardkit::level::Words::FILE.into(),
            crate::exercise_data::StarterTexts::of(locale)?
                .locale_toml(game.id, true)
                .into_bytes(),
        ));
    }
    files.push((
        "README.md".into(),
        readme_md(game, variant, locale)?.into_bytes(),
    ));
    files.push((".gitignore".into(), GITIGNORE.to_vec()));
    // The public cases, to read: the program sessions the Python form runs,
    // and the function calls as the adapter asks them.
    let prefix = format!("fixtures/{}/", game.id);
    for (path, bytes) in crate::embedded::under(&prefix) {
        let name = path[prefix.len()..].trim_end_matches(".toml");
        if name.contains('/') || !path.ends_with(".toml") {
            continue;
        }
        let Ok(fixture) = boardkit::session_fixture::Fixture::parse(
            &String::from_utf8_lossy(bytes),
            name,
            game.id,
        ) else {
            continue;
        };
        if fixture.visibility == Visibility::Public
            && !fixture.reference_only
            && levels.contains(&fixture.level)
            && !fixture.robustness
            && !variant.leave_out.contains(&fixture.name)
        {
            files.push((
                path.to_owned(),
                exam_session(game, variant, &fixture, bytes),
            ));
        }
    }
    for case in graded_cases::python_function_cases(game, variant) {
        let text = case.fields_toml();
        files.push((
            format!("fixtures/{}/functions/{}.toml", game.id, case.name),
            format!(
                "# The calls the adapter makes of your functions: each call's argument,\n# then every answer accepted. `boardkit test` runs them.\n{text}"
            )
            .into_bytes(),
        ));
    }
    Ok(files)
}

/// The points of each level of the Python form: (public, hidden).
fn points(game: &GameInfo, variant: &PythonVariant) -> Vec<(Level, u32, u32)> {
    let all = graded_cases::cases(game, Grading::Python(variant));
    variant
        .levels
        .keys()
        .map(|&level| {
            let of = |hidden: bool| {
                all.iter()
                    .filter(|c| c.level == level && c.hidden == hidden)
                    .map(|c| c.points)
                    .sum()
            };
            (level, of(false), of(true))
        })
        .collect()
}

fn readme_md(
    game: &GameInfo,
    variant: &PythonVariant,
    locale: Option<&str>,
) -> Result<String, StarterError> {
    let path = match locale.filter(|l| *l != "en") {
        Some(locale) => crate::exercise_data::translation(game.id, Some(variant), locale),
        None => variant.statement.clone(),
    };
    let statement = String::from_utf8_lossy(kit_file(&path)?).into_owned();
    let texts = crate::exercise_data::StarterTexts::of(locale)?;
    let mut table = String::new();
    for (level, public, hidden) in points(game, variant) {
        let summary = locale
            .and_then(|l| variant.summaries.get(l))
            .and_then(|s| s.get(&level))
            .unwrap_or(&variant.levels[&level]);
        table.push_str(&texts.text(
            "python_level_row",
            &[
                ("name", &texts.level_name(level.name())),
                ("summary", summary),
                ("public", &public.to_string()),
                ("hidden", &hidden.to_string()),
            ],
        ));
        table.push('\n');
    }
    let sections = texts.text("python_readme", &[("table", &table), ("id", game.id)]);
    Ok(format!("{}{sections}", statement.trim_end()))
}

/// A Python string literal of `text` (JSON's escapes are Python's too).
fn py(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

fn test_py(game: &GameInfo, levels: &[Level], said: &Catalogue) -> String {
    let levels = levels
        .iter()
        .map(|l| format!("\"{l}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let missing =
        said.text("boardkit is not installed: see README.md, where it says how to run the tests");
    format!(
        r#""""{title}, level by level: `python3 -m pytest -k basic` runs one level.

Each level runs `boardkit test`: the grader's public cases, judged as the
grader judges them. Set BOARDKIT to the binary if it is not on the PATH.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

FOLDER = pathlib.Path(__file__).resolve().parent.parent
BOARDKIT = os.environ.get("BOARDKIT") or shutil.which("boardkit")


@pytest.mark.parametrize("level", [{levels}])
def test_level(level):
    if BOARDKIT is None:
        pytest.fail({missing}, pytrace=False)
    run = subprocess.run(
        [BOARDKIT, "test", "{id}", str(FOLDER), "--language", "python", "--level", level],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        # The kit's own words, without pytest's introspection of this test.
        pytest.fail(run.stdout + run.stderr, pytrace=False)
"#,
        title = game.title,
        id = game.id,
        missing = py(missing),
    )
}

/// Each way a student may type a level's name (`Básico`, `basico`,
/// `basic`), plain, to its English name, as a Python dict's entries.
fn level_aliases(levels: &[Level], said: &Catalogue) -> String {
    let mut out = String::new();
    for level in levels {
        let english = level.name();
        let own = said.level_name(english).unwrap_or(english);
        for alias in
            std::collections::BTreeSet::from([english.to_owned(), boardkit::catalogue::plain(own)])
        {
            out.push_str(&format!("{}: {}, ", py(&alias), py(english)));
        }
    }
    out
}

fn conftest_py(game: &GameInfo, levels: &[Level], said: &Catalogue) -> String {
    let names: Vec<String> = levels
        .iter()
        .map(|l| boardkit::level::Words::of(said.clone()).name(l.name()))
        .collect();
    let unknown = said.fill(
        "no level or test is named {filter}: the levels are {levels} (`python3 -m pytest -k basic` runs one)",
        &[("levels", &names.join(", "))],
    );
    format!(
        r#""""Level names in the starter's language, and after the tests, the
levels: each one's count and the level reached."""

import os
import pathlib
import shutil
import subprocess
import unicodedata

FOLDER = pathlib.Path(__file__).resolve().parent.parent
# Each spelling of a level's name a student may type after -k.
LEVELS = {{{aliases}}}


def plain(word):
    word = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(c for c in word if not unicodedata.combining(c))


def pytest_configure(config):
    # `-k Básico`, `-k basico`: the level's English name, which its test's
    # name holds.
    keyword = config.option.keyword
    if keyword and plain(keyword) in LEVELS:
        config.option.keyword = LEVELS[plain(keyword)]


def pytest_collection_finish(session):
    keyword = session.config.option.keyword
    if keyword and not session.items:
        said = {unknown}.replace("{{filter}}", repr(keyword))
        session.config.get_terminal_writer().line(said)


def pytest_terminal_summary(terminalreporter):
    boardkit = os.environ.get("BOARDKIT") or shutil.which("boardkit")
    if boardkit is None:
        return
    command = [boardkit, "test", "{id}", str(FOLDER), "--language", "python"]
    # `-k basic` runs one level: its summary is that level's alone; another
    # filter selects no level, and has no summary.
    keyword = terminalreporter.config.option.keyword
    if keyword:
        if keyword not in LEVELS.values():
            return
        command += ["--level", keyword]
    run = subprocess.run(command, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    if {header} in lines:
        terminalreporter.write_sep("=", {levels_title})
        for line in lines[lines.index({header}) + 1 :]:
            terminalreporter.write_line(line)
    # Last, the public bugs the student's own tests catch: once every level
    # passes (each bug's run costs a second), or when BOARDKIT_MINE=1 asks.
    if keyword or os.environ.get("BOARDKIT_MINE") == "0":
        return
    if run.returncode != 0 and os.environ.get("BOARDKIT_MINE") != "1":
        terminalreporter.write_line({own_later})
        return
    mine = subprocess.run(command + ["--mine"], capture_output=True, text=True)
    if mine.stdout.strip():
        terminalreporter.write_sep("=", {own_title})
        terminalreporter.write_line(mine.stdout.strip().splitlines()[-1])
"#,
        id = game.id,
        aliases = level_aliases(levels, said),
        unknown = py(&unknown),
        header = py(said.text("levels:")),
        levels_title = py(said.text("levels")),
        own_title = py(said.text("your own tests")),
        own_later = py(said.text(
            "your own tests: the kit's bugs they catch are said once every level passes (BOARDKIT_MINE=1 says them now)"
        )),
    )
}

/// A session's file as the Python form runs it: with only the input lines
/// its exam promises at its level (`[python.inputs]`), as the grader feeds
/// them; the file as it is when every line is promised.
fn exam_session(
    game: &GameInfo,
    variant: &PythonVariant,
    fixture: &boardkit::session_fixture::Fixture,
    bytes: &[u8],
) -> Vec<u8> {
    let Some(&filter) = variant.inputs.get(&fixture.level) else {
        return bytes.to_vec();
    };
    let stdin = fixture.stdin_bytes();
    let promised = graded_cases::promised_lines(&stdin, |line| (game.keeps_call)(filter, line));
    let text = String::from_utf8_lossy(bytes);
    let Ok(mut table) = text.parse::<toml::Table>() else {
        return bytes.to_vec();
    };
    if promised == stdin {
        return bytes.to_vec();
    }
    table.insert(
        "stdin".into(),
        String::from_utf8_lossy(&promised).into_owned().into(),
    );
    let description = format!("{}{}", fixture.description, graded_cases::PROMISED_ONLY);
    table.insert("description".into(), description.into());
    toml::to_string(&table).map_or_else(|_| bytes.to_vec(), String::into_bytes)
}
