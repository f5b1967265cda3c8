//! The menu: which game, then that game's own choices (each game's rows in
//! its own file, behind [`GameMenu`]). Pure: keys in, a [`Setup`] out when
//! the person starts a game.

use std::any::Any;
use std::rc::Rc;

use super::TuiArgs;
use super::game::NetworkBoard;
use super::game::{Key, Setup};

/// A game as the full screen offers it: its name on the command line, its
/// title, and its menu as the options set it up.
#[derive(Clone, Copy)]
pub(crate) struct TuiGame {
    /// As `boardkit tui <GAME>` names it.
    pub id: &'static str,
    pub title: &'static str,
    pub menu: fn(&TuiArgs) -> Box<dyn GameMenu>,
    /// Its board on the network screen, for the board a hello's options
    /// make, if it is played over the network.
    pub network: Option<NetworkBoardFn>,
}

/// Makes a game's board on the network screen, for a hello's options.
pub(crate) type NetworkBoardFn = fn(crate::net::protocol::Options) -> Option<Box<dyn NetworkBoard>>;

/// One game's choices on the menu (the mode, the level, who starts, the
/// size...), kept while the person looks at another game.
pub(crate) trait GameMenu: Any + std::fmt::Debug {
    /// The game's rows: each label and its value as shown.
    fn rows(&self) -> Vec<(&'static str, String)>;
    /// Steps the value of row `row` (an index into [`GameMenu::rows`]) by
    /// `step`, wrapping through choices and bounded for sizes.
    fn change(&mut self, row: usize, step: i32);
    /// Why a choice is limited, to show under the menu.
    fn note(&self) -> Option<&'static str> {
        None
    }
    /// The game the choices make.
    fn setup(&self) -> Rc<dyn Setup>;
    fn clone_box(&self) -> Box<dyn GameMenu>;
}

/// Steps through `all` from `now` by `step`, wrapping.
pub(crate) fn cycle<T: Copy + PartialEq>(all: &[T], now: T, step: i32) -> T {
    let at = all.iter().position(|&x| x == now).unwrap_or(0) as i32;
    all[(at + step).rem_euclid(all.len() as i32) as usize]
}

/// Steps `now` by `step`, kept within `min..=max`.
pub(crate) fn bounded(now: usize, step: i32, min: usize, max: usize) -> usize {
    (now as i32 + step).clamp(min as i32, max as i32) as usize
}

/// A board game's Mode row: against the computer or two players.
pub(crate) fn mode_name(against_computer: bool) -> String {
    if against_computer {
        "against the computer".into()
    } else {
        "two players".into()
    }
}

/// A board game's First row: who starts against the computer.
pub(crate) fn first_name(computer_first: bool) -> String {
    if computer_first {
        "the computer".into()
    } else {
        "you".into()
    }
}

/// A line of the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Row {
    Game,
    /// The game's own row with this index.
    Choice(usize),
    Start,
}

/// What a key did to the menu.
#[derive(Debug)]
pub(crate) enum MenuAction {
    Stay,
    Start(Rc<dyn Setup>),
    Quit,
}

/// The games' choices and the row under the cursor.
#[derive(Debug)]
pub(crate) struct Menu {
    titles: Vec<&'static str>,
    games: Vec<Box<dyn GameMenu>>,
    /// Index of the game shown.
    pub game: usize,
    /// The game was named on the command line: no Game row.
    pub game_fixed: bool,
    /// Index into [`Menu::rows`].
    pub selected: usize,
}

impl Clone for Menu {
    fn clone(&self) -> Menu {
        Menu {
            titles: self.titles.clone(),
            games: self.games.iter().map(|g| g.clone_box()).collect(),
            game: self.game,
            game_fixed: self.game_fixed,
            selected: self.selected,
        }
    }
}

impl Menu {
    /// The menu of `games` as the options set them up: `args.game`
    /// preselected (and fixed) if given.
    pub(crate) fn new(games: &[&TuiGame], args: &TuiArgs) -> Menu {
        let named = args
            .game
            .as_deref()
            .and_then(|id| games.iter().position(|g| g.id == id));
        Menu {
            titles: games.iter().map(|g| g.title).collect(),
            games: games.iter().map(|g| (g.menu)(args)).collect(),
            game: named.unwrap_or(0),
            game_fixed: named.is_some(),
            selected: 0,
        }
    }

    /// The title of the game shown.
    pub(crate) fn title(&self) -> &'static str {
        self.titles.get(self.game).copied().unwrap_or("boardkit")
    }

    /// The choices of the game shown, as its own type (for tests).
    #[cfg(test)]
    pub(crate) fn choices_mut<T: GameMenu>(&mut self) -> &mut T {
        let game: &mut dyn Any = self.games[self.game].as_mut();
        game.downcast_mut().expect("the game shown")
    }

    /// The rows shown for the current choices.
    pub(crate) fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        if !self.game_fixed {
            rows.push(Row::Game);
        }
        let choices = self.games.get(self.game).map_or(0, |g| g.rows().len());
        rows.extend((0..choices).map(Row::Choice));
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
            Row::Game => ("Game", self.title().into()),
            Row::Choice(i) => self.games[self.game].rows().swap_remove(i),
            Row::Start => ("", "Start".into()),
        }
    }

    /// Why a choice is limited, to show under the menu.
    pub(crate) fn note(&self) -> Option<&'static str> {
        self.games.get(self.game)?.note()
    }

    pub(crate) fn handle(&mut self, key: Key) -> MenuAction {
        let count = self.rows().len();
        match key {
            Key::Up => self.selected = (self.selected + count - 1) % count,
            Key::Down | Key::Tab => self.selected = (self.selected + 1) % count,
            Key::Left => self.change(-1),
            Key::Right | Key::Char(' ') => self.change(1),
            Key::Enter => match self.setup() {
                Some(setup) => return MenuAction::Start(setup),
                None => return MenuAction::Stay,
            },
            Key::Char('q') | Key::Esc => return MenuAction::Quit,
            _ => {}
        }
        MenuAction::Stay
    }

    /// Steps the selected row's value by `step`.
    fn change(&mut self, step: i32) {
        match self.current() {
            Row::Game if !self.games.is_empty() => {
                let all: Vec<usize> = (0..self.games.len()).collect();
                self.game = cycle(&all, self.game, step);
            }
            Row::Game => {}
            Row::Choice(i) => self.games[self.game].change(i, step),
            Row::Start => {}
        }
        // Rows come and go with the mode: keep the cursor on the menu.
        self.selected = self.selected.min(self.rows().len() - 1);
    }

    /// The game the choices make (none on a menu of no games).
    pub(crate) fn setup(&self) -> Option<Rc<dyn Setup>> {
        Some(self.games.get(self.game)?.setup())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opponents::connect4::Computer as Connect4Computer;
    use crate::tui::TuiArgs;
    use crate::tui::connect4::Connect4Menu;

    fn menu(game: Option<&str>, size: u8) -> Menu {
        let args = TuiArgs {
            game: game.map(Into::into),
            size,
            ..Default::default()
        };
        Menu::new(&crate::registry::tui_games(), &args)
    }

    #[test]
    fn perfect_is_offered_on_seven_by_six_only() {
        let mut menu = menu(Some("connect4"), 3);
        assert_eq!(
            menu.rows()[0],
            Row::Choice(0),
            "no Game row when it was given"
        );
        assert_eq!(menu.line(menu.rows()[0]).0, "Mode");
        menu.selected = 1; // Level
        menu.handle(Key::Right);
        assert_eq!(
            menu.choices_mut::<Connect4Menu>().level,
            Connect4Computer::Perfect
        );
        menu.selected = 3; // Columns
        menu.handle(Key::Right);
        assert_eq!(menu.choices_mut::<Connect4Menu>().cols, 8);
        assert_eq!(
            menu.choices_mut::<Connect4Menu>().level,
            Connect4Computer::Smart
        );
        assert!(menu.note().is_some());
    }

    #[test]
    fn two_players_hide_the_computer_s_rows_and_enter_starts() {
        let mut menu = menu(None, 4);
        menu.handle(Key::Down); // Mode
        menu.handle(Key::Right);
        let labels: Vec<_> = menu.rows().into_iter().map(|r| menu.line(r).0).collect();
        assert_eq!(labels, ["Game", "Mode", "Size", ""]);
        let MenuAction::Start(setup) = menu.handle(Key::Enter) else {
            panic!("Enter starts")
        };
        assert_eq!(setup.description(), "4 x 4, dois jogadores");
        assert_eq!(setup.title(), crate::tui::velha::GAME.title);
    }

    #[test]
    fn the_game_row_cycles_through_every_game_and_keeps_each_one_s_choices() {
        let mut menu = menu(None, 3);
        let mut titles = Vec::new();
        let games = crate::registry::tui_games();
        for _ in 0..games.len() {
            titles.push(menu.title());
            menu.handle(Key::Right);
        }
        let expected: Vec<_> = games.iter().map(|g| g.title).collect();
        assert_eq!(titles, expected);
        assert_eq!(menu.title(), expected[0], "wraps");
        menu.handle(Key::Down); // Mode
        menu.handle(Key::Right); // two players
        menu.handle(Key::Up);
        menu.handle(Key::Right); // the next game and back
        menu.handle(Key::Left);
        let MenuAction::Start(setup) = menu.handle(Key::Enter) else {
            panic!("Enter starts")
        };
        assert_eq!(setup.description(), "3 x 3, dois jogadores");
    }
}
