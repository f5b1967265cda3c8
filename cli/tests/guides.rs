//! The guides (README.md and `docs/`), checked: every link reaches a file
//! of the repository and, with a `#fragment`, one of its headings; every
//! `boardkit` command the README, the student and the instructor guides
//! show in a shell block is one the command line accepts (parsed by the
//! binary's own clap definition, what `--help` prints); every page is in
//! the book's `SUMMARY.md`; README stays short.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::Parser as _;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// README.md and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// `text` without its fenced code blocks (links there are code).
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The targets of the Markdown links `[text](target)` of `text`'s prose,
/// inline code spans left out.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text).lines() {
        // Inline code is code: `[x](y)` there is not a link.
        let bare: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = bare.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces
/// as hyphens (mdBook makes the same).
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of `text`'s headings.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| slug(line.trim_start_matches('#').replace('`', "").as_str()))
        .collect()
}

/// Why `target` (a link of `page`) reaches nothing, if it does not.
fn broken(page: &Path, target: &str) -> Option<String> {
    if target.starts_with("https://") || target.starts_with("http://") {
        // Not fetched (tests send nothing past loopback): well formed only.
        return target
            .contains(char::is_whitespace)
            .then(|| format!("{target}: not an address"));
    }
    let (file, fragment) = match target.split_once('#') {
        Some((file, fragment)) => (file, Some(fragment)),
        None => (target, None),
    };
    let path = if file.is_empty() {
        page.to_owned()
    } else {
        page.parent().unwrap().join(file)
    };
    if !path.exists() {
        return Some(format!("{target}: no file {}", path.display()));
    }
    let fragment = fragment?;
    let text = std::fs::read_to_string(&path).ok()?;
    (!anchors(&text).contains(fragment))
        .then(|| format!("{target}: no heading #{fragment} in {}", path.display()))
}

#[test]
fn every_link_of_the_guides_reaches_its_file_and_heading() {
    let mut broken_links = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in links(&text) {
            count += 1;
            if let Some(why) = broken(&page, &target) {
                broken_links.push(format!("{}: {why}", page.display()));
            }
        }
    }
    assert!(count > 20, "only {count} links found");
    assert!(
        broken_links.is_empty(),
        "broken links:\n{}",
        broken_links.join("\n")
    );
}

#[test]
fn the_link_checker_finds_what_is_broken() {
    let readme = root().join("README.md");
    assert!(broken(&readme, "docs/students.md").is_none());
    assert!(broken(&readme, "docs/instructors.md#threat-model").is_none());
    assert!(broken(&readme, "docs/nothing.md").is_some());
    assert!(broken(&readme, "docs/instructors.md#no-such-heading").is_some());
    assert_eq!(slug("CI's time"), "cis-time");
    assert_eq!(
        links("see [a](x.md) and `[b](y.md)`, [c](z.md#h)\n```\n[d](w.md)\n```\n"),
        ["x.md", "z.md#h"]
    );
}

#[test]
fn every_page_of_the_guides_is_in_the_book() {
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().collect();
    for page in pages().iter().skip(1) {
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name == "SUMMARY.md" || listed.contains(&name),
            "{name} is not in docs/SUMMARY.md"
        );
    }
}

#[test]
fn readme_is_short() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 150,
        "README.md has {lines} lines: the rest goes to docs/"
    );
    // Its first block is the two commands: play, then the tests.
    let first = readme.split("```sh\n").nth(1).unwrap_or_default();
    let first = first.split("```").next().unwrap_or_default();
    assert!(first.starts_with("cargo run -- play "), "{first}");
    assert!(
        first
            .lines()
            .nth(1)
            .unwrap_or_default()
            .starts_with("cargo test")
    );
}

/// The `boardkit` commands of `text`'s shell blocks, as words: a line that
/// starts with `boardkit` or `cargo run [-q] --`, its comment, pipe or
/// `&&` tail left out, its continuation lines joined.
fn commands(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut shell = false;
    let mut pending = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            shell = !shell && matches!(trimmed, "```sh" | "```bash" | "```shell" | "```console");
            continue;
        }
        if !shell {
            continue;
        }
        let line = trimmed.trim_start_matches("$ ");
        if !pending.is_empty() || line.starts_with("boardkit ") || line.starts_with("cargo run ") {
            pending.push_str(line.trim_end_matches('\\'));
            pending.push(' ');
            if line.ends_with('\\') {
                continue;
            }
            out.extend(command_words(&std::mem::take(&mut pending)));
        }
    }
    out
}

/// A placeholder (`<GAME>`, `<dir>`) stands for a value of its kind; of
/// alternatives (`<velha|connect4>`), the first. Other words stay.
fn placeholder_value(word: String) -> String {
    let Some(name) = word.strip_prefix('<').and_then(|w| w.strip_suffix('>')) else {
        return word;
    };
    let name = name.to_lowercase();
    match name.split('|').next().unwrap_or_default() {
        "game" => "velha".to_owned(),
        "level" => "basic".to_owned(),
        "n" => "1".to_owned(),
        port if port.contains("port") => "127.0.0.1:4774".to_owned(),
        first if name.contains('|') => first.to_owned(),
        _ => "x".to_owned(),
    }
}

/// The words of one shell line's `boardkit` command.
fn command_words(line: &str) -> Option<Vec<String>> {
    let words = shlex::split(line)?;
    let words: Vec<String> = words
        .into_iter()
        .take_while(|w| !w.starts_with('#') && !["|", "&&", ";", ">", "2>&1"].contains(&w.as_str()))
        .map(placeholder_value)
        .collect();
    match words.first().map(String::as_str) {
        Some("boardkit") => Some(words),
        Some("cargo") => {
            let dashes = words.iter().position(|w| w == "--")?;
            // A starter's own `cargo run -q -- watch`: its binary's, which
            // the student guide's run checks (`the_student_guide_runs`).
            if words[dashes + 1..] == ["watch"] {
                return None;
            }
            let mut command = vec!["boardkit".to_owned()];
            command.extend(words[dashes + 1..].iter().cloned());
            Some(command)
        }
        _ => None,
    }
}

/// The `boardkit` commands of `text`'s inline code spans (`` `boardkit
/// grade ...` ``, or after a pipe in one), as words.
fn inline_commands(text: &str) -> Vec<Vec<String>> {
    // A span may wrap onto the next line of the paragraph.
    let joined = prose(text).replace('\n', " ");
    joined
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split(" | ").map(str::trim).collect::<Vec<_>>())
        .filter(|part| part.starts_with("boardkit ") || part.starts_with("cargo run "))
        .filter_map(|part| command_words(&required(part)))
        .collect()
}

/// A synopsis without its optional parts (`boardkit scores [--game G]` is
/// `boardkit scores`): those must parse alone.
fn required(synopsis: &str) -> String {
    let mut depth = 0;
    synopsis
        .chars()
        .filter(|&c| {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// Why boardkit refuses `words`, if it does. `--help` and `--version` are
/// clap's own answers, not refusals; an inline span may name a command
/// without its required arguments (`boardkit grade merge`), never with a
/// wrong one.
fn refusal(words: &[String], inline: bool) -> Option<clap::Error> {
    use clap::error::ErrorKind;
    let error = boardkit_cli::Cli::try_parse_from(words).err()?;
    let named = inline
        && matches!(
            error.kind(),
            ErrorKind::MissingRequiredArgument
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                | ErrorKind::MissingSubcommand
        );
    let answer = matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    );
    (!named && !answer).then_some(error)
}

#[test]
fn every_command_the_guides_show_is_one_boardkit_accepts() {
    let mut refused = Vec::new();
    let (mut blocks, mut spans) = (0, 0);
    for name in [
        "README.md",
        "docs/students.md",
        "docs/instructors.md",
        "docs/levels.md",
        "docs/players.md",
        "docs/contributors.md",
        "docs/architecture.md",
        "docs/authors.md",
    ] {
        let text = std::fs::read_to_string(root().join(name)).unwrap();
        let found = commands(&text).into_iter().map(|words| (words, false));
        let inline = inline_commands(&text)
            .into_iter()
            .map(|words| (words, true));
        for (words, inline) in found.chain(inline) {
            if inline {
                spans += 1;
            } else {
                blocks += 1;
            }
            if let Some(error) = refusal(&words, inline) {
                refused.push(format!("{name}: {}\n{error}", words.join(" ")));
            }
        }
    }
    assert!(
        blocks >= 10 && spans >= 20,
        "only {blocks} + {spans} commands found"
    );
    assert!(refused.is_empty(), "{}", refused.join("\n\n"));
}

#[test]
fn the_command_checker_refuses_what_boardkit_refuses() {
    let text = "```sh\nboardkit grade velha subs/ --out g/   # a comment\n\
                cargo run -q -- play velha | head\nboardkit play velha \\\n  --no-such-flag\n```\n";
    let found = commands(text);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[1], ["boardkit", "play", "velha"]);
    assert!(boardkit_cli::Cli::try_parse_from(&found[0]).is_ok());
    assert!(boardkit_cli::Cli::try_parse_from(&found[1]).is_ok());
    assert!(boardkit_cli::Cli::try_parse_from(&found[2]).is_err());
    let spans = inline_commands(
        "Run `printf 'A1\\n' | cargo run -q -- play velha`, then\n`boardkit grade\nmerge` and `boardkit grade velha --no-such`.",
    );
    assert_eq!(spans.len(), 3, "{spans:?}");
    assert_eq!(spans[0], ["boardkit", "play", "velha"]);
    assert!(refusal(&spans[1], true).is_none());
    assert!(refusal(&spans[1], false).is_some());
    assert!(refusal(&spans[2], true).is_some());
    assert_eq!(
        required("boardkit scores [--game G] [--x [y]]"),
        "boardkit scores  "
    );
}

/// The shell lines of one `## <section>` of a page, in order.
fn section_lines(text: &str, section: &str) -> Vec<String> {
    let heading = format!("## {section}");
    let body = text
        .split("\n## ")
        .find(|part| format!("## {part}").starts_with(&heading))
        .unwrap_or_default();
    let mut lines = Vec::new();
    let mut shell = false;
    for line in body.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            shell = !shell && trimmed == "```sh";
            continue;
        }
        if shell && !trimmed.is_empty() {
            lines.push(trimmed.to_owned());
        }
    }
    lines
}

/// The student guide's commands, run as a student runs them: each
/// section's shell lines in order, on a fresh starter, with the kit's
/// `boardkit` on the PATH (the install steps before them are rustup's and
/// pip's; CI's wheel stage installs the wheel as the guide says). Each
/// ends as a student meets it: 0, or 1 or 101 for tests that fail (every
/// stub does), never a command not found or a usage error.
#[test]
#[ignore = "long: builds a starter and runs its tests, in Rust and in Python (a minute)"]
fn the_student_guide_runs() {
    let _target = crate::starter::starter_target();
    let text = std::fs::read_to_string(root().join("docs/students.md")).unwrap();
    let kit = Path::new(env!("CARGO_BIN_EXE_boardkit"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        kit.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let target = root().join("target/guide-starter");
    for section in ["Rust", "Python"] {
        let lines = section_lines(&text, section);
        assert!(lines.len() >= 3, "{section}: {lines:?}");
        let scratch = tempfile::tempdir().unwrap();
        let mut cwd = scratch.path().to_owned();
        let mut seen = String::new();
        for line in &lines {
            if let Some(folder) = line.strip_prefix("cd ") {
                cwd = cwd.join(folder.trim());
                assert!(cwd.is_dir(), "{section}: {line}: no such folder");
                continue;
            }
            let run = std::process::Command::new("bash")
                .args(["-c", line])
                .current_dir(&cwd)
                .env("PATH", &path)
                .env("CARGO_TARGET_DIR", &target)
                .env_remove("RUSTC_WORKSPACE_WRAPPER")
                .env_remove("CLIPPY_ARGS")
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap();
            let output = format!(
                "{}{}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            );
            let code = run.status.code();
            assert!(
                matches!(code, Some(0 | 1 | 101)),
                "{section}: {line}: exit {code:?}\n{output}"
            );
            assert!(
                !output.contains("command not found") && !output.contains("unexpected argument"),
                "{section}: {line}\n{output}"
            );
            seen.push_str(&output);
        }
        // What a student reads: each level, the level reached, a hint's
        // prompt, in the starter's language (the Python walk's is pt-BR).
        let english = seen.contains("levels:") && seen.contains("q then Enter to quit");
        let portuguese = seen.contains("níveis:") && seen.contains("q e Enter para sair");
        assert!(english || portuguese, "{section}: {seen}");
    }
}

/// The shell lines of the `### <part>` of `section` in `text`, in order.
fn part_lines(text: &str, section: &str, part: &str) -> Vec<String> {
    let body = text
        .split("\n## ")
        .find(|s| s.starts_with(section))
        .unwrap_or_default();
    let heading = format!("### {part}");
    let part = body
        .split("\n### ")
        .find(|p| format!("### {p}").starts_with(&heading))
        .unwrap_or_default();
    section_lines(&format!("\n## x\n{part}"), "x")
}

/// What a course holds before the walk of `part` in `dir`: the roster, and
/// the LMS's download (named as the LMS names it) or the class's
/// repositories (commits on both sides of the deadline).
fn course_as_it_comes(part: &str, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("roster.csv"),
        "submission,id,login,name,participant\nana,340934,ana.s,Ana Souza,4112\nbia,340935,bia.l,Bia Lima,4113\n",
    )
    .unwrap();
    let (mut moodle, mut canvas) = (Vec::new(), Vec::new());
    for (file, bytes) in crate::download_support::exam("diego") {
        moodle.push((
            format!("Ana Souza_4112_assignsubmission_file/{file}"),
            bytes.clone(),
        ));
        canvas.push((format!("limabia_340935_777_{file}"), bytes));
    }
    for (file, bytes) in crate::download_support::exam("bruno") {
        moodle.push((
            format!("Bia Lima_4113_assignsubmission_file_{file}"),
            bytes.clone(),
        ));
        canvas.push((format!("souzaana_late_340934_778_{file}"), bytes));
    }
    match part {
        "Moodle" => crate::download_support::zip_of(&dir.join("submissions.zip"), &moodle),
        "Canvas" => crate::download_support::zip_of(&dir.join("submissions.zip"), &canvas),
        _ => {
            for (name, exams) in [("ana", ["bruno", "diego"]), ("bia", ["diego", "diego"])] {
                let repo = dir.join("classroom").join(name);
                std::fs::create_dir_all(&repo).unwrap();
                let dates = ["2026-12-01T10:00:00-03:00", "2026-12-02T10:00:00-03:00"];
                for (date, from) in dates.into_iter().zip(exams) {
                    for (file, bytes) in crate::download_support::exam(from) {
                        std::fs::write(repo.join(file), bytes).unwrap();
                    }
                    let script = "git init -q -b main; git add -A && \
                                  git -c user.name=s -c user.email=s@x commit -q --allow-empty -m work";
                    let done = std::process::Command::new("bash")
                        .args(["-c", script])
                        .current_dir(&repo)
                        .env("GIT_AUTHOR_DATE", date)
                        .env("GIT_COMMITTER_DATE", date)
                        .env("GIT_CONFIG_GLOBAL", "/dev/null")
                        .status()
                        .unwrap();
                    assert!(done.success());
                }
            }
        }
    }
}

/// The walks' LMS files: Canvas's column names the existing assignment by
/// its id, and Moodle's feedback folders are those its 4.1 import reads.
fn lms_files_as_each_lms_reads_them(scratch: &Path) {
    let canvas = std::fs::read_to_string(scratch.join("Canvas/canvas-grades/canvas.csv")).unwrap();
    assert!(
        canvas.starts_with("Student,ID,SIS User ID,SIS Login ID,Section,Jogo da velha (4567)\n"),
        "{canvas}"
    );
    let feedback =
        std::fs::File::open(scratch.join("Moodle/moodle-grades/moodle-feedback.zip")).unwrap();
    let feedback = zip::ZipArchive::new(feedback).unwrap();
    let mut entries: Vec<&str> = feedback.file_names().collect();
    entries.sort_unstable();
    assert_eq!(
        entries,
        [
            "Ana Souza_4112_assignsubmission_file/feedback.html",
            "Bia Lima_4113_assignsubmission_file/feedback.html"
        ]
    );
}

/// The instructors' guide's course, end to end, for each LMS: its
/// commands run on downloads built as each LMS names them (and
/// repositories with commits on both sides of the deadline), with the
/// kit's `boardkit` on the PATH; each leaves what the guide says to upload.
#[test]
#[ignore = "long: grades three small classes in the sandbox"]
fn the_instructors_course_walks_run() {
    let text = std::fs::read_to_string(root().join("docs/instructors.md")).unwrap();
    let kit = Path::new(env!("CARGO_BIN_EXE_boardkit"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        kit.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let scratch = tempfile::tempdir().unwrap();
    let walks: [(&str, &[&str]); 3] = [
        (
            "Moodle",
            &[
                "moodle-grades/moodle.csv",
                "moodle-grades/moodle-feedback.zip",
                "moodle-grades/students/ana/feedback.html",
            ],
        ),
        (
            "Canvas",
            &[
                "canvas-grades/canvas.csv",
                "canvas-grades/students/bia/feedback.html",
            ],
        ),
        (
            "GitHub Classroom",
            &[
                "classroom-grades/grades.csv",
                "classroom-grades/students/ana/feedback.md",
            ],
        ),
    ];
    for (part, expected) in walks {
        let dir = scratch.path().join(part.replace(' ', "-"));
        course_as_it_comes(part, &dir);
        let lines = part_lines(&text, "A course, end to end", part);
        assert_eq!(lines.len(), 1, "{part}: {lines:?}");
        for line in &lines {
            let run = std::process::Command::new("bash")
                .args(["-c", line])
                .current_dir(&dir)
                .env("PATH", &path)
                .output()
                .unwrap();
            assert!(run.status.success(), "{part}: {line}: {run:?}");
        }
        for file in expected {
            assert!(dir.join(file).is_file(), "{part}: no {file}");
        }
    }
    lms_files_as_each_lms_reads_them(scratch.path());
    // The class's repositories: ana's right exam a day late, 10 % off.
    let grades = std::fs::read_to_string(
        scratch
            .path()
            .join("GitHub-Classroom/classroom-grades/grades.csv"),
    )
    .unwrap();
    assert!(grades.contains(",late_days,penalty,"), "{grades}");
    assert!(grades.contains("2026-12-02T10:00:00-03:00,1,"), "{grades}");
}
