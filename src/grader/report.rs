//! Results and reports.
//!
//! A submission's results are written as `<out>/<name>/results.json` in
//! Gradescope's format (`score`, `tests[]` with `name`, `score`,
//! `max_score`, `status`, `output`, `visibility`, plus `extra_data` with the
//! level and the verdict). Every other report (`grades.csv`, `junit.xml`,
//! `report.html`, the terminal table) is computed from those files alone, so
//! `boardkit grade merge` of shards writes exactly what one run writes.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::level::Level;

/// A case's verdict, computed by the grader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Passed,
    WrongOutput,
    Timeout,
    Crashed,
    OutputLimit,
    CompileError,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::WrongOutput => "wrong_output",
            Verdict::Timeout => "timeout",
            Verdict::Crashed => "crashed",
            Verdict::OutputLimit => "output_limit",
            Verdict::CompileError => "compile_error",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extra {
    pub level: Level,
    pub verdict: Verdict,
}

/// One case in Gradescope's format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    pub name: String,
    pub score: f64,
    pub max_score: f64,
    /// `passed` or `failed`.
    pub status: String,
    pub output: String,
    /// `visible`, or `after_published` for hidden cases.
    pub visibility: String,
    pub extra_data: Extra,
}

/// A submission's results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub score: f64,
    pub tests: Vec<TestResult>,
    /// Not final (a build that timed out): graded again by the next run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// Graded with `--no-sandbox`: without isolation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsandboxed: bool,
    /// What was graded: the student's files, the kit and the options, hashed.
    /// A run reuses these results only while it is the same.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fingerprint: String,
}

impl Results {
    pub fn max_score(&self) -> f64 {
        self.tests.iter().map(|t| t.max_score).sum()
    }

    /// Points per level.
    pub fn by_level(&self) -> BTreeMap<Level, (f64, f64, bool)> {
        let mut levels: BTreeMap<Level, (f64, f64, bool)> = BTreeMap::new();
        for t in &self.tests {
            let entry = levels.entry(t.extra_data.level).or_insert((0.0, 0.0, true));
            entry.0 += t.score;
            entry.1 += t.max_score;
            entry.2 &= t.extra_data.verdict == Verdict::Passed;
        }
        levels
    }

    /// The highest level whose cases, and those of every level below, all
    /// passed; `None` when the lowest graded level did not.
    pub fn level_reached(&self) -> Option<Level> {
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

/// The folder of an output folder that holds one folder per submission, so
/// that no submission's name can be a report's.
pub const STUDENTS: &str = "students";

/// The folder of submission `name`'s results in the output folder `out`.
pub fn student_dir(out: &Path, name: &str) -> std::path::PathBuf {
    out.join(STUDENTS).join(name)
}

/// Reads every `<dir>/students/<name>/results.json`.
pub fn read_results(dir: &Path) -> std::io::Result<BTreeMap<String, Results>> {
    let mut all = BTreeMap::new();
    let dir = dir.join(STUDENTS);
    if !dir.is_dir() {
        return Ok(all);
    }
    for entry in std::fs::read_dir(&dir)? {
        let entry = entry?;
        let path = entry.path().join("results.json");
        if path.is_file() {
            let text = std::fs::read_to_string(&path)?;
            let results: Results = serde_json::from_str(&text)
                .map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))?;
            all.insert(entry.file_name().to_string_lossy().into_owned(), results);
        }
    }
    Ok(all)
}

fn levels_of(all: &BTreeMap<String, Results>) -> Vec<Level> {
    let mut levels: Vec<Level> = all
        .values()
        .flat_map(|r| r.tests.iter().map(|t| t.extra_data.level))
        .collect();
    levels.sort();
    levels.dedup();
    levels
}

fn points(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// `grades.csv`, `junit.xml` and `report.html` in `dir`, from `all`.
pub fn write_reports(dir: &Path, all: &BTreeMap<String, Results>) -> std::io::Result<()> {
    std::fs::write(dir.join("grades.csv"), grades_csv(all))?;
    std::fs::write(dir.join("junit.xml"), junit_xml(all)?)?;
    std::fs::write(dir.join("report.html"), report_html(all))?;
    Ok(())
}

pub fn grades_csv(all: &BTreeMap<String, Results>) -> String {
    let levels = levels_of(all);
    let mut out = String::from("submission");
    for level in &levels {
        out.push_str(&format!(",{level}"));
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
        let reached = results
            .level_reached()
            .map_or("none".to_owned(), |l| l.to_string());
        out.push_str(&format!(
            ",{},{},{reached}\n",
            points(results.score),
            points(results.max_score())
        ));
    }
    out
}

/// A CSV cell no spreadsheet runs as a formula (OWASP's rule: a cell that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
/// leading `'`), quoted when it holds a separator, a quote or a line break.
fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r', ';']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// Text a program printed, made safe for every report: control characters
/// other than line breaks and tabs (ESC, NUL, ...) shown as `\u{..}`.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

pub fn junit_xml(all: &BTreeMap<String, Results>) -> std::io::Result<String> {
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

fn escape(text: &str) -> String {
    printable(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub fn report_html(all: &BTreeMap<String, Results>) -> String {
    let levels = levels_of(all);
    let mut out = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>boardkit grades</title>\n<style>\n\
         body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}\
         td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}.passed{color:#1a7f37}.failed{color:#cf222e}\
         pre{background:#f6f8fa;padding:.6em;overflow:auto;max-height:24em}details{margin:.2em 0}\n</style></head><body>\n\
         <h1>Grades</h1>\n",
    );
    if all.values().any(|r| r.unsandboxed) {
        out.push_str(
            "<p class=\"failed\"><strong>Graded with --no-sandbox:</strong> student code ran without isolation. \
             It could read and change anything the grader's user can, these reports included.</p>\n",
        );
    }
    out.push_str("<table><tr><th>submission</th>");
    for level in &levels {
        out.push_str(&format!("<th>{level}</th>"));
    }
    out.push_str("<th>score</th><th>level reached</th></tr>\n");
    for (name, results) in all {
        let by_level = results.by_level();
        out.push_str(&format!(
            "<tr><td><a href=\"#{0}\">{0}</a></td>",
            escape(name)
        ));
        for level in &levels {
            let (got, max, _) = by_level.get(level).copied().unwrap_or((0.0, 0.0, false));
            out.push_str(&format!("<td>{} / {}</td>", points(got), points(max)));
        }
        let reached = results
            .level_reached()
            .map_or("none".to_owned(), |l| l.to_string());
        out.push_str(&format!(
            "<td>{} / {}</td><td>{reached}</td></tr>\n",
            points(results.score),
            points(results.max_score())
        ));
    }
    out.push_str("</table>\n");
    for (name, results) in all {
        out.push_str(&format!("<h2 id=\"{0}\">{0}</h2>\n", escape(name)));
        for t in &results.tests {
            let class = if t.extra_data.verdict == Verdict::Passed {
                "passed"
            } else {
                "failed"
            };
            out.push_str(&format!(
                "<details><summary><span class=\"{class}\">{}</span> {} ({} / {})</summary><pre>{}</pre></details>\n",
                t.extra_data.verdict.name(),
                escape(&t.name),
                points(t.score),
                points(t.max_score),
                escape(&t.output)
            ));
        }
    }
    out.push_str("</body></html>\n");
    out
}

/// The terminal table.
pub fn table(all: &BTreeMap<String, Results>) -> String {
    let levels = levels_of(all);
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
        let reached = results
            .level_reached()
            .map_or("none".to_owned(), |l| l.to_string());
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
    fn csv_cells_never_run_as_formulas() {
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("-2"), "'-2");
        assert_eq!(csv_field("ana"), "ana");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
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
