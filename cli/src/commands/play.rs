//! `boardkit play <game>`: the reference in the terminal, or scripted over
//! stdin. One subcommand per game of the registry, each with its own
//! options (its `play::<game>::PlayArgs`) and the session's.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{ArgMatches, Args, FromArgMatches};

use crate::play::TerminalGame;
use crate::play::session::SessionArgs;

/// The games `boardkit play` offers, in the registry's order.
fn games() -> impl Iterator<Item = &'static TerminalGame> {
    crate::registry::GAMES.iter().map(|g| g.terminal)
}

/// `boardkit play <game> [options]`, parsed.
pub(crate) struct PlayGame {
    game: &'static TerminalGame,
    /// The game's subcommand, for its own options.
    matches: ArgMatches,
    session: SessionArgs,
}

impl FromArgMatches for PlayGame {
    fn from_arg_matches(matches: &ArgMatches) -> Result<PlayGame, clap::Error> {
        let Some((name, matches)) = matches.subcommand() else {
            return Err(clap::Error::raw(
                ErrorKind::MissingSubcommand,
                "name a game",
            ));
        };
        let Some(game) = games().find(|g| g.id == name) else {
            let message = format!("no game {name:?}");
            return Err(clap::Error::raw(ErrorKind::InvalidSubcommand, message));
        };
        Ok(PlayGame {
            game,
            session: SessionArgs::from_arg_matches(matches)?,
            matches: matches.clone(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = PlayGame::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for PlayGame {
    fn augment_subcommands(command: clap::Command) -> clap::Command {
        games().fold(command, |command, game| {
            // After the options: their structs' docs would be its help.
            let subcommand = SessionArgs::augment_args((game.args)(clap::Command::new(game.id)))
                .about(game.about)
                .long_about(None);
            command.subcommand(subcommand)
        })
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        PlayGame::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        games().any(|g| g.id == name)
    }
}

/// Plays one session; the game prints its own messages, and its status is
/// the one `boardkit::program::run_play_in` gives (1 when input ends early).
pub(crate) fn run(play: PlayGame) -> ExitCode {
    let session = &play.session;
    session.apply_color_choice();
    boardkit::program::run_play_in(play.game.language.input_ended(), |input, output, color| {
        let terminal = session.terminal(color);
        (play.game.session)(&play.matches, session, input, output, terminal)
    })
}
