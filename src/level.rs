//! Levels, and how each level of a game is graded (SPEC 2 and 5.1).
//!
//! Shipped with every starter: the starter's tests, the kit's tests and the
//! grader read the same [`LevelInfo`] of a game, so a transcript is compared
//! the same way everywhere.

use std::fmt;
use std::str::FromStr;

/// A proficiency level (SPEC 2). A submission reaches a level when it passes
/// every case of that level and of every level below it.
// Serde only for the kit's own crate (its reports): a starter compiles no
// derive macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "kit", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "kit", serde(rename_all = "lowercase"))]
pub enum Level {
    Basic,
    Proficient,
    Advanced,
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Basic,
        Level::Proficient,
        Level::Advanced,
        Level::Expert,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Basic => "basic",
            Level::Proficient => "proficient",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                format!("unknown level {s:?}: expected basic, proficient, advanced or expert")
            })
    }
}

/// The words a test run's summary is printed in: a translated starter's
/// (`tests/locale.toml`, written by `boardkit starter --locale`), else
/// English. The `levels:` line and each level's English name stay, for
/// the tools that read a run (watch mode, a Python starter's pytest).
#[derive(Debug, Clone)]
pub struct Words {
    names: std::collections::BTreeMap<String, String>,
    passed: String,
    not_yet: String,
    reached: String,
    none: String,
    robustness_note: String,
}

impl Words {
    /// Where a translated starter keeps its words.
    pub const FILE: &'static str = "tests/locale.toml";

    /// English.
    pub fn english() -> Words {
        Words {
            names: Default::default(),
            passed: "passed".into(),
            not_yet: "<- not yet".into(),
            reached: "level reached: {name} (every level up to it passed, as the grader counts)"
                .into(),
            none: "none".into(),
            robustness_note: "(the kit's own rules: in the score, in no level)".into(),
        }
    }

    /// The words of the starter in `folder`: its `tests/locale.toml`, each
    /// word it lacks in English.
    pub fn load(folder: &std::path::Path) -> Words {
        let mut words = Words::english();
        let Some(table) = std::fs::read_to_string(folder.join(Words::FILE))
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
        else {
            return words;
        };
        let text = |key: &str| table.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        for (word, key) in [
            (&mut words.passed, "passed"),
            (&mut words.not_yet, "not_yet"),
            (&mut words.reached, "reached"),
            (&mut words.none, "none"),
            (&mut words.robustness_note, "robustness_note"),
        ] {
            if let Some(value) = text(key) {
                *word = value;
            }
        }
        if let Some(names) = table.get("level_names").and_then(|n| n.as_table()) {
            for (level, name) in names {
                if let Some(name) = name.as_str() {
                    words.names.insert(level.clone(), name.to_owned());
                }
            }
        }
        words
    }

    /// A level's name: `Básico (basic)` in a translation, `basic` in English.
    pub fn name(&self, level: &str) -> String {
        match self.names.get(level) {
            Some(own) if own != level => format!("{own} ({level})"),
            _ => level.to_owned(),
        }
    }

    /// The lines a run ends with: each level's tests passed and run, the
    /// robustness part's, and the level reached when every test ran
    /// (`every_ran`): the highest that passed whole with every level below.
    pub fn summary(
        &self,
        levels: &std::collections::BTreeMap<Level, (u32, u32)>,
        robustness: (u32, u32),
        every_ran: bool,
    ) -> String {
        let mut names: Vec<String> = levels.keys().map(|l| self.name(l.name())).collect();
        names.push(self.name("robustness"));
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(11);
        let pad = |name: String| {
            let fill = width - name.chars().count();
            format!("{name}{}", " ".repeat(fill))
        };
        let mut out = String::from("levels:\n");
        for (level, (run, passed)) in levels {
            let mark = if passed == run {
                String::new()
            } else {
                format!("  {}", self.not_yet)
            };
            out.push_str(&format!(
                "  {} {passed:>3}/{run} {}{mark}\n",
                pad(self.name(level.name())),
                self.passed
            ));
        }
        let (run, passed) = robustness;
        if run > 0 {
            out.push_str(&format!(
                "  {} {passed:>3}/{run} {} {}\n",
                pad(self.name("robustness")),
                self.passed,
                self.robustness_note
            ));
        }
        if every_ran {
            let reached = levels
                .iter()
                .take_while(|(_, (run, passed))| passed == run)
                .last()
                .map_or_else(|| self.none.clone(), |(level, _)| self.name(level.name()));
            out.push_str(&self.reached.replace("{name}", &reached));
            out.push('\n');
        }
        out
    }
}

/// The graded events of a transcript: what is compared, in order.
pub type EventsFn = fn(&str) -> Vec<String>;

/// What a level grades.
#[derive(Debug, Clone, Copy)]
pub enum Graded {
    /// Functions of the statement, called with the kit's cases.
    Functions(&'static [&'static str]),
    /// The game program, fed each fixture's stdin; its output is compared
    /// with the expected one by these graded events.
    Program(EventsFn),
}

/// One level of one game.
#[derive(Debug, Clone, Copy)]
pub struct LevelInfo {
    pub level: Level,
    pub graded: Graded,
    /// What the student must do at this level, in one line.
    pub summary: &'static str,
}

impl LevelInfo {
    /// The graded events of its program's transcripts; `None` for a level of
    /// functions.
    pub fn events(&self) -> Option<EventsFn> {
        match self.graded {
            Graded::Program(events) => Some(events),
            Graded::Functions(_) => None,
        }
    }
}

/// The level of `levels` that is `level`, if the game has it.
pub fn find(levels: &'static [LevelInfo], level: Level) -> Option<&'static LevelInfo> {
    levels.iter().find(|l| l.level == level)
}
