//! Connect four full screen: the board, a cursor over its columns, the
//! columns played (for undo), the computer opponent and the hint. Pure:
//! keys in, state out; [`draw`] draws its board, [`crate::tui::ui`] the screen around it.

pub(crate) mod draw;
pub(crate) mod network;

use crate::net::games::IllegalMove;
use std::any::Any;
use std::rc::Rc;

use boardkit::connect4::solver::Shape;
use boardkit::connect4::{Board, Disc};

use super::game::Parts;
use super::game::{Busy, Ending, Game, Key, Round, Setup, Work};
use super::menu::{GameMenu, TuiGame, bounded, cycle};
use super::thinkers::{Thinkers, last_person_move};

use crate::opponents::connect4::Computer;

/// What the menu chose for a game of connect four.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Connect4Setup {
    pub cols: usize,
    pub rows: usize,
    /// The computer's level and seat; `None`: two players at one keyboard.
    pub opponent: Option<Connect4Opponent>,
}

/// Connect four on the full screen's menu.
pub(crate) const GAME: TuiGame = TuiGame {
    id: "connect4",
    title: "Connect four",
    menu: |args| {
        Box::new(Connect4Menu {
            cols: args.cols.into(),
            rows: args.rows.into(),
            ..Connect4Menu::default()
        })
    },
    network: Some(network::board),
};

/// Connect four's choices on the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Connect4Menu {
    pub against_computer: bool,
    pub level: Computer,
    pub computer_first: bool,
    pub cols: usize,
    pub rows: usize,
}

impl Default for Connect4Menu {
    fn default() -> Connect4Menu {
        Connect4Menu {
            against_computer: true,
            level: Computer::Smart,
            computer_first: false,
            cols: 7,
            rows: 6,
        }
    }
}

impl GameMenu for Connect4Menu {
    fn rows(&self) -> Vec<(&'static str, String)> {
        let mut rows = vec![("Mode", super::menu::mode_name(self.against_computer))];
        if self.against_computer {
            rows.push(("Level", crate::opponents::name(self.level)));
            rows.push(("First", super::menu::first_name(self.computer_first)));
        }
        rows.push(("Columns", self.cols.to_string()));
        rows.push(("Rows", self.rows.to_string()));
        rows
    }

    fn change(&mut self, row: usize, step: i32) {
        use boardkit::connect4::board::{MAX_SIDE, MIN_SIDE};
        let offered = crate::opponents::connect4::offered;
        match self.rows()[row].0 {
            "Mode" => self.against_computer = !self.against_computer,
            "Level" => self.level = cycle(offered(self.cols, self.rows), self.level, step),
            "First" => self.computer_first = !self.computer_first,
            "Columns" => self.cols = bounded(self.cols, step, MIN_SIDE, MAX_SIDE),
            _ => self.rows = bounded(self.rows, step, MIN_SIDE, MAX_SIDE),
        }
        if !offered(self.cols, self.rows).contains(&self.level) {
            self.level = Computer::Smart;
        }
    }

    fn note(&self) -> Option<&'static str> {
        (self.against_computer
            && !crate::opponents::connect4::offered(self.cols, self.rows)
                .contains(&Computer::Perfect))
        .then_some("the perfect player plays on 7 x 6 only")
    }

    fn setup(&self) -> Rc<dyn Setup> {
        Rc::new(Connect4Setup {
            cols: self.cols,
            rows: self.rows,
            opponent: self.against_computer.then_some(Connect4Opponent {
                level: self.level,
                computer_first: self.computer_first,
            }),
        })
    }

    fn clone_box(&self) -> Box<dyn GameMenu> {
        Box::new(*self)
    }
}

impl Setup for Connect4Setup {
    fn title(&self) -> &'static str {
        GAME.title
    }

    fn description(&self) -> String {
        let level = self.opponent.map(|o| crate::opponents::name(o.level));
        super::game::board_description(&format!("{} x {}", self.cols, self.rows), level)
    }

    fn seats(&self) -> [&'static str; 2] {
        super::game::board_seats(self.opponent.is_some())
    }

    fn record(&self) -> Option<(&'static str, String)> {
        let opponent = self.opponent.map(|o| crate::opponents::name(o.level));
        Some((
            "connect4",
            crate::opponents::connect4::mode(self.cols, self.rows, opponent.as_deref()),
        ))
    }

    fn start(&self, seed: u64) -> Box<dyn Game> {
        Box::new(Connect4Game::new(*self, seed))
    }
}

impl Game for Connect4Game {
    fn parts(&self, busy: Option<Busy>) -> Parts {
        draw::connect4_parts(self, busy)
    }
}

/// The computer opponent of a connect-four game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Connect4Opponent {
    pub level: Computer,
    /// The computer plays X and starts.
    pub computer_first: bool,
}

/// One game of connect four in progress (or over, until the next one).
pub(crate) struct Connect4Game {
    setup: Connect4Setup,
    board: Board,
    /// Every column played so far, in order: undo replays all but the last.
    moves: Vec<usize>,
    cursor: usize,
    /// The computer opponent, and the hint's player: perfect on 7 x 6,
    /// smart elsewhere (the solver would take minutes on most other boards).
    thinkers: Thinkers<Board, usize>,
    message: Option<String>,
    seed: u64,
    /// Counts the changes of the board, so a late answer is known stale.
    version: u64,
}

impl Connect4Game {
    /// A new game; `seed` drives the computer's and the hint's random choices.
    pub(crate) fn new(setup: Connect4Setup, seed: u64) -> Connect4Game {
        Connect4Game {
            setup,
            board: Board::new(setup.rows, setup.cols).expect("the menu offers supported sizes"),
            moves: Vec::new(),
            cursor: setup.cols / 2,
            thinkers: Thinkers::new(
                setup
                    .opponent
                    .map(|o| crate::opponents::connect4::player(o.level, Shape::standard(), seed)),
            ),
            message: None,
            seed,
            version: 0,
        }
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    /// The column under the cursor (0-based).
    pub(crate) fn cursor(&self) -> usize {
        self.cursor
    }

    /// The hinted column (0-based), until a move is played.
    pub(crate) fn hint(&self) -> Option<usize> {
        self.thinkers.hint()
    }

    /// The level of the hint's player, as the hint line names it.
    pub(crate) fn hint_level(&self) -> Computer {
        if self.is_standard() {
            Computer::Perfect
        } else {
            Computer::Smart
        }
    }

    fn is_standard(&self) -> bool {
        (self.setup.cols, self.setup.rows) == (7, 6)
    }

    /// What the last key did not do, and why.
    pub(crate) fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The cell of the last disc, `(row, col)` with row 0 at the bottom.
    pub(crate) fn last_move(&self) -> Option<(usize, usize)> {
        let &col = self.moves.last()?;
        Some((self.board.height(col) - 1, col))
    }

    /// The cells of the four (or more) in a row, if the last disc made one.
    pub(crate) fn winning_cells(&self) -> Vec<(usize, usize)> {
        match self.last_move() {
            Some((row, col)) if self.board.connects_four(row, col) => {
                crate::opponents::connect4::winning_cells(&self.board, row, col)
            }
            _ => Vec::new(),
        }
    }

    /// Every column played so far, in order (0-based).
    pub(crate) fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// Drops a disc in `col` for the side to move if it is legal (network
    /// play: the opponent's moves, checked again here).
    pub(crate) fn play_move(&mut self, col: usize) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::Over);
        }
        // The board says why a column cannot take a disc.
        self.board
            .clone()
            .play(col)
            .map_err(|e| IllegalMove::Rule(e.to_string()))?;
        self.play(col);
        Ok(())
    }

    /// The disc the computer plays, if there is a computer.
    pub(crate) fn computer_disc(&self) -> Option<Disc> {
        self.setup.opponent.map(|o| {
            if o.computer_first {
                Disc::One
            } else {
                Disc::Two
            }
        })
    }

    fn is_computer(&self, disc: Disc) -> bool {
        self.computer_disc() == Some(disc)
    }

    fn disc_of_move(index: usize) -> Disc {
        if index % 2 == 0 { Disc::One } else { Disc::Two }
    }

    /// Whether the game is over: four in a row or a full board.
    pub(crate) fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    fn play(&mut self, col: usize) {
        self.board
            .play(col)
            .unwrap_or_else(|e| panic!("column {} was checked playable: {e}", col + 1));
        self.moves.push(col);
        self.version += 1;
        self.message = None;
        let over = self.is_over();
        self.thinkers.board_changed(over);
    }
}

impl Round for Connect4Game {
    fn handle(&mut self, key: Key) {
        match key {
            Key::Left => self.cursor = self.cursor.saturating_sub(1),
            Key::Right => self.cursor = (self.cursor + 1).min(self.board.cols() - 1),
            Key::Enter | Key::Char(' ') | Key::Down => {
                if self.is_over() || self.busy().is_some() {
                    return;
                }
                if self.board.can_play(self.cursor) {
                    self.play(self.cursor);
                } else {
                    self.message = Some(format!("column {} is full", self.cursor + 1));
                }
            }
            Key::Char(c @ '1'..='9') => {
                // A digit moves the cursor to that column, as the exercise's
                // program numbers them.
                let col = c as usize - '1' as usize;
                if col < self.board.cols() {
                    self.cursor = col;
                }
            }
            _ => {}
        }
    }

    /// Takes back the last disc a person dropped, and the computer's reply
    /// after it.
    fn undo(&mut self) {
        let last = last_person_move(self.moves.len(), |i| {
            self.is_computer(Self::disc_of_move(i))
        });
        let Some(index) = last else {
            self.message = Some("nothing to undo".into());
            return;
        };
        self.cursor = self.moves[index];
        self.moves.truncate(index);
        let mut board = Board::new(self.setup.rows, self.setup.cols).expect("valid size");
        for &col in &self.moves {
            board.play(col).expect("these moves were legal");
        }
        self.board = board;
        self.version += 1;
        self.message = None;
        self.thinkers.board_changed(false);
    }

    fn request_hint(&mut self) {
        if !self.is_over() {
            self.thinkers.request_hint();
        }
    }

    fn busy(&self) -> Option<Busy> {
        self.thinkers
            .busy(self.is_over(), self.is_computer(self.board.to_move()))
    }

    fn cancel_hint(&mut self) {
        self.thinkers.cancel_hint();
    }

    fn take_work(&mut self) -> Option<Work> {
        let (level, seed) = (self.hint_level(), self.seed);
        self.thinkers
            .take_work(self.busy()?, self.version, self.board.clone(), move || {
                crate::opponents::connect4::player(level, Shape::standard(), seed)
            })
    }

    fn finish_work(&mut self, result: Box<dyn Any + Send>) {
        let computer_move = self.thinkers.finish_work(result, self.version);
        if let Some(col) = computer_move {
            if self.busy() == Some(Busy::Computer) {
                self.play(col);
            }
        }
    }

    fn ending(&self) -> Option<Ending> {
        let (row, col) = self.last_move()?;
        if self.board.connects_four(row, col) {
            let disc = self.board.get(row, col).expect("the last disc");
            // Seat 0 is the person against the computer, X between two players.
            Some(Ending::Won(match self.computer_disc() {
                Some(computer) => usize::from(disc == computer),
                None => usize::from(disc == Disc::Two),
            }))
        } else if self.board.is_full() {
            Some(Ending::Draw)
        } else {
            None
        }
    }

    fn can_undo_after_the_end(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settle(game: &mut Connect4Game) {
        while let Some(work) = game.take_work() {
            game.finish_work(work());
        }
    }

    #[test]
    fn four_in_a_row_ends_the_game_and_is_found() {
        let setup = Connect4Setup {
            cols: 7,
            rows: 6,
            opponent: None,
        };
        let mut game = Connect4Game::new(setup, 1);
        for col in [0, 1, 0, 1, 0, 1, 0] {
            game.cursor = col;
            game.handle(Key::Enter);
        }
        assert_eq!(game.ending(), Some(Ending::Won(0)));
        assert_eq!(game.winning_cells().len(), 4);
        game.handle(Key::Enter);
        assert_eq!(game.board().discs(), 7, "no disc after the end");
    }

    #[test]
    fn undo_against_the_computer_takes_back_two_discs() {
        let setup = Connect4Setup {
            cols: 7,
            rows: 6,
            opponent: Some(Connect4Opponent {
                level: Computer::Smart,
                computer_first: false,
            }),
        };
        let mut game = Connect4Game::new(setup, 3);
        game.handle(Key::Enter);
        settle(&mut game);
        game.handle(Key::Char('1'));
        game.handle(Key::Enter);
        settle(&mut game);
        assert_eq!(game.board().discs(), 4);
        game.undo();
        assert_eq!(game.board().discs(), 2);
        assert_eq!(game.cursor(), 0);
        assert_eq!(game.busy(), None);
    }
}
