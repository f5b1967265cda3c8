//! `boardkit play --exercise DIR`: a package's program, as its reference
//! plays it, in the terminal or scripted over stdin. The reference is
//! built as the grader builds it and run as the player's own user, as
//! `cargo run` runs a crate: play packages you trust.

use std::path::Path;
use std::process::Command;

use super::Package;
use super::run::{self, Built};

/// Builds the reference in `scratch`, then plays its program with this
/// process's stdin, stdout and stderr; returns its exit status.
pub(crate) fn play(
    package: &Package,
    options: &[String],
    scratch: &Path,
) -> Result<std::process::ExitStatus, String> {
    let (language, folder) = super::bless::reference(package);
    let sandbox = crate::grader::sandbox::Sandbox::own_user()
        .map_err(|e| format!("cannot prepare the build: {e}"))?;
    let built = run::prepare(package, language, folder, scratch, &sandbox)
        .map_err(|e| format!("the package's reference ({language}) does not build: {e}"))?;
    let mut command = match &built {
        Built::Rust { binary } => Command::new(binary),
        Built::Program { .. } => return Err("a reference is Rust or Python".into()),
        Built::Python { folder, caller } => {
            let mut command = Command::new("python3");
            command
                .arg(caller)
                .current_dir(folder)
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .env(super::PYTHON_IO.0, super::PYTHON_IO.1);
            command
        }
    };
    command
        .env(super::LANGUAGE, &package.language)
        .arg("play")
        .args(options)
        .status()
        .map_err(|e| format!("cannot run the reference: {e}"))
}
