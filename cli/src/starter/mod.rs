//! `boardkit starter <GAME> <DIR>`: the student's crate, made from the kit.
//!
//! What goes where is the game's manifest (`exercises/<game>/exercise.toml`):
//! its stub becomes the student's folder `src/<game>/`; the kit's files
//! (console, players, the given types, the game's harness) and the student's
//! tests ship as they are; `lib.rs`, `main.rs`, `Cargo.toml`, the README and
//! the CI workflow are generated; the game's public fixtures come with their
//! expected transcripts. Hidden fixtures and those that pin the reference's
//! own random draws never leave the kit.
//!
//! Everything comes from the files embedded at build time (see
//! [`crate::embedded`]), so a starter matches the binary that wrote it.

pub(crate) mod classroom;
pub(crate) mod pytest_check;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::exercise_data::{self, ExerciseError, Manifest};
use crate::registry::GameInfo;
use boardkit::level::Level;
use boardkit::session_fixture::{Fixture, Visibility};

/// The kit's dependencies a starter takes: those its files name (the kit's
/// modules it ships, its tests, the generated entry points, and the
/// example's folder, so a solution may use what the reference uses), with
/// the kit's versions and features. Nothing else is compiled by a student.
fn used_dependencies(table: &toml::Table, texts: &[&str]) -> toml::Table {
    table
        .iter()
        .filter(|(name, _)| {
            let path = format!("{}::", name.replace('-', "_"));
            texts.iter().any(|text| text.contains(&path))
        })
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect()
}

/// Why a starter could not be written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StarterError {
    #[error("unknown game {0:?}: the kit has {1}")]
    UnknownGame(String, String),
    #[error("{0} exists and is not empty: choose a new folder")]
    NotEmpty(PathBuf),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Kit(#[from] ExerciseError),
    #[error("{0} has no Python form yet: its starter is a Rust crate")]
    NoPython(String),
    #[error("{0}'s statement is not written in {1}: it is in {2}")]
    NoLocale(String, String, String),
}

fn kit_file(path: &str) -> Result<&'static [u8], ExerciseError> {
    crate::embedded::file(path).ok_or_else(|| ExerciseError::Missing(path.to_owned()))
}

fn malformed(path: &str, message: impl ToString) -> ExerciseError {
    ExerciseError::Malformed {
        path: path.to_owned(),
        message: message.to_string(),
    }
}

/// The files of a starter for `game`, as (relative path, contents).
/// `locale`: the statement's (English by default; see [`exercise_data::locales`]).
pub(crate) fn starter_files(
    game: &GameInfo,
    locale: Option<&str>,
) -> Result<Vec<(String, Vec<u8>)>, StarterError> {
    let id = game.id;
    let manifest = exercise_data::manifest(id)?;
    let mut files = kit_owned_files(game, &manifest)?;
    for (file, bytes) in exercise_data::stub_folder(&manifest.files.stub, locale) {
        files.push((
            format!("{}/{file}", manifest.files.solution),
            bytes.to_vec(),
        ));
    }
    for path in &manifest.files.test {
        files.push((path.clone(), kit_file(path)?.to_vec()));
    }
    files.push((
        crate::exercise_data::OWN_TESTS_FILE.into(),
        exercise_data::own_tests(&manifest.files.own_tests, locale)?.to_vec(),
    ));
    let fixtures = shipped_fixtures(game)?;
    for (path, bytes, fixture) in &fixtures {
        files.push(((*path).to_owned(), bytes.to_vec()));
        let snapshot = format!("tests/snapshots/{id}__{}.snap", fixture.name);
        // With the reference's reads: the tests name the input line that
        // led to a difference, the one the grader names.
        let (_, _, reads) =
            crate::graded_cases::reference_program(game, &fixture.args, &fixture.stdin_bytes());
        let text = String::from_utf8_lossy(kit_file(&snapshot)?).into_owned();
        let text = with_reads(&text, &reads).ok_or_else(|| malformed(&snapshot, "no header"))?;
        files.push((snapshot, text.into_bytes()));
    }
    // The public function cases, which the grader runs too.
    for (path, bytes) in crate::embedded::under(&format!("fixtures/{id}/functions/")) {
        files.push((path.to_owned(), bytes.to_vec()));
    }
    files.push((
        boardkit::watch::HINTS.into(),
        exercise_data::hints_toml(&manifest.hints, locale).into_bytes(),
    ));
    files.push((
        boardkit::session_fixture::CASES_LOCK.into(),
        cases_lock(game, &files, &fixtures)?.into_bytes(),
    ));
    let (points, hidden) = level_points(game);
    files.push((
        "EXERCISE.md".into(),
        exercise_md(game, locale)?.into_bytes(),
    ));
    let texts = exercise_data::StarterTexts::of(locale)?;
    files.push((
        "README.md".into(),
        readme_md(
            game,
            &texts,
            &manifest,
            locale,
            (&points, &hidden),
            exercise_data::code_notes()?.notes.long_function,
        )
        .into_bytes(),
    ));
    if locale.is_some_and(|l| l != "en") {
        files.push((
            boardkit::level::Words::FILE.into(),
            texts.locale_toml(game.id, false).into_bytes(),
        ));
    }
    files.push((
        ".github/workflows/levels.yml".into(),
        classroom::workflow(&ladder(game, &points)).into_bytes(),
    ));
    files.push((
        ".gitignore".into(),
        b"/target\n*.snap.new\n*.pending-snap\n".to_vec(),
    ));
    Ok(files)
}

/// `tests/cases.lock`: each public case's test name, then the fingerprint
/// and path of each file it reads (its fixture, its snapshot). The tests
/// read it (`tests/common`): a case whose file was deleted or changed
/// fails, naming the file, so the level they report is the grader's.
fn cases_lock(
    game: &GameInfo,
    files: &[(String, Vec<u8>)],
    fixtures: &[ShippedFixture],
) -> Result<String, StarterError> {
    let mut lock = String::from(
        "# The public cases as `boardkit starter` wrote them: a test name, then the\n\
         # fingerprint and path of a file it reads. `cargo test` fails a case whose\n\
         # file was deleted or changed, as the grader runs its own copy. Keep this file.\n",
    );
    let functions = format!("fixtures/{}/functions/", game.id);
    for (path, bytes) in files {
        let name = if let Some(file) = path.strip_prefix(&functions) {
            let name = file.strip_suffix(".toml").unwrap_or(file);
            let text = std::str::from_utf8(bytes).map_err(|e| malformed(path, e))?;
            boardkit::function_fixture::FunctionCase::parse(text, name)
                .map_err(|e| malformed(path, e))?
                .test_name()
        } else if let Some((_, _, fixture)) = fixtures.iter().find(|(p, _, f)| {
            p == path || *path == format!("tests/snapshots/{}__{}.snap", game.id, f.name)
        }) {
            fixture.test_name()
        } else {
            continue;
        };
        lock.push_str(&format!(
            "{name} {:016x} {path}\n",
            boardkit::session_fixture::fingerprint(bytes)
        ));
    }
    Ok(lock)
}

/// A snapshot with `reads: <reads>` last in its header (insta's `---`
/// block), where `tests/common` finds it.
fn with_reads(snapshot: &str, reads: &boardkit::compare::Reads) -> Option<String> {
    let header = snapshot.strip_prefix("---\n")?.find("\n---\n")? + 4;
    Some(format!(
        "{}\nreads: {reads}{}",
        &snapshot[..header],
        &snapshot[header..]
    ))
}

/// A fixture a starter ships: its embedded path and bytes, and what they say.
type ShippedFixture = (&'static str, &'static [u8], Fixture);

/// Every session fixture of `game` (`fixtures/<game>/*.toml`), parsed.
fn session_fixtures(game: &GameInfo) -> Result<Vec<ShippedFixture>, StarterError> {
    let prefix = format!("fixtures/{}/", game.id);
    let mut sessions = Vec::new();
    for (path, bytes) in crate::embedded::under(&prefix) {
        let Some(name) = path[prefix.len()..]
            .strip_suffix(".toml")
            .filter(|name| !name.contains('/'))
        else {
            continue;
        };
        let text = std::str::from_utf8(bytes).map_err(|e| malformed(path, e))?;
        let fixture = Fixture::parse(text, name, game.id).map_err(|e| malformed(path, e))?;
        sessions.push((path, bytes, fixture));
    }
    Ok(sessions)
}

/// The fixtures of `game` a starter ships: the public ones that do not pin
/// the reference.
fn shipped_fixtures(game: &GameInfo) -> Result<Vec<ShippedFixture>, StarterError> {
    let mut shipped = session_fixtures(game)?;
    shipped.retain(|(_, _, f)| f.visibility != Visibility::Hidden && !f.reference_only);
    Ok(shipped)
}

/// The points of each level of `game`, public (the starter's cases) and
/// hidden (the grader's alone): the grader's one count
/// ([`crate::graded_cases::level_points`]), which every README shows.
pub(crate) type Points = Vec<(Level, u32)>;
pub(crate) fn level_points(game: &GameInfo) -> (Points, Points) {
    let graded = crate::graded_cases::level_points(game);
    (
        graded.iter().map(|p| (p.level, p.public)).collect(),
        graded.iter().map(|p| (p.level, p.hidden)).collect(),
    )
}

/// The built-in crate's levels as its Classroom workflow grades them:
/// each level's public `points`, its tests run by cargo.
pub(crate) fn ladder(game: &GameInfo, points: &[(Level, u32)]) -> classroom::Ladder {
    let id = game.id;
    classroom::Ladder {
        generator: format!("boardkit starter {id}"),
        toolchain: classroom::Toolchain::Rust,
        setup: format!("cargo test --test {id} --no-run"),
        rungs: points
            .iter()
            .map(|&(level, max_score)| classroom::Rung {
                level: level.to_string(),
                max_score,
                command: format!("cargo test --test {id} {level}"),
            })
            .collect(),
    }
}

/// A kit file as a starter ships it: without its unit tests (the kit's
/// own, which its CI runs), so that a student's `cargo test` runs only the
/// exercise's tests and their own, and compiles less. A test module is
/// the last item of a kit file; a file where it is not is shipped whole.
pub(crate) fn without_unit_tests(bytes: &[u8]) -> Vec<u8> {
    const TESTS: &str = "\n#[cfg(test)]\nmod tests {\n";
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bytes.to_vec();
    };
    let Some(at) = text.find(TESTS) else {
        return bytes.to_vec();
    };
    // Past its first line the module has only indented or blank lines,
    // and its closing brace, the file's last line.
    let module = &text[at + TESTS.len()..];
    let to_the_end = module.ends_with("}\n")
        && module.lines().filter(|line| *line == "}").count() == 1
        && module
            .lines()
            .all(|line| line.is_empty() || line.starts_with(' ') || line == "}");
    if !to_the_end {
        return bytes.to_vec();
    }
    let mut kept = text[..at].trim_end().to_owned();
    kept.push('\n');
    kept.into_bytes()
}

/// The files of a starter that are the kit's and never the student's: the
/// shipped kit code, the generated `lib.rs`, `main.rs` and module lists, the
/// manifest and the lock file. The grader builds every submission from these
/// and the student's folder alone.
pub(crate) fn kit_owned_files(
    game: &GameInfo,
    manifest: &Manifest,
) -> Result<Vec<(String, Vec<u8>)>, StarterError> {
    let mut files = Vec::new();
    // Modules of the crate's root, and the files of each kit folder.
    let mut root_modules = BTreeSet::new();
    let mut folders: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for path in &manifest.files.kit {
        files.push((path.clone(), without_unit_tests(kit_file(path)?)));
        let module = path
            .strip_prefix("src/")
            .and_then(|p| p.strip_suffix(".rs"))
            .ok_or_else(|| malformed("exercise.toml", format!("{path} is not a module")))?;
        match module.split_once('/') {
            None => {
                root_modules.insert(module.to_owned());
            }
            Some((folder, file)) => {
                root_modules.insert(folder.to_owned());
                folders
                    .entry(folder.to_owned())
                    .or_default()
                    .push(file.to_owned());
            }
        }
    }
    for (folder, modules) in &folders {
        let mut text = format!(
            "//! The kit's `{folder}` modules for this exercise (see the kit's documentation).\n\n"
        );
        for module in modules {
            text.push_str(&format!("pub mod {module};\n"));
        }
        files.push((format!("src/{folder}/mod.rs"), text.into_bytes()));
    }
    files.push((
        "src/lib.rs".into(),
        lib_rs(game, &root_modules).into_bytes(),
    ));
    files.push(("src/main.rs".into(), main_rs(game).into_bytes()));
    files.push(("Cargo.toml".into(), cargo_toml(game)?.into_bytes()));
    files.push((
        "Cargo.lock".into(),
        kit_file(&manifest.files.lock)?.to_vec(),
    ));
    Ok(files)
}

/// Writes the starter for game `id` into `dir`, which must be new or empty.
/// Returns the files written.
pub(crate) fn write_starter(
    id: &str,
    dir: &Path,
    locale: Option<&str>,
) -> Result<Vec<PathBuf>, StarterError> {
    let game = crate::registry::find(id)
        .ok_or_else(|| StarterError::UnknownGame(id.to_owned(), crate::registry::names()))?;
    let locale = check_locale(id, locale)?;
    let locale = locale.as_deref();
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(StarterError::NotEmpty(dir.to_owned()));
    }
    write_files(dir, &starter_files(game, locale)?)
}

/// The locale `id`'s statement is written in that `locale` names, in any
/// case and with `-` or `_` (`pt-br`, `pt_BR` are `pt-BR`), or by its
/// language alone when one locale has it (`pt`, `pt-PT`: `pt-BR`, said);
/// refuses one it is not written in.
fn check_locale(id: &str, locale: Option<&str>) -> Result<Option<String>, StarterError> {
    let Some(asked) = locale else {
        return Ok(None);
    };
    let locales = exercise_data::locales(id);
    let same = |known: &str| known.eq_ignore_ascii_case(&asked.replace('_', "-"));
    let language = |tag: &str| {
        tag.split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_lowercase()
    };
    let of_language: Vec<&String> = locales
        .iter()
        .filter(|known| language(known) == language(asked))
        .collect();
    match (
        locales.iter().find(|known| same(known)),
        of_language.as_slice(),
    ) {
        (Some(known), _) => Ok(Some(known.clone())),
        (None, [known]) => {
            eprintln!("boardkit: --locale {asked}: the statement's {known}");
            Ok(Some((*known).clone()))
        }
        (None, _) => Err(StarterError::NoLocale(
            id.to_owned(),
            asked.to_owned(),
            locales.join(", "),
        )),
    }
}

/// Writes `files` below `dir`, making folders as needed.
pub(crate) fn write_files(
    dir: &Path,
    files: &[(String, Vec<u8>)],
) -> Result<Vec<PathBuf>, StarterError> {
    let mut written = Vec::new();
    for (path, bytes) in files {
        let target = dir.join(path);
        let write = || -> std::io::Result<()> {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, bytes)
        };
        write().map_err(|source| StarterError::Write {
            path: target.clone(),
            source,
        })?;
        written.push(target);
    }
    Ok(written)
}

fn lib_rs(game: &GameInfo, kit_modules: &BTreeSet<String>) -> String {
    let mut out = format!(
        "//! {title}: your crate. Your code is in `src/{id}/`, all of it yours;\n\
         //! every other module is the kit's, and the grader uses its own copy.\n\n",
        title = game.title,
        id = game.id
    );
    let mut modules: Vec<&str> = kit_modules.iter().map(String::as_str).collect();
    modules.push(game.id);
    modules.sort_unstable();
    for module in modules {
        out.push_str(&format!("pub mod {module};\n"));
    }
    out
}

fn main_rs(game: &GameInfo) -> String {
    format!(
        r#"//! The {title} program: `cargo run -- play {id} [OPTIONS]`.
//!
//! The kit's: it reads the options and runs your program (`src/{id}/`).

fn main() -> std::process::ExitCode {{
    boardkit::program::starter_main("{title}", "{id}", boardkit::harness::{id}::play)
}}
"#,
        title = game.title,
        id = game.id
    )
}

/// A generated manifest (trybuild's way: serde structs, not hand-built tables).
#[derive(Serialize)]
struct CargoManifest {
    package: Package,
    lib: Target,
    bin: Vec<Target>,
    dependencies: toml::Table,
    #[serde(rename = "dev-dependencies")]
    dev_dependencies: toml::Table,
    test: Vec<TestTarget>,
    /// The kit's lint set: `cargo clippy` here warns of what the grader notes.
    lints: toml::Table,
    profile: Profiles,
}

/// A student's build profile: their crate at `opt-level = 1` (the AI
/// levels' tests search positions), its dependencies at Cargo's defaults
/// and without debug info. Not the kit's own `opt-level = 2` for
/// dependencies: that optimises the proc macros too (`syn`, `serde_derive`,
/// `clap_derive`), which only run at build time, and doubled a first
/// `cargo test` (54.7 s to 28.5 s on 2 cores without it).
#[derive(Serialize)]
struct Profiles {
    dev: DevProfile,
}

#[derive(Serialize)]
struct DevProfile {
    #[serde(rename = "opt-level")]
    opt_level: u8,
    package: std::collections::BTreeMap<&'static str, PackageProfile>,
}

#[derive(Serialize)]
struct PackageProfile {
    #[serde(skip_serializing_if = "Option::is_none")]
    debug: Option<bool>,
    #[serde(rename = "opt-level", skip_serializing_if = "Option::is_none")]
    opt_level: Option<u8>,
}

/// The TOML reader a starter's tests read their fixtures with, and what
/// it compiles: built unoptimised. Optimised, it cost a first `cargo test`
/// 4 to 5 s of CPU (and 3 to 4 s on the wall) of Mastermind's 23 to 25 on
/// 2 cores; unoptimised, it reads velha's megabyte of fixtures in 0.1 s
/// more per run. A student's code never calls it.
const UNOPTIMISED: [&str; 4] = ["toml", "toml_parser", "winnow", "serde_core"];

/// A starter's `[profile.dev]`: see [`Profiles`]; the TOML reader at
/// `opt-level = 0`, each of its packages the starter's lock (`lock`, its
/// text) holds (Cargo warns of a profile for a package it has not).
fn dev_profile(lock: &str) -> DevProfile {
    let mut package: std::collections::BTreeMap<&'static str, PackageProfile> = [(
        "*",
        PackageProfile {
            debug: Some(false),
            opt_level: None,
        },
    )]
    .into();
    for name in UNOPTIMISED {
        if lock.contains(&format!("\nname = \"{name}\"\n")) {
            let profile = PackageProfile {
                debug: None,
                opt_level: Some(0),
            };
            package.insert(name, profile);
        }
    }
    DevProfile {
        opt_level: 1,
        package,
    }
}

#[derive(Serialize)]
struct Package {
    name: String,
    version: &'static str,
    edition: &'static str,
    /// The kit's: clippy suggests nothing its code could not compile.
    #[serde(rename = "rust-version", skip_serializing_if = "Option::is_none")]
    rust_version: Option<String>,
    publish: bool,
}

#[derive(Serialize)]
struct Target {
    name: String,
    path: String,
    /// `false` for the binary: `main.rs` only dispatches, and a test
    /// target of it would print `running 0 tests` to every student.
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<bool>,
    /// `false` for the library: its doc examples are the kit's, and
    /// rustdoc would compile each one for a student's every `cargo test`.
    #[serde(skip_serializing_if = "Option::is_none")]
    doctest: Option<bool>,
}

#[derive(Serialize)]
struct TestTarget {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    harness: bool,
}

/// The dependencies a starter's library uses, of those the `boardkit`
/// crate has: the kit's shipped files, the example and the generated roots
/// name them.
fn library_dependencies(
    game: &GameInfo,
    manifest: &exercise_data::Manifest,
    kit: &toml::Table,
    versions: &toml::Table,
) -> Result<toml::Table, StarterError> {
    let mut shipped: Vec<Vec<u8>> = Vec::new();
    for path in &manifest.files.kit {
        shipped.push(kit_file(path)?.to_vec());
    }
    // The example's code, without its unit tests (the kit's, never built
    // in a starter): what a solution may use is what the reference's code does.
    shipped.extend(
        exercise_data::folder(&manifest.files.example)
            .into_iter()
            .map(|(_, b)| without_unit_tests(b)),
    );
    let generated = [main_rs(game), lib_rs(game, &BTreeSet::new())];
    let mut texts: Vec<&str> = shipped
        .iter()
        .filter_map(|b| std::str::from_utf8(b).ok())
        .collect();
    texts.extend(generated.iter().map(String::as_str));
    // A starter's library is the `boardkit` crate cut to one game: it takes
    // only what that crate depends on (a reference's test-only crates stay out).
    let library: toml::Table = kit
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|own| {
            // Not its optional ones: the `kit` feature's (clap's options,
            // serde's reports) are the kit binary's alone.
            let required = |name: &String| {
                own.get(name)
                    .is_some_and(|d| d.get("optional").and_then(|o| o.as_bool()) != Some(true))
            };
            versions
                .iter()
                .filter(|(name, _)| required(name))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect()
        })
        .unwrap_or_default();
    let dependencies = used_dependencies(&library, &texts);
    Ok(dependencies)
}

/// The kit's lint set, and the `kit` feature its shipped files name: the
/// kit's own crate turns it on (clap's options, serde's reports); a starter
/// never does, and its compiler expects the name.
fn starter_lints() -> Result<toml::Table, StarterError> {
    let mut lints = exercise_data::code_notes()?.lints;
    let rust = lints
        .entry("rust")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let Some(rust) = rust.as_table_mut() {
        let mut cfgs = toml::Table::new();
        cfgs.insert("level".into(), "warn".into());
        cfgs.insert(
            "check-cfg".into(),
            toml::Value::Array(vec![r#"cfg(feature, values("kit"))"#.into()]),
        );
        rust.insert("unexpected_cfgs".into(), toml::Value::Table(cfgs));
    }
    Ok(lints)
}

/// The kit's tests, then the student's own (`tests/mine.rs`, as
/// `your_tests`), then the line that says which bugs those catch: Cargo
/// runs test targets by name, so in that order for every game. Cargo
/// stops at the first that fails: when the kit's do, they run the
/// student's own (`tests/common/own.rs`) and print the line themselves.
fn test_targets(game: &GameInfo) -> Vec<TestTarget> {
    let target = |name: &str, path: Option<&str>, harness| TestTarget {
        name: name.into(),
        path: path.map(str::to_owned),
        harness,
    };
    vec![
        target(game.id, None, false),
        target(
            "your_tests",
            Some(crate::exercise_data::OWN_TESTS_FILE),
            true,
        ),
        target("your_tests_catch", None, false),
    ]
}

fn cargo_toml(game: &GameInfo) -> Result<String, StarterError> {
    let kit: toml::Table = std::str::from_utf8(kit_file("Cargo.toml")?)
        .map_err(|e| malformed("Cargo.toml", e))?
        .parse()
        .map_err(|e: toml::de::Error| malformed("Cargo.toml", e))?;
    // Every version and feature is the workspace's, declared once there.
    let versions = kit
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.as_table())
        .cloned()
        .unwrap_or_default();
    let manifest = exercise_data::manifest(game.id)?;
    let lock = kit_file(&manifest.files.lock)?;
    let profile = dev_profile(&String::from_utf8_lossy(lock));
    let dependencies = library_dependencies(game, &manifest, &kit, &versions)?;
    // The tests are the kit's files under `tests/`; the library's own code
    // never needs a dev-dependency.
    let test_texts: Vec<&str> = manifest
        .files
        .test
        .iter()
        .filter_map(|path| std::str::from_utf8(kit_file(path).ok()?).ok())
        .collect();
    let dev_dependencies: toml::Table = used_dependencies(&versions, &test_texts)
        .into_iter()
        .filter(|(name, _)| !dependencies.contains_key(name))
        .collect();
    let manifest = CargoManifest {
        package: Package {
            name: format!("{}-exercise", game.id),
            version: "0.1.0",
            edition: "2024",
            rust_version: kit
                .get("workspace")
                .and_then(|w| w.get("package"))
                .and_then(|p| p.get("rust-version"))
                .and_then(|v| v.as_str())
                .map(str::to_owned),
            publish: false,
        },
        lib: Target {
            name: "boardkit".into(),
            path: "src/lib.rs".into(),
            test: Some(false),
            doctest: Some(false),
        },
        bin: vec![Target {
            name: "boardkit".into(),
            path: "src/main.rs".into(),
            test: Some(false),
            doctest: None,
        }],
        dependencies,
        dev_dependencies,
        test: test_targets(game),
        lints: starter_lints()?,
        profile: Profiles { dev: profile },
    };
    let body = toml::to_string(&manifest)
        .map_err(|e| malformed("Cargo.toml", e))?
        .replacen(
            "\n[lints.",
            "\n# The kit's lint set: `cargo clippy` warns of what the grader notes.\n[lints.",
            1,
        );
    Ok(format!(
        "# Generated by `boardkit starter {}`. The kit grades with its own copy of this file.\n{body}",
        game.id
    ))
}

/// The statement's introduction and the game's section.
fn exercise_md(game: &GameInfo, locale: Option<&str>) -> Result<String, StarterError> {
    if let Some(locale) = locale.filter(|l| *l != "en") {
        let path = exercise_data::translation(game.id, locale);
        let text = std::str::from_utf8(kit_file(&path)?).map_err(|e| malformed(&path, e))?;
        return Ok(text.to_owned());
    }
    let text =
        std::str::from_utf8(kit_file("EXERCISE.md")?).map_err(|e| malformed("EXERCISE.md", e))?;
    let sections: Vec<&str> = text.split("\n---\n").collect();
    let heading = format!("# {}", game.title);
    let section = sections
        .iter()
        .find(|s| s.trim_start().starts_with(&heading))
        .ok_or_else(|| malformed("EXERCISE.md", format!("no section {heading:?}")))?;
    let manifest = exercise_data::manifest(game.id)?;
    let intro = of_one_game(sections[0].trim_end(), game.id, &manifest.intro)?;
    // A blank line before the rule, so that it is not read as a heading.
    Ok(format!("{intro}\n\n---\n{section}"))
}

/// The statement's introduction, written for every game, as a starter of
/// `game` says it: its folder and commands (`src/connect4/`, not
/// `src/<game>/`), and each of the exercise's own readings of it
/// (`intro` in its manifest: velha's `entrada`, Mastermind's graded
/// fragments in Mastermind's alone). Refused when the introduction no
/// longer holds a text to read so.
fn of_one_game(intro: &str, game: &str, own: &[[String; 2]]) -> Result<String, StarterError> {
    let mut text = intro.to_owned();
    let generic = [String::from("<game>"), game.to_owned()];
    for [written, said] in own.iter().chain([&generic]) {
        if !text.contains(written.as_str()) {
            return Err(StarterError::Kit(malformed(
                "EXERCISE.md",
                format!(
                    "its introduction no longer holds {written:?}, which the exercise's `intro` reads"
                ),
            )));
        }
        text = text.replace(written.as_str(), said);
    }
    Ok(text)
}

/// Each level's points.
type LevelPoints<'a> = &'a [(Level, u32)];

/// A Rust starter's README, in the starter's language: its commands, its
/// files, each level with its points, the robustness part, what a failure
/// says, watch mode, CI and the notes on code.
fn readme_md(
    game: &GameInfo,
    texts: &exercise_data::StarterTexts,
    manifest: &exercise_data::Manifest,
    locale: Option<&str>,
    (points, hidden_points): (LevelPoints<'_>, LevelPoints<'_>),
    long_function: usize,
) -> String {
    let points_of = |list: &[(Level, u32)], level: Level| {
        list.iter()
            .find(|(l, _)| *l == level)
            .map_or(0, |(_, p)| *p)
    };
    let mut levels = String::new();
    for level in game.levels {
        let hidden = points_of(hidden_points, level.level);
        let hidden = if hidden > 0 {
            texts.text("hidden", &[("hidden", &hidden.to_string())])
        } else {
            String::new()
        };
        let summary = locale
            .and_then(|l| manifest.summaries.get(l))
            .and_then(|s| s.get(&level.level))
            .map_or(level.summary, String::as_str);
        levels.push_str(&texts.text(
            "level_line",
            &[
                ("level", level.level.name()),
                ("name", &texts.level_name(level.level.name())),
                ("points", &points_of(points, level.level).to_string()),
                ("hidden", &hidden),
                ("summary", summary),
            ],
        ));
        levels.push('\n');
    }
    let (public, hidden) = crate::graded_cases::robustness_points(game);
    if public + hidden > 0 {
        let hidden = if hidden > 0 {
            texts.text("robustness_hidden", &[("hidden", &hidden.to_string())])
        } else {
            String::new()
        };
        levels.push_str(&texts.text(
            "robustness_line",
            &[("public", &public.to_string()), ("hidden", &hidden)],
        ));
        levels.push('\n');
    }
    texts
        .text(
            "readme",
            &[
                (
                    "title",
                    locale
                        .and_then(|l| manifest.titles.get(l))
                        .map_or(game.title, String::as_str),
                ),
                ("id", game.id),
                ("long", &long_function.to_string()),
                ("levels", &levels),
            ],
        )
        .trim_start()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a translation must keep of a statement, in order: its fenced
    /// code blocks, its inline code (names, signatures, exact lines), and
    /// how many headings of each depth it has.
    fn untranslated(text: &str) -> (Vec<String>, Vec<String>, usize, usize) {
        let mut blocks = Vec::new();
        let mut prose = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("```") {
            prose.push_str(&rest[..start]);
            let after = &rest[start + 3..];
            let end = after.find("```").map_or(after.len(), |e| e + 3);
            blocks.push(rest[start..start + 3 + end].to_owned());
            rest = &after[end.min(after.len())..];
        }
        prose.push_str(rest);
        // A span may run over a line break, wherever the prose wraps.
        let spans: Vec<String> = prose
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|span| span.replace('\n', " "))
            .collect();
        let depth = |prefix: &str| text.lines().filter(|l| l.starts_with(prefix)).count();
        (blocks, spans, depth("# "), depth("## "))
    }

    #[test]
    fn a_starters_readme_claims_no_free_text_its_statement_compares() {
        // Connect four compares its prompt (EXERCISE.md's opening section):
        // no starter's README may say prompts are free.
        for game in crate::registry::GAMES {
            let dir = tempfile::tempdir().unwrap();
            write_starter(game.id, dir.path(), None).unwrap();
            let readme = std::fs::read_to_string(dir.path().join("README.md")).unwrap();
            assert!(
                !readme.contains("prompts and other text of your own are not compared"),
                "{}",
                game.id
            );
            assert!(readme.contains("on the lines EXERCISE.md says are compared"));
        }
        let statement = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../EXERCISE.md"),
        )
        .unwrap();
        assert!(statement.contains("its prompt is one of the compared lines"));
    }

    #[test]
    fn a_locale_is_taken_in_any_case() {
        assert_eq!(
            check_locale("velha", Some("pt-br")).unwrap().as_deref(),
            Some("pt-BR")
        );
        assert_eq!(
            check_locale("velha", Some("PT_BR")).unwrap().as_deref(),
            Some("pt-BR")
        );
        assert_eq!(
            check_locale("connect4", Some("FR")).unwrap().as_deref(),
            Some("fr")
        );
        // The language alone, or another country's: the one locale of it.
        for asked in ["pt", "pt-PT"] {
            assert_eq!(
                check_locale("velha", Some(asked)).unwrap().as_deref(),
                Some("pt-BR")
            );
        }
        assert_eq!(
            check_locale("connect4", Some("fr-CH")).unwrap().as_deref(),
            Some("fr")
        );
        assert_eq!(check_locale("velha", None).unwrap(), None);
        assert!(matches!(
            check_locale("velha", Some("fr")),
            Err(StarterError::NoLocale(..))
        ));
        let dir = tempfile::tempdir().unwrap();
        write_starter("velha", dir.path(), Some("pt-br")).unwrap();
        let statement = std::fs::read_to_string(dir.path().join("EXERCISE.md")).unwrap();
        let english = exercise_md(crate::registry::find("velha").unwrap(), None).unwrap();
        assert_ne!(statement, english, "the translation, not the English");
    }

    #[test]
    fn a_starter_runs_no_unit_test_of_the_kit_and_no_test_of_its_binary() {
        for game in crate::registry::GAMES {
            let dir = tempfile::tempdir().unwrap();
            write_starter(game.id, dir.path(), None).unwrap();
            let manifest = exercise_data::manifest(game.id).unwrap();
            for path in &manifest.files.kit {
                let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
                assert!(!text.contains("#[cfg(test)]"), "{}: {path}", game.id);
                assert!(text.ends_with("}\n") || text.ends_with(";\n"), "{path}");
            }
            let cargo_toml = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap();
            let bin = cargo_toml.split("[[bin]]").nth(1).unwrap_or_default();
            assert!(bin.contains("test = false"), "{cargo_toml}");
        }
        // A module that is not last, or not a test module, stays.
        let not_last = b"fn a() {}\n\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n\nfn b() {}\n";
        assert_eq!(without_unit_tests(not_last), not_last.to_vec());
        let last = b"fn a() {}\n\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n";
        assert_eq!(without_unit_tests(last), b"fn a() {}\n".to_vec());
    }

    #[test]
    fn a_starters_statement_speaks_of_its_own_game() {
        for game in crate::registry::GAMES {
            let text = exercise_md(game, None).unwrap();
            let intro = text.split("\n---\n").next().unwrap();
            assert!(!intro.contains("<game>"), "{}", game.id);
            assert!(intro.contains(&format!("`src/{}/`", game.id)), "{intro}");
            assert_eq!(intro.contains("entrada"), game.id == "velha", "{intro}");
            assert_eq!(
                intro.contains("`Secret: `"),
                game.id == "mastermind",
                "{intro}"
            );
            assert!(!intro.contains("Connect four"), "{intro}");
            assert_eq!(
                intro.contains("its only free text"),
                game.id == "connect4",
                "{intro}"
            );
        }
    }

    #[test]
    fn every_translation_keeps_the_statements_names_signatures_lines_and_levels() {
        let mut translated = Vec::new();
        for game in crate::registry::GAMES {
            let english = exercise_md(game, None).unwrap();
            for locale in exercise_data::locales(game.id).iter().skip(1) {
                let text = exercise_md(game, Some(locale)).unwrap();
                assert_eq!(
                    untranslated(&text),
                    untranslated(&english),
                    "{} in {locale}",
                    game.id
                );
                translated.push(format!("{} {locale}", game.id));
            }
        }
        // The courses' own languages.
        for expected in ["velha pt-BR", "connect4 fr"] {
            assert!(
                translated.iter().any(|t| t == expected),
                "{expected}: {translated:?}"
            );
        }
    }

    #[test]
    fn a_starter_holds_the_stub_and_no_hidden_or_reference_fixture() {
        for game in crate::registry::GAMES {
            let files = starter_files(game, None).unwrap();
            let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
            assert!(paths.contains(&"Cargo.toml") && paths.contains(&"src/main.rs"));
            assert!(!paths.iter().any(|p| p.contains("hidden")), "{paths:?}");
            assert!(!paths.iter().any(|p| p.contains("seed")), "{paths:?}");
            let stub = files
                .iter()
                .find(|(p, _)| p == &format!("src/{}/mod.rs", game.id))
                .unwrap();
            let stub = String::from_utf8_lossy(&stub.1);
            assert!(stub.contains("todo!("), "{}", game.id);
            // No blanket allow: a stub compiles without warnings as it is.
            assert!(!stub.contains("#![allow"), "{}", game.id);
        }
    }

    /// The starter's README gives each level the grader's points.
    #[test]
    fn the_starters_readme_gives_the_graders_points() {
        for game in crate::registry::GAMES {
            let graded = crate::graded_cases::level_points(game);
            let manifest = exercise_data::manifest(game.id).unwrap();
            for locale in exercise_data::locales(game.id) {
                let texts = exercise_data::StarterTexts::of(Some(&locale)).unwrap();
                let readme = String::from_utf8(file_of(
                    &starter_files(game, Some(&locale)).unwrap(),
                    "README.md",
                ))
                .unwrap();
                for g in &graded {
                    let name = texts.level_name(g.level.name());
                    let command = format!("`cargo test {}`", g.level);
                    let line = readme.lines().find(|l| l.contains(&command));
                    assert!(
                        line.is_some_and(|l| l.contains(&name)
                            && l.contains(&format!(" {} ", g.public))
                            // `Basique (basic)` in no other parentheses.
                            && (locale == "en" || !l.contains(&format!("({name}")))),
                        "{} {locale}: {line:?}",
                        game.id
                    );
                }
                assert!(!manifest.summaries.is_empty() || locale == "en");
            }
        }
    }

    fn file_of(files: &[(String, Vec<u8>)], path: &str) -> Vec<u8> {
        files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, b)| b.clone())
            .unwrap_or_else(|| panic!("no {path}"))
    }

    /// A code line of a stub: comments, doc comments and the text of a
    /// `todo!()` or `raise` dropped, which a translation changes.
    fn code_lines(text: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let mut docstring = false;
        for line in text.lines() {
            let trimmed = line.trim();
            let quotes = trimmed.matches("\"\"\"").count();
            if docstring || quotes > 0 {
                if quotes == 1 {
                    docstring = !docstring;
                }
                continue;
            }
            if trimmed.is_empty()
                || trimmed.starts_with("//")
                || trimmed.starts_with('#') && !trimmed.starts_with("#[")
            {
                continue;
            }
            let code = trimmed.split(" // ").next().unwrap_or(trimmed);
            let code = match code
                .find("todo!(")
                .or_else(|| code.find("NotImplementedError("))
            {
                Some(at) => &code[..at],
                None => code,
            };
            lines.push(code.to_owned());
        }
        lines
    }

    /// Each translated starter is in its language whole: README, stubs,
    /// level names and the words its tests end with (SPEC 5.2); its stubs
    /// are the English stubs' code.
    #[test]
    fn a_translated_starter_is_translated_whole() {
        let english_phrases = [
            "The statement is",
            "## Levels",
            "Levels and points",
            "Running the tests",
            "Notes on your code",
            "see EXERCISE.md",
            "level basic",
            "(basic;",
        ];
        for (id, locale, word) in [
            ("velha", "pt-BR", "Básico (basic)"),
            ("connect4", "fr", "Basique (basic)"),
        ] {
            let game = crate::registry::find(id).unwrap();
            let files = starter_files(game, Some(locale)).unwrap();
            let manifest = exercise_data::manifest(id).unwrap();
            let stub = format!("{}/", manifest.files.solution);
            for (path, bytes) in &files {
                let text = String::from_utf8_lossy(bytes);
                if path == "README.md" || path.starts_with(&stub) {
                    for phrase in english_phrases {
                        assert!(
                            !text.contains(phrase),
                            "{id} {locale} {path}: {phrase:?}\n{text}"
                        );
                    }
                }
            }
            let readme = String::from_utf8(file_of(&files, "README.md")).unwrap();
            assert!(readme.contains(word), "{readme}");
            let words = String::from_utf8(file_of(&files, boardkit::level::Words::FILE)).unwrap();
            assert!(words.contains(word.split(' ').next().unwrap()), "{words}");
            for (file, english) in exercise_data::folder(&manifest.files.stub) {
                let translated = file_of(&files, &format!("{stub}{file}"));
                assert_eq!(
                    code_lines(&String::from_utf8_lossy(&translated)),
                    code_lines(&String::from_utf8_lossy(english)),
                    "{id} {locale} {file}"
                );
            }
        }
    }

    /// The starter's tests read its fixtures and function cases: those must
    /// be the grader's public cases, name for name (`boardkit dev check`
    /// also lists the built starter's tests).
    #[test]
    fn a_starter_ships_the_graders_public_cases_and_no_other() {
        for game in crate::registry::GAMES {
            let sessions = format!("fixtures/{}/", game.id);
            let functions = format!("fixtures/{}/functions/", game.id);
            let mut shipped = BTreeSet::new();
            for (path, bytes) in starter_files(game, None).unwrap() {
                let text = String::from_utf8(bytes).unwrap();
                if let Some(name) = path
                    .strip_prefix(&functions)
                    .and_then(|n| n.strip_suffix(".toml"))
                {
                    let case =
                        boardkit::function_fixture::FunctionCase::parse(&text, name).unwrap();
                    shipped.insert(case.test_name());
                } else if let Some(name) = path
                    .strip_prefix(&sessions)
                    .and_then(|n| n.strip_suffix(".toml"))
                {
                    let fixture = Fixture::parse(&text, name, game.id).unwrap();
                    if game.level(fixture.level).and_then(|l| l.events()).is_some() {
                        shipped.insert(fixture.test_name());
                    }
                }
            }
            let graded: BTreeSet<String> =
                crate::graded_cases::cases(game, crate::graded_cases::Grading::Crates)
                    .into_iter()
                    .filter(|c| !c.hidden)
                    .map(|c| c.name)
                    .collect();
            assert_eq!(shipped, graded, "{}", game.id);
        }
    }

    /// A starter's lock holds just what its manifest needs, at the kit's
    /// versions: cargo takes it as it is (`--locked`), offline. With
    /// `BOARDKIT_BLESS=1`, it is made from the kit's lock by cargo itself
    /// (`cargo update --workspace --offline` drops the unused packages and
    /// moves no other).
    #[test]
    fn a_starter_has_a_lock_of_its_own() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let bless = std::env::var_os("BOARDKIT_BLESS").is_some();
        let root = &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for game in crate::registry::GAMES {
            let dir = tempfile::tempdir().unwrap();
            let files = starter_files(game, None).unwrap();
            write_files(dir.path(), &files).unwrap();
            let lock = exercise_data::manifest(game.id).unwrap().files.lock;
            let cargo_in = |args: &[&str]| {
                std::process::Command::new(&cargo)
                    .args(args)
                    .current_dir(dir.path())
                    .env_remove("CARGO_TARGET_DIR")
                    .output()
                    .unwrap()
            };
            let run = |args: &[&str]| {
                let mut output = cargo_in(args);
                // A package of another platform that this machine never
                // downloaded: the same check, online.
                if !output.status.success()
                    && String::from_utf8_lossy(&output.stderr).contains("offline")
                {
                    let online: Vec<&str> =
                        args.iter().copied().filter(|a| *a != "--offline").collect();
                    output = cargo_in(&online);
                }
                assert!(
                    output.status.success(),
                    "{}: cargo {args:?}: {}",
                    game.id,
                    String::from_utf8_lossy(&output.stderr)
                );
            };
            if bless {
                std::fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
                run(&["update", "--workspace", "--offline", "--quiet"]);
                std::fs::copy(dir.path().join("Cargo.lock"), root.join(&lock)).unwrap();
            }
            run(&[
                "metadata",
                "--locked",
                "--offline",
                "--format-version",
                "1",
                "--quiet",
            ]);
            // What a student's first `cargo test` compiles, on this
            // platform: no proc macro (SPEC 8: no derive a student's crate
            // compiles for nothing).
            let tree = cargo_in(&[
                "tree",
                "--locked",
                "-e",
                "normal,build,dev",
                "--prefix",
                "none",
            ]);
            let tree = String::from_utf8_lossy(&tree.stdout);
            for proc_macro in [
                "syn ",
                "proc-macro2 ",
                "serde_derive ",
                "clap ",
                "thiserror ",
            ] {
                assert!(
                    !tree.lines().any(|l| l.starts_with(proc_macro)),
                    "{}: a starter compiles {proc_macro}:\n{tree}",
                    game.id
                );
            }
            let text = std::fs::read_to_string(dir.path().join("Cargo.lock")).unwrap();
            let packages = text.matches("[[package]]").count();
            assert!(packages < 100, "{}: {packages} packages", game.id);
        }
    }

    /// A starter's first `cargo test` leaves the TOML reader unoptimised
    /// (about 5 s of CPU less), and names no package its lock lacks.
    #[test]
    fn a_starters_profile_leaves_the_toml_reader_unoptimised() {
        for game in crate::registry::GAMES {
            let manifest: toml::Table = cargo_toml(game).unwrap().parse().unwrap();
            let packages = manifest["profile"]["dev"]["package"].as_table().unwrap();
            assert_eq!(packages["*"]["debug"].as_bool(), Some(false), "{}", game.id);
            assert_eq!(packages["*"].get("opt-level"), None, "{}", game.id);
            let lock = exercise_data::manifest(game.id).unwrap().files.lock;
            let lock = String::from_utf8_lossy(kit_file(&lock).unwrap()).into_owned();
            for name in ["toml", "winnow", "toml_parser", "serde_core"] {
                assert_eq!(
                    packages[name]["opt-level"].as_integer(),
                    Some(0),
                    "{} {name}",
                    game.id
                );
            }
            for name in packages.keys().filter(|n| *n != "*") {
                assert!(lock.contains(&format!("name = \"{name}\"")), "{name}");
            }
        }
    }

    #[test]
    fn a_starter_lacks_the_kits_own_dev_dependencies() {
        let game = crate::registry::find("velha").unwrap();
        let manifest: toml::Table = cargo_toml(game).unwrap().parse().unwrap();
        let dev = manifest["dev-dependencies"].as_table().unwrap();
        assert!(dev.contains_key("wait-timeout"), "{dev:?}");
        for kit_only in [
            "libtest-mimic",
            "boon",
            "reqwest",
            "fantoccini",
            "insta",
            "rstest",
            "proptest",
        ] {
            assert!(!dev.contains_key(kit_only), "{kit_only}");
        }
        let deps = manifest["dependencies"].as_table().unwrap();
        for kit_only in [
            "axum",
            "tokio",
            "ratatui",
            "zip",
            "http-body-util",
            "serde_json",
            "clap",
            "serde",
            "thiserror",
        ] {
            assert!(!deps.contains_key(kit_only), "{kit_only}");
        }
        // Jogo da velha draws nothing at random: no random generator either.
        for kit_only in ["rand", "rand_chacha"] {
            assert!(!deps.contains_key(kit_only), "{kit_only}");
        }
        for needed in ["lexopt", "toml"] {
            assert!(deps.contains_key(needed), "{needed}: {deps:?}");
        }
    }

    #[test]
    fn the_exercise_intro_ends_before_its_rule() {
        for game in crate::registry::GAMES {
            let text = exercise_md(game, None).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines.contains(&"---"), "{}", game.id);
            for (i, pair) in lines.windows(2).enumerate() {
                // A rule right under text makes that text a heading.
                assert!(
                    pair[1] != "---" || pair[0].trim().is_empty(),
                    "{}: EXERCISE.md line {} is a rule right under {:?}",
                    game.id,
                    i + 2,
                    pair[0]
                );
            }
        }
    }
}
