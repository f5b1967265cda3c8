//! Notes on a Rust submission's code, the "élégance" a teacher looks at
//! beside behaviour: short, actionable comments with file and line, as
//! Exercism's analyzers give them. Read from the student's folder with
//! tree-sitter, in the grader's process (nothing of the student's runs).
//!
//! What is noted: a function longer than the kit's threshold
//! (`exercises/lints.toml`, `[notes]`);
//! `unwrap()` and `expect()`, and `panic!`, `todo!`, `unimplemented!`,
//! `unreachable!`, outside tests; and, once, a folder with no enum of its
//! own. Counted, not noted: modules, functions, enums and uses of `Option`.
//! Beside these, the build's own: each warning of the compiler and of
//! clippy under the kit's lint set on the student's folder
//! ([`lint_note`], from [`super::compile`]), kind the lint's name.
//! Notes never change a level; `--style-points` turns them into points,
//! one a kind of note however often it occurs (a habit is one comment).

use boardkit::catalogue::{f, t};
use std::path::Path;

use serde::{Deserialize, Serialize};

/// One note: where, what kind, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Note {
    /// The file, relative to the submission's folder.
    pub file: String,
    /// From 1.
    pub line: usize,
    /// `long_function`, `unwrap`, `panic` or `no_enum`; or the lint's
    /// name (`clippy::needless_range_loop`, `unused_variables`).
    pub kind: String,
    pub message: String,
    /// Where the lint is explained, when it is clippy's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// The kinds of the notes read with tree-sitter; every other kind is a lint.
const CODE_KINDS: [&str; 4] = ["long_function", "unwrap", "panic", "no_enum"];

impl Note {
    /// Whether the compiler or clippy gave it (not the reading of the code).
    pub(crate) fn is_lint(&self) -> bool {
        !CODE_KINDS.contains(&self.kind.as_str())
    }
}

/// The note a compiler warning (a JSON diagnostic's `message` object) gives
/// on a file of the student's folder `solution` (`src/velha`); `None` for
/// a warning elsewhere (the kit's files) or without a place.
pub(crate) fn lint_note(warning: &serde_json::Value, solution: &str) -> Option<Note> {
    let span = warning["spans"]
        .as_array()?
        .iter()
        .find(|s| s["is_primary"] == true)?;
    // Relative to the crate's root, as Cargo compiles a package's own files.
    let file = span["file_name"].as_str()?;
    if !file.starts_with(&format!("{solution}/")) {
        return None;
    }
    let kind = warning["code"]["code"]
        .as_str()
        .unwrap_or("warning")
        .to_owned();
    let mut message = warning["message"].as_str()?.to_owned();
    let mut url = None;
    for child in warning["children"].as_array().into_iter().flatten() {
        let text = child["message"].as_str().unwrap_or("");
        if child["level"] != "help" || text.is_empty() {
            continue;
        }
        // Only clippy's own pages: a student's `#[deprecated(note)]` can
        // say anything.
        match text
            .strip_prefix("for further information visit ")
            .filter(|link| link.starts_with("https://rust-lang.github.io/rust-clippy/"))
        {
            Some(link) => url = Some(link.to_owned()),
            None => {
                // Its first line, and the code it suggests when that is short.
                message.push_str("; ");
                message.push_str(text.lines().next().unwrap_or(""));
                let code: Vec<String> = child["spans"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s["suggested_replacement"].as_str())
                    .map(str::trim)
                    .filter(|r| !r.is_empty() && !r.contains('\n') && r.len() <= 80)
                    .map(|r| format!("`{r}`"))
                    .collect();
                if !code.is_empty() {
                    message.push(' ');
                    message.push_str(&code.join(", "));
                }
            }
        }
    }
    Some(Note {
        file: file.to_owned(),
        line: span["line_start"].as_u64().map_or(1, |l| l as usize),
        kind,
        message,
        url,
    })
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
pub(crate) fn rust_notes(
    folder: &Path,
    shown_as: &str,
    long_function: usize,
) -> (Vec<Note>, Facts) {
    let mut notes = Vec::new();
    let mut facts = Facts::default();
    for path in super::submission::files_below(folder) {
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let relative = path.strip_prefix(folder).unwrap_or(&path);
        let file = format!("{shown_as}/{}", relative.display());
        facts.modules += 1;
        note_file(&file, &text, long_function, &mut notes, &mut facts);
    }
    if facts.modules > 0 && facts.enums == 0 {
        notes.push(Note {
            url: None,
            file: shown_as.to_owned(),
            line: 1,
            kind: "no_enum".into(),
            message: t("no enum of its own: a value that is one of a few cases (a cell's mark, a game's state) reads best as an enum").into(),
        });
    }
    sort(&mut notes);
    (notes, facts)
}

/// Notes in reading order: by file, then line.
pub(crate) fn sort(notes: &mut [Note]) {
    notes.sort_by(|a, b| (&a.file, a.line, &a.kind).cmp(&(&b.file, b.line, &b.kind)));
}

/// Whether `attribute` (an attribute item's text) marks test code.
fn is_test_attribute(attribute: &str) -> bool {
    let inner: String = attribute.chars().filter(|c| !c.is_whitespace()).collect();
    inner.contains("test")
}

/// A note of the kit's own (not a lint) on `file`'s `line`.
fn note(file: &str, line: usize, kind: &str, message: String) -> Note {
    Note {
        url: None,
        file: file.to_owned(),
        line,
        kind: kind.into(),
        message,
    }
}

/// Notes `text` (the file `file`) and counts its facts.
fn note_file(
    file: &str,
    text: &str,
    long_function: usize,
    notes: &mut Vec<Note>,
    facts: &mut Facts,
) {
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
                if lines > long_function {
                    let name = node.child_by_field_name("name").map_or("?", text_of);
                    notes.push(note(file, line, "long_function", f(
                            "`{name}` is {lines} lines long: split it into functions of a few lines, each named for what it does (over {long_function} is hard to read)",
                            &[("name", &name), ("lines", &lines), ("long_function", &long_function)],
                        )));
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
                    notes.push(note(file, line, "unwrap", f(
                            "`{method}()` stops the program on a None or an Err: handle the case (`match`, `if let`, `?`, `unwrap_or`)",
                            &[("method", &method)],
                        )));
                }
            }
            "macro_invocation" => {
                let name = node.child_by_field_name("macro").map_or("", text_of);
                if matches!(name, "panic" | "todo" | "unimplemented" | "unreachable") {
                    notes.push(note(file, line, "panic", f(
                            "`{name}!` stops the program: return an error, or make the case impossible with a type",
                            &[("name", &name)],
                        )));
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

/// Style points: `max` less one for each kind of note, never below 0.
pub(crate) fn style_points(notes: &[Note], max: u32) -> f64 {
    let kinds: std::collections::BTreeSet<&str> = notes.iter().map(|n| n.kind.as_str()).collect();
    f64::from(max).min(0f64.max(f64::from(max) - kinds.len() as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clippy_warning_in_the_students_folder_is_a_note_with_its_fix_and_page() {
        let warning = |file: &str, link: &str| {
            serde_json::json!({
                "code": {"code": "clippy::needless_pass_by_value"},
                "message": "this argument is passed by value, but not consumed in the function body",
                "spans": [{"file_name": file, "line_start": 98, "is_primary": true}],
                "children": [
                    {"level": "help", "message": format!("for further information visit {link}"), "spans": []},
                    {"level": "note", "message": "requested on the command line", "spans": []},
                    {"level": "help", "message": "consider changing the type to",
                     "spans": [{"suggested_replacement": "&[String]"}]}
                ]
            })
        };
        let page =
            "https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_pass_by_value";
        let note = lint_note(&warning("src/velha/exam.rs", page), "src/velha").unwrap();
        assert_eq!(
            note,
            Note {
                file: "src/velha/exam.rs".into(),
                line: 98,
                kind: "clippy::needless_pass_by_value".into(),
                message:
                    "this argument is passed by value, but not consumed in the function body; \
                          consider changing the type to `&[String]`"
                        .into(),
                url: Some(page.into()),
            }
        );
        // The kit's files are not the student's to fix; a link is clippy's
        // own or none.
        assert_eq!(
            lint_note(&warning("src/program.rs", page), "src/velha"),
            None
        );
        assert_eq!(
            lint_note(&warning("src/velhas/x.rs", page), "src/velha"),
            None
        );
        let elsewhere = lint_note(
            &warning("src/velha/exam.rs", "javascript:alert(1)"),
            "src/velha",
        );
        assert_eq!(elsewhere.unwrap().url, None);
    }

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
        let (notes, facts) = rust_notes(dir.path(), "src/velha", 50);
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
        let (notes, facts) = rust_notes(dir.path(), "src/velha", 50);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].kind, "no_enum");
        assert_eq!(
            (facts.modules, facts.functions, facts.option_uses),
            (2, 2, 1)
        );
    }
}
