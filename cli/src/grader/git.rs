//! A submission that is a git repository (GitHub Classroom's): graded at a
//! commit, never at its working tree. The last commit reachable from HEAD
//! whose committer date is at or before the limit (a deadline, plus the late
//! days allowed), or HEAD without a deadline.
//!
//! Nothing in the student's `.git` runs: its objects and refs alone are
//! copied into a repository of the grader's own (no config, no hooks, no
//! alternates: never `core.fsmonitor`, a filter, an external diff or a hook),
//! and git runs there with no system or global configuration either. The
//! commit's tree is then written out with `git archive` and `tar`, and taken
//! as any folder is (links left out, sizes bounded).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chrono::{DateTime, FixedOffset};

/// The commit graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Commit {
    pub hash: String,
    /// Its committer date, RFC 3339.
    pub date: String,
}

/// Why a repository cannot be graded.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GitError {
    #[error("cannot run git (apt-get install git): {0}")]
    Missing(std::io::Error),
    #[error("cannot copy the repository: {0}")]
    Copy(#[from] std::io::Error),
    #[error("the repository has no commit")]
    NoCommit,
    #[error("no commit at or before {0}: nothing in time to grade")]
    NoneInTime(String),
    #[error("git {0}: {1}")]
    Failed(String, String),
    #[error(
        "the repository holds more than {} MiB, or its commit more than {} MiB or {} files",
        .0.bytes >> 20, .0.bytes >> 20, .0.files
    )]
    TooLarge(Bounds),
}

/// Whether `path` is a git repository's working folder.
pub(crate) fn is_repository(path: &Path) -> bool {
    std::fs::symlink_metadata(path.join(".git")).is_ok_and(|m| m.is_dir())
}

/// git, run in the grader's own repository `git_dir`, reading no
/// configuration but what it is given.
fn git(git_dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("git");
    command
        .arg("--git-dir")
        .arg(git_dir)
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
        ])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_CONFIG")
        .stdin(Stdio::null());
    command
}

fn output(git_dir: &Path, args: &[&str]) -> Result<String, GitError> {
    let out = git(git_dir, args).output().map_err(GitError::Missing)?;
    if !out.status.success() {
        return Err(GitError::Failed(
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The most a repository may bring: bytes (of its `.git`, and of its
/// commit's tree written out) and files. The caller's archive bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub bytes: u64,
    pub files: usize,
}

/// Copies regular files and folders below `from` into `to`, never a link,
/// while `left` bytes allow: a student's `.git` is bounded as any archive.
fn copy_plain(from: &Path, to: &Path, left: &mut u64, bounds: Bounds) -> Result<(), GitError> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_plain(&entry.path(), &to.join(entry.file_name()), left, bounds)?;
        }
    } else if meta.is_file() {
        *left = left
            .checked_sub(meta.len())
            .ok_or(GitError::TooLarge(bounds))?;
        std::fs::copy(from, to)?;
    }
    Ok(())
}

/// Refuses a commit whose tree would write out more than an archive may
/// unpack to (git's objects compress, as a zip's entries do).
fn bounded_tree(git_dir: &Path, hash: &str, bounds: Bounds) -> Result<(), GitError> {
    let tree = output(git_dir, &["ls-tree", "-r", "-l", hash])?;
    let mut bytes: u64 = 0;
    let mut files = 0;
    for line in tree.lines() {
        files += 1;
        // `<mode> <type> <object> <size>\t<path>`; a submodule's size is `-`.
        let size = line
            .split('\t')
            .next()
            .and_then(|meta| meta.split_whitespace().nth(3))
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0);
        bytes = bytes.saturating_add(size);
    }
    if bytes > bounds.bytes || files > bounds.files {
        return Err(GitError::TooLarge(bounds));
    }
    Ok(())
}

/// The repository at `repo` at its last commit at or before `limit` (HEAD
/// without one), written out into `into` (emptied first). `scratch` holds
/// the grader's copy of the repository.
pub(crate) fn checkout(
    repo: &Path,
    limit: Option<DateTime<FixedOffset>>,
    scratch: &Path,
    into: &Path,
    bounds: Bounds,
) -> Result<Commit, GitError> {
    let git_dir: PathBuf = scratch.join("repository.git");
    if git_dir.exists() {
        std::fs::remove_dir_all(&git_dir)?;
    }
    std::fs::create_dir_all(&git_dir)?;
    let student = repo.join(".git");
    // The objects (not `objects/info`: alternates would read elsewhere),
    // the refs and HEAD; nothing else of the student's.
    let objects = student.join("objects");
    let mut left = bounds.bytes;
    std::fs::create_dir_all(git_dir.join("objects/info"))?;
    if objects.is_dir() {
        for entry in std::fs::read_dir(&objects)? {
            let entry = entry?;
            if entry.file_name() != "info" {
                copy_plain(
                    &entry.path(),
                    &git_dir.join("objects").join(entry.file_name()),
                    &mut left,
                    bounds,
                )?;
            }
        }
    }
    for name in ["refs", "packed-refs", "HEAD"] {
        let from = student.join(name);
        if std::fs::symlink_metadata(&from).is_ok() {
            copy_plain(&from, &git_dir.join(name), &mut left, bounds)?;
        }
    }
    std::fs::create_dir_all(git_dir.join("refs"))?;
    // HEAD, then every commit it reaches, newest first by committer date.
    let log = output(&git_dir, &["log", "--format=%H %ct %cI", "HEAD"])
        .map_err(|_| GitError::NoCommit)?;
    let chosen = log
        .lines()
        .filter_map(|line| {
            let mut words = line.split(' ');
            let (hash, seconds, date) = (words.next()?, words.next()?, words.next()?);
            Some((
                hash.to_owned(),
                seconds.parse::<i64>().ok()?,
                date.to_owned(),
            ))
        })
        .filter(|(_, seconds, _)| limit.is_none_or(|limit| *seconds <= limit.timestamp()))
        .max_by_key(|(_, seconds, _)| *seconds);
    let Some((hash, _, date)) = chosen else {
        return Err(match limit {
            Some(limit) if !log.trim().is_empty() => GitError::NoneInTime(limit.to_rfc3339()),
            _ => GitError::NoCommit,
        });
    };
    bounded_tree(&git_dir, &hash, bounds)?;
    if into.exists() {
        std::fs::remove_dir_all(into)?;
    }
    std::fs::create_dir_all(into)?;
    let mut archive = git(&git_dir, &["archive", "--format=tar", &hash])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(GitError::Missing)?;
    let tar = Command::new("tar")
        .args(["-x", "--no-same-owner", "--no-same-permissions", "-C"])
        .arg(into)
        .stdin(archive.stdout.take().map_or_else(Stdio::null, Stdio::from))
        .stderr(Stdio::piped())
        .output()
        .map_err(GitError::Missing)?;
    let archived = archive.wait()?;
    if !archived.success() || !tar.status.success() {
        return Err(GitError::Failed(
            format!("archive {hash}"),
            String::from_utf8_lossy(&tar.stderr).trim().to_owned(),
        ));
    }
    Ok(Commit { hash, date })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A commit whose tree unpacks past an archive's bound (zeros compress
    /// to almost nothing in git's objects) is refused before it is written.
    #[test]
    fn a_tree_too_large_to_unpack_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        let zeros = std::fs::File::create(repo.join("big")).unwrap();
        let bounds = Bounds {
            bytes: 1 << 20,
            files: 10,
        };
        zeros.set_len(bounds.bytes + 1).unwrap();
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .args(args)
                .current_dir(&repo)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
                .unwrap();
            assert!(out.status.success(), "git {args:?}: {out:?}");
        };
        git(&["init", "-q"]);
        git(&["add", "big"]);
        git(&[
            "-c",
            "user.name=s",
            "-c",
            "user.email=s@x",
            "commit",
            "-q",
            "-m",
            "big",
        ]);
        let into = dir.path().join("tree");
        let refused = checkout(&repo, None, &dir.path().join("scratch"), &into, bounds);
        assert!(matches!(refused, Err(GitError::TooLarge(_))), "{refused:?}");
        assert!(!into.exists());
    }
}
