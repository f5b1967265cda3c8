//! Results and reports.
//!
//! A submission's results are written as `<out>/students/<name>/results.json` in
//! Gradescope's format (`score`, `tests[]` with `name`, `score`,
//! `max_score`, `status`, `output`, `visibility`, plus `extra_data` with the
//! level and the verdict). Every other report (`grades.csv`, `junit.xml`,
//! `report.html`, the terminal table) is computed from those files alone, so
//! `boardkit grade merge` of shards writes exactly what one run writes.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use boardkit::level::Level;

/// Text shown safely in every report (its own module, which the
/// similarity report uses too).
pub(crate) use super::shown::{csv_field, escape, printable};
/// A case's verdict: the library's one judge's ([`boardkit::judge`]).
pub(crate) use boardkit::judge::Verdict;
/// Clipping as the judge clips.
pub(crate) use boardkit::judge::clip;

impl Results {
    /// Gives the submission its notes on its code, and the style points
    /// they leave of `style_points` (`--style-points`); `held`, the notes
    /// are the instructor's until released (`--style-notes hidden`).
    pub(crate) fn note(
        &mut self,
        notes: Vec<super::notes::Note>,
        style_points: Option<u32>,
        held: bool,
    ) {
        if let Some(max) = style_points {
            let style = Style {
                score: super::notes::style_points(&notes, max),
                max_score: f64::from(max),
            };
            self.score += style.score;
            self.style = Some(style);
        }
        self.notes = notes;
        self.notes_held = held;
    }

    /// Keeps at most `max` bytes of output in all the cases' `output` and
    /// `detail`, each case at least an even share of what is left, and
    /// says in each clipped one how much was cut.
    pub(crate) fn bound_outputs(&mut self, max: usize) {
        let total: usize = self
            .tests
            .iter()
            .map(|t| t.output.len() + t.detail.as_ref().map_or(0, String::len))
            .sum();
        if total <= max {
            return;
        }
        let mut left = max;
        let mut by_size: Vec<usize> = (0..self.tests.len()).collect();
        // The smallest first: each takes what it needs of its share, and
        // what it leaves goes to the larger ones.
        by_size.sort_by_key(|&i| {
            self.tests[i].output.len() + self.tests[i].detail.as_ref().map_or(0, String::len)
        });
        for (done, i) in by_size.into_iter().enumerate() {
            let share = left / (self.tests.len() - done);
            let test = &mut self.tests[i];
            let output = share / if test.detail.is_some() { 2 } else { 1 };
            test.output = clip(&test.output, output);
            let mut used = test.output.len();
            if let Some(detail) = &mut test.detail {
                *detail = clip(detail, share - used.min(share));
                used += detail.len();
            }
            left = left.saturating_sub(used);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Extra {
    /// The level whose comparison the case uses (and which it counts in,
    /// unless it is a robustness case).
    pub level: Level,
    pub verdict: Verdict,
    /// A case of the robustness part (the kit's own rules, or a package's
    /// cases marked `robustness`): counted in the
    /// score, never in a level.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub robustness: bool,
}

/// How reports name the robustness part.
pub(crate) const ROBUSTNESS_TITLE: &str =
    boardkit::catalogue::message("robustness (in the score, in no level)");

/// One case in Gradescope's format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TestResult {
    pub name: String,
    pub score: f64,
    pub max_score: f64,
    /// `passed` or `failed`.
    pub status: String,
    pub output: String,
    /// `visible`, or `after_published` for hidden cases.
    pub visibility: String,
    pub extra_data: Extra,
    /// A hidden case's full output (input line, difference), for the
    /// instructor's report only: saved apart from `results.json`, which a
    /// student may receive.
    #[serde(skip)]
    pub detail: Option<String>,
}

/// A submission's results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Results {
    pub score: f64,
    pub tests: Vec<TestResult>,
    /// Not final (a build that timed out): graded again by the next run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// Why the submission could not be read (an archive refused or empty,
    /// a repository not cloned): its 0 is no grade of the code, and it is
    /// left out of the LMS files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
    /// Graded with `--no-sandbox`: without isolation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsandboxed: bool,
    /// What was graded: the student's files, the kit and the options, hashed.
    /// A run reuses these results only while it is the same.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fingerprint: String,
    /// Notes on a crate's code ([`super::notes`]): the student's to read,
    /// unless held until released (`--style-notes hidden`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<super::notes::Note>,
    /// The notes are the instructor's alone until released: kept in
    /// `instructor/<name>/notes.json`, not here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub notes_held: bool,
    /// `--style-points`: the notes' points, counted in `score` and
    /// `max_score`, never in a level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Style>,
    /// `--test-points`: the student's own tests, judged by the bugs they
    /// catch; counted in `score` and `max_score`, never in a level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_tests: Option<OwnTests>,
    /// A repository's graded commit, and its committer date (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted_at: Option<String>,
    /// With `--deadline`: the days started past it, and the points the
    /// lateness cost (taken from `score`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_days: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<f64>,
}

impl Results {
    /// Records the graded commit and, with a deadline, its lateness: the
    /// penalty, a share of the score earned, comes off `score`.
    pub(crate) fn late(
        &mut self,
        name: &str,
        commit: &super::git::Commit,
        deadlines: Option<&super::deadline::Deadlines>,
    ) {
        self.commit = Some(commit.hash.clone());
        self.submitted_at = Some(commit.date.clone());
        let Some(deadlines) = deadlines else {
            return;
        };
        let late = deadlines.lateness(name, commit.seconds);
        let penalty = (self.score * late.fraction * 100.0).round() / 100.0;
        self.late_days = Some(late.days);
        self.penalty = Some(penalty);
        self.score -= penalty;
    }
}

/// Points for the student's own tests (`--test-points`), and their verdict.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub(crate) struct OwnTests {
    pub score: f64,
    pub max_score: f64,
    pub verdict: crate::grader::own_tests::verdict::Verdict,
}

impl Results {
    /// Gives the submission its own tests' verdict, worth up to `points`.
    pub(crate) fn own_tests(
        &mut self,
        verdict: crate::grader::own_tests::verdict::Verdict,
        points: u32,
    ) {
        let score = (verdict.points(f64::from(points)) * 100.0).round() / 100.0;
        self.score += score;
        self.own_tests = Some(OwnTests {
            score,
            max_score: f64::from(points),
            verdict,
        });
    }
}

/// Points for the code's style (`--style-points`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct Style {
    pub score: f64,
    pub max_score: f64,
}

impl Results {
    /// Every case's points, and the style's.
    pub(crate) fn max_score(&self) -> f64 {
        self.tests.iter().map(|t| t.max_score).sum::<f64>()
            + self.style.map_or(0.0, |s| s.max_score)
            + self.own_tests.as_ref().map_or(0.0, |t| t.max_score)
    }

    /// The results of `tests`, scored (the style's points added), with
    /// nothing else.
    pub(crate) fn of(tests: Vec<TestResult>, style: Option<Style>) -> Results {
        Results {
            score: tests.iter().map(|t| t.score).sum::<f64>() + style.map_or(0.0, |s| s.score),
            tests,
            incomplete: false,
            unread: None,
            unsandboxed: false,
            fingerprint: String::new(),
            notes: Vec::new(),
            notes_held: false,
            style,
            own_tests: None,
            commit: None,
            submitted_at: None,
            late_days: None,
            penalty: None,
        }
    }

    /// The robustness part's points and its most, when it has cases.
    pub(crate) fn robustness(&self) -> Option<(f64, f64)> {
        let part: Vec<&TestResult> = self
            .tests
            .iter()
            .filter(|t| t.extra_data.robustness)
            .collect();
        (!part.is_empty()).then(|| {
            (
                part.iter().map(|t| t.score).sum(),
                part.iter().map(|t| t.max_score).sum(),
            )
        })
    }

    /// Points per level (the robustness part is in none).
    pub(crate) fn by_level(&self) -> BTreeMap<Level, (f64, f64, bool)> {
        let mut levels: BTreeMap<Level, (f64, f64, bool)> = BTreeMap::new();
        for t in self.tests.iter().filter(|t| !t.extra_data.robustness) {
            let entry = levels.entry(t.extra_data.level).or_insert((0.0, 0.0, true));
            entry.0 += t.score;
            entry.1 += t.max_score;
            entry.2 &= t.extra_data.verdict == Verdict::Passed;
        }
        levels
    }

    /// [`Results::level_reached`] as the reports write it: `none` when none.
    pub(crate) fn level_name(&self) -> String {
        self.level_reached()
            .map_or("none".to_owned(), |l| l.to_string())
    }

    /// The highest level whose cases, and those of every level below, all
    /// passed; `None` when the lowest graded level did not.
    pub(crate) fn level_reached(&self) -> Option<Level> {
        let mut reached = None;
        for (level, (_, _, all_passed)) in self.by_level() {
            if !all_passed {
                break;
            }
            reached = Some(level);
        }
        reached
    }
}

/// What a student's feedback may say of the hidden cases.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RevealHidden {
    /// How many failed, per level (the default).
    #[default]
    Counts,
    /// Their names too (never their inputs).
    Names,
}

/// How a grading run was set up: the header of its reports
/// (`<out>/run.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunInfo {
    /// The game's id and title.
    pub game: String,
    pub title: String,
    pub kit_version: String,
    /// When the run ended, in UTC.
    pub graded_at: String,
    /// `Rust crates`, or the command each program ran with.
    pub submissions: String,
    pub sandboxed: bool,
    /// Each case's limits, and a build's.
    pub limits: String,
    /// Each case's CPU limit, derived from the reference's own time on it.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub case_cpu: std::collections::BTreeMap<String, CaseCpu>,
    /// The submissions this run was given (every shard's, once merged):
    /// the others in the folder were graded by an earlier run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub latest: Vec<String>,
    /// A digest of what every grade of the run depends on besides the
    /// submissions: the kit, the game, the mode and the options that change
    /// a verdict or a score. Shards merge only when theirs are equal.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub grading: String,
    /// `K/N` for a shard's run; none for a whole class's (or a merge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// What each student's feedback says of hidden cases.
    #[serde(default)]
    pub reveal_hidden: RevealHidden,
    /// The class's deadline (RFC 3339) when one was given: grades.csv then
    /// has the commit columns even when no submission was graded at one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// How the class is compared for similarity.
    #[serde(default)]
    pub similarity: super::similarity::Options,
    /// The LMS download the run graded (`moodle: dl.zip`): its LMS files
    /// hold its students alone, after a merge or a removal too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub download: Option<String>,
    /// The locale the students' pages speak: a package's statement's
    /// (`fr`, `pt-BR`); none (English) for the built-in games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// The levels' names in that locale, by id, where a package names
    /// them (`intermediaire` is `intermédiaire`): what the pages say.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub level_names: std::collections::BTreeMap<String, String>,
}

/// One case's time limits, as `run.json` reports them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct CaseCpu {
    /// The reference's CPU time on the case, in milliseconds, rounded up
    /// to 10.
    pub reference_ms: f64,
    /// The CPU time a submission may use, in seconds.
    pub limit_s: u64,
    /// The wall-clock backstop, in seconds.
    pub wall_s: u64,
}

impl RunInfo {
    /// Whether `name` was graded by an earlier run and not given to this one.
    pub(crate) fn is_stale(&self, name: &str) -> bool {
        !self.latest.is_empty() && !self.latest.iter().any(|n| n == name)
    }
}

/// The file of a run's [`RunInfo`] in its output folder.
pub(crate) const RUN_INFO: &str = "run.json";

/// A submission's hidden cases' details, in its instructor's folder.
const HIDDEN_DETAILS: &str = "hidden.json";
/// A submission's notes held until released, in its instructor's folder.
const HELD_NOTES: &str = "notes.json";
/// The files of a submission that are the instructor's alone: never in
/// `students/<name>/`, which is handed to the student whole.
const INSTRUCTOR_FILES: [&str; 2] = [HIDDEN_DETAILS, HELD_NOTES];

/// Reads `<dir>/run.json`, when there is one.
pub(crate) fn read_run_info(dir: &Path) -> Option<RunInfo> {
    let text = std::fs::read_to_string(dir.join(RUN_INFO)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes a submission's results under `out`: `results.json` in its
/// folder, its hidden cases' details (and notes held) in its instructor's
/// folder, each written whole then renamed.
pub(crate) fn save_results(out: &Path, name: &str, results: &Results) -> std::io::Result<()> {
    let dir = student_dir(out, name);
    let instructor = instructor_dir(out, name);
    std::fs::create_dir_all(&dir)?;
    std::fs::create_dir_all(&instructor)?;
    // An older kit's run kept them in the student's folder.
    for file in INSTRUCTOR_FILES {
        let _ = std::fs::remove_file(dir.join(file));
    }
    let details: BTreeMap<&str, &str> = results
        .tests
        .iter()
        .filter_map(|t| Some((t.name.as_str(), t.detail.as_deref()?)))
        .collect();
    let write = |dir: &Path, file: &str, json: String| {
        let temp = dir.join(format!("{file}.tmp"));
        std::fs::write(&temp, json)?;
        std::fs::rename(&temp, dir.join(file))
    };
    write(
        &instructor,
        HIDDEN_DETAILS,
        serde_json::to_string_pretty(&details).map_err(std::io::Error::other)?,
    )?;
    let mut shown = results.clone();
    if results.notes_held {
        write(
            &instructor,
            HELD_NOTES,
            serde_json::to_string_pretty(&results.notes).map_err(std::io::Error::other)?,
        )?;
        shown.notes.clear();
    } else {
        let _ = std::fs::remove_file(instructor.join(HELD_NOTES));
    }
    write(
        &dir,
        "results.json",
        serde_json::to_string_pretty(&shown).map_err(std::io::Error::other)?,
    )
}

/// The folder of an output folder that holds one folder per submission, so
/// that no submission's name can be a report's.
pub(crate) const STUDENTS: &str = "students";

/// The download's names the roster did not map (`--from`), one a line,
/// each ending `graded as <name>`.
pub(crate) const UNMAPPED: &str = "unmapped.txt";
/// The LMS's files (`--roster`).
pub(crate) const CANVAS_CSV: &str = "canvas.csv";
pub(crate) const MOODLE_CSV: &str = "moodle.csv";
pub(crate) const MOODLE_FEEDBACK: &str = "moodle-feedback.zip";

/// Every file a run may write for the class in an output folder, beside
/// `students/` and `instructor/`: the one list that `grade` (and its
/// `--fresh`), `grade merge` and `grade remove` read. Each of them
/// deletes them all before writing what it writes, so that none is left
/// describing an earlier run's grades (a long test grades with every
/// option that writes one, and checks that this list names each file).
pub(crate) const CLASS_FILES: [&str; 9] = [
    RUN_INFO,
    "grades.csv",
    "junit.xml",
    "report.html",
    "similarity.csv",
    UNMAPPED,
    CANVAS_CSV,
    MOODLE_CSV,
    MOODLE_FEEDBACK,
];

/// Deletes every class file of `out` (those a run writes again are then
/// written by it); returns those that were there.
pub(crate) fn forget_class_files(out: &Path) -> std::io::Result<Vec<&'static str>> {
    let mut gone = Vec::new();
    for file in CLASS_FILES {
        match std::fs::remove_file(out.join(file)) {
            Ok(()) => gone.push(file),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(gone)
}

/// The lines of `<dir>/unmapped.txt`, if any.
pub(crate) fn read_unmapped(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join(UNMAPPED))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Writes `lines` as `<dir>/unmapped.txt`, or nothing when there are none.
pub(crate) fn write_unmapped(dir: &Path, lines: &[String]) -> std::io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    std::fs::write(dir.join(UNMAPPED), lines.join("\n") + "\n")
}

/// The folder of an output folder that holds what is the instructor's
/// alone of each submission (hidden cases' details, notes held), apart from
/// `students/`, whose folders are handed to students.
pub(crate) const INSTRUCTOR: &str = "instructor";

/// The folder of submission `name`'s results in the output folder `out`:
/// the student's to receive.
pub(crate) fn student_dir(out: &Path, name: &str) -> std::path::PathBuf {
    out.join(STUDENTS).join(name)
}

/// The folder of what is the instructor's alone of submission `name`.
pub(crate) fn instructor_dir(out: &Path, name: &str) -> std::path::PathBuf {
    out.join(INSTRUCTOR).join(name)
}

/// An instructor's file of a submission: in its instructor's folder, or
/// where an older kit kept it (the student's folder).
fn instructor_file(out: &Path, name: &str, file: &str) -> Option<String> {
    std::fs::read_to_string(instructor_dir(out, name).join(file))
        .or_else(|_| std::fs::read_to_string(student_dir(out, name).join(file)))
        .ok()
}

/// Moves the instructor's files an older kit kept in `students/<name>/`
/// into `instructor/<name>/`, so that no student's folder holds them.
fn move_instructor_files(out: &Path) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(out.join(STUDENTS)) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        for file in INSTRUCTOR_FILES {
            let old = entry.path().join(file);
            if old.is_file() {
                let dir = instructor_dir(out, &name);
                std::fs::create_dir_all(&dir)?;
                std::fs::rename(&old, dir.join(file))?;
            }
        }
    }
    Ok(())
}

/// Reads every `<dir>/students/<name>/results.json`.
pub(crate) fn read_results(dir: &Path) -> std::io::Result<BTreeMap<String, Results>> {
    let mut all = BTreeMap::new();
    let out = dir;
    let dir = dir.join(STUDENTS);
    if !dir.is_dir() {
        return Ok(all);
    }
    for entry in std::fs::read_dir(&dir)? {
        let entry = entry?;
        let path = entry.path().join("results.json");
        if path.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path)?;
            let mut results: Results = serde_json::from_str(&text)
                .map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))?;
            let details: BTreeMap<String, String> = instructor_file(out, &name, HIDDEN_DETAILS)
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
            for test in &mut results.tests {
                test.detail = details.get(&test.name).cloned();
            }
            if results.notes_held {
                results.notes = instructor_file(out, &name, HELD_NOTES)
                    .and_then(|text| serde_json::from_str(&text).ok())
                    .unwrap_or_default();
            }
            all.insert(name, results);
        }
    }
    Ok(all)
}

fn levels_of(all: &BTreeMap<String, Results>) -> Vec<Level> {
    let mut levels: Vec<Level> = all
        .values()
        .flat_map(|r| r.tests.iter().filter(|t| !t.extra_data.robustness))
        .map(|t| t.extra_data.level)
        .collect();
    levels.sort();
    levels.dedup();
    levels
}

/// Points as every CSV writes them: an integer as one, else two decimals.
pub(crate) fn points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// `grades.csv`, `junit.xml` and `report.html` in `dir`, from `all` (and
/// `run.json` from `run`).
pub(crate) fn write_reports(
    dir: &Path,
    all: &BTreeMap<String, Results>,
    run: Option<&RunInfo>,
    similarity: Option<&super::similarity::Similarity>,
) -> std::io::Result<()> {
    move_instructor_files(dir)?;
    if let Some(run) = run {
        let json = serde_json::to_string_pretty(run).map_err(std::io::Error::other)?;
        std::fs::write(dir.join(RUN_INFO), json)?;
    }
    let deadline = run.is_some_and(|run| run.deadline.is_some());
    std::fs::write(dir.join("grades.csv"), grades_csv(all, deadline))?;
    std::fs::write(dir.join("junit.xml"), junit_xml(all)?)?;
    let mut html = report_html(all, run);
    if let Some(similarity) = similarity {
        std::fs::write(dir.join("similarity.csv"), similarity.csv())?;
        let end = html.rfind("</body>").unwrap_or(html.len());
        html.insert_str(end, &similarity.html());
    }
    std::fs::write(dir.join("report.html"), html)?;
    Ok(())
}

/// The class's grades; with `deadline`, the commit and lateness columns
/// whatever was graded (empty cells: not graded at a commit).
pub(crate) fn grades_csv(all: &BTreeMap<String, Results>, deadline: bool) -> String {
    let levels = levels_of(all);
    let mut out = String::from("submission");
    for level in &levels {
        out.push_str(&format!(",{level}"));
    }
    let robustness = all.values().any(|r| r.robustness().is_some());
    if robustness {
        out.push_str(",robustness");
    }
    let style = all.values().any(|r| r.style.is_some());
    if style {
        out.push_str(",style");
    }
    let own_tests = all.values().any(|r| r.own_tests.is_some());
    if own_tests {
        out.push_str(",tests");
    }
    // A class handed in as repositories: the commit graded and its date;
    // with a deadline, the lateness and what it cost (`score` is final).
    let commits = deadline || all.values().any(|r| r.commit.is_some());
    let lateness = deadline || all.values().any(|r| r.late_days.is_some());
    if commits {
        out.push_str(",commit,submitted_at");
    }
    if lateness {
        out.push_str(",late_days,penalty");
    }
    out.push_str(",score,max_score,level\n");
    for (name, results) in all {
        let by_level = results.by_level();
        out.push_str(&csv_field(name));
        for level in &levels {
            out.push_str(&format!(
                ",{}",
                points(by_level.get(level).map_or(0.0, |l| l.0))
            ));
        }
        if robustness {
            out.push_str(&format!(
                ",{}",
                points(results.robustness().map_or(0.0, |r| r.0))
            ));
        }
        if style {
            out.push_str(&format!(
                ",{}",
                points(results.style.map_or(0.0, |s| s.score))
            ));
        }
        if own_tests {
            let score = results.own_tests.as_ref().map_or(0.0, |t| t.score);
            out.push_str(&format!(",{}", points(score)));
        }
        if commits {
            out.push_str(&format!(
                ",{},{}",
                csv_field(results.commit.as_deref().unwrap_or_default()),
                csv_field(results.submitted_at.as_deref().unwrap_or_default())
            ));
        }
        if lateness {
            out.push_str(&format!(
                ",{},{}",
                results.late_days.map(|d| d.to_string()).unwrap_or_default(),
                results.penalty.map(points).unwrap_or_default()
            ));
        }
        let reached = results.level_name();
        out.push_str(&format!(
            ",{},{},{reached}\n",
            points(results.score),
            points(results.max_score())
        ));
    }
    out
}

pub(crate) fn junit_xml(all: &BTreeMap<String, Results>) -> std::io::Result<String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("boardkit grade");
    for (name, results) in all {
        let mut suite = TestSuite::new(name.as_str());
        for t in &results.tests {
            let status = if t.extra_data.verdict == Verdict::Passed {
                TestCaseStatus::success()
            } else {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_type(t.extra_data.verdict.name());
                s.set_description(printable(&t.output));
                s
            };
            suite.add_test_case(TestCase::new(t.name.as_str(), status));
        }
        report.add_test_suite(suite);
    }
    report.to_string().map_err(std::io::Error::other)
}

/// The class report: a header, the class overview (charts of the levels
/// reached and the scores, each case's pass rate worst first), then one
/// section per submission, failures open and in level order.
pub(crate) fn report_html(all: &BTreeMap<String, Results>, run: Option<&RunInfo>) -> String {
    let levels = levels_of(all);
    let title = run.map_or("boardkit grades".to_owned(), |r| {
        format!("{}: class report", r.title)
    });
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title>\n<style>\n{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    if let Some(run) = run {
        out.push_str(&format!(
            "<p class=\"meta\">Graded {} with boardkit {} &middot; {} {} &middot; limits: {}</p>\n",
            escape(&run.graded_at),
            escape(&run.kit_version),
            escape(&run.submissions),
            if run.sandboxed {
                "in the sandbox (bubblewrap)"
            } else {
                "<strong>without the sandbox</strong>"
            },
            escape(&run.limits)
        ));
    }
    if all.values().any(|r| r.unsandboxed) {
        out.push_str(
            "<p class=\"warning\"><strong>Graded with --no-sandbox:</strong> student code ran without isolation. \
             It could read and change anything the grader's user can, these reports included.</p>\n",
        );
    }
    out.push_str(&overview(all, &levels));
    let stale = |name: &str| run.is_some_and(|r| r.is_stale(name));
    out.push_str(&students_table(all, &levels, &stale));
    for (name, results) in all {
        out.push_str(&student_section(name, results, stale(name)));
    }
    out.push_str("</body></html>\n");
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left}\
th{background:#f6f8fa}.num{text-align:right;font-variant-numeric:tabular-nums}\
.passed{color:#1a7f37}.failed{color:#cf222e}.warning{color:#cf222e;border:1px solid #cf222e;padding:.5em}\
.meta{color:#555}.charts{display:flex;flex-wrap:wrap;gap:2em}figure{margin:0}figcaption{font-weight:600;margin-bottom:.3em}\
.bar{display:inline-block;height:.8em;background:#cf222e;vertical-align:middle}\
.barbox{display:inline-block;width:10em;background:#1a7f37;vertical-align:middle;line-height:0}\
pre{background:#f6f8fa;padding:.6em;overflow:auto;max-height:30em;white-space:pre-wrap}\
details{margin:.25em 0}summary{cursor:pointer}h2{border-top:1px solid #ddd;padding-top:.6em;margin-top:1.6em}\
.level{margin:.6em 0 .2em;font-weight:600}\
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}.pair h3{margin:.3em 0}\n";

/// A bar chart as inline SVG: one labelled bar per `(label, count)`.
fn bar_chart(caption: &str, bars: &[(String, usize)], colour: &str) -> String {
    // Bars as wide as their longest label.
    let longest = bars.iter().map(|b| b.0.chars().count()).max().unwrap_or(0);
    let (width, height, top, bottom) = ((longest * 7 + 6).max(40), 120usize, 18usize, 34usize);
    let max = bars.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let total_width = bars.len() * (width + 8) + 8;
    let mut svg = format!(
        "<figure><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" \
         aria-label=\"{}\" width=\"{total_width}\" height=\"{}\" viewBox=\"0 0 {total_width} {}\">\n",
        escape(caption),
        escape(caption),
        top + height + bottom,
        top + height + bottom
    );
    svg.push_str(&format!(
        "<line x1=\"4\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#999\"/>\n",
        top + height,
        total_width - 4
    ));
    for (i, (label, count)) in bars.iter().enumerate() {
        let x = 8 + i * (width + 8);
        let h = height * count / max;
        let y = top + height - h;
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{h}\" fill=\"{colour}\"><title>{}: {count}</title></rect>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"12\">{count}</text>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#444\">{}</text>\n",
            escape(label),
            x + width / 2,
            y.saturating_sub(4).max(12),
            x + width / 2,
            top + height + 16,
            escape(label)
        ));
    }
    svg.push_str("</svg></figure>\n");
    svg
}

/// The class overview: how many reached each level, the scores' spread,
/// and each case's pass rate across the class, worst first.
fn overview(all: &BTreeMap<String, Results>, levels: &[Level]) -> String {
    let count = all.len();
    let mut out = format!(
        "<h2 id=\"overview\">Class overview</h2>\n<p>{count} submission{}",
        if count == 1 { "" } else { "s" }
    );
    if count > 0 {
        let mean: f64 = all
            .values()
            .map(|r| r.score / r.max_score().max(1.0))
            .sum::<f64>()
            / count as f64;
        out.push_str(&format!(", mean score {:.0}%", mean * 100.0));
    }
    out.push_str(".</p>\n<div class=\"charts\">\n");
    let mut reached: Vec<(String, usize)> = vec![("none".to_owned(), 0)];
    reached.extend(levels.iter().map(|l| (l.name().to_owned(), 0)));
    for results in all.values() {
        let at = results
            .level_reached()
            .and_then(|l| levels.iter().position(|&x| x == l))
            .map_or(0, |i| i + 1);
        reached[at].1 += 1;
    }
    out.push_str(&bar_chart("Highest level reached", &reached, "#1f6feb"));
    let mut scores: Vec<(String, usize)> = (0..10)
        .map(|i| (format!("{}-{}", i * 10, i * 10 + 10), 0))
        .collect();
    for results in all.values() {
        let fraction = results.score / results.max_score().max(1.0);
        let bin = ((fraction * 10.0).floor() as usize).min(9);
        scores[bin].1 += 1;
    }
    out.push_str(&bar_chart("Score (% of the maximum)", &scores, "#8250df"));
    out.push_str("</div>\n");

    // Each case's pass rate, worst first: what the class did not learn.
    let mut cases: BTreeMap<(Level, &str), (usize, usize)> = BTreeMap::new();
    for results in all.values() {
        for t in &results.tests {
            let entry = cases
                .entry((t.extra_data.level, t.name.as_str()))
                .or_default();
            entry.1 += 1;
            if t.extra_data.verdict == Verdict::Passed {
                entry.0 += 1;
            }
        }
    }
    let mut rates: Vec<_> = cases.into_iter().collect();
    rates.sort_by(|a, b| {
        let rate = |x: &(usize, usize)| x.0 as f64 / x.1.max(1) as f64;
        rate(&a.1).total_cmp(&rate(&b.1)).then(a.0.cmp(&b.0))
    });
    out.push_str(
        "<h3>Pass rate per case, worst first</h3>\n<table class=\"rates\"><tr><th>case</th><th>level</th>\
         <th>passed</th><th class=\"num\">rate</th></tr>\n",
    );
    for ((level, name), (passed, total)) in rates {
        let percent = 100 * passed / total.max(1);
        out.push_str(&format!(
            "<tr><td>{}</td><td>{level}</td><td><span class=\"barbox\" title=\"{passed} of {total}\">\
             <span class=\"bar\" style=\"width:{}%\"></span></span></td><td class=\"num\">{passed} / {total} ({percent}%)</td></tr>\n",
            escape(name),
            100 - percent
        ));
    }
    out.push_str("</table>\n");
    out
}

fn students_table(
    all: &BTreeMap<String, Results>,
    levels: &[Level],
    stale: &dyn Fn(&str) -> bool,
) -> String {
    let mut out =
        String::from("<h2 id=\"students\">Submissions</h2>\n<table><tr><th>submission</th>");
    for level in levels {
        out.push_str(&format!("<th>{level}</th>"));
    }
    let own_tests = all.values().any(|r| r.own_tests.is_some());
    if own_tests {
        out.push_str("<th>own tests</th>");
    }
    out.push_str("<th>notes</th><th>score</th><th>level reached</th></tr>\n");
    for (name, results) in all {
        let by_level = results.by_level();
        out.push_str(&format!(
            "<tr><td><a href=\"#s-{0}\">{0}</a>{1}</td>",
            escape(name),
            if stale(name) { STALE } else { "" }
        ));
        for level in levels {
            let (got, max, _) = by_level.get(level).copied().unwrap_or((0.0, 0.0, false));
            out.push_str(&format!(
                "<td class=\"num\">{} / {}</td>",
                points(got),
                points(max)
            ));
        }
        if own_tests {
            let cell = results.own_tests.as_ref().map_or_else(String::new, |t| {
                let (caught, all) = t.verdict.caught();
                format!(
                    "{} / {} ({caught} of {all} bugs)",
                    points(t.score),
                    points(t.max_score)
                )
            });
            out.push_str(&format!("<td class=\"num\">{cell}</td>"));
        }
        let reached = results.level_name();
        let style = results
            .style
            .map(|s| format!(" ({} / {})", points(s.score), points(s.max_score)))
            .unwrap_or_default();
        out.push_str(&format!(
            "<td class=\"num\">{}{style}</td><td class=\"num\">{} / {}</td><td>{reached}</td></tr>\n",
            results.notes.len(),
            points(results.score),
            points(results.max_score())
        ));
    }
    out.push_str("</table>\n");
    out
}

/// One submission: per level, its failures open with what led to them,
/// its passed cases folded.
fn student_section(name: &str, results: &Results, stale: bool) -> String {
    let reached = results.level_name();
    // Folded under its summary line: a class of a hundred reads as a list.
    let mut out = format!(
        "<details class=\"student\"><summary><h2 id=\"s-{0}\">{0} <small>{1} / {2}, level reached: {reached}</small>{3}</h2></summary>\n",
        escape(name),
        points(results.score),
        points(results.max_score()),
        if stale { STALE } else { "" }
    );
    if !results.notes.is_empty() {
        out.push_str(&notes_section(results));
    }
    if let Some(own) = &results.own_tests {
        out.push_str(&own_tests_section(own));
    }
    for (part, got, max, tests) in parts_of(results) {
        out.push_str(&part_section(&part, got, max, tests));
    }
    out.push_str("</details>\n");
    out
}

/// A submission's own tests: the bugs they catch (public ones by what they
/// break, hidden ones counted), and each invalid test and why.
fn own_tests_section(own: &OwnTests) -> String {
    let verdict = &own.verdict;
    let mut out = format!(
        "<details open><summary>own tests: {} / {}</summary><ul>\n<li>{}</li>\n",
        points(own.score),
        points(own.max_score),
        escape(&verdict.line())
    );
    for (test, why) in &verdict.invalid {
        out.push_str(&format!(
            "<li>invalid: <code>{}</code>: {}</li>\n",
            escape(test),
            escape(why)
        ));
    }
    out.push_str("</ul></details>\n");
    out
}

/// A submission's notes on its code, grouped by kind.
fn notes_section(results: &Results) -> String {
    let mut out = String::new();
    let held = if results.notes_held {
        " (held from the student until released)"
    } else {
        ""
    };
    // Grouped by kind, as a teacher reads them: one habit, its places.
    let mut kinds: BTreeMap<&str, Vec<&super::notes::Note>> = BTreeMap::new();
    for note in &results.notes {
        kinds.entry(note.kind.as_str()).or_default().push(note);
    }
    out.push_str(&format!(
        "<details open><summary>{} notes on the code, {} kinds{held}</summary><ul>\n",
        results.notes.len(),
        kinds.len()
    ));
    for (kind, notes) in &kinds {
        let name = match notes.iter().find_map(|n| n.url.as_deref()) {
            Some(url) => format!(
                "<a href=\"{}\"><code>{}</code></a>",
                escape(url),
                escape(kind)
            ),
            None => format!("<code>{}</code>", escape(kind)),
        };
        out.push_str(&format!("<li>{name} ({})<ul>\n", notes.len()));
        for note in notes {
            out.push_str(&format!(
                "<li><code>{}:{}</code> {}</li>\n",
                escape(&note.file),
                note.line,
                escape(&note.message)
            ));
        }
        out.push_str("</ul></li>\n");
    }
    out.push_str("</ul></details>\n");
    out
}

/// A part of the score: its title, points got and possible, and cases.
type Part<'r> = (String, f64, f64, Vec<&'r TestResult>);

/// Each level's cases, then the robustness part's (in no level).
fn parts_of(results: &Results) -> Vec<Part<'_>> {
    let mut parts: Vec<Part<'_>> = results
        .by_level()
        .into_iter()
        .map(|(level, (got, max, _))| {
            let tests = results
                .tests
                .iter()
                .filter(|t| t.extra_data.level == level && !t.extra_data.robustness)
                .collect();
            (level.to_string(), got, max, tests)
        })
        .collect();
    if let Some((got, max)) = results.robustness() {
        let tests = results
            .tests
            .iter()
            .filter(|t| t.extra_data.robustness)
            .collect();
        parts.push((ROBUSTNESS_TITLE.to_owned(), got, max, tests));
    }
    parts
}

/// One part: its failures open, those of one cause told once, its passed
/// cases folded.
fn part_section(part: &str, got: f64, max: f64, tests: Vec<&TestResult>) -> String {
    let mut out = String::new();
    let (failed, passed): (Vec<&TestResult>, Vec<&TestResult>) = tests
        .into_iter()
        .partition(|t| t.extra_data.verdict != Verdict::Passed);
    out.push_str(&format!(
        "<div class=\"level\">{part}: {} / {}</div>\n",
        points(got),
        points(max)
    ));
    // Failures of one cause (the same unimplemented function, the same
    // panic) are told once, with the names of the cases they broke.
    let mut groups: Vec<(Option<String>, Vec<&TestResult>)> = Vec::new();
    for t in failed {
        let cause = failure_cause(t);
        match groups
            .iter_mut()
            .find(|(c, _)| cause.is_some() && *c == cause)
        {
            Some((_, members)) => members.push(t),
            None => groups.push((cause, vec![t])),
        }
    }
    for (cause, members) in groups {
        let t = members[0];
        let output = match &t.detail {
            Some(detail) => format!("(hidden from students)\n{detail}"),
            None => t.output.clone(),
        };
        let (title, names) = match (cause, members.len()) {
            (Some(cause), n) if n > 1 => (
                format!("{n} cases: {}", escape(&cause)),
                format!(
                    "<p>{}; the first:</p>",
                    members
                        .iter()
                        .map(|m| escape(&m.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            _ => (escape(&t.name), String::new()),
        };
        out.push_str(&format!(
            "<details open><summary><span class=\"failed\">{}</span> {title} ({} / {})</summary>{names}<pre tabindex=\"0\">{}</pre></details>\n",
            t.extra_data.verdict.name(),
            points(members.iter().map(|m| m.score).sum()),
            points(members.iter().map(|m| m.max_score).sum()),
            escape(&output)
        ));
    }
    if !passed.is_empty() {
        out.push_str(&format!(
            "<details><summary><span class=\"passed\">{} passed</span></summary><ul>\n",
            passed.len()
        ));
        for t in passed {
            out.push_str(&format!("<li>{}</li>\n", escape(&t.name)));
        }
        out.push_str("</ul></details>\n");
    }
    out
}

/// The mark of a submission graded by an earlier run, not the latest.
const STALE: &str = " <small class=\"stale\">(graded by an earlier run, not in the latest)</small>";

/// What one failure's cause reads as, when failures share one: a crash's
/// unimplemented function or panic (its place and message), a compile
/// error. `None` for a difference of output, which is each case's own.
fn failure_cause(t: &TestResult) -> Option<String> {
    let text = t.detail.as_deref().unwrap_or(&t.output);
    match t.extra_data.verdict {
        Verdict::CompileError => Some("did not compile".to_owned()),
        Verdict::Crashed => {
            let lines: Vec<&str> = text.lines().collect();
            if let Some(line) = lines
                .iter()
                .find(|l| l.starts_with("not yet implemented: "))
            {
                return Some(format!("crashed: {line}"));
            }
            let i = lines.iter().position(|l| l.contains("panicked at "))?;
            let at = &lines[i][lines[i].find("panicked at ")?..];
            // A program's panic says its message on the next line.
            let message = match at.strip_suffix(':') {
                Some(place) => format!("{place}: {}", lines.get(i + 1).unwrap_or(&"")),
                None => at.to_owned(),
            };
            Some(format!("crashed: {message}"))
        }
        _ => None,
    }
}

/// The parts of the score beside the levels, as grades.csv lists them:
/// robustness, style, own tests; each as (got, max) of a submission,
/// `None` where it has not that part.
type Beside = [(&'static str, fn(&Results) -> Option<(f64, f64)>); 3];

const BESIDE: Beside = [
    ("robustness", Results::robustness),
    ("style", |r| r.style.map(|s| (s.score, s.max_score))),
    ("tests", |r| {
        r.own_tests.as_ref().map(|t| (t.score, t.max_score))
    }),
];

/// The terminal table: each level, then the score's other parts where a
/// submission has them (they add up to the score).
pub(crate) fn table(all: &BTreeMap<String, Results>) -> String {
    let levels = levels_of(all);
    let beside: Vec<_> = BESIDE
        .iter()
        .filter(|(_, part)| all.values().any(|r| part(r).is_some()))
        .collect();
    let width = all
        .keys()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(10)
        .max(10);
    let mut out = format!("{:<width$}", "submission");
    for level in &levels {
        out.push_str(&format!(" {:>11}", level.name()));
    }
    for (name, _) in &beside {
        out.push_str(&format!(" {name:>11}"));
    }
    out.push_str(&format!(" {:>9} {:>11}\n", "score", "level"));
    for (name, results) in all {
        let by_level = results.by_level();
        out.push_str(&format!("{name:<width$}"));
        for level in &levels {
            let (got, max, _) = by_level.get(level).copied().unwrap_or((0.0, 0.0, false));
            out.push_str(&format!(
                " {:>11}",
                format!("{}/{}", points(got), points(max))
            ));
        }
        for (_, part) in &beside {
            let shown = part(results).map_or_else(String::new, |(got, max)| {
                format!("{}/{}", points(got), points(max))
            });
            out.push_str(&format!(" {shown:>11}"));
        }
        let reached = results.level_name();
        out.push_str(&format!(
            " {:>9} {reached:>11}\n",
            format!("{}/{}", points(results.score), points(results.max_score()))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_held_until_released_stay_out_of_what_a_student_receives() {
        let dir = tempfile::tempdir().unwrap();
        let note = super::super::notes::Note {
            file: "src/velha/mod.rs".into(),
            line: 3,
            kind: "unwrap".into(),
            message: "handle it".into(),
            url: None,
        };
        let mut results = Results::of(Vec::new(), None);
        results.notes = vec![note.clone()];
        results.notes_held = true;
        save_results(dir.path(), "ana", &results).unwrap();
        let shown = std::fs::read_to_string(dir.path().join("students/ana/results.json")).unwrap();
        assert!(!shown.contains("handle it"), "{shown}");
        let all = read_results(dir.path()).unwrap();
        assert_eq!(all["ana"].notes, vec![note.clone()]);
        assert!(report_html(&all, None).contains("handle it"));
        // Released: the student's results carry them.
        results.notes_held = false;
        save_results(dir.path(), "ana", &results).unwrap();
        let shown = std::fs::read_to_string(dir.path().join("students/ana/results.json")).unwrap();
        assert!(shown.contains("handle it"), "{shown}");
    }

    /// Every file below `dir`, read.
    fn texts_below(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
        super::super::submission::files_below(dir)
            .into_iter()
            .map(|f| {
                let text = std::fs::read_to_string(&f).unwrap_or_default();
                (f, text)
            })
            .collect()
    }

    #[test]
    fn a_students_folder_holds_nothing_of_the_hidden_cases_or_the_notes_held() {
        let dir = tempfile::tempdir().unwrap();
        let mut results = Results::of(Vec::new(), None);
        results.tests.push(TestResult {
            name: "hidden_diagonal".into(),
            score: 0.0,
            max_score: 2.0,
            status: "failed".into(),
            output: "hidden case: wrong_output".into(),
            visibility: "after_published".into(),
            extra_data: Extra {
                level: Level::Advanced,
                verdict: Verdict::WrongOutput,
                robustness: false,
            },
            detail: Some("input: C3 B2 A1 secret-input".into()),
        });
        results.notes = vec![super::super::notes::Note {
            file: "src/velha/mod.rs".into(),
            line: 3,
            kind: "unwrap".into(),
            message: "held-note".into(),
            url: None,
        }];
        results.notes_held = true;
        // A folder an older kit wrote: its hidden.json in the student's folder.
        save_results(dir.path(), "bia", &Results::of(Vec::new(), None)).unwrap();
        let student = dir.path().join("students/bia");
        std::fs::write(student.join("hidden.json"), r#"{"x": "old-secret"}"#).unwrap();
        save_results(dir.path(), "ana", &results).unwrap();
        write_reports(dir.path(), &BTreeMap::new(), None, None).unwrap();
        for (file, text) in texts_below(&dir.path().join(STUDENTS)) {
            for secret in ["secret-input", "held-note", "old-secret"] {
                assert!(!text.contains(secret), "{} holds {secret}", file.display());
            }
        }
        let all = read_results(dir.path()).unwrap();
        assert_eq!(
            all["ana"].tests[0].detail.as_deref(),
            Some("input: C3 B2 A1 secret-input")
        );
        assert_eq!(all["ana"].notes[0].message, "held-note");
        assert!(
            instructor_dir(dir.path(), "bia")
                .join("hidden.json")
                .is_file()
        );
    }

    #[test]
    fn failures_of_one_cause_are_told_once_with_their_cases() {
        let failure = |name: &str, verdict: Verdict, output: &str| TestResult {
            name: name.into(),
            score: 0.0,
            max_score: 2.0,
            status: "failed".into(),
            output: output.into(),
            visibility: "visible".into(),
            extra_data: Extra {
                level: Level::Proficient,
                verdict,
                robustness: false,
            },
            detail: None,
        };
        let stub = "crashed; expected: a draw\nexit status 101\nthread 'main' panicked at src/velha/mod.rs:45:5:\nnot yet implemented: jogar\n";
        let tests = vec![
            failure("proficient::draw", Verdict::Crashed, stub),
            failure(
                "proficient::x_wins",
                Verdict::WrongOutput,
                "wrong output; a\nb",
            ),
            failure("proficient::o_wins", Verdict::Crashed, stub),
            failure("proficient::full", Verdict::Crashed, stub),
        ];
        let html = student_section("ana", &Results::of(tests, None), false);
        assert_eq!(
            html.matches("not yet implemented: jogar").count(),
            2,
            "{html}"
        );
        assert!(
            html.contains(
                "3 cases: crashed: not yet implemented: jogar (0 / 6)</summary><p>proficient::draw, proficient::o_wins, proficient::full;"
            ),
            "{html}"
        );
        assert!(html.contains("proficient::x_wins (0 / 2)"), "{html}");
        assert!(
            html.starts_with("<details class=\"student\"><summary><h2"),
            "{html}"
        );
    }

    #[test]
    fn csv_cells_never_run_as_formulas() {
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("-2"), "'-2");
        assert_eq!(csv_field("ana"), "ana");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }

    #[test]
    fn characters_xml_refuses_and_bidi_controls_are_shown_not_sent() {
        let shown = printable("a\u{fffe}b\u{ffff}c\u{202e}d\u{1fffe}e ok é ✓");
        assert_eq!(shown, "a\\u{fffe}b\\u{ffff}c\\u{202e}d\\u{1fffe}e ok é ✓");
    }

    #[test]
    fn control_characters_are_shown_not_sent() {
        assert_eq!(
            printable("a\u{1b}[2Jb\0c\nd\te"),
            "a\\u{1b}[2Jb\\u{0}c\nd\te"
        );
        let html = escape("<script>\u{1b}</script>");
        assert!(!html.contains('<') && !html.contains('\u{1b}'), "{html}");
    }
}
