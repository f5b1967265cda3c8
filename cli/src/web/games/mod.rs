//! The games as the browser plays them: one [`WebGame`] per game in the
//! store, over the library's boards and AIs (`velha::Board` and its
//! `Computer`, `connect4::Board` and its players, Mastermind's scoring and
//! codebreakers), which keep every rule. Here is only what a web table adds:
//! who sits where, the seeded stream the computer's choices come from, and
//! the view a page draws ([`crate::web::api`]).
//!
//! Synchronous and pure apart from the AIs' time: the server runs the
//! computer's moves on blocking threads. A game keeps no AI between moves
//! (each move makes its player afresh, seeded from the game's stream), so a
//! live game weighs a board and a few numbers whatever its level: the
//! perfect connect-four player's 64 MiB table only lives while it thinks.
//!
//! Each game's table is a file of its own (`velha.rs`, `connect4.rs`,
//! `mastermind.rs`) behind one trait, [`Table`]; this file only builds the
//! one a request names.

pub(crate) mod connect4;
pub(crate) mod mastermind;
pub(crate) mod velha;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::api::{GameView, Move, NewGame};

/// A game as the browser plays it: its name in requests, its tab, its part
/// of the page and of the script (each a file of its own under `page/`),
/// and how a request's options make a table.
pub(crate) struct WebTable {
    /// As `POST /api/games` names it in `game`.
    pub id: &'static str,
    /// The tab's label.
    pub title: &'static str,
    /// The game's section of the page, inside its `<section>`.
    pub markup: &'static str,
    /// Its drawing, after the script every game shares.
    pub script: &'static str,
    /// A table from the request's options (every field but `game`) and the
    /// seed the request's own `seed` overrides.
    new: fn(Value, u64) -> Result<Box<dyn Table>, GameError>,
}

/// A request's options as `T` (strict: an unknown field is an error).
fn options<T: DeserializeOwned>(options: Value) -> Result<T, GameError> {
    serde_json::from_value(options).map_err(|e| GameError::Invalid(e.to_string()))
}

/// A move's fields as `T`, strict; `shape` says what a move is when they
/// are not.
fn move_as<T: DeserializeOwned>(request: &Move, shape: &str) -> Result<T, GameError> {
    serde_json::from_value(Value::Object(request.clone()))
        .map_err(|_| GameError::Invalid(shape.to_owned()))
}

/// A game view's JSON: `view`'s fields and `game`, which names the game.
fn tagged(game: &str, view: impl serde::Serialize) -> GameView {
    let mut json = match serde_json::to_value(view) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    json.insert("game".into(), game.into());
    json
}

/// Why a request makes no game or no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GameError {
    /// The request is well formed JSON but asks for what does not exist (a
    /// board size, a level, a cell off the board, a guess of bad letters).
    #[error("{0}")]
    Invalid(String),
    /// The rules refuse the move now (a taken cell, a full column, a game
    /// over, the computer's turn).
    #[error("{0}")]
    Illegal(String),
}

pub(super) fn invalid<T>(message: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::Invalid(message.into()))
}

pub(super) fn illegal<T>(message: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::Illegal(message.into()))
}

/// What the server asks of a game, whichever it is.
pub(crate) trait Table: std::fmt::Debug + Send {
    /// Plays the person's move, or says why it cannot be played (the game
    /// is then unchanged).
    fn play(&mut self, request: &Move) -> Result<(), GameError>;
    /// Whether the computer opponent is to move.
    fn computer_to_move(&self) -> bool {
        false
    }
    /// Plays the computer opponent's move if it is to move (may take a
    /// while: the perfect connect-four player searches).
    fn play_computer(&mut self) {}
    /// The kit's codebreaker plays the next guess ("let the computer solve
    /// it"), where the game has one.
    fn codebreaker_guess(&mut self) -> Result<(), GameError> {
        illegal("this game has no codebreaker to ask")
    }
    /// What the page draws.
    fn view(&self) -> GameView;
}

/// One game on the server.
#[derive(Debug)]
pub(crate) struct WebGame(Box<dyn Table>);

impl WebGame {
    /// A new game of `games` as `request` asks, its random choices drawn from `seed`
    /// (the request's own seed comes first). The computer has not moved
    /// yet, even when it starts: see [`WebGame::computer_to_move`].
    pub(crate) fn new(
        request: &NewGame,
        seed: u64,
        games: &[&WebTable],
    ) -> Result<WebGame, GameError> {
        let mut request = request.clone();
        let names = || games.iter().map(|g| g.id).collect::<Vec<_>>().join(", ");
        let game = match request.remove("game") {
            Some(Value::String(game)) => game,
            Some(other) => return invalid(format!("`game` is a name ({}), not {other}", names())),
            None => return invalid(format!("missing field `game`: {}", names())),
        };
        let Some(kind) = games.iter().find(|g| g.id == game) else {
            return invalid(format!("unknown game {game:?}: {}", names()));
        };
        Ok(WebGame((kind.new)(Value::Object(request), seed)?))
    }

    /// Plays the person's move, or says why it cannot be played (the game
    /// is then unchanged).
    pub(crate) fn play(&mut self, request: &Move) -> Result<(), GameError> {
        self.0.play(request)
    }

    /// Whether the computer opponent is to move (a velha or connect-four
    /// game against it, not over).
    pub(crate) fn computer_to_move(&self) -> bool {
        self.0.computer_to_move()
    }

    /// Plays the computer opponent's move if it is to move.
    pub(crate) fn play_computer(&mut self) {
        self.0.play_computer()
    }

    /// Mastermind: the kit's codebreaker plays the next guess; it goes on
    /// from whatever guesses are there.
    pub(crate) fn codebreaker_guess(&mut self) -> Result<(), GameError> {
        self.0.codebreaker_guess()
    }

    /// What the page draws.
    pub(crate) fn view(&self) -> GameView {
        self.0.view()
    }
}

#[cfg(test)]
mod tests {
    use super::mastermind::{MASTERMIND_TURNS, MastermindView};
    use super::*;
    use crate::web::api::BoardView;
    use serde_json::json;

    /// A request's JSON, as `POST /api/games` takes it.
    fn request(json: Value) -> NewGame {
        let Value::Object(map) = json else {
            panic!("an object")
        };
        map
    }

    fn new(json: Value) -> WebGame {
        WebGame::new(&request(json), 0, &crate::registry::web_games()).unwrap()
    }

    /// The view's JSON as the game's own view type.
    fn view<T: DeserializeOwned>(game: &WebGame) -> T {
        serde_json::from_value(Value::Object(game.view())).unwrap()
    }
    use boardkit::mastermind::{Code, Rules, random_secret};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn velha(opponent: Option<&str>, computer_first: bool) -> WebGame {
        new(json!({
            "game": "velha",
            "opponent": opponent,
            "computer_first": computer_first,
            "seed": 1,
        }))
    }

    fn at(row: usize, col: usize) -> Move {
        request(json!({"row": row, "col": col}))
    }

    fn column(col: usize) -> Move {
        request(json!({"col": col}))
    }

    fn guess(text: &str) -> Move {
        request(json!({"guess": text}))
    }

    #[test]
    fn two_players_play_velha_to_a_win_with_its_line() {
        let mut game = velha(None, false);
        for (r, c) in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)] {
            game.play(&at(r, c)).unwrap();
        }
        let view: BoardView = view(&game);
        assert_eq!(game.view()["game"], "velha");
        assert!(view.over);
        assert_eq!(view.winner, Some('X'));
        assert_eq!(view.result.as_deref(), Some("Vencedor: X"));
        assert_eq!(view.winning_cells, vec![[0, 0], [0, 1], [0, 2]]);
        assert_eq!(
            game.play(&at(2, 2)),
            Err(GameError::Illegal("the game is over".into()))
        );
    }

    #[test]
    fn velha_refuses_taken_cells_off_board_cells_and_other_games_moves() {
        let mut game = velha(None, false);
        game.play(&at(1, 1)).unwrap();
        assert!(matches!(game.play(&at(1, 1)), Err(GameError::Illegal(_))));
        assert!(matches!(game.play(&at(3, 0)), Err(GameError::Invalid(_))));
        assert!(matches!(game.play(&column(1)), Err(GameError::Invalid(_))));
        assert!(matches!(
            game.play(&guess("AAAA")),
            Err(GameError::Invalid(_))
        ));
    }

    #[test]
    fn the_hard_computer_never_loses_and_its_moves_are_shown() {
        let mut game = velha(Some("hard"), true);
        assert!(game.computer_to_move());
        assert!(matches!(game.play(&at(0, 0)), Err(GameError::Illegal(_))));
        game.play_computer();
        loop {
            let view: BoardView = view(&game);
            assert_eq!(view.computer_move, view.last_move);
            if view.over {
                assert_ne!(view.winner, Some('O'));
                break;
            }
            let (r, c) = (0..9)
                .map(|i| (i / 3, i % 3))
                .find(|&(r, c)| view.cells[r][c].is_none())
                .unwrap();
            game.play(&at(r, c)).unwrap();
            game.play_computer();
        }
    }

    #[test]
    fn unknown_levels_and_sizes_make_no_game() {
        let bad = [
            json!({"game": "velha", "size": 10}),
            json!({"game": "velha", "opponent": "perfect"}),
            json!({"game": "velha", "computer_first": true}),
            json!({"game": "velha", "colour": 1}),
            json!({"game": "connect4", "rows": 3}),
            json!({"game": "connect4", "cols": 8, "opponent": "perfect"}),
            json!({"game": "mastermind", "pegs": 5}),
            json!({"game": "chess"}),
            json!({"game": 4}),
            json!({"size": 3}),
        ];
        for json in bad {
            assert!(
                matches!(
                    WebGame::new(&request(json.clone()), 0, &crate::registry::web_games()),
                    Err(GameError::Invalid(_))
                ),
                "{json}"
            );
        }
    }

    #[test]
    fn connect_four_shows_rows_top_first_and_the_four() {
        let mut game = new(json!({"game": "connect4"}));
        for col in [0, 1, 0, 1, 0, 1, 0] {
            game.play(&column(col)).unwrap();
        }
        let view: BoardView = view(&game);
        assert_eq!(view.cells[5][0], Some('X'));
        assert_eq!(view.cells[5][1], Some('O'));
        assert_eq!(view.result.as_deref(), Some("Player one won!"));
        assert_eq!(view.last_move, Some([2, 0]));
        let mut four = view.winning_cells.clone();
        four.sort();
        assert_eq!(four, vec![[2, 0], [3, 0], [4, 0], [5, 0]]);
        assert!(matches!(game.play(&column(3)), Err(GameError::Illegal(_))));
    }

    #[test]
    fn a_full_column_is_illegal_and_an_absent_one_invalid() {
        let mut game = new(json!({"game": "connect4", "rows": 4, "cols": 4}));
        for _ in 0..4 {
            game.play(&column(0)).unwrap();
        }
        assert!(matches!(game.play(&column(0)), Err(GameError::Illegal(_))));
        assert!(matches!(game.play(&column(4)), Err(GameError::Invalid(_))));
    }

    #[test]
    fn the_secret_stays_hidden_until_the_end_and_the_codebreaker_finds_it() {
        let mut game = new(json!({"game": "mastermind", "seed": 42}));
        let secret = random_secret(Rules::default(), &mut ChaCha8Rng::seed_from_u64(42));
        assert!(!format!("{game:?}").contains(&secret.to_string()));
        game.play(&guess("AABB")).unwrap();
        assert!(matches!(
            game.play(&guess("AAB")),
            Err(GameError::Invalid(_))
        ));
        assert!(matches!(
            game.play(&guess("AABG")),
            Err(GameError::Invalid(_))
        ));
        loop {
            let view: MastermindView = view(&game);
            if view.over {
                assert!(view.won);
                assert_eq!(view.secret, Some(secret.to_string()));
                // The codebreaker found it, not the player.
                assert_eq!(view.result.as_deref(), Some("Solved by the computer"));
                assert!(view.guesses.len() <= 7);
                assert!(view.guesses[1..].iter().all(|g| g.by_computer));
                break;
            }
            assert_eq!(view.secret, None);
            let json = serde_json::to_string(&game.view()).unwrap();
            assert!(!json.contains(&format!("\"{secret}\"")), "{json}");
            game.codebreaker_guess().unwrap();
        }
        assert!(matches!(
            game.codebreaker_guess(),
            Err(GameError::Illegal(_))
        ));
    }

    #[test]
    fn ten_wrong_guesses_lose_and_show_the_secret() {
        let mut game = new(json!({"game": "mastermind", "seed": 7}));
        let secret = random_secret(Rules::default(), &mut ChaCha8Rng::seed_from_u64(7));
        let wrong = Code::all(Rules::default())
            .into_iter()
            .find(|c| *c != secret)
            .unwrap()
            .to_string();
        for _ in 0..MASTERMIND_TURNS {
            game.play(&guess(&wrong)).unwrap();
        }
        let view: MastermindView = view(&game);
        assert!(view.over && !view.won);
        assert_eq!(view.secret, Some(secret.to_string()));
        assert_eq!(view.result.as_deref(), Some("You lose!"));
        assert!(matches!(
            game.play(&guess(&wrong)),
            Err(GameError::Illegal(_))
        ));
    }
}
