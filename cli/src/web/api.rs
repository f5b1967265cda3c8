//! The JSON of the browser API, apart from the code that serves it, so the
//! docs/players.md, the page's script and the tests all read one description: what
//! a client sends ([`NewGame`], [`Move`]) and what it gets back
//! ([`GameState`] or [`ErrorBody`]).
//!
//! Requests are strict (`deny_unknown_fields`): a misspelt field is an error
//! the client hears about, not a default it never asked for. Responses only
//! ever say what a player at the table could see: Mastermind's secret is
//! absent until the game is over.

use serde::{Deserialize, Serialize};

/// `POST /api/games`: which game (`game`: its name) and how, the other
/// fields each game's own (`web/games/<game>.rs`, strict like every request).
pub(crate) type NewGame = serde_json::Map<String, serde_json::Value>;

/// `POST /api/games/{id}/moves`: the player's choice, in the game's own
/// fields (`web/games/<game>.rs`): velha `row` and `col` (from 0, row 0 at
/// the top), connect four `col` (from 0), Mastermind `guess` (letters `A`
/// to `F`, as `"AABC"`).
pub(crate) type Move = serde_json::Map<String, serde_json::Value>;

/// A cell's coordinates, `[row, col]` from 0, row 0 at the top as drawn.
pub(crate) type Cell = [usize; 2];

/// Every answer about a game: its id and what the table shows.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GameState {
    pub id: String,
    #[serde(flatten)]
    pub view: GameView,
}

/// One game as the page draws it, as each game's file makes it; `game`
/// names which.
pub(crate) type GameView = serde_json::Map<String, serde_json::Value>;

/// The computer opponent of a board game.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub(crate) struct Opponent {
    /// Its level, as the request named it.
    pub level: String,
    /// The mark it plays: `X` (it started) or `O`.
    pub mark: char,
}

/// A velha or connect-four board. Connect four's `X` is player one (who
/// starts), `O` player two.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
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

/// Every error: `{"error": "..."}` with a 4xx (or 503) status.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ErrorBody {
    pub error: String,
}
