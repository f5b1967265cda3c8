//! Notes on a Rust submission's code, the "élégance" a teacher looks at
//! beside behaviour: short, actionable comments with file and line, as
//! Exercism's analyzers give them. Read from the student's folder with
//! tree-sitter, in the grader's process (nothing of the student's runs).
//!
//! What is noted: a function longer than [`LONG_FUNCTION`] lines;
//! `unwrap()` and `expect()`, and `panic!`, `todo!`, `unimplemented!`,
//! `unreachable!`, outside tests; and, once, a folder with no enum of its
//! own. Counted, not noted: modules, functions, enums and uses of `Option`.
//! Notes never change a level; `--style-points` turns them into points.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// Lines past which a function is noted as long.
pub(crate) const LONG_FUNCTION: usize = 50;

/// One note: where, what kind, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Note {
    /// The file, relative to the submission's folder.
    pub file: String,
    /// From 1.
    pub line: usize,
    /// `long_function`, `unwrap`, `panic` or `no_enum`.
    pub kind: String,
    pub message: String,
}

/// What was counted of the code, beside the notes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Facts {
    pub modules: usize,
    pub functions: usize,
    pub enums: usize,
    pub option_uses: usize,
}

/// The notes on the Rust files below `folder` (paths in notes relative to
/// `shown_as`, the folder's path in the student's crate), and the facts.
pub(crate) fn rust_notes(folder: &Path, shown_as: &str) -> (Vec<Note>, Facts) {
    let mut notes = Vec::new();
    let mut facts = Facts::default();
    for path in super::files_below(folder) {
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let relative = path.strip_prefix(folder).unwrap_or(&path);
        let file = format!("{shown_as}/{}", relative.display());
        facts.modules += 1;
        note_file(&file, &text, &mut notes, &mut facts);
    }
    if facts.modules > 0 && facts.enums == 0 {
        notes.push(Note {
            file: shown_as.to_owned(),
            line: 1,
            kind: "no_enum".into(),
            message: "no enum of its own: a value that is one of a few cases (a cell's mark, a game's state) reads best as an enum".into(),
        });
    }
    notes.sort_by(|a, b| (&a.file, a.line, &a.kind).cmp(&(&b.file, b.line, &b.kind)));
    (notes, facts)
}

/// Whether `attribute` (an attribute item's text) marks test code.
fn is_test_attribute(attribute: &str) -> bool {
    let inner: String = attribute.chars().filter(|c| !c.is_whitespace()).collect();
    inner.contains("test")
}

fn note_file(file: &str, text: &str, notes: &mut Vec<Note>, facts: &mut Facts) {
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .is_err()
    {
        return;
    }
    let Some(tree) = parser.parse(text, None) else {
        return;
    };
    let source = text.as_bytes();
    let text_of = |node: tree_sitter::Node<'_>| node.utf8_text(source).unwrap_or("");
    // Depth-first, skipping each item that an attribute marks as a test.
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let line = node.start_position().row + 1;
        match node.kind() {
            "function_item" => {
                facts.functions += 1;
                let lines = node.end_position().row - node.start_position().row + 1;
                if lines > LONG_FUNCTION {
                    let name = node.child_by_field_name("name").map_or("?", text_of);
                    notes.push(Note {
                        file: file.to_owned(),
                        line,
                        kind: "long_function".into(),
                        message: format!(
                            "`{name}` is {lines} lines long: split it into functions of a few lines, each named for what it does (over {LONG_FUNCTION} is hard to read)"
                        ),
                    });
                }
            }
            "enum_item" => facts.enums += 1,
            "mod_item" if node.child_by_field_name("body").is_some() => facts.modules += 1,
            "type_identifier" if text_of(node) == "Option" => facts.option_uses += 1,
            "call_expression" => {
                let method = node
                    .child_by_field_name("function")
                    .filter(|f| f.kind() == "field_expression")
                    .and_then(|f| f.child_by_field_name("field"))
                    .map(text_of);
                if let Some(method @ ("unwrap" | "expect")) = method {
                    notes.push(Note {
                        file: file.to_owned(),
                        line,
                        kind: "unwrap".into(),
                        message: format!(
                            "`{method}()` stops the program on a None or an Err: handle the case (`match`, `if let`, `?`, `unwrap_or`)"
                        ),
                    });
                }
            }
            "macro_invocation" => {
                let name = node.child_by_field_name("macro").map_or("", text_of);
                if matches!(name, "panic" | "todo" | "unimplemented" | "unreachable") {
                    notes.push(Note {
                        file: file.to_owned(),
                        line,
                        kind: "panic".into(),
                        message: format!(
                            "`{name}!` stops the program: return an error, or make the case impossible with a type"
                        ),
                    });
                }
            }
            _ => {}
        }
        // Children in reverse (the stack pops the first first), an item
        // after a test attribute left out with it.
        let mut children = Vec::new();
        let mut cursor = node.walk();
        let mut test_attribute = false;
        for child in node.children(&mut cursor) {
            if child.kind() == "attribute_item" {
                test_attribute |= is_test_attribute(text_of(child));
                continue;
            }
            if !test_attribute {
                children.push(child);
            }
            if child.is_named() && !child.kind().contains("comment") {
                test_attribute = false;
            }
        }
        stack.extend(children.into_iter().rev());
    }
}

/// Style points: `max` less one for each note, never below 0.
pub(crate) fn style_points(notes: &[Note], max: u32) -> f64 {
    f64::from(max).min(0f64.max(f64::from(max) - notes.len() as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unwrap_and_a_long_function_are_noted_with_file_and_line_and_tests_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let body: String = (0..60).map(|i| format!("    let _x{i} = {i};\n")).collect();
        std::fs::write(
            dir.path().join("mod.rs"),
            format!(
                "pub enum Mark {{ X, O }}\n\
                 pub fn short(s: &str) -> usize {{\n    s.parse().unwrap()\n}}\n\
                 pub fn long() {{\n{body}}}\n\
                 #[cfg(test)]\nmod tests {{\n    #[test]\n    fn t() {{ Some(1).unwrap(); panic!(); }}\n}}\n"
            ),
        )
        .unwrap();
        let (notes, facts) = rust_notes(dir.path(), "src/velha");
        let kinds: Vec<(&str, usize)> = notes.iter().map(|n| (n.kind.as_str(), n.line)).collect();
        assert_eq!(
            kinds,
            vec![("unwrap", 3), ("long_function", 5)],
            "{notes:?}"
        );
        assert!(notes.iter().all(|n| n.file == "src/velha/mod.rs"));
        assert!(notes[1].message.contains("`long` is 62 lines"), "{notes:?}");
        assert_eq!(facts.enums, 1);
        assert_eq!(style_points(&notes, 5), 3.0);
        assert_eq!(style_points(&notes, 1), 0.0);
    }

    #[test]
    fn a_folder_without_an_enum_is_noted_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.rs"),
            "pub fn f() -> Option<u8> { None }\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("b.rs"), "pub fn g() {}\n").unwrap();
        let (notes, facts) = rust_notes(dir.path(), "src/velha");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].kind, "no_enum");
        assert_eq!(
            (facts.modules, facts.functions, facts.option_uses),
            (2, 2, 1)
        );
    }
}
