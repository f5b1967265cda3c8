//! The registry of the kit's games: what the binary, the starter generator,
//! the grader and the kit's check know of each game.
//!
//! It sits above the games: each entry points at the game's reference, its
//! shipped harness, its grading cases and its exercise manifest, and no game
//! module imports this one. Adding a game means adding its folder, its
//! harness, its grading cases, its `exercises/<game>/` data and one entry in
//! [`GAMES`].

use std::io::{BufRead, Write};

use boardkit::cli::PlayError;
use boardkit::level::{Level, LevelInfo};

pub use boardkit::function_cases::FunctionCase;

/// Plays the reference from the words after `play <game>`: input, output,
/// whether colours may be used.
pub type PlayFn = fn(&[String], &mut dyn BufRead, &mut dyn Write, bool) -> Result<(), PlayError>;

/// A game of the kit.
#[derive(Clone, Copy)]
pub struct GameInfo {
    /// The name used on the command line, as the fixtures folder and as the
    /// student's folder `src/<id>/`.
    pub id: &'static str,
    /// The game's section title in EXERCISE.md.
    pub title: &'static str,
    /// The levels and how each is graded (the shipped harness's).
    pub levels: &'static [LevelInfo],
    /// Plays the reference (when the grader needs expected output).
    pub play: PlayFn,
    /// Answers one function-level request (the shipped harness's driver,
    /// linked here to the reference).
    pub answer: fn(&str) -> String,
    /// Every answer accepted for a request (several when any best move will
    /// do), computed with the reference.
    pub accepted: fn(&str) -> Vec<String>,
    /// The public function-level cases, their calls' arguments only: the
    /// accepted answers are the reference's ([`GameInfo::accepted`]).
    pub function_cases: fn() -> Vec<FunctionCase>,
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
    pub fn level(&self, level: Level) -> Option<&'static LevelInfo> {
        boardkit::level::find(self.levels, level)
    }
}

/// Every game of the kit.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        id: "velha",
        title: "Jogo da velha",
        levels: boardkit::harness::velha::LEVELS,
        play: |words, input, output, color| {
            boardkit::cli::play_from_words(
                "velha",
                crate::play::velha::play,
                words,
                input,
                output,
                color,
            )
        },
        answer: boardkit::harness::velha::answer,
        accepted: crate::reference_cases::velha::accepted,
        function_cases: crate::reference_cases::velha::cases,
    },
    GameInfo {
        id: "connect4",
        title: "Connect four",
        levels: boardkit::harness::connect4::LEVELS,
        play: |words, input, output, color| {
            boardkit::cli::play_from_words(
                "connect4",
                crate::play::connect4::play,
                words,
                input,
                output,
                color,
            )
        },
        answer: boardkit::harness::connect4::answer,
        accepted: crate::reference_cases::connect4::accepted,
        function_cases: crate::reference_cases::connect4::cases,
    },
    GameInfo {
        id: "mastermind",
        title: "Mastermind",
        levels: boardkit::harness::mastermind::LEVELS,
        play: |words, input, output, color| {
            boardkit::cli::play_from_words(
                "mastermind",
                crate::play::mastermind::play,
                words,
                input,
                output,
                color,
            )
        },
        answer: boardkit::harness::mastermind::answer,
        accepted: crate::reference_cases::mastermind::accepted,
        function_cases: crate::reference_cases::mastermind::cases,
    },
];

/// The game named `id`, if the kit has it.
pub fn find(id: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.id == id)
}

/// The names of every game, for messages.
pub fn names() -> String {
    GAMES.iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
}

/// The games' names as a command line's values, each with its title.
pub fn names_parser() -> clap::builder::PossibleValuesParser {
    let names = GAMES
        .iter()
        .map(|g| clap::builder::PossibleValue::new(g.id).help(g.title));
    clap::builder::PossibleValuesParser::new(names)
}
