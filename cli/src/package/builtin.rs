//! The kit's own packages, embedded in the binary
//! (`exercises/<game>/<folder>/exercise.toml`), named as a built-in game:
//! `velha` is `exercises/velha/package`, `velha-english` its
//! `exercises/velha/english` variant. Every command that takes a package
//! folder takes such a name, on a machine with no copy of the kit.

use std::path::PathBuf;

/// The built-in packages: each name and its folder in the kit.
pub(crate) fn names() -> Vec<(String, String)> {
    let mut names = Vec::new();
    for (path, _) in crate::embedded::under("exercises/") {
        let parts: Vec<&str> = path.split('/').collect();
        if let ["exercises", game, folder, "exercise.toml"] = parts[..] {
            let name = match folder {
                "package" => (*game).to_owned(),
                _ => format!("{game}-{folder}"),
            };
            names.push((name, format!("exercises/{game}/{folder}")));
        }
    }
    names
}

/// The folder of the built-in package `name`, written out once from the
/// binary (a folder per build of the kit, under the temporary folder, so
/// a variant finds its base beside it); `None` when no package has that
/// name.
pub(crate) fn folder(name: &str) -> Option<Result<PathBuf, String>> {
    let (_, folder) = names().into_iter().find(|(n, _)| n == name)?;
    Some(written().map(|root| root.join(folder)))
}

/// Every embedded package file written under one folder named by their
/// digest: written whole into a fresh folder, then renamed into place,
/// so two commands at once never read half of it.
fn written() -> Result<PathBuf, String> {
    use sha2::Digest as _;
    let files: Vec<(&str, &[u8])> = crate::embedded::under("exercises/")
        .filter(|(p, _)| p.split('/').count() >= 4)
        .collect();
    let mut hasher = sha2::Sha256::new();
    for (path, bytes) in &files {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    let digest: String = hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let root = std::env::temp_dir().join(format!("boardkit-packages-{digest}"));
    if root.is_dir() {
        return Ok(root);
    }
    let fresh = tempfile::Builder::new()
        .prefix("boardkit-packages-")
        .tempdir()
        .map_err(|e| format!("cannot write the built-in packages: {e}"))?;
    for (path, bytes) in &files {
        let target = fresh.path().join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    let made = fresh.keep();
    // Another command may have put the same files there first: theirs
    // are these.
    if std::fs::rename(&made, &root).is_err() {
        let _ = std::fs::remove_dir_all(&made);
    }
    if root.is_dir() {
        Ok(root)
    } else {
        Err(format!(
            "cannot write the built-in packages into {}",
            root.display()
        ))
    }
}
