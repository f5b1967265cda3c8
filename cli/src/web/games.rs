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

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::api::{BoardView, Cell, GameView, GuessView, MastermindView, Move, NewGame, Opponent};
use crate::table::{
    self, connect4::Computer as Connect4Computer, velha::Computer as VelhaComputer,
};
use clap::ValueEnum;

use boardkit::connect4::solver::Shape;
use boardkit::mastermind::optimal::OptimalCodebreaker;
use boardkit::mastermind::solver::{BEST, Codebreaker};
use boardkit::mastermind::{Code, DecodingBoard, Rules, parse_guess, random_secret, score};
use boardkit::player::Strategy;

use boardkit::{connect4, velha};

/// Guesses a Mastermind game allows (as `boardkit play mastermind`).
pub(crate) const MASTERMIND_TURNS: usize = 10;

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

fn invalid<T>(message: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::Invalid(message.into()))
}

fn illegal<T>(message: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::Illegal(message.into()))
}

/// One game on the server.
#[derive(Debug)]
pub(crate) enum WebGame {
    Velha(VelhaTable),
    Connect4(Connect4Table),
    Mastermind(MastermindTable),
}

impl WebGame {
    /// A new game as `request` asks, its random choices drawn from `seed`
    /// (the request's own seed comes first). The computer has not moved
    /// yet, even when it starts: see [`WebGame::computer_to_move`].
    pub(crate) fn new(request: &NewGame, seed: u64) -> Result<WebGame, GameError> {
        match *request {
            NewGame::Velha {
                size,
                ref opponent,
                computer_first,
                seed: own,
            } => VelhaTable::new(
                size,
                opponent.as_deref(),
                computer_first,
                own.unwrap_or(seed),
            )
            .map(WebGame::Velha),
            NewGame::Connect4 {
                rows,
                cols,
                ref opponent,
                computer_first,
                seed: own,
            } => Connect4Table::new(
                rows,
                cols,
                opponent.as_deref(),
                computer_first,
                own.unwrap_or(seed),
            )
            .map(WebGame::Connect4),
            NewGame::Mastermind { seed: own } => Ok(WebGame::Mastermind(MastermindTable::new(
                own.unwrap_or(seed),
            ))),
        }
    }

    /// Plays the person's move, or says why it cannot be played (the game
    /// is then unchanged).
    pub(crate) fn play(&mut self, request: &Move) -> Result<(), GameError> {
        match self {
            WebGame::Velha(t) => t.play(request),
            WebGame::Connect4(t) => t.play(request),
            WebGame::Mastermind(t) => t.play(request),
        }
    }

    /// Whether the computer opponent is to move (a velha or connect-four
    /// game against it, not over).
    pub(crate) fn computer_to_move(&self) -> bool {
        match self {
            WebGame::Velha(t) => t.computer_to_move(),
            WebGame::Connect4(t) => t.computer_to_move(),
            WebGame::Mastermind(_) => false,
        }
    }

    /// Plays the computer opponent's move if it is to move (may take a
    /// while: the perfect connect-four player searches).
    pub(crate) fn play_computer(&mut self) {
        match self {
            WebGame::Velha(t) => t.play_computer(),
            WebGame::Connect4(t) => t.play_computer(),
            WebGame::Mastermind(_) => {}
        }
    }

    /// Mastermind: the kit's codebreaker plays the next guess ("let the
    /// computer solve it"); it goes on from whatever guesses are there.
    pub(crate) fn codebreaker_guess(&mut self) -> Result<(), GameError> {
        match self {
            WebGame::Mastermind(t) => t.codebreaker_guess(),
            _ => illegal("only Mastermind has a codebreaker to ask"),
        }
    }

    /// What the page draws.
    pub(crate) fn view(&self) -> GameView {
        match self {
            WebGame::Velha(t) => GameView::Velha(t.view()),
            WebGame::Connect4(t) => GameView::Connect4(t.view()),
            WebGame::Mastermind(t) => GameView::Mastermind(t.view()),
        }
    }
}

/// Velha's computer called `name`.
fn velha_level(name: &str) -> Result<VelhaComputer, GameError> {
    match table::parse(name) {
        Some(level) => Ok(level),
        None => invalid(format!(
            "unknown velha level {name:?}: choose {}",
            table::names(VelhaComputer::value_variants())
        )),
    }
}

fn mark_char(mark: velha::Mark) -> char {
    mark.as_char()
}

fn disc_char(disc: connect4::Disc) -> char {
    match disc {
        connect4::Disc::One => 'X',
        connect4::Disc::Two => 'O',
    }
}

/// A velha game in the browser: two people, or a person and the computer.
#[derive(Debug)]
pub(crate) struct VelhaTable {
    board: velha::Board,
    /// The computer's level and mark, if it plays.
    computer: Option<(VelhaComputer, velha::Mark)>,
    last: Option<velha::Position>,
    computer_last: Option<velha::Position>,
    rng: ChaCha8Rng,
}

impl VelhaTable {
    fn new(
        size: usize,
        opponent: Option<&str>,
        computer_first: bool,
        seed: u64,
    ) -> Result<VelhaTable, GameError> {
        let board = velha::Board::new(size).map_err(|e| GameError::Invalid(e.to_string()))?;
        let computer = match opponent {
            None => {
                if computer_first {
                    return invalid("computer_first needs an opponent");
                }
                None
            }
            Some(name) => Some((
                velha_level(name)?,
                if computer_first {
                    velha::Mark::X
                } else {
                    velha::Mark::O
                },
            )),
        };
        Ok(VelhaTable {
            board,
            computer,
            last: None,
            computer_last: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn computer_to_move(&self) -> bool {
        self.board.status() == velha::Status::InProgress
            && self
                .computer
                .is_some_and(|(_, mark)| mark == self.board.to_move())
    }

    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let (Some(row), Some(col), None) = (request.row, request.col, &request.guess) else {
            return invalid("a velha move is {\"row\": R, \"col\": C}, both from 0");
        };
        let size = self.board.size();
        if row >= size || col >= size {
            return invalid(format!(
                "row {row}, col {col} is off the {size} x {size} board"
            ));
        }
        if self.computer_to_move() {
            return illegal("it is the computer's turn");
        }
        let pos = velha::Position { row, col };
        self.board
            .play(pos)
            .map_err(|e| GameError::Illegal(e.to_string()))?;
        self.last = Some(pos);
        Ok(())
    }

    fn play_computer(&mut self) {
        let Some((level, _)) = self.computer.filter(|_| self.computer_to_move()) else {
            return;
        };
        let pos = level.player(self.rng.next_u64()).choose(&self.board);
        self.board
            .play(pos)
            .expect("the computer plays an empty cell of a game in progress");
        self.last = Some(pos);
        self.computer_last = Some(pos);
    }

    fn view(&self) -> BoardView {
        let n = self.board.size();
        let cell = |row, col| self.board.get(velha::Position { row, col }).map(mark_char);
        let status = self.board.status();
        let winning = table::velha::winning_cells(&self.board);
        let marks = self.board.marks();
        BoardView {
            rows: n,
            cols: n,
            cells: (0..n)
                .map(|row| (0..n).map(|col| cell(row, col)).collect())
                .collect(),
            turn: (status == velha::Status::InProgress).then(|| mark_char(self.board.to_move())),
            over: status != velha::Status::InProgress,
            winner: match status {
                velha::Status::Won(mark) => Some(mark_char(mark)),
                _ => None,
            },
            result: velha::program::result_line(status),
            computer: self.computer.map(|(level, mark)| Opponent {
                level: table::name(level),
                mark: mark_char(mark),
            }),
            last_move: self.last.map(|p| [p.row, p.col]),
            computer_move: self.computer_last.map(|p| [p.row, p.col]),
            winning_cells: (0..n * n)
                .filter(|i| winning >> i & 1 == 1)
                .map(|i| [i / n, i % n])
                .collect(),
            moves: marks,
        }
    }
}

/// A connect-four game in the browser.
#[derive(Debug)]
pub(crate) struct Connect4Table {
    board: connect4::Board,
    computer: Option<(Connect4Computer, connect4::Disc)>,
    /// The last disc, `(row, col)` with row 0 at the bottom (the library's).
    last: Option<(usize, usize)>,
    computer_last: Option<(usize, usize)>,
    rng: ChaCha8Rng,
}

impl Connect4Table {
    fn new(
        rows: usize,
        cols: usize,
        opponent: Option<&str>,
        computer_first: bool,
        seed: u64,
    ) -> Result<Connect4Table, GameError> {
        let board =
            connect4::Board::new(rows, cols).map_err(|e| GameError::Invalid(e.to_string()))?;
        let computer = match opponent {
            None => {
                if computer_first {
                    return invalid("computer_first needs an opponent");
                }
                None
            }
            Some(name) => {
                let offered = table::connect4::offered(cols, rows);
                let Some(level) = table::parse::<Connect4Computer>(name) else {
                    return invalid(format!(
                        "unknown connect-four level {name:?}: choose {}",
                        table::names(Connect4Computer::value_variants())
                    ));
                };
                if !offered.contains(&level) {
                    return invalid(format!(
                        "the {name} player plays 7 columns x 6 rows only, not {cols} x {rows}"
                    ));
                }
                let disc = if computer_first {
                    connect4::Disc::One
                } else {
                    connect4::Disc::Two
                };
                Some((level, disc))
            }
        };
        Ok(Connect4Table {
            board,
            computer,
            last: None,
            computer_last: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn is_over(&self) -> bool {
        self.winning().is_some() || self.board.is_full()
    }

    /// The winning disc's cell, if the last disc made four in a row.
    fn winning(&self) -> Option<(usize, usize)> {
        self.last
            .filter(|&(row, col)| self.board.connects_four(row, col))
    }

    fn computer_to_move(&self) -> bool {
        !self.is_over()
            && self
                .computer
                .is_some_and(|(_, disc)| disc == self.board.to_move())
    }

    fn drop_disc(&mut self, col: usize) -> Result<(), GameError> {
        let row = self
            .board
            .play(col)
            .map_err(|e| GameError::Illegal(e.to_string()))?;
        self.last = Some((row, col));
        Ok(())
    }

    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let (None, Some(col), None) = (request.row, request.col, &request.guess) else {
            return invalid("a connect-four move is {\"col\": C}, from 0");
        };
        if col >= self.board.cols() {
            return invalid(format!(
                "column {col} does not exist: the columns are 0 to {}",
                self.board.cols() - 1
            ));
        }
        if self.is_over() {
            return illegal("the game is over");
        }
        if self.computer_to_move() {
            return illegal("it is the computer's turn");
        }
        self.drop_disc(col)
    }

    fn play_computer(&mut self) {
        let Some((level, _)) = self.computer.filter(|_| self.computer_to_move()) else {
            return;
        };
        let seed = self.rng.next_u64();
        // Only 7 x 6 offers the perfect player (`table::connect4::offered`).
        let col = table::connect4::player(level, Shape::standard(), seed).choose(&self.board);
        self.drop_disc(col)
            .expect("the computer plays a legal column of a game in progress");
        self.computer_last = self.last;
    }

    fn view(&self) -> BoardView {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        // Rows top first, as drawn.
        let drawn = |(row, col): (usize, usize)| [rows - 1 - row, col];
        let winner = self.winning().and_then(|(r, c)| self.board.get(r, c));
        let over = self.is_over();
        let result = if !over {
            None
        } else {
            use connect4::program::{DRAW, Seat};
            Some(
                match (winner, self.computer) {
                    (None, _) => DRAW,
                    (Some(w), Some((_, computer))) if w == computer => Seat::Computer.win_line(),
                    // Against the computer, the person is player one.
                    (Some(_), Some(_)) | (Some(connect4::Disc::One), None) => {
                        Seat::PlayerOne.win_line()
                    }
                    (Some(connect4::Disc::Two), None) => Seat::PlayerTwo.win_line(),
                }
                .to_owned(),
            )
        };
        BoardView {
            rows,
            cols,
            cells: (0..rows)
                .rev()
                .map(|row| {
                    (0..cols)
                        .map(|col| self.board.get(row, col).map(disc_char))
                        .collect()
                })
                .collect(),
            turn: (!over).then(|| disc_char(self.board.to_move())),
            over,
            winner: winner.map(disc_char),
            result,
            computer: self.computer.map(|(level, disc)| Opponent {
                level: table::name(level),
                mark: disc_char(disc),
            }),
            last_move: self.last.map(drawn),
            computer_move: self.computer_last.map(drawn),
            winning_cells: self
                .winning()
                .map(|(r, c)| table::connect4::winning_cells(&self.board, r, c))
                .unwrap_or_default()
                .into_iter()
                .map(drawn)
                .collect::<Vec<Cell>>(),
            moves: self.board.discs(),
        }
    }
}

/// A Mastermind game in the browser: the standard rules (4 pegs, 6
/// colours), 10 turns. The secret never leaves the server before the end.
pub(crate) struct MastermindTable {
    secret: Code,
    board: DecodingBoard,
    /// Which guesses the codebreaker played.
    by_computer: Vec<bool>,
}

impl std::fmt::Debug for MastermindTable {
    /// Without the secret: it must not reach a log or an error either.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MastermindTable")
            .field("guesses", &self.board.guesses.len())
            .finish_non_exhaustive()
    }
}

impl MastermindTable {
    fn new(seed: u64) -> MastermindTable {
        let rules = Rules::default();
        MastermindTable {
            secret: random_secret(rules, &mut ChaCha8Rng::seed_from_u64(seed)),
            board: DecodingBoard {
                rules,
                turns: MASTERMIND_TURNS,
                guesses: Vec::new(),
            },
            by_computer: Vec::new(),
        }
    }

    fn won(&self) -> bool {
        self.board
            .guesses
            .last()
            .is_some_and(|(_, s)| usize::from(s.black) == self.board.rules.pegs())
    }

    fn is_over(&self) -> bool {
        self.won() || self.board.guesses.len() >= self.board.turns
    }

    fn submit(&mut self, guess: Code, by_computer: bool) {
        let result = score(&self.secret, &guess);
        self.board.guesses.push((guess, result));
        self.by_computer.push(by_computer);
    }

    fn play(&mut self, request: &Move) -> Result<(), GameError> {
        let (None, None, Some(text)) = (request.row, request.col, &request.guess) else {
            return invalid("a Mastermind move is {\"guess\": \"ABCD\"}");
        };
        let guess =
            parse_guess(text, self.board.rules).map_err(|e| GameError::Invalid(e.to_string()))?;
        if self.is_over() {
            return illegal("the game is over");
        }
        self.submit(guess, false);
        Ok(())
    }

    fn codebreaker_guess(&mut self) -> Result<(), GameError> {
        if self.is_over() {
            return illegal("the game is over");
        }
        // The optimal tree while the guesses are its own, the best heuristic
        // codebreaker from wherever the person left it.
        let guess = match OptimalCodebreaker::standard() {
            Ok(mut optimal) => optimal.choose(&self.board),
            Err(_) => Codebreaker::new(self.board.rules, BEST)
                .expect("the standard game suits a codebreaker")
                .choose(&self.board),
        };
        self.submit(guess, true);
        Ok(())
    }

    fn view(&self) -> MastermindView {
        let over = self.is_over();
        let won = self.won();
        MastermindView {
            pegs: self.board.rules.pegs(),
            colors: self.board.rules.colors(),
            turns: self.board.turns,
            guesses: self
                .board
                .guesses
                .iter()
                .zip(&self.by_computer)
                .map(|((guess, s), &by_computer)| GuessView {
                    guess: guess.to_string(),
                    black: s.black,
                    white: s.white,
                    by_computer,
                })
                .collect(),
            over,
            won,
            secret: over.then(|| self.secret.to_string()),
            result: over.then(|| if won { "You win" } else { "You lose!" }.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
