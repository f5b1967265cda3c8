//! Jogo da velha full screen: the board, a cursor over its cells, the moves
//! played (for undo), the computer opponent and the hint. Pure: keys in,
//! state out; [`draw`] draws its board, [`crate::tui::ui`] the screen around it.

pub(crate) mod draw;
pub(crate) mod network;

use crate::net::games::IllegalMove;
use std::any::Any;
use std::rc::Rc;

use boardkit::velha::board::{Board, Mark, Position, Status};

use super::game::Parts;
use super::game::{Busy, Ending, Game, Key, Round, Setup, Work};
use super::menu::{GameMenu, TuiGame, bounded, cycle};
use super::thinkers::{Thinkers, last_person_move};
use crate::opponents::velha::Computer as Level;
use crate::play::session::Language;

/// A computer player, lent to a thread while it thinks.
type Player = super::thinkers::Player<Board, Position>;

/// What the menu chose for a game of velha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VelhaSetup {
    /// Board side, 3 to [`boardkit::velha::board::MAX_SIZE`].
    pub size: usize,
    /// The computer's level and seat; `None`: two players at one keyboard.
    pub opponent: Option<VelhaOpponent>,
}

/// Velha on the full screen's menu.
pub(crate) const GAME: TuiGame = TuiGame {
    id: "velha",
    title: "Jogo da velha (tic-tac-toe)",
    menu: |args| {
        Box::new(VelhaMenu {
            size: args.size.into(),
            ..VelhaMenu::default()
        })
    },
    network: Some(network::board),
};

/// Velha's choices on the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VelhaMenu {
    pub against_computer: bool,
    pub level: Level,
    pub computer_first: bool,
    pub size: usize,
}

impl Default for VelhaMenu {
    fn default() -> VelhaMenu {
        VelhaMenu {
            against_computer: true,
            level: Level::Medium,
            computer_first: false,
            size: 3,
        }
    }
}

impl GameMenu for VelhaMenu {
    fn rows(&self) -> Vec<(&'static str, String)> {
        let mut rows = vec![("Mode", super::menu::mode_name(self.against_computer))];
        if self.against_computer {
            rows.push(("Level", crate::opponents::name(self.level)));
            rows.push(("First", super::menu::first_name(self.computer_first)));
        }
        rows.push(("Size", format!("{0} x {0}", self.size)));
        rows
    }

    fn change(&mut self, row: usize, step: i32) {
        match self.rows()[row].0 {
            "Mode" => self.against_computer = !self.against_computer,
            "Level" => {
                use Level::*;
                self.level = cycle(&[Easy, Medium, Hard], self.level, step);
            }
            "First" => self.computer_first = !self.computer_first,
            _ => {
                use boardkit::velha::board::{MAX_SIZE, MIN_SIZE};
                self.size = bounded(self.size, step, MIN_SIZE, MAX_SIZE);
            }
        }
    }

    fn setup(&self) -> Rc<dyn Setup> {
        Rc::new(VelhaSetup {
            size: self.size,
            opponent: self.against_computer.then_some(VelhaOpponent {
                level: self.level,
                computer_first: self.computer_first,
            }),
        })
    }

    fn clone_box(&self) -> Box<dyn GameMenu> {
        Box::new(*self)
    }
}

impl Setup for VelhaSetup {
    fn title(&self) -> &'static str {
        GAME.title
    }

    fn description(&self) -> String {
        let level = self.opponent.map(|o| level_name(o.level).to_owned());
        super::game::board_description_in(
            Language::Portuguese,
            &format!("{0} x {0}", self.size),
            level,
        )
    }

    fn seats(&self) -> [&'static str; 2] {
        super::game::board_seats_in(Language::Portuguese, self.opponent.is_some())
    }

    fn language(&self) -> Language {
        Language::Portuguese
    }

    fn record(&self) -> Option<(&'static str, String)> {
        let opponent = self.opponent.map(|o| (o.level, o.computer_first));
        Some(("velha", crate::opponents::velha::mode(self.size, opponent)))
    }

    fn start(&self, seed: u64) -> Box<dyn Game> {
        Box::new(VelhaGame::new(*self, seed))
    }
}

impl Game for VelhaGame {
    fn parts(&self, busy: Option<Busy>) -> Parts {
        draw::velha_parts(self, busy)
    }
}

/// The computer's level in the game's language.
fn level_name(level: Level) -> &'static str {
    match level {
        Level::Easy => "fácil",
        Level::Medium => "médio",
        Level::Hard => "difícil",
    }
}

/// The computer opponent of a velha game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VelhaOpponent {
    pub level: Level,
    /// The computer plays X and starts.
    pub computer_first: bool,
}

/// One game of velha in progress (or over, until the next one).
pub(crate) struct VelhaGame {
    setup: VelhaSetup,
    board: Board,
    /// Every move so far, in order: undo replays all but the last ones.
    moves: Vec<Position>,
    cursor: Position,
    /// The computer opponent, and the hard AI for hints.
    thinkers: Thinkers<Board, Position>,
    message: Option<String>,
    seed: u64,
    /// Counts the changes of the board, so a late answer is known stale.
    version: u64,
}

impl VelhaGame {
    /// A new game; `seed` drives the computer's and the hint's random choices.
    pub(crate) fn new(setup: VelhaSetup, seed: u64) -> VelhaGame {
        let board = Board::new(setup.size).expect("the menu offers supported sizes only");
        let centre = setup.size / 2;
        VelhaGame {
            setup,
            board,
            moves: Vec::new(),
            cursor: Position {
                row: centre,
                col: centre,
            },
            thinkers: Thinkers::new(
                setup
                    .opponent
                    .map(|opponent| Box::new(opponent.level.player(seed)) as Player),
            ),
            message: None,
            seed,
            version: 0,
        }
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    pub(crate) fn cursor(&self) -> Position {
        self.cursor
    }

    pub(crate) fn last_move(&self) -> Option<Position> {
        self.moves.last().copied()
    }

    /// The hint shown (the hard AI's move), until a move is played.
    pub(crate) fn hint(&self) -> Option<Position> {
        self.thinkers.hint()
    }

    /// What the last key did not do, and why.
    pub(crate) fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Whether `pos` is part of a winning line.
    pub(crate) fn is_winning(&self, pos: Position) -> bool {
        let n = self.board.size();
        crate::opponents::velha::winning_cells(&self.board) >> (pos.row * n + pos.col) & 1 == 1
    }

    /// Every move so far, in order.
    pub(crate) fn moves(&self) -> &[Position] {
        &self.moves
    }

    /// Plays `pos` for the side to move if it is legal (network play: the
    /// opponent's moves, checked again here).
    pub(crate) fn play_move(&mut self, pos: Position) -> Result<(), IllegalMove> {
        if self.board.status() != Status::InProgress {
            return Err(IllegalMove::Over);
        }
        self.board
            .clone()
            .play(pos)
            .map_err(|e| IllegalMove::Rule(e.to_string()))?;
        self.play(pos);
        Ok(())
    }

    /// The mark the computer plays, if there is a computer.
    pub(crate) fn computer_mark(&self) -> Option<Mark> {
        self.setup
            .opponent
            .map(|o| if o.computer_first { Mark::X } else { Mark::O })
    }

    fn is_computer(&self, mark: Mark) -> bool {
        self.computer_mark() == Some(mark)
    }

    /// The mark that played move `index` (0-based): X starts.
    fn mark_of_move(index: usize) -> Mark {
        if index % 2 == 0 { Mark::X } else { Mark::O }
    }

    fn play(&mut self, pos: Position) {
        self.board
            .play(pos)
            .unwrap_or_else(|e| panic!("{pos} was checked playable: {e}"));
        self.moves.push(pos);
        self.version += 1;
        self.message = None;
        let over = self.ending().is_some();
        self.thinkers.board_changed(over);
    }

    fn move_cursor(&mut self, key: Key) {
        let last = self.board.size() - 1;
        let Position { row, col } = &mut self.cursor;
        match key {
            Key::Up => *row = row.saturating_sub(1),
            Key::Down => *row = (*row + 1).min(last),
            Key::Left => *col = col.saturating_sub(1),
            Key::Right => *col = (*col + 1).min(last),
            _ => {}
        }
    }
}

impl Round for VelhaGame {
    fn handle(&mut self, key: Key) {
        match key {
            Key::Up | Key::Down | Key::Left | Key::Right => self.move_cursor(key),
            Key::Enter | Key::Char(' ') => {
                if self.board.status() != Status::InProgress || self.busy().is_some() {
                    return;
                }
                match self.board.get(self.cursor) {
                    Some(_) => self.message = Some(format!("{}: Posição ocupada", self.cursor)),
                    None => self.play(self.cursor),
                }
            }
            _ => {}
        }
    }

    /// Takes back the last move made by a person, and the computer's reply
    /// after it: the person is to move again where they were.
    fn undo(&mut self) {
        let last = last_person_move(self.moves.len(), |i| {
            self.is_computer(Self::mark_of_move(i))
        });
        let Some(index) = last else {
            self.message = Some("nada a desfazer".into());
            return;
        };
        self.cursor = self.moves[index];
        self.moves.truncate(index);
        let mut board = Board::new(self.setup.size).expect("the size was valid");
        for &pos in &self.moves {
            board.play(pos).expect("these moves were legal");
        }
        self.board = board;
        self.version += 1;
        self.message = None;
        self.thinkers.board_changed(false);
    }

    fn request_hint(&mut self) {
        if self.board.status() == Status::InProgress {
            self.thinkers.request_hint();
        }
    }

    fn busy(&self) -> Option<Busy> {
        self.thinkers.busy(
            self.board.status() != Status::InProgress,
            self.is_computer(self.board.to_move()),
        )
    }

    fn cancel_hint(&mut self) {
        self.thinkers.cancel_hint();
    }

    fn take_work(&mut self) -> Option<Work> {
        let seed = self.seed;
        let hard = move || Box::new(crate::opponents::velha::Computer::Hard.player(seed)) as Player;
        self.thinkers
            .take_work(self.busy()?, self.version, self.board, hard)
    }

    fn finish_work(&mut self, result: Box<dyn Any + Send>) {
        let computer_move = self.thinkers.finish_work(result, self.version);
        if let Some(pos) = computer_move {
            if self.busy() == Some(Busy::Computer) {
                self.play(pos);
            }
        }
    }

    fn ending(&self) -> Option<Ending> {
        match self.board.status() {
            Status::InProgress => None,
            Status::Draw => Some(Ending::Draw),
            // Seat 0 is the person against the computer, X between two players.
            Status::Won(mark) => Some(Ending::Won(match self.computer_mark() {
                Some(computer) => usize::from(mark == computer),
                None => usize::from(mark == Mark::O),
            })),
        }
    }

    fn can_undo_after_the_end(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opponent: Option<VelhaOpponent>) -> VelhaGame {
        VelhaGame::new(VelhaSetup { size: 3, opponent }, 1)
    }

    fn settle(game: &mut VelhaGame) {
        while let Some(work) = game.take_work() {
            game.finish_work(work());
        }
    }

    #[test]
    fn the_cursor_stays_on_the_board_and_enter_plays_there() {
        let mut game = game(None);
        for _ in 0..5 {
            game.handle(Key::Up);
            game.handle(Key::Left);
        }
        assert_eq!(game.cursor(), Position { row: 0, col: 0 });
        game.handle(Key::Enter);
        assert_eq!(game.board().get(Position { row: 0, col: 0 }), Some(Mark::X));
        game.handle(Key::Enter);
        assert_eq!(game.message(), Some("A1: Posição ocupada"));
        assert_eq!(game.board().marks(), 1);
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_and_your_move() {
        let opponent = VelhaOpponent {
            level: crate::opponents::velha::Computer::Hard,
            computer_first: true,
        };
        let mut game = game(Some(opponent));
        settle(&mut game);
        assert_eq!(game.board().marks(), 1, "the computer opened");
        game.undo();
        assert_eq!(game.message(), Some("nada a desfazer"));
        assert_eq!(game.board().marks(), 1, "its opening stays");
        let free = game.board().empty_cells()[0];
        game.cursor = free;
        game.handle(Key::Enter);
        settle(&mut game);
        assert_eq!(game.board().marks(), 3);
        game.undo();
        assert_eq!(game.board().marks(), 1);
        assert_eq!(game.cursor(), free, "the cursor is back on the move undone");
        assert!(game.busy().is_none(), "the person is to move again");
    }
}
