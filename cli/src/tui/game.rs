//! What every full-screen game is to the app: the keys it takes
//! ([`Key`]), its rounds and setups ([`Round`], [`Setup`], [`Game`]), the
//! computer's work handed to another thread ([`Work`], [`Thought`]), and
//! the words of its board descriptions. The games (`velha.rs`,
//! `connect4/`, ...) implement these; the app (`app.rs`) drives them; this
//! module imports neither.

use std::any::Any;
use std::time::Duration;

use boardkit::player::Strategy;

use ratatui::text::Line;

use crate::play::session::Language;

/// A key, as the app understands it (the event loop translates the
/// terminal's key events into these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Esc,
    Tab,
    Backspace,
    Char(char),
    /// Ctrl-C: in raw mode the terminal sends it as a key, not a signal.
    Interrupt,
}

/// What a game is waiting for; the screen says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Busy {
    /// The computer is to move.
    Computer,
    /// A hint was asked for.
    Hint,
}

/// How a game ended, by seat: against the computer seat 0 is the person
/// and 1 the computer; between two players 0 is X, 1 is O; in Mastermind 0
/// is found and 1 is not found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    Won(usize),
    Draw,
}

/// A computation taken out of a game, with the player it needs, to run on
/// another thread; its result goes back to [`Round::finish_work`].
pub(crate) type Work = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

/// A player's choice, with the player itself coming back from its thread.
pub(crate) struct Thought<B, M> {
    pub busy: Busy,
    /// The game's version when it was asked: a stale choice is dropped.
    pub asked_at: u64,
    pub choice: M,
    pub player: Box<dyn Strategy<B, M> + Send>,
}

/// The work of `player` choosing on `board`, for [`Round::take_work`].
pub(crate) fn lend<B: Send + 'static, M: Send + 'static>(
    busy: Busy,
    asked_at: u64,
    board: B,
    mut player: Box<dyn Strategy<B, M> + Send>,
) -> Work {
    Box::new(move || {
        let choice = player.choose(&board);
        Box::new(Thought {
            busy,
            asked_at,
            choice,
            player,
        })
    })
}

/// The [`Thought`] in a result of work made by [`lend`].
pub(crate) fn thought<B: 'static, M: 'static>(result: Box<dyn Any + Send>) -> Thought<B, M> {
    *result
        .downcast()
        .unwrap_or_else(|_| panic!("a game gets back the work it lent"))
}

/// What every game does for the app: keys for its board, undo, hint, the
/// computer's moves, its result.
pub(crate) trait Round {
    /// A key for the board: cursor moves, colours, Enter to play.
    fn handle(&mut self, key: Key);
    /// Takes back the person's last move, and the computer's reply after it.
    fn undo(&mut self);
    /// Asks for a hint: [`Round::busy`] says so until it is found.
    fn request_hint(&mut self);
    /// Stops waiting for the hint asked for (its work runs on, unheeded).
    fn cancel_hint(&mut self);
    /// What the game waits for before the person can play, if anything.
    fn busy(&self) -> Option<Busy>;
    /// The work for what the game waits for, with the player it needs;
    /// `None` when nothing waits or the work is out already.
    fn take_work(&mut self) -> Option<Work>;
    /// The result of work from [`Round::take_work`]: the move is played or
    /// the hint shown, unless the game moved on since.
    fn finish_work(&mut self, result: Box<dyn Any + Send>);
    /// The result, once the game is over.
    fn ending(&self) -> Option<Ending>;
    /// Whether undo may reopen a finished game.
    fn can_undo_after_the_end(&self) -> bool;
    /// How long until [`Round::tick`] is due, if the game moves by itself.
    fn tick_interval(&self) -> Option<Duration> {
        None
    }
    /// Time passed: a watched codebreaker guesses again.
    fn tick(&mut self) {}
}

/// A game as the menu set it up, each game's in its own file
/// (`tui/<game>/`): what the app says of it, and the game it starts.
pub(crate) trait Setup: std::fmt::Debug {
    /// The game's name on screen, such as `Connect four`.
    fn title(&self) -> &'static str;
    /// Such as `3 x 3, you against the computer (hard)`.
    fn description(&self) -> String;
    /// The score's names for seat 0 and seat 1.
    fn seats(&self) -> [&'static str; 2];
    /// Whether the score shows draws.
    fn draws(&self) -> bool {
        true
    }
    /// The language the game speaks on screen, as `boardkit play` does
    /// (velha's Portuguese).
    fn language(&self) -> Language {
        Language::English
    }
    /// The game and mode the scoreboard records, as `boardkit play` names
    /// them; `None` for a game that is nobody's (the watched codebreaker).
    fn record(&self) -> Option<(&'static str, String)>;
    /// A new game of this setup; `seed` drives its random choices.
    fn start(&self, seed: u64) -> Box<dyn Game>;
}

/// A game on screen: its rules for the app ([`Round`]) and its drawing.
pub(crate) trait Game: Round + Any {
    /// The board, the status line, the hint or message line and the keys.
    fn parts(&self, busy: Option<Busy>) -> Parts;
}

/// A board game's description: `board`, and who plays on it (`level`:
/// the computer's, if it plays).
pub(crate) fn board_description(board: &str, level: Option<String>) -> String {
    board_description_in(Language::English, board, level)
}

/// [`board_description`] in `language`.
pub(crate) fn board_description_in(
    language: Language,
    board: &str,
    level: Option<String>,
) -> String {
    match (language, level) {
        (Language::English, Some(level)) => {
            format!("{board}, you against the computer ({level})")
        }
        (Language::English, None) => format!("{board}, two players"),
        (Language::Portuguese, Some(level)) => {
            format!("{board}, você contra o computador ({level})")
        }
        (Language::Portuguese, None) => format!("{board}, dois jogadores"),
    }
}

/// A board game's seats: the person and the computer, or X and O.
pub(crate) fn board_seats(against_computer: bool) -> [&'static str; 2] {
    board_seats_in(Language::English, against_computer)
}

/// [`board_seats`] in `language`.
pub(crate) fn board_seats_in(language: Language, against_computer: bool) -> [&'static str; 2] {
    match (against_computer, language) {
        (true, Language::English) => ["you", "computer"],
        (true, Language::Portuguese) => ["você", "computador"],
        (false, _) => ["X", "O"],
    }
}

/// A board's status line, hint or message line and keys.
pub(crate) type Parts = (
    Vec<Line<'static>>,
    Line<'static>,
    Option<Line<'static>>,
    &'static str,
);

/// A game's board on the network screen: the full screen's game for two
/// players, in the wire's notation. Each game that network play has gives
/// one (its `TuiGame::network`); this screen names no game.
pub(crate) trait NetworkBoard {
    fn game(&self) -> &dyn Game;
    fn game_mut(&mut self) -> &mut dyn Game;
    /// The board as the screen draws it, the cursor shown on `my_turn`.
    fn lines(&self, my_turn: bool) -> Vec<ratatui::text::Line<'static>>;
    /// The hint asked for, in the wire's notation.
    fn hint(&self) -> Option<String>;
    /// The moves on the board, in the wire's notation.
    fn moves(&self) -> Vec<String>;
    /// Plays a move in the wire's notation, checked by the game's rules.
    fn play(&mut self, notation: &str) -> Result<(), crate::net::games::IllegalMove>;
}
