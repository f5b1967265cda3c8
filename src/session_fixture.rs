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

use crate::level::Level;

/// The name of the robustness part in test names and reports.
pub const ROBUSTNESS: &str = "robustness";

/// The most bytes a fixture's stdin may expand to.
pub const MAX_STDIN_BYTES: usize = 16 << 20;

/// Who may see a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Visibility {
    /// Shipped in the student starter.
    #[default]
    Public,
    /// Only in the kit; reported without its input.
    Hidden,
}

/// One piece of a fixture's stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StdinPart {
    Text(String),
    Bytes { bytes: Vec<u8> },
    Repeat { repeat: String, times: usize },
}

/// A fixture's stdin, as written in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stdin {
    Text(String),
    Parts(Vec<StdinPart>),
}

/// A scripted session.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The file name without `.toml`: the case's name in tests and reports.
    pub name: String,
    /// The game folder the file was found in.
    pub game: String,
    pub description: String,
    pub level: Level,
    /// 1 unless it says.
    pub points: u32,
    pub visibility: Visibility,
    pub args: Vec<String>,
    /// A session that pins the reference itself: its seeded random draws or
    /// an option the statement does not ask for (`--size`, velha's `--ai`).
    /// Only the kit's own tests replay it; starters and the grader never do.
    pub reference_only: bool,
    /// A hidden fixture: the public fixture of its level whose inputs it
    /// varies.
    pub varies: Option<String>,
    /// A rule of the kit's own, not the course's (the 4,096-byte line
    /// bound, lines that are not UTF-8, control characters, megabyte lines,
    /// end of input, CR LF): the robustness part of the grade, counted in
    /// the score and never in a level. Its comparison is its level's.
    pub robustness: bool,
    stdin: Stdin,
}

/// Why fixtures could not be loaded.
#[derive(Debug)]
pub enum FixtureError {
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    Invalid {
        path: PathBuf,
        problem: InvalidFixture,
    },
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixtureError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            FixtureError::Invalid { path, problem } => {
                write!(f, "{} is not a valid fixture: {problem}", path.display())
            }
        }
    }
}

impl std::error::Error for FixtureError {}

/// What is wrong with a fixture's text.
#[derive(Debug)]
pub enum InvalidFixture {
    FileName,
    /// Not TOML, or not a fixture's fields: what is wrong, in words.
    Malformed(String),
    MultilineDescription,
    StdinTooLong,
}

impl fmt::Display for InvalidFixture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidFixture::FileName => f.write_str("the file name is not UTF-8"),
            InvalidFixture::Malformed(problem) => f.write_str(problem),
            InvalidFixture::MultilineDescription => f.write_str("the description must be one line"),
            InvalidFixture::StdinTooLong => write!(f, "stdin expands past {MAX_STDIN_BYTES} bytes"),
        }
    }
}

impl std::error::Error for InvalidFixture {}

/// A fixture file's fields, read one by one from its TOML table (the
/// `toml` crate's parser, without serde's derive: a starter's first build
/// compiles no proc macro). Every field taken; what is left is unknown.
pub struct Fields(toml::Table);

impl Fields {
    /// Parses `text` as a TOML table.
    pub fn parse(text: &str) -> Result<Fields, String> {
        text.parse::<toml::Table>()
            .map(Fields)
            .map_err(|e| e.to_string().trim_end().to_owned())
    }

    /// The value of `key`, taken out of the table.
    pub fn take(&mut self, key: &str) -> Option<toml::Value> {
        self.0.remove(key)
    }

    /// A text field, if there.
    pub fn text(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.take(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(format!("`{key}` must be text, not {}", other.type_str())),
        }
    }

    /// A text field that must be there.
    pub fn required_text(&mut self, key: &str) -> Result<String, String> {
        self.text(key)?
            .ok_or_else(|| format!("missing field `{key}`"))
    }

    /// A true-or-false field, `false` when missing.
    pub fn flag(&mut self, key: &str) -> Result<bool, String> {
        match self.take(key) {
            None => Ok(false),
            Some(toml::Value::Boolean(b)) => Ok(b),
            Some(other) => Err(format!(
                "`{key}` must be true or false, not {}",
                other.type_str()
            )),
        }
    }

    /// A whole number field, if there.
    pub fn number(&mut self, key: &str) -> Result<Option<u64>, String> {
        match self.take(key) {
            None => Ok(None),
            Some(toml::Value::Integer(n)) if n >= 0 => Ok(Some(n as u64)),
            Some(other) => Err(format!("`{key}` must be a whole number, not {other}")),
        }
    }

    /// A list of texts, empty when missing.
    pub fn texts(&mut self, key: &str) -> Result<Vec<String>, String> {
        match self.take(key) {
            None => Ok(Vec::new()),
            Some(value) => texts(&value).ok_or_else(|| format!("`{key}` must be a list of texts")),
        }
    }

    /// The level a field names.
    pub fn level(&mut self, key: &str) -> Result<Level, String> {
        let name = self.required_text(key)?;
        name.parse()
            .map_err(|_| format!("`{key}`: unknown level {name:?}"))
    }

    /// Refuses any field not taken.
    pub fn finish(self) -> Result<(), String> {
        match self.0.keys().next() {
            None => Ok(()),
            Some(key) => Err(format!("unknown field `{key}`")),
        }
    }
}

/// A list of texts, if `value` is one.
pub fn texts(value: &toml::Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

impl Stdin {
    /// A stdin from its TOML value: text, or a list of parts.
    pub fn from_toml(value: toml::Value) -> Result<Stdin, String> {
        stdin_of(value)
    }

    /// Its size in bytes; `None` beyond [`MAX_STDIN_BYTES`].
    pub fn size(&self) -> Option<usize> {
        let size = match self {
            Stdin::Text(text) => text.len(),
            Stdin::Parts(parts) => parts
                .iter()
                .try_fold(0usize, |total, part| {
                    let len = match part {
                        StdinPart::Text(t) => t.len(),
                        StdinPart::Bytes { bytes } => bytes.len(),
                        StdinPart::Repeat { repeat, times } => repeat.len().saturating_mul(*times),
                    };
                    total.checked_add(len)
                })
                .unwrap_or(usize::MAX),
        };
        (size <= MAX_STDIN_BYTES).then_some(size)
    }

    /// The bytes to feed the program.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Stdin::Text(text) => text.as_bytes().to_vec(),
            Stdin::Parts(parts) => {
                let mut bytes = Vec::with_capacity(self.size().unwrap_or(0));
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

/// A fixture's stdin from its TOML value: text, or a list of parts.
fn stdin_of(value: toml::Value) -> Result<Stdin, String> {
    let part = |value: &toml::Value| -> Option<StdinPart> {
        if let Some(text) = value.as_str() {
            return Some(StdinPart::Text(text.to_owned()));
        }
        let table = value.as_table()?;
        match (table.get("bytes"), table.get("repeat"), table.get("times")) {
            (Some(bytes), None, None) if table.len() == 1 => Some(StdinPart::Bytes {
                bytes: bytes
                    .as_array()?
                    .iter()
                    .map(|b| b.as_integer().and_then(|b| u8::try_from(b).ok()))
                    .collect::<Option<_>>()?,
            }),
            (None, Some(repeat), Some(times)) if table.len() == 2 => Some(StdinPart::Repeat {
                repeat: repeat.as_str()?.to_owned(),
                times: usize::try_from(times.as_integer()?).ok()?,
            }),
            _ => None,
        }
    };
    match value {
        toml::Value::String(text) => Ok(Stdin::Text(text)),
        toml::Value::Array(parts) => parts
            .iter()
            .map(part)
            .collect::<Option<_>>()
            .map(Stdin::Parts)
            .ok_or_else(|| {
                "`stdin`: each part is text, { bytes = [...] } or { repeat = \"...\", times = N }"
                    .to_owned()
            }),
        _ => Err("`stdin` must be text or a list of parts".to_owned()),
    }
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
        let fixture = Fixture::from_fields(text, name, game).map_err(InvalidFixture::Malformed)?;
        if fixture.description.contains('\n') {
            return Err(InvalidFixture::MultilineDescription);
        }
        fixture.stdin_size()?;
        Ok(fixture)
    }

    fn from_fields(text: &str, name: &str, game: &str) -> Result<Fixture, String> {
        let mut fields = Fields::parse(text)?;
        let points = fields.number("points")?.unwrap_or(1);
        let visibility = match fields.text("visibility")?.as_deref() {
            None | Some("public") => Visibility::Public,
            Some("hidden") => Visibility::Hidden,
            Some(other) => {
                return Err(format!("`visibility`: unknown {other:?}, public or hidden"));
            }
        };
        let fixture = Fixture {
            name: name.to_owned(),
            game: game.to_owned(),
            description: fields.required_text("description")?,
            level: fields.level("level")?,
            points: u32::try_from(points).map_err(|_| "`points` is too large".to_owned())?,
            visibility,
            args: fields.texts("args")?,
            reference_only: fields.flag("reference_only")?,
            varies: fields.text("varies")?,
            robustness: fields.flag("robustness")?,
            stdin: stdin_of(
                fields
                    .take("stdin")
                    .ok_or_else(|| "missing field `stdin`".to_owned())?,
            )?,
        };
        fields.finish()?;
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
        self.stdin.size().ok_or(InvalidFixture::StdinTooLong)
    }

    /// The bytes to feed the program.
    pub fn stdin_bytes(&self) -> Vec<u8> {
        self.stdin.bytes()
    }
}

/// A file's fingerprint in a starter's `tests/cases.lock`: 64-bit FNV-1a
/// of its bytes, CR LF read as LF (a Windows checkout's line ends change
/// nothing). Stable on any toolchain, which std's `DefaultHasher` is not
/// promised to be.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &byte) in bytes.iter().enumerate() {
        if byte == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The file that pins a starter's public cases.
pub const CASES_LOCK: &str = "tests/cases.lock";

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
        let fixture = Fixture::parse(
            r#"
            description = "parts"
            level = "advanced"
            stdin = ["A1\r\n", { bytes = [255, 10] }, { repeat = "ab", times = 3 }]
            "#,
            "parts",
            "velha",
        )
        .unwrap();
        assert_eq!(fixture.stdin_bytes(), b"A1\r\n\xff\nababab");
        assert_eq!(fixture.points, 1);
        assert_eq!(fixture.visibility, Visibility::Public);
    }

    #[test]
    fn unknown_fields_and_huge_stdin_are_refused() {
        let refused = |text: &str| Fixture::parse(text, "x", "velha").unwrap_err().to_string();
        assert_eq!(
            refused("description='x'\nlevel='basic'\nstdin=''\nextra=1"),
            "unknown field `extra`"
        );
        assert_eq!(
            refused("description='x'\nstdin=''"),
            "missing field `level`"
        );
        assert!(refused("description='x'\nlevel='top'\nstdin=''").contains("unknown level"));
        assert!(
            refused("description='x'\nlevel='basic'\nstdin=[{ bytes = [256] }]").contains("bytes")
        );
        assert!(refused("description=1\nlevel='basic'\nstdin=''").contains("must be text"));
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
