//! Session fixtures (not the function fixtures of `function_fixture.rs`,
//! nor the graded cases the `boardkit` binary makes of both): scripted
//! sessions, one per file, the single source of truth for
//! what a game program does.
//!
//! A fixture lives in `fixtures/<game>/<name>.toml` and says how to run the
//! program (`args` after `boardkit play <game>`), what to type (`stdin`), and how
//! it counts (`level`, `points`, `visibility`, `description`). The kit's tests
//! replay every file and snapshot the [`Transcript`]; the grader replays the
//! same files against student programs and compares with the reference.
//!
//! ```toml
//! description = "X wins on the first row"
//! level = "proficient"
//! points = 1
//! visibility = "public"   # or "hidden": never copied into a starter
//! args = []
//! reference_only = false  # true: pins the reference (seeded draws): kit-only
//! robustness = false      # true: a rule of the kit's own, graded in no level
//! stdin = "A1\nB1\nA2\nB2\nA3\n"
//! ```
//!
//! A hidden fixture names the public one whose inputs it varies
//! (`varies = "draw"`): the grader checks nothing the starter's tests do
//! not (a test holds every hidden fixture to it).
//!
//! `stdin` is text, or a list of parts for what TOML text cannot hold:
//! `"text"`, `{ bytes = [0xff, 0xfe] }` and `{ repeat = "x", times = 1048576 }`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::level::Level;

/// The name of the robustness part in test names and reports.
pub const ROBUSTNESS: &str = "robustness";

/// The most bytes a fixture's stdin may expand to.
pub const MAX_STDIN_BYTES: usize = 16 << 20;

/// Who may see a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Shipped in the student starter.
    #[default]
    Public,
    /// Only in the kit; reported without its input.
    Hidden,
}

/// One piece of a fixture's stdin.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum StdinPart {
    Text(String),
    Bytes { bytes: Vec<u8> },
    Repeat { repeat: String, times: usize },
}

/// A fixture's stdin, as written in its file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Stdin {
    Text(String),
    Parts(Vec<StdinPart>),
}

/// A scripted session.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    /// The file name without `.toml`: the case's name in tests and reports.
    #[serde(skip)]
    pub name: String,
    /// The game folder the file was found in.
    #[serde(skip)]
    pub game: String,
    pub description: String,
    pub level: Level,
    #[serde(default = "one")]
    pub points: u32,
    #[serde(default)]
    pub visibility: Visibility,
    #[serde(default)]
    pub args: Vec<String>,
    /// A session that pins the reference itself: its seeded random draws or
    /// an option the statement does not ask for (`--size`, velha's `--ai`).
    /// Only the kit's own tests replay it; starters and the grader never do.
    #[serde(default)]
    pub reference_only: bool,
    /// A hidden fixture: the public fixture of its level whose inputs it
    /// varies.
    #[serde(default)]
    pub varies: Option<String>,
    /// A rule of the kit's own, not the course's (the 4,096-byte line
    /// bound, lines that are not UTF-8, control characters, megabyte lines,
    /// end of input, CR LF): the robustness part of the grade, counted in
    /// the score and never in a level. Its comparison is its level's.
    #[serde(default)]
    pub robustness: bool,
    stdin: Stdin,
}

fn one() -> u32 {
    1
}

/// Why fixtures could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a valid fixture: {problem}", path.display())]
    Invalid {
        path: PathBuf,
        problem: InvalidFixture,
    },
}

/// What is wrong with a fixture's text.
#[derive(Debug, thiserror::Error)]
pub enum InvalidFixture {
    #[error("the file name is not UTF-8")]
    FileName,
    #[error(transparent)]
    Toml(#[from] toml::de::Error),
    #[error("the description must be one line")]
    MultilineDescription,
    #[error("stdin expands past {MAX_STDIN_BYTES} bytes")]
    StdinTooLong,
}

impl Fixture {
    /// Parses one fixture file.
    pub fn load(path: &Path) -> Result<Fixture, FixtureError> {
        let text = std::fs::read_to_string(path).map_err(|source| FixtureError::Read {
            path: path.to_owned(),
            source,
        })?;
        let name =
            path.file_stem()
                .and_then(|s| s.to_str())
                .ok_or_else(|| FixtureError::Invalid {
                    path: path.to_owned(),
                    problem: InvalidFixture::FileName,
                })?;
        let game = path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        Fixture::parse(&text, name, game).map_err(|problem| FixtureError::Invalid {
            path: path.to_owned(),
            problem,
        })
    }

    /// Parses a fixture's text; `name` and `game` are what its path says.
    pub fn parse(text: &str, name: &str, game: &str) -> Result<Fixture, InvalidFixture> {
        let mut fixture: Fixture = toml::from_str(text)?;
        fixture.name = name.to_owned();
        fixture.game = game.to_owned();
        if fixture.description.contains('\n') {
            return Err(InvalidFixture::MultilineDescription);
        }
        fixture.stdin_size()?;
        Ok(fixture)
    }

    /// Every fixture of a game folder (`fixtures/<game>`), sorted by level then name.
    pub fn discover(game_dir: &Path) -> Result<Vec<Fixture>, FixtureError> {
        let entries = std::fs::read_dir(game_dir).map_err(|source| FixtureError::Read {
            path: game_dir.to_owned(),
            source,
        })?;
        let mut fixtures = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|source| FixtureError::Read {
                    path: game_dir.to_owned(),
                    source,
                })?
                .path();
            if path.extension().is_some_and(|e| e == "toml") {
                fixtures.push(Fixture::load(&path)?);
            }
        }
        fixtures.sort_by(|a, b| (a.level, &a.name).cmp(&(b.level, &b.name)));
        Ok(fixtures)
    }

    /// The case's name in test runs and reports: `<level>::<name>`, so that
    /// `cargo test basic` selects one level; `robustness::<name>` for the
    /// kit's own rules (`cargo test robustness`).
    pub fn test_name(&self) -> String {
        if self.robustness {
            format!("{ROBUSTNESS}::{}", self.name)
        } else {
            format!("{}::{}", self.level, self.name)
        }
    }

    fn stdin_size(&self) -> Result<usize, InvalidFixture> {
        let size = match &self.stdin {
            Stdin::Text(text) => text.len(),
            Stdin::Parts(parts) => parts
                .iter()
                .try_fold(0usize, |total, part| {
                    let len = match part {
                        StdinPart::Text(t) => t.len(),
                        StdinPart::Bytes { bytes } => bytes.len(),
                        StdinPart::Repeat { repeat, times } => repeat.len().saturating_mul(*times),
                    };
                    total.checked_add(len).ok_or(())
                })
                .unwrap_or(usize::MAX),
        };
        if size > MAX_STDIN_BYTES {
            return Err(InvalidFixture::StdinTooLong);
        }
        Ok(size)
    }

    /// The bytes to feed the program.
    pub fn stdin_bytes(&self) -> Vec<u8> {
        match &self.stdin {
            Stdin::Text(text) => text.as_bytes().to_vec(),
            Stdin::Parts(parts) => {
                let mut bytes = Vec::with_capacity(self.stdin_size().unwrap_or(0));
                for part in parts {
                    match part {
                        StdinPart::Text(t) => bytes.extend_from_slice(t.as_bytes()),
                        StdinPart::Bytes { bytes: b } => bytes.extend_from_slice(b),
                        StdinPart::Repeat { repeat, times } => {
                            bytes.extend_from_slice(repeat.repeat(*times).as_bytes())
                        }
                    }
                }
                bytes
            }
        }
    }
}

/// What one run of a program produced: the text a snapshot holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transcript {
    pub args: Vec<String>,
    pub exit_code: Option<i32>,
    /// The signal that killed the program, if one did.
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl fmt::Display for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "$ boardkit {}", self.args.join(" "))?;
        match self.exit_code {
            Some(code) => writeln!(f, "exit status: {code}")?,
            None => match self.signal {
                Some(signal) => writeln!(
                    f,
                    "exit status: killed by {}",
                    crate::compare::signal_name(signal)
                )?,
                None => writeln!(f, "exit status: killed by a signal")?,
            },
        }
        writeln!(f, "----- stderr -----")?;
        write!(f, "{}", self.stderr)?;
        writeln!(f, "----- stdout -----")?;
        write!(f, "{}", self.stdout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_parts_expand_to_bytes() {
        let fixture: Fixture = toml::from_str(
            r#"
            description = "parts"
            level = "advanced"
            stdin = ["A1\r\n", { bytes = [255, 10] }, { repeat = "ab", times = 3 }]
            "#,
        )
        .unwrap();
        assert_eq!(fixture.stdin_bytes(), b"A1\r\n\xff\nababab");
        assert_eq!(fixture.points, 1);
        assert_eq!(fixture.visibility, Visibility::Public);
    }

    #[test]
    fn unknown_fields_and_huge_stdin_are_refused() {
        assert!(
            toml::from_str::<Fixture>("description='x'\nlevel='basic'\nstdin=''\nextra=1").is_err()
        );
        let dir = std::env::temp_dir().join(format!("boardkit-fixture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("huge.toml");
        std::fs::write(
            &path,
            "description='x'\nlevel='basic'\nstdin=[{ repeat = 'x', times = 999999999999 }]",
        )
        .unwrap();
        assert!(matches!(
            Fixture::load(&path),
            Err(FixtureError::Invalid { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
