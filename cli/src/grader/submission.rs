//! Finding what a submission holds: a folder, or a `.zip` of one.
//!
//! A submission's name is its folder's name or its archive's name without
//! `.zip` ([`names`]: two that read alike are told apart). Archives are
//! unpacked with care: an entry whose path would leave the folder (`../`, an
//! absolute path), a link, more than [`MAX_ENTRIES`] entries or more than
//! [`MAX_UNPACKED_BYTES`] once unpacked (counted while reading, not from the
//! archive's own claims) refuse the whole archive with a clear message. The
//! content's root is found by going down through folders that hold nothing
//! else (`name/project/`).
//!
//! What is graded is then copied once, into the grader's own folder
//! ([`take`]): regular files and folders only, never through a link (a
//! submission that is a link, or whose files are, reaches nothing outside
//! itself), at most [`MAX_TAKEN_BYTES`]. Nothing reads the student's own
//! folder after that.

use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The most bytes an archive may unpack to.
pub(crate) const MAX_UNPACKED_BYTES: u64 = 64 << 20;
/// The most entries an archive may hold.
pub(crate) const MAX_ENTRIES: usize = 10_000;

/// The most bytes of files taken from a submission.
pub(crate) const MAX_TAKEN_BYTES: u64 = 16 << 20;

/// What is left to take of a submission: bytes, and files and folders.
struct Budget {
    bytes: u64,
    entries: usize,
}

/// A submission ready to grade.
#[derive(Debug)]
pub(crate) struct Submission {
    /// The grader's copy of what is graded: the crate's root (holding only
    /// the student's folder) or the program's folder.
    pub root: PathBuf,
    /// Links found and left out, as paths inside the submission.
    pub links: Vec<String>,
    /// A git repository's commit that was graded.
    pub commit: Option<super::git::Commit>,
}

/// Why a submission cannot be graded.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SubmissionError {
    #[error("{0} is neither a folder nor a .zip archive")]
    NotASubmission(PathBuf),
    #[error("the archive is refused: {0}")]
    Refused(String),
    #[error("{0} is a link: only a folder or a .zip archive of its own is graded")]
    Link(PathBuf),
    #[error(
        "it holds more than {} MiB of files, or more than {MAX_ENTRIES} files and folders",
        MAX_TAKEN_BYTES >> 20
    )]
    TooLarge,
    #[error("an empty folder: nothing to grade")]
    Empty,
    #[error("{0}")]
    Git(#[from] super::git::GitError),
    #[error("cannot read the submission: {0}")]
    Io(#[from] std::io::Error),
}

impl SubmissionError {
    /// What it says, in the course's language (the catalogue's): a
    /// student's page shows it.
    pub(crate) fn said(&self) -> String {
        use boardkit::catalogue::{f, t};
        match self {
            Self::NotASubmission(path) => f(
                "{path} is neither a folder nor a .zip archive",
                &[("path", &path.display())],
            ),
            Self::Refused(why) => f("the archive is refused: {why}", &[("why", why)]),
            Self::Link(path) => f(
                "{path} is a link: only a folder or a .zip archive of its own is graded",
                &[("path", &path.display())],
            ),
            Self::TooLarge => f(
                "it holds more than {mib} MiB of files, or more than {entries} files and folders",
                &[("mib", &(MAX_TAKEN_BYTES >> 20)), ("entries", &MAX_ENTRIES)],
            ),
            Self::Empty => t("an empty folder: nothing to grade").to_owned(),
            Self::Git(e) => e.to_string(),
            Self::Io(e) => f("cannot read the submission: {error}", &[("error", e)]),
        }
    }
}

/// A name safe to use as a folder and in reports: letters, digits, `-`, `_`, `.`.
pub(crate) fn safe_name(raw: &str) -> String {
    // Letters and digits of any script stay (Lúcia and Lécia are two
    // students); anything else that could mean something to a shell, a
    // path or a spreadsheet becomes `_`.
    // One form for one name: macOS writes `Lúcia` decomposed (u and a
    // combining accent), Windows and Linux composed; both are her.
    let name: String = unicode_normalization::UnicodeNormalization::nfc(raw)
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

/// The name a submission at `path` reads as: its file name, without `.zip`,
/// made safe.
pub(crate) fn raw_name(path: &Path) -> String {
    let raw = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = raw.to_ascii_lowercase();
    let raw = if lower.ends_with(".zip") {
        &raw[..raw.len() - 4]
    } else {
        &raw[..]
    };
    safe_name(raw)
}

/// Each submission's name, in the order given: the safe form of its file
/// name, and where two read alike (`.bob` and `bob`, `Ana Lú` and `Ana_Lú`)
/// one keeps it (the one whose name needed no change, else the first path)
/// and the others get `-2`, `-3`...
/// (never a name another submission has). The same list always gives the
/// same names, on every rerun and in every shard. Also returns a warning
/// for each name told apart.
pub(crate) fn names(paths: &[PathBuf]) -> (Vec<String>, Vec<String>) {
    let wanted: Vec<String> = paths.iter().map(|p| raw_name(p)).collect();
    // Whether the file name was changed to make it safe.
    let changed = |i: usize| {
        let file = paths[i]
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let file = file.unwrap_or_default();
        file != wanted[i] && !file.eq_ignore_ascii_case(&format!("{}.zip", wanted[i]))
    };
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by(|&a, &b| {
        (&wanted[a], changed(a), &paths[a]).cmp(&(&wanted[b], changed(b), &paths[b]))
    });
    let mut taken: std::collections::BTreeSet<String> = wanted.iter().cloned().collect();
    let mut first: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut names = wanted.clone();
    let mut warnings = Vec::new();
    for i in order {
        let Some(&keeper) = first.get(wanted[i].as_str()) else {
            first.insert(&wanted[i], i);
            continue;
        };
        let name = (2..)
            .map(|k| format!("{}-{k}", wanted[i]))
            .find(|name| !taken.contains(name))
            .expect("a free name");
        taken.insert(name.clone());
        warnings.push(format!(
            "{} and {} both read as {:?}: graded as {:?} and {:?}",
            paths[keeper].display(),
            paths[i].display(),
            wanted[i],
            wanted[i],
            name
        ));
        names[i] = name;
    }
    (names, warnings)
}

/// Opens the submission at `path` as `name`: archives are unpacked below
/// `scratch`, and what is graded (`only`, folders and files inside the
/// content's root, or all of it when empty) is taken into `scratch` too.
pub(crate) fn open(
    path: &Path,
    name: &str,
    only: &[&Path],
    scratch: &Path,
    limit: Option<chrono::DateTime<chrono::FixedOffset>>,
) -> Result<Submission, SubmissionError> {
    let kind = std::fs::symlink_metadata(path)?.file_type();
    if kind.is_symlink() {
        return Err(SubmissionError::Link(path.to_owned()));
    }
    let raw = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| SubmissionError::NotASubmission(path.to_owned()))?;
    let unpacked = scratch.join("unpacked").join(name);
    let mut commit = None;
    let content = if kind.is_dir() && repository(path)? {
        let tree = unpacked.clone();
        commit = Some(commit_in_time(path, name, scratch, limit, &tree)?);
        content_root(&tree)
    } else if kind.is_dir() {
        content_root(path)
    } else if kind.is_file() && raw.to_ascii_lowercase().ends_with(".zip") {
        fresh(&unpacked)?;
        unzip(path, &unpacked)?;
        content_root(&unpacked)
    } else {
        return Err(SubmissionError::NotASubmission(path.to_owned()));
    };
    if holds_no_file(&content) {
        return Err(SubmissionError::Empty);
    }
    let root = scratch.join("taken").join(name);
    fresh(&root)?;
    let mut links = Vec::new();
    let mut budget = Budget {
        bytes: MAX_TAKEN_BYTES,
        entries: MAX_ENTRIES,
    };
    for inside in only {
        // A crate: its student folder (and own tests) alone, reached
        // without links.
        let mut from = content.clone();
        let mut to = root.clone();
        for part in inside.components() {
            from.push(part);
            to.push(part);
            let kind = std::fs::symlink_metadata(&from).map(|m| m.file_type());
            match kind {
                Ok(kind) if kind.is_dir() => std::fs::create_dir_all(&to)?,
                Ok(kind) if kind.is_symlink() => {
                    links.push(relative(&from, &content));
                    break;
                }
                _ => break,
            }
        }
        let kind = std::fs::symlink_metadata(&from);
        if kind.as_ref().is_ok_and(|m| m.is_dir()) {
            take(&from, &to, &content, &mut budget, &mut links)?;
        } else if kind.is_ok_and(|m| m.is_file() && m.nlink() == 1) {
            take_file(&from, &to, &mut budget)?;
        }
    }
    if only.is_empty() {
        take(&content, &root, &content, &mut budget, &mut links)?;
    }
    if unpacked.exists() {
        std::fs::remove_dir_all(&unpacked)?;
    }
    Ok(Submission {
        root,
        links,
        commit,
    })
}

/// Whether the folder `path` is a git repository's: graded at a commit.
/// A `.git` that is a link is refused: its working tree is never graded
/// instead, and the link could lead out of the submission.
fn repository(path: &Path) -> Result<bool, SubmissionError> {
    let dot_git = std::fs::symlink_metadata(path.join(".git"));
    if dot_git.is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(super::git::GitError::Link.into());
    }
    Ok(super::git::is_repository(path))
}

/// The repository at `path` checked out into `tree` at its commit in time
/// (`limit`), never its working tree.
fn commit_in_time(
    path: &Path,
    name: &str,
    scratch: &Path,
    limit: Option<chrono::DateTime<chrono::FixedOffset>>,
    tree: &Path,
) -> Result<super::git::Commit, SubmissionError> {
    let repository = scratch.join("git").join(name);
    // Bounded as an archive is: git's objects compress as a zip's do.
    let bounds = super::git::Bounds {
        bytes: MAX_UNPACKED_BYTES,
        files: MAX_ENTRIES,
    };
    let commit = super::git::checkout(path, limit, &repository, tree, bounds)?;
    let _ = std::fs::remove_dir_all(&repository);
    Ok(commit)
}

/// Whether `dir` holds nothing but folders (a link or any other entry
/// counts as something: it is graded, with the reason it gets no points).
fn holds_no_file(dir: &Path) -> bool {
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(entry.path()),
                _ => return false,
            }
        }
    }
    true
}

/// An empty folder at `path`, whatever was there.
fn fresh(path: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(path).is_ok() {
        std::fs::remove_dir_all(path)?;
    }
    std::fs::create_dir_all(path)
}

/// `path` below `base`, as a report or a terminal may show it.
fn relative(path: &Path, base: &Path) -> String {
    let inside = path.strip_prefix(base).unwrap_or(path).to_string_lossy();
    super::shown::printable(&inside)
}

/// Copies the regular files and folders below `from` into `to`, never
/// through a link (each link met is noted, relative to `base`), nor the
/// noise archivers and tools add; at most `budget` bytes in all.
fn take(
    from: &Path,
    to: &Path,
    base: &Path,
    budget: &mut Budget,
    links: &mut Vec<String>,
) -> Result<(), SubmissionError> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(from)? {
        // Counted as read: a folder of a million empty files stops here.
        budget.entries = budget
            .entries
            .checked_sub(1)
            .ok_or(SubmissionError::TooLarge)?;
        entries.push(entry?);
    }
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        // `file_type` does not follow links.
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        // A hard link is a link too: its content may be anybody's file.
        let hard_link = kind.is_file() && entry.metadata()?.nlink() > 1;
        if kind.is_symlink() || hard_link {
            links.push(relative(&path, base));
        } else if is_noise(&path) {
            continue;
        } else if kind.is_dir() {
            std::fs::create_dir(&target)?;
            take(&path, &target, base, budget, links)?;
        } else if kind.is_file() {
            take_file(&path, &target, budget)?;
        }
    }
    Ok(())
}

/// Copies the regular file `from` to `to`, within `budget`.
fn take_file(from: &Path, to: &Path, budget: &mut Budget) -> Result<(), SubmissionError> {
    let size = std::fs::symlink_metadata(from)?.len();
    if size > budget.bytes {
        return Err(SubmissionError::TooLarge);
    }
    let copied = std::io::copy(
        &mut std::fs::File::open(from)?.take(budget.bytes + 1),
        &mut std::fs::File::create(to)?,
    )?;
    if copied > budget.bytes {
        return Err(SubmissionError::TooLarge);
    }
    budget.bytes -= copied;
    Ok(())
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
        // A folder, not a link to one: nothing outside is ever reached.
        match entries.as_slice() {
            [only] if std::fs::symlink_metadata(only).is_ok_and(|m| m.is_dir()) => {
                root = only.clone()
            }
            _ => break,
        }
    }
    root
}

/// How many submissions `dir` holds when it is a class's folder rather
/// than one submission: no file of its own at its content's root (a crate
/// has its `Cargo.toml`, a Python exam its `.py` files), no `src`, and two
/// or more folders or `.zip` archives. `None` for anything else.
pub(crate) fn class_folder(dir: &Path) -> Option<usize> {
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    let root = content_root(dir);
    if root.join("src").is_dir() {
        return None;
    }
    let mut held = 0;
    for entry in std::fs::read_dir(&root).ok()?.flatten() {
        let path = entry.path();
        if is_noise(&path) {
            continue;
        }
        let kind = entry.file_type().ok()?;
        let zip = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
        if kind.is_dir() || (kind.is_file() && zip) {
            held += 1;
        } else if kind.is_file() {
            return None;
        }
    }
    (held >= 2).then_some(held)
}

/// What archivers and tools add that is not the student's work: never
/// taken, never counted.
fn is_noise(path: &Path) -> bool {
    path.file_name().is_some_and(|n| {
        [
            "__MACOSX",
            ".DS_Store",
            ".git",
            "target",
            "__pycache__",
            ".venv",
        ]
        .iter()
        .any(|noise| n == *noise)
    })
}

fn unzip(archive: &Path, target: &Path) -> Result<(), SubmissionError> {
    unzip_bounded(archive, target, MAX_UNPACKED_BYTES, MAX_ENTRIES)
}

/// A whole class's archive (an LMS's download): a hundred submissions' worth.
pub(crate) fn unzip_class(archive: &Path, target: &Path) -> Result<(), SubmissionError> {
    unzip_bounded(archive, target, MAX_UNPACKED_BYTES * 64, MAX_ENTRIES * 50)
}

/// An entry's name as UTF-8 when its bytes are, though the archive does
/// not flag it so (macOS's and Windows's own zips, Moodle's download):
/// the zip crate reads an unflagged name as DOS's CP437, `JoÃ£o` for
/// `João`. None when the name is ASCII, not UTF-8, or not plainly a
/// relative path (the checked CP437 reading is kept then).
fn utf8_name(raw: &[u8]) -> Option<PathBuf> {
    if raw.is_ascii() {
        return None;
    }
    let name = std::str::from_utf8(raw).ok()?;
    let parts: Vec<&str> = name.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let plain = !name.starts_with(['/', '\\'])
        && !name.contains(['\0', ':'])
        && parts.iter().all(|p| *p != "." && *p != "..");
    plain.then(|| parts.iter().collect())
}

fn unzip_bounded(
    archive: &Path,
    target: &Path,
    max_bytes: u64,
    max_entries: usize,
) -> Result<(), SubmissionError> {
    let file = std::fs::File::open(archive)?;
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| SubmissionError::Refused(format!("not a readable zip archive: {e}")))?;
    if zip.len() > max_entries {
        return Err(SubmissionError::Refused(format!(
            "{} entries, more than {max_entries}",
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
        let relative = utf8_name(entry.name_raw()).unwrap_or(relative);
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
        let room = max_bytes - unpacked;
        let copied = std::io::copy(&mut (&mut entry).take(room + 1), &mut out)?;
        unpacked += copied;
        if copied > room {
            return Err(SubmissionError::Refused(format!(
                "it unpacks to more than {} MiB",
                max_bytes >> 20
            )));
        }
    }
    Ok(())
}

/// Every regular file below `dir`, sorted, found without following a link
/// (links and other kinds are left out; an unreadable folder is skipped).
pub(crate) fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            // `file_type` does not follow links.
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(entry.path()),
                Ok(t) if t.is_file() => files.push(entry.path()),
                _ => {}
            }
        }
    }
    files.sort();
    files
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
        let s = open(zip.path(), "ana", &[], scratch.path(), None).unwrap();
        assert!(s.root.join("Cargo.toml").is_file(), "{:?}", s.root);
    }

    #[test]
    fn an_unflagged_utf8_name_is_read_as_utf8() {
        let zip = archive(&[("João Gonçalves_4112_assignsubmission_file_a.py", b"x")]);
        // Moodle's and macOS's zips leave the UTF-8 flag (bit 11) unset.
        let mut bytes = std::fs::read(zip.path()).unwrap();
        for (signature, at) in [(b"PK\x03\x04", 6), (b"PK\x01\x02", 8)] {
            let start = bytes.windows(4).position(|w| w == signature).unwrap();
            bytes[start + at + 1] &= !0x08;
        }
        let scratch = tempfile::tempdir().unwrap();
        let unflagged = scratch.path().join("unflagged.zip");
        std::fs::write(&unflagged, bytes).unwrap();
        unzip_class(&unflagged, &scratch.path().join("out")).unwrap();
        let name = scratch
            .path()
            .join("out/João Gonçalves_4112_assignsubmission_file_a.py");
        assert!(
            name.is_file(),
            "{:?}",
            std::fs::read_dir(scratch.path().join("out"))
        );
        // What is not plainly a relative path keeps the checked reading.
        assert_eq!(utf8_name("é/../x".as_bytes()), None);
        assert_eq!(utf8_name(b"plain"), None);
        assert_eq!(utf8_name(b"\xe9"), None);
    }

    #[test]
    fn escaping_entries_and_bombs_are_refused() {
        let scratch = tempfile::tempdir().unwrap();
        let zip = archive(&[("../evil.rs", b"x")]);
        let error = open(zip.path(), "a", &[], scratch.path(), None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("outside"), "{error}");
        let big = vec![0u8; (MAX_UNPACKED_BYTES + 1) as usize];
        let zip = archive(&[("a/zeros.bin", &big)]);
        let error = open(zip.path(), "a", &[], scratch.path(), None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("more than"), "{error}");
    }

    #[test]
    fn names_that_read_alike_are_told_apart_the_same_way_every_time() {
        let paths: Vec<PathBuf> = ["c/.bob", "c/bob", "a/bob.zip", "c/bob-2", "c/ana"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let (names, warnings) = names(&paths);
        // `a/bob.zip` and `c/bob` needed no change: the first path keeps
        // the name; `bob-2` is somebody's; `.bob` comes last.
        assert_eq!(names, ["bob-4", "bob-3", "bob", "bob-2", "ana"]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let mut reversed = paths.clone();
        reversed.reverse();
        let (again, _) = super::names(&reversed);
        let mut again: Vec<_> = reversed.iter().zip(again).collect();
        again.sort();
        let mut first: Vec<_> = paths.iter().zip(names).collect();
        first.sort();
        assert_eq!(
            first
                .iter()
                .map(|(p, n)| (*p, n.as_str()))
                .collect::<Vec<_>>(),
            again
                .iter()
                .map(|(p, n)| (*p, n.as_str()))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_link_is_never_followed_out_of_a_submission() {
        let dir = tempfile::tempdir().unwrap();
        let classmate = dir.path().join("bob");
        std::fs::create_dir_all(classmate.join("src/velha")).unwrap();
        std::fs::write(classmate.join("src/velha/mod.rs"), "bob's").unwrap();
        let scratch = dir.path().join("scratch");
        // The submission itself a link.
        std::os::unix::fs::symlink(&classmate, dir.path().join("eve")).unwrap();
        let error = open(&dir.path().join("eve"), "eve", &[], &scratch, None).unwrap_err();
        assert!(error.to_string().contains("is a link"), "{error}");
        // Its only entry a link: nothing of bob's is taken.
        std::fs::create_dir_all(dir.path().join("ana")).unwrap();
        std::os::unix::fs::symlink(&classmate, dir.path().join("ana/projeto")).unwrap();
        let ana = open(&dir.path().join("ana"), "ana", &[], &scratch, None).unwrap();
        assert_eq!(ana.links, ["projeto"]);
        assert_eq!(std::fs::read_dir(&ana.root).unwrap().count(), 0);
        // A crate whose src is a link: its folder is not taken.
        std::fs::create_dir_all(dir.path().join("carl")).unwrap();
        std::fs::write(dir.path().join("carl/Cargo.toml"), "").unwrap();
        std::os::unix::fs::symlink(classmate.join("src"), dir.path().join("carl/src")).unwrap();
        let only = Path::new("src/velha");
        let carl = open(&dir.path().join("carl"), "carl", &[only], &scratch, None).unwrap();
        assert_eq!(carl.links, ["src"]);
        assert!(!carl.root.join("src/velha/mod.rs").exists());
        // A hard link to a file elsewhere is not taken either.
        std::fs::create_dir_all(dir.path().join("hal")).unwrap();
        std::fs::write(dir.path().join("instructor-only.txt"), "secret").unwrap();
        std::fs::hard_link(
            dir.path().join("instructor-only.txt"),
            dir.path().join("hal/programa.py"),
        )
        .unwrap();
        let hal = open(&dir.path().join("hal"), "hal", &[], &scratch, None).unwrap();
        assert_eq!(hal.links, ["programa.py"]);
        assert!(!hal.root.join("programa.py").exists());
        // The control: bob's own crate is taken, and only its folder.
        let bob = open(&classmate, "bob", &[only], &scratch, None).unwrap();
        assert_eq!(
            std::fs::read_to_string(bob.root.join("src/velha/mod.rs")).unwrap(),
            "bob's"
        );
    }

    #[test]
    fn a_submission_of_too_many_files_or_bytes_is_refused() {
        // In memory where the machine has a tmpfs: 10,001 files on a disk
        // are seconds of metadata alone (4 s here), in memory 0.2 s.
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            tempfile::tempdir_in(shm).unwrap()
        } else {
            tempfile::tempdir().unwrap()
        };
        let scratch = dir.path().join("scratch");
        let many = dir.path().join("many");
        std::fs::create_dir_all(&many).unwrap();
        for i in 0..=MAX_ENTRIES {
            std::fs::write(many.join(i.to_string()), "").unwrap();
        }
        let error = open(&many, "many", &[], &scratch, None).unwrap_err();
        assert!(matches!(error, SubmissionError::TooLarge), "{error}");
        let big = dir.path().join("big");
        std::fs::create_dir_all(&big).unwrap();
        let file = std::fs::File::create(big.join("sparse.bin")).unwrap();
        file.set_len(MAX_TAKEN_BYTES + 1).unwrap();
        let error = open(&big, "big", &[], &scratch, None).unwrap_err();
        assert!(matches!(error, SubmissionError::TooLarge), "{error}");
        // The control: a folder just within both bounds is taken.
        std::fs::remove_file(big.join("sparse.bin")).unwrap();
        std::fs::write(big.join("programa.py"), "print(1)").unwrap();
        let taken = open(&big, "big", &[], &scratch, None).unwrap();
        assert!(taken.root.join("programa.py").is_file());
    }

    #[test]
    fn a_class_folder_is_told_from_a_submission() {
        let class = tempfile::tempdir().unwrap();
        for name in ["ana", "bruno"] {
            std::fs::create_dir_all(class.path().join(name).join("src")).unwrap();
        }
        std::fs::write(class.path().join("carla.zip"), b"PK").unwrap();
        assert_eq!(class_folder(class.path()), Some(3));
        // Each student's own folder is one submission.
        assert_eq!(class_folder(&class.path().join("ana")), None);
        // A Python exam: files at its root, even beside folders.
        let exam = tempfile::tempdir().unwrap();
        std::fs::write(exam.path().join("funcoes.py"), b"").unwrap();
        std::fs::create_dir(exam.path().join("a")).unwrap();
        std::fs::create_dir(exam.path().join("b")).unwrap();
        assert_eq!(class_folder(exam.path()), None);
        // A folder holding one folder is that folder's submission.
        let one = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(one.path().join("project").join("src")).unwrap();
        assert_eq!(class_folder(one.path()), None);
    }

    #[test]
    fn names_are_made_safe() {
        assert_eq!(safe_name("../Ana Lú"), "_Ana_Lú");
        assert_eq!(safe_name("bob-2"), "bob-2");
        assert_ne!(safe_name("Lúcia"), safe_name("Lécia"));
        // Decomposed (macOS) and composed: one name.
        assert_eq!(safe_name("Lu\u{301}cia"), "Lúcia");
        assert_eq!(safe_name("=cmd|' /C calc'!A0"), "_cmd____C_calc__A0");
        assert_eq!(safe_name("-rf"), "rf");
        assert_eq!(safe_name("a\u{1b}[31mb\0"), "a__31mb_");
    }
}
