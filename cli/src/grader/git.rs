//! A submission that is a git repository (GitHub Classroom's, a worktree, a
//! submodule checkout, a shallow clone): graded at a commit, never at its
//! working tree. The last commit reachable from HEAD whose committer date
//! (its Unix time, whatever zone it is written in) is at or before the limit
//! (a deadline, plus the late days allowed), or HEAD without a deadline. A
//! commit whose date cannot be read, or a shallow clone cut after the limit,
//! is refused with its reason, never graded as if on time.
//!
//! Nothing in the student's `.git` runs: its objects and refs alone are
//! copied into a repository of the grader's own (no config, no hooks, no
//! alternates: never `core.fsmonitor`, a filter, an external diff or a hook),
//! and git runs there with no system or global configuration either. A
//! `.git` file (`gitdir: …`, a worktree's or a submodule's) is followed only
//! to a git dir that names this very folder back as its working tree. The
//! commit's tree is then written out with `git archive` and `tar`, with no
//! attribute of the student's (no `export-subst`, no `export-ignore`) and
//! counted as it streams, and taken as any folder is (links left out, sizes
//! bounded).

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chrono::{DateTime, FixedOffset};

/// The commit graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Commit {
    pub hash: String,
    /// Its committer date, Unix time: what lateness is judged by.
    pub seconds: i64,
    /// The same instant, RFC 3339: in the committer's zone when RFC 3339
    /// can write it (`+99:59` it cannot), else in UTC.
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
    #[error(
        "commit {0} has a committer date that cannot be read as a time ({1:?}): \
         which commit is in time, and how late, cannot be judged, so none is graded"
    )]
    Date(String, String),
    #[error(
        "a shallow clone (git clone --depth): commit {0}, the oldest it holds on a line \
         of history, is past {1}, and the commits before it, which the deadline may \
         select, are not in the clone: grade a full clone (git fetch --unshallow)"
    )]
    Shallow(String, String),
    #[error(
        "its .git is a file: {0}; a repository is graded at a commit or not at all, \
         never from its working tree"
    )]
    GitDir(String),
    #[error(
        "its .git is a link: a repository is graded at a commit, read from a .git of \
         its own, or not at all, never from its working tree"
    )]
    Link,
    #[error("git {0}: {1}")]
    Failed(String, String),
    #[error(
        "the repository holds more than {} MiB, or its commit more than {} MiB or {} files",
        .0.bytes >> 20, .0.bytes >> 20, .0.files
    )]
    TooLarge(Bounds),
}

/// Whether `path` is a git repository's working folder: its `.git` a
/// folder, or a file naming one (a worktree, a submodule checkout).
pub(crate) fn is_repository(path: &Path) -> bool {
    std::fs::symlink_metadata(path.join(".git")).is_ok_and(|m| m.is_dir() || m.is_file())
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
        .env_remove("GIT_COMMON_DIR")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env_remove("GIT_ALTERNATE_OBJECT_DIRECTORIES")
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

/// Where a repository's parts are read from: HEAD's folder, and the folder
/// of its objects, refs and `shallow` (another for a worktree).
struct GitDirs {
    head: PathBuf,
    common: PathBuf,
}

/// The start of a small file of git's (at most 64 KiB), if it is a file.
fn read_small(path: &Path) -> Option<String> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(64 << 10)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// `written` (a path git wrote, absolute or relative to `base`), where it
/// really is.
fn resolve(base: &Path, written: &str) -> Option<PathBuf> {
    let written = written.trim();
    if written.is_empty() {
        return None;
    }
    std::fs::canonicalize(base.join(written)).ok()
}

/// The repository's parts: its `.git` folder, or the git dir its `.git`
/// file names when that git dir names this folder back (a worktree's
/// `gitdir` file, a submodule's `core.worktree`). A `.git` file naming
/// anything else (another student's repository, any folder of this
/// machine) is refused: no link leads out of a submission.
fn git_dirs(repo: &Path) -> Result<GitDirs, GitError> {
    let dot_git = repo.join(".git");
    if std::fs::symlink_metadata(&dot_git)?.is_dir() {
        return Ok(GitDirs {
            head: dot_git.clone(),
            common: dot_git,
        });
    }
    let text = read_small(&dot_git).unwrap_or_default();
    let first = text.lines().next().unwrap_or_default();
    let Some(named) = first.strip_prefix("gitdir:").map(str::trim) else {
        return Err(GitError::GitDir("it does not start with `gitdir:`".into()));
    };
    let shown: String = named.chars().take(200).collect();
    let gitdir = resolve(repo, named).filter(|d| d.is_dir()).ok_or_else(|| {
        GitError::GitDir(format!("the git dir it names, {shown:?}, is not there"))
    })?;
    let here = std::fs::canonicalize(repo)?;
    if let Some(common) = worktree_common(&gitdir, &here.join(".git")) {
        return Ok(GitDirs {
            head: gitdir,
            common,
        });
    }
    if submodule_of(&gitdir, &here) {
        return Ok(GitDirs {
            head: gitdir.clone(),
            common: gitdir,
        });
    }
    Err(GitError::GitDir(format!(
        "{shown:?} is not the git dir of a worktree or submodule checkout in this folder \
         (it does not name this folder back; moved since? `git worktree repair`)"
    )))
}

/// A worktree's git dir (`<common>/worktrees/<id>`) whose `gitdir` file
/// names `dot_git`: its common git dir.
fn worktree_common(gitdir: &Path, dot_git: &Path) -> Option<PathBuf> {
    let back = resolve(gitdir, read_small(&gitdir.join("gitdir"))?.lines().next()?)?;
    let common = resolve(
        gitdir,
        read_small(&gitdir.join("commondir"))?.lines().next()?,
    )?;
    let inside = gitdir.parent()? == common.join("worktrees");
    (back == dot_git && inside && common.is_dir()).then_some(common)
}

/// Whether `gitdir` is a submodule's, its `core.worktree` naming `here`.
fn submodule_of(gitdir: &Path, here: &Path) -> bool {
    let Some(config) = read_small(&gitdir.join("config")) else {
        return false;
    };
    let mut core = false;
    config.lines().map(str::trim).any(|line| {
        if line.starts_with('[') {
            core = line
                .trim_matches(['[', ']'])
                .trim()
                .eq_ignore_ascii_case("core");
            return false;
        }
        let Some((key, value)) = line.split_once('=') else {
            return false;
        };
        core && key.trim().eq_ignore_ascii_case("worktree")
            && resolve(gitdir, value.trim().trim_matches('"')).as_deref() == Some(here)
    })
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

/// Copies the student's objects (not `objects/info`: alternates would read
/// elsewhere), refs, `shallow` and HEAD into `git_dir`; nothing else.
fn copy_repository(repo: &Path, git_dir: &Path, bounds: Bounds) -> Result<(), GitError> {
    let dirs = git_dirs(repo)?;
    let objects = dirs.common.join("objects");
    let mut left = bounds.bytes;
    std::fs::create_dir_all(git_dir.join("objects/info"))?;
    // Never through a link: `objects` may not lead out of the repository.
    if std::fs::symlink_metadata(&objects).is_ok_and(|m| m.is_dir()) {
        for entry in std::fs::read_dir(&objects)? {
            let entry = entry?;
            if entry.file_name() != "info" {
                let to = git_dir.join("objects").join(entry.file_name());
                copy_plain(&entry.path(), &to, &mut left, bounds)?;
            }
        }
    }
    for (from, name) in [
        (&dirs.common, "refs"),
        (&dirs.common, "packed-refs"),
        (&dirs.common, "shallow"),
        (&dirs.head, "HEAD"),
    ] {
        let from = from.join(name);
        if std::fs::symlink_metadata(&from).is_ok() {
            copy_plain(&from, &git_dir.join(name), &mut left, bounds)?;
        }
    }
    std::fs::create_dir_all(git_dir.join("refs"))?;
    // The grader's attributes, which outrank any `.gitattributes` in the
    // tree: what is written out is what was committed, byte for byte (an
    // `export-subst` file would otherwise repeat the commit's message at
    // each `$Format:%B$`, an `export-ignore` one would vanish).
    std::fs::create_dir_all(git_dir.join("info"))?;
    std::fs::write(
        git_dir.join("info/attributes"),
        "* -export-subst -export-ignore -ident -text -eol -filter -working-tree-encoding\n",
    )?;
    Ok(())
}

/// A commit of `git log --format='%H %ct %cI'`, dated by its Unix time.
fn dated(line: &str) -> Result<Commit, GitError> {
    let mut words = line.splitn(3, ' ');
    let hash = words.next().unwrap_or_default().to_owned();
    let (seconds, zoned) = (
        words.next().unwrap_or_default(),
        words.next().unwrap_or_default().trim(),
    );
    let unreadable = || GitError::Date(hash.clone(), seconds.to_owned());
    let seconds: i64 = seconds.parse().map_err(|_| unreadable())?;
    let utc = DateTime::from_timestamp(seconds, 0).ok_or_else(unreadable)?;
    let date = match DateTime::parse_from_rfc3339(zoned) {
        Ok(at) if at.timestamp() == seconds => zoned.to_owned(),
        _ => utc.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    };
    Ok(Commit {
        hash,
        seconds,
        date,
    })
}

/// The commit graded, from `git log --format='%H %ct %cI' HEAD` (HEAD
/// first): HEAD without a limit; else the newest by Unix time at or before
/// it (on a tie, the nearer HEAD). `shallow`: the commits a shallow clone
/// stops at; one past the limit may hide the commit in time.
fn choose(
    log: &str,
    limit: Option<DateTime<FixedOffset>>,
    shallow: &BTreeSet<String>,
) -> Result<Commit, GitError> {
    let lines = log.lines().filter(|line| !line.trim().is_empty());
    let Some(limit) = limit else {
        return lines.map(dated).next().unwrap_or(Err(GitError::NoCommit));
    };
    let commits = lines.map(dated).collect::<Result<Vec<_>, _>>()?;
    if commits.is_empty() {
        return Err(GitError::NoCommit);
    }
    let at_most = limit.timestamp();
    if let Some(edge) = commits
        .iter()
        .find(|c| shallow.contains(&c.hash) && c.seconds > at_most)
    {
        return Err(GitError::Shallow(edge.hash.clone(), limit.to_rfc3339()));
    }
    let mut chosen: Option<&Commit> = None;
    for commit in commits.iter().filter(|c| c.seconds <= at_most) {
        if chosen.is_none_or(|best| commit.seconds > best.seconds) {
            chosen = Some(commit);
        }
    }
    chosen
        .cloned()
        .ok_or_else(|| GitError::NoneInTime(limit.to_rfc3339()))
}

/// Refuses a commit whose tree would write out more than an archive may
/// unpack to (git's objects compress, as a zip's entries do). Returns the
/// most bytes `git archive` may then send: the tree's own, and tar's
/// headers (a pax header for a long path) and padding for each entry.
fn bounded_tree(git_dir: &Path, hash: &str, bounds: Bounds) -> Result<u64, GitError> {
    let tree = output(git_dir, &["ls-tree", "-r", "-l", "-z", hash])?;
    let mut bytes: u64 = 0;
    let mut overhead: u64 = 64 << 10;
    let mut files = 0;
    for entry in tree.split('\0').filter(|e| !e.is_empty()) {
        files += 1;
        // `<mode> <type> <object> <size>\t<path>`; a submodule's size is `-`.
        let (meta, path) = entry.split_once('\t').unwrap_or((entry, ""));
        let size = meta
            .split_whitespace()
            .nth(3)
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0);
        bytes = bytes.saturating_add(size);
        // The file's entry and its folder's, each at most three blocks
        // and its path, plus the file's last block's padding.
        overhead = overhead.saturating_add(2 * (3 * 512 + path.len() as u64) + 512);
    }
    if bytes > bounds.bytes || files > bounds.files {
        return Err(GitError::TooLarge(bounds));
    }
    Ok(bytes.saturating_add(overhead))
}

/// Copies `from` into `to` while it sends at most `most` bytes: whether it
/// sent more (then stopped there).
fn copy_at_most(from: impl Read, mut to: impl std::io::Write, most: u64) -> std::io::Result<bool> {
    let sent = std::io::copy(&mut from.take(most.saturating_add(1)), &mut to)?;
    Ok(sent > most)
}

/// Writes `hash`'s tree out into `into` (`git archive` into `tar`),
/// counting the stream: past `most` bytes both stop and it is refused.
fn write_tree(
    git_dir: &Path,
    hash: &str,
    into: &Path,
    most: u64,
    bounds: Bounds,
) -> Result<(), GitError> {
    let mut archive = git(git_dir, &["archive", "--format=tar", hash])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(GitError::Missing)?;
    let mut tar = Command::new("tar")
        .args(["-x", "--no-same-owner", "--no-same-permissions", "-C"])
        .arg(into)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(GitError::Missing)?;
    let sent = archive.stdout.take();
    let copied = match (sent, tar.stdin.take()) {
        (Some(from), Some(to)) => copy_at_most(from, to, most),
        _ => Ok(false),
    };
    // tar may stop reading at the archive's end, before git's last
    // record's padding: then what git still had to send is no one's, and
    // git's own end (a broken pipe) does not matter.
    let tar_done = matches!(&copied, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe);
    if !matches!(copied, Ok(false)) {
        let _ = archive.kill();
    }
    if matches!(copied, Ok(true)) {
        let _ = tar.kill();
    }
    let archived = archive.wait()?;
    let tarred = tar.wait_with_output()?;
    if matches!(copied, Ok(true)) {
        let _ = std::fs::remove_dir_all(into);
        return Err(GitError::TooLarge(bounds));
    }
    let streamed = tar_done || (copied.is_ok() && archived.success());
    if !streamed || !tarred.status.success() {
        let _ = std::fs::remove_dir_all(into);
        return Err(GitError::Failed(
            format!("archive {hash}"),
            String::from_utf8_lossy(&tarred.stderr).trim().to_owned(),
        ));
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
    copy_repository(repo, &git_dir, bounds)?;
    // HEAD, then every commit it reaches.
    let log = output(&git_dir, &["log", "--format=%H %ct %cI", "HEAD"])
        .map_err(|_| GitError::NoCommit)?;
    let shallow: BTreeSet<String> = std::fs::read_to_string(git_dir.join("shallow"))
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let commit = choose(&log, limit, &shallow)?;
    let most = bounded_tree(&git_dir, &commit.hash, bounds)?;
    if into.exists() {
        std::fs::remove_dir_all(into)?;
    }
    std::fs::create_dir_all(into)?;
    write_tree(&git_dir, &commit.hash, into, most, bounds)?;
    Ok(commit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// git in `dir`, reading no configuration of this machine's.
    fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = Command::new("git")
            .args(["-c", "user.name=s", "-c", "user.email=s@x"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A repository at `repo` with `files` committed at `date` (git's
    /// forms).
    fn commit(repo: &Path, files: &[(&str, &[u8])], date: &str, message: &str) {
        std::fs::create_dir_all(repo).unwrap();
        if !repo.join(".git").exists() {
            run(repo, &["init", "-q", "-b", "main"], &[]);
        }
        for (name, bytes) in files {
            std::fs::write(repo.join(name), bytes).unwrap();
        }
        run(repo, &["add", "-A"], &[]);
        let env = [("GIT_COMMITTER_DATE", date), ("GIT_AUTHOR_DATE", date)];
        // From a file: a long message passes no command line's bound.
        let file = repo.with_extension("message");
        std::fs::write(&file, message).unwrap();
        run(repo, &["commit", "-q", "-F", file.to_str().unwrap()], &env);
    }

    const BOUNDS: Bounds = Bounds {
        bytes: 1 << 20,
        files: 10,
    };

    /// A commit whose tree unpacks past an archive's bound (zeros compress
    /// to almost nothing in git's objects) is refused before it is written.
    #[test]
    fn a_tree_too_large_to_unpack_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        let zeros = std::fs::File::create(repo.join("big")).unwrap();
        zeros.set_len(BOUNDS.bytes + 1).unwrap();
        commit(&repo, &[], "@1700000000 +0000", "big");
        let into = dir.path().join("tree");
        let refused = checkout(&repo, None, &dir.path().join("scratch"), &into, BOUNDS);
        assert!(matches!(refused, Err(GitError::TooLarge(_))), "{refused:?}");
        assert!(!into.exists());
    }

    /// Commits are dated by their Unix time: a zone RFC 3339 cannot write
    /// (`+99:59`, which git takes) neither hides a commit nor its lateness;
    /// a date git cannot read at all refuses the repository.
    #[test]
    fn commits_are_chosen_by_unix_time_and_an_unreadable_date_is_refused() {
        let limit = DateTime::parse_from_rfc3339("2023-11-14T23:00:00Z").unwrap();
        let none = BTreeSet::new();
        let log = "bbb 1700000000 2023-11-19T02:12:20+99:59\naaa 1699990000 2023-11-14T19:26:40Z\n";
        let chosen = choose(log, Some(limit), &none).unwrap();
        assert_eq!(
            (chosen.hash.as_str(), chosen.seconds),
            ("bbb", 1_700_000_000)
        );
        assert_eq!(chosen.date, "2023-11-14T22:13:20Z");
        let late = DateTime::parse_from_rfc3339("2023-11-14T22:00:00Z").unwrap();
        assert_eq!(choose(log, Some(late), &none).unwrap().hash, "aaa");
        // Without a deadline HEAD, even when an older commit claims a
        // later date.
        let forged = "ccc 1600000000 2020-09-13T12:26:40Z\nbbb 1700000000 2023-11-14T22:13:20Z\n";
        assert_eq!(choose(forged, None, &none).unwrap().hash, "ccc");
        // Same second: the one nearer HEAD.
        let tie = "ddd 1600000000 2020-09-13T12:26:40Z\nccc 1600000000 2020-09-13T12:26:40Z\n";
        assert_eq!(choose(tie, Some(limit), &none).unwrap().hash, "ddd");
        for unreadable in [
            "eee  %cI\naaa 1699990000 2023-11-14T19:26:40Z\n",
            "eee 99999999999999999999 1970-01-01T00:00:00Z\n",
            "eee 999999999999999 x\n",
        ] {
            let refused = choose(unreadable, Some(limit), &none);
            assert!(
                matches!(&refused, Err(GitError::Date(hash, _)) if hash == "eee"),
                "{unreadable}: {refused:?}"
            );
        }
    }

    /// A real commit in the zone `+9959`: late by its Unix time.
    #[test]
    fn a_commit_in_a_zone_rfc3339_cannot_write_keeps_its_unix_time() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        commit(&repo, &[("a", b"a")], "@1700000000 +9959", "zone");
        let raw = run(&repo, &["cat-file", "-p", "HEAD"], &[]);
        assert!(raw.contains("1700000000 +9959"), "{raw}");
        let limit = DateTime::parse_from_rfc3339("2023-11-14T22:13:20Z").unwrap();
        let scratch = dir.path().join("scratch");
        let into = dir.path().join("tree");
        let graded = checkout(&repo, Some(limit), &scratch, &into, BOUNDS).unwrap();
        assert_eq!(graded.seconds, 1_700_000_000);
        let early = limit - chrono::Duration::seconds(1);
        let refused = checkout(&repo, Some(early), &scratch, &into, BOUNDS);
        assert!(
            matches!(refused, Err(GitError::NoneInTime(_))),
            "{refused:?}"
        );
    }

    /// A `.git` file is followed only to a git dir that names its folder
    /// back: never to another repository, a missing folder or any folder
    /// of the machine, and the working tree is never graded instead.
    #[test]
    fn a_git_file_naming_anything_but_its_own_git_dir_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other");
        commit(&other, &[("a", b"other's")], "@1700000000 +0000", "other");
        let eve = dir.path().join("eve");
        std::fs::create_dir_all(&eve).unwrap();
        std::fs::write(eve.join("a"), "eve's").unwrap();
        let absolute = format!("gitdir: {}\n", other.join(".git").display());
        for text in [
            "gitdir: ../other/.git\n",
            absolute.as_str(),
            "gitdir: /etc\n",
            "gitdir: /nowhere/at/all\n",
            "gitdir:\n",
            "ref: HEAD\n",
        ] {
            std::fs::write(eve.join(".git"), text).unwrap();
            assert!(is_repository(&eve));
            let into = dir.path().join("tree");
            let refused = checkout(&eve, None, &dir.path().join("scratch"), &into, BOUNDS);
            assert!(
                matches!(refused, Err(GitError::GitDir(_))),
                "{text}: {refused:?}"
            );
            assert!(!into.exists(), "{text}");
        }
    }

    /// A `.git/objects` that is a link (to another repository's objects)
    /// is not followed: nothing of the other repository is read.
    #[test]
    fn objects_behind_a_link_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other");
        commit(&other, &[("a", b"other's")], "@1700000000 +0000", "other");
        let eve = dir.path().join("eve");
        std::fs::create_dir_all(eve.join(".git")).unwrap();
        for name in ["HEAD", "refs"] {
            copy_plain(
                &other.join(".git").join(name),
                &eve.join(".git").join(name),
                &mut u64::MAX.clone(),
                BOUNDS,
            )
            .unwrap();
        }
        std::os::unix::fs::symlink(other.join(".git/objects"), eve.join(".git/objects")).unwrap();
        let into = dir.path().join("tree");
        let refused = checkout(&eve, None, &dir.path().join("scratch"), &into, BOUNDS);
        assert!(matches!(refused, Err(GitError::NoCommit)), "{refused:?}");
        assert!(!into.exists());
    }

    /// A shallow clone is read with its `shallow` file; when the commit it
    /// stops at is past the limit, the commit in time may be beyond it:
    /// refused, never "no commit" nor a later one.
    #[test]
    fn a_shallow_clone_cut_after_the_limit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let origin = dir.path().join("origin");
        commit(&origin, &[("a", b"on time")], "@1700000000 +0000", "1");
        commit(&origin, &[("a", b"late")], "@1700100000 +0000", "2");
        let url = format!("file://{}", origin.display());
        run(
            dir.path(),
            &["clone", "-q", "--depth", "1", &url, "clone"],
            &[],
        );
        let clone = dir.path().join("clone");
        let scratch = dir.path().join("scratch");
        let into = dir.path().join("tree");
        let after = DateTime::parse_from_rfc3339("2023-11-17T00:00:00Z").unwrap();
        let graded = checkout(&clone, Some(after), &scratch, &into, BOUNDS).unwrap();
        assert_eq!(graded.seconds, 1_700_100_000);
        assert_eq!(std::fs::read(into.join("a")).unwrap(), b"late");
        let between = DateTime::parse_from_rfc3339("2023-11-15T00:00:00Z").unwrap();
        let refused = checkout(&clone, Some(between), &scratch, &into, BOUNDS);
        assert!(matches!(refused, Err(GitError::Shallow(..))), "{refused:?}");
    }

    /// `export-subst` would write the commit's message at each
    /// `$Format:%B$` (4 MiB a time, past any bound); `export-ignore` would
    /// leave files out. Neither applies: what was committed is written.
    #[test]
    fn an_export_subst_bomb_is_written_as_committed() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let bomb = "$Format:%B$\n".repeat(64);
        let attributes = b"bomb export-subst\nkept export-ignore\n";
        let files: [(&str, &[u8]); 3] = [
            (".gitattributes", attributes),
            ("bomb", bomb.as_bytes()),
            ("kept", b"kept"),
        ];
        commit(&repo, &files, "@1700000000 +0000", &"m".repeat(1 << 20));
        let bounds = Bounds {
            bytes: 4 << 20,
            files: 10,
        };
        let into = dir.path().join("tree");
        checkout(&repo, None, &dir.path().join("scratch"), &into, bounds).unwrap();
        let mut written = 0;
        for entry in std::fs::read_dir(&into).unwrap() {
            written += entry.unwrap().metadata().unwrap().len();
        }
        assert!(written < 4096, "{written} bytes written");
        assert_eq!(std::fs::read_to_string(into.join("bomb")).unwrap(), bomb);
        assert_eq!(std::fs::read(into.join("kept")).unwrap(), b"kept");
    }

    /// What `git archive` sends is counted as it streams: past the most
    /// expected, the copy stops.
    #[test]
    fn a_stream_past_its_bound_is_stopped() {
        let mut to = Vec::new();
        assert!(copy_at_most(&[7u8; 100][..], &mut to, 10).unwrap());
        assert!(to.len() <= 11);
        let mut to = Vec::new();
        assert!(!copy_at_most(&[7u8; 10][..], &mut to, 10).unwrap());
        assert_eq!(to.len(), 10);
    }
}
