//! Reading a package: its manifest, cases and submissions, each checked as
//! it is read, every error naming its file and line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml::{Spanned, Value};

use super::manifest::{
    self, CaseFile, HintSpec, Manifest, Spot, SubmissionFile, arguments, identifier, line_of,
};
use super::types::{Names, Type};
use super::{
    Call, Case, CaseKind, Ends, Function, Given, Hint, Language, NamedType, Package, PackageError,
    Patch, Program, PythonFiles, Reference, Submission, Typed,
};
use boardkit::session_fixture::{MAX_STDIN_BYTES, Stdin};

/// The manifest's file name.
pub(crate) const MANIFEST: &str = "exercise.toml";

/// How many packages a variant may stand on, itself included.
const DEPTH: usize = 4;

/// Reads and checks the package in `root`.
pub(crate) fn load(root: &Path) -> Result<Package, PackageError> {
    let package = load_at(root, 0)?;
    give_back_parse_memory();
    let stale = package.cases.iter().find_map(|c| match &c.kind {
        CaseKind::Calls { calls, .. } => calls.iter().find_map(|call| call.stale.clone()),
        CaseKind::Session { .. } => None,
    });
    match stale {
        Some(error) => Err(*error),
        None => Ok(package),
    }
}

/// Returns to the system the memory that reading large case files took
/// (a 3^9-board case is megabytes of TOML): every case's run forks the
/// grader, and a fork copies the page tables of all it holds (one velha
/// exam graded by `velha-exam`: 7.3 to 7.8 s without, 5.9 to 6.6 s with).
fn give_back_parse_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; no pointer the
    // program holds is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// [`load`] for `bless`: a blessed answer that no longer fits its call
/// is dropped, to be written again.
pub(crate) fn load_to_bless(root: &Path) -> Result<Package, PackageError> {
    load_at(root, 0)
}

fn load_at(root: &Path, depth: usize) -> Result<Package, PackageError> {
    let file = Path::new(MANIFEST);
    let (manifest, text): (Manifest, String) = manifest::read(root, file)?;
    let at = |span: std::ops::Range<usize>, message: String| {
        PackageError::at(root, file, line_of(&text, span.start), message)
    };
    if *manifest.format.get_ref() != manifest::FORMAT {
        return Err(at(
            manifest.format.span(),
            format!(
                "format {} is not one this kit reads: expected format = {}",
                manifest.format.get_ref(),
                manifest::FORMAT
            ),
        ));
    }
    let base = match &manifest.extends {
        Some(_) if depth + 1 >= DEPTH => {
            return Err(PackageError::file(
                root,
                file,
                format!("`extends` goes {DEPTH} packages deep, or round in a circle"),
            ));
        }
        Some(parent) => Some(load_at(
            &parent_folder(root, parent).map_err(|m| at(parent.span(), m))?,
            depth + 1,
        )?),
        None => None,
    };
    let mut package = own_parts(root, &manifest, base.as_ref(), &at)?;
    let (base_public, base_hidden) = base_cases(&package, base.as_ref());
    let (base_public, base_hidden) =
        left_out(&manifest, base.as_ref(), base_public, base_hidden, &at)?;
    let (base_public, base_hidden) =
        without_robustness(&manifest, base.as_ref(), base_public, base_hidden, &at)?;
    let own_public = cases(&package, Path::new("cases"), false)?;
    package.cases = merged(base_public, own_public);
    let own_hidden = cases(&package, Path::new("hidden/cases"), true)?;
    package.cases.extend(merged(base_hidden, own_hidden));
    // Level by level, everywhere they are listed: the public cases of a
    // level, then its hidden ones.
    package
        .cases
        .sort_by(|a, b| (a.level, a.hidden, &a.name).cmp(&(b.level, b.hidden, &b.name)));
    named_apart(&package)?;
    for case in &mut package.cases {
        if let Some(points) = manifest.points.get(&case.name) {
            case.points = *points;
        }
        if let Some(description) = manifest.descriptions.get(&case.name) {
            case.description.clone_from(description);
        }
    }
    let named = manifest.points.keys().chain(manifest.descriptions.keys());
    if let Some(unknown) = named
        .into_iter()
        .find(|n| !package.cases.iter().any(|c| &c.name == *n))
    {
        let table = match manifest.points.contains_key(unknown) {
            true => "[points]",
            false => "[descriptions]",
        };
        return Err(PackageError::file(
            root,
            file,
            match base
                .as_ref()
                .and_then(|b| b.cases.iter().find(|c| &c.name == unknown))
            {
                Some(dropped) => format!(
                    "`{table}` names `{unknown}`, a case of the base this variant drops (its level `{}` is not one of this variant's levels, or it runs a program this variant leaves out)",
                    base.as_ref()
                        .map_or("", |b| b.levels[dropped.level].as_str())
                ),
                None => format!("`{table}` names `{unknown}`, which is not a case"),
            },
        ));
    }
    package.submissions = submissions(&package, Path::new("submissions"), false)?;
    let mutants = submissions(&package, Path::new("hidden/mutants"), true)?;
    package.submissions.extend(mutants);
    Ok(package)
}

/// A program's lines: `[messages]` in the package's `language`, and
/// `[program] first` one of them.
fn program_lines(
    program: Option<&Program>,
    messages: &BTreeMap<String, BTreeMap<String, String>>,
    language: &str,
) -> Result<(), String> {
    let lines = messages.get(language);
    if program.is_some() && lines.is_none() {
        return Err(format!(
            "a program prints lines: expected `[messages.{language}]`"
        ));
    }
    let first = program.and_then(|p| p.first.as_ref());
    match (first, lines) {
        (Some(first), Some(lines)) if !lines.contains_key(first) => {
            let keys: Vec<&str> = lines.keys().map(String::as_str).collect();
            Err(format!(
                "`[program] first = \"{first}\"`: expected one of the messages of [messages.{language}] ({})",
                keys.join(", ")
            ))
        }
        _ => Ok(()),
    }
}

/// A variant's base cases less its robustness part, with `robustness =
/// false`; refused in a package that extends none.
fn without_robustness(
    manifest: &Manifest,
    base: Option<&Package>,
    public: Vec<Case>,
    hidden: Vec<Case>,
    at: &impl Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<(Vec<Case>, Vec<Case>), PackageError> {
    match (&manifest.robustness, base) {
        (None, _) => Ok((public, hidden)),
        (Some(kept), None) => Err(at(
            kept.span(),
            "`robustness` says whether a variant keeps its base's robustness part: only a variant (`extends`) has one".into(),
        )),
        (Some(kept), Some(_)) if *kept.get_ref() => Ok((public, hidden)),
        (Some(_), Some(_)) => {
            let kept = |cases: Vec<Case>| cases.into_iter().filter(|c| !c.robustness).collect();
            Ok((kept(public), kept(hidden)))
        }
    }
}

/// A variant's base cases less those `leaves_out` names; a name that is
/// none of the base's cases, or `leaves_out` in a package that extends
/// none, is refused at its line.
fn left_out(
    manifest: &Manifest,
    base: Option<&Package>,
    public: Vec<Case>,
    hidden: Vec<Case>,
    at: &impl Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<(Vec<Case>, Vec<Case>), PackageError> {
    let Some(names) = &manifest.leaves_out else {
        return Ok((public, hidden));
    };
    let Some(base) = base else {
        return Err(at(
            names.span(),
            "`leaves_out` names a base's cases: only a variant (`extends`) has one".into(),
        ));
    };
    if let Some(unknown) = names
        .get_ref()
        .iter()
        .find(|n| !base.cases.iter().any(|c| &c.name == *n))
    {
        return Err(at(
            names.span(),
            format!("`leaves_out` names `{unknown}`, which is not a case of the base"),
        ));
    }
    let kept = |cases: Vec<Case>| -> Vec<Case> {
        cases
            .into_iter()
            .filter(|c| !names.get_ref().contains(&c.name))
            .collect()
    };
    Ok((kept(public), kept(hidden)))
}

/// The package a variant extends: a folder beside this one, read whole
/// (its own paths stay inside it).
fn parent_folder(root: &Path, parent: &Spanned<String>) -> Result<PathBuf, String> {
    let folder = root.join(parent.get_ref());
    if !folder.join(MANIFEST).is_file() {
        return Err(format!(
            "`extends = \"{}\"`: {} holds no exercise.toml",
            parent.get_ref(),
            folder.display()
        ));
    }
    Ok(folder)
}

/// A base's public and hidden cases, at this package's levels (those of
/// a level it drops left out).
fn base_cases(package: &Package, base: Option<&Package>) -> (Vec<Case>, Vec<Case>) {
    let Some(base) = base else {
        return (Vec::new(), Vec::new());
    };
    // At this package's level of the same name, calling its function of
    // the same name; a case of a level, a function or a program this
    // package leaves out goes.
    let relevel = |case: &Case| -> Option<Case> {
        let level = package
            .levels
            .iter()
            .position(|l| *l == base.levels[case.level])?;
        let kind = match &case.kind {
            CaseKind::Calls { function, calls } => {
                let name = &base.functions[*function].name;
                CaseKind::Calls {
                    function: package.functions.iter().position(|f| &f.name == name)?,
                    calls: calls.clone(),
                }
            }
            CaseKind::Session { .. } => {
                package.program.as_ref()?;
                case.kind.clone()
            }
        };
        let moved = Case {
            level,
            kind,
            ..case.clone()
        };
        Some(match &moved.kind {
            CaseKind::Session { .. } if package.language != base.language => {
                own_copy(package, moved.clone())
            }
            _ => moved,
        })
    };
    let public = base
        .cases
        .iter()
        .filter(|c| !c.hidden)
        .filter_map(relevel)
        .collect();
    let hidden = base
        .cases
        .iter()
        .filter(|c| c.hidden)
        .filter_map(relevel)
        .collect();
    (public, hidden)
}

/// A base's session for a variant that prints another locale: its input,
/// and no expected lines until `bless` writes the variant's own file.
fn own_copy(package: &Package, case: Case) -> Case {
    let folder = if case.hidden { "hidden/cases" } else { "cases" };
    let kind = match case.kind.clone() {
        CaseKind::Session {
            args, typed, ends, ..
        } => CaseKind::Session {
            args,
            typed,
            expect: None,
            ends,
        },
        calls => calls,
    };
    Case {
        file: package
            .root
            .join(folder)
            .join(format!("{}.toml", case.name)),
        from: Some(case.file.clone()),
        kind,
        ..case
    }
}

/// `base`'s cases, those `own` names replaced, then `own`'s others.
fn merged(base: Vec<Case>, own: Vec<Case>) -> Vec<Case> {
    let mut all: Vec<Case> = base
        .into_iter()
        .filter(|b| !own.iter().any(|o| o.name == b.name))
        .collect();
    all.extend(own);
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

/// The functions and the program: the manifest's, or its base's when it
/// gives neither.
fn api(
    root: &Path,
    manifest: &Manifest,
    base: Option<&Package>,
    types: &[NamedType],
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<(Vec<Function>, Option<Program>), PackageError> {
    let file = Path::new(MANIFEST);
    Ok(
        match (
            manifest.functions.is_empty()
                && manifest.classes.is_empty()
                && manifest.program.is_none(),
            base,
        ) {
            (true, Some(b)) => (b.functions.clone(), b.program.clone()),
            _ => (
                functions(manifest, types).map_err(|(span, m)| at(span, m))?,
                match &manifest.program {
                    Some(p) => Some(Program {
                        function: identifier(&Spanned::new(0..0, p.function.clone())).map_err(
                            |m| {
                                PackageError::file(root, file, format!("`[program] function`: {m}"))
                            },
                        )?,
                        doc: p.doc.clone(),
                        options: p.options.clone(),
                        first: p.first.clone(),
                    }),
                    None => None,
                },
            ),
        },
    )
}

/// The manifest's parts, a base's where it gives none.
fn own_parts(
    root: &Path,
    manifest: &Manifest,
    base: Option<&Package>,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<Package, PackageError> {
    let file = Path::new(MANIFEST);
    let missing = |key: &str| {
        PackageError::file(
            root,
            file,
            format!("expected `{key}` (or `extends`, a package to take it from)"),
        )
    };
    let name = identifier(&manifest.name).map_err(|m| at(manifest.name.span(), m))?;
    let statements = match (&manifest.statement, base) {
        (Some(s), _) => statements(root, s.get_ref()).map_err(|m| at(s.span(), m))?,
        (None, Some(b)) => b.statements.clone(),
        (None, None) => return Err(missing("[statement]")),
    };
    let mut messages = base.map(|b| b.messages.clone()).unwrap_or_default();
    messages.extend(manifest.messages.clone());
    let language = match (&manifest.language, base) {
        // A statement's locale, or one the program's lines are written
        // in (an exam whose statement is translated, its lines not).
        (Some(l), _)
            if !statements.iter().any(|(s, _)| s == l.get_ref())
                && !messages.contains_key(l.get_ref()) =>
        {
            return Err(at(
                l.span(),
                format!(
                    "`{}` has no statement and no `[messages.{}]`: expected one of `[statement]`'s locales",
                    l.get_ref(),
                    l.get_ref()
                ),
            ));
        }
        (Some(l), _) => l.get_ref().clone(),
        (None, Some(b)) => b.language.clone(),
        (None, None) => statements[0].0.clone(),
    };
    let levels = match (&manifest.levels, base) {
        (Some(l), _) => levels(l).map_err(|m| at(l.span(), m))?,
        (None, Some(b)) => b.levels.clone(),
        (None, None) => return Err(missing("levels")),
    };
    let (types, given) = named_types(root, manifest, base, at)?;
    let (functions, program) = api(root, manifest, base, &types, at)?;
    let python = python_files(manifest, base, &name, program.is_some(), at)?;
    let reference = match (&manifest.reference, base) {
        (Some(r), _) => reference(root, r.get_ref(), &python).map_err(|m| at(r.span(), m))?,
        (None, Some(b)) => b.reference.clone(),
        (None, None) => return Err(missing("[reference]")),
    };
    program_lines(program.as_ref(), &messages, &language)
        .map_err(|m| PackageError::file(root, file, m))?;
    let hints = hints(root, file, manifest, base, &levels)?;
    let level_names =
        level_names(manifest, base, &levels).map_err(|m| PackageError::file(root, file, m))?;
    Ok(Package {
        root: root.to_path_buf(),
        name,
        title: one_line(
            manifest
                .title
                .clone()
                .or_else(|| base.map(|b| b.title.clone()))
                .ok_or_else(|| missing("title"))?,
        )
        .map_err(|m| PackageError::file(root, file, format!("`title`: {m}")))?,
        statements,
        language,
        levels,
        messages,
        functions,
        program,
        python,
        reference,
        hints,
        level_names,
        types,
        given,
        cases: Vec::new(),
        submissions: Vec::new(),
    })
}

/// Each locale's names of the levels: the base's of the levels this
/// package keeps, then its own; a name is one line, of a level there is.
fn level_names(
    manifest: &Manifest,
    base: Option<&Package>,
    levels: &[String],
) -> Result<BTreeMap<String, BTreeMap<String, String>>, String> {
    let mut names = base.map(|b| b.level_names.clone()).unwrap_or_default();
    for named in names.values_mut() {
        named.retain(|level, _| levels.contains(level));
    }
    for (locale, given) in &manifest.level_names {
        for (level, name) in given {
            if !levels.contains(level) {
                return Err(format!(
                    "[level_names] {locale}: `{level}` is not one of the levels ({})",
                    levels.join(", ")
                ));
            }
            let name = one_line(name.clone())
                .map_err(|m| format!("[level_names] {locale}: `{level}`: {m}"))?;
            names
                .entry(locale.clone())
                .or_default()
                .insert(level.clone(), name);
        }
    }
    Ok(names)
}

/// `text`, if it is one line: it goes into generated code's comments and
/// strings, where a line break would end them.
fn one_line(text: String) -> Result<String, String> {
    match text.chars().any(char::is_control) {
        true => Err("expected one line, without control characters".into()),
        false => Ok(text),
    }
}

fn statements(
    root: &Path,
    map: &std::collections::BTreeMap<String, String>,
) -> Result<Vec<(String, PathBuf)>, String> {
    if map.is_empty() {
        return Err("expected a statement: `en = \"statement/en.md\"`".into());
    }
    let mut statements = Vec::new();
    for (locale, path) in map {
        let full = super::confined(root, Path::new(path)).map_err(|e| e.to_string())?;
        if !full.is_file() {
            return Err(format!(
                "the statement `{path}` ({locale}) is not a file of the package"
            ));
        }
        statements.push((locale.clone(), full));
    }
    // The default locale first: English when there is one.
    statements.sort_by_key(|(locale, _)| locale != "en");
    Ok(statements)
}

fn levels(levels: &Spanned<Vec<String>>) -> Result<Vec<String>, String> {
    let list = levels.get_ref();
    if list.is_empty() {
        return Err("expected at least one level: `levels = [\"basic\"]`".into());
    }
    let mut seen = BTreeSet::new();
    for level in list {
        if level == "none" || !seen.insert(level) {
            return Err(format!("the level `{level}` is reserved or named twice"));
        }
        identifier(&Spanned::new(0..0, level.clone()))?;
    }
    Ok(list.clone())
}

/// The types the statement gives (`[[type]]`) and their code
/// (`[given]`): a variant's own, else its base's.
fn named_types(
    root: &Path,
    manifest: &Manifest,
    base: Option<&Package>,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<(Vec<NamedType>, Given), PackageError> {
    if manifest.types.is_empty() && manifest.given.is_none() {
        return Ok(base.map_or_else(Default::default, |b| (b.types.clone(), b.given.clone())));
    }
    let mut types: Vec<NamedType> = Vec::new();
    for spec in &manifest.types {
        let name = spec.name.get_ref();
        let named = name.starts_with(|c: char| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_ascii_alphanumeric());
        if !named || types.iter().any(|t| &t.name == name) {
            return Err(at(
                spec.name.span(),
                format!(
                    "`{name}`: a given type's name is a capital letter, then letters and digits, once"
                ),
            ));
        }
        let of: Type = spec
            .of
            .get_ref()
            .parse()
            .map_err(|m| at(spec.of.span(), m))?;
        if of.holds_result() {
            return Err(at(
                spec.of.span(),
                "a given type is not written as a result".into(),
            ));
        }
        for codec in [&spec.rust, &spec.python] {
            let c = codec.get_ref();
            for template in [&c.make, &c.read] {
                if template.matches("{}").count() != 1 || template.chars().any(char::is_control) {
                    return Err(at(
                        codec.span(),
                        format!(
                            "`{template}`: a codec's `make` and `read` are one line, with `{{}}` once where the value goes"
                        ),
                    ));
                }
            }
        }
        types.push(NamedType {
            name: name.clone(),
            of,
            rust: spec.rust.get_ref().clone(),
            python: spec.python.get_ref().clone(),
        });
    }
    let Some(given) = &manifest.given else {
        return Err(PackageError::file(
            root,
            Path::new(MANIFEST),
            "a `[[type]]` is given code: expected `[given]` with `rust = \"given/given.rs\"` and `python = \"given/given.py\"`",
        ));
    };
    let file = |path: &str| -> Result<PathBuf, PackageError> {
        let full = super::confined(root, Path::new(path))?;
        match full.is_file() {
            true => Ok(full),
            false => Err(at(
                given.span(),
                format!("`{path}` is not a file of the package"),
            )),
        }
    };
    let code = Given {
        rust: Some(file(&given.get_ref().rust)?),
        python: Some(file(&given.get_ref().python)?),
    };
    Ok((types, code))
}

fn functions(manifest: &Manifest, types: &[NamedType]) -> Result<Vec<Function>, Spot> {
    let mut names = Names {
        given: types.iter().map(|t| (t.name.clone(), t.clone())).collect(),
        objects: BTreeMap::new(),
    };
    // The classes first: a function, or a later class's method, may take
    // an object of one.
    let mut functions: Vec<Function> = Vec::new();
    let module = manifest
        .python
        .as_ref()
        .and_then(|p| p.get_ref().module.as_ref())
        .unwrap_or(&manifest.name)
        .get_ref();
    for spec in &manifest.classes {
        let class = super::class::read(spec, &names)?;
        if functions.iter().any(|f| f.name == class.name) || names.has(&class.name) {
            return Err((spec.name.span(), format!("`{}` is named twice", class.name)));
        }
        names.objects.insert(
            class.name.clone(),
            super::class::object_type(&class, module),
        );
        functions.push(class);
    }
    for spec in &manifest.functions {
        let name = identifier(&spec.name).map_err(|m| (spec.name.span(), m))?;
        if functions.iter().any(|f| f.name == name)
            || manifest
                .program
                .as_ref()
                .is_some_and(|p| p.function == name)
        {
            return Err((spec.name.span(), format!("`{name}` is named twice")));
        }
        let args = arguments(&spec.args, &names)?;
        let returns = manifest::answer_type(&spec.returns, &names)?;
        let spread = match &spec.spread {
            Some(s) if *s.get_ref() && !spreads(&args) => {
                return Err((
                    s.span(),
                    format!(
                        "`spread`: `{name}` takes its argument's items one by one: expected one argument, a list or a grid"
                    ),
                ));
            }
            Some(s) => *s.get_ref(),
            None => false,
        };
        functions.push(Function {
            name,
            doc: spec.doc.clone(),
            args,
            returns,
            class: None,
            spread,
        });
    }
    if functions.is_empty() && manifest.program.is_none() {
        return Err((
            0..0,
            "expected a `[[function]]`, a `[[class]]` or a `[program]`: the package grades nothing"
                .into(),
        ));
    }
    Ok(functions)
}

/// Whether arguments can be spread: one, a list or a grid.
fn spreads(args: &[(String, Type)]) -> bool {
    matches!(args, [(_, Type::List(_) | Type::Grid(..))])
}

fn reference(
    root: &Path,
    spec: &super::manifest::ReferenceSpec,
    python: &PythonFiles,
) -> Result<Reference, String> {
    let folder = |path: &Option<String>, files: &[String]| -> Result<Option<PathBuf>, String> {
        let Some(path) = path else { return Ok(None) };
        let full = super::confined(root, Path::new(path)).map_err(|e| e.to_string())?;
        if let Some(file) = files.iter().find(|f| !full.join(f).is_file()) {
            return Err(format!("the reference's folder `{path}` holds no `{file}`"));
        }
        Ok(Some(full))
    };
    let reference = Reference {
        rust: folder(&spec.rust, &["mod.rs".to_owned()])?,
        python: folder(&spec.python, &python.files())?,
    };
    if reference.rust.is_none() && reference.python.is_none() {
        return Err(
            "expected `rust = \"reference/rust\"`, `python = \"reference/python\"`, or both".into(),
        );
    }
    Ok(reference)
}

/// `[python]`, a base's where it gives none: the module (the package's
/// name unless it says) and the program's script, a plain file name.
fn python_files(
    manifest: &Manifest,
    base: Option<&Package>,
    name: &str,
    sessions: bool,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<PythonFiles, PackageError> {
    let Some(spec) = &manifest.python else {
        return Ok(base.map_or_else(
            || PythonFiles {
                module: name.to_owned(),
                program: None,
            },
            |b| b.python.clone(),
        ));
    };
    let module = match &spec.get_ref().module {
        Some(m) => identifier(m).map_err(|e| at(m.span(), e))?,
        None => name.to_owned(),
    };
    let program = match &spec.get_ref().program {
        None => None,
        Some(p) if !sessions => {
            return Err(at(
                p.span(),
                "a program's script needs the manifest's `[program]`".into(),
            ));
        }
        Some(p) => {
            let file = p.get_ref();
            let stem = file.strip_suffix(".py").unwrap_or_default();
            let plain = identifier(&Spanned::new(0..0, stem.to_owned())).is_ok();
            if !plain || stem == module || stem.starts_with("test_") {
                return Err(at(
                    p.span(),
                    format!(
                        "`{file}`: expected a file name such as `programa.py`: a name (lower case, digits, `_`), `.py`, not the module's nor a test's"
                    ),
                ));
            }
            Some(file.clone())
        }
    };
    Ok(PythonFiles { module, program })
}

/// The case files in `folder`.
fn cases(package: &Package, folder: &Path, hidden: bool) -> Result<Vec<Case>, PackageError> {
    let mut cases = Vec::new();
    for entry in super::entries(&package.root, folder)? {
        let file = folder.join(&entry);
        let Some(name) = entry.strip_suffix(".toml") else {
            return Err(PackageError::file(
                &package.root,
                &file,
                "a case file is expected to be `<name>.toml`",
            ));
        };
        let (spec, text): (CaseFile, String) = manifest::read(&package.root, &file)?;
        let at = |span: std::ops::Range<usize>, m: String| {
            PackageError::at(&package.root, &file, line_of(&text, span.start), m)
        };
        cases.push(case(package, name, &file, hidden, &spec, &at, &text)?);
    }
    if hidden {
        check_variations(package, &cases)?;
    }
    Ok(cases)
}

fn case(
    package: &Package,
    name: &str,
    file: &Path,
    hidden: bool,
    spec: &CaseFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
    text: &str,
) -> Result<Case, PackageError> {
    identifier(&Spanned::new(0..0, name.to_owned()))
        .map_err(|m| PackageError::file(&package.root, file, m))?;
    let level = package
        .levels
        .iter()
        .position(|l| l == spec.level.get_ref())
        .ok_or_else(|| {
            at(
                spec.level.span(),
                format!(
                    "`{}` is not a level: expected one of {}",
                    spec.level.get_ref(),
                    package.levels.join(", ")
                ),
            )
        })?;
    let session_keys = spec.input.is_some() || spec.stdin.is_some();
    let function = match (&spec.function, &spec.class) {
        (Some(_), Some(class)) => {
            return Err(at(
                class.span(),
                "a case calls a `function` or makes objects of a `class`, not both".into(),
            ));
        }
        (function, class) => function.as_ref().or(class.as_ref()),
    };
    let kind = match (function, session_keys) {
        (Some(_), false) if spec.args.is_some() => {
            return Err(at(
                spec.args.as_ref().map_or(0..0, Spanned::span),
                "`args` are a session's: a function case gives its calls' `args` in each `[[call]]`".into(),
            ));
        }
        (Some(function), false) => calls(package, function, spec, at, text)?,
        (None, true) if package.program.is_some() => session(package, spec, at)?,
        (None, true) => {
            return Err(at(
                0..0,
                "a session case needs the manifest's `[program]`".into(),
            ));
        }
        _ => {
            return Err(at(
                0..0,
                "expected either `function` and its `[[call]]`s, or `input` or `stdin` (a session)"
                    .into(),
            ));
        }
    };
    if hidden != spec.varies.is_some() {
        let m = match hidden {
            true => {
                "a hidden case says which public case it varies: expected `varies = \"<public case>\"`"
            }
            false => "`varies` is for hidden cases, in hidden/cases/",
        };
        return Err(at(
            spec.varies.as_ref().map_or(0..0, Spanned::span),
            m.into(),
        ));
    }
    Ok(Case {
        name: name.to_owned(),
        file: package.root.join(file),
        hidden,
        level,
        points: spec.points,
        rule: *spec.rule.get_ref(),
        description: one_line(spec.description.clone())
            .map_err(|m| PackageError::file(&package.root, file, format!("`description`: {m}")))?,
        varies: spec.varies.as_ref().map(|v| v.get_ref().clone()),
        robustness: spec.robustness,
        from: None,
        whole: whole(package, spec, &kind, at)?,
        kind,
    })
}

/// A case's `spread = false`: the declared form only, of a function
/// whose argument may be spread.
fn whole(
    package: &Package,
    spec: &CaseFile,
    kind: &CaseKind,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<bool, PackageError> {
    let Some(spread) = &spec.spread else {
        return Ok(false);
    };
    let spreads = match kind {
        CaseKind::Calls { function, .. } => package.functions[*function].spread,
        CaseKind::Session { .. } => false,
    };
    match (*spread.get_ref(), spreads) {
        (false, true) => Ok(true),
        (true, true) => Ok(false),
        _ => Err(at(
            spread.span(),
            "`spread` is for a case of a function with `spread = true`: `spread = false` calls it in its declared form only".into(),
        )),
    }
}

fn calls(
    package: &Package,
    function: &Spanned<String>,
    spec: &CaseFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
    text: &str,
) -> Result<CaseKind, PackageError> {
    let index = called(package, function, spec).map_err(|m| at(function.span(), m))?;
    let f = &package.functions[index];
    // Where each line starts, once: a case of 20,000 calls finds each
    // call's line by a search, not by counting from the top.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    if spec.calls.is_empty() || spec.expect.is_some() || spec.ends.is_some() {
        return Err(at(
            function.span(),
            "a function case has `[[call]]`s, and no `input`, `stdin`, `expect` or `ends` of its own"
                .into(),
        ));
    }
    let mut calls = Vec::new();
    for call in &spec.calls {
        let (args, span) = call_args(f, call).map_err(|(span, m)| at(span, m))?;
        let mut made = Call {
            args,
            expect: call.expect.as_ref().map(|e| e.get_ref().clone()),
            accept: call.accept.as_ref().map(|a| a.get_ref().clone()),
            line: starts.partition_point(|&s| s <= span.start),
            stale: None,
        };
        if let Some(expect) = &call.expect
            && let Err(m) = f.answer_type(&made).check(expect.get_ref())
        {
            let m =
                format!("`expect` no longer fits the call: {m}; `boardkit bless` writes it again");
            made.expect = None;
            made.stale = Some(Box::new(at(expect.span(), m)));
        }
        if let (Some(_), Some(accept)) = (&f.class, &call.accept) {
            return Err(at(
                accept.span(),
                "an object's call has no `accept`: its steps' answers are the reference's, which `bless` writes in `expect`".into(),
            ));
        }
        if let (Some(_), Some(accept)) = (&call.expect, &call.accept) {
            return Err(at(
                accept.span(),
                "a call has `expect` (the reference's answer, which `bless` writes) or `accept` (every answer a property accepts), not both".into(),
            ));
        }
        if let Some(accept) = &call.accept {
            for value in accept.get_ref() {
                f.returns
                    .check(value)
                    .map_err(|m| at(accept.span(), format!("`accept`: {m}")))?;
            }
        }
        calls.push(made);
    }
    Ok(CaseKind::Calls {
        function: index,
        calls,
    })
}

/// The function (or class) a case calls: its index, when the case names
/// it as what it is.
fn called(package: &Package, function: &Spanned<String>, spec: &CaseFile) -> Result<usize, String> {
    let index = package
        .functions
        .iter()
        .position(|f| &f.name == function.get_ref())
        .ok_or_else(|| {
            // Among the classes for `class = ...`, the functions else.
            let what = if spec.class.is_some() {
                "class"
            } else {
                "function"
            };
            let names: Vec<String> = package
                .functions
                .iter()
                .filter(|f| f.class.is_some() == spec.class.is_some())
                .map(|f| format!("`{}`", f.name))
                .collect();
            format!(
                "`{}` is not a {what} of the manifest: expected one of {}",
                function.get_ref(),
                names.join(", ")
            )
        })?;
    let f = &package.functions[index];
    match (&f.class, &spec.class) {
        (Some(_), None) => Err(format!(
            "`{}` is a class: expected `class = \"{}\"`",
            f.name, f.name
        )),
        (None, Some(_)) => Err(format!(
            "`{}` is a function: expected `function = \"{}\"`",
            f.name, f.name
        )),
        _ => Ok(index),
    }
}

/// A call's arguments, checked: a function's `args`, or a class's `new`
/// and `steps`; and where they are written.
fn call_args(f: &Function, call: &manifest::CallSpec) -> Result<(Vec<Value>, Span), Spot> {
    match (&f.class, &call.args, &call.new, &call.steps) {
        (None, Some(args), None, None) => {
            let values = args.get_ref();
            if values.len() != f.args.len() {
                return Err((
                    args.span(),
                    format!(
                        "`{}` takes {}, not {}",
                        f.name,
                        super::types::counted(f.args.len(), "argument"),
                        values.len()
                    ),
                ));
            }
            for ((name, kind), value) in f.args.iter().zip(values) {
                kind.check(value)
                    .map_err(|m| (args.span(), format!("argument `{name}`: {m}")))?;
            }
            Ok((values.clone(), args.span()))
        }
        (Some(_), None, new, Some(steps)) => {
            let made = new.as_ref().map_or(&[][..], |n| n.get_ref().as_slice());
            // An error in `new` is said at its line, any other at the
            // steps'.
            let at = |m: &str| match (m.starts_with("`new`"), new) {
                (true, Some(new)) => new.span(),
                _ => steps.span(),
            };
            super::class::call_args(f, made, steps.get_ref())
                .map(|values| (values, steps.span()))
                .map_err(|m| (at(&m), m))
        }
        (Some(_), ..) => Err((
            call.args.as_ref().map_or(0..0, Spanned::span),
            format!(
                "`{}` is a class: each `[[call]]` makes one with `new = [...]` (its arguments) and calls its methods in `steps = [[\"method\", ...], ...]`, and has no `args`",
                f.name
            ),
        )),
        (None, ..) => Err((
            call.new
                .as_ref()
                .or(call.steps.as_ref())
                .map_or(0..0, Spanned::span),
            format!(
                "`{}` is a function: each `[[call]]` gives its `args`, and no `new` or `steps`",
                f.name
            ),
        )),
    }
}

type Span = std::ops::Range<usize>;

/// A session case: its options (when the program takes them), its input
/// and its blessed lines.
fn session(
    package: &Package,
    spec: &CaseFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<CaseKind, PackageError> {
    if !spec.calls.is_empty() {
        return Err(at(0..0, "a session case has no `[[call]]`".into()));
    }
    let args = spec
        .args
        .as_ref()
        .map(|a| a.get_ref().clone())
        .unwrap_or_default();
    let takes = package
        .program
        .as_ref()
        .is_some_and(|p| p.options.is_some());
    if !args.is_empty() && !takes {
        return Err(at(
            spec.args.as_ref().map_or(0..0, Spanned::span),
            "the program takes no options: say them in `[program] options` first".into(),
        ));
    }
    Ok(CaseKind::Session {
        args,
        typed: typed(spec, at)?,
        expect: spec.expect.clone(),
        ends: ends(spec, at)?,
    })
}

/// A session's `input` lines or its `stdin` bytes: one of them.
fn typed(
    spec: &CaseFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<Typed, PackageError> {
    match (&spec.input, &spec.stdin) {
        (Some(lines), None) => Ok(Typed::Lines(lines.clone())),
        (None, Some(stdin)) => {
            let raw = Stdin::from_toml(stdin.get_ref().clone()).map_err(|e| at(stdin.span(), e))?;
            if raw.size().is_none() {
                return Err(at(
                    stdin.span(),
                    format!("`stdin` is over {} MiB", MAX_STDIN_BYTES >> 20),
                ));
            }
            Ok(Typed::Raw(raw))
        }
        (Some(_), Some(stdin)) => Err(at(
            stdin.span(),
            "a session has `input` (lines) or `stdin` (bytes), not both".into(),
        )),
        (None, None) => unreachable!("a session has `input` or `stdin` (its caller checks)"),
    }
}

/// How a session's program must end: `normally` unless it says `error`.
fn ends(
    spec: &CaseFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<Ends, PackageError> {
    match spec.ends.as_ref().map(|e| (e.get_ref().as_str(), e.span())) {
        None | Some(("normally", _)) => Ok(Ends::Normally),
        Some(("error", _)) => Ok(Ends::Error),
        Some((other, span)) => Err(at(
            span,
            format!("`ends` is {other:?}: expected \"normally\" or \"error\""),
        )),
    }
}

/// No two cases share a name: a hidden case named as a public one would
/// be graded, and reported, as that one.
fn named_apart(package: &Package) -> Result<(), PackageError> {
    let mut seen: BTreeMap<&str, &Case> = BTreeMap::new();
    for case in &package.cases {
        if let Some(first) = seen.insert(&case.name, case) {
            let visibility = |c: &Case| if c.hidden { "hidden" } else { "public" };
            return Err(PackageError::file(
                &package.root,
                &case.file,
                format!(
                    "a {} case named `{}`, as the {} case {} is: give each case a name of its own",
                    visibility(case),
                    case.name,
                    visibility(first),
                    first.file.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Each hidden case varies a public case of its kind and level.
/// What `case` runs, in words: `calls f`, or `is a session`.
fn what_it_runs(package: &Package, case: &Case) -> String {
    match &case.kind {
        CaseKind::Calls { function, .. } => {
            format!("calls `{}`", package.functions[*function].name)
        }
        CaseKind::Session { .. } => "is a session".into(),
    }
}

fn check_variations(package: &Package, hidden: &[Case]) -> Result<(), PackageError> {
    for case in hidden {
        let Some(varies) = &case.varies else { continue };
        let public = package.cases.iter().find(|c| &c.name == varies);
        let same = public.is_some_and(|p| {
            p.level == case.level
                && match (&p.kind, &case.kind) {
                    (CaseKind::Calls { function: a, .. }, CaseKind::Calls { function: b, .. }) => {
                        a == b
                    }
                    (CaseKind::Session { .. }, CaseKind::Session { .. }) => true,
                    _ => false,
                }
        });
        if !same {
            let why = match public {
                None => format!("there is no public case `{varies}` (cases/{varies}.toml)"),
                Some(p) if p.level != case.level => format!(
                    "`{varies}` is at level {}, this case at {}",
                    package.levels[p.level], package.levels[case.level]
                ),
                Some(p) => format!(
                    "`{varies}` {}, this case {}",
                    what_it_runs(package, p),
                    what_it_runs(package, case)
                ),
            };
            let text = std::fs::read_to_string(&case.file).unwrap_or_default();
            let line = text
                .lines()
                .position(|l| l.trim_start().starts_with("varies"))
                .map_or(1, |i| i + 1);
            return Err(PackageError::at(
                &package.root,
                &case.file,
                line,
                format!(
                    "varies `{varies}`: {why}; a hidden case varies a public one of its level that calls the same function (or is a session, as it is)"
                ),
            ));
        }
    }
    Ok(())
}

/// The submissions (or mutants) in `folder`.
fn submissions(
    package: &Package,
    folder: &Path,
    mutant: bool,
) -> Result<Vec<Submission>, PackageError> {
    let mut found = Vec::new();
    for entry in super::entries(&package.root, folder)? {
        let dir = folder.join(&entry);
        if !super::confined(&package.root, &dir)?.is_dir() {
            return Err(PackageError::file(
                &package.root,
                &dir,
                "a submission is a folder, holding submission.toml and its code: nothing else goes in this folder",
            ));
        }
        let file = dir.join("submission.toml");
        let (spec, text): (SubmissionFile, String) = manifest::read(&package.root, &file)?;
        let at = |span: std::ops::Range<usize>, m: String| {
            PackageError::at(&package.root, &file, line_of(&text, span.start), m)
        };
        let (language, needs) = match spec.language.get_ref().as_str() {
            "rust" => (Language::Rust, "mod.rs".to_owned()),
            "python" => (Language::Python, package.python.module_file()),
            other => {
                return Err(at(
                    spec.language.span(),
                    format!("`{other}`: expected `rust` or `python`"),
                ));
            }
        };
        let own = super::confined(&package.root, &dir.join(&needs))?.is_file();
        let patches = patches(package, language, &spec, &at)?;
        match (own, patches.is_empty()) {
            (false, true) => {
                return Err(PackageError::file(
                    &package.root,
                    &dir,
                    format!(
                        "a {language} submission holds `{needs}`, or `[[patch]]`es of the {language} reference"
                    ),
                ));
            }
            (true, false) => {
                return Err(PackageError::file(
                    &package.root,
                    &dir,
                    format!(
                        "a submission is its own `{needs}` or `[[patch]]`es of the reference, not both"
                    ),
                ));
            }
            _ => {}
        }
        let reaches = reaches(package, &spec, &at)?;
        if let Some(unpromised) = &spec.unpromised {
            if reaches != Some(package.levels.len() - 1) {
                return Err(at(
                    unpromised.span(),
                    "`unpromised` says what a correct submission leaves unanswered: this one must reach the top level".to_owned(),
                ));
            }
        }
        let dir = match (&patches[..], reference_of(package, language)) {
            ([], _) | (_, None) => package.root.join(dir),
            (_, Some(reference)) => reference.to_path_buf(),
        };
        found.push(Submission {
            name: entry,
            dir,
            file: package.root.join(&file),
            mutant,
            language,
            reaches,
            description: spec.description,
            unpromised: spec.unpromised.map(Spanned::into_inner),
            patches,
        });
    }
    Ok(found)
}

/// The level a submission declares it reaches (an index), or none.
fn reaches(
    package: &Package,
    spec: &SubmissionFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<Option<usize>, PackageError> {
    match spec.reaches.get_ref().as_str() {
        "none" => Ok(None),
        level => package
            .levels
            .iter()
            .position(|l| l == level)
            .map(Some)
            .ok_or_else(|| {
                at(
                    spec.reaches.span(),
                    format!(
                        "`{level}`: expected `none` or a level ({})",
                        package.levels.join(", ")
                    ),
                )
            }),
    }
}

fn reference_of(package: &Package, language: Language) -> Option<&Path> {
    match language {
        Language::Rust => package.reference.rust.as_deref(),
        Language::Python => package.reference.python.as_deref(),
    }
}

/// A submission's `[[patch]]`es, each checked: a file of the reference
/// of its language, in which its `find` is found exactly once.
fn patches(
    package: &Package,
    language: Language,
    spec: &SubmissionFile,
    at: &dyn Fn(std::ops::Range<usize>, String) -> PackageError,
) -> Result<Vec<Patch>, PackageError> {
    if spec.patches.is_empty() {
        return Ok(Vec::new());
    }
    let Some(reference) = reference_of(package, language) else {
        return Err(at(
            spec.patches[0].file.span(),
            format!("a `[[patch]]` changes the {language} reference, and the package has none"),
        ));
    };
    let mut patches = Vec::new();
    for given in &spec.patches {
        let file = PathBuf::from(given.file.get_ref());
        let inside = reference.strip_prefix(&package.root).unwrap_or(reference);
        // Inside the reference's own folder (a variant's is its base's,
        // confined when the base was read).
        let path = super::confined(reference, &file)?;
        let text = std::fs::read_to_string(&path).map_err(|_| {
            at(
                given.file.span(),
                format!(
                    "`{}` is not a file of the {language} reference",
                    file.display()
                ),
            )
        })?;
        let find = given.find.get_ref();
        let found = if find.is_empty() {
            0
        } else {
            text.matches(find.as_str()).count()
        };
        if found != 1 {
            return Err(at(
                given.find.span(),
                format!(
                    "`find` is found {found} times in {}: give text found exactly once",
                    inside.join(&file).display()
                ),
            ));
        }
        patches.push(Patch {
            file,
            find: find.clone(),
            replace: given.replace.clone(),
        });
    }
    Ok(patches)
}

/// A hint as the manifest gives it, its level looked up in `levels`.
fn hint(given: &HintSpec, levels: &[String]) -> Result<Hint, String> {
    match given {
        HintSpec::Text(text) => Ok(Hint {
            text: text.clone(),
            level: 0,
            about: Vec::new(),
            language: None,
        }),
        HintSpec::Levelled(h) => Ok(Hint {
            language: match h.language.as_deref() {
                None => None,
                Some("rust") => Some(Language::Rust),
                Some("python") => Some(Language::Python),
                Some(other) => {
                    return Err(format!(
                        "a hint's language {other:?}: expected \"rust\" or \"python\""
                    ));
                }
            },
            text: h.text.clone(),
            level: levels.iter().position(|l| *l == h.level).ok_or_else(|| {
                format!(
                    "a hint's level {:?} is not one of the levels ({})",
                    h.level,
                    levels.join(", ")
                )
            })?,
            about: h.about.clone(),
        }),
    }
}

/// The package's hints per locale: its own, else its base's at this
/// package's levels (those of the same name).
fn hints(
    root: &Path,
    file: &Path,
    manifest: &Manifest,
    base: Option<&Package>,
    levels: &[String],
) -> Result<BTreeMap<String, Vec<Hint>>, PackageError> {
    // A base's hints at the levels of this package of the same name; a
    // level it leaves out takes its hints with it.
    let mut hints: BTreeMap<String, Vec<Hint>> = BTreeMap::new();
    for (locale, given) in base.map(|b| &b.hints).into_iter().flatten() {
        let kept = given.iter().filter_map(|hint| {
            let name = base.map(|b| b.levels[hint.level].as_str());
            let level = levels.iter().position(|l| Some(l.as_str()) == name)?;
            Some(Hint {
                level,
                ..hint.clone()
            })
        });
        hints.insert(locale.clone(), kept.collect());
    }
    for (locale, given) in &manifest.hints {
        let read: Result<Vec<Hint>, String> = given.iter().map(|h| hint(h, levels)).collect();
        hints.insert(
            locale.clone(),
            read.map_err(|m| PackageError::file(root, file, format!("[hints] {locale}: {m}")))?,
        );
    }
    Ok(hints)
}
