//! Exercise packages: an exercise as one folder of data, read at run time
//! (docs/authors.md is the format's guide). A package holds its statement
//! in each locale, the lines its program prints, its API as typed
//! functions, its cases (public in `cases/`, hidden in `hidden/cases/`),
//! its levels and hints, its reference in Rust or Python, submissions that
//! must reach a declared level, and its mutants (`hidden/mutants/`).
//!
//! - [`manifest`]: the files as written, read strictly.
//! - [`types`]: the API's types and their values; [`class`]: the
//!   classes a student writes, each case's call an object made and its
//!   methods called.
//! - [`rust`] and [`python`]: what the kit writes from the API, in each
//!   language (stubs, tests, the callers the grader runs).
//! - [`run`]: a reference or a submission run on the cases, in the
//!   sandbox; [`verify`] checks a package; [`bless`] writes its answers;
//!   [`scaffold`] writes a new one; [`starter`] writes a student's.
//! - [`builtin`]: the kit's own packages, by name.
//!
//! A package never reaches outside its folder: every path is relative and
//! inside it, and links are refused.

pub(crate) mod bless;
pub(crate) mod builtin;
pub(crate) mod class;
pub(crate) mod grade;
pub(crate) mod load;
pub(crate) mod manifest;
pub(crate) mod own_rust;
pub(crate) mod play;
pub(crate) mod python;
pub(crate) mod run;
pub(crate) mod rust;
pub(crate) mod scaffold;
pub(crate) mod starter;
pub(crate) mod types;
pub(crate) mod verify;
pub(crate) mod words;

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

pub(crate) use load::load;

/// The variable a program finds its messages' locale in: a reference
/// that serves several locales (velha in Portuguese and in English)
/// prints the one the package grades.
pub(crate) const LANGUAGE: &str = "BOARDKIT_LANGUAGE";

/// How every Python run of a package reads and writes, wherever it runs:
/// a byte that is not UTF-8 read as a surrogate and written back as it
/// was. Without it, a student's UTF-8 terminal raises where the sandbox's
/// C locale does not, and the local tests and the grader part.
pub(crate) const PYTHON_IO: (&str, &str) = ("PYTHONIOENCODING", "utf-8:surrogateescape");

/// The exceptions of a Python program that never ran, which no session
/// takes for an error said (the grader's and the Python starter's
/// session helper read the same list).
pub(crate) const NEVER_RAN: &[&str] = &[
    "NotImplementedError",
    "SyntaxError",
    "IndentationError",
    "TabError",
    "ModuleNotFoundError",
    "ImportError",
];
use boardkit::session_fixture::{ROBUSTNESS, Stdin};
pub(crate) use types::{NamedType, Type};

/// Why a package cannot be used: the file, the line when there is one,
/// and what was expected.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{place}: {message}")]
pub(crate) struct PackageError {
    place: String,
    message: String,
}

impl PackageError {
    /// An error in `path` (inside `root`) at `line`.
    pub(crate) fn at(root: &Path, path: &Path, line: usize, message: impl Into<String>) -> Self {
        PackageError {
            place: format!("{}:{line}", shown(root, path)),
            message: message.into(),
        }
    }

    /// An error in `path` as a whole.
    pub(crate) fn file(root: &Path, path: &Path, message: impl Into<String>) -> Self {
        PackageError {
            place: shown(root, path),
            message: message.into(),
        }
    }
}

/// `path` as an error names it: the package's folder, then the file.
fn shown(root: &Path, path: &Path) -> String {
    // A path read from the package already starts at its folder.
    match path.starts_with(root) {
        true => path.display().to_string(),
        false => root.join(path).display().to_string(),
    }
}

/// A checked package.
#[derive(Debug, Clone)]
pub(crate) struct Package {
    pub root: PathBuf,
    /// The student's folder `src/<name>/`, the module `<name>.py`.
    pub name: String,
    pub title: String,
    /// Each locale and its statement (relative to the root), the default
    /// first.
    pub statements: Vec<(String, PathBuf)>,
    /// The locale whose messages the program prints.
    pub language: String,
    pub levels: Vec<String>,
    /// The program's lines, per locale: `{}` stands for any text.
    pub messages: BTreeMap<String, BTreeMap<String, String>>,
    /// The types the statement gives, and their code.
    pub types: Vec<NamedType>,
    pub given: Given,
    pub functions: Vec<Function>,
    /// The program's function, if the package has sessions.
    pub program: Option<Program>,
    /// A Python solution's files.
    pub python: PythonFiles,
    pub reference: Reference,
    /// Per locale, in the order given.
    pub hints: BTreeMap<String, Vec<Hint>>,
    /// Each level's name per locale, where the package gives one
    /// (`[level_names]`): by locale, then by level.
    pub level_names: BTreeMap<String, BTreeMap<String, String>>,
    /// Public cases, then hidden ones, each list by name.
    pub cases: Vec<Case>,
    /// Submissions, then mutants, each list by name.
    pub submissions: Vec<Submission>,
}

impl Package {
    /// The locale the students' pages speak: the default statement's, in
    /// which the cases are described (the program's lines may be in
    /// another: an exam translated, its lines not).
    pub(crate) fn locale(&self) -> &str {
        self.statements
            .first()
            .map_or(self.language.as_str(), |(locale, _)| locale.as_str())
    }

    /// The given types the API names, in the order of `[[type]]`: what a
    /// stub imports.
    pub(crate) fn given_used(&self) -> Vec<&str> {
        self.types
            .iter()
            .map(|t| t.name.as_str())
            .filter(|name| {
                self.functions
                    .iter()
                    .flat_map(Function::types)
                    .any(|t| t.mentions(name))
            })
            .collect()
    }

    /// The line the program must print first (`[program] first`), as
    /// its messages write it.
    pub(crate) fn first_line(&self) -> Option<&str> {
        let key = self.program.as_ref()?.first.as_ref()?;
        self.messages
            .get(&self.language)?
            .get(key)
            .map(String::as_str)
    }

    /// What a starter's own tests start from: the first public call
    /// whose answer is one value (not an error), and that answer.
    pub(crate) fn own_example(&self) -> Option<(&Function, &Call, toml::Value)> {
        self.cases.iter().filter(|c| !c.hidden).find_map(|case| {
            let CaseKind::Calls { function, calls } = &case.kind else {
                return None;
            };
            let f = &self.functions[*function];
            if f.class.is_some() {
                return None;
            }
            // A given type's value is made by its codec: no first example.
            let given = f
                .args
                .iter()
                .map(|(_, t)| t)
                .chain([&f.returns])
                .any(Type::holds_named);
            if given {
                return None;
            }
            // One answer, and not an error: a value to compare with.
            let call = calls.iter().find(|c| {
                let accepted = rust::accepted(c);
                accepted.len() == 1 && !matches!(&accepted[0], toml::Value::Table(_))
            })?;
            let answer = rust::accepted(call).pop()?;
            Some((f, call, answer))
        })
    }

    /// The parts a starter's tests are grouped in: each level, then
    /// `robustness` when a case is graded in no level.
    pub(crate) fn parts(&self) -> Vec<&str> {
        let mut parts: Vec<&str> = self.levels.iter().map(String::as_str).collect();
        if self.cases.iter().any(|c| c.robustness) {
            parts.push(ROBUSTNESS);
        }
        parts
    }
}

/// A hint: its text, the level it helps with (an index into `levels`),
/// and words of the cases it is about (none: every case of its level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hint {
    pub text: String,
    pub level: usize,
    pub about: Vec<String>,
    /// The one language whose starters give it; none: both.
    pub language: Option<Language>,
}

impl Hint {
    /// Whether a starter in `language` gives it.
    pub(crate) fn is_for(&self, language: Language) -> bool {
        self.language.is_none_or(|l| l == language)
    }
}

/// The given types' code (`[given]`): a file per language, put beside the
/// student's folder in every starter and every build, never theirs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Given {
    /// `src/given.rs` in a crate: `crate::given::Code`.
    pub rust: Option<PathBuf>,
    /// `given.py` beside the student's module: `from given import Code`.
    pub python: Option<PathBuf>,
}

/// One function of the API; or a class (`[[class]]`), its constructor's
/// arguments as `args`, each call an object made and its methods called.
#[derive(Debug, Clone)]
pub(crate) struct Function {
    pub name: String,
    pub doc: String,
    pub args: Vec<(String, Type)>,
    /// A class's is its calls' answers' type only per call
    /// ([`Function::answer_type`]).
    pub returns: Type,
    pub class: Option<class::Class>,
    /// Python: its one list or grid argument may be taken whole or as its
    /// items, one parameter each (`spread = true`).
    pub spread: bool,
}

impl Function {
    /// The function as a failure shows its calls: given types' values by
    /// their names and written values ([`Type::shown`]).
    pub(crate) fn shown(&self) -> Function {
        let shown = |args: &[(String, Type)]| -> Vec<(String, Type)> {
            args.iter().map(|(n, t)| (n.clone(), t.shown())).collect()
        };
        Function {
            args: shown(&self.args),
            class: self.class.as_ref().map(|c| class::Class {
                methods: c
                    .methods
                    .iter()
                    .map(|m| class::Method {
                        args: shown(&m.args),
                        ..m.clone()
                    })
                    .collect(),
                ..c.clone()
            }),
            ..self.clone()
        }
    }

    /// Every type its signature (or its class's methods) names.
    pub(crate) fn types(&self) -> Vec<&Type> {
        let mut types: Vec<&Type> = self.args.iter().map(|(_, t)| t).collect();
        match &self.class {
            Some(class) => {
                for m in &class.methods {
                    types.extend(m.args.iter().map(|(_, t)| t).chain(&m.returns));
                }
            }
            None => types.push(&self.returns),
        }
        types
    }

    /// The type of `call`'s answer: the function's, or for a class each
    /// answering step's in turn.
    pub(crate) fn answer_type(&self, call: &Call) -> Type {
        match &self.class {
            Some(class) => class.answer_type(&call.args),
            None => self.returns.clone(),
        }
    }

    /// `call`'s arguments as the caller reads them, one JSON array.
    pub(crate) fn canonical_args(&self, args: &[toml::Value]) -> serde_json::Value {
        match &self.class {
            Some(class) => class.canonical_args(&self.args, args),
            None => serde_json::Value::Array(
                self.args
                    .iter()
                    .zip(args)
                    .map(|((_, t), v)| t.canonical(v))
                    .collect(),
            ),
        }
    }
}

/// The program's function.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    pub function: String,
    pub doc: String,
    /// Its command-line options, said for the stub's doc: when given, the
    /// program takes them (`play(options, input, output)`) and a session
    /// may set them (`args`).
    pub options: Option<String>,
    /// The message it prints as its first line, when the statement says
    /// it starts with it (`[program] first`): its key in `messages`.
    pub first: Option<String>,
}

/// A Python solution's files: the functions' module, and the program's
/// script when it is not that module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PythonFiles {
    pub module: String,
    pub program: Option<String>,
}

impl PythonFiles {
    /// `<module>.py`.
    pub(crate) fn module_file(&self) -> String {
        format!("{}.py", self.module)
    }

    /// The file `python3` runs for a session.
    pub(crate) fn program_file(&self) -> String {
        self.program.clone().unwrap_or_else(|| self.module_file())
    }

    /// Every file a Python solution holds: the module, then the script.
    pub(crate) fn files(&self) -> Vec<String> {
        std::iter::once(self.module_file())
            .chain(self.program.clone())
            .collect()
    }
}

/// The reference's folders (relative to the root).
#[derive(Debug, Clone)]
pub(crate) struct Reference {
    pub rust: Option<PathBuf>,
    pub python: Option<PathBuf>,
}

/// One case.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// The file's name without `.toml`.
    pub name: String,
    /// Its file, relative to the root.
    pub file: PathBuf,
    pub hidden: bool,
    /// Its level's index in [`Package::levels`].
    pub level: usize,
    pub points: u32,
    /// The statement's `rule-<n>` anchor it checks.
    pub rule: u32,
    pub description: String,
    /// A hidden case: the public case it varies.
    pub varies: Option<String>,
    /// Graded in the score and in no level (`robustness = true`): a rule
    /// of input handling, as the built-ins' robustness part.
    pub robustness: bool,
    /// A variant's session whose lines its base printed in another
    /// locale: the base's file, which `bless` copies to `file` with this
    /// package's lines.
    pub from: Option<PathBuf>,
    /// A case of a `spread` function that takes its argument whole only
    /// (`spread = false`).
    pub whole: bool,
    pub kind: CaseKind,
}

impl Case {
    /// Its name in test runs and reports: `<level>::<name>`, or
    /// `robustness::<name>`.
    pub(crate) fn test_name(&self, package: &Package) -> String {
        format!("{}::{}", self.part(package), self.name)
    }

    /// Its level's name, or `robustness`: its test module in a starter.
    pub(crate) fn part<'a>(&self, package: &'a Package) -> &'a str {
        if self.robustness {
            ROBUSTNESS
        } else {
            &package.levels[self.level]
        }
    }
}

/// What a case runs.
#[derive(Debug, Clone)]
pub(crate) enum CaseKind {
    /// A function, called once per call.
    Calls { function: usize, calls: Vec<Call> },
    /// The program, fed what is typed; `expect` the reference's lines, once
    /// blessed.
    Session {
        /// The options the program is started with.
        args: Vec<String>,
        typed: Typed,
        expect: Option<Vec<String>>,
        ends: Ends,
    },
}

/// What a session types.
#[derive(Debug, Clone)]
pub(crate) enum Typed {
    /// `input`: lines, each given its newline.
    Lines(Vec<String>),
    /// `stdin`: the bytes as written, for what lines cannot say (CR LF, no
    /// final newline, bytes that are not UTF-8, a megabyte line).
    Raw(Stdin),
}

impl Typed {
    /// The bytes the program reads.
    pub(crate) fn bytes(&self) -> Vec<u8> {
        match self {
            Typed::Lines(lines) => lines
                .iter()
                .flat_map(|l| format!("{l}\n").into_bytes())
                .collect(),
            Typed::Raw(stdin) => stdin.bytes(),
        }
    }

    /// What was typed, for a failure's message: the lines, or the start of
    /// the bytes.
    pub(crate) fn shown(&self) -> String {
        match self {
            Typed::Lines(lines) => format!("{lines:?}"),
            Typed::Raw(stdin) => {
                let bytes = stdin.bytes();
                let text = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
                if bytes.len() > 60 {
                    format!("{text:?}... ({} bytes)", bytes.len())
                } else {
                    format!("{text:?}")
                }
            }
        }
    }
}

/// How a session's program must end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ends {
    /// Status 0: the default.
    Normally,
    /// `ends = "error"`: an error said, as the statement asks at an early
    /// end of input: a status other than 0 that is no crash (Rust's `play`
    /// returns `Err`; Python raises any exception but
    /// `NotImplementedError`, or exits with a status).
    Error,
}

/// One call of a function case.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub args: Vec<toml::Value>,
    /// The reference's answer, once blessed.
    pub expect: Option<toml::Value>,
    /// Every answer accepted, for a property.
    pub accept: Option<Vec<toml::Value>>,
    /// Its line in the case file.
    pub line: usize,
    /// A blessed answer that no longer fits the call (its steps or its
    /// function changed): refused, but by `bless`, which writes it again.
    pub stale: Option<Box<PackageError>>,
}

/// A language a reference or a submission is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    Rust,
    Python,
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Language::Rust => "rust",
            Language::Python => "python",
        })
    }
}

/// A submission the package declares, or a mutant.
#[derive(Debug, Clone)]
pub(crate) struct Submission {
    pub name: String,
    /// Its folder of code: its own, or for `[[patch]]`es the reference's.
    pub dir: PathBuf,
    /// Its `submission.toml`.
    pub file: PathBuf,
    /// A mutant (`hidden/mutants/`), not a submission.
    pub mutant: bool,
    pub language: Language,
    /// The highest level it must reach (an index), or none.
    pub reaches: Option<usize>,
    pub description: String,
    /// A correct submission's answers left to no promise of the
    /// statement (`unpromised`): what a test failing on it tests.
    pub unpromised: Option<String>,
    /// A submission written as changes to the reference: `dir` is then
    /// the reference's folder, and these its changes.
    pub patches: Vec<Patch>,
}

/// A change to one file of a reference (`[[patch]]`).
#[derive(Debug, Clone)]
pub(crate) struct Patch {
    /// In the reference's folder.
    pub file: PathBuf,
    pub find: String,
    pub replace: String,
}

impl Submission {
    /// The text of `file` (in its folder) as the submission has it.
    pub(crate) fn text(&self, file: &Path) -> Result<String, String> {
        let path = self.dir.join(file);
        let mut text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for patch in self.patches.iter().filter(|p| p.file == file) {
            text = text.replacen(&patch.find, &patch.replace, 1);
        }
        Ok(text)
    }

    /// Its folder of code: its own, or for a patched reference a copy in
    /// `scratch` with the changes made.
    pub(crate) fn folder(&self, scratch: &Path) -> Result<PathBuf, String> {
        if self.patches.is_empty() {
            return Ok(self.dir.clone());
        }
        let copy = scratch.join("patched");
        let _ = std::fs::remove_dir_all(&copy);
        run::copy_folder(&self.dir, &copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        for patch in &self.patches {
            let text = self.text(&patch.file)?;
            let to = copy.join(&patch.file);
            std::fs::write(&to, text).map_err(|e| format!("{}: {e}", to.display()))?;
        }
        Ok(copy)
    }
}

/// `relative`, checked to stay inside a package: no absolute path, no
/// `..`, and no link on the way.
pub(crate) fn confined(root: &Path, relative: &Path) -> Result<PathBuf, PackageError> {
    let outside = |why: &str| PackageError::file(root, relative, why.to_owned());
    let mut at = root.to_path_buf();
    for component in relative.components() {
        match component {
            Component::Normal(part) => at.push(part),
            Component::CurDir => {}
            _ => return Err(outside("a package's paths stay inside its folder")),
        }
        if let Ok(meta) = std::fs::symlink_metadata(&at)
            && meta.file_type().is_symlink()
        {
            return Err(outside(
                "is a link: a package holds its files, it never links to others",
            ));
        }
    }
    Ok(at)
}

/// The text of `relative`, a file inside the package `root`.
pub(crate) fn confined_text(root: &Path, relative: &Path) -> Result<String, PackageError> {
    let path = confined(root, relative)?;
    let bytes =
        std::fs::read(&path).map_err(|e| PackageError::file(root, relative, e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| PackageError::file(root, relative, "is not UTF-8 text"))
}

/// The entries of the folder `relative` inside `root`, by name (none when
/// it does not exist); a link among them is refused.
pub(crate) fn entries(root: &Path, relative: &Path) -> Result<Vec<String>, PackageError> {
    let dir = confined(root, relative)?;
    let Ok(read) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut names = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| PackageError::file(root, relative, e.to_string()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        confined(root, &relative.join(&name))?;
        names.push(name);
    }
    names.sort();
    Ok(names)
}
