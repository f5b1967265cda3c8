//! A package's files as they are written: `exercise.toml`, each case file
//! and each submission's `submission.toml`, read strictly (an unknown key
//! or a bad value names the file, the line and what was expected).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::PackageError;
use super::types::{Names, Type};

/// The one format this kit reads.
pub(crate) const FORMAT: i64 = 1;

/// `exercise.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Manifest {
    pub format: Spanned<i64>,
    /// The student's folder (`src/<name>/`) and Python module (`<name>.py`).
    pub name: Spanned<String>,
    /// A variant: the package (a folder, relative to this one) whose every
    /// part this one takes unless it gives its own.
    #[serde(default)]
    pub extends: Option<Spanned<String>>,
    #[serde(default)]
    pub title: Option<String>,
    /// Each locale's statement file (`en = "statement/en.md"`); English,
    /// else the first, is the default.
    #[serde(default)]
    pub statement: Option<Spanned<BTreeMap<String, String>>>,
    /// The locale whose `messages` the program prints (default: the first
    /// of `statement`).
    #[serde(default)]
    pub language: Option<Spanned<String>>,
    /// The levels, easiest first.
    #[serde(default)]
    pub levels: Option<Spanned<Vec<String>>>,
    /// A variant's points for cases it takes: `case_name = 3`.
    #[serde(default)]
    pub points: BTreeMap<String, u32>,
    /// A variant's descriptions of cases it takes, in its own words
    /// (another locale's): `case_name = "..."`.
    #[serde(default)]
    pub descriptions: BTreeMap<String, String>,
    /// The base's cases a variant leaves out, by name (public or hidden):
    /// those its course does not ask.
    #[serde(default)]
    pub leaves_out: Option<Spanned<Vec<String>>>,
    /// `false`: a variant leaves out its base's robustness part, public
    /// and hidden, without naming a hidden case in this file (which a
    /// built-in package's students' build holds).
    #[serde(default)]
    pub robustness: Option<Spanned<bool>>,
    /// The lines the program prints, per locale: `{}` stands for any text.
    #[serde(default)]
    pub messages: BTreeMap<String, BTreeMap<String, String>>,
    /// Types the statement gives, and their code.
    #[serde(default, rename = "type")]
    pub types: Vec<TypeSpec>,
    #[serde(default)]
    pub given: Option<Spanned<GivenSpec>>,
    #[serde(default, rename = "function")]
    pub functions: Vec<FunctionSpec>,
    /// Types the student writes: an object made, then its methods called
    /// in turn, each call seeing what the ones before it did.
    #[serde(default, rename = "class")]
    pub classes: Vec<ClassSpec>,
    #[serde(default)]
    pub program: Option<ProgramSpec>,
    #[serde(default)]
    pub reference: Option<Spanned<ReferenceSpec>>,
    /// A Python solution's files, when not the one module `<name>.py`.
    #[serde(default)]
    pub python: Option<Spanned<PythonSpec>>,
    /// Each level's name as a locale writes it (`fr = { intermediaire =
    /// "intermédiaire" }`), shown beside its name in the starter.
    #[serde(default)]
    pub level_names: BTreeMap<String, BTreeMap<String, String>>,
    /// Hints, one at a time, per locale.
    #[serde(default)]
    pub hints: BTreeMap<String, Vec<HintSpec>>,
}

/// A hint: its text, for the first level; or a table saying its level
/// and what it is about (words of the cases' names, such as a
/// function's), which watch mode matches with the first failing case.
#[derive(Debug, Clone)]
pub(crate) enum HintSpec {
    Text(String),
    Levelled(LevelledHint),
}

// By hand, not `untagged`: a mistake in a table is said as the table's
// own (`unknown field `txt``), not as "no variant matched".
impl<'de> Deserialize<'de> for HintSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Read;
        impl<'de> serde::de::Visitor<'de> for Read {
            type Value = HintSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a hint: its text, or `{ level = \"...\", text = \"...\", about = [...], language = \"rust\" }`",
                )
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<HintSpec, E> {
                Ok(HintSpec::Text(text.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<HintSpec, A::Error> {
                let table = serde::de::value::MapAccessDeserializer::new(map);
                LevelledHint::deserialize(table).map(HintSpec::Levelled)
            }
        }
        deserializer.deserialize_any(Read)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LevelledHint {
    pub text: String,
    pub level: String,
    #[serde(default)]
    pub about: Vec<String>,
    /// `rust` or `python`: a hint about one language's code, given in
    /// that language's starters only.
    #[serde(default)]
    pub language: Option<String>,
}

/// A type the statement gives (`[[type]]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TypeSpec {
    /// As the statement and the code name it: `Code`.
    pub name: Spanned<String>,
    /// The type a case writes its values as: `list<uint>`.
    pub of: Spanned<String>,
    pub rust: Spanned<super::types::Codec>,
    pub python: Spanned<super::types::Codec>,
}

/// The given types' code, a file per language (`[given]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GivenSpec {
    pub rust: String,
    pub python: String,
}

/// One function of the API.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FunctionSpec {
    pub name: Spanned<String>,
    /// What it does, in one line: the stub's doc.
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub args: Vec<ArgSpec>,
    pub returns: Spanned<String>,
    /// Python: its one list or grid argument may also be taken as its
    /// items, one parameter each (an exam's "nine strings, or one list").
    #[serde(default)]
    pub spread: Option<Spanned<bool>>,
}

/// A type the student writes (`[[class]]`): how one is made, and its
/// methods.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClassSpec {
    pub name: Spanned<String>,
    /// What it is, in one line: the stub's doc.
    #[serde(default)]
    pub doc: String,
    /// Its constructor: Rust's `new`, Python's `__init__`.
    #[serde(default)]
    pub new: NewSpec,
    #[serde(default, rename = "method")]
    pub methods: Vec<MethodSpec>,
}

/// A class's constructor.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewSpec {
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub args: Vec<ArgSpec>,
    /// Whether it may refuse its arguments: `Result<Self, String>` in
    /// Rust, an exception in Python.
    #[serde(default)]
    pub fails: bool,
}

/// One method of a class.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MethodSpec {
    pub name: Spanned<String>,
    #[serde(default)]
    pub doc: String,
    #[serde(default)]
    pub args: Vec<ArgSpec>,
    /// What it answers; none: it answers nothing, a change only.
    #[serde(default)]
    pub returns: Option<Spanned<String>>,
    /// Whether it changes the object (`&mut self` in Rust).
    #[serde(default)]
    pub mutates: bool,
}

/// One argument.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArgSpec {
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    pub kind: Spanned<String>,
}

/// The program the session cases run.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProgramSpec {
    /// The function that plays: Rust `play(input, output)`, Python
    /// `play()` reading `input()` and writing `print()`.
    #[serde(default = "play")]
    pub function: String,
    /// What it does: the stub's doc.
    #[serde(default)]
    pub doc: String,
    /// Its command-line options, in one line (`--start N: the first
    /// total`): the program then takes them, and a session's `args` sets
    /// them.
    #[serde(default)]
    pub options: Option<String>,
    /// The message the program prints first, as its first line (an exam
    /// that has it start with its title): a session whose first line is
    /// another fails.
    #[serde(default)]
    pub first: Option<String>,
}

fn play() -> String {
    "play".into()
}

/// `[python]`: a Python solution's files, as an exam may set them (the
/// functions in `funcoes.py`, the program a script `programa.py`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PythonSpec {
    /// The functions' module, `funcoes` for `funcoes.py` (default: the
    /// package's name).
    #[serde(default)]
    pub module: Option<Spanned<String>>,
    /// The program, a script of its own run as `python3 programa.py`
    /// (default: the module, run as a program, its function playing).
    #[serde(default)]
    pub program: Option<Spanned<String>>,
}

/// Where the reference is: the student's folder as the reference writes
/// it, in Rust (a folder holding `mod.rs`) or Python (a folder holding
/// `<name>.py`), or both.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReferenceSpec {
    #[serde(default)]
    pub rust: Option<String>,
    #[serde(default)]
    pub python: Option<String>,
}

/// A case file: `cases/<name>.toml`, or `hidden/cases/<name>.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseFile {
    pub level: Spanned<String>,
    #[serde(default = "one")]
    pub points: u32,
    /// The rule it checks: `rule = 3` is the statement's `rule-3` anchor.
    pub rule: Spanned<u32>,
    pub description: String,
    /// A hidden case: the public case whose inputs it varies.
    #[serde(default)]
    pub varies: Option<Spanned<String>>,
    /// A rule of input handling (end of input, CR LF, long lines): graded
    /// in the score, in no level.
    #[serde(default)]
    pub robustness: bool,
    /// A function case: the function, and its calls.
    #[serde(default)]
    pub function: Option<Spanned<String>>,
    /// A class case: the class, and its objects (`[[call]]`s of `new`
    /// and `steps`).
    #[serde(default)]
    pub class: Option<Spanned<String>>,
    #[serde(default, rename = "call")]
    pub calls: Vec<CallSpec>,
    /// `spread = false`: a call of a `spread` function in its declared
    /// form only (one argument), as a level that asks for that form.
    #[serde(default)]
    pub spread: Option<Spanned<bool>>,
    /// A session case: the lines typed, and what the reference printed of
    /// the program's lines (written by `boardkit bless`).
    #[serde(default)]
    pub input: Option<Vec<String>>,
    /// Or the bytes typed, as written (`"A1\r\n"`, or parts: text,
    /// `{ bytes = [...] }`, `{ repeat = "x", times = N }`).
    #[serde(default)]
    pub stdin: Option<Spanned<toml::Value>>,
    #[serde(default)]
    pub expect: Option<Vec<String>>,
    /// How the session's program must end: `normally` (the default) or
    /// `error`.
    #[serde(default)]
    pub ends: Option<Spanned<String>>,
    /// A session's command-line options (the program's `[program]
    /// options`).
    #[serde(default)]
    pub args: Option<Spanned<Vec<String>>>,
}

fn one() -> u32 {
    1
}

/// One call of a function case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallSpec {
    /// A function's arguments.
    #[serde(default)]
    pub args: Option<Spanned<Vec<toml::Value>>>,
    /// A class's: its constructor's arguments, then each method called
    /// in turn, `["name", arguments...]`.
    #[serde(default)]
    pub new: Option<Spanned<Vec<toml::Value>>>,
    #[serde(default)]
    pub steps: Option<Spanned<Vec<toml::Value>>>,
    /// The reference's answer, written by `boardkit bless`.
    #[serde(default)]
    pub expect: Option<Spanned<toml::Value>>,
    /// Every answer accepted, written by hand: a property (any winning
    /// move), which `bless` leaves as it is.
    #[serde(default)]
    pub accept: Option<Spanned<Vec<toml::Value>>>,
}

/// `submissions/<name>/submission.toml`, or a mutant's in
/// `hidden/mutants/<name>/`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SubmissionFile {
    /// `rust` (the folder holds `mod.rs`) or `python` (`<name>.py`).
    pub language: Spanned<String>,
    /// The highest level it must reach, or `none`.
    pub reaches: Spanned<String>,
    /// Why it is wrong, or what style it is written in.
    #[serde(default)]
    pub description: String,
    /// Or no code of its own: the reference of its language, changed.
    #[serde(default, rename = "patch")]
    pub patches: Vec<PatchSpec>,
    /// A correct submission that answers only what the statement
    /// promises: what it leaves unanswered. A student's own test that
    /// fails on it is told it tests that.
    #[serde(default)]
    pub unpromised: Option<Spanned<String>>,
}

/// One change to a reference's file: `find`, found exactly once,
/// replaced by `replace`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PatchSpec {
    /// The file, in the reference's folder: `mod.rs`, `<name>.py`.
    pub file: Spanned<String>,
    pub find: Spanned<String>,
    #[serde(default)]
    pub replace: String,
}

/// Reads `path` (inside the package `root`) as `T`.
pub(crate) fn read<T: serde::de::DeserializeOwned>(
    root: &Path,
    path: &Path,
) -> Result<(T, String), PackageError> {
    let text = super::confined_text(root, path)?;
    match toml::from_str::<T>(&text) {
        Ok(value) => Ok((value, text)),
        Err(e) => {
            let line = e.span().map_or(1, |span| line_of(&text, span.start));
            Err(PackageError::at(root, path, line, e.message().trim()))
        }
    }
}

/// The 1-based line of byte `at` in `text`.
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text.get(..at.min(text.len()))
        .map_or(1, |before| before.matches('\n').count() + 1)
}

/// A value written wrong: where, and why.
pub(crate) type Spot = (std::ops::Range<usize>, String);

/// A name a Rust and a Python program can both use.
pub(crate) fn identifier(name: &Spanned<String>) -> Result<String, String> {
    let text = name.get_ref();
    let mut chars = text.chars();
    let good = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    const RESERVED: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
        "where", "while", "async", "await", "dyn", "and", "or", "not", "is", "def", "class",
        "import", "from", "pass", "lambda", "global", "with", "yield", "try", "del", "raise",
        "none", "main", "tests", "std", "core",
    ];
    if !good || RESERVED.contains(&text.as_str()) {
        return Err(format!(
            "`{text}` is not a name: expected lower-case letters, digits and `_`, starting with a letter, and not a keyword of Rust or Python"
        ));
    }
    Ok(text.clone())
}

/// A signature's arguments, each named and typed; none a result.
pub(crate) fn arguments(specs: &[ArgSpec], names: &Names) -> Result<Vec<(String, Type)>, Spot> {
    let mut args = Vec::new();
    for arg in specs {
        let arg_name = identifier(&arg.name).map_err(|m| (arg.name.span(), m))?;
        let kind = Type::read(arg.kind.get_ref(), names).map_err(|m| (arg.kind.span(), m))?;
        if kind.holds_result() {
            return Err((
                arg.kind.span(),
                "an argument cannot be a result: expected it as `returns` only".into(),
            ));
        }
        args.push((arg_name, kind));
    }
    Ok(args)
}

/// A `returns`: any type but one holding an object, which only a case
/// makes.
pub(crate) fn answer_type(text: &Spanned<String>, names: &Names) -> Result<Type, Spot> {
    let kind = Type::read(text.get_ref(), names).map_err(|m| (text.span(), m))?;
    if kind.holds_object() {
        return Err((
            text.span(),
            format!(
                "`{}`: an object is made by a case, as an argument; it is never an answer",
                text.get_ref()
            ),
        ));
    }
    Ok(kind)
}
