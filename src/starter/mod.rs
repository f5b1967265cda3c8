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

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::exercise::{self, ExerciseError, Manifest};
use crate::fixture::{Fixture, Visibility};
use crate::registry::GameInfo;

/// Dependencies of the kit that a starter does not need.
const KIT_ONLY_DEPENDENCIES: &[&str] = &[
    "zip",
    "quick-junit",
    "indicatif",
    "rayon",
    "tempfile",
    "libc",
    "serde_json",
    "anyhow",
    "sha2",
];

/// Why a starter could not be written.
#[derive(Debug, thiserror::Error)]
pub enum StarterError {
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
pub fn starter_files(game: &GameInfo) -> Result<Vec<(String, Vec<u8>)>, StarterError> {
    let id = game.id;
    let manifest = exercise::manifest(id)?;
    let mut files = kit_owned_files(game, &manifest)?;
    for (file, bytes) in exercise::folder(&manifest.files.stub) {
        files.push((
            format!("{}/{file}", manifest.files.solution),
            bytes.to_vec(),
        ));
    }
    for path in &manifest.files.test {
        files.push((path.clone(), kit_file(path)?.to_vec()));
    }
    let fixture_prefix = format!("fixtures/{id}/");
    for (path, bytes) in crate::embedded::under(&fixture_prefix) {
        let Some(name) = path[fixture_prefix.len()..].strip_suffix(".toml") else {
            continue;
        };
        let text = std::str::from_utf8(bytes).map_err(|e| malformed(path, e))?;
        let fixture = Fixture::parse(text, name, id).map_err(|e| malformed(path, e))?;
        if fixture.visibility == Visibility::Hidden || fixture.reference_only {
            continue;
        }
        files.push((path.to_owned(), bytes.to_vec()));
        let snapshot = format!("tests/snapshots/{id}__{name}.snap");
        files.push((snapshot.clone(), kit_file(&snapshot)?.to_vec()));
    }
    files.push(("EXERCISE.md".into(), exercise_md(game)?.into_bytes()));
    files.push(("README.md".into(), readme_md(game).into_bytes()));
    files.push((
        ".github/workflows/levels.yml".into(),
        workflow(game).into_bytes(),
    ));
    files.push((
        ".gitignore".into(),
        b"/target\n*.snap.new\n*.pending-snap\n".to_vec(),
    ));
    Ok(files)
}

/// The files of a starter that are the kit's and never the student's: the
/// shipped kit code, the generated `lib.rs`, `main.rs` and module lists, the
/// manifest and the lock file. The grader builds every submission from these
/// and the student's folder alone.
pub fn kit_owned_files(
    game: &GameInfo,
    manifest: &Manifest,
) -> Result<Vec<(String, Vec<u8>)>, StarterError> {
    let mut files = Vec::new();
    // Modules of the crate's root, and the files of each kit folder.
    let mut root_modules = BTreeSet::new();
    let mut folders: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for path in &manifest.files.kit {
        files.push((path.clone(), kit_file(path)?.to_vec()));
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
    files.push(("Cargo.lock".into(), kit_file("Cargo.lock")?.to_vec()));
    Ok(files)
}

/// Writes the starter for game `id` into `dir`, which must be new or empty.
/// Returns the files written.
pub fn write_starter(id: &str, dir: &Path) -> Result<Vec<PathBuf>, StarterError> {
    let game = crate::registry::find(id)
        .ok_or_else(|| StarterError::UnknownGame(id.to_owned(), crate::registry::names()))?;
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(StarterError::NotEmpty(dir.to_owned()));
    }
    write_files(dir, &starter_files(game)?)
}

/// Writes `files` below `dir`, making folders as needed.
pub fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>, StarterError> {
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

use std::process::ExitCode;

use clap::{{Parser, Subcommand}};

#[derive(Parser)]
#[command(name = "boardkit", about = "{title}")]
struct Cli {{
    #[command(subcommand)]
    command: Command,
}}

#[derive(Subcommand)]
enum Command {{
    /// Play the game in the terminal, or scripted over stdin.
    Play {{
        #[command(subcommand)]
        game: Game,
    }},
}}

#[derive(Subcommand)]
enum Game {{
    #[command(name = "{id}")]
    Play(boardkit::harness::{id}::PlayArgs),
}}

fn main() -> ExitCode {{
    let Command::Play {{
        game: Game::Play(args),
    }} = Cli::parse().command;
    boardkit::cli::run_play(|input, output, _color| {{
        boardkit::harness::{id}::play(&args, input, output)
    }})
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
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<toml::Value>,
}

#[derive(Serialize)]
struct Package {
    name: String,
    version: &'static str,
    edition: &'static str,
    publish: bool,
}

#[derive(Serialize)]
struct Target {
    name: String,
    path: String,
}

#[derive(Serialize)]
struct TestTarget {
    name: String,
    harness: bool,
}

fn cargo_toml(game: &GameInfo) -> Result<String, StarterError> {
    let kit: toml::Table = std::str::from_utf8(kit_file("Cargo.toml")?)
        .map_err(|e| malformed("Cargo.toml", e))?
        .parse()
        .map_err(|e: toml::de::Error| malformed("Cargo.toml", e))?;
    let table = |name: &str| {
        kit.get(name)
            .and_then(|d| d.as_table())
            .cloned()
            .unwrap_or_default()
    };
    let mut dependencies = table("dependencies");
    dependencies.retain(|name, _| !KIT_ONLY_DEPENDENCIES.contains(&name));
    let manifest = CargoManifest {
        package: Package {
            name: format!("{}-exercise", game.id),
            version: "0.1.0",
            edition: "2024",
            publish: false,
        },
        lib: Target {
            name: "boardkit".into(),
            path: "src/lib.rs".into(),
        },
        bin: vec![Target {
            name: "boardkit".into(),
            path: "src/main.rs".into(),
        }],
        dependencies,
        dev_dependencies: table("dev-dependencies"),
        test: vec![TestTarget {
            name: game.id.into(),
            harness: false,
        }],
        profile: kit.get("profile").cloned(),
    };
    let body = toml::to_string(&manifest).map_err(|e| malformed("Cargo.toml", e))?;
    Ok(format!(
        "# Generated by `boardkit starter {}`. The kit grades with its own copy of this file.\n{body}",
        game.id
    ))
}

/// The statement's introduction and the game's section.
fn exercise_md(game: &GameInfo) -> Result<String, StarterError> {
    let text =
        std::str::from_utf8(kit_file("EXERCISE.md")?).map_err(|e| malformed("EXERCISE.md", e))?;
    let sections: Vec<&str> = text.split("\n---\n").collect();
    let heading = format!("# {}", game.title);
    let section = sections
        .iter()
        .find(|s| s.trim_start().starts_with(&heading))
        .ok_or_else(|| malformed("EXERCISE.md", format!("no section {heading:?}")))?;
    // A blank line before the rule, so that it is not read as a heading.
    Ok(format!("{}\n\n---\n{}", sections[0].trim_end(), section))
}

fn readme_md(game: &GameInfo) -> String {
    let id = game.id;
    let mut out = format!(
        "# {title}\n\n```sh\ncargo run --release -- play {id}   # play your program\ncargo test                          # check every level\n```\n\n\
         The statement is [EXERCISE.md](EXERCISE.md). Your code goes in `src/{id}/`, which is\n\
         wholly yours: every function the statement asks for is there, saying `todo!()`\n\
         and naming its section; add modules, types and helpers as you like. The other\n\
         files are the kit's: the tests, the fixtures (`fixtures/{id}/`, one scripted session\n\
         each) and their expected transcripts (`tests/snapshots/`). Editing them changes\n\
         nothing for your grade: the grader uses its own copies, and hidden cases too.\n\n\
         ## Levels\n\nRun one level with `cargo test <level>`; a test's name starts with its level.\n\
         The run ends with one line per level: how many of its tests passed.\n\n",
        title = game.title
    );
    for level in game.levels {
        out.push_str(&format!(
            "- `cargo test {}`: {}\n",
            level.level, level.summary
        ));
    }
    out.push_str(
        "\nA failing session shows where your transcript first differs from the expected\n\
         one; prompts and other text of your own are not compared. A failing function\n\
         test names its input, the expected and the actual value.\n\n\
         Each push runs `.github/workflows/levels.yml`: one job per level, each needing\n\
         the one below, so the highest green job is the level you reached.\n",
    );
    out
}

fn workflow(game: &GameInfo) -> String {
    let mut out = String::from(
        "# One job per level: a level is reached when its job and every job below pass.\nname: levels\non: [push, pull_request]\njobs:\n",
    );
    let mut previous = None;
    for level in game.levels.iter().map(|l| l.level) {
        out.push_str(&format!(
            "  {level}:\n    name: {level}\n    runs-on: ubuntu-latest\n"
        ));
        if let Some(p) = previous {
            out.push_str(&format!("    needs: {p}\n"));
        }
        out.push_str(&format!(
            "    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@stable\n      - run: cargo test --test {} {level}\n",
            game.id
        ));
        previous = Some(level);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_starter_holds_the_stub_and_no_hidden_or_reference_fixture() {
        for game in crate::registry::GAMES {
            let files = starter_files(game).unwrap();
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
}
