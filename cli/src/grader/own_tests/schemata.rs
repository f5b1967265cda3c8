//! Mutant schemata: the example and its changes (mutants, harmless
//! changes) as one library whose change is chosen at run time, so a
//! student's tests are compiled once for all of them. Not the dev check's
//! mutations (`check.rs`), which apply one change to a copy of the example.
//!
//! Each change's enclosing function body `B` becomes
//! `{ if crate::mutant_schemata::on(K) B_K else ... else B }`, where `B_K`
//! is `B` with change `K` made. A change outside any function body (a
//! constant), in a `const fn` or in one that returns `impl Trait` (whose
//! two branches would be two types) is left to a library of its own.

use std::collections::BTreeMap;

/// One change of the example's folder: `find` (its first occurrence in
/// `file`) becomes `replace`.
#[derive(Debug, Clone)]
pub(crate) struct Change<'a> {
    pub file: &'a str,
    pub find: &'a str,
    pub replace: &'a str,
}

/// The example's folder with every change it could take in, and the
/// changes left out (by their index in the list given).
#[derive(Debug)]
pub(crate) struct Schemata {
    /// The folder's files, rewritten where a change is.
    pub files: Vec<(String, String)>,
    /// Changes each to be built alone (their index).
    pub alone: Vec<usize>,
    /// Changes whose text is not in the example (their index).
    pub missing: Vec<usize>,
}

/// The module that chooses the change: its number comes on standard input
/// as one line, read before `main` (an `.init_array` entry), so nothing of
/// a run's files, arguments or environment names it, and the tests find
/// standard input at its end as in every other run. 0 is the example.
/// Every library for students' tests has it (solutions too), and the
/// tests are linked with [`SWITCH_SYMBOL`] required, so its entry is in
/// every binary even when the tests call nothing of the library.
pub(crate) const SWITCH_MODULE: &str = r#"//! Which change of the example this run is (the kit's, for grading tests).
#![allow(dead_code)] // a solution's library has no switch to read
use std::sync::atomic::{AtomicU32, Ordering};

static ACTIVE: AtomicU32 = AtomicU32::new(0);

extern "C" fn choose() {
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    ACTIVE.store(line.trim().parse().unwrap_or(0), Ordering::Relaxed);
}

#[used]
#[unsafe(no_mangle)]
#[unsafe(link_section = ".init_array")]
static BOARDKIT_MUTANT_SCHEMATA_CHOOSE: extern "C" fn() = choose;

#[inline(never)]
pub(crate) fn on(change: u32) -> bool {
    ACTIVE.load(Ordering::Relaxed) == change
}
"#;

/// The switch's entry, which the tests' link requires.
pub(crate) const SWITCH_SYMBOL: &str = "BOARDKIT_MUTANT_SCHEMATA_CHOOSE";

/// The function body (byte range) around `start..end` in Rust `source`,
/// `None` where it is not in one or the function cannot take two branches.
fn enclosing_body(source: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .ok()?;
    let tree = parser.parse(source, None)?;
    let mut node = tree
        .root_node()
        .descendant_for_byte_range(start, end.max(start + 1) - 1)?;
    loop {
        if node.kind() == "function_item" {
            let body = node.child_by_field_name("body")?;
            let head = &source[node.start_byte()..body.start_byte()];
            let returns_impl = node
                .child_by_field_name("return_type")
                .is_some_and(|t| source[t.byte_range()].contains("impl "));
            let contained = body.start_byte() < start && end < body.end_byte();
            return (contained && !returns_impl && !head.contains("const fn"))
                .then(|| (body.start_byte(), body.end_byte()));
        }
        node = node.parent()?;
    }
}

/// Rewrites `files` (path, Rust source) with `changes` numbered from 1.
pub(crate) fn schemata(files: &[(String, String)], changes: &[Change<'_>]) -> Schemata {
    let mut alone = Vec::new();
    let mut missing = Vec::new();
    // Per file, per body: the changes in it.
    let mut bodies: BTreeMap<&str, BTreeMap<(usize, usize), Vec<usize>>> = BTreeMap::new();
    for (index, change) in changes.iter().enumerate() {
        let Some((_, source)) = files.iter().find(|(path, _)| path == change.file) else {
            missing.push(index);
            continue;
        };
        let Some(start) = source.find(change.find).filter(|_| !change.find.is_empty()) else {
            missing.push(index);
            continue;
        };
        match enclosing_body(source, start, start + change.find.len()) {
            Some(body) => bodies
                .entry(change.file)
                .or_default()
                .entry(body)
                .or_default()
                .push(index),
            None => alone.push(index),
        }
    }
    let mut out = Vec::new();
    for (path, source) in files {
        let mut text = source.clone();
        let in_file = bodies.remove(path.as_str()).unwrap_or_default();
        // Bodies inside one another: the inner ones' changes go alone.
        let ranges: Vec<(usize, usize)> = in_file.keys().copied().collect();
        let nested = |r: &(usize, usize)| ranges.iter().any(|o| o != r && o.0 <= r.0 && r.1 <= o.1);
        // From the last body back, so earlier offsets hold.
        for (range, indices) in in_file.iter().rev() {
            if nested(range) {
                alone.extend(indices);
                continue;
            }
            let body = &source[range.0..range.1];
            let mut switched = String::from("{ ");
            for &index in indices {
                let change = &changes[index];
                let changed = body.replacen(change.find, change.replace, 1);
                switched.push_str(&format!(
                    "if crate::mutant_schemata::on({}) {changed} else ",
                    index + 1
                ));
            }
            switched.push_str(body);
            switched.push_str(" }");
            text.replace_range(range.0..range.1, &switched);
        }
        out.push((path.clone(), text));
    }
    alone.sort_unstable();
    Schemata {
        files: out,
        alone,
        missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<(String, String)> {
        vec![(
            "a.rs".to_owned(),
            "pub const WORD: &str = \"x\";\n\
             pub fn f(x: u32) -> u32 {\n    let y = x + 1;\n    y * 2\n}\n\
             pub const fn g() -> u32 { 3 }\n"
                .to_owned(),
        )]
    }

    #[test]
    fn changes_in_one_body_share_its_switch_and_others_go_alone() {
        let changes = [
            Change {
                file: "a.rs",
                find: "x + 1",
                replace: "x + 2",
            },
            Change {
                file: "a.rs",
                find: "y * 2",
                replace: "y * 3",
            },
            Change {
                file: "a.rs",
                find: "\"x\"",
                replace: "\"z\"",
            },
            Change {
                file: "a.rs",
                find: "{ 3 }",
                replace: "{ 4 }",
            },
            Change {
                file: "a.rs",
                find: "absent",
                replace: "",
            },
            Change {
                file: "b.rs",
                find: "x",
                replace: "",
            },
        ];
        let out = schemata(&files(), &changes);
        assert_eq!(out.alone, vec![2, 3]);
        assert_eq!(out.missing, vec![4, 5]);
        let text = &out.files[0].1;
        assert!(
            text.contains("if crate::mutant_schemata::on(1) {\n    let y = x + 2;"),
            "{text}"
        );
        assert!(text.contains("else if crate::mutant_schemata::on(2) {\n    let y = x + 1;\n    y * 3\n} else {\n    let y = x + 1;\n    y * 2\n} }"), "{text}");
        assert!(text.starts_with("pub const WORD: &str = \"x\";"), "{text}");
    }
}
