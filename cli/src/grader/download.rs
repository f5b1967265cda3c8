//! An LMS's download of a whole assignment (`--from moodle ARCHIVE`,
//! `--from canvas ARCHIVE`), taken as it comes: unpacked with the same care
//! as any archive, then one submission per student, named through the
//! roster. A student the roster does not name is graded under the
//! archive's name and listed, never dropped.
//!
//! The names each LMS gives (no LMS is reached from here):
//!
//! - Moodle's "Download all submissions": `<Full name>_<participant
//!   id>_assignsubmission_file_<file>` at the top of the archive, or with
//!   "Download submissions in folders" a folder `<Full name>_<participant
//!   id>_assignsubmission_file` holding the files. Moodle's assign module
//!   writes them so; the offline graders that read them split the name on
//!   `_` into the name, the participant id, `assignsubmission`, `file` and
//!   the file's own name (gondree/canvas-offline-grading,
//!   `moodle_submissions.py`). The participant id is not the roster's "ID
//!   number": it maps through the roster's optional `participant` column,
//!   else by full name (`name`).
//! - Canvas's "Download Submissions": `<lastnamefirstname>[_late]_<user
//!   id>_<submission id>_<file>`, flat (`smithbob_340934_208490284_BobsWork.zip`
//!   in mikewesthad/canvas-unzipper's README). The user id maps through the
//!   roster's `participant` column, else its `id` (Canvas's user ID).
//!
//! Neither archive's names record when a file was handed in, and neither
//! LMS documents its entries' times as submission times: none is read.
//! Canvas's `_late` mark is said on the terminal; a deadline applies to
//! repositories (`--deadline`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::lms::Student;

/// The LMS a download comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Lms {
    Moodle,
    Canvas,
}

/// Why a download cannot be taken.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DownloadError {
    #[error("{0}: {1}")]
    Archive(PathBuf, super::submission::SubmissionError),
    #[error("cannot write {0}: {1}")]
    Write(PathBuf, std::io::Error),
    #[error("{0} holds no submission named as {1:?} names them")]
    Empty(PathBuf, Lms),
}

/// A download, unpacked: one submission path per student, and the names
/// the roster did not map (graded under the archive's name).
#[derive(Debug)]
pub(crate) struct Unpacked {
    pub submissions: Vec<PathBuf>,
    pub unmapped: Vec<String>,
}

/// One student's part of a download, as its names say.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Owner {
    /// Moodle's full name, Canvas's `lastnamefirstname`.
    name: String,
    /// Moodle's participant id, Canvas's user id.
    id: String,
    late: bool,
}

/// Who an entry at the top of a download belongs to, and the file's own
/// name after the LMS's prefix (empty for a Moodle folder).
fn owner(lms: Lms, entry: &str) -> Option<(Owner, String)> {
    match lms {
        Lms::Moodle => {
            let at = entry.find("_assignsubmission_")?;
            let (head, tail) = (&entry[..at], &entry[at + "_assignsubmission_".len()..]);
            let (name, id) = head.rsplit_once('_')?;
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // `file_<name>`, `onlinetext_...`, or the folder's `file`.
            let file = tail.split_once('_').map_or("", |(_, f)| f);
            Some((
                Owner {
                    name: name.to_owned(),
                    id: id.to_owned(),
                    late: false,
                },
                file.to_owned(),
            ))
        }
        Lms::Canvas => {
            let mut parts = entry.splitn(2, '_');
            let name = parts.next()?;
            let mut rest = parts.next()?;
            let late = rest.to_ascii_lowercase().starts_with("late_");
            if late {
                rest = &rest[5..];
            }
            let mut fields = rest.splitn(3, '_');
            let (id, submission, file) = (fields.next()?, fields.next()?, fields.next()?);
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if !digits(id) || !digits(submission) {
                return None;
            }
            Some((
                Owner {
                    name: name.to_owned(),
                    id: id.to_owned(),
                    late,
                },
                file.to_owned(),
            ))
        }
    }
}

/// The roster's name for `owner`: through `participant`, else (Moodle) the
/// full name or (Canvas) the user id.
fn mapped<'r>(lms: Lms, owner: &Owner, roster: &'r [Student]) -> Option<&'r Student> {
    let by_participant = roster
        .iter()
        .find(|s| s.participant.as_deref() == Some(owner.id.as_str()));
    by_participant.or_else(|| match lms {
        Lms::Moodle => roster.iter().find(|s| {
            s.name
                .as_deref()
                .is_some_and(|n| n.trim().to_lowercase() == owner.name.trim().to_lowercase())
        }),
        Lms::Canvas => roster.iter().find(|s| s.id == owner.id),
    })
}

/// Unpacks `archive` into `into`, one folder per student.
pub(crate) fn unpack(
    lms: Lms,
    archive: &Path,
    roster: &[Student],
    into: &Path,
) -> Result<Unpacked, DownloadError> {
    let raw = into.join("download");
    let write = |path: &Path| {
        let path = path.to_owned();
        move |e| DownloadError::Write(path, e)
    };
    if into.exists() {
        std::fs::remove_dir_all(into).map_err(write(into))?;
    }
    std::fs::create_dir_all(&raw).map_err(write(&raw))?;
    super::submission::unzip_class(archive, &raw)
        .map_err(|e| DownloadError::Archive(archive.to_owned(), e))?;
    // Each student's files: (path in the download, the file's own name).
    let mut students: BTreeMap<String, (Owner, Vec<(PathBuf, String)>)> = BTreeMap::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&raw)
        .map_err(write(&raw))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let entry = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some((who, file)) = owner(lms, &entry) else {
            eprintln!("boardkit: {entry}: not named as {lms:?} names a submission; left out");
            continue;
        };
        let key = format!("{}_{}", who.name, who.id);
        let slot = students
            .entry(key)
            .or_insert_with(|| (who.clone(), Vec::new()));
        if path.is_dir() {
            for inside in std::fs::read_dir(&path).map_err(write(&path))?.flatten() {
                let name = inside.file_name().to_string_lossy().into_owned();
                slot.1.push((inside.path(), name));
            }
        } else {
            slot.1.push((path, file));
        }
    }
    if students.is_empty() {
        return Err(DownloadError::Empty(archive.to_owned(), lms));
    }
    let mut unpacked = Unpacked {
        submissions: Vec::new(),
        unmapped: Vec::new(),
    };
    for (key, (who, files)) in students {
        let name = match mapped(lms, &who, roster) {
            Some(student) => student.submission.clone(),
            None => {
                let graded_as = super::submission::safe_name(&key);
                unpacked.unmapped.push(format!(
                    "{} (id {}): not in the roster; graded as {graded_as}",
                    who.name, who.id
                ));
                graded_as
            }
        };
        if who.late {
            eprintln!("boardkit: {name}: Canvas marks this submission late");
        }
        let name = super::submission::safe_name(&name);
        // One archive handed in: graded as an archive (unpacked with care).
        if let [(path, file)] = files.as_slice() {
            if file.to_ascii_lowercase().ends_with(".zip") {
                let target = into.join(format!("{name}.zip"));
                std::fs::rename(path, &target).map_err(write(&target))?;
                unpacked.submissions.push(target);
                continue;
            }
        }
        let folder = into.join(&name);
        std::fs::create_dir_all(&folder).map_err(write(&folder))?;
        for (path, file) in files {
            let target = folder.join(super::submission::safe_name(&file));
            std::fs::rename(&path, &target).map_err(write(&target))?;
        }
        unpacked.submissions.push(folder);
    }
    let _ = std::fs::remove_dir_all(&raw);
    Ok(unpacked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lms_names_its_students_as_documented() {
        let (who, file) = owner(
            Lms::Moodle,
            "Ana Souza_4112_assignsubmission_file_funcoes.py",
        )
        .unwrap();
        assert_eq!(
            (who.name.as_str(), who.id.as_str(), file.as_str()),
            ("Ana Souza", "4112", "funcoes.py")
        );
        let (who, file) = owner(Lms::Moodle, "Ana Souza_4112_assignsubmission_file").unwrap();
        assert_eq!((who.id.as_str(), file.as_str()), ("4112", ""));
        let (who, file) = owner(Lms::Canvas, "souzaana_late_340934_208490284_funcoes.py").unwrap();
        assert_eq!(
            (who.name.as_str(), who.id.as_str(), file.as_str(), who.late),
            ("souzaana", "340934", "funcoes.py", true)
        );
        let (who, file) = owner(Lms::Canvas, "smithbob_340934_208490284_Bobs_Work.zip").unwrap();
        assert_eq!(
            (who.id.as_str(), file.as_str(), who.late),
            ("340934", "Bobs_Work.zip", false)
        );
        assert!(owner(Lms::Canvas, "notes.txt").is_none());
        assert!(owner(Lms::Moodle, "readme.txt").is_none());
    }
}
