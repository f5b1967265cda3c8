//! Grades into a learning management system: a roster (`--roster FILE`,
//! CSV with the header `submission,id,login` and an optional `name`) maps
//! submissions to students, and two imports are written beside
//! `grades.csv`:
//!
//! - `canvas.csv`, Canvas's gradebook import: `Student`, `ID`,
//!   `SIS User ID`, `SIS Login ID`, `Section`, then one column of points
//!   named after the assignment, as Canvas's own gradebook export lays it
//!   out (its `Points Possible` row second);
//! - `moodle.csv`, Moodle's "Import grades from CSV file": `Username`,
//!   `ID number`, `Full name`, then the assignment's column; imported with
//!   "Map from: Username" to "Map to: username".
//!
//! A student with no submission gets an empty cell (left as it is by both
//! imports); each kind of gap is returned for the terminal. No LMS is
//! reached from here: the files are what their documentation describes.

use std::collections::BTreeMap;
use std::path::Path;

use super::report::{Results, points};

/// One student of a roster.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub(crate) struct Student {
    /// The submission's name, as in `grades.csv`.
    pub submission: String,
    /// The LMS's id of the student (Canvas's user ID, Moodle's ID number).
    pub id: String,
    /// The student's login (Canvas's SIS Login ID, Moodle's username).
    pub login: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The id an LMS's download names the student by, when it is not `id`
    /// (Moodle's participant id; optional).
    #[serde(default)]
    pub participant: Option<String>,
}

/// Why a roster cannot be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RosterError {
    #[error("cannot read the roster {0}: {1}")]
    Read(std::path::PathBuf, std::io::Error),
    #[error("the roster {0}: {1} (expected the header submission,id,login[,name])")]
    Malformed(std::path::PathBuf, csv::Error),
    #[error(
        "the roster {0}: its header lacks {1:?}: found {2:?} (expected the columns \
         submission, id and login, and name if you like, in any order and case, \
         separated by ',', ';' or a tab)"
    )]
    Header(std::path::PathBuf, &'static str, String),
    #[error("the roster {0}: submission {1:?} is listed twice")]
    Twice(std::path::PathBuf, String),
}

/// Reads a roster file.
pub(crate) fn read_roster(path: &Path) -> Result<Vec<Student>, RosterError> {
    let raw = std::fs::read(path).map_err(|e| RosterError::Read(path.to_owned(), e))?;
    // A spreadsheet's byte order mark is no part of the first column's name.
    let raw = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&raw);
    // Excel's plain "CSV" is Windows-1252 where Windows is in Portuguese,
    // French or English: `João` as 0xE3. Text that is not UTF-8 is read so.
    let text = match std::str::from_utf8(raw) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(raw).0,
    };
    let bytes = text.as_bytes();
    // Spreadsheets save "CSV" with the separator of their locale: `;` in
    // Portuguese and French, a tab as "Unicode text". The header says which.
    let first = String::from_utf8_lossy(bytes.split(|&b| b == b'\n').next().unwrap_or_default())
        .trim_end_matches('\r')
        .to_owned();
    let delimiter = [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|&d| first.bytes().filter(|&b| b == d).count())
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    // Headers in any case: `Submission,ID,Login` as a spreadsheet writes them.
    let headers: csv::StringRecord = reader
        .headers()
        .map_err(|e| RosterError::Malformed(path.to_owned(), e))?
        .iter()
        .map(str::to_lowercase)
        .collect();
    for column in ["submission", "id", "login"] {
        if !headers.iter().any(|h| h == column) {
            return Err(RosterError::Header(path.to_owned(), column, first.clone()));
        }
    }
    reader.set_headers(headers);
    let mut students: Vec<Student> = Vec::new();
    for row in reader.deserialize() {
        let mut student: Student = row.map_err(|e| RosterError::Malformed(path.to_owned(), e))?;
        student.name = student.name.filter(|n| !n.is_empty());
        if students.iter().any(|s| s.submission == student.submission) {
            return Err(RosterError::Twice(path.to_owned(), student.submission));
        }
        students.push(student);
    }
    Ok(students)
}

/// What a roster and a class's results do not share.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Gaps {
    /// Graded submissions no roster entry names: in no import.
    pub unlisted: Vec<String>,
    /// Students with no graded submission: an empty cell.
    pub missing: Vec<String>,
}

/// A student's feedback in a line: the level, the points, the first failure.
pub(crate) fn summary(results: &Results) -> String {
    let mut line = format!(
        "Level reached: {}. {} / {} points.",
        results.level_name(),
        points(results.score),
        points(results.max_score())
    );
    if let Some(penalty) = results.penalty.filter(|p| *p > 0.0) {
        line.push_str(&format!(" Late: {} points off.", points(penalty)));
    }
    let failed = results.tests.iter().find(|t| {
        t.extra_data.verdict != super::report::Verdict::Passed && t.visibility == "visible"
    });
    match failed {
        Some(t) => line.push_str(&format!(
            " First failure: {} ({}). Your feedback file has every case.",
            t.name,
            t.extra_data.verdict.name()
        )),
        None => line.push_str(" Every public case passed."),
    }
    line
}

/// `moodle-feedback.zip`, for Moodle's "Upload multiple feedback files in a
/// zip": each student's `feedback.html` in a folder named as Moodle's own
/// download names it (`<Full name>_<participant id>_assignsubmission_file`).
/// Returns the archive and the students left out (no participant id or
/// full name in the roster, or no feedback).
pub(crate) fn moodle_feedback_zip(
    students: &[Student],
    out: &Path,
) -> std::io::Result<(Vec<u8>, Vec<String>)> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut left_out = Vec::new();
    for student in students {
        let page = super::report::student_dir(out, &student.submission).join("feedback.html");
        let (Some(participant), Some(name), Ok(bytes)) = (
            student.participant.as_deref(),
            student.name.as_deref(),
            std::fs::read(&page),
        ) else {
            left_out.push(student.submission.clone());
            continue;
        };
        let entry = format!("{name}_{participant}_assignsubmission_file/feedback.html");
        zip.start_file(entry, zip::write::SimpleFileOptions::default())
            .map_err(std::io::Error::other)?;
        std::io::Write::write_all(&mut zip, &bytes)?;
    }
    let bytes = zip.finish().map_err(std::io::Error::other)?.into_inner();
    Ok((bytes, left_out))
}

/// `canvas.csv` and `moodle.csv` for `students`, from `all`; the gaps.
pub(crate) fn imports(
    students: &[Student],
    all: &BTreeMap<String, Results>,
    assignment: &str,
) -> Result<(String, String, Gaps), csv::Error> {
    let max = all.values().map(Results::max_score).fold(0.0, f64::max);
    let mut canvas = csv::Writer::from_writer(Vec::new());
    canvas.write_record([
        "Student",
        "ID",
        "SIS User ID",
        "SIS Login ID",
        "Section",
        assignment,
    ])?;
    canvas.write_record(["    Points Possible", "", "", "", "", &points(max)])?;
    let mut moodle = csv::Writer::from_writer(Vec::new());
    // The feedback column: Moodle's import maps it to the item's feedback.
    moodle.write_record(["Username", "ID number", "Full name", assignment, "Feedback"])?;
    let mut gaps = Gaps::default();
    for student in students {
        let score = match all.get(&student.submission) {
            Some(results) => points(results.score),
            None => {
                gaps.missing.push(student.submission.clone());
                String::new()
            }
        };
        let name = student.name.as_deref().unwrap_or(&student.login);
        // A name a spreadsheet would run as a formula is shown as text.
        let name = super::shown::formula_safe(name);
        canvas.write_record([&name, &student.id, "", &student.login, "", &score])?;
        let feedback = all
            .get(&student.submission)
            .map(summary)
            .unwrap_or_default();
        moodle.write_record([&student.login, &student.id, &name, &score, &feedback])?;
    }
    gaps.unlisted = all
        .keys()
        .filter(|name| !students.iter().any(|s| &s.submission == *name))
        .cloned()
        .collect();
    let text = |writer: csv::Writer<Vec<u8>>| -> Result<String, csv::Error> {
        let bytes = writer.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    Ok((text(canvas)?, text(moodle)?, gaps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roster(text: &str) -> Result<Vec<Student>, RosterError> {
        roster_bytes(text.as_bytes())
    }

    fn roster_bytes(bytes: &[u8]) -> Result<Vec<Student>, RosterError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("roster.csv");
        std::fs::write(&path, bytes).unwrap();
        read_roster(&path)
    }

    #[test]
    fn a_roster_reads_with_or_without_names_and_refuses_what_it_cannot_map() {
        let students = roster(
            "\u{feff}submission,id,login,name\nana,101,ana.s,\"Silva, Ana\"\nbia,102,bia.c,\n",
        )
        .unwrap();
        assert_eq!(students[0].name.as_deref(), Some("Silva, Ana"));
        assert_eq!(students[1].name, None);
        let students = roster("login,id,submission\nana.s,101,ana\n").unwrap();
        assert_eq!(students[0].submission, "ana");
        let missing = roster("submission,login\nana,ana.s\n").unwrap_err();
        assert!(matches!(missing, RosterError::Header(_, "id", _)));
        assert!(
            missing.to_string().contains(r#"found "submission,login""#),
            "{missing}"
        );
        assert!(matches!(
            roster("submission,id,login\nana,1,a\nana,2,b\n"),
            Err(RosterError::Twice(_, _))
        ));
    }

    /// As spreadsheets save a roster: `;` where the decimal mark is a
    /// comma (Excel in Portuguese or French), a tab ("Unicode text"),
    /// headers capitalised, Windows line endings.
    #[test]
    fn a_roster_as_a_spreadsheet_saves_it_is_read() {
        for text in [
            "\u{feff}Submission;ID;Login;Name\r\nana;101;ana.s;Silva, Ana\r\nbia;102;bia.c;\r\n",
            "SUBMISSION\tId\tLOGIN\tName\nana\t101\tana.s\tSilva, Ana\nbia\t102\tbia.c\t\n",
            "submission,ID,Login,name\nana,101,ana.s,\"Silva, Ana\"\nbia,102,bia.c,\n",
        ] {
            let students = roster(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(students.len(), 2, "{text:?}");
            assert_eq!(
                (students[0].submission.as_str(), students[0].id.as_str()),
                ("ana", "101")
            );
            assert_eq!(students[0].login, "ana.s");
            assert_eq!(students[0].name.as_deref(), Some("Silva, Ana"));
            assert_eq!(students[1].name, None);
        }
        // Excel's plain "CSV" in Portuguese: `;` and Windows-1252.
        let students =
            roster_bytes(b"Submission;ID;Login;Name\r\njoao;101;joao.s;Jo\xe3o Gon\xe7alves\r\n")
                .unwrap();
        assert_eq!(students[0].name.as_deref(), Some("João Gonçalves"));
        // A header that names no submission is refused, saying what it found.
        let error = roster("Aluno;Matricula;Email\nana;101;a@x\n").unwrap_err();
        assert!(
            error
                .to_string()
                .contains(r#"found "Aluno;Matricula;Email""#),
            "{error}"
        );
    }
}
