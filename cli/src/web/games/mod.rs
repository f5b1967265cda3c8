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

mod connect4;
mod mastermind;
mod velha;

use super::api::{GameView, Move, NewGame};

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
        illegal("only Mastermind has a codebreaker to ask")
    }
    /// What the page draws.
    fn view(&self) -> GameView;
}

/// One game on the server.
#[derive(Debug)]
pub(crate) struct WebGame(Box<dyn Table>);

impl WebGame {
    /// A new game as `request` asks, its random choices drawn from `seed`
    /// (the request's own seed comes first). The computer has not moved
    /// yet, even when it starts: see [`WebGame::computer_to_move`].
    pub(crate) fn new(request: &NewGame, seed: u64) -> Result<WebGame, GameError> {
        let table: Box<dyn Table> = match *request {
            NewGame::Velha {
                size,
                ref opponent,
                computer_first,
                seed: own,
            } => Box::new(velha::VelhaTable::new(
                size,
                opponent.as_deref(),
                computer_first,
                own.unwrap_or(seed),
            )?),
            NewGame::Connect4 {
                rows,
                cols,
                ref opponent,
                computer_first,
                seed: own,
            } => Box::new(connect4::Connect4Table::new(
                rows,
                cols,
                opponent.as_deref(),
                computer_first,
                own.unwrap_or(seed),
            )?),
            NewGame::Mastermind { seed: own } => {
                Box::new(mastermind::MastermindTable::new(own.unwrap_or(seed)))
            }
        };
        Ok(WebGame(table))
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
    use super::mastermind::MASTERMIND_TURNS;
    use super::*;
    use boardkit::mastermind::{Code, Rules, random_secret};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn velha(opponent: Option<&str>, computer_first: bool) -> WebGame {
        WebGame::new(
            &NewGame::Velha {
                size: 3,
                opponent: opponent.map(str::to_owned),
                computer_first,
                seed: Some(1),
            },
            0,
        )
        .unwrap()
    }

    fn at(row: usize, col: usize) -> Move {
        Move {
            row: Some(row),
            col: Some(col),
            guess: None,
        }
    }

    fn column(col: usize) -> Move {
        Move {
            col: Some(col),
            ..Move::default()
        }
    }

    fn guess(text: &str) -> Move {
        Move {
            guess: Some(text.to_owned()),
            ..Move::default()
        }
    }

    #[test]
    fn two_players_play_velha_to_a_win_with_its_line() {
        let mut game = velha(None, false);
        for (r, c) in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)] {
            game.play(&at(r, c)).unwrap();
        }
        let GameView::Velha(view) = game.view() else {
            panic!()
        };
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
        while let GameView::Velha(view) = game.view() {
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
            NewGame::Velha {
                size: 10,
                opponent: None,
                computer_first: false,
                seed: None,
            },
            NewGame::Velha {
                size: 3,
                opponent: Some("perfect".into()),
                computer_first: false,
                seed: None,
            },
            NewGame::Velha {
                size: 3,
                opponent: None,
                computer_first: true,
                seed: None,
            },
            NewGame::Connect4 {
                rows: 3,
                cols: 7,
                opponent: None,
                computer_first: false,
                seed: None,
            },
            NewGame::Connect4 {
                rows: 6,
                cols: 8,
                opponent: Some("perfect".into()),
                computer_first: false,
                seed: None,
            },
        ];
        for request in &bad {
            assert!(
                matches!(WebGame::new(request, 0), Err(GameError::Invalid(_))),
                "{request:?}"
            );
        }
    }

    #[test]
    fn connect_four_shows_rows_top_first_and_the_four() {
        let mut game = WebGame::new(
            &NewGame::Connect4 {
                rows: 6,
                cols: 7,
                opponent: None,
                computer_first: false,
                seed: None,
            },
            0,
        )
        .unwrap();
        for col in [0, 1, 0, 1, 0, 1, 0] {
            game.play(&column(col)).unwrap();
        }
        let GameView::Connect4(view) = game.view() else {
            panic!()
        };
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
        let mut game = WebGame::new(
            &NewGame::Connect4 {
                rows: 4,
                cols: 4,
                opponent: None,
                computer_first: false,
                seed: None,
            },
            0,
        )
        .unwrap();
        for _ in 0..4 {
            game.play(&column(0)).unwrap();
        }
        assert!(matches!(game.play(&column(0)), Err(GameError::Illegal(_))));
        assert!(matches!(game.play(&column(4)), Err(GameError::Invalid(_))));
    }

    #[test]
    fn the_secret_stays_hidden_until_the_end_and_the_codebreaker_finds_it() {
        let mut game = WebGame::new(&NewGame::Mastermind { seed: Some(42) }, 0).unwrap();
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
            let GameView::Mastermind(view) = game.view() else {
                panic!()
            };
            if view.over {
                assert!(view.won);
                assert_eq!(view.secret, Some(secret.to_string()));
                assert_eq!(view.result.as_deref(), Some("You win"));
                assert!(view.guesses.len() <= 7);
                assert!(view.guesses[1..].iter().all(|g| g.by_computer));
                break;
            }
            assert_eq!(view.secret, None);
            let json = serde_json::to_string(&view).unwrap();
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
        let mut game = WebGame::new(&NewGame::Mastermind { seed: Some(7) }, 0).unwrap();
        let secret = random_secret(Rules::default(), &mut ChaCha8Rng::seed_from_u64(7));
        let wrong = Code::all(Rules::default())
            .into_iter()
            .find(|c| *c != secret)
            .unwrap()
            .to_string();
        for _ in 0..MASTERMIND_TURNS {
            game.play(&guess(&wrong)).unwrap();
        }
        let GameView::Mastermind(view) = game.view() else {
            panic!()
        };
        assert!(view.over && !view.won);
        assert_eq!(view.secret, Some(secret.to_string()));
        assert_eq!(view.result.as_deref(), Some("You lose!"));
        assert!(matches!(
            game.play(&guess(&wrong)),
            Err(GameError::Illegal(_))
        ));
    }
}
