//! Grades into a learning management system: a roster (`--roster FILE`,
//! CSV with the header `submission,id,login` and an optional `name`) maps
//! submissions to students, and the imports are written beside
//! `grades.csv`:
//!
//! - `canvas.csv`, Canvas's gradebook import: `Student`, `ID`,
//!   `SIS User ID`, `SIS Login ID`, `Section`, then one column of points
//!   named `Title (id)`, as Canvas's own gradebook export lays it out (its
//!   `Points Possible` row second). Canvas takes an existing assignment by
//!   that id (`Assignment.title_and_id`, `\A(.*)\s\((\d+)\)\z`, in
//!   canvas-lms `app/models/assignment.rb`; `GradebookImporter#parse_assignments`
//!   in `app/models/gradebook_importer.rb`), else by an exact title, else
//!   it creates a new assignment: so the column is only ever written with
//!   an id ([`CanvasColumn`]);
//! - `moodle.csv`, Moodle's "Import grades from CSV file": `Username`,
//!   `ID number`, `Full name`, then the assignment's column and
//!   `Feedback`; imported with "Map from: Username" to "Map to: username";
//! - `moodle-feedback.zip`, for "Upload multiple feedback files in a zip",
//!   named for the Moodle version asked ([`MoodleZip`]).
//!
//! Neither import has a value for "leave this grade as it is": Moodle's
//! importer takes an empty cell (or `-`) as "no grade" and erases the
//! grade there (`update_grade_item` in
//! `grade/import/csv/classes/load_data.php`), and an empty feedback cell
//! as empty feedback; Canvas's importer sends every cell that differs from
//! the current grade, an empty one included, as the new grade
//! (`populateGradeDataPerSubmission` in canvas-lms
//! `ui/features/gradebook_uploads/jquery/process_gradebook_upload.js`).
//! So a student the run gave no grade is left out of both files (and
//! listed), never written blank. A row with an empty username is worse in
//! Moodle: it is skipped as a user, so its cells land on the previous
//! row's student (`map_user_data_with_value` keeps `studentid`), or abort
//! the whole import on the first row: a roster with an empty or repeated
//! login or id is refused, naming its lines.
//!
//! Every cell holding a `;` or a tab is quoted: a spreadsheet in
//! Portuguese or French splits "CSV" at `;`, so an unquoted `Lima;=cmd|…`
//! would open as a formula. No LMS is reached from here: the files are
//! what their sources above read.

use std::collections::{BTreeMap, BTreeSet, HashSet};
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
    #[error(
        "the roster {path} has rows an LMS would misread (an empty login stops Moodle's \
         import or grades another student; a repeated one grades one student twice); \
         nothing was graded or written:\n  {}",
        .problems.join("\n  ")
    )]
    Rows {
        path: std::path::PathBuf,
        problems: Vec<String>,
    },
    #[error(
        "the roster {0} mixes two encodings: UTF-8 on line {1}, another (Windows-1252?) on line {2}; its names cannot all be read. Save it again as \"CSV UTF-8\""
    )]
    Mixed(std::path::PathBuf, usize, usize),
}

/// Reads a roster file; refuses one with an empty or repeated
/// submission, id, login or participant id.
pub(crate) fn read_roster(path: &Path) -> Result<Vec<Student>, RosterError> {
    let raw = std::fs::read(path).map_err(|e| RosterError::Read(path.to_owned(), e))?;
    let text = roster_text(path, &raw)?;
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
        // A row of separators alone is skipped whatever its length; any
        // other row of another length than the header's is refused below.
        .flexible(true)
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
    let mut rows: Vec<(u64, Student)> = Vec::new();
    let mut uneven = Vec::new();
    for record in reader.records() {
        let malformed = |e| RosterError::Malformed(path.to_owned(), e);
        let record = record.map_err(malformed)?;
        // A spreadsheet's row of separators alone (`;;;;`): no student.
        if record.iter().all(str::is_empty) {
            continue;
        }
        let line = line_of(bytes, record.position());
        if record.len() != headers.len() {
            uneven.push(format!(
                "line {line}: {} fields, where the header has {}",
                record.len(),
                headers.len()
            ));
            continue;
        }
        let mut student: Student = record.deserialize(Some(&headers)).map_err(malformed)?;
        // The name its folder is graded under (`Ana Souza` as `Ana_Souza`,
        // a decomposed `Lúcia` composed): two rows that read as one name
        // are one folder, and refused as such.
        if !student.submission.is_empty() {
            student.submission = super::submission::safe_name(&student.submission);
        }
        student.name = student.name.filter(|n| !n.is_empty());
        student.participant = student.participant.filter(|p| !p.is_empty());
        rows.push((line, student));
    }
    let mut problems = uneven;
    problems.extend(roster_problems(&rows));
    if !problems.is_empty() {
        return Err(RosterError::Rows {
            path: path.to_owned(),
            problems,
        });
    }
    Ok(rows.into_iter().map(|(_, student)| student).collect())
}

/// A roster's bytes as text: UTF-8 (a byte order mark aside), UTF-16 by
/// its byte order mark (Excel's "Unicode text"), else Windows-1252, the
/// plain "CSV" of Excel in Portuguese, French or English (`João` as
/// 0xE3), said. A file of UTF-8 lines and others is refused: whichever
/// way it is read, some names would be wrong.
fn roster_text<'a>(path: &Path, raw: &'a [u8]) -> Result<std::borrow::Cow<'a, str>, RosterError> {
    if let Some((encoding, _)) = encoding_rs::Encoding::for_bom(raw) {
        let (text, _) = encoding.decode_with_bom_removal(raw);
        if encoding != encoding_rs::UTF_8 {
            say_once(format!(
                "boardkit: the roster {} is {}: read as such",
                path.display(),
                encoding.name()
            ));
        }
        return Ok(text);
    }
    if let Ok(text) = std::str::from_utf8(raw) {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let lines: Vec<&[u8]> = raw.split(|&b| b == b'\n').collect();
    let utf8 = lines
        .iter()
        .position(|l| !l.is_ascii() && std::str::from_utf8(l).is_ok());
    let other = lines.iter().position(|l| std::str::from_utf8(l).is_err());
    if let (Some(utf8), Some(other)) = (utf8, other) {
        return Err(RosterError::Mixed(path.to_owned(), utf8 + 1, other + 1));
    }
    say_once(format!(
        "boardkit: warning: the roster {} is not UTF-8: read as Windows-1252 (Excel's \"CSV\"); \
         if its names look wrong, save it again as \"CSV UTF-8\"",
        path.display()
    ));
    Ok(encoding_rs::WINDOWS_1252.decode_without_bom_handling(raw).0)
}

/// Prints `line` on the terminal once in the run: a roster is read once
/// to check it, once to grade.
fn say_once(line: String) {
    static SAID: std::sync::Mutex<BTreeSet<String>> = std::sync::Mutex::new(BTreeSet::new());
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if said.insert(line.clone()) {
        eprintln!("{line}");
    }
}

/// The line a record starts on, as a text editor shows it and a
/// spreadsheet numbers its row (the csv crate's own count lags by one
/// after a Windows line ending).
fn line_of(bytes: &[u8], position: Option<&csv::Position>) -> u64 {
    let start = position.map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX));
    let start = start.min(bytes.len());
    let blank = bytes[start..]
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let before = &bytes[..start + blank];
    1 + before.iter().filter(|&&b| b == b'\n').count() as u64
}

/// What in a roster's rows an LMS would misread, each naming its lines:
/// an empty submission, id or login, and one given twice (a login in any
/// case: Moodle's usernames are lower case, Canvas's logins match so).
fn roster_problems(rows: &[(u64, Student)]) -> Vec<String> {
    type Key = fn(&Student) -> Option<String>;
    let columns: [(&str, Key); 4] = [
        ("submission", |s| Some(s.submission.clone())),
        ("id", |s| Some(s.id.clone())),
        ("login", |s| Some(s.login.to_lowercase())),
        // A number: `0501` (a spreadsheet's text cell) is Moodle's 501.
        ("participant", |s| s.participant.as_deref().map(as_number)),
    ];
    let mut problems = Vec::new();
    for (column, key) in columns {
        let mut seen: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        let mut empty = Vec::new();
        for (line, student) in rows {
            match key(student) {
                Some(value) if value.is_empty() => empty.push(*line),
                Some(value) => seen.entry(value).or_default().push(*line),
                None => {}
            }
        }
        if !empty.is_empty() {
            problems.push(format!("{}: no {column}", lines(&empty)));
        }
        let mut twice: Vec<(String, Vec<u64>)> =
            seen.into_iter().filter(|(_, at)| at.len() > 1).collect();
        twice.sort_by_key(|(_, at)| at[0]);
        for (value, at) in twice {
            problems.push(format!("{}: the same {column} {value:?}", lines(&at)));
        }
    }
    problems
}

/// Digits without their leading zeros (`0` for zeros alone); any other
/// text as it is.
fn as_number(text: &str) -> String {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let trimmed = text.trim_start_matches('0');
        if trimmed.is_empty() { "0" } else { trimmed }.to_owned()
    } else {
        text.to_owned()
    }
}

/// `line 4`, `lines 2 and 5`, `lines 2, 5 and 7`.
fn lines(at: &[u64]) -> String {
    match at {
        [one] => format!("line {one}"),
        [rest @ .., last] => format!(
            "lines {} and {last}",
            rest.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [] => String::new(),
    }
}

/// Canvas's column for an existing assignment, `Title (id)`: the id is the
/// number in the assignment's address (`/courses/12/assignments/4567`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CanvasColumn(String);

impl CanvasColumn {
    /// `text` as Canvas's importer reads an existing assignment's column
    /// (`\A(.*)\s\((\d+)\)\z`), with a title; else why not.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let id = text
            .strip_suffix(')')
            .and_then(|t| t.rsplit_once(" ("))
            .filter(|(title, id)| {
                !title.trim().is_empty() && !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())
            });
        match id {
            Some(_) if !text.chars().any(char::is_control) => Ok(Self(text.to_owned())),
            _ => Err(format!(
                "{text:?} is not Canvas's `Title (id)` of an assignment, such as \
                 \"Exam 1 (4567)\" (the id is the number in the assignment's \
                 address, /courses/12/assignments/4567): without it Canvas's import \
                 would create a new assignment"
            )),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// How `moodle-feedback.zip` names each student's file, for the Moodle
/// version that reads it (`mod/assign/feedback/file/importziplib.php`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MoodleZip {
    /// Moodle 4.1 and later: a folder per student,
    /// `<Full name>_<participant id>_assignsubmission_file/feedback.html`,
    /// as 4.1's download writes it (its importer reads four `_` parts of a
    /// folder; earlier ones read five, and skip this form).
    Folders,
    /// Before 4.1 (2.3 to 4.0): one flat file per student,
    /// `<Full name>_<participant id>_assignsubmission_file_feedback.html`,
    /// five `_` parts of the file's name, as every version reads it.
    Flat,
}

impl MoodleZip {
    /// The form for `--moodle-version` (`4.1`, `4.5.2`, `3.11`, `4.1+`);
    /// else why not.
    pub(crate) fn parse(version: &str) -> Result<Self, String> {
        let mut parts = version.trim().trim_end_matches('+').split('.');
        let number = |part: Option<&str>| part.and_then(|p| p.parse::<u32>().ok());
        match (number(parts.next()), number(parts.next())) {
            (Some(major), _) if major >= 5 => Ok(Self::Folders),
            (Some(4), Some(minor)) if minor >= 1 => Ok(Self::Folders),
            (Some(2..=4), Some(_)) => Ok(Self::Flat),
            _ => Err(format!(
                "--moodle-version {version:?}: give Moodle's version as major.minor \
                 (4.1, 4.0, 3.11; see Site administration, Notifications)"
            )),
        }
    }

    /// The archive's entry for a student named `name` (already made safe)
    /// with the participant id `participant` (digits).
    fn entry(self, name: &str, participant: &str) -> String {
        match self {
            Self::Folders => format!("{name}_{participant}_assignsubmission_file/feedback.html"),
            Self::Flat => format!("{name}_{participant}_assignsubmission_file_feedback.html"),
        }
    }
}

/// A full name as Moodle's own download writes it in a file name (`_` as a
/// space, then `clean_filename`: no control character nor any of
/// `&<>"`|':\/`), and never a path: no `..`, no leading dot (a hidden file
/// Moodle skips) or space, at most 100 characters.
fn moodle_name(name: &str) -> String {
    let mut safe = String::new();
    for c in name.chars().map(|c| if c == '_' { ' ' } else { c }) {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control()
            || bidi
            || "&<>\"`|':\\/*?".contains(c)
            || (c == '.' && safe.ends_with('.'))
        {
            continue;
        }
        safe.push(c);
    }
    let safe: String = safe
        .trim_matches(|c: char| c == '.' || c.is_whitespace())
        .chars()
        .take(100)
        .collect();
    match safe.trim_end() {
        "" => "Participant".to_owned(),
        name => name.to_owned(),
    }
}

/// What a roster and a class's results do not share.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Gaps {
    /// Graded submissions no roster entry names: in no import.
    pub unlisted: Vec<String>,
    /// Students with no graded submission: in no import either, so that
    /// their grade in the LMS stays as it is.
    pub missing: Vec<String>,
    /// Students whose grading did not finish (a build that ran out of
    /// time: graded again by the next run): left out likewise, never 0.
    pub unfinished: Vec<String>,
    /// Students whose submission could not be read (an archive refused
    /// or empty): their 0 is no grade of their code, so left out too.
    pub unread: Vec<String>,
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
/// zip": each graded student's `feedback.html`, named as `form` says from
/// the roster's full name (made safe by [`moodle_name`]) and participant
/// id. Returns the archive and the students left out (no participant id
/// of digits or no full name in the roster, or no feedback).
pub(crate) fn moodle_feedback_zip(
    students: &[Student],
    all: &BTreeMap<String, Results>,
    out: &Path,
    form: MoodleZip,
) -> std::io::Result<(Vec<u8>, Vec<String>)> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut left_out = Vec::new();
    for student in students {
        let page = super::report::student_dir(out, &student.submission).join("feedback.html");
        let participant = student
            .participant
            .as_deref()
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        let bytes = all
            .get(&student.submission)
            .is_some_and(|r| !r.incomplete && r.unread.is_none())
            .then(|| std::fs::read(&page).ok())
            .flatten();
        let (Some(participant), Some(name), Some(bytes)) =
            (participant, student.name.as_deref(), bytes)
        else {
            left_out.push(student.submission.clone());
            continue;
        };
        let entry = form.entry(&moodle_name(name), participant);
        zip.start_file(entry, zip::write::SimpleFileOptions::default())
            .map_err(std::io::Error::other)?;
        std::io::Write::write_all(&mut zip, &bytes)?;
    }
    let bytes = zip.finish().map_err(std::io::Error::other)?.into_inner();
    Ok((bytes, left_out))
}

/// A CSV cell, quoted when it holds the separator of any spreadsheet's
/// "CSV" (`,`, or `;` in Portuguese and French), a tab, a quote or a line
/// break.
fn cell(text: &str) -> String {
    if text.contains([',', ';', '\t', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// One CSV line of `cells`.
fn row<S: AsRef<str>>(cells: &[S]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| cell(c.as_ref())).collect();
    cells.join(",") + "\n"
}

/// The imports of a run: `canvas.csv` (when its column is known),
/// `moodle.csv`, and the roster's gaps.
#[derive(Debug)]
pub(crate) struct Imports {
    pub canvas: String,
    pub moodle: String,
    pub gaps: Gaps,
}

/// `canvas.csv` (its column `canvas`, an existing assignment's, else the
/// bare `moodle` title, which Canvas asks to map on import) and
/// `moodle.csv` (its column named `moodle`) for the students of `students`
/// that `all` grades; the others are left out, in `gaps`.
pub(crate) fn imports(
    students: &[Student],
    all: &BTreeMap<String, Results>,
    moodle: &str,
    canvas: Option<&CanvasColumn>,
) -> Imports {
    let max = all.values().map(Results::max_score).fold(0.0, f64::max);
    // Canvas matches a column to an existing assignment by `Title (id)`;
    // a bare title, it asks on import which assignment it is, or makes one.
    let mut canvas_csv = row(&[
        "Student",
        "ID",
        "SIS User ID",
        "SIS Login ID",
        "Section",
        canvas.map_or(moodle, CanvasColumn::as_str),
    ]) + &row(&["    Points Possible", "", "", "", "", &points(max)]);
    // The feedback column: Moodle's import maps it to the item's feedback.
    let mut moodle_csv = row(&["Username", "ID number", "Full name", moodle, "Feedback"]);
    let mut gaps = Gaps::default();
    for student in students {
        let results = match all.get(&student.submission) {
            Some(results) if results.incomplete => {
                gaps.unfinished.push(student.submission.clone());
                continue;
            }
            Some(results) if results.unread.is_some() => {
                gaps.unread.push(student.submission.clone());
                continue;
            }
            Some(results) => results,
            None => {
                gaps.missing.push(student.submission.clone());
                continue;
            }
        };
        let score = points(results.score);
        let name = student.name.as_deref().unwrap_or(&student.login);
        // A name a spreadsheet would run as a formula is shown as text.
        let name = super::shown::formula_safe(name);
        canvas_csv.push_str(&row(&[&name, &student.id, "", &student.login, "", &score]));
        // Moodle keeps usernames in lower case (`Ana.S` is `ana.s`), and
        // its import matches them exactly on PostgreSQL.
        moodle_csv.push_str(&row(&[
            &student.login.to_lowercase(),
            &student.id,
            &name,
            &score,
            &summary(results),
        ]));
    }
    let listed: HashSet<&str> = students.iter().map(|s| s.submission.as_str()).collect();
    gaps.unlisted = all
        .keys()
        .filter(|name| !listed.contains(name.as_str()))
        .cloned()
        .collect();
    Imports {
        canvas: canvas_csv,
        moodle: moodle_csv,
        gaps,
    }
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

    fn student(submission: &str, id: &str, login: &str, name: &str) -> Student {
        Student {
            submission: submission.into(),
            id: id.into(),
            login: login.into(),
            name: Some(name.into()).filter(|n: &String| !n.is_empty()),
            participant: None,
        }
    }

    /// A run that could not finish `name`: its build ran out of time.
    fn unfinished(all: &mut BTreeMap<String, Results>, name: &str) {
        let json = r#"{"score": 0, "tests": [], "incomplete": true}"#;
        all.insert(name.to_owned(), serde_json::from_str(json).unwrap());
    }

    fn graded(scores: &[(&str, f64)]) -> BTreeMap<String, Results> {
        scores
            .iter()
            .map(|(name, score)| {
                let json = format!(r#"{{"score": {score}, "tests": []}}"#);
                ((*name).to_owned(), serde_json::from_str(&json).unwrap())
            })
            .collect()
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
        let twice = roster("submission,id,login\nana,1,a\nana,2,b\n").unwrap_err();
        assert!(
            twice
                .to_string()
                .contains(r#"lines 2 and 3: the same submission "ana""#),
            "{twice}"
        );
        // A submission is the folder it is graded under: a name with a
        // space reads as that folder's, and two spellings of one name
        // (Lúcia composed, and decomposed by a Mac) are one folder.
        let spaced = roster("submission,id,login\nAna Souza 4112,1,a\n,,,,\n,,\n").unwrap();
        assert_eq!(spaced.len(), 1);
        let short = roster("submission,id,login\nana,1\n").unwrap_err();
        assert!(
            short
                .to_string()
                .contains("line 2: 2 fields, where the header has 3"),
            "{short}"
        );
        assert_eq!(spaced[0].submission, "Ana_Souza_4112");
        let forms = roster("submission,id,login\nL\u{fa}cia,1,a\nLu\u{301}cia,2,b\n").unwrap_err();
        assert!(
            forms
                .to_string()
                .contains("lines 2 and 3: the same submission \"L\u{fa}cia\""),
            "{forms}"
        );
    }

    /// Moodle's import stops at a row with an empty username (or grades the
    /// row before it), and a login or id given twice grades one student
    /// twice: refused, each problem with the lines a spreadsheet shows.
    #[test]
    fn a_roster_with_an_empty_or_repeated_login_or_id_is_refused_by_line() {
        let error = roster(
            "Submission;ID;Login;Name\r\nana;101;ana.s;Ana\r\nbia;;bia.c;Bia\r\n\
             iris;1009;;Íris Nunes\r\ncaio;104;Ana.S;Caio\r\nduda;101;duda;Duda\r\n\
             eva;106;eva;Eva\r\nfabio;101;fabio;Fábio\r\n",
        )
        .unwrap_err();
        let said = error.to_string();
        let RosterError::Rows { problems, .. } = &error else {
            panic!("{error:?}");
        };
        assert_eq!(
            problems,
            &[
                "line 3: no id",
                r#"lines 2, 6 and 8: the same id "101""#,
                "line 4: no login",
                r#"lines 2 and 5: the same login "ana.s""#,
            ],
            "{said}"
        );
        assert!(said.contains("nothing was graded or written"), "{said}");
        // A participant id given twice would name two students' feedback
        // alike; one left empty is no problem (it is optional).
        let error =
            roster("submission,id,login,participant\nana,1,a,501\nbia,2,b,\ncaio,3,c,501\n")
                .unwrap_err();
        assert!(
            error
                .to_string()
                .contains(r#"lines 2 and 4: the same participant "501""#),
            "{error}"
        );
        assert!(roster("submission,id,login,participant\nana,1,a,501\nbia,2,b,\n").is_ok());
        // The same number, written with a leading zero.
        let err = roster("submission,id,login,participant\nana,1,a,0501\nbia,2,b,501\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(r#"lines 2 and 3: the same participant "501""#),
            "{err}"
        );
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
        // Excel's "Unicode text": UTF-16 with its byte order mark, tabs.
        let text = "Submission\tID\tLogin\tName\r\njoao\t101\tjoao.s\tJoão Gonçalves\r\n";
        let mut utf16 = vec![0xff, 0xfe];
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let students = roster_bytes(&utf16).unwrap();
        assert_eq!(students[0].name.as_deref(), Some("João Gonçalves"));
        // A file of UTF-8 rows and Windows-1252 ones: no reading is right.
        let error =
            roster_bytes(b"submission,id,login,name\nana,1,a,Ana Jos\xc3\xa9\njoao,2,j,Jo\xe3o\n")
                .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("UTF-8 on line 2, another (Windows-1252?) on line 3"),
            "{error}"
        );
        // A header that names no submission is refused, saying what it found.
        let error = roster("Aluno;Matricula;Email\nana;101;a@x\n").unwrap_err();
        assert!(
            error
                .to_string()
                .contains(r#"found "Aluno;Matricula;Email""#),
            "{error}"
        );
    }

    /// A student the run gave no grade is in neither import: a blank cell
    /// would erase their grade in Moodle and in Canvas.
    #[test]
    fn a_student_with_no_grade_is_left_out_of_both_imports() {
        let students = [
            // Moodle's usernames are in lower case; Canvas's as given.
            student("ana", "101", "Ana.s", "Silva, Ana"),
            student("joao", "1010", "joao.pinto", "João Pinto"),
            student("rui", "1011", "rui", "Rui"),
            student("eva", "1012", "eva", "Eva"),
        ];
        let mut all = graded(&[("ana", 30.0), ("zeca", 10.0)]);
        unfinished(&mut all, "rui");
        // An archive that could not be read: its 0 grades no code.
        let json = r#"{"score": 0, "tests": [], "unread": "the archive is refused: empty"}"#;
        all.insert("eva".to_owned(), serde_json::from_str(json).unwrap());
        let column = CanvasColumn::parse("Jogo da velha (4567)").unwrap();
        let imports = imports(&students, &all, "velha", Some(&column));
        assert_eq!(
            imports.moodle,
            "Username,ID number,Full name,velha,Feedback\n\
             ana.s,101,\"Silva, Ana\",30,Level reached: none. 30 / 0 points. Every public case passed.\n"
        );
        assert_eq!(
            imports.canvas,
            "Student,ID,SIS User ID,SIS Login ID,Section,Jogo da velha (4567)\n    \
             Points Possible,,,,,0\n\"Silva, Ana\",101,,Ana.s,,30\n"
        );
        assert_eq!(
            imports.gaps,
            Gaps {
                unlisted: vec!["zeca".into()],
                missing: vec!["joao".into()],
                unfinished: vec!["rui".into()],
                unread: vec!["eva".into()],
            }
        );
        // Without Canvas's column of an existing assignment, the bare
        // title, which Canvas's import asks to map (the terminal warns).
        assert!(
            imports_of(&students, &all)
                .canvas
                .starts_with("Student,ID,SIS User ID,SIS Login ID,Section,velha\n")
        );
    }

    fn imports_of(students: &[Student], all: &BTreeMap<String, Results>) -> Imports {
        imports(students, all, "velha", None)
    }

    /// A name holding `;` or a tab is quoted: a spreadsheet in Portuguese
    /// or French splits at `;`, and would run what follows as a formula.
    #[test]
    fn a_cell_holding_a_semicolon_or_a_tab_is_quoted() {
        let students = [
            student("lima", "7", "lima", "Lima;=cmd|' /C calc'!A0"),
            student("tab", "8", "tab", "Tab\t=1+1"),
            student("quote", "9", "quote", "O\"Neil"),
        ];
        let all = graded(&[("lima", 1.0), ("tab", 2.0), ("quote", 3.0)]);
        let column = CanvasColumn::parse("Velha; prova (12)").unwrap();
        let imports = imports(&students, &all, "velha;1", Some(&column));
        let canvas = imports.canvas;
        assert!(
            canvas
                .starts_with("Student,ID,SIS User ID,SIS Login ID,Section,\"Velha; prova (12)\"\n"),
            "{canvas}"
        );
        assert!(
            canvas.contains("\n\"Lima;=cmd|' /C calc'!A0\",7,,lima,,1\n"),
            "{canvas}"
        );
        assert!(canvas.contains("\n\"Tab\t=1+1\",8,,tab,,2\n"), "{canvas}");
        assert!(canvas.contains("\n\"O\"\"Neil\",9,,quote,,3\n"), "{canvas}");
        assert!(
            imports
                .moodle
                .starts_with("Username,ID number,Full name,\"velha;1\",Feedback\n")
        );
        assert!(
            imports
                .moodle
                .contains("\nlima,7,\"Lima;=cmd|' /C calc'!A0\",1,"),
            "{}",
            imports.moodle
        );
        // Every line, split at `;` outside quotes as such a spreadsheet
        // does, is one cell: no cell starts a formula.
        for text in [&canvas, &imports.moodle] {
            for line in text.lines() {
                let mut quoted = false;
                for c in line.chars() {
                    match c {
                        '"' => quoted = !quoted,
                        ';' | '\t' => assert!(quoted, "{line:?}"),
                        _ => {}
                    }
                }
            }
        }
    }

    #[test]
    fn canvas_s_column_is_an_existing_assignment_s_title_and_id() {
        for good in ["Jogo da velha (4567)", " Exam 1 (12) ", "A (b) (3)"] {
            assert_eq!(
                CanvasColumn::parse(good).map(|c| c.as_str().to_owned()),
                Ok(good.trim().to_owned())
            );
        }
        for bad in [
            "velha",
            "Jogo da velha",
            "(4567)",
            " (4567)",
            "Velha (45a)",
            "Velha ()",
            "Velha(4567)",
            "Velha (4567",
            "Ve\nlha (1)",
        ] {
            let error = CanvasColumn::parse(bad).unwrap_err();
            assert!(error.contains("Title (id)"), "{bad:?}: {error}");
        }
    }

    #[test]
    fn the_moodle_version_chooses_how_feedback_files_are_named() {
        for (version, form) in [
            ("4.1", MoodleZip::Folders),
            ("4.1+", MoodleZip::Folders),
            ("4.5.2", MoodleZip::Folders),
            ("5.0", MoodleZip::Folders),
            ("4.0", MoodleZip::Flat),
            ("3.11", MoodleZip::Flat),
            ("3.9.1", MoodleZip::Flat),
        ] {
            assert_eq!(MoodleZip::parse(version), Ok(form), "{version}");
        }
        for bad in ["4", "four", "", "1.9", "4.x"] {
            assert!(MoodleZip::parse(bad).is_err(), "{bad:?}");
        }
    }

    /// Each entry of the feedback archive is exactly the form its Moodle
    /// reads, whatever the roster's names hold: never `/` beyond the one
    /// folder, `..`, `\`, NUL, a leading `/` or dot.
    #[test]
    fn feedback_archive_entries_are_made_only_of_safe_names() {
        let out = tempfile::tempdir().unwrap();
        let names = [
            "Gil/../../../x",
            "/etc/passwd",
            "..\\..\\win",
            "Nul\0l",
            "Ana_Souza",
            "..",
            "Ünïcødé Nâme",
        ];
        let mut students = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let submission = format!("s{i}");
            let dir = super::super::report::student_dir(out.path(), &submission);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("feedback.html"), format!("page {i}")).unwrap();
            let mut s = student(&submission, &i.to_string(), &submission, name);
            s.participant = Some(format!("{}", 500 + i));
            students.push(s);
        }
        // No participant id of digits, no grade, a grading not finished:
        // left out.
        let mut bad = student("s9", "9", "s9", "Eve");
        bad.participant = Some("../1".into());
        students.push(bad);
        for (name, participant) in [("s10", "510"), ("s11", "511")] {
            let mut page = student(name, participant, name, "Page");
            page.participant = Some(participant.into());
            let dir = super::super::report::student_dir(out.path(), name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("feedback.html"), "an old page").unwrap();
            students.push(page);
        }
        let keys: Vec<String> = (0..names.len())
            .map(|i| format!("s{i}"))
            .chain(["s9".to_owned()])
            .collect();
        let mut all = graded(&keys.iter().map(|k| (k.as_str(), 1.0)).collect::<Vec<_>>());
        unfinished(&mut all, "s11");
        for form in [MoodleZip::Folders, MoodleZip::Flat] {
            let (bytes, left_out) = moodle_feedback_zip(&students, &all, out.path(), form).unwrap();
            assert_eq!(left_out, ["s9", "s10", "s11"]);
            let archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
            let entries: Vec<&str> = archive.file_names().collect();
            assert_eq!(entries.len(), names.len());
            let suffix = match form {
                MoodleZip::Folders => "_assignsubmission_file/feedback.html",
                MoodleZip::Flat => "_assignsubmission_file_feedback.html",
            };
            for (i, entry) in entries.iter().enumerate() {
                let head = entry
                    .strip_suffix(suffix)
                    .unwrap_or_else(|| panic!("{entry:?}"));
                let (name, id) = head.rsplit_once('_').unwrap();
                assert_eq!(id, (500 + i).to_string(), "{entry:?}");
                assert!(
                    !name.is_empty() && !name.starts_with(['.', ' ']),
                    "{entry:?}"
                );
                assert!(
                    !name.contains(['/', '\\', '\0', '_']) && !name.contains(".."),
                    "{entry:?}"
                );
            }
            assert_eq!(entries[0], format!("Gil.x_500{suffix}"));
            assert_eq!(entries[4], format!("Ana Souza_504{suffix}"));
            assert_eq!(entries[5], format!("Participant_505{suffix}"));
            assert_eq!(entries[6], format!("Ünïcødé Nâme_506{suffix}"));
        }
    }
}
