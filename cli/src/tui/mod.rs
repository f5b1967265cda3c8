//! `boardkit tui`: the games full screen (SPEC 7, "Full screen"),
//! with ratatui on crossterm. Arrow keys and Enter; the last move and the
//! winning line highlighted; every AI level; play again with the session's
//! score; undo; hints; the terminal restored on every exit. Kit-only:
//! starters do not get it (nor its crates).
//!
//! - [`app`]: the state machine, pure: keys in, state out.
//! - [`menu`]: the game, the mode, the level, who starts, the size.
//! - [`velha`], [`connect4`], [`mastermind`]: one game each, over the
//!   library's rules and AIs.
//! - [`thinkers`]: the computer opponent and the hint's player of velha
//!   and connect four, lent to threads.
//! - [`ui`]: draws an [`App`] into a ratatui frame (each game draws its
//!   own board: `velha/draw.rs`, ...).
//! - [`network`]: the network screen's state, fed by the session.
//! - [`network_session`]: `host --tui` and `join --tui`, a network
//!   session on its own thread feeding the screen.
//! - [`game`]: what every game is to the app; [`paint`]: the palette and
//!   the drawing the games share.
//! - [`terminal`]: the event loop, which owns the terminal.

pub(crate) mod app;
pub(crate) mod connect4;
pub(crate) mod game;
pub(crate) mod mastermind;
pub(crate) mod menu;
pub(crate) mod network;
pub(crate) mod network_session;
pub(crate) mod paint;
pub(crate) mod terminal;
pub(crate) mod thinkers;
pub(crate) mod ui;
pub(crate) mod velha;

pub(crate) use app::App;
pub(crate) use menu::TuiGame;

/// The names `boardkit tui <GAME>` takes, among `games`.
pub(crate) fn game_names(games: &[&TuiGame]) -> clap::builder::PossibleValuesParser {
    let names = games
        .iter()
        .map(|g| clap::builder::PossibleValue::new(g.id).help(g.title));
    clap::builder::PossibleValuesParser::new(names)
}

use std::process::ExitCode;

use crate::play::scoreboard;
use crate::play::session::login_name;

use boardkit::connect4::board::{MAX_SIDE, MIN_SIDE};
use boardkit::velha::board::{MAX_SIZE, MIN_SIZE};

const SIDE_RANGE: std::ops::RangeInclusive<i64> = MIN_SIDE as i64..=MAX_SIDE as i64;

/// The options of `boardkit tui`: what the menu starts with.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct TuiArgs {
    /// The game (default: pick it on the menu).
    // Its names are the registry's, set by the command (`game_names`).
    pub game: Option<String>,
    /// Velha's board side: N in a row wins (the menu can change it).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    pub size: u8,
    /// Connect four's columns (the menu can change them).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    pub cols: u8,
    /// Connect four's rows (the menu can change them).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    pub rows: u8,
    /// Seed for the computer's choices, the hints and the secrets, so that
    /// a session can be replayed (game k of the session uses seed + k).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Your name on the scoreboard (default: your login name).
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub scoreboard: scoreboard::ScoreboardArgs,
}

impl Default for TuiArgs {
    /// The options as `boardkit tui` alone gives them.
    fn default() -> TuiArgs {
        #[derive(clap::Parser)]
        struct Alone {
            #[command(flatten)]
            args: TuiArgs,
        }
        <Alone as clap::Parser>::parse_from(["tui"]).args
    }
}

/// The app as the options set it up, on its menu.
pub(crate) fn app(args: &TuiArgs, games: &[&TuiGame]) -> App {
    let menu = menu::Menu::new(games, args);
    App::new(menu, args.seed.unwrap_or_else(rand::random))
}

/// `boardkit tui`: runs the app full screen until the person quits, then
/// records the finished games on the scoreboard (a failure to is said on
/// stderr and changes nothing else).
pub(crate) fn run(args: &TuiArgs, games: &[&TuiGame]) -> ExitCode {
    let mut app = app(args, games);
    // Full screen is always a person at a terminal.
    let scoreboard = args.scoreboard.path(true);
    if scoreboard.is_some() {
        app.record_as(args.name.clone().unwrap_or_else(login_name));
    }
    let mut stopped = terminal::run_with_events(app, None);
    if let (Ok(stopped), Some(path)) = (&mut stopped, scoreboard) {
        let records = stopped.app.close();
        match path {
            _ if records.is_empty() => {}
            Ok(path) => scoreboard::record_and_report(&path, &records),
            Err(e) => eprintln!("boardkit: the results were not recorded: {e}"),
        }
    }
    exit_status(stopped.map(|stopped| stopped.signal))
}

/// `boardkit host <GAME> --tui`.
pub(crate) fn host(args: &crate::net::HostArgs, games: &[&'static TuiGame]) -> ExitCode {
    network_exit_status(network_session::host(args, games))
}

/// `boardkit join <HOST:PORT> --tui`.
pub(crate) fn join(
    args: &crate::net::JoinArgs,
    games: &[&'static TuiGame],
    network: &[&'static crate::net::NetworkGame],
) -> ExitCode {
    network_exit_status(network_session::join(args, games, network))
}

fn network_exit_status(result: Result<Option<i32>, crate::net::NetError>) -> ExitCode {
    match result {
        Ok(signal) => exit_status(Ok(signal)),
        Err(error) => crate::net::exit_status::<()>(Err(error)),
    }
}

/// The full screen's exit status: 0 when the person quit, 128 + the
/// signal's number when a signal stopped it (as a shell reports it), 1
/// with the error on stderr when the terminal failed.
fn exit_status(result: std::io::Result<Option<i32>>) -> ExitCode {
    match result {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(signal)) => ExitCode::from(128u8.saturating_add(signal as u8)),
        Err(error) => {
            eprintln!("boardkit: {error}");
            ExitCode::from(1)
        }
    }
}
