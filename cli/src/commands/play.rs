//! `boardkit play <game>`: the reference in the terminal, or scripted over
//! stdin; each game's options are its `play::<game>::PlayArgs`.

use std::process::ExitCode;

use crate::play::session::{Language, SessionArgs};
use clap::Subcommand;

#[derive(Subcommand)]
pub(crate) enum PlayGame {
    /// Jogo da velha (tic-tac-toe): positions such as B2; X starts.
    Velha {
        #[command(flatten)]
        game: crate::play::velha::PlayArgs,
        #[command(flatten)]
        session: SessionArgs,
    },
    /// Connect four (puissance 4): type column numbers; X starts.
    Connect4 {
        #[command(flatten)]
        game: crate::play::connect4::PlayArgs,
        #[command(flatten)]
        session: SessionArgs,
    },
    /// Mastermind: guess the secret code, such as ABCD; 10 turns.
    Mastermind {
        #[command(flatten)]
        game: crate::play::mastermind::PlayArgs,
        #[command(flatten)]
        session: SessionArgs,
    },
}

/// Plays one session; the game prints its own messages, and its status is
/// the one `boardkit::cli::run_play_in` gives (1 when input ends early).
pub(crate) fn run(game: PlayGame) -> ExitCode {
    use crate::play::{connect4, mastermind, velha};
    let (session, language) = match &game {
        PlayGame::Velha { session, .. } => (session, Language::Portuguese),
        PlayGame::Connect4 { session, .. } | PlayGame::Mastermind { session, .. } => {
            (session, Language::English)
        }
    };
    session.apply_color_choice();
    boardkit::cli::run_play_in(language.input_ended(), |input, output, color| {
        let terminal = session.terminal(color);
        match &game {
            PlayGame::Velha { game, .. } => velha::session(game, session, input, output, terminal),
            PlayGame::Connect4 { game, .. } => {
                connect4::session(game, session, input, output, terminal)
            }
            PlayGame::Mastermind { game, .. } => {
                mastermind::session(game, session, input, output, terminal)
            }
        }
    })
}
