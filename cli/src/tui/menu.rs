//! The menu: which game, against the computer or two at one keyboard, the
//! computer's level and who starts, the board's size. Pure: keys in, a
//! [`Setup`] out when the person starts a game.

use boardkit::connect4::board::{MAX_SIDE, MIN_SIDE};
use boardkit::velha::board::{MAX_SIZE, MIN_SIZE};

use super::app::Key;
use super::connect4::{Connect4Opponent, Connect4Setup};
use super::mastermind::MastermindSetup;
use super::velha::{VelhaOpponent, VelhaSetup};
use crate::table::connect4::Computer as Connect4Computer;
use crate::table::velha::Computer as VelhaComputer;

/// The three games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GameKind {
    /// Jogo da velha (tic-tac-toe).
    Velha,
    /// Connect four.
    Connect4,
    /// Mastermind.
    Mastermind,
}

impl GameKind {
    const ALL: [GameKind; 3] = [GameKind::Velha, GameKind::Connect4, GameKind::Mastermind];

    pub(crate) fn title(self) -> &'static str {
        match self {
            GameKind::Velha => "Jogo da velha (tic-tac-toe)",
            GameKind::Connect4 => "Connect four",
            GameKind::Mastermind => "Mastermind",
        }
    }
}

/// A game as the menu set it up: what [`super::App`] starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setup {
    Velha(VelhaSetup),
    Connect4(Connect4Setup),
    Mastermind(MastermindSetup),
}

impl Setup {
    /// What the app says of it.
    pub(crate) fn about(&self) -> &dyn super::app::About {
        match self {
            Setup::Velha(s) => s,
            Setup::Connect4(s) => s,
            Setup::Mastermind(s) => s,
        }
    }
}

/// A line of the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Row {
    Game,
    Mode,
    Level,
    First,
    Size,
    Columns,
    Rows,
    Start,
}

/// What a key did to the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MenuAction {
    Stay,
    Start(Setup),
    Quit,
}

/// The menu's choices and the row under the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Menu {
    pub game: GameKind,
    /// The game was named on the command line: no Game row.
    pub game_fixed: bool,
    pub against_computer: bool,
    pub velha_level: VelhaComputer,
    pub connect4_level: Connect4Computer,
    pub computer_first: bool,
    pub velha_size: usize,
    pub cols: usize,
    pub rows: usize,
    /// Mastermind: watch the kit's codebreaker instead of guessing.
    pub watch: bool,
    /// Index into [`Menu::rows`].
    pub selected: usize,
}

impl Menu {
    /// The menu as the command line leaves it: `game` preselected (and
    /// fixed) if given, the sizes given, against the computer.
    pub(crate) fn new(game: Option<GameKind>, velha_size: usize, cols: usize, rows: usize) -> Menu {
        Menu {
            game: game.unwrap_or(GameKind::Velha),
            game_fixed: game.is_some(),
            against_computer: true,
            velha_level: VelhaComputer::Medium,
            connect4_level: Connect4Computer::Smart,
            computer_first: false,
            velha_size,
            cols,
            rows,
            watch: false,
            selected: 0,
        }
    }

    /// The rows shown for the current choices.
    pub(crate) fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        if !self.game_fixed {
            rows.push(Row::Game);
        }
        rows.push(Row::Mode);
        match self.game {
            GameKind::Velha | GameKind::Connect4 => {
                if self.against_computer {
                    rows.extend([Row::Level, Row::First]);
                }
                if self.game == GameKind::Velha {
                    rows.push(Row::Size);
                } else {
                    rows.extend([Row::Columns, Row::Rows]);
                }
            }
            GameKind::Mastermind => {}
        }
        rows.push(Row::Start);
        rows
    }

    /// The selected row.
    pub(crate) fn current(&self) -> Row {
        let rows = self.rows();
        rows[self.selected.min(rows.len() - 1)]
    }

    /// A row's label and its value as shown.
    pub(crate) fn line(&self, row: Row) -> (&'static str, String) {
        match row {
            Row::Game => ("Game", self.game.title().into()),
            Row::Mode => (
                "Mode",
                match (self.game, self.against_computer, self.watch) {
                    (GameKind::Mastermind, _, false) => "you break the code".into(),
                    (GameKind::Mastermind, _, true) => "watch the codebreaker".into(),
                    (_, true, _) => "against the computer".into(),
                    (_, false, _) => "two players".into(),
                },
            ),
            Row::Level => (
                "Level",
                match self.game {
                    GameKind::Connect4 => crate::table::name(self.connect4_level),
                    _ => crate::table::name(self.velha_level),
                },
            ),
            Row::First => (
                "First",
                if self.computer_first {
                    "the computer".into()
                } else {
                    "you".into()
                },
            ),
            Row::Size => ("Size", format!("{0} x {0}", self.velha_size)),
            Row::Columns => ("Columns", self.cols.to_string()),
            Row::Rows => ("Rows", self.rows.to_string()),
            Row::Start => ("", "Start".into()),
        }
    }

    /// Why a choice is limited, to show under the menu.
    pub(crate) fn note(&self) -> Option<&'static str> {
        (self.game == GameKind::Connect4
            && self.against_computer
            && !crate::table::connect4::offered(self.cols, self.rows)
                .contains(&Connect4Computer::Perfect))
        .then_some("the perfect player plays on 7 x 6 only")
    }

    pub(crate) fn handle(&mut self, key: Key) -> MenuAction {
        let count = self.rows().len();
        match key {
            Key::Up => self.selected = (self.selected + count - 1) % count,
            Key::Down | Key::Tab => self.selected = (self.selected + 1) % count,
            Key::Left => self.change(-1),
            Key::Right | Key::Char(' ') => self.change(1),
            Key::Enter => return MenuAction::Start(self.setup()),
            Key::Char('q') | Key::Esc => return MenuAction::Quit,
            _ => {}
        }
        MenuAction::Stay
    }

    /// Steps the selected row's value by `step`, wrapping.
    fn change(&mut self, step: i32) {
        fn cycle<T: Copy + PartialEq>(all: &[T], now: T, step: i32) -> T {
            let at = all.iter().position(|&x| x == now).unwrap_or(0) as i32;
            all[(at + step).rem_euclid(all.len() as i32) as usize]
        }
        fn bounded(now: usize, step: i32, min: usize, max: usize) -> usize {
            (now as i32 + step).clamp(min as i32, max as i32) as usize
        }
        match self.current() {
            Row::Game => self.game = cycle(&GameKind::ALL, self.game, step),
            Row::Mode if self.game == GameKind::Mastermind => self.watch = !self.watch,
            Row::Mode => self.against_computer = !self.against_computer,
            Row::Level if self.game == GameKind::Connect4 => {
                let offered = crate::table::connect4::offered(self.cols, self.rows);
                self.connect4_level = cycle(offered, self.connect4_level, step);
            }
            Row::Level => {
                use VelhaComputer::*;
                self.velha_level = cycle(&[Easy, Medium, Hard], self.velha_level, step);
            }
            Row::First => self.computer_first = !self.computer_first,
            Row::Size => self.velha_size = bounded(self.velha_size, step, MIN_SIZE, MAX_SIZE),
            Row::Columns => self.cols = bounded(self.cols, step, MIN_SIDE, MAX_SIDE),
            Row::Rows => self.rows = bounded(self.rows, step, MIN_SIDE, MAX_SIDE),
            Row::Start => {}
        }
        if !crate::table::connect4::offered(self.cols, self.rows).contains(&self.connect4_level) {
            self.connect4_level = Connect4Computer::Smart;
        }
        // Rows come and go with the mode: keep the cursor on the menu.
        self.selected = self.selected.min(self.rows().len() - 1);
    }

    /// The game the choices make.
    pub(crate) fn setup(&self) -> Setup {
        match self.game {
            GameKind::Velha => Setup::Velha(VelhaSetup {
                size: self.velha_size,
                opponent: self.against_computer.then_some(VelhaOpponent {
                    level: self.velha_level,
                    computer_first: self.computer_first,
                }),
            }),
            GameKind::Connect4 => Setup::Connect4(Connect4Setup {
                cols: self.cols,
                rows: self.rows,
                opponent: self.against_computer.then_some(Connect4Opponent {
                    level: self.connect4_level,
                    computer_first: self.computer_first,
                }),
            }),
            GameKind::Mastermind => Setup::Mastermind(MastermindSetup { watch: self.watch }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_is_offered_on_seven_by_six_only() {
        let mut menu = Menu::new(Some(GameKind::Connect4), 3, 7, 6);
        assert_eq!(menu.rows()[0], Row::Mode, "no Game row when it was given");
        menu.selected = 1; // Level
        menu.handle(Key::Right);
        assert_eq!(menu.connect4_level, Connect4Computer::Perfect);
        menu.selected = 3; // Columns
        menu.handle(Key::Right);
        assert_eq!(menu.cols, 8);
        assert_eq!(menu.connect4_level, Connect4Computer::Smart);
        assert!(menu.note().is_some());
    }

    #[test]
    fn two_players_hide_the_computer_s_rows_and_enter_starts() {
        let mut menu = Menu::new(None, 4, 7, 6);
        menu.handle(Key::Down); // Mode
        menu.handle(Key::Right);
        assert_eq!(menu.rows(), [Row::Game, Row::Mode, Row::Size, Row::Start]);
        assert_eq!(
            menu.handle(Key::Enter),
            MenuAction::Start(Setup::Velha(VelhaSetup {
                size: 4,
                opponent: None
            }))
        );
    }
}
