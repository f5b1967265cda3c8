//! Embeds the kit's sources, tests and fixtures in the binary, so that
//! `boardkit starter` can generate a student crate from the reference itself
//! wherever the binary runs. Each file goes through `include_bytes!`, which
//! rustc tracks, and the folders are watched for added or removed files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(root, &path, out);
        } else if !path.to_string_lossy().ends_with(".snap.new") {
            out.push(path.strip_prefix(root).expect("below the root").to_owned());
        }
    }
}

/// Whether the fixture file at `path` is a hidden case (`visibility =
/// "hidden"`).
fn hidden_fixture(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines().any(|line| {
            let line = line.split('#').next().unwrap_or_default();
            let Some((key, value)) = line.split_once('=') else {
                return false;
            };
            key.trim() == "visibility" && value.trim() == "\"hidden\""
        })
    })
}

fn main() {
    // The files live in the `boardkit` crate, the workspace root.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .parent()
        .expect("cli/ is below the root")
        .to_owned();
    let mut files = Vec::new();
    for dir in ["src", "tests", "fixtures", "exercises"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        walk(&root, &root.join(dir), &mut files);
    }
    for file in ["EXERCISE.md", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(file).display());
        files.push(PathBuf::from(file));
    }
    // A student's build (the wheel, `cargo install --no-default-features`)
    // holds no hidden case: neither its fixture nor its snapshot.
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_HIDDEN_CASES");
    if std::env::var_os("CARGO_FEATURE_HIDDEN_CASES").is_none() {
        let hidden: Vec<(String, String)> = files
            .iter()
            .filter(|f| f.starts_with("fixtures") && f.extension().is_some_and(|e| e == "toml"))
            .filter(|f| hidden_fixture(&root.join(f)))
            .filter_map(|f| {
                let game = f.parent()?.file_name()?.to_string_lossy().into_owned();
                let name = f.file_stem()?.to_string_lossy().into_owned();
                Some((game, name))
            })
            .collect();
        files.retain(|f| {
            let text = f.to_string_lossy().replace('\\', "/");
            // The hidden mutants students' own tests are graded by, and
            // the suites `dev check` proves them with; a package's
            // hidden cases and mutants (`hidden/`).
            if text.contains(".hidden.") || text.contains(".hidden/") || text.contains("/hidden/") {
                return false;
            }
            !hidden.iter().any(|(game, name)| {
                text == format!("fixtures/{game}/{name}.toml")
                    || text == format!("tests/snapshots/{game}__{name}.snap")
            })
        });
    }
    let mut code = String::from(
        "/// Every file of the kit a starter is made from: (path, contents).\npub(crate) static KIT_FILES: &[(&str, &[u8])] = &[\n",
    );
    for file in &files {
        let relative = file.to_string_lossy().replace('\\', "/");
        let absolute = root.join(file);
        writeln!(
            code,
            "    ({relative:?}, include_bytes!({:?})),",
            absolute.to_string_lossy()
        )
        .unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("kit_files.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
