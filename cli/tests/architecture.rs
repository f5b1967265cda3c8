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
    for front_end in ["play", "tui", "net", "web", "table"] {
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

/// The places outside a game's own files that may name it, and why: each
/// front end's list of games (next to the game's `mod` line), the registry,
/// the network's two-player protocol, and the solvers' subcommands.
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
    // The wire names the games it plays (SPEC 7), and the screen over it.
    ("net/", &["velha", "connect4"], "the network's games"),
    (
        "tui/network.rs",
        &["velha", "connect4"],
        "the network's games",
    ),
    (
        "tui/ui/mod.rs",
        &["velha", "connect4"],
        "the network's boards",
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
