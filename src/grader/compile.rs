//! Building Rust submissions: one Cargo workspace for the whole class.
//!
//! Each submission becomes a member made of the kit's own files of the
//! starter (its manifest, shared modules, the game's harness) plus the
//! student's folder `src/<game>/`, as the game's manifest declares it:
//! nothing else of a submission is read, so an edited test, manifest or
//! `build.rs` changes nothing. A member
//! has two binaries, its game and a function driver. The workspace is built
//! once with `--keep-going`: dependencies compile once for the class,
//! members in parallel, and one that does not compile does not stop the
//! others. The workspace stays in the output folder, so running again only
//! recompiles what changed. The build has its own timeout.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::registry::GameInfo;

/// A submission's binaries.
#[derive(Debug, Clone)]
pub struct Built {
    pub game: PathBuf,
    pub driver: PathBuf,
}

const DRIVER: &str = r#"//! The kit's function driver: one request a line on stdin, one answer a
//! line on stdout, through the student's library. A panic answers
//! `panicked: <message>` for that request.
use std::io::{BufRead, Write};

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let answer = std::panic::catch_unwind(|| boardkit::harness::GAME::answer(&line)).unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            format!("panicked: {message}")
        });
        if writeln!(out, "{}", answer.replace('\n', " ")).is_err() {
            break;
        }
    }
    let _ = out.flush();
}
"#;

/// Writes `bytes` to `path` unless it already holds them (keeps mtimes, so
/// Cargo's incremental build stays valid).
fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, bytes)
}

/// The most bytes of a student's folder taken into the build.
const MAX_STUDENT_BYTES: u64 = 16 << 20;

/// The student's files: every regular file below `folder` (links and other
/// kinds skipped), as paths relative to `folder`.
fn student_files(folder: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files = Vec::new();
    let mut total = 0u64;
    let mut stack = vec![folder.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let relative = path
                    .strip_prefix(folder)
                    .map_err(|e| e.to_string())?
                    .to_string_lossy()
                    .into_owned();
                let bytes = std::fs::read(&path).map_err(|e| format!("{relative}: {e}"))?;
                total += bytes.len() as u64;
                if total > MAX_STUDENT_BYTES {
                    return Err(format!(
                        "the student's folder holds more than {} MiB",
                        MAX_STUDENT_BYTES >> 20
                    ));
                }
                files.push((relative, bytes));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The member crate for `name`: the kit's own files of the starter and the
/// student's folder, as the game's manifest declares them. Nothing else of
/// a submission is read, so an edited test, manifest or `build.rs` changes
/// nothing.
fn write_member(game: &GameInfo, name: &str, root: &Path, member: &Path) -> Result<(), String> {
    let manifest = crate::exercise::manifest(game.id).map_err(|e| e.to_string())?;
    let kit = crate::starter::kit_owned_files(game, &manifest).map_err(|e| e.to_string())?;
    let students = student_files(&root.join(&manifest.files.solution))?;
    if students.is_empty() {
        return Err(format!(
            "no {}/ folder in the submission",
            manifest.files.solution
        ));
    }
    // A fresh member each time: no file of an earlier version survives.
    let _ = std::fs::remove_dir_all(member.join("src"));
    for (path, bytes) in &kit {
        if path.starts_with("src/") {
            write_if_changed(&member.join(path), bytes).map_err(|e| e.to_string())?;
        }
    }
    for (path, bytes) in &students {
        let target = member.join(&manifest.files.solution).join(path);
        write_if_changed(&target, bytes).map_err(|e| e.to_string())?;
    }
    write_if_changed(
        &member.join("src/bin/driver.rs"),
        DRIVER.replace("GAME", game.id).as_bytes(),
    )
    .map_err(|e| e.to_string())?;
    let manifest = member_manifest(name, &kit)?;
    write_if_changed(&member.join("Cargo.toml"), manifest.as_bytes()).map_err(|e| e.to_string())?;
    Ok(())
}

/// The member's manifest: the starter's dependencies, two binaries.
fn member_manifest(name: &str, files: &[(String, Vec<u8>)]) -> Result<String, String> {
    let starter = files
        .iter()
        .find(|(p, _)| p == "Cargo.toml")
        .ok_or("the starter has no Cargo.toml")?;
    let starter: toml::Table = String::from_utf8_lossy(&starter.1)
        .parse()
        .map_err(|e: toml::de::Error| e.to_string())?;
    let mut package = toml::Table::new();
    package.insert("name".into(), format!("sub-{name}").into());
    package.insert("version".into(), "0.1.0".into());
    package.insert("edition".into(), "2024".into());
    package.insert("publish".into(), false.into());
    let target = |bin: &str, path: &str| {
        let mut t = toml::Table::new();
        t.insert("name".into(), bin.into());
        t.insert("path".into(), path.into());
        toml::Value::Table(t)
    };
    let mut manifest = toml::Table::new();
    manifest.insert("package".into(), package.into());
    manifest.insert("lib".into(), target("boardkit", "src/lib.rs"));
    manifest.insert(
        "bin".into(),
        toml::Value::Array(vec![
            target(&format!("game-{name}"), "src/main.rs"),
            target(&format!("driver-{name}"), "src/bin/driver.rs"),
        ]),
    );
    manifest.insert(
        "dependencies".into(),
        starter
            .get("dependencies")
            .cloned()
            .unwrap_or(toml::Value::Table(Default::default())),
    );
    toml::to_string(&manifest).map_err(|e| e.to_string())
}

/// Builds every submission `(name, root)` in the workspace at `dir`.
/// Returns, per name, its binaries or the compiler's first error.
pub fn build_all(
    game: &GameInfo,
    submissions: &[(String, PathBuf)],
    dir: &Path,
    timeout: Duration,
) -> HashMap<String, Result<Built, String>> {
    let mut results: HashMap<String, Result<Built, String>> = HashMap::new();
    let mut members = Vec::new();
    for (name, root) in submissions {
        let member = dir.join("members").join(name);
        match write_member(game, name, root, &member) {
            Ok(()) => members.push(name.clone()),
            Err(e) => {
                results.insert(name.clone(), Err(format!("cannot prepare the crate: {e}")));
            }
        }
    }
    if members.is_empty() {
        return results;
    }
    let member_list: Vec<String> = members.iter().map(|m| format!("\"members/{m}\"")).collect();
    let workspace = format!(
        "# Written by `boardkit grade`: one member per submission.\n[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[profile.dev]\ndebug = false\nopt-level = 1\n",
        member_list.join(", ")
    );
    let prepared = write_if_changed(&dir.join("Cargo.toml"), workspace.as_bytes()).and_then(|()| {
        match crate::embedded::file("Cargo.lock") {
            Some(lock) if !dir.join("Cargo.lock").exists() => {
                std::fs::write(dir.join("Cargo.lock"), lock)
            }
            _ => Ok(()),
        }
    });
    if let Err(e) = prepared {
        for m in members {
            results.insert(m, Err(format!("cannot write the workspace: {e}")));
        }
        return results;
    }
    let outcome = run_cargo(dir, timeout);
    for name in members {
        let package = format!("sub-{name}");
        let result = match &outcome {
            Err(e) => Err(e.clone()),
            Ok(build) => {
                let errors = build.errors.get(&package);
                let game_bin = build.executables.get(&format!("game-{name}"));
                let driver_bin = build.executables.get(&format!("driver-{name}"));
                match (errors, game_bin, driver_bin) {
                    (None, Some(g), Some(d)) => Ok(Built {
                        game: g.clone(),
                        driver: d.clone(),
                    }),
                    (Some(e), _, _) => Err(e.clone()),
                    _ => Err("the crate did not build (no binary was produced)".to_owned()),
                }
            }
        };
        results.insert(name, result);
    }
    results
}

struct BuildOutput {
    /// Package name -> its first compiler error, rendered.
    errors: HashMap<String, String>,
    /// Binary name -> executable.
    executables: HashMap<String, PathBuf>,
}

fn run_cargo(dir: &Path, timeout: Duration) -> Result<BuildOutput, String> {
    let mut child = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "build",
            "--workspace",
            "--keep-going",
            "--message-format=json",
            "--quiet",
        ])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut errors: HashMap<String, String> = HashMap::new();
        let mut executables = HashMap::new();
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else {
                continue;
            };
            let package = package_name(message["package_id"].as_str().unwrap_or(""));
            match message["reason"].as_str() {
                Some("compiler-message") if message["message"]["level"] == "error" => {
                    let rendered: String = message["message"]["rendered"]
                        .as_str()
                        .unwrap_or("")
                        .chars()
                        .take(4000)
                        .collect();
                    errors.entry(package).or_insert(rendered);
                }
                Some("compiler-artifact") => {
                    if let (Some(exe), Some(name)) = (
                        message["executable"].as_str(),
                        message["target"]["name"].as_str(),
                    ) {
                        executables.insert(name.to_owned(), PathBuf::from(exe));
                    }
                }
                _ => {}
            }
        }
        BuildOutput {
            errors,
            executables,
        }
    });
    let started = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "compilation timed out after {} s",
                timeout.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader
        .join()
        .map_err(|_| "cannot read cargo's messages".to_owned())
}

/// The package name in a Cargo package id (`path+file:///x#sub-ana@0.1.0`,
/// or the older `sub-ana 0.1.0 (path+file:///x)`).
fn package_name(id: &str) -> String {
    if let Some((_, rest)) = id.rsplit_once('#') {
        return rest.split('@').next().unwrap_or(rest).to_owned();
    }
    id.split(' ').next().unwrap_or(id).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_ids_of_both_forms() {
        assert_eq!(
            package_name("path+file:///w/members/ana#sub-ana@0.1.0"),
            "sub-ana"
        );
        assert_eq!(package_name("sub-bob 0.1.0 (path+file:///w)"), "sub-bob");
    }
}
