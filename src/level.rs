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
