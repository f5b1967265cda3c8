//! `boardkit starter <GAME> <DIR>`: the student's crate, made from the kit.
//!
//! The starter is the kit cut down to one game: the shared modules
//! (console, player, fixture, game, cli) as they are, the game's folder with
//! every graded body stubbed (see [`stub`]) except its `cli.rs`, the game's
//! public fixtures and their snapshots, the game's tests as the kit runs
//! them, its part of EXERCISE.md, and a CI workflow with one job per level.
//! The library keeps the name `boardkit`, so the tests are the kit's own,
//! byte for byte, and copying the reference's game folder over the stubs
//! makes every level pass (the kit's CI checks both ways).
//!
//! Everything comes from the files embedded at build time (see `build.rs`),
//! so stubs are generated from the reference source and cannot drift.

pub mod stub;

use std::path::{Path, PathBuf};

use crate::fixture::{Fixture, Visibility};
use crate::game::{GameInfo, Level};

include!(concat!(env!("OUT_DIR"), "/kit_files.rs"));

/// Dependencies of the kit that a starter does not need.
const KIT_ONLY_DEPENDENCIES: &[&str] = &[
    "syn",
    "prettyplease",
    "zip",
    "quick-junit",
    "indicatif",
    "rayon",
    "tempfile",
    "libc",
    "serde_json",
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
    #[error("the kit's file {0} is missing or malformed: {1}")]
    Kit(String, String),
}

fn kit_file(path: &str) -> Result<&'static [u8], StarterError> {
    KIT_FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, bytes)| *bytes)
        .ok_or_else(|| StarterError::Kit(path.to_owned(), "not embedded".into()))
}

fn kit_text(path: &str) -> Result<&'static str, StarterError> {
    std::str::from_utf8(kit_file(path)?)
        .map_err(|e| StarterError::Kit(path.to_owned(), e.to_string()))
}

/// The files of a starter for `game`, as (relative path, contents).
pub fn starter_files(game: &GameInfo) -> Result<Vec<(String, Vec<u8>)>, StarterError> {
    let id = game.id;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |path: String, bytes: Vec<u8>| files.push((path, bytes));

    for shared in [
        "src/console.rs",
        "src/player.rs",
        "src/fixture.rs",
        "src/cli.rs",
        "tests/common/mod.rs",
        "Cargo.lock",
    ] {
        add(shared.to_owned(), kit_file(shared)?.to_vec());
    }
    let game_rs = kit_text("src/game.rs")?;
    let games_list = game_rs
        .find("pub const GAMES")
        .and_then(|start| {
            game_rs[start..]
                .find(';')
                .map(|end| &game_rs[start..=start + end])
        })
        .ok_or_else(|| StarterError::Kit("src/game.rs".into(), "no GAMES list".into()))?;
    let game_rs = game_rs.replace(
        games_list,
        &format!("pub const GAMES: &[GameInfo] = &[crate::{id}::GAME];"),
    );
    add("src/game.rs".into(), game_rs.into_bytes());
    add("src/lib.rs".into(), lib_rs(game).into_bytes());
    add("src/main.rs".into(), main_rs(game).into_bytes());

    let folder = format!("src/{id}/");
    for (path, bytes) in KIT_FILES.iter().filter(|(p, _)| p.starts_with(&folder)) {
        let file = &path[folder.len()..];
        if file == "cli.rs" || file == "driver.rs" || !file.ends_with(".rs") {
            add(path.to_string(), bytes.to_vec());
            continue;
        }
        let module = match file.trim_end_matches(".rs") {
            "mod" => id.to_owned(),
            name => format!("{id}::{name}"),
        };
        let source = kit_text(path)?;
        let stubbed = stub::stub_source(source, &module, game.title)
            .map_err(|e| StarterError::Kit(path.to_string(), e.to_string()))?;
        add(path.to_string(), stubbed.into_bytes());
    }

    add(
        format!("tests/{id}.rs"),
        kit_file(&format!("tests/{id}.rs"))?.to_vec(),
    );
    let data_prefix = format!("tests/data/{id}_");
    for (path, bytes) in KIT_FILES
        .iter()
        .filter(|(p, _)| p.starts_with(&data_prefix))
    {
        add(path.to_string(), bytes.to_vec());
    }
    let fixture_prefix = format!("fixtures/{id}/");
    for (path, bytes) in KIT_FILES
        .iter()
        .filter(|(p, _)| p.starts_with(&fixture_prefix) && p.ends_with(".toml"))
    {
        let name = path[fixture_prefix.len()..].trim_end_matches(".toml");
        let text = std::str::from_utf8(bytes)
            .map_err(|e| StarterError::Kit(path.to_string(), e.to_string()))?;
        let fixture = Fixture::parse(text, name, id)
            .map_err(|e| StarterError::Kit(path.to_string(), e.to_string()))?;
        if fixture.visibility == Visibility::Hidden {
            continue;
        }
        add(path.to_string(), bytes.to_vec());
        let snapshot = format!("tests/snapshots/{id}__{name}.snap");
        add(snapshot.clone(), kit_file(&snapshot)?.to_vec());
    }

    add("Cargo.toml".into(), cargo_toml(game)?.into_bytes());
    add("EXERCISE.md".into(), exercise_md(game)?.into_bytes());
    add("README.md".into(), readme_md(game).into_bytes());
    add(
        ".github/workflows/levels.yml".into(),
        workflow(game).into_bytes(),
    );
    add(
        ".gitignore".into(),
        b"/target\n*.snap.new\n*.pending-snap\n".to_vec(),
    );
    Ok(files)
}

/// Writes the starter for game `id` into `dir`, which must be new or empty.
/// Returns the files written.
pub fn write_starter(id: &str, dir: &Path) -> Result<Vec<PathBuf>, StarterError> {
    let game = crate::game::find(id).ok_or_else(|| {
        let names: Vec<&str> = crate::game::GAMES.iter().map(|g| g.id).collect();
        StarterError::UnknownGame(id.to_owned(), names.join(", "))
    })?;
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(StarterError::NotEmpty(dir.to_owned()));
    }
    let mut written = Vec::new();
    for (path, bytes) in starter_files(game)? {
        let target = dir.join(&path);
        let write = || -> std::io::Result<()> {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, &bytes)
        };
        write().map_err(|source| StarterError::Write {
            path: target.clone(),
            source,
        })?;
        written.push(target);
    }
    Ok(written)
}

fn lib_rs(game: &GameInfo) -> String {
    format!(
        "//! {title}: your library. The graded code is in `src/{id}/`; the other\n\
         //! modules are the kit's (input and output, players, fixtures).\n\n\
         pub mod cli;\npub mod console;\npub mod fixture;\npub mod game;\npub mod player;\npub mod {id};\n",
        title = game.title,
        id = game.id
    )
}

fn main_rs(game: &GameInfo) -> String {
    format!(
        r#"//! The {title} program: `cargo run -- play {id} [OPTIONS]`.
//!
//! Argument parsing only, from the kit: the game is yours, in `src/{id}/`.

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
    Play(boardkit::{id}::cli::PlayArgs),
}}

fn main() -> ExitCode {{
    let Command::Play {{ game: Game::Play(args) }} = Cli::parse().command;
    boardkit::cli::run_play(|console, color| boardkit::{id}::cli::play(&args, console, color))
}}
"#,
        title = game.title,
        id = game.id
    )
}

fn cargo_toml(game: &GameInfo) -> Result<String, StarterError> {
    let kit: toml::Table = kit_text("Cargo.toml")?
        .parse()
        .map_err(|e: toml::de::Error| StarterError::Kit("Cargo.toml".into(), e.to_string()))?;
    let mut dependencies = kit
        .get("dependencies")
        .and_then(|d| d.as_table())
        .cloned()
        .unwrap_or_default();
    dependencies.retain(|name, _| !KIT_ONLY_DEPENDENCIES.contains(&name));
    let dev = kit
        .get("dev-dependencies")
        .cloned()
        .unwrap_or_else(|| toml::Value::Table(Default::default()));
    let mut out = toml::Table::new();
    let package = toml::toml! {
        version = "0.1.0"
        edition = "2024"
        publish = false
    };
    let mut package = package;
    package.insert("name".into(), format!("{}-exercise", game.id).into());
    out.insert("package".into(), package.into());
    out.insert(
        "lib".into(),
        toml::toml! { name = "boardkit" path = "src/lib.rs" }.into(),
    );
    out.insert(
        "bin".into(),
        toml::Value::Array(vec![
            toml::toml! { name = "boardkit" path = "src/main.rs" }.into(),
        ]),
    );
    out.insert("dependencies".into(), dependencies.into());
    out.insert("dev-dependencies".into(), dev);
    let mut test = toml::Table::new();
    test.insert("name".into(), game.id.into());
    test.insert("harness".into(), false.into());
    out.insert("test".into(), toml::Value::Array(vec![test.into()]));
    if let Some(profile) = kit.get("profile") {
        out.insert("profile".into(), profile.clone());
    }
    let body =
        toml::to_string(&out).map_err(|e| StarterError::Kit("Cargo.toml".into(), e.to_string()))?;
    Ok(format!(
        "# Generated by `boardkit starter {}`. The kit grades with its own copy of this file.\n{body}",
        game.id
    ))
}

/// The statement's introduction and the game's section.
fn exercise_md(game: &GameInfo) -> Result<String, StarterError> {
    let text = kit_text("EXERCISE.md")?;
    let sections: Vec<&str> = text.split("\n---\n").collect();
    let heading = format!("# {}", game.title);
    let section = sections
        .iter()
        .find(|s| s.trim_start().starts_with(&heading))
        .ok_or_else(|| {
            StarterError::Kit("EXERCISE.md".into(), format!("no section {heading:?}"))
        })?;
    Ok(format!("{}\n---\n{}", sections[0].trim_end(), section))
}

fn levels(game: &GameInfo) -> Vec<Level> {
    game.levels.iter().map(|l| l.level).collect()
}

fn readme_md(game: &GameInfo) -> String {
    let id = game.id;
    let mut out = format!(
        "# {title}\n\n```sh\ncargo run --release -- play {id}   # play your program\ncargo test                          # check every level\n```\n\n\
         The statement is [EXERCISE.md](EXERCISE.md). Write your code in `src/{id}/`:\n\
         every function there says `todo!()` and names what to write. The other files\n\
         are the kit's: the tests, the fixtures (`fixtures/{id}/`, one scripted session\n\
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
        "\nA failing session shows the expected transcript against yours as a diff; a\n\
         failing function test names its input, the expected and the actual value.\n\n\
         Each push runs `.github/workflows/levels.yml`: one job per level, each needing\n\
         the one below, so the highest green job is the level you reached.\n",
    );
    out
}

fn workflow(game: &GameInfo) -> String {
    let mut out = String::from(
        "# One job per level: a level is reached when its job and every job below pass.\nname: levels\non: [push, pull_request]\njobs:\n",
    );
    let mut previous: Option<Level> = None;
    for level in levels(game) {
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
    fn a_starter_holds_no_hidden_fixture_and_no_reference_body() {
        for game in crate::game::GAMES {
            let files = starter_files(game).unwrap();
            let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
            assert!(paths.contains(&"Cargo.toml") && paths.contains(&"src/main.rs"));
            assert!(!paths.iter().any(|p| p.contains("hidden")), "{paths:?}");
            assert!(
                paths
                    .iter()
                    .any(|p| p.starts_with(&format!("fixtures/{}/", game.id)))
            );
            let exam = files
                .iter()
                .find(|(p, _)| p == &format!("src/{}/mod.rs", game.id))
                .unwrap();
            assert!(String::from_utf8_lossy(&exam.1).contains("pub const GAME"));
        }
        let velha = starter_files(crate::game::find("velha").unwrap()).unwrap();
        let exam = velha
            .iter()
            .find(|(p, _)| p == "src/velha/exam.rs")
            .unwrap();
        let exam = String::from_utf8_lossy(&exam.1);
        assert!(exam.contains("pub fn extrai_linha(posicao: &str) -> usize"));
        assert!(exam.contains("write `velha::exam::extrai_linha`: see EXERCISE.md"));
        assert!(!exam.contains("parse_position(posicao"));
    }
}
