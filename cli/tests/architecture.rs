//! The kit's architecture, checked: no import cycle between the library's
//! top-level modules (the registry sits above the games and the front ends,
//! and below the grader, the starter, the check and the commands); a game
//! named only in its own files and its registry entry. Test code (`#[cfg(test)] mod tests`)
//! and comments do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Top-level module -> the top-level modules its code names (`crate::m`).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let module = relative
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        for line in code.lines() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            for (i, _) in line.match_indices("crate::") {
                let name: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    edges.entry(module.clone()).or_default().insert(name);
                }
            }
        }
    }
    edges
}

/// The modules reachable from `from`.
fn reachable(edges: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_owned()];
    while let Some(module) = stack.pop() {
        for next in edges.get(&module).into_iter().flatten() {
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn no_top_level_module_imports_itself_through_others() {
    let edges = imports();
    assert!(edges.contains_key("grader") && edges.contains_key("registry"));
    let cycles: Vec<String> = edges
        .keys()
        .filter(|m| reachable(&edges, m).contains(*m))
        .cloned()
        .collect();
    assert!(
        cycles.is_empty(),
        "modules in an import cycle: {cycles:?}\n{edges:#?}"
    );
}

#[test]
fn the_registry_sits_above_the_games_and_the_front_ends_and_below_the_tools() {
    let edges = imports();
    let below = reachable(&edges, "registry");
    for tool in ["grader", "starter", "check", "commands"] {
        assert!(
            !below.contains(tool),
            "the registry reaches {tool}: {below:?}"
        );
    }
    // The commands hand each front end its games from the registry.
    for front_end in ["play", "tui", "net", "web", "opponents"] {
        assert!(
            !reachable(&edges, front_end).contains("registry"),
            "{front_end} reaches the registry"
        );
    }
    for game in ["velha", "connect4", "mastermind"] {
        assert!(
            !reachable(&edges, game).contains("registry"),
            "{game} reaches the registry"
        );
    }
}

/// A file's module path below `src/` (`tui/ui/mod.rs` is `[tui, ui]`).
fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The module paths `code` names, resolved from the module `at`:
/// `crate::a::b`, `super::x`, `self::x`, and each first name of a `{...}`
/// group after one.
fn named_paths(code: &str, at: &[String]) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            // Part of a longer path (`a::super::`) or a word (`xcrate::`).
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            // `super` of a module is its parent, a `mod.rs`'s too (its
            // module is its folder).
            let mut path: Vec<String> = match start {
                "crate::" => Vec::new(),
                "self::" => at.to_vec(),
                _ => at[..at.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &code[i + start.len()..];
            loop {
                if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    for item in group.split(',') {
                        let name = ident(item.trim());
                        if !name.is_empty() {
                            let mut named = path.clone();
                            named.push(name);
                            out.push(named);
                        }
                    }
                    break;
                }
                let name = ident(rest);
                if name.is_empty() {
                    break;
                }
                if name == "super" {
                    path.pop();
                } else {
                    path.push(name.clone());
                }
                rest = &rest[name.len()..];
                match rest.strip_prefix("::") {
                    Some(next) => rest = next,
                    None => break,
                }
            }
            out.push(path);
        }
    }
    out
}

/// For each folder of `src/` (a module path), its files and subfolders as
/// nodes, and which of them each names: `tui/app.rs` naming
/// `crate::tui::menu` is the edge `app -> menu` of folder `tui`. The
/// folder's own `mod.rs` is its face, not a node.
fn folder_imports() -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut modules = Vec::new();
    for file in &files {
        let relative = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if relative == "lib.rs" || relative == "main.rs" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let code: String = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let folder = relative.ends_with("/mod.rs");
        let at = module_path(&relative);
        let named = named_paths(&code, &at);
        modules.push((at, folder, named));
    }
    let folders: BTreeSet<Vec<String>> = modules
        .iter()
        .filter(|(_, folder, _)| *folder)
        .map(|(at, _, _)| at.clone())
        .collect();
    let mut out: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for folder in &folders {
        let nodes: BTreeSet<String> = modules
            .iter()
            .filter(|(at, _, _)| at.len() > folder.len() && at.starts_with(folder))
            .map(|(at, _, _)| at[folder.len()].clone())
            .collect();
        let edges = out.entry(folder.clone()).or_default();
        for (at, _, named) in &modules {
            if at.len() <= folder.len() || !at.starts_with(folder) {
                continue;
            }
            let from = &at[folder.len()];
            for path in named {
                if path.len() > folder.len() && path.starts_with(folder) {
                    let to = &path[folder.len()];
                    if to != from && nodes.contains(to) {
                        edges.entry(from.clone()).or_default().insert(to.clone());
                    }
                }
            }
        }
    }
    out
}

#[test]
fn no_file_of_a_folder_imports_itself_through_its_siblings() {
    let folders = folder_imports();
    let tui = folders
        .get(&vec!["tui".to_owned()])
        .expect("the tui folder");
    assert!(!tui.is_empty(), "no edge found in tui/: {folders:#?}");
    let mut cycles = Vec::new();
    for (folder, edges) in &folders {
        for node in edges.keys() {
            if reachable(edges, node).contains(node) {
                cycles.push(format!("{}/{node}", folder.join("/")));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "files in an import cycle inside their folder: {cycles:?}\n{folders:#?}"
    );
}

#[test]
fn paths_resolve_from_their_file() {
    let at = |p: &str| module_path(p);
    assert_eq!(at("tui/ui/mod.rs"), ["tui", "ui"]);
    let named = named_paths(
        "use super::{app::App, menu};\nuse crate::tui::network::X;\nuse super::super::play;",
        &at("tui/ui/velha.rs"),
    );
    assert!(
        named.contains(&vec!["tui".into(), "ui".into(), "app".into()]),
        "{named:?}"
    );
    assert!(named.contains(&vec!["tui".into(), "network".into(), "X".into()]));
    assert!(
        named.contains(&vec!["tui".into(), "play".into()]),
        "{named:?}"
    );
    let named = named_paths("use super::app;", &at("tui/ui/mod.rs"));
    assert_eq!(named, [vec!["tui".to_owned(), "app".to_owned()]]);
}

/// The places outside a game's own files that may name it, and why: each
/// front end's list of games (next to the game's `mod` line), the registry
/// (network play included: it names no game of its own), and the solvers'
/// subcommands.
const ENTRIES: &[(&str, &[&str], &str)] = &[
    (
        "registry.rs",
        &["velha", "connect4", "mastermind"],
        "its entry",
    ),
    (
        "play/mod.rs",
        &["velha", "connect4", "mastermind"],
        "its `play` entry",
    ),
    (
        "tui/mod.rs",
        &["velha", "connect4", "mastermind"],
        "its full-screen entry",
    ),
    (
        "web/games/mod.rs",
        &["velha", "connect4", "mastermind"],
        "its web entry",
    ),
    // The options of `boardkit tui` that preset a game's menu.
    (
        "tui/mod.rs",
        &["velha", "connect4"],
        "the board sizes' bounds",
    ),
    // Tools that exist for the games with a solver, not for every game.
    (
        "commands/solve.rs",
        &["connect4", "mastermind"],
        "its solver",
    ),
    (
        "commands/book.rs",
        &["connect4", "mastermind"],
        "its opening book",
    ),
];

/// Whether `path` (relative to a `src/`) is one of `game`'s own files: in a
/// folder of its name or a file of its name.
fn own(path: &str, game: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or_default();
    parts.contains(&game) || file.split('.').next() == Some(game)
}

#[test]
fn a_game_is_named_outside_its_own_files_only_in_its_entries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut strays = Vec::new();
    for src in [root.join("src"), root.join("../src")] {
        let mut files = Vec::new();
        sources(&src, &mut files);
        for file in files {
            let path = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&file).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            for game in boardkit_cli::registry::GAMES.iter().map(|g| g.id) {
                if own(&path, game) {
                    continue;
                }
                let allowed = ENTRIES
                    .iter()
                    .any(|(place, games, _)| path.starts_with(place) && games.contains(&game));
                for line in code.lines() {
                    let line = line.trim_start();
                    let declared = line.starts_with("mod ")
                        || line.starts_with("pub mod ")
                        || line.starts_with("pub(crate) mod ");
                    if line.starts_with("//") || declared || allowed {
                        continue;
                    }
                    if line.to_lowercase().contains(game) {
                        strays.push(format!("{path}: {game}: {line}"));
                    }
                }
            }
        }
    }
    assert!(
        strays.is_empty(),
        "a game named outside its files and its entries:\n{}",
        strays.join("\n")
    );
}

/// Whether `line` (code, not a comment) ends the process from below `main`.
fn ends_the_process(line: &str) -> bool {
    let line = line.trim_start();
    !line.starts_with("//")
        && (line.contains("process::exit(")
            || line.contains(".exit()")
            || line.contains("process::abort(")
            || line.contains("-> !"))
}

#[test]
fn no_code_below_main_ends_the_process() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut exits = Vec::new();
    for src in [root.join("src"), root.join("../src")] {
        let mut files = Vec::new();
        sources(&src, &mut files);
        for file in files {
            let path = file
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            // The sandbox's monitor is the forked child's whole life: it
            // ends that child (`_exit`), never the grader.
            if path.ends_with("sandbox/pod.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            exits.extend(
                code.lines()
                    .filter(|line| ends_the_process(line))
                    .map(|line| format!("{path}: {}", line.trim())),
            );
        }
    }
    assert!(
        exits.is_empty(),
        "code below main that ends the process (return a Failure instead):\n{}",
        exits.join("\n")
    );
    assert!(ends_the_process("    Cli::command().error(kind, m).exit()"));
    assert!(!ends_the_process("    // std::process::exit(2)"));
}

/// Every module opens with a `//!` line saying what it is (ripgrep's way):
/// a newcomer reads the folder as a map.
#[test]
fn every_module_says_what_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut silent = Vec::new();
    for src in [root.join("src"), root.join("../src")] {
        let mut files = Vec::new();
        sources(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            if !text.starts_with("//!") {
                silent.push(file.display().to_string());
            }
        }
    }
    assert!(silent.is_empty(), "modules without a //! line: {silent:?}");
}
