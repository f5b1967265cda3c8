//! `boardkit bless DIR`: the reference's answers written into the
//! package's case files (`expect`), never by hand. A call with `accept`
//! (a property) keeps its list; the author's comments and layout stay.

use std::path::Path;

use super::run::{self, Built};
use super::{Case, CaseKind, Language, Package};
use crate::grader::sandbox::{Limits, Sandbox};

/// The reference to run: Rust when there is one.
pub(crate) fn reference(package: &Package) -> (Language, &Path) {
    match (&package.reference.rust, &package.reference.python) {
        (Some(rust), _) => (Language::Rust, rust.as_path()),
        (None, Some(python)) => (Language::Python, python.as_path()),
        (None, None) => unreachable!("a package has a reference (load checks it)"),
    }
}

/// Runs the reference on every case and writes its answers; returns how
/// many files changed.
pub(crate) fn bless(package: &Package, sandbox: &Sandbox, scratch: &Path) -> Result<usize, String> {
    let (language, folder) = reference(package);
    let cases: Vec<&Case> = package.cases.iter().collect();
    let built: Built = run::prepare(package, language, folder, scratch, sandbox)
        .map_err(|e| format!("the reference ({language}): {e}"))?;
    let mut changed = 0;
    let mut session = sandbox.session();
    // A variant blesses its own files; its base's are the base's.
    for case in cases.iter().filter(|c| c.file.starts_with(&package.root)) {
        let ran = run::run_case(package, &built, case, &mut session, &Limits::default());
        if let Some(failure) = &ran.failure {
            // The call it failed on, and its own file where the sandbox
            // names the copy it built.
            let at = match &case.kind {
                CaseKind::Calls { function, calls } => calls.get(ran.answers.len()).map(|call| {
                    let f = &package.functions[*function];
                    format!(
                        ":{} ({})",
                        call.line,
                        run::shown_call(package, f, &call.args, language)
                    )
                }),
                CaseKind::Session { .. } => None,
            };
            let failure = failure.replace(
                &format!("/build/src/{}/", package.name),
                &format!("{}/", folder.display()),
            );
            return Err(format!(
                "{}{}: the reference failed: {failure}",
                case.file.display(),
                at.unwrap_or_default()
            ));
        }
        let path = &case.file;
        // A base's session in another locale becomes this package's own.
        let source = case.from.as_ref().unwrap_or(path);
        let text =
            std::fs::read_to_string(source).map_err(|e| format!("{}: {e}", source.display()))?;
        let blessed = blessed(package, case, &ran, &text)?;
        if blessed != text || case.from.is_some() {
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder)
                    .map_err(|e| format!("{}: {e}", folder.display()))?;
            }
            std::fs::write(path, blessed).map_err(|e| format!("{}: {e}", path.display()))?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// `text` with the answers of `ran` written in.
fn blessed(package: &Package, case: &Case, ran: &run::Ran, text: &str) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e| format!("{}: {e}", case.file.display()))?;
    match &case.kind {
        CaseKind::Session { .. } => {
            let mut lines = toml_edit::Array::new();
            for line in &ran.lines {
                lines.push_formatted(toml_edit::Value::from(line.as_str()).decorated("\n  ", ""));
            }
            lines.set_trailing("\n");
            lines.set_trailing_comma(true);
            doc["expect"] = toml_edit::value(lines);
        }
        CaseKind::Calls { function, calls } => {
            let f = &package.functions[*function];
            for (i, call) in calls.iter().enumerate() {
                if call.accept.is_some() {
                    continue;
                }
                let answer = ran
                    .answers
                    .get(i)
                    .ok_or("the reference gave too few answers")?;
                let returns = f.answer_type(call);
                let value = returns.value_of_answer(answer).ok_or_else(|| {
                    format!(
                        "{}:{}: the reference's answer {answer} is not a {returns}",
                        case.file.display(),
                        call.line,
                    )
                })?;
                let edit: toml_edit::Value = format!("{value}")
                    .parse()
                    .map_err(|e| format!("cannot write {value}: {e}"))?;
                set_expect(&mut doc, i, edit)?;
            }
        }
    }
    Ok(doc.to_string())
}

/// Sets `expect` in the `i`-th call, an array of tables or inline tables.
fn set_expect(
    doc: &mut toml_edit::DocumentMut,
    i: usize,
    value: toml_edit::Value,
) -> Result<(), String> {
    let calls = doc.get_mut("call").ok_or("no `call`")?;
    if let Some(tables) = calls.as_array_of_tables_mut() {
        let table = tables.get_mut(i).ok_or("a call is missing")?;
        // The comment on its line stays (`expect = 6  # the sum`).
        let mut value = value;
        if let Some(old) = table.get("expect").and_then(toml_edit::Item::as_value) {
            *value.decor_mut() = old.decor().clone();
        }
        table["expect"] = toml_edit::Item::Value(value);
        return Ok(());
    }
    let inline = calls
        .as_array_mut()
        .and_then(|a| a.get_mut(i))
        .and_then(toml_edit::Value::as_inline_table_mut)
        .ok_or("expected `[[call]]` tables, or `call = [{ ... }]`")?;
    inline.insert("expect", value);
    Ok(())
}
