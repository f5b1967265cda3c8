//! `boardkit new`, `boardkit verify` and `boardkit bless`: an exercise
//! package written, checked, and its answers blessed by its reference
//! (docs/authors.md).

use std::path::PathBuf;

use super::{Failure, Outcome, usage_error};
use crate::package;

/// `boardkit verify` and `boardkit bless`'s arguments.
#[derive(clap::Args)]
pub(crate) struct PackageArgs {
    /// The package's folder (it holds exercise.toml).
    pub dir: PathBuf,
    /// Run the reference and the submissions without the sandbox
    /// (bubblewrap): only for packages you trust.
    #[arg(long)]
    pub no_sandbox: bool,
}

/// The package in folder `dir`, or the built-in package of that name
/// (`velha`, `velha-english`) when no such folder is there.
pub(crate) fn loaded(dir: &std::path::Path) -> Result<package::Package, Failure> {
    loaded_by(dir, package::load)
}

/// [`loaded`], read by `load` (`load_to_bless` for `bless`).
fn loaded_by(
    dir: &std::path::Path,
    load: fn(&std::path::Path) -> Result<package::Package, package::PackageError>,
) -> Result<package::Package, Failure> {
    if dir.join(package::load::MANIFEST).is_file() {
        return load(dir).map_err(Failure::failed);
    }
    let named = dir.to_str().filter(|_| !dir.exists());
    match named.and_then(package::builtin::folder) {
        Some(Ok(folder)) => load(&folder).map_err(Failure::failed),
        Some(Err(e)) => Err(Failure::failed(std::io::Error::other(e))),
        None => {
            let names: Vec<String> = package::builtin::names()
                .into_iter()
                .map(|(n, _)| n)
                .collect();
            Err(usage_error(format!(
                "{} holds no exercise.toml: not a package (nor a built-in one: {})",
                dir.display(),
                names.join(", ")
            ))
            .into())
        }
    }
}

fn sandbox(no_sandbox: bool) -> Result<crate::grader::sandbox::Sandbox, Failure> {
    package::run::sandbox(no_sandbox).map_err(|e| Failure::Refused(e.into()))
}

/// `boardkit new NAME DIR`.
pub(crate) fn new(name: &str, dir: &std::path::Path) -> Outcome {
    let files = package::scaffold::write(name, dir).map_err(usage_error)?;
    println!("wrote {} files into {}", files.len(), dir.display());
    println!("next: boardkit verify {}", dir.display());
    Ok(())
}

/// `boardkit verify DIR`: every check, then exit 1 if one failed.
pub(crate) fn verify(args: &PackageArgs) -> Outcome {
    let package = loaded(&args.dir)?;
    println!(
        "ok: {} reads as format 1 (cases: {}; submissions and mutants: {})",
        args.dir.display(),
        package.cases.len(),
        package.submissions.len()
    );
    let sandbox = sandbox(args.no_sandbox)?;
    let scratch = tempfile::tempdir().map_err(Failure::failed)?;
    let checks = package::verify::verify(&package, &sandbox, scratch.path());
    let mut failed = 0;
    for check in &checks {
        if check.problems.is_empty() {
            println!("ok: {}", check.what);
        } else {
            failed += 1;
            println!("FAILED: {}", check.what);
            for problem in &check.problems {
                println!("  {problem}");
            }
        }
    }
    if failed > 0 {
        return Err(Failure::failed(std::io::Error::other(format!(
            "{failed} of {} checks failed",
            checks.len() + 1
        ))));
    }
    // The folder as typed: a base and its variant share a name.
    println!(
        "{} verified: {} checks passed",
        args.dir.display(),
        checks.len() + 1
    );
    Ok(())
}

/// `boardkit bless DIR`.
pub(crate) fn bless(args: &PackageArgs) -> Outcome {
    let package = loaded_by(&args.dir, package::load::load_to_bless)?;
    let sandbox = sandbox(args.no_sandbox)?;
    let scratch = tempfile::tempdir().map_err(Failure::failed)?;
    let changed = package::bless::bless(&package, &sandbox, scratch.path())
        .map_err(|e| Failure::failed(std::io::Error::other(e)))?;
    println!(
        "blessed {}: {changed} case files written",
        args.dir.display()
    );
    Ok(())
}

/// `boardkit starter --exercise DIR OUT`.
pub(crate) fn starter(
    dir: &std::path::Path,
    out: &std::path::Path,
    python: bool,
    locale: Option<&str>,
) -> Outcome {
    let package = loaded(dir)?;
    let language = if python {
        package::Language::Python
    } else {
        package::Language::Rust
    };
    let files = package::starter::write(&package, out, language, locale).map_err(usage_error)?;
    super::said_written(out, files.len(), python);
    Ok(())
}

/// `boardkit play --exercise DIR`: the reference's program; its exit
/// status is the command's.
pub(crate) fn play(dir: &std::path::Path, options: &[String]) -> Outcome {
    let package = loaded(dir)?;
    let Some(program) = &package.program else {
        return Err(usage_error(format!(
            "{} has no program to play: its cases call functions only",
            package.name
        ))
        .into());
    };
    if program.options.is_none() && !options.is_empty() {
        return Err(usage_error(format!(
            "{}'s program takes no options, and was given {}",
            package.name,
            options.join(" ")
        ))
        .into());
    }
    let scratch = tempfile::tempdir().map_err(Failure::failed)?;
    let status = package::play::play(&package, options, scratch.path())
        .map_err(|e| Failure::failed(std::io::Error::other(e)))?;
    match status.code() {
        Some(0) => Ok(()),
        code => Err(Failure::Said(std::process::ExitCode::from(
            code.and_then(|c| u8::try_from(c).ok()).unwrap_or(1),
        ))),
    }
}
