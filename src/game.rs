//! How each game describes itself to the kit: its levels, what each level
//! grades, and how a level's output is compared.
//!
//! The fixture runner, the starter generator and the grader read only this
//! description, so adding a game means adding its folder and its [`GameInfo`]
//! to [`GAMES`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A proficiency level (SPEC 2). A submission reaches a level when it passes
/// every case of that level and of every level below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// What a level grades.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graded {
    /// Library functions, called with the kit's cases and compared with the reference.
    Functions(&'static [&'static str]),
    /// The game program, fed each fixture's stdin.
    Program,
}

/// How a program level's output is compared with the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// Equal after normalising line endings and trailing whitespace.
    Exact,
    /// The graded events of SPEC 3 (title, boards, messages, result) in order;
    /// prompts and other text are ignored.
    Events,
}

/// One level of one game.
#[derive(Debug, Clone, Copy)]
pub struct LevelInfo {
    pub level: Level,
    pub graded: Graded,
    pub comparison: Comparison,
    /// What the student must do at this level, in one line.
    pub summary: &'static str,
}

/// A function-level case: its level, name and driver requests.
pub type FunctionCase = (Level, &'static str, Vec<String>);

/// Plays a game from the words after `play <game>`.
pub type PlayFn =
    fn(&[String], &mut crate::console::Console<'_>, bool) -> Result<(), crate::cli::PlayError>;

/// A game of the kit.
#[derive(Clone, Copy)]
pub struct GameInfo {
    /// The name used on the command line and as the fixtures folder.
    pub id: &'static str,
    pub title: &'static str,
    pub levels: &'static [LevelInfo],
    /// Plays the game (the reference, when the grader needs expected output).
    pub play: PlayFn,
    /// Answers one function-level request through the graded functions.
    pub answer: fn(&str) -> String,
    /// Every answer accepted for a request (several when any best move will do).
    pub accepted: fn(&str) -> Vec<String>,
    /// The function-level cases: (level, name, requests).
    pub function_cases: fn() -> Vec<FunctionCase>,
    /// The graded events of a transcript, for comparison by events.
    pub events: fn(&str) -> Vec<String>,
}

impl std::fmt::Debug for GameInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameInfo")
            .field("id", &self.id)
            .field("levels", &self.levels)
            .finish()
    }
}

impl GameInfo {
    pub fn level(&self, level: Level) -> Option<&LevelInfo> {
        self.levels.iter().find(|l| l.level == level)
    }
}

/// Every game of the kit.
pub const GAMES: &[GameInfo] = &[
    crate::velha::GAME,
    crate::connect4::GAME,
    crate::mastermind::GAME,
];

/// The game named `id`, if the kit has it.
pub fn find(id: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.id == id)
}
