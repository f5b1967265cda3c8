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
//!   Canvas renames a file handed in again when the student's files hold
//!   one of that name: `programa-1.py`, `-2`, ... (before the last dot, or
//!   in recent Canvas the first: instructure/canvas-lms issues 606, 2310).
//!
//! A roster student is matched at most once and never by a guess (see
//! [`assign`]): homonyms are graded apart, each under the archive's name.
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

/// A student's files: (path in the download, the file's own name).
type Files = Vec<(PathBuf, String)>;

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

/// A name compared as people write it: case, spacing, Unicode's two
/// forms of an accented letter (macOS's decomposed, the others' composed)
/// and apostrophes (Moodle's download drops them: `Maria DÁvila` is the
/// roster's `Maria D'Ávila`) aside.
fn same_name(a: &str, b: &str) -> bool {
    let words = |s: &str| {
        unicode_normalization::UnicodeNormalization::nfc(s)
            .filter(|c| !matches!(c, '\'' | '\u{2019}'))
            .collect::<String>()
            .split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    words(a) == words(b)
}

/// Each owner's roster student, or why it has none. A roster student is
/// matched at most once, and never by a guess: through `participant`
/// (one row giving that id), else (Moodle) by full name only when one entry
/// of the download and one roster row bear it and that row gives no
/// participant id, or (Canvas) by the user id in `id` when that row's
/// participant id is none or no entry's of the download (another LMS's).
fn assign<'r>(
    lms: Lms,
    owners: &[&Owner],
    roster: &'r [Student],
) -> Vec<Result<&'r Student, String>> {
    let mut chosen: Vec<Result<&Student, String>> = owners
        .iter()
        .map(|owner| match_one(lms, owner, owners, roster))
        .collect();
    // Two entries on one roster student: neither is that student's.
    for i in 0..chosen.len() {
        let Ok(student) = chosen[i] else { continue };
        let sharing: Vec<usize> = (0..chosen.len())
            .filter(|&j| matches!(chosen[j], Ok(s) if std::ptr::eq(s, student)))
            .collect();
        if sharing.len() > 1 {
            let ids: Vec<String> = sharing
                .iter()
                .map(|&j| format!("{} (id {})", owners[j].name, owners[j].id))
                .collect();
            for j in sharing {
                chosen[j] = Err(format!(
                    "{} all map to the roster's {:?}: none is taken as that student",
                    ids.join(" and "),
                    student.submission
                ));
            }
        }
    }
    chosen
}

/// One owner's roster student by the rules of [`assign`], or why not.
fn match_one<'r>(
    lms: Lms,
    owner: &Owner,
    owners: &[&Owner],
    roster: &'r [Student],
) -> Result<&'r Student, String> {
    fn given(s: &Student) -> Option<&str> {
        s.participant.as_deref().filter(|p| !p.is_empty())
    }
    // One number on entries of two names: neither is taken for the other.
    let bearers = owners.iter().filter(|o| o.id == owner.id).count();
    if bearers > 1 {
        return Err(format!(
            "{bearers} entries of the download, of other names, bear the id {}",
            owner.id
        ));
    }
    let by_participant: Vec<&Student> = roster
        .iter()
        .filter(|s| given(s) == Some(owner.id.as_str()))
        .collect();
    match by_participant.as_slice() {
        // One roster for both LMSs: a Canvas user id that is one row's
        // participant id (Moodle's) and another row's `id` names neither.
        [one] if lms == Lms::Canvas => {
            return match roster
                .iter()
                .find(|s| s.id == owner.id && !std::ptr::eq(*s, *one))
            {
                Some(other) => Err(format!(
                    "{} is the roster's participant id of {:?} and the id of {:?}: one roster for both LMSs must not give one number to two students",
                    owner.id, one.submission, other.submission
                )),
                // canvas.csv gives Canvas the row's `id` as the student's
                // user id: another number would grade another student.
                None if one.id != owner.id => Err(format!(
                    "the roster's {:?} has this download's user id {} as its participant id, but {} as its id, which canvas.csv gives Canvas: give Canvas's user id as `id`",
                    one.submission, owner.id, one.id
                )),
                None => agreeing(owner, one),
            };
        }
        [one] => return agreeing(owner, one),
        [_, ..] => {
            return Err(format!(
                "the roster gives participant id {} to {} students",
                owner.id,
                by_participant.len()
            ));
        }
        [] => {}
    }
    let (rows, by): (Vec<&Student>, &str) = match lms {
        Lms::Moodle => (
            roster
                .iter()
                .filter(|s| s.name.as_deref().is_some_and(|n| same_name(n, &owner.name)))
                .collect(),
            "name",
        ),
        Lms::Canvas => (roster.iter().filter(|s| s.id == owner.id).collect(), "id"),
    };
    let bears = |id: Option<&str>| owners.iter().any(|o| Some(o.id.as_str()) == id);
    let namesakes = owners
        .iter()
        .filter(|o| same_name(&o.name, &owner.name))
        .count();
    match rows.as_slice() {
        [] => Err("not in the roster".to_owned()),
        [_, _, ..] => Err(format!(
            "{} roster rows share its {by}: give each a participant id",
            rows.len()
        )),
        // A Canvas row's participant id that no entry of this download
        // bears is another LMS's number (one roster serves both): its
        // exact user id in `id` is the student.
        [row] if given(row).is_some() && (lms == Lms::Moodle || bears(given(row))) => Err(format!(
            "the roster's {:?} shares its {by} but has participant id {}",
            row.submission,
            given(row).unwrap_or_default()
        )),
        [_] if lms == Lms::Moodle && namesakes > 1 => Err(format!(
            "{namesakes} entries of the download are named {:?}: the roster's participant ids tell them apart",
            owner.name
        )),
        [row] => agreeing(owner, row),
    }
}

/// `row`, unless its name contradicts the download's: a participant
/// column shifted by one row would otherwise grade each student's
/// neighbour, silently. Names agree when they hold the same letters
/// (Moodle's `First Last` or Canvas's `lastfirst` against the roster's
/// own order, accents and apostrophes aside); a row without a name
/// contradicts nothing.
fn agreeing<'r>(owner: &Owner, row: &'r Student) -> Result<&'r Student, String> {
    // Moodle's blind marking names every entry `Participant`.
    if owner.name.eq_ignore_ascii_case("participant") {
        return Ok(row);
    }
    match row.name.as_deref().filter(|n| !n.trim().is_empty()) {
        Some(name) if !same_letters(&owner.name, name) => Err(format!(
            "the roster's {:?} has its id {} but is named {name:?}: is the id or participant column shifted?",
            row.submission, owner.id
        )),
        _ => Ok(row),
    }
}

/// Whether the download's `download` name and the roster's `roster` name
/// hold the same letters, in any order: Canvas drops what is not an ASCII
/// letter or digit (`joaogoncalves` or `joogonalves` for `João
/// Gonçalves`), Moodle keeps the name but for its apostrophes.
fn same_letters(download: &str, roster: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let sorted = |s: String| {
        let mut letters: Vec<char> = s
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        letters.sort_unstable();
        letters
    };
    let plain = |s: &str| {
        s.nfd()
            .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
            .collect::<String>()
    };
    let ascii = |s: &str| s.chars().filter(char::is_ascii).collect::<String>();
    let theirs = sorted(plain(download));
    theirs == sorted(plain(roster)) || theirs == sorted(ascii(roster))
}

/// The file a download's `file` stands for: Canvas renames a file handed
/// in again `name-1.ext` (`-2`, ...: before the last dot, or the first in
/// names of several), Moodle's file picker `name (1).ext`, so a name the
/// exercise expects comes back with the numbers the LMS gave it (none for
/// the name itself; `-1-1` for a `programa-1.py` handed in again). None
/// when `file` is no expected name, numbered or not.
fn expected_name<'e>(lms: Lms, file: &str, expected: &'e [String]) -> Option<(&'e str, Vec<u32>)> {
    for name in expected {
        if file == name {
            return Some((name, Vec::new()));
        }
        let cuts = name
            .char_indices()
            .filter(|&(_, c)| c == '.')
            .map(|(i, _)| i)
            .chain([name.len()]);
        for cut in cuts {
            let (stem, ext) = name.split_at(cut);
            let rest = file
                .strip_prefix(stem)
                .and_then(|rest| rest.strip_suffix(ext));
            let number = match lms {
                Lms::Canvas => rest.and_then(|rest| rest.strip_prefix('-')),
                Lms::Moodle => rest
                    .and_then(|rest| rest.strip_prefix(" ("))
                    .and_then(|rest| rest.strip_suffix(')')),
            };
            let numbers: Option<Vec<u32>> = number.and_then(|n| {
                n.split('-')
                    .map(|part| {
                        let digits = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
                        digits.then(|| part.parse().ok()).flatten()
                    })
                    .collect()
            });
            if let Some(numbers) = numbers {
                return Some((name.as_str(), numbers));
            }
        }
    }
    None
}

/// A student's files under the names the exercise expects: each
/// resubmitted `programa-1.py` (Canvas) or `programa (1).py` (Moodle)
/// taken as `programa.py`, the newest (highest number) when several
/// versions came; every renaming and every version left out is returned
/// to be said.
fn resubmissions(
    lms: Lms,
    files: Vec<(PathBuf, String)>,
    expected: &[String],
) -> (Vec<(PathBuf, String)>, Vec<String>) {
    let mut kept: Vec<(PathBuf, String)> = Vec::new();
    // Each expected name's files: Canvas's numbers, path, file name.
    type Versions = Vec<(Vec<u32>, PathBuf, String)>;
    let mut versions: BTreeMap<&str, Versions> = BTreeMap::new();
    for (path, file) in files {
        match expected_name(lms, &file, expected) {
            Some((name, n)) => versions.entry(name).or_default().push((n, path, file)),
            None => kept.push((path, file)),
        }
    }
    let mut said = Vec::new();
    // With no file the run expects (crates, `--program`), a numbered name
    // cannot be mapped back: said, not guessed.
    if expected.is_empty() && lms == Lms::Canvas {
        for (_, file) in &kept {
            let stem = file.split('.').next().unwrap_or_default();
            let numbered = stem
                .rsplit_once('-')
                .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if numbered {
                said.push(format!(
                    "{file} kept under that name: Canvas numbers a file handed in again so, \
                     and this run expects no file by name to map it back to"
                ));
            }
        }
    }
    for (name, mut all) in versions {
        all.sort_by(|a, b| a.0.cmp(&b.0));
        let Some((n, path, file)) = all.pop() else {
            continue;
        };
        if !all.is_empty() {
            let older: Vec<&str> = all.iter().map(|(_, _, f)| f.as_str()).collect();
            said.push(format!(
                "{file} taken as {name}, {lms:?}'s latest version; left out: {}",
                older.join(", ")
            ));
        } else if !n.is_empty() {
            said.push(format!(
                "{file} taken as {name} ({lms:?}'s name for a file handed in again)"
            ));
        }
        kept.push((path, name.to_owned()));
    }
    // A single archive handed in holds the files: it is graded unpacked.
    let archive = matches!(kept.as_slice(), [(_, file)] if file.to_lowercase().ends_with(".zip"));
    if !archive {
        said.extend(missing(&kept, expected));
    }
    (kept, said)
}

/// Each expected file a student did not hand in, said with the files that
/// look like it but are no name Canvas gives (`programa-final.py`): taken
/// under their own names, never guessed to be it.
fn missing(kept: &[(PathBuf, String)], expected: &[String]) -> Vec<String> {
    let mut said = Vec::new();
    for name in expected {
        if kept.iter().any(|(_, file)| file == name) {
            continue;
        }
        let stem = name.split('.').next().unwrap_or(name);
        let alike: Vec<&str> = kept
            .iter()
            .map(|(_, file)| file.as_str())
            .filter(|file| file.starts_with(stem))
            .collect();
        if alike.is_empty() {
            said.push(format!("no {name} handed in"));
        } else {
            said.push(format!(
                "no {name} handed in; {} kept under its own name: not a name Canvas gives \
                 a file handed in again, so not taken as {name}",
                alike.join(", ")
            ));
        }
    }
    said
}

/// Unpacks `archive` into `into`, one folder per student; `expected`, the
/// files the exercise declares as the student's (Canvas's renamed
/// resubmissions are mapped back to them).
pub(crate) fn unpack(
    lms: Lms,
    archive: &Path,
    roster: &[Student],
    into: &Path,
    expected: &[String],
) -> Result<Unpacked, DownloadError> {
    let raw = into.join("download");
    if into.exists() {
        std::fs::remove_dir_all(into).map_err(write(into))?;
    }
    std::fs::create_dir_all(&raw).map_err(write(&raw))?;
    super::submission::unzip_class(archive, &raw)
        .map_err(|e| DownloadError::Archive(archive.to_owned(), e))?;
    let students = by_student(lms, &raw)?;
    if students.is_empty() {
        return Err(DownloadError::Empty(archive.to_owned(), lms));
    }
    let owners: Vec<&Owner> = students.values().map(|(who, _)| who).collect();
    let names = graded_names(lms, &owners, roster);
    say_unchecked(&names, roster);
    let mut unpacked = Unpacked {
        submissions: Vec::new(),
        unmapped: Vec::new(),
    };
    for ((who, files), (name, why)) in students.into_values().zip(names) {
        if let Some(why) = why {
            unpacked.unmapped.push(format!(
                "{} (id {}): {why}; graded as {name}",
                who.name, who.id
            ));
        }
        if who.late {
            eprintln!("boardkit: {name}: Canvas marks this submission late");
        }
        let (files, said) = resubmissions(lms, files, expected);
        for line in said {
            eprintln!("boardkit: {name}: {line}");
        }
        unpacked.submissions.push(place(&name, files, into)?);
    }
    let _ = std::fs::remove_dir_all(&raw);
    Ok(unpacked)
}

/// Warns of the students mapped by a number alone: a roster row with no
/// `name` has nothing to tell a shifted id or participant column by.
fn say_unchecked(names: &[(String, Option<String>)], roster: &[Student]) {
    let unchecked: Vec<&str> = names
        .iter()
        .filter(|(_, why)| why.is_none())
        .filter_map(|(name, _)| {
            roster
                .iter()
                .find(|s| super::submission::safe_name(&s.submission) == *name)
        })
        .filter(|s| s.name.is_none())
        .map(|s| s.submission.as_str())
        .collect();
    if !unchecked.is_empty() {
        eprintln!(
            "boardkit: warning: {} mapped by number alone, the roster giving no name to check them against (a shifted column would go unseen): {}; add a `name` column",
            unchecked.len(),
            unchecked.join(", ")
        );
    }
}

/// The error of writing `path`.
fn write(path: &Path) -> impl FnOnce(std::io::Error) -> DownloadError + use<> {
    let path = path.to_owned();
    move |e| DownloadError::Write(path, e)
}

/// Each student's files in the unpacked download `raw`, by the LMS's
/// names: (path in the download, the file's own name).
fn by_student(lms: Lms, raw: &Path) -> Result<BTreeMap<String, (Owner, Files)>, DownloadError> {
    let mut students: BTreeMap<String, (Owner, Files)> = BTreeMap::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(raw)
        .map_err(write(raw))?
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
    Ok(students)
}

/// Each owner's submission name, and why it is not a roster student's: a
/// roster student's name, else the archive's (`Ana_Souza_4119`), never
/// a roster name nor one already given (then numbered, said).
fn graded_names(lms: Lms, owners: &[&Owner], roster: &[Student]) -> Vec<(String, Option<String>)> {
    let chosen = assign(lms, owners, roster);
    // Every roster name: an LMS file gives a roster name its student's row.
    let mut taken: std::collections::BTreeSet<String> = roster
        .iter()
        .map(|s| super::submission::safe_name(&s.submission))
        .collect();
    owners
        .iter()
        .zip(chosen)
        .map(|(who, chosen)| match chosen {
            Ok(student) => (super::submission::safe_name(&student.submission), None),
            Err(why) => {
                let wanted = super::submission::safe_name(&format!("{}_{}", who.name, who.id));
                let name = (1..)
                    .map(|k| match k {
                        1 => wanted.clone(),
                        k => format!("{wanted}-{k}"),
                    })
                    .find(|n| !taken.contains(n))
                    .unwrap_or_default();
                taken.insert(name.clone());
                (name, Some(why))
            }
        })
        .collect()
}

/// One student's files moved into `into` as submission `name`: a single
/// archive handed in as `<name>.zip` (graded as an archive, unpacked with
/// care), else a folder.
fn place(name: &str, files: Vec<(PathBuf, String)>, into: &Path) -> Result<PathBuf, DownloadError> {
    if let [(path, file)] = files.as_slice() {
        if file.to_ascii_lowercase().ends_with(".zip") {
            let target = into.join(format!("{name}.zip"));
            std::fs::rename(path, &target).map_err(write(&target))?;
            return Ok(target);
        }
    }
    let folder = into.join(name);
    std::fs::create_dir_all(&folder).map_err(write(&folder))?;
    for (path, file) in files {
        let target = folder.join(super::submission::safe_name(&file));
        std::fs::rename(&path, &target).map_err(write(&target))?;
    }
    Ok(folder)
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

    fn student(submission: &str, id: &str, name: &str, participant: &str) -> Student {
        Student {
            submission: submission.into(),
            id: id.into(),
            login: submission.into(),
            name: Some(name.into()),
            participant: Some(participant.into()).filter(|p: &String| !p.is_empty()),
        }
    }

    fn moodle(name: &str, id: &str) -> Owner {
        Owner {
            name: name.into(),
            id: id.into(),
            late: false,
        }
    }

    /// The submission each owner is graded as (`?name` when unmapped).
    fn graded(lms: Lms, owners: &[Owner], roster: &[Student]) -> Vec<String> {
        let owners: Vec<&Owner> = owners.iter().collect();
        graded_names(lms, &owners, roster)
            .into_iter()
            .map(|(name, why)| match why {
                Some(_) => format!("?{name}"),
                None => name,
            })
            .collect()
    }

    #[test]
    fn a_name_decomposed_by_macos_is_the_rosters_composed_one() {
        assert!(same_name("Lu\u{301}cia  Sa\u{301}", "lúcia sá"));
        assert!(!same_name("Lúcia", "Lucia"));
        assert!(same_name("Maria DÁvila", "Maria D'Ávila"));
        assert!(same_name("Maria D\u{2019}Ávila", "maria dávila"));
    }

    #[test]
    fn homonyms_are_never_merged_into_one_roster_student() {
        let anas = [moodle("Ana Souza", "4112"), moodle("Ana  souza", "4119")];
        // The roster's Ana has her participant id: the other is not her.
        let roster = [student("ana", "S1", "Ana Souza", "4112")];
        assert_eq!(
            graded(Lms::Moodle, &anas, &roster),
            ["ana", "?Ana__souza_4119"]
        );
        // Without it, a name two entries bear tells neither apart.
        let roster = [student("ana", "S1", "Ana Souza", "")];
        assert_eq!(
            graded(Lms::Moodle, &anas, &roster),
            ["?Ana_Souza_4112", "?Ana__souza_4119"]
        );
        // One entry of that name, one row: the name is enough.
        assert_eq!(graded(Lms::Moodle, &anas[..1], &roster), ["ana"]);
        // Two rows of that name: neither.
        let twins = [
            student("ana", "S1", "Ana Souza", ""),
            student("ana2", "S9", "Ana Souza", ""),
        ];
        assert_eq!(graded(Lms::Moodle, &anas[..1], &twins), ["?Ana_Souza_4112"]);
        // A row whose participant id is another's is not matched by name.
        let other = [student("ana", "S1", "Ana Souza", "4000")];
        assert_eq!(graded(Lms::Moodle, &anas[..1], &other), ["?Ana_Souza_4112"]);
        // Canvas: two entries on one user id are both graded apart.
        let canvas = [moodle("souzaana", "77"), moodle("souzaanamaria", "77")];
        let roster = [student("ana", "77", "Ana Souza", "")];
        assert_eq!(
            graded(Lms::Canvas, &canvas, &roster),
            ["?souzaana_77", "?souzaanamaria_77"]
        );
        // One roster for both LMSs: Moodle's participant ids, Canvas's
        // user ids in `id`. A participant id no entry bears is Moodle's.
        let shared = [
            student("ana", "340934", "Ana Souza", "4112"),
            student("bia", "340935", "Bia Lima", "4113"),
        ];
        let canvas = [moodle("limabia", "340935"), moodle("souzaana", "340934")];
        assert_eq!(graded(Lms::Canvas, &canvas, &shared), ["bia", "ana"]);
        // A participant id an entry bears, on a row of another `id`:
        // canvas.csv would give Canvas that other number. Neither maps.
        let canvas = [moodle("limabia", "340935"), moodle("souzaana", "4112")];
        assert_eq!(
            graded(Lms::Canvas, &canvas, &shared),
            ["bia", "?souzaana_4112"]
        );
        let canvas = [moodle("souzaana", "340934"), moodle("souzaana", "4112")];
        assert_eq!(
            graded(Lms::Canvas, &canvas, &shared),
            ["?souzaana_340934", "?souzaana_4112"]
        );
        // Moodle's blind marking: every entry is `Participant`.
        let blind = [moodle("Participant", "4112")];
        assert_eq!(graded(Lms::Moodle, &blind, &shared), ["ana"]);
        // One number, two students: João's participant id is Ana's user
        // id. Neither is graded as the other.
        let reused = [
            student("ana", "5002", "Ana Souza", "4112"),
            student("joao", "5003", "João Lima", "5002"),
        ];
        let canvas = [moodle("souzaana", "5002"), moodle("limajoao", "5003")];
        assert_eq!(
            graded(Lms::Canvas, &canvas, &reused),
            ["?souzaana_5002", "?limajoao_5003"]
        );
        // An archive's name never takes a roster student's.
        let roster = [student("Bia_Lima_5", "S1", "Someone Else", "9")];
        assert_eq!(
            graded(Lms::Moodle, &[moodle("Bia Lima", "5")], &roster),
            ["?Bia_Lima_5-2"]
        );
    }

    #[test]
    fn a_participant_id_on_another_name_is_refused() {
        // The participant column shifted by one row: each id is on the
        // neighbour's row. No one is graded as their neighbour.
        let shifted = [
            student("ana", "S1", "Ana Souza", "4113"),
            student("bia", "S2", "Bia Lima", "4114"),
        ];
        let download = [moodle("Ana Souza", "4112"), moodle("Bia Lima", "4113")];
        assert_eq!(
            graded(Lms::Moodle, &download, &shifted),
            ["?Ana_Souza_4112", "?Bia_Lima_4113"]
        );
        // Names agree in any order, accents and apostrophes aside, and as
        // Canvas writes them, whether it drops or plainly spells accents.
        let roster = [
            student("joao", "S1", "João Gonçalves", "7"),
            student("maria", "S2", "Maria D'Ávila", "8"),
            student("sem", "S3", "", "9"),
        ];
        let moodle_names = [
            moodle("Gonçalves João", "7"),
            moodle("Maria DÁvila", "8"),
            moodle("Anyone", "9"),
        ];
        assert_eq!(
            graded(Lms::Moodle, &moodle_names, &roster),
            ["joao", "maria", "sem"]
        );
        // Canvas maps by `id`, its user id: a shifted one is refused too.
        let roster = [student("joao", "7", "João Gonçalves", "")];
        for canvas in ["goncalvesjoao", "gonalvesjoo"] {
            let download = [moodle(canvas, "7")];
            assert_eq!(graded(Lms::Canvas, &download, &roster), ["joao"]);
        }
        let download = [moodle("davilamaria", "7")];
        assert_eq!(graded(Lms::Canvas, &download, &roster), ["?davilamaria_7"]);
    }

    #[test]
    fn moodle_numbers_a_name_handed_in_again_in_parentheses() {
        let expected = python_files();
        assert_eq!(
            expected_name(Lms::Moodle, "funcoes (1).py", &expected),
            Some(("funcoes.py", vec![1]))
        );
        assert_eq!(expected_name(Lms::Moodle, "funcoes-1.py", &expected), None);
        // The stub first, the version handed in again after it: the latter.
        let (kept, said) = resubmissions(
            Lms::Moodle,
            files(&["funcoes.py", "funcoes (1).py", "programa.py"]),
            &expected,
        );
        let kept: Vec<(String, String)> = kept
            .into_iter()
            .map(|(p, f)| (p.to_string_lossy().into_owned(), f))
            .collect();
        assert!(
            kept.contains(&("funcoes (1).py".to_owned(), "funcoes.py".to_owned())),
            "{kept:?}"
        );
        assert!(
            said.iter()
                .any(|l| l.contains("Moodle's latest version; left out: funcoes.py")),
            "{said:?}"
        );
    }

    #[test]
    fn canvas_numbers_a_name_handed_in_again_before_its_extension() {
        let expected = python_files();
        assert_eq!(
            expected_name(Lms::Canvas, "programa-1.py", &expected),
            Some(("programa.py", vec![1]))
        );
        assert_eq!(
            expected_name(Lms::Canvas, "funcoes-12.py", &expected),
            Some(("funcoes.py", vec![12]))
        );
        assert_eq!(
            expected_name(Lms::Canvas, "programa.py", &expected),
            Some(("programa.py", vec![]))
        );
        // A programa-1.py handed in again.
        assert_eq!(
            expected_name(Lms::Canvas, "programa-1-1.py", &expected),
            Some(("programa.py", vec![1, 1]))
        );
        // A student's own file, and names that are not Canvas's numbering.
        for file in [
            "helper-1.py",
            "programa-x.py",
            "programa-.py",
            "programa-1.pyc",
            "programa-1-.py",
            "programa-0f3a9c2e-1b4d-4e8a-9c1d-2b3e4f5a6b7c.py",
        ] {
            assert_eq!(expected_name(Lms::Canvas, file, &expected), None, "{file}");
        }
        // Several dots: Canvas has numbered before the last and the first.
        let tar = ["entrega.tar.gz".to_owned()];
        assert_eq!(
            expected_name(Lms::Canvas, "entrega.tar-1.gz", &tar),
            Some(("entrega.tar.gz", vec![1]))
        );
        assert_eq!(
            expected_name(Lms::Canvas, "entrega-2.tar.gz", &tar),
            Some(("entrega.tar.gz", vec![2]))
        );
    }

    /// The files a Python exam expects by name.
    fn python_files() -> [String; 2] {
        ["funcoes.py".to_owned(), "programa.py".to_owned()]
    }

    /// A student's files, each under its own name.
    fn files(names: &[&str]) -> Vec<(PathBuf, String)> {
        names
            .iter()
            .map(|n| (PathBuf::from(n), n.to_string()))
            .collect()
    }

    #[test]
    fn canvas_resubmissions_come_back_to_the_names_the_exercise_expects() {
        let expected = python_files();
        let (kept, said) = resubmissions(
            Lms::Canvas,
            files(&[
                "funcoes.py",
                "programa-1.py",
                "programa-2.py",
                "programa-1-1.py",
                "programa.py",
                "helper-1.py",
            ]),
            &expected,
        );
        let mut kept: Vec<(String, String)> = kept
            .into_iter()
            .map(|(p, n)| (p.display().to_string(), n))
            .collect();
        kept.sort();
        assert_eq!(
            kept,
            [
                ("funcoes.py".into(), "funcoes.py".into()),
                ("helper-1.py".into(), "helper-1.py".into()),
                ("programa-2.py".into(), "programa.py".into()),
            ]
        );
        assert_eq!(
            said,
            [
                "programa-2.py taken as programa.py, Canvas's latest version; left out: programa.py, programa-1.py, programa-1-1.py"
            ]
        );
        let (kept, said) = resubmissions(Lms::Canvas, files(&["mod-1.rs", "lib.rs"]), &[]);
        assert_eq!(kept.len(), 2);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("mod-1.rs kept under that name"),
            "{said:?}"
        );
        let (_, said) = resubmissions(
            Lms::Canvas,
            files(&["programa-1.py", "funcoes.py"]),
            &expected,
        );
        assert_eq!(
            said,
            ["programa-1.py taken as programa.py (Canvas's name for a file handed in again)"]
        );
    }

    /// A file missing is said, with what looks like it but is not taken.
    #[test]
    fn a_missing_file_is_said_with_its_look_alikes() {
        let expected = python_files();
        let uuid = "programa-0f3a9c2e-1b4d-4e8a-9c1d-2b3e4f5a6b7c.py";
        let (kept, said) = resubmissions(Lms::Canvas, files(&[uuid]), &expected);
        assert_eq!(kept.len(), 1);
        assert_eq!(
            said,
            [
                "no funcoes.py handed in".to_owned(),
                format!(
                    "no programa.py handed in; {uuid} kept under its own name: not a name \
                     Canvas gives a file handed in again, so not taken as programa.py"
                )
            ]
        );
        // One archive handed in holds the files: nothing is said missing.
        let (_, said) = resubmissions(Lms::Canvas, files(&["exame.zip"]), &expected);
        assert!(said.is_empty(), "{said:?}");
    }
}
