//! The JSON of the browser API, apart from the code that serves it, so the
//! README, the page's script and the tests all read one description: what
//! a client sends ([`NewGame`], [`Move`]) and what it gets back
//! ([`GameState`] or [`ErrorBody`]).
//!
//! Requests are strict (`deny_unknown_fields`): a misspelt field is an error
//! the client hears about, not a default it never asked for. Responses only
//! ever say what a player at the table could see: Mastermind's secret is
//! absent until the game is over.

use serde::{Deserialize, Serialize};

/// `POST /api/games`: which game, and how.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "game", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum NewGame {
    Velha {
        /// The board's side, 3 (default) to 9.
        #[serde(default = "default_velha_size")]
        size: usize,
        /// `easy`, `medium` or `hard`; absent or null: two players.
        #[serde(default)]
        opponent: Option<String>,
        /// The computer plays X and moves first.
        #[serde(default)]
        computer_first: bool,
        /// Makes the computer's random choices reproducible.
        #[serde(default)]
        seed: Option<u64>,
    },
    Connect4 {
        /// Rows, 4 to 20 (default 6).
        #[serde(default = "default_rows")]
        rows: usize,
        /// Columns, 4 to 20 (default 7).
        #[serde(default = "default_cols")]
        cols: usize,
        /// `random`, `smart` or `perfect` (7 x 6 only); absent or null: two
        /// players.
        #[serde(default)]
        opponent: Option<String>,
        #[serde(default)]
        computer_first: bool,
        #[serde(default)]
        seed: Option<u64>,
    },
    Mastermind {
        /// Draws the secret reproducibly (and seeds the codebreaker's
        /// choices); absent: a fresh secret.
        #[serde(default)]
        seed: Option<u64>,
    },
}

fn default_velha_size() -> usize {
    3
}

fn default_rows() -> usize {
    6
}

fn default_cols() -> usize {
    7
}

/// `POST /api/games/{id}/moves`: the player's choice. Velha takes `row` and
/// `col` (from 0, row 0 at the top), connect four `col` (from 0), Mastermind
/// `guess` (letters `A` to `F`, as `"AABC"`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Move {
    #[serde(default)]
    pub row: Option<usize>,
    #[serde(default)]
    pub col: Option<usize>,
    #[serde(default)]
    pub guess: Option<String>,
}

/// A cell's coordinates, `[row, col]` from 0, row 0 at the top as drawn.
pub(crate) type Cell = [usize; 2];

/// Every answer about a game: its id and what the table shows.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GameState {
    pub id: String,
    #[serde(flatten)]
    pub view: GameView,
}

/// One game as the page draws it; `game` names which.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub(crate) enum GameView {
    Velha(BoardView),
    Connect4(BoardView),
    Mastermind(MastermindView),
}

/// The computer opponent of a board game.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Opponent {
    /// Its level, as the request named it.
    pub level: String,
    /// The mark it plays: `X` (it started) or `O`.
    pub mark: char,
}

/// A velha or connect-four board. Connect four's `X` is player one (who
/// starts), `O` player two.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BoardView {
    pub rows: usize,
    pub cols: usize,
    /// Rows top first; each cell `"X"`, `"O"` or null.
    pub cells: Vec<Vec<Option<char>>>,
    /// Whose turn it is; null once the game is over.
    pub turn: Option<char>,
    pub over: bool,
    /// The winner's mark; null while playing and on a draw.
    pub winner: Option<char>,
    /// The terminal game's last line (`Vencedor: X`, `Empate`, `Player one
    /// won!`, `Computer won!`, `It is a draw.`); null while playing.
    pub result: Option<String>,
    /// The computer opponent, if any.
    pub computer: Option<Opponent>,
    /// The last mark played, by anyone.
    pub last_move: Option<Cell>,
    /// The computer's last mark (to highlight it).
    pub computer_move: Option<Cell>,
    /// The cells of the winning line(s).
    pub winning_cells: Vec<Cell>,
    /// How many moves were played.
    pub moves: usize,
}

/// One Mastermind guess and its pegs.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GuessView {
    pub guess: String,
    pub black: u8,
    pub white: u8,
    /// The kit's codebreaker played it ("let the computer solve it").
    pub by_computer: bool,
}

/// A Mastermind game: the guesses so far, never the secret before the end.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct MastermindView {
    pub pegs: usize,
    /// Colours are the letters from `A`; this many of them.
    pub colors: usize,
    pub turns: usize,
    pub guesses: Vec<GuessView>,
    pub over: bool,
    pub won: bool,
    /// The secret: null until the game is over.
    pub secret: Option<String>,
    /// `You win` or `You lose!` at the end; null while playing.
    pub result: Option<String>,
}

/// Every error: `{"error": "..."}` with a 4xx (or 503) status.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ErrorBody {
    pub error: String,
}
