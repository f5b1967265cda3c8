//! Each student's own feedback (SPEC 5.2): `students/<name>/feedback.md`
//! and `feedback.html`, written by every run and every merge beside the
//! student's `results.json`. What a student may be handed: their level and
//! points per level, each failed public case with its board, diff and
//! replay command, their notes on the code, and hidden cases as counts
//! (their names only with `--reveal-hidden names`). Nothing of another
//! student (not the similarity section) and no hidden input. The page works
//! without scripts and is checked for accessibility in Chromium (axe-core,
//! `cli/tests/browser.rs`).

use std::collections::BTreeMap;

use boardkit::catalogue::{f, message, t};
use boardkit::level::Level;

use super::markdown as md;
pub(crate) use super::report::RevealHidden;
use super::report::{Results, RunInfo, TestResult, Verdict, escape, points};

/// One part of the grade as the feedback shows it.
struct Part<'r> {
    title: String,
    got: f64,
    max: f64,
    failed_public: Vec<&'r TestResult>,
    failed_hidden: Vec<&'r TestResult>,
}

/// Each level's part, then the robustness part's.
fn parts<'r>(results: &'r Results, page: &Page<'_>) -> Vec<Part<'r>> {
    let mut levels: BTreeMap<Option<Level>, Part<'_>> = BTreeMap::new();
    for t in &results.tests {
        let key = (!t.extra_data.robustness).then_some(t.extra_data.level);
        let part = levels.entry(key).or_insert_with(|| Part {
            title: key.map_or_else(
                || boardkit::catalogue::t(super::report::ROBUSTNESS_TITLE).to_owned(),
                |l| page.level(l),
            ),
            got: 0.0,
            max: 0.0,
            failed_public: Vec::new(),
            failed_hidden: Vec::new(),
        });
        part.got += t.score;
        part.max += t.max_score;
        if t.extra_data.verdict != Verdict::Passed {
            if t.visibility == "visible" {
                part.failed_public.push(t);
            } else {
                part.failed_hidden.push(t);
            }
        }
    }
    // Levels in order, the robustness part (`None`) last.
    let mut parts: Vec<(Option<Level>, Part<'_>)> = levels.into_iter().collect();
    parts.sort_by_key(|(level, _)| level.map_or(usize::MAX, Level::rank));
    parts.into_iter().map(|(_, part)| part).collect()
}

/// "2 hidden cases failed", and their names when revealed.
fn hidden_line(part: &Part<'_>, reveal: RevealHidden) -> Option<String> {
    let n = part.failed_hidden.len();
    if n == 0 {
        return None;
    }
    let mut line = match n {
        1 => f("1 hidden case failed at {part}", &[("part", &part.title)]),
        _ => f(
            "{count} hidden cases failed at {part}",
            &[("count", &n), ("part", &part.title)],
        ),
    };
    if reveal == RevealHidden::Names {
        let names: Vec<&str> = part.failed_hidden.iter().map(|t| t.name.as_str()).collect();
        line.push_str(&format!(": {}", names.join(", ")));
    }
    Some(line)
}

/// Every student's `feedback.md` and `feedback.html` in `dir`, from their
/// results alone (after the class's reports, by every run and merge).
pub(crate) fn write_pages(
    dir: &std::path::Path,
    all: &BTreeMap<String, Results>,
    run: Option<&RunInfo>,
) -> std::io::Result<()> {
    let none = BTreeMap::new();
    let page = Page {
        title: run.map_or("boardkit", |r| r.title.as_str()),
        reveal: run.map_or_else(RevealHidden::default, |r| r.reveal_hidden),
        // A package's pages speak its locale (a merge's too: the run that
        // graded set it already), its levels by their names there.
        lang: run.and_then(|r| r.locale.as_deref()).unwrap_or("en"),
        level_names: run.map_or(&none, |r| &r.level_names),
    };
    boardkit::catalogue::use_catalogue(crate::exercise_data::catalogue_of(page.lang));
    for (name, results) in all {
        let folder = super::report::student_dir(dir, name);
        std::fs::write(folder.join("feedback.md"), markdown(&page, name, results))?;
        std::fs::write(folder.join("feedback.html"), html(&page, name, results))?;
    }
    Ok(())
}

/// What every page of a run says alike: the exercise's title, how it
/// shows hidden cases, its locale, and its levels' names there (a
/// package's, where it names them).
pub(crate) struct Page<'a> {
    pub title: &'a str,
    pub reveal: RevealHidden,
    pub lang: &'a str,
    pub level_names: &'a BTreeMap<String, String>,
}

impl Page<'_> {
    /// `level` as the page names it.
    fn level(&self, level: Level) -> String {
        self.level_names
            .get(level.name())
            .cloned()
            .unwrap_or_else(|| level.to_string())
    }
}

/// The commit graded, and the late penalty if any.
fn late_line(results: &Results) -> Option<String> {
    let commit = results.commit.as_deref()?;
    let date = results
        .submitted_at
        .as_deref()
        .unwrap_or(t("an unknown date"));
    let mut line = f(
        "Graded at commit {commit} of {date}.",
        &[
            ("commit", &&commit[..commit.len().min(12)]),
            ("date", &date),
        ],
    );
    match (results.late_days, results.penalty) {
        (Some(1), Some(penalty)) => line.push_str(&f(
            " 1 day late: {points} points off the score (the level stays what the code reached).",
            &[("points", &points(penalty))],
        )),
        (Some(days), Some(penalty)) if days > 0 => line.push_str(&f(
            " {days} days late: {points} points off the score (the level stays what the code reached).",
            &[("days", &days), ("points", &points(penalty))],
        )),
        (Some(_), _) => line.push_str(t(" On time.")),
        _ => {}
    }
    Some(line)
}

/// The catalogue's `english` in the page's words: its text written by
/// `around` (the kit's own words: as they are in Markdown, escaped in
/// HTML), then each placeholder filled, in one pass, with its value
/// already written for the page (escaped, or marked up).
fn page_text(
    english: &'static str,
    values: &[(&str, String)],
    around: fn(&str) -> String,
) -> String {
    let arguments: Vec<(&str, &dyn std::fmt::Display)> = values
        .iter()
        .map(|(name, value)| (*name, value as &dyn std::fmt::Display))
        .collect();
    boardkit::catalogue::fill(&around(t(english)), &arguments)
}

/// The page's heading: the exercise's title and the student's name.
fn heading(
    game: &str,
    name: &str,
    write: fn(&str) -> String,
    around: fn(&str) -> String,
) -> String {
    page_text(
        message("{title}: feedback for {name}"),
        &[("title", write(game)), ("name", write(name))],
        around,
    )
}

/// "Level reached: LEVEL. Score: S / M.", the level as `level` (bold in
/// Markdown, strong in HTML).
fn level_line(results: &Results, level: String, around: fn(&str) -> String) -> String {
    page_text(
        message("Level reached: {level}. Score: {score} / {max}."),
        &[
            ("level", level),
            ("score", points(results.score)),
            ("max", points(results.max_score())),
        ],
        around,
    )
}

/// The level reached as the page says it: "none" in the page's words.
fn shown_level(results: &Results, page: &Page<'_>) -> String {
    results
        .level_reached()
        .map_or_else(|| t("none").to_owned(), |l| page.level(l))
}

/// An own test that is not valid, and why (each already written for the
/// page).
fn invalid_line(test: &str, why: &str) -> String {
    f(
        "{test} is not valid, and catches nothing: {why}",
        &[("test", &test), ("why", &why)],
    )
}

/// `feedback.md`: the same as the page, in Markdown.
pub(crate) fn markdown(page: &Page<'_>, name: &str, results: &Results) -> String {
    let reveal = page.reveal;
    let mut out = format!(
        "# {}\n\n{}\n\n| {} | {} |\n|---|---|\n",
        heading(page.title, name, md::text, str::to_owned),
        level_line(
            results,
            format!("**{}**", md::text(&shown_level(results, page))),
            str::to_owned
        ),
        md::text(t("part")),
        md::text(t("points")),
    );
    let parts = parts(results, page);
    for part in &parts {
        out.push_str(&format!(
            "| {} | {} / {} |\n",
            md::text(&part.title),
            points(part.got),
            points(part.max)
        ));
    }
    if let Some(line) = late_line(results) {
        out.push_str(&format!("\n{}\n\n", md::text(&line)));
    }
    if let Some(style) = results.style {
        out.push_str(&format!(
            "| {} | {} / {} |\n",
            md::text(t("notes on the code")),
            points(style.score),
            points(style.max_score)
        ));
    }
    if let Some(own) = &results.own_tests {
        out.push_str(&format!(
            "| {} | {} / {} |\n",
            md::text(t("your own tests")),
            points(own.score),
            points(own.max_score)
        ));
        out.push_str(&format!("\n## {}\n\n", md::text(t("Your own tests"))));
        out.push_str(&format!("- {}\n", md::text(&own.verdict.line())));
        for (test, why) in &own.verdict.invalid {
            out.push_str(&format!(
                "- {}\n",
                invalid_line(&md::code(test), &md::text(why))
            ));
        }
    }
    for part in &parts {
        if part.failed_public.is_empty() && part.failed_hidden.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {}\n", md::text(&part.title)));
        for t in &part.failed_public {
            out.push_str(&format!(
                "\n### {} ({})\n\n{}",
                md::text(&t.name),
                t.extra_data.verdict.name(),
                md::block(&t.output, "text")
            ));
        }
        if let Some(line) = hidden_line(part, reveal) {
            out.push_str(&format!("\n{}.\n", md::text(&line)));
        }
    }
    if !results.notes.is_empty() && !results.notes_held {
        out.push_str(&format!("\n## {}\n\n", md::text(t("Notes on your code"))));
        for note in &results.notes {
            out.push_str(&format!(
                "- {} {} ({})\n",
                md::code(&format!("{}:{}", note.file, note.line)),
                md::text(&note.message),
                md::code(&note.kind)
            ));
        }
    }
    out
}

/// What a student reads of their own tests' verdict: the bugs caught, the
/// public ones missed by what they break, the hidden ones as a count; then
/// each invalid test and why.
fn own_tests_lines(own: &super::report::OwnTests) -> Vec<String> {
    let verdict = &own.verdict;
    let mut lines = vec![verdict.line()];
    for (test, why) in &verdict.invalid {
        lines.push(invalid_line(&format!("`{test}`"), why));
    }
    lines
}

fn own_tests_html(results: &Results) -> String {
    let Some(own) = &results.own_tests else {
        return String::new();
    };
    let mut html = format!("<h2>{}</h2>\n<ul>\n", escape(t("Your own tests")));
    for line in own_tests_lines(own) {
        html.push_str(&format!("<li>{}</li>\n", escape(&line)));
    }
    html.push_str("</ul>\n");
    html
}

/// The page's table of points: each part's, the notes' and the own
/// tests'.
fn points_table(results: &Results, parts: &[Part<'_>]) -> String {
    let mut table = format!(
        "<table>\n<caption>{}</caption>\n<thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead>\n<tbody>\n",
        escape(t("Points per part")),
        escape(t("part")),
        escape(t("points"))
    );
    let mut row = |title: &str, got: f64, max: f64| {
        table.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{} / {}</td></tr>\n",
            escape(title),
            points(got),
            points(max)
        ));
    };
    for part in parts {
        row(&part.title, part.got, part.max);
    }
    if let Some(style) = results.style {
        row(t("notes on the code"), style.score, style.max_score);
    }
    if let Some(own) = &results.own_tests {
        row(t("your own tests"), own.score, own.max_score);
    }
    table.push_str("</tbody>\n</table>\n");
    table
}

/// `feedback.html`: one page, no script, for the student alone.
pub(crate) fn html(page: &Page<'_>, name: &str, results: &Results) -> String {
    let (reveal, lang) = (page.reveal, page.lang);
    let heading = heading(page.title, name, escape, escape);
    let strong = format!("<strong>{}</strong>", escape(&shown_level(results, page)));
    let mut body = format!(
        "<h1>{heading}</h1>\n<p>{}</p>\n",
        level_line(results, strong, escape)
    );
    let parts = parts(results, page);
    body.push_str(&points_table(results, &parts));
    body.push_str(&own_tests_html(results));
    if let Some(line) = late_line(results) {
        body.push_str(&format!("<p>{}</p>\n", escape(&line)));
    }
    for part in &parts {
        if part.failed_public.is_empty() && part.failed_hidden.is_empty() {
            continue;
        }
        body.push_str(&format!("<h2>{}</h2>\n", escape(&part.title)));
        for t in &part.failed_public {
            body.push_str(&format!(
                "<h3>{} ({})</h3>\n<pre tabindex=\"0\">{}</pre>\n",
                escape(&t.name),
                t.extra_data.verdict.name(),
                escape(&t.output)
            ));
        }
        if let Some(line) = hidden_line(part, reveal) {
            body.push_str(&format!("<p>{}.</p>\n", escape(&line)));
        }
    }
    if !results.notes.is_empty() && !results.notes_held {
        body.push_str(&format!(
            "<h2>{}</h2>\n<ul>\n",
            escape(t("Notes on your code"))
        ));
        for note in &results.notes {
            body.push_str(&format!(
                "<li><code>{}:{}</code> {} (<code>{}</code>)</li>\n",
                escape(&note.file),
                note.line,
                escape(&note.message),
                escape(&note.kind)
            ));
        }
        body.push_str("</ul>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n",
        title = heading,
        lang = escape(lang)
    )
}

/// Plain, readable, with a contrast of at least 4.5:1 everywhere.
const STYLE: &str = "body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1a1a1a;background:#fff;line-height:1.4}\
pre{background:#f4f4f4;color:#1a1a1a;padding:.5rem;overflow-x:auto;white-space:pre}\
table{border-collapse:collapse}th,td{border:1px solid #767676;padding:.2rem .6rem;text-align:left}";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grader::report::Extra;

    fn case(name: &str, level: Level, passed: bool, hidden: bool, output: &str) -> TestResult {
        TestResult {
            name: name.into(),
            score: if passed { 1.0 } else { 0.0 },
            max_score: 1.0,
            status: if passed { "passed" } else { "failed" }.into(),
            output: output.into(),
            visibility: if hidden { "after_published" } else { "visible" }.into(),
            extra_data: Extra {
                level,
                verdict: if passed {
                    Verdict::Passed
                } else {
                    Verdict::WrongOutput
                },
                robustness: false,
            },
            detail: hidden.then(|| "the input up to there: SECRET-HIDDEN-INPUT".to_owned()),
        }
    }

    fn results() -> Results {
        Results {
            score: 2.0,
            tests: vec![
                case("basic::a", Level::Basic, true, false, ""),
                case(
                    "proficient::draw",
                    Level::Proficient,
                    false,
                    false,
                    "wrong output; expected: a draw\n| Empate!",
                ),
                case(
                    "proficient::draw_hidden",
                    Level::Proficient,
                    false,
                    true,
                    "hidden case: wrong_output",
                ),
                case(
                    "advanced::x_hidden",
                    Level::Advanced,
                    false,
                    true,
                    "hidden case: wrong_output",
                ),
                case(
                    "advanced::y_hidden",
                    Level::Advanced,
                    false,
                    true,
                    "hidden case: wrong_output",
                ),
                case("advanced::z", Level::Advanced, true, false, ""),
            ],
            unread: None,
            incomplete: false,
            unsandboxed: false,
            fingerprint: String::new(),
            notes: Vec::new(),
            notes_held: false,
            style: None,
            own_tests: None,
            commit: None,
            submitted_at: None,
            late_days: None,
            penalty: None,
        }
    }

    #[test]
    fn hidden_cases_are_counts_and_their_inputs_never_shown() {
        let results = results();
        for page in [
            markdown(
                &page("Jogo da velha", RevealHidden::Counts),
                "ana",
                &results,
            ),
            html(
                &page("Jogo da velha", RevealHidden::Counts),
                "ana",
                &results,
            ),
        ] {
            assert!(
                page.contains("1 hidden case failed at proficient"),
                "{page}"
            );
            assert!(page.contains("2 hidden cases failed at advanced"), "{page}");
            assert!(
                !page.contains("draw_hidden") && !page.contains("SECRET-HIDDEN-INPUT"),
                "{page}"
            );
            assert!(page.contains("| Empate!"), "{page}");
            assert!(page.contains("Level reached"));
        }
        let named = read(&markdown(
            &page("Jogo da velha", RevealHidden::Names),
            "ana",
            &results,
        ));
        assert!(
            named.contains(
                "2 hidden cases failed at advanced: advanced::x_hidden, advanced::y_hidden"
            ),
            "{named}"
        );
        assert!(!named.contains("SECRET-HIDDEN-INPUT"));
        let page = html(&page("<b>", RevealHidden::Counts), "<script>", &results);
        assert!(!page.contains("<script>") && !page.contains("<b>"));
    }

    /// A page of `title`'s run, in English, its levels by their ids.
    fn page(title: &str, reveal: RevealHidden) -> Page<'_> {
        static NONE: BTreeMap<String, String> = BTreeMap::new();
        Page {
            title,
            reveal,
            lang: "en",
            level_names: &NONE,
        }
    }

    /// `markdown` as a CommonMark reader shows it: its text alone.
    fn read(markdown: &str) -> String {
        pulldown_cmark::Parser::new(markdown)
            .filter_map(|event| match event {
                pulldown_cmark::Event::Text(t) | pulldown_cmark::Event::Code(t) => {
                    Some(t.into_string())
                }
                pulldown_cmark::Event::SoftBreak | pulldown_cmark::Event::HardBreak => {
                    Some("\n".into())
                }
                _ => None,
            })
            .collect()
    }

    /// What a student wrote (a name, an output, a test id, what pytest
    /// printed at exit, a path in a compiler's note) never reads as a link,
    /// an image or HTML in `feedback.md`, and reads back whole.
    #[test]
    fn a_students_text_is_never_live_markdown() {
        const PRINTED: &str = "![x](https://evil.example/x.png) [link](https://evil.example) <img src=x onerror=alert(1)>";
        let mut results = results();
        results.tests[1].output = format!("```\n{PRINTED}\n````");
        results.tests[1].name = format!("proficient::{PRINTED}");
        results.notes.push(crate::grader::notes::Note {
            file: "src/velha/`mod`.rs".into(),
            line: 3,
            kind: "clippy::x".into(),
            message: PRINTED.into(),
            url: None,
        });
        let mut verdict = crate::grader::own_tests::verdict::Verdict {
            tests: vec!["test_`a`".into()],
            invalid: std::collections::BTreeMap::new(),
            public: Vec::new(),
            hidden: (0, 0),
            error: Some(PRINTED.into()),
        };
        verdict
            .invalid
            .insert("test_`a`".into(), format!("it fails: {PRINTED}"));
        results.own_tests = Some(crate::grader::report::OwnTests {
            score: 0.0,
            max_score: 1.0,
            verdict,
        });
        let page = markdown(
            &page("velha", RevealHidden::Counts),
            &format!("ana{PRINTED}"),
            &results,
        );
        for event in pulldown_cmark::Parser::new(&page) {
            use pulldown_cmark::{Event, Tag};
            assert!(
                !matches!(
                    event,
                    Event::Html(_)
                        | Event::InlineHtml(_)
                        | Event::Start(Tag::Link { .. } | Tag::Image { .. })
                ),
                "{event:?} in\n{page}"
            );
        }
        let shown = read(&page);
        assert!(shown.contains(&format!("```\n{PRINTED}\n````")), "{shown}");
        assert!(shown.contains("test_`a` is not valid"), "{shown}");
        assert!(shown.contains(&format!("ana{PRINTED}")), "{shown}");
    }
}
