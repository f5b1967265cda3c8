//! The full-screen program's state machine: the menu or a game, the running
//! score of the session, and what each key does. Pure: keys arrive as data
//! ([`Key`]), the computer's moves and hints are computed when the event
//! loop asks ([`App::work`]), and nothing here reads or writes a terminal,
//! so every behaviour is a unit test.

use std::collections::HashMap;
use std::time::Duration;

use super::connect4::Connect4Game;
use super::mastermind::MastermindGame;
use super::menu::{GameKind, Menu, MenuAction, Setup};
use super::velha::{VelhaGame, level_name};

/// A key, as the app understands it (the event loop translates the
/// terminal's key events into these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
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

/// Work the event loop runs between two frames, after showing that it is
/// under way (the perfect connect-four player may take about a second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// The computer is to move.
    Computer,
    /// A hint was asked for.
    Hint,
}

/// How a game ended, by seat: against the computer seat 0 is the person
/// and 1 the computer; between two players 0 is X, 1 is O; in Mastermind 0
/// is found and 1 is not found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Won(usize),
    Draw,
}

/// What every game does for the app: keys for its board, undo, hint, the
/// computer's moves, its result.
pub trait Round {
    /// A key for the board: cursor moves, colours, Enter to play.
    fn handle(&mut self, key: Key);
    /// Takes back the person's last move, and the computer's reply after it.
    fn undo(&mut self);
    /// Asks for a hint: [`Round::busy`] says so until [`Round::work`] finds it.
    fn request_hint(&mut self);
    /// The work waiting before the person can play, if any.
    fn busy(&self) -> Option<Busy>;
    /// Does the waiting work: the computer's move, or the hint.
    fn work(&mut self);
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

/// The game being played.
pub enum Game {
    Velha(VelhaGame),
    Connect4(Connect4Game),
    Mastermind(MastermindGame),
}

impl Game {
    fn new(setup: Setup, seed: u64) -> Game {
        match setup {
            Setup::Velha(setup) => Game::Velha(VelhaGame::new(setup, seed)),
            Setup::Connect4(setup) => Game::Connect4(Connect4Game::new(setup, seed)),
            Setup::Mastermind(setup) => Game::Mastermind(MastermindGame::new(setup, seed)),
        }
    }

    pub fn round(&self) -> &dyn Round {
        match self {
            Game::Velha(game) => game,
            Game::Connect4(game) => game,
            Game::Mastermind(game) => game,
        }
    }

    fn round_mut(&mut self) -> &mut dyn Round {
        match self {
            Game::Velha(game) => game,
            Game::Connect4(game) => game,
            Game::Mastermind(game) => game,
        }
    }
}

/// Games won by each seat and games drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: [u32; 2],
    pub draws: u32,
}

impl Tally {
    fn add(&mut self, ending: Ending) {
        match ending {
            Ending::Won(seat) => self.wins[seat] += 1,
            Ending::Draw => self.draws += 1,
        }
    }
}

/// A game and what the session knows of it: its setup, title and seats.
pub struct Match {
    pub setup: Setup,
    pub game: Game,
    /// Such as `3 x 3, you against the computer (hard)`.
    pub description: String,
    /// The score's names for seat 0 and seat 1.
    pub seats: [&'static str; 2],
    /// Whether the score shows draws (Mastermind has none).
    pub draws: bool,
}

impl Match {
    fn new(setup: Setup, seed: u64) -> Match {
        let (description, seats, draws) = match setup {
            Setup::Velha(s) => {
                let board = format!("{0} x {0}", s.size);
                match s.opponent {
                    Some(o) => (
                        format!(
                            "{board}, you against the computer ({})",
                            level_name(o.level)
                        ),
                        ["you", "computer"],
                        true,
                    ),
                    None => (format!("{board}, two players"), ["X", "O"], true),
                }
            }
            Setup::Connect4(s) => {
                let board = format!("{} x {}", s.cols, s.rows);
                match s.opponent {
                    Some(o) => (
                        format!("{board}, you against the computer ({})", o.level.name()),
                        ["you", "computer"],
                        true,
                    ),
                    None => (format!("{board}, two players"), ["X", "O"], true),
                }
            }
            Setup::Mastermind(s) => (
                if s.watch {
                    "the kit's codebreaker at work".into()
                } else {
                    format!("find the code in {} guesses", super::mastermind::TURNS)
                },
                ["found", "missed"],
                false,
            ),
        };
        Match {
            setup,
            game: Game::new(setup, seed),
            description,
            seats,
            draws,
        }
    }

    /// The game's kind.
    pub fn kind(&self) -> GameKind {
        match self.setup {
            Setup::Velha(_) => GameKind::Velha,
            Setup::Connect4(_) => GameKind::Connect4,
            Setup::Mastermind(_) => GameKind::Mastermind,
        }
    }
}

/// What the screen shows.
pub enum Screen {
    Menu(Menu),
    Playing(Box<Match>),
}

/// The program's state: the screen, the session's scores and the seed.
pub struct App {
    screen: Screen,
    /// The menu as last left, to come back to.
    menu: Menu,
    /// The score of each setup played this session, finished games only.
    scores: HashMap<String, Tally>,
    seed: u64,
    /// Games started this session: game `k` uses seed `seed + k`.
    started: u64,
    quit: bool,
}

impl App {
    /// The app on its menu. `seed` makes the computer's choices, the hints
    /// and the secrets repeatable.
    pub fn new(menu: Menu, seed: u64) -> App {
        App {
            screen: Screen::Menu(menu.clone()),
            menu,
            scores: HashMap::new(),
            seed,
            started: 0,
            quit: false,
        }
    }

    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Whether the person asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The score of the match on screen: past games of the same setup, and
    /// this one if it is over.
    pub fn score(&self) -> Option<Tally> {
        let Screen::Playing(game) = &self.screen else {
            return None;
        };
        let mut tally = self
            .scores
            .get(&score_key(&game.setup))
            .copied()
            .unwrap_or_default();
        if let Some(ending) = game.game.round().ending() {
            tally.add(ending);
        }
        Some(tally)
    }

    /// What a key does.
    pub fn handle(&mut self, key: Key) {
        if key == Key::Interrupt {
            self.quit = true;
            return;
        }
        match &mut self.screen {
            Screen::Menu(menu) => match menu.handle(key) {
                MenuAction::Stay => {}
                MenuAction::Quit => self.quit = true,
                MenuAction::Start(setup) => {
                    self.menu = menu.clone();
                    self.start(setup);
                }
            },
            Screen::Playing(game) => {
                let round = game.game.round_mut();
                let over = round.ending().is_some();
                match key {
                    Key::Char('q') | Key::Esc => {
                        self.finish();
                        self.screen = Screen::Menu(self.menu.clone());
                    }
                    Key::Char('n') => self.play_again(),
                    Key::Enter if over => self.play_again(),
                    Key::Char('u') if !over || round.can_undo_after_the_end() => round.undo(),
                    Key::Char('h') => round.request_hint(),
                    _ => round.handle(key),
                }
            }
        }
    }

    /// The work waiting before the next key, if any: the event loop draws
    /// the screen (which says so), then calls [`App::work`].
    pub fn busy(&self) -> Option<Busy> {
        match &self.screen {
            Screen::Playing(game) => game.game.round().busy(),
            Screen::Menu(_) => None,
        }
    }

    /// Does the waiting work: the computer's move or the hint.
    pub fn work(&mut self) {
        if let Screen::Playing(game) = &mut self.screen {
            game.game.round_mut().work();
        }
    }

    /// Does all the waiting work (the computer's replies, a hint).
    pub fn settle(&mut self) {
        while self.busy().is_some() {
            self.work();
        }
    }

    /// How long the event loop may wait for a key before [`App::tick`].
    pub fn tick_interval(&self) -> Option<Duration> {
        match &self.screen {
            Screen::Playing(game) => game.game.round().tick_interval(),
            Screen::Menu(_) => None,
        }
    }

    /// Time passed without a key.
    pub fn tick(&mut self) {
        if let Screen::Playing(game) = &mut self.screen {
            game.game.round_mut().tick();
        }
    }

    fn start(&mut self, setup: Setup) {
        let seed = self.seed.wrapping_add(self.started);
        self.started += 1;
        self.screen = Screen::Playing(Box::new(Match::new(setup, seed)));
    }

    /// Counts the game on screen in the session's score, if it is over.
    fn finish(&mut self) {
        if let Screen::Playing(game) = &self.screen {
            if let Some(ending) = game.game.round().ending() {
                self.scores
                    .entry(score_key(&game.setup))
                    .or_default()
                    .add(ending);
            }
        }
    }

    /// A new game of the same setup; the score goes on.
    fn play_again(&mut self) {
        self.finish();
        if let Screen::Playing(game) = &self.screen {
            let setup = game.setup;
            self.start(setup);
        }
    }
}

/// Games of the same setup share a score.
fn score_key(setup: &Setup) -> String {
    format!("{setup:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::connect4::{Connect4Level, Connect4Opponent, Connect4Setup};
    use crate::velha::ai::Difficulty;

    fn velha_app(level: Difficulty) -> App {
        let mut menu = Menu::new(Some(GameKind::Velha), 3, 7, 6);
        menu.velha_level = level;
        let mut app = App::new(menu, 11);
        app.handle(Key::Enter);
        app
    }

    fn velha(app: &App) -> &VelhaGame {
        match app.screen() {
            Screen::Playing(m) => match &m.game {
                Game::Velha(game) => game,
                _ => panic!("not velha"),
            },
            Screen::Menu(_) => panic!("on the menu"),
        }
    }

    fn press(app: &mut App, keys: &[Key]) {
        for &key in keys {
            app.handle(key);
            app.settle();
        }
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_and_your_move() {
        let mut app = velha_app(Difficulty::Hard);
        press(&mut app, &[Key::Enter]); // B2, the centre
        assert_eq!(velha(&app).board().marks(), 2, "the computer replied");
        let reply = velha(&app).last_move().unwrap();
        press(&mut app, &[Key::Char('u')]);
        assert_eq!(velha(&app).board().marks(), 0);
        assert_eq!(app.busy(), None, "your turn again, not the computer's");
        press(&mut app, &[Key::Enter]);
        assert_eq!(velha(&app).board().marks(), 2);
        assert_ne!(velha(&app).board().get(reply), None, "the same reply");
    }

    #[test]
    fn a_hint_is_shown_and_never_played() {
        let mut app = velha_app(Difficulty::Easy);
        press(&mut app, &[Key::Enter]);
        let before = *velha(&app).board();
        app.handle(Key::Char('h'));
        assert_eq!(app.busy(), Some(Busy::Hint));
        app.settle();
        let hint = velha(&app).hint().expect("a hint");
        assert_eq!(*velha(&app).board(), before, "nothing played");
        assert_eq!(velha(&app).board().get(hint), None, "an empty cell");
        assert_eq!(velha(&app).board().to_move(), before.to_move());
        // Playing elsewhere clears it.
        let elsewhere = before
            .empty_cells()
            .into_iter()
            .find(|&p| p != hint)
            .unwrap();
        let cursor = velha(&app).cursor();
        let mut keys = Vec::new();
        keys.extend(std::iter::repeat_n(Key::Up, cursor.row));
        keys.extend(std::iter::repeat_n(Key::Left, cursor.col));
        keys.extend(std::iter::repeat_n(Key::Down, elsewhere.row));
        keys.extend(std::iter::repeat_n(Key::Right, elsewhere.col));
        keys.push(Key::Enter);
        press(&mut app, &keys);
        assert_eq!(velha(&app).hint(), None);
        assert_eq!(velha(&app).board().get(elsewhere), Some(before.to_move()));
    }

    #[test]
    fn play_again_keeps_the_score() {
        let menu = Menu::new(Some(GameKind::Connect4), 3, 7, 6);
        let mut app = App::new(menu, 5);
        // Two players: X fills column 1 while O plays column 2.
        press(&mut app, &[Key::Left, Key::Enter]);
        let Screen::Playing(m) = app.screen() else {
            panic!("playing")
        };
        assert_eq!(m.seats, ["X", "O"]);
        let x_wins = [
            Key::Char('1'),
            Key::Enter,
            Key::Char('2'),
            Key::Enter,
            Key::Char('1'),
            Key::Enter,
            Key::Char('2'),
            Key::Enter,
            Key::Char('1'),
            Key::Enter,
            Key::Char('2'),
            Key::Enter,
            Key::Char('1'),
            Key::Enter,
        ];
        press(&mut app, &x_wins);
        let won = Tally {
            wins: [1, 0],
            draws: 0,
        };
        assert_eq!(app.score(), Some(won));
        press(&mut app, &[Key::Char('n')]);
        assert_eq!(app.score(), Some(won), "the new game starts with the score");
        press(&mut app, &x_wins);
        press(&mut app, &[Key::Enter]); // Enter after the end: play again
        let twice = Tally {
            wins: [2, 0],
            draws: 0,
        };
        assert_eq!(app.score(), Some(twice));
        // Undo reopens a finished game and takes its result back.
        press(&mut app, &x_wins[..13]);
        press(&mut app, &[Key::Enter, Key::Char('u')]);
        assert_eq!(app.score(), Some(twice));
        // Back to the menu and into the same setup: the score is the session's.
        press(&mut app, &[Key::Char('q'), Key::Enter]);
        assert_eq!(app.score(), Some(twice));
    }

    #[test]
    fn the_perfect_player_never_loses_and_ctrl_c_quits() {
        let menu = Menu {
            connect4_level: Connect4Level::Perfect,
            computer_first: true,
            ..Menu::new(Some(GameKind::Connect4), 3, 7, 6)
        };
        let mut app = App::new(menu, 2);
        press(&mut app, &[Key::Enter]);
        let Screen::Playing(m) = app.screen() else {
            panic!("playing")
        };
        assert_eq!(
            m.setup,
            Setup::Connect4(Connect4Setup {
                cols: 7,
                rows: 6,
                opponent: Some(Connect4Opponent {
                    level: Connect4Level::Perfect,
                    computer_first: true
                })
            })
        );
        // Always the leftmost open column: the perfect player wins.
        loop {
            let Screen::Playing(m) = app.screen() else {
                panic!("playing")
            };
            let Game::Connect4(game) = &m.game else {
                panic!("connect four")
            };
            if game.is_over() {
                break;
            }
            let col = game.board().legal_columns()[0];
            let digit = char::from_digit(col as u32 + 1, 10).unwrap();
            press(&mut app, &[Key::Char(digit), Key::Enter]);
        }
        assert_eq!(
            app.score(),
            Some(Tally {
                wins: [0, 1],
                draws: 0
            })
        );
        app.handle(Key::Interrupt);
        assert!(app.should_quit());
    }

    #[test]
    fn q_leaves_a_game_for_the_menu_and_the_menu_for_good() {
        let mut app = velha_app(Difficulty::Easy);
        press(&mut app, &[Key::Char('q')]);
        assert!(matches!(app.screen(), Screen::Menu(_)));
        assert!(!app.should_quit());
        press(&mut app, &[Key::Esc]);
        assert!(app.should_quit());
    }
}
