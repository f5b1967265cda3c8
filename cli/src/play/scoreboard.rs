//! The persistent scoreboard (SPEC 7, "Terminal"; the tutorial's third
//! challenge): wins, losses and draws per game, mode and player, in one JSON
//! file that `boardkit scores` prints.
//!
//! Two games may end at once, so an update takes an exclusive lock on a
//! sibling file (`<file>.lock`, never removed: removing it would let two
//! writers lock two different files), reads the board, adds its results,
//! writes a temporary file beside it and renames it over the old one. A
//! reader sees the old board or the new one, never half of one. A file that
//! cannot be read as a board is never overwritten: it is renamed aside
//! (`<file>.corrupt-<UTC time>`), reported, and a new board starts.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file format's version; a board of another version is kept aside.
pub(crate) const VERSION: u32 = 1;

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Scoreboard {
    pub version: u32,
    pub entries: Vec<Entry>,
}

/// One player's record in one game and mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Entry {
    /// The game's id: `velha`, `connect4`, `mastermind`.
    pub game: String,
    /// How it was played, such as `3x3 vs hard` or `two players`.
    pub mode: String,
    pub player: String,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// When this record last changed (UTC, RFC 3339).
    pub last_played: String,
}

/// A game's result for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Win,
    Loss,
    Draw,
}

/// One result to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    pub game: String,
    pub mode: String,
    pub player: String,
    pub outcome: Outcome,
}

/// Why the scoreboard cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ScoreboardError {
    #[error("no data folder for the scoreboard on this system: give --scoreboard PATH")]
    NoDataFolder,
    #[error("scoreboard {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("scoreboard {} is not a scoreboard ({why}); it was left as it is", path.display())]
    Unreadable { path: PathBuf, why: NotABoard },
}

/// Why a file's text is not a board of this version.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotABoard {
    #[error("not UTF-8")]
    NotUtf8,
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("version {0} where this boardkit writes {VERSION}")]
    Version(u32),
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ScoreboardError + '_ {
    move |source| ScoreboardError::Io {
        path: path.to_owned(),
        source,
    }
}

/// `boardkit/scores.json` in the platform's data folder (on Linux
/// `$XDG_DATA_HOME/boardkit`, by default `~/.local/share/boardkit`).
pub(crate) fn default_path() -> Result<PathBuf, ScoreboardError> {
    directories::ProjectDirs::from("", "", "boardkit")
        .map(|dirs| dirs.data_dir().join("scores.json"))
        .ok_or(ScoreboardError::NoDataFolder)
}

/// Where `play` and `tui` record results: the scoreboard options both take.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct ScoreboardArgs {
    /// The scoreboard file (default: boardkit/scores.json in the platform's
    /// data folder). Results are recorded on a terminal, or when this is
    /// given.
    #[arg(long, value_name = "PATH")]
    pub scoreboard: Option<PathBuf>,
    /// Record nothing on the scoreboard.
    #[arg(long, conflicts_with = "scoreboard")]
    pub no_scoreboard: bool,
}

impl ScoreboardArgs {
    /// The file to record in: the one given, else the default one when
    /// `by_default` (a person at a terminal); `None` to record nothing.
    pub(crate) fn path(&self, by_default: bool) -> Option<Result<PathBuf, ScoreboardError>> {
        if self.no_scoreboard {
            return None;
        }
        match &self.scoreboard {
            Some(path) => Some(Ok(path.clone())),
            None if by_default => Some(default_path()),
            None => None,
        }
    }
}

/// Records `records` in `path`, saying on stderr what went wrong (a board
/// set aside, a failure to write): a result not recorded never ends a game.
pub(crate) fn record_and_report(path: &Path, records: &[Record]) {
    match record(path, records) {
        Ok(recorded) => {
            if let Some(aside) = recorded.set_aside {
                eprintln!(
                    "boardkit: the scoreboard {} could not be read: it was kept as {} and a new one started",
                    path.display(),
                    aside.display()
                );
            }
        }
        Err(e) => eprintln!("boardkit: the result was not recorded: {e}"),
    }
}

/// What [`record`] did besides adding the results.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Recorded {
    /// Where an unreadable board was moved before a new one started.
    pub set_aside: Option<PathBuf>,
}

/// Why a file's text is not a board of this version.
fn parse(text: &str) -> Result<Scoreboard, NotABoard> {
    let board: Scoreboard = serde_json::from_str(text)?;
    if board.version != VERSION {
        return Err(NotABoard::Version(board.version));
    }
    Ok(board)
}

/// The board in `path`: empty when there is no file yet.
pub(crate) fn load(path: &Path) -> Result<Scoreboard, ScoreboardError> {
    match fs::read(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Scoreboard {
            version: VERSION,
            entries: Vec::new(),
        }),
        Err(e) => Err(io_error(path)(e)),
        Ok(bytes) => {
            let text = String::from_utf8(bytes).map_err(|_| ScoreboardError::Unreadable {
                path: path.to_owned(),
                why: NotABoard::NotUtf8,
            })?;
            parse(&text).map_err(|why| ScoreboardError::Unreadable {
                path: path.to_owned(),
                why,
            })
        }
    }
}

/// Adds `records` to the board in `path`, under its lock, atomically.
pub(crate) fn record(path: &Path, records: &[Record]) -> Result<Recorded, ScoreboardError> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&folder).map_err(io_error(&folder))?;
    let mut lock_path = path.as_os_str().to_owned();
    lock_path.push(".lock");
    let lock_path = PathBuf::from(lock_path);
    let lock_file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io_error(&lock_path))?;
    let mut lock = fd_lock::RwLock::new(lock_file);
    let _guard = lock.write().map_err(io_error(&lock_path))?;

    let mut recorded = Recorded::default();
    let mut board = match load(path) {
        Ok(board) => board,
        Err(ScoreboardError::Unreadable { .. }) => {
            let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.fZ");
            let mut aside = path.as_os_str().to_owned();
            aside.push(format!(".corrupt-{stamp}"));
            let aside = PathBuf::from(aside);
            fs::rename(path, &aside).map_err(io_error(path))?;
            recorded.set_aside = Some(aside);
            Scoreboard {
                version: VERSION,
                entries: Vec::new(),
            }
        }
        Err(e) => return Err(e),
    };
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    for r in records {
        let entry = match board
            .entries
            .iter_mut()
            .position(|e| e.game == r.game && e.mode == r.mode && e.player == r.player)
        {
            Some(i) => &mut board.entries[i],
            None => {
                board.entries.push(Entry {
                    game: r.game.clone(),
                    mode: r.mode.clone(),
                    player: r.player.clone(),
                    wins: 0,
                    losses: 0,
                    draws: 0,
                    last_played: String::new(),
                });
                board.entries.last_mut().expect("just pushed")
            }
        };
        match r.outcome {
            Outcome::Win => entry.wins += 1,
            Outcome::Loss => entry.losses += 1,
            Outcome::Draw => entry.draws += 1,
        }
        entry.last_played.clone_from(&now);
    }
    let mut text = serde_json::to_string_pretty(&board).expect("a board serialises");
    text.push('\n');
    let mut temporary = tempfile::NamedTempFile::new_in(&folder).map_err(io_error(&folder))?;
    temporary
        .write_all(text.as_bytes())
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(io_error(temporary.path()))?;
    temporary
        .persist(path)
        .map_err(|e| io_error(path)(e.error))?;
    Ok(recorded)
}

/// The board as a table, one line per entry, most games first.
pub(crate) fn table(board: &Scoreboard) -> String {
    let mut entries: Vec<&Entry> = board.entries.iter().collect();
    entries.sort_by(|a, b| {
        (&a.game, &a.mode)
            .cmp(&(&b.game, &b.mode))
            .then((b.wins + b.losses + b.draws).cmp(&(a.wins + a.losses + a.draws)))
            .then(a.player.cmp(&b.player))
    });
    let header = [
        "game",
        "mode",
        "player",
        "games",
        "wins",
        "losses",
        "draws",
        "last played",
    ];
    let rows: Vec<[String; 8]> = entries
        .iter()
        .map(|e| {
            [
                e.game.clone(),
                e.mode.clone(),
                e.player.clone(),
                (e.wins + e.losses + e.draws).to_string(),
                e.wins.to_string(),
                e.losses.to_string(),
                e.draws.to_string(),
                e.last_played
                    .replace('T', " ")
                    .trim_end_matches('Z')
                    .to_owned(),
            ]
        })
        .collect();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..8).map(width).collect();
    let line = |cells: &[String]| {
        let mut out = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let pad = widths[i] - cell.chars().count();
            // Text left, numbers right.
            if (3..7).contains(&i) {
                out.push_str(&" ".repeat(pad));
                out.push_str(cell);
            } else {
                out.push_str(cell);
                if i + 1 < cells.len() {
                    out.push_str(&" ".repeat(pad));
                }
            }
            if i + 1 < cells.len() {
                out.push_str("  ");
            }
        }
        out.push('\n');
        out
    };
    let mut out = line(&header.map(String::from));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(player: &str) -> Record {
        Record {
            game: "velha".into(),
            mode: "3x3 vs hard".into(),
            player: player.into(),
            outcome: Outcome::Win,
        }
    }

    #[test]
    fn results_add_up_and_print_as_a_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/scores.json");
        record(&path, &[win("ana")]).unwrap();
        record(
            &path,
            &[Record {
                outcome: Outcome::Draw,
                ..win("ana")
            }],
        )
        .unwrap();
        record(&path, &[win("bia")]).unwrap();
        let board = load(&path).unwrap();
        assert_eq!(board.entries.len(), 2);
        let ana = &board.entries[0];
        assert_eq!((ana.wins, ana.losses, ana.draws), (1, 0, 1));
        let text = table(&board);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("game   mode         player  games  wins"));
        assert!(lines[1].starts_with("velha  3x3 vs hard  ana         2     1"));
    }

    #[test]
    fn concurrent_writers_all_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scores.json");
        std::thread::scope(|scope| {
            for t in 0..8 {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..10 {
                        record(path, &[win(&format!("p{}", t % 3))]).unwrap();
                    }
                });
            }
        });
        let board = load(&path).unwrap();
        assert_eq!(board.entries.iter().map(|e| e.wins).sum::<u64>(), 80);
        assert_eq!(board.entries.len(), 3);
    }

    /// What `record` must do with whatever bytes the file holds: add to a
    /// board it can read; otherwise keep the bytes aside, untouched, and
    /// start a new board.
    fn check_kept_or_added(bytes: &[u8]) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scores.json");
        fs::write(&path, bytes).unwrap();
        let before = load(&path);
        let recorded = record(&path, &[win("ana")]).unwrap();
        let after = load(&path).unwrap();
        match before {
            Ok(board) => {
                assert_eq!(recorded.set_aside, None);
                let wins = |b: &Scoreboard| b.entries.iter().map(|e| e.wins).sum::<u64>();
                assert_eq!(wins(&after), wins(&board) + 1);
            }
            Err(ScoreboardError::Unreadable { .. }) => {
                let aside = recorded.set_aside.expect("set aside");
                assert_eq!(fs::read(&aside).unwrap(), bytes);
                assert_eq!(after.entries.len(), 1);
                assert_eq!(after.entries[0].wins, 1);
                // `scores` reports such a file and leaves it as it is.
                fs::write(&path, bytes).unwrap();
                assert!(matches!(
                    load(&path),
                    Err(ScoreboardError::Unreadable { .. })
                ));
                assert_eq!(fs::read(&path).unwrap(), bytes);
            }
            Err(e) => panic!("{e}"),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, failure_persistence: None, ..Default::default() })]
        #[test]
        fn a_truncated_board_is_kept_aside(cut in 0usize..400) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("scores.json");
            record(&path, &[win("ana"), win("bia")]).unwrap();
            let full = fs::read(&path).unwrap();
            check_kept_or_added(&full[..cut.min(full.len())]);
        }

        #[test]
        fn a_file_of_garbage_is_kept_aside(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            check_kept_or_added(&bytes);
        }
    }

    #[test]
    fn another_version_is_kept_aside() {
        check_kept_or_added(br#"{"version": 2, "entries": []}"#);
        check_kept_or_added(br#"{"version": 1, "entries": [], "extra": 1}"#);
        check_kept_or_added(b"");
    }
}
