//! Finding what a submission holds: a folder, or a `.zip` of one.
//!
//! A submission's name is its folder's name or its archive's name without
//! `.zip`. Archives are unpacked with care: an entry whose path would leave
//! the folder (`../`, an absolute path), a link, more than
//! [`MAX_ENTRIES`] entries or more than [`MAX_UNPACKED_BYTES`] once unpacked
//! (counted while reading, not from the archive's own claims) refuse the
//! whole archive with a clear message. The content's root is found by going
//! down through folders that hold nothing else (`name/project/`).

use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes an archive may unpack to.
pub(crate) const MAX_UNPACKED_BYTES: u64 = 64 << 20;
/// The most entries an archive may hold.
pub(crate) const MAX_ENTRIES: usize = 10_000;

/// A submission ready to grade.
#[derive(Debug)]
pub(crate) struct Submission {
    /// The student's name: the folder or archive name, made safe for paths.
    pub name: String,
    /// The folder holding the submission's files.
    pub root: PathBuf,
}

/// Why a submission cannot be graded.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SubmissionError {
    #[error("{0} is neither a folder nor a .zip archive")]
    NotASubmission(PathBuf),
    #[error("the archive is refused: {0}")]
    Refused(String),
    #[error("cannot read the submission: {0}")]
    Io(#[from] std::io::Error),
}

/// A name safe to use as a folder and in reports: letters, digits, `-`, `_`, `.`.
pub(crate) fn safe_name(raw: &str) -> String {
    // Letters and digits of any script stay (Lúcia and Lécia are two
    // students); anything else that could mean something to a shell, a
    // path or a spreadsheet becomes `_`.
    let name: String = raw
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    let name = name.trim_start_matches(['.', '-']).to_owned();
    if name.is_empty() {
        "submission".to_owned()
    } else {
        name
    }
}

/// Opens the submission at `path`; archives are unpacked below `scratch`.
pub(crate) fn open(path: &Path, scratch: &Path) -> Result<Submission, SubmissionError> {
    let raw = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| SubmissionError::NotASubmission(path.to_owned()))?;
    if path.is_dir() {
        return Ok(Submission {
            name: safe_name(&raw),
            root: content_root(path),
        });
    }
    if path.is_file() && raw.to_ascii_lowercase().ends_with(".zip") {
        let name = safe_name(&raw[..raw.len() - 4]);
        let target = scratch.join(&name);
        if target.exists() {
            std::fs::remove_dir_all(&target)?;
        }
        std::fs::create_dir_all(&target)?;
        unzip(path, &target)?;
        return Ok(Submission {
            name,
            root: content_root(&target),
        });
    }
    Err(SubmissionError::NotASubmission(path.to_owned()))
}

/// Goes down through folders that hold a single folder and nothing else,
/// stopping where a `Cargo.toml` or a `src` folder is (a crate's root).
fn content_root(dir: &Path) -> PathBuf {
    let mut root = dir.to_owned();
    for _ in 0..4 {
        if root.join("Cargo.toml").is_file() || root.join("src").is_dir() {
            break;
        }
        let entries: Vec<PathBuf> = std::fs::read_dir(&root)
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| !is_noise(p))
                    .collect()
            })
            .unwrap_or_default();
        match entries.as_slice() {
            [only] if only.is_dir() => root = only.clone(),
            _ => break,
        }
    }
    root
}

/// Files archivers add that are not the student's work.
fn is_noise(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "__MACOSX" || n == ".DS_Store")
}

fn unzip(archive: &Path, target: &Path) -> Result<(), SubmissionError> {
    let file = std::fs::File::open(archive)?;
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| SubmissionError::Refused(format!("not a readable zip archive: {e}")))?;
    if zip.len() > MAX_ENTRIES {
        return Err(SubmissionError::Refused(format!(
            "{} entries, more than {MAX_ENTRIES}",
            zip.len()
        )));
    }
    let mut unpacked: u64 = 0;
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| SubmissionError::Refused(format!("entry {i}: {e}")))?;
        let shown = entry.name().to_owned();
        if entry.is_symlink() {
            return Err(SubmissionError::Refused(format!("{shown:?} is a link")));
        }
        let Some(relative) = entry.enclosed_name() else {
            return Err(SubmissionError::Refused(format!(
                "{shown:?} would be written outside the submission's folder"
            )));
        };
        let path = target.join(relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&path)?;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut out = std::fs::File::create(&path)?;
        // Count what is actually read: an archive may lie about sizes.
        let room = MAX_UNPACKED_BYTES - unpacked;
        let copied = std::io::copy(&mut (&mut entry).take(room + 1), &mut out)?;
        unpacked += copied;
        if copied > room {
            return Err(SubmissionError::Refused(format!(
                "it unpacks to more than {} MiB",
                MAX_UNPACKED_BYTES >> 20
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn archive(entries: &[(&str, &[u8])]) -> tempfile::NamedTempFile {
        let file = tempfile::Builder::new().suffix(".zip").tempfile().unwrap();
        let mut zip = zip::ZipWriter::new(file.reopen().unwrap());
        for (name, bytes) in entries {
            zip.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap();
        file
    }

    #[test]
    fn nested_archives_find_their_crate() {
        let zip = archive(&[
            ("ana/project/Cargo.toml", b"[package]"),
            ("ana/project/src/lib.rs", b""),
        ]);
        let scratch = tempfile::tempdir().unwrap();
        let s = open(zip.path(), scratch.path()).unwrap();
        assert!(s.root.join("Cargo.toml").is_file(), "{:?}", s.root);
    }

    #[test]
    fn escaping_entries_and_bombs_are_refused() {
        let scratch = tempfile::tempdir().unwrap();
        let zip = archive(&[("../evil.rs", b"x")]);
        let error = open(zip.path(), scratch.path()).unwrap_err().to_string();
        assert!(error.contains("outside"), "{error}");
        let big = vec![0u8; (MAX_UNPACKED_BYTES + 1) as usize];
        let zip = archive(&[("a/zeros.bin", &big)]);
        let error = open(zip.path(), scratch.path()).unwrap_err().to_string();
        assert!(error.contains("more than"), "{error}");
    }

    #[test]
    fn names_are_made_safe() {
        assert_eq!(safe_name("../Ana Lú"), "_Ana_Lú");
        assert_eq!(safe_name("bob-2"), "bob-2");
        assert_ne!(safe_name("Lúcia"), safe_name("Lécia"));
        assert_eq!(safe_name("=cmd|' /C calc'!A0"), "_cmd____C_calc__A0");
        assert_eq!(safe_name("-rf"), "rf");
        assert_eq!(safe_name("a\u{1b}[31mb\0"), "a__31mb_");
    }
}
