//! The registry of the kit's games: what the binary, the starter generator,
//! the grader and the kit's check know of each game.
//!
//! It sits above the games and the front ends: each entry points at the
//! game's reference, its shipped harness, its grading cases, and its part
//! of each front end (`play`, full screen, browser), and neither a game nor
//! a front end imports this one: the commands hand each front end its
//! games. Adding a game means adding its files (docs/architecture.md, "Adding a fourth
//! game") and one entry in [`GAMES`].

use std::io::{BufRead, Write};

use boardkit::level::{Level, LevelInfo};
use boardkit::program::PlayError;

pub use boardkit::function_fixture::FunctionCase;

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
    /// A request as the student's code is called, in Rust or (`true`) in
    /// Python: what every failure of a function case names.
    pub shown_call: fn(&str, bool) -> String,
    /// Every answer accepted for a request (several when any best move will
    /// do), computed with the reference.
    pub accepted: fn(&str) -> Vec<String>,
    /// The public function-level cases, their calls' arguments only: the
    /// accepted answers are the reference's ([`GameInfo::accepted`]).
    pub function_cases: fn() -> Vec<FunctionCase>,
    /// `boardkit play <id>`: its options and session.
    pub(crate) terminal: &'static crate::play::TerminalGame,
    /// Its full-screen menu entry, if `boardkit tui` has it.
    pub(crate) tui: Option<&'static crate::tui::TuiGame>,
    /// Its browser table, if `boardkit serve` has it.
    pub(crate) web: Option<&'static crate::web::WebTable>,
    /// Its rules for network play, if two people play it over the network
    /// (`boardkit host` and `join`).
    pub(crate) network: Option<&'static crate::net::NetworkGame>,
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
            boardkit::program::play_from_words(
                "velha",
                crate::play::velha::play,
                words,
                input,
                output,
                color,
            )
        },
        answer: boardkit::harness::velha::answer,
        shown_call: boardkit::harness::velha::shown_call,
        accepted: crate::function_calls::velha::accepted,
        function_cases: crate::function_calls::velha::cases,
        terminal: &crate::play::velha::GAME,
        tui: Some(&crate::tui::velha::GAME),
        web: Some(&crate::web::games::velha::GAME),
        network: Some(&crate::net::games::velha::NETWORK),
    },
    GameInfo {
        id: "connect4",
        title: "Connect four",
        levels: boardkit::harness::connect4::LEVELS,
        play: |words, input, output, color| {
            boardkit::program::play_from_words(
                "connect4",
                crate::play::connect4::play,
                words,
                input,
                output,
                color,
            )
        },
        answer: boardkit::harness::connect4::answer,
        shown_call: boardkit::harness::connect4::shown_call,
        accepted: crate::function_calls::connect4::accepted,
        function_cases: crate::function_calls::connect4::cases,
        terminal: &crate::play::connect4::GAME,
        tui: Some(&crate::tui::connect4::GAME),
        web: Some(&crate::web::games::connect4::GAME),
        network: Some(&crate::net::games::connect4::NETWORK),
    },
    GameInfo {
        id: "mastermind",
        title: "Mastermind",
        levels: boardkit::harness::mastermind::LEVELS,
        play: |words, input, output, color| {
            boardkit::program::play_from_words(
                "mastermind",
                crate::play::mastermind::play,
                words,
                input,
                output,
                color,
            )
        },
        answer: boardkit::harness::mastermind::answer,
        shown_call: boardkit::harness::mastermind::shown_call,
        accepted: crate::function_calls::mastermind::accepted,
        function_cases: crate::function_calls::mastermind::cases,
        terminal: &crate::play::mastermind::GAME,
        tui: Some(&crate::tui::mastermind::GAME),
        web: Some(&crate::web::games::mastermind::GAME),
        network: None,
    },
];

/// The games `boardkit tui` has, in the menu's order.
pub(crate) fn tui_games() -> Vec<&'static crate::tui::TuiGame> {
    GAMES.iter().filter_map(|g| g.tui).collect()
}

/// The games `boardkit serve` has, in the page's order.
pub(crate) fn web_games() -> Vec<&'static crate::web::WebTable> {
    GAMES.iter().filter_map(|g| g.web).collect()
}

/// The games `boardkit host` and `join` play, in the registry's order.
pub(crate) fn network_games() -> Vec<&'static crate::net::NetworkGame> {
    GAMES.iter().filter_map(|g| g.network).collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Both readings of a game's options agree: the kit's clap (`boardkit
    /// play`) and a starter's lexopt (`Options::from_words`), on every
    /// fixture's words and on words both refuse.
    fn same_reading<A>(game: &'static str, refused: &[&str])
    where
        A: clap::Args + clap::FromArgMatches + boardkit::program::Options + std::fmt::Debug,
    {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(game);
        let fixtures = boardkit::session_fixture::Fixture::discover(&dir).unwrap();
        // Not the kit's own sessions: their options are `boardkit play`'s.
        let mut words: Vec<Vec<String>> = fixtures
            .into_iter()
            .filter(|f| !f.reference_only)
            .map(|f| f.args)
            .collect();
        words.push(Vec::new());
        for args in &words {
            let clap = boardkit::program::parse_play_args::<A>(game, args);
            let lexopt = A::from_words(args);
            match (&clap, &lexopt) {
                (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{game} {args:?}"),
                _ => panic!("{game} {args:?}: clap {clap:?}, lexopt {lexopt:?}"),
            }
        }
        for line in refused {
            let args: Vec<String> = line.split(' ').map(str::to_owned).collect();
            assert!(
                boardkit::program::parse_play_args::<A>(game, &args).is_err(),
                "clap {line}"
            );
            assert!(A::from_words(&args).is_err(), "lexopt {line}");
        }
    }

    #[test]
    fn a_starter_reads_a_games_options_as_boardkit_play_does() {
        same_reading::<boardkit::harness::velha::PlayArgs>("velha", &["--ai", "x", "--size 4"]);
        same_reading::<boardkit::harness::connect4::PlayArgs>(
            "connect4",
            &[
                "--rows 3",
                "--cols 21",
                "--rows x",
                "--ai clever",
                "--seed -1",
                "--computer-columns 1,2 --ai smart",
                "--bogus",
                "extra",
            ],
        );
        same_reading::<boardkit::harness::mastermind::PlayArgs>(
            "mastermind",
            &[
                "--turns 0",
                "--turns 101",
                "--secret ABCD --seed 1",
                "--pegs",
                "--colours 3",
            ],
        );
        let ok = |words: &str| {
            let args: Vec<String> = words.split(' ').map(str::to_owned).collect();
            let clap = boardkit::program::parse_play_args::<boardkit::harness::connect4::PlayArgs>(
                "connect4", &args,
            )
            .unwrap();
            let lexopt =
                <boardkit::harness::connect4::PlayArgs as boardkit::program::Options>::from_words(
                    &args,
                )
                .unwrap();
            assert_eq!(format!("{clap:?}"), format!("{lexopt:?}"), "{words}");
        };
        ok("--rows 4 --cols 20 --ai perfect --seed 7");
        ok("--rows=5 --ai=random");
        ok("--computer-columns 1,7,3");
    }

    #[test]
    fn each_front_end_calls_a_game_by_its_registry_name() {
        for game in GAMES {
            assert_eq!(game.terminal.id, game.id);
            assert_eq!(game.tui.map_or(game.id, |tui| tui.id), game.id);
            assert_eq!(game.web.map_or(game.id, |web| web.id), game.id);
        }
    }
}
